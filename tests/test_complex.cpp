// complex64 / complex128 arrays against std::complex on the host: transfers, factories, views,
// host views, raw kernel arguments and pools on every storage policy; elementwise arithmetic,
// comparisons, parts and math functions over contiguous, strided, transposed, reversed and
// broadcast operands (within the bounds of docs/complex.md); NaN/inf cases against the formulas
// NumPy uses; astype between complex and every other kind; reductions and scans against plain
// host loops.
#include "reduce_reference.hpp"
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "xtensor_headers.hpp"

namespace {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

// complex128 (and float64 partners) need fp64.
template <class T> bool available() {
    if (std::is_same_v<ca::real_of_t<T>, double> && !test::ctx().device().has_fp64()) {
        WARN("skipped: device lacks fp64");
        return false;
    }
    return true;
}

using configs = std::tuple<test::cfg<c64, ca::svm_coarse>, test::cfg<c64, ca::svm_fine>,
                           test::cfg<c64, ca::buffer>, test::cfg<c128, ca::svm_coarse>,
                           test::cfg<c128, ca::buffer>>;

#define COMPLEX_REQUIRE_CFG(C)                                                                     \
    do {                                                                                           \
        if (!test::storage_available<typename C::storage>() ||                                     \
            !available<typename C::value_type>())                                                  \
            return;                                                                                \
    } while (0)

template <class T>
xt::xarray<T> crandom(const ca::shape_type& shape, unsigned seed, double lo = -3, double hi = 3) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    xt::xarray<T> a = xt::xarray<T>::from_shape(shape);
    for (auto& v : a) {
        const double re = d(rng), im = d(rng);
        v = T(static_cast<ca::real_of_t<T>>(re), static_cast<ca::real_of_t<T>>(im));
    }
    return a;
}

template <class T> double magnitude(T v) {
    return static_cast<double>(std::abs(v));
}
template <class T> bool any_nan(T v) {
    if constexpr (ca::detail::is_std_complex<T>::value)
        return std::isnan(v.real()) || std::isnan(v.imag());
    else
        return std::isnan(static_cast<double>(v));
}

// got ~ want elementwise: |got - want| <= ulps * eps * max(|want|, tiny) (normwise, for complex:
// docs/complex.md), or both NaN somewhere. eps is that of T's parts.
template <class T>
void check_close(const std::string& what, const xt::xarray<T>& got, const xt::xarray<T>& want,
                 double ulps) {
    REQUIRE(got.shape() == want.shape());
    using R = ca::real_of_t<T>;
    const double eps = std::numeric_limits<R>::epsilon();
    const double tiny = std::numeric_limits<R>::min();
    std::size_t bad = 0, worst = 0;
    double worst_err = -1;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const T g = got.flat(i), w = want.flat(i);
        double err;
        if (any_nan(w) || any_nan(g))
            err = any_nan(w) == any_nan(g) ? 0 : std::numeric_limits<double>::infinity();
        else if (g == w)
            err = 0;
        else
            err = magnitude(g - w) / std::max(magnitude(w), tiny) / eps;
        if (err > ulps) ++bad;
        if (err > worst_err) {
            worst_err = err;
            worst = i;
        }
    }
    INFO(what << ": " << bad << " of " << got.size() << " elements beyond " << ulps
              << " eps; worst " << worst_err << " eps at " << worst << ": got " << got.flat(worst)
              << ", want " << want.flat(worst));
    CHECK(bad == 0);
}

// Three operands that broadcast to one shape, in one of the layouts, with their host values
// broadcast to the result shape (computed from the host arrays by xtensor, not by clarray).
enum class layout_kind { contiguous, strided, transposed, reversed, broadcast };
const char* layout_name(layout_kind k) {
    switch (k) {
    case layout_kind::contiguous:
        return "contiguous";
    case layout_kind::strided:
        return "strided";
    case layout_kind::transposed:
        return "transposed";
    case layout_kind::reversed:
        return "reversed";
    default:
        return "broadcast";
    }
}
constexpr layout_kind all_layouts[] = {layout_kind::contiguous, layout_kind::strided,
                                       layout_kind::transposed, layout_kind::reversed,
                                       layout_kind::broadcast};
constexpr std::size_t R0 = 6, C0 = 7;

template <class T, class S> struct operand {
    ca::cl_array<T, S> dev;
    xt::xarray<T> host; // broadcast to {R0, C0}
};

template <class T, class S>
operand<T, S> make_operand(layout_kind k, unsigned seed, int which, double lo = -3, double hi = 3) {
    ca::queue& q = test::q();
    const ca::shape_type out{R0, C0};
    switch (k) {
    case layout_kind::contiguous: {
        xt::xarray<T> h = crandom<T>(out, seed, lo, hi);
        return {ca::to_device<S>(q, h), h};
    }
    case layout_kind::strided: {
        xt::xarray<T> h = crandom<T>({2 * R0, 2 * C0}, seed, lo, hi);
        auto d = ca::to_device<S>(q, h);
        return {d(ca::range(1, ca::none, 2), ca::range(0, ca::none, 2)),
                xt::view(h, xt::range(1, 2 * R0, 2), xt::range(0, 2 * C0, 2))};
    }
    case layout_kind::transposed: {
        xt::xarray<T> h = crandom<T>({C0, R0}, seed, lo, hi);
        return {ca::to_device<S>(q, h).transpose(), xt::transpose(h)};
    }
    case layout_kind::reversed: {
        xt::xarray<T> h = crandom<T>(out, seed, lo, hi);
        return {ca::to_device<S>(q, h)(ca::range(ca::none, ca::none, -1), ca::all()),
                xt::flip(h, 0)};
    }
    default: { // broadcast: a column, a row, and a 1-d row
        const ca::shape_type s = which == 0   ? ca::shape_type{R0, 1}
                                 : which == 1 ? ca::shape_type{1, C0}
                                              : ca::shape_type{C0};
        xt::xarray<T> h = crandom<T>(s, seed, lo, hi);
        xt::xarray<T> hb = xt::broadcast(h, std::vector<std::size_t>{R0, C0});
        return {ca::to_device<S>(q, h), hb};
    }
    }
}

// Host elementwise map of broadcast operands.
template <class R, class... T, class F> xt::xarray<R> host_map(F&& f, const xt::xarray<T>&... in) {
    const auto& first = std::get<0>(std::forward_as_tuple(in...));
    xt::xarray<R> out = xt::xarray<R>::from_shape(first.shape());
    for (std::size_t i = 0; i < out.size(); ++i)
        out.flat(i) = f(in.flat(i)...);
    return out;
}

} // namespace

TEMPLATE_LIST_TEST_CASE("complex arrays: transfers, factories, views, maps, raw kernels, pools",
                        "[complex]", configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using R = ca::real_of_t<T>;
    COMPLEX_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    const bool wide = std::is_same_v<R, double>;

    xt::xarray<T> h = crandom<T>({5, 6}, 1);
    auto a = ca::to_device<S>(q, h);
    CHECK(a.dtype == (wide ? ca::dtype::complex128 : ca::dtype::complex64));
    CHECK(a.nbytes() == 30 * 2 * sizeof(R));
    CHECK((a.get() == h));

    // Views read and write exactly their elements.
    CHECK((a(ca::range(1, 4), ca::range(ca::none, ca::none, 2)).get() ==
           xt::xarray<T>(xt::view(h, xt::range(1, 4), xt::range(0, 6, 2)))));
    CHECK((a.transpose().get() == xt::xarray<T>(xt::transpose(h))));
    CHECK((a(ca::all(), ca::range(ca::none, ca::none, -1)).get() == xt::xarray<T>(xt::flip(h, 1))));
    const xt::xarray<T> cols = crandom<T>({5, 3}, 2);
    a(ca::all(), ca::range(1, 6, 2)).set(cols);
    xt::view(h, xt::all(), xt::range(1, 6, 2)) = cols;
    CHECK((a.get() == h));
    CHECK(a(2, 3).item() == h(2, 3));
    CHECK((a.copy(ca::layout::f).get() == h));

    // set(std::vector), fill, factories.
    const std::vector<T> vec{T(1, 2), T(-3, 4.5), T(0, -0.25), T(1e3, 1e-3)};
    auto v = ca::to_device<S>(q, vec);
    for (std::size_t i = 0; i < vec.size(); ++i)
        CHECK(v(i).item() == vec[i]);
    a(ca::range(0, 2), ca::range(4, 6)).fill(T(7, -8));
    xt::view(h, xt::range(0, 2), xt::range(4, 6)) = T(7, -8);
    CHECK((a.get() == h));
    const auto z = ca::zeros<T, S>(q, {3, 4}).get();
    const auto o = ca::ones<T, S>(q, {3}).get();
    const auto f = ca::full<T, S>(q, {2, 2}, T(1.5, -2.5)).get();
    CHECK(std::all_of(z.begin(), z.end(), [](T x) { return x == T(0, 0); }));
    CHECK(std::all_of(o.begin(), o.end(), [](T x) { return x == T(1, 0); }));
    CHECK(std::all_of(f.begin(), f.end(), [](T x) { return x == T(1.5, -2.5); }));
    const auto fl = ca::full_like(a, T(0, 1)).get();
    CHECK(std::all_of(fl.begin(), fl.end(), [](T x) { return x == T(0, 1); }));
    CHECK(ca::empty<T, S>(q, {0, 3}).get().size() == 0);

    // Host views are typed std::complex.
    {
        auto hv = a(ca::range(1, 5), ca::all()).map(ca::access::read_write);
        static_assert(std::is_same_v<std::decay_t<decltype(hv(0, 0))>, T>);
        CHECK(hv(1, 2) == h(2, 2));
        hv(0, 0) = T(42, -1);
    }
    h(1, 0) = T(42, -1);
    CHECK((a.get() == h));

    // Raw kernels see float2 / double2 (x real, y imaginary), scalars included.
    const std::string t = wide ? "double2" : "float2";
    const std::string src =
        std::string(wide ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "") +
        "kernel void swap_scale(global " + t + "* z, " + t +
        " s) {\n"
        "    const size_t i = get_global_id(0);\n"
        "    z[i] = (" +
        t + ")(z[i].y * s.x, z[i].x * s.y);\n}\n";
    ca::program prg(test::ctx(), src);
    // SVM views are bound at their first element; Buffer views at an unaligned offset cannot
    // be (a documented limitation), so Buffer arrays pass the whole array.
    const std::size_t row = S::is_svm ? 2 : 0;
    auto rows = S::is_svm ? a(row) : a.reshape({30});
    prg.kernel("swap_scale")(q, {rows.size()}, ca::inout(rows), T(2, 3));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        T& e = h.flat(row * 6 + i);
        e = T(e.imag() * 2, e.real() * 3);
    }
    CHECK((a.get() == h));

    // Pools: arrays, results and temporaries of complex type.
    ca::pool_for_t<S> pool(test::ctx());
    ca::cl_array<T, S> p(q, {100}, pool);
    p.fill(T(0.5, 2));
    ca::cl_array<T, S> p2 = p * p;
    CHECK(p2.data()->pool() == p.data()->pool());
    const auto hp = p2.get();
    CHECK(std::all_of(hp.begin(), hp.end(), [](T x) { return x == T(0.5, 2) * T(0.5, 2); }));
}

TEMPLATE_LIST_TEST_CASE("complex arithmetic matches std::complex over layouts", "[complex]",
                        configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using R = ca::real_of_t<T>;
    COMPLEX_REQUIRE_CFG(TestType);
    for (layout_kind k : all_layouts) {
        INFO("layout " << layout_name(k));
        const auto A = make_operand<T, S>(k, 11, 0), B = make_operand<T, S>(k, 12, 1),
                   C = make_operand<T, S>(k, 13, 2);
        const auto &a = A.dev, &b = B.dev, &c = C.dev;
        const auto &ha = A.host, &hb = B.host, &hc = C.host;
        // The host values of an expression broadcast to the operands' common shape.
        const auto full = [](const auto& e) {
            using U = typename std::decay_t<decltype(e)>::value_type;
            ca::cl_array<U, S> out = ca::zeros<U, S>(test::q(), {R0, C0});
            out = e;
            return out.get();
        };

        ca::cl_array<T, S> r = a * b + c;
        check_close<T>("a * b + c", r.get(),
                       host_map<T>([](T x, T y, T z) { return x * y + z; }, ha, hb, hc), 4);
        r = (a - b) / c;
        check_close<T>("(a - b) / c", r.get(),
                       host_map<T>([](T x, T y, T z) { return (x - y) / z; }, ha, hb, hc), 8);
        r = -a + T(1, -2) * b - R(2) * c / T(0, 1);
        check_close<T>(
            "-a + (1-2i) b - 2 c / i", r.get(),
            host_map<T>([](T x, T y, T z) { return -x + T(1, -2) * y - R(2) * z / T(0, 1); }, ha,
                        hb, hc),
            8);
        // Parts, conjugate, modulus and angle.
        check_close<T>("conj(a) * b", ca::cl_array<T, S>(ca::conj(a) * b).get(),
                       host_map<T>([](T x, T y) { return std::conj(x) * y; }, ha, hb), 4);
        check_close<R>("real(a) + imag(b)", ca::cl_array<R, S>(ca::real(a) + ca::imag(b)).get(),
                       host_map<R>([](T x, T y) { return x.real() + y.imag(); }, ha, hb), 0);
        check_close<R>("abs(a)", full(ca::abs(a)), host_map<R>([](T x) { return std::abs(x); }, ha),
                       2);
        check_close<R>("angle(b)", full(ca::angle(b)),
                       host_map<R>([](T x) { return std::arg(x); }, hb), 4);
        // Equality: equal where the host says so (half the elements are made equal).
        // (full-shape copies: the broadcast layout's operands are a column and a row)
        ca::cl_array<T, S> d = ca::zeros<T, S>(test::q(), {R0, C0}), bf = d.copy();
        d = a;
        bf = b;
        d(ca::range(0, R0, 2)) = bf(ca::range(0, R0, 2));
        xt::xarray<T> hd = ha;
        for (std::size_t i = 0; i < R0; i += 2)
            for (std::size_t j = 0; j < C0; ++j)
                hd(i, j) = hb(i, j);
        ca::cl_array<bool, S> eq = d == b, ne = d != b;
        CHECK((eq.get() == host_map<bool>([](T x, T y) { return x == y; }, hd, hb)));
        CHECK((ne.get() == host_map<bool>([](T x, T y) { return x != y; }, hd, hb)));
        // Compound assignment in place.
        ca::cl_array<T, S> e = ca::zeros<T, S>(test::q(), {R0, C0});
        e = a;
        e *= b;
        e += R(1);
        check_close<T>("e *= b; e += 1", e.get(),
                       host_map<T>([](T x, T y) { return x * y + R(1); }, ha, hb), 4);
    }
}

TEST_CASE("complex promotion on the device: mixed operands take NumPy's type", "[complex]") {
    if (!available<c128>()) return;
    ca::queue& q = test::q();
    const xt::xarray<c64> hz = crandom<c64>({50}, 21);
    const auto z = ca::to_device<ca::buffer>(q, hz);
    xt::xarray<double> hd = xt::xarray<double>::from_shape({50});
    xt::xarray<std::int32_t> hi = xt::xarray<std::int32_t>::from_shape({50});
    xt::xarray<float> hf = xt::xarray<float>::from_shape({50});
    for (std::size_t i = 0; i < 50; ++i) {
        hd(i) = 1.0 / 3.0 + static_cast<double>(i);
        hi(i) = static_cast<std::int32_t>(i * 1000003 % 2000) - 1000;
        hf(i) = static_cast<float>(i) * 0.7f - 3.0f;
    }
    const auto d = ca::to_device<ca::buffer>(q, hd);
    const auto i32 = ca::to_device<ca::buffer>(q, hi);
    const auto f = ca::to_device<ca::buffer>(q, hf);

    // complex64 + float64 -> complex128, computed in complex128.
    auto r1 = ca::eval(z + d);
    static_assert(std::is_same_v<decltype(r1)::value_type, c128>);
    check_close<c128>("complex64 + float64", r1.get(),
                      host_map<c128>([](c64 x, double y) { return c128(x) + y; }, hz, hd), 0);
    // complex64 * int32 -> complex128.
    auto r2 = ca::eval(z * i32);
    static_assert(std::is_same_v<decltype(r2)::value_type, c128>);
    check_close<c128>(
        "complex64 * int32", r2.get(),
        host_map<c128>([](c64 x, std::int32_t y) { return c128(x) * double(y); }, hz, hi), 1);
    // float32 array * weak complex128 scalar -> complex64.
    auto r3 = ca::eval(f * c128(0.5, -2));
    static_assert(std::is_same_v<decltype(r3)::value_type, c64>);
    check_close<c64>("float32 * (0.5-2i)", r3.get(),
                     host_map<c64>([](float x) { return c64(x, 0) * c64(0.5f, -2.0f); }, hf), 1);
    // complex64 array with weak float / int scalars stays complex64.
    auto r4 = ca::eval(z * 2.5 + 1);
    static_assert(std::is_same_v<decltype(r4)::value_type, c64>);
    check_close<c64>("complex64 * 2.5 + 1", r4.get(),
                     host_map<c64>([](c64 x) { return x * 2.5f + 1.0f; }, hz), 1);
    // int32 array + weak complex scalar -> complex128.
    auto r5 = ca::eval(i32 + c64(1, 1));
    static_assert(std::is_same_v<decltype(r5)::value_type, c128>);
    check_close<c128>("int32 + (1+1i)", r5.get(),
                      host_map<c128>([](std::int32_t x) { return c128(x + 1.0, 1.0); }, hi), 0);
    // A complex result assigned into a float array keeps the real part (as astype).
    ca::cl_array<float, ca::buffer> re = ca::zeros<float, ca::buffer>(q, {50});
    re = z * z;
    check_close<float>("float = complex", re.get(),
                       host_map<float>([](c64 x) { return (x * x).real(); }, hz), 4);
}

TEMPLATE_TEST_CASE("complex math functions within the documented bounds", "[complex]", c64, c128) {
    using T = TestType;
    using R = ca::real_of_t<T>;
    if (!available<T>()) return;
    ca::queue& q = test::q();
    // The bounds of docs/complex.md, in eps of the part type, normwise.
    const xt::xarray<T> hz = crandom<T>({400}, 31, -4, 4);
    const xt::xarray<T> hw = crandom<T>({400}, 32, -2, 2);
    const auto z = ca::to_device<ca::buffer>(q, hz);
    const auto w = ca::to_device<ca::buffer>(q, hw);
    using A = ca::cl_array<T, ca::buffer>;
    check_close<T>("exp", A(ca::exp(z)).get(), host_map<T>([](T x) { return std::exp(x); }, hz), 8);
    check_close<T>("log", A(ca::log(z)).get(), host_map<T>([](T x) { return std::log(x); }, hz), 8);
    check_close<T>("sqrt", A(ca::sqrt(z)).get(), host_map<T>([](T x) { return std::sqrt(x); }, hz),
                   4);
    check_close<T>("sin", A(ca::sin(z)).get(), host_map<T>([](T x) { return std::sin(x); }, hz), 8);
    check_close<T>("cos", A(ca::cos(z)).get(), host_map<T>([](T x) { return std::cos(x); }, hz), 8);
    check_close<T>("tanh", A(ca::tanh(w)).get(), host_map<T>([](T x) { return std::tanh(x); }, hw),
                   16);
    // Past the cut-over to tanh(x) = +-1.
    const xt::xarray<T> hbig = crandom<T>({100}, 33, -40, 40);
    check_close<T>("tanh (large)", A(ca::tanh(ca::to_device<ca::buffer>(q, hbig))).get(),
                   host_map<T>([](T x) { return std::tanh(x); }, hbig), 16);
    // The other functions of the array API standard, against std::complex in long double; the
    // small arguments check the forms that keep a small z's digits.
    {
        using L = std::complex<long double>;
        const auto ref = [](auto f) { return [f](T x) { return T(f(L(x))); }; };
        const xt::xarray<T> hs = crandom<T>({100}, 34, -1e-3, 1e-3);
        const auto s = ca::to_device<ca::buffer>(q, hs);
        const xt::xarray<T> hm = crandom<T>({400}, 35, -0.95, 0.95); // inside the unit square
        const auto m = ca::to_device<ca::buffer>(q, hm);
#define COMPLEX_MATH_CHECK(NAME, ARG, HOST_ARG, BOUND, EXPR)                                       \
    check_close<T>(#NAME " on " #ARG, A(ca::NAME(ARG)).get(),                                      \
                   host_map<T>(ref([](L x) { return EXPR; }), HOST_ARG), BOUND)
        COMPLEX_MATH_CHECK(tan, w, hw, 16, std::tan(x));
        COMPLEX_MATH_CHECK(sinh, z, hz, 8, std::sinh(x));
        COMPLEX_MATH_CHECK(cosh, z, hz, 8, std::cosh(x));
        COMPLEX_MATH_CHECK(expm1, z, hz, 8, std::exp(x) - L(1));
        COMPLEX_MATH_CHECK(expm1, s, hs, 8, std::exp(x) - L(1));
        COMPLEX_MATH_CHECK(log1p, z, hz, 8, std::log(L(1) + x));
        COMPLEX_MATH_CHECK(log1p, s, hs, 8, std::log(L(1) + x));
        COMPLEX_MATH_CHECK(log2, z, hz, 8, std::log(x) / std::log(2.0L));
        COMPLEX_MATH_CHECK(log10, z, hz, 8, std::log10(x));
        for (const auto* arg : {&z, &s, &m}) {
            const xt::xarray<T>& h = arg == &z ? hz : arg == &s ? hs : hm;
            const auto& d = *arg;
            COMPLEX_MATH_CHECK(asin, d, h, 16, std::asin(x));
            COMPLEX_MATH_CHECK(acos, d, h, 16, std::acos(x));
            COMPLEX_MATH_CHECK(atan, d, h, 16, std::atan(x));
            COMPLEX_MATH_CHECK(asinh, d, h, 16, std::asinh(x));
            COMPLEX_MATH_CHECK(acosh, d, h, 16, std::acosh(x));
            COMPLEX_MATH_CHECK(atanh, d, h, 16, std::atanh(x));
        }
#undef COMPLEX_MATH_CHECK
    }
    check_close<T>("pow(z, w)", A(ca::pow(z, w)).get(),
                   host_map<T>([](T x, T y) { return std::pow(x, y); }, hz, hw), 64);
    // Integer exponents (NumPy's repeated multiplication) and a real one.
    for (double e : {2.0, 3.0, -2.0, 7.0, 0.5}) {
        INFO("exponent " << e);
        check_close<T>("pow(z, e)", A(ca::pow(z, T(R(e), 0))).get(),
                       host_map<T>([&](T x) { return std::pow(x, T(R(e), 0)); }, hz), 32);
    }
    // Real arguments give real results exactly where std::complex does.
    xt::xarray<T> hr = xt::xarray<T>::from_shape({5});
    const R reals[] = {0, 1, -1, 2.5, -0.125};
    for (std::size_t i = 0; i < 5; ++i)
        hr(i) = T(reals[i], 0);
    const auto ex = A(ca::exp(ca::to_device<ca::buffer>(q, hr))).get();
    for (std::size_t i = 0; i < 5; ++i)
        CHECK(ex(i).imag() == 0);
    const auto sq = A(ca::sqrt(ca::to_device<ca::buffer>(q, hr))).get();
    CHECK(sq(0) == T(0, 0));
    CHECK(sq(1) == T(1, 0));
    CHECK(sq(2) == T(0, 1));
}

TEST_CASE("complex NaN and infinity follow NumPy's formulas", "[complex]") {
    using T = c64;
    ca::queue& q = test::q();
    const float inf = std::numeric_limits<float>::infinity(),
                nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<T> vals{T(nan, 0),  T(0, nan), T(inf, 0), T(0, -inf), T(inf, inf),
                              T(-inf, 1), T(1, 2),   T(0, 0),   T(-0.0f, 0)};
    const auto a = ca::to_device<ca::buffer>(q, vals);
    const std::size_t n = vals.size();
    const auto isnan_ = ca::cl_array<bool, ca::buffer>(ca::isnan(a)).get();
    const auto isinf_ = ca::cl_array<bool, ca::buffer>(ca::isinf(a)).get();
    const auto isfin = ca::cl_array<bool, ca::buffer>(ca::isfinite(a)).get();
    const auto eq = ca::cl_array<bool, ca::buffer>(a == a).get();
    const auto ne = ca::cl_array<bool, ca::buffer>(a != a).get();
    const auto truth = ca::cl_array<bool, ca::buffer>(ca::astype<bool>(a)).get();
    const auto not_ = ca::cl_array<bool, ca::buffer>(!a).get();
    const auto ab = ca::cl_array<float, ca::buffer>(ca::abs(a)).get();
    // The product's plain formula (NumPy's), no C99 Annex G recovery.
    const T m(2, -1);
    const auto prod = ca::cl_array<T, ca::buffer>(a * m).get();
    for (std::size_t i = 0; i < n; ++i) {
        const T v = vals[i];
        INFO("element " << v);
        const bool has_nan = std::isnan(v.real()) || std::isnan(v.imag());
        const bool has_inf = std::isinf(v.real()) || std::isinf(v.imag());
        CHECK(isnan_(i) == has_nan);
        CHECK(isinf_(i) == has_inf);
        CHECK(isfin(i) == (!has_nan && !has_inf));
        CHECK(eq(i) == !has_nan);
        CHECK(ne(i) == has_nan);
        CHECK(truth(i) == (v.real() != 0 || v.imag() != 0));
        CHECK(not_(i) == !(v.real() != 0 || v.imag() != 0));
        // abs: NaN and infinity exactly; finite values within the documented 2 ulp (NVIDIA's
        // hypot is not correctly rounded: |1 + 2i| came out one ulp off).
        const float want_abs = std::abs(v);
        CHECK(
            ((std::isnan(ab(i)) && std::isnan(want_abs)) || ab(i) == want_abs ||
             (std::isfinite(want_abs) &&
              std::abs(ab(i) - want_abs) <= 2 * std::numeric_limits<float>::epsilon() * want_abs)));
        const T want(v.real() * m.real() - v.imag() * m.imag(),
                     v.real() * m.imag() + v.imag() * m.real());
        const auto same = [](float x, float y) {
            return (std::isnan(x) && std::isnan(y)) || x == y;
        };
        CHECK(same(prod(i).real(), want.real()));
        CHECK(same(prod(i).imag(), want.imag()));
    }
    // Division by zero gives infinities or NaN, as NumPy's (x / 0 per part).
    const auto q0 = ca::cl_array<T, ca::buffer>(a / T(0, 0)).get();
    CHECK(std::isinf(q0(6).real()));
    CHECK(std::isinf(q0(6).imag()));
    CHECK(std::isnan(q0(7).real()));
}

TEMPLATE_TEST_CASE("astype between complex and every kind", "[complex]", c64, c128) {
    using T = TestType;
    using R = ca::real_of_t<T>;
    if (!available<T>()) return;
    ca::queue& q = test::q();
    xt::xarray<T> h = crandom<T>({64}, 41, -100, 100);
    h(0) = T(0, 0);
    h(1) = T(0, -1);
    h(2) = T(-0.0, 0);
    h(3) = T(3, 0);
    const auto a = ca::to_device<ca::buffer>(q, h);
    // complex -> real drops the imaginary part; -> bool: either part non-zero.
    CHECK((ca::cl_array<R, ca::buffer>(ca::astype<R>(a)).get() ==
           host_map<R>([](T x) { return x.real(); }, h)));
    CHECK((ca::cl_array<float, ca::buffer>(ca::astype<float>(a)).get() ==
           host_map<float>([](T x) { return static_cast<float>(x.real()); }, h)));
    CHECK((ca::cl_array<std::int32_t, ca::buffer>(ca::astype<std::int32_t>(a)).get() ==
           host_map<std::int32_t>([](T x) { return static_cast<std::int32_t>(x.real()); }, h)));
    CHECK((ca::cl_array<std::int16_t, ca::buffer>(ca::astype<std::int16_t>(a)).get() ==
           host_map<std::int16_t>([](T x) { return static_cast<std::int16_t>(x.real()); }, h)));
    CHECK((ca::cl_array<bool, ca::buffer>(ca::astype<bool>(a)).get() ==
           host_map<bool>([](T x) { return x != T(0, 0); }, h)));
    // complex64 <-> complex128 and back.
    using W = std::conditional_t<std::is_same_v<T, c64>, c128, c64>;
    if (available<W>()) {
        const auto other = ca::cl_array<W, ca::buffer>(ca::astype<W>(a));
        CHECK((other.get() == host_map<W>([](T x) { return static_cast<W>(x); }, h)));
        if constexpr (std::is_same_v<T, c64>) // complex64 -> complex128 -> complex64 is exact
            CHECK((ca::cl_array<T, ca::buffer>(ca::astype<T>(other)).get() == h));
    }
    // real -> complex: imaginary part 0; round trips are exact.
    const xt::xarray<R> hr = host_map<R>([](T x) { return x.real(); }, h);
    const auto r = ca::to_device<ca::buffer>(q, hr);
    const auto rc = ca::cl_array<T, ca::buffer>(ca::astype<T>(r));
    CHECK((rc.get() == host_map<T>([](R x) { return T(x, 0); }, hr)));
    CHECK((ca::cl_array<R, ca::buffer>(ca::astype<R>(rc)).get() == hr));
    xt::xarray<std::int32_t> hi =
        host_map<std::int32_t>([](T x) { return static_cast<std::int32_t>(x.real()); }, h);
    CHECK((ca::cl_array<T, ca::buffer>(ca::astype<T>(ca::to_device<ca::buffer>(q, hi))).get() ==
           host_map<T>([](std::int32_t x) { return T(R(x), 0); }, hi)));
    xt::xarray<bool> hb = host_map<bool>([](T x) { return x.imag() > 0; }, h);
    CHECK((ca::cl_array<T, ca::buffer>(ca::astype<T>(ca::to_device<ca::buffer>(q, hb))).get() ==
           host_map<T>([](bool x) { return T(x ? 1 : 0, 0); }, hb)));
}

TEMPLATE_LIST_TEST_CASE("complex reductions and scans match host loops", "[complex]", configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using R = ca::real_of_t<T>;
    using H = std::conditional_t<std::is_same_v<R, float>, std::complex<double>,
                                 std::complex<long double>>; // host accumulator
    COMPLEX_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    const double eps = std::numeric_limits<R>::epsilon();

    for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(100003)}) {
        INFO("n = " << n);
        const xt::xarray<T> ha = crandom<T>({n}, 51), hb = crandom<T>({n}, 52);
        const auto a = ca::to_device<S>(q, ha);
        const auto b = ca::to_device<S>(q, hb);
        H s = 0, d = 0, vd = 0;
        long double abs_sum = 0, prod_abs = 0, sq = 0;
        for (std::size_t i = 0; i < n; ++i) {
            s += H(ha(i));
            d += H(ha(i)) * H(hb(i));
            vd += std::conj(H(ha(i))) * H(hb(i));
            abs_sum += std::abs(H(ha(i)));
            prod_abs += std::abs(H(ha(i))) * std::abs(H(hb(i)));
            sq += std::norm(H(ha(i)));
        }
        // The float error bound of docs/reductions.md, per part: 27 eps of the sum of |x|.
        const auto close = [&](T got, H want, long double scale) {
            return std::abs(H(got) - want) <= 27 * eps * scale * 2;
        };
        CHECK(close(ca::sum(a).item(), s, abs_sum));
        CHECK(close(ca::mean(a).item(), s / H(n), abs_sum / n));
        CHECK(close(ca::dot(a, b).item(), d, prod_abs));
        CHECK(close(ca::vdot(a, b).item(), vd, prod_abs));
        const R nrm = ca::norm(a).item();
        static_assert(std::is_same_v<decltype(ca::norm(a).item()), R>);
        CHECK(std::abs(nrm - std::sqrt(sq)) <= 30 * eps * std::sqrt(sq));
        CHECK(std::abs(ca::norm(a, 1).item() - abs_sum) <= 30 * eps * abs_sum);
        CHECK(ca::any(a).item());
        CHECK(ca::all(a).item());
        CHECK(!ca::any(a * T(0, 0)).item());
    }

    // 2-d over axes and layouts, keep_dims, cumsum and prod on a short axis.
    const xt::xarray<T> h = crandom<T>({9, 33}, 61);
    const auto a2 = ca::to_device<S>(q, h);
    for (int axis : {0, 1}) {
        INFO("axis " << axis);
        const std::vector<bool> mask{axis == 0, axis == 1};
        const auto want = test::reference_reduce<H>(
            h, mask, H(0), [](H acc, T v, std::size_t) { return acc + H(v); });
        const auto got = ca::sum(a2, {axis}).get();
        const auto got_t = ca::sum(a2.transpose(), {1 - axis}).get();
        const auto got_k = ca::sum(a2, {axis}, true).get();
        REQUIRE(got.size() == want.size());
        CHECK(got_k.dimension() == 2);
        for (std::size_t i = 0; i < want.size(); ++i) {
            CHECK(std::abs(H(got.flat(i)) - want.flat(i)) <= 64 * eps * 33 * 4.3);
            CHECK(std::abs(H(got_t.flat(i)) - want.flat(i)) <= 64 * eps * 33 * 4.3);
            CHECK(got_k.flat(i) == got.flat(i));
        }
    }
    // A strided view and a broadcast expression.
    const auto sv = a2(ca::range(1, ca::none, 2), ca::range(ca::none, ca::none, -3));
    const xt::xarray<T> hs = xt::view(xt::flip(h, 1), xt::range(1, 9, 2), xt::range(0, 33, 3));
    H ws = 0;
    for (const T& v : hs)
        ws += H(v);
    CHECK(std::abs(H(ca::sum(sv).item()) - ws) <= 64 * eps * 4.3 * hs.size());
    // Products: short rows so the values stay in range.
    const xt::xarray<T> hp = crandom<T>({5, 4}, 62, -1.2, 1.2);
    const auto p = ca::prod(ca::to_device<S>(q, hp), {1}).get();
    for (std::size_t r = 0; r < 5; ++r) {
        H w = 1;
        for (std::size_t c = 0; c < 4; ++c)
            w *= H(hp(r, c));
        CHECK(std::abs(H(p(r)) - w) <= 16 * eps * std::abs(w) + 16 * eps);
    }
    // cumsum along an axis and flattened.
    const auto cs = ca::cumsum(a2, 1).get();
    const auto cf = ca::cumsum(a2).get();
    H run = 0;
    for (std::size_t r = 0; r < 9; ++r) {
        H row = 0;
        for (std::size_t c = 0; c < 33; ++c) {
            row += H(h(r, c));
            run += H(h(r, c));
            CHECK(std::abs(H(cs(r, c)) - row) <= 8 * eps * 4.3 * (c + 1));
            CHECK(std::abs(H(cf(r * 33 + c)) - run) <= 8 * eps * 4.3 * (r * 33 + c + 1));
        }
    }
    // var / stddev of complex: real, the mean squared modulus of the deviation.
    {
        H m = 0;
        for (const T& v : h)
            m += H(v);
        m /= static_cast<long double>(h.size());
        long double v2 = 0;
        for (const T& v : h)
            v2 += std::norm(H(v) - m);
        v2 /= h.size();
        const R var = ca::var(a2).item();
        CHECK(std::abs(var - v2) <= 64 * eps * v2);
        CHECK(std::abs(ca::stddev(a2).item() - std::sqrt(v2)) <= 64 * eps * std::sqrt(v2));
    }
    // Zero-size: sum 0, prod 1, mean NaN, any false, all true.
    const auto e = ca::empty<T, S>(q, {0});
    CHECK(ca::sum(e).item() == T(0, 0));
    CHECK(ca::prod(e).item() == T(1, 0));
    CHECK(any_nan(ca::mean(e).item()));
    CHECK(!ca::any(e).item());
    CHECK(ca::all(e).item());
    CHECK(ca::norm(e).item() == R(0));
    CHECK(ca::cumsum(e).size() == 0);
}

TEST_CASE("complex128 on a device without fp64 is refused, naming the type and the device",
          "[complex][errors]") {
    // As for float64 (test_bad_input.cpp): CLARRAY_DISABLE_FP64 makes a device object report
    // fp64 absent.
    ::setenv("CLARRAY_DISABLE_FP64", "1", 1);
    ca::device dev(test::ctx().device().id());
    ::unsetenv("CLARRAY_DISABLE_FP64");
    REQUIRE_FALSE(dev.has_fp64());
    ca::context ctx(dev, test::ctx().options());
    ca::queue q(ctx);
    const auto refused = [&](const std::function<void()>& f) {
        try {
            f();
        } catch (const ca::unsupported& e) {
            const std::string what = e.what();
            INFO(what);
            CHECK(what.find("complex128") != std::string::npos);
            CHECK(what.find(dev.name()) != std::string::npos);
            return true;
        }
        return false;
    };
    // Memory commands need no fp64; kernels over complex128 do.
    auto z = ca::zeros<c128, ca::buffer>(q, {4});
    auto c = ca::ones<c64, ca::buffer>(q, {4});
    CHECK(refused([&] { (void)z(ca::range(0, 4, 2)).copy(); }));
    CHECK(refused([&] { ca::cl_array<c128, ca::buffer> w = ca::astype<c128>(c); }));
    CHECK(refused([&] { z = z * c; }));
    // complex64 is fine.
    ca::cl_array<c64, ca::buffer> w = c * c + c64(0, 1);
    const auto hw = w.get();
    CHECK(std::all_of(hw.begin(), hw.end(), [](c64 x) { return x == c64(1, 1); }));
}

TEMPLATE_TEST_CASE("complex dtype traits match std::complex, OpenCL C and NumPy",
                   "[complex][dtype]", c64, c128) {
    using T = TestType;
    using R = ca::real_of_t<T>;
    using tr = ca::dtype_traits<T>;
    constexpr bool wide = std::is_same_v<R, double>;
    static_assert(std::is_same_v<R, std::conditional_t<wide, double, float>>);
    CHECK(tr::id == (wide ? ca::dtype::complex128 : ca::dtype::complex64));
    CHECK(tr::kind == ca::dtype_kind::complex);
    CHECK(std::string(tr::name) == (wide ? "complex128" : "complex64"));
    CHECK(std::string(tr::cl_name) == (wide ? "double2" : "float2"));
    CHECK(tr::size == sizeof(T));
    CHECK(std::is_same_v<typename tr::stored_type, T>);
    CHECK(std::is_same_v<typename tr::sum_accumulator, T>); // NumPy sums complex in its type
    CHECK((tr::extension == nullptr) == !wide);
    CHECK(ca::is_complex_v<T>);
    CHECK(ca::is_inexact_v<T>);
    CHECK_FALSE(ca::is_floating_v<T>);
    CHECK_FALSE(ca::is_integer_v<T>);
    CHECK(std::is_same_v<ca::complex_of_t<R>, T>);
    CHECK(ca::is_complex(tr::id));
    CHECK_FALSE(ca::is_floating(tr::id));
    CHECK(ca::dtype_kind_of(tr::id) == ca::dtype_kind::complex);
    CHECK(ca::dtype_size(tr::id) == sizeof(T));
    // The device's float2 / double2: size, alignment (8 / 16: a view's element offset times
    // the size keeps every element aligned) and part order.
    if (!available<T>()) return;
    const std::string t = tr::cl_name;
    std::string src = wide ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
    src += "kernel void probe(global long* r, global const " + t +
           "* z) {\n"
           "    r[0] = sizeof(" +
           t + ");\n    r[1] = __alignof__(" + t +
           ");\n    r[2] = (long)(z[1].x * 10 + z[1].y);\n}\n";
    ca::program prg(test::ctx(), src);
    auto r = ca::zeros<std::int64_t, ca::buffer>(test::q(), {3});
    auto z = ca::to_device<ca::buffer>(test::q(), std::vector<T>{T(9, 9), T(4, 2)});
    prg.kernel("probe")(test::q(), {1}, ca::out(r), ca::in(z));
    const auto h = r.get();
    CHECK(h(0) == static_cast<std::int64_t>(sizeof(T)));
    CHECK(h(1) == static_cast<std::int64_t>(sizeof(T)));
    CHECK(h(2) == 42);
    // Generated kernels enable fp64 for complex128 only.
    ca::detail::source_builder b;
    const std::string v = b.array_input(tr::id);
    CHECK(b.uses_fp64() == wide);
    const ca::detail::assign_kernel_spec flat{ca::detail::assign_shape::flat, 1, true};
    CHECK((ca::detail::assign_source(b, {ca::dtype::float32},
                                     {ca::detail::cl_convert(ca::dtype::float32, tr::id, v)}, {},
                                     flat)
               .find("cl_khr_fp64") != std::string::npos) == wide);
}
