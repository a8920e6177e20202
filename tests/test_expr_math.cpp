// Elementwise math on the device against host references computed with <cmath> in the same
// precision: every float function of operators.hpp, the two-argument functions, NaN semantics of
// maximum/minimum vs fmax/fmin, Python-style floor_divide and %, integer ops on several widths,
// logical ops, comparisons, where, classification and astype.
#include "support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "xtensor_headers.hpp"

namespace {

constexpr std::size_t N = 1000;
constexpr long double PI_L = 3.141592653589793238462643383279502884L;

template <class T> xt::xarray<T> uniform(std::size_t n, double lo, double hi, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    xt::xarray<T> a = xt::xarray<T>::from_shape({n});
    for (auto& v : a) v = static_cast<T>(d(rng));
    return a;
}
// Uniform values in [lo, hi], the first ones replaced by the multiples of 1/4 in [lo, hi]
// (integers and half-integers: exact cases of rounding, sinpi, exp, log, ...).
template <class T> xt::xarray<T> domain(std::size_t n, double lo, double hi, unsigned seed) {
    xt::xarray<T> a = uniform<T>(n, lo, hi, seed);
    std::size_t i = 0;
    for (double v = std::ceil(lo * 4) / 4; v <= hi && i < n / 4; v += 0.25, ++i)
        a(i) = static_cast<T>(v);
    for (auto& v : a) v = std::min(std::max(v, static_cast<T>(lo)), static_cast<T>(hi));
    return a;
}
// Integers of T spread over its whole range, with its extremes, 0, 1 and -1 first.
template <class T> xt::xarray<T> int_values(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    xt::xarray<T> a = xt::xarray<T>::from_shape({n});
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = rng();
        // half of them small (|v| < 20), half any bit pattern
        a(i) = (r & 1) ? static_cast<T>(static_cast<std::int64_t>((r >> 8) % 40) - (std::is_signed_v<T> ? 20 : 0))
                       : static_cast<T>(r >> 1);
    }
    a(0) = std::numeric_limits<T>::min();
    a(1) = std::numeric_limits<T>::max();
    a(2) = 0;
    a(3) = 1;
    a(4) = static_cast<T>(-1);
    return a;
}

template <class T> std::string show(T v) {
    std::ostringstream s;
    s << std::setprecision(std::numeric_limits<T>::max_digits10) << +v;
    return s.str();
}

// got ~ want elementwise: both NaN, or equal, or |got - want| <= atol + rtol * |want|; integers
// and bools must be equal.
template <class T, class I>
void check_close(const std::string& what, const xt::xarray<I>& in, const xt::xarray<T>& got,
                 const xt::xarray<T>& want, double rtol, double atol) {
    REQUIRE(got.shape() == want.shape());
    std::size_t bad = 0, worst = 0;
    double worst_err = -1;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double g = static_cast<double>(got.flat(i)), w = static_cast<double>(want.flat(i));
        bool ok = (std::isnan(g) && std::isnan(w)) || g == w;
        double err = 0;
        if constexpr (std::is_integral_v<T>) {
            ok = got.flat(i) == want.flat(i); // exact, even where double would round (int64)
            err = ok ? 0 : 1;
        } else if (!ok && std::isfinite(g) && std::isfinite(w)) {
            err = std::abs(g - w) / (atol + rtol * std::abs(w) + 1e-300);
            ok = std::abs(g - w) <= atol + rtol * std::abs(w);
        } else if (!ok) {
            err = std::numeric_limits<double>::infinity();
        }
        if (!ok) {
            ++bad;
            if (err > worst_err) worst_err = err, worst = i;
        }
    }
    INFO(what << ": " << bad << " of " << got.size() << " elements off (rtol " << rtol << ", atol "
              << atol << ")"
              << (bad ? "; worst at input " + show(in.flat(worst)) + ": device " +
                            show(got.flat(worst)) + ", host " + show(want.flat(worst))
                      : std::string()));
    CHECK(bad == 0);
}
template <class T, class I>
void check_exact(const std::string& what, const xt::xarray<I>& in, const xt::xarray<T>& got,
                 const xt::xarray<T>& want) {
    check_close(what, in, got, want, 0.0, 0.0);
}

template <class T, class F> xt::xarray<T> host_map(const xt::xarray<T>& x, F f) {
    xt::xarray<T> r = xt::xarray<T>::from_shape(x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) r.flat(i) = static_cast<T>(f(x.flat(i)));
    return r;
}
template <class R, class A, class B, class F>
xt::xarray<R> host_map2(const xt::xarray<A>& x, const xt::xarray<B>& y, F f) {
    xt::xarray<R> r = xt::xarray<R>::from_shape(x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) r.flat(i) = static_cast<R>(f(x.flat(i), y.flat(i)));
    return r;
}

// Evaluates every expression in ONE generated kernel (ca::tie) into new arrays of the expressions'
// value types, and returns the results on the host (pocl builds each distinct kernel once; fusing
// keeps the file fast).
template <class E> using value_t = typename std::decay_t<E>::value_type;
template <class E0, class... E> ca::shape_type first_shape(const E0& e0, const E&...) {
    return ca::detail::expression_shape(ca::detail::as_node(e0));
}
template <class S, class... E> auto eval_all(const E&... e) {
    const ca::shape_type shape = first_shape(e...);
    std::tuple<ca::cl_array<value_t<E>, S>...> out{ca::empty<value_t<E>, S>(test::q(), shape)...};
    std::apply([](auto&... o) { return ca::tie(o...); }, out) = std::make_tuple(e...);
    return std::apply([](const auto&... o) { return std::make_tuple(o.get()...); }, out);
}

// Host references for the functions <cmath> lacks, in extended precision.
template <class T> T ref_sinpi(T x) {
    const long double r = std::fmod(static_cast<long double>(x), 2.0L); // exact
    return static_cast<T>(std::sin(r * PI_L));
}
template <class T> T ref_cospi(T x) {
    const long double r = std::fmod(static_cast<long double>(x), 2.0L);
    return static_cast<T>(std::cos(r * PI_L));
}
template <class T> T ref_tanpi(T x) {
    const long double r = std::fmod(static_cast<long double>(x), 1.0L);
    return static_cast<T>(std::tan(r * PI_L));
}
template <class T> T ref_exp10(T x) { return static_cast<T>(std::pow(10.0L, static_cast<long double>(x))); }
template <class T> T ref_rsqrt(T x) { return static_cast<T>(1.0L / std::sqrt(static_cast<long double>(x))); }

// Tolerance classes, from the OpenCL ulp bounds: exact (0 ulp), ordinary (<= 6 ulp), loose
// (erf, erfc, tgamma: 16 ulp; lgamma: unspecified) and pow (16 ulp).
enum class tol { exact, ordinary, loose };
template <class T> double rtol_of(tol t) {
    if (t == tol::exact) return 0;
    if constexpr (std::is_same_v<T, float>) return t == tol::ordinary ? 1e-5 : 1e-4;
    else return t == tol::ordinary ? 1e-12 : 1e-11;
}
template <class T> double atol_of(tol t) {
    if (t == tol::exact) return 0;
    if constexpr (std::is_same_v<T, float>) return t == tol::ordinary ? 1e-6 : 1e-5;
    else return t == tol::ordinary ? 1e-13 : 1e-12;
}

// name, domain [lo, hi], tolerance class, host reference of x (in T); four groups, one kernel each
#define MATH_UNARY_GROUP1(X)                                                                       \
    X(sin, -10, 10, ordinary, std::sin(x))                                                         \
    X(cos, -10, 10, ordinary, std::cos(x))                                                         \
    X(tan, -1.5, 1.5, ordinary, std::tan(x))                                                       \
    X(asin, -1, 1, ordinary, std::asin(x))                                                         \
    X(acos, -1, 1, ordinary, std::acos(x))                                                         \
    X(atan, -10, 10, ordinary, std::atan(x))                                                       \
    X(sinh, -10, 10, ordinary, std::sinh(x))                                                       \
    X(cosh, -10, 10, ordinary, std::cosh(x))                                                       \
    X(tanh, -5, 5, ordinary, std::tanh(x))                                                         \
    X(asinh, -10, 10, ordinary, std::asinh(x))
#define MATH_UNARY_GROUP2(X)                                                                       \
    X(acosh, 1, 10, ordinary, std::acosh(x))                                                       \
    X(atanh, -0.99, 0.99, ordinary, std::atanh(x))                                                 \
    X(exp, -10, 10, ordinary, std::exp(x))                                                         \
    X(exp2, -10, 10, ordinary, std::exp2(x))                                                       \
    X(exp10, -5, 5, ordinary, ref_exp10(x))                                                        \
    X(expm1, -5, 5, ordinary, std::expm1(x))                                                       \
    X(log, 0.01, 100, ordinary, std::log(x))                                                       \
    X(log2, 0.01, 100, ordinary, std::log2(x))                                                     \
    X(log10, 0.01, 100, ordinary, std::log10(x))                                                   \
    X(log1p, -0.99, 10, ordinary, std::log1p(x))
#define MATH_UNARY_GROUP3(X)                                                                       \
    X(sqrt, 0, 100, ordinary, std::sqrt(x))                                                        \
    X(rsqrt, 0.01, 100, ordinary, ref_rsqrt(x))                                                    \
    X(cbrt, -100, 100, ordinary, std::cbrt(x))                                                     \
    X(ceil, -10, 10, exact, std::ceil(x))                                                          \
    X(floor, -10, 10, exact, std::floor(x))                                                        \
    X(trunc, -10, 10, exact, std::trunc(x))                                                        \
    X(round, -10, 10, exact, std::nearbyint(x))                                                    \
    X(rint, -10, 10, exact, std::nearbyint(x))                                                     \
    X(fabs, -10, 10, exact, std::fabs(x))
#define MATH_UNARY_GROUP4(X)                                                                       \
    X(erf, -3, 3, loose, std::erf(x))                                                              \
    X(erfc, -3, 3, loose, std::erfc(x))                                                            \
    X(tgamma, 0.1, 8, loose, std::tgamma(x))                                                       \
    X(lgamma, 0.1, 10, loose, std::lgamma(x))                                                      \
    X(sinpi, -2, 2, ordinary, ref_sinpi(x))                                                        \
    X(cospi, -2, 2, ordinary, ref_cospi(x))                                                        \
    X(tanpi, -0.45, 0.45, ordinary, ref_tanpi(x))                                                  \
    X(logb, -1000, 1000, exact, std::logb(x))
#define MATH_UNARY_CASES(X)                                                                      \
    MATH_UNARY_GROUP1(X) MATH_UNARY_GROUP2(X) MATH_UNARY_GROUP3(X) MATH_UNARY_GROUP4(X)

template <class Dev, class Host> struct unary_case {
    const char* name;
    double lo, hi;
    tol t;
    Dev dev;   // cl_array -> expression
    Host host; // T -> T
};
template <class Dev, class Host>
unary_case<Dev, Host> make_unary_case(const char* name, double lo, double hi, tol t, Dev d, Host h) {
    return {name, lo, hi, t, d, h};
}
#define MATH_MAKE_CASE(F, LO, HI, TOL, REF)                                                       \
    , make_unary_case(#F, LO, HI, tol::TOL, [](const auto& x) { return ca::F(x); },                \
                      [](auto x) { return REF; })

// All cases of a group in one kernel, each on its own input drawn from its domain.
template <class T, class S, class Cases, std::size_t... I>
void run_unary_group(unsigned seed, const Cases& cases, std::index_sequence<I...>) {
    constexpr std::size_t K = sizeof...(I);
    const std::array<xt::xarray<T>, K> hx{
        domain<T>(N, std::get<I>(cases).lo, std::get<I>(cases).hi, seed + unsigned(I))...};
    const std::array<ca::cl_array<T, S>, K> x{ca::to_device<S>(test::q(), hx[I])...};
    const auto got = eval_all<S>(std::get<I>(cases).dev(x[I])...);
    auto check_one = [&](auto i) {
        constexpr std::size_t k = decltype(i)::value;
        const auto& c = std::get<k>(cases);
        // check_close deduces one T for device and host results: the function keeps T.
        check_close(c.name, hx[k], std::get<k>(got), host_map(hx[k], c.host), rtol_of<T>(c.t),
                    atol_of<T>(c.t));
    };
    (check_one(std::integral_constant<std::size_t, I>{}), ...);
}
template <class T, class S, class... C> void run_unary(unsigned seed, const C&... c) {
    run_unary_group<T, S>(seed, std::make_tuple(c...), std::index_sequence_for<C...>{});
}

template <class T> bool float_ok() {
    if (std::is_same_v<T, double> && !test::ctx().device().has_fp64()) {
        WARN("skipped: device lacks fp64");
        return false;
    }
    return true;
}


// Each case picks its storage policies; float and double cycle through all three.
using float_cfgs = std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<double, ca::svm_fine>,
                              test::cfg<float, ca::buffer>>;
using float_cfgs_a = std::tuple<test::cfg<float, ca::buffer>, test::cfg<double, ca::svm_coarse>>;
using float_cfgs_b = std::tuple<test::cfg<float, ca::svm_fine>, test::cfg<double, ca::buffer>>;

} // namespace

TEST_CASE("the math test covers every float function of operators.hpp", "[math]") {
#define MATH_LIB_NAME(F) #F,
#define MATH_TEST_NAME(F, LO, HI, TOL, REF) #F,
    std::vector<std::string> lib = {CLARRAY_FLOAT_FUNCTIONS(MATH_LIB_NAME)
                                        CLARRAY_ROUNDING_FUNCTIONS(MATH_LIB_NAME)};
    std::vector<std::string> tested = {MATH_UNARY_CASES(MATH_TEST_NAME)};
#undef MATH_LIB_NAME
#undef MATH_TEST_NAME
    std::sort(lib.begin(), lib.end());
    std::sort(tested.begin(), tested.end());
    CHECK(lib == tested);
    CHECK(lib.size() == 37);
}

TEMPLATE_LIST_TEST_CASE("unary float functions match <cmath>", "[math]", float_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    run_unary<T, S>(100 MATH_UNARY_GROUP1(MATH_MAKE_CASE));
    run_unary<T, S>(200 MATH_UNARY_GROUP2(MATH_MAKE_CASE));
    run_unary<T, S>(300 MATH_UNARY_GROUP3(MATH_MAKE_CASE));
    run_unary<T, S>(400 MATH_UNARY_GROUP4(MATH_MAKE_CASE));
}

TEMPLATE_LIST_TEST_CASE("float functions at special values", "[math]", float_cfgs_a) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const xt::xarray<T> hx = {T(0), T(-0.0), T(1), T(-1), inf, -inf, nan, T(-2), T(1e-30), T(100)};
    auto x = ca::to_device<S>(test::q(), hx);
    const auto [sq, lg, ex, fl, fa, lb, at, th] =
        eval_all<S>(ca::sqrt(x), ca::log(x), ca::exp(x), ca::floor(x), ca::fabs(x), ca::logb(x),
                    ca::atan(x), ca::tanh(x));
    const double ro = rtol_of<T>(tol::ordinary);
    check_close("sqrt", hx, sq, host_map(hx, [](T v) { return std::sqrt(v); }), 0, 0);
    check_close("log", hx, lg, host_map(hx, [](T v) { return std::log(v); }), 0, 0);
    check_close("exp", hx, ex, host_map(hx, [](T v) { return std::exp(v); }), ro, 0);
    check_close("floor", hx, fl, host_map(hx, [](T v) { return std::floor(v); }), 0, 0);
    check_close("fabs", hx, fa, host_map(hx, [](T v) { return std::fabs(v); }), 0, 0);
    check_close("logb", hx, lb, host_map(hx, [](T v) { return std::logb(v); }), 0, 0);
    check_close("atan", hx, at, host_map(hx, [](T v) { return std::atan(v); }), ro, 0);
    check_close("tanh", hx, th, host_map(hx, [](T v) { return std::tanh(v); }), ro, 0);
}

TEMPLATE_LIST_TEST_CASE("binary float functions match <cmath>", "[math]", float_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    auto to_dev = [](const xt::xarray<T>& h) { return ca::to_device<S>(test::q(), h); };
    const double ro = rtol_of<T>(tol::ordinary), ao = atol_of<T>(tol::ordinary);
    const xt::xarray<T> hy = domain<T>(N, -10, 10, 1), hx = uniform<T>(N, -10, 10, 2);
    xt::xarray<T> hm = uniform<T>(N, -100, 100, 3), hn = uniform<T>(N, -10, 10, 4);
    hn(0) = T(-0.0);
    hn(1) = T(0.0);
    hn(2) = T(0.0); // fmod(x, 0) is NaN on both sides
    hm(3) = hn(3);  // nextafter(x, x) == x
    const xt::xarray<T> hp = uniform<T>(N, 0.1, 10, 5), hq = domain<T>(N, -3, 3, 6);
    // Negative bases with integral exponents.
    const xt::xarray<T> hb = uniform<T>(N, -5, 5, 7), he = xt::round(uniform<T>(N, -3.49, 3.49, 8));
    auto y = to_dev(hy), x = to_dev(hx), m = to_dev(hm), n = to_dev(hn), p = to_dev(hp),
         q = to_dev(hq), b = to_dev(hb), e = to_dev(he);
    const auto [r_atan2, r_hypot, r_next, r_next2, r_copysign, r_fmod, r_pow, r_powi, r_pow2] =
        eval_all<S>(ca::atan2(y, x), ca::hypot(y, x), ca::nextafter(y, x), ca::nextafter(m, n),
                    ca::copysign(m, n), ca::fmod(m, n), ca::pow(p, q), ca::pow(b, e), ca::pow(p, 2));
    check_close("atan2", hy, r_atan2, host_map2<T>(hy, hx, [](T a, T c) { return std::atan2(a, c); }), ro, ao);
    check_close("hypot", hy, r_hypot, host_map2<T>(hy, hx, [](T a, T c) { return std::hypot(a, c); }), ro, ao);
    check_exact("nextafter", hy, r_next, host_map2<T>(hy, hx, [](T a, T c) { return std::nextafter(a, c); }));
    check_exact("nextafter (zeros, equal)", hm, r_next2, host_map2<T>(hm, hn, [](T a, T c) { return std::nextafter(a, c); }));
    check_exact("copysign", hm, r_copysign, host_map2<T>(hm, hn, [](T a, T c) { return std::copysign(a, c); }));
    check_exact("fmod", hm, r_fmod, host_map2<T>(hm, hn, [](T a, T c) { return std::fmod(a, c); }));
    check_close("pow", hp, r_pow, host_map2<T>(hp, hq, [](T a, T c) { return std::pow(a, c); }), ro, ao);
    check_close("pow(negative base, integral exponent)", hb, r_powi,
                host_map2<T>(hb, he, [](T a, T c) { return std::pow(a, c); }), ro, ao);
    check_close("pow(x, 2)", hp, r_pow2, host_map(hp, [](T a) { return std::pow(a, T(2)); }), ro, ao);
}

TEMPLATE_LIST_TEST_CASE("maximum/minimum propagate NaN, fmax/fmin ignore it", "[math]", float_cfgs_b) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    xt::xarray<T> ha = uniform<T>(N, -10, 10, 11), hb = uniform<T>(N, -10, 10, 12);
    for (std::size_t i = 0; i < N; i += 7) ha(i) = nan;
    for (std::size_t i = 0; i < N; i += 5) hb(i) = nan; // some positions NaN in both
    ha(1) = inf;
    hb(3) = -inf;
    auto a = ca::to_device<S>(test::q(), ha), b = ca::to_device<S>(test::q(), hb);
    auto numpy_max = [nan](T x, T y) { return (std::isnan(x) || std::isnan(y)) ? nan : std::max(x, y); };
    auto numpy_min = [nan](T x, T y) { return (std::isnan(x) || std::isnan(y)) ? nan : std::min(x, y); };
    const auto [mx, mn, fmx, fmn, mx0, fmn15, mnl] =
        eval_all<S>(ca::maximum(a, b), ca::minimum(a, b), ca::fmax(a, b), ca::fmin(a, b),
                    ca::maximum(a, 0), ca::fmin(a, 1.5), ca::minimum(2.5, b));
    check_exact("maximum", ha, mx, host_map2<T>(ha, hb, numpy_max));
    check_exact("minimum", ha, mn, host_map2<T>(ha, hb, numpy_min));
    check_exact("fmax", ha, fmx, host_map2<T>(ha, hb, [](T x, T y) { return std::fmax(x, y); }));
    check_exact("fmin", ha, fmn, host_map2<T>(ha, hb, [](T x, T y) { return std::fmin(x, y); }));
    check_exact("maximum(a, 0)", ha, mx0, host_map(ha, [&](T x) { return numpy_max(x, T(0)); }));
    check_exact("fmin(a, 1.5)", ha, fmn15, host_map(ha, [](T x) { return std::fmin(x, T(1.5)); }));
    check_exact("minimum(2.5, b)", hb, mnl, host_map(hb, [&](T y) { return numpy_min(T(2.5), y); }));
    // The NaN positions are really there (the test would pass vacuously otherwise).
    std::size_t nans = 0;
    for (std::size_t i = 0; i < N; ++i) nans += std::isnan(numpy_max(ha(i), hb(i))) ? 1 : 0;
    CHECK(nans > 100);
}

namespace {
// Python's float divmod (which NumPy's floor_divide and remainder follow).
template <class T> void py_divmod(T a, T b, T& div, T& mod) {
    mod = std::fmod(a, b);
    if (b == 0) {
        div = a / b;
        return;
    }
    div = (a - mod) / b;
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= 1;
        }
    } else {
        mod = std::copysign(T(0), b);
    }
    if (div != 0) {
        T fl = std::floor(div);
        if (div - fl > T(0.5)) fl += 1;
        div = fl;
    } else {
        div = std::copysign(T(0), a / b);
    }
}
template <class T> T py_floordiv(T a, T b) {
    T d, m;
    py_divmod(a, b, d, m);
    return d;
}
template <class T> T py_mod(T a, T b) {
    T d, m;
    py_divmod(a, b, d, m);
    return m;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("float floor_divide and % follow Python (sign of the divisor)", "[math]",
                        float_cfgs_a) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    xt::xarray<T> ha = uniform<T>(N, -10, 10, 21), hb = uniform<T>(N, -10, 10, 22);
    hb(0) = 0; // x // 0 -> +-inf, x % 0 -> NaN
    ha(1) = 0;
    hb(1) = 0;
    ha(2) = T(7.5);
    hb(2) = T(-2);
    ha(3) = T(-7.5);
    hb(3) = T(2);
    auto a = ca::to_device<S>(test::q(), ha), b = ca::to_device<S>(test::q(), hb);
    const auto [fd, md, md2, mdw, fdw] = eval_all<S>(ca::floor_divide(a, b), a % b, ca::mod(a, b),
                                                     a % -3, ca::floor_divide(a, 3));
    const xt::xarray<T> wmd = host_map2<T>(ha, hb, [](T x, T y) { return py_mod(x, y); });
    check_exact("floor_divide", ha, fd, host_map2<T>(ha, hb, [](T x, T y) { return py_floordiv(x, y); }));
    check_exact("%", ha, md, wmd);
    check_exact("mod", ha, md2, wmd);
    check_exact("a % -3", ha, mdw, host_map(ha, [](T x) { return py_mod(x, T(-3)); }));
    check_exact("floor_divide(a, 3)", ha, fdw, host_map(ha, [](T x) { return py_floordiv(x, T(3)); }));
}

TEST_CASE("float floor_divide and % at exactly-rounded quotients and zero remainders", "[math]") {
    if (!float_ok<double>()) return;
    // 1.0 // 0.1 is 9.0 in Python and NumPy (0.1 is slightly above 1/10), although 1.0 / 0.1
    // rounds to 10.0; floor_divide must agree with %: a == b * (a // b) + a % b.
    const xt::xarray<double> ha = {1.0, 1.0, -1.0, 0.3, 7.0, -4.0, 4.0, 0.7};
    const xt::xarray<double> hb = {0.1, -0.1, 0.1, 0.1, 0.7, 2.0, -2.0, 0.1};
    auto a = ca::to_device<ca::buffer>(test::q(), ha), b = ca::to_device<ca::buffer>(test::q(), hb);
    const auto [fd, md] = eval_all<ca::buffer>(ca::floor_divide(a, b), a % b);
    const xt::xarray<double> wfd = host_map2<double>(ha, hb, [](double x, double y) { return py_floordiv(x, y); });
    const xt::xarray<double> wmd = host_map2<double>(ha, hb, [](double x, double y) { return py_mod(x, y); });
    CHECK(wfd(0) == 9.0); // the host reference itself gives Python's answer
    check_exact("floor_divide (exact-quotient edge cases)", ha, fd, wfd);
    check_exact("% (exact-quotient edge cases)", ha, md, wmd);
    // A zero remainder takes the divisor's sign (np.remainder(-4.0, 2.0) is +0.0, (4.0, -2.0) -0.0).
    for (std::size_t i = 0; i < ha.size(); ++i)
        if (wmd(i) == 0) {
            INFO("remainder(" << ha(i) << ", " << hb(i) << ") = " << md(i));
            CHECK(std::signbit(md(i)) == std::signbit(hb(i)));
        }
}

// ---------------------------------------------------------------------------------------------
// Integer operations on several widths, host references computed in T (wrapping).
namespace {
template <class T> using U_of = std::make_unsigned_t<T>;
template <class T> T w_add(T a, T b) { return static_cast<T>(static_cast<U_of<T>>(static_cast<U_of<T>>(a) + static_cast<U_of<T>>(b))); }
template <class T> T w_sub(T a, T b) { return static_cast<T>(static_cast<U_of<T>>(static_cast<U_of<T>>(a) - static_cast<U_of<T>>(b))); }
template <class T> T w_mul(T a, T b) {
    return static_cast<T>(static_cast<U_of<T>>(static_cast<std::uint64_t>(static_cast<U_of<T>>(a)) *
                                               static_cast<std::uint64_t>(static_cast<U_of<T>>(b))));
}
// Python floor division / modulo on the mathematical integers, then wrapped to T; x // 0 and
// x % 0 are 0 (NumPy's result, with a warning).
template <class T> __int128 floor_quotient(T a, T b) {
    const __int128 x = a, y = b;
    __int128 q = x / y;
    if (q * y != x && ((x < 0) != (y < 0))) q -= 1;
    return q;
}
template <class T> T i_floordiv(T a, T b) { return b == 0 ? T(0) : static_cast<T>(floor_quotient(a, b)); }
template <class T> T i_mod(T a, T b) {
    return b == 0 ? T(0) : static_cast<T>(static_cast<__int128>(a) - floor_quotient(a, b) * b);
}
// b ** e by repeated multiplication in T (wrapping), e >= 0 (a negative exponent is an error:
// test_numpy_edges.cpp).
template <class T> T i_pow(T b, T e) {
    T r = 1;
    for (T k = 0; k < e; ++k) r = w_mul(r, b);
    return r;
}
template <class T> T i_neg(T a) { return w_sub<T>(0, a); }
template <class T> T i_abs(T a) {
    if constexpr (std::is_signed_v<T>) return a < 0 ? i_neg(a) : a;
    else return a;
}
template <class T> T i_shl(T a, T s) { return static_cast<T>(static_cast<U_of<T>>(static_cast<U_of<T>>(a) << s)); }
template <class T> T i_shr(T a, T s) { return static_cast<T>(a >> s); } // arithmetic for signed

using int_cfgs = std::tuple<test::cfg<std::int8_t, ca::svm_coarse>,
                            test::cfg<std::uint16_t, ca::svm_fine>,
                            test::cfg<std::int32_t, ca::buffer>,
                            test::cfg<std::int64_t, ca::svm_coarse>>;
} // namespace

TEMPLATE_LIST_TEST_CASE("integer arithmetic, division and bit ops in T", "[math]", int_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    const xt::xarray<T> ha = int_values<T>(N, 31);
    xt::xarray<T> hb = int_values<T>(N, 32);
    // Divisors: -1 and 0 against the minimum, and many small ones.
    hb(0) = static_cast<T>(-1);
    hb(5) = 0;
    hb(6) = std::numeric_limits<T>::min();
    auto a = ca::to_device<S>(test::q(), ha), b = ca::to_device<S>(test::q(), hb);
    const auto [add, sub, mul, fdv, mod, band, bor, bxor, mx, mn, fmx, fmn] =
        eval_all<S>(a + b, a - b, a * b, ca::floor_divide(a, b), a % b, a & b, a | b, a ^ b,
                    ca::maximum(a, b), ca::minimum(a, b), ca::fmax(a, b), ca::fmin(a, b));
    auto ref = [&](auto f) { return host_map2<T>(ha, hb, f); };
    check_exact("+", ha, add, ref([](T x, T y) { return w_add(x, y); }));
    check_exact("-", ha, sub, ref([](T x, T y) { return w_sub(x, y); }));
    check_exact("*", ha, mul, ref([](T x, T y) { return w_mul(x, y); }));
    check_exact("floor_divide", ha, fdv, ref([](T x, T y) { return i_floordiv(x, y); }));
    check_exact("%", ha, mod, ref([](T x, T y) { return i_mod(x, y); }));
    check_exact("&", ha, band, ref([](T x, T y) { return static_cast<T>(x & y); }));
    check_exact("|", ha, bor, ref([](T x, T y) { return static_cast<T>(x | y); }));
    check_exact("^", ha, bxor, ref([](T x, T y) { return static_cast<T>(x ^ y); }));
    check_exact("maximum", ha, mx, ref([](T x, T y) { return std::max(x, y); }));
    check_exact("minimum", ha, mn, ref([](T x, T y) { return std::min(x, y); }));
    check_exact("fmax", ha, fmx, ref([](T x, T y) { return std::max(x, y); }));
    check_exact("fmin", ha, fmn, ref([](T x, T y) { return std::min(x, y); }));

    // Weak scalar operands (Python semantics: the result has the divisor's sign).
    const auto [m7, f7, m0, f0, s3, t3] = eval_all<S>(a % 7, ca::floor_divide(a, 7), a % 0,
                                                      ca::floor_divide(a, 0), 3 - a, a * 3);
    auto ref1 = [&](auto f) { return host_map(ha, f); };
    check_exact("a % 7", ha, m7, ref1([](T x) { return i_mod<T>(x, 7); }));
    check_exact("floor_divide(a, 7)", ha, f7, ref1([](T x) { return i_floordiv<T>(x, 7); }));
    check_exact("a % 0", ha, m0, ref1([](T x) { return i_mod<T>(x, 0); }));
    check_exact("floor_divide(a, 0)", ha, f0, ref1([](T x) { return i_floordiv<T>(x, 0); }));
    check_exact("3 - a", ha, s3, ref1([](T x) { return w_sub<T>(3, x); }));
    check_exact("a * 3", ha, t3, ref1([](T x) { return w_mul<T>(x, 3); }));
    if constexpr (std::is_signed_v<T>) {
        const auto [mm7, fm7, fm1, mm1] = eval_all<S>(a % -7, ca::floor_divide(a, -7),
                                                      ca::floor_divide(a, -1), a % -1);
        check_exact("a % -7", ha, mm7, ref1([](T x) { return i_mod<T>(x, -7); }));
        check_exact("floor_divide(a, -7)", ha, fm7, ref1([](T x) { return i_floordiv<T>(x, -7); }));
        check_exact("floor_divide(a, -1)", ha, fm1, ref1([](T x) { return i_floordiv<T>(x, -1); }));
        check_exact("a % -1", ha, mm1, ref1([](T x) { return i_mod<T>(x, -1); }));
        // Sanity of the host reference itself against Python's definitions.
        CHECK(i_mod<T>(-7, 3) == 2);
        CHECK(i_mod<T>(7, -3) == -2);
        CHECK(i_floordiv<T>(-7, 2) == -4);
        CHECK(i_floordiv<T>(std::numeric_limits<T>::min(), -1) == std::numeric_limits<T>::min());
    }
}

TEMPLATE_LIST_TEST_CASE("integer unary ops, shifts and pow in T", "[math]", int_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    const xt::xarray<T> ha = int_values<T>(N, 41);
    constexpr int bits = 8 * sizeof(T);
    xt::xarray<T> hs = xt::xarray<T>::from_shape({N});
    for (std::size_t i = 0; i < N; ++i) hs(i) = static_cast<T>(i % bits); // in-range shift counts
    // pow: small bases, exponents up to 40 (wrapping).
    xt::xarray<T> hb = xt::xarray<T>::from_shape({N}), he = hb;
    std::mt19937_64 rng(42);
    for (std::size_t i = 0; i < N; ++i) {
        hb(i) = static_cast<T>(std::is_signed_v<T> ? static_cast<int>(rng() % 13) - 6 : static_cast<int>(rng() % 13));
        he(i) = static_cast<T>(rng() % 41);
    }
    auto a = ca::to_device<S>(test::q(), ha), s = ca::to_device<S>(test::q(), hs);
    auto b = ca::to_device<S>(test::q(), hb), e = ca::to_device<S>(test::q(), he);
    const auto [neg, ab, inv, pos, shl, shr, shl3, pw, pw2] =
        eval_all<S>(-a, ca::abs(a), ~a, +a, a << s, a >> s, a << 3, ca::pow(b, e), ca::pow(b, 2));
    check_exact("unary -", ha, neg, host_map(ha, [](T x) { return i_neg(x); }));
    check_exact("abs", ha, ab, host_map(ha, [](T x) { return i_abs(x); }));
    check_exact("~", ha, inv, host_map(ha, [](T x) { return static_cast<T>(~x); }));
    check_exact("+a", ha, pos, ha);
    check_exact("<<", ha, shl, host_map2<T>(ha, hs, [](T x, T y) { return i_shl(x, y); }));
    check_exact(">>", ha, shr, host_map2<T>(ha, hs, [](T x, T y) { return i_shr(x, y); }));
    check_exact("a << 3", ha, shl3, host_map(ha, [](T x) { return i_shl<T>(x, 3); }));
    check_exact("pow", hb, pw, host_map2<T>(hb, he, [](T x, T y) { return i_pow(x, y); }));
    check_exact("pow(b, 2)", hb, pw2, host_map(hb, [](T x) { return i_pow<T>(x, 2); }));
}

TEMPLATE_LIST_TEST_CASE("comparisons, logical ops and where on integers", "[math]", int_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    const xt::xarray<T> ha = int_values<T>(N, 51);
    xt::xarray<T> hb = int_values<T>(N, 52);
    for (std::size_t i = 0; i < N; i += 9) hb(i) = ha(i); // some equal pairs
    auto a = ca::to_device<S>(test::q(), ha), b = ca::to_device<S>(test::q(), hb);
    const auto [eq, ne, lt, le, gt, ge, land, lor, lxor, lnot, bang, lt5, inan, iinf, ifin] =
        eval_all<S>(a == b, a != b, a < b, a <= b, a > b, a >= b, ca::logical_and(a, b),
                    ca::logical_or(a, b), ca::logical_xor(a, b), ca::logical_not(a), !a, a < 5,
                    ca::isnan(a), ca::isinf(a), ca::isfinite(a));
    auto ref = [&](auto f) { return host_map2<bool>(ha, hb, f); };
    check_exact("==", ha, eq, ref([](T x, T y) { return x == y; }));
    check_exact("!=", ha, ne, ref([](T x, T y) { return x != y; }));
    check_exact("<", ha, lt, ref([](T x, T y) { return x < y; }));
    check_exact("<=", ha, le, ref([](T x, T y) { return x <= y; }));
    check_exact(">", ha, gt, ref([](T x, T y) { return x > y; }));
    check_exact(">=", ha, ge, ref([](T x, T y) { return x >= y; }));
    check_exact("logical_and", ha, land, ref([](T x, T y) { return x != 0 && y != 0; }));
    check_exact("logical_or", ha, lor, ref([](T x, T y) { return x != 0 || y != 0; }));
    check_exact("logical_xor", ha, lxor, ref([](T x, T y) { return (x != 0) != (y != 0); }));
    check_exact("logical_not", ha, lnot, ref([](T x, T) { return x == 0; }));
    check_exact("!", ha, bang, ref([](T x, T) { return !x; }));
    check_exact("a < 5", ha, lt5, ref([](T x, T) { return x < 5; }));
    check_exact("isnan(int)", ha, inan, ref([](T x, T) { return std::isnan(static_cast<double>(x)); }));
    check_exact("isinf(int)", ha, iinf, ref([](T x, T) { return std::isinf(static_cast<double>(x)); }));
    check_exact("isfinite(int)", ha, ifin, ref([](T x, T) { return std::isfinite(static_cast<double>(x)); }));

    // where: array branches, a weak scalar branch, and a numeric condition (true where nonzero).
    const auto [w1, w2, w3] = eval_all<S>(ca::where(a > b, a, b), ca::where(a != 0, b, 7), ca::where(a, 1, b));
    check_exact("where(a > b, a, b)", ha, w1, host_map2<T>(ha, hb, [](T x, T y) { return x > y ? x : y; }));
    check_exact("where(a != 0, b, 7)", ha, w2, host_map2<T>(ha, hb, [](T x, T y) { return x != 0 ? y : T(7); }));
    check_exact("where(a, 1, b)", ha, w3, host_map2<T>(ha, hb, [](T x, T y) { return x != 0 ? T(1) : y; }));
}

TEST_CASE("comparisons and where across dtypes compute in the promoted type", "[math]") {
    if (!test::storage_available<ca::svm_fine>() || !test::storage_available<ca::svm_coarse>())
        return;
    const std::size_t n = 256;
    // int8 vs uint8 -> int16: -1 < 200 (a uint8 comparison would say otherwise).
    const xt::xarray<std::int8_t> h8 = int_values<std::int8_t>(n, 61);
    const xt::xarray<std::uint8_t> hu8 = int_values<std::uint8_t>(n, 62);
    auto a8 = ca::to_device<ca::svm_fine>(test::q(), h8);
    auto u8 = ca::to_device<ca::svm_fine>(test::q(), hu8);
    const auto [lt, w] = eval_all<ca::svm_fine>(a8 < u8, ca::where(a8 < u8, a8, u8));
    check_exact("int8 < uint8", h8, lt,
                host_map2<bool>(h8, hu8, [](std::int8_t x, std::uint8_t y) { return int(x) < int(y); }));
    check_exact("where(int8 < uint8, int8, uint8) is int16", h8, w,
                host_map2<std::int16_t>(h8, hu8, [](std::int8_t x, std::uint8_t y) {
                    return int(x) < int(y) ? std::int16_t(x) : std::int16_t(y);
                }));
    if (!float_ok<double>()) return;
    // int32 vs uint32 -> int64; float32 vs int32 -> float64: 16777216.0f != 16777217 (they are
    // equal if compared in float32).
    xt::xarray<std::int32_t> h32 = int_values<std::int32_t>(n, 63);
    const xt::xarray<std::uint32_t> hu32 = int_values<std::uint32_t>(n, 64);
    xt::xarray<float> hf = xt::cast<float>(h32);
    hf(0) = 16777216.0f;
    h32(0) = 16777217;
    auto a32 = ca::to_device<ca::svm_coarse>(test::q(), h32);
    auto u32 = ca::to_device<ca::svm_coarse>(test::q(), hu32);
    auto f = ca::to_device<ca::svm_coarse>(test::q(), hf);
    const auto [ge, eq] = eval_all<ca::svm_coarse>(a32 >= u32, f == a32);
    check_exact("int32 >= uint32", h32, ge, host_map2<bool>(h32, hu32, [](std::int32_t x, std::uint32_t y) {
                    return std::int64_t(x) >= std::int64_t(y);
                }));
    check_exact("float32 == int32", hf, eq,
                host_map2<bool>(hf, h32, [](float x, std::int32_t y) { return double(x) == double(y); }));
}

TEMPLATE_LIST_TEST_CASE("float comparisons, logical ops, classification with NaN and inf", "[math]",
                        float_cfgs_b) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    xt::xarray<T> ha = uniform<T>(N, -3, 3, 71), hb = uniform<T>(N, -3, 3, 72);
    for (std::size_t i = 0; i < N; i += 11) ha(i) = nan;
    for (std::size_t i = 3; i < N; i += 13) hb(i) = nan;
    for (std::size_t i = 5; i < N; i += 17) ha(i) = (i % 2) ? inf : -inf;
    for (std::size_t i = 6; i < N; i += 19) ha(i) = 0;
    for (std::size_t i = 7; i < N; i += 23) hb(i) = T(-0.0);
    for (std::size_t i = 8; i < N; i += 10) hb(i) = ha(i);
    ha(9) = std::numeric_limits<T>::denorm_min();
    auto a = ca::to_device<S>(test::q(), ha), b = ca::to_device<S>(test::q(), hb);
    const auto [eq, ne, lt, le, gt, ge, gth, land, lor, lxor, lnot, bang, inan, iinf, ifin, bnan] =
        eval_all<S>(a == b, a != b, a < b, a <= b, a > b, a >= b, a > 0.5, ca::logical_and(a, b),
                    ca::logical_or(a, b), ca::logical_xor(a, b), ca::logical_not(a), !a,
                    ca::isnan(a), ca::isinf(a), ca::isfinite(a), ca::isnan(b));
    auto ref = [&](auto f) { return host_map2<bool>(ha, hb, f); };
    check_exact("==", ha, eq, ref([](T x, T y) { return x == y; }));
    check_exact("!=", ha, ne, ref([](T x, T y) { return x != y; }));
    check_exact("<", ha, lt, ref([](T x, T y) { return x < y; }));
    check_exact("<=", ha, le, ref([](T x, T y) { return x <= y; }));
    check_exact(">", ha, gt, ref([](T x, T y) { return x > y; }));
    check_exact(">=", ha, ge, ref([](T x, T y) { return x >= y; }));
    check_exact("a > 0.5", ha, gth, ref([](T x, T) { return x > T(0.5); }));
    check_exact("logical_and", ha, land, ref([](T x, T y) { return x != 0 && y != 0; }));
    check_exact("logical_or", ha, lor, ref([](T x, T y) { return x != 0 || y != 0; }));
    check_exact("logical_xor", ha, lxor, ref([](T x, T y) { return (x != 0) != (y != 0); }));
    check_exact("logical_not", ha, lnot, ref([](T x, T) { return x == 0; }));
    check_exact("!", ha, bang, ref([](T x, T) { return !(x != 0); }));
    check_exact("isnan", ha, inan, ref([](T x, T) { return std::isnan(x); }));
    check_exact("isinf", ha, iinf, ref([](T x, T) { return std::isinf(x); }));
    check_exact("isfinite", ha, ifin, ref([](T x, T) { return std::isfinite(x); }));
    check_exact("isnan(b)", hb, bnan, ref([](T, T y) { return std::isnan(y); }));

    // Logical and bitwise ops on bool arrays; ~ on bool is logical not (as NumPy).
    const xt::xarray<bool> hp = test::random_array<bool>({N}, 73), hq = test::random_array<bool>({N}, 74);
    auto p = ca::to_device<S>(test::q(), hp), q = ca::to_device<S>(test::q(), hq);
    const auto [band, bor, bxor, bandf, borf, bxorf, binv, bnot, beq, w, w2] =
        eval_all<S>(ca::logical_and(p, q), ca::logical_or(p, q), ca::logical_xor(p, q), p & q,
                    p | q, p ^ q, ~p, !p, p == q, ca::where(a, a, b), ca::where(p, a, 2.5));
    auto bref = [&](auto f) { return host_map2<bool>(hp, hq, f); };
    check_exact("bool logical_and", hp, band, bref([](bool x, bool y) { return x && y; }));
    check_exact("bool logical_or", hp, bor, bref([](bool x, bool y) { return x || y; }));
    check_exact("bool logical_xor", hp, bxor, bref([](bool x, bool y) { return x != y; }));
    check_exact("bool &", hp, bandf, bref([](bool x, bool y) { return x && y; }));
    check_exact("bool |", hp, borf, bref([](bool x, bool y) { return x || y; }));
    check_exact("bool ^", hp, bxorf, bref([](bool x, bool y) { return x != y; }));
    check_exact("bool ~", hp, binv, bref([](bool x, bool) { return !x; }));
    check_exact("bool !", hp, bnot, bref([](bool x, bool) { return !x; }));
    check_exact("bool ==", hp, beq, bref([](bool x, bool y) { return x == y; }));
    // where with float branches and a float condition (NaN is nonzero, so true).
    check_exact("where(a, a, b)", ha, w, host_map2<T>(ha, hb, [](T x, T y) { return x != 0 ? x : y; }));
    xt::xarray<T> want2 = xt::xarray<T>::from_shape({N});
    for (std::size_t i = 0; i < N; ++i) want2(i) = hp(i) ? ha(i) : T(2.5);
    check_exact("where(p, a, 2.5)", ha, w2, want2);
}

TEMPLATE_LIST_TEST_CASE("abs and unary minus on floats", "[math]", float_cfgs_a) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    xt::xarray<T> ha = uniform<T>(N, -100, 100, 81);
    ha(0) = std::numeric_limits<T>::infinity();
    ha(1) = -std::numeric_limits<T>::infinity();
    ha(2) = std::numeric_limits<T>::quiet_NaN();
    ha(3) = std::numeric_limits<T>::lowest();
    auto a = ca::to_device<S>(test::q(), ha);
    const auto [ab, neg, mix] = eval_all<S>(ca::abs(a), -a, -ca::abs(a) + a * 2);
    check_exact("abs", ha, ab, host_map(ha, [](T x) { return std::abs(x); }));
    check_exact("unary -", ha, neg, host_map(ha, [](T x) { return -x; }));
    check_exact("-abs(a) + a * 2", ha, mix, host_map(ha, [](T x) { return -std::abs(x) + x * T(2); }));
}

TEST_CASE("float functions of integer and mixed operands", "[math]") {
    if (!float_ok<double>() || !test::storage_available<ca::svm_fine>()) return;
    using S = ca::svm_fine;
    const std::size_t n = 500;
    const xt::xarray<std::int16_t> h16 = int_values<std::int16_t>(n, 91);
    const xt::xarray<std::int32_t> h32 = int_values<std::int32_t>(n, 92);
    const xt::xarray<bool> hb = test::random_array<bool>({n}, 93);
    const xt::xarray<float> hf = uniform<float>(n, -10, 10, 94);
    auto a16 = ca::to_device<S>(test::q(), h16);
    auto a32 = ca::to_device<S>(test::q(), h32);
    auto ab = ca::to_device<S>(test::q(), hb);
    auto af = ca::to_device<S>(test::q(), hf);
    // <= 16-bit integers and bool compute in float32, wider integers in float64; check_close
    // deduces the result type from the host reference's.
    const auto [s16, q32, eb, t1, t2, t3] =
        eval_all<S>(ca::sin(a16), ca::cbrt(a32), ca::exp(ab), ca::atan2(af, a16),
                    ca::hypot(af, a32), ca::floor(af * 2.0));
    const double rf = rtol_of<float>(tol::ordinary), af_ = atol_of<float>(tol::ordinary);
    const double rd = rtol_of<double>(tol::ordinary), ad = atol_of<double>(tol::ordinary);
    check_close("sin(int16) is float32", h16, s16,
                host_map2<float>(h16, h16, [](std::int16_t x, std::int16_t) { return std::sin(float(x)); }), rf, af_);
    check_close("cbrt(int32) is float64", h32, q32,
                host_map2<double>(h32, h32, [](std::int32_t x, std::int32_t) { return std::cbrt(double(x)); }), rd, ad);
    check_close("exp(bool) is float32", hb, eb,
                host_map2<float>(hb, hb, [](bool x, bool) { return std::exp(float(x)); }), rf, af_);
    check_close("atan2(float32, int16) is float32", hf, t1,
                host_map2<float>(hf, h16, [](float x, std::int16_t y) { return std::atan2(x, float(y)); }), rf, af_);
    check_close("hypot(float32, int32) is float64", hf, t2,
                host_map2<double>(hf, h32, [](float x, std::int32_t y) { return std::hypot(double(x), double(y)); }), rd, ad);
    check_exact("floor(float32 * 2.0) is float32", hf, t3, host_map(hf, [](float x) { return std::floor(x * 2.0f); }));
}

TEST_CASE("astype<U> converts as C casts (truncation, wraparound, != 0 for bool)", "[math]") {
    if (!float_ok<double>()) return;
    using S = ca::buffer;
    const std::size_t n = 1000;
    const xt::xarray<float> hf = uniform<float>(n, -1000, 1000, 101);
    const xt::xarray<float> hpos = uniform<float>(n, 0, 255.99, 102);
    const xt::xarray<std::int32_t> hi = int_values<std::int32_t>(n, 103);
    const xt::xarray<double> hd = uniform<double>(n, -1e6, 1e6, 104);
    const xt::xarray<std::int64_t> hl = int_values<std::int64_t>(n, 105);
    const xt::xarray<bool> hb = test::random_array<bool>({n}, 106);
    xt::xarray<float> hz = hf;
    hz(0) = 0;
    hz(1) = -0.0f;
    hz(2) = std::numeric_limits<float>::quiet_NaN();
    hz(3) = std::numeric_limits<float>::infinity();
    auto f = ca::to_device<S>(test::q(), hf);
    auto pos = ca::to_device<S>(test::q(), hpos);
    auto i = ca::to_device<S>(test::q(), hi);
    auto d = ca::to_device<S>(test::q(), hd);
    auto l = ca::to_device<S>(test::q(), hl);
    auto z = ca::to_device<S>(test::q(), hz);
    auto b = ca::to_device<S>(test::q(), hb);
    const auto [c_fi, c_fu8, c_i8, c_u16, c_ib, c_fb, c_df, c_ld, c_if, c_ill, c_mix] = eval_all<S>(
        ca::astype<std::int32_t>(f), ca::astype<std::uint8_t>(pos), ca::astype<std::int8_t>(i),
        ca::astype<std::uint16_t>(i), ca::astype<bool>(i), ca::astype<bool>(z), ca::astype<float>(d),
        ca::astype<double>(l), ca::astype<float>(i), ca::astype<long long>(i),
        ca::astype<float>(b) * 2 + f);
    check_exact("float -> int32 (truncates)", hf, c_fi,
                host_map2<std::int32_t>(hf, hf, [](float x, float) { return static_cast<std::int32_t>(x); }));
    check_exact("float -> uint8", hpos, c_fu8,
                host_map2<std::uint8_t>(hpos, hpos, [](float x, float) { return static_cast<std::uint8_t>(x); }));
    check_exact("int32 -> int8 (wraps)", hi, c_i8, host_map2<std::int8_t>(hi, hi, [](std::int32_t x, std::int32_t) {
                    return static_cast<std::int8_t>(static_cast<std::uint8_t>(x & 0xff));
                }));
    check_exact("int32 -> uint16 (wraps)", hi, c_u16,
                host_map2<std::uint16_t>(hi, hi, [](std::int32_t x, std::int32_t) { return static_cast<std::uint16_t>(x); }));
    check_exact("int32 -> bool", hi, c_ib, host_map2<bool>(hi, hi, [](std::int32_t x, std::int32_t) { return x != 0; }));
    check_exact("float -> bool (NaN is true, -0 false)", hz, c_fb,
                host_map2<bool>(hz, hz, [](float x, float) { return x != 0; }));
    check_exact("double -> float (rounds to nearest)", hd, c_df,
                host_map2<float>(hd, hd, [](double x, double) { return static_cast<float>(x); }));
    check_exact("int64 -> double", hl, c_ld,
                host_map2<double>(hl, hl, [](std::int64_t x, std::int64_t) { return static_cast<double>(x); }));
    check_exact("int32 -> float", hi, c_if,
                host_map2<float>(hi, hi, [](std::int32_t x, std::int32_t) { return static_cast<float>(x); }));
    check_exact("int32 -> long long (int64)", hi, c_ill,
                host_map2<std::int64_t>(hi, hi, [](std::int32_t x, std::int32_t) { return std::int64_t(x); }));
    xt::xarray<float> want_mix = xt::xarray<float>::from_shape({n});
    for (std::size_t k = 0; k < n; ++k) want_mix(k) = (hb(k) ? 1.0f : 0.0f) * 2.0f + hf(k);
    check_exact("astype<float>(bool) * 2 + float stays float32", hf, c_mix, want_mix);
}
