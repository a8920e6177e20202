#pragma once
// NumPy's indexing by several integer arrays at once, `a[i, j]` and `a[i, j] = v`
// (docs/indexing.md):
//
//   auto g = clarray::take_coords(a, {i, j});        // a[i, j]: i and j broadcast together
//   clarray::put_coords(a, {i, j}, v);               // a[i, j] = v
//
// The coordinates are combined into one flat C-order index into a's first axes (one small
// kernel per coordinate array, which reads it, so a coordinate may be an expression), then
// gathered (take's operand: take_coords is an expression, fused where it is assigned) or
// scattered (put's kernel). Nothing blocks. In raise mode a coordinate outside [-n, n) of its
// axis makes the flat index invalid, and the next host wait throws index_error naming
// take_coords or put_coords (the extent named is that of the flattened axes).
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/indexing/gather.hpp"
#include "clarray/indexing/indexing.hpp"

namespace clarray {
namespace detail {

// The flat C-order index (int64, the coordinates' broadcast shape) into the first
// coords.size() axes of `shape`; -1 where a coordinate is out of range in raise mode. wrap and
// clip make every coordinate valid first, as take's modes do.
template <class S, class X>
cl_array<std::int64_t, S> flat_coordinates(const shape_type& shape, const std::vector<X>& coords,
                                           index_mode mode, const char* what) {
    if (coords.empty()) throw usage_error(std::string(what) + ": no coordinate arrays");
    if (coords.size() > shape.size())
        throw index_error(std::string(what) + ": " + std::to_string(coords.size()) +
                          " coordinate arrays for an array of " + std::to_string(shape.size()) +
                          " dimensions");
    shape_type b = shape_of(coords.front());
    for (const X& c : coords) {
        require_device_argument<X>();
        using I = value_type_of<const X&>;
        check_index_type<I>();
        b = broadcast_shapes(b, shape_of(c)); // shape_error
    }
    cl_array<std::int64_t, S> flat(queue_of(coords.front()), b, layout::c,
                                   storage_like_of(coords.front()));
    if (flat.size() == 0) return flat;
    for (std::size_t k = 0; k < coords.size(); ++k) {
        const std::int64_t n = static_cast<std::int64_t>(shape[k]);
        if (n == 0)
            throw index_error(std::string(what) + ": cannot index axis " + std::to_string(k) +
                              ", which is empty");
        const auto c = astype<std::int64_t>(coords[k]);
        if (mode == index_mode::raise) {
            const auto cn = where(c < 0, c + n, c);
            const auto bad = (cn < 0) | (cn >= n);
            if (k == 0)
                flat = where(bad, std::int64_t(-1), cn);
            else
                flat = where(bad | (flat < 0), std::int64_t(-1), flat * n + cn);
        } else if (mode == index_mode::wrap) {
            if (k == 0)
                flat = mod(c, n);
            else
                flat = flat * n + mod(c, n);
        } else {
            const auto cn = minimum(maximum(c, std::int64_t(0)), n - 1);
            if (k == 0)
                flat = cn;
            else
                flat = flat * n + cn;
        }
    }
    return flat;
}

// The invalid marker -1 made an index out of range for `extent` (raise mode reports it).
template <class S> auto checked_flat(const cl_array<std::int64_t, S>& flat, std::size_t extent) {
    return where(flat < 0, static_cast<std::int64_t>(extent), flat);
}

// The name a raise-mode report gives (the extent it names is that of the flattened axes).
inline const char* coords_range_what(bool put) {
    return put ? "put_coords (a coordinate out of range for its axis)"
               : "take_coords (a coordinate out of range for its axis)";
}

template <class X> std::vector<X> coords_vector(std::initializer_list<X> c) {
    return std::vector<X>(c);
}

} // namespace detail

// NumPy's a[c0, c1, ...] with integer arrays: the elements at the coordinates (c0[k], c1[k],
// ...), the coordinate arrays (int32 or int64, arrays or expressions of one type) broadcast
// together to B; with fewer coordinates than dimensions the trailing axes are kept (shape B +
// a.shape[coords.size():]). An expression, like take: evaluated where it is assigned. Modes
// as take's, per axis (negative coordinates count from the end). index_error for more
// coordinates than dimensions or an empty indexed axis, shape_error for coordinates that do
// not broadcast.
template <
    class A, class X,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<X>>>
auto take_coords(const A& a_in, const std::vector<X>& coords, index_mode mode = index_mode::raise) {
    detail::require_device_argument<A>();
    decltype(auto) a = detail::materialize(a_in);
    using AT = std::decay_t<decltype(a)>;
    using T = typename AT::value_type;
    using S = typename AT::storage_policy;
    static_assert(std::is_same_v<S, detail::storage_of_t<X>>,
                  "take_coords: the coordinates must have the array's storage policy");
    if (!coords.empty()) detail::same_context(a, coords.front(), "take_coords");
    const cl_array<std::int64_t, S> flat =
        detail::flat_coordinates<S>(a.shape(), coords, mode, "take_coords");
    const std::size_t k = coords.size();
    shape_type src_shape{1};
    for (std::size_t d = 0; d < k; ++d)
        src_shape[0] *= a.shape()[d];
    for (std::size_t d = k; d < a.dimension(); ++d)
        src_shape.push_back(a.shape()[d]);
    // One axis for the indexed ones: a C-contiguous copy where a view cannot be reshaped.
    const cl_array<T, S> whole = is_c_contiguous(a.shape(), a.strides()) ? a : a.copy();
    const cl_array<T, S> src = whole.reshape(src_shape);
    auto ix = detail::checked_flat(flat, src_shape[0]);
    return detail::gather_node<T, S, decltype(ix)>(
        src, ix, flat.shape(), 0, mode,
        detail::check_site(detail::coords_range_what(false), src_shape[0], {}));
}
// take_coords with a braced list of coordinate arrays: `take_coords(a, {i, j})`.
template <
    class A, class X,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<X>>>
auto take_coords(const A& a, std::initializer_list<X> coords, index_mode mode = index_mode::raise) {
    return take_coords(a, detail::coords_vector(coords), mode);
}

// NumPy's a[c0, c1, ...] = values with one coordinate array per dimension: values (an array, an
// expression or a scalar, converted to a's dtype) broadcast to the coordinates' broadcast shape.
// For a repeated coordinate one of the writes wins, unspecified which. Modes as put's, per axis.
// index_error for a count of coordinates other than a's dimensions.
template <class T, class S, class X, class V,
          class = std::enable_if_t<detail::is_array_argument_v<X>>>
void put_coords(const cl_array<T, S>& a, const std::vector<X>& coords, const V& values,
                index_mode mode = index_mode::raise) {
    if (coords.size() != a.dimension())
        throw index_error("put_coords: " + std::to_string(coords.size()) +
                          " coordinate arrays for an array of " + std::to_string(a.dimension()) +
                          " dimensions (one per dimension)");
    if (!coords.empty()) detail::same_context(a, coords.front(), "put_coords");
    cl_array<std::int64_t, S> flat =
        detail::flat_coordinates<S>(a.shape(), coords, mode, "put_coords");
    if (flat.size() == 0) return;
    cl_array<T, S> v(a.get_queue(), flat.shape(), layout::c, a.data().get());
    if constexpr (is_scalar_v<V>)
        v.fill(static_cast<T>(values));
    else
        v = astype<T>(values); // broadcast (shape_error)
    const std::size_t n = a.size();
    if (mode == index_mode::raise) flat = detail::checked_flat(flat, n);
    const cl_array<T, S> vv = detail::unaliased(a, v);
    detail::scatter(detail::array_ref_of(a), detail::array_ref_of(flat), detail::array_ref_of(vv),
                    mode, true, false, detail::coords_range_what(true));
}
// put_coords with a braced list of coordinate arrays: `put_coords(a, {i, j}, v)`.
template <class T, class S, class X, class V,
          class = std::enable_if_t<detail::is_array_argument_v<X>>>
void put_coords(const cl_array<T, S>& a, std::initializer_list<X> coords, const V& values,
                index_mode mode = index_mode::raise) {
    put_coords(a, detail::coords_vector(coords), values, mode);
}

} // namespace clarray
