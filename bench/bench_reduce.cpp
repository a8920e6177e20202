// Reduction and launch-path micro-benchmarks (Google Benchmark; each iteration waits, so times
// are latencies):
//  * full sum at N = 1e3 .. 1.6e7 (one-pass vs two-pass plans: CLARRAY_PLAN_AS_GPU=1 on pocl),
//  * column sum of a square matrix,
//  * the k-means distance: sum(d*d, {2}) over a short (length 4) reduced axis against the
//    written-out d0*d0 + d1*d1 + d2*d2 + d3*d3, and argmin over its result,
//  * the host cost of one small launch, pipelined (no wait per op): c = a + b and sum(a).
#include <benchmark/benchmark.h>

#include <clarray/clarray.hpp>

#include <chrono>
#include <cstddef>

namespace ca = clarray;

namespace {

struct env {
    ca::context ctx = ca::context::from_env();
    ca::queue q{ctx};
};
env& E() {
    static env e;
    return e;
}

void BM_sum(benchmark::State& st) {
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    auto a = ca::full<float>(E().q, {n}, 0.5f);
    float s = ca::sum(a).item();
    for (auto _ : st) {
        s = ca::sum(a).item();
        benchmark::DoNotOptimize(s);
    }
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * n * sizeof(float)));
}

void BM_colsum(benchmark::State& st) {
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    auto a = ca::full<float>(E().q, {n, n}, 0.5f);
    auto r = ca::sum(a, {0});
    E().q.finish();
    for (auto _ : st) {
        r = ca::sum(a, {0});
        E().q.finish();
    }
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * n * n * sizeof(float)));
}

// p: points [n, 4], c: centres [16, 4] (the k-means example's shapes at n = 262144).
struct kmeans_data {
    ca::cl_array<float> p, c;
    explicit kmeans_data(std::size_t n)
        : p(ca::linspace<float>(E().q, 0.0f, 1.0f, n * 4).reshape({n, 4})),
          c(ca::linspace<float>(E().q, 0.0f, 1.0f, 16 * 4).reshape({16, 4})) {
        E().q.finish();
    }
};

void BM_kmeans_distance_reduced(benchmark::State& st) {
    kmeans_data k(static_cast<std::size_t>(st.range(0)));
    using ca::all;
    using ca::newaxis;
    auto d = k.p(all(), newaxis(), all()) - k.c(newaxis(), all(), all());
    ca::cl_array<float> dist = ca::sum(d * d, {2});
    E().q.finish();
    for (auto _ : st) {
        dist = ca::sum(d * d, {2});
        E().q.finish();
    }
}

void BM_kmeans_distance_written_out(benchmark::State& st) {
    kmeans_data k(static_cast<std::size_t>(st.range(0)));
    using ca::all;
    using ca::newaxis;
    auto term = [&](std::ptrdiff_t j) {
        return k.p(all(), newaxis(), j) - k.c(newaxis(), all(), j);
    };
    auto d0 = term(0), d1 = term(1), d2 = term(2), d3 = term(3);
    ca::cl_array<float> dist = d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
    E().q.finish();
    for (auto _ : st) {
        dist = d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
        E().q.finish();
    }
}

void BM_kmeans_assign(benchmark::State& st) {
    kmeans_data k(static_cast<std::size_t>(st.range(0)));
    using ca::all;
    using ca::newaxis;
    auto d = k.p(all(), newaxis(), all()) - k.c(newaxis(), all(), all());
    auto label = ca::argmin(ca::sum(d * d, {2}), 1);
    E().q.finish();
    for (auto _ : st) {
        label = ca::argmin(ca::sum(d * d, {2}), 1);
        E().q.finish();
    }
}

// Host cost per launch: 1000 enqueues, one finish outside the timed region.
template <class F> void pipelined(benchmark::State& st, F&& op) {
    op();
    E().q.finish();
    for (auto _ : st) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 1000; ++i)
            op();
        auto t1 = std::chrono::steady_clock::now();
        E().q.finish();
        st.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / 1000);
    }
}

void BM_enqueue_add(benchmark::State& st) {
    auto a = ca::full<float>(E().q, {1000}, 1.5f);
    auto b = ca::full<float>(E().q, {1000}, 2.5f);
    auto c = ca::zeros<float>(E().q, {1000});
    pipelined(st, [&] { c = a + b; });
}

void BM_enqueue_sum(benchmark::State& st) {
    auto a = ca::full<float>(E().q, {static_cast<std::size_t>(st.range(0))}, 1.5f);
    ca::cl_array<float> s = ca::sum(a);
    pipelined(st, [&] { s = ca::sum(a); });
}

} // namespace

BENCHMARK(BM_sum)
    ->Arg(1000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Arg(16000000)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_colsum)->Arg(1000)->Arg(4000)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_kmeans_distance_reduced)->Arg(262144)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_kmeans_distance_written_out)
    ->Arg(262144)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(BM_kmeans_assign)->Arg(262144)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_enqueue_add)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK(BM_enqueue_sum)
    ->Arg(1000)
    ->Arg(1000000)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(20);

BENCHMARK_MAIN();
