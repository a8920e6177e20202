// Library kernels for copies, fills and ranges over strided n-d views.
// Built once per element type with -DT=<OpenCL C type> (-DCLARRAY_FP64 for double).
// Shape and strides travel in one struct argument (8-byte fields only, so the host and device
// layouts agree); all index math is 64-bit integer.
#ifdef CLARRAY_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

typedef struct {
    ulong n;                         // elements in the (coalesced) index space
    ulong rank;                      // number of axes used below
    ulong shape[CLARRAY_MAX_DIMS];
    long dst_strides[CLARRAY_MAX_DIMS];
    long src_strides[CLARRAY_MAX_DIMS];
    long dst_offset;
    long src_offset;
} nd_pair;

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
