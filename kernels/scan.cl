// Scans (cumsum, cumprod) along the reduced axes, inclusive or EXCLUSIVE (docs/reductions.md).
// Lines long enough to need several work-items are scanned in three passes: the chunk totals
// (the reduction's stage 1, reduce_stage1.cl, leaving partials), clarray_scan_parts (an
// exclusive scan of each line's totals, SCAN_PARTS 1), then clarray_scan over every chunk from
// its carry. Short lines: clarray_scan alone, a work-item per line.
// clarray_scan follows reduce_operands.cl, whose layout and operands it uses with the output as
// operand 0 (layout row 0). Hooks from the generator (src/codegen/reduce_source.cpp), besides
// those of reduce_operands.cl: ACC, clarray_combine and (clarray_scan) clarray_from,
// clarray_finish, OUTPUT (the stored output type), STORE_OUTPUT(pointer, index, value),
// EXCLUSIVE.

#if SCAN_PARTS
// Parameters: (global ACC* parts, ulong outputs, ulong part_count, ACC neutral): each line's
// part_count totals become the exclusive scan of them, in place.
kernel void clarray_scan_parts(global ACC* parts, ulong outputs, ulong part_count, ACC neutral) {
    const ulong line = get_global_id(0);
    if (line >= outputs) return;
    ACC acc = neutral;
    for (ulong part = 0; part < part_count; ++part) {
        const ACC total = parts[line * part_count + part];
        parts[line * part_count + part] = acc;
        acc = clarray_combine(acc, total);
    }
}

#else
#define LAYOUT_ROW(j) (j)
// The output (operand 0) and the inputs.
#define FOR_EACH_OPERAND(X, A) X(0, A) FOR_EACH_INPUT(X, A)

// Parameters: (global OUTPUT* result, inputs..., global const ACC* carry, ACC neutral, layout).
// Unit (line, part) scans chunk `part` of line `line`, starting from carry[unit] (part_count > 1)
// or from neutral.
kernel void clarray_scan(global OUTPUT* result, @INPUT_PARAMETERS@, global const ACC* carry,
                         ACC neutral, LAYOUT_PARAMETER) {
    const ulong unit = get_global_id(0);
    if (unit >= layout.outputs * layout.part_count) return;
    const ulong line = unit / layout.part_count, part = unit % layout.part_count;
    DECLARE_KEPT_OFFSETS(FOR_EACH_OPERAND, line, KEPT_RANK)
    const ulong begin = part * layout.chunk;
    const ulong end = min(begin + layout.chunk, layout.length);
    ACC acc = layout.part_count > 1 ? carry[unit] : neutral;
    for (ulong index = begin; index < end; ++index) {
        DECLARE_REDUCED_OFFSETS(FOR_EACH_OPERAND, index)
        const ACC value = clarray_from(MAPPED_VALUE, index);
#if EXCLUSIVE
        STORE_OUTPUT(result, kept_offset0 + reduced_offset0, clarray_finish(acc, 0));
#endif
        acc = clarray_combine(acc, value);
#if !EXCLUSIVE
        STORE_OUTPUT(result, kept_offset0 + reduced_offset0, clarray_finish(acc, 0));
#endif
    }
}
#endif
