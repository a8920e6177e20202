// Statistics against host references written here (std::sort / std::nth_element with NumPy's
// order and NumPy's quantile formulas, plain loops for moments): partition, argpartition, topk,
// quantile, percentile, median (the select path over whole arrays, the sort path along axes),
// average, ptp, cov and corrcoef, over dtypes, storage policies, views, NaN, infinities, ties,
// integer extremes, empty inputs, expressions and the errors.
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

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || std::is_same_v<T, ca::half>;

template <class T> double as_double(T v) {
    if constexpr (std::is_same_v<T, ca::half>)
        return static_cast<double>(static_cast<float>(v));
    else
        return static_cast<double>(v);
}

// NumPy's order: NaN last, -0.0 == +0.0.
template <class T> bool before(T a, T b) {
    if constexpr (is_float_v<T>) {
        const double x = as_double(a), y = as_double(b);
        if (std::isnan(x)) return false;
        if (std::isnan(y)) return true;
        return x < y;
    } else {
        return a < b;
    }
}
template <class T> bool same(T a, T b) {
    return !before(a, b) && !before(b, a);
}

// Random values with many ties; floats with NaN (nan_every > 0: about one in nan_every),
// infinities and signed zeros; integers with their extremes.
template <class T> std::vector<T> data(std::size_t n, unsigned seed, unsigned nan_every = 0) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (auto& x : v) {
        const unsigned r = static_cast<unsigned>(rng() % 97);
        if constexpr (is_float_v<T>) {
            double d = static_cast<double>(static_cast<int>(rng() % 2001) - 1000) / 8;
            if (nan_every && rng() % nan_every == 0)
                d = std::numeric_limits<double>::quiet_NaN();
            else if (r == 0)
                d = std::numeric_limits<double>::infinity();
            else if (r == 1)
                d = -std::numeric_limits<double>::infinity();
            else if (r == 2)
                d = -0.0;
            x = static_cast<T>(static_cast<float>(d));
        } else {
            if (r == 0)
                x = std::numeric_limits<T>::min();
            else if (r == 1)
                x = std::numeric_limits<T>::max();
            else if constexpr (std::is_signed_v<T>)
                x = static_cast<T>(static_cast<int>(rng() % 200) - 100);
            else
                x = static_cast<T>(rng() % 200);
        }
    }
    return v;
}

template <class T> std::vector<T> sorted(std::vector<T> v) {
    std::sort(v.begin(), v.end(), before<T>);
    return v;
}

// NumPy's quantile of the sorted slice s (n > 0) for q, in R (Q: the virtual index's type).
template <class R, class Q, class T>
double host_quantile(const std::vector<T>& s, double q_in, ca::quantile_method m) {
    const std::size_t n = s.size();
    if constexpr (is_float_v<T>)
        if (std::isnan(as_double(s.back()))) return std::numeric_limits<double>::quiet_NaN();
    const Q q = static_cast<Q>(q_in);
    const Q x = static_cast<Q>(n - 1) * q;
    const auto at = [&](Q i) {
        const double c = std::min<double>(std::max<double>(static_cast<double>(i), 0), n - 1);
        return static_cast<R>(as_double(s[static_cast<std::size_t>(c)]));
    };
    switch (m) {
    case ca::quantile_method::lower:
        return static_cast<double>(at(std::floor(x)));
    case ca::quantile_method::higher:
        return static_cast<double>(at(std::ceil(x)));
    case ca::quantile_method::nearest:
        return static_cast<double>(at(std::nearbyint(x)));
    default:
        break;
    }
    Q v = x, g = x - std::floor(x);
    if (m == ca::quantile_method::midpoint) {
        v = Q(0.5) * (std::floor(x) + std::ceil(x));
        g = std::floor(x) == x ? Q(0) : Q(0.5);
    }
    const std::size_t i = static_cast<std::size_t>(std::floor(v));
    if (v >= static_cast<Q>(n - 1)) return static_cast<double>(at(static_cast<Q>(n - 1)));
    const R a = at(static_cast<Q>(i)), b = at(static_cast<Q>(i + 1));
    const R d = b - a;
    return static_cast<double>(g >= Q(0.5) ? R(b - d * static_cast<R>(1 - g))
                                           : R(a + d * static_cast<R>(g)));
}

// Equal, or both NaN, or within a relative tolerance (device arithmetic may contract).
bool close(double got, double want, double tol) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    return std::abs(got - want) <= tol * std::max(1.0, std::abs(want));
}
template <class T> double tolerance() {
    return std::is_same_v<T, ca::half> ? 2e-3 : std::is_same_v<T, float> ? 2e-6 : 1e-12;
}

// The slices of h (C-order flat values of shape) along axis (none: all): slice s's elements.
std::vector<std::vector<std::size_t>> slices(const ca::shape_type& shape,
                                             std::optional<long> axis) {
    const std::size_t size = ca::checked_size(shape);
    std::vector<std::vector<std::size_t>> r;
    if (!axis) {
        r.emplace_back(size);
        for (std::size_t i = 0; i < size; ++i)
            r[0][i] = i;
        return r;
    }
    const std::size_t ax = static_cast<std::size_t>(*axis < 0 ? *axis + long(shape.size()) : *axis);
    std::size_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < ax; ++d)
        outer *= shape[d];
    for (std::size_t d = ax + 1; d < shape.size(); ++d)
        inner *= shape[d];
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t in = 0; in < inner; ++in) {
            std::vector<std::size_t> s;
            for (std::size_t j = 0; j < shape[ax]; ++j)
                s.push_back((o * shape[ax] + j) * inner + in);
            r.push_back(s);
        }
    return r;
}

// quantile (several q, every method) and median of d along axis against the host.
template <class T, class S>
void check_quantiles(const ca::cl_array<T, S>& d, std::optional<long> axis) {
    using R = ca::stat_float_t<T>;
    const std::vector<T> h = test::host_vector(d);
    const auto sl = slices(d.shape(), axis);
    // a short list (selections on the select path) and a long one (more than select_most
    // selections: the sort of the flattened array there)
    const std::vector<double> lists[] = {{0.0, 0.3, 0.5, 0.77, 1.0},
                                         {0.0, 0.1, 0.2, 0.3, 0.5, 0.62, 0.77, 0.9, 1.0}};
    for (const std::vector<double>& qs : lists)
        for (auto m :
             {ca::quantile_method::linear, ca::quantile_method::lower, ca::quantile_method::higher,
              ca::quantile_method::nearest, ca::quantile_method::midpoint}) {
            INFO("method " << int(m));
            const std::vector<R> got = test::host_vector(ca::quantile(d, qs, axis, m));
            const std::vector<R> one = test::host_vector(ca::quantile(d, 0.3, axis, m));
            REQUIRE(got.size() == qs.size() * sl.size());
            REQUIRE(one.size() == sl.size());
            std::size_t bad = 0;
            for (std::size_t s = 0; s < sl.size(); ++s) {
                std::vector<T> v;
                for (std::size_t i : sl[s])
                    v.push_back(h[i]);
                v = sorted(v);
                // float16: the device interpolates in float and rounds once, NumPy rounds every
                // step to float16; allow an error of the operands' size (their cancellation)
                double scale = 1;
                if (std::is_same_v<T, ca::half>)
                    for (T x : v)
                        if (std::isfinite(as_double(x)))
                            scale = std::max(scale, std::abs(as_double(x)));
                const double tol = tolerance<T>() * scale;
                for (std::size_t j = 0; j < qs.size(); ++j)
                    if (!close(as_double(got[j * sl.size() + s]),
                               host_quantile<R, double>(v, qs[j], m), tol))
                        ++bad;
                using Q = std::conditional_t<std::is_same_v<T, float>, float, double>;
                if (!close(as_double(one[s]), host_quantile<R, Q>(v, 0.3, m), tol)) ++bad;
            }
            CHECK(bad == 0);
        }
    const std::vector<R> med = test::host_vector(ca::median(d, axis));
    REQUIRE(med.size() == sl.size());
    std::size_t bad = 0;
    for (std::size_t s = 0; s < sl.size(); ++s) {
        std::vector<T> v;
        for (std::size_t i : sl[s])
            v.push_back(h[i]);
        const std::size_t n = v.size();
        std::nth_element(v.begin(), v.begin() + n / 2, v.end(), before<T>);
        const T hi = v[n / 2];
        const T lo = n % 2 ? hi : *std::max_element(v.begin(), v.begin() + n / 2, before<T>);
        const bool nan =
            std::any_of(v.begin(), v.end(), [](T x) { return std::isnan(as_double(x)); });
        const double want =
            nan ? std::numeric_limits<double>::quiet_NaN()
                : static_cast<double>(R((R(as_double(lo)) + R(as_double(hi))) / R(2)));
        if (!close(as_double(med[s]), want, tolerance<T>())) ++bad;
    }
    CHECK(bad == 0);
}

// partition / argpartition of the 1-d d around kth against the host's sorted order.
template <class T, class S> void check_partition(const ca::cl_array<T, S>& d, long kth) {
    const std::vector<T> h = test::host_vector(d);
    const std::size_t n = h.size(), k = std::size_t(kth < 0 ? kth + long(n) : kth);
    const std::vector<T> s = sorted(h);
    const std::vector<T> p = test::host_vector(ca::partition(d, kth));
    const std::vector<std::int64_t> idx = test::host_vector(ca::argpartition(d, kth));
    REQUIRE(p.size() == n);
    REQUIRE(idx.size() == n);
    std::size_t bad = 0;
    std::vector<char> seen(n, 0);
    std::vector<T> gathered(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (idx[i] < 0 || std::size_t(idx[i]) >= n || seen[std::size_t(idx[i])]++) {
            ++bad;
            continue;
        }
        gathered[i] = h[std::size_t(idx[i])];
    }
    for (const std::vector<T>* v : std::vector<const std::vector<T>*>{&p, &gathered}) {
        if (!same((*v)[k], s[k])) ++bad;
        for (std::size_t i = 0; i < n; ++i)
            if ((i < k && before(s[k], (*v)[i])) || (i > k && before((*v)[i], s[k]))) ++bad;
        const std::vector<T> vs = sorted(*v); // the same elements
        for (std::size_t i = 0; i < n; ++i)
            if (!same(vs[i], s[i])) ++bad;
    }
    CHECK(bad == 0);
}

// topk of d along axis against the host's sorted slices.
template <class T, class S>
void check_topk(const ca::cl_array<T, S>& d, std::size_t k, long axis, bool largest) {
    const std::vector<T> h = test::host_vector(d);
    auto [values, indices] = ca::topk(d, k, axis, largest);
    ca::shape_type want_shape = d.shape();
    const std::size_t ax = std::size_t(axis < 0 ? axis + long(d.dimension()) : axis);
    want_shape[ax] = k;
    REQUIRE(values.shape() == want_shape);
    REQUIRE(indices.shape() == want_shape);
    const std::vector<T> v = test::host_vector(values);
    const std::vector<std::int64_t> ix = test::host_vector(indices);
    const auto sl = slices(d.shape(), axis);
    const auto out = slices(want_shape, axis);
    std::size_t bad = 0;
    for (std::size_t s = 0; s < sl.size(); ++s) {
        std::vector<T> line;
        for (std::size_t i : sl[s])
            line.push_back(h[i]);
        std::vector<T> want = sorted(line);
        if (largest) std::reverse(want.begin(), want.end());
        for (std::size_t j = 0; j < k; ++j) {
            const std::size_t o = out[s][j];
            if (!same(v[o], want[j])) ++bad;
            if (ix[o] < 0 || std::size_t(ix[o]) >= line.size() ||
                !same(line[std::size_t(ix[o])], v[o]))
                ++bad;
        }
    }
    CHECK(bad == 0);
}

template <class T, class S>
ca::cl_array<T, S> upload(const std::vector<T>& h, ca::shape_type shape) {
    ca::cl_array<T, S> d(test::q(), shape);
    d.set(h);
    return d;
}

using stat_matrix =
    std::tuple<test::cfg<std::int32_t, ca::svm_coarse>, test::cfg<std::int64_t, ca::buffer>,
               test::cfg<std::uint8_t, ca::svm_fine>, test::cfg<ca::half, ca::buffer>,
               test::cfg<float, ca::svm_coarse>, test::cfg<float, ca::svm_fine>,
               test::cfg<float, ca::buffer>, test::cfg<double, ca::svm_coarse>>;

} // namespace

TEMPLATE_LIST_TEST_CASE("stats: partition, argpartition and topk of 1-d arrays (select path)",
                        "[stats]", stat_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    if (!test::dtype_available<T>() || !test::storage_available<S>()) return;
    for (std::size_t n : {1ul, 2ul, 17ul, 1000ul, 70001ul}) {
        for (unsigned nan : {0u, 5u}) {
            INFO("n " << n << " nan " << nan);
            auto d = upload<T, S>(data<T>(n, unsigned(n) + nan, nan), {n});
            for (long kth : {0L, 1L, long(n / 2), long(n) - 1, -1L})
                if (kth < long(n)) check_partition(d, kth);
            for (std::size_t k : {std::size_t(0), std::size_t(1), n / 3, n}) {
                check_topk(d, k, 0, true);
                check_topk(d, k, -1, false);
            }
        }
    }
}

TEMPLATE_LIST_TEST_CASE("stats: quantile, percentile and median, flattened and along axes",
                        "[stats]", stat_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    if (!test::dtype_available<T>() || !test::storage_available<S>()) return;
    for (unsigned nan : {0u, 40u}) {
        for (const ca::shape_type& shape :
             {ca::shape_type{1}, ca::shape_type{2}, ca::shape_type{101}, ca::shape_type{7, 12},
              ca::shape_type{3, 1, 9}, ca::shape_type{1, 16}}) {
            INFO("nan " << nan << " shape rank " << shape.size() << " first " << shape[0]);
            auto d = upload<T, S>(data<T>(ca::checked_size(shape), 3 + nan, nan), shape);
            check_quantiles(d, std::nullopt);
            for (long ax = -long(shape.size()); ax < long(shape.size()); ++ax)
                check_quantiles(d, ax);
        }
    }
    // percentile is quantile of p / 100; keep_dims keeps the axis as 1
    auto d = upload<T, S>(data<T>(60, 9), {5, 12});
    using R = ca::stat_float_t<T>;
    CHECK(test::host_vector(ca::percentile(d, 30.0, 1)) ==
          test::host_vector(ca::quantile(d, 0.3, 1)));
    CHECK(test::host_vector(ca::percentile(d, std::vector<double>{10, 90})) ==
          test::host_vector(ca::quantile(d, std::vector<double>{0.1, 0.9})));
    auto kept =
        ca::quantile(d, std::vector<double>{0.25, 0.5}, 0, ca::quantile_method::linear, true);
    CHECK(kept.shape() == ca::shape_type{2, 1, 12});
    CHECK(ca::median(d, 1, true).shape() == ca::shape_type{5, 1});
    CHECK(ca::median(d, std::nullopt, true).shape() == ca::shape_type{1, 1});
    CHECK(ca::quantile(d, 0.5).shape() == ca::shape_type{});
    CHECK(std::is_same_v<typename decltype(ca::median(d))::value_type, R>);
    // the method by NumPy's name
    CHECK(test::host_vector(ca::percentile(d, 40.0, 1, "higher")) ==
          test::host_vector(ca::quantile(d, 0.4, 1, ca::quantile_method::higher)));
    CHECK(test::host_vector(ca::quantile(d, 0.4, 0, "nearest")) ==
          test::host_vector(ca::quantile(d, 0.4, 0, ca::quantile_method::nearest)));
}

// The rank after a selected one (the second value a median or a linear quantile reads) comes
// from the selected key's last digit's counts, else from the candidates of the pass before
// (keys sharing all but the last two digits), else from a pass over the input: keys a < b next
// to each other in the last digit, apart in the one before, apart in a higher one (8-bit types
// have one digit, 16-bit types no candidates), and equal keys.
TEMPLATE_LIST_TEST_CASE("stats: the rank after a selected one, near and far", "[stats]",
                        stat_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    if (!test::dtype_available<T>() || !test::storage_available<S>()) return;
    const T a = T(100);
    T near_b{}, middle_b{}, far_b{};
    if constexpr (std::is_same_v<T, ca::half>) {
        near_b = T(100.0625f); // float16's next value above 100 (a step of 1/16)
        middle_b = far_b = T(200);
    } else if constexpr (std::is_floating_point_v<T>) {
        near_b = std::nextafter(a, T(1000));
        // 256 steps above a: the same key but for the digit before the last
        middle_b = a + T(256) * (near_b - a);
        far_b = T(200);
    } else {
        near_b = T(101);
        middle_b = T(std::is_same_v<T, std::uint8_t> ? 150 : 356);
        far_b = T(std::is_same_v<T, std::uint8_t> ? 200 : 65636);
    }
    for (const T b : {near_b, middle_b, far_b, a}) {
        for (std::size_t m : {std::size_t(1), std::size_t(40)}) {
            // m - 1 values below a, a, b, m - 1 values above b; shuffled
            std::vector<T> h;
            for (std::size_t i = 1; i < m; ++i) {
                h.push_back(T(as_double(a) - 1 - double(i)));
                h.push_back(T(as_double(b) + 1 + double(i)));
            }
            h.push_back(a);
            h.push_back(b);
            std::shuffle(h.begin(), h.end(), std::mt19937(unsigned(m)));
            INFO("b " << as_double(b) << " n " << h.size());
            check_quantiles(upload<T, S>(h, {h.size()}), std::nullopt);
        }
    }
}

TEST_CASE("stats: views, expressions, large inputs and extremes", "[stats]") {
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        auto d = upload<float, S>(data<float>(20 * 30, 5, 50), {20, 30});
        // transposed, offset, negative step
        for (auto v :
             {d.transpose(), d(ca::range(1, 19, 2), ca::range(3, 30, 3)),
              d(ca::range(ca::none, ca::none, -1), 4), d(3, ca::range(ca::none, ca::none, -2))}) {
            check_quantiles(v, std::nullopt);
            check_quantiles(v, -1);
            if (v.dimension() == 1) {
                check_partition(v, long(v.size() / 2));
                check_topk(v, 3, 0, true);
            } else {
                check_topk(v, 2, 0, true);
                check_topk(v, 4, 1, false);
            }
        }
        // expressions are evaluated first
        auto e = test::host_vector(ca::median(d * 2.0f + 1.0f));
        auto m = test::host_vector(ca::median(ca::cl_array<float, S>(ca::eval(d * 2.0f + 1.0f))));
        CHECK(test::host_vector(ca::partition(d + 1.0f, 4, 0)).size() == d.size());
        CHECK(((std::isnan(e[0]) && std::isnan(m[0])) || e == m));
    });
    // int64 extremes: every method, through float64 (exact for the extremes themselves)
    {
        std::vector<std::int64_t> h = data<std::int64_t>(501, 8);
        h[0] = std::numeric_limits<std::int64_t>::min();
        h[1] = std::numeric_limits<std::int64_t>::max();
        auto d = upload<std::int64_t, ca::buffer>(h, {h.size()});
        check_quantiles(d, std::nullopt);
        CHECK(test::host_vector(ca::quantile(d, 0.0))[0] == -9223372036854775808.0);
        CHECK(test::host_vector(ca::quantile(d, 1.0))[0] == 9223372036854775807.0);
    }
    // 1e6 elements: the select path through every digit pass
    {
        const std::size_t n = 1000000;
        auto h = data<float>(n, 21);
        std::mt19937 rng(4);
        for (auto& x : h) // mostly distinct values, one octave (long shared key prefixes)
            if (std::isfinite(x)) x = 1.0f + float(rng() % (1u << 23)) / float(1u << 23);
        auto d = upload<float, ca::buffer>(h, {n});
        const std::vector<float> s = sorted(h);
        CHECK(test::host_vector(ca::median(d))[0] == (s[n / 2 - 1] + s[n / 2]) / 2);
        const auto q = test::host_vector(ca::quantile(d, std::vector<double>{0.001, 0.7},
                                                      std::nullopt, ca::quantile_method::lower));
        CHECK(q[0] == s[std::size_t(std::floor((n - 1) * 0.001))]);
        CHECK(q[1] == s[std::size_t(std::floor((n - 1) * 0.7))]);
        check_partition(d, 123457);
        check_topk(d, 100, 0, true);
        auto hd = data<double>(n, 22, 1000); // with NaN: every quantile NaN
        auto dd = upload<double, ca::buffer>(hd, {n});
        CHECK(std::isnan(test::host_vector(ca::median(dd))[0]));
        CHECK(std::isnan(
            test::host_vector(ca::quantile(dd, 0.0, std::nullopt, ca::quantile_method::lower))[0]));
    }
}

TEST_CASE("stats: median of complex values and pad's median mode, as NumPy's", "[stats]") {
    using C = std::complex<float>;
    ca::queue& q = test::q();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    // NumPy's order: real part, then imaginary part; values with a NaN part after every number.
    auto nan_class = [](C x) { return 2 * std::isnan(x.real()) + std::isnan(x.imag()); };
    auto less = [&](C x, C y) {
        if (nan_class(x) != nan_class(y)) return nan_class(x) < nan_class(y);
        const float xr = std::isnan(x.real()) ? 0 : x.real(),
                    yr = std::isnan(y.real()) ? 0 : y.real();
        const float xi = std::isnan(x.imag()) ? 0 : x.imag(),
                    yi = std::isnan(y.imag()) ? 0 : y.imag();
        return xr < yr || (xr == yr && xi < yi);
    };
    // The host median of a line: the middle value or the mean of the two; a line with a NaN part
    // gives its last value in that order.
    auto host_median = [&](std::vector<C> v) {
        std::stable_sort(v.begin(), v.end(), less);
        if (nan_class(v.back()) != 0) return v.back();
        const std::size_t n = v.size();
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0f;
    };
    // Rows of 5 and 6 values with ties in the real part; row 2 holds a NaN part.
    xt::xarray<C> h = xt::xarray<C>::from_shape({4, 6});
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> part(-3, 3);
    for (auto& x : h)
        x = C(float(part(rng)), float(part(rng)));
    h(2, 3) = C(1, nan);
    const auto a = ca::to_device<ca::buffer>(q, h);
    static_assert(std::is_same_v<ca::median_t<C>, C>);
    const xt::xarray<C> along = ca::median(a, 1).get();
    const xt::xarray<C> five = ca::median(a(ca::all(), ca::range(0, 5)), 1).get();
    REQUIRE(along.size() == 4);
    for (std::size_t r = 0; r < 4; ++r) {
        INFO("row " << r);
        std::vector<C> line(h.begin() + r * 6, h.begin() + r * 6 + 6);
        const C want = host_median(line), want5 = host_median({line.begin(), line.begin() + 5});
        if (nan_class(want) != 0) {
            CHECK(nan_class(along(r)) == nan_class(want));
        } else {
            CHECK(along(r) == want);
            CHECK(five(r) == want5);
        }
    }
    std::vector<C> rows01(h.begin(), h.begin() + 12);
    CHECK(ca::median(a(ca::range(0, 2))).get()() == host_median(rows01));
    // Empty: NaN in both parts (NumPy's mean of nothing).
    const C empty = ca::median(ca::empty<C, ca::buffer>(q, {0})).get()();
    CHECK((std::isnan(empty.real()) && std::isnan(empty.imag())));
    // pad's median mode: each line's median spread to the widths.
    const xt::xarray<C> padded =
        ca::pad(a(ca::range(0, 2)), {{0, 0}, {2, 1}}, ca::pad_mode::median).get();
    REQUIRE(padded.shape() == (std::vector<std::size_t>{2, 9}));
    for (std::size_t r = 0; r < 2; ++r) {
        const C m = host_median({h.begin() + r * 6, h.begin() + r * 6 + 6});
        for (std::size_t c : {0u, 1u, 8u})
            CHECK(padded(r, c) == m);
        for (std::size_t c = 0; c < 6; ++c)
            CHECK(padded(r, c + 2) == h(r, c));
    }
}

TEST_CASE("stats: empty inputs and errors", "[stats]") {
    auto empty = ca::cl_array<float, ca::buffer>(test::q(), {0});
    CHECK(std::isnan(ca::median(empty).item()));
    auto e2 = ca::cl_array<std::int32_t, ca::buffer>(test::q(), {0, 3});
    const std::vector<double> m0 = test::host_vector(ca::median(e2, 0));
    REQUIRE(m0.size() == 3);
    CHECK(std::isnan(m0[0]));
    CHECK(ca::median(e2, 1).size() == 0);
    CHECK_THROWS_AS(ca::quantile(empty, 0.5), ca::index_error);
    CHECK(ca::topk(empty, 0).values.size() == 0);

    auto d = upload<float, ca::buffer>(data<float>(10, 1), {10});
    CHECK_THROWS_AS(ca::partition(d, 10), ca::index_error);
    CHECK_THROWS_AS(ca::argpartition(d, -11), ca::index_error);
    CHECK_THROWS_AS(ca::partition(d, 0, 1), ca::index_error);
    CHECK_THROWS_AS(ca::topk(d, 11), ca::index_error);
    CHECK_THROWS_WITH(ca::topk(d, 11), catch_compat::Contains("11"));
    CHECK_THROWS_AS(ca::quantile(d, 1.5), ca::usage_error);
    CHECK_THROWS_WITH(ca::quantile(d, -0.25), catch_compat::Contains("-0.25"));
    CHECK_THROWS_AS(ca::percentile(d, 101.0), ca::usage_error);
    CHECK_THROWS_AS(ca::quantile(d, std::nan("")), ca::usage_error);
    CHECK_THROWS_WITH(ca::quantile(d, 0.5, std::nullopt, "cubic"), catch_compat::Contains("cubic"));
    CHECK_THROWS_AS(ca::quantile(d, 0.5, std::nullopt, "cubic"), ca::usage_error);
    CHECK_THROWS_AS(ca::median(d, 2), ca::index_error);
}

TEMPLATE_LIST_TEST_CASE("stats: average, ptp, cov and corrcoef", "[stats]", stat_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    if (!test::dtype_available<T>() || !test::storage_available<S>()) return;
    if (!test::ctx().device().has_fp64()) return; // cov is float64
    const std::size_t r = 4, c = 9;
    std::vector<T> h(r * c);
    std::mt19937 rng(7);
    for (auto& x : h)
        x = static_cast<T>(static_cast<float>(rng() % 50));
    auto d = upload<T, S>(h, {r, c});
    auto hv = [&](std::size_t i, std::size_t j) { return as_double(h[i * c + j]); };
    std::vector<double> wh(c);
    for (std::size_t j = 0; j < c; ++j)
        wh[j] = double(j % 3) - 0.5;
    auto w = upload<double, S>(wh, {c});
    // weighted average along axis 1 (1-d weights), against sum(a w) / sum(w)
    const std::vector<double> avg = test::host_vector(ca::average(d, 1, w));
    REQUIRE(avg.size() == r);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < r; ++i) {
        double num = 0, den = 0;
        for (std::size_t j = 0; j < c; ++j) {
            num += hv(i, j) * wh[j];
            den += wh[j];
        }
        if (!close(avg[i], num / den, 1e-12)) ++bad;
    }
    // weights of the array's shape, flattened; no weights: the mean
    auto full = ca::cl_array<double, S>(ca::eval(ca::astype<double>(d) * 0 + 1));
    CHECK(close(ca::average(d, std::nullopt, full).item(),
                double(ca::mean(ca::astype<double>(d)).item()), 1e-12));
    auto zero = upload<double, S>(std::vector<double>(c, 0.0), {c});
    CHECK_THROWS_AS(ca::average(d, 1, zero), ca::zero_division_error);
    CHECK_THROWS_AS(ca::average(d, std::nullopt, w), ca::shape_error);
    // ptp along each axis
    const std::vector<T> p0 = test::host_vector(ca::ptp(d, 0));
    for (std::size_t j = 0; j < c; ++j) {
        double lo = hv(0, j), hi = lo;
        for (std::size_t i = 0; i < r; ++i) {
            lo = std::min(lo, hv(i, j));
            hi = std::max(hi, hv(i, j));
        }
        if (as_double(p0[j]) != static_cast<double>(static_cast<T>(hi - lo))) ++bad;
    }
    // cov of rows (variables) and columns, corrcoef, against the host
    std::vector<double> mean(r, 0.0);
    for (std::size_t i = 0; i < r; ++i) {
        for (std::size_t j = 0; j < c; ++j)
            mean[i] += hv(i, j);
        mean[i] /= double(c);
    }
    const std::vector<double> cv = test::host_vector(ca::cov(d));
    const std::vector<double> cc = test::host_vector(ca::corrcoef(d));
    const std::vector<double> cv0 = test::host_vector(ca::cov(d, true, 0));
    REQUIRE(cv.size() == r * r);
    REQUIRE(cc.size() == r * r);
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t k = 0; k < r; ++k) {
            double s = 0;
            for (std::size_t j = 0; j < c; ++j)
                s += (hv(i, j) - mean[i]) * (hv(k, j) - mean[k]);
            if (!close(cv[i * r + k], s / double(c - 1), 1e-10)) ++bad;
            if (!close(cv0[i * r + k], s / double(c), 1e-10)) ++bad;
            double si = 0, sk = 0;
            for (std::size_t j = 0; j < c; ++j) {
                si += (hv(i, j) - mean[i]) * (hv(i, j) - mean[i]);
                sk += (hv(k, j) - mean[k]) * (hv(k, j) - mean[k]);
            }
            const double want = std::clamp(s / std::sqrt(si * sk), -1.0, 1.0);
            if (!close(cc[i * r + k], want, 1e-10)) ++bad;
        }
    const std::vector<double> ct = test::host_vector(ca::cov(d.transpose(), false));
    CHECK(ct.size() == cv.size());
    for (std::size_t i = 0; i < ct.size(); ++i)
        if (!close(ct[i], cv[i], 1e-12)) ++bad;
    CHECK(bad == 0);
    CHECK(ca::cov(d(0)).dimension() == 0); // one variable: 0-d, its variance
    CHECK_THROWS_AS(ca::cov(ca::cl_array<T, S>(test::q(), {2, 2, 2})), ca::shape_error);
}
