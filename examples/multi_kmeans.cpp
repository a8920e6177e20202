// k-means iterations written once for a sharded array of points: each part labels its points
// with the nearest centroid (argmin along axis 1, part by part), the per-cluster sums and counts
// are reductions along axis 0 (the parts' partial sums combined, over MPI with MPI_Allreduce),
// and the new centroids, replicated on every queue, are an element-wise expression of them.
// Run on two queues of one device, one part per device, or one part per MPI rank
// (multi_common.hpp); the labels and centroids must equal the single-device computation's bit
// for bit. They can because the points have small integer coordinates: every partial sum is an
// exact float, so the order in which the parts' sums combine (which differs from one device's
// reduction order) does not change them; with general float data the sums would differ in the
// last bits (docs/multi.md, "Bit-identical results").
//
//   multi_kmeans [one|two|mpi] [steps]
#include "multi_common.hpp"

#include <cstdint>
#include <cstdlib>

namespace {

const std::size_t N = 6000, K = 5;

// Points around K centres, integer coordinates in [-60, 60].
std::vector<float> points() {
    std::vector<float> h(N * 2);
    std::uint32_t s = 12345;
    auto next = [&s] { return s = s * 1664525u + 1013904223u; };
    for (std::size_t i = 0; i < N; ++i) {
        const int k = static_cast<int>(next() >> 29) % static_cast<int>(K);
        h[2 * i] = static_cast<float>(-40 + 20 * k + static_cast<int>(next() >> 28) - 8);
        h[2 * i + 1] = static_cast<float>(30 - 15 * k + static_cast<int>(next() >> 28) - 8);
    }
    return h;
}

// The nearest centroid of each point of a part (x: rows x 2, c: K x 2), int64.
template <class X, class C> auto nearest(const X& x, const C& c) {
    auto dx = x(ca::all(), ca::range(0, 1)) - c(ca::all(), 0)(ca::newaxis(), ca::all());
    auto dy = x(ca::all(), ca::range(1, 2)) - c(ca::all(), 1)(ca::newaxis(), ca::all());
    return ca::argmin(dx * dx + dy * dy, 1);
}
// Point i's row of the one-hot matrix of its label (rows x K), as float.
template <class L, class Ks> auto one_hot(const L& labels, const Ks& ks) {
    return ca::astype<float>(labels(ca::all(), ca::newaxis()) == ks(ca::newaxis(), ca::all()));
}
// The new centroids from the sums (K x 2) and counts (K); an empty cluster keeps its centroid.
template <class S, class N, class C>
auto next_centroids(const S& sums, const N& counts, const C& c) {
    return ca::where(counts(ca::all(), ca::newaxis()) > 0.0f,
                     sums / ca::maximum(counts(ca::all(), ca::newaxis()), 1.0f), c);
}

struct result {
    std::vector<float> centroids;
    std::vector<std::int64_t> labels;
};

template <class S> result sharded(const placement& p, std::size_t steps) {
    const auto& qs = p.queues;

    const std::vector<float> pts = points();
    std::vector<float> first(pts.begin(), pts.begin() + 2 * K);
    auto x = multi::scatter<float, S>(qs, pts, {N, 2}, p.options);
    auto c = multi::replicate<float, S>(qs, first, {K, 2});
    auto ks =
        multi::replicate(qs, ca::arange<std::int64_t, S>(qs[0], 0, static_cast<std::int64_t>(K)));
    multi::array<std::int64_t, S> labels;
    for (std::size_t s = 0; s < steps; ++s) {
        labels = multi::map([](const auto& xp, const auto& cp) { return nearest(xp, cp); }, x, c);
        multi::array<float, S> hot =
            multi::map([](const auto& l, const auto& k) { return one_hot(l, k); }, labels, ks);
        auto sums = multi::sum(multi::map(
                                   [](const auto& h, const auto& xp) {
                                       return h(ca::all(), ca::all(), ca::newaxis()) *
                                              xp(ca::all(), ca::newaxis(), ca::all());
                                   },
                                   hot, x),
                               multi::rows_axis); // K x 2 on every queue
        auto counts = multi::sum(hot, multi::rows_axis);
        c = multi::map([](const auto& sp, const auto& np,
                          const auto& cp) { return next_centroids(sp, np, cp); },
                       sums, counts, c);
    }
    auto hc = c.get();
    auto hl = labels.get();
    return {std::vector<float>(hc.begin(), hc.end()),
            std::vector<std::int64_t>(hl.begin(), hl.end())};
}

template <class S> result single(const ca::queue& q, std::size_t steps) {

    const std::vector<float> pts = points();
    std::vector<float> first(pts.begin(), pts.begin() + 2 * K);
    auto x = ca::to_device<S>(q, pts).reshape({N, 2});
    auto c = ca::to_device<S>(q, first).reshape({K, 2});
    auto ks = ca::arange<std::int64_t, S>(q, 0, static_cast<std::int64_t>(K));
    ca::cl_array<std::int64_t, S> labels;
    for (std::size_t s = 0; s < steps; ++s) {
        labels = nearest(x, c);
        ca::cl_array<float, S> hot = one_hot(labels, ks);
        auto sums = ca::sum(
            hot(ca::all(), ca::all(), ca::newaxis()) * x(ca::all(), ca::newaxis(), ca::all()), {0});
        auto counts = ca::sum(hot, {0});
        ca::cl_array<float, S> next = next_centroids(sums, counts, c);
        c = std::move(next);
    }
    auto hc = c.get();
    auto hl = labels.get();
    return {std::vector<float>(hc.begin(), hc.end()),
            std::vector<std::int64_t>(hl.begin(), hl.end())};
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t steps = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 8;
    return run_example(argc, argv, "multi_kmeans", [&](const placement& p) {
        return with_storage(p, [&](auto storage) {
            using S = decltype(storage);
            const result got = sharded<S>(p, steps), want = single<S>(p.reference, steps);
            const bool same = got.centroids == want.centroids && got.labels == want.labels;
            if (p.rank == 0) {
                std::cout << "k-means, " << p.mode << ": " << steps << " steps on "
                          << p.queues.size() << " part(s) per process; centroids:";
                for (std::size_t k = 0; k < K; ++k)
                    std::cout << " (" << got.centroids[2 * k] << ", " << got.centroids[2 * k + 1]
                              << ")";
                std::cout << (same ? "; equal to one device's\n"
                                   : "; DIFFERENT from one device's\n");
            }
            return same ? 0 : 1;
        });
    });
}
