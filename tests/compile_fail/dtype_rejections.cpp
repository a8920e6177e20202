// Compiled by the dtype_compile_* tests (tests/CMakeLists.txt), never run: dtypes the conformance
// matrix (tests/test_conformance*.cpp) reports as compile-time rejections must fail with the
// static_assert that says why, never compute. Case 0 is the positive control and must compile.
#include <clarray/clarray.hpp>

#include <complex>
#include <cstdint>

namespace ca = clarray;

void dtype_usage(const ca::queue& q) {
    ca::cl_array<float> f(q, {8});
    ca::cl_array<bool> b(q, {8});
    ca::cl_array<std::int32_t> i(q, {8});
    ca::cl_array<std::complex<float>> z(q, {8});
    (void)f, (void)b, (void)i, (void)z;
#if CLARRAY_COMPILE_CASE == 0
    ca::cl_array<std::int32_t> r1 = (i & i) + (i << i) + ca::floor_divide(i, i) + (i % i) + ~i;
    ca::cl_array<float> r2 = -f + ca::atan2(f, f);
    ca::cl_array<float> r3 = ca::matmul(f.reshape({2, 4}), f.reshape({4, 2}));
    ca::cl_array<std::int32_t> r5 = ca::matmul(i.reshape({2, 4}), i.reshape({4, 2}));
    (void)r5;
    ca::cl_array<bool> r4 = !b;
    (void)r1, (void)r2, (void)r3, (void)r4;
#elif CLARRAY_COMPILE_CASE == 1
    auto r = ca::eval(f & f);
    (void)r;
#elif CLARRAY_COMPILE_CASE == 2
    auto r = ca::eval(f << f);
    (void)r;
#elif CLARRAY_COMPILE_CASE == 3
    auto r = ca::eval(ca::floor_divide(z, z));
    (void)r;
#elif CLARRAY_COMPILE_CASE == 4
    auto r = ca::eval(z % z);
    (void)r;
#elif CLARRAY_COMPILE_CASE == 5
    auto r = ca::eval(-b);
    (void)r;
#elif CLARRAY_COMPILE_CASE == 6
    auto r = ca::eval(~f);
    (void)r;
#elif CLARRAY_COMPILE_CASE == 7
    auto r = ca::eval(ca::atan2(z, z));
    (void)r;
#endif
}
