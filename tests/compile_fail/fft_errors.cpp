// Compiled by the fft_compile_* tests (tests/CMakeLists.txt), never run. Case 0 is the positive
// control and must compile; every other case must fail with the static_assert the test expects.
#include <clarray/clarray.hpp>

#include <complex>
#include <cstdint>

namespace ca = clarray;

void fft_usage(const ca::queue& q) {
#if CLARRAY_COMPILE_CASE == 0
    ca::cl_array<float> x(q, {8});
    ca::cl_array<std::complex<double>> z(q, {8});
    auto X = ca::fft::fft(x);
    auto Z = ca::fft::ifftn(z);
    auto R = ca::fft::rfft(x);
    auto r = ca::fft::irfft(R);
    ca::cl_array<std::int32_t> i(q, {8}); // integers compute in float64, as NumPy's
    ca::cl_array<std::complex<double>> I = ca::fft::fft(i);
    ca::cl_array<std::complex<double>> IR = ca::fft::rfft(i);
    ca::cl_array<ca::half> h(q, {8}); // float16 computes in float32, as NumPy's
    ca::cl_array<std::complex<float>> H = ca::fft::fft(h);
    ca::cl_array<ca::half> HR = ca::fft::irfft(h); // real input: zero imaginary parts
    (void)X, (void)Z, (void)r, (void)I, (void)IR, (void)H, (void)HR;
#elif CLARRAY_COMPILE_CASE == 1 // rfft of complex input
    ca::cl_array<std::complex<float>> z(q, {8});
    auto R = ca::fft::rfft(z);
    (void)R;
#endif
}
