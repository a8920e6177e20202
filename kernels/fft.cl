// The normalisation of fft/ (src/fft/fft.cpp): x[i] *= s over the n real numbers of a contiguous
// array (a complex array counts its parts). VkFFT scales only inverse transforms by 1/N; the
// "ortho" and "forward" norms scale here. Built with -DT=float or -DT=double.
kernel void fft_scale(global T* x, ulong n, T s) {
    const size_t i = get_global_id(0);
    if (i < n) x[i] *= s;
}
