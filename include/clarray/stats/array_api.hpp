#pragma once
// The array API standard's functions, and NumPy's arguments, that compose the lower layers'
// kernels: take_along_axis and put_along_axis (flat indices through take / put), sort and argsort
// in descending order (stable) and flattened (axis=None), searchsorted with a sorter and of mixed
// dtypes, compress along an axis, and count_nonzero over axes on the device.
//
//   auto best = clarray::take_along_axis(a, clarray::argsort(a, 1), 1);   // each row sorted
//   auto d = clarray::sort(a, -1, true);                                    // descending
//   auto k = clarray::searchsorted(x, v, clarray::side::left, order);       // x[order] sorted
//   auto c = clarray::count_nonzero(a, {0}, false);                         // per column
//
// Nothing here blocks: the index arithmetic is element-wise kernels, the rest is take, put, sort,
// searchsorted and sum, each enqueued.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/indexing/indexing.hpp"
#include "clarray/reduce/reduce.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/sort/sort.hpp"

namespace clarray {

namespace detail {
// The flat (C order) positions in an array of shape `target` of the elements that
// take_along_axis / put_along_axis address: idx (broadcast to `out`) along axis `ax`, the
// element's own coordinate along the others. An index outside [-n, n) becomes the size of
// target, which take and put then report as out of range.
template <class I, class IS>
cl_array<std::int64_t, IS> along_axis_positions(const cl_array<I, IS>& idx, const shape_type& out,
                                                const shape_type& target, std::size_t ax) {
    static_assert(is_integer_v<I>, "take_along_axis / put_along_axis: indices must be integers");
    const queue& q = idx.get_queue();
    const cl_array<I, IS> ib = broadcast_to(idx, out);
    const auto n = static_cast<std::int64_t>(target[ax]);
    const auto total = static_cast<std::int64_t>(checked_size(target));
    const strides_type target_strides = contiguous_strides(target, layout::c),
                       out_strides = contiguous_strides(out, layout::c);
    const auto wide = astype<std::int64_t>(ib);
    cl_array<std::int64_t, IS> pos(q, out);
    pos = where(wide < 0, wide + n, wide);
    pos = where((pos < 0) | (pos >= n), total, pos * target_strides[ax]);
    if (out.size() > 1 && checked_size(out) > 0) {
        const cl_array<std::int64_t, IS> element =
            arange<std::int64_t, IS>(q, 0, static_cast<std::int64_t>(checked_size(out)))
                .reshape(out);
        for (std::size_t d = 0; d < out.size(); ++d)
            if (d != ax && out[d] > 1)
                pos = where(pos == total, total,
                            pos + mod(floor_divide(element, out_strides[d]),
                                      static_cast<std::int64_t>(out[d])) *
                                      target_strides[d]);
    }
    return pos;
}
// The result shape of take_along_axis: idx's, its other axes broadcast with a's.
inline shape_type along_axis_shape(const char* what, const shape_type& a, const shape_type& idx,
                                   std::size_t ax) {
    if (idx.size() != a.size())
        throw shape_error(std::string(what) + ": indices of shape " + shape_to_string(idx) +
                          " need the rank of the array, shape " + shape_to_string(a));
    shape_type out = idx;
    for (std::size_t d = 0; d < a.size(); ++d) {
        if (d == ax) continue;
        if (a[d] != idx[d] && a[d] != 1 && idx[d] != 1)
            throw shape_error(std::string(what) + ": indices of shape " + shape_to_string(idx) +
                              " do not broadcast with shape " + shape_to_string(a) +
                              " outside axis " + std::to_string(ax));
        out[d] = a[d] == 1 ? idx[d] : a[d];
    }
    return out;
}
} // namespace detail

/// a's elements at idx along `axis` (the other axes broadcast): NumPy's take_along_axis, e.g.
/// the rows of a in the order of argsort(a, 1). Out-of-range indices throw index_error at the
/// next host wait (as take's).
template <class T, class S, class I, class IS>
cl_array<T, S> take_along_axis(const cl_array<T, S>& a, const cl_array<I, IS>& idx,
                               std::ptrdiff_t axis = -1) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "take_along_axis");
    const shape_type out = detail::along_axis_shape("take_along_axis", a.shape(), idx.shape(), ax);
    shape_type source = out;
    source[ax] = a.shape()[ax];
    const cl_array<T, S> from = broadcast_to(a, source);
    const auto pos = detail::along_axis_positions(idx, out, source, ax);
    cl_array<T, S> result = take(from, pos);
    return result.reshape(out);
}

/// a[..., idx, ...] = values along `axis` (idx and values broadcast to idx's shape against a's
/// other axes): NumPy's put_along_axis. Duplicate positions: one write wins.
template <class T, class S, class I, class IS, class V, class VS>
void put_along_axis(const cl_array<T, S>& a, const cl_array<I, IS>& idx,
                    const cl_array<V, VS>& values, std::ptrdiff_t axis = -1) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "put_along_axis");
    const shape_type out = detail::along_axis_shape("put_along_axis", a.shape(), idx.shape(), ax);
    for (std::size_t d = 0; d < out.size(); ++d)
        if (d != ax && out[d] != a.shape()[d])
            throw shape_error("put_along_axis: indices of shape " + shape_to_string(idx.shape()) +
                              " address more than the array's shape " + shape_to_string(a.shape()));
    const auto pos = detail::along_axis_positions(idx, out, a.shape(), ax);
    const cl_array<V, VS> spread = broadcast_to(values, out).copy();
    put(a, pos, spread);
}

/// sort / argsort in descending order, stable (equal elements keep their order); NaNs come
/// first, the reverse of the ascending order.
///@{
template <class T, class S>
cl_array<T, S> sort(const cl_array<T, S>& a, long axis, bool descending) {
    if (!descending) return sort(a, axis);
    const std::ptrdiff_t ax =
        static_cast<std::ptrdiff_t>(detail::normalize_axis(axis, a.dimension(), "sort"));
    return flip(sort(flip(a, ax), static_cast<long>(ax)), ax).copy();
}
template <class T, class S>
cl_array<std::int64_t, S> argsort(const cl_array<T, S>& a, long axis, bool descending) {
    if (!descending) return argsort(a, axis);
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "argsort");
    const auto last = static_cast<std::int64_t>(a.shape()[ax]) - 1;
    const auto sax = static_cast<std::ptrdiff_t>(ax);
    // Ties of the reversed input sort in reversed order; reversing the result restores theirs.
    const cl_array<std::int64_t, S> reversed = argsort(flip(a, sax), static_cast<long>(ax));
    return cl_array<std::int64_t, S>(last - flip(reversed, sax));
}
///@}

/// searchsorted into x1 ordered by `sorter` (x1[sorter] sorted; NumPy's sorter argument).
template <class T, class S, class I, class IS>
cl_array<std::int64_t, S> searchsorted(const cl_array<T, S>& x1, const cl_array<T, S>& x2, side s,
                                       const cl_array<I, IS>& sorter) {
    const cl_array<T, S> ordered = take(x1, sorter);
    return searchsorted(ordered, x2, s);
}

/// searchsorted of values of another dtype: both promoted first, as NumPy's.
template <class T1, class T2, class S, class = std::enable_if_t<!std::is_same_v<T1, T2>>>
cl_array<std::int64_t, S> searchsorted(const cl_array<T1, S>& sorted, const cl_array<T2, S>& values,
                                       side s = side::left) {
    using R = promote_t<T1, T2>;
    return searchsorted(cl_array<R, S>(astype<R>(sorted)), cl_array<R, S>(astype<R>(values)), s);
}

/// sort / argsort of the flattened array (NumPy's axis=None).
///@{
template <class T, class S> cl_array<T, S> sort(const cl_array<T, S>& a, std::nullopt_t) {
    return sort(a.ravel(), 0);
}
template <class T, class S>
cl_array<std::int64_t, S> argsort(const cl_array<T, S>& a, std::nullopt_t) {
    return argsort(a.ravel(), 0);
}
///@}

/// The slices of a along `axis` where the 1-d cond is true (NumPy's compress with an axis; a
/// cond shorter than the axis counts as false past its end). Blocks: the count is read back.
template <class C, class CS, class T, class S>
cl_array<T, S> compress(const cl_array<C, CS>& cond, const cl_array<T, S>& a, std::ptrdiff_t axis) {
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "compress");
    if (cond.dimension() != 1)
        throw shape_error("compress: the condition must be 1-d, got shape " +
                          shape_to_string(cond.shape()));
    if (cond.size() > a.shape()[ax])
        throw shape_error("compress: a condition of " + std::to_string(cond.size()) +
                          " values for an axis of " + std::to_string(a.shape()[ax]));
    const auto picked = nonzero(cond)[0];
    return cl_array<T, S>(take(a, picked, axis));
}

/// The number of non-zero elements over `axes` (all: the flattened array), an int64 array on the
/// device (the overload without axes reads the count back).
template <class E, class = std::enable_if_t<detail::is_array_argument_v<E>>>
auto count_nonzero(const E& a, const reduce_axes& axes, bool keep_dims = false) {
    return sum(astype<bool>(a), axes, keep_dims);
}

} // namespace clarray
