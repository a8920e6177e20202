#include "clarray/random/sampling.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "clarray/error.hpp"

namespace clarray::random::detail {

namespace {
std::string number(double v) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
}
} // namespace

void check_choice(std::size_t n, std::size_t m, bool replace) {
    if (m > 0 && n == 0)
        throw usage_error("choice: a (or n) must not be empty unless no samples are taken");
    if (!replace && m > n)
        throw usage_error("choice: size (" + std::to_string(m) +
                          " samples) must not exceed the population (" + std::to_string(n) +
                          ") without replacement");
}

std::vector<double> choice_cdf(std::size_t n, const std::vector<double>& p, bool replace,
                               std::size_t m) {
    if (p.empty()) return {};
    if (p.size() != n)
        throw usage_error("choice: p has " + std::to_string(p.size()) +
                          " entries, the population " + std::to_string(n));
    // Kahan summation, as NumPy's check.
    double sum = 0, carry = 0;
    std::size_t nonzero = 0, last = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (std::isnan(p[i]))
            throw usage_error("choice: p contains NaN (entry " + std::to_string(i) + ")");
        if (p[i] < 0)
            throw usage_error("choice: p must be non-negative, entry " + std::to_string(i) +
                              " is " + number(p[i]));
        if (p[i] > 0) {
            ++nonzero;
            last = i;
        }
        const double y = p[i] - carry, t = sum + y;
        carry = (t - sum) - y;
        sum = t;
    }
    // NumPy's tolerance: sqrt of float64's epsilon.
    if (!std::isfinite(sum) || std::fabs(sum - 1) > 1.4901161193847656e-08)
        throw usage_error("choice: p must sum to 1, its sum is " + number(sum));
    if (!replace) {
        if (nonzero < m)
            throw usage_error("choice: p has " + std::to_string(nonzero) +
                              " non-zero entries, fewer than the " + std::to_string(m) +
                              " samples without replacement");
        return {};
    }
    std::vector<double> cdf(n);
    double running = 0;
    for (std::size_t i = 0; i < n; ++i) {
        running += p[i];
        cdf[i] = i >= last ? 1.0 : std::fmin(1.0, running / sum);
    }
    return cdf;
}

void check_mvn_shapes(const shape_type& mean, const shape_type& cov) {
    if (mean.size() != 1)
        throw shape_error("multivariate_normal: mean must be 1-d, its shape is " +
                          shape_to_string(mean));
    if (cov.size() != 2 || cov[0] != cov[1] || cov[0] != mean[0])
        throw shape_error(
            "multivariate_normal: cov must be square (k, k) with k = " + std::to_string(mean[0]) +
            " (mean's length), its shape is " + shape_to_string(cov));
}

template <class T> void check_symmetric(const std::vector<T>& values, std::size_t k) {
    for (std::size_t i = 0; i < k; ++i)
        for (std::size_t j = 0; j < i; ++j) {
            const T a = values[i * k + j], b = values[j * k + i];
            // NumPy's tolerance for cov (1e-8), relative to the entries.
            if (!(std::fabs(a - b) <= T(1e-8) * (std::fabs(a) + std::fabs(b)) || a == b))
                throw usage_error("multivariate_normal: cov must be symmetric, cov[" +
                                  std::to_string(i) + ", " + std::to_string(j) +
                                  "] = " + number(a) + " but cov[" + std::to_string(j) + ", " +
                                  std::to_string(i) + "] = " + number(b));
        }
}
template void check_symmetric<float>(const std::vector<float>&, std::size_t);
template void check_symmetric<double>(const std::vector<double>&, std::size_t);

} // namespace clarray::random::detail
