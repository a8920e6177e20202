// Fits a cubic polynomial to noisy samples by least squares through the normal equations:
// the design matrix X (n x k, columns 1, x, x^2, x^3) and the products G = X^T X (k x k) and
// h = X^T y (k) are computed on the device with clarray::matmul (CLBlast's GEMM and GEMV on
// a transposed view, without copies); the small k x k system G c = h is solved on the host.
// Prints the fitted coefficients next to the true ones; exits non-zero when one is off by more
// than 0.05 (the noise's standard deviation is 0.01 over n = 200000 samples).
#include <clarray/clarray.hpp>

#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <utility>
#include <vector>

namespace ca = clarray;

namespace {
// Gaussian elimination with partial pivoting of the k x k system g c = h (row-major g).
std::vector<double> solve(std::vector<double> g, std::vector<double> h) {
    const std::size_t k = h.size();
    for (std::size_t col = 0; col < k; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < k; ++r)
            if (std::abs(g[r * k + col]) > std::abs(g[pivot * k + col])) pivot = r;
        for (std::size_t c = 0; c < k; ++c)
            std::swap(g[col * k + c], g[pivot * k + c]);
        std::swap(h[col], h[pivot]);
        for (std::size_t r = col + 1; r < k; ++r) {
            const double f = g[r * k + col] / g[col * k + col];
            for (std::size_t c = col; c < k; ++c)
                g[r * k + c] -= f * g[col * k + c];
            h[r] -= f * h[col];
        }
    }
    std::vector<double> c(k);
    for (std::size_t r = k; r-- > 0;) {
        double s = h[r];
        for (std::size_t j = r + 1; j < k; ++j)
            s -= g[r * k + j] * c[j];
        c[r] = s / g[r * k + r];
    }
    return c;
}
} // namespace

int main(int argc, char** argv) {
    try {
        const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200000;
        const std::vector<double> truth = {0.5, -2.0, 3.0, 1.25}; // c0 + c1 x + c2 x^2 + c3 x^3
        const std::size_t k = truth.size();
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        ca::random::generator gen(7);

        // The design matrix, one column per power of x in [-1, 1).
        const auto x = gen.uniform<double>(q, {n}, -1.0, 1.0);
        ca::cl_array<double> X(q, {n, k});
        X(ca::all(), 0).fill(1.0);
        for (std::size_t j = 1; j < k; ++j) {
            auto col = X(ca::all(), j);
            col = X(ca::all(), j - 1) * x;
        }
        // Observations: the true polynomial plus noise.
        ca::cl_array<double> c_true(q, {k});
        c_true.set(truth);
        ca::cl_array<double> y = ca::matmul(X, c_true);
        y += 0.01 * gen.normal<double>(q, {n});

        // Normal equations: X^T is a transposed view, which CLBlast reads with its transpose flag.
        const auto Xt = X.transpose();
        const auto G = ca::matmul(Xt, X);                    // k x k
        const auto h = ca::matmul(Xt, y);                    // k
        const xt::xarray<double> Gh = G.get(), hh = h.get(); // the only waits
        const std::vector<double> fit = solve(std::vector<double>(Gh.begin(), Gh.end()),
                                              std::vector<double>(hh.begin(), hh.end()));

        std::cout << "device: " << ctx.device().name() << "\nsamples: " << n << "\n"
                  << std::fixed << std::setprecision(5) << "power       true     fitted\n";
        double worst = 0;
        for (std::size_t j = 0; j < k; ++j) {
            std::cout << "x^" << j << "    " << std::setw(10) << truth[j] << " " << std::setw(10)
                      << fit[j] << "\n";
            worst = std::max(worst, std::abs(fit[j] - truth[j]));
        }
        std::cout << "largest coefficient error: " << worst << "\n";
        return worst < 0.05 ? 0 : 1;
    } catch (const ca::error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
