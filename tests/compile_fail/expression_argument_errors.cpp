// Compiled by the expression_argument_compile_* tests (tests/CMakeLists.txt), never run. Case 0
// is the positive control and must compile (expressions where arrays are read); every other case
// must fail with the static_assert the test expects.
#include <clarray/clarray.hpp>

#include <cstdint>
#include <tuple>
#include <vector>

namespace ca = clarray;

void expression_arguments(const ca::queue& q) {
    ca::cl_array<float> x(q, {8});
    ca::cl_array<std::int32_t> idx(q, {2});
    xt::xarray<float> host = xt::ones<float>({8});
#if CLARRAY_COMPILE_CASE == 0
    auto spectrum = ca::fft::rfft(x * 2.0f);
    ca::cl_array<float> picked = ca::take(x, idx + 1) + ca::take(x * 2.0f, idx, 0);
    auto positive = ca::compress(x > 0.0f, x);
    auto joined = ca::concatenate(std::make_tuple(x * 2.0f, x));
    auto flipped = ca::flip(x + 1.0f);
    auto product = ca::outer(x * 2.0f, x);
    ca::put(x, idx + 1, x * 2.0f);
    (void)spectrum, (void)picked, (void)positive, (void)joined, (void)flipped, (void)product;
#elif CLARRAY_COMPILE_CASE == 1 // a host array where a device array is read
    auto spectrum = ca::fft::rfft(host);
    (void)spectrum;
#elif CLARRAY_COMPILE_CASE == 2 // host indices
    std::vector<std::int32_t> host_idx{0, 1};
    auto r = ca::take(x, host_idx);
    (void)r;
#elif CLARRAY_COMPILE_CASE == 3 // a float index expression
    auto r = ca::take(x, x * 2.0f);
    (void)r;
#endif
}
