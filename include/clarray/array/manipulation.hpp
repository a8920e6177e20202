#pragma once
// Joining, splitting, rearranging and creating arrays, with NumPy's names and semantics, from
// views, the strided copy and the fill (no expressions): expand_dims, atleast_1d/2d/3d,
// swapaxes, moveaxis, concatenate, stack, hstack, vstack, split, array_split, flip, flipud,
// fliplr, roll, repeat, tile, pad (constant), eye, identity, diag, diagonal, meshgrid, indices. The
// ones that are expressions (clip, diff, triu, tril) and concatenate/stack of mixed dtypes are in
// expr/manipulation.hpp. docs/manipulation.md lists them with their NumPy equivalents.
//
// Views (the axis functions, split, flip, diagonal, diag of a matrix) share the input's memory;
// everything else returns a new C-contiguous array allocated like its (first) input. Nothing here
// blocks: the copies and fills are enqueued with the operands' events.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"

namespace clarray {

// meshgrid's output order: xy (Cartesian, the default) swaps the first two axes, ij does not.
enum class indexing { xy, ij };

// The per-axis widths of pad: (before, after).
using pad_width = std::pair<std::size_t, std::size_t>;

namespace detail {

// NumPy's axis normalisation: axis in [-rank, rank) -> [0, rank); index_error naming the
// operation, the axis and the rank otherwise.
std::size_t normalize_axis(std::ptrdiff_t axis, std::size_t rank, const char* what);

// ---- view arithmetic on (shape, strides, offset) ----
// Elements [start, stop) of axis (start <= stop <= extent).
void slice_axis_view(shape_type& shape, const strides_type& strides, std::ptrdiff_t& offset,
                     std::size_t axis, std::size_t start, std::size_t stop);
// A new axis of extent 1 (stride 0) before position `axis` (<= rank).
void insert_axis_view(shape_type& shape, strides_type& strides, std::size_t axis);
// The axis in reverse order.
void flip_view(const shape_type& shape, strides_type& strides, std::ptrdiff_t& offset,
               std::size_t axis);
// Diagonal k of the axes axis1 and axis2 (removed), as a new last axis (NumPy's diagonal).
void diagonal_view(shape_type& shape, strides_type& strides, std::ptrdiff_t& offset,
                   std::ptrdiff_t k, std::size_t axis1, std::size_t axis2);

// ---- shapes ----
// The shape of `count` shapes joined along axis (normalised into *norm_axis): same rank, same
// extents elsewhere (shape_error naming both shapes), at least one (usage_error), rank >= 1.
shape_type concatenated_shape(const shape_type* const* shapes, std::size_t count,
                              std::ptrdiff_t axis, const char* what, std::size_t* norm_axis);
// stack's checks: at least one, all of one shape (shape_error naming two that differ).
void check_same_shapes(const shape_type* const* shapes, std::size_t count, const char* what);
// The parts [start, stop) of split/array_split into `sections` of an axis of `extent`; equal: the
// parts must be of one size (shape_error otherwise, as NumPy's split).
std::vector<std::pair<std::size_t, std::size_t>>
split_bounds(std::size_t extent, std::size_t sections, bool equal, const char* what);
// The parts between Python slice indices (negative count from the end, clamped to the axis).
std::vector<std::pair<std::size_t, std::size_t>>
split_bounds(std::size_t extent, const std::vector<std::ptrdiff_t>& at);
shape_type tiled_shape(const shape_type& shape, const std::vector<std::size_t>& reps);
// counts: one count for every element, or one per element of the axis (shape_error otherwise).
shape_type repeated_shape(const shape_type& shape, const std::vector<std::size_t>& counts,
                          std::size_t axis);
// widths: one pair for every axis, or one per axis (shape_error otherwise).
shape_type padded_shape(const shape_type& shape, const std::vector<pad_width>& widths);
// The shift of each axis of roll (in [0, extent)): shifts and axes pair up, a single shift
// applies to every listed axis, shifts of a repeated axis add up.
std::vector<std::size_t> roll_shifts(const shape_type& shape,
                                     const std::vector<std::ptrdiff_t>& shifts,
                                     const std::vector<std::ptrdiff_t>& axes);

// ---- copies into a new array `out` of the result shape (same dtype and storage kind) ----
// parts one after another along axis.
void copy_concatenated(const array_ref& out, const array_ref* parts, std::size_t count,
                       std::size_t axis);
// out[(i + shift[i]) % n] = src[i] along every axis.
void copy_rolled(const array_ref& out, const array_ref& src, const std::vector<std::size_t>& shift);
void copy_tiled(const array_ref& out, const array_ref& src, const std::vector<std::size_t>& reps);
void copy_repeated(const array_ref& out, const array_ref& src,
                   const std::vector<std::size_t>& counts, std::size_t axis);
// out = value everywhere, then src at the offsets widths[i].first.
void copy_padded(const array_ref& out, const array_ref& src, const std::vector<pad_width>& widths,
                 const void* value);

template <class T, class S> cl_array<T, S> new_like(const cl_array<T, S>& a, shape_type shape) {
    return cl_array<T, S>(a.get_queue(), std::move(shape), layout::c, a.data().get());
}
template <class T, class S>
cl_array<T, S> view_of(const cl_array<T, S>& a, shape_type shape, strides_type strides,
                       std::ptrdiff_t offset) {
    return cl_array<T, S>(a.get_queue(), a.data(), std::move(shape), std::move(strides), offset);
}
// Elements [start, stop) of axis, a view.
template <class T, class S>
cl_array<T, S> axis_slice(const cl_array<T, S>& a, std::size_t axis, std::size_t start,
                          std::size_t stop) {
    shape_type s = a.shape();
    std::ptrdiff_t off = a.offset();
    slice_axis_view(s, a.strides(), off, axis, start, stop);
    return view_of(a, std::move(s), a.strides(), off);
}
template <class T, class S> cl_array<T, S> with_axis(const cl_array<T, S>& a, std::size_t axis) {
    shape_type s = a.shape();
    strides_type st = a.strides();
    insert_axis_view(s, st, axis);
    return view_of(a, std::move(s), std::move(st), a.offset());
}
// atleast_1d/atleast_2d as views: 0-d -> (1,), (1, 1); 1-d (n) -> (1, n).
template <class T, class S> cl_array<T, S> at_least(const cl_array<T, S>& a, std::size_t rank) {
    shape_type s = a.shape();
    strides_type st = a.strides();
    while (s.size() < rank)
        insert_axis_view(s, st, 0);
    return view_of(a, std::move(s), std::move(st), a.offset());
}

} // namespace detail

// ---- axes (views) ----
// A new axis of extent 1 at position `axis` of the result (in [-rank-1, rank]).
template <class T, class S>
cl_array<T, S> expand_dims(const cl_array<T, S>& a, std::ptrdiff_t axis) {
    return detail::with_axis(a, detail::normalize_axis(axis, a.dimension() + 1, "expand_dims"));
}
// NumPy's atleast_1d/2d/3d: 0-d -> (1,), (1, 1), (1, 1, 1); 1-d (n) -> (1, n), (1, n, 1);
// 2-d (m, n) -> (m, n, 1) for atleast_3d. Others unchanged.
template <class T, class S> cl_array<T, S> atleast_1d(const cl_array<T, S>& a) {
    return detail::at_least(a, 1);
}
// The array viewed with at least two dimensions (NumPy's atleast_2d).
template <class T, class S> cl_array<T, S> atleast_2d(const cl_array<T, S>& a) {
    return detail::at_least(a, 2);
}
// The array viewed with at least three dimensions (NumPy's atleast_3d).
template <class T, class S> cl_array<T, S> atleast_3d(const cl_array<T, S>& a) {
    if (a.dimension() >= 3) return a;
    if (a.dimension() == 0) return detail::at_least(a, 3);
    // (n) -> (1, n, 1), (m, n) -> (m, n, 1)
    const cl_array<T, S> v = detail::with_axis(a, a.dimension());
    return detail::at_least(v, 3);
}
// The view with axes axis1 and axis2 exchanged.
template <class T, class S>
cl_array<T, S> swapaxes(const cl_array<T, S>& a, std::ptrdiff_t axis1, std::ptrdiff_t axis2) {
    std::vector<std::size_t> order(a.dimension());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::swap(order[detail::normalize_axis(axis1, a.dimension(), "swapaxes")],
              order[detail::normalize_axis(axis2, a.dimension(), "swapaxes")]);
    return a.transpose(order);
}
// The view with axis `source` moved to position `destination`, the others in their order.
template <class T, class S>
cl_array<T, S> moveaxis(const cl_array<T, S>& a, std::ptrdiff_t source,
                        std::ptrdiff_t destination) {
    const std::size_t from = detail::normalize_axis(source, a.dimension(), "moveaxis");
    const std::size_t to = detail::normalize_axis(destination, a.dimension(), "moveaxis");
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < a.dimension(); ++i)
        if (i != from) order.push_back(i);
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(to), from);
    return a.transpose(order);
}

// The standard's permute_dims: the view with its axes in the order `axes` (transpose).
template <class T, class S>
cl_array<T, S> permute_dims(const cl_array<T, S>& a, const std::vector<std::size_t>& axes) {
    return a.transpose(axes);
}
// The view with the last two axes exchanged (the standard's matrix_transpose; rank >= 2).
template <class T, class S> cl_array<T, S> matrix_transpose(const cl_array<T, S>& a) {
    if (a.dimension() < 2)
        throw shape_error("matrix_transpose: needs at least 2 dimensions, got shape " +
                          shape_to_string(a.shape()));
    return swapaxes(a, -1, -2);
}
// a.reshape(shape), a.squeeze() and a.squeeze(axis) as free functions (the standard's spelling).
template <class T, class S> cl_array<T, S> reshape(const cl_array<T, S>& a, shape_type shape) {
    return a.reshape(std::move(shape));
}
// The view without a's axes of extent 1.
template <class T, class S> cl_array<T, S> squeeze(const cl_array<T, S>& a) {
    return a.squeeze();
}
// The view without axis `axis`, which must have extent 1.
template <class T, class S> cl_array<T, S> squeeze(const cl_array<T, S>& a, std::size_t axis) {
    return a.squeeze(axis);
}
// A view of a with shape `shape` (NumPy's broadcast_to): axes of extent 1, and leading axes a
// lacks, repeat through stride 0. The view aliases a, so writing through it writes the repeated
// elements (NumPy's is read-only); shape_error where a does not broadcast to `shape`.
template <class T, class S>
cl_array<T, S> broadcast_to(const cl_array<T, S>& a, const shape_type& shape) {
    if (a.dimension() > shape.size() || broadcast_shapes(a.shape(), shape) != shape)
        throw shape_error("broadcast_to: shape " + shape_to_string(a.shape()) +
                          " does not broadcast to " + shape_to_string(shape));
    return detail::view_of(a, shape, broadcast_strides(a.shape(), a.strides(), shape), a.offset());
}
// Views of the arrays broadcast to their common shape (NumPy's broadcast_arrays).
template <class T, class S>
std::vector<cl_array<T, S>> broadcast_arrays(const std::vector<cl_array<T, S>>& arrays) {
    shape_type common;
    for (const auto& a : arrays)
        common = broadcast_shapes(common, a.shape());
    std::vector<cl_array<T, S>> out;
    out.reserve(arrays.size());
    for (const auto& a : arrays)
        out.push_back(broadcast_to(a, common));
    return out;
}
// The views a[..., i, ...] along axis, one per index (the standard's unstack).
template <class T, class S>
std::vector<cl_array<T, S>> unstack(const cl_array<T, S>& a, std::ptrdiff_t axis = 0) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "unstack");
    std::vector<cl_array<T, S>> out;
    out.reserve(a.shape()[ax]);
    for (std::size_t i = 0; i < a.shape()[ax]; ++i)
        out.push_back(detail::axis_slice(a, ax, i, i + 1).squeeze(ax));
    return out;
}

// ---- joining ----
// The arrays joined along an existing axis (negative counts from the end), NumPy's concatenate.
// All of one element type here; mixed element types promote (expr/manipulation.hpp).
template <class T, class S>
cl_array<T, S> concatenate(const std::vector<cl_array<T, S>>& arrays, std::ptrdiff_t axis = 0) {
    std::vector<const shape_type*> shapes;
    std::vector<detail::array_ref> refs;
    for (const cl_array<T, S>& a : arrays) {
        if (!a.bound())
            throw usage_error("concatenate: array " + std::to_string(refs.size()) +
                              " is unbound (default-constructed)");
        shapes.push_back(&a.shape());
        refs.push_back(detail::array_ref_of(a));
    }
    std::size_t ax = 0;
    shape_type shape =
        detail::concatenated_shape(shapes.data(), shapes.size(), axis, "concatenate", &ax);
    cl_array<T, S> out = detail::new_like(arrays.front(), std::move(shape));
    detail::copy_concatenated(detail::array_ref_of(out), refs.data(), refs.size(), ax);
    return out;
}
// NumPy's concatenate: a new array joining the arrays along an existing axis.
template <class T, class S>
cl_array<T, S> concatenate(std::initializer_list<cl_array<T, S>> arrays, std::ptrdiff_t axis = 0) {
    return concatenate(std::vector<cl_array<T, S>>(arrays), axis);
}

// The arrays (all of one shape) joined along a new axis at `axis` of the result.
template <class T, class S>
cl_array<T, S> stack(const std::vector<cl_array<T, S>>& arrays, std::ptrdiff_t axis = 0) {
    std::vector<const shape_type*> shapes;
    for (const cl_array<T, S>& a : arrays)
        shapes.push_back(&a.shape());
    detail::check_same_shapes(shapes.data(), shapes.size(), "stack");
    const std::size_t ax = detail::normalize_axis(axis, arrays.front().dimension() + 1, "stack");
    std::vector<cl_array<T, S>> expanded;
    for (const cl_array<T, S>& a : arrays)
        expanded.push_back(detail::with_axis(a, ax));
    return concatenate(expanded, static_cast<std::ptrdiff_t>(ax));
}
// NumPy's stack: a new array joining the arrays along a new axis.
template <class T, class S>
cl_array<T, S> stack(std::initializer_list<cl_array<T, S>> arrays, std::ptrdiff_t axis = 0) {
    return stack(std::vector<cl_array<T, S>>(arrays), axis);
}

// The standard's name of concatenate.
template <class T, class S>
cl_array<T, S> concat(const std::vector<cl_array<T, S>>& arrays, std::ptrdiff_t axis = 0) {
    return concatenate(arrays, axis);
}
// The standard's name of concatenate, of a braced list.
template <class T, class S>
cl_array<T, S> concat(std::initializer_list<cl_array<T, S>> arrays, std::ptrdiff_t axis = 0) {
    return concatenate(arrays, axis);
}
// Along the first axis for 1-d (and 0-d) arrays, else along the second (NumPy's hstack).
template <class T, class S> cl_array<T, S> hstack(const std::vector<cl_array<T, S>>& arrays) {
    std::vector<cl_array<T, S>> parts;
    for (const cl_array<T, S>& a : arrays)
        parts.push_back(detail::at_least(a, 1));
    return concatenate(parts, !parts.empty() && parts.front().dimension() == 1 ? 0 : 1);
}
// NumPy's hstack: concatenation along axis 1 (axis 0 for 1-d arrays).
template <class T, class S> cl_array<T, S> hstack(std::initializer_list<cl_array<T, S>> arrays) {
    return hstack(std::vector<cl_array<T, S>>(arrays));
}
// Along the first axis, 1-d arrays (n) taken as rows (1, n) (NumPy's vstack).
template <class T, class S> cl_array<T, S> vstack(const std::vector<cl_array<T, S>>& arrays) {
    std::vector<cl_array<T, S>> parts;
    for (const cl_array<T, S>& a : arrays)
        parts.push_back(detail::at_least(a, 2));
    return concatenate(parts, 0);
}
// NumPy's vstack: concatenation along axis 0 of arrays viewed as at least 2-d.
template <class T, class S> cl_array<T, S> vstack(std::initializer_list<cl_array<T, S>> arrays) {
    return vstack(std::vector<cl_array<T, S>>(arrays));
}

// ---- splitting (views) ----
namespace detail {
template <class T, class S>
std::vector<cl_array<T, S>>
split_at(const cl_array<T, S>& a, std::size_t axis,
         const std::vector<std::pair<std::size_t, std::size_t>>& bounds) {
    std::vector<cl_array<T, S>> parts;
    for (const auto& [start, stop] : bounds)
        parts.push_back(axis_slice(a, axis, start, stop));
    return parts;
}
} // namespace detail

// `sections` views of equal extent along axis (shape_error when the extent does not divide).
template <class T, class S>
std::vector<cl_array<T, S>> split(const cl_array<T, S>& a, std::size_t sections,
                                  std::ptrdiff_t axis = 0) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "split");
    return detail::split_at(a, ax, detail::split_bounds(a.shape(ax), sections, true, "split"));
}
// Views between the indices (Python slices a[:i0], a[i0:i1], ..., a[ik:]).
template <class T, class S>
std::vector<cl_array<T, S>> split(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& at,
                                  std::ptrdiff_t axis = 0) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "split");
    return detail::split_at(a, ax, detail::split_bounds(a.shape(ax), at));
}
// A braced list is indices, as NumPy's list: split(a, {2}) cuts at 2 (split(a, 2): two halves).
template <class T, class S>
std::vector<cl_array<T, S>> split(const cl_array<T, S>& a, std::initializer_list<std::ptrdiff_t> at,
                                  std::ptrdiff_t axis = 0) {
    return split(a, std::vector<std::ptrdiff_t>(at), axis);
}
// As split, but the sections need not divide the extent: the first extent % sections views
// are one longer.
template <class T, class S>
std::vector<cl_array<T, S>> array_split(const cl_array<T, S>& a, std::size_t sections,
                                        std::ptrdiff_t axis = 0) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "array_split");
    return detail::split_at(a, ax,
                            detail::split_bounds(a.shape(ax), sections, false, "array_split"));
}
// NumPy's array_split at the given indices: views along axis.
template <class T, class S>
std::vector<cl_array<T, S>> array_split(const cl_array<T, S>& a,
                                        const std::vector<std::ptrdiff_t>& at,
                                        std::ptrdiff_t axis = 0) {
    return split(a, at, axis);
}

// array_split at a braced list of indices.
template <class T, class S>
std::vector<cl_array<T, S>> array_split(const cl_array<T, S>& a,
                                        std::initializer_list<std::ptrdiff_t> at,
                                        std::ptrdiff_t axis = 0) {
    return split(a, std::vector<std::ptrdiff_t>(at), axis);
}

// ---- rearranging ----
// A view with the axis reversed (a negative stride), or every axis without one.
template <class T, class S> cl_array<T, S> flip(const cl_array<T, S>& a, std::ptrdiff_t axis) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "flip");
    strides_type st = a.strides();
    std::ptrdiff_t off = a.offset();
    detail::flip_view(a.shape(), st, off, ax);
    return detail::view_of(a, a.shape(), std::move(st), off);
}
// The array reversed along every axis (a view).
template <class T, class S> cl_array<T, S> flip(const cl_array<T, S>& a) {
    strides_type st = a.strides();
    std::ptrdiff_t off = a.offset();
    for (std::size_t ax = 0; ax < a.dimension(); ++ax)
        detail::flip_view(a.shape(), st, off, ax);
    return detail::view_of(a, a.shape(), std::move(st), off);
}
// The array reversed along axis 0 (a view).
template <class T, class S> cl_array<T, S> flipud(const cl_array<T, S>& a) {
    if (a.dimension() < 1) throw shape_error("flipud: the array must be at least 1-d");
    return flip(a, 0);
}
// The array reversed along axis 1 (a view).
template <class T, class S> cl_array<T, S> fliplr(const cl_array<T, S>& a) {
    if (a.dimension() < 2) throw shape_error("fliplr: the array must be at least 2-d");
    return flip(a, 1);
}

// Elements shifted by shifts[i] along axes[i] (cyclically), a new array.
template <class T, class S>
cl_array<T, S> roll(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& shifts,
                    const std::vector<std::ptrdiff_t>& axes) {
    const std::vector<std::size_t> shift = detail::roll_shifts(a.shape(), shifts, axes);
    cl_array<T, S> out = detail::new_like(a, a.shape());
    detail::copy_rolled(detail::array_ref_of(out), detail::array_ref_of(a), shift);
    return out;
}
// NumPy's roll along one axis: a new array with elements shifted cyclically.
template <class T, class S>
cl_array<T, S> roll(const cl_array<T, S>& a, std::ptrdiff_t shift, std::ptrdiff_t axis) {
    return roll(a, std::vector<std::ptrdiff_t>{shift}, std::vector<std::ptrdiff_t>{axis});
}
// Without an axis: over the flattened array (C order), in a's shape.
template <class T, class S> cl_array<T, S> roll(const cl_array<T, S>& a, std::ptrdiff_t shift) {
    if (a.dimension() == 1) return roll(a, shift, 0);
    return roll(a.ravel(), shift, 0).reshape(a.shape());
}

// Each element repeated count times along axis (NumPy's repeat), a new array.
template <class T, class S>
cl_array<T, S> repeat(const cl_array<T, S>& a, const std::vector<std::size_t>& counts,
                      std::ptrdiff_t axis) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "repeat");
    cl_array<T, S> out = detail::new_like(a, detail::repeated_shape(a.shape(), counts, ax));
    detail::copy_repeated(detail::array_ref_of(out), detail::array_ref_of(a), counts, ax);
    return out;
}
// NumPy's repeat along one axis: each element count times.
template <class T, class S>
cl_array<T, S> repeat(const cl_array<T, S>& a, std::size_t count, std::ptrdiff_t axis) {
    return repeat(a, std::vector<std::size_t>{count}, axis);
}
// Without an axis: over the flattened array (C order), a 1-d result.
template <class T, class S> cl_array<T, S> repeat(const cl_array<T, S>& a, std::size_t count) {
    return repeat(a.dimension() == 1 ? a : a.ravel(), count, 0);
}
// Without an axis, a count per element of the flattened array (C order; one count for all, or
// one per element: shape_error otherwise), a 1-d result.
template <class T, class S>
cl_array<T, S> repeat(const cl_array<T, S>& a, const std::vector<std::size_t>& counts) {
    return repeat(a.dimension() == 1 ? a : a.ravel(), counts, 0);
}

// a repeated reps[i] times along each axis (NumPy's tile): the shorter of a's shape and reps is
// padded with leading ones. A new array.
template <class T, class S>
cl_array<T, S> tile(const cl_array<T, S>& a, const std::vector<std::size_t>& reps) {
    cl_array<T, S> out = detail::new_like(a, detail::tiled_shape(a.shape(), reps));
    detail::copy_tiled(detail::array_ref_of(out), detail::array_ref_of(a), reps);
    return out;
}
// NumPy's tile with one count: the array repeated reps times along its last axis.
template <class T, class S> cl_array<T, S> tile(const cl_array<T, S>& a, std::size_t reps) {
    return tile(a, std::vector<std::size_t>{reps});
}

// NumPy's pad in constant mode: widths[i] = (before, after) elements of `value` around axis i
// (one pair for every axis). A new array.
template <class T, class S>
cl_array<T, S> pad(const cl_array<T, S>& a, const std::vector<pad_width>& widths,
                   const T& value = T(0)) {
    cl_array<T, S> out = detail::new_like(a, detail::padded_shape(a.shape(), widths));
    const stored_t<T> v = static_cast<stored_t<T>>(value);
    detail::copy_padded(detail::array_ref_of(out), detail::array_ref_of(a), widths, &v);
    return out;
}
// NumPy's pad in constant mode with the same width before and after every axis.
template <class T, class S>
cl_array<T, S> pad(const cl_array<T, S>& a, std::size_t width, const T& value = T(0)) {
    return pad(a, std::vector<pad_width>{{width, width}}, value);
}

// ---- diagonals ----
// The view of diagonal k (above the main one for k > 0) of axes axis1 and axis2, as the last
// axis. Unlike NumPy's (read-only) result, the view is writable: it shares a's memory.
template <class T, class S>
cl_array<T, S> diagonal(const cl_array<T, S>& a, std::ptrdiff_t k = 0, std::ptrdiff_t axis1 = 0,
                        std::ptrdiff_t axis2 = 1) {
    const std::size_t a1 = detail::normalize_axis(axis1, a.dimension(), "diagonal");
    const std::size_t a2 = detail::normalize_axis(axis2, a.dimension(), "diagonal");
    shape_type s = a.shape();
    strides_type st = a.strides();
    std::ptrdiff_t off = a.offset();
    detail::diagonal_view(s, st, off, k, a1, a2);
    return detail::view_of(a, std::move(s), std::move(st), off);
}
// NumPy's diag: of a 1-d array, a new square matrix with it on diagonal k (zeros elsewhere); of
// a 2-d array, the view of its diagonal k.
template <class T, class S> cl_array<T, S> diag(const cl_array<T, S>& a, std::ptrdiff_t k = 0) {
    if (a.dimension() == 2) return diagonal(a, k);
    if (a.dimension() != 1)
        throw shape_error("diag: the input must be 1-d or 2-d, not of shape " +
                          shape_to_string(a.shape()));
    const std::size_t n = a.size() + static_cast<std::size_t>(k < 0 ? -k : k);
    cl_array<T, S> out = detail::new_like(a, shape_type{n, n});
    out.fill(T(0));
    detail::strided_copy(diagonal(out, k), a);
    return out;
}

// ---- creation ----
// (Each creation routine has an overload that takes a memory pool last, as the factories in
// array/factories.hpp: the result's memory comes from that pool.)
// An n x m matrix with ones on diagonal k and zeros elsewhere.
template <class T, class S = svm_coarse>
cl_array<T, S> eye(const queue& q, std::size_t n, std::size_t m, std::ptrdiff_t k = 0) {
    cl_array<T, S> out = zeros<T, S>(q, shape_type{n, m});
    diagonal(out, k).fill(T(1));
    return out;
}
// eye from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> eye(const queue& q, std::size_t n, std::size_t m,
                                                   std::ptrdiff_t k, const Pool& pool) {
    cl_array<T, detail::pooled_storage_t<S, Pool>> out = zeros<T, S>(q, shape_type{n, m}, pool);
    diagonal(out, k).fill(T(1));
    return out;
}
// An n x n identity matrix of T (NumPy's eye(n)).
template <class T, class S = svm_coarse> cl_array<T, S> eye(const queue& q, std::size_t n) {
    return eye<T, S>(q, n, n, 0);
}
// eye(n) from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> eye(const queue& q, std::size_t n,
                                                   const Pool& pool) {
    return eye<T, S>(q, n, n, 0, pool);
}
// An n x n identity matrix of T (NumPy's identity).
template <class T, class S = svm_coarse> cl_array<T, S> identity(const queue& q, std::size_t n) {
    return eye<T, S>(q, n, n, 0);
}
// identity from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> identity(const queue& q, std::size_t n,
                                                        const Pool& pool) {
    return eye<T, S>(q, n, n, 0, pool);
}

// Coordinate arrays (NumPy's meshgrid, copy=True): for 1-d inputs x0 (n0), x1 (n1), ... arrays of
// shape (n1, n0, n2, ...) (xy) or (n0, n1, n2, ...) (ij), the i-th holding xi along its axis.
// Inputs of other ranks are flattened, as NumPy does. sparse: the i-th array has extent 1 on
// every axis but its own (they broadcast to the full grid; NumPy's sparse=True).
template <class T, class S>
std::vector<cl_array<T, S>> meshgrid(const std::vector<cl_array<T, S>>& xs,
                                     indexing ix = indexing::xy, bool sparse = false) {
    std::vector<cl_array<T, S>> flat;
    shape_type shape;
    for (const cl_array<T, S>& x : xs) {
        flat.push_back(x.dimension() == 1 ? x : x.ravel());
        shape.push_back(flat.back().size());
    }
    const bool swap = ix == indexing::xy && xs.size() >= 2;
    if (swap) std::swap(shape[0], shape[1]);
    std::vector<cl_array<T, S>> out;
    for (std::size_t i = 0; i < flat.size(); ++i) {
        const std::size_t ax = swap && i < 2 ? 1 - i : i;
        shape_type s(shape.size(), 1);
        strides_type st(shape.size(), 0);
        s[ax] = shape[ax];
        st[ax] = flat[i].strides()[0];
        out.push_back(detail::new_like(flat[i], sparse ? s : shape));
        detail::strided_copy(out.back(), detail::view_of(flat[i], s, st, flat[i].offset()));
    }
    return out;
}
// NumPy's meshgrid from a braced list of 1-d arrays.
template <class T, class S>
std::vector<cl_array<T, S>> meshgrid(std::initializer_list<cl_array<T, S>> xs,
                                     indexing ix = indexing::xy, bool sparse = false) {
    return meshgrid(std::vector<cl_array<T, S>>(xs), ix, sparse);
}

namespace detail {
inline shape_type indices_shape(const shape_type& dims) {
    shape_type shape = dims;
    shape.insert(shape.begin(), dims.size());
    return shape;
}
// indices into out, a new array of indices_shape(dims).
template <class T, class S>
cl_array<T, S> make_indices(const queue& q, const shape_type& dims, cl_array<T, S> out) {
    static_assert(!is_boolean_v<T>, "indices: T must be numeric");
    if (out.size() == 0) return out;
    std::size_t longest = 0;
    for (std::size_t d : dims)
        longest = d > longest ? d : longest;
    // A temporary like out (from out's pool).
    cl_array<T, S> r(q, shape_type{longest}, layout::c, out.data().get());
    if (longest != 0) {
        const kernel_value_t<T> start = 0, step = 1;
        fill_arange(array_ref_of(r), &start, &step);
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
        shape_type s(dims.size(), 1);
        strides_type st(dims.size(), 0);
        s[i] = dims[i];
        st[i] = 1;
        detail::strided_copy(out(i), detail::view_of(r, s, st, 0));
    }
    return out;
}
} // namespace detail

// An array of shape (len(dims), dims...) whose slice i holds the index along axis i (NumPy's
// indices; T is int64 by default, as NumPy's int).
template <class T = std::int64_t, class S = svm_coarse>
cl_array<T, S> indices(const queue& q, const shape_type& dims) {
    return detail::make_indices<T>(q, dims, cl_array<T, S>(q, detail::indices_shape(dims)));
}
// indices from a memory pool.
template <class T = std::int64_t, class S = detail::storage_of_pool, class Pool,
          detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> indices(const queue& q, const shape_type& dims,
                                                       const Pool& pool) {
    return detail::make_indices<T>(
        q, dims,
        cl_array<T, detail::pooled_storage_t<S, Pool>>(q, detail::indices_shape(dims), pool));
}

} // namespace clarray
