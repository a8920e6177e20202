// Compiled by the einsum_compile_* tests (tests/CMakeLists.txt), never run. Case 0 is the positive
// control and must compile; every other case must fail with the static_assert the test expects.
#include <clarray/clarray.hpp>

#include <complex>
#include <cstdint>
#include <vector>

namespace ca = clarray;

void einsum_usage(const ca::queue& q) {
#if CLARRAY_COMPILE_CASE == 0 // mixed dtypes promote; expressions; integers; einsum_path
    ca::cl_array<float> a(q, {3, 4});
    ca::cl_array<double> b(q, {4, 2});
    ca::cl_array<std::int32_t> i(q, {3, 3});
    ca::cl_array<std::complex<float>> z(q, {3});
    auto c = ca::einsum("ij,jk", a, b);
    auto t = ca::einsum("ii", i);
    auto e = ca::linalg::einsum("ij,i->j", a * 2.0f, z);
    auto p = ca::einsum_path("ij,jk", a, b.shape());
    (void)c, (void)t, (void)e, (void)p;
#elif CLARRAY_COMPILE_CASE == 1 // two storage policies
    ca::cl_array<float, ca::svm_coarse> a(q, {3, 4});
    ca::cl_array<float, ca::buffer> b(q, {4, 2});
    auto c = ca::einsum("ij,jk", a, b);
    (void)c;
#elif CLARRAY_COMPILE_CASE == 2 // host data as an operand
    ca::cl_array<float> a(q, {3, 4});
    std::vector<float> host(4);
    auto c = ca::einsum("ij,j", a, host);
    (void)c;
#endif
}
