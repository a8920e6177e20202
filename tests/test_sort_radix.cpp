// The radix sort's edges against host references (std::stable_sort with NumPy's order): sizes
// around tile and work-group boundaries for every key width, floats' -0.0, +0.0 and NaNs (their
// own bits, in stable order: equal digits, keys that keep the bits), passes that one
// digit fills (all-equal and small-range keys), argsort stability with many duplicates, axis
// sorts with several row passes, unique of large inputs.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

namespace {

// NumPy's order: NaN last, -0.0 == +0.0.
template <class T> bool np_less(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a)) return false;
        if (std::isnan(b)) return true;
    }
    return a < b;
}

template <class T> bool same_bits(T a, T b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

enum class data_kind {
    full,    // every bit pattern of integers; finite floats of every magnitude and sign
    special, // floats: also -0.0, +0.0, NaNs of both signs and several payloads, infinities
    small,   // values in [0, 200): the high digits of every key equal
    equal,   // one value
};

template <class T> T nan_with(std::uint64_t payload, bool negative) {
    if constexpr (sizeof(T) == 4) {
        std::uint32_t b = 0x7FC00000u | static_cast<std::uint32_t>(payload & 0x3FFFFF);
        if (negative) b |= 0x80000000u;
        float f;
        std::memcpy(&f, &b, 4);
        return f;
    } else {
        std::uint64_t b = 0x7FF8000000000000ull | (payload & 0x7FFFFFFFFFFFFull);
        if (negative) b |= 0x8000000000000000ull;
        double d;
        std::memcpy(&d, &b, 8);
        return d;
    }
}

template <class T> std::vector<T> make_data(std::size_t n, data_kind kind, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = rng();
        T x{};
        if (kind == data_kind::equal) {
            x = static_cast<T>(std::is_same_v<T, bool> ? 1 : 5);
        } else if (kind == data_kind::small) {
            x = static_cast<T>(std::is_same_v<T, bool> ? r & 1 : r % 200);
        } else if constexpr (std::is_floating_point_v<T>) {
            // sign, a wide exponent range, a few repeats
            x = static_cast<T>(std::ldexp(static_cast<double>(r % 1000) + 1,
                                          static_cast<int>((r >> 10) % 60) - 30));
            if ((r >> 20) & 1) x = -x;
            if (kind == data_kind::special) {
                switch ((r >> 21) % 16) {
                case 0:
                    x = T(0.0);
                    break;
                case 1:
                    x = T(-0.0);
                    break;
                case 2:
                    x = nan_with<T>(r >> 24, (r >> 23) & 1);
                    break;
                case 3:
                    x = ((r >> 23) & 1) ? -std::numeric_limits<T>::infinity()
                                        : std::numeric_limits<T>::infinity();
                    break;
                default:
                    break;
                }
            }
        } else if constexpr (std::is_same_v<T, bool>) {
            x = r & 1;
        } else {
            std::memcpy(&x, &r, sizeof(T)); // every bit pattern, the sign bit included
        }
        v[i] = x;
    }
    return v;
}

// sort and argsort of the 1-d device copy of v (storage S) against std::stable_sort: the indices
// exactly, the values bit for bit (the sign of a zero, a NaN's payload).
template <class T, class S> void check_1d(const std::vector<T>& v) {
    const std::size_t n = v.size();
    xt::xarray<T> h = xt::xarray<T>::from_shape({n});
    std::copy(v.begin(), v.end(), h.begin());
    auto d = ca::to_device<S>(test::q(), h);
    std::vector<std::int64_t> want(n);
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(),
                     [&](std::int64_t a, std::int64_t b) { return np_less(v[a], v[b]); });
    const xt::xarray<T> got = ca::sort(d).get();
    const xt::xarray<std::int64_t> idx = ca::argsort(d).get();
    REQUIRE(got.size() == n);
    REQUIRE(idx.size() == n);
    std::size_t bad_values = 0, bad_indices = 0;
    for (std::size_t i = 0; i < n; ++i) {
        bad_values += !same_bits(got(i), v[want[i]]);
        bad_indices += idx(i) != want[i];
    }
    CHECK(bad_values == 0);
    CHECK(bad_indices == 0);
}

// Sizes around the tiles of every ITEMS the default work-group of 256 can get (the tile is
// 256 * ITEMS; ITEMS depends on the key width and the device's local memory), and beyond.
const std::vector<std::size_t> edge_sizes = {
    0,    1,    2,    255,  256,  257,  1279, 1280, 1281, 2559, 2560, 2561, 3071,  3072,
    3073, 3583, 3584, 3585, 3839, 3840, 3841, 4095, 4096, 4097, 8191, 8193, 12289, 65537};

template <class T, class S> void check_edges(data_kind kind) {
    for (std::size_t n : edge_sizes) {
        INFO("n " << n << " kind " << int(kind) << " " << S::name);
        check_1d<T, S>(make_data<T>(n, kind, unsigned(n) * 3 + unsigned(kind)));
    }
}

using width_types = std::tuple<bool, std::int8_t, std::uint16_t, std::int32_t, std::uint32_t, float,
                               std::int64_t, std::uint64_t, double>;

} // namespace

TEMPLATE_LIST_TEST_CASE("sort radix: sizes around tile boundaries, every key width", "[sort]",
                        width_types) {
    using T = TestType;
    if (!test::dtype_available<T>()) return;
    // One policy per kind of data keeps the run short; the suite also runs without SVM.
    if (test::storage_available<ca::svm_coarse>()) check_edges<T, ca::svm_coarse>(data_kind::full);
    check_edges<T, ca::buffer>(data_kind::small);
    if constexpr (std::is_floating_point_v<T>)
        if (test::storage_available<ca::svm_fine>())
            check_edges<T, ca::svm_fine>(data_kind::special);
}

TEST_CASE("sort radix: -0.0, +0.0 and NaNs keep their bits and their input order", "[sort]") {
    // [0.0, -0.0] stays as it is, [-0.0, 0.0] too (equal keys, stable).
    for (const std::vector<float>& v :
         {std::vector<float>{0.0f, -0.0f}, std::vector<float>{-0.0f, 0.0f},
          std::vector<float>{1.0f, -0.0f, -1.0f, 0.0f, -0.0f},
          std::vector<float>{nan_with<float>(1, true), -0.0f, nan_with<float>(7, false), 0.0f,
                             -std::numeric_limits<float>::infinity(), nan_with<float>(0, false)}})
        check_1d<float, ca::buffer>(v);
    // Only -0.0 and +0.0, and only NaNs (the keys of one digit in every pass), large.
    std::vector<double> zeros(70001), nans(70001);
    std::mt19937 rng(9);
    for (std::size_t i = 0; i < zeros.size(); ++i) {
        zeros[i] = (rng() & 1) ? -0.0 : 0.0;
        nans[i] = nan_with<double>(rng(), rng() & 1);
    }
    if (test::dtype_available<double>()) {
        check_1d<double, ca::buffer>(zeros);
        check_1d<double, ca::buffer>(nans);
    }
    // A float input without them, and one whose only -0.0 is its last element.
    std::vector<float> f = make_data<float>(100003, data_kind::full, 4);
    check_1d<float, ca::buffer>(f);
    f.back() = -0.0f;
    check_1d<float, ca::buffer>(f);
}

TEST_CASE("sort radix: passes that one digit fills, argsort stability with many duplicates",
          "[sort]") {
    const std::size_t n = (1u << 20) + 3;
    check_1d<std::uint32_t, ca::buffer>(make_data<std::uint32_t>(n, data_kind::equal, 1));
    check_1d<std::uint32_t, ca::buffer>(make_data<std::uint32_t>(n, data_kind::small, 2));
    check_1d<std::int16_t, ca::buffer>(make_data<std::int16_t>(n, data_kind::equal, 3));
    check_1d<std::int64_t, ca::buffer>(make_data<std::int64_t>(n, data_kind::small, 4));
    // three distinct values: long runs of equal keys across tiles and groups
    std::vector<std::int32_t> three(n);
    std::mt19937 rng(5);
    for (auto& x : three)
        x = static_cast<std::int32_t>(rng() % 3) - 1;
    check_1d<std::int32_t, ca::buffer>(three);
    // already sorted and reversed
    std::vector<std::uint32_t> up(n);
    std::iota(up.begin(), up.end(), 0u);
    check_1d<std::uint32_t, ca::buffer>(up);
    std::reverse(up.begin(), up.end());
    check_1d<std::uint32_t, ca::buffer>(up);
}

TEST_CASE("sort radix: axis sorts with several row passes and unique of large inputs", "[sort]") {
    // 70000 rows: three 8-bit passes over the row numbers after the key passes.
    for (const ca::shape_type& shape : {ca::shape_type{70000, 3}, ca::shape_type{3, 70000},
                                        ca::shape_type{300, 7}, ca::shape_type{257, 1}}) {
        const std::size_t total = ca::checked_size(shape);
        const std::vector<float> v = make_data<float>(total, data_kind::special, 6);
        xt::xarray<float> h = xt::xarray<float>::from_shape(shape);
        std::copy(v.begin(), v.end(), h.begin());
        auto d = ca::to_device<ca::buffer>(test::q(), h);
        for (long axis : {0L, 1L}) {
            INFO("shape " << shape[0] << "x" << shape[1] << " axis " << axis);
            const std::size_t len = shape[axis], other = shape[1 - axis];
            const xt::xarray<float> got = ca::sort(d, axis).get();
            const xt::xarray<std::int64_t> idx = ca::argsort(d, axis).get();
            std::size_t bad = 0;
            std::vector<std::int64_t> want(len);
            for (std::size_t o = 0; o < other; ++o) {
                auto at = [&](std::size_t j) { return axis == 1 ? o * len + j : j * other + o; };
                std::iota(want.begin(), want.end(), 0);
                std::stable_sort(want.begin(), want.end(), [&](std::int64_t a, std::int64_t b) {
                    return np_less(v[at(a)], v[at(b)]);
                });
                for (std::size_t j = 0; j < len; ++j) {
                    bad += idx.data()[at(j)] != want[j];
                    bad += !same_bits(got.data()[at(j)], v[at(want[j])]);
                }
            }
            CHECK(bad == 0);
        }
    }
    // unique_counts of a large input with repeats, NaNs and both zeros
    const std::vector<float> v = make_data<float>(300007, data_kind::special, 8);
    std::vector<float> s = v;
    std::stable_sort(s.begin(), s.end(), np_less<float>);
    std::vector<float> want_values;
    std::vector<std::int64_t> want_counts;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool starts = i == 0 || np_less(s[i - 1], s[i]);
        if (starts) {
            want_values.push_back(s[i]);
            want_counts.push_back(0);
        }
        ++want_counts.back();
    }
    xt::xarray<float> h = xt::xarray<float>::from_shape({v.size()});
    std::copy(v.begin(), v.end(), h.begin());
    auto u = ca::unique_counts(ca::to_device<ca::buffer>(test::q(), h));
    const xt::xarray<float> uv = u.values.get();
    const xt::xarray<std::int64_t> uc = u.counts.get();
    REQUIRE(uv.size() == want_values.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < uv.size(); ++i)
        bad += !same_bits(uv(i), want_values[i]) || uc(i) != want_counts[i];
    CHECK(bad == 0);
}

TEST_CASE("sort radix: bincount and histogram around the privatised bin limits", "[sort]") {
    // Up to 2048 weighted and 4096 plain bins count in local memory, more take global atomics.
    std::mt19937 rng(10);
    for (std::size_t top :
         {0ul, 1ul, 7ul, 2047ul, 2048ul, 2049ul, 4095ul, 4096ul, 4097ul, 9000ul}) {
        const std::size_t n = 50001;
        std::vector<std::uint16_t> x(n);
        std::vector<float> w(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = static_cast<std::uint16_t>(i < 2 ? top * i : rng() % (top + 1));
            w[i] = static_cast<float>(rng() % 1000) / 8.0f - 50.0f; // sums exact in double
        }
        xt::xarray<std::uint16_t> hx = xt::xarray<std::uint16_t>::from_shape({n});
        xt::xarray<float> hw = xt::xarray<float>::from_shape({n});
        std::copy(x.begin(), x.end(), hx.begin());
        std::copy(w.begin(), w.end(), hw.begin());
        auto dx = ca::to_device<ca::buffer>(test::q(), hx);
        auto dw = ca::to_device<ca::buffer>(test::q(), hw);
        for (std::size_t minlength : {0ul, 3000ul}) {
            const std::size_t len = std::max(top + 1, minlength);
            std::vector<std::int64_t> want(len, 0);
            std::vector<double> want_w(len, 0.0);
            for (std::size_t i = 0; i < n; ++i) {
                ++want[x[i]];
                want_w[x[i]] += w[i];
            }
            INFO("top " << top << " minlength " << minlength);
            const xt::xarray<std::int64_t> got = ca::bincount(dx, minlength).get();
            REQUIRE(got.size() == len);
            std::size_t bad = 0;
            for (std::size_t k = 0; k < len; ++k)
                bad += got(k) != want[k];
            if (test::dtype_available<double>()) {
                const xt::xarray<double> gw = ca::bincount(dx, dw, minlength).get();
                REQUIRE(gw.size() == len);
                for (std::size_t k = 0; k < len; ++k)
                    bad += gw(k) != want_w[k];
            }
            CHECK(bad == 0);
        }
    }
    // bins of width 1 over (0, bins): integer v in bin v (bins in the last, closed bin), v + 0.5
    // in bin v; values outside the range do not count.
    for (std::size_t bins : {1ul, 4095ul, 4096ul, 4097ul, 6000ul}) {
        const std::size_t n = 30011;
        xt::xarray<std::int32_t> hi = xt::xarray<std::int32_t>::from_shape({n});
        xt::xarray<float> hf = xt::xarray<float>::from_shape({n});
        std::vector<std::int64_t> want_i(bins, 0), want_f(bins, 0);
        for (std::size_t i = 0; i < n; ++i) {
            const std::int32_t v = static_cast<std::int32_t>(rng() % (bins + 3)) - 1;
            hi(i) = v;
            hf(i) = static_cast<float>(v) + 0.5f;
            if (v >= 0 && v <= std::int32_t(bins)) ++want_i[std::min<std::size_t>(v, bins - 1)];
            if (v >= 0 && v < std::int32_t(bins)) ++want_f[v];
        }
        const std::pair<double, double> range{0.0, double(bins)};
        INFO("bins " << bins);
        std::size_t bad = 0;
        if (test::dtype_available<double>()) {
            auto h = ca::histogram(ca::to_device<ca::buffer>(test::q(), hi), bins, range);
            const xt::xarray<std::int64_t> c = h.counts.get();
            for (std::size_t k = 0; k < bins; ++k)
                bad += c(k) != want_i[k];
        }
        auto hfl = ca::histogram(ca::to_device<ca::buffer>(test::q(), hf), bins, range);
        const xt::xarray<std::int64_t> cf = hfl.counts.get();
        for (std::size_t k = 0; k < bins; ++k)
            bad += cf(k) != want_f[k];
        CHECK(bad == 0);
    }
}
