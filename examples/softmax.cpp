// A small whole program: the softmax of each row of a matrix (a max reduction, exp of a
// broadcast difference, a sum reduction, a division), checked against a host computation, with
// the time from start to the first result. Its kernels are compiled on first use, so a cold
// start is mostly OpenCL C compilation: run it twice to see the on-disk program cache
// (CLARRAY_CACHE_DIR) at work. Exits non-zero on a mismatch.
#include <clarray/clarray.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

namespace ca = clarray;

int main() {
    const auto start = std::chrono::steady_clock::now();
    try {
        const std::size_t rows = 256, cols = 384;
        std::vector<float> hx(rows * cols);
        for (std::size_t i = 0; i < hx.size(); ++i)
            hx[i] = float((i * 7) % 41) * 0.25f - 5.0f;

        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        ca::cl_array<float> x = ca::to_device(q, hx).reshape({rows, cols});
        auto m = ca::max(x, {1}, true);
        ca::cl_array<float> e = ca::exp(x - m);
        auto s = ca::sum(e, {1}, true);
        ca::cl_array<float> y = e / s;
        xt::xarray<float> got = y.get();
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();

        double worst = 0;
        for (std::size_t r = 0; r < rows; ++r) {
            const float* xr = hx.data() + r * cols;
            float mx = xr[0];
            for (std::size_t c = 1; c < cols; ++c)
                mx = std::max(mx, xr[c]);
            double sum = 0;
            for (std::size_t c = 0; c < cols; ++c)
                sum += std::exp(double(xr[c]) - mx);
            for (std::size_t c = 0; c < cols; ++c)
                worst = std::max(worst, std::abs(got(r, c) - std::exp(double(xr[c]) - mx) / sum));
        }
        const ca::program_cache_stats st = ca::program_cache_statistics();
        std::printf("softmax of %zu x %zu: max error %.2e, %.1f ms to the first result "
                    "(programs built %llu, loaded from the cache %llu)\n",
                    rows, cols, worst, ms, static_cast<unsigned long long>(st.builds),
                    static_cast<unsigned long long>(st.loads));
        return worst <= 1e-6 ? 0 : 1;
    } catch (const ca::error& err) {
        std::fprintf(stderr, "softmax: %s\n", err.what());
        return 1;
    }
}
