// Compiled by the sort_compile_* tests (tests/CMakeLists.txt), never run. CLARRAY_COMPILE_CASE
// 0 is the positive control and must compile; every other case must fail to compile with the
// static_assert the test expects: the functions of the sorting family that do not take complex
// arrays (searchsorted, bincount, histogram) say so at compile time, and searchsorted takes one
// storage policy.
#include <clarray/clarray.hpp>

#include <complex>
#include <cstdint>

namespace ca = clarray;

void sort_usage(const ca::queue& q) {
    using c64 = std::complex<float>;
    auto a = ca::zeros<c64>(q, {4});
    auto f = ca::zeros<float>(q, {4});
    auto i = ca::zeros<std::int32_t>(q, {4});
#if CLARRAY_COMPILE_CASE == 0
    auto s = ca::sort(a);
    auto k = ca::argsort(a * 2.0f);
    auto p = ca::searchsorted(i, f + 1); // int32 with float32: both float64
    auto u = ca::unique(i + 1);
    auto uc = ca::unique_counts(a * 2.0f);
    (void)uc;
    auto b = ca::bincount(i, f * 2);
    auto h = ca::histogram(ca::real(a), 4);
    static_assert(std::is_same_v<decltype(s), ca::cl_array<c64>>);
    static_assert(std::is_same_v<decltype(k), ca::cl_array<std::int64_t>>);
    (void)p, (void)u, (void)b, (void)h;
#elif CLARRAY_COMPILE_CASE == 1
    auto e = ca::searchsorted(a, a);
#elif CLARRAY_COMPILE_CASE == 2
    auto e = ca::bincount(a);
#elif CLARRAY_COMPILE_CASE == 3
    auto e = ca::searchsorted(f, a + 1.0f); // float32 with complex64: complex64
#elif CLARRAY_COMPILE_CASE == 4
    auto e = ca::bincount(i, a);
#elif CLARRAY_COMPILE_CASE == 5
    auto e = ca::histogram(a * 2.0f);
#elif CLARRAY_COMPILE_CASE == 6
    auto e = ca::searchsorted(f, ca::zeros<float, ca::buffer>(q, {2}));
#endif
}
