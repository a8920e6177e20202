// Sorting and searching against host references (std::stable_sort with NumPy's order, plain
// loops): every dtype, every storage policy, views, sizes from 0 to 2^20 + 3, NaN order,
// stability, axis sorts, searchsorted, unique, bincount and histogram.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

namespace {

// NumPy's order: NaN last, -0.0 == +0.0.
template <class T> bool less(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a)) return false;
        if (std::isnan(b)) return true;
    }
    return a < b;
}
template <class T> bool same(T a, T b) {
    return !less(a, b) && !less(b, a);
}

// Host data with many repeats (stability), and for floats NaN, -0.0, +0.0 and infinities.
template <class T> std::vector<T> host_data(std::size_t n, unsigned seed, int distinct = 50) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        T x{};
        if constexpr (std::is_same_v<T, bool>) {
            x = rng() & 1;
        } else if constexpr (std::is_floating_point_v<T>) {
            const unsigned r = rng() % 64;
            if (r == 0)
                x = std::numeric_limits<T>::quiet_NaN();
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
    if constexpr (std::is_floating_point_v<T>) {
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
               std::uint32_t, std::int64_t, std::uint64_t, float, double>;

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
TEMPLATE_LIST_TEST_CASE("sort: large 1-d inputs (2^20 + 3)", "[sort]", large_types) {
    using T = TestType;
    const std::size_t n = (1u << 20) + 3;
    auto h = from_vector(host_data<T>(n, 3, 5000), {n});
    auto d = ca::to_device(test::q(), h);
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
    auto d = ca::to_device(test::q(), from_vector(v, {v.size()}));
    const xt::xarray<std::int64_t> idx = ca::argsort(d).get();
    const std::vector<std::int64_t> want = {5, 2, 3, 6, 7, 1, 9, 0, 4, 8};
    for (std::size_t i = 0; i < v.size(); ++i)
        CHECK(idx(i) == want[i]);
    // every key equal: argsort is the identity
    auto e = ca::to_device(test::q(), xt::xarray<std::int16_t>(xt::zeros<std::int16_t>({5000})));
    const xt::xarray<std::int64_t> ie = ca::argsort(e).get();
    for (std::size_t i = 0; i < ie.size(); ++i)
        REQUIRE(ie(i) == std::int64_t(i));
}

TEST_CASE("sort: errors", "[sort]") {
    auto d = ca::to_device(test::q(), xt::xarray<float>{1.0f, 2.0f});
    CHECK_THROWS_AS(ca::sort(d, 1), ca::index_error);
    CHECK_THROWS_AS(ca::argsort(d, -2), ca::index_error);
    ca::cl_array<float> scalar = d.reshape(ca::shape_type{2})(0);
    CHECK_THROWS_AS(ca::sort(scalar), ca::index_error);
    ca::cl_array<float> unbound;
    CHECK_THROWS_AS(ca::sort(unbound), ca::usage_error);
}
