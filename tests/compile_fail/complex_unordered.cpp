// Compiled by the complex_compile_* tests (tests/CMakeLists.txt), never run. CLARRAY_COMPILE_CASE
// 0 is the positive control and must compile; every other case must fail to compile with the
// diagnostic the test expects: complex numbers are not ordered by < > <= >= (maximum, minimum,
// max, min, argmax and argmin order them as NumPy's, in the positive control), and have only some
// of the math functions.
#include <clarray/clarray.hpp>

#include <complex>

namespace ca = clarray;

void complex_usage(const ca::queue& q) {
    using c64 = std::complex<float>;
    auto a = ca::zeros<c64>(q, {4});
    auto b = ca::zeros<c64>(q, {4});
    auto f = ca::zeros<float>(q, {4});
#if CLARRAY_COMPILE_CASE == 0
    ca::cl_array<bool> e = ca::logical_or(a == b, a != f);
    ca::cl_array<c64> c = ca::exp(a * b + f) / ca::pow(a, 2.0) - ca::conj(b);
    ca::cl_array<float> r = ca::abs(a) + ca::real(b) + ca::imag(a) + ca::angle(b);
    auto s = ca::sum(a * b);
    static_assert(std::is_same_v<decltype(s)::value_type, c64>);
    auto n = ca::norm(a);
    static_assert(std::is_same_v<decltype(n)::value_type, float>);
    // maximum/minimum/fmax/fmin, max/min and argmax/argmin order complex values as NumPy's
    ca::cl_array<c64> m = ca::maximum(a, b) + ca::minimum(a, 1.0) + ca::fmax(f, b) + ca::fmin(a, b);
    auto hi = ca::max(a);
    auto lo = ca::min(a * 2.0, {0}, false, c64(1, 1));
    static_assert(std::is_same_v<decltype(hi)::value_type, c64>);
    static_assert(std::is_same_v<decltype(lo)::value_type, c64>);
    auto at = ca::argmax(a) + ca::argmin(a * 2.0, 0);
    (void)e, (void)c, (void)r, (void)m, (void)at;
#elif CLARRAY_COMPILE_CASE == 1
    ca::cl_array<bool> e = a < b;
#elif CLARRAY_COMPILE_CASE == 2
    ca::cl_array<bool> e = a <= 2.0;
#elif CLARRAY_COMPILE_CASE == 3
    ca::cl_array<bool> e = a > f;
#elif CLARRAY_COMPILE_CASE == 4
    ca::cl_array<bool> e = f >= a;
#elif CLARRAY_COMPILE_CASE == 5
    ca::cl_array<c64> e = ca::cbrt(a);
#endif
}
