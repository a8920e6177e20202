// Element-wise assignments, vector shape (after assign_common.cl, CONTIGUOUS): each work-item
// stores WIDTH consecutive elements on OpenCL vector types (pocl leaves scalar calls of math
// functions unvectorised, but its floatN builtins are SIMD); the last partial run goes element
// by element.

#define VECTOR_BASE(j) layout.offset[j]

kernel void clarray_assign(@OPERAND_PARAMETERS@, LAYOUT_PARAMETER) {
    const ulong first = get_global_id(0) * WIDTH;
    const ulong count = layout.count;
    if (first + WIDTH <= count) {
        FOR_EACH_OPERAND(DECLARE_FLAT_OFFSET, first)
        FOR_EACH_HALF_VECTOR(DECLARE_VECTOR_INDEX, ~)
        @STORE_VECTOR@
    } else {
        for (ulong index = first; index < count; ++index) {
            FOR_EACH_OPERAND(DECLARE_FLAT_OFFSET, index)
            @STORE_ELEMENT@
        }
    }
}
