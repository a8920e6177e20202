// Compiled by the indexing_compile_* tests (tests/CMakeLists.txt), never run. Case 0 is the
// positive control and must compile; every other case must fail with the static_assert the test
// expects.
#include <clarray/clarray.hpp>

#include <complex>
#include <cstdint>

namespace ca = clarray;

void indexing_usage(const ca::queue& q) {
    ca::cl_array<float> a(q, {4});
#if CLARRAY_COMPILE_CASE == 0
    ca::cl_array<std::int32_t> i32(q, {2});
    ca::cl_array<std::int64_t> i64(q, {2});
    ca::cl_array<float> r = ca::take(a, i32) + ca::take(a, i64, 0, ca::index_mode::wrap);
    ca::put(a, i64, 1.0f);
    ca::add_at(a, i32, r);
    ca::cl_array<std::complex<float>> c(q, {4});
    ca::add_at(c, i64, std::complex<float>(1, 2)); // complex: one atomic add per part
    // 8- and 16-bit types, bool and float16: a compare-exchange of the word around the element
    ca::cl_array<std::int8_t> small(q, {4});
    ca::add_at(small, i32, 1);
    ca::cl_array<bool> flags(q, {4});
    ca::add_at(flags, i64, flags);
    ca::cl_array<ca::half> h(q, {4});
    ca::add_at(h, i32, h);
    (void)r;
#elif CLARRAY_COMPILE_CASE == 1 // float indices
    ca::cl_array<float> idx(q, {2});
    auto r = ca::take(a, idx);
    (void)r;
#elif CLARRAY_COMPILE_CASE == 2 // bool indices
    ca::cl_array<bool> idx(q, {2});
    ca::put(a, idx, 1.0f);
#endif
}
