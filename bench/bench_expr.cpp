// Fused expressions vs hand-written OpenCL C kernels, side by side in one process.
//   c = a + b;  z = 2*x + y;  d = a*b + c*sin(e)   at N = 1e3, 1e5, 1e6, 1.6e7 (float32)
// Each iteration enqueues the op and waits (clFinish), so times are comparable with the raw
// kernels measured the same way. Also: pure enqueue cost (pipelined, no wait per op) and the
// grid-stride loop shape that PyOpenCL generates, against one element per work-item.
// Spelling pairs (BM_spell_*): equivalent spellings of one assignment that should run equally
// fast: a broadcast operand against none, an array-to-view copy against the same copy as an
// expression, an in-place stencil (through the alias temporary) against a ping-pong one.
#include <benchmark/benchmark.h>

#include <clarray/clarray.hpp>

#include <chrono>
#include <memory>

namespace ca = clarray;

namespace {

struct env {
    ca::context ctx = ca::context::from_env();
    ca::queue q{ctx};
    ca::program raw{ctx, R"CLC(
kernel void add(global const float* a, global const float* b, global float* c, ulong n) {
    size_t i = get_global_id(0); if (i < n) c[i] = a[i] + b[i];
}
kernel void axpy(global const float* x, global const float* y, global float* z, float s, ulong n) {
    size_t i = get_global_id(0); if (i < n) z[i] = s * x[i] + y[i];
}
kernel void fused(global const float* a, global const float* b, global const float* c,
                  global const float* e, global float* d, ulong n) {
    size_t i = get_global_id(0); if (i < n) d[i] = a[i] * b[i] + c[i] * sin(e[i]);
}
// PyOpenCL's ElementwiseKernel shape: a grid-stride loop over a fixed grid.
kernel void add_grid_stride(global const float* a, global const float* b, global float* c, ulong n) {
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) c[i] = a[i] + b[i];
}
)CLC"};
};
env& E() {
    static env e;
    return e;
}

std::size_t global_for(std::size_t n) { return (n + 255) / 256 * 256; }

struct arrays {
    ca::cl_array<float> a, b, c, d, e;
    explicit arrays(std::size_t n)
        : a(ca::full<float>(E().q, {n}, 1.5f)), b(ca::full<float>(E().q, {n}, 2.5f)),
          c(ca::full<float>(E().q, {n}, 0.5f)), d(ca::zeros<float>(E().q, {n})),
          e(ca::full<float>(E().q, {n}, 0.25f)) {
        E().q.finish();
    }
};

void set_bytes(benchmark::State& st, std::size_t n, int arrays_touched) {
    st.SetBytesProcessed(static_cast<int64_t>(st.iterations()) * n * sizeof(float) * arrays_touched);
}

void BM_add_clarray(benchmark::State& st) {
    std::size_t n = st.range(0);
    arrays x(n);
    x.c = x.a + x.b; // warm-up: build and cache the kernel
    E().q.finish();
    for (auto _ : st) {
        x.c = x.a + x.b;
        E().q.finish();
    }
    set_bytes(st, n, 3);
}
void BM_add_raw(benchmark::State& st) {
    std::size_t n = st.range(0);
    arrays x(n);
    ca::kernel k = E().raw.kernel("add");
    k.launch(E().q, {global_for(n)}, {256}, {}, x.a, x.b, x.c, cl_ulong(n));
    E().q.finish();
    for (auto _ : st) {
        k.launch(E().q, {global_for(n)}, {256}, {}, x.a, x.b, x.c, cl_ulong(n));
        E().q.finish();
    }
    set_bytes(st, n, 3);
}
void BM_add_raw_grid_stride(benchmark::State& st) {
    std::size_t n = st.range(0);
    arrays x(n);
    ca::kernel k = E().raw.kernel("add_grid_stride");
    std::size_t grid = 128 * 64; // PyOpenCL: 128 work-items x (4 x 16) groups on 2 CUs
    k.launch(E().q, {grid}, {128}, {}, x.a, x.b, x.c, cl_ulong(n));
    E().q.finish();
    for (auto _ : st) {
        k.launch(E().q, {grid}, {128}, {}, x.a, x.b, x.c, cl_ulong(n));
        E().q.finish();
    }
    set_bytes(st, n, 3);
}
void BM_axpy_clarray(benchmark::State& st) {
    std::size_t n = st.range(0);
    arrays x(n);
    x.c = 2.0f * x.a + x.b;
    E().q.finish();
    for (auto _ : st) {
        x.c = 2.0f * x.a + x.b;
        E().q.finish();
    }
    set_bytes(st, n, 3);
}
void BM_axpy_raw(benchmark::State& st) {
    std::size_t n = st.range(0);
    arrays x(n);
    ca::kernel k = E().raw.kernel("axpy");
    k.launch(E().q, {global_for(n)}, {256}, {}, x.a, x.b, x.c, 2.0f, cl_ulong(n));
    E().q.finish();
    for (auto _ : st) {
        k.launch(E().q, {global_for(n)}, {256}, {}, x.a, x.b, x.c, 2.0f, cl_ulong(n));
        E().q.finish();
    }
    set_bytes(st, n, 3);
}
void BM_fused_clarray(benchmark::State& st) {
    std::size_t n = st.range(0);
    arrays x(n);
    x.d = x.a * x.b + x.c * ca::sin(x.e);
    E().q.finish();
    for (auto _ : st) {
        x.d = x.a * x.b + x.c * ca::sin(x.e);
        E().q.finish();
    }
    set_bytes(st, n, 5);
}
void BM_fused_raw(benchmark::State& st) {
    std::size_t n = st.range(0);
    arrays x(n);
    ca::kernel k = E().raw.kernel("fused");
    k.launch(E().q, {global_for(n)}, {256}, {}, x.a, x.b, x.c, x.e, x.d, cl_ulong(n));
    E().q.finish();
    for (auto _ : st) {
        k.launch(E().q, {global_for(n)}, {256}, {}, x.a, x.b, x.c, x.e, x.d, cl_ulong(n));
        E().q.finish();
    }
    set_bytes(st, n, 5);
}
// float32 division and square roots: with the device's correctly rounded divide/sqrt build
// option (the default where offered) against CLARRAY_FP32_DIVIDE_SQRT=fast (run the binary
// once each way).
void BM_divide_sqrt_clarray(benchmark::State& st) {
    std::size_t n = st.range(0);
    arrays x(n);
    x.d = ca::sqrt(x.a / x.b) + ca::sqrt(x.c / x.e) + x.a / x.e;
    E().q.finish();
    for (auto _ : st) {
        x.d = ca::sqrt(x.a / x.b) + ca::sqrt(x.c / x.e) + x.a / x.e;
        E().q.finish();
    }
    set_bytes(st, n, 5);
}

// Enqueue cost: 1000 enqueues of a small op, one finish outside the timed region.
void BM_enqueue_clarray(benchmark::State& st) {
    arrays x(1000);
    x.c = x.a + x.b;
    E().q.finish();
    for (auto _ : st) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 1000; ++i) x.c = x.a + x.b;
        auto t1 = std::chrono::steady_clock::now();
        E().q.finish();
        st.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / 1000);
    }
}
void BM_enqueue_raw(benchmark::State& st) {
    arrays x(1000);
    ca::kernel add = E().raw.kernel("add"); // keeps the cl_kernel alive
    cl_kernel k = add.get();
    cl_command_queue q = E().q.get();
    void* pa = x.a.data()->svm_pointer();
    void* pb = x.b.data()->svm_pointer();
    void* pc = x.c.data()->svm_pointer();
    cl_ulong n = 1000;
    std::size_t g = 1024, l = 256;
    for (auto _ : st) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 1000; ++i) {
            clSetKernelArgSVMPointer(k, 0, pa);
            clSetKernelArgSVMPointer(k, 1, pb);
            clSetKernelArgSVMPointer(k, 2, pc);
            clSetKernelArg(k, 3, sizeof(n), &n);
            cl_event ev;
            clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, &l, 0, nullptr, &ev);
            clReleaseEvent(ev);
        }
        auto t1 = std::chrono::steady_clock::now();
        E().q.finish();
        st.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / 1000);
    }
}

// ---- spelling pairs (2-d shapes: rows x cols) ----
// exp(x - m), m of shape (rows, 1) (a keep_dims result), against exp(x) into the same storage.
void BM_spell_exp_broadcast(benchmark::State& st) {
    const std::size_t r = st.range(0), c = st.range(1);
    auto x = ca::full<float>(E().q, {r, c}, 0.5f), y = ca::zeros<float>(E().q, {r, c});
    auto m = ca::full<float>(E().q, {r, 1}, 0.25f);
    y = ca::exp(x - m);
    E().q.finish();
    for (auto _ : st) {
        y = ca::exp(x - m);
        E().q.finish();
    }
    set_bytes(st, r * c, 2);
}
void BM_spell_exp_plain(benchmark::State& st) {
    const std::size_t r = st.range(0), c = st.range(1);
    auto x = ca::full<float>(E().q, {r, c}, 0.5f), y = ca::zeros<float>(E().q, {r, c});
    y = ca::exp(x);
    E().q.finish();
    for (auto _ : st) {
        y = ca::exp(x);
        E().q.finish();
    }
    set_bytes(st, r * c, 2);
}
// u(in, in) = t (array-to-view copy) against u(in, in) = t * 1.0f (a generated kernel).
void BM_spell_view_copy(benchmark::State& st) {
    const std::size_t n = st.range(0);
    auto u = ca::zeros<float>(E().q, {n, n}), t = ca::full<float>(E().q, {n - 2, n - 2}, 1.5f);
    const auto in = ca::range(1, -1);
    u(in, in) = t;
    E().q.finish();
    for (auto _ : st) {
        u(in, in) = t;
        E().q.finish();
    }
    set_bytes(st, (n - 2) * (n - 2), 2);
}
void BM_spell_view_expr(benchmark::State& st) {
    const std::size_t n = st.range(0);
    auto u = ca::zeros<float>(E().q, {n, n}), t = ca::full<float>(E().q, {n - 2, n - 2}, 1.5f);
    const auto in = ca::range(1, -1);
    u(in, in) = t * 1.0f;
    E().q.finish();
    for (auto _ : st) {
        u(in, in) = t * 1.0f;
        E().q.finish();
    }
    set_bytes(st, (n - 2) * (n - 2), 2);
}
// One Jacobi-like step: in place (a harmful alias: evaluated into a temporary, then copied back)
// against ping-pong between two arrays (one kernel; the swap is free).
void BM_spell_stencil_inplace(benchmark::State& st) {
    const std::size_t n = st.range(0);
    auto u = ca::full<float>(E().q, {n, n}, 1.0f);
    const auto in = ca::range(1, -1), r0 = ca::range(0, -2), r2 = ca::range(2, ca::none);
    const float a = 0.1f;
    auto step = [&] {
        u(in, in) =
            u(in, in) + a * (u(r0, in) + u(r2, in) + u(in, r0) + u(in, r2) - 4.0f * u(in, in));
    };
    step();
    E().q.finish();
    for (auto _ : st) {
        step();
        E().q.finish();
    }
    set_bytes(st, (n - 2) * (n - 2), 2);
}
// What the in-place spelling does, by hand: the update into a preallocated temporary, then the
// copy back (the floor of an in-place update that has to read every input before writing).
void BM_spell_stencil_by_hand(benchmark::State& st) {
    const std::size_t n = st.range(0);
    auto u = ca::full<float>(E().q, {n, n}, 1.0f), t = ca::zeros<float>(E().q, {n - 2, n - 2});
    const auto in = ca::range(1, -1), r0 = ca::range(0, -2), r2 = ca::range(2, ca::none);
    const float a = 0.1f;
    auto step = [&] {
        t = u(in, in) + a * (u(r0, in) + u(r2, in) + u(in, r0) + u(in, r2) - 4.0f * u(in, in));
        u(in, in) = t;
    };
    step();
    E().q.finish();
    for (auto _ : st) {
        step();
        E().q.finish();
    }
    set_bytes(st, (n - 2) * (n - 2), 2);
}
void BM_spell_stencil_pingpong(benchmark::State& st) {
    const std::size_t n = st.range(0);
    ca::cl_array<float> uv[2] = {ca::full<float>(E().q, {n, n}, 1.0f),
                                 ca::full<float>(E().q, {n, n}, 1.0f)};
    const auto in = ca::range(1, -1), r0 = ca::range(0, -2), r2 = ca::range(2, ca::none);
    const float a = 0.1f;
    int cur = 0;
    auto step = [&] {
        const auto& u = uv[cur];
        uv[1 - cur](in, in) =
            u(in, in) + a * (u(r0, in) + u(r2, in) + u(in, r0) + u(in, r2) - 4.0f * u(in, in));
        cur = 1 - cur;
    };
    step();
    E().q.finish();
    for (auto _ : st) {
        step();
        E().q.finish();
    }
    set_bytes(st, (n - 2) * (n - 2), 2);
}

#define SIZES ->Arg(1000)->Arg(100000)->Arg(1000000)->Arg(16000000)->Unit(benchmark::kMicrosecond)->UseRealTime()
// Interleaved registration: each size runs clarray and raw back to back.
BENCHMARK(BM_add_clarray) SIZES;
BENCHMARK(BM_add_raw) SIZES;
BENCHMARK(BM_add_raw_grid_stride)->Arg(1000000)->Arg(16000000)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_axpy_clarray) SIZES;
BENCHMARK(BM_axpy_raw) SIZES;
BENCHMARK(BM_fused_clarray) SIZES;
BENCHMARK(BM_fused_raw) SIZES;
BENCHMARK(BM_divide_sqrt_clarray)->Arg(1000000)->Arg(16000000)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_enqueue_clarray)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
BENCHMARK(BM_enqueue_raw)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(20);
#define SPELL ->Unit(benchmark::kMillisecond)->UseRealTime()
BENCHMARK(BM_spell_exp_broadcast)->Args({512, 4096}) SPELL;
BENCHMARK(BM_spell_exp_plain)->Args({512, 4096}) SPELL;
BENCHMARK(BM_spell_view_copy)->Arg(1024)->Arg(4096) SPELL;
BENCHMARK(BM_spell_view_expr)->Arg(1024)->Arg(4096) SPELL;
BENCHMARK(BM_spell_stencil_inplace)->Arg(1024)->Arg(4096) SPELL;
BENCHMARK(BM_spell_stencil_by_hand)->Arg(1024)->Arg(4096) SPELL;
BENCHMARK(BM_spell_stencil_pingpong)->Arg(1024)->Arg(4096) SPELL;

} // namespace

BENCHMARK_MAIN();
