// Sorting and searching (docs/sorting.md). Built once per element type after the declaration of
// sort_layout (src/sort/sort.cpp), with
//   -DT=<type> -DU=<unsigned type of T's width> -DK=uint|ulong -DSORT_KIND=0|1|2 -DSORT_WIDE=0|1
//   -DWG=<size>
// (SORT_WIDE: T is 8 bytes wide) and, where the device has the 64-bit atomics, -DSORT_ATOMICS
// (and -DSORT_FP64 -DW=<weight type> for the double sums)
// SORT_KIND: 0 unsigned (and bool), 1 signed, 2 floating. WG: the work-group size of the radix
// kernels (they use local arrays of that size).
//
// Keys: every value maps to an unsigned key K whose unsigned order is NumPy's order of the values:
// signed integers flip their sign bit, floats flip the sign bit of non-negatives and every bit of
// negatives, -0.0 becomes +0.0 (they compare equal) and every NaN becomes the largest key (NaN
// last). Sorts are LSD radix sorts over such keys, 4 bits a pass, each pass stable.

#pragma OPENCL FP_CONTRACT OFF

#define TOP ((K)1 << (sizeof(K) * 8 - 1))

inline K to_key(T v) {
#if SORT_KIND == 2
    if (isnan(v)) return ~(K)0;
    if (v == (T)0) v = (T)0; // -0.0 sorts with +0.0
#if SORT_WIDE
    const K b = as_ulong(v);
#else
    const K b = as_uint(v);
#endif
    return (b & TOP) ? ~b : (b | TOP);
#elif SORT_KIND == 1
    return (K)((U)v ^ (U)((U)1 << (sizeof(U) * 8 - 1)));
#else
    return (K)(U)v;
#endif
}

// Element offset of flat C-order index i of the view L.
inline long view_offset(const sort_layout* L, ulong i) {
    long off = L->offset;
    for (int d = (int)L->rank - 1; d >= 0; --d) {
        const ulong e = L->shape[d];
        off += (long)(i % e) * L->strides[d];
        i /= e;
    }
    return off;
}

// keys[i] = key of element i of the view, pos[i] = i.
kernel void sort_load(global const T* in, sort_layout L, global K* keys, global ulong* pos) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    keys[i] = to_key(in[view_offset(&L, i)]);
    pos[i] = i;
}

// The digit a pass sorts by. mode 0: 4 key bits at shift; mode 1: 4 bits of the row (segment)
// of the element's original position, for the passes that order rows after the keys; mode 2: 0
// where element i starts a run of equal keys, else 1 (unique's compaction as a stable partition).
inline uint digit_of(global const K* keys, global const ulong* pos, ulong i, uint mode, uint shift,
                     ulong row_len) {
    if (mode == 0) return (uint)(keys[i] >> shift) & 15u;
    if (mode == 1) return (uint)((pos[i] / row_len) >> shift) & 15u;
    return (i == 0 || keys[i] != keys[i - 1]) ? 0u : 1u;
}

// Group g counts the digits of elements [g * chunk, (g + 1) * chunk): hist[d * groups + g], so
// that the exclusive scan of hist is where each (digit, group) starts in the pass's output.
kernel void sort_count(global const K* keys, global const ulong* pos, global ulong* hist, ulong n,
                       ulong chunk, uint mode, uint shift, ulong row_len) {
    local uint c[16];
    const uint l = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
    if (l < 16) c[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong begin = g * chunk, end = min(n, begin + chunk);
    for (ulong i = begin + l; i < end; i += WG)
        atomic_inc(&c[digit_of(keys, pos, i, mode, shift, row_len)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16) hist[(ulong)l * groups + g] = c[l];
}

// Exclusive scan of hist[0, m) in place, by one work-group of WG items.
kernel void sort_scan(global ulong* hist, uint m) {
    local ulong part[WG];
    const uint l = get_local_id(0);
    const uint per = (m + WG - 1) / WG;
    const uint b = min(m, l * per), e = min(m, b + per);
    ulong s = 0;
    for (uint i = b; i < e; ++i)
        s += hist[i];
    part[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < WG; off <<= 1) {
        const ulong t = l >= off ? part[l - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        part[l] += t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    ulong run = part[l] - s;
    for (uint i = b; i < e; ++i) {
        const ulong v = hist[i];
        hist[i] = run;
        run += v;
    }
}

// Group g moves its elements, in order, to hist's start of their digit plus their rank among
// the group's earlier elements of that digit (stable). Ranks within a tile of WG elements come
// from one inclusive scan of 16 counters packed 16 bits each into 4 ulongs (a tile has at most
// WG <= 65535 elements of a digit).
kernel void sort_scatter(global const K* keys, global const ulong* pos, global K* keys_out,
                         global ulong* pos_out, global const ulong* hist, ulong n, ulong chunk,
                         uint mode, uint shift, ulong row_len) {
    local ulong base[16];
    local ulong sc[4 * WG];
    const uint l = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
    if (l < 16) base[l] = hist[(ulong)l * groups + g];
    const ulong begin = g * chunk, end = min(n, begin + chunk);
    for (ulong t = begin; t < end; t += WG) {
        const ulong i = t + l;
        const bool valid = i < end;
        uint d = 0;
        K k = 0;
        ulong p = 0;
        if (valid) {
            k = keys[i];
            p = mode == 2 ? i : pos[i]; // unique's partition moves run starts
            d = digit_of(keys, pos, i, mode, shift, row_len);
        }
        for (uint q = 0; q < 4; ++q)
            sc[q * WG + l] = (valid && (d >> 2) == q) ? (ulong)1 << ((d & 3) * 16) : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint off = 1; off < WG; off <<= 1) {
            ulong a0 = 0, a1 = 0, a2 = 0, a3 = 0;
            if (l >= off) {
                a0 = sc[l - off];
                a1 = sc[WG + l - off];
                a2 = sc[2 * WG + l - off];
                a3 = sc[3 * WG + l - off];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            sc[l] += a0;
            sc[WG + l] += a1;
            sc[2 * WG + l] += a2;
            sc[3 * WG + l] += a3;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (valid) {
            const ulong incl = (sc[(d >> 2) * WG + l] >> ((d & 3) * 16)) & 0xFFFF;
            const ulong dst = base[d] + incl - 1;
            keys_out[dst] = k;
            pos_out[dst] = p;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < 16) base[l] += (sc[(l >> 2) * WG + WG - 1] >> ((l & 3) * 16)) & 0xFFFF;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Results of a sort of rows of row_len: element i of the output view O is, for values, element
// pos[i] of the input view L; for indices, pos[i]'s place in its row.
kernel void sort_gather_values(global const T* in, sort_layout L, global const ulong* pos,
                               global T* out, sort_layout O) {
    const ulong i = get_global_id(0);
    if (i >= O.n) return;
    out[view_offset(&O, i)] = in[view_offset(&L, pos[i])];
}
kernel void sort_gather_indices(global const ulong* pos, global long* out, sort_layout O,
                                ulong row_len) {
    const ulong i = get_global_id(0);
    if (i >= O.n) return;
    out[view_offset(&O, i)] = (long)(pos[i] % row_len);
}

// unique: start[j] is where run j of equal keys starts in the sorted order (count runs);
// values[j] = element pos[start[j]] of the view L, counts[j] = length of run j.
kernel void sort_unique_values(global const T* in, sort_layout L, global const ulong* pos,
                               global const ulong* start, global T* values, ulong count) {
    const ulong j = get_global_id(0);
    if (j >= count) return;
    values[j] = in[view_offset(&L, pos[start[j]])];
}
kernel void sort_unique_counts(global const ulong* start, global long* counts, ulong count,
                               ulong n) {
    const ulong j = get_global_id(0);
    if (j >= count) return;
    counts[j] = (long)((j + 1 < count ? start[j + 1] : n) - start[j]);
}

// searchsorted: out[i] = the first index of the sorted view (offset s_off, stride s_stride, s_n
// elements) whose key is >= (left) or > (right) the key of element i of the view L.
kernel void sort_search(global const T* s, long s_off, long s_stride, ulong s_n, global const T* v,
                        sort_layout L, global long* out, uint right) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    const K kv = to_key(v[view_offset(&L, i)]);
    ulong lo = 0, hi = s_n;
    while (lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        const K km = to_key(s[s_off + (long)mid * s_stride]);
        if (right ? km <= kv : km < kv)
            lo = mid + 1;
        else
            hi = mid;
    }
    out[i] = (long)lo;
}

// Per-group smallest and largest key of the view L (bincount's checks, histogram's range):
// mm[2g], mm[2g + 1]. Groups without elements write the neutral pair (all ones, 0).
kernel void sort_minmax(global const T* in, sort_layout L, global K* mm, ulong chunk) {
    local K lo[WG], hi[WG];
    const uint l = get_local_id(0), g = get_group_id(0);
    K a = ~(K)0, b = 0;
    const ulong begin = g * chunk, end = min(L.n, begin + chunk);
    for (ulong i = begin + l; i < end; i += WG) {
        const K k = to_key(in[view_offset(&L, i)]);
        a = min(a, k);
        b = max(b, k);
    }
    lo[l] = a;
    hi[l] = b;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (l < s) {
            lo[l] = min(lo[l], lo[l + s]);
            hi[l] = max(hi[l], hi[l + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        mm[2 * g] = lo[0];
        mm[2 * g + 1] = hi[0];
    }
}

#ifdef SORT_ATOMICS
// bincount: counts[x] += 1 for every element x of the view L (values checked >= 0 and below the
// length by the host).
kernel void sort_bincount(global const T* x, sort_layout L, global long* counts) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    atom_inc(&counts[(long)x[view_offset(&L, i)]]);
}

#ifdef SORT_FP64
// Adds w to *p (no double atomics in OpenCL 1.2: compare-and-swap on the bits).
inline void add_double(volatile global double* p, double w) {
    volatile global ulong* u = (volatile global ulong*)p;
    ulong old = *u, seen;
    do {
        seen = old;
        old = atom_cmpxchg(u, seen, as_ulong(as_double(seen) + w));
    } while (old != seen);
}

// bincount with weights: sums[x] += weight of x, weights read through the view LW.
kernel void sort_bincount_weighted(global const T* x, sort_layout L, global const W* w,
                                   sort_layout LW, global double* sums) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    add_double(&sums[(long)x[view_offset(&L, i)]], (double)w[view_offset(&LW, i)]);
}

#endif

// histogram with equal-width bins, NumPy's computation in the edge type E (lo, hi the outer
// edges, denom = hi - lo computed in double, edges the bins + 1 edges): values outside [lo, hi]
// and NaN do not count, the last bin is closed.
kernel void sort_histogram(global const T* a, sort_layout L, global long* counts,
                           global const E* edges, E lo, E hi, E denom, long bins) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    const E x = (E)a[view_offset(&L, i)];
    if (!(x >= lo && x <= hi)) return;
    long k = (long)((x - lo) / denom * (E)bins);
    if (k == bins) k -= 1;
    if (x < edges[k])
        k -= 1;
    else if (k != bins - 1 && x >= edges[k + 1])
        k += 1;
    atom_inc(&counts[k]);
}
#endif

#ifdef SORT_FP64
typedef double edge_math;
#else
typedef float edge_math;
#endif
// NumPy's linspace(lo, hi, bins + 1) (in double where the device has it), stored as E.
kernel void sort_edges(global E* edges, edge_math lo, edge_math hi, edge_math step, ulong bins) {
    const ulong i = get_global_id(0);
    if (i > bins) return;
    edges[i] = (E)(i == bins ? hi : (edge_math)i * step + lo);
}
