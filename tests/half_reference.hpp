#pragma once
// Host references for float16 elementwise tests: the float result of f rounded once to float16,
// as the kernels compute (in float, one rounding on store).
#include <cstddef>
#include <limits>
#include <vector>

#include "xtensor_headers.hpp"

#include "clarray/types/half.hpp"

namespace test {

// float16 values whose results exercise rounding and the special cases: zeros of both signs, the
// infinities, NaN, the largest and smallest magnitudes, one.
inline std::vector<clarray::half> half_specials() {
    using limits = std::numeric_limits<clarray::half>;
    return {clarray::half(0.0f),  -clarray::half(0.0f), limits::infinity(), -limits::infinity(),
            limits::quiet_NaN(),  limits::max(),        limits::lowest(),   limits::min(),
            limits::denorm_min(), clarray::half(1.0f)};
}

// half(f(a)) element by element.
template <class F> xt::xarray<clarray::half> host_map(const xt::xarray<clarray::half>& a, F f) {
    xt::xarray<clarray::half> r = xt::xarray<clarray::half>::from_shape(a.shape());
    for (std::size_t i = 0; i < a.size(); ++i)
        r.flat(i) = clarray::half(f(float(a.flat(i))));
    return r;
}
// half(f(a, b)) element by element (a and b of one shape).
template <class F>
xt::xarray<clarray::half> host_zip(const xt::xarray<clarray::half>& a,
                                   const xt::xarray<clarray::half>& b, F f) {
    xt::xarray<clarray::half> r = xt::xarray<clarray::half>::from_shape(a.shape());
    for (std::size_t i = 0; i < a.size(); ++i)
        r.flat(i) = clarray::half(f(float(a.flat(i)), float(b.flat(i))));
    return r;
}

} // namespace test
