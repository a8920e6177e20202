// Sorting and searching against host references (std::stable_sort with NumPy's order, plain
// loops): every dtype, every storage policy, views, sizes from 0 to 2^20 + 3, NaN order,
// stability, axis sorts, searchsorted, unique, bincount and histogram.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

namespace {

// float, double and float16 (ca::half, compared through float).
template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || std::is_same_v<T, ca::half>;

// NumPy's order: NaN last, -0.0 == +0.0.
template <class T> bool less(T a, T b) {
    if constexpr (std::is_same_v<T, ca::half>) {
        return less(float(a), float(b));
    } else if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a)) return false;
        if (std::isnan(b)) return true;
    }
    return a < b;
}
template <class T> bool same(T a, T b) {
    return !less(a, b) && !less(b, a);
}

// Host data with many repeats (stability), and for floats NaNs, -0.0, +0.0 and infinities.
template <class T> std::vector<T> host_data(std::size_t n, unsigned seed, int distinct = 50) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        T x{};
        if constexpr (std::is_same_v<T, bool>) {
            x = rng() & 1;
        } else if constexpr (std::is_same_v<T, ca::half>) {
            x = ca::half(host_data<float>(1, static_cast<unsigned>(rng()), distinct)[0]);
        } else if constexpr (std::is_floating_point_v<T>) {
            const unsigned r = rng() % 64;
            if (r == 0) // NaNs of both signs (their keys lie at both ends of the key range)
                x = std::copysign(std::numeric_limits<T>::quiet_NaN(), (rng() & 1) ? T(-1) : T(1));
            else if (r == 1)
                x = T(-0.0);
            else if (r == 2)
                x = T(0.0);
            else if (r == 3)
                x = std::numeric_limits<T>::infinity();
            else if (r == 4)
                x = -std::numeric_limits<T>::infinity();
            else
                x = static_cast<T>(static_cast<int>(rng() % distinct) - distinct / 2) / T(4);
        } else {
            // the full range at the ends (sign bits), small values otherwise (repeats)
            const unsigned r = rng() % 16;
            if (r == 0)
                x = std::numeric_limits<T>::min();
            else if (r == 1)
                x = std::numeric_limits<T>::max();
            else if (r == 2)
                x = static_cast<T>(rng());
            else if constexpr (std::is_signed_v<T>)
                x = static_cast<T>(static_cast<int>(rng() % distinct) - distinct / 2);
            else
                x = static_cast<T>(rng() % distinct);
        }
        v[i] = x;
    }
    return v;
}

// Bitwise equality (keeps -0.0 apart from +0.0 and NaN payloads).
template <class T> bool identical(T a, T b) {
    if constexpr (std::is_same_v<T, ca::half>) {
        if (std::isnan(float(a)) && std::isnan(float(b))) return true;
        return a.bits() == b.bits();
    } else if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a) && std::isnan(b)) return true;
        return std::memcmp(&a, &b, sizeof(T)) == 0;
    } else {
        return a == b;
    }
}

template <class T> xt::xarray<T> from_vector(const std::vector<T>& v, const ca::shape_type& shape) {
    xt::xarray<T> a = xt::xarray<T>::from_shape(shape);
    std::copy(v.begin(), v.end(), a.begin());
    return a;
}

// The stable argsort of every line along `axis` of host array h (C order result).
template <class T> xt::xarray<std::int64_t> host_argsort(const xt::xarray<T>& h, std::size_t axis) {
    const auto shape = h.shape();
    xt::xarray<std::int64_t> r = xt::xarray<std::int64_t>::from_shape(shape);
    const std::size_t len = shape[axis];
    std::size_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < axis; ++d)
        outer *= shape[d];
    for (std::size_t d = axis + 1; d < shape.size(); ++d)
        inner *= shape[d];
    std::vector<std::int64_t> idx(len);
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t in = 0; in < inner; ++in) {
            auto at = [&](std::size_t j) { return (o * len + j) * inner + in; };
            std::iota(idx.begin(), idx.end(), 0);
            std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t x, std::int64_t y) {
                return less(h.data()[at(x)], h.data()[at(y)]);
            });
            for (std::size_t j = 0; j < len; ++j)
                r.data()[at(j)] = idx[j];
        }
    return r;
}

// sort and argsort of device array d (any view) equal the host's along axis.
template <class T, class S> void check_sort(const ca::cl_array<T, S>& d, long axis) {
    const xt::xarray<T> h = d.get(); // C order copy of the view
    const std::size_t ax = static_cast<std::size_t>(axis < 0 ? axis + long(h.dimension()) : axis);
    const xt::xarray<std::int64_t> want = host_argsort(h, ax);
    const xt::xarray<std::int64_t> got_idx = ca::argsort(d, axis).get();
    const xt::xarray<T> got = ca::sort(d, axis).get();
    REQUIRE(got_idx.shape() == h.shape());
    REQUIRE(got.shape() == h.shape());
    const auto shape = h.shape();
    std::size_t inner = 1;
    for (std::size_t k = ax + 1; k < shape.size(); ++k)
        inner *= shape[k];
    const std::size_t len = shape[ax];
    std::size_t bad = 0;
    for (std::size_t i = 0; i < h.size(); ++i) {
        if (got_idx.data()[i] != want.data()[i]) ++bad;
        const std::size_t line_start = i - ((i / inner) % len) * inner;
        const T expect = h.data()[line_start + std::size_t(want.data()[i]) * inner];
        if (!identical(got.data()[i], expect)) ++bad;
    }
    CHECK(bad == 0);
}

using sort_types =
    std::tuple<bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
               std::uint32_t, std::int64_t, std::uint64_t, ca::half, float, double>;

} // namespace

TEMPLATE_LIST_TEST_CASE("sort: 1-d sort and argsort of every dtype on every policy", "[sort]",
                        sort_types) {
    using T = TestType;
    if (!test::dtype_available<T>()) return;
    const auto run = [](auto policy) {
        using S = decltype(policy);
        if (!test::storage_available<S>()) return;
        for (std::size_t n : {0ul, 1ul, 2ul, 17ul, 257ul, 4099ul}) {
            INFO("n " << n << " storage " << S::name);
            auto h = from_vector(host_data<T>(n, unsigned(n) + 7), {n});
            auto d = ca::to_device<S>(test::q(), h);
            check_sort(d, -1);
            check_sort(d, 0);
        }
    };
    run(ca::svm_coarse{});
    run(ca::svm_fine{});
    run(ca::buffer{});
}

using large_types = std::tuple<float, std::uint32_t, std::int64_t>;
// On a CPU device, sorts of SVM arrays are a host radix sort in a native kernel (tuning_t::
// host_sort): the result's write is a native-kernel command exactly there, and the results are
// those of the radix kernels (bit for bit: -0.0 and +0.0 keep their order, NaN last), 1-d and
// along each axis of a view.
TEMPLATE_LIST_TEST_CASE("sort: sorts of SVM arrays on a CPU device run on the host", "[sort]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const ca::device& device = test::ctx().device();
    const char* setting = std::getenv("CLARRAY_HOST_SORT");
    CHECK(device.tuning().host_sort == (setting ? std::string(setting) == "1" : device.is_cpu()));
    const bool host = device.tuning().host_sort && S::is_svm && device.runs_native_kernels();
    std::vector<float> v = host_data<float>(3 * 1031, 5, 700);
    v[7] = -0.0f;
    v[8] = 0.0f;
    v[9] = std::numeric_limits<float>::quiet_NaN();
    v[10] = -std::numeric_limits<float>::infinity();
    const auto h = from_vector(v, {3, 1031});
    const auto d = ca::to_device<S>(test::q(), h);
    for (const auto& r : {ca::argsort(d.ravel()), ca::argsort(d, 0), ca::argsort(d, 1)}) {
        ca::queue other(test::ctx());
        ca::wait_list last_write;
        r.data()->add_dependencies(other, ca::access::read, last_write);
        REQUIRE(last_write.size() >= 1);
        cl_command_type type = 0;
        REQUIRE(clGetEventInfo(last_write.events().back().get(), CL_EVENT_COMMAND_TYPE,
                               sizeof type, &type, nullptr) == CL_SUCCESS);
        CHECK((type == CL_COMMAND_NATIVE_KERNEL) == host);
    }
    check_sort(d.ravel(), 0);
    check_sort(d, 0);
    check_sort(d, 1);
    // A transposed view with a negative step, and int64 / uint8 keys of 8 and 1 bytes.
    check_sort(d.transpose()(ca::range(ca::none, ca::none, -3), ca::all()), 1);
    check_sort(ca::to_device<S>(test::q(), from_vector(host_data<std::int64_t>(2001, 6), {2001})),
               0);
    check_sort(ca::to_device<S>(test::q(), from_vector(host_data<std::uint8_t>(999, 7), {999})), 0);
}

TEMPLATE_LIST_TEST_CASE("sort: large 1-d inputs (2^20 + 3)", "[sort]", large_types) {
    using T = TestType;
    const std::size_t n = (1u << 20) + 3;
    auto h = from_vector(host_data<T>(n, 3, 5000), {n});
    auto d = ca::to_device<ca::buffer>(test::q(), h);
    check_sort(d, 0);
}

TEST_CASE("sort: axis sorts of 2-d and 3-d arrays and views", "[sort]") {
    const auto run = [](auto policy) {
        using S = decltype(policy);
        if (!test::storage_available<S>()) return;
        for (const ca::shape_type& shape :
             {ca::shape_type{7, 13}, ca::shape_type{1, 5}, ca::shape_type{300, 3},
              ca::shape_type{4, 0}, ca::shape_type{3, 5, 37}, ca::shape_type{2, 1, 3}}) {
            auto h = from_vector(host_data<float>(ca::checked_size(shape), 11), shape);
            auto d = ca::to_device<S>(test::q(), h);
            for (long axis = -long(shape.size()); axis < long(shape.size()); ++axis) {
                INFO("shape rank " << shape.size() << " axis " << axis << " " << S::name);
                check_sort(d, axis);
                check_sort(d.transpose(), axis);
            }
        }
        // strided, offset and reversed views
        auto h = from_vector(host_data<std::int32_t>(20 * 30, 5), {20, 30});
        auto d = ca::to_device<S>(test::q(), h);
        check_sort(d(ca::range(1, 19, 2), ca::range(3, 30, 3)), -1);
        check_sort(d(ca::range(1, 19, 2), ca::range(3, 30, 3)), 0);
        check_sort(d(ca::range(ca::none, ca::none, -1), 4), 0);
        check_sort(d(5, ca::range(ca::none, ca::none, -2)), 0);
    };
    run(ca::svm_coarse{});
    run(ca::svm_fine{});
    run(ca::buffer{});
}

TEST_CASE("sort: NaN last, -0.0 and 0.0 equal and stable, many equal keys", "[sort]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> v = {nan, 1.0f, -0.0f, 0.0f, -nan, -1.0f, 0.0f, -0.0f, nan, 2.0f};
    auto d = ca::to_device<ca::buffer>(test::q(), from_vector(v, {v.size()}));
    const xt::xarray<std::int64_t> idx = ca::argsort(d).get();
    const std::vector<std::int64_t> want = {5, 2, 3, 6, 7, 1, 9, 0, 4, 8};
    for (std::size_t i = 0; i < v.size(); ++i)
        CHECK(idx(i) == want[i]);
    // every key equal: argsort is the identity
    auto e = ca::to_device<ca::buffer>(test::q(),
                                       xt::xarray<std::int16_t>(xt::zeros<std::int16_t>({5000})));
    const xt::xarray<std::int64_t> ie = ca::argsort(e).get();
    for (std::size_t i = 0; i < ie.size(); ++i)
        REQUIRE(ie(i) == std::int64_t(i));
}

TEST_CASE("sort: errors", "[sort]") {
    auto d = ca::to_device<ca::buffer>(test::q(), xt::xarray<float>{1.0f, 2.0f});
    CHECK_THROWS_AS(ca::sort(d, 1), ca::index_error);
    CHECK_THROWS_AS(ca::argsort(d, -2), ca::index_error);
    ca::cl_array<float, ca::buffer> scalar = d.reshape(ca::shape_type{2})(0);
    CHECK_THROWS_AS(ca::sort(scalar), ca::index_error);
    ca::cl_array<float, ca::buffer> unbound;
    CHECK_THROWS_AS(ca::sort(unbound), ca::usage_error);
}

using search_types =
    std::tuple<std::int8_t, std::uint16_t, std::int32_t, std::uint64_t, ca::half, float, double>;
TEMPLATE_LIST_TEST_CASE("sort: searchsorted, both sides, against a host binary search", "[sort]",
                        search_types) {
    using T = TestType;
    if (!test::dtype_available<T>()) return;
    const auto run = [](auto policy) {
        using S = decltype(policy);
        if (!test::storage_available<S>()) return;
        for (std::size_t n : {0ul, 1ul, 31ul, 1000ul}) {
            std::vector<T> s = host_data<T>(n, unsigned(n) + 1, 20);
            std::stable_sort(s.begin(), s.end(), less<T>);
            // sorted as a reversed view of reversed storage; values as a transposed 2-d view
            std::vector<T> rs(s.rbegin(), s.rend());
            auto ds = ca::to_device<S>(test::q(),
                                       from_vector(rs, {n}))(ca::range(ca::none, ca::none, -1));
            auto hv = from_vector(host_data<T>(6 * 7, 99, 24), {6, 7});
            auto dv = ca::to_device<S>(test::q(), hv).transpose();
            const xt::xarray<T> v = dv.get();
            for (ca::side sd : {ca::side::left, ca::side::right}) {
                const xt::xarray<std::int64_t> got = ca::searchsorted(ds, dv, sd).get();
                REQUIRE(got.shape() == v.shape());
                std::size_t bad = 0;
                for (std::size_t i = 0; i < v.size(); ++i) {
                    const T x = v.data()[i];
                    const auto it = sd == ca::side::left
                                        ? std::lower_bound(s.begin(), s.end(), x, less<T>)
                                        : std::upper_bound(s.begin(), s.end(), x, less<T>);
                    if (got.data()[i] != it - s.begin()) ++bad;
                }
                INFO("n " << n << " right " << (sd == ca::side::right) << " " << S::name);
                CHECK(bad == 0);
            }
            const xt::xarray<std::int64_t> r = ca::searchsorted(ds, dv, "right").get();
            CHECK(r == xt::xarray<std::int64_t>(ca::searchsorted(ds, dv, ca::side::right).get()));
        }
    };
    run(ca::svm_coarse{});
    run(ca::svm_fine{});
    run(ca::buffer{});
}

TEST_CASE("sort: searchsorted errors", "[sort]") {
    auto s = ca::to_device<ca::buffer>(test::q(), xt::xarray<float>{1.0f, 2.0f});
    auto m = ca::to_device<ca::buffer>(test::q(), xt::xarray<float>{{1.0f, 2.0f}});
    auto i = ca::to_device<ca::buffer>(test::q(), xt::xarray<int>{1});
    CHECK_THROWS_AS(ca::searchsorted(s, s, "middle"), ca::usage_error);
    CHECK_THROWS_AS(ca::searchsorted(m, s), ca::shape_error);
    auto fi = ca::to_device<ca::buffer>(test::q(), xt::xarray<float>{1.0f});
    CHECK_NOTHROW(ca::searchsorted(s, fi));
    (void)i;
}

using unique_types =
    std::tuple<bool, std::int16_t, std::uint32_t, std::int64_t, ca::half, float, double>;
TEMPLATE_LIST_TEST_CASE("sort: unique with counts", "[sort]", unique_types) {
    using T = TestType;
    if (!test::dtype_available<T>()) return;
    const auto run = [](auto policy) {
        using S = decltype(policy);
        if (!test::storage_available<S>()) return;
        for (std::size_t n : {0ul, 1ul, 13ul, 5003ul}) {
            // a 2-d view (unique flattens in C order)
            const std::size_t rows = n ? 1 + n % 3 : 0, cols = n ? n / rows : 0;
            auto h = from_vector(host_data<T>(2 * rows * cols, unsigned(n), 30), {rows, 2 * cols});
            auto d = ca::to_device<S>(test::q(), h)(ca::all(), ca::range(ca::none, ca::none, -2));
            const xt::xarray<T> hv = d.get();
            std::vector<T> s(hv.begin(), hv.end());
            std::stable_sort(s.begin(), s.end(), less<T>);
            std::vector<T> want_v;
            std::vector<std::int64_t> want_c;
            for (std::size_t i = 0; i < s.size(); ++i) {
                if (i == 0 || !same(s[i], s[i - 1])) {
                    want_v.push_back(s[i]);
                    want_c.push_back(0);
                }
                ++want_c.back();
            }
            auto u = ca::unique_counts(d);
            const xt::xarray<T> gv = u.values.get();
            const xt::xarray<std::int64_t> gc = u.counts.get();
            INFO("n " << n << " " << S::name);
            REQUIRE(gv.size() == want_v.size());
            REQUIRE(gc.size() == want_c.size());
            std::size_t bad = 0;
            for (std::size_t i = 0; i < want_v.size(); ++i)
                bad += !identical<T>(gv(i), want_v[i]) + (gc(i) != want_c[i]);
            CHECK(bad == 0);
            const xt::xarray<T> only = ca::unique(d).get();
            CHECK(only.size() == want_v.size());
        }
    };
    run(ca::svm_coarse{});
    run(ca::svm_fine{});
    run(ca::buffer{});
}

TEST_CASE("sort: bincount with and without weights", "[sort]") {
    const auto run = [](auto policy) {
        using S = decltype(policy);
        if (!test::storage_available<S>()) return;
        std::mt19937 rng(4);
        for (std::size_t n : {0ul, 1ul, 100ul, 10007ul}) {
            std::vector<std::int32_t> x(2 * n);
            std::vector<float> w(2 * n);
            for (std::size_t i = 0; i < 2 * n; ++i) {
                x[i] = static_cast<std::int32_t>(rng() % 37);
                w[i] = static_cast<float>(rng() % 1000) / 8.0f; // sums exact in double
            }
            // strided views of both
            auto dx =
                ca::to_device<S>(test::q(), from_vector(x, {2 * n}))(ca::range(0, ca::none, 2));
            auto dw = ca::to_device<S>(test::q(),
                                       from_vector(w, {2 * n}))(ca::range(ca::none, ca::none, -2));
            for (std::size_t minlength : {0ul, 5ul, 60ul}) {
                std::size_t len = minlength;
                for (std::size_t i = 0; i < n; ++i)
                    len = std::max<std::size_t>(len, std::size_t(x[2 * i]) + 1);
                std::vector<std::int64_t> want(len, 0);
                std::vector<double> want_w(len, 0.0);
                for (std::size_t i = 0; i < n; ++i) {
                    ++want[x[2 * i]];
                    want_w[x[2 * i]] += w[2 * n - 1 - 2 * i];
                }
                const xt::xarray<std::int64_t> got = ca::bincount(dx, minlength).get();
                INFO("n " << n << " minlength " << minlength << " " << S::name);
                REQUIRE(got.size() == len);
                for (std::size_t k = 0; k < len; ++k)
                    CHECK(got(k) == want[k]);
                if (!test::dtype_available<double>()) continue;
                const xt::xarray<double> gw = ca::bincount(dx, dw, minlength).get();
                REQUIRE(gw.size() == len);
                for (std::size_t k = 0; k < len; ++k)
                    CHECK(gw(k) == want_w[k]);
            }
        }
        // uint8 values up to 255, bool
        auto b = ca::to_device<S>(test::q(), xt::xarray<std::uint8_t>{255, 0, 255, 7});
        const xt::xarray<std::int64_t> gb = ca::bincount(b).get();
        REQUIRE(gb.size() == 256);
        CHECK(gb(255) == 2);
        CHECK(gb(0) == 1);
        CHECK(gb(7) == 1);
        CHECK(xt::sum(gb)() == 4);
    };
    run(ca::svm_coarse{});
    run(ca::svm_fine{});
    run(ca::buffer{});
}

TEST_CASE("sort: bincount errors", "[sort]") {
    auto neg = ca::to_device<ca::buffer>(test::q(), xt::xarray<std::int64_t>{3, -2, 1});
    CHECK_THROWS_AS(ca::bincount(neg), ca::usage_error);
    auto f = ca::to_device<ca::buffer>(test::q(), xt::xarray<float>{1.0f});
    CHECK_THROWS_AS(ca::bincount(f), ca::dtype_error);
    auto m = ca::to_device<ca::buffer>(test::q(), xt::xarray<int>{{1, 2}});
    CHECK_THROWS_AS(ca::bincount(m), ca::shape_error);
    auto x = ca::to_device<ca::buffer>(test::q(), xt::xarray<int>{1, 2});
    auto w = ca::to_device<ca::buffer>(test::q(), xt::xarray<float>{1.0f, 2.0f, 3.0f});
    CHECK_THROWS_AS(ca::bincount(x, w), ca::shape_error);
}

namespace {
// NumPy's histogram with equal-width bins, in the edge type E.
template <class T, class E>
std::vector<std::int64_t> host_histogram(const std::vector<T>& a, std::size_t bins, double lo,
                                         double hi, std::vector<E>& edges, bool fp64) {
    if (lo == hi) {
        lo -= 0.5;
        hi += 0.5;
    }
    edges.assign(bins + 1, E(0));
    const double step = (hi - lo) / double(bins);
    // linspace in float64, or in float32 on a device without fp64
    for (std::size_t i = 0; i <= bins; ++i)
        edges[i] = fp64
                       ? static_cast<E>(i == bins ? hi : double(i) * step + lo)
                       : static_cast<E>(i == bins ? float(hi) : float(i) * float(step) + float(lo));
    std::vector<std::int64_t> counts(bins, 0);
    const E l = static_cast<E>(lo), h = static_cast<E>(hi), denom = static_cast<E>(hi - lo);
    for (T v : a) {
        const E x = static_cast<E>(v);
        if (!(x >= l && x <= h)) continue;
        const E f = (x - l) / denom * static_cast<E>(bins);
        auto k = static_cast<std::int64_t>(f);
        if (k == std::int64_t(bins)) --k;
        if (x < edges[k])
            --k;
        else if (k != std::int64_t(bins) - 1 && x >= edges[k + 1])
            ++k;
        ++counts[k];
    }
    return counts;
}
} // namespace

using histogram_types = std::tuple<std::int32_t, std::uint8_t, ca::half, float, double>;
TEMPLATE_LIST_TEST_CASE("sort: histogram, NumPy's edges and closed last bin", "[sort]",
                        histogram_types) {
    using T = TestType;
    using E = ca::histogram_edge_t<T>;
    if (!test::dtype_available<T>() || !test::dtype_available<E>()) return;
    const auto run = [](auto policy) {
        using S = decltype(policy);
        if (!test::storage_available<S>()) return;
        for (std::size_t n : {1ul, 10ul, 4001ul}) {
            std::vector<T> v = host_data<T>(n, unsigned(n) + 3, 40);
            if constexpr (is_float_v<T>)
                for (auto& x : v)
                    if (!std::isfinite(double(x))) x = T(1.25); // auto range needs finite values
            auto d = ca::to_device<S>(test::q(), from_vector(v, {n}));
            for (std::size_t bins : {1ul, 3ul, 10ul, 64ul}) {
                for (int ranged = 0; ranged < 2; ++ranged) {
                    double lo, hi;
                    if (ranged) {
                        lo = -3.0;
                        hi = 4.75; // values on the last edge land in the last bin
                    } else {
                        lo = double(*std::min_element(v.begin(), v.end()));
                        hi = double(*std::max_element(v.begin(), v.end()));
                    }
                    std::vector<E> edges;
                    const auto want = host_histogram<T, E>(v, bins, lo, hi, edges,
                                                           test::ctx().device().has_fp64());
                    auto h = ranged ? ca::histogram(d, bins, std::make_pair(lo, hi))
                                    : ca::histogram(d, bins);
                    const xt::xarray<std::int64_t> gc = h.counts.get();
                    const xt::xarray<E> ge = h.edges.get();
                    INFO("n " << n << " bins " << bins << " ranged " << ranged << " " << S::name);
                    REQUIRE(gc.size() == bins);
                    REQUIRE(ge.size() == bins + 1);
                    std::size_t bad = 0;
                    for (std::size_t k = 0; k < bins; ++k)
                        bad += gc(k) != want[k];
                    for (std::size_t k = 0; k <= bins; ++k)
                        bad += ge(k) != edges[k];
                    CHECK(bad == 0);
                }
            }
        }
    };
    run(ca::svm_coarse{});
    run(ca::svm_fine{});
    run(ca::buffer{});
}

TEST_CASE("sort: histogram edges, NaN and errors", "[sort]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto d = ca::to_device<ca::buffer>(test::q(),
                                       xt::xarray<float>{0.0f, 1.0f, 2.0f, 3.0f, 4.0f, nan, 5.0f});
    auto h = ca::histogram(d, 4, {0.0, 4.0}); // NumPy's range=(0, 4)
    const xt::xarray<std::int64_t> c = h.counts.get();
    // 4.0 is on the closed last edge; 5.0 and NaN are outside
    CHECK(c == xt::xarray<std::int64_t>{1, 1, 1, 2});
    CHECK_THROWS_AS(ca::histogram(d, 4), ca::usage_error); // autodetected range with NaN
    CHECK_THROWS_AS(ca::histogram(d, 0, std::make_pair(0.0, 1.0)), ca::usage_error);
    CHECK_THROWS_AS(ca::histogram(d, 3, std::make_pair(2.0, 1.0)), ca::usage_error);
    auto e = ca::to_device<ca::buffer>(test::q(), xt::xarray<float>::from_shape({0}));
    const xt::xarray<std::int64_t> ce = ca::histogram(e, 3).counts.get();
    CHECK(ce == xt::xarray<std::int64_t>{0, 0, 0});
}

TEST_CASE("sort: inputs written on another queue and results used on a third", "[sort]") {
    ca::queue q1(test::ctx()), q2(test::ctx());
    const std::size_t n = 30011;
    auto h = from_vector(host_data<std::int32_t>(n, 8, 1000), {n});
    auto d = ca::to_device<ca::buffer>(q1, h);
    d(ca::range(0, 100)).fill(-5); // enqueued on q1, not waited for
    xt::xarray<std::int32_t> want = h;
    for (std::size_t i = 0; i < 100; ++i)
        want(i) = -5;
    std::vector<std::int32_t> w(want.begin(), want.end());
    std::stable_sort(w.begin(), w.end());
    auto s = ca::sort(d.with_queue(q2)); // follows q1's fill through the use records
    auto c = ca::unique_counts(d.with_queue(q2));
    const xt::xarray<std::int32_t> got = s.with_queue(test::q()).get();
    CHECK(std::equal(w.begin(), w.end(), got.begin()));
    const xt::xarray<std::int64_t> counts = c.counts.get();
    CHECK(counts(0) == std::count(w.begin(), w.end(), w[0]));
    CHECK(std::count(w.begin(), w.end(), -5) >= 100);
    CHECK(xt::sum(counts)() == std::int64_t(n));
}

// ---- bincount and histogram of every integer dtype (the extremes pre-pass), float16, complex
// sorts and expression arguments.

using integer_types = std::tuple<bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                                 std::int32_t, std::uint32_t, std::int64_t, std::uint64_t>;
TEMPLATE_LIST_TEST_CASE("sort: bincount of every integer dtype, weights and minlength", "[sort]",
                        integer_types) {
    using T = TestType;
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        std::mt19937 rng(9);
        const std::size_t n = 3001;
        std::vector<T> x(n);
        std::vector<float> w(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = static_cast<T>(rng() % (std::is_same_v<T, bool> ? 2 : 37));
            w[i] = static_cast<float>(rng() % 1000) / 8.0f;
        }
        auto dx = test::device_array<T, S>(test::q(), x);
        auto dw = test::device_array<float, S>(test::q(), w);
        for (std::size_t minlength : {0ul, 5ul, 60ul}) {
            std::size_t len = minlength;
            for (T v : x)
                len = std::max<std::size_t>(len, std::size_t(v) + 1);
            std::vector<std::int64_t> want(len, 0);
            std::vector<double> want_w(len, 0.0);
            for (std::size_t i = 0; i < n; ++i) {
                ++want[std::size_t(x[i])];
                want_w[std::size_t(x[i])] += w[i];
            }
            INFO("minlength " << minlength << " " << S::name);
            CHECK(test::host_vector(ca::bincount(dx, minlength)) == want);
            if (test::dtype_available<double>())
                CHECK(test::host_vector(ca::bincount(dx, dw, minlength)) == want_w);
        }
    });
}

TEMPLATE_LIST_TEST_CASE("sort: bincount and histogram at the integer extremes", "[sort]",
                        integer_types) {
    using T = TestType;
    using lim = std::numeric_limits<T>;
    auto d = [](std::vector<T> v) { return test::device_array<T, ca::buffer>(test::q(), v); };
    if constexpr (std::is_signed_v<T> && !std::is_same_v<T, bool>) {
        // the message names the value exactly (int64 once read -1 as -1.8e19)
        for (T neg : {T(-1), lim::min()}) {
            INFO("negative " << std::int64_t(neg));
            try {
                ca::bincount(d({T(3), neg, T(1)}));
                FAIL("no error");
            } catch (const ca::usage_error& e) {
                CHECK(std::string(e.what()).find("negative value " +
                                                 std::to_string(std::int64_t(neg))) !=
                      std::string::npos);
            }
        }
    }
    if constexpr (sizeof(T) == 8) {
        // beyond any allocation: an error naming the value, not a wrapped length
        try {
            ca::bincount(d({T(1), lim::max()}));
            FAIL("no error");
        } catch (const ca::error& e) {
            CHECK(std::string(e.what()).find(std::to_string(lim::max())) != std::string::npos);
        }
    }
    // histogram over the whole range: the counts add up to n and equal the host's (bool input
    // is a dtype_error, as NumPy's TypeError)
    if constexpr (std::is_same_v<T, bool>) {
        CHECK_THROWS_AS(ca::histogram(d({true, false})), ca::dtype_error);
        return;
    }
    const std::size_t n = 4001;
    std::vector<T> v = host_data<T>(n, 17, 40);
    v[0] = lim::min();
    v[1] = lim::max();
    if constexpr (std::is_same_v<T, std::uint64_t>) v[2] = (T(1) << 63) + 12345; // above 2^63
    auto dv = d(v);
    for (std::size_t bins : {1ul, 7ul, 64ul}) {
        std::vector<double> edges;
        const double lo = double(*std::min_element(v.begin(), v.end()));
        const double hi = double(*std::max_element(v.begin(), v.end()));
        const auto want =
            host_histogram<T, double>(v, bins, lo, hi, edges, test::ctx().device().has_fp64());
        const auto got = test::host_vector(ca::histogram(dv, bins).counts);
        INFO("bins " << bins);
        CHECK(std::accumulate(got.begin(), got.end(), std::int64_t(0)) == std::int64_t(n));
        CHECK(got == want);
    }
}

namespace {
using c64 = std::complex<float>;
using c128 = std::complex<double>;
// NumPy's order of complex values: lexicographic, NaN parts last (CLT of npysort).
template <class C> bool complex_less(const C& a, const C& b) {
    const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
}
template <class C> bool complex_identical(const C& a, const C& b) {
    return identical(a.real(), b.real()) && identical(a.imag(), b.imag());
}
template <class C> std::vector<C> complex_data(std::size_t n, unsigned seed) {
    using F = typename C::value_type;
    const std::vector<F> re = host_data<F>(n, seed, 9), im = host_data<F>(n, seed + 1, 7);
    std::vector<C> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = C(re[i], im[i]);
    return v;
}
} // namespace

using complex_types = std::tuple<c64, c128>;
TEMPLATE_LIST_TEST_CASE("sort: complex sort and argsort, NumPy's lexicographic order", "[sort]",
                        complex_types) {
    using C = TestType;
    if (!test::dtype_available<typename C::value_type>()) return;
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        for (const ca::shape_type& shape :
             {ca::shape_type{0}, ca::shape_type{1}, ca::shape_type{4099}, ca::shape_type{6, 37}}) {
            const std::size_t n = ca::checked_size(shape);
            auto h = from_vector(complex_data<C>(n, unsigned(n) + 2), shape);
            auto d = ca::to_device<S>(test::q(), h);
            for (long axis = 0; axis < long(shape.size()); ++axis) {
                // a transposed view too (strided reads of both parts)
                for (int t = 0; t < 2; ++t) {
                    const ca::cl_array<C, S> dv = t ? d.transpose() : d;
                    const xt::xarray<C> hv = dv.get();
                    const auto& sh = hv.shape();
                    std::size_t inner = 1;
                    for (std::size_t k = std::size_t(axis) + 1; k < sh.size(); ++k)
                        inner *= sh[k];
                    const std::size_t len = sh[std::size_t(axis)];
                    const xt::xarray<std::int64_t> gi = ca::argsort(dv, axis).get();
                    const xt::xarray<C> gs = ca::sort(dv, axis).get();
                    std::size_t bad = 0;
                    std::vector<std::int64_t> idx(len);
                    for (std::size_t o = 0; o < n / std::max<std::size_t>(len, 1) / inner; ++o)
                        for (std::size_t in = 0; in < inner; ++in) {
                            auto at = [&](std::size_t j) { return (o * len + j) * inner + in; };
                            std::iota(idx.begin(), idx.end(), 0);
                            std::stable_sort(idx.begin(), idx.end(), [&](auto x, auto y) {
                                return complex_less(hv.data()[at(x)], hv.data()[at(y)]);
                            });
                            for (std::size_t j = 0; j < len; ++j) {
                                bad += gi.data()[at(j)] != idx[j];
                                bad += !complex_identical(gs.data()[at(j)],
                                                          hv.data()[at(std::size_t(idx[j]))]);
                            }
                        }
                    INFO("n " << n << " axis " << axis << " transposed " << t << " " << S::name);
                    CHECK(bad == 0);
                }
            }
        }
    });
}

namespace {
// f(expression) equals f(the evaluated expression), for every storage policy.
template <class A, class B> void check_same(const A& got, const B& want) {
    const auto g = test::host_vector(got), w = test::host_vector(want);
    REQUIRE(g.size() == w.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < g.size(); ++i)
        bad += !identical(g[i], w[i]);
    CHECK(bad == 0);
}
} // namespace

TEST_CASE("sort: every function takes expressions", "[sort]") {
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        const std::size_t n = 2003;
        auto x = test::device_array<float, S>(test::q(), host_data<float>(n, 4, 40));
        std::vector<std::int32_t> lab(n);
        std::vector<float> w(n);
        std::mt19937 rng(5);
        for (std::size_t i = 0; i < n; ++i) {
            lab[i] = static_cast<std::int32_t>(rng() % 23);
            w[i] = static_cast<float>(rng() % 100) / 4.0f;
        }
        auto labels = test::device_array<std::int32_t, S>(test::q(), lab);
        auto dw = test::device_array<float, S>(test::q(), w);

        auto s = ca::sort(x * 2);
        static_assert(std::is_same_v<decltype(s), ca::cl_array<float, S>>);
        check_same(s, ca::sort(ca::eval(x * 2)));
        check_same(ca::argsort(x + 1), ca::argsort(ca::eval(x + 1)));
        auto m = ca::eval(x.reshape(ca::shape_type{n, 1}) - 1.0f); // 2-d, axis 0
        check_same(ca::sort(x.reshape(ca::shape_type{n, 1}) - 1.0f, 0), ca::sort(m, 0));
        check_same(ca::unique(labels + 1), ca::unique(ca::eval(labels + 1)));
        auto uc = ca::unique_counts(labels * 3);
        check_same(uc.counts, ca::unique_counts(ca::eval(labels * 3)).counts);
        check_same(ca::bincount(labels + 1, 30), ca::bincount(ca::eval(labels + 1), 30));
        auto h = ca::histogram(x * 3, 12, std::make_pair(-20.0, 20.0));
        auto hw = ca::histogram(ca::eval(x * 3), 12, std::make_pair(-20.0, 20.0));
        check_same(h.counts, hw.counts);
        check_same(h.edges, hw.edges);
        if (test::dtype_available<double>()) {
            check_same(ca::bincount(labels + 1, dw * 2),
                       ca::bincount(ca::eval(labels + 1), ca::eval(dw * 2)));
            check_same(ca::bincount(labels, dw * 2, 40),
                       ca::bincount(labels, ca::eval(dw * 2), 40));
        }
        // searchsorted: a sorted expression and values as an expression
        auto sorted = ca::sort(x);
        check_same(ca::searchsorted(sorted * 2, x + 1, ca::side::right),
                   ca::searchsorted(ca::eval(sorted * 2), ca::eval(x + 1), ca::side::right));
        check_same(ca::searchsorted(sorted, x - 1, "left"),
                   ca::searchsorted(sorted, ca::eval(x - 1), "left"));
        if (test::dtype_available<double>()) {
            // int32 sorted, float32 values: both compared as float64, as NumPy's promotion
            std::vector<std::int32_t> sl = lab;
            std::sort(sl.begin(), sl.end());
            auto ds = test::device_array<std::int32_t, S>(test::q(), sl);
            std::vector<float> v = {-1.0f, 0.0f, 0.5f, 3.0f, 3.25f, 22.0f, 22.5f, 100.0f};
            auto dv = test::device_array<float, S>(test::q(), v);
            auto got = test::host_vector(ca::searchsorted(ds, dv));
            std::vector<std::int64_t> want;
            for (float f : v)
                want.push_back(std::lower_bound(sl.begin(), sl.end(), double(f),
                                                [](std::int32_t a, double b) { return a < b; }) -
                               sl.begin());
            CHECK(got == want);
        }
    });
}

TEST_CASE("sort: complex order with NaN parts equals NumPy's", "[sort]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<c64> v = {{2, 0},    {1, nan}, {nan, 0},   {nan, nan}, {1, 1},
                                {nan, -1}, {0, nan}, {-0.0f, 5}, {0, -1}};
    // numpy.argsort(a, kind="stable") of the same values (NumPy 2.4)
    const std::vector<std::int64_t> numpy = {8, 7, 4, 0, 6, 1, 5, 2, 3};
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        auto d = test::device_array<c64, S>(test::q(), v);
        CHECK(test::host_vector(ca::argsort(d)) == numpy);
        const auto s = test::host_vector(ca::sort(d));
        for (std::size_t i = 0; i < v.size(); ++i)
            CHECK(complex_identical(s[i], v[std::size_t(numpy[i])]));
    });
}

TEST_CASE("sort: float16 sort, searchsorted and unique equal NumPy's", "[sort]") {
    // numpy.float16 [nan, 1.5, -0.0, 0.0, -nan, -1.0, inf, 0.0, -0.0, -inf, 65504, 6e-8, 2.0, 1.5]
    // as bits, and NumPy 2.4's results over them
    const std::vector<std::uint16_t> bits = {32256, 15872, 32768, 0,     65024, 48128, 31744,
                                             0,     32768, 64512, 31743, 1,     16384, 15872};
    const std::vector<std::int64_t> argsort = {9, 5, 2, 3, 7, 8, 11, 1, 13, 12, 10, 6, 0, 4};
    const std::vector<std::uint16_t> probe = {0, 32768, 15872, 32256, 31744, 50944}; // -7.0 last
    const std::vector<std::int64_t> left = {2, 2, 7, 12, 11, 1}, right = {6, 6, 9, 14, 12, 1};
    const std::vector<std::int64_t> counts = {1, 1, 4, 1, 2, 1, 1, 1, 2};
    std::vector<ca::half> v, p;
    for (auto b : bits)
        v.push_back(ca::half::from_bits(b));
    for (auto b : probe)
        p.push_back(ca::half::from_bits(b));
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        auto d = test::device_array<ca::half, S>(test::q(), v);
        CHECK(test::host_vector(ca::argsort(d)) == argsort);
        const auto s = test::host_vector(ca::sort(d));
        for (std::size_t i = 0; i < v.size(); ++i)
            CHECK(identical(s[i], v[std::size_t(argsort[i])]));
        auto sorted = ca::sort(d);
        auto dp = test::device_array<ca::half, S>(test::q(), p);
        CHECK(test::host_vector(ca::searchsorted(sorted, dp)) == left);
        CHECK(test::host_vector(ca::searchsorted(sorted, dp, "right")) == right);
        auto u = ca::unique_counts(d);
        CHECK(test::host_vector(u.counts) == counts);
        const auto uv = test::host_vector(u.values);
        REQUIRE(uv.size() == counts.size());
        CHECK(uv[2].bits() == 32768); // -0.0: the first zero in sorted order
        CHECK(std::isnan(float(uv.back())));
    });
}

// unique of integers counts keys when they span few values (in local memory up to 4096, else in
// global memory up to 65536), else sorts only the digits the keys do not all share: each span
// below, from a few values to the dtype's whole range, with negative values for signed types.
using span_types = std::tuple<std::uint8_t, std::int32_t, std::int64_t, std::uint64_t>;
TEMPLATE_LIST_TEST_CASE("sort: unique over key spans", "[sort]", span_types) {
    using T = TestType;
    using limits = std::numeric_limits<T>;
    if (!test::dtype_available<T>()) return;
    const std::size_t n = 20011;
    std::mt19937_64 rng(17);
    const long double lowest = static_cast<long double>(limits::lowest()),
                      highest = static_cast<long double>(limits::max());
    // Values base + [0, span) (span 0: the whole range), clamped to T: negative ones for the
    // counted spans, positive ones for the sorted spans (their keys share leading digits).
    for (const long double span : {3.0L, 3000.0L, 50000.0L, 70000.0L, 1e9L, 0.0L}) {
        const long double start = span <= 50000.0L ? -1000.0L : 7.0L;
        const long double base = std::max(lowest, std::min(start, highest - span));
        std::vector<T> h(n);
        for (auto& v : h) {
            if (span == 0.0L) {
                v = static_cast<T>(rng()); // every bit random
            } else {
                const long double x = base + static_cast<long double>(rng() % 1000003) /
                                                 1000003.0L * span;
                v = static_cast<T>(std::max(lowest, std::min(highest, x)));
            }
        }
        h[n / 2] = limits::max(); // the extremes of the dtype widen the span to all of it
        if (span == 0.0L) h[n / 3] = limits::lowest();
        std::vector<T> want = h;
        std::sort(want.begin(), want.end());
        std::vector<std::int64_t> counts;
        std::vector<T> values;
        for (std::size_t i = 0; i < want.size(); ++i) {
            if (i == 0 || want[i] != want[i - 1]) {
                values.push_back(want[i]);
                counts.push_back(0);
            }
            ++counts.back();
        }
        // Without the dtype's largest value the span is the drawn one.
        for (const bool whole : {false, true}) {
            std::vector<T> input = h;
            std::vector<T> wv = values;
            std::vector<std::int64_t> wc = counts;
            if (!whole && span != 0.0L) {
                input[n / 2] = input[0];
                wv.clear();
                wc.clear();
                std::vector<T> sorted = input;
                std::sort(sorted.begin(), sorted.end());
                for (std::size_t i = 0; i < sorted.size(); ++i) {
                    if (i == 0 || sorted[i] != sorted[i - 1]) {
                        wv.push_back(sorted[i]);
                        wc.push_back(0);
                    }
                    ++wc.back();
                }
            }
            auto d = ca::to_device<ca::buffer>(test::q(), input);
            INFO("span " << static_cast<double>(span) << " whole " << whole);
            auto u = ca::unique_counts(d);
            const xt::xarray<T> gv = u.values.get();
            const xt::xarray<std::int64_t> gc = u.counts.get();
            REQUIRE(gv.size() == wv.size());
            REQUIRE(gc.size() == wc.size());
            std::size_t bad = 0;
            for (std::size_t i = 0; i < wv.size(); ++i)
                bad += (gv(i) != wv[i]) + (gc(i) != wc[i]);
            CHECK(bad == 0);
            const xt::xarray<T> only = ca::unique(d).get();
            REQUIRE(only.size() == wv.size());
            CHECK(std::equal(wv.begin(), wv.end(), only.begin()));
        }
    }
}

TEMPLATE_LIST_TEST_CASE("sort: complex unique with counts", "[sort]", complex_types) {
    using C = TestType;
    using F = typename C::value_type;
    if (!test::dtype_available<F>()) return;
    test::each_policy([](auto policy) {
        using S = decltype(policy);
        for (std::size_t n : {0ul, 1ul, 13ul, 5003ul}) {
            // a reversed 2-d view (unique flattens in C order)
            auto h = from_vector(complex_data<C>(2 * n, unsigned(n) + 4), {2, n});
            auto d = ca::to_device<S>(test::q(), h)(ca::all(), ca::range(ca::none, ca::none, -1));
            const xt::xarray<C> hv = d.get();
            std::vector<C> s(hv.begin(), hv.end());
            std::stable_sort(s.begin(), s.end(), complex_less<C>);
            // NumPy's runs: equal parts, or a NaN part in both
            const auto nan = [](const C& c) {
                return c.real() != c.real() || c.imag() != c.imag();
            };
            std::vector<C> want_v;
            std::vector<std::int64_t> want_c;
            for (std::size_t i = 0; i < s.size(); ++i) {
                const bool same_run = i > 0 && ((nan(s[i]) && nan(s[i - 1])) ||
                                                (!nan(s[i]) && !nan(s[i - 1]) && s[i] == s[i - 1]));
                if (!same_run) {
                    want_v.push_back(s[i]);
                    want_c.push_back(0);
                }
                ++want_c.back();
            }
            auto u = ca::unique_counts(d);
            const auto gv = test::host_vector(u.values);
            INFO("n " << n << " " << S::name);
            REQUIRE(gv.size() == want_v.size());
            CHECK(test::host_vector(u.counts) == want_c);
            std::size_t bad = 0;
            for (std::size_t i = 0; i < gv.size(); ++i)
                bad += !complex_identical(gv[i], want_v[i]);
            CHECK(bad == 0);
            CHECK(ca::unique(d).size() == want_v.size());
        }
    });
    // NumPy 2.4: numpy.unique(a, return_counts=True) of complex64
    // [2, 1+nanj, nan, nan+nanj, 1+1j, nan-1j, nanj, -0+5j, -1j, 2-0j, -1j]
    const F nan = std::numeric_limits<F>::quiet_NaN();
    const std::vector<C> v = {{2, 0},   {1, nan},   {nan, 0}, {nan, nan}, {1, 1}, {nan, -1},
                              {0, nan}, {-0.0f, 5}, {0, -1},  {2, -0.0f}, {0, -1}};
    const std::vector<C> numpy_v = {{0, -1}, {-0.0f, 5}, {1, 1}, {2, 0}, {0, nan}};
    const std::vector<std::int64_t> numpy_c = {2, 1, 1, 2, 5};
    auto d = test::device_array<C, ca::buffer>(test::q(), v);
    auto u = ca::unique_counts(d);
    CHECK(test::host_vector(u.counts) == numpy_c);
    const auto gv = test::host_vector(u.values);
    REQUIRE(gv.size() == numpy_v.size());
    for (std::size_t i = 0; i < gv.size(); ++i)
        CHECK(complex_identical(gv[i], numpy_v[i]));
}

TEST_CASE("sort: bincount with float16 weights", "[sort]") {
    if (!test::dtype_available<double>()) return;
    std::mt19937 rng(12);
    const std::size_t n = 1501;
    std::vector<std::int32_t> x(n);
    std::vector<ca::half> w(n);
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = static_cast<std::int32_t>(rng() % 11);
        w[i] = ca::half(static_cast<float>(rng() % 64) / 4.0f); // sums exact in double
    }
    std::vector<double> want(11, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        want[std::size_t(x[i])] += float(w[i]);
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        auto dx = test::device_array<std::int32_t, S>(test::q(), x);
        auto dw = test::device_array<ca::half, S>(test::q(), w);
        CHECK(test::host_vector(ca::bincount(dx, dw)) == want);
    });
}
