#pragma once
// View arguments of cl_array::operator(): range, all, newaxis, ellipsis and integers.
#include <cstddef>
#include <type_traits>

namespace clarray {

struct none_t {};
inline constexpr none_t none{};

// A range bound: an index (negative counts from the end, as in Python) or `none` (the default).
struct range_bound {
    std::ptrdiff_t value = 0;
    bool given = false;
    range_bound(none_t = none) {} // NOLINT: implicit on purpose
    template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
    range_bound(I v) : value(static_cast<std::ptrdiff_t>(v)), given(true) {} // NOLINT
};

struct range_t {
    range_bound start, stop;
    std::ptrdiff_t step;
};
struct all_t {};
struct newaxis_t {};
struct ellipsis_t {};

// range(start, stop[, step]) selects start, start+step, ... before stop, like Python's
// start:stop:step. Bounds outside the axis are an index_error (NumPy clamps; we do not, so that a
// wrong view never silently shrinks).
inline range_t range(range_bound start, range_bound stop, std::ptrdiff_t step = 1) {
    return {start, stop, step};
}
// The whole axis, as `:` in NumPy's indexing.
inline all_t all() { return {}; }
// A new axis of extent 1, as NumPy's newaxis.
inline newaxis_t newaxis() { return {}; }
// As many whole axes as needed, as `...` in NumPy's indexing.
inline ellipsis_t ellipsis() { return {}; }

// One normalised view argument.
struct slice_arg {
    enum kind_t { index, range, all, newaxis, ellipsis } kind;
    std::ptrdiff_t i = 0;
    range_t r{};
    template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
    slice_arg(I v) : kind(index), i(static_cast<std::ptrdiff_t>(v)) {} // NOLINT
    slice_arg(range_t v) : kind(range), r(v) {}                         // NOLINT
    slice_arg(all_t) : kind(all) {}                                     // NOLINT
    slice_arg(newaxis_t) : kind(newaxis) {}                             // NOLINT
    slice_arg(ellipsis_t) : kind(ellipsis) {}                           // NOLINT
};

} // namespace clarray

#include "clarray/array/layout.hpp"

namespace clarray::detail {
// Applies view arguments to (shape, strides, offset); throws index_error on out-of-range
// indices/bounds, too many indices, a zero step or more than one ellipsis.
void apply_slices(shape_type& shape, strides_type& strides, std::ptrdiff_t& offset,
                  const slice_arg* args, std::size_t count);
} // namespace clarray::detail
