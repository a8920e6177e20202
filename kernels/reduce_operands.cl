// Reductions and scans, part 2 of the programs that map an expression (reduce_stage1.cl,
// scan.cl): the layout argument, the operands' offsets and the map (docs/reductions.md).
//
// Iteration space: the map expression's shape split into kept axes (outer, one output each) and
// reduced axes (inner), each group coalesced on its own. The layout argument, a
// clarray_rlayout (declared by the generator from reduce_layout_schema), holds
//   outputs         the number of outputs (kept elements)
//   length          reduced elements per output, cut into part_count parts of `chunk` elements
//   inner_outputs   the extent of the innermost kept axis; inner_blocks: blocks of it per item
//   count           the count clarray_finish divides by (e.g. mean's)
//   kept_shape[axis], reduced_shape[axis]
//   offset[row], kept_stride[row][axis], reduced_stride[row][axis]   of every array operand
// Hooks from the generator:
//   FOR_EACH_INPUT(X, A)    X(j, A) for every array input a<j> of the map
//   LAYOUT_IN_BUFFER        1: the layout comes through a constant pointer (too big for the
//                           parameter space), else by value
//   KEPT_RANK, REDUCED_RANK the ranks of the two groups after coalescing (at least 1)
//   REDUCED_CONTIGUOUS      1: one reduced axis with unit stride for every input
//   VALUE                   the type of the mapped value
// and at the marked points (@...@) the text of the expression: the inputs' parameter
// declarations, the matching arguments and the map expression.
// Each skeleton defines LAYOUT_ROW(j), the layout row of operand j.

#if LAYOUT_IN_BUFFER
#define LAYOUT_PARAMETER constant clarray_rlayout* layout_in_buffer
#define layout (*layout_in_buffer)
#else
#define LAYOUT_PARAMETER clarray_rlayout layout
#endif

// kept_offset<j>: where operand j's elements of one output start.
#define DECLARE_KEPT_OFFSET(j, unused) long kept_offset##j = layout.offset[LAYOUT_ROW(j)];
#define ADD_KEPT_INDEX(j, index) kept_offset##j += (long)(index) * layout.kept_stride[LAYOUT_ROW(j)][0];
#define ADD_KEPT_COORDINATE(j, axis)                                                           \
    kept_offset##j += (long)coordinate * layout.kept_stride[LAYOUT_ROW(j)][axis];
// Declares kept_offset<j> of every operand in OPERANDS (an X-macro list) at the flat index
// `index` over the first `rank` kept axes.
#define DECLARE_KEPT_OFFSETS(OPERANDS, index, rank)                                            \
    OPERANDS(DECLARE_KEPT_OFFSET, ~)                                                           \
    if ((rank) == 1) {                                                                         \
        OPERANDS(ADD_KEPT_INDEX, index)                                                        \
    } else {                                                                                   \
        ulong rest = (index);                                                                  \
        for (int axis = (rank) - 1; axis >= 0; --axis) {                                       \
            const ulong coordinate = rest % layout.kept_shape[axis];                           \
            rest /= layout.kept_shape[axis];                                                   \
            OPERANDS(ADD_KEPT_COORDINATE, axis)                                                \
        }                                                                                      \
    }

// reduced_offset<j>: operand j's offset of the reduced flat index `index`, from kept_offset<j>.
#if REDUCED_CONTIGUOUS
#define DECLARE_REDUCED_OFFSET(j, index) long reduced_offset##j = (long)(index);
#define DECLARE_REDUCED_OFFSETS(OPERANDS, index) OPERANDS(DECLARE_REDUCED_OFFSET, index)
#elif REDUCED_RANK == 1
#define DECLARE_REDUCED_OFFSET(j, index)                                                       \
    long reduced_offset##j = (long)(index) * layout.reduced_stride[LAYOUT_ROW(j)][0];
#define DECLARE_REDUCED_OFFSETS(OPERANDS, index) OPERANDS(DECLARE_REDUCED_OFFSET, index)
#else
#define DECLARE_REDUCED_OFFSET(j, unused) long reduced_offset##j = 0;
#define ADD_REDUCED_COORDINATE(j, axis)                                                        \
    reduced_offset##j += (long)coordinate * layout.reduced_stride[LAYOUT_ROW(j)][axis];
#define DECLARE_REDUCED_OFFSETS(OPERANDS, index)                                               \
    OPERANDS(DECLARE_REDUCED_OFFSET, ~)                                                        \
    {                                                                                          \
        ulong rest = (index);                                                                  \
        for (int axis = REDUCED_RANK - 1; axis >= 0; --axis) {                                 \
            const ulong coordinate = rest % layout.reduced_shape[axis];                        \
            rest /= layout.reduced_shape[axis];                                                \
            OPERANDS(ADD_REDUCED_COORDINATE, axis)                                             \
        }                                                                                      \
    }
#endif

// The map: the expression's value with array input j read at element o<j>.
#define OFFSET_PARAMETER(j, unused) , long o##j
inline VALUE clarray_map(@INPUT_PARAMETERS@ FOR_EACH_INPUT(OFFSET_PARAMETER, ~)) {
    return @MAP_EXPRESSION@;
}
// The mapped value at kept_offset<j> + reduced_offset<j>, and that plus `shift` steps along the
// innermost kept axis (inner_stride<j>: the neighbouring outputs of the outputs and rows shapes).
#define OFFSET_ARGUMENT(j, unused) , kept_offset##j + reduced_offset##j
#define SHIFTED_OFFSET_ARGUMENT(j, shift)                                                      \
    , kept_offset##j + reduced_offset##j + (long)(shift) * inner_stride##j
#define MAPPED_VALUE clarray_map(@INPUT_ARGUMENTS@ FOR_EACH_INPUT(OFFSET_ARGUMENT, ~))
#define MAPPED_VALUE_SHIFTED(shift)                                                            \
    clarray_map(@INPUT_ARGUMENTS@ FOR_EACH_INPUT(SHIFTED_OFFSET_ARGUMENT, shift))
