// k-means on the device: N points in 2-d around K true centres, K centroids. Each step computes
// every point's distances to the centroids by broadcasting (one kernel), the nearest centroid by
// argmin along axis 1, and the new centroids by add_at (np.add.at: atomic sums per label) and
// label counts. Checks the first step against the same step computed on the host and prints the
// centroids after a few steps; exits non-zero when the check fails.
#include <clarray/clarray.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace ca = clarray;

int main(int argc, char** argv) {
    try {
        const std::size_t N = 100000, K = 8;
        const std::size_t steps = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10;
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        ca::random::generator gen(7);

        // Points: K clusters with centres on a circle of radius 10, spread 1.
        auto centre = gen.integers<std::int32_t>(q, {N}, 0, static_cast<std::int32_t>(K));
        auto noise = gen.normal<float>(q, {N, 2});
        const float step = 2.0f * 3.14159265f / static_cast<float>(K);
        ca::cl_array<float> points(q, {N, 2});
        points(ca::all(), 0) =
            10.0f * ca::cos(ca::astype<float>(centre) * step) + noise(ca::all(), 0);
        points(ca::all(), 1) =
            10.0f * ca::sin(ca::astype<float>(centre) * step) + noise(ca::all(), 1);
        // Initial centroids: the first K points.
        ca::cl_array<float> centroids = points(ca::range(0, static_cast<std::ptrdiff_t>(K))).copy();

        auto px = points(ca::all(), 0), py = points(ca::all(), 1);
        for (std::size_t s = 0; s < steps; ++s) {
            auto cx = centroids(ca::all(), 0), cy = centroids(ca::all(), 1);
            auto dx = px(ca::all(), ca::newaxis()) - cx(ca::newaxis(), ca::all());
            auto dy = py(ca::all(), ca::newaxis()) - cy(ca::newaxis(), ca::all());
            ca::cl_array<float> dist = dx * dx + dy * dy; // (N, K), one kernel
            auto labels = ca::argmin(dist, 1);            // (N,) int64
            auto sums = ca::zeros<float>(q, {K, 2});
            auto counts = ca::zeros<std::int32_t>(q, {K});
            ca::add_at(sums, labels, points); // sums[labels[i], :] += points[i, :]
            ca::add_at(counts, labels, 1);
            // Empty clusters keep their centroid.
            ca::cl_array<float> n = ca::astype<float>(ca::maximum(counts, 1));
            ca::cl_array<float> next = ca::where(counts(ca::all(), ca::newaxis()) > 0,
                                                 sums / n(ca::all(), ca::newaxis()), centroids);
            if (s == 0) { // the host's first step from the same centroids
                auto hp = points.get();
                auto hc = centroids.get();
                auto hl = labels.get();
                std::vector<double> hs(2 * K, 0.0);
                std::vector<std::int64_t> hn(K, 0);
                std::size_t mismatched = 0;
                for (std::size_t i = 0; i < N; ++i) {
                    std::size_t best = 0;
                    float bd = 0;
                    for (std::size_t k = 0; k < K; ++k) {
                        const float ddx = hp(i, 0) - hc(k, 0), ddy = hp(i, 1) - hc(k, 1);
                        const float d = ddx * ddx + ddy * ddy;
                        if (k == 0 || d < bd) bd = d, best = k;
                    }
                    mismatched += hl(i) != static_cast<std::int64_t>(best);
                    hs[2 * best] += hp(i, 0);
                    hs[2 * best + 1] += hp(i, 1);
                    ++hn[best];
                }
                auto hnext = next.get();
                double worst = 0;
                for (std::size_t k = 0; k < K; ++k)
                    for (std::size_t d = 0; d < 2 && hn[k]; ++d)
                        worst = std::fmax(worst, std::fabs(hnext(k, d) - hs[2 * k + d] / hn[k]));
                std::cout << "step 1 against the host: " << mismatched
                          << " labels differ, largest centroid difference " << worst << "\n";
                if (mismatched || worst > 1e-3) return 1;
            }
            centroids = std::move(next);
        }
        std::cout << "device:    " << ctx.device().name() << "\n"
                  << "centroids after " << steps << " steps:\n"
                  << centroids << "\n";
        return 0;
    } catch (const ca::error& e) {
        std::cerr << "kmeans: " << e.what() << "\n";
        return 2;
    }
}
