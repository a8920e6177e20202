#pragma once
// NumPy's gradient with a scalar spacing on the device (docs/signal.md): central differences
// inside, one-sided differences of first or second order at the edges. Three generated kernels
// per axis (the interior and the two edges, each over views of the moved axis). Nothing blocks.
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"

namespace clarray {

// The element type of gradient of T: integers become float64 (NumPy converts them first, so
// unsigned differences do not wrap); float types and complex stay.
template <class T> using gradient_t = std::conditional_t<std::is_integral_v<T>, double, T>;

namespace detail {

template <class R, class T, class S>
void gradient_axis(const cl_array<R, S>& out, const cl_array<T, S>& f, std::size_t ax, double h,
                   int edge_order) {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(f.shape()[ax]);
    const cl_array<T, S> F = moveaxis(f, static_cast<std::ptrdiff_t>(ax), 0);
    const cl_array<R, S> O = moveaxis(out, static_cast<std::ptrdiff_t>(ax), 0);
    const auto at = [&](std::ptrdiff_t lo, std::ptrdiff_t hi) {
        return astype<R>(F(range(lo, hi), ellipsis()));
    };
    if (n > 2) O(range(1, n - 1), ellipsis()) = (at(2, n) - at(0, n - 2)) / (2.0 * h);
    if (edge_order == 1) {
        O(range(0, 1), ellipsis()) = (at(1, 2) - at(0, 1)) / h;
        O(range(n - 1, n), ellipsis()) = (at(n - 1, n) - at(n - 2, n - 1)) / h;
    } else { // NumPy's coefficients of the second-order one-sided differences
        O(range(0, 1), ellipsis()) =
            (-1.5 / h) * at(0, 1) + (2.0 / h) * at(1, 2) + (-0.5 / h) * at(2, 3);
        O(range(n - 1, n), ellipsis()) =
            (0.5 / h) * at(n - 3, n - 2) + (-2.0 / h) * at(n - 2, n - 1) + (1.5 / h) * at(n - 1, n);
    }
}

template <class T, class S>
cl_array<gradient_t<T>, S> gradient_of(const cl_array<T, S>& f, std::size_t ax, double spacing,
                                       int edge_order) {
    if (edge_order != 1 && edge_order != 2)
        throw usage_error("gradient: edge_order must be 1 or 2, got " + std::to_string(edge_order));
    const std::size_t n = f.shape()[ax];
    if (n < static_cast<std::size_t>(edge_order) + 1)
        throw shape_error("gradient: axis " + std::to_string(ax) + " has " + std::to_string(n) +
                          " elements; at least edge_order + 1 = " + std::to_string(edge_order + 1) +
                          " are required");
    cl_array<gradient_t<T>, S> out(f.get_queue(), f.shape(), layout::c, f.data().get());
    gradient_axis(out, f, ax, spacing, edge_order);
    return out;
}

} // namespace detail

// NumPy's gradient of f along one axis (none: f must be 1-d) with a uniform spacing:
// (f[i+1] - f[i-1]) / (2 spacing) inside, first- or second-order (edge_order 1 or 2) one-sided
// differences at the ends, in gradient_t. usage_error for another edge_order, shape_error for
// an axis of fewer than edge_order + 1 elements (or no axis for an n-d f: see gradients),
// index_error for an axis out of range. bool is refused at compile time (NumPy refuses its
// subtraction). f may be an expression (evaluated first).
template <class E, class = std::enable_if_t<detail::is_array_argument_v<E>>>
auto gradient(const E& f_in, std::optional<std::ptrdiff_t> axis = std::nullopt,
              double spacing = 1.0, int edge_order = 1) {
    detail::require_device_argument<E>();
    decltype(auto) f = detail::materialize(f_in);
    static_assert(!std::is_same_v<typename std::decay_t<decltype(f)>::value_type, bool>,
                  "clarray::gradient: bool arrays are not supported (NumPy refuses them too)");
    if (!axis && f.dimension() != 1)
        throw shape_error("gradient: f has " + std::to_string(f.dimension()) +
                          " dimensions; give the axis, or use gradients() for every axis");
    const std::size_t ax = detail::normalize_axis(axis.value_or(0), f.dimension(), "gradient");
    return detail::gradient_of(f, ax, spacing, edge_order);
}

// NumPy's gradient of an n-d f along every axis: one array per axis, in axis order (the same
// spacing for each).
template <class E, class = std::enable_if_t<detail::is_array_argument_v<E>>>
auto gradients(const E& f_in, double spacing = 1.0, int edge_order = 1) {
    detail::require_device_argument<E>();
    decltype(auto) f = detail::materialize(f_in);
    using F = std::decay_t<decltype(f)>;
    std::vector<cl_array<gradient_t<typename F::value_type>, typename F::storage_policy>> r;
    for (std::size_t ax = 0; ax < f.dimension(); ++ax)
        r.push_back(gradient(f, static_cast<std::ptrdiff_t>(ax), spacing, edge_order));
    return r;
}

} // namespace clarray
