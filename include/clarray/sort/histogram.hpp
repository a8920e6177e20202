#pragma once
// NumPy's histograms beyond equal-width counts (docs/sorting.md): explicit bin edges, weights and
// densities for histogram, histogram2d, and digitize.
//
//   auto h = clarray::histogram(a, edges);                     // h.counts (int64), h.edges
//   auto w = clarray::histogram(a, 20, {0.0, 1.0}, weights);   // sums in the weights' dtype
//   auto d = clarray::histogram(a, edges, clarray::density);   // float64 density
//   auto g = clarray::histogram2d(x, y, {8, 4});               // g.counts (8, 4), float64
//   auto k = clarray::digitize(x, bins);                       // int64, x's shape
//
// Weights and `density` follow the bins (and range) in that order, as NumPy's keywords
// `weights=`, `density=True`. Explicit edges (a 1-d array of any real dtype, of any storage) are
// read back to check their order, which waits for the work before them; each histogram is then
// one pass over the input (a binary search over the edges per element, counts in per-group local
// sub-histograms where they fit). Values meet explicit edges in NumPy's promotion of the two
// dtypes (int8 values and int64 edges compare as int64, int64 values and float32 edges as
// float64). Every array argument may be an expression (evaluated once, expr/materialize.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "clarray/sort/sort.hpp"

namespace clarray {

// NumPy's density=True, as the last argument of histogram and histogram2d: the counts become
// float64 densities, count / (sum of the counts * bin width), which integrate to 1 over the
// range (NaN where nothing is counted).
struct density_t {
    explicit constexpr density_t() = default;
};
// The density argument: `histogram(a, edges, clarray::density)`.
inline constexpr density_t density{};

// A histogram's range: NumPy's range=(lo, hi) written {lo, hi}, or none (std::nullopt or {}):
// the data's smallest and largest element.
class histogram_range {
public:
    constexpr histogram_range() = default;
    // No range: the data's extremes.
    constexpr histogram_range(std::nullopt_t) noexcept {}
    // The range [lo, hi].
    constexpr histogram_range(double lo, double hi) noexcept : set_(true), lo_(lo), hi_(hi) {}
    // The range {lo, hi}.
    constexpr histogram_range(std::pair<double, double> r) noexcept
        : set_(true), lo_(r.first), hi_(r.second) {}
    // The range r holds, or none.
    constexpr histogram_range(const std::optional<std::pair<double, double>>& r) noexcept
        : set_(r.has_value()), lo_(r ? r->first : 0.0), hi_(r ? r->second : 0.0) {}
    // Whether a range was given.
    constexpr bool has_value() const noexcept { return set_; }
    // The lower end.
    constexpr double lo() const noexcept { return lo_; }
    // The upper end.
    constexpr double hi() const noexcept { return hi_; }

private:
    bool set_ = false;
    double lo_ = 0, hi_ = 0;
};

// The dtype of a weighted histogram's sums: the weights' dtype for float weights (NumPy's), and
// float64 for integer and bool weights (NumPy keeps their dtype too; the device adds float64).
template <class W> using histogram_weight_t = std::conditional_t<is_floating_v<W>, W, double>;

// histogram2d's bin counts: one for both axes (`histogram2d(x, y, 16)`) or {nx, ny}.
struct histogram2d_bins {
    // The bins along x.
    std::size_t nx = 10;
    // The bins along y.
    std::size_t ny = 10;
    constexpr histogram2d_bins() = default;
    // n bins along each axis.
    constexpr histogram2d_bins(std::size_t n) noexcept : nx(n), ny(n) {}
    // x bins along x, y along y.
    constexpr histogram2d_bins(std::size_t x, std::size_t y) noexcept : nx(x), ny(y) {}
};
// histogram2d's range: {{xlo, xhi}, {ylo, yhi}} (NumPy's range=[[xlo, xhi], [ylo, yhi]]).
struct histogram2d_range {
    // The range along x.
    std::pair<double, double> x;
    // The range along y.
    std::pair<double, double> y;
};
// The result of histogram2d: counts (nx, ny), float64 as NumPy's (sums of the weights, or
// densities), and each axis's edges: explicit ones in their dtype; equal-width ones float64 with
// a range, else float32 where x and y promote to float32, float64 otherwise.
template <class S, class EX = double, class EY = EX> struct histogram2d_result {
    // Counts of the values with x in xedges' bin i and y in yedges' bin j at (i, j).
    cl_array<double, S> counts;
    // The nx + 1 edges along x.
    cl_array<EX, S> xedges;
    // The ny + 1 edges along y.
    cl_array<EY, S> yedges;
};

namespace detail {

// The type values of T meet edges of E in: NumPy's promotion (float32 for float16: the kernels
// hold no half values, and float32 orders every float16 exactly).
template <class T, class E>
using histogram_compare_t =
    std::conditional_t<std::is_same_v<promote_t<T, E>, half>, float, promote_t<T, E>>;

// One histogram's bins: explicit edges (1-d, read back and checked: blocks), or `bins` equal
// bins over range (null: the data's extremes, read back) with edges of edge_type; compare: the
// type values meet explicit edges in (histogram_compare_t).
struct histogram_args {
    const array_ref* edges = nullptr;
    std::size_t bins = 10;
    const double* range = nullptr;
    dtype edge_type = dtype::float64;
    dtype compare = dtype::float64;
    const array_ref* weights = nullptr; // histogram: a's shape
    bool density = false;               // histogram
};
// counts: int64 (neither weights nor density) or float64, `bins` of them; edges: bins + 1 of the
// edge type, or a copy of the explicit edges.
struct histogram_parts {
    std::shared_ptr<allocation> counts, edges;
    std::size_t bins = 0;
};
histogram_parts histogram_general_impl(const array_ref& a, const histogram_args& h);
// counts: nx * ny (C order), int64 unless sums (weights or density: float64).
struct histogram2d_parts {
    std::shared_ptr<allocation> counts, xedges, yedges;
    std::size_t nx = 0, ny = 0;
    bool sums = false;
};
histogram2d_parts histogram2d_impl(const array_ref& x, const array_ref& y, const histogram_args& ax,
                                   const histogram_args& ay, const array_ref* weights,
                                   bool density);
// int64 bin indices of x's elements (x's shape, C order) among bins (1-d, increasing or
// decreasing, read back: blocks), compared in `compare`. Null for an empty x.
std::shared_ptr<allocation> digitize_impl(const array_ref& x, const array_ref& bins, dtype compare,
                                          bool right);

// The trailing arguments of histogram and histogram2d: [weights] [density], in that order.
template <class K> inline constexpr bool is_density_v = std::is_same_v<std::decay_t<K>, density_t>;
template <class... K> struct histogram_keywords : std::false_type {};
template <> struct histogram_keywords<> : std::true_type {
    static constexpr bool weighted = false, dense = false;
};
template <class K>
struct histogram_keywords<K> : std::bool_constant<is_array_argument_v<K> || is_density_v<K>> {
    static constexpr bool weighted = !is_density_v<K>, dense = is_density_v<K>;
};
template <class W, class D>
struct histogram_keywords<W, D> : std::bool_constant<is_array_argument_v<W> && is_density_v<D>> {
    static constexpr bool weighted = true, dense = true;
};
template <class... K>
inline constexpr bool histogram_keywords_v = histogram_keywords<std::decay_t<K>...>::value;
template <class W, class... K> const W& first_keyword(const W& w, const K&...) {
    return w;
}

// The complex arguments: compile-time errors naming the fix.
template <class T, class E, class W> constexpr void histogram_real_arguments() {
    static_assert(!is_complex_v<T>, "clarray::histogram: complex arrays are not supported; take "
                                    "their real parts (clarray::real) or magnitudes "
                                    "(clarray::abs) first");
    static_assert(!is_complex_v<E>, "clarray::histogram: bin edges must be real, not complex");
    static_assert(!is_complex_v<W>, "clarray::histogram: complex weights are not supported; "
                                    "count their real and imaginary parts (clarray::real, "
                                    "clarray::imag) separately");
}

// histogram of arrays: counts of type C (int64, float64, or the weights' float dtype), edges of
// E (explicit: *edges' dtype, of any storage; else histogram_edge_t<T>).
template <class C, class T, class S, class E, class SE, class W>
histogram_result<T, S, C, E> histogram_run(const cl_array<T, S>& a, const cl_array<E, SE>* edges,
                                           std::size_t bins, const histogram_range& range,
                                           const cl_array<W, S>* weights, bool dense) {
    histogram_real_arguments<T, E, W>();
    const queue& q = queue_of(a, "histogram");
    const array_ref ar = array_ref_of(a);
    array_ref er, wr;
    histogram_args h;
    if (edges) {
        queue_of(*edges, "histogram");
        er = array_ref_of(*edges);
        h.edges = &er;
        h.compare = dtype_traits<histogram_compare_t<T, E>>::id;
    } else {
        h.bins = bins;
        h.edge_type = dtype_traits<histogram_edge_t<T>>::id;
    }
    const double r[2] = {range.lo(), range.hi()};
    if (range.has_value()) h.range = r;
    if (weights) {
        queue_of(*weights, "histogram");
        wr = array_ref_of(*weights);
        h.weights = &wr;
    }
    h.density = dense;
    histogram_parts p = histogram_general_impl(ar, h);
    cl_array<E, S> e = wrap_result<E, S>(q, std::move(p.edges), {p.bins + 1});
    if constexpr (std::is_same_v<C, std::int64_t> || std::is_same_v<C, double>) {
        return {wrap_result<C, S>(q, std::move(p.counts), {p.bins}), std::move(e)};
    } else { // float32 or float16 weights: the float64 sums rounded once
        const cl_array<double, S> sums = wrap_result<double, S>(q, std::move(p.counts), {p.bins});
        return {eval(astype<C>(sums)), std::move(e)};
    }
}

// histogram with the trailing [weights] [density] arguments, a and edges already arrays.
template <class T, class S, class E, class SE, class... K>
auto histogram_call(const cl_array<T, S>& a, const cl_array<E, SE>* edges, std::size_t bins,
                    const histogram_range& range, const K&... kw) {
    using kws = histogram_keywords<std::decay_t<K>...>;
    if constexpr (kws::weighted) {
        decltype(auto) w = materialize(first_keyword(kw...));
        using WA = std::decay_t<decltype(w)>;
        using W = typename WA::value_type;
        static_assert(std::is_same_v<typename WA::storage_policy, S>,
                      "clarray::histogram: the values and the weights must have one storage "
                      "policy");
        using C = std::conditional_t<kws::dense, double, histogram_weight_t<W>>;
        return histogram_run<C>(a, edges, bins, range, &w, kws::dense);
    } else {
        using C = std::conditional_t<kws::dense, double, std::int64_t>;
        return histogram_run<C>(a, edges, bins, range, static_cast<const cl_array<T, S>*>(nullptr),
                                kws::dense);
    }
}

// histogram2d of arrays: edges of EX and EY (explicit: *xe's and *ye's dtypes).
template <class TX, class TY, class S, class EX, class SX, class EY, class SY, class... K>
auto histogram2d_call(const cl_array<TX, S>& x, const cl_array<TY, S>& y,
                      const cl_array<EX, SX>* xe, const cl_array<EY, SY>* ye, histogram2d_bins bins,
                      const histogram2d_range* range, const K&... kw) {
    histogram_real_arguments<TX, EX, TY>();
    histogram_real_arguments<TY, EY, TX>();
    // NumPy stacks x and y into one array first: they meet the edges in their promotion.
    using T0 = promote_t<TX, TY>;
    const queue& q = queue_of(x, "histogram2d");
    queue_of(y, "histogram2d");
    const array_ref xr = array_ref_of(x), yr = array_ref_of(y);
    array_ref xer, yer;
    histogram_args ax, ay;
    ax.compare = dtype_traits<histogram_compare_t<T0, EX>>::id;
    ay.compare = dtype_traits<histogram_compare_t<T0, EY>>::id;
    ax.edge_type = dtype_traits<EX>::id;
    ay.edge_type = dtype_traits<EY>::id;
    ax.bins = bins.nx;
    ay.bins = bins.ny;
    if (xe) {
        queue_of(*xe, "histogram2d");
        xer = array_ref_of(*xe);
        ax.edges = &xer;
    }
    if (ye) {
        queue_of(*ye, "histogram2d");
        yer = array_ref_of(*ye);
        ay.edges = &yer;
    }
    const double rx[2] = {range ? range->x.first : 0.0, range ? range->x.second : 0.0};
    const double ry[2] = {range ? range->y.first : 0.0, range ? range->y.second : 0.0};
    if (range) {
        ax.range = rx;
        ay.range = ry;
    }
    using kws = histogram_keywords<std::decay_t<K>...>;
    histogram2d_parts p;
    if constexpr (kws::weighted) {
        decltype(auto) w = materialize(first_keyword(kw...));
        using WA = std::decay_t<decltype(w)>;
        static_assert(!is_complex_v<typename WA::value_type>,
                      "clarray::histogram2d: complex weights are not supported");
        static_assert(std::is_same_v<typename WA::storage_policy, S>,
                      "clarray::histogram2d: the values and the weights must have one storage "
                      "policy");
        queue_of(w, "histogram2d");
        const array_ref wr = array_ref_of(w);
        p = histogram2d_impl(xr, yr, ax, ay, &wr, kws::dense);
    } else {
        p = histogram2d_impl(xr, yr, ax, ay, nullptr, kws::dense);
    }
    histogram2d_result<S, EX, EY> r;
    if (p.sums) {
        r.counts = wrap_result<double, S>(q, std::move(p.counts), {p.nx, p.ny});
    } else { // NumPy's counts are float64
        const cl_array<std::int64_t, S> c =
            wrap_result<std::int64_t, S>(q, std::move(p.counts), {p.nx, p.ny});
        r.counts = eval(astype<double>(c));
    }
    r.xedges = wrap_result<EX, S>(q, std::move(p.xedges), {p.nx + 1});
    r.yedges = wrap_result<EY, S>(q, std::move(p.yedges), {p.ny + 1});
    return r;
}

// The edge type of equal-width histogram2d bins without a range: NumPy's linspace of the
// stacked values' extremes.
template <class TX, class TY> using histogram2d_edge_t = histogram_edge_t<promote_t<TX, TY>>;

} // namespace detail

// ---- histogram with explicit edges, weights, density.

// NumPy's histogram over explicit edges `bins` (1-d, increasing, at least one edge; any real
// dtype and storage): bin i counts e[i] <= v < e[i+1], the last bin also v == e[last]; values
// outside and NaN are not counted. Decreasing edges, a NaN edge (NumPy lets it through) and empty
// edges are usage_errors. Then optionally weights (a's shape: counts are their sums, in
// histogram_weight_t) and `density`. Result: histogram_result with the counts and a copy of
// the edges (their dtype).
template <
    class A, class B, class... K,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<B> &&
                             detail::histogram_keywords_v<K...>>>
auto histogram(const A& a, const B& bins, const K&... kw) {
    decltype(auto) av = detail::materialize(a);
    decltype(auto) bv = detail::materialize(bins);
    return detail::histogram_call(av, &bv, 0, {}, kw...);
}
// Equal-width histogram (as histogram(a, bins, range)) with weights and / or density:
// `histogram(a, 20, {0.0, 1.0}, w)`, `histogram(a, 20, std::nullopt, clarray::density)`.
template <class A, class K0, class... K,
          class = std::enable_if_t<detail::is_array_argument_v<A> &&
                                   detail::histogram_keywords_v<K0, K...>>>
auto histogram(const A& a, std::size_t bins, histogram_range range, const K0& k0, const K&... kw) {
    decltype(auto) av = detail::materialize(a);
    using T = typename std::decay_t<decltype(av)>::value_type;
    using S = typename std::decay_t<decltype(av)>::storage_policy;
    return detail::histogram_call(av, static_cast<const cl_array<histogram_edge_t<T>, S>*>(nullptr),
                                  bins, range, k0, kw...);
}

// ---- histogram2d: NumPy's, of the values pairs (x[i], y[i]) (x and y of one shape, flattened).

// Equal-width bins per axis over each axis's smallest to largest value (read back: blocks);
// values on the last edge count in the last bin. Then optionally weights (x's shape) and
// `density`.
template <
    class X, class Y, class... K,
    class = std::enable_if_t<detail::is_array_argument_v<X> && detail::is_array_argument_v<Y> &&
                             detail::histogram_keywords_v<K...>>>
auto histogram2d(const X& x, const Y& y, histogram2d_bins bins = {}, const K&... kw) {
    decltype(auto) xv = detail::materialize(x);
    decltype(auto) yv = detail::materialize(y);
    using TX = typename std::decay_t<decltype(xv)>::value_type;
    using TY = typename std::decay_t<decltype(yv)>::value_type;
    using S = typename std::decay_t<decltype(xv)>::storage_policy;
    static_assert(std::is_same_v<typename std::decay_t<decltype(yv)>::storage_policy, S>,
                  "clarray::histogram2d: x and y must have one storage policy");
    using E = detail::histogram2d_edge_t<TX, TY>;
    const auto* none = static_cast<const cl_array<E, S>*>(nullptr);
    return detail::histogram2d_call(xv, yv, none, none, bins, nullptr, kw...);
}
// The same over a range per axis (edges float64, as NumPy's linspace of the range's floats).
template <
    class X, class Y, class... K,
    class = std::enable_if_t<detail::is_array_argument_v<X> && detail::is_array_argument_v<Y> &&
                             detail::histogram_keywords_v<K...>>>
auto histogram2d(const X& x, const Y& y, histogram2d_bins bins, const histogram2d_range& range,
                 const K&... kw) {
    decltype(auto) xv = detail::materialize(x);
    decltype(auto) yv = detail::materialize(y);
    using S = typename std::decay_t<decltype(xv)>::storage_policy;
    static_assert(std::is_same_v<typename std::decay_t<decltype(yv)>::storage_policy, S>,
                  "clarray::histogram2d: x and y must have one storage policy");
    const auto* none = static_cast<const cl_array<double, S>*>(nullptr);
    return detail::histogram2d_call(xv, yv, none, none, bins, &range, kw...);
}
// Explicit edges per axis (each as histogram's explicit edges).
template <
    class X, class Y, class BX, class BY, class... K,
    class = std::enable_if_t<detail::is_array_argument_v<X> && detail::is_array_argument_v<Y> &&
                             detail::is_array_argument_v<BX> && detail::is_array_argument_v<BY> &&
                             detail::histogram_keywords_v<K...>>>
auto histogram2d(const X& x, const Y& y, const BX& xbins, const BY& ybins, const K&... kw) {
    decltype(auto) xv = detail::materialize(x);
    decltype(auto) yv = detail::materialize(y);
    decltype(auto) bx = detail::materialize(xbins);
    decltype(auto) by = detail::materialize(ybins);
    using S = typename std::decay_t<decltype(xv)>::storage_policy;
    static_assert(std::is_same_v<typename std::decay_t<decltype(yv)>::storage_policy, S>,
                  "clarray::histogram2d: x and y must have one storage policy");
    return detail::histogram2d_call(xv, yv, &bx, &by, histogram2d_bins{}, nullptr, kw...);
}

// ---- digitize

// NumPy's digitize: for each element of x, the index i of its bin in `bins` (1-d, monotonically
// increasing or decreasing, ties allowed; read back: blocks). Increasing bins: bins[i-1] <= x <
// bins[i] (right: bins[i-1] < x <= bins[i]); decreasing: bins[i-1] > x >= bins[i] (right:
// bins[i-1] >= x > bins[i]); 0 and len(bins) beyond the ends. NaN counts as larger than every
// number (NumPy's searchsorted order). int64, x's shape. Bins neither increasing nor decreasing
// are a usage_error, as are NaN bins other than trailing ones of increasing bins (NumPy searches
// those unsorted); empty bins give zeros.
template <
    class X, class B,
    class = std::enable_if_t<detail::is_array_argument_v<X> && detail::is_array_argument_v<B>>>
auto digitize(const X& x, const B& bins, bool right = false) {
    decltype(auto) xv = detail::materialize(x);
    decltype(auto) bv = detail::materialize(bins);
    using T = typename std::decay_t<decltype(xv)>::value_type;
    using S = typename std::decay_t<decltype(xv)>::storage_policy;
    using E = typename std::decay_t<decltype(bv)>::value_type;
    static_assert(!is_complex_v<T>, "clarray::digitize: x may not be complex; digitize its real "
                                    "part (clarray::real) or magnitude (clarray::abs)");
    static_assert(!is_complex_v<E>, "clarray::digitize: bins must be real, not complex");
    const queue& q = detail::queue_of(xv, "digitize");
    detail::queue_of(bv, "digitize");
    return detail::wrap_result<std::int64_t, S>(
        q,
        detail::digitize_impl(detail::array_ref_of(xv), detail::array_ref_of(bv),
                              dtype_traits<detail::histogram_compare_t<T, E>>::id, right),
        xv.shape());
}

} // namespace clarray
