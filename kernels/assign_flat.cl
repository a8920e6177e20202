// Element-wise assignments, flat shape (after assign_common.cl): a work-item per element of a
// 1-d iteration, every operand contiguous (CONTIGUOUS) or stepping by its stride[j][0].

kernel void clarray_assign(@OPERAND_PARAMETERS@, LAYOUT_PARAMETER) {
    const ulong index = get_global_id(0);
    if (index >= layout.count) return;
    FOR_EACH_OPERAND(DECLARE_FLAT_OFFSET, index)
    @STORE_ELEMENT@
}
