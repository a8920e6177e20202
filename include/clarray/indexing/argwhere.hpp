#pragma once
// NumPy's argwhere and flatnonzero (docs/indexing.md): the positions of the nonzero elements,
// as rows of coordinates or as flat C-order indices. Both read the count of nonzero elements
// back (the result's size), which waits for the work before them; the rest is enqueued: a
// running count (the scan, which reads an expression argument inside its kernel) and one
// kernel writing the positions.
#include <cstdint>

#include "clarray/array/cl_array.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/indexing/indexing.hpp"

namespace clarray {

// NumPy's argwhere: the int64 coordinates of the nonzero elements of a (an array or an
// expression), one row each in C order: shape (count, a.dimension()). A 0-d a gives shape
// (1, 0) when its element is nonzero, else (0, 0), as NumPy's.
template <class E, class = std::enable_if_t<detail::is_array_argument_v<E>>>
auto argwhere(const E& a) {
    detail::require_device_argument<E>();
    using S = detail::storage_of_t<E>;
    const shape_type shape = detail::shape_of(a);
    const queue& q = detail::queue_of(a);
    const std::size_t rank = shape.size();
    const std::size_t n = checked_size(shape);
    if (n == 0) return cl_array<std::int64_t, S>(q, shape_type{0, rank});
    const auto pos = detail::running_count(a);
    const std::size_t count = detail::total(pos); // the host waits here
    if (rank == 0 || count == 0) return cl_array<std::int64_t, S>(q, shape_type{count, rank});
    cl_array<std::int64_t, S> coords(q, shape_type{rank, count}, layout::c,
                                     detail::storage_like_of(a));
    detail::nonzero_coordinates(detail::array_ref_of(coords), shape, detail::array_ref_of(pos),
                                count);
    if (rank == 1) return coords.reshape({count, 1});
    return coords.transpose().copy();
}

// NumPy's flatnonzero: the int64 indices of the nonzero elements of a flattened in C order
// (a: an array or an expression, of any shape).
template <class E, class = std::enable_if_t<detail::is_array_argument_v<E>>>
auto flatnonzero(const E& a) {
    detail::require_device_argument<E>();
    using S = detail::storage_of_t<E>;
    const std::size_t n = checked_size(detail::shape_of(a));
    const queue& q = detail::queue_of(a);
    if (n == 0) return cl_array<std::int64_t, S>(q, shape_type{0});
    const auto pos = detail::running_count(a);
    const std::size_t count = detail::total(pos); // the host waits here
    cl_array<std::int64_t, S> out(q, shape_type{count}, layout::c, detail::storage_like_of(a));
    if (count > 0)
        detail::nonzero_coordinates(detail::array_ref_of(out), shape_type{n},
                                    detail::array_ref_of(pos), count);
    return out;
}

} // namespace clarray
