// Element-wise assignments, part 1 of every program: the index types, the layout argument and
// the operands' element offsets. One of the shape skeletons follows it, each defining the kernel
// clarray_assign (docs/internals/elementwise.md):
//
//   assign_flat.cl     a work-item per element of a 1-d iteration (every operand contiguous, or
//                      one strided axis; rank 0 is one element)
//   assign_strided.cl  rank >= 2 with some operand not unit-stride along the innermost axis:
//                      dimension 0 over the innermost axis, dimensions 1 and 2 over the rows
//   assign_rows.cl     every operand steps the innermost axis by 1 (an input also by 0): a
//                      work-item finds its row once and walks WIDTH elements of it
//   assign_vector.cl   contiguous, WIDTH elements per work-item on OpenCL vector types
//
// The layout argument, a clarray_layout (declared by the generator from assign_layout_schema),
// holds
//   count              flat and vector shapes: the elements; strided and rows shapes: the rows
//   shape[axis]        (not when contiguous) the extents after coalescing
//   offset[j]          operand j's first element (operands: the outputs, then the inputs)
//   stride[j][axis]    (not when contiguous) operand j's steps
// Hooks from the generator (src/codegen/assign_source.cpp):
//   INDEX32            strided and rows shapes: 1 when every position and offset fits in
//                      32 bits (the row arithmetic is then 32-bit), else 0
//   LAYOUT_IN_BUFFER   1: the layout comes through a constant pointer (too big for the
//                      parameter space), else by value
//   RANK               the iteration rank after coalescing (at least 1)
//   CONTIGUOUS         1: every operand unit-stride 1-d (flat and vector shapes)
//   WIDTH              elements per work-item (rows and vector shapes; 1 elsewhere)
//   FOR_EACH_OPERAND(X, A)          X(j, A) for every array operand a<j>, outputs first
//   FOR_EACH_ALONG_ROW(X, A)        rows: the operands stepping along the row
//   FOR_EACH_INNER_BROADCAST(X, A)  rows: the inputs constant along the row (read once)
//   FOR_EACH_HALF_VECTOR(X, A)      WIDTH > 1: the float16 operands accessed as vectors
// and at the marked points (@...@) of the shape skeletons the text of the expression:
//   @OPERAND_PARAMETERS@   the outputs' and inputs' parameter declarations
//                          ("global float* a0, global const float* a1, float s0")
//   @STORE_ELEMENT@        the statements storing one element of every output at o<k>
//                          ("a0[o0] = ((float)(a1[o1] * s0));")
//   @STORE_VECTOR@         WIDTH > 1: the statements storing WIDTH elements of every output
//                          ("vstore8(vload8(0, a1 + o1) * (float8)(s0), 0, a0 + o0);")
// The expression reads array operand j at its offset o<j> (a<j>[o<j>], vload8(0, a<j> + o<j>)),
// and a float16 operand accessed as a vector at its vector position v<j> (vload_half8(v<j>,
// a<j>)); the shape skeletons declare both before the stores.

// The types of the row arithmetic of the strided and rows shapes: the row index and its
// coordinates (index_t) and the offsets where rows start (offset_t, signed: strides may be
// negative), 32-bit with INDEX32 (the unravelling divides and multiplies in 32 bits). The
// work-item's position along dimension 0 (an element or a column: ulong) and the element
// offsets o<j> (long) stay 64-bit, the row offset sign-extended into them: pocl's vectoriser
// then still sees consecutive work-items read consecutive elements. With int element offsets it
// did not (pocl, 3 alternating runs: a flat strided copy of 8e6 elements 3.3x slower, a rank-3
// transpose of 256^3 1.5x slower).
#if INDEX32
typedef uint index_t;
typedef int offset_t;
#else
typedef ulong index_t;
typedef long offset_t;
#endif

#if LAYOUT_IN_BUFFER
#define LAYOUT_PARAMETER constant clarray_layout* layout_in_buffer
#define layout (*layout_in_buffer)
#else
#define LAYOUT_PARAMETER clarray_layout layout
#endif

// o<j> at flat position `index` (flat and vector shapes).
#if CONTIGUOUS
#define DECLARE_FLAT_OFFSET(j, index) const long o##j = layout.offset[j] + (long)(index);
#else
#define DECLARE_FLAT_OFFSET(j, index)                                                          \
    const long o##j = layout.offset[j] + (long)(index) * layout.stride[j][0];
#endif

// row_offset<j>: where operand j's row `row` starts (strided and rows shapes). Rank 1 is one
// row, rank 2 one multiply; higher ranks unravel the row index once: axes RANK-2..1 by
// division, axis 0 by what remains.
#if RANK == 2
#define DECLARE_ROW_OFFSET(j, row)                                                             \
    offset_t row_offset##j =                                                                   \
        (offset_t)layout.offset[j] + (offset_t)(row) * (offset_t)layout.stride[j][0];
#else
#define DECLARE_ROW_OFFSET(j, unused) offset_t row_offset##j = (offset_t)layout.offset[j];
#endif
#define ADD_ROW_COORDINATE(j, axis)                                                            \
    row_offset##j += (offset_t)coordinate * (offset_t)layout.stride[j][axis];
#define ADD_OUTER_COORDINATE(j, unused)                                                        \
    row_offset##j += (offset_t)rest * (offset_t)layout.stride[j][0];
#if RANK > 2
#define DECLARE_ROW_OFFSETS(row)                                                               \
    FOR_EACH_OPERAND(DECLARE_ROW_OFFSET, ~)                                                    \
    {                                                                                          \
        index_t rest = (row);                                                                  \
        for (int axis = RANK - 2; axis >= 1; --axis) {                                         \
            const index_t coordinate = rest % (index_t)layout.shape[axis];                     \
            rest /= (index_t)layout.shape[axis];                                               \
            FOR_EACH_OPERAND(ADD_ROW_COORDINATE, axis)                                         \
        }                                                                                      \
        FOR_EACH_OPERAND(ADD_OUTER_COORDINATE, ~)                                              \
    }
#else
#define DECLARE_ROW_OFFSETS(row) FOR_EACH_OPERAND(DECLARE_ROW_OFFSET, row)
#endif

// v<j>: the position in vectors of float16 operand j's WIDTH elements (vload_halfN takes no
// arithmetic on half pointers): VECTOR_BASE(j), the operand's first element of the work-item's
// run or row (a multiple of WIDTH: the plan takes float16 vector kernels only then), over
// WIDTH, plus the work-item's index. Linear in the work-item, so that the compiler sees
// consecutive vectors (pocl, add_f16 at 1.6e7: indexing by (base + first) / WIDTH ran at 0.57x
// the hand-written 4-per-work-item kernel, this form at 0.89x).
#define DECLARE_VECTOR_INDEX(j, unused)                                                        \
    const long v##j = (long)(VECTOR_BASE(j) / WIDTH) + (long)get_global_id(0);
