// Compiled by the newcomer_compile_* tests (tests/CMakeLists.txt), never run. CLARRAY_COMPILE_CASE
// 0 is the positive control and must compile; every other case is a mistake that must fail to
// compile with one static_assert saying what to do instead.
#include <clarray/clarray.hpp>

#include <cstdint>
#include <iostream>
#include <tuple>

namespace ca = clarray;

void newcomer(const ca::queue& q) {
    auto a = ca::zeros<float>(q, {3, 4});
    ca::cl_array<float> c = a.copy();
    xt::xarray<float> host = xt::ones<float>({3, 4});
#if CLARRAY_COMPILE_CASE == 0
    auto device_copy = ca::to_device(q, host);
    c = a + device_copy;
    c.set(host);
    auto b = ca::zeros<float, ca::buffer>(q, {3, 4});
    c = a * 2.0f + b; // storage policies mix
    std::cout << a << (a + b) << ca::describe(a) << "\n";
    xt::xarray<float> back = a.get() + host; // host arithmetic on a host copy
    auto i8 = ca::zeros<std::int8_t>(q, {2, 4});
    auto joined = ca::concatenate<float>({a, i8, a * 2.0f}); // mixed dtypes: R named
    auto tied = ca::concatenate(std::tie(a, i8));            // NumPy's result_type of all
    auto same = ca::concatenate({a, c});                     // one dtype
    (void)back, (void)joined, (void)tied, (void)same;
#elif CLARRAY_COMPILE_CASE == 1 // a host array as an operand
    c = a + host;
#elif CLARRAY_COMPILE_CASE == 2 // on the left, with an expression
    c = host * (a + 1.0f);
#elif CLARRAY_COMPILE_CASE == 3 // kept for later: nothing would fail until it is used
    auto later = a - host;
    (void)later;
#elif CLARRAY_COMPILE_CASE == 4 // assigning host data
    c = host;
#elif CLARRAY_COMPILE_CASE == 5 // a braced list of different dtypes, no result dtype named
    auto i8 = ca::zeros<std::int8_t>(q, {2, 4});
    auto joined = ca::concatenate({a, i8});
    (void)joined;
#endif
}
