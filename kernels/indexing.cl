// Library kernels of the indexing layer (scatter, mask compaction, nonzero coordinates).
// Built per element type with -DT=<OpenCL C type> -DI=<index type> -DADD=0|1 -DATOMIC=<kind>
// -DMAX_DIMS=<n> -DPTX_FLOAT_ATOMICS=0|1, after the pragmas its types need and the declaration
// of index_layout, which comes from its one description in src/indexing/indexing.cpp. T is ushort for float16, whose
// values move as bits (a half value needs cl_khr_fp16; add_at converts them with vload_half). Each operand j (0: the target,
// 1: the indices, 2: the values) is a strided view indexed by its flat C-order position. The
// layout always travels through a `constant` buffer (it exceeds small parameter spaces).

long clarray_view_offset(constant index_layout* L, int j, ulong i) {
    long o = L->offset[j];
    // The host coalesces each view, so contiguous operands are rank 1: no division.
    if (L->rank[j] == 1) return o + (long)i * L->strides[j * MAX_DIMS];
    for (int k = (int)L->rank[j] - 1; k >= 0; --k) {
        const ulong e = L->shape[j * MAX_DIMS + k];
        o += (long)(i % e) * L->strides[j * MAX_DIMS + k];
        i /= e;
    }
    return o;
}

// mode 0 raise (negative counts from the end; out of range: -1, the caller skips the element
// and sets its check's flag word), 1 wrap, 2 clip (as NumPy: negative indices become 0).
long clarray_index(long k, long n, ulong mode) {
    if (mode == 1) {
        const long r = k % n;
        return r < 0 ? r + n : r;
    }
    if (mode == 0) {
        if (k < 0) k += n;
        return k < 0 || k >= n ? -1 : k;
    }
    return k < 0 ? 0 : (k >= n ? n - 1 : k);
}

#if ADD
// Plain global atomics on the global pointer (no SVM atomics needed). Floats: compare-exchange
// on the bit pattern until no other work-item changed the word in between. Complex: one such
// add per part (each part is atomic, the pair is not; every add still lands).
#if (ATOMIC == 3 || ATOMIC == 5) && PTX_FLOAT_ATOMICS
// NVIDIA: the hardware's float reduction at the memory (device::quirks_t::ptx_float_atomics).
void clarray_atomic_add_float(global float* p, float x) {
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(x) : "memory");
}
#elif ATOMIC == 3 || ATOMIC == 5
void clarray_atomic_add_float(global float* p, float x) {
    volatile global uint* w = (volatile global uint*)p;
    uint seen, old = *w;
    do {
        seen = old;
        old = atomic_cmpxchg(w, seen, as_uint(as_float(seen) + x));
    } while (old != seen);
}
#endif
#if (ATOMIC == 4 || ATOMIC == 6) && PTX_FLOAT_ATOMICS
void clarray_atomic_add_double(global double* p, double x) {
    asm volatile("red.global.add.f64 [%0], %1;" ::"l"(p), "d"(x) : "memory");
}
#elif ATOMIC == 4 || ATOMIC == 6
void clarray_atomic_add_double(global double* p, double x) {
    volatile global ulong* w = (volatile global ulong*)p;
    ulong seen, old = *w;
    do {
        seen = old;
        old = atom_cmpxchg(w, seen, as_ulong(as_double(seen) + x));
    } while (old != seen);
}
#endif
#if ATOMIC >= 7
// 8- and 16-bit elements (OpenCL has no atomics that narrow): a compare-exchange of the aligned
// 32-bit word that holds the element, changing only its lane, until no other work-item changed
// the word in between. The host makes sure the whole word lies inside the allocation.
void clarray_atomic_add(global T* p, T x) {
#if ATOMIC == 8
    if (x == 0) return; // bool: adding False (logical or) changes nothing
#endif
    const uint byte = (uint)((size_t)p & 3);
    volatile global uint* w = (volatile global uint*)((global uchar*)p - byte);
#ifdef __ENDIAN_LITTLE__
    const uint shift = 8 * byte;
#else
    const uint shift = 8 * (4 - (uint)sizeof(T) - byte);
#endif
    const uint ones = sizeof(T) == 1 ? 0xffu : 0xffffu;
    const uint mask = ones << shift;
    uint seen, old = *w;
    do {
        seen = old;
        const uint lane = (seen & mask) >> shift;
#if ATOMIC == 7
        const uint next = lane + (uint)x; // the mask keeps the low bits: NumPy's wrap-around
#elif ATOMIC == 8
        const uint next = 1u; // True + anything is True (NumPy's add of bool is logical or)
        if (lane == 1u) return;
#else
        // float16 (T is its bits, ushort): the sum in float rounded once to float16, as NumPy's.
        const ushort a = (ushort)lane;
        ushort s;
        vstore_half_rte(vload_half(0, (const private half*)&a) +
                            vload_half(0, (const private half*)&x),
                        0, (private half*)&s);
        const uint next = s;
#endif
        old = atomic_cmpxchg(w, seen, (seen & ~mask) | ((next & ones) << shift));
    } while (old != seen);
}
#else
void clarray_atomic_add(global T* p, T x) {
#if ATOMIC == 1
    atomic_add((volatile global T*)p, x);
#elif ATOMIC == 2
    atom_add((volatile global T*)p, x);
#elif ATOMIC == 3
    clarray_atomic_add_float(p, x);
#elif ATOMIC == 4
    clarray_atomic_add_double(p, x);
#elif ATOMIC == 5
    clarray_atomic_add_float((global float*)p, x.x);
    clarray_atomic_add_float((global float*)p + 1, x.y);
#elif ATOMIC == 6
    clarray_atomic_add_double((global double*)p, x.x);
    clarray_atomic_add_double((global double*)p + 1, x.y);
#endif
}
#endif
#endif

// n work-items = idx.size * inner. put (flat_target): a.flat[k] = values.flat[i % cycle].
// add_at: a[k, c] += values.flat[i] for row r = i / inner of idx and position c in a[k].
// flag[word]: the raise-mode check's word (runtime/error_flag.hpp; NULL in the other modes).
kernel void clarray_scatter(global T* a, global const I* idx, global const T* v,
                            constant index_layout* L, global uint* flag, uint word) {
    const ulong i = get_global_id(0);
    if (i >= L->n) return;
    // inner and cycle are the same for every work-item: the branches cost nothing, while a
    // 64-bit division per element cost put a quarter of its speed (flat put: inner 1, cycle 0).
    const ulong inner = L->inner;
    const ulong r = inner == 1 ? i : i / inner, c = inner == 1 ? 0 : i - r * inner;
    const long k = clarray_index((long)idx[clarray_view_offset(L, 1, r)], L->axis_len, L->mode);
    if (k < 0) { // raise mode, out of range: no write, the host hears of it
        flag[word] = 1u;
        return;
    }
    const long t = L->flat_target ? clarray_view_offset(L, 0, (ulong)k)
                                  : clarray_view_offset(L, 0, c) + k * L->axis_stride;
    const T x = v[clarray_view_offset(L, 2, L->cycle ? i % L->cycle : i)];
#if ADD
    clarray_atomic_add(a + t, x);
#else
    a[t] = x;
#endif
}

// pos: the inclusive running count of the selected positions (C order); position i is selected
// where it steps, and goes to out[pos[i] - 1], so the order is kept.
kernel void clarray_compact(global T* out, global const T* a, global const long* pos,
                            constant index_layout* L) {
    const ulong i = get_global_id(0);
    if (i >= L->n) return;
    const long p = pos[i];
    if (p == (i ? pos[i - 1] : 0)) return;
    out[p - 1] = a[clarray_view_offset(L, 0, i)];
}

// out: rank rows of `count` coordinates; row k holds axis k's coordinate of every selected
// position of operand 0's shape.
kernel void clarray_nonzero(global long* out, global const long* pos, constant index_layout* L) {
    const ulong i = get_global_id(0);
    if (i >= L->n) return;
    const long p = pos[i];
    if (p == (i ? pos[i - 1] : 0)) return;
    ulong rem = i;
    for (int k = (int)L->rank[0] - 1; k >= 0; --k) {
        const ulong e = L->shape[k];
        out[(ulong)k * L->count + (ulong)(p - 1)] = (long)(rem % e);
        rem /= e;
    }
}
