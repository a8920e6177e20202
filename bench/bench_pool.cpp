// Allocation cost in an allocate + compute + release loop: `c = a + b` (float32) where c is a new
// array each iteration, at N = 1e3 .. 1e6:
//   pool:     a and b come from a user's svm_pool<svm_coarse>, so the result c comes from it too;
//   default:  plain arrays: a, b and c come from the context's default pool (the default);
//   unpooled: plain arrays on a context without the default pool (context_options::
//             use_default_pool = false): clSVMAlloc / clSVMFree each iteration;
//   raw:      clSVMAlloc + clSetKernelArgSVMPointer + clEnqueueNDRangeKernel + clFinish +
//             clSVMFree.
// Each iteration waits for the kernel (clFinish) and then releases c, as the raw loop does.
// The *_pipelined variants release c while its kernel is still pending and wait only once per
// 100 ops (reported per op): the unpooled path then enqueues clEnqueueSVMFree behind the kernel,
// raw does the same by hand, the pools keep the block and order its reuse by the event.
// pocl timings on a shared machine are noisy: run with
//   --benchmark_repetitions=7 --benchmark_enable_random_interleaving=true
//   --benchmark_report_aggregates_only=true
// and compare medians.
#include <benchmark/benchmark.h>

#include <clarray/clarray.hpp>

#include <cstdlib>

namespace ca = clarray;

namespace {

ca::context unpooled_context() {
    ca::context_options o = ca::context_options::from_env();
    o.use_default_pool = false;
    return ca::context(ca::select_device(std::getenv("CLARRAY_DEVICE")), o);
}

struct env {
    ca::context ctx = ca::context::from_env();
    ca::queue q{ctx};
    ca::context unpooled_ctx = unpooled_context();
    ca::queue unpooled_q{unpooled_ctx};
    ca::program raw{ctx, R"CLC(
kernel void add(global const float* a, global const float* b, global float* c, ulong n) {
    size_t i = get_global_id(0); if (i < n) c[i] = a[i] + b[i];
}
)CLC"};
};
env& E() {
    static env e;
    return e;
}

void set_items(benchmark::State& st, std::size_t n) {
    st.SetItemsProcessed(static_cast<int64_t>(st.iterations()) * static_cast<int64_t>(n));
}

void BM_add_alloc_pool(benchmark::State& st) {
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    ca::svm_pool<ca::svm_coarse> pool(E().ctx);
    auto a = ca::full<float>(E().q, {n}, 1.5f, pool);
    auto b = ca::full<float>(E().q, {n}, 2.5f, pool);
    {
        ca::cl_array<float> warm = a + b; // builds and caches the kernel, fills the pool
        E().q.finish();
    }
    for (auto _ : st) {
        ca::cl_array<float> c = a + b;
        E().q.finish();
    }
    set_items(st, n);
    st.counters["device_allocs"] = static_cast<double>(pool.stats().device_allocations);
}

void add_alloc_plain(benchmark::State& st, const ca::queue& q) {
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    auto a = ca::full<float>(q, {n}, 1.5f);
    auto b = ca::full<float>(q, {n}, 2.5f);
    {
        ca::cl_array<float> warm = a + b;
        q.finish();
    }
    for (auto _ : st) {
        ca::cl_array<float> c = a + b;
        q.finish();
    }
    set_items(st, n);
    st.counters["device_allocs"] = static_cast<double>(
        ca::pool_statistics(q.context(), ca::storage_kind::svm_coarse).device_allocations);
}
void BM_add_alloc_default(benchmark::State& st) {
    add_alloc_plain(st, E().q);
}
void BM_add_alloc_unpooled(benchmark::State& st) {
    add_alloc_plain(st, E().unpooled_q);
}

void BM_add_alloc_raw(benchmark::State& st) {
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    auto a = ca::full<float>(E().q, {n}, 1.5f);
    auto b = ca::full<float>(E().q, {n}, 2.5f);
    E().q.finish();
    ca::kernel add = E().raw.kernel("add"); // keeps the cl_kernel alive
    cl_kernel k = add.get();
    cl_context ctx = E().ctx.get();
    cl_command_queue q = E().q.get();
    void* pa = a.data()->svm_pointer();
    void* pb = b.data()->svm_pointer();
    cl_ulong count = n;
    std::size_t local = 256, global = (n + local - 1) / local * local;
    auto one = [&] {
        void* pc = clSVMAlloc(ctx, CL_MEM_READ_WRITE, n * sizeof(float), 0);
        if (!pc) {
            st.SkipWithError("clSVMAlloc returned NULL");
            return;
        }
        clSetKernelArgSVMPointer(k, 0, pa);
        clSetKernelArgSVMPointer(k, 1, pb);
        clSetKernelArgSVMPointer(k, 2, pc);
        clSetKernelArg(k, 3, sizeof(count), &count);
        clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
        clFinish(q);
        clSVMFree(ctx, pc);
    };
    one();
    for (auto _ : st)
        one();
    set_items(st, n);
}

constexpr int pipeline_depth = 100;

template <class MakeInputs>
void add_pipelined(benchmark::State& st, const ca::queue& q, MakeInputs make) {
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    auto [a, b] = make(n);
    {
        ca::cl_array<float> warm = a + b;
        q.finish();
    }
    for (auto _ : st) {
        for (int i = 0; i < pipeline_depth; ++i) {
            ca::cl_array<float> c = a + b; // released at once, its kernel still pending
        }
        q.finish();
    }
    set_items(st, n * pipeline_depth);
}

void BM_add_alloc_pool_pipelined(benchmark::State& st) {
    ca::svm_pool<ca::svm_coarse> pool(E().ctx);
    add_pipelined(st, E().q, [&](std::size_t n) {
        return std::make_pair(ca::full<float>(E().q, {n}, 1.5f, pool),
                              ca::full<float>(E().q, {n}, 2.5f, pool));
    });
    st.counters["device_allocs"] = static_cast<double>(pool.stats().device_allocations);
}

void plain_pipelined(benchmark::State& st, const ca::queue& q) {
    add_pipelined(st, q, [&](std::size_t n) {
        return std::make_pair(ca::full<float>(q, {n}, 1.5f), ca::full<float>(q, {n}, 2.5f));
    });
    st.counters["device_allocs"] = static_cast<double>(
        ca::pool_statistics(q.context(), ca::storage_kind::svm_coarse).device_allocations);
}
void BM_add_alloc_default_pipelined(benchmark::State& st) {
    plain_pipelined(st, E().q);
}
void BM_add_alloc_unpooled_pipelined(benchmark::State& st) {
    plain_pipelined(st, E().unpooled_q);
}

void BM_add_alloc_raw_pipelined(benchmark::State& st) {
    const std::size_t n = static_cast<std::size_t>(st.range(0));
    auto a = ca::full<float>(E().q, {n}, 1.5f);
    auto b = ca::full<float>(E().q, {n}, 2.5f);
    E().q.finish();
    ca::kernel add = E().raw.kernel("add");
    cl_kernel k = add.get();
    cl_context ctx = E().ctx.get();
    cl_command_queue q = E().q.get();
    void* pa = a.data()->svm_pointer();
    void* pb = b.data()->svm_pointer();
    cl_ulong count = n;
    std::size_t local = 256, global = (n + local - 1) / local * local;
    for (auto _ : st) {
        for (int i = 0; i < pipeline_depth; ++i) {
            void* pc = clSVMAlloc(ctx, CL_MEM_READ_WRITE, n * sizeof(float), 0);
            if (!pc) {
                st.SkipWithError("clSVMAlloc returned NULL");
                break;
            }
            clSetKernelArgSVMPointer(k, 0, pa);
            clSetKernelArgSVMPointer(k, 1, pb);
            clSetKernelArgSVMPointer(k, 2, pc);
            clSetKernelArg(k, 3, sizeof(count), &count);
            clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
            // In-order queue: the free follows the kernel; NULL callback: the runtime frees.
            clEnqueueSVMFree(q, 1, &pc, nullptr, nullptr, 0, nullptr, nullptr);
        }
        clFinish(q);
    }
    set_items(st, n * pipeline_depth);
}

#define SIZES                                                                                      \
    ->Arg(1000)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMicrosecond)->UseRealTime()
BENCHMARK(BM_add_alloc_pool) SIZES;
BENCHMARK(BM_add_alloc_default) SIZES;
BENCHMARK(BM_add_alloc_unpooled) SIZES;
BENCHMARK(BM_add_alloc_raw) SIZES;
BENCHMARK(BM_add_alloc_pool_pipelined) SIZES;
BENCHMARK(BM_add_alloc_default_pipelined) SIZES;
BENCHMARK(BM_add_alloc_unpooled_pipelined) SIZES;
BENCHMARK(BM_add_alloc_raw_pipelined) SIZES;

} // namespace

BENCHMARK_MAIN();
