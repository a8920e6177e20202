// Reduction and launch-path micro-benchmarks (Google Benchmark; each iteration waits, so times
// are latencies):
//  * full sum at N = 1e3 .. 1.6e7 (one-pass vs two-pass plans: CLARRAY_PLAN_AS_GPU=1 on pocl),
//  * column sum of a square matrix,
//  * the k-means distance: sum(d*d, {2}) over a short (length 4) reduced axis against the
//    written-out d0*d0 + d1*d1 + d2*d2 + d3*d3, and argmin over its result,
//  * the host cost of one small launch, pipelined (no wait per op): c = a + b and sum(a),
//  * the host cost of each step of a launch (BM_step_*: 1000 repeats per iteration): the raw
//    enqueue with and without its event, retaining a queue / an event, an event's status,
//    an uncontended mutex, and the allocation's dependency collection and use record.
#include <benchmark/benchmark.h>

#include <clarray/clarray.hpp>

#include <chrono>
#include <cstddef>
#include <mutex>

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

// ---- steps of one launch, each timed alone ----
const char* raw_add_source = R"CLC(
kernel void add(global const float* a, global const float* b, global float* c, ulong n) {
    size_t i = get_global_id(0); if (i < n) c[i] = a[i] + b[i];
}
)CLC";

struct raw_add {
    ca::cl_array<float> a = ca::full<float>(E().q, {1000}, 1.5f);
    ca::cl_array<float> b = ca::full<float>(E().q, {1000}, 2.5f);
    ca::cl_array<float> c = ca::zeros<float>(E().q, {1000});
    ca::program prg{E().ctx, raw_add_source};
    ca::kernel k = prg.kernel("add");
    // Sets the arguments and enqueues; returns the event when `with_event`.
    cl_event launch(bool with_event) {
        cl_kernel kk = k.get();
        clSetKernelArgSVMPointer(kk, 0, a.data()->svm_pointer());
        clSetKernelArgSVMPointer(kk, 1, b.data()->svm_pointer());
        clSetKernelArgSVMPointer(kk, 2, c.data()->svm_pointer());
        cl_ulong n = 1000;
        clSetKernelArg(kk, 3, sizeof(n), &n);
        std::size_t g = 1024, l = 256;
        cl_event ev = nullptr;
        clEnqueueNDRangeKernel(E().q.get(), kk, 1, nullptr, &g, &l, 0, nullptr,
                               with_event ? &ev : nullptr);
        return ev;
    }
};

void BM_step_enqueue_raw(benchmark::State& st) {
    raw_add r;
    pipelined(st, [&] { r.launch(false); });
}
void BM_step_enqueue_raw_event(benchmark::State& st) {
    raw_add r;
    pipelined(st, [&] { clReleaseEvent(r.launch(true)); });
}
void BM_step_retain_queue(benchmark::State& st) {
    cl_command_queue q = E().q.get();
    pipelined(st, [&] {
        clRetainCommandQueue(q);
        clReleaseCommandQueue(q);
    });
}
void BM_step_retain_event(benchmark::State& st) {
    raw_add r;
    cl_event ev = r.launch(true);
    pipelined(st, [&] {
        clRetainEvent(ev);
        clReleaseEvent(ev);
    });
    clReleaseEvent(ev);
}
void BM_step_event_status(benchmark::State& st) {
    raw_add r;
    ca::event ev(r.launch(true));
    pipelined(st, [&] { benchmark::DoNotOptimize(ev.is_complete()); });
}
void BM_step_mutex(benchmark::State& st) {
    std::mutex m;
    pipelined(st, [&] {
        std::lock_guard<std::mutex> lock(m);
        benchmark::ClobberMemory();
    });
}
// The bookkeeping of one read of `a` on its own in-order queue: dependencies, then the record.
void BM_step_read_dependencies_and_record(benchmark::State& st) {
    raw_add r;
    ca::event ev(r.launch(true));
    ca::allocation& a = *r.a.data();
    pipelined(st, [&] {
        ca::wait_list deps;
        a.add_dependencies(E().q, ca::access::read, deps);
        a.record(E().q, ca::access::read, ev);
    });
}
// The same for the written output.
void BM_step_write_dependencies_and_record(benchmark::State& st) {
    raw_add r;
    ca::event ev(r.launch(true));
    ca::allocation& c = *r.c.data();
    pipelined(st, [&] {
        ca::wait_list deps;
        c.add_dependencies(E().q, ca::access::write, deps);
        c.record(E().q, ca::access::write, ev);
    });
}

} // namespace

BENCHMARK(BM_step_enqueue_raw)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK(BM_step_enqueue_raw_event)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(20);
BENCHMARK(BM_step_retain_queue)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK(BM_step_retain_event)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK(BM_step_event_status)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK(BM_step_mutex)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK(BM_step_read_dependencies_and_record)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(20);
BENCHMARK(BM_step_write_dependencies_and_record)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(20);
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
