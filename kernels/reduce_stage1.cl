// Reductions, stage 1: the kernel clarray_reduce, in one of four shapes (docs/reductions.md).
// Follows reduce_ops.cl and reduce_operands.cl. Each output's reduced elements are cut into
// layout.part_count parts; a unit (one output, one part) leaves either the finished output
// (FINISH_HERE: one part), a partial for stage 2 (reduce_combine.cl), or, with ONE_PASS, a
// partial that the last unit of its output to finish combines into the finished output.
//
//   SHAPE_CHUNKS      a unit per (output, part). COOPERATIVE (GPUs): a unit is a work-group whose
//                     items read interleaved (coalesced), LANES loads in flight each, and meet in
//                     a local-memory tree. Else (CPUs) a unit is one work-item reading its
//                     contiguous chunk into LANES accumulators (blocked compensation).
//   SHAPE_OUTPUTS     a work-item per LANES neighbouring outputs (along the innermost kept axis),
//                     looping down the reduced axes; chosen when rows are short, and on GPUs when
//                     the kept axes are the contiguous ones (column sums). With one output per
//                     item (LANES 1), STEPS reduced steps are in flight.
//   SHAPE_ROWS        CPUs, kept axes contiguous: a work-item streams the rows of its part
//                     through a strip of up to ROWS_STRIP outputs, accumulating in rows of the
//                     partials buffer (cache-resident) so that the inner loop over the strip
//                     vectorises; always leaves partials.
//   SHAPE_SHORT_AXIS  one short reduced axis (at most 8 elements): a work-item per output
//                     walking the axis in registers, launched 2-d (dimension 0: the innermost kept
//                     axis, dimension 1: the others), so neighbouring items vectorise together.
//
// Hooks from the generator, besides those of reduce_ops.cl and reduce_operands.cl:
//   SHAPE, FINISH_HERE, ONE_PASS, COOPERATIVE, KEPT_CONTIGUOUS (rows: the innermost kept axis
//   has unit stride for every input), ROWS_STRIP (rows: outputs per strip)
//   LANES, FOR_EACH_LANE(X, A), FOLD_LANES(F)   accumulators per work-item
//   STEPS, FOR_EACH_STEP(X, A), FOLD_STEPS(F)   outputs shape, one output per item: steps in flight
//   OUTPUT                  the stored output type; STORE_OUTPUT(pointer, index, value) stores a
//                           finished value (float16: rounded by vstore_half_rte)
//   DEVICE_FENCE()          ONE_PASS: orders a unit's partial before its count
// Parameters: (global RESULT* result, inputs..., ACC neutral, layout, [local ACC* scratch],
// [global ACC* parts, global int* counters]).

#define SHAPE_CHUNKS 0
#define SHAPE_OUTPUTS 1
#define SHAPE_ROWS 2
#define SHAPE_SHORT_AXIS 3

// Layout row of input j (row 0 is input 1: the output is not a layout operand here).
#define LAYOUT_ROW(j) ((j) - 1)

// What `result` holds: finished outputs, or the accumulator partials [outputs, part_count]
// (followed in the rows shape by its accumulator rows).
#if FINISH_HERE || ONE_PASS
#define RESULT OUTPUT
#else
#define RESULT ACC
#endif
#if SHAPE == SHAPE_ROWS
#define RESULT_RESTRICT restrict
#else
#define RESULT_RESTRICT
#endif

#if ONE_PASS
// Stores the partial `value` of `output` from `part` and counts it on the output's counter; the
// work-item that counts the last of the output's partials combines them, writes the finished
// output and sets the counter back to 0. DEVICE_FENCE publishes the partial before the count,
// and orders the last item's reads after it.
ALWAYS_INLINE void finish_when_last(global OUTPUT* result, global ACC* parts,
                                    global int* counters, ulong output, ulong part,
                                    ulong part_count, long count, ACC neutral, ACC value) {
    parts[output * part_count + part] = value;
    DEVICE_FENCE();
    if (atomic_inc(counters + output) == (int)(part_count - 1)) {
        DEVICE_FENCE();
        const ACC total = combine_partials(parts + output * part_count, part_count, neutral);
        STORE_OUTPUT(result, output, clarray_finish(total, count));
        counters[output] = 0;
    }
}
#define WRITE_RESULT(output, value)                                                            \
    finish_when_last(result, parts, counters, output, part, layout.part_count, layout.count,   \
                     neutral, value);
#elif FINISH_HERE
#define WRITE_RESULT(output, value) STORE_OUTPUT(result, output, clarray_finish(value, layout.count));
#else
#define WRITE_RESULT(output, value) result[(output) * layout.part_count + part] = (value);
#endif
#define WRITE_LANE_RESULT(k, first_output) WRITE_RESULT(first_output + k, acc##k)

// Lane k takes the element at reduced index `at` (shifted by `shift` outputs): maps it and
// accumulates it, compensated per element, or blocked (into block<k>).
#define LANE_STEP(k, at)                                                                       \
    {                                                                                          \
        DECLARE_REDUCED_OFFSETS(FOR_EACH_INPUT, at)                                            \
        const ACC value = clarray_from(MAPPED_VALUE, at);                                      \
        ACCUMULATE_LANE(k, value)                                                              \
    }
#define LANE_STEP_SHIFTED(k, at, shift)                                                        \
    {                                                                                          \
        DECLARE_REDUCED_OFFSETS(FOR_EACH_INPUT, at)                                            \
        const ACC value = clarray_from(MAPPED_VALUE_SHIFTED(shift), at);                       \
        ACCUMULATE_LANE(k, value)                                                              \
    }
#define LANE_STEP_BLOCKED(k, at)                                                               \
    {                                                                                          \
        DECLARE_REDUCED_OFFSETS(FOR_EACH_INPUT, at)                                            \
        const ACC value = clarray_from(MAPPED_VALUE, at);                                      \
        ACCUMULATE_BLOCK(k, value)                                                             \
    }
// The steps of one round of the lanes: chunks (CPU: neighbouring elements; GPU: a group's width
// apart), outputs (GPU: neighbouring elements of one output; CPU: one element of neighbouring
// outputs, from offsets computed once for the round).
#define CHUNK_LANE_STEP(k, unused) LANE_STEP_BLOCKED(k, index + k)
#define GROUP_LANE_STEP(k, unused) LANE_STEP(k, index + k * group_size)
#define OUTPUT_STEP(k, unused) LANE_STEP_SHIFTED(k, index + k, lane)
#define OUTPUT_LANE_STEP(k, unused)                                                            \
    {                                                                                          \
        const ACC value = clarray_from(MAPPED_VALUE_SHIFTED(k), index);                        \
        ACCUMULATE_BLOCK(k, value)                                                             \
    }

#if SHAPE == SHAPE_OUTPUTS || SHAPE == SHAPE_ROWS
// inner_stride<j>: input j's step between neighbouring outputs.
#if SHAPE == SHAPE_ROWS && KEPT_CONTIGUOUS
#define DECLARE_INNER_STRIDE(j, unused) const long inner_stride##j = 1;
#else
#define DECLARE_INNER_STRIDE(j, unused)                                                        \
    const long inner_stride##j = layout.kept_stride[LAYOUT_ROW(j)][KEPT_RANK - 1];
#endif
#endif
#if SHAPE == SHAPE_SHORT_AXIS
#define ADD_INNER_OFFSET(j, inner)                                                             \
    kept_offset##j += (long)inner * layout.kept_stride[LAYOUT_ROW(j)][KEPT_RANK - 1];
#endif

kernel void clarray_reduce(global RESULT* RESULT_RESTRICT result, @INPUT_PARAMETERS@,
                           ACC neutral, LAYOUT_PARAMETER
#if COOPERATIVE
                           , local ACC* scratch
#endif
#if ONE_PASS
                           , global ACC* parts, global int* counters
#endif
) {
#if SHAPE == SHAPE_SHORT_AXIS
    // Item (inner, outer) makes output outer * inner_outputs + inner.
    const ulong inner = get_global_id(0), outer = get_global_id(1);
    if (inner >= layout.inner_outputs || outer >= layout.outputs / layout.inner_outputs) return;
#if KEPT_RANK > 1
    DECLARE_KEPT_OFFSETS(FOR_EACH_INPUT, outer, KEPT_RANK - 1)
#else
    DECLARE_KEPT_OFFSETS(FOR_EACH_INPUT, 0, 1)
#endif
    FOR_EACH_INPUT(ADD_INNER_OFFSET, inner)
    ACC acc0 = neutral;
    for (ulong index = 0; index < layout.length; ++index) {
        DECLARE_REDUCED_OFFSETS(FOR_EACH_INPUT, index)
        acc0 = clarray_combine(acc0, clarray_from(MAPPED_VALUE, index));
    }
    STORE_OUTPUT(result, outer * layout.inner_outputs + inner, clarray_finish(acc0, layout.count));

#elif SHAPE == SHAPE_CHUNKS && COOPERATIVE
    // A work-group per unit: its items step through the chunk a group's width apart, LANES
    // loads in flight each (every load instruction of the group stays coalesced).
    const ulong unit = get_group_id(0);
    const ulong output = unit / layout.part_count, part = unit % layout.part_count;
    DECLARE_KEPT_OFFSETS(FOR_EACH_INPUT, output, KEPT_RANK)
    const ulong begin = part * layout.chunk;
    const ulong end = min(begin + layout.chunk, layout.length);
    const ulong group_size = get_local_size(0);
    ulong index = begin + get_local_id(0);
    FOR_EACH_LANE(DECLARE_LANE, ~)
#if LANES > 1
    for (; index + (LANES - 1) * group_size < end; index += LANES * group_size) {
        FOR_EACH_LANE(GROUP_LANE_STEP, ~)
    }
#endif
    for (; index < end; index += group_size) {
        LANE_STEP(0, index)
    }
    FOR_EACH_LANE(APPLY_COMPENSATION, ~)
    FOLD_LANES(FOLD_PAIR)
    acc0 = combine_in_group(scratch, acc0);
#if ONE_PASS
    // Item 0 stores the group's partial and counts it; the group that counted last combines the
    // part_count partials together.
    local int last_group;
    if (get_local_id(0) == 0) {
        parts[output * layout.part_count + part] = acc0;
        DEVICE_FENCE();
        last_group = atomic_inc(counters + output) == (int)(layout.part_count - 1);
    }
    // Also ends every item's read of scratch[0] before the second tree writes it.
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last_group) return;
    DEVICE_FENCE();
    const ACC total = combine_partials_in_group(scratch, parts + output * layout.part_count,
                                                layout.part_count, neutral);
    if (get_local_id(0) == 0) {
        STORE_OUTPUT(result, output, clarray_finish(total, layout.count));
        counters[output] = 0;
    }
#else
    if (get_local_id(0) == 0) {
        WRITE_RESULT(output, acc0)
    }
#endif

#elif SHAPE == SHAPE_CHUNKS
    // A work-item per unit, reading its chunk in rounds of LANES neighbouring elements.
    const ulong unit = get_global_id(0);
    if (unit >= layout.outputs * layout.part_count) return;
    const ulong output = unit / layout.part_count, part = unit % layout.part_count;
    DECLARE_KEPT_OFFSETS(FOR_EACH_INPUT, output, KEPT_RANK)
    const ulong begin = part * layout.chunk;
    const ulong end = min(begin + layout.chunk, layout.length);
    FOR_EACH_LANE(DECLARE_LANE, ~)
    ulong index = begin;
    while (index + LANES <= end) {
        const ulong stop = index + min((ulong)BLOCK_LENGTH, (end - index) / LANES) * LANES;
        for (; index < stop; index += LANES) {
            FOR_EACH_LANE(CHUNK_LANE_STEP, ~)
        }
        FOR_EACH_LANE(FLUSH_BLOCK, ~)
    }
#if LANES > 1
    for (; index < end; ++index) {
        LANE_STEP_BLOCKED(0, index)
    }
    FLUSH_BLOCK(0, ~)
#endif
    FOR_EACH_LANE(APPLY_COMPENSATION, ~)
    FOLD_LANES(FOLD_PAIR)
    WRITE_RESULT(output, acc0)

#elif SHAPE == SHAPE_ROWS
    // Item `item` of part `part` covers the strip of outputs first_output ..
    // first_output + strip - 1 along the innermost kept axis. Its accumulator rows (and
    // compensation rows) follow the partials [outputs, part_count] in `result`.
    const ulong item = get_global_id(0);
    const ulong items_per_part = (layout.outputs / layout.inner_outputs) * layout.inner_blocks;
    if (item >= items_per_part * layout.part_count) return;
    const ulong part = item / items_per_part, in_part = item % items_per_part;
    const ulong first_inner = (in_part % layout.inner_blocks) * ROWS_STRIP;
    const ulong first_output =
        (in_part / layout.inner_blocks) * layout.inner_outputs + first_inner;
    const ulong strip = min((ulong)ROWS_STRIP, layout.inner_outputs - first_inner);
    DECLARE_KEPT_OFFSETS(FOR_EACH_INPUT, first_output, KEPT_RANK)
    FOR_EACH_INPUT(DECLARE_INNER_STRIDE, ~)
    global ACC* restrict sums =
        result + layout.outputs * layout.part_count + part * layout.outputs + first_output;
#if COMPENSATED
    global ACC* restrict compensations =
        result + 2 * layout.outputs * layout.part_count + part * layout.outputs + first_output;
#endif
    for (ulong column = 0; column < strip; ++column) {
        sums[column] = neutral;
#if COMPENSATED
        compensations[column] = 0;
#endif
    }
    const ulong begin = part * layout.chunk;
    const ulong end = min(begin + layout.chunk, layout.length);
    for (ulong index = begin; index < end; ++index) {
        DECLARE_REDUCED_OFFSETS(FOR_EACH_INPUT, index)
        for (ulong column = 0; column < strip; ++column) {
            const ACC value = clarray_from(MAPPED_VALUE_SHIFTED(column), index);
            ACCUMULATE(sums[column], compensations[column], value)
        }
    }
    for (ulong column = 0; column < strip; ++column)
#if COMPENSATED
        result[(first_output + column) * layout.part_count + part] =
            sums[column] - compensations[column];
#else
        result[(first_output + column) * layout.part_count + part] = sums[column];
#endif

#else // SHAPE == SHAPE_OUTPUTS
    // Item `item` of part `part` covers the outputs first_output .. first_output + LANES - 1
    // along the innermost kept axis.
    const ulong item = get_global_id(0);
    const ulong items_per_part = (layout.outputs / layout.inner_outputs) * layout.inner_blocks;
    if (item >= items_per_part * layout.part_count) return;
    const ulong part = item / items_per_part, in_part = item % items_per_part;
    const ulong first_inner = (in_part % layout.inner_blocks) * LANES;
    const ulong first_output =
        (in_part / layout.inner_blocks) * layout.inner_outputs + first_inner;
    DECLARE_KEPT_OFFSETS(FOR_EACH_INPUT, first_output, KEPT_RANK)
    FOR_EACH_INPUT(DECLARE_INNER_STRIDE, ~)
    const ulong begin = part * layout.chunk;
    const ulong end = min(begin + layout.chunk, layout.length);
#if LANES > 1
    // All LANES outputs exist: a lane per output, blocked compensation.
    const ulong valid = min((ulong)LANES, layout.inner_outputs - first_inner);
    if (valid == LANES) {
        FOR_EACH_LANE(DECLARE_LANE, ~)
        for (ulong index = begin; index < end;) {
            const ulong stop = min(index + BLOCK_LENGTH, end);
            for (; index < stop; ++index) {
                DECLARE_REDUCED_OFFSETS(FOR_EACH_INPUT, index)
                FOR_EACH_LANE(OUTPUT_LANE_STEP, ~)
            }
            FOR_EACH_LANE(FLUSH_BLOCK, ~)
        }
        FOR_EACH_LANE(APPLY_COMPENSATION, ~)
        FOR_EACH_LANE(WRITE_LANE_RESULT, first_output)
        return;
    }
    // The last outputs of the axis, one after the other.
    for (ulong lane = 0; lane < valid; ++lane) {
#else
    {
        const ulong lane = 0;
#endif
        // One output: STEPS reduced steps in flight (GPUs), else one.
        ulong index = begin;
        FOR_EACH_STEP(DECLARE_LANE, ~)
#if STEPS > 1
        for (; index + (STEPS - 1) < end; index += STEPS) {
            FOR_EACH_STEP(OUTPUT_STEP, ~)
        }
#endif
        for (; index < end; ++index) {
            LANE_STEP_SHIFTED(0, index, lane)
        }
        FOR_EACH_STEP(APPLY_COMPENSATION, ~)
        FOLD_STEPS(FOLD_PAIR)
        WRITE_RESULT(first_output + lane, acc0)
    }
#endif
}
