#pragma once
// View arguments of cl_array::operator(): range, all, newaxis, ellipsis and integers.
#include <cstddef>
#include <type_traits>

namespace clarray {

// The type of `none`.
struct none_t {};
// A defaulted range bound, as Python's None in start:stop.
inline constexpr none_t none{};

// A range bound: an index (negative counts from the end, as in Python) or `none` (the default).
struct range_bound {
    // The index (meaningful when given).
    std::ptrdiff_t value = 0;
    // Whether an index was given (false: `none`).
    bool given = false;
    // No bound: the default end of the axis.
    range_bound(none_t = none) {} // NOLINT: implicit on purpose
    // The index v (negative counts from the end).
    template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
    range_bound(I v) : value(static_cast<std::ptrdiff_t>(v)), given(true) {} // NOLINT
};

// A slice start:stop:step (made by range()).
struct range_t {
    // The first index and the bound before which the slice stops.
    //@{
    range_bound start, stop;
    //@}
    // The distance between selected indices (not 0; negative goes backwards).
    std::ptrdiff_t step;
};
// The type of all().
struct all_t {};
// The type of newaxis().
struct newaxis_t {};
// The type of ellipsis().
struct ellipsis_t {};

// range(start, stop[, step]) selects start, start+step, ... before stop, like Python's
// start:stop:step. Bounds outside the axis are an index_error (NumPy clamps; we do not, so that a
// wrong view never silently shrinks).
inline range_t range(range_bound start, range_bound stop, std::ptrdiff_t step = 1) {
    return {start, stop, step};
}
// The whole axis, as `:` in NumPy's indexing.
inline all_t all() {
    return {};
}
// A new axis of extent 1, as NumPy's newaxis.
inline newaxis_t newaxis() {
    return {};
}
// As many whole axes as needed, as `...` in NumPy's indexing.
inline ellipsis_t ellipsis() {
    return {};
}

// One normalised view argument.
struct slice_arg {
    // Which kind of argument this is.
    //@{
    enum kind_t { index, range, all, newaxis, ellipsis } kind;
    //@}
    // The index of an index argument.
    std::ptrdiff_t i = 0;
    // The slice of a range argument.
    range_t r{};
    // The argument, from an integer, range(), all(), newaxis() or ellipsis() (implicit, so
    // that a(...) takes them as they are).
    //@{
    template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
    slice_arg(I v) : kind(index), i(static_cast<std::ptrdiff_t>(v)) {} // NOLINT
    slice_arg(range_t v) : kind(range), r(v) {}                        // NOLINT
    slice_arg(all_t) : kind(all) {}                                    // NOLINT
    slice_arg(newaxis_t) : kind(newaxis) {}                            // NOLINT
    slice_arg(ellipsis_t) : kind(ellipsis) {}                          // NOLINT
    //@}
};

} // namespace clarray

#include "clarray/shape/layout.hpp"

namespace clarray::detail {
// Applies view arguments to (shape, strides, offset); throws index_error on out-of-range
// indices/bounds, too many indices, a zero step or more than one ellipsis.
void apply_slices(shape_type& shape, strides_type& strides, std::ptrdiff_t& offset,
                  const slice_arg* args, std::size_t count);
} // namespace clarray::detail
