#pragma once
// NumPy's trapezoid (the trapezoidal rule) on the device (docs/signal.md): one fused reduction,
// sum(d * (y[1:] + y[:-1]) / 2) along the axis, over views of y (and of x). Nothing blocks.
#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/reduce/reduce.hpp"

namespace clarray {
namespace detail {

// The views y[..., 1:] and y[..., :-1] of y with the axis moved last (empty for fewer than
// two samples).
template <class T, class S> struct trapezoid_sides { cl_array<T, S> upper, lower; };
template <class T, class S>
trapezoid_sides<T, S> trapezoid_split(const cl_array<T, S>& y, std::size_t ax) {
    const cl_array<T, S> m = moveaxis(y, static_cast<std::ptrdiff_t>(ax), -1);
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(m.shape().back());
    return {m(ellipsis(), range(std::min<std::ptrdiff_t>(1, n), n)),
            m(ellipsis(), range(0, std::max<std::ptrdiff_t>(n - 1, 0)))};
}

template <class T> constexpr void trapezoid_type_check() {
    static_assert(!std::is_same_v<T, bool>,
                  "clarray::trapezoid: bool samples are not supported; convert them first "
                  "(astype<double>)");
}

} // namespace detail

// NumPy's trapezoid of the samples y along axis with a uniform spacing dx: a 0-d array for 1-d
// y, else y's shape without the axis; the NumPy type of dx * (y + y) / 2 (integers: float64,
// float32 stays). Fewer than two samples give 0. index_error for an axis out of range. y may
// be an expression (evaluated first).
template <class E, class = std::enable_if_t<detail::is_array_argument_v<E>>>
auto trapezoid(const E& y_in, double dx = 1.0, std::ptrdiff_t axis = -1) {
    detail::require_device_argument<E>();
    decltype(auto) y = detail::materialize(y_in);
    detail::trapezoid_type_check<typename std::decay_t<decltype(y)>::value_type>();
    const std::size_t ax = detail::normalize_axis(axis, y.dimension(), "trapezoid");
    const auto s = detail::trapezoid_split(y, ax);
    return sum(dx * (s.upper + s.lower) / 2.0, reduce_axes(-1));
}

// NumPy's trapezoid with sample points x: 1-d of the axis' length, or of y's shape; the spacing
// of each interval is x's difference. shape_error where x does not fit.
template <
    class E, class X,
    class = std::enable_if_t<detail::is_array_argument_v<E> && detail::is_array_argument_v<X>>>
auto trapezoid(const E& y_in, const X& x_in, std::ptrdiff_t axis = -1) {
    detail::require_device_argument<E>();
    detail::require_device_argument<X>();
    decltype(auto) y = detail::materialize(y_in);
    decltype(auto) x = detail::materialize(x_in);
    detail::trapezoid_type_check<typename std::decay_t<decltype(y)>::value_type>();
    detail::trapezoid_type_check<typename std::decay_t<decltype(x)>::value_type>();
    const std::size_t ax = detail::normalize_axis(axis, y.dimension(), "trapezoid");
    if (x.dimension() == 1) {
        if (x.shape()[0] != y.shape()[ax])
            throw shape_error("trapezoid: x has " + std::to_string(x.shape()[0]) +
                              " samples, the axis of y " + std::to_string(y.shape()[ax]));
    } else if (x.shape() != y.shape()) {
        throw shape_error("trapezoid: x of shape " + shape_to_string(x.shape()) +
                          " is neither 1-d nor of y's shape " + shape_to_string(y.shape()));
    }
    const auto s = detail::trapezoid_split(y, ax);
    const auto d = detail::trapezoid_split(x, x.dimension() == 1 ? 0 : ax);
    return sum((d.upper - d.lower) * (s.upper + s.lower) / 2.0, reduce_axes(-1));
}

} // namespace clarray
