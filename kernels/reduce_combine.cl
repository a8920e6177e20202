// Reductions, stage 2: clarray_reduce_final combines the [outputs, part_count] partials that
// stage 1 (reduce_stage1.cl) left into the finished outputs (docs/reductions.md). Follows
// reduce_ops.cl. Hooks from the generator, besides those of reduce_ops.cl: OUTPUT (the stored
// output type), STORE_OUTPUT(pointer, index, value) and clarray_finish(ACC x, long n).
// COOPERATIVE: a work-group per output (GPUs with few outputs), else a work-item per output.
// Parameters: (global const ACC* parts, global OUTPUT* result, ulong outputs, ulong part_count,
// long count, ACC neutral, [local ACC* scratch]).

kernel void clarray_reduce_final(global const ACC* parts, global OUTPUT* result, ulong outputs,
                                 ulong part_count, long count, ACC neutral
#if COOPERATIVE
                                 , local ACC* scratch
#endif
) {
#if COOPERATIVE
    const ulong output = get_group_id(0);
    const ACC total =
        combine_partials_in_group(scratch, parts + output * part_count, part_count, neutral);
    if (get_local_id(0) == 0) STORE_OUTPUT(result, output, clarray_finish(total, count));
#else
    const ulong output = get_global_id(0);
    if (output >= outputs) return;
    const ACC total = combine_partials(parts + output * part_count, part_count, neutral);
    STORE_OUTPUT(result, output, clarray_finish(total, count));
#endif
}
