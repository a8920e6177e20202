// The normalisation of fft/ (src/fft/fft.cpp): x[i] *= s over the n real numbers of a contiguous
// array (a complex array counts its parts). VkFFT scales only inverse transforms by 1/N; the
// "ortho" and "forward" norms scale here. Built with -DT=float or -DT=double.
kernel void fft_scale(global T* x, ulong n, T s) {
    const size_t i = get_global_id(0);
    if (i < n) x[i] *= s;
}

// irfft of a length VkFFT's real transform does not take runs as a complex transform of the
// Hermitian sequence: rows of n values whose first `first` are set; item i of a row sets
// x[k] = conj(x[n - k]) for k = first + i (whose mirror n - k < first is set).
kernel void fft_hermitian(global T* x, ulong count, ulong n, ulong first) {
    const size_t i = get_global_id(0);
    if (i >= count) return;
    const ulong per_row = n - first;
    const ulong row = i / per_row, k = first + i % per_row;
    global T* r = x + 2 * row * n;
    r[2 * k] = r[2 * (n - k)];
    r[2 * k + 1] = -r[2 * (n - k) + 1];
}
