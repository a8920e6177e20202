// The distributions, permutations and choices of clarray::random against a host reference that
// computes the same values from the same counters (docs/random.md, "Per-position sequences"),
// on every storage policy and both float dtypes; then their statistics (moments, Kolmogorov-
// Smirnov, chi-square) with fixed seeds and bounds that a correct generator exceeds with
// probability about 1e-6, and the errors of bad parameters.
#include "support.hpp"

#include <Random123/philox.h>
#include <Random123/threefry.h>
#include <Random123/u01fixedpt.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace cr = clarray::random;

namespace {

// ---- the host reference ----

using words = std::array<std::uint32_t, 4>;

words block(const cr::generator& g, std::uint32_t dom, std::uint64_t b, std::uint32_t k) {
    const std::uint32_t c[4] = {static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32),
                                g.stream_id(), (dom << 24) | k};
    const std::uint64_t seed = g.seed();
    words out;
    if (g.algo() == cr::algorithm::philox4x32_10) {
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

// The domain byte of a distribution and dtype (docs/random.md).
template <class T> std::uint32_t domain(cr::distribution d) {
    switch (d) {
    case cr::distribution::binomial:
        return 21;
    case cr::distribution::poisson:
        return 22;
    case cr::distribution::permutation_keys:
        return 23;
    default:
        return 9 +
               2 * (static_cast<std::uint32_t>(d) -
                    static_cast<std::uint32_t>(cr::distribution::exponential)) +
               (std::is_same_v<T, double> ? 1 : 0);
    }
}

long double sinpi_l(long double x) {
    const long double pi = 3.141592653589793238462643383279502884L;
    const long double s = x < 0 ? -1 : 1;
    x = std::fabs(x);
    if (x > 0.5L) x = 1 - x;
    return s * std::sin(pi * x);
}

// The per-position sequence of words and the conversions of kernels/random.cl, in T.
template <class T> class sequence {
public:
    sequence(const cr::generator& g, std::uint32_t dom, std::uint64_t position)
        : g_(g), dom_(dom), position_(position) {}
    std::uint32_t word() {
        if (used_ == 4) {
            w_ = block(g_, dom_, position_, next_++);
            used_ = 0;
        }
        return w_[used_++];
    }
    T uniform() {
        if constexpr (std::is_same_v<T, double>) {
            const std::uint64_t lo = word(), hi = word();
            return u01fixedpt_open_open_64_double(lo | (hi << 32));
        } else {
            return u01fixedpt_open_open_32_float(word());
        }
    }
    T normal() {
        const T u1 = uniform(), u2 = uniform();
        return std::sqrt(T(-2) * std::log(u1)) * static_cast<T>(sinpi_l(T(2) * u2 - T(1)));
    }
    // Marsaglia-Tsang in two factors (kernels/random.cl, seq_gamma_parts).
    T gamma_parts(T a, T& log_boost) {
        log_boost = 0;
        if (a < T(1)) {
            log_boost = std::log(uniform()) / a;
            a = a + T(1);
        }
        const T d = a - T(1) / T(3);
        const T c = T(1) / std::sqrt(T(9) * d);
        for (int attempt = 0; attempt < 1000000; ++attempt) {
            const T z = normal();
            const T u = uniform();
            T v = T(1) + c * z;
            if (v <= T(0)) continue;
            v = v * v * v;
            if (std::log(u) < T(0.5) * z * z + d - d * v + d * std::log(v)) return d * v;
        }
        return std::numeric_limits<T>::quiet_NaN();
    }
    T gamma(T a) {
        if (a == T(0)) return 0;
        T b;
        const T m = gamma_parts(a, b);
        return a < T(1) ? m * std::exp(b) : m;
    }

private:
    cr::generator g_;
    std::uint32_t dom_;
    std::uint64_t position_;
    std::uint32_t next_ = 0, used_ = 4;
    words w_{};
};

// The reference value of a real distribution at `position`; p0, p1 as the draw's parameters.
template <class T>
T reference(const cr::generator& g, cr::distribution d, std::uint64_t position, double p0,
            double p1) {
    sequence<T> s(g, domain<T>(d), position);
    const T a = static_cast<T>(p0), b = static_cast<T>(p1);
    switch (d) {
    case cr::distribution::exponential: {
        // The block layout of uniform: lane position % 4 (float32) or % 2 (float64, two words).
        const std::uint64_t per_block = sizeof(T) == 8 ? 2 : 4;
        const words w = block(g, domain<T>(d), position / per_block, 0);
        const std::size_t j = position % per_block;
        T u;
        if constexpr (std::is_same_v<T, double>)
            u = u01fixedpt_open_open_64_double(w[2 * j] |
                                               (static_cast<std::uint64_t>(w[2 * j + 1]) << 32));
        else
            u = u01fixedpt_open_open_32_float(w[j]);
        return -std::log(u) * a;
    }
    case cr::distribution::gamma:
        return s.gamma(a) * b;
    case cr::distribution::chisquare:
        return s.gamma(static_cast<T>(p0 / 2)) * T(2);
    case cr::distribution::beta: {
        T bx, by;
        const T mx = s.gamma_parts(a, bx);
        const T my = s.gamma_parts(b, by);
        const T lx = std::log(mx) + bx, ly = std::log(my) + by;
        return T(1) / (T(1) + std::exp(ly - lx));
    }
    case cr::distribution::lognormal:
        return std::exp(std::fma(s.normal(), b, a));
    case cr::distribution::standard_t: {
        const T z = s.normal();
        const T half = a / T(2);
        const T gm = s.gamma(half);
        return std::sqrt(half) * z / std::sqrt(gm);
    }
    default:
        return 0;
    }
}

double stirling_tail(double k) {
    if (k < 15)
        return std::lgamma(k + 1) - (k + 0.5) * std::log(k + 1) + (k + 1) - 0.91893853320467274178;
    const double k1 = k + 1, k2 = k1 * k1;
    return (1.0 / 12 -
            (1.0 / 360 - (1.0 / 1260 - (1.0 / 1680 - 1.0 / (1188 * k2)) / k2) / k2) / k2) /
           k1;
}

std::int64_t binomial_low(sequence<double>& s, std::int64_t n, double p) {
    const double q = 1 - p, dn = static_cast<double>(n);
    if (dn * p < 10) {
        const double u = s.uniform(), r = p / q;
        double px = std::exp(dn * std::log1p(-p)), c = px;
        std::int64_t k = 0;
        while (u > c && k < n && px > 0) {
            ++k;
            px = px * r * static_cast<double>(n - k + 1) / static_cast<double>(k);
            c += px;
        }
        return k;
    }
    const double spq = std::sqrt(dn * p * q);
    const double b = 1.15 + 2.53 * spq;
    const double a = -0.0873 + 0.0248 * b + 0.01 * p;
    const double c = dn * p + 0.5;
    const double vr = 0.92 - 4.2 / b;
    const double alpha = (2.83 + 5.1 / b) * spq;
    const double r = p / q;
    const double m = std::floor((dn + 1) * p);
    for (int attempt = 0; attempt < 1000000; ++attempt) {
        const double u = s.uniform() - 0.5;
        double v = s.uniform();
        const double us = 0.5 - std::fabs(u);
        const double k = std::floor((2 * a / us + b) * u + c);
        if (k < 0 || k > dn) continue;
        if (us >= 0.07 && v <= vr) return static_cast<std::int64_t>(k);
        v = std::log(v * alpha / (a / (us * us) + b));
        const double bound = (m + 0.5) * std::log((m + 1) / (r * (dn - m + 1))) +
                             (dn + 1) * std::log1p((k - m) / (dn - k + 1)) +
                             (k + 0.5) * std::log(r * (dn - k + 1) / (k + 1)) + stirling_tail(m) +
                             stirling_tail(dn - m) - stirling_tail(k) - stirling_tail(dn - k);
        if (v <= bound) return static_cast<std::int64_t>(k);
    }
    return -1;
}

std::int64_t binomial_reference(const cr::generator& g, std::uint64_t position, std::int64_t n,
                                double p) {
    sequence<double> s(g, 21, position);
    if (n == 0 || p == 0) return 0;
    if (p > 0.5) return n - binomial_low(s, n, 1 - p);
    return binomial_low(s, n, p);
}

std::int64_t poisson_reference(const cr::generator& g, std::uint64_t position, double lam) {
    sequence<double> s(g, 22, position);
    std::int64_t k = 0;
    if (lam < 10) {
        const double u = s.uniform();
        double px = std::exp(-lam), c = px;
        while (u > c && px > 0) {
            ++k;
            px = px * lam / static_cast<double>(k);
            c += px;
        }
        return k;
    }
    const double slam = std::sqrt(lam), loglam = std::log(lam);
    const double b = 0.931 + 2.53 * slam;
    const double a = -0.059 + 0.02483 * b;
    const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
    const double vr = 0.9277 - 3.6224 / (b - 2);
    for (int attempt = 0; attempt < 1000000; ++attempt) {
        const double u = s.uniform() - 0.5;
        const double v = s.uniform();
        const double us = 0.5 - std::fabs(u);
        const auto c = static_cast<std::int64_t>(std::floor((2 * a / us + b) * u + lam + 0.43));
        if (us >= 0.07 && v <= vr) return c;
        if (c < 0 || (us < 0.013 && v > us)) continue;
        if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <=
            -lam + static_cast<double>(c) * loglam - std::lgamma(static_cast<double>(c) + 1))
            return c;
    }
    return -1;
}

// The permutation of n at position p: the stable argsort of the uint64 keys (two per block).
std::vector<std::int64_t> permutation_reference(const cr::generator& g, std::uint64_t p,
                                                std::size_t n) {
    std::vector<std::uint64_t> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t pos = p + i;
        const words w = block(g, 23, pos / 2, 0);
        const std::size_t j = pos % 2;
        keys[i] = w[2 * j] | (static_cast<std::uint64_t>(w[2 * j + 1]) << 32);
    }
    std::vector<std::int64_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::int64_t a, std::int64_t b) { return keys[a] < keys[b]; });
    return idx;
}

template <class A> std::vector<typename A::value_type> to_vector(const A& a) {
    const auto host = a.get();
    return std::vector<typename A::value_type>(host.begin(), host.end());
}

// Relative tolerance of the device values against the reference: the device's log, exp, sqrt
// and sinpi may be a few ulp off the host's, and exp(log(u) / a) of the gamma boost turns the
// absolute error of its argument into a relative one (a few hundred float ulps at most).
template <class T> double tolerance() {
    return std::is_same_v<T, float> ? 1e-4 : 1e-11;
}

// ---- distribution functions for the Kolmogorov-Smirnov tests ----

// Regularized lower incomplete gamma P(a, x) (series below a + 1, continued fraction above).
double gamma_p(double a, double x) {
    if (x <= 0) return 0;
    const double log_front = -x + a * std::log(x) - std::lgamma(a);
    if (x < a + 1) {
        double sum = 1 / a, term = sum;
        for (int n = 1; n < 10000 && std::fabs(term) > 1e-17 * std::fabs(sum); ++n) {
            term *= x / (a + n);
            sum += term;
        }
        return sum * std::exp(log_front);
    }
    double b = x + 1 - a, c = 1e300, d = 1 / b, h = d;
    for (int i = 1; i < 10000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (std::fabs(d) < 1e-300) d = 1e-300;
        c = b + an / c;
        if (std::fabs(c) < 1e-300) c = 1e-300;
        d = 1 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1) < 1e-16) break;
    }
    return 1 - std::exp(log_front) * h;
}

// Regularized incomplete beta I_x(a, b) (Lentz's continued fraction).
double beta_cf(double a, double b, double x) {
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (std::fabs(d) < 1e-300) d = 1e-300;
    d = 1 / d;
    double h = d;
    for (int m = 1; m < 10000; ++m) {
        const int m2 = 2 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < 1e-300) d = 1e-300;
        c = 1 + aa / c;
        if (std::fabs(c) < 1e-300) c = 1e-300;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + aa * d;
        if (std::fabs(d) < 1e-300) d = 1e-300;
        c = 1 + aa / c;
        if (std::fabs(c) < 1e-300) c = 1e-300;
        d = 1 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1) < 1e-16) break;
    }
    return h;
}
double beta_i(double a, double b, double x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                  a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2)) return front * beta_cf(a, b, x) / a;
    return 1 - front * beta_cf(b, a, 1 - x) / b;
}

// sqrt(n) times the Kolmogorov-Smirnov distance of the sample to cdf.
template <class T> double ks_statistic(std::vector<T> v, const std::function<double(double)>& cdf) {
    std::sort(v.begin(), v.end());
    const double n = static_cast<double>(v.size());
    double d = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double f = cdf(static_cast<double>(v[i]));
        d = std::max({d, f - double(i) / n, double(i + 1) / n - f});
    }
    return std::sqrt(n) * d;
}
// sqrt(n) D of a correct sample exceeds this with probability 2 exp(-2 * 2.7^2) < 1e-6.
constexpr double ks_bound = 2.7;

// An upper bound of the chi-square distribution with k degrees of freedom that a correct
// generator exceeds with probability about 1e-6 (Wilson-Hilferty, z = 4.75).
double chi_square_bound(double k) {
    const double z = 4.75, a = 2 / (9 * k);
    return k * std::pow(1 - a + z * std::sqrt(a), 3);
}

// Pearson's statistic of integer values against the probabilities pmf(k), over the values
// whose expected count is at least 5, the rest pooled into one cell; sets `cells`.
double chi_square_discrete(const std::vector<std::int64_t>& v,
                           const std::function<double(std::int64_t)>& pmf, std::int64_t hi,
                           std::size_t& cells) {
    const double n = static_cast<double>(v.size());
    std::map<std::int64_t, double> counts;
    for (std::int64_t x : v)
        counts[x] += 1;
    double stat = 0, rest_expected = n, rest_count = n;
    cells = 0;
    for (std::int64_t k = 0; k <= hi; ++k) {
        const double e = n * pmf(k);
        if (e < 5) continue;
        const double c = counts.count(k) ? counts[k] : 0;
        stat += (c - e) * (c - e) / e;
        rest_expected -= e;
        rest_count -= c;
        ++cells;
    }
    if (rest_expected > 5) {
        stat += (rest_count - rest_expected) * (rest_count - rest_expected) / rest_expected;
        ++cells;
    }
    return stat;
}

using param_list = std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<float, ca::svm_fine>,
                              test::cfg<float, ca::buffer>, test::cfg<double, ca::svm_coarse>,
                              test::cfg<double, ca::svm_fine>, test::cfg<double, ca::buffer>>;

struct real_case {
    cr::distribution d;
    double p0, p1;
};
const real_case real_cases[] = {
    {cr::distribution::exponential, 2.5, 0}, {cr::distribution::gamma, 0.35, 2.0},
    {cr::distribution::gamma, 4.5, 0.5},     {cr::distribution::beta, 0.6, 2.5},
    {cr::distribution::beta, 3.0, 1.5},      {cr::distribution::lognormal, 0.5, 0.5},
    {cr::distribution::chisquare, 3.0, 0},   {cr::distribution::standard_t, 5.0, 0},
};

template <class T, class S>
ca::cl_array<T, S> draw(cr::generator& g, const real_case& c, std::size_t n) {
    const T a = static_cast<T>(c.p0), b = static_cast<T>(c.p1);
    switch (c.d) {
    case cr::distribution::exponential:
        return g.exponential<T, S>(test::q(), {n}, a);
    case cr::distribution::gamma:
        return g.gamma<T, S>(test::q(), {n}, a, b);
    case cr::distribution::beta:
        return g.beta<T, S>(test::q(), {n}, a, b);
    case cr::distribution::lognormal:
        return g.lognormal<T, S>(test::q(), {n}, a, b);
    case cr::distribution::chisquare:
        return g.chisquare<T, S>(test::q(), {n}, a);
    default:
        return g.standard_t<T, S>(test::q(), {n}, a);
    }
}

const char* name_of(cr::distribution d) {
    switch (d) {
    case cr::distribution::exponential:
        return "exponential";
    case cr::distribution::gamma:
        return "gamma";
    case cr::distribution::beta:
        return "beta";
    case cr::distribution::lognormal:
        return "lognormal";
    case cr::distribution::chisquare:
        return "chisquare";
    default:
        return "standard_t";
    }
}

} // namespace

TEMPLATE_LIST_TEST_CASE("random distributions: device values equal the host reference",
                        "[random][distributions]", param_list) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    const std::size_t n = 777;
    for (const real_case& c : real_cases) {
        INFO(name_of(c.d) << "(" << c.p0 << ", " << c.p1 << ")");
        cr::generator g(0x5eed0000ULL + static_cast<unsigned>(c.d), cr::algorithm::philox4x32_10);
        g = g.stream(2);
        g.advance(13);
        const cr::generator before = g;
        const std::vector<T> got = to_vector(draw<T, S>(g, c, n));
        CHECK(g.position() == before.position() + n);
        std::size_t bad = 0;
        double worst = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const T want = reference<T>(before, c.d, before.position() + i, c.p0, c.p1);
            const double err =
                std::fabs(double(got[i]) - double(want)) / std::max(std::fabs(double(want)), 1e-30);
            worst = std::max(worst, err);
            if (!(err <= tolerance<T>()) && bad++ < 3)
                FAIL_CHECK("element " << i << ": device " << got[i] << ", reference " << want);
        }
        INFO("largest relative difference " << worst);
        CHECK(bad == 0);
    }
    // One Threefry draw: the sequence follows the algorithm.
    cr::generator t(9, cr::algorithm::threefry4x32_20);
    const std::vector<T> gt = to_vector(t.gamma<T, S>(test::q(), {64}, T(2.5), T(1)));
    for (std::size_t i = 0; i < gt.size(); ++i)
        CHECK(std::fabs(double(gt[i]) -
                        double(reference<T>(cr::generator(9, cr::algorithm::threefry4x32_20),
                                            cr::distribution::gamma, i, 2.5, 1.0))) <=
              tolerance<T>() * std::fabs(double(gt[i])));
    if constexpr (std::is_same_v<T, double>) {
        // binomial and poisson (int64, computed in double): exactly the reference, on both
        // methods of each and on both sides of p = 1/2.
        struct binomial_case {
            std::int64_t n;
            double p;
        };
        for (const binomial_case& b :
             {binomial_case{15, 0.3}, binomial_case{1000, 0.4}, binomial_case{200, 0.97},
              binomial_case{0, 0.5}, binomial_case{50, 1.0}, binomial_case{123456789, 0.25}}) {
            cr::generator g(31);
            g.advance(5);
            const std::vector<std::int64_t> got =
                to_vector(g.binomial<S>(test::q(), {500}, b.n, b.p));
            std::size_t bad = 0;
            for (std::size_t i = 0; i < got.size(); ++i) {
                const std::int64_t want = binomial_reference(cr::generator(31), 5 + i, b.n, b.p);
                if (got[i] != want && bad++ < 3)
                    FAIL_CHECK("binomial(" << b.n << ", " << b.p << ") element " << i << ": "
                                           << got[i] << ", reference " << want);
            }
            CHECK(bad == 0);
        }
        for (double lam : {0.0, 2.5, 9.99, 10.0, 75.0, 1e7}) {
            cr::generator g(32);
            const std::vector<std::int64_t> got = to_vector(g.poisson<S>(test::q(), {500}, lam));
            std::size_t bad = 0;
            for (std::size_t i = 0; i < got.size(); ++i) {
                const std::int64_t want = poisson_reference(cr::generator(32), i, lam);
                if (got[i] != want && bad++ < 3)
                    FAIL_CHECK("poisson(" << lam << ") element " << i << ": " << got[i]
                                          << ", reference " << want);
            }
            CHECK(bad == 0);
        }
    }
}

TEMPLATE_LIST_TEST_CASE("random distributions: permutation, shuffle and choice",
                        "[random][distributions]", test::all_policies) {
    using S = typename TestType::storage;
    if (!test::storage_available<S>()) return;
    SECTION("permutation(n) is the stable argsort of the reference keys") {
        cr::generator g(44);
        g.advance(3); // an odd start: keys straddle blocks
        const std::vector<std::int64_t> got = to_vector(g.permutation<S>(test::q(), 1001));
        CHECK(got == permutation_reference(cr::generator(44), 3, 1001));
        CHECK(g.position() == 3 + 1001);
        std::vector<std::int64_t> sorted = got;
        std::sort(sorted.begin(), sorted.end());
        std::vector<std::int64_t> iota(1001);
        std::iota(iota.begin(), iota.end(), 0);
        CHECK(sorted == iota);
    }
    SECTION("permutation(a) and shuffle keep rows (columns) intact") {
        // a[i, j] = 10 i + j: a row of the result is a row of a when its entries are 10 r + j.
        const std::size_t rows = 37, cols = 5;
        std::vector<float> host(rows * cols);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                host[i * cols + j] = float(10 * i + j);
        auto a = ca::to_device<S>(test::q(), host).reshape({rows, cols});
        cr::generator g(45);
        const std::vector<float> p = to_vector(g.permutation(a));
        const std::vector<std::int64_t> perm = permutation_reference(cr::generator(45), 0, rows);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                CHECK(p[i * cols + j] == host[perm[i] * cols + j]);
        // An expression: evaluated, then permuted as an array.
        cr::generator g2(45);
        const std::vector<float> pe = to_vector(g2.permutation(a * 2.0f));
        for (std::size_t i = 0; i < p.size(); ++i)
            CHECK(pe[i] == 2 * p[i]);
        // In place along axis 1 of a transposed view (its columns are a's rows).
        auto t = a.transpose();
        cr::generator h(46);
        h.shuffle(t, 1);
        const std::vector<std::int64_t> tperm = permutation_reference(cr::generator(46), 0, rows);
        const std::vector<float> after = to_vector(a);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                CHECK(after[i * cols + j] == host[tperm[i] * cols + j]);
        // Along axis 0 of the transposed view: the columns of a move.
        h.shuffle(t, 0);
        const std::vector<std::int64_t> cperm =
            permutation_reference(cr::generator(46), rows, cols);
        const std::vector<float> again = to_vector(a);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                CHECK(again[i * cols + j] == after[i * cols + cperm[j]]);
    }
    SECTION("empty draws consume nothing") {
        cr::generator g(48);
        CHECK(g.permutation<S>(test::q(), 0).size() == 0);
        CHECK(g.choice<S>(test::q(), 5, {0}).size() == 0);
        CHECK(g.choice<S>(test::q(), 0, {0}, false).size() == 0);
        auto e = ca::zeros<float, S>(test::q(), {0, 3});
        g.shuffle(e, 0);
        CHECK(g.permutation(e).shape() == e.shape());
        CHECK(g.exponential<float, S>(test::q(), {0}).size() == 0);
        CHECK(g.position() == 0);
    }
    SECTION("choice without replacement: no repeats, the permutation's prefix") {
        cr::generator g(47);
        const std::vector<std::int64_t> c = to_vector(g.choice<S>(test::q(), 50, {4, 5}, false));
        const std::vector<std::int64_t> perm = permutation_reference(cr::generator(47), 0, 50);
        CHECK(c == std::vector<std::int64_t>(perm.begin(), perm.begin() + 20));
        std::vector<std::int64_t> s = c;
        std::sort(s.begin(), s.end());
        CHECK(std::adjacent_find(s.begin(), s.end()) == s.end());
        // With p: no repeats, no entry of probability 0.
        if (test::ctx().device().has_fp64()) {
            std::vector<double> p(30, 0.0);
            for (std::size_t i = 0; i < 30; i += 2)
                p[i] = 1.0 / 15;
            const std::vector<std::int64_t> w =
                to_vector(g.choice<S>(test::q(), 30, {15}, false, p));
            std::vector<std::int64_t> ws = w;
            std::sort(ws.begin(), ws.end());
            CHECK(std::adjacent_find(ws.begin(), ws.end()) == ws.end());
            for (std::int64_t i : w)
                CHECK(i % 2 == 0);
        }
        // Rows of an array, with replacement: each result row is a row of a.
        auto a = ca::arange<std::int32_t, S>(test::q(), 0, 12, 1).reshape({6, 2});
        const std::vector<std::int32_t> r = to_vector(g.choice(a, {9}, true));
        REQUIRE(r.size() == 18);
        CHECK(g.choice(a + 1, {2, 3}).shape() == ca::shape_type{2, 3, 2});
        for (std::size_t i = 0; i < 9; ++i) {
            CHECK(r[2 * i] % 2 == 0);
            CHECK(r[2 * i + 1] == r[2 * i] + 1);
        }
    }
}

TEMPLATE_LIST_TEST_CASE("random distributions: draws, permutations and choices do not block",
                        "[random][distributions]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::context& ctx = test::ctx();
    ca::queue q(ctx);
    ca::kernel writer =
        ca::program(ctx, "kernel void w(global float* a) { a[get_global_id(0)] = 2.0f; }")
            .kernel("w");
    test::host_wait_gate gate(ctx);
    auto a = ca::empty<float, S>(q, {6, 4});
    writer.launch(q, {a.size()}, {}, {gate.event()}, ca::out(a));
    // Everything below is enqueued behind the held write (an in-order queue).
    cr::generator g(77);
    const auto e = g.gamma<float, S>(q, {100}, 0.5f, 1.0f);
    const auto perm = g.permutation<S>(q, 50);
    g.shuffle(a, 1);
    const auto rows = g.permutation(a);
    const auto c = g.choice<S>(q, 10, {4}, false);
    ca::cl_array<std::int64_t, S> k, w, v;
    const bool fp64 = ctx.device().has_fp64();
    if (fp64) {
        k = g.poisson<S>(q, {100}, 20.0);
        w = g.choice<S>(q, 3, {8}, true, {0.2, 0.3, 0.5});
        v = g.choice<S>(q, 3, {2}, false, {0.2, 0.3, 0.5});
    }
    CHECK(gate.release());
    const auto all_two = [](const std::vector<float>& x) {
        return std::all_of(x.begin(), x.end(), [](float f) { return f == 2.0f; });
    };
    CHECK(all_two(to_vector(a)));
    CHECK(all_two(to_vector(rows)));
    CHECK(to_vector(perm) == permutation_reference(cr::generator(77), 100, 50));
    CHECK(c.size() == 4);
    CHECK(e.size() == 100);
    if (fp64) {
        const std::vector<std::int64_t> ws = to_vector(w);
        CHECK(std::all_of(ws.begin(), ws.end(), [](std::int64_t i) { return i >= 0 && i < 3; }));
        const std::vector<std::int64_t> vs = to_vector(v);
        CHECK(vs[0] != vs[1]);
    }
}

TEST_CASE("random distributions: moments and Kolmogorov-Smirnov", "[random][distributions]") {
    using st = ca::buffer;
    const std::size_t n = 1 << 16;
    const auto run = [&](auto zero) {
        using T = decltype(zero);
        for (const real_case& c : real_cases) {
            INFO(name_of(c.d) << "(" << c.p0 << ", " << c.p1 << ") " << sizeof(T) * 8 << "-bit");
            cr::generator g(1234 + static_cast<unsigned>(c.d));
            const std::vector<T> v = to_vector(draw<T, st>(g, c, n));
            double mean = 0, sq = 0;
            for (T x : v) {
                mean += x;
                sq += double(x) * x;
            }
            mean /= n;
            const double var = sq / n - mean * mean;
            // The exact mean and variance, and the cdf.
            double mu = 0, sigma2 = 0;
            std::function<double(double)> cdf;
            const double a = c.p0, b = c.p1;
            switch (c.d) {
            case cr::distribution::exponential:
                mu = a, sigma2 = a * a;
                cdf = [a](double x) { return x <= 0 ? 0 : -std::expm1(-x / a); };
                break;
            case cr::distribution::gamma:
                mu = a * b, sigma2 = a * b * b;
                cdf = [a, b](double x) { return gamma_p(a, x / b); };
                break;
            case cr::distribution::beta:
                mu = a / (a + b), sigma2 = a * b / ((a + b) * (a + b) * (a + b + 1));
                cdf = [a, b](double x) { return beta_i(a, b, x); };
                break;
            case cr::distribution::lognormal:
                mu = std::exp(a + b * b / 2);
                sigma2 = std::expm1(b * b) * std::exp(2 * a + b * b);
                cdf = [a, b](double x) {
                    return x <= 0 ? 0 : 0.5 * std::erfc(-(std::log(x) - a) / (b * std::sqrt(2.0)));
                };
                break;
            case cr::distribution::chisquare:
                mu = a, sigma2 = 2 * a;
                cdf = [a](double x) { return gamma_p(a / 2, x / 2); };
                break;
            default: // t with df a = 5: variance a / (a - 2), finite kurtosis
                mu = 0, sigma2 = a / (a - 2);
                cdf = [a](double x) {
                    const double tail = 0.5 * beta_i(a / 2, 0.5, a / (a + x * x));
                    return x < 0 ? tail : 1 - tail;
                };
                break;
            }
            // The mean within 5.3 standard errors (two-sided probability about 1e-7).
            CHECK(std::fabs(mean - mu) < 5.3 * std::sqrt(sigma2 / n));
            // The variance within 15 %: the sample variance's relative standard deviation,
            // sqrt((kurtosis - 1) / n), is at most 0.017 for these parameters (gamma(0.35),
            // kurtosis 20), so 15 % is more than 8 of them.
            CHECK(std::fabs(var - sigma2) < 0.15 * sigma2);
            const double ks = ks_statistic(v, cdf);
            INFO("KS sqrt(n) D = " << ks);
            CHECK(ks < ks_bound);
        }
    };
    run(float{});
    if (test::ctx().device().has_fp64()) run(double{});
}

TEST_CASE("random distributions: binomial and poisson chi-square", "[random][distributions]") {
    if (!test::ctx().device().has_fp64()) return;
    using st = ca::buffer;
    const std::size_t n = 1 << 16;
    struct binomial_case {
        std::int64_t trials;
        double p;
    };
    for (const binomial_case& b :
         {binomial_case{20, 0.3}, binomial_case{400, 0.35}, binomial_case{60, 0.8}}) {
        INFO("binomial(" << b.trials << ", " << b.p << ")");
        cr::generator g(555);
        const std::vector<std::int64_t> v =
            to_vector(g.binomial<st>(test::q(), {n}, b.trials, b.p));
        const auto pmf = [&](std::int64_t k) {
            const double t = double(b.trials);
            return std::exp(std::lgamma(t + 1) - std::lgamma(k + 1.0) - std::lgamma(t - k + 1) +
                            k * std::log(b.p) + (t - k) * std::log1p(-b.p));
        };
        std::size_t cells = 0;
        const double chi = chi_square_discrete(v, pmf, b.trials, cells);
        INFO("chi-square " << chi << " over " << cells << " cells");
        CHECK(cells > 5);
        CHECK(chi < chi_square_bound(double(cells - 1)));
        bool in_range = true;
        for (std::int64_t x : v)
            in_range = in_range && x >= 0 && x <= b.trials;
        CHECK(in_range);
    }
    for (double lam : {3.5, 42.0, 1000.0}) {
        INFO("poisson(" << lam << ")");
        cr::generator g(556);
        const std::vector<std::int64_t> v = to_vector(g.poisson<st>(test::q(), {n}, lam));
        const auto pmf = [&](std::int64_t k) {
            return std::exp(k * std::log(lam) - lam - std::lgamma(k + 1.0));
        };
        std::size_t cells = 0;
        const double chi = chi_square_discrete(
            v, pmf, static_cast<std::int64_t>(lam + 20 * std::sqrt(lam) + 20), cells);
        INFO("chi-square " << chi << " over " << cells << " cells");
        CHECK(cells > 5);
        CHECK(chi < chi_square_bound(double(cells - 1)));
    }
}

TEST_CASE("random distributions: choice frequencies", "[random][distributions]") {
    if (!test::ctx().device().has_fp64()) return;
    using st = ca::buffer;
    SECTION("with replacement, by p") {
        const std::vector<double> p = {0.1, 0.0, 0.25, 0.4, 0.05, 0.2};
        const std::size_t n = 1 << 16;
        cr::generator g(600);
        const std::vector<std::int64_t> v = to_vector(g.choice<st>(test::q(), 6, {n}, true, p));
        std::size_t cells = 0;
        CHECK(std::count(v.begin(), v.end(), std::int64_t(1)) == 0);
        const double chi = chi_square_discrete(
            v, [&](std::int64_t k) { return k < 6 ? p[k] : 0.0; }, 5, cells);
        INFO("chi-square " << chi);
        CHECK(cells == 5);
        CHECK(chi < chi_square_bound(4));
    }
    SECTION("without replacement, by p: ordered pairs as successive draws") {
        // One sample per call: coarse SVM, where pocl's sorts of small arrays take the host sort
        // (a Buffer takes the radix sort's passes, far slower per call).
        if (!test::storage_available<ca::svm_coarse>()) return;
        // P(first i, then j) = p_i p_j / (1 - p_i).
        const std::vector<double> p = {0.5, 0.3, 0.2};
        cr::generator g(601);
        const std::size_t draws = 1500;
        std::vector<double> counts(9, 0);
        for (std::size_t t = 0; t < draws; ++t) {
            const std::vector<std::int64_t> v =
                to_vector(g.choice<ca::svm_coarse>(test::q(), 3, {2}, false, p));
            REQUIRE(v[0] != v[1]);
            counts[v[0] * 3 + v[1]] += 1;
        }
        double chi = 0;
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 3; ++j) {
                if (i == j) continue;
                const double e = draws * p[i] * p[j] / (1 - p[i]);
                chi += (counts[i * 3 + j] - e) * (counts[i * 3 + j] - e) / e;
            }
        INFO("chi-square " << chi << " for 5 degrees of freedom");
        CHECK(chi < chi_square_bound(5));
    }
    SECTION("a permutation's blocks of 4 take each of the 24 orders equally often") {
        // For a uniformly random permutation the relative orders of the values in disjoint
        // blocks of positions are independent and uniform over the 24 orders of 4.
        const std::size_t blocks = 6000;
        cr::generator g(602);
        const std::vector<std::int64_t> v = to_vector(g.permutation<st>(test::q(), 4 * blocks));
        std::vector<double> counts(24, 0);
        for (std::size_t b = 0; b < blocks; ++b) {
            std::array<int, 4> order = {0, 1, 2, 3};
            std::sort(order.begin(), order.end(),
                      [&](int x, int y) { return v[4 * b + x] < v[4 * b + y]; });
            // The order's index among the 24 (Lehmer code).
            std::size_t code = 0;
            for (int i = 0; i < 4; ++i) {
                int smaller = 0;
                for (int j = i + 1; j < 4; ++j)
                    smaller += order[j] < order[i];
                code = code * (4 - i) + smaller;
            }
            counts[code] += 1;
        }
        double chi = 0;
        const double e = blocks / 24.0;
        for (double c : counts)
            chi += (c - e) * (c - e) / e;
        INFO("chi-square " << chi << " for 23 degrees of freedom");
        CHECK(chi < chi_square_bound(23));
    }
}

using mvn_list = std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<double, ca::buffer>>;
TEMPLATE_LIST_TEST_CASE("random distributions: multivariate_normal", "[random][distributions]",
                        mvn_list) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    const std::vector<T> mean = {T(1), T(-2), T(0.5)};
    const std::vector<T> cov = {T(4), T(1.2), T(-0.6), T(1.2), T(2), T(0.3), T(-0.6), T(0.3), T(1)};
    auto m = ca::to_device<S>(test::q(), mean);
    auto c = ca::to_device<S>(test::q(), cov).reshape({3, 3});
    const std::size_t n = 20000;
    cr::generator g(700);
    ca::cl_array<T, S> x;
    try {
        x = g.multivariate_normal(m, c, {n});
    } catch (const ca::unsupported& e) {
        WARN("skipped: " << e.what()); // built without LAPACKE
        return;
    }
    REQUIRE(x.shape() == ca::shape_type{n, 3});
    // x = mean + L z with z the normals a copy of the generator draws.
    cr::generator h(700);
    const std::vector<T> z = to_vector(h.normal<T, S>(test::q(), {n, 3}));
    const std::vector<T> L = to_vector(ca::linalg::cholesky(c));
    const std::vector<T> got = to_vector(x);
    // mean as an expression: evaluated first, the same values.
    cr::generator g3(700);
    CHECK(to_vector(g3.multivariate_normal(m + T(0), c, {n})) == got);
    std::size_t bad = 0;
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t i = 0; i < 3; ++i) {
            double want = mean[i];
            for (std::size_t j = 0; j <= i; ++j)
                want += double(L[i * 3 + j]) * z[r * 3 + j];
            if (std::fabs(want - got[r * 3 + i]) >
                (std::is_same_v<T, float> ? 1e-4 : 1e-10) * (1 + std::fabs(want)))
                ++bad;
        }
    CHECK(bad == 0);
    // Sample mean and covariance: each entry within 6 standard errors (var of the (i, j) entry
    // estimate: (c_ii c_jj + c_ij^2) / n).
    for (std::size_t i = 0; i < 3; ++i) {
        double s = 0;
        for (std::size_t r = 0; r < n; ++r)
            s += got[r * 3 + i];
        CHECK(std::fabs(s / n - mean[i]) < 6 * std::sqrt(cov[i * 4] / n));
        for (std::size_t j = 0; j < 3; ++j) {
            double sij = 0;
            for (std::size_t r = 0; r < n; ++r)
                sij += (got[r * 3 + i] - mean[i]) * (got[r * 3 + j] - mean[j]);
            const double se =
                std::sqrt((cov[i * 4] * cov[j * 4] + cov[i * 3 + j] * cov[i * 3 + j]) / n);
            CHECK(std::fabs(sij / n - cov[i * 3 + j]) < 6 * se);
        }
    }
}

TEST_CASE("random distributions: bad parameters name them", "[random][distributions][errors]") {
    using st = ca::buffer;
    using catch_compat::Contains;
    auto& q = test::q();
    cr::generator g(1);
    const auto rejects = [&](const std::function<void()>& f, const std::string& word) {
        const std::uint64_t before = g.position();
        CHECK_THROWS_WITH(f(), Contains(word));
        CHECK(g.position() == before); // a rejected draw consumes nothing
    };
    CHECK_THROWS_AS((g.exponential<float, st>(q, {4}, -1.0f)), ca::usage_error);
    rejects([&] { g.exponential<float, st>(q, {4}, -1.0f); }, "scale");
    rejects([&] { g.gamma<float, st>(q, {4}, -0.5f, 1.0f); }, "shape");
    rejects([&] { g.gamma<float, st>(q, {4}, 2.0f, -1.0f); }, "scale");
    rejects([&] { g.beta<float, st>(q, {4}, 0.0f, 1.0f); }, "a must be");
    rejects([&] { g.beta<float, st>(q, {4}, 1.0f, NAN); }, "b must be");
    rejects([&] { g.lognormal<float, st>(q, {4}, 0.0f, -2.0f); }, "sigma");
    rejects([&] { g.chisquare<float, st>(q, {4}, 0.0f); }, "df");
    rejects([&] { g.standard_t<float, st>(q, {4}, -3.0f); }, "df");
    rejects([&] { g.binomial<st>(q, {4}, -1, 0.5); }, "n must be");
    rejects([&] { g.binomial<st>(q, {4}, 10, 1.5); }, "p must be");
    rejects([&] { g.poisson<st>(q, {4}, -1.0); }, "lam");
    CHECK_THROWS_AS(g.choice<st>(q, 3, {4}, true, {0.5, 0.5, 0.5}), ca::usage_error);
    rejects([&] { g.choice<st>(q, 3, {4}, true, {0.5, 0.5, 0.5}); }, "p must sum to 1");
    rejects([&] { g.choice<st>(q, 3, {4}, true, {0.5, 0.7, -0.2}); }, "p must be non-negative");
    rejects([&] { g.choice<st>(q, 3, {4}, true, {0.5, 0.5}); }, "p has 2 entries");
    rejects([&] { g.choice<st>(q, 3, {4}, false); }, "size");
    rejects([&] { g.choice<st>(q, 3, {3}, false, {0.5, 0.5, 0.0}); }, "non-zero entries");
    auto m = ca::zeros<double, st>(q, {3});
    CHECK_THROWS_AS(g.multivariate_normal(m, ca::zeros<double, st>(q, {3, 2})), ca::shape_error);
    rejects([&] { g.multivariate_normal(m, ca::zeros<double, st>(q, {3, 2})); }, "cov");
    rejects([&] { g.multivariate_normal(ca::zeros<double, st>(q, {3, 3}), m); }, "mean");
    const std::vector<double> asym = {1, 0.5, 0, 0.2, 1, 0, 0, 0, 1};
    rejects(
        [&] {
            g.multivariate_normal(m, ca::to_device<st>(q, asym).reshape({3, 3}));
        },
        "cov must be symmetric");
    const std::vector<double> indefinite = {1, 2, 0, 2, 1, 0, 0, 0, 1};
    try {
        g.multivariate_normal(m, ca::to_device<st>(q, indefinite).reshape({3, 3}));
        FAIL("an indefinite cov was accepted");
    } catch (const ca::linalg_error& e) {
        CHECK_THAT(e.what(), Contains("cov is not positive definite"));
    } catch (const ca::unsupported&) {
        WARN("skipped: built without LAPACKE");
    }
    // dtypes: int64 binomial only; other dtypes of the real distributions fail to compile.
    CHECK_THROWS_AS((g.exponential<double, st>(q, {0}, -1.0)), ca::usage_error);
}
