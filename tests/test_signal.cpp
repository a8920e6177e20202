// Signal and interpolation against host references written here (plain loops of NumPy's
// definitions): convolve and correlate (every mode, both input orders, the direct and the FFT
// path, complex conjugation), interp (left/right/period, NaN), polyval, gradient (edge orders,
// axes), trapezoid (dx and x) and cumulative_sum/cumulative_prod with include_initial, over
// dtypes, storage policies, views, expressions, empty inputs and the errors.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

namespace {

template <class T> std::complex<double> as_c(T v) {
    if constexpr (ca::is_complex_v<T>)
        return {static_cast<double>(v.real()), static_cast<double>(v.imag())};
    else
        return {static_cast<double>(v), 0.0};
}
template <class T> T conj_of(T v) {
    if constexpr (ca::is_complex_v<T>)
        return std::conj(v);
    else
        return v;
}

template <class T> std::vector<T> values(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        T x;
        const int r = static_cast<int>(rng() % 19) - 9;
        if constexpr (ca::is_complex_v<T>)
            x = T(static_cast<typename T::value_type>(r),
                  static_cast<typename T::value_type>(static_cast<int>(rng() % 7) - 3));
        else if constexpr (std::is_same_v<T, bool>)
            x = r > 0;
        else if constexpr (std::is_unsigned_v<T>)
            x = static_cast<T>(r + 9);
        else
            x = static_cast<T>(r);
        v[i] = x;
    }
    return v;
}

template <class T, class S> ca::cl_array<T, S> upload(const std::vector<T>& h) {
    return test::device_array<T, S>(test::q(), h);
}

// NumPy's full correlation sum_j a[k - (m - 1) + j] w[j], in R (integers wrap there).
template <class R, class T>
std::vector<R> host_full(const std::vector<T>& a, const std::vector<T>& w) {
    const std::size_t n = a.size(), m = w.size();
    std::vector<R> c(n + m - 1, R(0));
    for (std::size_t k = 0; k < c.size(); ++k) {
        R s(0);
        for (std::size_t j = 0; j < m; ++j) {
            const std::ptrdiff_t i = std::ptrdiff_t(k) - std::ptrdiff_t(m - 1) + std::ptrdiff_t(j);
            if (i >= 0 && i < std::ptrdiff_t(n)) {
                if constexpr (std::is_same_v<R, bool>)
                    s = s || (a[std::size_t(i)] && w[j]);
                else if constexpr (std::is_integral_v<R>) // wraps as NumPy's
                    s = static_cast<R>(static_cast<std::uint64_t>(s) +
                                       static_cast<std::uint64_t>(a[std::size_t(i)]) *
                                           static_cast<std::uint64_t>(w[j]));
                else
                    s = static_cast<R>(s + a[std::size_t(i)] * w[j]);
            }
        }
        c[k] = s;
    }
    return c;
}
// The part of a full result NumPy's mode gives (swapped: the first input was the shorter and
// NumPy's correlate computed it the other way round).
template <class R>
std::vector<R> host_part(const std::vector<R>& full, std::size_t n, std::size_t m,
                         const std::string& mode, bool swapped) {
    const std::size_t lo = std::min(n, m), hi = std::max(n, m);
    if (mode == "full") return full;
    const std::size_t start = mode == "valid" ? lo - 1 : swapped ? lo / 2 : (lo - 1) - lo / 2;
    const std::size_t count = mode == "valid" ? hi - lo + 1 : hi;
    return std::vector<R>(full.begin() + std::ptrdiff_t(start),
                          full.begin() + std::ptrdiff_t(start + count));
}

template <class G, class R>
std::size_t mismatches(const std::vector<G>& got, const std::vector<R>& want, double tol) {
    if (got.size() != want.size()) return std::max<std::size_t>(1, got.size() + want.size());
    std::size_t bad = 0;
    double scale = 1;
    for (const R& w : want)
        scale = std::max(scale, std::abs(as_c(w)));
    for (std::size_t i = 0; i < got.size(); ++i) {
        const std::complex<double> g = as_c(got[i]), w = as_c(want[i]);
        if (std::isnan(w.real())) {
            if (!std::isnan(g.real())) ++bad;
        } else if (std::isinf(w.real())) {
            if (g.real() != w.real()) ++bad;
        } else if (std::abs(g - w) > tol * scale) {
            ++bad;
        }
    }
    return bad;
}
template <class T> double tol() {
    if constexpr (std::is_same_v<T, ca::half>)
        return 2e-3; // the device sums in float, the host in half
    else if constexpr (std::is_integral_v<T>)
        return 0;
    else if constexpr (std::is_same_v<ca::real_of_t<T>, float>)
        return 2e-5;
    else
        return 1e-12;
}

using conv_matrix =
    std::tuple<test::cfg<std::int32_t, ca::svm_coarse>, test::cfg<std::int8_t, ca::buffer>,
               test::cfg<bool, ca::svm_fine>, test::cfg<float, ca::svm_fine>,
               test::cfg<double, ca::buffer>, test::cfg<std::complex<float>, ca::svm_coarse>,
               test::cfg<std::complex<double>, ca::buffer>, test::cfg<ca::half, ca::buffer>,
               test::cfg<std::uint64_t, ca::svm_coarse>, test::cfg<std::int16_t, ca::svm_fine>>;

template <class T, class S>
void check_convolve(const ca::cl_array<T, S>& a, const ca::cl_array<T, S>& v) {
    const std::vector<T> ha = test::host_vector(a), hv = test::host_vector(v);
    const std::size_t n = ha.size(), m = hv.size();
    INFO("n " << n << " m " << m);
    std::vector<T> rv(hv.rbegin(), hv.rend()), cv;
    for (T x : hv)
        cv.push_back(conj_of(x));
    // convolve: NumPy swaps to make the first input the longer one.
    const std::vector<T> conv =
        n >= m ? host_full<T>(ha, rv) : host_full<T>(hv, std::vector<T>(ha.rbegin(), ha.rend()));
    const std::vector<T> corr = host_full<T>(ha, cv);
    for (const char* mode : {"full", "same", "valid"}) {
        INFO("mode " << mode);
        CHECK(mismatches(test::host_vector(ca::convolve(a, v, mode)),
                         host_part(conv, n, m, mode, false), tol<T>()) == 0);
        CHECK(mismatches(test::host_vector(ca::correlate(a, v, mode)),
                         host_part(corr, n, m, mode, n < m), tol<T>()) == 0);
    }
}

} // namespace

TEMPLATE_LIST_TEST_CASE("signal: convolve and correlate, direct and FFT paths", "[signal]",
                        conv_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    if constexpr (std::is_same_v<T, std::complex<double>>)
        if (!test::dtype_available<double>()) return;
    // Short kernels (direct), a kernel past the FFT crossover, either order, lengths 1.
    const std::size_t cross = ca::detail::fft_crossover;
    for (auto [n, m] : {std::pair<std::size_t, std::size_t>{1, 1},
                        {10, 3},
                        {4, 9},
                        {6, 6},
                        {300, cross + 7},
                        {cross + 1, 400}}) {
        check_convolve(upload<T, S>(values<T>(n, unsigned(n))),
                       upload<T, S>(values<T>(m, unsigned(m) + 100)));
    }
    // Views: a reversed and a strided view.
    const auto a = upload<T, S>(values<T>(40, 1));
    check_convolve(ca::cl_array<T, S>(a(ca::range(ca::none, ca::none, -1))),
                   ca::cl_array<T, S>(a(ca::range(1, 12, 2))));
}

TEST_CASE("signal: convolve defaults, promotion, extremes, expressions and errors", "[signal]") {
    using S = ca::svm_coarse;
    if (!test::storage_available<S>()) return;
    const auto a = upload<std::int64_t, S>({std::numeric_limits<std::int64_t>::max(), 1, -1,
                                            std::numeric_limits<std::int64_t>::min()});
    const auto v = upload<std::int64_t, S>({2, -3});
    // Wrapping int64 products, exactly as NumPy's.
    const std::vector<std::int64_t> full =
        host_full<std::int64_t>(test::host_vector(a), std::vector<std::int64_t>{-3, 2});
    CHECK(test::host_vector(ca::convolve(a, v)) == full);
    // correlate's default is valid, convolve's full.
    CHECK(ca::correlate(a, v).size() == 3);
    CHECK(ca::convolve(a, v).size() == 5);
    // Promotion: int32 with float -> float64; expressions.
    const auto f = upload<float, S>({0.5f, 1.5f, -2.0f});
    const auto i = upload<std::int32_t, S>({1, 2, 3, 4});
    static_assert(std::is_same_v<typename decltype(ca::convolve(i, f))::value_type, double>);
    const std::vector<double> want =
        host_full<double>(std::vector<double>{1, 2, 3, 4}, std::vector<double>{-2.0, 1.5, 0.5});
    CHECK(mismatches(test::host_vector(ca::convolve(i, f)), want, 1e-12) == 0);
    const std::vector<double> want2 =
        host_full<double>(std::vector<double>{2, 4, 6, 8}, std::vector<double>{-2.0, 1.5, 0.5});
    CHECK(mismatches(test::host_vector(ca::convolve(i * 2, f)), want2, 1e-12) == 0);
    // NaN propagates through the sum.
    const auto nf = upload<double, S>({1.0, std::nan(""), 2.0});
    const auto one = upload<double, S>({1.0});
    const std::vector<double> nres = test::host_vector(ca::convolve(nf, one));
    CHECK(std::isnan(nres[1]));
    CHECK(nres[2] == 2.0);

    const auto e = ca::cl_array<float, S>(test::q(), ca::shape_type{0});
    CHECK_THROWS_AS(ca::convolve(e, f), ca::shape_error);
    CHECK_THROWS_WITH(ca::correlate(f, e), catch_compat::Contains("v is empty"));
    CHECK_THROWS_AS(ca::convolve(f.reshape({1, 3}), f), ca::shape_error);
    CHECK_THROWS_AS(ca::convolve(f, f, "middle"), ca::usage_error);
}

namespace {
// NumPy's compiled interp of one x over increasing xp.
double host_interp(double x, const std::vector<double>& xp, const std::vector<double>& fp,
                   double left, double right) {
    const std::size_t n = xp.size();
    if (std::isnan(x)) return x;
    if (x < xp[0]) return left;
    if (x > xp[n - 1]) return right;
    if (x == xp[n - 1]) return fp[n - 1];
    std::size_t j = std::size_t(std::upper_bound(xp.begin(), xp.end(), x) - xp.begin()) - 1;
    if (xp[j] == x) return fp[j];
    const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    double r = slope * (x - xp[j]) + fp[j];
    if (std::isnan(r)) {
        r = slope * (x - xp[j + 1]) + fp[j + 1];
        if (std::isnan(r) && fp[j] == fp[j + 1]) r = fp[j];
    }
    return r;
}
} // namespace

TEMPLATE_TEST_CASE("signal: interp", "[signal]", ca::svm_coarse, ca::svm_fine, ca::buffer) {
    using S = TestType;
    if (!test::storage_available<S>() || !test::dtype_available<double>()) return;
    const std::vector<double> xp = {-3, -1, -1, 0.5, 2, 4, 7};
    const std::vector<double> fp = {1, 2, 5, -1, std::numeric_limits<double>::infinity(), 3, 0};
    std::vector<double> x = {-5, -3, -2, -1, 0, 0.5, 1, 2, 3, 4, 6, 7, 8, std::nan(""), 1e300};
    const auto dx = upload<double, S>(x), dxp = upload<double, S>(xp), dfp = upload<double, S>(fp);
    std::vector<double> want, want_lr;
    for (double v : x) {
        want.push_back(host_interp(v, xp, fp, fp.front(), fp.back()));
        want_lr.push_back(host_interp(v, xp, fp, -10, 10));
    }
    CHECK(mismatches(test::host_vector(ca::interp(dx, dxp, dfp)), want, 1e-12) == 0);
    CHECK(mismatches(test::host_vector(ca::interp(dx, dxp, dfp, -10.0, 10.0)), want_lr, 1e-12) ==
          0);
    // Integer and float32 inputs (float64 result), a 2-d x, a reversed view, an expression.
    const auto ix = upload<std::int32_t, S>({-4, -1, 0, 3, 5, 9});
    const auto fxp = upload<float, S>({-3.0f, -1.0f, 0.5f, 2.0f, 4.0f, 7.0f});
    const auto ffp = upload<float, S>({1.0f, 2.0f, -1.0f, 0.25f, 3.0f, 0.0f});
    const std::vector<double> hxp = {-3, -1, 0.5, 2, 4, 7}, hfp = {1, 2, -1, 0.25, 3, 0};
    std::vector<double> wi, wr;
    for (double v : {-4, -1, 0, 3, 5, 9})
        wi.push_back(host_interp(v, hxp, hfp, 1, 0));
    for (double v : {9, 5, 3, 0, -1, -4})
        wr.push_back(host_interp(v + 0.5, hxp, hfp, 1, 0));
    const auto r = ca::interp(ix.reshape({2, 3}), fxp, ffp);
    static_assert(std::is_same_v<typename decltype(r)::value_type, double>);
    CHECK(r.shape() == ca::shape_type{2, 3});
    CHECK(mismatches(test::host_vector(r), wi, 1e-12) == 0);
    const ca::cl_array<std::int32_t, S> rev = ix(ca::range(ca::none, ca::none, -1));
    CHECK(mismatches(test::host_vector(ca::interp(rev + 0.5, fxp, ffp)), wr, 1e-12) == 0);
    // One sample point.
    const auto p1 = upload<double, S>({2.0}), f1 = upload<double, S>({7.0});
    CHECK(test::host_vector(ca::interp(upload<double, S>({1.0, 2.0, 3.0}), p1, f1, 0.0, 9.0)) ==
          std::vector<double>{0.0, 7.0, 9.0});
    // Periodic: NumPy's construction (x and xp modulo the period, xp sorted, ends wrapped).
    const std::vector<double> pxp = {190, -190, 350, -350}, pfp = {5, 10, 3, 4};
    const std::vector<double> px = {-180, -170, -185, 185, -10, -5, 0, 365, 10, 180};
    std::vector<std::pair<double, double>> pts;
    for (std::size_t k = 0; k < pxp.size(); ++k)
        pts.push_back({std::fmod(std::fmod(pxp[k], 360) + 360, 360), pfp[k]});
    std::stable_sort(pts.begin(), pts.end(),
                     [](const auto& p, const auto& q) { return p.first < q.first; });
    std::vector<double> exp_x = {pts.back().first - 360}, exp_f = {pts.back().second};
    for (auto& p : pts) {
        exp_x.push_back(p.first);
        exp_f.push_back(p.second);
    }
    exp_x.push_back(pts.front().first + 360);
    exp_f.push_back(pts.front().second);
    std::vector<double> wp;
    for (double v : px)
        wp.push_back(host_interp(std::fmod(std::fmod(v, 360) + 360, 360), exp_x, exp_f,
                                 exp_f.front(), exp_f.back()));
    CHECK(mismatches(test::host_vector(ca::interp(upload<double, S>(px), upload<double, S>(pxp),
                                                  upload<double, S>(pfp), std::nullopt,
                                                  std::nullopt, -360.0)),
                     wp, 1e-12) == 0);
    // Complex fp: real and imaginary parts interpolated separately (complex128), complex left.
    using C = std::complex<double>;
    std::vector<C> cfp;
    std::vector<double> fim;
    for (std::size_t k = 0; k < fp.size(); ++k) {
        fim.push_back(double(k % 3) - 1.0);
        cfp.push_back(C(fp[k], fim.back()));
    }
    const auto dcfp = upload<C, S>(cfp);
    const auto cr = ca::interp(dx, dxp, dcfp, C(-10.0, 2.0));
    static_assert(std::is_same_v<typename decltype(cr)::value_type, C>);
    std::vector<C> wc;
    for (double v : x)
        wc.push_back(
            C(host_interp(v, xp, fp, -10.0, fp.back()), host_interp(v, xp, fim, 2.0, fim.back())));
    const std::vector<C> gc = test::host_vector(cr);
    REQUIRE(gc.size() == wc.size());
    std::size_t cbad = 0;
    for (std::size_t k = 0; k < wc.size(); ++k)
        for (auto [g, w] :
             {std::pair<double, double>{gc[k].real(), wc[k].real()}, {gc[k].imag(), wc[k].imag()}})
            if (!(g == w || (std::isnan(g) && std::isnan(w)) ||
                  std::abs(g - w) <= 1e-12 * std::abs(w)))
                ++cbad;
    CHECK(cbad == 0);
    const auto cp =
        ca::interp(upload<double, S>(px), upload<double, S>(pxp),
                   ca::astype<C>(upload<double, S>(pfp)), std::nullopt, std::nullopt, -360.0);
    std::vector<double> cpr;
    for (const C& v : test::host_vector(cp)) {
        cpr.push_back(v.real());
        CHECK(v.imag() == 0.0);
    }
    CHECK(mismatches(cpr, wp, 1e-12) == 0);
    // Empty x; errors.
    CHECK(ca::interp(ca::cl_array<double, S>(test::q(), ca::shape_type{0}), dxp, dfp).size() == 0);
    CHECK_THROWS_AS(ca::interp(dx, dxp, p1), ca::shape_error);
    CHECK_THROWS_AS(ca::interp(dx, ca::cl_array<double, S>(test::q(), ca::shape_type{0}),
                               ca::cl_array<double, S>(test::q(), ca::shape_type{0})),
                    ca::shape_error);
    CHECK_THROWS_AS(ca::interp(dx, dxp, dfp, std::nullopt, std::nullopt, 0.0), ca::usage_error);
}

namespace {
using calc_matrix =
    std::tuple<test::cfg<std::int32_t, ca::svm_coarse>, test::cfg<std::uint8_t, ca::buffer>,
               test::cfg<float, ca::svm_fine>, test::cfg<double, ca::buffer>>;
template <class T> using grad_host_t = std::conditional_t<std::is_integral_v<T>, double, T>;
} // namespace

TEMPLATE_LIST_TEST_CASE("signal: polyval, gradient, trapezoid, cumulative_sum", "[signal]",
                        calc_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using G = grad_host_t<T>;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t R = 5, C = 7;
    const std::vector<T> h = values<T>(R * C, 21);
    const auto a = upload<T, S>(h).reshape({R, C});
    const auto at = [&](std::size_t r, std::size_t c) { return static_cast<G>(h[r * C + c]); };

    // polyval: Horner in the promotion of p and x (integers wrap).
    const std::vector<T> hp = values<T>(4, 5);
    const auto p = upload<T, S>(hp);
    std::vector<T> pv;
    for (T x : h) {
        T y(0);
        for (T c : hp)
            y = static_cast<T>(y * x + c);
        pv.push_back(y);
    }
    CHECK(mismatches(test::host_vector(ca::polyval(p, a)), pv, tol<T>()) == 0);
    CHECK(ca::polyval(p, a).shape() == a.shape());
    CHECK(mismatches(test::host_vector(ca::polyval(ca::cl_array<T, S>(test::q(), {0}), a)),
                     std::vector<T>(h.size(), T(0)), 0) == 0);

    // gradient along each axis, both edge orders, a spacing.
    for (int order : {1, 2}) {
        for (std::size_t ax : {0u, 1u}) {
            const double hsp = 0.5;
            const std::size_t n = ax == 0 ? R : C;
            std::vector<G> want(R * C);
            for (std::size_t r = 0; r < R; ++r)
                for (std::size_t c = 0; c < C; ++c) {
                    const auto f = [&](std::size_t k) { return ax == 0 ? at(k, c) : at(r, k); };
                    const std::size_t i = ax == 0 ? r : c;
                    G g;
                    if (i > 0 && i + 1 < n)
                        g = static_cast<G>((f(i + 1) - f(i - 1)) / static_cast<G>(2 * hsp));
                    else if (order == 1)
                        g = i == 0 ? static_cast<G>((f(1) - f(0)) / static_cast<G>(hsp))
                                   : static_cast<G>((f(n - 1) - f(n - 2)) / static_cast<G>(hsp));
                    else
                        g = i == 0 ? static_cast<G>(static_cast<G>(-1.5 / hsp) * f(0) +
                                                    static_cast<G>(2 / hsp) * f(1) +
                                                    static_cast<G>(-0.5 / hsp) * f(2))
                                   : static_cast<G>(static_cast<G>(0.5 / hsp) * f(n - 3) +
                                                    static_cast<G>(-2 / hsp) * f(n - 2) +
                                                    static_cast<G>(1.5 / hsp) * f(n - 1));
                    want[r * C + c] = g;
                }
            INFO("order " << order << " axis " << ax);
            const auto got = ca::gradient(a, std::ptrdiff_t(ax), hsp, order);
            static_assert(std::is_same_v<typename decltype(got)::value_type, G>);
            CHECK(mismatches(test::host_vector(got), want, tol<G>() * 10) == 0);
            // The same through a transposed view: the other axis of the transpose.
            const auto gt = ca::gradient(a.transpose(), std::ptrdiff_t(1 - ax), hsp, order);
            CHECK(test::host_vector(gt) == test::host_vector(got.transpose()));
            if (order == 1 && ax == 1)
                CHECK(mismatches(test::host_vector(ca::gradients(a, hsp)[1]), want,
                                 tol<G>() * 10) == 0);
        }
    }

    // trapezoid along each axis, with dx and with sample points.
    std::vector<double> xs = {0, 0.5, 1.5, 2, 4, 4.5, 7};
    const auto dxs = upload<double, S>(xs);
    for (std::size_t ax : {0u, 1u}) {
        const std::size_t n = ax == 0 ? R : C, other = ax == 0 ? C : R;
        std::vector<double> w_dx, w_x;
        for (std::size_t o = 0; o < other; ++o) {
            double s = 0, t = 0;
            for (std::size_t k = 0; k + 1 < n; ++k) {
                const auto f = [&](std::size_t i) {
                    return static_cast<double>(ax == 0 ? h[i * C + o] : h[o * C + i]);
                };
                const double sum2 = f(k + 1) + f(k); // small values: no uint8 wrap
                s += 0.25 * sum2 / 2.0;
                if (ax == 1) t += (xs[k + 1] - xs[k]) * sum2 / 2.0;
            }
            w_dx.push_back(s);
            w_x.push_back(t);
        }
        INFO("trapezoid axis " << ax);
        CHECK(mismatches(test::host_vector(ca::trapezoid(a, 0.25, std::ptrdiff_t(ax))), w_dx,
                         tol<T>() * 10 + 1e-12) == 0);
        if (ax == 1)
            CHECK(mismatches(test::host_vector(ca::trapezoid(a, dxs)), w_x,
                             tol<T>() * 10 + 1e-12) == 0);
    }
    // A reversed view and an expression, 1-d: a 0-d result.
    const ca::cl_array<T, S> row = a(2, ca::range(ca::none, ca::none, -1));
    double tr = 0;
    for (std::size_t k = 0; k + 1 < C; ++k)
        tr += (double(h[2 * C + C - 1 - k]) + double(h[2 * C + C - 2 - k])) / 2.0;
    CHECK(std::abs(double(ca::trapezoid(row).item()) - tr) <= 1e-4 * std::max(1.0, tr));
    CHECK(ca::trapezoid(row).dimension() == 0);
    CHECK(std::abs(double(ca::trapezoid(row * T(2)).item()) - 2 * tr) <=
          1e-4 * std::max(1.0, 2 * tr));
    CHECK(double(ca::trapezoid(ca::cl_array<T, S>(test::q(), {1})).item()) == 0.0);

    // cumulative_sum / cumulative_prod with include_initial along each axis.
    for (std::size_t ax : {0u, 1u}) {
        const auto cs = ca::cumulative_sum(a, std::ptrdiff_t(ax), true);
        using A = typename decltype(cs)::value_type;
        ca::shape_type want_shape{R, C};
        want_shape[ax] += 1;
        REQUIRE(cs.shape() == want_shape);
        std::vector<A> want(cs.size());
        const std::size_t WC = want_shape[1];
        for (std::size_t r = 0; r < want_shape[0]; ++r)
            for (std::size_t c = 0; c < WC; ++c) {
                A s(0);
                if (ax == 0)
                    for (std::size_t k = 0; k < r; ++k)
                        s = static_cast<A>(s + static_cast<A>(h[k * C + c]));
                else
                    for (std::size_t k = 0; k < c; ++k)
                        s = static_cast<A>(s + static_cast<A>(h[r * C + k]));
                want[r * WC + c] = s;
            }
        CHECK(mismatches(test::host_vector(cs), want, tol<T>() * 10) == 0);
        CHECK(test::host_vector(ca::cumulative_sum(a, std::ptrdiff_t(ax))) ==
              test::host_vector(ca::cumsum(a, std::ptrdiff_t(ax))));
    }
    const auto cp = ca::cumulative_prod(a.ravel()(ca::range(0, 4)), std::nullopt, true);
    using P = typename decltype(cp)::value_type;
    std::vector<P> wp = {P(1)};
    for (std::size_t k = 0; k < 4; ++k)
        wp.push_back(static_cast<P>(wp.back() * static_cast<P>(h[k])));
    CHECK(mismatches(test::host_vector(cp), wp, tol<T>()) == 0);
    CHECK(
        test::host_vector(ca::cumulative_sum(ca::cl_array<T, S>(test::q(), {0}), 0, true)).size() ==
        1);
}

TEST_CASE("signal: gradient, trapezoid and cumulative_sum errors and edges", "[signal]") {
    using S = ca::buffer;
    const auto a = upload<float, S>({1, 2, 4, 7, 11, 16}).reshape({2, 3});
    CHECK_THROWS_AS(ca::gradient(a), ca::shape_error);
    CHECK_THROWS_AS(ca::gradient(a, 0, 1.0, 2), ca::shape_error); // 2 < edge_order + 1
    CHECK_THROWS_WITH(ca::gradient(a, 0, 1.0, 2), catch_compat::Contains("edge_order"));
    CHECK_THROWS_AS(ca::gradient(a, 1, 1.0, 3), ca::usage_error);
    CHECK_THROWS_AS(ca::gradient(a, 2), ca::index_error);
    CHECK(test::host_vector(ca::gradient(a, 0)) == std::vector<float>{6, 9, 12, 6, 9, 12});
    CHECK(test::host_vector(ca::gradient(a * 2.0f, 1)) == std::vector<float>{2, 3, 4, 8, 9, 10});
    CHECK_THROWS_AS(ca::trapezoid(a, upload<float, S>({1, 2})), ca::shape_error);
    CHECK_THROWS_AS(ca::cumulative_sum(a), ca::usage_error);
    CHECK_THROWS_AS(ca::cumulative_sum(a, 2), ca::index_error);
    CHECK(test::host_vector(ca::cumulative_sum(a.ravel() * 2.0f)) ==
          std::vector<float>{2, 6, 14, 28, 50, 82});
}

TEST_CASE("signal: nothing waits on the host", "[signal]") {
    // The input is written behind a user event on another queue: a call that waited on the host
    // would never return (a watchdog opens the gate after 60 s and the test fails). Kernels and
    // FFT plans are built by a first round on zeros (building may block).
    using S = ca::svm_coarse;
    if (!test::storage_available<S>() || !test::dtype_available<double>()) return;
    ca::context& ctx = test::ctx();
    ca::queue other(ctx);
    const std::size_t n = 200;
    const auto k3 = upload<double, S>({0.25, 0.5, 0.25});
    const auto klong = upload<double, S>(values<double>(ca::detail::fft_crossover + 3, 3));
    const auto xp = upload<double, S>({-3.0, 0.0, 3.0});
    const auto run = [&](const ca::cl_array<double, S>& a) {
        return std::vector<ca::cl_array<double, S>>{ca::convolve(a, k3),
                                                    ca::convolve(a, klong),
                                                    ca::correlate(a, k3, "same"),
                                                    ca::interp(a, xp, k3),
                                                    ca::polyval(k3, a),
                                                    ca::gradient(a),
                                                    ca::trapezoid(a),
                                                    ca::cumulative_sum(a, std::nullopt, true)};
    };
    (void)run(ca::zeros<double, S>(test::q(), {n}));
    ca::kernel writer =
        ca::program(ctx, "kernel void w(global double* a) { size_t i = get_global_id(0); "
                         "a[i] = (double)(i % 7) - 3.0; }")
            .kernel("w");
    test::host_wait_gate gate(ctx);
    auto a = ca::empty<double, S>(other, {n});
    writer.launch(other, {n}, {}, {gate.event()}, ca::out(a));
    const auto got = run(a.with_queue(test::q()));
    CHECK(gate.release());
    const auto again = run(a.with_queue(test::q()).copy()); // after the writer, as a reference
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("result " << i);
        CHECK(mismatches(test::host_vector(got[i]), test::host_vector(again[i]), 1e-12) == 0);
    }
}
