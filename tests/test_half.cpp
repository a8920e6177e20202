// float16 (clarray::half): the host conversions against an independent nearest-even reference;
// the device's vload_half / vstore_half_rte on all 65536 bit patterns and on the rounding cases
// of float and double values; elementwise arithmetic and math, mixed promotion, reductions and
// scans against host float computations rounded to half, over storage policies and layouts;
// factories, views, host views, raw kernel arguments, pools and zero-size arrays.
#include "half_reference.hpp"
#include "support.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

#include "xtensor_headers.hpp"

namespace {

using ca::half;

// ---- independent references ----

// The nearest float16 value of x (ties to even), as a double: x scaled to units of its half ulp
// and rounded by nearbyint (the default rounding mode is to nearest even). Values from 65520 up
// round to infinity, as IEEE 754 overflow does.
template <class F> double nearest_half(F x) {
    if (std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
    const double a = std::fabs(static_cast<double>(x));
    if (a >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), x);
    if (a == 0) return static_cast<double>(x);
    const int e = std::max(std::ilogb(a), -14); // binade, subnormals share 2^-14's
    const double ulp = std::ldexp(1.0, e - 10);
    const double r = std::nearbyint(a / ulp) * ulp; // exact: ulp is a power of two
    return std::copysign(r, static_cast<double>(x));
}

// Distance in representable halves (0: the same value; NaN matches only NaN).
long ulps(half a, half b) {
    const bool an = std::isnan(float(a)), bn = std::isnan(float(b));
    if (an || bn) return an && bn ? 0 : 1L << 20;
    auto ordered = [](half h) {
        const long m = h.bits() & 0x7fff;
        return (h.bits() & 0x8000) ? -m : m;
    };
    return std::labs(ordered(a) - ordered(b));
}

void check_halves(const std::string& what, const xt::xarray<half>& got,
                  const xt::xarray<half>& want, long max_ulps = 0) {
    INFO(what);
    REQUIRE(got.shape() == want.shape());
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (ulps(got.flat(i), want.flat(i)) > max_ulps && bad++ == 0) first = i;
    INFO("first mismatch at flat index " << first << ": got " << float(got.flat(first)) << ", want "
                                         << float(want.flat(first)));
    CHECK(bad == 0);
}

// Random halves in [lo, hi) (rounded from doubles), deterministic.
xt::xarray<half> random_halves(const ca::shape_type& shape, double lo, double hi, unsigned seed) {
    std::mt19937_64 rng(seed);
    xt::xarray<half> a = xt::xarray<half>::from_shape(shape);
    for (auto& v : a)
        v = half(std::uniform_real_distribution<double>(lo, hi)(rng));
    return a;
}

// Values whose results exercise rounding, specials included: random, zeros, inf, NaN, the
// largest and smallest magnitudes.
xt::xarray<half> operand_values(const ca::shape_type& shape, unsigned seed) {
    xt::xarray<half> a = random_halves(shape, -12.0, 12.0, seed);
    const std::vector<half> special = test::half_specials();
    for (std::size_t i = 0; i < std::size(special) && i * 7 + seed % 7 < a.size(); ++i)
        a.flat(i * 7 + seed % 7) = special[i];
    return a;
}

// A device view holding h (2-d) in the layout numbered `layout`: 0 C-contiguous, 1 a transposed
// (F-order) view, 2 every other column of a wider array, 3 rows 1.. of a taller array (offset).
const char* const layout_names[] = {"contiguous", "transposed", "column step 2", "offset rows"};
template <class T, class S> ca::cl_array<T, S> place(const xt::xarray<T>& h, int layout) {
    const std::size_t r = h.shape(0), c = h.shape(1);
    switch (layout) {
    case 1: {
        xt::xarray<T> t = xt::transpose(h);
        return ca::to_device<S>(test::q(), t).transpose();
    }
    case 2: {
        auto wide = ca::zeros<T, S>(test::q(), {r, 2 * c});
        auto v = wide(ca::all(), ca::range(0, static_cast<std::ptrdiff_t>(2 * c), 2));
        v.set(h);
        return v;
    }
    case 3: {
        auto tall = ca::zeros<T, S>(test::q(), {r + 1, c});
        auto v = tall(ca::range(1, static_cast<std::ptrdiff_t>(r + 1)), ca::all());
        v.set(h);
        return v;
    }
    default:
        return ca::to_device<S>(test::q(), h);
    }
}

using test::host_map;
using test::host_zip;

} // namespace

TEST_CASE("float16 host type: traits, limits, conversions", "[half]") {
    using tr = ca::dtype_traits<half>;
    CHECK(tr::id == ca::dtype::float16);
    CHECK(tr::kind == ca::dtype_kind::floating);
    CHECK(tr::size == 2);
    CHECK(std::string(tr::name) == "float16");
    CHECK(std::string(tr::cl_name) == "half");
    CHECK(std::string(ca::cl_value_type_name(ca::dtype::float16)) == "float");
    CHECK(tr::extension == nullptr); // no cl_khr_fp16: vload_half / vstore_half are core
    CHECK(std::is_same_v<tr::stored_type, half>);
    CHECK(std::is_same_v<tr::sum_accumulator, float>);
    CHECK(std::is_same_v<ca::float_of_t<half>, half>);
    CHECK(std::is_same_v<ca::true_divide_t<half>, half>);
    CHECK(std::is_trivially_copyable_v<half>);

    using L = std::numeric_limits<half>;
    CHECK(float(L::max()) == 65504.0f);
    CHECK(float(L::lowest()) == -65504.0f);
    CHECK(float(L::min()) == std::ldexp(1.0f, -14));
    CHECK(float(L::denorm_min()) == std::ldexp(1.0f, -24));
    CHECK(float(L::epsilon()) == std::ldexp(1.0f, -10));
    CHECK(std::isinf(float(L::infinity())));
    CHECK(std::isnan(float(L::quiet_NaN())));
    CHECK(std::isnan(float(L::signaling_NaN())));
    CHECK(half(1.0f) + L::epsilon() != half(1.0f));
    CHECK(half(1.0f) + half(float(L::epsilon()) / 2) == half(1.0f)); // tie to even

    // Every half converts to float and back unchanged (NaNs stay NaN), and to_float agrees
    // with the reference (a half value is its nearest half).
    for (std::uint32_t b = 0; b < 65536; ++b) {
        const half h = half::from_bits(static_cast<std::uint16_t>(b));
        const float f = h;
        if (std::isnan(f)) {
            CHECK(((b & 0x7c00u) == 0x7c00u && (b & 0x3ffu) != 0));
            CHECK(std::isnan(float(half(f))));
            continue;
        }
        if (half(f).bits() != b || nearest_half(f) != static_cast<double>(f)) {
            FAIL_CHECK("bits " << b << " -> " << f << " -> " << half(f).bits());
        }
    }
    // float and double -> half against the reference: every tie between neighbouring halves, its
    // float neighbours, and for double the values just off the tie that float cannot hold.
    std::size_t bad = 0;
    for (std::uint32_t b = 0; b < 0x7c00u; ++b) {
        const double lo = float(half::from_bits(static_cast<std::uint16_t>(b)));
        const double hi = b + 1 < 0x7c00u
                              ? double(float(half::from_bits(static_cast<std::uint16_t>(b + 1))))
                              : 65536.0; // past max: the tie at 65520
        const double mid = (lo + hi) / 2;
        for (double s : {1.0, -1.0}) {
            const float fm = static_cast<float>(s * mid);
            for (float f : {fm, std::nextafter(fm, 0.0f), std::nextafter(fm, 2 * fm)})
                bad += float(half(f)) != static_cast<float>(nearest_half(f));
            for (double d : {s * mid, s * (mid + mid * 0x1p-40), s * (mid - mid * 0x1p-40)})
                bad += float(half(d)) != static_cast<float>(nearest_half(d));
        }
    }
    CHECK(bad == 0);
    CHECK(half(1e10f).bits() == 0x7c00u);
    CHECK(half(-1e300).bits() == 0xfc00u);
    CHECK(half(65519.0f).bits() == 0x7bffu);
    CHECK(std::isnan(float(half(std::numeric_limits<double>::quiet_NaN()))));
    CHECK(half(std::ldexp(1.0f, -25)).bits() == 0); // the tie between 0 and 2^-24
    CHECK(half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)).bits() == 1);
    CHECK(half(3).bits() == half(3.0f).bits());
    CHECK(half(2.5f) < half(3.0f));
    CHECK(half(2.5f) + 1.0f == 3.5f); // mixed arithmetic computes in float

    // xtensor containers: construction, arithmetic through float, printing.
    xt::xarray<half> x = {half(1.5f), half(-2.0f)};
    std::ostringstream os;
    os << x;
    CHECK(os.str().find("1.5") != std::string::npos);
    CHECK(float(x(0) * x(1)) == -3.0f);
}

TEST_CASE("float16 on the device: all 65536 bit patterns through vload_half / vstore_half",
          "[half]") {
    std::vector<half> all(65536);
    for (std::uint32_t b = 0; b < 65536; ++b)
        all[b] = half::from_bits(static_cast<std::uint16_t>(b));
    auto run = [&](auto storage) {
        using S = decltype(storage);
        if (!test::storage_available<S>()) return;
        INFO(S::name);
        auto h = ca::to_device<S>(test::q(), all);
        ca::cl_array<float, S> f = ca::astype<float>(h);  // vload_half
        ca::cl_array<half, S> back = f * 1;               // vstore_half_rte on the store
        ca::cl_array<half, S> cast = ca::astype<half>(f); // the explicit cast's rounding
        ca::cl_array<half, S> moved = h(ca::range(1, 65536, 2)).copy(); // 16-bit moves
        const auto hf = f.get();
        const auto hb = back.get(), hc = cast.get(), hm = moved.get();
        std::size_t bad = 0;
        for (std::uint32_t b = 0; b < 65536; ++b) {
            const float want = half::to_float(static_cast<std::uint16_t>(b));
            if (std::isnan(want)) {
                bad += !std::isnan(hf(b)) + !std::isnan(float(hb(b))) + !std::isnan(float(hc(b)));
            } else {
                bad += std::memcmp(&want, &hf(b), sizeof want) != 0;
                bad += hb(b).bits() != b;
                bad += hc(b).bits() != b;
            }
            if (b % 2) bad += hm(b / 2).bits() != b; // copies keep every bit, NaN payloads too
        }
        CHECK(bad == 0);
    };
    run(ca::svm_coarse{});
    run(ca::svm_fine{});
    run(ca::buffer{});
}

TEST_CASE("float16 on the device: float and double values round to nearest even", "[half]") {
    // Every tie between neighbouring halves (positive and negative) and its float neighbours,
    // subnormals, overflow, inf and NaN.
    std::vector<float> fv;
    std::vector<double> dv;
    for (std::uint32_t b = 0; b < 0x7c00u; ++b) {
        const double lo = half::to_float(static_cast<std::uint16_t>(b));
        const double hi =
            b + 1 < 0x7c00u ? half::to_float(static_cast<std::uint16_t>(b + 1)) : 65536.0;
        const double mid = (lo + hi) / 2;
        for (double s : {1.0, -1.0}) {
            const float fm = static_cast<float>(s * mid);
            fv.insert(fv.end(), {fm, std::nextafter(fm, 0.0f), std::nextafter(fm, 2 * fm)});
            if (b % 8 == 0)
                dv.insert(dv.end(),
                          {s * mid, s * (mid + mid * 0x1p-40), s * (mid - mid * 0x1p-40)});
        }
    }
    const float inf = std::numeric_limits<float>::infinity();
    fv.insert(fv.end(), {0.0f, -0.0f, 1e-30f, -1e-30f, 65504.0f, 65519.99f, 65520.0f, 1e10f, inf,
                         -inf, std::numeric_limits<float>::quiet_NaN()});
    auto check = [](const std::string& what, const auto& values, const xt::xarray<half>& got) {
        INFO(what);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double want = nearest_half(values[i]);
            const float g = got(i);
            bad += std::isnan(want)
                       ? !std::isnan(g)
                       : (g != static_cast<float>(want) || std::signbit(g) != std::signbit(want));
        }
        CHECK(bad == 0);
    };
    auto f = ca::to_device<ca::buffer>(test::q(), fv);
    ca::cl_array<half, ca::buffer> h = f * 1;
    check("float array stored into float16", fv, h.get());
    ca::cl_array<half, ca::buffer> c = ca::astype<half>(f) * 1; // the cast's rounding
    check("astype<half>(float) inside an expression", fv, c.get());
    if (test::ctx().device().has_fp64()) {
        auto d = ca::to_device<ca::buffer>(test::q(), dv);
        ca::cl_array<half, ca::buffer> hd = d * 1;
        check("double array stored into float16 (one rounding)", dv, hd.get());
        ca::cl_array<half, ca::buffer> hc = ca::astype<half>(d) * 1;
        check("astype<half>(double) inside an expression", dv, hc.get());
    } else {
        WARN("skipped float64 -> float16: device lacks fp64");
    }
}

TEMPLATE_TEST_CASE("float16 arithmetic and math match float computed on the host and rounded",
                   "[half]", CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    const ca::shape_type shape{37, 45};
    const xt::xarray<half> ha = operand_values(shape, 1), hb = operand_values(shape, 2);
    const xt::xarray<half> hrow = random_halves({1, 45}, -3, 3, 3);
    const xt::xarray<half> hc = random_halves(shape, -100, 100, 4); // finite
    for (int la = 0; la < 4; ++la) {
        const int lo = (la + 1) % 4; // the output in another layout
        INFO("input layout " << layout_names[la] << ", output layout " << layout_names[lo]);
        const auto a = place<half, S>(ha, la);
        const auto b = place<half, S>(hb, (la + 2) % 4);
        const auto row = ca::to_device<S>(test::q(), hrow);
        const auto c = place<half, S>(hc, (la + 3) % 4);
        auto out = place<half, S>(random_halves(shape, 0, 1, 9), lo);
        auto eval = [&](const auto& e) {
            out = e;
            return out.get();
        };
        check_halves("a + b", eval(a + b),
                     host_zip(ha, hb, [](float x, float y) { return x + y; }));
        check_halves("a - b", eval(a - b),
                     host_zip(ha, hb, [](float x, float y) { return x - y; }));
        check_halves("a * b", eval(a * b),
                     host_zip(ha, hb, [](float x, float y) { return x * y; }));
        check_halves("a / b", eval(a / b), host_zip(ha, hb, [](float x, float y) { return x / y; }),
                     1);
        // Intermediates stay float: one rounding at the store.
        check_halves("a * b + a", eval(a * b + a),
                     host_zip(ha, hb, [](float x, float y) { return x * y + x; }));
        check_halves("a + row (broadcast)", eval(a + row), [&] {
            xt::xarray<half> r = xt::xarray<half>::from_shape(shape);
            for (std::size_t i = 0; i < shape[0]; ++i)
                for (std::size_t j = 0; j < shape[1]; ++j)
                    r(i, j) = half(float(ha(i, j)) + float(hrow(0, j)));
            return r;
        }());
        // A weak float scalar becomes float16 first (NEP 50), as NumPy's float16 * 0.1.
        const float tenth = half(0.1);
        check_halves("a * 0.1", eval(a * 0.1), host_map(ha, [&](float x) { return x * tenth; }));
        check_halves("2 - a", eval(2 - a), host_map(ha, [](float x) { return 2 - x; }));
        check_halves("-a", eval(-a), host_map(ha, [](float x) { return -x; }));
        check_halves("abs(a)", eval(ca::abs(a)),
                     host_map(ha, [](float x) { return std::fabs(x); }));
        check_halves("maximum(a, b)", eval(ca::maximum(a, b)),
                     host_zip(ha, hb, [](float x, float y) {
                         return std::isnan(x) || std::isnan(y) ? x + y : std::max(x, y);
                     }));
        check_halves("where(a < b, a, b)", eval(ca::where(a < b, a, b)),
                     host_zip(ha, hb, [](float x, float y) { return x < y ? x : y; }));
        check_halves("floor_divide(c, 3)", eval(ca::floor_divide(c, 3)),
                     host_map(hc, [](float x) { return std::floor(x / 3); }));
        // Math functions (float on the device within a few float ulps: 1 half ulp).
        check_halves("sin(a)", eval(ca::sin(a)), host_map(ha, [](float x) { return std::sin(x); }),
                     1);
        check_halves("exp(a)", eval(ca::exp(a)), host_map(ha, [](float x) { return std::exp(x); }),
                     1);
        check_halves("sqrt(abs(a))", eval(ca::sqrt(ca::abs(a))),
                     host_map(ha, [](float x) { return std::sqrt(std::fabs(x)); }), 1);
        check_halves("log(abs(b)) * a", eval(ca::log(ca::abs(b)) * a),
                     host_zip(ha, hb, [](float x, float y) { return std::log(std::fabs(y)) * x; }),
                     1);
        check_halves("pow(a, 2)", eval(ca::pow(a, 2.0)),
                     host_map(ha, [](float x) { return std::pow(x, 2.0f); }), 1);
        check_halves("floor(a * 1.5)", eval(ca::floor(a * 1.5)),
                     host_map(ha, [](float x) { return std::floor(x * 1.5f); }));
        // nextafter steps to the neighbouring float16 (bits +-1 in sign-magnitude order).
        check_halves("nextafter(a, b)", eval(ca::nextafter(a, b)), [&] {
            xt::xarray<half> r = xt::xarray<half>::from_shape(shape);
            for (std::size_t i = 0; i < ha.size(); ++i) {
                const float x = ha.flat(i), y = hb.flat(i);
                const auto bits = ha.flat(i).bits();
                if (std::isnan(x) || std::isnan(y))
                    r.flat(i) = std::numeric_limits<half>::quiet_NaN();
                else if (x == y)
                    r.flat(i) = hb.flat(i);
                else if (x == 0)
                    r.flat(i) = half::from_bits(y > 0 ? 0x0001 : 0x8001);
                else // away from zero: the next magnitude up, else down
                    r.flat(i) = half::from_bits(
                        static_cast<std::uint16_t>((y > x) == (x > 0) ? bits + 1 : bits - 1));
            }
            return r;
        }());
        // Comparisons and classification give bool.
        ca::cl_array<bool, S> lt = a < b, nan = ca::isnan(a);
        const auto hlt = lt.get(), hnan = nan.get();
        std::size_t bad = 0;
        for (std::size_t i = 0; i < ha.size(); ++i) {
            bad += hlt.flat(i) != (float(ha.flat(i)) < float(hb.flat(i)));
            bad += hnan.flat(i) != std::isnan(float(ha.flat(i)));
        }
        CHECK(bad == 0);
        // Compound assignment in place.
        auto acc = place<half, S>(ha, lo);
        acc += b;
        check_halves("acc += b", acc.get(),
                     host_zip(ha, hb, [](float x, float y) { return x + y; }));
    }
}

TEST_CASE("float16 promotion on the device: float32, int8, int16 and weak scalars", "[half]") {
    const ca::shape_type shape{300};
    const xt::xarray<half> hh = random_halves(shape, -100, 100, 5);
    xt::xarray<float> hf = test::random_array<float>(shape, 6);
    xt::xarray<std::int8_t> h8 = test::random_array<std::int8_t>(shape, 7);
    xt::xarray<std::int16_t> h16 = test::random_array<std::int16_t>(shape, 8);
    auto h = ca::to_device<ca::buffer>(test::q(), hh);
    auto f = ca::to_device<ca::buffer>(test::q(), hf);
    auto i8 = ca::to_device<ca::buffer>(test::q(), h8);
    auto i16 = ca::to_device<ca::buffer>(test::q(), h16);

    auto hf_sum = ca::eval(h + f); // float32: no rounding to half
    static_assert(std::is_same_v<decltype(hf_sum)::value_type, float>);
    auto i8_sum = ca::eval(i8 * h); // float16
    static_assert(std::is_same_v<decltype(i8_sum)::value_type, half>);
    auto i16_sum = ca::eval(i16 - h); // float32
    static_assert(std::is_same_v<decltype(i16_sum)::value_type, float>);
    auto weak = ca::eval(h + 1000); // an int scalar keeps float16
    static_assert(std::is_same_v<decltype(weak)::value_type, half>);
    const auto g1 = hf_sum.get(), g3 = i16_sum.get();
    const auto g2 = i8_sum.get(), g4 = weak.get();
    std::size_t bad = 0;
    for (std::size_t i = 0; i < shape[0]; ++i) {
        bad += g1(i) != float(hh(i)) + hf(i);
        bad += g2(i).bits() != half(float(h8(i)) * float(hh(i))).bits();
        bad += g3(i) != float(h16(i)) - float(hh(i));
        bad += g4(i).bits() != half(float(hh(i)) + 1000.0f).bits();
    }
    CHECK(bad == 0);
    // Math functions of float16 give float16; of int8 keep float32 (float_of_t).
    static_assert(std::is_same_v<decltype(ca::eval(ca::sin(h)))::value_type, half>);
    static_assert(std::is_same_v<decltype(ca::eval(ca::sin(i8)))::value_type, float>);
}

TEST_CASE("float16 astype to and from every dtype", "[half]") {
    const ca::shape_type shape{64};
    xt::xarray<half> hh = xt::xarray<half>::from_shape(shape);
    for (std::size_t i = 0; i < shape[0]; ++i) // integers and halves in 0..120, exact everywhere
        hh(i) = half(static_cast<float>(i * 15 % 241) / 2);
    auto h = ca::to_device<ca::buffer>(test::q(), hh);
    auto one = [&](auto type) {
        using T = decltype(type);
        if (!test::dtype_available<T>()) return;
        INFO(ca::dtype_traits<T>::name);
        ca::cl_array<T, ca::buffer> to = ca::astype<T>(h);
        const auto got = to.get();
        xt::xarray<T> src = xt::xarray<T>::from_shape(shape);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < shape[0]; ++i) {
            const T want = std::is_same_v<T, bool> ? static_cast<T>(float(hh(i)) != 0)
                                                   : static_cast<T>(float(hh(i)));
            bad += got(i) != want;
            src(i) = static_cast<T>(i * 7 % 100);
        }
        ca::cl_array<half, ca::buffer> back =
            ca::astype<half>(ca::to_device<ca::buffer>(test::q(), src));
        const auto gb = back.get();
        for (std::size_t i = 0; i < shape[0]; ++i)
            bad += gb(i).bits() != half(static_cast<double>(src(i))).bits();
        CHECK(bad == 0);
    };
    std::apply(
        [&](auto... t) { (one(t), ...); },
        std::tuple<bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                   std::uint32_t, std::int64_t, std::uint64_t, half, float, double>{});
}

TEMPLATE_TEST_CASE("float16 reductions accumulate in float and round once", "[half]",
                   CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    const ca::shape_type shape{29, 150};
    // Positive values: partial sums grow, so float and double sums round to the same half
    // (within one ulp for ties).
    const xt::xarray<half> hp = random_halves(shape, 0.5, 2.0, 11);
    xt::xarray<half> hv = random_halves(shape, -50, 50, 12);
    for (int layout : {0, 1, 2}) {
        INFO("layout " << layout_names[layout]);
        const auto p = place<half, S>(hp, layout);
        const auto v = place<half, S>(hv, layout);
        // sum / mean / prod over all, axis 0, axis 1 against double accumulation.
        auto reference = [&](const xt::xarray<half>& h, int axis, auto init, auto combine,
                             bool mean) {
            const std::size_t rows = h.shape(0), cols = h.shape(1);
            const std::size_t n_out = axis < 0 ? 1 : (axis == 0 ? cols : rows);
            const std::size_t len = axis < 0 ? h.size() : (axis == 0 ? rows : cols);
            xt::xarray<half> r =
                xt::xarray<half>::from_shape(axis < 0 ? ca::shape_type{} : ca::shape_type{n_out});
            for (std::size_t o = 0; o < n_out; ++o) {
                double acc = init;
                for (std::size_t k = 0; k < len; ++k) {
                    const half x = axis < 0 ? h.flat(k) : (axis == 0 ? h(k, o) : h(o, k));
                    acc = combine(acc, static_cast<double>(float(x)));
                }
                r.flat(o) = half(mean ? acc / static_cast<double>(len) : acc);
            }
            return r;
        };
        auto add = [](double x, double y) { return x + y; };
        auto mul = [](double x, double y) { return x * y; };
        check_halves("sum", ca::sum(p).get(), reference(hp, -1, 0.0, add, false), 1);
        check_halves("sum axis 0", ca::sum(p, 0).get(), reference(hp, 0, 0.0, add, false), 1);
        check_halves("sum axis 1", ca::sum(p, 1).get(), reference(hp, 1, 0.0, add, false), 1);
        check_halves("mean axis 1", ca::mean(p, 1).get(), reference(hp, 1, 0.0, add, true), 1);
        check_halves("mean", ca::mean(v).get(), reference(hv, -1, 0.0, add, true), 1);
        const auto q = place<half, S>(
            xt::xarray<half>(host_map(hp, [](float x) { return 0.9f + x / 20; })), layout);
        check_halves(
            "prod axis 0", ca::prod(q, 0).get(),
            reference(host_map(hp, [](float x) { return 0.9f + x / 20; }), 0, 1.0, mul, false), 1);
        static_assert(std::is_same_v<typename decltype(ca::sum(p))::value_type, half>);
        static_assert(std::is_same_v<typename decltype(ca::mean(p))::value_type, half>);
        // min / max / argmin / argmax: exact.
        auto extreme = [](double x, double y) { return std::max(x, y); };
        check_halves("max axis 1", ca::max(v, 1).get(), reference(hv, 1, -1e9, extreme, false));
        check_halves("min axis 0", ca::min(v, 0).get(),
                     reference(
                         hv, 0, 1e9, [](double x, double y) { return std::min(x, y); }, false));
        const auto am = ca::argmax(v, 1).get(), an = ca::argmin(v).get();
        std::size_t bad = 0;
        std::size_t best_min = 0;
        for (std::size_t i = 0; i < hv.size(); ++i)
            if (float(hv.flat(i)) < float(hv.flat(best_min))) best_min = i;
        bad += static_cast<std::size_t>(an()) != best_min;
        for (std::size_t r = 0; r < shape[0]; ++r) {
            std::size_t best = 0;
            for (std::size_t c = 1; c < shape[1]; ++c)
                if (float(hv(r, c)) > float(hv(r, best))) best = c;
            bad += static_cast<std::size_t>(am(r)) != best;
        }
        CHECK(bad == 0);
        // cumsum along axis 1 and flattened: float running sums rounded once per element.
        const auto cs = ca::cumsum(p, 1).get();
        static_assert(std::is_same_v<typename decltype(ca::cumsum(p, 1))::value_type, half>);
        xt::xarray<half> want = xt::xarray<half>::from_shape(shape);
        for (std::size_t r = 0; r < shape[0]; ++r) {
            double acc = 0;
            for (std::size_t c = 0; c < shape[1]; ++c)
                want(r, c) = half(acc += float(hp(r, c)));
        }
        check_halves("cumsum axis 1", cs, want, 1);
    }
    // NaN propagates through max; a half accumulator would stop at 2048 for these ones.
    xt::xarray<half> ones = xt::xarray<half>::from_shape({3001});
    for (auto& x : ones)
        x = half(1.0f);
    auto d = ca::to_device<S>(test::q(), ones);
    CHECK(float(ca::sum(d).item()) == float(half(3001.0f))); // 3000
    CHECK(float(ca::mean(d).item()) == 1.0f);
    d(ca::range(10, 11)).fill(std::numeric_limits<half>::quiet_NaN());
    CHECK(std::isnan(float(ca::max(d).item())));
    CHECK(ca::argmax(d).item() == 10);
}

TEMPLATE_TEST_CASE("float16 factories, views, host views, kernels and pools", "[half]",
                   CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::queue& q = test::q();
    SECTION("zeros, ones, full, fill, item, set") {
        auto z = ca::zeros<half, S>(q, {3, 4});
        auto o = ca::ones<half, S>(q, {3, 4});
        auto f = ca::full<half, S>(q, {3, 4}, half(2.5f));
        for (std::size_t i = 0; i < 12; ++i) {
            CHECK(z.get().flat(i).bits() == 0);
            CHECK(o.get().flat(i).bits() == half(1.0f).bits());
            CHECK(f.get().flat(i).bits() == half(2.5f).bits());
        }
        f(ca::all(), 1).fill(half(-0.375f));
        CHECK(float(f(2, 1).item()) == -0.375f);
        CHECK(float(f(2, 2).item()) == 2.5f);
        std::vector<half> v(12);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = half(static_cast<float>(i) / 8);
        z.set(v);
        CHECK(float(z(1, 3).item()) == 7.0f / 8);
    }
    SECTION("arange and linspace compute in float") {
        auto a = ca::arange<half, S>(q, half(-2.0f), half(3.0f), half(0.1f));
        const float start = -2.0f, step = half(0.1f);
        const std::size_t n = static_cast<std::size_t>(std::ceil((3.0 - start) / step));
        REQUIRE(a.size() == n);
        xt::xarray<half> want = xt::xarray<half>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i)
            want(i) = half(start + static_cast<float>(i) * step);
        check_halves("arange", a.get(), want, 1);
        auto l = ca::linspace<half, S>(q, half(0.0f), half(1000.0f), 1001);
        xt::xarray<half> wl = xt::xarray<half>::from_shape({1001});
        for (std::size_t i = 0; i < 1001; ++i)
            wl(i) = half(static_cast<double>(i));
        check_halves("linspace", l.get(), wl); // a half step would have drifted
    }
    SECTION("views and host views") {
        xt::xarray<half> h = random_halves({6, 8}, -4, 4, 21);
        auto a = ca::to_device<S>(q, h);
        auto v = a(ca::range(1, 5), ca::range(0, 8, 3)).transpose();
        xt::xarray<half> hv = xt::transpose(xt::view(h, xt::range(1, 5), xt::range(0, 8, 3)));
        check_halves("strided transposed view", v.get(), hv);
        {
            auto m = a.map(ca::access::read_write);
            static_assert(std::is_same_v<std::decay_t<decltype(m(0, 0))>, half>);
            CHECK(m(2, 3).bits() == h(2, 3).bits());
            m(2, 3) = half(100.5f);
        }
        CHECK(float(a(2, 3).item()) == 100.5f);
        auto r = a.reshape({8, 6});
        CHECK(r(1, 0).item().bits() == h(0, 6).bits());
    }
    SECTION(".npy files ('<f2'), printing and describe") {
        xt::xarray<half> h = random_halves({3, 5}, -4, 4, 23);
        auto a = ca::to_device<S>(q, h);
        const std::string path =
            (std::filesystem::temp_directory_path() /
             ("clarray_half_" + std::to_string(::getpid()) + "_" + S::name + ".npy"))
                .string();
        ca::save_npy(path, a.transpose());
        std::vector<unsigned char> data;
        const auto header = ca::detail::read_npy(path, ca::dtype::float16, data);
        CHECK(header.descr == "<f2"); // NumPy's float16 on a little-endian host
        check_halves(".npy round trip", ca::load_npy<half, S>(q, path).get(),
                     xt::xarray<half>(xt::transpose(h)));
        std::filesystem::remove(path);
        std::ostringstream os;
        os << a(0, ca::range(0, 2));
        std::ostringstream want;
        want << xt::xarray<half>(xt::view(h, 0, xt::range(0, 2)));
        CHECK(os.str() == want.str());
        CHECK(ca::describe(a).find("float16") != std::string::npos);
    }
    SECTION("raw kernel arguments: half arrays and a half value") {
        ca::program prg(test::ctx(),
                        "kernel void k(global half* x, global ushort* bits, ushort s) {\n"
                        "    const size_t i = get_global_id(0);\n"
                        "    vstore_half_rte(vload_half(i, x) * 3.0f, i, x);\n"
                        "    bits[i] = s;\n"
                        "}\n");
        xt::xarray<half> h = random_halves({40}, -10, 10, 22);
        auto x = ca::to_device<S>(q, h);
        auto bits = ca::zeros<std::uint16_t, S>(q, {40});
        prg.kernel("k")(q, {40}, x, bits, half(-6.5f));
        check_halves("3 * x in a user kernel", x.get(), host_map(h, [](float y) { return 3 * y; }));
        CHECK(bits.get()(39) == half(-6.5f).bits());
    }
    SECTION("pools: arrays, results and temporaries of float16") {
        ca::pool_for_t<S> pool(test::ctx());
        auto a = ca::zeros<half>(q, {100}, pool);
        a += 3.0f; // a weak scalar: float16
        auto b = ca::eval(a * a);
        CHECK(b.data()->pool().get() == &pool.core());
        CHECK(float(b.get()(99)) == 9.0f);
        b(ca::range(1, 100)) = b(ca::range(0, 99)) + a(ca::range(1, 100)); // alias temporary
        CHECK(float(b.get()(99)) == 12.0f);
    }
}

TEST_CASE("float16 zero-size arrays", "[half]") {
    auto e = ca::empty<half, ca::buffer>(test::q(), {0, 5});
    auto s = ca::eval(e + e * 2);
    CHECK(s.size() == 0);
    CHECK(s.get().size() == 0);
    const auto cs = ca::sum(e, 0).get();
    REQUIRE(cs.size() == 5);
    for (std::size_t i = 0; i < 5; ++i)
        CHECK(cs(i).bits() == 0);
    CHECK(ca::cumsum(e).size() == 0);
    CHECK(ca::eval(ca::astype<float>(e)).shape() == e.shape());
}
