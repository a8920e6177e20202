// Sorting, searching, counting and selection (docs/sorting.md). Built after the declaration of
// sort_layout (src/sort/sort_kernels.hpp; sort_kernel in src/sort/sort_kernels.cpp), one program
// a part (-DSORT_PART=<n>: a function reaches only its own kernels, and each program takes only
// the parameters its part reads; -DSORT_PART=SORT_PART_RADIX and so on, numbered below):
//   every part: -DT=<type> -DU=<unsigned type of T's width> -DK=uint|ulong -DSORT_KIND=0|1|2|3
//     -DSORT_WIDE=0|1 (T is 8 bytes wide) -DWG=<work-group size> -DP=uint|ulong
//   SORT_PART_RADIX (sorts, argsorts, unique): -DITEMS=<count> (elements per work-item of a
//     tile), P ulong beyond 2^31 elements with -DSORT_WIDE_POS=1, -DSORT_KEYS_ONLY=0|1 (1: no
//     positions travel with the keys, for 1-d sorts of values: the tile's positions array is
//     left out of local memory), -DSCRATCH_COUNTERS=<count> (the words of tile counters in
//     onesweep's scratch), -DSORT_RANK_WARP=0|1|2 (how tiles are ranked, rank_tile below); on
//     NVIDIA also a register cap (src/sort/sort_kernels.cpp, register_cap)
//   SORT_PART_COUNT (unique of a narrow span, searchsorted, extremes): -DLOCAL_BINS=<count>
//   SORT_PART_TALLY (bincount, histograms, digitize), where the device has the 64-bit atomics:
//     -DSORT_ATOMICS (and -DSORT_FP64 for the double sums), -DW=<weight type> -DW_HALF=0|1,
//     -DE=<edge type> (the type values meet the edges in), -DY=<type> -DY_HALF=0|1 -DF=<type>
//     (histogram2d's second input and its edge type), -DLOCAL_BINS, -DLOCAL_SUMS=<count> (the
//     most bins of privatised counts and weighted sums)
//   SORT_PART_SELECT (quantiles, partition, top-k): nothing more
// SORT_KIND: 0 unsigned (and bool), 1 signed, 2 floating, 3 float16 (T ushort, its bits; W_HALF
// likewise for float16 weights, W ushort).
//
// Keys: every value maps to an unsigned key K (to_key) that gives the value back bit for bit
// (from_key) and whose unsigned order is NumPy's order of the values, but for floats' -0.0 and
// NaNs: signed integers flip their sign bit, floats flip the sign bit of non-negatives and every
// bit of negatives. Where order and equality matter (the digits of a pass, unique's runs,
// searches, extremes) a key is taken through ordered(): -0.0's key becomes +0.0's (they compare
// equal) and every NaN's key the largest (NaN last), so the keys that travel keep each float's
// own bits and no sort of values needs positions to give them back. Sorts are LSD radix sorts
// over such keys, 8 bits a pass, each pass stable.

#pragma OPENCL FP_CONTRACT OFF

#define SORT_PART_RADIX 1
#define SORT_PART_COUNT 2
#define SORT_PART_TALLY 3
#define SORT_PART_SELECT 4

// SORT_KIND 3: float16, stored as its 16 bits (T and U ushort: no half values, which need
// cl_khr_fp16); its keys are 16 bits wide in a 32-bit K, made from the bits as float keys are.
#if SORT_KIND == 3
#define KEY_BITS 16
#define KEY_ALL ((K)0xFFFF)
#else
#define KEY_BITS (sizeof(K) * 8)
#define KEY_ALL (~(K)0)
#endif
#define TOP ((K)1 << (KEY_BITS - 1))

inline K to_key(T v) {
#if SORT_KIND == 2 || SORT_KIND == 3
#if SORT_KIND == 3
    const K b = (K)v;
#elif SORT_WIDE
    const K b = as_ulong(v);
#else
    const K b = as_uint(v);
#endif
    return (b & TOP) ? (~b & KEY_ALL) : (b | TOP);
#elif SORT_KIND == 1
    return (K)((U)v ^ (U)((U)1 << (sizeof(U) * 8 - 1)));
#else
    return (K)(U)v;
#endif
}

// The element a key stands for: to_key's inverse, exact.
inline T from_key(K k) {
#if SORT_KIND == 2 || SORT_KIND == 3
    const K b = (k & TOP) ? (k ^ TOP) : (~k & KEY_ALL);
#if SORT_KIND == 3
    return (T)b;
#elif SORT_WIDE
    return as_double(b);
#else
    return as_float(b);
#endif
#elif SORT_KIND == 1
    return (T)((U)k ^ (U)((U)1 << (sizeof(U) * 8 - 1)));
#else
    return (T)(U)k;
#endif
}

// The key's place in NumPy's order: -0.0's key (TOP - 1) becomes +0.0's (TOP); a NaN's (beyond
// +inf's key, or below -inf's, its complement) the largest.
inline K ordered(K k) {
#if SORT_KIND == 2 || SORT_KIND == 3
#if SORT_KIND == 3
    const K inf = 0xFC00u; // to_key of float16 +inf (bits 0x7C00)
#else
    const K inf = to_key((T)INFINITY);
#endif
    if (k > inf || k < (~inf & KEY_ALL)) return KEY_ALL;
    return k == TOP - 1 ? TOP : k;
#else
    return k;
#endif
}

// Element `off` of a (T) as a value of type X: float16 through vload_half.
#if SORT_KIND == 3
#define LOAD_T(X, p, off) ((X)vload_half((off), (global const half*)(p)))
#else
#define LOAD_T(X, p, off) ((X)(p)[off])
#endif

// Element offset of flat C-order index i of the view L.
inline long view_offset(const sort_layout* L, ulong i) {
    if (L->rank == 1) return L->offset + (long)i * L->strides[0]; // no 64-bit division
    long off = L->offset;
    for (int d = (int)L->rank - 1; d >= 0; --d) {
        const ulong e = L->shape[d];
        off += (long)(i % e) * L->strides[d];
        i /= e;
    }
    return off;
}

// Helpers that contain barriers are always inlined: pocl (its work-group loops around barriers)
// computed wrong ranks when the compiler left rank_tile a call (seen with ITEMS = 1).
#define WITH_BARRIERS __attribute__((always_inline)) inline

#define RADIX 256

// Exclusive scan of one value per work-item (tmp: 2 * WG), and the total. Double-buffered
// Kogge-Stone: one barrier a step.
WITH_BARRIERS P group_scan(local P* tmp, P x, P* total) {
    const uint l = get_local_id(0);
    uint cur = 0;
    tmp[l] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < WG; off <<= 1) {
        P v = tmp[cur * WG + l];
        if (l >= off) v += tmp[cur * WG + l - off];
        cur ^= 1;
        tmp[cur * WG + l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = tmp[cur * WG + WG - 1];
    const P r = tmp[cur * WG + l] - x;
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

#if SORT_PART == SORT_PART_RADIX
// ---- Radix sort: 8-bit digits, LSD, each pass stable (docs/sorting.md). P (uint, or ulong for
// more than 2^31 elements) holds positions and counts; a tile is WG * ITEMS elements.
//
// A pass reads the keys of the previous one, or, the first pass (from_input), the input view L
// itself (the keys made on the fly). Positions travel with the keys unless the program is built
// with SORT_KEYS_ONLY (argsort, axis sorts and unique move them; a sort of one row of values
// does not: its keys give the values back). The last pass may write the result itself
// (out_kind): the values (from the keys) or the indices.

#define TILE (WG * ITEMS)
#define HIST_COPIES 8 // upsweep sub-histograms: fewer work-items of a warp on one local counter
// Word w of the ranking counters sits at CNT(w): one word of padding every 32, so that the
// scan's reads of 8 consecutive words per work-item fall in different banks.
#define CNT(w) ((w) + ((w) >> 5))

// What a pass writes: keys (and positions) for the next pass, or the result.
#define FINAL_KEYS 0
#define FINAL_VALUES 1
#define FINAL_INDICES 2   // positions modulo row_len
#define FINAL_POSITIONS 3 // positions (one row)

// The key of element i: from the input view or the previous pass.
inline K key_at(global const K* keys, global const T* in, const sort_layout* L, uint from_input,
                P i) {
    return from_input ? to_key(in[view_offset(L, i)]) : keys[i];
}

// The digit a pass sorts by. mode 0: 8 bits at shift of the ordered key; mode 1: 8 bits of the
// row (segment) of the element's original position p, for the passes that order rows after the
// keys; mode 2: 0 where element i starts a run of equal values, else 1 (unique's compaction as a
// stable partition).
inline uint digit_at(global const K* keys, K k, P p, P i, uint mode, uint shift, ulong row_len) {
    if (mode == 0) return (uint)(ordered(k) >> shift) & 255u;
    if (mode == 1) return (uint)(((ulong)p / row_len) >> shift) & 255u;
    return (i == 0 || ordered(k) != ordered(keys[i - 1])) ? 0u : 1u;
}

// Group g counts the digits of elements [g * chunk, (g + 1) * chunk): hist[d * groups + g].
kernel void radix_upsweep(global const K* keys, global const P* pos, global P* hist,
                          global const T* in, sort_layout L, ulong n_, ulong chunk_, uint mode,
                          uint shift, ulong row_len, uint from_input) {
    local uint c[HIST_COPIES * RADIX];
    const uint l = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
    const P n = (P)n_, chunk = (P)chunk_;
    for (uint d = l; d < HIST_COPIES * RADIX; d += WG)
        c[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    local uint* mine = c + (l % HIST_COPIES) * RADIX;
    const P begin = (P)g * chunk, end = min(n, begin + chunk);
    for (P i = begin + l; i < end; i += WG) {
        const K k = key_at(keys, in, &L, from_input, i);
        atomic_inc(&mine[digit_at(keys, k, mode == 1 ? pos[i] : 0, i, mode, shift, row_len)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = l; d < RADIX; d += WG) {
        uint s = 0;
        for (uint q = 0; q < HIST_COPIES; ++q)
            s += c[q * RADIX + d];
        hist[(ulong)d * groups + g] = s;
    }
}

// Launched as RADIX groups: group d turns row d of hist (the groups' counts of digit d) into
// their exclusive scan and writes the row's total to totals[d].
kernel void radix_scan(global P* hist, uint groups, global P* totals) {
    local P tmp[2 * WG];
    const uint l = get_local_id(0);
    global P* row = hist + (ulong)get_group_id(0) * groups;
    const uint per = (groups + WG - 1) / WG;
    const uint b = min(groups, l * per), e = min(groups, b + per);
    P s = 0;
    for (uint i = b; i < e; ++i)
        s += row[i];
    P total;
    P run = group_scan(tmp, s, &total);
    for (uint i = b; i < e; ++i) {
        const P v = row[i];
        row[i] = run;
        run += v;
    }
    if (l == 0) totals[get_group_id(0)] = total;
}
// The same, one work-group: work-item l scans whole rows (digits l, l + WG...) in order, without
// barriers (CPU devices: a barrier is a loop over the group's work-items there, and radix_scan's
// 256 groups of them cost the same whatever the number of groups).
kernel void radix_scan_rows(global P* hist, uint groups, global P* totals) {
    for (uint d = get_local_id(0); d < RADIX; d += WG) {
        global P* row = hist + (ulong)d * groups;
        P run = 0;
        for (uint i = 0; i < groups; ++i) {
            const P v = row[i];
            row[i] = run;
            run += v;
        }
        totals[d] = run;
    }
}


// Writes element (key k, position p) at dst of the pass's output (out_kind: FINAL_*).
inline void emit(global K* keys_out, global P* pos_out, global T* out_v, global long* out_i,
                 uint out_kind, bool move, ulong row_len, P dst, K k, P p) {
    if (out_kind == FINAL_KEYS) {
        keys_out[dst] = k;
        if (move) pos_out[dst] = p;
    } else if (out_kind == FINAL_VALUES) {
        out_v[dst] = from_key(k);
    } else if (out_kind == FINAL_INDICES) {
        out_i[dst] = (long)((ulong)p % row_len);
    } else {
        out_i[dst] = (long)p;
    }
}

// The local arrays of a tile (declared in the kernels, passed to the helpers below); digits: the
// length of sd, the tile's digits in its order (1 where nothing reads them).
#define TILE_LOCALS(digits)                                                                        \
    local K sk[TILE];                                                                              \
    local P sp[SORT_KEYS_ONLY ? 1 : TILE];                                                         \
    local uchar sd[digits];                                                                        \
    local uint cnt[CNT(8 * WG)];                                                                   \
    local P tmp[2 * WG];                                                                           \
    local P base[RADIX];                                                                           \
    local uint ts[RADIX], te[RADIX];                                                               \
    local uint trivial;
#define TILE_ARGS sk, sp, sd, cnt, tmp, ts, te

// base[d] = where digit d's run starts in the output (the exclusive scan of totals) plus
// extra[d * stride] (none when extra is null); *trivial: one digit holds all n elements.
WITH_BARRIERS void digit_starts(global const P* totals, global const P* extra, ulong stride, P n,
                                local P* tmp, local P* base, local uint* trivial) {
    const uint l = get_local_id(0);
    const uint per = (RADIX + WG - 1) / WG;
    const uint b = min((uint)RADIX, l * per), e = min((uint)RADIX, b + per);
    if (l == 0) *trivial = 0;
    P s = 0;
    for (uint d = b; d < e; ++d)
        s += totals[d];
    P total;
    P run = group_scan(tmp, s, &total); // its barriers order trivial's reset
    for (uint d = b; d < e; ++d) {
        const P t = totals[d];
        if (t == n) *trivial = 1;
        base[d] = run + (extra ? extra[d * stride] : 0);
        run += t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// ---- Decoupled look-back of onesweep (below): status holds RADIX words per tile, a 2-bit flag
// (aggregate: the tile's own count; prefix: its inclusive prefix) and a 30-bit count. The words
// are plain volatile loads and stores, not atomics: each is written whole, once per state, and
// orders nothing else (on an H100 atomic reads made the sort 2-3% slower).
#define LB_AGGREGATE (1u << 30)
#define LB_PREFIX (2u << 30)
#define LB_VALUE 0x3FFFFFFFu

// Tile t's count `own` of digit d: tile 0 publishes its inclusive prefix (start: where the digit
// starts, or 0), the others their aggregate.
inline void lb_publish(volatile global uint* status, uint t, uint d, uint own, P start) {
    volatile global uint* mine = status + (ulong)t * RADIX + d;
    *mine = t == 0 ? (LB_PREFIX | ((uint)start + own)) : (LB_AGGREGATE | own);
}

// Digit d's count over the tiles before t (t > 0): walks back over their published words to
// one carrying its inclusive prefix, then publishes t's own.
inline uint lb_lookback(volatile global uint* status, uint t, uint d, uint own) {
    uint before = 0;
    for (uint u = t; u > 0;) {
        const uint s = status[(ulong)(u - 1) * RADIX + d];
        if (!(s & (LB_AGGREGATE | LB_PREFIX))) continue; // not published yet: read again
        before += s & LB_VALUE;
        if (s & LB_PREFIX) break;
        --u;
    }
    volatile global uint* mine = status + (ulong)t * RADIX + d;
    *mine = LB_PREFIX | (before + own);
    return before;
}

// Loads the `count` elements of the tile at `tile` and sorts them stably by digit in local
// memory: a coalesced load; work-item l takes elements l * ITEMS ... (those past count: digit
// 255, last); two 4-bit local splits (counters packed 16 bits per (4-bit digit, work-item), one
// group scan each). Leaves the tile in digit order in sk (sp, sd) and each digit's run in
// [ts[d], te[d]) (empty runs: ts[d] == te[d]). Given onesweep's status (publish, else null), it
// publishes tile t's count of each digit (lb_publish; base: the starts). rank_tile below (by
// warps) keeps the same contract, publishing as soon as its warps have counted, before the tile
// is placed, and only it takes a null sd (the digits not kept; the split ranking needs them).
WITH_BARRIERS void rank_tile_split(global const K* keys, global const P* pos, global const T* in,
                                   const sort_layout* L, uint from_input, bool move, uint gen_pos,
                                   P tile, uint count, uint mode, uint shift, ulong row_len,
                                   local K* sk, local P* sp, local uchar* sd, local uint* cnt,
                                   local P* tmp, local uint* ts, local uint* te,
                                   volatile global uint* publish, uint t, local P* base) {
    const uint l = get_local_id(0);
    for (uint d = l; d < RADIX; d += WG) {
        ts[d] = 0;
        te[d] = 0;
    }
    for (uint j = l; j < count; j += WG) {
        sk[j] = key_at(keys, in, L, from_input, tile + j);
        if (move) sp[j] = gen_pos ? tile + j : pos[tile + j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    K k[ITEMS];
    P p[ITEMS];
    uint dg[ITEMS];
    for (uint i = 0; i < ITEMS; ++i) {
        const uint j = l * ITEMS + i;
        k[i] = 0;
        p[i] = 0;
        dg[i] = 255;
        if (j < count) {
            k[i] = sk[j];
            if (move) p[i] = sp[j];
            dg[i] = digit_at(keys, k[i], p[i], tile + j, mode, shift, row_len);
        }
    }
    for (uint r = 0; r < 8; r += 4) {
        // 4-bit digit v counts in lane v & 7, in its 16-bit half v >> 3.
        for (uint q = 0; q < 8; ++q)
            cnt[CNT(q * WG + l)] = 0;
        uint rank[ITEMS];
        for (uint i = 0; i < ITEMS; ++i) {
            const uint v = (dg[i] >> r) & 15u, at = CNT((v & 7u) * WG + l);
            const uint sh = (v >> 3) * 16;
            const uint c = cnt[at];
            rank[i] = (c >> sh) & 0xFFFFu;
            cnt[at] = c + (1u << sh);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // Exclusive scan of the counters in (lane, work-item) order; the high halves then also
        // need the total of the low ones (every element of a 4-bit digit below 8).
        uint s = 0;
        for (uint q = 0; q < 8; ++q)
            s += cnt[CNT(l * 8 + q)];
        P total;
        uint run = (uint)group_scan(tmp, s, &total);
        for (uint q = 0; q < 8; ++q) {
            const uint v = cnt[CNT(l * 8 + q)];
            cnt[CNT(l * 8 + q)] = run;
            run += v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint low = (uint)total & 0xFFFFu;
        for (uint i = 0; i < ITEMS; ++i) {
            const uint v = (dg[i] >> r) & 15u, e = cnt[CNT((v & 7u) * WG + l)];
            rank[i] += (v >> 3) ? (e >> 16) + low : e & 0xFFFFu;
        }
        for (uint i = 0; i < ITEMS; ++i) {
            sk[rank[i]] = k[i];
            sd[rank[i]] = (uchar)dg[i];
            if (move) sp[rank[i]] = p[i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (r == 0)
            for (uint i = 0; i < ITEMS; ++i) {
                const uint j = l * ITEMS + i;
                k[i] = sk[j];
                dg[i] = sd[j];
                if (move) p[i] = sp[j];
            }
    }
    for (uint j = l; j < count; j += WG) {
        const uint d = sd[j];
        if (j == 0 || sd[j - 1] != d) ts[d] = j;
        if (j + 1 == count || sd[j + 1] != d) te[d] = j + 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (publish)
        for (uint d = l; d < RADIX; d += WG)
            lb_publish(publish, t, d, te[d] - ts[d], base[d]);
}

#if SORT_RANK_WARP
// ---- Ranking by warps (SORT_RANK_WARP 1: PTX's match.any on NVIDIA; 2: the same algorithm
// with work-group barriers for the warp operations, to test it on other devices). Warp w takes
// elements [w * 32 * ITEMS, (w + 1) * 32 * ITEMS) of the tile, item i of lane x being element
// w * 32 * ITEMS + i * 32 + x: coalesced reads straight into registers. A warp ranks its items
// in that order with one counter per digit of its own: the lanes holding a digit find each
// other (match.any), each takes the counter plus its peers in lower lanes, the lowest peer adds
// their number. One scan over (digit, warp) then places every element: one ranking step where
// the 4-bit splits take two, and no staging of the tile in local memory.
#define WARPS (WG / 32)
#if SORT_RANK_WARP == 1
inline uint lanes_below(void) {
    uint m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}
#define WARP_SYNC() asm volatile("bar.warp.sync 0xffffffff;" ::: "memory")
// The lanes of this warp whose v equals this lane's (every lane takes part).
inline uint warp_peers(local P* scratch, uint v) {
    uint m;
    asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(m) : "r"(v));
    return m;
}
#else
inline uint lanes_below(void) {
    return (1u << (get_local_id(0) & 31u)) - 1u;
}
#define WARP_SYNC() barrier(CLK_LOCAL_MEM_FENCE)
WITH_BARRIERS uint warp_peers(local P* scratch, uint v) {
    const uint l = get_local_id(0), w0 = l & ~31u;
    barrier(CLK_LOCAL_MEM_FENCE); // the previous call's reads are done
    scratch[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint m = 0;
    for (uint x = 0; x < 32; ++x)
        m |= (uint)(scratch[w0 + x] == v) << x;
    return m;
}
#endif

WITH_BARRIERS void rank_tile(global const K* keys, global const P* pos, global const T* in,
                             const sort_layout* L, uint from_input, bool move, uint gen_pos, P tile,
                             uint count, uint mode, uint shift, ulong row_len, local K* sk,
                             local P* sp, local uchar* sd, local uint* cnt, local P* tmp,
                             local uint* ts, local uint* te, volatile global uint* publish, uint t,
                             local P* base) {
    const uint l = get_local_id(0);
    local uint* mine = cnt + (l >> 5) * RADIX; // this warp's counters
    for (uint d = l; d < WARPS * RADIX; d += WG)
        cnt[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint first = (l >> 5) * 32 * ITEMS + (l & 31u);
    K k[ITEMS];
    P p[ITEMS];
    uint dg[ITEMS], rank[ITEMS];
    for (uint i = 0; i < ITEMS; ++i) {
        const uint j = first + i * 32;
        k[i] = 0;
        p[i] = 0;
        dg[i] = 255; // past count: ranked after every element, not written
        if (j < count) {
            k[i] = key_at(keys, in, L, from_input, tile + j);
            if (move) p[i] = gen_pos ? tile + j : pos[tile + j];
            dg[i] = digit_at(keys, k[i], p[i], tile + j, mode, shift, row_len);
        }
    }
    const uint below = lanes_below();
    for (uint i = 0; i < ITEMS; ++i) {
        const uint peers = warp_peers(tmp, dg[i]);
        const uint before = mine[dg[i]];
        rank[i] = before + popcount(peers & below);
        WARP_SYNC(); // every peer has read the counter
        if ((peers & below) == 0) mine[dg[i]] = before + popcount(peers);
        WARP_SYNC();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Each work-item takes RADIX / WG consecutive digits: the warps' counters of a digit become
    // their starts within its run, and the digits' totals are scanned over the group.
    const uint per = (RADIX + WG - 1) / WG;
    const uint b = min((uint)RADIX, l * per), e = min((uint)RADIX, b + per);
    P s = 0;
    for (uint d = b; d < e; ++d) {
        uint c = 0;
        for (uint w = 0; w < WARPS; ++w) {
            const uint v = cnt[w * RADIX + d];
            cnt[w * RADIX + d] = c;
            c += v;
        }
        te[d] = c;
        s += c;
        if (publish) lb_publish(publish, t, d, c, base[d]);
    }
    P total;
    uint run = (uint)group_scan(tmp, s, &total);
    for (uint d = b; d < e; ++d) {
        const uint c = te[d];
        ts[d] = run;
        te[d] = run + c - (d == RADIX - 1 ? TILE - count : 0); // the padding is digit 255's last
        run += c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < ITEMS; ++i)
        if (first + i * 32 < count) {
            const uint d = dg[i], r = ts[d] + mine[d] + rank[i];
            sk[r] = k[i];
            if (sd) sd[r] = (uchar)d;
            if (move) sp[r] = p[i];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
}
#else
#define rank_tile rank_tile_split
#endif

// A pass in which one digit holds every element keeps the order: a plain copy of [begin, end).
#define COPY_RANGE                                                                                 \
    for (P i = begin + l; i < end; i += WG)                                                        \
        emit(keys_out, pos_out, out_v, out_i, out_kind, move, row_len, i,                          \
             key_at(keys, in, &L, from_input, i), move ? (gen_pos ? i : pos[i]) : 0);

// Group g moves its elements, in order, to where their digit starts in the output (the scan of
// the digit totals, plus hist's start of the group in the digit's run) plus their rank among
// the group's earlier elements of that digit: a stable pass, tile by tile (rank_tile), each
// tile written so that consecutive work-items write consecutive addresses of a digit's run.
// gen_pos: the positions are made here (first pass, unique's partition), else read.
kernel void radix_downsweep(global const K* keys, global const P* pos, global K* keys_out,
                            global P* pos_out, global const P* hist, global const P* totals,
                            global const T* in, sort_layout L, global T* out_v, global long* out_i,
                            ulong n_, ulong chunk_, uint mode, uint shift, ulong row_len,
                            uint gen_pos, uint from_input, uint out_kind) {
    TILE_LOCALS(TILE)
    const uint l = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
    const P n = (P)n_, chunk = (P)chunk_;
    const bool move = !SORT_KEYS_ONLY;
    const P begin = (P)g * chunk, end = min(n, begin + chunk);
    digit_starts(totals, hist + g, groups, n, tmp, base, &trivial);
    if (trivial) {
        COPY_RANGE
        return;
    }
    for (P tile = begin; tile < end; tile += TILE) {
        const uint count = (uint)min((P)TILE, end - tile);
        rank_tile(keys, pos, in, &L, from_input, move, gen_pos, tile, count, mode, shift, row_len,
                  TILE_ARGS, 0, 0, base);
        // Element j of digit d's run to base[d] + (j - ts[d]): consecutive work-items to
        // consecutive addresses of a run.
        for (uint j = l; j < count; j += WG) {
            const uint d = sd[j];
            emit(keys_out, pos_out, out_v, out_i, out_kind, move, row_len, base[d] + (j - ts[d]),
                 sk[j], move ? sp[j] : 0);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint d = l; d < RADIX; d += WG)
            base[d] += te[d] - ts[d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#if !SORT_WIDE_POS
// ---- Onesweep (CLARRAY_SORT_ONESWEEP=1; 1-d key passes below 2^30 elements, 32-bit P): the
// digit totals of every pass come from one histogram of the input (radix_histograms), and each
// pass is one kernel whose tiles find where their digits go by decoupled look-back: a tile
// publishes per digit its own count (AGGREGATE), then, once it knows the count of every earlier
// tile, the inclusive prefix (PREFIX), in one 32-bit word (flag in the top 2 bits) per (tile,
// digit) of status. Tiles are numbered in the order their groups start (an atomic counter), so
// a tile waits only on tiles whose groups are already running: no deadlock where groups run to
// completion once started (GPUs; pocl runs a group on one thread).

// totals[p * RADIX + d] += the count of digit d of pass p (shift p * 8) over the input view.
// Grid-stride over the input.
kernel void radix_histograms(global const T* in, sort_layout L, global uint* totals, uint passes) {
    local uint c[8 * RADIX];
    const uint l = get_local_id(0);
    for (uint d = l; d < passes * RADIX; d += WG)
        c[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong i = get_global_id(0); i < L.n; i += get_global_size(0)) {
        const K k = ordered(to_key(in[view_offset(&L, i)]));
        for (uint p = 0; p < passes; ++p)
            atomic_inc(&c[p * RADIX + ((uint)(k >> (p * 8)) & 255u)]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = l; d < passes * RADIX; d += WG)
        if (c[d]) atomic_add(&totals[d], c[d]);
}

// The words of a onesweep sort's scratch, zero before it but for the second status area: the
// digit totals of every pass (RADIX a pass, from radix_histograms), SCRATCH_COUNTERS words of
// tile counters (one a pass), then two status areas of RADIX words per tile: pass p looks back
// in area p % 2 and zeroes its tile's row of the other for pass p + 1 (no fill between passes).

// Pass `pass` of `passes` over `tiles` tiles: tile t (from the pass's counter) ranks its
// elements, looks back over the tiles before it for each digit, and writes.
kernel void radix_onesweep(global const K* keys, global const P* pos, global K* keys_out,
                           global P* pos_out, global uint* scratch, global const T* in,
                           sort_layout L, global T* out_v, global long* out_i, ulong n_, uint shift,
                           uint from_input, uint out_kind, uint pass, uint passes, uint tiles,
                           uint gen_pos) {
    TILE_LOCALS(SORT_RANK_WARP ? 1 : TILE) // the warp ranking leaves sd alone (null below)
    local uint tile_id;
    const uint l = get_local_id(0);
    const P n = (P)n_;
    const bool move = !SORT_KEYS_ONLY;
    const uint mode = 0;
    const ulong row_len = n_;
    global const P* totals = scratch + pass * RADIX;
    volatile global uint* areas = scratch + passes * RADIX + SCRATCH_COUNTERS;
    volatile global uint* status = areas + (ulong)(pass & 1) * tiles * RADIX;
    if (l == 0) tile_id = atomic_inc(scratch + passes * RADIX + pass);
    if (l == 0) trivial = 0;
    barrier(CLK_LOCAL_MEM_FENCE); // publishes tile_id
    const uint t = tile_id;
    if (pass + 1 < passes) {
        volatile global uint* next = areas + ((ulong)((pass + 1) & 1) * tiles + t) * RADIX;
        for (uint d = l; d < RADIX; d += WG)
            next[d] = 0;
    }
    // Only tile 0 needs where each digit starts (a scan of the totals): its inclusive prefixes
    // carry the starts to every later tile's look-back.
    if (t == 0) {
        digit_starts(totals, 0, 0, n, tmp, base, &trivial);
    } else {
        for (uint d = l; d < RADIX; d += WG) {
            if (totals[d] == n) trivial = 1;
            base[d] = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const P begin = (P)t * TILE, end = min(n, begin + TILE);
    if (trivial) {
        COPY_RANGE
        return;
    }
    const uint count = (uint)(end - begin);
    rank_tile(keys, pos, in, &L, from_input, move, gen_pos, begin, count, mode, shift, row_len, sk,
              sp, SORT_RANK_WARP ? 0 : sd, cnt, tmp, ts, te, status, t, base);
    // base[d]: where the tile's run of digit d goes in the output, less where it starts in the
    // tile (modulo 2^32: P is uint in onesweep, and base[d] + j below wraps back).
    for (uint d = l; d < RADIX; d += WG) {
        const P before = t > 0 ? lb_lookback(status, t, d, te[d] - ts[d]) : 0;
        base[d] += before - ts[d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Element j to base[d] + j, its digit d taken from its key (no array of the tile's digits):
    // consecutive work-items to consecutive addresses of a run.
    for (uint j = l; j < count; j += WG) {
        const K k = sk[j];
        const uint d = digit_at(keys, k, 0, begin + j, mode, shift, row_len);
        emit(keys_out, pos_out, out_v, out_i, out_kind, move, row_len, base[d] + j, k,
             move ? sp[j] : 0);
    }
}
#endif

// Results of a sort of rows of row_len whose output view O is not the sort's order: element i
// of O is, for values, the element of key i; for indices, pos[i]'s place in its row.
kernel void radix_values(global const K* keys, global T* out, sort_layout O) {
    const ulong i = get_global_id(0);
    if (i >= O.n) return;
    out[view_offset(&O, i)] = from_key(keys[i]);
}
kernel void radix_indices(global const P* pos, global long* out, sort_layout O, ulong row_len) {
    const ulong i = get_global_id(0);
    if (i >= O.n) return;
    out[view_offset(&O, i)] = (long)(pos[i] % row_len);
}

// Complex sorts (src/sort/sort.cpp, complex_sort; T is the parts' type): element pos[i] of the
// view L to element i of the view O (a part of each complex value, in sorted order).
kernel void sort_gather(global const T* in, sort_layout L, global const P* pos, global T* out,
                        sort_layout O) {
    const ulong i = get_global_id(0);
    if (i >= O.n) return;
    out[view_offset(&O, i)] = in[view_offset(&L, pos[i])];
}
// The NaN class of complex element pos[i] (real part in the view L, imaginary part the next
// element): 2 * isnan(real) + isnan(imaginary), NumPy's order of complex values with NaN parts.
kernel void sort_nan_class(global const T* in, sort_layout L, global const P* pos,
                           global uchar* out, ulong n) {
    const ulong i = get_global_id(0);
    if (i >= n) return;
    const long off = view_offset(&L, pos[i]);
    const K re = ordered(to_key(in[off])), im = ordered(to_key(in[off + 1]));
    out[i] = (uchar)((re == KEY_ALL ? 2 : 0) + (im == KEY_ALL ? 1 : 0));
}

// Complex unique: 0 where sorted element i (pos[i] of the real parts' view L, its imaginary
// part the next element) starts a run of equal values, else 1. Equal: both parts equal (-0.0
// equal to +0.0), or both values with a NaN part (NumPy's unique: all such values are one).
kernel void sort_complex_starts(global const T* in, sort_layout L, global const P* pos,
                                global uchar* out, ulong n) {
    const ulong i = get_global_id(0);
    if (i >= n) return;
    if (i == 0) {
        out[i] = 0;
        return;
    }
    const long a = view_offset(&L, pos[i]), b = view_offset(&L, pos[i - 1]);
    const K ar = ordered(to_key(in[a])), ai = ordered(to_key(in[a + 1]));
    const K br = ordered(to_key(in[b])), bi = ordered(to_key(in[b + 1]));
    const bool a_nan = ar == KEY_ALL || ai == KEY_ALL, b_nan = br == KEY_ALL || bi == KEY_ALL;
    out[i] = (a_nan && b_nan) || (!a_nan && !b_nan && ar == br && ai == bi) ? 1 : 0;
}
// Complex unique: one part of each run's first value, values[view_offset(V, j)] = element
// pos[start[j]] of the parts' view L.
kernel void sort_unique_parts(global const T* in, sort_layout L, global const P* pos,
                              global const P* start, global T* values, sort_layout V) {
    const ulong j = get_global_id(0);
    if (j >= V.n) return;
    values[view_offset(&V, j)] = in[view_offset(&L, pos[start[j]])];
}

// unique: start[j] is where run j of equal keys starts in the sorted order (count runs);
// counts[j] = length of run j.
kernel void sort_unique_counts(global const P* start, global long* counts, ulong count, ulong n) {
    const ulong j = get_global_id(0);
    if (j >= count) return;
    counts[j] = (long)((j + 1 < count ? start[j + 1] : n) - start[j]);
}
#endif // SORT_PART_RADIX

#if SORT_PART == SORT_PART_COUNT
// unique of integers whose keys span few values (src/sort/sort.cpp, span_unique): no sort, counts
// by key. Group g counts the elements [g * chunk, (g + 1) * chunk)
// of the view L into counts[key - lo]: in local memory first when the span fits LOCAL_BINS (one
// global atomic per group and non-zero bin), else straight into the global counts. 32-bit counts:
// the host takes this path below 2^32 elements.
kernel void sort_span_counts_local(global const T* in, sort_layout L, global uint* counts, K lo,
                                   uint bins, ulong chunk) {
    local uint c[LOCAL_BINS];
    const uint l = get_local_id(0), g = get_group_id(0);
    for (uint b = l; b < bins; b += WG)
        c[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong begin = g * chunk, end = min(L.n, begin + chunk);
    for (ulong i = begin + l; i < end; i += WG)
        atomic_inc(&c[(uint)(to_key(in[view_offset(&L, i)]) - lo)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = l; b < bins; b += WG)
        if (c[b]) atomic_add(&counts[b], c[b]);
}
kernel void sort_span_counts(global const T* in, sort_layout L, global uint* counts, K lo,
                             uint bins, ulong chunk) {
    const uint l = get_local_id(0), g = get_group_id(0);
    const ulong begin = g * chunk, end = min(L.n, begin + chunk);
    for (ulong i = begin + l; i < end; i += WG)
        atomic_inc(&counts[(uint)(to_key(in[view_offset(&L, i)]) - lo)]);
}
// The non-zero bins of counts in order, by one work-group: work-item l takes bins [l * per,
// (l + 1) * per); the j-th non-zero bin b gives values[j] = the value of key lo + b and, when
// with_counts, out_counts[j] = its count. total[0]: their number.
kernel void sort_span_compact(global const uint* counts, uint bins, K lo, global T* values,
                              global long* out_counts, uint with_counts, global uint* total) {
    local P tmp[2 * WG];
    const uint l = get_local_id(0);
    const uint per = (bins + WG - 1) / WG, b0 = min(bins, l * per), b1 = min(bins, b0 + per);
    uint mine = 0;
    for (uint b = b0; b < b1; ++b)
        mine += counts[b] != 0;
    P all;
    uint at = (uint)group_scan(tmp, (P)mine, &all);
    for (uint b = b0; b < b1; ++b) {
        const uint c = counts[b];
        if (c == 0) continue;
        values[at] = from_key(lo + (K)b);
        if (with_counts) out_counts[at] = (long)c;
        ++at;
    }
    if (l == 0) total[0] = (uint)all;
}

// searchsorted: out[i] = the first index of the sorted view (offset s_off, stride s_stride, s_n
// elements) whose key is >= (left) or > (right) the key of element i of the view L.
kernel void sort_search(global const T* s, long s_off, long s_stride, ulong s_n, global const T* v,
                        sort_layout L, global long* out, uint right) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    const K kv = ordered(to_key(v[view_offset(&L, i)]));
    ulong lo = 0, hi = s_n;
    while (lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        const K km = ordered(to_key(s[s_off + (long)mid * s_stride]));
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
        const K k = ordered(to_key(in[view_offset(&L, i)]));
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
#endif // SORT_PART_COUNT

#if SORT_PART == SORT_PART_TALLY
// Element `off` of w (W) or y (Y) as a value of type X, as LOAD_T.
#if W_HALF
#define LOAD_W(X, p, off) ((X)vload_half((off), (global const half*)(p)))
#else
#define LOAD_W(X, p, off) ((X)(p)[off])
#endif
#if Y_HALF
#define LOAD_Y(X, p, off) ((X)vload_half((off), (global const half*)(p)))
#else
#define LOAD_Y(X, p, off) ((X)(p)[off])
#endif

#ifdef SORT_ATOMICS
// bincount: counts[x] += 1 for every element x of the view L (values checked >= 0 and below the
// length by the host).
kernel void sort_bincount(global const T* x, sort_layout L, global long* counts) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    atom_inc(&counts[(long)x[view_offset(&L, i)]]);
}

// Privatised counts of at most LOCAL_BINS bins: group g counts elements [g * chunk, (g + 1) *
// chunk) of the view in local memory (`copies` sub-histograms of `bins` counters, work-item l
// in copy l % copies: fewer work-items on one counter when there are few bins), then adds its
// non-zero counts to the global ones: one global atomic per (group, bin) instead of one per
// element.
#define LOCAL_COUNTS_BEGIN                                                                         \
    local uint c[LOCAL_BINS];                                                                      \
    const uint l = get_local_id(0), g = get_group_id(0);                                           \
    for (uint b = l; b < bins * copies; b += WG)                                                   \
        c[b] = 0;                                                                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    local uint* mine = c + (l % copies) * bins;                                                    \
    const ulong begin = g * chunk, end = min(L.n, begin + chunk);
#define LOCAL_COUNTS_END                                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    for (uint b = l; b < bins; b += WG) {                                                          \
        uint s = 0;                                                                                \
        for (uint q = 0; q < copies; ++q)                                                          \
            s += c[q * bins + b];                                                                  \
        if (s) atom_add(&counts[b], (long)s);                                                      \
    }

kernel void sort_bincount_local(global const T* x, sort_layout L, global long* counts, uint bins,
                                uint copies, ulong chunk) {
    LOCAL_COUNTS_BEGIN
    for (ulong i = begin + l; i < end; i += WG)
        atomic_inc(&mine[(uint)x[view_offset(&L, i)]]);
    LOCAL_COUNTS_END
}

#ifdef SORT_FP64
// Adds w to *p (no double atomics in OpenCL 1.2: compare-and-swap on the bits), in global and
// in local memory (OpenCL 1.2 has no generic address space: one function per space).
#define DEFINE_ADD_DOUBLE(name, space)                                                             \
    inline void name(volatile space double* p, double w) {                                         \
        volatile space ulong* u = (volatile space ulong*)p;                                        \
        ulong old = *u, seen;                                                                      \
        do {                                                                                       \
            seen = old;                                                                            \
            old = atom_cmpxchg(u, seen, as_ulong(as_double(seen) + w));                            \
        } while (old != seen);                                                                     \
    }
#ifdef PTX_FLOAT_ATOMICS
// NVIDIA: the hardware's float reduction at the memory (device::quirks_t::ptx_float_atomics).
inline void add_double(volatile global double* p, double w) {
    asm volatile("red.global.add.f64 [%0], %1;" ::"l"(p), "d"(w) : "memory");
}
#else
DEFINE_ADD_DOUBLE(add_double, global)
#endif
DEFINE_ADD_DOUBLE(add_double_local, local)

// bincount with weights: sums[x] += weight of x, weights read through the view LW.
kernel void sort_bincount_weighted(global const T* x, sort_layout L, global const W* w,
                                   sort_layout LW, global double* sums) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    add_double(&sums[(long)x[view_offset(&L, i)]], LOAD_W(double, w, view_offset(&LW, i)));
}

// The same privatised (at most LOCAL_SUMS bins): sums of group g's chunk in local memory, then
// one global addition per (group, non-zero bin).
kernel void sort_bincount_weighted_local(global const T* x, sort_layout L, global const W* w,
                                         sort_layout LW, global double* sums, uint bins,
                                         ulong chunk) {
    local double c[LOCAL_SUMS];
    const uint l = get_local_id(0), g = get_group_id(0);
    for (uint b = l; b < bins; b += WG)
        c[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong begin = g * chunk, end = min(L.n, begin + chunk);
    for (ulong i = begin + l; i < end; i += WG)
        add_double_local(&c[(uint)x[view_offset(&L, i)]],
                         LOAD_W(double, w, view_offset(&LW, i)));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = l; b < bins; b += WG)
        if (c[b] != 0) add_double(&sums[b], c[b]);
}

#endif

// histogram with equal-width bins, NumPy's computation in the edge type E (lo, hi the outer
// edges, denom = hi - lo computed in double, edges the bins + 1 edges): values outside [lo, hi]
// and NaN do not count (-1), the last bin is closed.
inline long histogram_bin(E x, global const E* edges, E lo, E hi, E denom, long bins) {
    if (!(x >= lo && x <= hi)) return -1;
    long k = (long)((x - lo) / denom * (E)bins);
    if (k == bins) k -= 1;
    if (x < edges[k])
        k -= 1;
    else if (k != bins - 1 && x >= edges[k + 1])
        k += 1;
    return k;
}
kernel void sort_histogram(global const T* a, sort_layout L, global long* counts,
                           global const E* edges, E lo, E hi, E denom, long bins) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    const long k = histogram_bin(LOAD_T(E, a, view_offset(&L, i)), edges, lo, hi, denom, bins);
    if (k >= 0) atom_inc(&counts[k]);
}
// The same privatised (at most LOCAL_BINS bins), as sort_bincount_local.
kernel void sort_histogram_local(global const T* a, sort_layout L, global long* counts,
                                 global const E* edges, E lo, E hi, E denom, uint bins, uint copies,
                                 ulong chunk) {
    LOCAL_COUNTS_BEGIN
    for (ulong i = begin + l; i < end; i += WG) {
        const long k = histogram_bin(LOAD_T(E, a, view_offset(&L, i)), edges, lo, hi, denom, bins);
        if (k >= 0) atomic_inc(&mine[k]);
    }
    LOCAL_COUNTS_END
}

// ---- Histograms over explicit edges (src/sort/histogram.cpp), and digitize. The edges are in
// the comparison type (NumPy's promotion of the values' and the edges' dtypes; float for
// float16): E for the values of T, F for those of Y (histogram2d's second axis). The host checked
// them: increasing (ties allowed), no NaN, at least two.

// The bin of x among the ne edges e: the last k with e[k] <= x (NumPy's searchsorted(e, x,
// "right") - 1), the last bin closed; -1 for NaN and values outside [e[0], e[ne - 1]]. The
// search halves a range of a length that depends on ne only and chooses by selects, without an
// early exit: every work-item runs the same steps (no divergence on GPUs; pocl vectorises the
// work-items, which a branch per value prevented: several times slower).
#define DEFINE_EDGE_BIN(name, C)                                                                   \
    inline long name(C x, global const C* e, ulong ne) {                                           \
        ulong base = 0, len = ne;                                                                  \
        while (len > 1) {                                                                          \
            const ulong mid = len / 2;                                                             \
            base = e[base + mid] <= x ? base + mid : base;                                         \
            len -= mid;                                                                            \
        }                                                                                          \
        /* the edges <= x, less one; NaN: none */                                                  \
        const long k = (long)base + (e[base] <= x ? 1 : 0) - 1, last = (long)ne - 2;               \
        return x == e[ne - 1] ? last : k > last ? -1 : k;                                          \
    }
DEFINE_EDGE_BIN(edge_bin, E)
DEFINE_EDGE_BIN(edge_bin_y, F)

kernel void sort_histogram_search(global const T* a, sort_layout L, global long* counts,
                                  global const E* edges, ulong ne) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    const long k = edge_bin(LOAD_T(E, a, view_offset(&L, i)), edges, ne);
    if (k >= 0) atom_inc(&counts[k]);
}
// The same privatised (at most LOCAL_BINS bins), as sort_bincount_local.
kernel void sort_histogram_search_local(global const T* a, sort_layout L, global long* counts,
                                        global const E* edges, ulong ne, uint bins, uint copies,
                                        ulong chunk) {
    LOCAL_COUNTS_BEGIN
    for (ulong i = begin + l; i < end; i += WG) {
        const long k = edge_bin(LOAD_T(E, a, view_offset(&L, i)), edges, ne);
        if (k >= 0) atomic_inc(&mine[k]);
    }
    LOCAL_COUNTS_END
}

// histogram2d's flat bin (kx * ny + ky) of element i of the views LX, LY, or -1 (either value
// outside its edges, or NaN).
inline long bin2d(global const T* x, const sort_layout* LX, global const Y* y,
                  const sort_layout* LY, ulong i, global const E* ex, ulong nex, global const F* ey,
                  ulong ney) {
    const long kx = edge_bin(LOAD_T(E, x, view_offset(LX, i)), ex, nex);
    const long ky = edge_bin_y(LOAD_Y(F, y, view_offset(LY, i)), ey, ney);
    return kx < 0 || ky < 0 ? -1 : kx * (long)(ney - 1) + ky;
}
kernel void sort_histogram2d(global const T* x, sort_layout LX, global const Y* y, sort_layout LY,
                             global long* counts, global const E* ex, ulong nex, global const F* ey,
                             ulong ney) {
    const ulong i = get_global_id(0);
    if (i >= LX.n) return;
    const long k = bin2d(x, &LX, y, &LY, i, ex, nex, ey, ney);
    if (k >= 0) atom_inc(&counts[k]);
}
kernel void sort_histogram2d_local(global const T* x, sort_layout LX, global const Y* y,
                                   sort_layout LY, global long* counts, global const E* ex,
                                   ulong nex, global const F* ey, ulong ney, uint bins, uint copies,
                                   ulong chunk) {
    const sort_layout L = LX;
    LOCAL_COUNTS_BEGIN
    for (ulong i = begin + l; i < end; i += WG) {
        const long k = bin2d(x, &LX, y, &LY, i, ex, nex, ey, ney);
        if (k >= 0) atomic_inc(&mine[k]);
    }
    LOCAL_COUNTS_END
}

#ifdef SORT_FP64
// Weighted histograms: the float64 sum of the weights (W, view LW) per bin. uniform: equal-width
// bins (histogram_bin over lo, hi, denom and the bins + 1 = ne edges), else explicit edges.
inline long weighted_bin(E x, global const E* edges, ulong ne, E lo, E hi, E denom, uint uniform) {
    return uniform ? histogram_bin(x, edges, lo, hi, denom, (long)ne - 1) : edge_bin(x, edges, ne);
}
kernel void sort_histogram_weighted(global const T* a, sort_layout L, global const W* w,
                                    sort_layout LW, global double* sums, global const E* edges,
                                    ulong ne, E lo, E hi, E denom, uint uniform) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    const long k =
        weighted_bin(LOAD_T(E, a, view_offset(&L, i)), edges, ne, lo, hi, denom, uniform);
    if (k >= 0) add_double(&sums[k], LOAD_W(double, w, view_offset(&LW, i)));
}
// The same privatised (at most LOCAL_SUMS bins), as sort_bincount_weighted_local.
kernel void sort_histogram_weighted_local(global const T* a, sort_layout L, global const W* w,
                                          sort_layout LW, global double* sums,
                                          global const E* edges, ulong ne, E lo, E hi, E denom,
                                          uint uniform, ulong chunk) {
    local double c[LOCAL_SUMS];
    const uint l = get_local_id(0), g = get_group_id(0), bins = (uint)ne - 1;
    for (uint b = l; b < bins; b += WG)
        c[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong begin = g * chunk, end = min(L.n, begin + chunk);
    for (ulong i = begin + l; i < end; i += WG) {
        const long k =
            weighted_bin(LOAD_T(E, a, view_offset(&L, i)), edges, ne, lo, hi, denom, uniform);
        if (k >= 0) add_double_local(&c[k], LOAD_W(double, w, view_offset(&LW, i)));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = l; b < bins; b += WG)
        if (c[b] != 0) add_double(&sums[b], c[b]);
}
kernel void sort_histogram2d_weighted(global const T* x, sort_layout LX, global const Y* y,
                                      sort_layout LY, global const W* w, sort_layout LW,
                                      global double* sums, global const E* ex, ulong nex,
                                      global const F* ey, ulong ney) {
    const ulong i = get_global_id(0);
    if (i >= LX.n) return;
    const long k = bin2d(x, &LX, y, &LY, i, ex, nex, ey, ney);
    if (k >= 0) add_double(&sums[k], LOAD_W(double, w, view_offset(&LW, i)));
}
kernel void sort_histogram2d_weighted_local(global const T* x, sort_layout LX, global const Y* y,
                                            sort_layout LY, global const W* w, sort_layout LW,
                                            global double* sums, global const E* ex, ulong nex,
                                            global const F* ey, ulong ney, uint bins, ulong chunk) {
    local double c[LOCAL_SUMS];
    const uint l = get_local_id(0), g = get_group_id(0);
    for (uint b = l; b < bins; b += WG)
        c[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong begin = g * chunk, end = min(LX.n, begin + chunk);
    for (ulong i = begin + l; i < end; i += WG) {
        const long k = bin2d(x, &LX, y, &LY, i, ex, nex, ey, ney);
        if (k >= 0) add_double_local(&c[k], LOAD_W(double, w, view_offset(&LW, i)));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = l; b < bins; b += WG)
        if (c[b] != 0) add_double(&sums[b], c[b]);
}

// NumPy's density: out[k] = n[k] / wx[k / ny] / wy[k % ny] / sum(n) (histogram: ny = 1, wy =
// {1}), n the int64 counts (from_sums = 0) or float64 sums. One work-group: the bins are few.
kernel void sort_density(global const long* counts, global const double* sums, uint from_sums,
                         global const double* wx, global const double* wy, ulong ny,
                         global double* out, ulong bins) {
    local double part[WG];
    local long ipart[WG];
    const uint l = get_local_id(0);
    double s = 0;
    long is = 0;
    for (ulong k = l; k < bins; k += WG) {
        if (from_sums)
            s += sums[k];
        else
            is += counts[k];
    }
    part[l] = s;
    ipart[l] = is;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint h = WG / 2; h > 0; h >>= 1) {
        if (l < h) {
            part[l] += part[l + h];
            ipart[l] += ipart[l + h];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const double total = from_sums ? part[0] : (double)ipart[0];
    for (ulong k = l; k < bins; k += WG) {
        const double n = from_sums ? sums[k] : (double)counts[k];
        out[k] = n / wx[k / ny] / wy[k % ny] / total;
    }
}
#endif
#endif

// NumPy's order for searches: NaN after every number (x != x is false for integers).
#define SEARCH_LESS(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))

// digitize: out[i] = the number of edges e (ne, in E, in search order: increasing, or the
// decreasing bins reversed) with e < x (right) or e <= x (not right) in NumPy's order; for
// decreasing bins ne minus that (NumPy's len(bins) - searchsorted(bins[::-1], x)).
kernel void sort_digitize(global const T* x, sort_layout L, global const E* e, ulong ne,
                          global long* out, uint right, uint decreasing) {
    const ulong i = get_global_id(0);
    if (i >= L.n) return;
    const E v = LOAD_T(E, x, view_offset(&L, i));
    // The edges that pass (a leading run of e): a search of fixed steps, as edge_bin's.
#define PASSES(m) (right ? SEARCH_LESS((m), v) : !SEARCH_LESS(v, (m)))
    ulong base = 0, len = ne;
    while (len > 1) {
        const ulong mid = len / 2;
        base = PASSES(e[base + mid]) ? base + mid : base;
        len -= mid;
    }
    const ulong k = ne == 0 ? 0 : base + (PASSES(e[base]) ? 1 : 0);
#undef PASSES
    out[i] = decreasing ? (long)(ne - k) : (long)k;
}

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
#endif // SORT_PART_TALLY

#if SORT_PART == SORT_PART_SELECT
// ---- Radix select (src/sort/select.cpp): the element of rank r (its place in NumPy's order) of
// the view L, by the ordered keys' 8-bit digits from the top: count the digit of the candidates
// (the keys that match the digits chosen so far), choose the digit whose bucket holds rank r,
// keep only that bucket's keys (compacted) for the next digit. Positions and counts are 32-bit
// (the host takes this path below 2^32 elements). Each rank has a state of SELECT_STATE words:
//   st[0] the key's digits chosen so far, st[1] their mask, st[2] the rank left within the
//   chosen bucket, st[3] the bucket's size, st[4] the size of the candidates the next
//   compaction reads (the previous bucket's), st[5] the size of those the last pass read.
// ctr: [0] the compaction's counter, [1] set when the view holds a NaN, [2..4] partition's
// counters of the three classes.
#define SELECT_STATE 8
// Copies of a pass's local counts: work-items l, l + SELECT_COPIES... share one (on skewed data
// most keys of a round hit one digit: fewer work-items of a warp on one local counter).
#define SELECT_COPIES 8

kernel void select_init(global ulong* st, global uint* ctr, ulong rank, ulong n, uint reset) {
    const uint i = get_global_id(0);
    if (i < SELECT_STATE) st[i] = i == 2 ? rank : i == 3 ? n : 0;
    if (reset && i < 8) ctr[i] = 0;
}

// One pass over the candidates: the input view (from_input) or the st[4] keys of cand_in. Keys
// that match st[0] under st[1] count their digit at `shift` (in local memory, then added to
// hist[d] by one global atomic per group and non-zero digit: select_choose reads RADIX words,
// not a row per group); select_compact also appends them to cand_out (one global atomic per
// group and round). Grid-stride over a fixed grid: the candidates' number is on the device.
// Two kernels, not a flag: pocl's optimiser broke the scan's barriers under a condition.

// A round of a pass takes SELECT_ITEMS keys a work-item, all loaded before any is counted (more
// loads in flight), element base + j * WG + l for j < SELECT_ITEMS (coalesced for each j).
#define SELECT_ITEMS 4
#define SELECT_ROUND (WG * SELECT_ITEMS)

// The keys of a work-item's round: key[j] of candidate base + j * WG + l (the input view's where
// from_input, else cand_in's); valid: the bits j of those below n. Notes a NaN of the input in
// nan_seen unless it is null.
inline uint select_load(global const T* in, const sort_layout* L, global const K* cand_in,
                        uint from_input, ulong base, ulong n, K* key, local uint* nan_seen) {
    const uint l = get_local_id(0);
    uint valid = 0;
    // A contiguous view (most inputs, coalesced) is indexed without view_offset's 64-bit
    // multiplies and its loop over the layout.
    const bool contiguous = L->rank == 1 && L->strides[0] == 1;
    global const T* first = in + L->offset;
    for (uint j = 0; j < SELECT_ITEMS; ++j) {
        const ulong i = base + (ulong)j * WG + l;
        key[j] = 0;
        if (i >= n) continue;
        valid |= 1u << j;
        if (!from_input)
            key[j] = cand_in[i];
        else
            key[j] = ordered(to_key(contiguous ? first[i] : in[view_offset(L, i)]));
    }
#if SORT_KIND >= 2
    if (from_input && nan_seen)
        for (uint j = 0; j < SELECT_ITEMS; ++j)
            if ((valid >> j & 1u) && key[j] == KEY_ALL) *nan_seen = 1;
#endif
    return valid;
}

// Zeroes the group's counts (its SELECT_COPIES copies) and NaN note; returns work-item l's copy.
WITH_BARRIERS local uint* select_counts_in(local uint* c, local uint* nan_seen) {
    const uint l = get_local_id(0);
    for (uint d = l; d < SELECT_COPIES * RADIX; d += WG)
        c[d] = 0;
    if (l == 0) *nan_seen = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    return c + (l % SELECT_COPIES) * RADIX;
}

// Adds the group's counts (its SELECT_COPIES copies) to hist; notes a NaN in ctr[1].
WITH_BARRIERS void select_counts_out(local const uint* c, global uint* hist, global uint* ctr,
                                     local const uint* nan_seen) {
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint l = get_local_id(0);
    for (uint d = l; d < RADIX; d += WG) {
        uint total = 0;
        for (uint copy = 0; copy < SELECT_COPIES; ++copy)
            total += c[copy * RADIX + d];
        if (total) atomic_add(&hist[d], total);
    }
    if (l == 0 && *nan_seen) atomic_or(&ctr[1], 1u);
}

kernel void select_pass(global const T* in, sort_layout L, global const K* cand_in,
                        global uint* hist, global const ulong* st, global uint* ctr,
                        uint from_input, uint shift) {
    local uint c[SELECT_COPIES * RADIX];
    local uint nan_seen;
    const uint g = get_group_id(0), groups = get_num_groups(0);
    local uint* mine = select_counts_in(c, &nan_seen);
    const K prefix = (K)st[0], mask = (K)st[1];
    const ulong n = from_input ? L.n : st[4];
    for (ulong base = (ulong)g * SELECT_ROUND; base < n; base += (ulong)groups * SELECT_ROUND) {
        K key[SELECT_ITEMS];
        const uint valid = select_load(in, &L, cand_in, from_input, base, n, key, &nan_seen);
        for (uint j = 0; j < SELECT_ITEMS; ++j)
            if ((valid >> j & 1u) && (key[j] & mask) == prefix)
                atomic_inc(&mine[(uint)(key[j] >> shift) & 255u]);
    }
    select_counts_out(c, hist, ctr, &nan_seen);
}

kernel void select_compact(global const T* in, sort_layout L, global const K* cand_in,
                           global K* cand_out, global uint* hist, global const ulong* st,
                           global uint* ctr, uint from_input, uint shift) {
    local uint c[SELECT_COPIES * RADIX];
    local P tmp[2 * WG];
    local uint gbase, nan_seen;
    const uint l = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
    local uint* mine = select_counts_in(c, &nan_seen);
    const K prefix = (K)st[0], mask = (K)st[1];
    const ulong n = from_input ? L.n : st[4];
    for (ulong base = (ulong)g * SELECT_ROUND; base < n; base += (ulong)groups * SELECT_ROUND) {
        K key[SELECT_ITEMS];
        const uint valid = select_load(in, &L, cand_in, from_input, base, n, key, &nan_seen);
        uint hits = 0, count = 0;
        for (uint j = 0; j < SELECT_ITEMS; ++j)
            if ((valid >> j & 1u) && (key[j] & mask) == prefix) {
                atomic_inc(&mine[(uint)(key[j] >> shift) & 255u]);
                hits |= 1u << j;
                ++count;
            }
        // The hits' places by a scan (an atomic on one local counter would serialise them).
        P found;
        uint slot = (uint)group_scan(tmp, count, &found);
        if (l == 0 && found) gbase = atomic_add(&ctr[0], (uint)found);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < SELECT_ITEMS; ++j)
            if (hits >> j & 1u) cand_out[gbase + slot++] = key[j];
    }
    select_counts_out(c, hist, ctr, &nan_seen);
}

// The second digit of up to SELECT_MULTI selections in one pass over the input view (their top
// digits chosen from one shared first pass): the keys that match state r's prefix (st_r) count
// their digit at `shift` in hist_r (as select_pass: RADIX words) and are appended to
// cand_r (counter ctrs[r]). Unused r take any buffer (ranks says how many are used).
#define SELECT_MULTI 8
// (the r-th of eight arguments: no private arrays of pointers, which some compilers mishandle)
#define SELECT_PICK(r, a)                                                                          \
    ((r) == 0   ? a##_0                                                                            \
     : (r) == 1 ? a##_1                                                                            \
     : (r) == 2 ? a##_2                                                                            \
     : (r) == 3 ? a##_3                                                                            \
     : (r) == 4 ? a##_4                                                                            \
     : (r) == 5 ? a##_5                                                                            \
     : (r) == 6 ? a##_6                                                                            \
                : a##_7)
kernel void select_pass_multi(global const T* in, sort_layout L, uint ranks, global uint* ctrs,
                              uint shift, global const ulong* st_0, global const ulong* st_1,
                              global const ulong* st_2, global const ulong* st_3,
                              global const ulong* st_4, global const ulong* st_5,
                              global const ulong* st_6, global const ulong* st_7, global K* cand_0,
                              global K* cand_1, global K* cand_2, global K* cand_3, global K* cand_4,
                              global K* cand_5, global K* cand_6, global K* cand_7,
                              global uint* hist_0, global uint* hist_1, global uint* hist_2,
                              global uint* hist_3, global uint* hist_4, global uint* hist_5,
                              global uint* hist_6, global uint* hist_7) {
    local uint c[SELECT_MULTI * RADIX];
    local uint nslot[SELECT_MULTI], gbase[SELECT_MULTI];
    local K prefix[SELECT_MULTI], mask[SELECT_MULTI];
    const uint l = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
    for (uint d = l; d < SELECT_MULTI * RADIX; d += WG)
        c[d] = 0;
    if (l < SELECT_MULTI) {
        global const ulong* st = SELECT_PICK(l, st);
        prefix[l] = l < ranks ? (K)st[0] : 0;
        mask[l] = l < ranks ? (K)st[1] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong n = L.n, stride = (ulong)groups * WG;
    for (ulong base = (ulong)g * WG; base < n; base += stride) {
        const ulong i = base + l;
        const bool valid = i < n;
        const K k = valid ? ordered(to_key(in[view_offset(&L, i)])) : 0;
        if (l < SELECT_MULTI) nslot[l] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        // This key's slot in each rank's round, 16 bits per rank (< WG) in two words: pocl
        // miscompiled a private array here.
        ulong slots_lo = 0, slots_hi = 0;
        for (uint r = 0; r < ranks; ++r)
            if (valid && (k & mask[r]) == prefix[r]) {
                atomic_inc(&c[r * RADIX + ((uint)(k >> shift) & 255u)]);
                const ulong slot = atomic_inc(&nslot[r]);
                if (r < 4)
                    slots_lo |= slot << (16 * r);
                else
                    slots_hi |= slot << (16 * (r - 4));
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < ranks && nslot[l])
            gbase[l] = atomic_add(&ctrs[l], nslot[l]);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint r = 0; r < ranks; ++r)
            if (valid && (k & mask[r]) == prefix[r])
                SELECT_PICK(r, cand)
                [gbase[r] + (uint)(((r < 4 ? slots_lo : slots_hi) >> (16 * (r & 3))) & 0xffffu)] =
                    k;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint r = 0; r < ranks; ++r) {
        global uint* hist = SELECT_PICK(r, hist);
        for (uint d = l; d < RADIX; d += WG)
            if (c[r * RADIX + d]) atomic_add(&hist[d], c[r * RADIX + d]);
    }
}

// One group: reads the counts of hist, chooses the digit at `shift` whose bucket holds the rank
// left (st[2]) and narrows the state to that bucket; resets the compaction's counter, and the
// counts when clear (the next pass adds into them; several ranks may read one histogram).
kernel void select_choose(global uint* hist, uint clear, global ulong* st, global uint* ctr,
                          uint shift) {
    local uint tot[RADIX];
    local P tmp[2 * WG];
    const uint l = get_local_id(0);
    for (uint d = l; d < RADIX; d += WG) {
        tot[d] = hist[d];
        if (clear) hist[d] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Work-item l holds the digits [d0, d1); a scan of their sums gives the counts before them
    // (counts fit 32 bits: the path takes fewer than 2^32 elements).
    const uint per = (RADIX + WG - 1) / WG, d0 = min((uint)RADIX, l * per),
               d1 = min((uint)RADIX, d0 + per);
    uint mine = 0;
    for (uint d = d0; d < d1; ++d)
        mine += tot[d];
    const ulong rank = st[2]; // read by all before the scan's barriers, written by one after
    P all;
    ulong before = (ulong)group_scan(tmp, mine, &all);
    // The digit whose bucket holds the rank (the last one where the counts fall short).
    for (uint d = d0; d < d1; ++d) {
        if (before <= rank && (rank < before + tot[d] || d == RADIX - 1)) {
            st[0] |= (ulong)d << shift;
            st[1] |= (ulong)255 << shift;
            st[2] = rank - before;
            st[5] = st[4];
            st[4] = st[3];
            st[3] = tot[d];
            ctr[0] = 0;
        }
        before += tot[d];
    }
}

// out[j] = the value of the key selected in the state at st, or NaN (for float types, where
// poison is set) when the view holds a NaN (NumPy's quantiles: a NaN makes every result NaN).
kernel void select_value(global const ulong* st, global const uint* ctr, uint poison, global T* out,
                         ulong j) {
    if (get_global_id(0) != 0) return;
    K k = (K)st[0];
    if (poison && ctr[1]) k = KEY_ALL;
    out[j] = from_key(k);
}

// NumPy's partition around the selected key v = st[0] of rank kth: element i of the view L is
// of class 0 (key below v), 1 (equal) or 2 (above); class c's elements fill the positions from
// start[c] = {0, less, less + equal} (less = kth - st[2], equal = st[3]) in any order. Those
// whose position falls in [lo, lo + count) are written to out[position - lo]: the value
// (out_v) or, with indices, i (out_i).
kernel void select_partition(global const T* in, sort_layout L, global const ulong* st, ulong kth,
                             global uint* ctr, ulong lo, ulong count, global T* out_v,
                             global long* out_i, uint indices) {
    local uint lc[3], lb[3];
    const uint l = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
    const K v = (K)st[0];
    const ulong less = kth - st[2], equal = st[3];
    const ulong n = L.n, stride = (ulong)groups * WG;
    for (ulong base = (ulong)g * WG; base < n; base += stride) {
        const ulong i = base + l;
        if (l < 3) lc[l] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint c = 3, slot = 0;
        T x = 0;
        if (i < n) {
            x = in[view_offset(&L, i)];
            const K k = ordered(to_key(x));
            c = k < v ? 0 : k == v ? 1 : 2;
            slot = atomic_inc(&lc[c]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < 3) lb[l] = lc[l] ? atomic_add(&ctr[2 + l], lc[l]) : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (c < 3) {
            const ulong start = c == 0 ? 0 : c == 1 ? less : less + equal;
            const ulong p = start + lb[c] + slot;
            if (p >= lo && p < lo + count) {
                if (indices)
                    out_i[p - lo] = (long)i;
                else
                    out_v[p - lo] = x;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// The rank after a selected one (NumPy's linear quantile and the median read two neighbours):
// the selected key v = st[0] again where the keys equal to it reach past rank kth + 1, else the
// smallest key above v. select_neighbour (one group) finds it from the counts of v's last digit
// (hist, which the last select_choose left uncleared) where it can: the keys counted there share
// every digit of v but the last, so a larger digit with a count is the next key. Where none is (v
// the largest key of its last bucket), a pass over the candidates the last pass read (the keys
// sharing all of v's digits but the last two; from_input 0, st[5] of them), and where those hold
// no larger key either, a pass over the input: next[7] (a state word selections leave 0) says
// whether a pass is still needed, and select_above and select_next return at once otherwise.
// select_above: each group's smallest key above v (mins[g]; a power-of-two WG); select_next
// (one group): the smallest of them, and the state of rank kth + 1 (its key; the rest copied;
// next[7] stays set where no key above v was found).
#define SELECT_ABOVE_NEEDED 7
kernel void select_neighbour(global uint* hist, uint clear, global const ulong* st, ulong kth,
                             global ulong* next) {
    local uint smallest;
    const uint l = get_local_id(0);
    const K v = (K)st[0];
    const uint d = (uint)v & 255u;
    const ulong less = kth - st[2], equal = st[3];
    if (l == 0) smallest = RADIX;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint e = l; e < RADIX; e += WG)
        if (e > d && hist[e]) atomic_min(&smallest, e);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (clear) // hist's last reader: zero for the next pass
        for (uint e = l; e < RADIX; e += WG)
            hist[e] = 0;
    if (l >= SELECT_STATE) return;
    const bool same = kth + 1 < less + equal, found = same || smallest < RADIX;
    const ulong key = same ? (ulong)v : (ulong)((v & ~(K)255) | (K)smallest);
    next[l] = l == 0 ? key : l == SELECT_ABOVE_NEEDED ? (found ? 0 : 1) : st[l];
}
kernel void select_above(global const T* in, sort_layout L, global const K* cand_in,
                         uint from_input, global const ulong* st, global const ulong* next,
                         global K* mins) {
    local K part[WG];
    if (!next[SELECT_ABOVE_NEEDED]) return;
    const uint l = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
    const K v = (K)st[0];
    const ulong n = from_input ? L.n : st[5];
    K m = KEY_ALL;
    for (ulong base = (ulong)g * SELECT_ROUND; base < n; base += (ulong)groups * SELECT_ROUND) {
        K key[SELECT_ITEMS];
        const uint valid = select_load(in, &L, cand_in, from_input, base, n, key, 0);
        for (uint j = 0; j < SELECT_ITEMS; ++j)
            if ((valid >> j & 1u) && key[j] > v && key[j] < m) m = key[j];
    }
    part[l] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (l < s) part[l] = min(part[l], part[l + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) mins[g] = part[0];
}
kernel void select_next(global const ulong* st, global const K* mins, uint groups, ulong kth,
                        global ulong* next) {
    local K part[WG];
    if (!next[SELECT_ABOVE_NEEDED]) return; // read by all before the write below
    const uint l = get_local_id(0);
    K m = KEY_ALL;
    for (uint g = l; g < groups; g += WG)
        m = min(m, mins[g]);
    part[l] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (l < s) part[l] = min(part[l], part[l + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l >= SELECT_STATE) return;
    const ulong less = kth - st[2], equal = st[3];
    const bool above = kth + 1 >= less + equal;
    next[l] = l == 0 && above                   ? (ulong)part[0]
              : l == SELECT_ABOVE_NEEDED        ? (above && part[0] == KEY_ALL ? 1 : 0)
                                                : st[l];
}
#endif // SORT_PART_SELECT
