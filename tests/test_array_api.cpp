// The array API standard's functions that are spellings, compositions or small additions over
// the rest of the library: the named operators, sign / signbit / square / reciprocal /
// logaddexp, round to even, the data type functions, the manipulation views, unique_values /
// unique_inverse / unique_all, vecdot, vector_norm, linalg::diagonal and the FFT helpers, against
// host loops written here.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "xtensor_headers.hpp"

namespace {

// Whether two host arrays are equal (outside Catch's decomposition, which xtensor's lazy
// comparison operators would capture).
template <class A, class B> bool eq(const A& a, const B& b) {
    return bool(a == b);
}

template <class T> std::vector<T> host_of(const xt::xarray<T>& a) {
    return std::vector<T>(a.begin(), a.end());
}

using api_configs = std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<double, ca::buffer>,
                               test::cfg<std::int32_t, ca::svm_fine>>;
using unique_configs =
    std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<double, ca::buffer>,
               test::cfg<std::int32_t, ca::svm_fine>, test::cfg<std::complex<float>, ca::buffer>>;

} // namespace

TEMPLATE_LIST_TEST_CASE("array API: named operators are the operators", "[array_api]",
                        api_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    xt::xarray<T> ha = test::random_array<T>({3, 5}, 1), hb = test::random_array<T>({5}, 2);
    for (auto& v : hb)
        if (v == T(0)) v = T(3);
    const auto a = ca::to_device<S>(q, ha);
    const auto b = ca::to_device<S>(q, hb);
    auto same = [](const auto& x, const auto& y) {
        using X = typename std::decay_t<decltype(x)>::value_type;
        CHECK(eq(xt::xarray<X>(x.get()), xt::xarray<X>(y.get())));
    };
    same(ca::eval(ca::add(a, b)), ca::eval(a + b));
    same(ca::eval(ca::subtract(a, b)), ca::eval(a - b));
    same(ca::eval(ca::multiply(a, b)), ca::eval(a * b));
    same(ca::eval(ca::divide(a, b)), ca::eval(a / b));
    same(ca::eval(ca::equal(a, b)), ca::eval(a == b));
    same(ca::eval(ca::not_equal(a, b)), ca::eval(a != b));
    same(ca::eval(ca::less(a, b)), ca::eval(a < b));
    same(ca::eval(ca::less_equal(a, b)), ca::eval(a <= b));
    same(ca::eval(ca::greater(a, b)), ca::eval(a > b));
    same(ca::eval(ca::greater_equal(a, b)), ca::eval(a >= b));
    same(ca::eval(ca::negative(a)), ca::eval(-a));
    same(ca::eval(ca::positive(a)), ca::eval(+a));
    if constexpr (std::is_integral_v<T>) {
        same(ca::eval(ca::remainder(a, b)), ca::eval(a % b));
        same(ca::eval(ca::bitwise_and(a, b)), ca::eval(a & b));
        same(ca::eval(ca::bitwise_or(a, b)), ca::eval(a | b));
        same(ca::eval(ca::bitwise_xor(a, b)), ca::eval(a ^ b));
        same(ca::eval(ca::bitwise_invert(a)), ca::eval(~a));
        same(ca::eval(ca::bitwise_left_shift(a, 3)), ca::eval(a << 3));
        same(ca::eval(ca::bitwise_right_shift(a, 2)), ca::eval(a >> 2));
    }
}

TEMPLATE_LIST_TEST_CASE("array API: sign, signbit, square, reciprocal, logaddexp", "[array_api]",
                        api_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    std::vector<T> h = host_of(xt::xarray<T>(test::random_array<T>({40}, 3)));
    h[0] = T(0);
    if constexpr (std::is_floating_point_v<T>) {
        h[1] = -T(0);
        h[2] = std::numeric_limits<T>::quiet_NaN();
        h[3] = -std::numeric_limits<T>::infinity();
        h[4] = T(0.25);
    }
    const auto a = test::device_array<T, S>(q, h);
    const std::vector<T> sg = test::host_vector(ca::cl_array<T, S>(ca::sign(a)));
    const std::vector<bool> sb = [&] {
        auto v = test::host_vector(ca::cl_array<bool, S>(ca::signbit(a)));
        return std::vector<bool>(v.begin(), v.end());
    }();
    const std::vector<T> sq = test::host_vector(ca::cl_array<T, S>(ca::square(a)));
    for (std::size_t i = 0; i < h.size(); ++i) {
        INFO("element " << i << " = " << +h[i]);
        const T x = h[i];
        if (std::is_floating_point_v<T> && std::isnan(double(x))) {
            CHECK(std::isnan(double(sg[i])));
        } else {
            CHECK(sg[i] == T(x > 0 ? 1 : x < 0 ? -1 : 0));
        }
        CHECK(sb[i] == std::signbit(double(x)));
        if (!(std::is_floating_point_v<T> && std::isnan(double(x)))) CHECK(sq[i] == T(x * x));
    }
    if constexpr (std::is_floating_point_v<T>) {
        const std::vector<T> rc = test::host_vector(ca::cl_array<T, S>(ca::reciprocal(a)));
        for (std::size_t i = 5; i < h.size(); ++i)
            CHECK(rc[i] == Approx(T(1) / h[i]).epsilon(4 * std::numeric_limits<T>::epsilon()));
        // logaddexp against the formula in long double, with ties, infinities and large values.
        std::vector<T> hx = h, hy(h.size());
        for (std::size_t i = 0; i < h.size(); ++i)
            hy[i] = h[(i * 7 + 3) % h.size()];
        hx[5] = hy[5] = T(1000);                            // would overflow exp
        hx[6] = hy[6] = std::numeric_limits<T>::infinity(); // a tie of infinities
        hx[7] = T(-800), hy[7] = T(-801);
        const auto x = test::device_array<T, S>(q, hx), y = test::device_array<T, S>(q, hy);
        const std::vector<T> l = test::host_vector(ca::cl_array<T, S>(ca::logaddexp(x, y)));
        const std::vector<T> l2 = test::host_vector(ca::cl_array<T, S>(ca::logaddexp2(x, y)));
        for (std::size_t i = 0; i < h.size(); ++i) {
            INFO("logaddexp(" << hx[i] << ", " << hy[i] << ")");
            const long double lx = hx[i], ly = hy[i];
            const long double m = std::max(lx, ly);
            long double want, want2;
            if (std::isnan(double(hx[i])) || std::isnan(double(hy[i]))) {
                CHECK(std::isnan(double(l[i])));
                CHECK(std::isnan(double(l2[i])));
                continue;
            }
            if (lx == ly) {
                want = lx + std::log(2.0L);
                want2 = lx + 1;
            } else {
                want = m + std::log1p(std::exp(-std::fabs(lx - ly)));
                want2 = m + std::log1p(std::exp2(-std::fabs(lx - ly))) / std::log(2.0L);
            }
            if (std::isinf(double(want))) {
                CHECK(l[i] == T(want));
                CHECK(l2[i] == T(want2));
            } else {
                CHECK(double(l[i]) ==
                      Approx(double(want)).epsilon(8 * std::numeric_limits<T>::epsilon()));
                CHECK(double(l2[i]) ==
                      Approx(double(want2)).epsilon(8 * std::numeric_limits<T>::epsilon()));
            }
        }
        // round: ties to even, as NumPy's.
        const std::vector<T> ties{T(-2.5), T(-1.5), T(-0.5), T(0.5),
                                  T(1.5),  T(2.5),  T(3.5),  T(2.4)};
        const auto t = test::device_array<T, S>(q, ties);
        const std::vector<T> r = test::host_vector(ca::cl_array<T, S>(ca::round(t)));
        for (std::size_t i = 0; i < ties.size(); ++i)
            CHECK(r[i] == std::nearbyint(ties[i]));
    } else {
        // Integer reciprocal divides as integers; 0 gives 0 (clarray's integer division by 0).
        const std::vector<T> rc = test::host_vector(ca::cl_array<T, S>(ca::reciprocal(a)));
        for (std::size_t i = 0; i < h.size(); ++i)
            CHECK(rc[i] == (h[i] == 0 ? T(0) : T(T(1) / h[i])));
    }
}

TEST_CASE("array API: complex sign, square and reciprocal", "[array_api]") {
    using C = std::complex<float>;
    ca::queue& q = test::q();
    const std::vector<C> h{C(3, 4), C(0, 0), C(-1, 2), C(0.5f, -0.25f), C(-7, 0)};
    const auto a = test::device_array<C, ca::buffer>(q, h);
    const auto sg = test::host_vector(ca::cl_array<C, ca::buffer>(ca::sign(a)));
    const auto sq = test::host_vector(ca::cl_array<C, ca::buffer>(ca::square(a)));
    const auto rc = test::host_vector(ca::cl_array<C, ca::buffer>(ca::reciprocal(a)));
    for (std::size_t i = 0; i < h.size(); ++i) {
        INFO("element " << h[i]);
        const C want = std::abs(h[i]) == 0 ? C(0, 0) : h[i] / std::abs(h[i]);
        CHECK(std::abs(sg[i] - want) <= 4 * std::numeric_limits<float>::epsilon());
        CHECK(std::abs(sq[i] - h[i] * h[i]) <=
              4 * std::numeric_limits<float>::epsilon() * std::norm(h[i]));
        if (std::abs(h[i]) != 0)
            CHECK(std::abs(rc[i] - C(1) / h[i]) <=
                  8 * std::numeric_limits<float>::epsilon() / std::abs(h[i]));
    }
}

TEST_CASE("array API: data type functions follow the promotion table", "[array_api]") {
    // result_type / can_cast of dtype values against the compile-time promotion they come from.
    ca::detail::for_each_dtype_type([](auto ha) {
        using A = typename decltype(ha)::type;
        ca::detail::for_each_dtype_type([](auto hb) {
            using B = typename decltype(hb)::type;
            const ca::dtype a = ca::dtype_traits<A>::id, b = ca::dtype_traits<B>::id;
            INFO(ca::dtype_name(a) << " with " << ca::dtype_name(b));
            CHECK(ca::result_type(a, b) == ca::dtype_traits<ca::promote_t<A, B>>::id);
            CHECK(ca::can_cast(a, b) == ca::can_cast_v<A, B>);
            CHECK(ca::can_cast(a, b) == (ca::result_type(a, b) == b));
        });
    });
    // NumPy's answers for a few pairs (np.can_cast with casting="safe").
    STATIC_REQUIRE(ca::can_cast_v<std::int8_t, ca::half>);
    STATIC_REQUIRE(!ca::can_cast_v<std::int16_t, ca::half>);
    STATIC_REQUIRE(ca::can_cast_v<std::int64_t, double>);
    STATIC_REQUIRE(!ca::can_cast_v<std::uint64_t, std::int64_t>);
    STATIC_REQUIRE(!ca::can_cast_v<double, float>);
    STATIC_REQUIRE(ca::can_cast_v<float, std::complex<float>>);
    STATIC_REQUIRE(
        std::is_same_v<ca::result_type_t<std::int8_t, std::uint8_t, ca::half>, ca::half>);
    CHECK(ca::isdtype(ca::dtype::int16, "signed integer"));
    CHECK(ca::isdtype(ca::dtype::uint16, "integral"));
    CHECK_FALSE(ca::isdtype(ca::dtype::bool_, "numeric"));
    CHECK(ca::isdtype(ca::dtype::complex64, "complex floating"));
    CHECK_FALSE(ca::isdtype(ca::dtype::complex64, "real floating"));
    CHECK_THROWS_AS(ca::isdtype(ca::dtype::int8, "integer"), ca::usage_error);
    STATIC_REQUIRE(ca::finfo<float>::eps == std::numeric_limits<float>::epsilon());
    STATIC_REQUIRE(ca::finfo<std::complex<double>>::bits == 64);
    STATIC_REQUIRE(ca::finfo<double>::smallest_normal == std::numeric_limits<double>::min());
    STATIC_REQUIRE(ca::iinfo<std::int16_t>::min == -32768);
    STATIC_REQUIRE(ca::iinfo<std::uint8_t>::bits == 8);
    CHECK(ca::pi == Approx(std::acos(-1.0)));
    CHECK(std::isnan(ca::nan));
}

TEMPLATE_LIST_TEST_CASE("array API: broadcast_to, broadcast_arrays, unstack and axis views",
                        "[array_api]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    const xt::xarray<float> h = test::random_array<float>({3, 1, 4}, 5);
    const auto a = ca::to_device<S>(q, h);
    const auto b = ca::broadcast_to(a, {2, 3, 5, 4});
    CHECK(b.shape() == ca::shape_type{2, 3, 5, 4});
    CHECK(eq(b.get(), xt::xarray<float>(xt::broadcast(h, {2, 3, 5, 4}))));
    CHECK_THROWS_AS(ca::broadcast_to(a, {3, 2, 5}), ca::shape_error);
    CHECK_THROWS_AS(ca::broadcast_to(a, {4}), ca::shape_error);
    const xt::xarray<float> h2 = test::random_array<float>({5, 1}, 6);
    const auto bs =
        ca::broadcast_arrays(std::vector<ca::cl_array<float, S>>{a, ca::to_device<S>(q, h2)});
    REQUIRE(bs.size() == 2);
    CHECK(bs[0].shape() == ca::shape_type{3, 5, 4});
    CHECK(eq(bs[1].get(), xt::xarray<float>(xt::broadcast(h2, {3, 5, 4}))));
    const auto parts = ca::unstack(a, -1);
    REQUIRE(parts.size() == 4);
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(eq(parts[i].get(), xt::xarray<float>(xt::view(h, xt::all(), xt::all(), i))));
    CHECK(eq(ca::permute_dims(a, {2, 0, 1}).get(), xt::xarray<float>(xt::transpose(h, {2, 0, 1}))));
    CHECK(eq(ca::matrix_transpose(a).get(), xt::xarray<float>(xt::transpose(h, {0, 2, 1}))));
    CHECK(ca::linalg::matrix_transpose(a).shape() == ca::shape_type{3, 4, 1});
    CHECK_THROWS_AS(ca::matrix_transpose(ca::to_device<S>(q, xt::xarray<float>{1.f, 2.f})),
                    ca::shape_error);
    CHECK(ca::squeeze(a).shape() == ca::shape_type{3, 4});
    CHECK(ca::squeeze(a, 1).shape() == ca::shape_type{3, 4});
    CHECK(eq(ca::reshape(a, {4, 3}).get(), xt::xarray<float>(xt::reshape_view(h, {4, 3}))));
    CHECK(eq(ca::concat({a, a}, 1).get(), xt::xarray<float>(xt::concatenate(xt::xtuple(h, h), 1))));
    const xt::xarray<float> hm = test::random_array<float>({2, 4, 4}, 7);
    const auto m = ca::to_device<S>(q, hm);
    CHECK(eq(ca::linalg::diagonal(m, 1).get(), xt::xarray<float>(xt::diagonal(hm, 1, 1, 2))));
}

TEMPLATE_LIST_TEST_CASE("array API: unique_values, unique_inverse and unique_all", "[array_api]",
                        unique_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    xt::xarray<T> h = xt::xarray<T>::from_shape({6, 7});
    std::vector<T> pool{T(3), T(-2), T(7), T(0), T(3), T(11)};
    if constexpr (ca::is_complex_v<T>) // equal real parts, imaginary parts apart; -0.0 and +0.0
        pool = {T(3, 1), T(-2, 0), T(3, -1), T(-0.0f, 0), T(0, -0.0f), T(7, 2)};
    for (std::size_t i = 0; i < h.size(); ++i)
        h.flat(i) = pool[(i * 5 + i / 3) % pool.size()];
    constexpr bool inexact = std::is_floating_point_v<T> || ca::is_complex_v<T>;
    using R = ca::real_of_t<T>;
    const R nan = std::numeric_limits<R>::quiet_NaN();
    if constexpr (ca::is_complex_v<T>) { // NaN parts: one value, after every number
        h.flat(4) = T(nan, 1);
        h.flat(20) = T(2, nan);
        h.flat(33) = T(nan, nan);
    } else if constexpr (std::is_floating_point_v<T>) {
        h.flat(4) = nan;
        h.flat(20) = nan;
    }
    const auto a = ca::to_device<S>(q, h);
    // The host reference: sorted distinct values (NaNs as one, last; complex: real part, then
    // imaginary part), first positions, counts.
    auto has_nan = [](T x) {
        if constexpr (ca::is_complex_v<T>)
            return std::isnan(x.real()) || std::isnan(x.imag());
        else if constexpr (std::is_floating_point_v<T>)
            return std::isnan(x);
        else
            return false;
    };
    auto less = [&](T x, T y) {
        if constexpr (inexact)
            if (has_nan(x) || has_nan(y)) return !has_nan(x) && has_nan(y);
        if constexpr (ca::is_complex_v<T>)
            return x.real() < y.real() || (x.real() == y.real() && x.imag() < y.imag());
        else
            return x < y;
    };
    auto same = [&](T x, T y) {
        if constexpr (inexact)
            if (has_nan(x) && has_nan(y)) return true;
        return x == y;
    };
    std::vector<T> values(h.begin(), h.end());
    std::sort(values.begin(), values.end(), less);
    values.erase(std::unique(values.begin(), values.end(), same), values.end());
    std::vector<std::int64_t> first(values.size(), -1), counts(values.size(), 0), inverse(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) {
        const std::size_t k = static_cast<std::size_t>(
            std::find_if(values.begin(), values.end(), [&](T v) { return same(v, h.flat(i)); }) -
            values.begin());
        inverse[i] = static_cast<std::int64_t>(k);
        ++counts[k];
        if (first[k] < 0) first[k] = static_cast<std::int64_t>(i);
    }
    auto equal_values = [&](const std::vector<T>& got) {
        REQUIRE(got.size() == values.size());
        for (std::size_t i = 0; i < values.size(); ++i)
            CHECK(same(got[i], values[i]));
    };
    equal_values(test::host_vector(ca::unique_values(a)));
    auto [uv, inv] = ca::unique_inverse(a);
    equal_values(test::host_vector(uv));
    CHECK(inv.shape() == a.shape());
    CHECK(test::host_vector(inv) == inverse);
    const auto all = ca::unique_all(a * T(1)); // an expression argument
    equal_values(test::host_vector(all.values));
    CHECK(test::host_vector(all.indices) == first);
    CHECK(test::host_vector(all.inverse_indices) == inverse);
    CHECK(test::host_vector(all.counts) == counts);
}

TEMPLATE_LIST_TEST_CASE("array API: vecdot and vector_norm", "[array_api]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    const xt::xarray<double> h1 = test::random_array<double>({4, 6}, 8);
    const xt::xarray<double> h2 = test::random_array<double>({6}, 9);
    const auto x1 = ca::to_device<S>(q, xt::xarray<float>(h1));
    const auto x2 = ca::to_device<S>(q, xt::xarray<float>(h2));
    const xt::xarray<double> want = xt::sum(h1 * h2, {1});
    const xt::xarray<float> got = ca::vecdot(x1, x2).get();
    REQUIRE(got.shape() == want.shape());
    for (std::size_t i = 0; i < want.size(); ++i)
        CHECK(got.flat(i) == Approx(want.flat(i)).epsilon(1e-5).margin(1e-4));
    const xt::xarray<float> hf = xt::xarray<float>(h1);
    for (double ord : {2.0, 1.0, 3.0, 0.5, 0.0, std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity()}) {
        INFO("ord " << ord);
        const xt::xarray<float> n = ca::linalg::vector_norm(x1, ord, 0).get();
        for (std::size_t j = 0; j < 6; ++j) {
            double acc = 0;
            if (std::isinf(ord)) acc = ord > 0 ? 0 : std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i < 4; ++i) {
                const double v = std::fabs(double(hf(i, j)));
                if (ord == 0)
                    acc += v != 0;
                else if (std::isinf(ord))
                    acc = ord > 0 ? std::max(acc, v) : std::min(acc, v);
                else
                    acc += std::pow(v, ord);
            }
            if (ord != 0 && !std::isinf(ord)) acc = std::pow(acc, 1 / ord);
            CHECK(n(j) == Approx(acc).epsilon(1e-5));
        }
    }
}

TEST_CASE("array API: FFT helpers", "[array_api][fft]") {
    ca::queue& q = test::q();
    using C = std::complex<double>;
    if (!test::dtype_available<double>()) return;
    for (std::size_t n : {1u, 8u, 9u}) {
        const auto f = test::host_vector(ca::fft::fftfreq<double, ca::buffer>(q, n, 0.5));
        const auto rf = test::host_vector(ca::fft::rfftfreq<double, ca::buffer>(q, n, 0.5));
        REQUIRE(f.size() == n);
        REQUIRE(rf.size() == n / 2 + 1);
        for (std::size_t i = 0; i < n; ++i) {
            const double k = i < (n + 1) / 2 ? double(i) : double(i) - double(n);
            CHECK(f[i] == Approx(k / (0.5 * n)));
        }
        for (std::size_t i = 0; i < rf.size(); ++i)
            CHECK(rf[i] == Approx(double(i) / (0.5 * n)));
    }
    // fftshift / ifftshift: host rolls by n/2 along each axis.
    const xt::xarray<double> h = test::random_array<double>({5, 4}, 10);
    const auto a = ca::to_device<ca::buffer>(q, h);
    CHECK(eq(ca::fft::fftshift(a).get(), xt::xarray<double>(xt::roll(xt::roll(h, 2, 0), 2, 1))));
    CHECK(eq(ca::fft::ifftshift(a).get(), xt::xarray<double>(xt::roll(xt::roll(h, -2, 0), -2, 1))));
    CHECK(eq(ca::fft::ifftshift(ca::fft::fftshift(a, {0}), {0}).get(), h));
    // rfftn: the non-negative half of fftn's last axis; irfftn inverts it.
    const xt::xarray<double> r = test::random_array<double>({4, 6}, 11);
    const auto dr = ca::to_device<ca::buffer>(q, r);
    const xt::xarray<C> full = ca::fft::fftn(dr).get();
    const xt::xarray<C> half = ca::fft::rfftn(dr).get();
    REQUIRE(half.shape() == (std::vector<std::size_t>{4, 4}));
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j)
            CHECK(std::abs(half(i, j) - full(i, j)) < 1e-9 * (1 + std::abs(full(i, j))));
    const xt::xarray<double> back = ca::fft::irfftn(ca::fft::rfftn(dr), {4, 6}).get();
    CHECK(xt::allclose(back, r, 1e-12, 1e-12));
    CHECK(xt::allclose(xt::xarray<double>(ca::fft::irfft2(ca::fft::rfft2(dr)).get()), r, 1e-12,
                       1e-12));
    // hfft: the real DFT of the Hermitian signal whose first half is given; ihfft inverts it.
    const std::size_t n = 8;
    std::vector<C> hh(n / 2 + 1);
    for (std::size_t k = 0; k < hh.size(); ++k)
        hh[k] = C(std::cos(0.3 * k) + 0.1 * k, k == 0 || k == n / 2 ? 0.0 : std::sin(0.7 * k));
    const auto dh = test::device_array<C, ca::buffer>(q, hh);
    const auto spec = test::host_vector(ca::fft::hfft(dh, n));
    REQUIRE(spec.size() == n);
    const double two_pi = 2 * std::acos(-1.0);
    for (std::size_t m = 0; m < n; ++m) {
        C acc = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const C v = k <= n / 2 ? hh[k] : std::conj(hh[n - k]);
            acc += v * std::polar(1.0, -two_pi * double(k * m) / double(n));
        }
        CHECK(spec[m] == Approx(acc.real()).margin(1e-9));
    }
    const auto round_trip = test::host_vector(ca::fft::ihfft(ca::fft::hfft(dh, n)));
    REQUIRE(round_trip.size() == hh.size());
    for (std::size_t k = 0; k < hh.size(); ++k)
        CHECK(std::abs(round_trip[k] - hh[k]) < 1e-12);
}

// The DFT of v (sign -1) or its inverse without scaling (sign +1), v completed to n values with
// Hermitian symmetry when `hermitian` (v holds the first n/2 + 1).
static std::vector<std::complex<double>> host_dft(const std::vector<std::complex<double>>& v,
                                                  std::size_t n, int sign, bool hermitian) {
    std::vector<std::complex<double>> out(n);
    const double two_pi = 2 * std::acos(-1.0);
    for (std::size_t m = 0; m < n; ++m)
        for (std::size_t k = 0; k < n; ++k) {
            std::complex<double> x = !hermitian ? v[k] : k <= n / 2 ? v[k] : std::conj(v[n - k]);
            if (hermitian && (k == 0 || 2 * k == n)) x = x.real(); // NumPy drops those parts
            out[m] += x * std::polar(1.0, sign * two_pi * double(k * m) / double(n));
        }
    return out;
}

TEST_CASE("array API: FFTs of real and float16 input, as NumPy's", "[array_api][fft]") {
    ca::queue& q = test::q();
    using ca::half;
    using cf = std::complex<float>;
    const std::size_t n = 8;
    std::vector<float> re(n / 2 + 1);
    for (std::size_t k = 0; k < re.size(); ++k)
        re[k] = static_cast<float>(std::cos(0.4 * double(k)) + 0.25 * double(k));
    std::vector<std::complex<double>> as_complex(re.begin(), re.end());
    const auto dre = test::device_array<float, ca::buffer>(q, re);
    // Real input to irfft and hfft: zero imaginary parts.
    static_assert(std::is_same_v<decltype(ca::fft::irfft(dre, n))::value_type, float>);
    const auto inv = test::host_vector(ca::fft::irfft(dre, n));
    const auto want_inv = host_dft(as_complex, n, +1, true);
    REQUIRE(inv.size() == n);
    for (std::size_t m = 0; m < n; ++m)
        CHECK(inv[m] == Approx(want_inv[m].real() / double(n)).margin(1e-5));
    const auto spec = test::host_vector(ca::fft::hfft(dre, n));
    const auto want_spec = host_dft(as_complex, n, -1, true);
    for (std::size_t m = 0; m < n; ++m)
        CHECK(spec[m] == Approx(want_spec[m].real()).margin(1e-4));
    // irfftn of real 2-d input: the same as of that input made complex on the host.
    const xt::xarray<float> r2 = test::random_array<float>({3, 5}, 21);
    const xt::xarray<cf> c2 = xt::cast<cf>(r2);
    const xt::xarray<float> from_real = ca::fft::irfftn(ca::to_device<ca::buffer>(q, r2)).get();
    const xt::xarray<float> from_complex = ca::fft::irfftn(ca::to_device<ca::buffer>(q, c2)).get();
    REQUIRE(from_real.shape() == (std::vector<std::size_t>{3, 8}));
    CHECK(xt::allclose(from_real, from_complex, 1e-6, 1e-6));
    // float16: computed in float32 (complex64 results); irfft and hfft give float16 back.
    std::vector<half> h(n);
    std::vector<std::complex<double>> hd(n);
    for (std::size_t k = 0; k < n; ++k) {
        h[k] = half(static_cast<float>(0.5 * double(k) - 1.25));
        hd[k] = static_cast<float>(h[k]);
    }
    const auto dh = test::device_array<half, ca::buffer>(q, h);
    static_assert(std::is_same_v<decltype(ca::fft::fft(dh))::value_type, cf>);
    static_assert(std::is_same_v<decltype(ca::fft::rfftn(dh))::value_type, cf>);
    static_assert(std::is_same_v<decltype(ca::fft::ihfft(dh))::value_type, cf>);
    static_assert(std::is_same_v<decltype(ca::fft::irfft(dh))::value_type, half>);
    static_assert(std::is_same_v<decltype(ca::fft::hfft(dh))::value_type, half>);
    static_assert(
        std::is_same_v<decltype(ca::fft::irfft2(ca::fft::rfft2(dh.reshape({2, 4}))))::value_type,
                       float>);
    const auto full = test::host_vector(ca::fft::fft(dh));
    const auto half_spec = test::host_vector(ca::fft::rfftn(dh));
    const auto want = host_dft(hd, n, -1, false);
    REQUIRE(half_spec.size() == n / 2 + 1);
    for (std::size_t m = 0; m < n; ++m) {
        CHECK(std::abs(std::complex<double>(full[m]) - want[m]) < 1e-4);
        if (m <= n / 2) CHECK(std::abs(std::complex<double>(half_spec[m]) - want[m]) < 1e-4);
    }
    const auto back = test::host_vector(ca::fft::irfft(ca::fft::rfft(dh), n));
    for (std::size_t m = 0; m < n; ++m) // float16 results: within a float16 rounding
        CHECK(static_cast<float>(back[m]) == Approx(static_cast<float>(h[m])).margin(2e-3));
    // The helpers take expressions too (evaluated first).
    CHECK(test::host_vector(ca::fft::hfft(dre * 1.0f, n)) == spec);
    CHECK(test::host_vector(ca::fft::rfftn(dh * 1.0f)) == half_spec);
    const xt::xarray<float> from_expression =
        ca::fft::irfftn(ca::to_device<ca::buffer>(q, r2) + 0.0f).get();
    CHECK(xt::allclose(from_expression, from_real, 1e-6, 1e-6));
    CHECK(xt::allclose(
        xt::xarray<float>(
            ca::fft::irfft2(ca::fft::rfft2(ca::to_device<ca::buffer>(q, r2) * 1.0f), {3, 5}).get()),
        r2, 1e-5, 1e-5));
    const auto ih = test::host_vector(ca::fft::ihfft(dh));
    CHECK(test::host_vector(ca::fft::ihfft(dh * 1.0f)) == ih);
    for (std::size_t m = 0; m <= n / 2; ++m) // ihfft: conj(rfft) / n
        CHECK(std::abs(std::complex<double>(ih[m]) - std::conj(want[m]) / double(n)) < 1e-5);
}

TEMPLATE_LIST_TEST_CASE("array API: take_along_axis, put_along_axis, descending sorts, sorter, "
                        "count_nonzero over axes",
                        "[array_api]", api_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    xt::xarray<T> h = test::random_array<T>({4, 6}, 12);
    h(1, 2) = h(1, 4); // ties
    h(2, 0) = T(0);
    const auto a = ca::to_device<S>(q, h);
    for (std::ptrdiff_t axis : {0, 1, -1}) {
        INFO("axis " << axis);
        const std::size_t ax = axis < 0 ? 1 : std::size_t(axis);
        const std::size_t n = h.shape()[ax], m = h.shape()[1 - ax];
        // Host: for each line along ax, the stable descending order.
        xt::xarray<std::int64_t> want_idx = xt::xarray<std::int64_t>::from_shape(h.shape());
        xt::xarray<T> want_sorted = xt::xarray<T>::from_shape(h.shape());
        for (std::size_t l = 0; l < m; ++l) {
            auto at = [&](std::size_t k) -> T { return ax == 0 ? h(k, l) : h(l, k); };
            std::vector<std::int64_t> order(n);
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(),
                             [&](std::int64_t x, std::int64_t y) { return at(x) > at(y); });
            for (std::size_t k = 0; k < n; ++k) {
                auto& wi = ax == 0 ? want_idx(k, l) : want_idx(l, k);
                auto& ws = ax == 0 ? want_sorted(k, l) : want_sorted(l, k);
                wi = order[k];
                ws = at(std::size_t(order[k]));
            }
        }
        const auto idx = ca::argsort(a, long(axis), true);
        CHECK(eq(idx.get(), want_idx));
        CHECK(eq(ca::sort(a, long(axis), true).get(), want_sorted));
        // take_along_axis with the descending order gives the sorted lines.
        CHECK(eq(ca::take_along_axis(a, idx, axis).get(), want_sorted));
        // put_along_axis writes them back where they came from.
        auto back = ca::zeros<T, S>(q, {4, 6});
        ca::put_along_axis(back, idx, ca::take_along_axis(a, idx, axis), axis);
        CHECK(eq(back.get(), h));
    }
    // Broadcasting indices: one index per row, and a negative one.
    xt::xarray<std::int32_t> h_one = xt::xarray<std::int32_t>::from_shape({4, 1}), h_bad = h_one;
    const std::int32_t one_values[] = {1, -1, 0, 5}, bad_values[] = {1, 6, 0, 0};
    for (std::size_t i = 0; i < 4; ++i) {
        h_one(i, 0) = one_values[i];
        h_bad(i, 0) = bad_values[i];
    }
    const auto one = ca::to_device<S>(q, h_one);
    const xt::xarray<T> picked = ca::take_along_axis(a, one, 1).get();
    CHECK(picked(0, 0) == h(0, 1));
    CHECK(picked(1, 0) == h(1, 5));
    CHECK(picked(3, 0) == h(3, 5));
    const auto bad = ca::to_device<S>(q, h_bad);
    CHECK_THROWS_AS(ca::take_along_axis(a, bad, 1).get(), ca::index_error);
    CHECK_THROWS_AS(ca::take_along_axis(a, ca::to_device<S>(q, xt::xarray<std::int32_t>{1, 2}), 0),
                    ca::shape_error);
    // searchsorted through a sorter.
    std::vector<T> hx(h.begin(), h.end());
    const auto x = ca::to_device<S>(q, xt::xarray<T>(xt::adapt(hx, {hx.size()})));
    const auto order = ca::argsort(x);
    std::vector<T> sorted = hx;
    std::sort(sorted.begin(), sorted.end());
    const std::vector<T> probes{T(-5), T(0), T(3), T(50)};
    const auto k = test::host_vector(
        ca::searchsorted(x, test::device_array<T, S>(q, probes), ca::side::left, order));
    for (std::size_t i = 0; i < probes.size(); ++i)
        CHECK(k[i] == std::lower_bound(sorted.begin(), sorted.end(), probes[i]) - sorted.begin());
    // count_nonzero over an axis, on the device.
    const xt::xarray<std::int64_t> c = ca::count_nonzero(a, 0).get();
    for (std::size_t j = 0; j < 6; ++j) {
        std::int64_t want = 0;
        for (std::size_t i = 0; i < 4; ++i)
            want += h(i, j) != T(0);
        CHECK(c(j) == want);
    }
}

TEMPLATE_LIST_TEST_CASE("NumPy arguments: dtype= of reductions and scans, round(x, decimals), "
                        "divmod, integer FFT input",
                        "[array_api]", api_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    const xt::xarray<T> h = test::random_array<T>({5, 8}, 13);
    const auto a = ca::to_device<S>(q, h);
    // sum<int16>: the values converted to int16 and summed with int16's wrap-around.
    const xt::xarray<std::int16_t> s16 = ca::sum<std::int16_t>(a * T(300), 1).get();
    const xt::xarray<double> sd = ca::sum<double>(a, 0).get();
    const xt::xarray<double> cs = ca::cumsum<double>(a, 1).get();
    for (std::size_t i = 0; i < 5; ++i) {
        std::int16_t acc = 0;
        double run = 0;
        for (std::size_t j = 0; j < 8; ++j) {
            acc = static_cast<std::int16_t>(acc + static_cast<std::int16_t>(T(h(i, j) * T(300))));
            run += double(h(i, j));
            CHECK(cs(i, j) == Approx(run));
        }
        CHECK(s16(i) == acc);
    }
    for (std::size_t j = 0; j < 8; ++j) {
        double acc = 0;
        for (std::size_t i = 0; i < 5; ++i)
            acc += double(h(i, j));
        CHECK(sd(j) == Approx(acc));
    }
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::mean<float>(a))::value_type, float>);
    CHECK(double(ca::mean<float>(a).item()) ==
          Approx(xt::mean(xt::xarray<double>(h))()).epsilon(1e-5));
    STATIC_REQUIRE(
        std::is_same_v<typename decltype(ca::prod<std::int8_t>(a))::value_type, std::int8_t>);
    // round(x, decimals): NumPy's formulas, computed here in the same steps.
    for (int d : {2, 0, -1}) {
        INFO("decimals " << d);
        const xt::xarray<T> got = ca::cl_array<T, S>(ca::round(a * T(7), d)).get();
        for (std::size_t i = 0; i < h.size(); ++i) {
            const T x = T(h.flat(i) * T(7));
            T want;
            if constexpr (std::is_floating_point_v<T>) {
                const T p = T(std::pow(10.0, std::abs(d)));
                want = d >= 0 ? std::nearbyint(x * p) / p : std::nearbyint(x / p) * p;
            } else {
                want = d >= 0 ? x : T(std::nearbyint(double(x) / 10.0) * 10);
            }
            CHECK(got.flat(i) == want);
        }
    }
    // divmod: the pair (floor_divide, mod).
    const auto [quot, rem] = ca::divmod(a, T(3));
    CHECK(eq(ca::cl_array<T, S>(quot).get(), ca::cl_array<T, S>(ca::floor_divide(a, T(3))).get()));
    CHECK(eq(ca::cl_array<T, S>(rem).get(), ca::cl_array<T, S>(ca::mod(a, T(3))).get()));
    // Integer (and float) input to the FFTs: as the float64 transform of the same values.
    if (test::dtype_available<double>()) {
        const auto as_double = ca::cl_array<double, S>(ca::astype<double>(a));
        const xt::xarray<std::complex<double>> want = ca::fft::fft(as_double).get();
        const xt::xarray<std::complex<double>> got = ca::fft::fft(a).get();
        if constexpr (std::is_integral_v<T>) {
            REQUIRE(got.shape() == want.shape());
            for (std::size_t i = 0; i < got.size(); ++i)
                CHECK(std::abs(got.flat(i) - want.flat(i)) <= 1e-12 * (1 + std::abs(want.flat(i))));
            const xt::xarray<std::complex<double>> r = ca::fft::rfft(a).get();
            CHECK(r.shape()[1] == 5);
        }
    }
}

TEMPLATE_LIST_TEST_CASE("NumPy arguments: compress along an axis, mixed-dtype searchsorted, "
                        "flattened sorts, diff with prepend/append, sparse meshgrid",
                        "[array_api]", api_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    const xt::xarray<T> h = test::random_array<T>({3, 5}, 14);
    const auto a = ca::to_device<S>(q, h);
    // compress along axis 1 with a shorter condition.
    const std::vector<bool> keep{true, false, true, true};
    const auto cond = test::device_array<bool, S>(q, keep);
    const xt::xarray<T> c = ca::compress(cond, a, 1).get();
    REQUIRE(c.shape() == (std::vector<std::size_t>{3, 3}));
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(c(i, 0) == h(i, 0));
        CHECK(c(i, 1) == h(i, 2));
        CHECK(c(i, 2) == h(i, 3));
    }
    CHECK_THROWS_AS(ca::compress(test::device_array<bool, S>(q, std::vector<bool>(6, true)), a, 1),
                    ca::shape_error);
    // Flattened sorts.
    std::vector<T> flat(h.begin(), h.end());
    std::vector<T> sorted = flat;
    std::stable_sort(sorted.begin(), sorted.end());
    CHECK(test::host_vector(ca::sort(a, std::nullopt)) == sorted);
    const auto order = test::host_vector(ca::argsort(a, std::nullopt));
    for (std::size_t i = 0; i < order.size(); ++i)
        CHECK(flat[std::size_t(order[i])] == sorted[i]);
    // searchsorted of int8 probes into T values: promoted together.
    const auto sd = test::device_array<T, S>(q, sorted);
    const std::vector<std::int8_t> probes{-50, 0, 7, 99};
    const auto k =
        test::host_vector(ca::searchsorted(sd, test::device_array<std::int8_t, S>(q, probes)));
    for (std::size_t i = 0; i < probes.size(); ++i)
        CHECK(k[i] ==
              std::lower_bound(sorted.begin(), sorted.end(), T(probes[i])) - sorted.begin());
    // diff with a scalar prepended and an array appended along axis 1.
    if constexpr (!std::is_same_v<T, bool>) {
        const xt::xarray<T> tail = test::random_array<T>({3, 2}, 15);
        const xt::xarray<T> d =
            ca::cl_array<T, S>(ca::diff(a, 1, 1, T(4), ca::to_device<S>(q, tail))).get();
        REQUIRE(d.shape() == (std::vector<std::size_t>{3, 7}));
        for (std::size_t i = 0; i < 3; ++i) {
            std::vector<T> row{T(4)};
            for (std::size_t j = 0; j < 5; ++j)
                row.push_back(h(i, j));
            row.push_back(tail(i, 0));
            row.push_back(tail(i, 1));
            for (std::size_t j = 0; j < 7; ++j)
                CHECK(d(i, j) == T(row[j + 1] - row[j]));
        }
        const xt::xarray<T> d0 = ca::cl_array<T, S>(ca::diff(a, 1, 0, std::nullopt, T(1))).get();
        REQUIRE(d0.shape() == (std::vector<std::size_t>{3, 5}));
        for (std::size_t j = 0; j < 5; ++j)
            CHECK(d0(2, j) == T(T(1) - h(2, j)));
    }
    // Sparse meshgrid: shapes (1, n0) and (n1, 1) that broadcast to the dense grid.
    const auto x0 = test::device_array<T, S>(q, std::vector<T>{T(1), T(2), T(3)});
    const auto x1 = test::device_array<T, S>(q, std::vector<T>{T(5), T(6)});
    const auto sparse = ca::meshgrid({x0, x1}, ca::indexing::xy, true);
    const auto dense = ca::meshgrid({x0, x1});
    REQUIRE(sparse[0].shape() == ca::shape_type{1, 3});
    REQUIRE(sparse[1].shape() == ca::shape_type{2, 1});
    CHECK(eq(ca::broadcast_to(sparse[0], {2, 3}).get(), dense[0].get()));
    CHECK(eq(ca::broadcast_to(sparse[1], {2, 3}).get(), dense[1].get()));
}

namespace {
// NumPy's pad of one axis, written out for the host reference: the padded line of `line`.
template <class T>
std::vector<double> host_pad_line(const std::vector<T>& line, std::size_t b, std::size_t e,
                                  ca::pad_mode mode, double end) {
    const std::size_t n = line.size();
    std::vector<double> out;
    auto at = [&](std::int64_t j) -> double {
        const auto len = static_cast<std::int64_t>(n);
        auto wrap = [](std::int64_t x, std::int64_t m) { return ((x % m) + m) % m; };
        std::int64_t p = j;
        if (mode == ca::pad_mode::edge) p = std::clamp<std::int64_t>(j, 0, len - 1);
        if (mode == ca::pad_mode::wrap) p = wrap(j, len);
        if (mode == ca::pad_mode::reflect) {
            p = len == 1 ? 0 : wrap(j, 2 * len - 2);
            if (p >= len) p = 2 * len - 2 - p;
        }
        if (mode == ca::pad_mode::symmetric) {
            p = wrap(j, 2 * len);
            if (p >= len) p = 2 * len - 1 - p;
        }
        return double(line[std::size_t(p)]);
    };
    std::vector<double> v(line.begin(), line.end());
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const double mx = sorted.back(), mn = sorted.front();
    const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(n);
    const double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    auto stat = [&]() {
        double s = mode == ca::pad_mode::maximum   ? mx
                   : mode == ca::pad_mode::minimum ? mn
                   : mode == ca::pad_mode::mean    ? mean
                                                   : med;
        return std::is_integral_v<T> ? std::nearbyint(s) : s;
    };
    for (std::size_t i = 0; i < b + n + e; ++i) {
        const std::int64_t j = std::int64_t(i) - std::int64_t(b);
        if (j >= 0 && j < std::int64_t(n)) {
            out.push_back(v[std::size_t(j)]);
        } else if (mode == ca::pad_mode::linear_ramp) {
            // NumPy: linspace(end, edge, count, endpoint=False), k steps of (edge - end) / count
            // from the outer end (integers: rounded towards -inf).
            const double edge = j < 0 ? v.front() : v.back();
            const double count = double(j < 0 ? b : e);
            const double k = j < 0 ? double(i) : count - 1 - double(i - b - n);
            const double r = k * ((edge - end) / count) + end;
            out.push_back(std::is_integral_v<T> ? std::floor(r) : r);
        } else if (mode == ca::pad_mode::maximum || mode == ca::pad_mode::minimum ||
                   mode == ca::pad_mode::mean || mode == ca::pad_mode::median) {
            out.push_back(stat());
        } else {
            out.push_back(at(j));
        }
    }
    return out;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("NumPy arguments: pad modes", "[array_api]", api_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::queue& q = test::q();
    // One padded axis at a time (the other's widths 0), so each line is NumPy's 1-d pad.
    const xt::xarray<T> h = test::random_array<T>({3, 4}, 16);
    const auto a = ca::to_device<S>(q, h);
    for (ca::pad_mode mode :
         {ca::pad_mode::edge, ca::pad_mode::wrap, ca::pad_mode::reflect, ca::pad_mode::symmetric,
          ca::pad_mode::linear_ramp, ca::pad_mode::maximum, ca::pad_mode::minimum,
          ca::pad_mode::mean, ca::pad_mode::median}) {
        for (std::size_t axis : {0u, 1u}) {
            const std::size_t b = 5, e = 2;
            std::vector<ca::pad_width> w(2, {0, 0});
            w[axis] = {b, e};
            INFO("mode " << int(mode) << " axis " << axis);
            const xt::xarray<T> got = ca::pad(a, w, mode, T(3)).get();
            const std::size_t lines = h.shape()[1 - axis], n = h.shape()[axis];
            REQUIRE(got.shape()[axis] == n + b + e);
            for (std::size_t l = 0; l < lines; ++l) {
                std::vector<T> line;
                for (std::size_t k = 0; k < n; ++k)
                    line.push_back(axis == 0 ? h(k, l) : h(l, k));
                const std::vector<double> want = host_pad_line(line, b, e, mode, 3.0);
                for (std::size_t k = 0; k < want.size(); ++k) {
                    const T g = axis == 0 ? got(k, l) : got(l, k);
                    const double wv = std::is_integral_v<T> ? std::nearbyint(want[k]) : want[k];
                    CHECK(double(g) == Approx(wv).epsilon(1e-6).margin(1e-6));
                }
            }
        }
    }
    CHECK_THROWS_AS(ca::pad(ca::cl_array<T, S>(q, {0, 3}), {{1, 1}}, ca::pad_mode::edge),
                    ca::shape_error);
}

TEST_CASE("NumPy arguments: matmul and tensordot of integers and of mixed dtypes", "[array_api]") {
    ca::queue& q = test::q();
    const xt::xarray<std::int8_t> ha = test::random_array<std::int8_t>({2, 3, 4}, 17);
    const xt::xarray<std::int8_t> hb = test::random_array<std::int8_t>({4, 5}, 18);
    const auto a = ca::to_device<ca::buffer>(q, ha);
    const auto b = ca::to_device<ca::buffer>(q, hb);
    // int8: products and sums wrap in int8, as NumPy's.
    const auto c = ca::matmul(a, b);
    STATIC_REQUIRE(std::is_same_v<typename decltype(c)::value_type, std::int8_t>);
    const xt::xarray<std::int8_t> hc = c.get();
    REQUIRE(hc.shape() == (std::vector<std::size_t>{2, 3, 5}));
    for (std::size_t s = 0; s < 2; ++s)
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t k = 0; k < 5; ++k) {
                std::int8_t acc = 0;
                for (std::size_t j = 0; j < 4; ++j)
                    acc = static_cast<std::int8_t>(
                        acc + static_cast<std::int8_t>(ha(s, i, j) * hb(j, k)));
                CHECK(hc(s, i, k) == acc);
            }
    // 1-d operands: the vector axes go again.
    const xt::xarray<std::int32_t> hv = test::random_array<std::int32_t>({4}, 19);
    const auto v = ca::to_device<ca::buffer>(q, hv);
    const auto b32 = ca::to_device<ca::buffer>(q, xt::xarray<std::int32_t>(hb));
    const xt::xarray<std::int32_t> vb = ca::matmul(v, b32).get();
    REQUIRE(vb.shape() == (std::vector<std::size_t>{5}));
    for (std::size_t k = 0; k < 5; ++k) {
        std::int32_t acc = 0;
        for (std::size_t j = 0; j < 4; ++j)
            acc += hv(j) * std::int32_t(hb(j, k));
        CHECK(vb(k) == acc);
    }
    const xt::xarray<std::int32_t> vv = ca::matmul(v, v).get();
    CHECK(vv.dimension() == 0);
    CHECK(vv() == xt::sum(hv * hv)());
    // tensordot of integers; int32 @ float: promoted to float64.
    const xt::xarray<std::int32_t> td = ca::tensordot(b32, b32, {0}, {0}).get();
    for (std::size_t i = 0; i < 5; ++i)
        for (std::size_t k = 0; k < 5; ++k) {
            std::int32_t acc = 0;
            for (std::size_t j = 0; j < 4; ++j)
                acc += std::int32_t(hb(j, i)) * std::int32_t(hb(j, k));
            CHECK(td(i, k) == acc);
        }
    if (test::dtype_available<double>()) {
        const auto bf = ca::to_device<ca::buffer>(q, xt::xarray<float>(hb));
        const auto mixed = ca::matmul(v, bf);
        STATIC_REQUIRE(std::is_same_v<typename decltype(mixed)::value_type, double>);
        const xt::xarray<double> hm = mixed.get();
        for (std::size_t k = 0; k < 5; ++k)
            CHECK(hm(k) == Approx(double(vb(k))));
    }
    // bool @ bool: whether any product is true.
    const xt::xarray<bool> hp = test::random_array<bool>({3, 4}, 20),
                           hq = test::random_array<bool>({4, 2}, 21);
    const xt::xarray<bool> pq =
        ca::matmul(ca::to_device<ca::buffer>(q, hp), ca::to_device<ca::buffer>(q, hq)).get();
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t k = 0; k < 2; ++k) {
            bool any = false;
            for (std::size_t j = 0; j < 4; ++j)
                any = any || (hp(i, j) && hq(j, k));
            CHECK(pq(i, k) == any);
        }
    CHECK_THROWS_AS(ca::matmul(a, a), ca::shape_error);
}
