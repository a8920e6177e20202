// Element-wise assignments, strided shape (after assign_common.cl), RANK >= 2: dimension 0
// walks the innermost axis (a column), dimensions 1 and 2 the rows, i.e. the flattened outer
// axes (dimension 2 only past a driver's group-count limit: strided_launch in
// src/expr/assign_plan.cpp). Rank 2 needs no division; higher ranks unravel only the row
// index. No loop in the body, so pocl vectorises across dimension 0.

// o<j> at `column` of the row.
#define DECLARE_STRIDED_OFFSET(j, column)                                                      \
    const long o##j = (long)row_offset##j + (long)(column) * layout.stride[j][RANK - 1];

kernel void clarray_assign(@OPERAND_PARAMETERS@, LAYOUT_PARAMETER) {
    const ulong column = get_global_id(0);
    const index_t row = (index_t)(get_global_id(1) + get_global_id(2) * get_global_size(1));
    if (column >= layout.shape[RANK - 1] || row >= (index_t)layout.count) return;
    DECLARE_ROW_OFFSETS(row)
    FOR_EACH_OPERAND(DECLARE_STRIDED_OFFSET, column)
    @STORE_ELEMENT@
}
