#pragma once
// NumPy's pad modes beyond constant: edge, wrap, reflect, symmetric (each padded axis one gather
// through an index list), maximum, minimum, mean, median (the statistic of each line along the
// axis, NumPy's default stat_length of the whole axis) and linear_ramp (a ramp from end_value to
// the edge). Axes are padded one after the other, as NumPy does, so corners take the values of
// the axes padded before them.
//
//   auto r = clarray::pad(a, {{2, 3}}, clarray::pad_mode::reflect);
//
// Nothing blocks; each axis costs one kernel (two for the statistics and the ramp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/indexing/indexing.hpp"
#include "clarray/reduce/reduce.hpp"
#include "clarray/stats/statistics.hpp"

namespace clarray {

/// How pad fills the new elements (NumPy's mode names).
enum class pad_mode : unsigned char {
    constant,    ///< `value`
    edge,        ///< the edge value repeated
    wrap,        ///< the other end of the axis (periodic)
    reflect,     ///< mirrored about the edge, the edge not repeated
    symmetric,   ///< mirrored, the edge repeated
    linear_ramp, ///< from `value` (NumPy's end_values) at the outer end to the edge
    maximum,     ///< the maximum of each line along the axis
    minimum,     ///< the minimum of each line
    mean,        ///< the mean (integers: rounded to even)
    median,      ///< the median (integers: rounded to even)
};

namespace detail {
// The source position along an axis of n elements of each of the before + n + after positions
// of the padded axis, for the gathering modes (edge, wrap, reflect, symmetric).
std::vector<std::int64_t> pad_source_positions(pad_mode mode, std::size_t n, std::size_t before,
                                               std::size_t after);
const char* pad_mode_name(pad_mode mode);

// One slice of `shape` but `extent` along axis, all holding the per-line statistic s (extent 1
// along axis), in T (integers rounded to nearest, as NumPy's pad).
template <class T, class S, class X>
cl_array<T, S> spread_along(const X& s, shape_type shape, std::size_t axis, std::size_t extent) {
    shape[axis] = extent;
    cl_array<T, S> out(s.get_queue(), shape);
    if constexpr (is_integer_v<T>)
        out = broadcast_to(cl_array<T, S>(astype<T>(rint(s))), shape);
    else
        out = broadcast_to(cl_array<T, S>(astype<T>(s)), shape);
    return out;
}
} // namespace detail

/// NumPy's pad with a mode: widths one (before, after) pair for every axis or one per axis;
/// `value` is the constant (constant mode) or the ramp's end value (linear_ramp). The gathering
/// and statistic modes need a non-empty axis wherever they pad (else shape_error, as NumPy).
template <class T, class S>
cl_array<T, S> pad(const cl_array<T, S>& a, const std::vector<pad_width>& widths, pad_mode mode,
                   const T& value = T(0)) {
    if (mode == pad_mode::constant) return pad(a, widths, value);
    (void)detail::padded_shape(a.shape(), widths); // checks the pairs
    const queue& q = a.get_queue();
    // Each axis makes a new array (assigning to an array writes its values: emplace rebinds).
    std::optional<cl_array<T, S>> padded(a);
    for (std::size_t d = 0; d < a.dimension(); ++d) {
        const cl_array<T, S> cur = *padded;
        const pad_width w = widths[widths.size() == 1 ? 0 : d];
        if (w.first == 0 && w.second == 0) continue;
        const std::size_t n = cur.shape()[d];
        if (n == 0)
            throw shape_error(std::string("pad: mode ") + detail::pad_mode_name(mode) +
                              " cannot extend the empty axis " + std::to_string(d));
        const auto ax = static_cast<std::ptrdiff_t>(d);
        switch (mode) {
        case pad_mode::edge:
        case pad_mode::wrap:
        case pad_mode::reflect:
        case pad_mode::symmetric: {
            const std::vector<std::int64_t> pos =
                detail::pad_source_positions(mode, n, w.first, w.second);
            cl_array<std::int64_t, S> idx(q, shape_type{pos.size()});
            idx.set(pos);
            padded.emplace(take(cur, idx, ax));
            break;
        }
        case pad_mode::linear_ramp: {
            if constexpr (is_boolean_v<T>) {
                throw dtype_error("pad: linear_ramp needs numbers, not bool");
            } else {
                // (float16 ramps in float32, rounded once at the end)
                using F = std::conditional_t<std::is_same_v<T, half>, float,
                                             std::conditional_t<is_inexact_v<T>, T, double>>;
                std::vector<cl_array<T, S>> parts;
                for (int side = 0; side < 2; ++side) {
                    const std::size_t count = side == 0 ? w.first : w.second;
                    if (count == 0) {
                        if (side == 1) parts.push_back(cur);
                        continue;
                    }
                    // NumPy's linspace(end, edge, count, endpoint=False): step k of
                    // (edge - end) / count from the end value, k counted from the outer end (the
                    // after side reversed).
                    std::vector<F> steps(count);
                    for (std::size_t k = 0; k < count; ++k)
                        steps[k] = F(side == 0 ? k : count - 1 - k);
                    shape_type fshape(cur.dimension(), 1);
                    fshape[d] = count;
                    cl_array<F, S> fr(q, shape_type{count});
                    fr.set(steps);
                    const cl_array<F, S> fb = fr.reshape(fshape);
                    const std::size_t at = side == 0 ? 0 : n - 1;
                    const cl_array<T, S> edge = detail::axis_slice(cur, d, at, at + 1);
                    shape_type shape = cur.shape();
                    shape[d] = count;
                    cl_array<T, S> ramp(q, shape);
                    const auto end = static_cast<F>(value);
                    const double div = static_cast<double>(count);
                    if constexpr (is_integer_v<T>) // linspace of integers rounds towards -inf
                        ramp = astype<T>(floor(fb * ((astype<F>(edge) - end) / div) + end));
                    else
                        ramp = astype<T>(fb * ((astype<F>(edge) - end) / div) + end);
                    if (side == 1) parts.push_back(cur);
                    parts.push_back(ramp);
                }
                padded.emplace(concatenate(parts, ax));
            }
            break;
        }
        default: { // the statistic modes
            std::vector<cl_array<T, S>> parts;
            auto add = [&](const auto& stat) {
                if (w.first)
                    parts.push_back(detail::spread_along<T, S>(stat, cur.shape(), d, w.first));
                parts.push_back(cur);
                if (w.second)
                    parts.push_back(detail::spread_along<T, S>(stat, cur.shape(), d, w.second));
            };
            if (mode == pad_mode::mean) {
                add(clarray::mean(cur, ax, true));
            } else if (mode == pad_mode::maximum) {
                add(max(cur, ax, true)); // (complex: NumPy's lexicographic order)
            } else if (mode == pad_mode::minimum) {
                add(min(cur, ax, true));
            } else { // (complex: the median in sort's order, as NumPy's)
                add(median(cur, static_cast<long>(d), true));
            }
            padded.emplace(concatenate(parts, ax));
            break;
        }
        }
    }
    return *padded;
}

} // namespace clarray
