// Estimates pi from uniform points in the unit square: the fraction inside the quarter disc is
// pi / 4. The points come from clarray::random (counter-based, so the estimate is the same on
// every device for one seed), the count from one fused reduction per batch. Prints the estimate,
// its error and the expected statistical error; exits non-zero when the error exceeds six times
// the expected one.
#include <clarray/clarray.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>

namespace ca = clarray;

int main(int argc, char** argv) {
    try {
        const std::size_t batch = std::size_t(1) << 22; // points per batch
        const std::size_t batches = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 16;
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        ca::random::generator gen(2024);

        std::int64_t inside = 0;
        for (std::size_t b = 0; b < batches; ++b) {
            // Row 0 the x coordinates, row 1 the y coordinates; each batch continues the
            // generator's sequence.
            auto p = gen.uniform<float>(q, {2, batch});
            auto x = p(0), y = p(1);
            inside += ca::sum(x * x + y * y < 1.0f).item();
        }
        const double n = double(batch) * double(batches);
        const double estimate = 4.0 * double(inside) / n;
        const double pi = 3.14159265358979323846;
        const double sigma = 4.0 * std::sqrt(pi / 4 * (1 - pi / 4) / n);
        std::cout.precision(8);
        std::cout << "device:   " << ctx.device().name() << "\n"
                  << "points:   " << n << "\n"
                  << "pi ~      " << estimate << "\n"
                  << "error:    " << estimate - pi << " (expected statistical error " << sigma
                  << ")\n";
        return std::fabs(estimate - pi) <= 6 * sigma ? 0 : 1;
    } catch (const ca::error& e) {
        std::cerr << "monte_carlo_pi: " << e.what() << "\n";
        return 2;
    }
}
