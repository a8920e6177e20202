// Reductions and scans, part 1 of each program: accumulating with the operation (docs/reductions.md).
// The skeletons reduce_stage1.cl, reduce_combine.cl and scan.cl build on these pieces; the
// generator (src/codegen/reduce_source.cpp) puts its hooks before them:
//   ACC                     the accumulator type
//   clarray_combine(x, y)   the operation on two accumulators (associative, commutative), and
//                           clarray_from / clarray_finish where a kernel maps or finishes values
//   COMPENSATED             1: float sums, accumulated with Kahan compensation
//   ONE_PASS, ACC_IS_STRUCT how partials are read back (load_partial below)
//   COOPERATIVE             1: a work-group per unit, meeting in a local-memory tree
// Lists of lanes or operands are X-macros: FOR_EACH_LANE(X, A) is X(0, A) X(1, A) ..., one per
// lane; X takes the lane (or operand) number and one argument A, `~` where X ignores it.
// The generator also starts every program with `#pragma OPENCL FP_CONTRACT OFF`, before the
// operation's functions, so that mapped values round as NumPy's (no fma of d * d + acc).

// The helpers below are always inlined, as the code they stand for was written in the kernels:
// pocl (its work-group loops around barriers) must never see a helper with a barrier left a
// call, and the partial loads keep their place in the kernel's loops.
#define ALWAYS_INLINE __attribute__((always_inline)) inline

// One Kahan step: sum += value, the rounding error carried in `compensation`. Once the running
// sum is inf or NaN the compensation would turn inf into NaN (inf - inf), so it is dropped
// there: NumPy's sum of {inf, inf, 1} is inf.
#define KAHAN_ADD(sum, compensation, value)                                                    \
    {                                                                                          \
        const ACC kahan_y = (value) - (compensation);                                          \
        const ACC kahan_t = (sum) + kahan_y;                                                   \
        compensation = isfinite(kahan_t) ? (kahan_t - (sum)) - kahan_y : (ACC)0;               \
        sum = kahan_t;                                                                         \
    }

// sum = sum (+) value: compensated for float sums, else the operation itself.
#if COMPENSATED
#define ACCUMULATE(sum, compensation, value) KAHAN_ADD(sum, compensation, value)
#else
#define ACCUMULATE(sum, compensation, value) sum = clarray_combine(sum, value);
#endif

// Lanes: independent accumulators acc<k> of one work-item, so that several loads are in flight.
// Compensated lanes also carry comp<k> (the Kahan compensation) and block<k>: blocked lanes add
// plainly into block<k> for at most BLOCK_LENGTH elements, then the block enters the Kahan pair
// (FLUSH_BLOCK). One compensated step per block keeps the loop vectorisable; the error bound
// grows by BLOCK_LENGTH - 1 ulps (docs/reductions.md).
#define BLOCK_LENGTH 8
#if COMPENSATED
#define DECLARE_LANE(k, unused)                                                                \
    ACC acc##k = neutral;                                                                      \
    ACC comp##k = 0, block##k = 0;
#define ACCUMULATE_BLOCK(k, value) block##k += (value);
#define FLUSH_BLOCK(k, unused)                                                                 \
    KAHAN_ADD(acc##k, comp##k, block##k)                                                       \
    block##k = 0;
#define APPLY_COMPENSATION(k, unused) acc##k -= comp##k;
#else
#define DECLARE_LANE(k, unused) ACC acc##k = neutral;
#define ACCUMULATE_BLOCK(k, value) acc##k = clarray_combine(acc##k, value);
#define FLUSH_BLOCK(k, unused)
#define APPLY_COMPENSATION(k, unused)
#endif
#define ACCUMULATE_LANE(k, value) ACCUMULATE(acc##k, comp##k, value)
// Folds lane `other` into lane k (the hooks FOLD_LANES / FOLD_STEPS list the pairs, halving:
// 4 lanes fold (0, 2), (1, 3), then (0, 1), leaving the result in acc0).
#define FOLD_PAIR(k, other) acc##k = clarray_combine(acc##k, acc##other);

// A partial stored by another unit. One pass: the read bypasses any non-coherent cache
// (volatile); struct accumulators (argmin/argmax) load plainly, a volatile struct copy not being
// portable OpenCL C (the counter's fence orders the stores before the count).
#if ONE_PASS && !ACC_IS_STRUCT
ALWAYS_INLINE ACC load_partial(const global ACC* partial) {
    return *(const volatile global ACC*)partial;
}
#else
ALWAYS_INLINE ACC load_partial(const global ACC* partial) {
    return *partial;
}
#endif

// The combination of partials[0 .. count), in order, by one work-item.
ALWAYS_INLINE ACC combine_partials(const global ACC* partials, ulong count, ACC neutral) {
    DECLARE_LANE(0, ~)
    for (ulong i = 0; i < count; ++i) {
        const ACC value = load_partial(partials + i);
        ACCUMULATE_LANE(0, value)
    }
    APPLY_COMPENSATION(0, ~)
    return acc0;
}

#if COOPERATIVE
// The combination of every item's `value` over the work-group (of a power-of-two size), through
// a local-memory tree; every item returns it.
ALWAYS_INLINE ACC combine_in_group(local ACC* scratch, ACC value) {
    const uint item = get_local_id(0);
    scratch[item] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint distance = get_local_size(0) / 2; distance > 0; distance >>= 1) {
        if (item < distance)
            scratch[item] = clarray_combine(scratch[item], scratch[item + distance]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return scratch[0];
}

// The combination of partials[0 .. count) by the work-group: items read them interleaved, then
// meet in the tree.
ALWAYS_INLINE ACC combine_partials_in_group(local ACC* scratch, const global ACC* partials,
                                            ulong count, ACC neutral) {
    DECLARE_LANE(0, ~)
    for (ulong i = get_local_id(0); i < count; i += get_local_size(0)) {
        const ACC value = load_partial(partials + i);
        ACCUMULATE_LANE(0, value)
    }
    APPLY_COMPENSATION(0, ~)
    return combine_in_group(scratch, acc0);
}
#endif
