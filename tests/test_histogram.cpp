// histogram with explicit edges, weights and density, histogram2d and digitize, against host
// references written here with plain loops from NumPy's documented rules (not from the kernels'
// algorithms): every bin [e[i], e[i+1]) half-open but the last, which is closed; digitize's
// bins[i-1] <= x < bins[i] and its variants; NaN larger than every number in searches.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

using catch_compat::Contains;

namespace {

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || std::is_same_v<T, ca::half>;

// The type NumPy compares values of T with edges of E in: their promotion (float16 with float16
// compares as float32 here, which orders float16 values identically).
template <class T, class E>
using cmp_t =
    std::conditional_t<std::is_same_v<ca::promote_t<T, E>, ca::half>, float, ca::promote_t<T, E>>;

template <class C, class V> C to(V v) {
    if constexpr (std::is_same_v<V, ca::half>)
        return static_cast<C>(static_cast<float>(v));
    else
        return static_cast<C>(v);
}

// The bin of v among the edges e (NumPy's histogram rule), or -1.
template <class C> long ref_bin(C v, const std::vector<C>& e) {
    const std::size_t nb = e.size() - 1;
    for (std::size_t i = 0; i < nb; ++i) {
        const bool last = i + 1 == nb;
        if (e[i] <= v && (v < e[i + 1] || (last && v == e[i + 1]))) return long(i);
    }
    return -1;
}

template <class C, class E> std::vector<C> converted(const std::vector<E>& e) {
    std::vector<C> c;
    for (E x : e)
        c.push_back(to<C>(x));
    return c;
}

// Counts (or sums of w) of the values v in the bins of edges.
template <class T, class E>
std::vector<double> ref_histogram(const std::vector<T>& v, const std::vector<E>& edges,
                                  const std::vector<double>* w = nullptr) {
    using C = cmp_t<T, E>;
    const std::vector<C> ce = converted<C>(edges);
    std::vector<double> out(edges.size() - 1, 0.0);
    for (std::size_t i = 0; i < v.size(); ++i) {
        const long b = ref_bin(to<C>(v[i]), ce);
        if (b >= 0) out[std::size_t(b)] += w ? (*w)[i] : 1.0;
    }
    return out;
}

// np.diff(edges) in the edges' dtype, as float64 (the small integer edges here do not wrap).
template <class E> std::vector<double> ref_widths(const std::vector<E>& e) {
    std::vector<double> d;
    for (std::size_t i = 0; i + 1 < e.size(); ++i) {
        if constexpr (std::is_integral_v<E>)
            d.push_back(double(e[i + 1]) - double(e[i]));
        else
            d.push_back(double(E(e[i + 1] - e[i])));
    }
    return d;
}
// NumPy's density: n / width / sum(n).
std::vector<double> ref_density(const std::vector<double>& n, const std::vector<double>& widths) {
    double total = 0;
    for (double x : n)
        total += x;
    std::vector<double> d;
    for (std::size_t i = 0; i < n.size(); ++i)
        d.push_back(n[i] / widths[i] / total);
    return d;
}

// NumPy's linspace(lo, hi, bins + 1) in E (float32 arithmetic for float32).
template <class E> std::vector<E> ref_linspace(double lo, double hi, std::size_t bins) {
    std::vector<E> e(bins + 1);
    const E l = E(lo), h = E(hi), step = E(h - l) / E(bins);
    for (std::size_t i = 0; i <= bins; ++i)
        e[i] = i == bins ? h : E(E(i) * step + l);
    return e;
}

// Small values with many on the edges used below, and, for floats, NaN and infinities.
template <class T> std::vector<T> sample(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<T> v(n);
    for (auto& x : v) {
        const int k = int(rng() % 52);
        if constexpr (is_float_v<T>) {
            x = T(double(k - 6) / 2);
            const unsigned r = rng() % 40;
            if (r == 0) x = T(std::numeric_limits<float>::quiet_NaN());
            if (r == 1) x = T(std::numeric_limits<float>::infinity());
            if (r == 2) x = T(-std::numeric_limits<float>::infinity());
        } else if constexpr (std::is_signed_v<T>) {
            x = T(k / 2 - 3);
        } else {
            x = T(k / 2);
        }
    }
    return v;
}
// Weights that add up exactly in any order (multiples of 1/8).
std::vector<double> dyadic_weights(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<double> w(n);
    for (auto& x : w)
        x = double(int(rng() % 80) - 16) / 8;
    return w;
}

// Views of one device array of 240 elements and their elements in C order (read back through
// get(), which the view tests check): contiguous, strided, reversed with a step, transposed.
template <class T, class S> struct view_case {
    std::string name;
    ca::cl_array<T, S> dev;
    std::vector<T> host;
};
template <class T, class S> std::vector<view_case<T, S>> views_of(const std::vector<T>& h) {
    REQUIRE(h.size() == 240);
    auto base = test::device_array<T, S>(test::q(), h);
    std::vector<view_case<T, S>> v;
    v.push_back({"contiguous", base, h});
    v.push_back({"strided", base(ca::range(0, 240, 2)), {}});
    v.push_back({"reversed", base(ca::range(ca::none, ca::none, -3)), {}});
    v.push_back({"transposed", ca::transpose(base.reshape({12, 20})), {}});
    for (auto& c : v)
        c.host = test::host_vector(c.dev);
    return v;
}

template <class T> std::vector<double> as_doubles(const std::vector<T>& v) {
    std::vector<double> d;
    for (const T& x : v)
        d.push_back(to<double>(x));
    return d;
}

// Equal, or both NaN, or within a relative 1e-12 (float64 sums in another order).
bool close(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}
template <class A> std::size_t mismatches(const A& got, const std::vector<double>& want) {
    const auto g = test::host_vector(got);
    if (g.size() != want.size()) return want.size() + 1;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
        bad += !close(to<double>(g[i]), want[i]);
    return bad;
}

template <class T> std::vector<T> edges_for() {
    // A repeated edge (an empty bin [5, 5)), values below, on and above the ends.
    return {T(0), T(2), T(5), T(5), T(9), T(14), T(20)};
}

} // namespace

using histogram_types = std::tuple<std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                                   std::uint8_t, std::uint64_t, ca::half, float, double>;

TEMPLATE_LIST_TEST_CASE("histogram: explicit edges, NumPy's bins, every view and policy",
                        "[histogram]", histogram_types) {
    using T = TestType;
    if (!test::dtype_available<double>()) return;
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        for (const auto& vc : views_of<T, S>(sample<T>(240, 11))) {
            INFO(vc.name << " " << S::name);
            // Edges of the values' dtype (compared in it) and float64 edges.
            const std::vector<T> e = edges_for<T>();
            auto de = test::device_array<T, S>(test::q(), e);
            auto h = ca::histogram(vc.dev, de);
            static_assert(std::is_same_v<decltype(h.counts), ca::cl_array<std::int64_t, S>>);
            static_assert(std::is_same_v<decltype(h.edges), ca::cl_array<T, S>>);
            CHECK(mismatches(h.counts, ref_histogram(vc.host, e)) == 0);
            CHECK(test::host_vector(h.edges) == e);

            const std::vector<double> ed = {-0.5, 0.0, 2.5, 3.0, 7.25, 19.0};
            auto hd = ca::histogram(vc.dev, test::device_array<double, S>(test::q(), ed));
            CHECK(mismatches(hd.counts, ref_histogram(vc.host, ed)) == 0);
            // A single bin holds everything in [lo, hi], both ends included.
            const std::vector<T> one = {T(2), T(9)};
            auto h1 = ca::histogram(vc.dev, test::device_array<T, S>(test::q(), one));
            CHECK(mismatches(h1.counts, ref_histogram(vc.host, one)) == 0);
        }
    });
}

TEMPLATE_LIST_TEST_CASE("histogram: weights and density, explicit and equal-width bins",
                        "[histogram]", histogram_types) {
    using T = TestType;
    if (!test::dtype_available<double>()) return;
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        const std::vector<double> w = dyadic_weights(240, 5);
        std::vector<float> wf(w.begin(), w.end());
        std::vector<std::int32_t> wi;
        for (double x : w)
            wi.push_back(std::int32_t(x * 8));
        const std::vector<double> wid = as_doubles(wi);
        auto dw = test::device_array<double, S>(test::q(), w);
        auto dwf = test::device_array<float, S>(test::q(), wf);
        auto dwi = test::device_array<std::int32_t, S>(test::q(), wi);
        const std::vector<T> e = edges_for<T>();
        auto de = test::device_array<T, S>(test::q(), e);
        for (const auto& vc : views_of<T, S>(sample<T>(240, 12))) {
            INFO(vc.name << " " << S::name);
            const auto x = test::host_vector(vc.dev);
            // The weights as a view of the same layout as the values.
            auto wv =
                vc.dev.shape().size() == 1 ? dw(ca::range(0, vc.dev.size())) : dw.reshape({20, 12});
            const std::vector<double> wvh = test::host_vector(wv);
            auto h = ca::histogram(vc.dev, de, wv);
            static_assert(std::is_same_v<decltype(h.counts), ca::cl_array<double, S>>);
            CHECK(mismatches(h.counts, ref_histogram(x, e, &wvh)) == 0);
            // float32 weights: float32 sums; integer weights: float64 sums.
            auto hf = ca::histogram(vc.dev.ravel(), de, dwf(ca::range(0, vc.dev.size())));
            static_assert(std::is_same_v<decltype(hf.counts), ca::cl_array<float, S>>);
            const std::vector<double> wfh(wf.begin(), wf.begin() + long(vc.dev.size()));
            CHECK(mismatches(hf.counts, ref_histogram(x, e, &wfh)) == 0);
            auto hi = ca::histogram(vc.dev.ravel(), de, dwi(ca::range(0, vc.dev.size())));
            static_assert(std::is_same_v<decltype(hi.counts), ca::cl_array<double, S>>);
            const std::vector<double> wih(wid.begin(), wid.begin() + long(vc.dev.size()));
            CHECK(mismatches(hi.counts, ref_histogram(x, e, &wih)) == 0);

            // density, unweighted and weighted
            auto d = ca::histogram(vc.dev, de, ca::density);
            static_assert(std::is_same_v<decltype(d.counts), ca::cl_array<double, S>>);
            CHECK(mismatches(d.counts, ref_density(ref_histogram(x, e), ref_widths(e))) == 0);
            auto dwd = ca::histogram(vc.dev, de, wv, ca::density);
            CHECK(mismatches(dwd.counts, ref_density(ref_histogram(x, e, &wvh), ref_widths(e))) ==
                  0);

            // Equal-width bins: the same edges as the unweighted histogram, the sums and the
            // density over them.
            using E = ca::histogram_edge_t<T>;
            for (std::size_t bins : {1ul, 7ul}) {
                INFO("bins " << bins);
                auto u = ca::histogram(vc.dev, bins, {-2.0, 18.0});
                const std::vector<E> ue = test::host_vector(u.edges);
                auto uw = ca::histogram(vc.dev, bins, {-2.0, 18.0}, wv);
                CHECK(test::host_vector(uw.edges) == ue);
                CHECK(mismatches(uw.counts, ref_histogram(x, ue, &wvh)) == 0);
                auto ud = ca::histogram(vc.dev, bins, {-2.0, 18.0}, ca::density);
                CHECK(mismatches(ud.counts, ref_density(ref_histogram(x, ue), ref_widths(ue))) ==
                      0);
                auto uwd = ca::histogram(vc.dev, bins, {-2.0, 18.0}, wv, ca::density);
                CHECK(mismatches(uwd.counts,
                                 ref_density(ref_histogram(x, ue, &wvh), ref_widths(ue))) == 0);
            }
        }
    });
}

TEST_CASE("histogram: float16 weights give float16 sums, rounded once", "[histogram]") {
    if (!test::dtype_available<double>()) return;
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        const std::vector<float> v = sample<float>(240, 51);
        std::mt19937 rng(52);
        std::vector<ca::half> w(v.size());
        std::vector<double> wd(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            w[i] = ca::half(float(rng() % 4000) / 16.0f - 20.0f);
            wd[i] = double(float(w[i]));
        }
        const std::vector<float> e = {-1.0f, 0.5f, 3.0f, 11.0f, 21.0f};
        auto h = ca::histogram(test::device_array<float, S>(test::q(), v),
                               test::device_array<float, S>(test::q(), e),
                               test::device_array<ca::half, S>(test::q(), w));
        static_assert(std::is_same_v<decltype(h.counts), ca::cl_array<ca::half, S>>);
        std::vector<double> want = ref_histogram(v, e, &wd);
        for (auto& x : want)
            x = double(float(ca::half(x))); // the exact sum rounded to float16 once
        CHECK(mismatches(h.counts, want) == 0);
    });
}

TEST_CASE("histogram: int64 beyond 2^53 compares exactly with int64 edges", "[histogram]") {
    if (!test::dtype_available<double>()) return;
    const std::int64_t big = std::int64_t(1) << 60;
    std::vector<std::int64_t> v;
    for (std::int64_t d = -3; d <= 3; ++d)
        for (int r = 0; r < 5; ++r)
            v.push_back(big + d);
    v.push_back(std::numeric_limits<std::int64_t>::min());
    v.push_back(std::numeric_limits<std::int64_t>::max());
    const std::vector<std::int64_t> e = {big - 2, big, big + 1, big + 2};
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        auto dv = test::device_array<std::int64_t, S>(test::q(), v);
        auto h = ca::histogram(dv, test::device_array<std::int64_t, S>(test::q(), e));
        const auto want = ref_histogram(v, e);
        CHECK(mismatches(h.counts, want) == 0);
        // float64 edges: compared in float64, as NumPy (every value near 2^60 equals 2^60)
        const std::vector<double> ed = {double(big), double(big) * 2};
        auto hd = ca::histogram(dv, test::device_array<double, S>(test::q(), ed));
        CHECK(mismatches(hd.counts, ref_histogram(v, ed)) == 0);
        // digitize in int64 as well
        const auto got =
            test::host_vector(ca::digitize(dv, test::device_array<std::int64_t, S>(test::q(), e)));
        for (std::size_t i = 0; i < v.size(); ++i) {
            std::int64_t want_i = 0;
            for (std::int64_t b : e)
                want_i += b <= v[i];
            CHECK(got[i] == want_i);
        }
    });
}

TEST_CASE("histogram: more bins than the local sub-histograms hold", "[histogram]") {
    if (!test::dtype_available<double>()) return;
    // 5000 bins: past the privatised counts (4096) and sums (2048), global atomics.
    std::vector<double> e(5001);
    for (std::size_t i = 0; i < e.size(); ++i)
        e[i] = double(i) / 100;
    std::mt19937 rng(3);
    std::vector<float> v(20000);
    for (auto& x : v)
        x = float(rng() % 5200) / 100.0f;
    const std::vector<double> w = dyadic_weights(v.size(), 4);
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        auto dv = test::device_array<float, S>(test::q(), v);
        auto de = test::device_array<double, S>(test::q(), e);
        CHECK(mismatches(ca::histogram(dv, de).counts, ref_histogram(v, e)) == 0);
        CHECK(mismatches(ca::histogram(dv, de, test::device_array<double, S>(test::q(), w)).counts,
                         ref_histogram(v, e, &w)) == 0);
        // histogram2d of 80 x 80 bins (6400): global counts and sums too
        std::vector<double> e80(81);
        for (std::size_t i = 0; i < e80.size(); ++i)
            e80[i] = double(i) * 0.65;
        auto d80 = test::device_array<double, S>(test::q(), e80);
        std::vector<float> y(v.rbegin(), v.rend());
        auto dy = test::device_array<float, S>(test::q(), y);
        auto g = ca::histogram2d(dv, dy, d80, d80);
        auto gw = ca::histogram2d(dv, dy, d80, d80, test::device_array<double, S>(test::q(), w));
        std::vector<double> want(80 * 80, 0.0), want_w(80 * 80, 0.0);
        for (std::size_t i = 0; i < v.size(); ++i) {
            const long bx = ref_bin(double(v[i]), e80), by = ref_bin(double(y[i]), e80);
            if (bx < 0 || by < 0) continue;
            want[std::size_t(bx * 80 + by)] += 1;
            want_w[std::size_t(bx * 80 + by)] += w[i];
        }
        CHECK(mismatches(g.counts, want) == 0);
        CHECK(mismatches(gw.counts, want_w) == 0);
    });
}

TEST_CASE("histogram: empty input, NaN, infinities and values on the edges", "[histogram]") {
    if (!test::dtype_available<double>()) return;
    const double nan = std::numeric_limits<double>::quiet_NaN(),
                 inf = std::numeric_limits<double>::infinity();
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        const std::vector<double> e = {-inf, 0.0, 1.0, inf};
        auto de = test::device_array<double, S>(test::q(), e);
        const std::vector<double> v = {nan, -inf, inf, 0.0, 1.0, -0.0, 0.5, 1e300, nan};
        auto dv = test::device_array<double, S>(test::q(), v);
        CHECK(mismatches(ca::histogram(dv, de).counts, ref_histogram(v, e)) == 0);
        // empty input: zero counts, NaN densities (0 / 0), as NumPy
        auto empty = ca::empty<double, S>(test::q(), {0});
        CHECK(mismatches(ca::histogram(empty, de).counts, {0, 0, 0}) == 0);
        CHECK(mismatches(ca::histogram(empty, de, ca::density).counts, {nan, nan, nan}) == 0);
        CHECK(mismatches(ca::histogram(empty, 4, std::nullopt, ca::density).counts,
                         {nan, nan, nan, nan}) == 0);
        CHECK(mismatches(ca::histogram2d(empty, empty, 3).counts, std::vector<double>(9, 0.0)) ==
              0);
        CHECK(ca::digitize(empty, de).size() == 0);
        // one edge: no bins, as NumPy
        auto h = ca::histogram(dv, test::device_array<double, S>(test::q(), {1.0}));
        CHECK(h.counts.size() == 0);
        CHECK(h.edges.size() == 1);
        auto one = test::device_array<double, S>(test::q(), {1.0});
        auto wf = test::device_array<float, S>(test::q(), std::vector<float>(v.size(), 1.0f));
        CHECK(ca::histogram(dv, one, wf).counts.size() == 0);
        CHECK(ca::histogram(dv, one, wf, ca::density).counts.size() == 0);
        auto g = ca::histogram2d(dv, dv, one, de);
        CHECK(g.counts.shape() == ca::shape_type{0, 3});
        CHECK(g.yedges.size() == 4);
    });
}

// ---- histogram2d

namespace {
// NumPy's histogram2d of (x, y) over the edges ex, ey: counts, or sums of w, row-major (nx, ny).
template <class TX, class TY, class EX, class EY>
std::vector<double> ref_histogram2d(const std::vector<TX>& x, const std::vector<TY>& y,
                                    const std::vector<EX>& ex, const std::vector<EY>& ey,
                                    const std::vector<double>* w = nullptr) {
    using T0 = ca::promote_t<TX, TY>;
    using CX = cmp_t<T0, EX>;
    using CY = cmp_t<T0, EY>;
    const auto cx = converted<CX>(ex);
    const auto cy = converted<CY>(ey);
    const std::size_t ny = ey.size() - 1;
    std::vector<double> out((ex.size() - 1) * ny, 0.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const long bx = ref_bin(to<CX>(to<T0>(x[i])), cx);
        const long by = ref_bin(to<CY>(to<T0>(y[i])), cy);
        if (bx >= 0 && by >= 0) out[std::size_t(bx) * ny + std::size_t(by)] += w ? (*w)[i] : 1.0;
    }
    return out;
}
std::vector<double> ref_density2d(const std::vector<double>& n, const std::vector<double>& wx,
                                  const std::vector<double>& wy) {
    double total = 0;
    for (double v : n)
        total += v;
    std::vector<double> d(n.size());
    for (std::size_t i = 0; i < wx.size(); ++i)
        for (std::size_t j = 0; j < wy.size(); ++j)
            d[i * wy.size() + j] = n[i * wy.size() + j] / wx[i] / wy[j] / total;
    return d;
}
template <class T> double lowest(const std::vector<T>& v) {
    double m = to<double>(v[0]);
    for (const T& x : v)
        m = std::min(m, to<double>(x));
    return m;
}
template <class T> double highest(const std::vector<T>& v) {
    double m = to<double>(v[0]);
    for (const T& x : v)
        m = std::max(m, to<double>(x));
    return m;
}
template <class T> std::vector<T> finite_sample(std::size_t n, unsigned seed) {
    std::vector<T> v = sample<T>(n, seed);
    for (auto& x : v)
        if (!std::isfinite(to<double>(x))) x = T(3);
    return v;
}
} // namespace

using histogram2d_pairs =
    std::tuple<std::pair<std::int64_t, std::int64_t>, std::pair<float, float>,
               std::pair<std::int8_t, float>, std::pair<double, std::int32_t>,
               std::pair<std::uint64_t, std::int64_t>, std::pair<std::uint8_t, std::int16_t>>;

TEMPLATE_LIST_TEST_CASE("histogram2d: NumPy's bins per axis, weights, density, views",
                        "[histogram]", histogram2d_pairs) {
    using TX = typename TestType::first_type;
    using TY = typename TestType::second_type;
    if (!test::dtype_available<double>()) return;
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        const auto xs = views_of<TX, S>(finite_sample<TX>(240, 21));
        const auto ys = views_of<TY, S>(finite_sample<TY>(240, 22));
        auto dw = test::device_array<double, S>(test::q(), dyadic_weights(240, 23));
        for (std::size_t k = 0; k < xs.size(); ++k) {
            const auto& xv = xs[k];
            const auto& yv = ys[k];
            INFO(xv.name << " " << S::name);
            const auto& x = xv.host;
            const auto& y = yv.host;
            auto wv =
                xv.dev.shape().size() == 1 ? dw(ca::range(0, xv.dev.size())) : dw.reshape({20, 12});
            const std::vector<double> w = test::host_vector(wv);

            // Equal-width bins over each axis's extremes, {nx, ny}: NumPy's linspace in the
            // edge type (float32 where x and y promote to float32).
            using E = ca::histogram_edge_t<ca::promote_t<TX, TY>>;
            auto g = ca::histogram2d(xv.dev, yv.dev, {5, 3});
            static_assert(std::is_same_v<decltype(g.xedges), ca::cl_array<E, S>>);
            double xl = lowest(x), xh = highest(x), yl = lowest(y), yh = highest(y);
            const auto ex = ref_linspace<E>(xl, xh, 5), ey = ref_linspace<E>(yl, yh, 3);
            CHECK(test::host_vector(g.xedges) == ex);
            CHECK(test::host_vector(g.yedges) == ey);
            REQUIRE(g.counts.shape() == ca::shape_type{5, 3});
            CHECK(mismatches(g.counts, ref_histogram2d(x, y, ex, ey)) == 0);
            // every value counted: the last edges are the maxima, in the last bins
            double total = 0;
            for (double c : test::host_vector(g.counts))
                total += c;
            CHECK(total == double(x.size()));

            // A range per axis: float64 edges; weights and density.
            const ca::histogram2d_range r{{0.0, 8.0}, {-1.0, 4.0}};
            auto gr = ca::histogram2d(xv.dev, yv.dev, 4, r, wv);
            static_assert(std::is_same_v<decltype(gr.yedges), ca::cl_array<double, S>>);
            const auto rx = ref_linspace<double>(0.0, 8.0, 4), ry = ref_linspace<double>(-1, 4, 4);
            CHECK(test::host_vector(gr.xedges) == rx);
            CHECK(mismatches(gr.counts, ref_histogram2d(x, y, rx, ry, &w)) == 0);
            auto gd = ca::histogram2d(xv.dev, yv.dev, 4, r, ca::density);
            CHECK(mismatches(gd.counts, ref_density2d(ref_histogram2d(x, y, rx, ry), ref_widths(rx),
                                                      ref_widths(ry))) == 0);

            // Explicit edges of the values' dtypes (ties included).
            const std::vector<TX> bx = edges_for<TX>();
            const std::vector<TY> by = {TY(1), TY(3), TY(3), TY(6), TY(12)};
            auto dbx = test::device_array<TX, S>(test::q(), bx);
            auto dby = test::device_array<TY, S>(test::q(), by);
            auto ge = ca::histogram2d(xv.dev, yv.dev, dbx, dby);
            static_assert(std::is_same_v<decltype(ge.xedges), ca::cl_array<TX, S>>);
            CHECK(mismatches(ge.counts, ref_histogram2d(x, y, bx, by)) == 0);
            CHECK(test::host_vector(ge.yedges) == by);
            auto gwd = ca::histogram2d(xv.dev, yv.dev, dbx, dby, wv, ca::density);
            CHECK(mismatches(gwd.counts, ref_density2d(ref_histogram2d(x, y, bx, by, &w),
                                                       ref_widths(bx), ref_widths(by))) == 0);
        }
    });
}

TEST_CASE("histogram2d: NaN and infinities outside, equal extremes widened", "[histogram]") {
    if (!test::dtype_available<double>()) return;
    const double nan = std::numeric_limits<double>::quiet_NaN(),
                 inf = std::numeric_limits<double>::infinity();
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        const std::vector<double> x = {0.0, 1.0, nan, 2.0, inf, 1.0};
        const std::vector<double> y = {5.0, 5.0, 5.0, 5.0, 5.0, 5.0};
        auto dx = test::device_array<double, S>(test::q(), x);
        auto dy = test::device_array<double, S>(test::q(), y);
        // NaN in the data makes the range undetectable (NumPy: ValueError)
        CHECK_THROWS_AS(ca::histogram2d(dx, dy, 2), ca::usage_error);
        const ca::histogram2d_range r{{0.0, 2.0}, {0.0, 10.0}};
        const auto rx = ref_linspace<double>(0, 2, 2), ry = ref_linspace<double>(0, 10, 2);
        CHECK(mismatches(ca::histogram2d(dx, dy, 2, r).counts, ref_histogram2d(x, y, rx, ry)) == 0);
        // all y equal: the y range is (5 - 0.5, 5 + 0.5)
        auto g = ca::histogram2d(dx(ca::range(0, 2)), dy(ca::range(0, 2)), 2);
        CHECK(test::host_vector(g.yedges) == ref_linspace<double>(4.5, 5.5, 2));
    });
}

// ---- digitize

namespace {
template <class C> bool np_less(C a, C b) {
    return a < b || (b != b && a == a);
}
template <class T, class E>
std::vector<std::int64_t> ref_digitize(const std::vector<T>& x, const std::vector<E>& bins,
                                       bool right) {
    using C = cmp_t<T, E>;
    const auto cb = converted<C>(bins);
    bool decreasing = false;
    for (std::size_t i = 1; i < cb.size(); ++i)
        if (cb[i] != cb[0]) {
            decreasing = cb[i] < cb[0];
            break;
        }
    std::vector<std::int64_t> out;
    for (const T& xv : x) {
        const C c = to<C>(xv);
        std::int64_t k = 0;
        for (C b : cb)
            // increasing: bins[i-1] <= x < bins[i] (right: bins[i-1] < x <= bins[i]), so i counts
            // the bins <= x (< x); decreasing: the bins > x (>= x)
            k += decreasing ? (right ? !np_less(b, c) : np_less(c, b))
                            : (right ? np_less(b, c) : !np_less(c, b));
        out.push_back(k);
    }
    return out;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("digitize: increasing and decreasing bins, right, views", "[histogram]",
                        histogram_types) {
    using T = TestType;
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        for (const auto& vc : views_of<T, S>(sample<T>(240, 31))) {
            INFO(vc.name << " " << S::name);
            const std::vector<T> inc = edges_for<T>();
            const std::vector<T> dec(inc.rbegin(), inc.rend());
            const std::vector<T> single = {T(4)};
            const std::vector<T> flat = {T(3), T(3), T(3)};
            for (const auto* b : {&inc, &dec, &single, &flat})
                for (bool right : {false, true}) {
                    INFO("bins " << b->size() << (b == &dec ? " decreasing" : "") << " right "
                                 << right);
                    auto got = ca::digitize(vc.dev, test::device_array<T, S>(test::q(), *b), right);
                    static_assert(std::is_same_v<decltype(got), ca::cl_array<std::int64_t, S>>);
                    CHECK(got.shape() == vc.dev.shape());
                    CHECK(test::host_vector(got) == ref_digitize(vc.host, *b, right));
                }
            if (test::dtype_available<double>()) {
                // float64 bins (mixed dtypes compare in the promotion), decreasing too
                const std::vector<double> bd = {7.5, 3.0, 2.5, -0.5};
                CHECK(test::host_vector(
                          ca::digitize(vc.dev, test::device_array<double, S>(test::q(), bd))) ==
                      ref_digitize(vc.host, bd, false));
            }
        }
        // empty bins: zeros, as NumPy
        auto x = test::device_array<T, S>(test::q(), sample<T>(10, 1));
        auto none = ca::empty<T, S>(test::q(), {0});
        CHECK(test::host_vector(ca::digitize(x, none)) == std::vector<std::int64_t>(10, 0));
    });
}

TEST_CASE("digitize: NaN and infinities, trailing NaN bins", "[histogram]") {
    const float nan = std::numeric_limits<float>::quiet_NaN(),
                inf = std::numeric_limits<float>::infinity();
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        const std::vector<float> x = {nan, -inf, inf, 1.0f, 2.0f, 2.5f, -0.0f, 0.0f};
        auto dx = test::device_array<float, S>(test::q(), x);
        for (const std::vector<float>& b :
             {std::vector<float>{0.0f, 1.0f, 2.0f, inf}, std::vector<float>{inf, 2.0f, 0.0f},
              std::vector<float>{1.0f, 2.0f, nan}, std::vector<float>{-inf, 0.0f, nan, nan}})
            for (bool right : {false, true}) {
                INFO(b.size() << " bins, right " << right);
                CHECK(test::host_vector(ca::digitize(dx, test::device_array<float, S>(test::q(), b),
                                                     right)) == ref_digitize(x, b, right));
            }
        // NaN before a number: unsorted in NumPy's order
        CHECK_THROWS_AS(
            ca::digitize(dx, test::device_array<float, S>(test::q(), {3.0f, 2.0f, nan})),
            ca::usage_error);
        CHECK_THROWS_AS(
            ca::digitize(dx, test::device_array<float, S>(test::q(), {1.0f, nan, 2.0f})),
            ca::usage_error);
    });
}

// ---- expressions and errors

TEST_CASE("histogram: expressions as values, edges and weights", "[histogram]") {
    if (!test::dtype_available<double>()) return;
    auto x = test::device_array<std::int32_t, ca::buffer>(test::q(), sample<std::int32_t>(240, 41));
    auto y = test::device_array<std::int32_t, ca::buffer>(test::q(), sample<std::int32_t>(240, 42));
    auto w = test::device_array<double, ca::buffer>(test::q(), dyadic_weights(240, 43));
    auto e = test::device_array<std::int32_t, ca::buffer>(test::q(), edges_for<std::int32_t>());
    const auto same = [](const auto& a, const auto& b) {
        CHECK(test::host_vector(a) == test::host_vector(b));
    };
    same(ca::histogram(x * 2, e + 1).counts,
         ca::histogram(ca::eval(x * 2), ca::eval(e + 1)).counts);
    same(ca::histogram(x, e, w * 2).counts, ca::histogram(x, e, ca::eval(w * 2)).counts);
    same(ca::histogram(x - 1, 5, {0.0, 10.0}, w + 1, ca::density).counts,
         ca::histogram(ca::eval(x - 1), 5, {0.0, 10.0}, ca::eval(w + 1), ca::density).counts);
    same(ca::histogram2d(x + y, y, 3).counts, ca::histogram2d(ca::eval(x + y), y, 3).counts);
    same(ca::histogram2d(x, y * 1, e, e - 1, w).counts,
         ca::histogram2d(x, ca::eval(y * 1), e, ca::eval(e - 1), w).counts);
    same(ca::digitize(x * 3, e), ca::digitize(ca::eval(x * 3), e));
    same(ca::digitize(x, e * -1, true), ca::digitize(x, ca::eval(e * -1), true));
}

TEST_CASE("histogram: bad input gives typed errors naming the problem", "[histogram]") {
    if (!test::dtype_available<double>()) return;
    auto d = [](std::vector<double> v) {
        return test::device_array<double, ca::buffer>(test::q(), v);
    };
    auto x = d({1.0, 2.0, 3.0});
    CHECK_THROWS_AS(ca::histogram(x, d({0.0, 2.0, 1.0})), ca::usage_error);
    CHECK_THROWS_WITH(ca::histogram(x, d({0.0, 2.0, 1.0})),
                      "histogram: bins must increase monotonically, when an array: bins[1] = 2 > "
                      "bins[2] = 1");
    CHECK_THROWS_WITH(ca::histogram(x, ca::empty<double, ca::buffer>(test::q(), {0})),
                      Contains("histogram: bins is empty"));
    CHECK_THROWS_WITH(ca::histogram(x, d({0.0, std::nan(""), 1.0})), Contains("bins[1] is NaN"));
    CHECK_THROWS_AS(ca::histogram(x, ca::zeros<double, ca::buffer>(test::q(), {2, 2})),
                    ca::shape_error);
    CHECK_THROWS_WITH(ca::histogram(x, d({0.0, 1.0}), d({1.0, 2.0})),
                      Contains("histogram: weights should have the same shape"));
    CHECK_THROWS_AS(ca::histogram(x, 3, std::nullopt, d({1.0})), ca::shape_error);
    auto b = test::device_array<bool, ca::buffer>(test::q(), {true, false});
    CHECK_THROWS_WITH(ca::histogram(b, d({0.0, 1.0})), Contains("histogram: bool input"));
    CHECK_THROWS_AS(ca::histogram(x, b), ca::dtype_error);
    CHECK_THROWS_AS(ca::histogram(x, 0, std::nullopt, ca::density), ca::usage_error);
    CHECK_THROWS_AS(ca::histogram(x, 3, {2.0, 1.0}, ca::density), ca::usage_error);
    // histogram2d
    CHECK_THROWS_WITH(ca::histogram2d(x, d({1.0, 2.0})), Contains("histogram2d: x and y"));
    CHECK_THROWS_AS(ca::histogram2d(x, d({1.0, 2.0})), ca::shape_error);
    CHECK_THROWS_AS(ca::histogram2d(x, x, x, d({1.0, 0.0})), ca::usage_error);
    CHECK_THROWS_WITH(ca::histogram2d(x, x, x, d({1.0, 0.0})), Contains("ybins"));
    CHECK_THROWS_AS(ca::histogram2d(x, x, 2, d({1.0})), ca::shape_error);
    CHECK_THROWS_AS(ca::histogram2d(x, x, {0, 2}), ca::usage_error);
    CHECK_THROWS_AS(ca::histogram2d(b, b), ca::dtype_error);
    // digitize
    CHECK_THROWS_WITH(ca::digitize(x, d({1.0, 3.0, 2.0})),
                      Contains("digitize: bins must be monotonically increasing or decreasing"));
    CHECK_THROWS_AS(ca::digitize(x, ca::zeros<double, ca::buffer>(test::q(), {2, 2})),
                    ca::shape_error);
    // unbound arrays
    CHECK_THROWS_AS(ca::histogram(ca::cl_array<double, ca::buffer>(), x), ca::usage_error);
    CHECK_THROWS_AS(ca::digitize(x, ca::cl_array<double, ca::buffer>()), ca::usage_error);
}
