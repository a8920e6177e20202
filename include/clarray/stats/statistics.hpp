#pragma once
// NumPy's order statistics and moments on the device (docs/statistics.md).
//
//   auto p = clarray::partition(a, 10);          // element 10 in its sorted place
//   auto [v, i] = clarray::topk(a, 5);           // the 5 largest, largest first, and their indices
//   auto m = clarray::median(a);                 // flattened; NaN where a holds a NaN
//   auto q = clarray::quantile(a, {0.1, 0.9}, 0); // a leading axis of 2, along axis 0
//   auto w = clarray::average(a, 1, weights);    // weighted mean along axis 1
//   auto c = clarray::cov(x);                    // rows are variables (float64)
//
// Selections over a whole 1-d slice (a flattened array, or an axis that holds every element)
// take the radix select of the sort layer (sort/select.hpp): no full sort. Along an axis of a
// larger array each slice is sorted (the sort layer's axis sort), then read at the ranks. Only
// average with weights blocks (it reads the weights' sums back to refuse a zero sum).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/indexing/indexing.hpp"
#include "clarray/linalg/linalg.hpp"
#include "clarray/reduce/reduce.hpp"
#include "clarray/sort/select.hpp"
#include "clarray/sort/sort.hpp"

namespace clarray {

// How quantile picks a value between the two sorted neighbours i <= v <= j of the virtual index
// v = (n - 1) q (NumPy's methods of those names).
enum class quantile_method : unsigned char {
    linear,   // a[i] + (a[j] - a[i]) (v - i)  (the default)
    lower,    // a[floor(v)]
    higher,   // a[ceil(v)]
    nearest,  // a[round(v)], halves to even
    midpoint, // (a[i] + a[j]) / 2 (a[v] where v is whole)
};

// The float type of a statistic of elements T: float for float32, half for float16, double
// otherwise (integers and bool, as NumPy's float64).
template <class T>
using stat_float_t = std::conditional_t<std::is_same_v<T, float>, float,
                                        std::conditional_t<std::is_same_v<T, half>, half, double>>;

// The result of topk: the k values and their int64 indices along the axis.
template <class T, class S> struct topk_result {
    // The k values, largest first (smallest first for largest = false).
    cl_array<T, S> values;
    // Where each value is along the axis.
    cl_array<std::int64_t, S> indices;
};

namespace detail {

// NumPy's name of a quantile method; usage_error naming any other.
inline quantile_method quantile_method_named(const std::string& m) {
    if (m == "linear") return quantile_method::linear;
    if (m == "lower") return quantile_method::lower;
    if (m == "higher") return quantile_method::higher;
    if (m == "nearest") return quantile_method::nearest;
    if (m == "midpoint") return quantile_method::midpoint;
    throw usage_error("quantile: unknown method \"" + m +
                      "\" (linear, lower, higher, nearest or midpoint)");
}

// The axis `axis` of an array of `rank` dimensions (negative counts from the end); index_error.
inline std::size_t stat_axis(long axis, std::size_t rank, const char* what) {
    const long r = static_cast<long>(rank);
    if (axis < -r || axis >= r)
        throw index_error(std::string(what) + ": axis " + std::to_string(axis) +
                          " out of range for an array of " + std::to_string(rank) + " dimensions");
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

// The values of ranks of the slices of a along axis (none: flattened): at(j) is a view of the
// values of rank ranks[j] of every slice (the reduced shape), last() that of the largest (NaN
// where a slice holds one: NumPy's order puts NaN last).
template <class T, class S> struct ranked {
    cl_array<T, S> data; // selected: the values (1-d, one per rank); else sorted, the axis first
    std::vector<std::uint64_t> ranks;
    bool selected = false;
    cl_array<T, S> at(std::size_t j) const {
        return selected ? data(static_cast<long>(j)) : data(static_cast<long>(ranks[j]));
    }
    cl_array<T, S> last() const { return data(-1); }
};

// The extent of the slices and the shape of the reduction of a along axis (none: every axis).
struct stat_shape {
    std::size_t n = 0;
    shape_type rest, kept; // without the axis; with it as 1 (keep_dims)
    std::optional<std::size_t> axis;
};
template <class T, class S>
stat_shape stat_shape_of(const cl_array<T, S>& a, std::optional<long> axis, const char* what) {
    stat_shape r;
    if (!axis) {
        r.n = a.size();
        r.kept = shape_type(a.dimension(), 1);
        return r;
    }
    r.axis = stat_axis(*axis, a.dimension(), what);
    r.n = a.shape()[*r.axis];
    for (std::size_t k = 0; k < a.dimension(); ++k) {
        if (k != *r.axis) r.rest.push_back(a.shape()[k]);
        r.kept.push_back(k == *r.axis ? 1 : a.shape()[k]);
    }
    return r;
}

// The most full selections (select_passes) worth making instead of one sort: a selection reads
// the input about twice, a radix sort of 32-bit keys about 12 times.
inline constexpr std::size_t select_most = 5;

// The ranks' values of a's slices (n > 0): the radix select where one slice holds every element
// (poison: NaN results for a slice with a NaN, float types) and the ranks need at most
// select_most selections, else a sort along the axis (or of the flattened array).
template <class T, class S>
ranked<T, S> rank_values(const cl_array<T, S>& a, const stat_shape& sh,
                         const std::vector<std::uint64_t>& ranks, bool poison) {
    ranked<T, S> r;
    r.ranks = ranks;
    if (!is_complex_v<T> && sh.n == a.size() && sh.n < select_limit &&
        select_passes(ranks) <= select_most) {
        r.selected = true;
        r.data = wrap_result<T, S>(a.get_queue(), select_impl(array_ref_of(a), ranks, poison),
                                   {ranks.size()});
        return r;
    }
    if (!sh.axis) {
        r.data = sort(a.ravel());
        return r;
    }
    r.data =
        moveaxis(sort(a, static_cast<long>(*sh.axis)), static_cast<std::ptrdiff_t>(*sh.axis), 0);
    return r;
}

// A scalar operand of R in an expression: float for float16 (a weak scalar keeps float16).
template <class R> using stat_scalar_t = std::conditional_t<std::is_same_v<R, half>, float, R>;

// value where the slice holds no NaN, else NaN (the sorted path; the select path poisons).
template <class R, class T, class S, class E>
void store_stat(cl_array<R, S> dst, const ranked<T, S>& r, const E& value) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || is_complex_v<T>) {
        if (!r.selected) { // (complex: NaN in either part; the sort puts those last)
            dst = where(isnan(r.last()), astype<R>(r.last()), value);
            return;
        }
    }
    dst = value;
}

// One quantile's neighbours and weight: ranks lo, hi and gamma (NumPy's formulas, the virtual
// index computed in Q: float32 for a float32 array and one q, as NumPy, else float64).
struct quantile_pick {
    std::uint64_t lo = 0, hi = 0;
    double gamma = 0;
};
template <class Q> quantile_pick pick_quantile(std::size_t n, double q_in, quantile_method m) {
    const Q q = static_cast<Q>(q_in);
    const Q x = static_cast<Q>(n - 1) * q; // (n - 1) q
    const auto clamp = [&](Q v) {
        return static_cast<std::uint64_t>(std::min<Q>(std::max<Q>(v, 0), static_cast<Q>(n - 1)));
    };
    quantile_pick p;
    switch (m) {
    case quantile_method::lower:
        p.lo = p.hi = clamp(std::floor(x));
        return p;
    case quantile_method::higher:
        p.lo = p.hi = clamp(std::ceil(x));
        return p;
    case quantile_method::nearest:
        p.lo = p.hi = clamp(std::nearbyint(x)); // the default rounding: halves to even
        return p;
    case quantile_method::linear:
    case quantile_method::midpoint:
        break;
    }
    const Q v = m == quantile_method::linear ? x : Q(0.5) * (std::floor(x) + std::ceil(x));
    const Q fl = std::floor(v);
    if (m == quantile_method::linear)
        p.gamma = static_cast<double>(v - fl);
    else
        p.gamma = std::floor(x) == x ? 0.0 : 0.5;
    if (v >= static_cast<Q>(n - 1)) {
        p.lo = p.hi = n - 1;
    } else {
        p.lo = clamp(fl);
        p.hi = p.lo + 1;
    }
    return p;
}

template <class T, class S>
cl_array<stat_float_t<T>, S> quantile_impl(const cl_array<T, S>& a, const std::vector<double>& qs,
                                           bool one_q, std::optional<long> axis, quantile_method m,
                                           bool keep_dims, const char* what, double scale) {
    static_assert(!is_complex_v<T>, "clarray::quantile: complex arrays are not supported");
    using R = stat_float_t<T>;
    const queue& q = queue_of(a, what);
    for (double v : qs)
        if (!(v >= 0 && v <= 1))
            throw usage_error(std::string(what) + ": " + (scale == 1 ? "q " : "percentile ") +
                              std::to_string(v * scale) + " outside [0, " +
                              (scale == 1 ? "1]" : "100]"));
    const stat_shape sh = stat_shape_of(a, axis, what);
    shape_type out = keep_dims ? sh.kept : sh.rest;
    if (!one_q) out.insert(out.begin(), qs.size());
    cl_array<R, S> result = empty<R, S>(q, out);
    const std::size_t slices = checked_size(sh.rest);
    if (slices == 0 || qs.empty()) return result;
    if (sh.n == 0)
        throw index_error(std::string(what) + ": the slices are empty (NumPy raises IndexError)");
    std::vector<quantile_pick> picks;
    std::vector<std::uint64_t> ranks;
    for (double v : qs) {
        picks.push_back(std::is_same_v<T, float> && one_q ? pick_quantile<float>(sh.n, v, m)
                                                          : pick_quantile<double>(sh.n, v, m));
        ranks.push_back(picks.back().lo);
        ranks.push_back(picks.back().hi);
    }
    const ranked<T, S> r = rank_values(a, sh, ranks, true);
    cl_array<R, S> flat =
        result.reshape(one_q ? shape_type{1, slices} : shape_type{qs.size(), slices});
    for (std::size_t j = 0; j < qs.size(); ++j) {
        const cl_array<T, S> lo = r.at(2 * j), hi = r.at(2 * j + 1);
        cl_array<R, S> dst = flat(static_cast<long>(j)).reshape(lo.shape());
        const double g = picks[j].gamma;
        if (picks[j].lo == picks[j].hi ||
            (m != quantile_method::linear && m != quantile_method::midpoint)) {
            store_stat(dst, r, astype<R>(lo));
        } else if (g >= 0.5) { // NumPy's _lerp: from the upper neighbour for weights from 1/2
            store_stat(dst, r,
                       astype<R>(astype<R>(hi) - (astype<R>(hi) - astype<R>(lo)) *
                                                     static_cast<stat_scalar_t<R>>(1 - g)));
        } else {
            store_stat(dst, r,
                       astype<R>(astype<R>(lo) + (astype<R>(hi) - astype<R>(lo)) *
                                                     static_cast<stat_scalar_t<R>>(g)));
        }
    }
    return result;
}

// The topk along axis from the sorted indices (the sort path): the k last (largest) reversed,
// or the k first, with the values of the sorted copy.
template <class X, class S>
cl_array<X, S> topk_slice(const cl_array<X, S>& sorted, std::size_t ax, std::size_t k,
                          bool largest) {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(sorted.shape()[ax]);
    const std::ptrdiff_t kk = static_cast<std::ptrdiff_t>(k);
    const cl_array<X, S> last = moveaxis(sorted, static_cast<std::ptrdiff_t>(ax), -1);
    cl_array<X, S> part = largest ? (kk == n ? last(ellipsis(), range(n - 1, none, -1))
                                             : last(ellipsis(), range(n - 1, n - kk - 1, -1)))
                                  : last(ellipsis(), range(0, kk));
    return moveaxis(part, -1, static_cast<std::ptrdiff_t>(ax)).copy();
}

} // namespace detail

// NumPy's partition: a copy of a whose slices along axis have the element of rank kth (negative
// counts from the end) in its sorted place, none greater before it, none smaller after it (NaN
// last). index_error for kth out of range or a bad axis. Never blocks.
template <class T, class S>
cl_array<T, S> partition(const cl_array<T, S>& a, long kth, long axis = -1) {
    static_assert(!is_complex_v<T>, "clarray::partition: complex arrays are not supported");
    const queue& q = detail::queue_of(a, "partition");
    const std::size_t ax = detail::stat_axis(axis, a.dimension(), "partition");
    const long n = static_cast<long>(a.shape()[ax]);
    if (kth < -n || kth >= n)
        throw index_error("partition: kth " + std::to_string(kth) +
                          " out of range for an axis of " + std::to_string(n) + " elements");
    const std::uint64_t k = static_cast<std::uint64_t>(kth < 0 ? kth + n : kth);
    if (a.size() == static_cast<std::size_t>(n) && a.size() < detail::select_limit)
        return detail::wrap_result<T, S>(
            q, detail::partition_impl(detail::array_ref_of(a), k, 0, a.size(), false), a.shape());
    return sort(a, axis);
}
// NumPy's argpartition: the int64 indices along axis that partition a (partition(a, kth) equals
// a gathered at them along axis).
template <class T, class S>
cl_array<std::int64_t, S> argpartition(const cl_array<T, S>& a, long kth, long axis = -1) {
    static_assert(!is_complex_v<T>, "clarray::argpartition: complex arrays are not supported");
    const queue& q = detail::queue_of(a, "argpartition");
    const std::size_t ax = detail::stat_axis(axis, a.dimension(), "argpartition");
    const long n = static_cast<long>(a.shape()[ax]);
    if (kth < -n || kth >= n)
        throw index_error("argpartition: kth " + std::to_string(kth) +
                          " out of range for an axis of " + std::to_string(n) + " elements");
    const std::uint64_t k = static_cast<std::uint64_t>(kth < 0 ? kth + n : kth);
    if (a.size() == static_cast<std::size_t>(n) && a.size() < detail::select_limit)
        return detail::wrap_result<std::int64_t, S>(
            q, detail::partition_impl(detail::array_ref_of(a), k, 0, a.size(), true), a.shape());
    return argsort(a, axis);
}

// The k largest (or smallest) elements of the slices along axis, sorted (largest first when
// largest), and their int64 indices along axis: `auto [v, i] = topk(a, 10);`. Ties keep no
// particular order; NaN counts as the largest value. index_error for k above the axis' extent.
// Never blocks.
template <class T, class S>
topk_result<T, S> topk(const cl_array<T, S>& a, std::size_t k, long axis = -1,
                       bool largest = true) {
    static_assert(!is_complex_v<T>, "clarray::topk: complex arrays are not supported");
    const queue& q = detail::queue_of(a, "topk");
    const std::size_t ax = detail::stat_axis(axis, a.dimension(), "topk");
    const std::size_t n = a.shape()[ax];
    if (k > n)
        throw index_error("topk: k " + std::to_string(k) + " out of range for an axis of " +
                          std::to_string(n) + " elements");
    shape_type out = a.shape();
    out[ax] = k;
    if (k == 0 || a.size() == 0) return {empty<T, S>(q, out), empty<std::int64_t, S>(q, out)};
    if (a.size() == n && n < detail::select_limit) {
        // The k from the partition (indices), then sorted among themselves.
        const std::uint64_t lo = largest ? n - k : 0;
        auto idx = detail::wrap_result<std::int64_t, S>(
            q,
            detail::partition_impl(detail::array_ref_of(a), largest ? n - k : k - 1, lo, k, true),
            {k});
        cl_array<T, S> vals = eval(take(a, idx));
        const cl_array<std::int64_t, S> up = argsort(vals);
        const cl_array<std::int64_t, S> order = largest ? up(range(none, none, -1)) : up;
        return {cl_array<T, S>(eval(take(vals, order))).reshape(out),
                cl_array<std::int64_t, S>(eval(take(idx, order))).reshape(out)};
    }
    return {detail::topk_slice(sort(a, axis), ax, k, largest),
            detail::topk_slice(argsort(a, axis), ax, k, largest)};
}

// NumPy's quantile of a along axis (none: flattened) for one q in [0, 1]: float64 for integers
// and bool, float32 and float16 stay; NaN where a slice holds a NaN. usage_error for q outside
// [0, 1], index_error for empty slices (NumPy's IndexError). Never blocks.
template <class T, class S>
cl_array<stat_float_t<T>, S>
quantile(const cl_array<T, S>& a, double q, std::optional<long> axis = std::nullopt,
         quantile_method method = quantile_method::linear, bool keep_dims = false) {
    return detail::quantile_impl(a, {q}, true, axis, method, keep_dims, "quantile", 1);
}
// quantile of several q: a leading axis of qs.size() (NumPy's q as a list).
template <class T, class S>
cl_array<stat_float_t<T>, S> quantile(const cl_array<T, S>& a, const std::vector<double>& qs,
                                      std::optional<long> axis = std::nullopt,
                                      quantile_method method = quantile_method::linear,
                                      bool keep_dims = false) {
    return detail::quantile_impl(a, qs, false, axis, method, keep_dims, "quantile", 1);
}
// quantile with the method spelled as NumPy's ("linear", "lower", ...; usage_error otherwise).
template <class T, class S, class Q>
auto quantile(const cl_array<T, S>& a, const Q& q, std::optional<long> axis,
              const std::string& method, bool keep_dims = false) {
    return quantile(a, q, axis, detail::quantile_method_named(method), keep_dims);
}
// NumPy's percentile: quantile of p / 100 (p in [0, 100]).
template <class T, class S>
cl_array<stat_float_t<T>, S>
percentile(const cl_array<T, S>& a, double p, std::optional<long> axis = std::nullopt,
           quantile_method method = quantile_method::linear, bool keep_dims = false) {
    return detail::quantile_impl(a, {p / 100}, true, axis, method, keep_dims, "percentile", 100);
}
// percentile of several p: a leading axis of ps.size().
template <class T, class S>
cl_array<stat_float_t<T>, S> percentile(const cl_array<T, S>& a, const std::vector<double>& ps,
                                        std::optional<long> axis = std::nullopt,
                                        quantile_method method = quantile_method::linear,
                                        bool keep_dims = false) {
    std::vector<double> qs;
    for (double p : ps)
        qs.push_back(p / 100);
    return detail::quantile_impl(a, qs, false, axis, method, keep_dims, "percentile", 100);
}

// percentile with the method spelled as NumPy's ("linear", "lower", ...; usage_error otherwise).
template <class T, class S, class P>
auto percentile(const cl_array<T, S>& a, const P& p, std::optional<long> axis,
                const std::string& method, bool keep_dims = false) {
    return percentile(a, p, axis, detail::quantile_method_named(method), keep_dims);
}

// The result type of median: stat_float_t, complex types unchanged (NumPy's).
template <class T> using median_t = std::conditional_t<is_complex_v<T>, T, stat_float_t<T>>;

// NumPy's median along axis (none: flattened): the middle element, or the mean of the two
// middle ones, in median_t<T>; NaN where a slice holds a NaN or is empty (NumPy's result for
// an empty slice). Complex values are ordered as sort orders them (real part, then imaginary
// part); a slice with a NaN part gives its last value in that order, as NumPy's. Never blocks.
template <class T, class S>
cl_array<median_t<T>, S> median(const cl_array<T, S>& a, std::optional<long> axis = std::nullopt,
                                bool keep_dims = false) {
    using R = median_t<T>;
    const queue& q = detail::queue_of(a, "median");
    const detail::stat_shape sh = detail::stat_shape_of(a, axis, "median");
    cl_array<R, S> result = empty<R, S>(q, keep_dims ? sh.kept : sh.rest);
    if (result.size() == 0) return result;
    if (sh.n == 0) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        if constexpr (is_complex_v<R>)
            result.fill(R(nan, nan)); // NumPy's mean of nothing
        else
            result.fill(static_cast<R>(nan));
        return result;
    }
    const std::uint64_t hi = sh.n / 2, lo = (sh.n - 1) / 2;
    const detail::ranked<T, S> r = detail::rank_values(a, sh, {lo, hi}, true);
    cl_array<R, S> dst = result.reshape(r.at(0).shape());
    if (lo == hi)
        detail::store_stat(dst, r, astype<R>(r.at(0)));
    else // NumPy's mean of the two: their sum, divided by 2
        detail::store_stat(dst, r,
                           astype<R>((astype<R>(r.at(0)) + astype<R>(r.at(1))) /
                                     real_of_t<detail::stat_scalar_t<R>>(2)));
    return result;
}

// NumPy's ptp: max - min along axis (none: every axis), in a's dtype (integers wrap, as NumPy's).
// NaN propagates. Never blocks.
template <class T, class S>
cl_array<T, S> ptp(const cl_array<T, S>& a, std::optional<long> axis = std::nullopt,
                   bool keep_dims = false) {
    static_assert(!std::is_same_v<T, bool>, "clarray::ptp: bool arrays are not supported "
                                            "(NumPy refuses the subtraction)");
    const reduce_axes axes = axis ? reduce_axes(*axis) : reduce_axes();
    return eval(astype<T>(max(a, axes, keep_dims) - min(a, axes, keep_dims)));
}

// The float type of average of T with weights W (NumPy: integers and bool through float64).
template <class T, class W>
using average_t =
    std::conditional_t<std::is_integral_v<T>, promote_t<promote_t<T, W>, double>, promote_t<T, W>>;

// NumPy's average without weights: the mean along axis (none: every axis). Never blocks.
template <class T, class S>
auto average(const cl_array<T, S>& a, std::optional<long> axis = std::nullopt) {
    return mean(a, axis ? reduce_axes(*axis) : reduce_axes());
}
// NumPy's weighted average: sum(a * w) / sum(w) along axis (none: every axis) in average_t,
// weights of a's shape, or 1-d along the axis. shape_error for other weights' shapes;
// zero_division_error where weights sum to zero. Blocks: reads the sums of the weights back.
template <class T, class S, class W>
cl_array<average_t<T, W>, S> average(const cl_array<T, S>& a, std::optional<long> axis,
                                     const cl_array<W, S>& weights) {
    using R = average_t<T, W>;
    shape_type ws = weights.shape();
    if (ws != a.shape()) {
        if (!axis)
            throw shape_error("average: weights of shape " + shape_to_string(ws) +
                              " differ from the array's " + shape_to_string(a.shape()) +
                              "; give the axis");
        const std::size_t ax = detail::stat_axis(*axis, a.dimension(), "average");
        if (ws.size() != 1 || ws[0] != a.shape()[ax])
            throw shape_error("average: 1-d weights must have the axis' length " +
                              std::to_string(a.shape()[ax]) + ", got shape " + shape_to_string(ws));
        ws.assign(a.dimension(), 1);
        ws[ax] = a.shape()[ax];
    }
    const cl_array<W, S> w = weights.reshape(ws);
    const reduce_axes axes = axis ? reduce_axes(*axis) : reduce_axes();
    cl_array<R, S> scale = eval(astype<R>(sum(astype<R>(w), axes)));
    const auto host = scale.get(); // blocks
    for (auto v : host)
        if (v == R(0)) throw zero_division_error("average: the weights sum to zero");
    return eval(astype<R>(sum(astype<R>(a) * astype<R>(w), axes) / scale));
}

// NumPy's cov: the float64 covariance matrix of the variables of m (2-d: rows are variables, or
// columns when !rowvar; 1-d: one variable), normalised by N - ddof (ddof: 1 by default;
// NumPy's 0 factor where that is not positive: infinities and NaN). Squeezed as NumPy's: one
// variable gives a 0-d array. shape_error for more than 2 dimensions. Never blocks.
template <class T, class S>
cl_array<double, S> cov(const cl_array<T, S>& m, bool rowvar = true,
                        std::optional<long> ddof = std::nullopt) {
    static_assert(!is_complex_v<T>, "clarray::cov: complex arrays are not supported");
    if (m.dimension() > 2)
        throw shape_error("cov: m has " + std::to_string(m.dimension()) +
                          " dimensions (at most 2)");
    const cl_array<T, S> m2 = m.dimension() == 2 ? m : m.reshape({1, m.size()});
    const cl_array<T, S> x = !rowvar && m2.shape()[0] != 1 ? m2.transpose() : m2;
    const long n = static_cast<long>(x.shape()[1]);
    const long fact = std::max<long>(n - ddof.value_or(1), 0);
    cl_array<double, S> xd = eval(astype<double>(x));
    cl_array<double, S> centred = eval(xd - mean(xd, 1, true));
    cl_array<double, S> c = matmul(centred, cl_array<double, S>(centred.transpose().copy()));
    return cl_array<double, S>(eval(c * (1.0 / static_cast<double>(fact)))).squeeze();
}

// NumPy's corrcoef: the float64 correlation coefficients of the variables of x (as cov),
// clipped to [-1, 1]; a single variable gives c / c (1, or NaN). Never blocks.
template <class T, class S>
cl_array<double, S> corrcoef(const cl_array<T, S>& x, bool rowvar = true) {
    cl_array<double, S> c = cov(x, rowvar);
    if (c.dimension() == 0) return eval(c / c);
    const std::ptrdiff_t v = static_cast<std::ptrdiff_t>(c.shape()[0]);
    cl_array<double, S> sd = eval(sqrt(c.ravel()(range(0, none, v + 1))));
    cl_array<double, S> r = eval(c / sd(all(), newaxis()) / sd(newaxis(), all()));
    return eval(where(r > 1.0, 1.0, where(r < -1.0, -1.0, r)));
}

// ---- The same over expressions: evaluated once (detail::materialize), then as above.
// partition of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto partition(const E& e, long kth, long axis = -1) {
    return partition(detail::materialize(e), kth, axis);
}
// argpartition of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto argpartition(const E& e, long kth, long axis = -1) {
    return argpartition(detail::materialize(e), kth, axis);
}
// topk of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto topk(const E& e, std::size_t k, long axis = -1, bool largest = true) {
    return topk(detail::materialize(e), k, axis, largest);
}
// quantile of an expression (one q or several).
template <class E, class Q, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto quantile(const E& e, const Q& q, std::optional<long> axis = std::nullopt,
              quantile_method method = quantile_method::linear, bool keep_dims = false) {
    return quantile(detail::materialize(e), q, axis, method, keep_dims);
}
// percentile of an expression (one p or several).
template <class E, class P, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto percentile(const E& e, const P& p, std::optional<long> axis = std::nullopt,
                quantile_method method = quantile_method::linear, bool keep_dims = false) {
    return percentile(detail::materialize(e), p, axis, method, keep_dims);
}
// median of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto median(const E& e, std::optional<long> axis = std::nullopt, bool keep_dims = false) {
    return median(detail::materialize(e), axis, keep_dims);
}
// ptp of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto ptp(const E& e, std::optional<long> axis = std::nullopt, bool keep_dims = false) {
    return ptp(detail::materialize(e), axis, keep_dims);
}
// cov of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto cov(const E& e, bool rowvar = true, std::optional<long> ddof = std::nullopt) {
    return cov(detail::materialize(e), rowvar, ddof);
}
// corrcoef of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto corrcoef(const E& e, bool rowvar = true) {
    return corrcoef(detail::materialize(e), rowvar);
}

} // namespace clarray
