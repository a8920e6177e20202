// Library kernels for copies, fills and ranges over strided n-d views.
// Built once per element type with -DT=<OpenCL C type>, after the element type's extension pragma
// (from its dtype) and the declaration of nd_pair (shape and strides in one struct argument),
// which comes from its one description in array/builtin_kernels.hpp. All index math is 64-bit
// integer.

// dst[view] = src[view] (src may be broadcast: stride 0).
kernel void strided_copy(global T* dst, global const T* src, nd_pair L) {
    ulong i = get_global_id(0);
    if (i >= L.n) return;
    long d = L.dst_offset, s = L.src_offset;
    ulong rem = i;
    for (int k = (int)L.rank - 1; k >= 0; --k) {
        ulong c = rem % L.shape[k];
        rem /= L.shape[k];
        d += (long)c * L.dst_strides[k];
        s += (long)c * L.src_strides[k];
    }
    dst[d] = src[s];
}

// Row kernels: the innermost axis (rank - 1) is unit-stride for dst (and for src, or stride 0
// for the _broadcast copy); n counts the rows. Dimension 0 walks a row, dimensions 1 and 2 the
// rows (row_launch in builtin_kernels.hpp). A work-item finds its row's offsets once: rank 2
// (the host pads rank 1) by one multiply, so the compiler sees unit steps along dimension 0 and
// vectorises; the _nd kernels (rank >= 3) unravel the row index, axes rank-2..1 by division,
// axis 0 by what remains.
#define CLARRAY_ROW_HEAD                                                                           \
    const ulong i = get_global_id(0);                                                              \
    const ulong m = get_global_id(1) + get_global_id(2) * get_global_size(1);                     \
    if (i >= L.shape[1] || m >= L.n) return;                                                       \
    const long d = L.dst_offset + (long)m * L.dst_strides[0];                                      \
    const long s = L.src_offset + (long)m * L.src_strides[0];

#define CLARRAY_ROW_HEAD_ND                                                                        \
    const ulong i = get_global_id(0);                                                              \
    const ulong m = get_global_id(1) + get_global_id(2) * get_global_size(1);                     \
    const int in = (int)L.rank - 1;                                                                \
    if (i >= L.shape[in] || m >= L.n) return;                                                      \
    long d = L.dst_offset, s = L.src_offset;                                                       \
    ulong rem = m;                                                                                 \
    for (int k = in - 1; k >= 1; --k) {                                                            \
        const ulong c = rem % L.shape[k];                                                          \
        rem /= L.shape[k];                                                                         \
        d += (long)c * L.dst_strides[k];                                                           \
        s += (long)c * L.src_strides[k];                                                           \
    }                                                                                              \
    d += (long)rem * L.dst_strides[0];                                                             \
    s += (long)rem * L.src_strides[0];

kernel void rows_copy(global T* dst, global const T* src, nd_pair L) {
    CLARRAY_ROW_HEAD
    dst[d + (long)i] = src[s + (long)i];
}
kernel void rows_copy_nd(global T* dst, global const T* src, nd_pair L) {
    CLARRAY_ROW_HEAD_ND
    dst[d + (long)i] = src[s + (long)i];
}

// src constant along the row (a broadcast inner axis).
kernel void rows_copy_broadcast(global T* dst, global const T* src, nd_pair L) {
    CLARRAY_ROW_HEAD
    dst[d + (long)i] = src[s];
}
kernel void rows_copy_broadcast_nd(global T* dst, global const T* src, nd_pair L) {
    CLARRAY_ROW_HEAD_ND
    dst[d + (long)i] = src[s];
}

kernel void rows_fill(global T* dst, T value, nd_pair L) {
    CLARRAY_ROW_HEAD
    (void)s;
    dst[d + (long)i] = value;
}
kernel void rows_fill_nd(global T* dst, T value, nd_pair L) {
    CLARRAY_ROW_HEAD_ND
    (void)s;
    dst[d + (long)i] = value;
}

// dst[dst_offset + i] = src[src_offset + i] (device quirk kernel_for_contiguous_copy).
kernel void contiguous_copy(global T* dst, global const T* src, long dst_offset, long src_offset,
                            ulong n) {
    ulong i = get_global_id(0);
    if (i < n) dst[dst_offset + (long)i] = src[src_offset + (long)i];
}

// dst[view] = value
kernel void strided_fill(global T* dst, T value, nd_pair L) {
    ulong i = get_global_id(0);
    if (i >= L.n) return;
    long d = L.dst_offset;
    ulong rem = i;
    for (int k = (int)L.rank - 1; k >= 0; --k) {
        ulong c = rem % L.shape[k];
        rem /= L.shape[k];
        d += (long)c * L.dst_strides[k];
    }
    dst[d] = value;
}

#ifdef CLARRAY_HALF
// float16 (T is ushort: copies and fills move its bits): ranges compute in float and round to
// nearest even on store.
kernel void arange(global half* dst, float start, float step, long offset, ulong n) {
    ulong i = get_global_id(0);
    if (i >= n) return;
    vstore_half_rte(start + (float)i * step, offset + (long)i, dst);
}
kernel void linspace(global half* dst, float start, float step, float stop, int last_is_stop,
                     long offset, ulong n) {
    ulong i = get_global_id(0);
    if (i >= n) return;
    float v = start + (float)i * step;
    if (last_is_stop && i == n - 1) v = stop;
    vstore_half_rte(v, offset + (long)i, dst);
}
#else
// dst[offset + i] = start + i * step for a contiguous 1-d dst.
kernel void arange(global T* dst, T start, T step, long offset, ulong n) {
    ulong i = get_global_id(0);
    if (i >= n) return;
    dst[offset + (long)i] = start + (T)i * step;
}

// dst[offset + i] = start + i * step for floating T, with the last element exactly `stop` when
// `last_is_stop` (as NumPy's linspace with endpoint=True).
kernel void linspace(global T* dst, T start, T step, T stop, int last_is_stop, long offset, ulong n) {
    ulong i = get_global_id(0);
    if (i >= n) return;
    T v = start + (T)i * step;
    if (last_is_stop && i == n - 1) v = stop;
    dst[offset + (long)i] = v;
}
#endif
