// Element-wise assignments, rows shape (after assign_common.cl): every operand steps the
// innermost axis (the row) by 1, or, for the inputs of FOR_EACH_INNER_BROADCAST, by 0. A 2-d
// launch: dimension 0 along the row, WIDTH elements per work-item (with WIDTH > 1 on vector
// types, the row's last partial run element by element), dimensions 1 and 2 over the rows.
// Each work-item finds its row's offsets once (no division for RANK <= 2) and walks the row
// with unit steps the compiler sees; an inner-broadcast input is read once.

// o<j> at `column` of the row.
#define DECLARE_ALONG_ROW_OFFSET(j, column)                                                    \
    const long o##j = (long)row_offset##j + (long)(column);
#define DECLARE_BROADCAST_OFFSET(j, unused) const long o##j = (long)row_offset##j;
#define DECLARE_ROW_ELEMENT_OFFSETS(column)                                                    \
    FOR_EACH_ALONG_ROW(DECLARE_ALONG_ROW_OFFSET, column)                                       \
    FOR_EACH_INNER_BROADCAST(DECLARE_BROADCAST_OFFSET, ~)
#define VECTOR_BASE(j) row_offset##j

kernel void clarray_assign(@OPERAND_PARAMETERS@, LAYOUT_PARAMETER) {
    const ulong first = get_global_id(0) * WIDTH;
    const index_t row = (index_t)(get_global_id(1) + get_global_id(2) * get_global_size(1));
    const ulong row_length = layout.shape[RANK - 1];
    if (first >= row_length || row >= (index_t)layout.count) return;
    DECLARE_ROW_OFFSETS(row)
#if WIDTH == 1
    DECLARE_ROW_ELEMENT_OFFSETS(first)
    @STORE_ELEMENT@
#else
    if (first + WIDTH <= row_length) {
        DECLARE_ROW_ELEMENT_OFFSETS(first)
        FOR_EACH_HALF_VECTOR(DECLARE_VECTOR_INDEX, ~)
        @STORE_VECTOR@
    } else {
        for (ulong column = first; column < row_length; ++column) {
            DECLARE_ROW_ELEMENT_OFFSETS(column)
            @STORE_ELEMENT@
        }
    }
#endif
}
