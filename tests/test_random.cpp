// clarray::random against Random123 computed on the host for the same counters (the layout of
// docs/random.md, written out again here), on every storage policy and on views; then the
// statistics of each distribution, streams and advance.
#include "support.hpp"

#include <Random123/philox.h>
#include <Random123/threefry.h>
#include <Random123/u01fixedpt.h>
#include <Random123/uniform.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace cr = clarray::random;

namespace {

// ---- the host reference: docs/random.md, section "Counters and keys" ----

using words = std::array<std::uint32_t, 4>;

// The domain byte of counter word 3 for (distribution, T).
template <class T> std::uint32_t domain(cr::distribution d) {
    if (d == cr::distribution::uniform) return std::is_same_v<T, float> ? 1 : 2;
    if (d == cr::distribution::normal) return std::is_same_v<T, float> ? 3 : 4;
    if (std::is_same_v<T, std::int32_t>) return 5;
    if (std::is_same_v<T, std::uint32_t>) return 6;
    if (std::is_same_v<T, std::int64_t>) return 7;
    return 8;
}

// Block b of (seed, stream, domain, attempt): Random123's philox4x32 or threefry4x32.
words block(cr::algorithm algo, std::uint64_t seed, std::uint32_t stream, std::uint32_t dom,
            std::uint64_t b, std::uint32_t attempt) {
    const std::uint32_t c[4] = {static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32),
                                stream, (dom << 24) | attempt};
    words out;
    if (algo == cr::algorithm::philox4x32_10) {
        r123::Philox4x32::ctr_type ctr = {{c[0], c[1], c[2], c[3]}};
        r123::Philox4x32::key_type key = {
            {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
        const auto r = r123::Philox4x32()(ctr, key);
        std::copy(r.begin(), r.end(), out.begin());
    } else {
        r123::Threefry4x32::ctr_type ctr = {{c[0], c[1], c[2], c[3]}};
        r123::Threefry4x32::key_type key = {
            {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), 0, 0}};
        const auto r = r123::Threefry4x32()(ctr, key);
        std::copy(r.begin(), r.end(), out.begin());
    }
    return out;
}

std::uint64_t word64(const words& w, std::size_t j) {
    return w[2 * j] | (static_cast<std::uint64_t>(w[2 * j + 1]) << 32);
}

// sin(pi x) and cos(pi x) for x in [-1, 1], accurate to long double: the arguments are reduced
// exactly before the multiplication by pi.
const long double pi_l = 3.141592653589793238462643383279502884L;
long double sinpi_l(long double x) {
    const long double s = x < 0 ? -1 : 1;
    x = std::fabs(x);
    if (x > 0.5L) x = 1 - x;
    return s * std::sin(pi_l * x);
}
long double cospi_l(long double x) {
    x = std::fabs(x);
    if (x < 0.25L) return std::cos(pi_l * x);
    return std::sin(pi_l * (0.5L - x));
}

// The value at `position` of the generator's sequence for (d, T); a, b as the draw's
// parameters.
template <class T>
T reference(const cr::generator& g, cr::distribution d, std::uint64_t position, T a, T b) {
    constexpr bool wide = sizeof(T) == 8;
    constexpr std::uint64_t per_block = wide ? 2 : 4;
    const std::uint64_t blk = position / per_block;
    const std::size_t j = position % per_block;
    const std::uint32_t dom = domain<T>(d);
    const words w = block(g.algo(), g.seed(), g.stream_id(), dom, blk, 0);
    if constexpr (std::is_floating_point_v<T>) {
        if (d == cr::distribution::uniform) {
            T u;
            if constexpr (wide)
                u = u01fixedpt_closed_open_64_double(word64(w, j));
            else
                u = u01fixedpt_closed_open_32_float(w[j]);
            const T v = std::fma(u, b - a, a);
            return v < b ? v : std::nextafter(b, a);
        }
        // Box-Muller on the pair of lane j (docs/random.md), in long double.
        long double x, u;
        if constexpr (wide) {
            x = r123::uneg11<double>(word64(w, 0));
            u = r123::u01<double>(word64(w, 1));
        } else {
            x = r123::uneg11<float>(w[j & ~std::size_t(1)]);
            u = r123::u01<float>(w[j | 1]);
        }
        const long double radius = std::sqrt(-2 * std::log(u));
        const T z = static_cast<T>(radius * (j % 2 == 0 ? sinpi_l(x) : cospi_l(x)));
        return std::fma(z, b, a);
    } else {
        // Lemire's method; a rejected lane takes the same lane of attempt 1, 2, ...
        using U = std::make_unsigned_t<T>;
        const U range = static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
        const U threshold = static_cast<U>(U(0) - range) % range;
        U hi = 0;
        for (std::uint32_t attempt = 0;; ++attempt) {
            const words v =
                attempt ? block(g.algo(), g.seed(), g.stream_id(), dom, blk, attempt) : w;
            if constexpr (wide) {
                const unsigned __int128 m = static_cast<unsigned __int128>(word64(v, j)) * range;
                hi = static_cast<U>(m >> 64);
                if (static_cast<U>(m) >= threshold) break;
            } else {
                const std::uint64_t m = static_cast<std::uint64_t>(v[j]) * range;
                hi = static_cast<U>(m >> 32);
                if (static_cast<U>(m) >= threshold) break;
            }
        }
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + hi));
    }
}

// Distance in units in the last place of the larger of |x|, |y| and `at_least` (a normal
// value mean + z * stddev near 0 carries the error of z * stddev: it is measured in ulps of that).
template <class T> double ulp_distance(T x, T y, T at_least = T(0)) {
    if (x == y) return 0;
    const T scale = std::max({std::fabs(x), std::fabs(y), at_least});
    const T ulp = std::nextafter(scale, std::numeric_limits<T>::infinity()) - scale;
    return std::fabs(static_cast<double>(x) - static_cast<double>(y)) / ulp;
}

// Largest ulp difference allowed for normals: the device's log, sqrt, sinpi and cospi may each
// be a few ulp off (OpenCL C allows 3, 3, 4 and 4 for float; pocl is within 3 in all), the host
// reference is exact.
constexpr double normal_ulps = 8;

// Device values (C order of a's view) equal the reference at positions p0, p0 + 1, ...
template <class T>
void check_against_reference(const std::vector<T>& got, const cr::generator& g, cr::distribution d,
                             std::uint64_t p0, T a, T b, const std::string& what) {
    double worst = 0;
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const T want = reference<T>(g, d, p0 + i, a, b);
        bool ok;
        if constexpr (std::is_floating_point_v<T>) {
            if (d == cr::distribution::normal) {
                const double u = ulp_distance(got[i], want, std::fabs(want - a));
                worst = std::max(worst, u);
                ok = u <= normal_ulps;
            } else {
                ok = std::memcmp(&got[i], &want, sizeof(T)) == 0;
            }
        } else {
            ok = got[i] == want;
        }
        if (!ok && mismatches++ < 5)
            FAIL_CHECK(what << ": element " << i << " (position " << p0 + i << ") is " << +got[i]
                            << ", Random123 on the host gives " << +want);
    }
    INFO(what << ": largest ulp difference " << worst);
    CHECK(mismatches == 0);
}

// The storage of the tests whose subject is not storage: Buffer works on every device (also
// under CLARRAY_DISABLE_SVM=1).
using st = ca::buffer;

template <class A> std::vector<typename A::value_type> to_vector(const A& a) {
    const auto host = a.get();
    return std::vector<typename A::value_type>(host.begin(), host.end());
}

// Calls f(T{}) for each dtype the random functions produce, skipping float64 without fp64.
template <class F> void for_each_random_dtype(F&& f) {
    f(float{});
    if (test::ctx().device().has_fp64()) f(double{});
    f(std::int32_t{});
    f(std::uint32_t{});
    f(std::int64_t{});
    f(std::uint64_t{});
}

// The draw parameters a test uses per dtype: (low, high) or (mean, stddev).
template <class T> std::pair<T, T> parameters(cr::distribution d) {
    if constexpr (std::is_floating_point_v<T>)
        return d == cr::distribution::uniform ? std::pair<T, T>{T(-2.5), T(7)}
                                              : std::pair<T, T>{T(0), T(1)};
    else if constexpr (std::is_signed_v<T>)
        return {T(-1000), T(1000003)};
    else
        return {T(5), T(3000000019u)};
}

} // namespace

TEMPLATE_LIST_TEST_CASE("random: device values equal Random123 on the host", "[random]",
                        test::all_policies) {
    using S = typename TestType::storage;
    if (!test::storage_available<S>()) return;
    for (cr::algorithm algo : {cr::algorithm::philox4x32_10, cr::algorithm::threefry4x32_20}) {
        for_each_random_dtype([&](auto zero) {
            using T = decltype(zero);
            std::vector<cr::distribution> kinds;
            if constexpr (std::is_floating_point_v<T>)
                kinds = {cr::distribution::uniform, cr::distribution::normal};
            else
                kinds = {cr::distribution::integers};
            for (cr::distribution d : kinds) {
                // Sizes and start positions that cut blocks at both ends, several blocks per
                // work-group and several groups.
                for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(1029)}) {
                    cr::generator g(0x0123456789abcdefULL + n, algo);
                    g = g.stream(3);
                    g.advance(n % 3); // 0, 1, 1: unaligned starts
                    const cr::generator before = g;
                    const auto [a, b] = parameters<T>(d);
                    ca::cl_array<T, S> x;
                    if constexpr (std::is_floating_point_v<T>)
                        x = d == cr::distribution::uniform
                                ? g.template uniform<T, S>(test::q(), {n}, a, b)
                                : g.template normal<T, S>(test::q(), {n}, a, b);
                    else
                        x = g.template integers<T, S>(test::q(), {n}, a, b);
                    CHECK(g.position() == before.position() + n);
                    check_against_reference<T>(
                        to_vector(x), before, d, before.position(), a, b,
                        std::string(ca::dtype_name(ca::dtype_traits<T>::id)) +
                            " n=" + std::to_string(n));
                }
            }
        });
    }
}

TEMPLATE_LIST_TEST_CASE("random: fills of strided, transposed and reversed views", "[random]",
                        test::all_policies) {
    using S = typename TestType::storage;
    if (!test::storage_available<S>()) return;
    using A = ca::cl_array<float, S>;
    const auto base = [] { return ca::zeros<float, S>(test::q(), {9, 11}); };
    // Views of rank 1 (strided) and 2 (transposed, reversed, inner block): their elements in
    // C order take consecutive positions whatever their strides.
    struct view_case {
        const char* name;
        A (*make)(const A&);
    };
    const view_case cases[] = {
        {"transpose", [](const A& a) { return a.transpose(); }},
        {"column", [](const A& a) { return a(ca::all(), 4); }},
        {"reversed rows, every third column",
         [](const A& a) { return a(ca::range(7, ca::none, -1), ca::range(1, ca::none, 3)); }},
        {"inner block", [](const A& a) { return a(ca::range(2, 5), ca::range(3, 10)); }},
    };
    for (const auto& c : cases) {
        INFO(c.name);
        A whole = base();
        A index = ca::arange<float, S>(test::q(), 0.0f, 99.0f, 1.0f).reshape({9, 11});
        A view = c.make(whole);
        cr::generator g(99);
        g.advance(2);
        g.fill_uniform(view, -1.0f, 1.0f);
        const std::vector<float> got = to_vector(view);
        check_against_reference<float>(got, cr::generator(99), cr::distribution::uniform, 2, -1.0f,
                                       1.0f, c.name);
        // The elements outside the view are still 0: `index` holds each element's flat index,
        // so its view names the elements the fill may write.
        const std::vector<float> inside = to_vector(c.make(index));
        const std::vector<float> all = to_vector(whole);
        std::vector<bool> in_view(all.size(), false);
        for (float v : inside)
            in_view[static_cast<std::size_t>(v)] = true;
        std::size_t touched_outside = 0;
        for (std::size_t i = 0; i < all.size(); ++i)
            if (!in_view[i] && all[i] != 0.0f) ++touched_outside;
        CHECK(touched_outside == 0);
        // A normal fill of the same view on a copy of the generator at the same position.
        cr::generator h(99);
        h.advance(2);
        h.fill_normal(view);
        check_against_reference<float>(to_vector(view), cr::generator(99), cr::distribution::normal,
                                       2, 0.0f, 1.0f, c.name);
    }
    // Integers into a transposed int64 view.
    auto k = ca::zeros<std::int64_t, S>(test::q(), {5, 6});
    cr::generator g(7, cr::algorithm::threefry4x32_20);
    g.fill_integers(k.transpose(), -3, 3); // int literals for an int64 array
    check_against_reference<std::int64_t>(to_vector(k.transpose()),
                                          cr::generator(7, cr::algorithm::threefry4x32_20),
                                          cr::distribution::integers, 0, -3, 3, "int64 transpose");
    // random_like: a new array of the shape and storage of its argument, uniform values.
    cr::generator h(5);
    const A src = base()(ca::range(0, 4), ca::all()).transpose();
    const A r = h.random_like(src, 2.0f, 3.0f);
    CHECK(r.shape() == src.shape());
    check_against_reference<float>(to_vector(r), cr::generator(5), cr::distribution::uniform, 0,
                                   2.0f, 3.0f, "random_like");
}

namespace {
// Pearson's chi-square statistic of counts against equal expected counts.
double chi_square(const std::vector<double>& counts, double expected) {
    double s = 0;
    for (double c : counts)
        s += (c - expected) * (c - expected) / expected;
    return s;
}
// An upper bound of the chi-square distribution with k degrees of freedom that a correct
// generator exceeds with probability about 1e-6 (Wilson-Hilferty, z = 4.75).
double chi_square_bound(double k) {
    const double z = 4.75, a = 2 / (9 * k);
    return k * std::pow(1 - a + z * std::sqrt(a), 3);
}
} // namespace

TEST_CASE("random: uniform moments and chi-square", "[random]") {
    for_each_random_dtype([](auto zero) {
        using T = decltype(zero);
        if constexpr (std::is_floating_point_v<T>) {
            for (cr::algorithm algo :
                 {cr::algorithm::philox4x32_10, cr::algorithm::threefry4x32_20}) {
                const std::size_t n = 1 << 20;
                cr::generator g(2024, algo);
                const T low = T(-3), high = T(5);
                const std::vector<T> v =
                    to_vector(g.template uniform<T, st>(test::q(), {n}, low, high));
                double sum = 0, sq = 0;
                std::vector<double> counts(100, 0);
                bool in_range = true;
                for (T x : v) {
                    in_range = in_range && x >= low && x < high;
                    sum += x;
                    sq += double(x) * x;
                    counts[std::min<std::size_t>(
                        99, static_cast<std::size_t>((x - low) / (high - low) * 100))] += 1;
                }
                CHECK(in_range);
                const double mean = sum / n, var = sq / n - mean * mean;
                // mean 1, variance 64/12; the mean's standard error is sqrt(64/12/n).
                CHECK(std::fabs(mean - 1) < 6 * std::sqrt(64.0 / 12 / n));
                CHECK(std::fabs(var - 64.0 / 12) < 0.02 * 64.0 / 12);
                const double chi = chi_square(counts, double(n) / 100);
                INFO("chi-square " << chi << " for 99 degrees of freedom");
                CHECK(chi < chi_square_bound(99));
                CHECK(chi > 50); // far too even would be as suspicious (p < 1e-4)
            }
        }
    });
}

TEST_CASE("random: normal moments and Kolmogorov-Smirnov", "[random]") {
    for_each_random_dtype([](auto zero) {
        using T = decltype(zero);
        if constexpr (std::is_floating_point_v<T>) {
            for (cr::algorithm algo :
                 {cr::algorithm::philox4x32_10, cr::algorithm::threefry4x32_20}) {
                const std::size_t n = 1 << 18;
                cr::generator g(77, algo);
                const T mean = T(3), sd = T(2);
                std::vector<T> v = to_vector(g.template normal<T, st>(test::q(), {n}, mean, sd));
                double sum = 0, sq = 0;
                for (T x : v) {
                    sum += x;
                    sq += double(x) * x;
                }
                const double m = sum / n, var = sq / n - m * m;
                CHECK(std::fabs(m - 3) < 6 * 2 / std::sqrt(double(n)));
                CHECK(std::fabs(var - 4) < 6 * 4 * std::sqrt(2.0 / n));
                // KS distance to N(3, 2^2); sqrt(n) D exceeds 1.95 with probability 0.001.
                std::sort(v.begin(), v.end());
                double d = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    const double cdf = 0.5 * std::erfc(-(double(v[i]) - 3) / (2 * std::sqrt(2.0)));
                    d = std::max({d, cdf - double(i) / n, double(i + 1) / n - cdf});
                }
                INFO("KS sqrt(n) D = " << std::sqrt(double(n)) * d);
                CHECK(std::sqrt(double(n)) * d < 1.95);
                // The pairs of a Box-Muller draw are uncorrelated.
                std::vector<T> w =
                    to_vector(cr::generator(77, algo).template normal<T, st>(test::q(), {n}));
                double c = 0;
                for (std::size_t i = 0; i + 1 < n; i += 2)
                    c += double(w[i]) * w[i + 1];
                CHECK(std::fabs(c / (n / 2)) < 6 / std::sqrt(n / 2.0));
            }
        }
    });
}

TEST_CASE("random: integers cover small ranges evenly and large ranges without bias", "[random]") {
    const std::size_t n = 1 << 18;
    cr::generator g(11);
    SECTION("[0, 3) and [-2, 5) on every integer dtype") {
        for_each_random_dtype([&](auto zero) {
            using T = decltype(zero);
            if constexpr (std::is_integral_v<T>) {
                for (auto [low, high] :
                     {std::pair<T, T>{0, 3},
                      std::pair<T, T>{std::is_signed_v<T> ? T(-2) : T(2), T(5)}}) {
                    const std::vector<T> v =
                        to_vector(g.template integers<T, st>(test::q(), {n}, low, high));
                    std::vector<double> counts(static_cast<std::size_t>(high - low), 0);
                    bool in_range = true;
                    for (T x : v) {
                        in_range = in_range && x >= low && x < high;
                        if (x >= low && x < high) counts[static_cast<std::size_t>(x - low)] += 1;
                    }
                    CHECK(in_range);
                    const double k = double(counts.size());
                    INFO(ca::dtype_name(ca::dtype_traits<T>::id)
                         << " [" << +low << ", " << +high << ")");
                    CHECK(chi_square(counts, n / k) < chi_square_bound(k - 1));
                }
            }
        });
    }
    SECTION("a range of 3 * 2^30 (uint32): modulo reduction would make [0, 2^30) twice as likely") {
        const std::uint32_t high = 3u << 30;
        const std::vector<std::uint32_t> v =
            to_vector(g.integers<std::uint32_t, st>(test::q(), {n}, 0, high));
        double low_third = 0;
        bool in_range = true;
        for (std::uint32_t x : v) {
            low_third += x < (1u << 30);
            in_range = in_range && x < high;
        }
        CHECK(in_range);
        // 1/3 unbiased (1/2 with x % range); standard error sqrt(2/9/n).
        CHECK(std::fabs(low_third / n - 1.0 / 3) < 6 * std::sqrt(2.0 / 9 / n));
    }
    SECTION("64-bit: a range of 3 * 2^62 and the whole int64 range but its top") {
        const std::uint64_t high = 3ull << 62;
        const std::vector<std::uint64_t> v =
            to_vector(g.integers<std::uint64_t, st>(test::q(), {n}, 0, high));
        double low_third = 0;
        bool in_range = true;
        for (std::uint64_t x : v) {
            low_third += x < (1ull << 62);
            in_range = in_range && x < high;
        }
        CHECK(in_range);
        CHECK(std::fabs(low_third / n - 1.0 / 3) < 6 * std::sqrt(2.0 / 9 / n));
        const auto lo = std::numeric_limits<std::int64_t>::min(),
                   hi = std::numeric_limits<std::int64_t>::max();
        const std::vector<std::int64_t> w =
            to_vector(g.integers<std::int64_t, st>(test::q(), {n}, lo, hi));
        double negative = 0, sum = 0;
        for (std::int64_t x : w) {
            negative += x < 0;
            sum += double(x) / 9.223372036854775808e18; // in [-1, 1)
        }
        CHECK(std::fabs(negative / n - 0.5) < 6 * std::sqrt(0.25 / n));
        CHECK(std::fabs(sum / n) < 6 * std::sqrt(1.0 / 3 / n));
    }
}

TEST_CASE("random: streams, seeds and algorithms give different sequences", "[random]") {
    const std::size_t n = 4096;
    const cr::generator g(5);
    const auto draw = [&](cr::generator h) {
        return to_vector(h.uniform<float, st>(test::q(), {n}));
    };
    const std::vector<float> s0 = draw(g), s1 = draw(g.stream(1)), s2 = draw(g.stream(2)),
                             other_seed = draw(cr::generator(6)),
                             threefry = draw(cr::generator(5, cr::algorithm::threefry4x32_20));
    CHECK(draw(g.stream(0)) == s0); // stream 0 is the default
    const auto equal_count = [&](const std::vector<float>& a, const std::vector<float>& b) {
        std::size_t same = 0;
        for (std::size_t i = 0; i < n; ++i)
            same += a[i] == b[i];
        return same;
    };
    const auto correlation = [&](const std::vector<float>& a, const std::vector<float>& b) {
        double c = 0;
        for (std::size_t i = 0; i < n; ++i)
            c += (a[i] - 0.5) * (b[i] - 0.5);
        return c / n * 12; // the correlation coefficient (variance 1/12)
    };
    for (const auto* other : {&s1, &s2, &other_seed, &threefry}) {
        CHECK(equal_count(s0, *other) < 3);
        CHECK(std::fabs(correlation(s0, *other)) < 6 / std::sqrt(double(n)));
    }
    CHECK(equal_count(s1, s2) < 3);
    // Different distributions at the same position use different counters: were a normal pair
    // made from the words of uniform lanes i, i + 1, its squared radius would be
    // -2 log(u[i + 1]) to float precision.
    cr::generator a(5), b(5);
    const std::vector<float> u = to_vector(a.uniform<float, st>(test::q(), {n}));
    const std::vector<float> z = to_vector(b.normal<float, st>(test::q(), {n}));
    std::size_t matches = 0;
    for (std::size_t i = 0; i + 1 < n; i += 2) {
        const double r2 = double(z[i]) * z[i] + double(z[i + 1]) * z[i + 1];
        const double predicted = -2 * std::log(double(u[i + 1]) + 0x1p-25);
        matches += std::fabs(r2 - predicted) < 1e-5 * std::max(1.0, predicted);
    }
    CHECK(matches < 3);
}

TEST_CASE("random: advance(n) and consecutive draws continue one sequence", "[random]") {
    for (cr::algorithm algo : {cr::algorithm::philox4x32_10, cr::algorithm::threefry4x32_20}) {
        for (std::uint64_t skip :
             {std::uint64_t(0), std::uint64_t(1), std::uint64_t(6), std::uint64_t(1001)}) {
            const std::size_t m = 37;
            cr::generator whole(123, algo);
            const std::vector<std::int32_t> all =
                to_vector(whole.integers<std::int32_t, st>(test::q(), {skip + m}, -50, 50));
            cr::generator skipped(123, algo);
            skipped.advance(skip);
            CHECK(skipped.position() == skip);
            const std::vector<std::int32_t> tail =
                to_vector(skipped.integers<std::int32_t, st>(test::q(), {m}, -50, 50));
            CHECK(std::equal(tail.begin(), tail.end(),
                             all.begin() + static_cast<std::ptrdiff_t>(skip)));
            // Two draws (of 2-d arrays) continue where the first stopped.
            cr::generator parts(123, algo);
            std::vector<double> joined;
            if (test::ctx().device().has_fp64()) {
                cr::generator one(123, algo);
                const std::vector<double> ref =
                    to_vector(one.normal<double, st>(test::q(), {skip + m}));
                const std::vector<double> p1 =
                    to_vector(parts.normal<double, st>(test::q(), {skip}));
                const std::vector<double> p2 =
                    to_vector(parts.normal<double, st>(test::q(), {1, m}));
                joined = p1;
                joined.insert(joined.end(), p2.begin(), p2.end());
                CHECK(joined == ref);
            }
        }
    }
}

TEST_CASE("random: bad parameters and arrays", "[random][errors]") {
    cr::generator g(1);
    CHECK_THROWS_AS((g.uniform<float, st>(test::q(), {4}, 1.0f, 1.0f)), ca::usage_error);
    CHECK_THROWS_AS((g.uniform<float, st>(test::q(), {4}, 2.0f, 1.0f)), ca::usage_error);
    CHECK_THROWS_AS((g.uniform<float, st>(test::q(), {4}, -3e38f, 3e38f)),
                    ca::usage_error); // inf width
    CHECK_THROWS_AS(
        (g.uniform<float, st>(test::q(), {4}, 0.0f, std::numeric_limits<float>::infinity())),
        ca::usage_error);
    CHECK_THROWS_AS((g.normal<float, st>(test::q(), {4}, 0.0f, -1.0f)), ca::usage_error);
    CHECK_THROWS_AS((g.normal<float, st>(test::q(), {4}, std::nanf(""), 1.0f)), ca::usage_error);
    CHECK_THROWS_AS((g.integers<std::int32_t, st>(test::q(), {4}, 3, 3)), ca::usage_error);
    CHECK_THROWS_AS((g.integers<std::uint64_t, st>(test::q(), {4}, 9, 2)), ca::usage_error);
    try {
        g.integers<std::int64_t, st>(test::q(), {4}, 5, -5);
        FAIL("no exception");
    } catch (const ca::usage_error& e) {
        CHECK(std::string(e.what()).find("low 5, high -5") != std::string::npos);
    }
    CHECK(g.position() == 0); // rejected draws consume nothing
    ca::cl_array<float> unbound;
    CHECK_THROWS_AS(g.fill_uniform(unbound), ca::usage_error);
    // An empty array draws nothing.
    auto empty = ca::empty<float>(test::q(), {0, 3});
    g.fill_normal(empty);
    CHECK(g.position() == 0);
    // The end of the sequence.
    g.advance(std::numeric_limits<std::uint64_t>::max() - 2);
    CHECK_THROWS_AS((g.uniform<float, st>(test::q(), {4})), ca::usage_error);
}

TEST_CASE("random: a draw on another queue is ordered before later reads", "[random]") {
    // The draw's launch event is recorded on the array: a read on the first queue waits for it.
    ca::queue other(test::ctx());
    const std::size_t n = std::size_t(1) << 16;
    auto a = ca::zeros<float, st>(test::q(), {n});
    cr::generator g(31);
    const ca::event e = g.fill_normal(a.with_queue(other), 1.0f, 0.5f);
    CHECK(e.get() != nullptr);
    check_against_reference<float>(to_vector(a), cr::generator(31), cr::distribution::normal, 0,
                                   1.0f, 0.5f, "other queue");
}
