// The single-operation benchmark suite: clarray vs hand-written raw OpenCL C kernels vs an OpenMP
// host loop, one process, interleaved repeats.
//
//   ops   add (c=a+b), add_f16 (c=a+b on float16, with float32 and a raw 4-per-work-item half
//         kernel alongside), iadd (a+=b), axpy (z=2x+y), fused (d=a*b+c*sin(e)), strided
//         (c[::2]=a[::2]+b[::2]), transpose_add (C=A.T+B, square), sum, dot, rowsum (sum over
//         axis 1 of a square matrix), colsum (axis 0), copy (device-to-device copy bandwidth),
//         tune_add / tune_fused (raw kernel shapes: elements per work-item x local size, for the
//         library owner), cmul_add (complex64 c = a*b + d), cabs_sum (complex64 sum(abs(a))),
//         take (c = a[idx], a random permutation-like index), put (a[idx] = v), hist (add_at
//         of N ones into 256 int32 bins: contended atomics); cmul_add and cabs_sum at N >= 1e6 only
//   N     1e3, 1e5, 1e6, 1.6e7 (float32); matrices are s x s with s = floor(sqrt(N))
//
// Timing: every implementation of one (op, N) is warmed up and checked against a host result,
// then R repeats run every implementation once each, in an order that rotates per repeat. One
// sample is the mean of `inner` back-to-back calls, each of which enqueues the op and waits for
// it (clFinish), with `inner` chosen per implementation so that a sample lasts about
// --target-ms. The CSV has every sample; bench/report.py takes medians and ratios.
//
// Bytes per element (read + written, no write-allocate): add_f16 6 (its float32 row too, for
// the ratio), add/iadd/axpy/transpose_add 12,
// fused 20, strided 12 per touched element (N/2 of them), sum 4, dot 8, rowsum/colsum 4 (+ the
// output), copy 8, cmul_add 32, cabs_sum 8, take/put 12 (index, value, result), hist 4 (the index).
#include <clarray/clarray.hpp>

#if __has_include(<clarray/reduce/reduce.hpp>) && !defined(CLARRAY_BENCH_NO_REDUCE)
#include <clarray/reduce/reduce.hpp>
#define CLARRAY_BENCH_HAVE_REDUCE 1
#else
#define CLARRAY_BENCH_HAVE_REDUCE 0
#endif

#if __has_include(<clarray/indexing/indexing.hpp>)
#define CLARRAY_BENCH_HAVE_INDEXING 1
#else
#define CLARRAY_BENCH_HAVE_INDEXING 0
#endif

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_common.hpp"

namespace ca = clarray;

namespace {
using bench_common::parse_sizes;

const char* raw_source = R"CLC(
kernel void add(global const float* a, global const float* b, global float* c, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}
kernel void add_half(global const half* a, global const half* b, global half* c, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) vstore_half_rte(vload_half(i, a) + vload_half(i, b), i, c);
}
kernel void add_half4(global const half* a, global const half* b, global half* c, ulong n) {
    ulong g = get_global_id(0), i = g * 4;
    if (i + 4 <= n) {
        vstore_half4_rte(vload_half4(g, a) + vload_half4(g, b), g, c);
    } else {
        for (; i < n; ++i) vstore_half_rte(vload_half(i, a) + vload_half(i, b), i, c);
    }
}
kernel void iadd(global float* a, global const float* b, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) a[i] += b[i];
}
kernel void axpy(global const float* x, global const float* y, global float* z, float s,
                 ulong n) {
    ulong i = get_global_id(0);
    if (i < n) z[i] = s * x[i] + y[i];
}
kernel void fused(global const float* a, global const float* b, global const float* c,
                  global const float* e, global float* d, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) d[i] = a[i] * b[i] + c[i] * sin(e[i]);
}
kernel void strided_add(global const float* a, global const float* b, global float* c, ulong m) {
    ulong i = get_global_id(0);
    if (i < m) c[2 * i] = a[2 * i] + b[2 * i];
}
kernel void transpose_add(global const float* a, global const float* b, global float* c,
                          ulong s) {
    ulong col = get_global_id(0), r = get_global_id(1);
    if (col < s && r < s) c[r * s + col] = a[col * s + r] + b[r * s + col];
}
kernel void copy(global const float* a, global float* c, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) c[i] = a[i];
}

// ---- tuning shapes: 4 or 8 elements per work-item ----
kernel void add_v4(global const float* a, global const float* b, global float* c, ulong n) {
    ulong i = get_global_id(0) * 4;
    if (i + 4 <= n) {
        vstore4(vload4(0, a + i) + vload4(0, b + i), 0, c + i);
    } else {
        for (; i < n; ++i) c[i] = a[i] + b[i];
    }
}
kernel void add_v8(global const float* a, global const float* b, global float* c, ulong n) {
    ulong i = get_global_id(0) * 8;
    if (i + 8 <= n) {
        vstore8(vload8(0, a + i) + vload8(0, b + i), 0, c + i);
    } else {
        for (; i < n; ++i) c[i] = a[i] + b[i];
    }
}
kernel void fused_v4(global const float* a, global const float* b, global const float* c,
                     global const float* e, global float* d, ulong n) {
    ulong i = get_global_id(0) * 4;
    if (i + 4 <= n) {
        vstore4(vload4(0, a + i) * vload4(0, b + i) + vload4(0, c + i) * sin(vload4(0, e + i)),
                0, d + i);
    } else {
        for (; i < n; ++i) d[i] = a[i] * b[i] + c[i] * sin(e[i]);
    }
}
kernel void fused_v8(global const float* a, global const float* b, global const float* c,
                     global const float* e, global float* d, ulong n) {
    ulong i = get_global_id(0) * 8;
    if (i + 8 <= n) {
        vstore8(vload8(0, a + i) * vload8(0, b + i) + vload8(0, c + i) * sin(vload8(0, e + i)),
                0, d + i);
    } else {
        for (; i < n; ++i) d[i] = a[i] * b[i] + c[i] * sin(e[i]);
    }
}

// ---- reductions for CPU devices: contiguous chunks per work-item, float8 accumulators ----
float hsum8(float8 v) {
    float4 h = v.lo + v.hi;
    return (h.x + h.y) + (h.z + h.w);
}
kernel void sum_chunks(global const float* restrict a, global float* restrict part, ulong n,
                       ulong chunk) {
    ulong g = get_global_id(0);
    ulong i = g * chunk, hi = min(n, i + chunk);
    float8 s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (; i + 32 <= hi; i += 32) {
        s0 += vload8(0, a + i);
        s1 += vload8(0, a + i + 8);
        s2 += vload8(0, a + i + 16);
        s3 += vload8(0, a + i + 24);
    }
    float s = hsum8((s0 + s1) + (s2 + s3));
    for (; i < hi; ++i) s += a[i];
    part[g] = s;
}
kernel void dot_chunks(global const float* restrict a, global const float* restrict b,
                       global float* restrict part, ulong n, ulong chunk) {
    ulong g = get_global_id(0);
    ulong i = g * chunk, hi = min(n, i + chunk);
    float8 s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (; i + 32 <= hi; i += 32) {
        s0 += vload8(0, a + i) * vload8(0, b + i);
        s1 += vload8(0, a + i + 8) * vload8(0, b + i + 8);
        s2 += vload8(0, a + i + 16) * vload8(0, b + i + 16);
        s3 += vload8(0, a + i + 24) * vload8(0, b + i + 24);
    }
    float s = hsum8((s0 + s1) + (s2 + s3));
    for (; i < hi; ++i) s += a[i] * b[i];
    part[g] = s;
}
// One work-item per row.
kernel void rowsum_rows(global const float* restrict m, global float* restrict out, ulong rows,
                        ulong cols) {
    ulong r = get_global_id(0);
    if (r >= rows) return;
    global const float* p = m + r * cols;
    float8 s0 = 0, s1 = 0;
    ulong i = 0;
    for (; i + 16 <= cols; i += 16) {
        s0 += vload8(0, p + i);
        s1 += vload8(0, p + i + 8);
    }
    float s = hsum8(s0 + s1);
    for (; i < cols; ++i) s += p[i];
    out[r] = s;
}
// Work-item p sums rows [p*rows_per, ...) into part[p][0..cols), contiguous along the rows.
kernel void colsum_part_cpu(global const float* restrict m, global float* restrict part,
                            ulong rows, ulong cols, ulong rows_per) {
    ulong p = get_global_id(0);
    ulong r0 = p * rows_per, r1 = min(rows, r0 + rows_per);
    global float* acc = part + p * cols;
    for (ulong c = 0; c < cols; ++c) acc[c] = 0.0f;
    for (ulong r = r0; r < r1; ++r) {
        global const float* row = m + r * cols;
        ulong c = 0;
        for (; c + 8 <= cols; c += 8) vstore8(vload8(0, acc + c) + vload8(0, row + c), 0, acc + c);
        for (; c < cols; ++c) acc[c] += row[c];
    }
}
// Second stage of the column sums (CPU and GPU): one work-item per column over the partials.
kernel void colsum_final(global const float* restrict part, global float* restrict out,
                         ulong parts, ulong cols) {
    ulong c = get_global_id(0);
    if (c >= cols) return;
    float s = 0.0f;
    for (ulong p = 0; p < parts; ++p) s += part[p * cols + c];
    out[c] = s;
}

// ---- reductions for GPUs: grid-stride accumulate + local-memory tree per work-group ----
kernel void sum_tree(global const float* a, global float* part, ulong n, local float* scratch) {
    uint l = get_local_id(0), L = get_local_size(0);
    float s = 0.0f;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) s += a[i];
    scratch[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = L / 2; k > 0; k >>= 1) {
        if (l < k) scratch[l] += scratch[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) part[get_group_id(0)] = scratch[0];
}
kernel void dot_tree(global const float* a, global const float* b, global float* part, ulong n,
                     local float* scratch) {
    uint l = get_local_id(0), L = get_local_size(0);
    float s = 0.0f;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) s += a[i] * b[i];
    scratch[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = L / 2; k > 0; k >>= 1) {
        if (l < k) scratch[l] += scratch[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) part[get_group_id(0)] = scratch[0];
}
// One work-group per row.
kernel void rowsum_groups(global const float* m, global float* out, ulong rows, ulong cols,
                          local float* scratch) {
    uint l = get_local_id(0), L = get_local_size(0);
    ulong r = get_group_id(0);
    float s = 0.0f;
    for (ulong c = l; c < cols; c += L) s += m[r * cols + c];
    scratch[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = L / 2; k > 0; k >>= 1) {
        if (l < k) scratch[l] += scratch[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[r] = scratch[0];
}
// (column, row block) work-items: coalesced along the columns.
kernel void colsum_part_gpu(global const float* m, global float* part, ulong rows, ulong cols,
                            ulong rows_per) {
    ulong c = get_global_id(0), p = get_global_id(1);
    if (c >= cols) return;
    ulong r0 = p * rows_per, r1 = min(rows, r0 + rows_per);
    float s = 0.0f;
    for (ulong r = r0; r < r1; ++r) s += m[r * cols + c];
    part[p * cols + c] = s;
}

// ---- complex64 (float2: real, imaginary) ----
kernel void cmul_add(global const float2* a, global const float2* b, global const float2* d,
                     global float2* c, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) {
        const float2 x = a[i], y = b[i];
        c[i] = (float2)(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x) + d[i];
    }
}
kernel void cabs_chunks(global const float2* restrict a, global float* restrict part, ulong n,
                        ulong chunk) {
    ulong g = get_global_id(0);
    ulong i = g * chunk, hi = min(n, i + chunk);
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (; i + 4 <= hi; i += 4) {
        s0 += hypot(a[i].x, a[i].y);
        s1 += hypot(a[i + 1].x, a[i + 1].y);
        s2 += hypot(a[i + 2].x, a[i + 2].y);
        s3 += hypot(a[i + 3].x, a[i + 3].y);
    }
    float s = (s0 + s1) + (s2 + s3);
    for (; i < hi; ++i) s += hypot(a[i].x, a[i].y);
    part[g] = s;
}
kernel void cabs_tree(global const float2* a, global float* part, ulong n, local float* scratch) {
    uint l = get_local_id(0), L = get_local_size(0);
    float s = 0.0f;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) s += hypot(a[i].x, a[i].y);
    scratch[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = L / 2; k > 0; k >>= 1) {
        if (l < k) scratch[l] += scratch[l + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) part[get_group_id(0)] = scratch[0];
}
kernel void gather(global const float* a, global const int* idx, global float* c, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) c[i] = a[idx[i]];
}
kernel void scatter(global float* a, global const int* idx, global const float* v, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) a[idx[i]] = v[i];
}
kernel void histogram(global int* bins, global const int* idx, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) atomic_add(bins + idx[i], 1);
}
)CLC";

// ---------------------------------------------------------------- small utilities
void check(cl_int rc, const char* what) {
    if (rc != CL_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + std::to_string(rc));
}
std::size_t round_up(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}
double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Raw C API launches: SVM pointers, values and __local sizes, set on every call.
struct local_bytes {
    std::size_t n;
};
void set_arg(cl_kernel k, cl_uint i, const float* p) {
    check(clSetKernelArgSVMPointer(k, i, p), "clSetKernelArgSVMPointer");
}
void set_arg(cl_kernel k, cl_uint i, float* p) {
    set_arg(k, i, static_cast<const float*>(p));
}
void set_arg(cl_kernel k, cl_uint i, const ca::half* p) {
    check(clSetKernelArgSVMPointer(k, i, p), "clSetKernelArgSVMPointer");
}
void set_arg(cl_kernel k, cl_uint i, ca::half* p) {
    set_arg(k, i, static_cast<const ca::half*>(p));
}
void set_arg(cl_kernel k, cl_uint i, const int* p) {
    check(clSetKernelArgSVMPointer(k, i, p), "clSetKernelArgSVMPointer");
}
void set_arg(cl_kernel k, cl_uint i, int* p) {
    set_arg(k, i, static_cast<const int*>(p));
}
void set_arg(cl_kernel k, cl_uint i, local_bytes l) {
    check(clSetKernelArg(k, i, l.n, nullptr), "clSetKernelArg(local)");
}
template <class T> void set_arg(cl_kernel k, cl_uint i, T v) {
    static_assert(std::is_arithmetic_v<T>, "value argument");
    check(clSetKernelArg(k, i, sizeof(T), &v), "clSetKernelArg");
}
template <class... A>
void enqueue(cl_command_queue q, cl_kernel k, std::vector<std::size_t> global,
             std::vector<std::size_t> local, A... args) {
    cl_uint i = 0;
    (set_arg(k, i++, args), ...);
    check(clEnqueueNDRangeKernel(q, k, static_cast<cl_uint>(global.size()), nullptr, global.data(),
                                 local.empty() ? nullptr : local.data(), 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
}

// The same launch asking for an event and releasing it (what a library that orders work and
// frees by events pays per launch).
template <class... A>
void enqueue_with_event(cl_command_queue q, cl_kernel k, std::vector<std::size_t> global,
                        std::vector<std::size_t> local, A... args) {
    cl_uint i = 0;
    (set_arg(k, i++, args), ...);
    cl_event ev = nullptr;
    check(clEnqueueNDRangeKernel(q, k, static_cast<cl_uint>(global.size()), nullptr, global.data(),
                                 local.empty() ? nullptr : local.data(), 0, nullptr, &ev),
          "clEnqueueNDRangeKernel");
    check(clReleaseEvent(ev), "clReleaseEvent");
}

struct impl {
    std::string name;
    std::function<void()> run;          // one call: enqueue (or compute) and wait
    std::function<void()> reset;        // before the checked call (iadd); may be empty
    std::function<std::string()> check; // "" when the result is right
};
struct op_case {
    std::string op;
    std::size_t nominal, elements;
    double bytes;
    std::vector<impl> impls;
};

struct options {
    int reps = 21;
    double target_ms = 2.0;
    std::vector<std::size_t> sizes{1000, 100000, 1000000, 16000000};
    std::vector<std::string> ops;   // empty: all
    std::vector<std::string> impls; // empty: all
    std::string out = "bench_suite.csv";
};

bool wanted(const options& o, const std::string& op) {
    return o.ops.empty() || std::find(o.ops.begin(), o.ops.end(), op) != o.ops.end();
}

// Relative comparison of sampled elements.
std::string compare(const std::string& what, const float* got, const std::vector<float>& want,
                    std::size_t stride_hint, double tol) {
    std::size_t n = want.size();
    std::size_t step = std::max<std::size_t>(1, n / 997);
    if (stride_hint > 1) step = std::max<std::size_t>(1, step / stride_hint * stride_hint);
    for (std::size_t i = 0; i < n; i += step) {
        double w = want[i], g = got[i];
        if (!(std::fabs(g - w) <= tol * (1.0 + std::fabs(w)))) {
            std::ostringstream s;
            s << what << ": element " << i << " is " << g << ", expected " << w;
            return s.str();
        }
    }
    double w = want[n - 1], g = got[n - 1];
    if (!(std::fabs(g - w) <= tol * (1.0 + std::fabs(w))))
        return what + ": last element is " + std::to_string(g) + ", expected " + std::to_string(w);
    return "";
}

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

// ---------------------------------------------------------------- the suite
struct suite {
    options opt;
    ca::context ctx = ca::context::from_env();
    ca::queue q{ctx};
    ca::program prog{ctx, raw_source};
    cl_command_queue cq = q.get();
    bool cpu = ctx.device().is_cpu();
    std::vector<ca::kernel> kernels; // keeps every cl_kernel alive
    std::ofstream csv;

    cl_kernel k(const char* name) {
        kernels.push_back(prog.kernel(name));
        return kernels.back().get();
    }
    void finish() { check(clFinish(cq), "clFinish"); }

    explicit suite(options o) : opt(std::move(o)) {}

    void header() {
        const ca::device& d = ctx.device();
        std::time_t t = std::time(nullptr);
        char date[64];
        std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&t));
        csv.open(opt.out);
        if (!csv) throw std::runtime_error("cannot write " + opt.out);
        auto meta = [&](const std::string& key, const std::string& value) {
            csv << "# " << key << ": " << value << "\n";
            std::cout << key << ": " << value << "\n";
        };
        meta("date", date);
        meta("device", d.name());
        meta("platform", d.platform_name());
        meta("device_version", d.version());
        meta("driver_version", d.driver_version());
        meta("device_type", cpu ? "CPU" : (d.is_gpu() ? "GPU" : "other"));
        meta("compute_units", std::to_string(d.compute_units()));
        meta("host_cpu", cpu_model());
        meta("omp_threads", std::to_string(omp_get_max_threads()));
        meta("reps", std::to_string(opt.reps));
        meta("target_ms", std::to_string(opt.target_ms));
        meta("clarray_reductions", CLARRAY_BENCH_HAVE_REDUCE ? "yes" : "no (reduce.hpp absent)");
        meta("raw_reductions", cpu ? "chunked (contiguous chunk per work-item, float8 accumulators)"
                                   : "tree (grid-stride accumulate, local-memory tree, 256/group)");
        csv << "op,impl,n,elements,bytes,inner,rep,seconds\n";
    }

    void run_case(op_case& c) {
        if (!opt.impls.empty())
            c.impls.erase(std::remove_if(c.impls.begin(), c.impls.end(),
                                         [&](const impl& m) {
                                             return std::find(opt.impls.begin(), opt.impls.end(),
                                                              m.name) == opt.impls.end();
                                         }),
                          c.impls.end());
        if (c.impls.empty()) return;
        std::vector<int> inner(c.impls.size(), 1);
        std::vector<bool> ok(c.impls.size(), true);
        for (std::size_t i = 0; i < c.impls.size(); ++i) {
            impl& m = c.impls[i];
            try {
                m.run(); // compile / first touch
                if (m.reset) m.reset();
                m.run();
                std::string err = m.check ? m.check() : "";
                if (!err.empty()) {
                    std::cout << "  CHECK FAILED " << c.op << " " << m.name << " N=" << c.nominal
                              << ": " << err << " (excluded)\n";
                    csv << "# skip: " << c.op << "|" << m.name << "|" << c.nominal
                        << "|wrong result: " << err << "\n";
                    ok[i] = false;
                    continue;
                }
                double t0 = now_s();
                m.run();
                double t1 = now_s();
                double est = std::max(t1 - t0, 1e-7);
                inner[i] = static_cast<int>(std::clamp(opt.target_ms * 1e-3 / est, 1.0, 2000.0));
            } catch (const std::exception& e) {
                std::cout << "  FAILED " << c.op << " " << m.name << " N=" << c.nominal << ": "
                          << e.what() << " (excluded)\n";
                csv << "# skip: " << c.op << "|" << m.name << "|" << c.nominal
                    << "|failed: " << e.what() << "\n";
                ok[i] = false;
            }
        }
        std::vector<std::vector<double>> samples(c.impls.size());
        const std::size_t k = c.impls.size();
        for (int r = 0; r < opt.reps; ++r) {
            for (std::size_t j = 0; j < k; ++j) {
                std::size_t i = (j + static_cast<std::size_t>(r)) % k; // rotating order
                if (!ok[i]) continue;
                double t0 = now_s();
                for (int it = 0; it < inner[i]; ++it)
                    c.impls[i].run();
                double t = (now_s() - t0) / inner[i];
                samples[i].push_back(t);
                csv << c.op << "," << c.impls[i].name << "," << c.nominal << "," << c.elements
                    << "," << c.bytes << "," << inner[i] << "," << r << "," << t << "\n";
            }
        }
        csv.flush();
        // Console summary: medians, GB/s, throughput ratio against the raw kernel.
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v.empty() ? 0.0 : v[v.size() / 2];
        };
        double raw_t = 0;
        for (std::size_t i = 0; i < k; ++i)
            if (c.impls[i].name == "raw" && !samples[i].empty()) raw_t = median(samples[i]);
        for (std::size_t i = 0; i < k; ++i) {
            if (samples[i].empty()) continue;
            double t = median(samples[i]);
            std::printf("%-14s N=%-9zu %-22s %12.2f us %9.2f GB/s", c.op.c_str(), c.nominal,
                        c.impls[i].name.c_str(), t * 1e6, c.bytes / t * 1e-9);
            if (raw_t > 0) std::printf("  x%.2f vs raw", raw_t / t);
            std::printf("\n");
        }
        std::fflush(stdout);
    }

    void run_all() {
        header();
        for (std::size_t n : opt.sizes)
            run_size(n);
    }

    void run_size(std::size_t n);
};

void suite::run_size(std::size_t n) {
    const std::size_t s = static_cast<std::size_t>(std::floor(std::sqrt(double(n) + 0.5)));
    const std::size_t mn = s * s; // matrix elements
    const std::size_t L = ca::detail::elementwise_group_size(ctx.device());
    const std::size_t G = round_up(n, L);
    const cl_ulong un = n;
    const int nthreads = omp_get_max_threads();

    // Host inputs with patterns (so that index mistakes show up) and first-touch init.
    std::vector<float> ha(n), hb(n), hc(n), he(n);
    std::vector<float> hout(n), ht(n);
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
        ha[i] = float(i % 17) * 0.25f;
        hb[i] = float(i % 13) * 0.5f - 2.0f;
        hc[i] = float(i % 7) * 0.125f;
        he[i] = float(i % 29) * 0.1f;
        hout[i] = 0.0f;
        ht[i] = ha[i];
    }
    using arr = ca::cl_array<float>;
    arr a = ca::to_device(q, ha), b = ca::to_device(q, hb), c = ca::to_device(q, hc),
        e = ca::to_device(q, he);
    arr d = ca::zeros<float>(q, {n}), t = ca::zeros<float>(q, {n});
    // The same arrays as cl_mem Buffers (the buffer storage policy), for the clarray_buffer rows.
    using barr = ca::cl_array<float, ca::buffer>;
    barr buf_a = ca::to_device<ca::buffer>(q, ha), buf_b = ca::to_device<ca::buffer>(q, hb),
         buf_c = ca::to_device<ca::buffer>(q, hc), buf_e = ca::to_device<ca::buffer>(q, he);
    barr buf_d = ca::zeros<float, ca::buffer>(q, {n});
    q.finish();
    float *pa = a.svm_data(), *pb = b.svm_data(), *pc = c.svm_data(), *pe = e.svm_data(),
          *pd = d.svm_data(), *pt = t.svm_data();

    // Expected results on the host (plain loops, double where it matters).
    auto expect = [&](auto f) {
        std::vector<float> w(n);
        for (std::size_t i = 0; i < n; ++i)
            w[i] = f(i);
        return w;
    };
    // Read back a device array and compare.
    auto dev_check = [&](const auto& x, const std::vector<float>& want, double tol,
                         std::size_t stride = 1) {
        auto hv = x.map(ca::access::read);
        std::vector<float> got(want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            got[i] = hv(i);
        return compare("device", got.data(), want, stride, tol);
    };
    auto host_check = [&](const std::vector<float>& x, const std::vector<float>& want, double tol,
                          std::size_t stride = 1) {
        return compare("host", x.data(), want, stride, tol);
    };
    auto scalar_check = [](double got, double want) -> std::string {
        if (std::fabs(got - want) <= 1e-3 * (1.0 + std::fabs(want))) return "";
        return "got " + std::to_string(got) + ", expected " + std::to_string(want);
    };
    auto clear_d = [&] {
        d.fill(0.0f);
        q.finish();
    };
    auto clear_bd = [&] {
        buf_d.fill(0.0f);
        q.finish();
    };
    auto clear_h = [&] { std::fill(hout.begin(), hout.end(), 0.0f); };

    // ---------------------------------------------------------- elementwise
    if (wanted(opt, "add")) {
        op_case oc{"add", n, n, 12.0 * n, {}};
        auto want = expect([&](std::size_t i) { return ha[i] + hb[i]; });
        cl_kernel kadd = k("add");
        oc.impls.push_back({"clarray",
                            [&] {
                                d = a + b;
                                q.finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"clarray_buffer",
                            [&] {
                                buf_d = buf_a + buf_b;
                                q.finish();
                            },
                            clear_bd, [&] { return dev_check(buf_d, want, 1e-6); }});
        oc.impls.push_back({"raw",
                            [&, kadd] {
                                enqueue(cq, kadd, {G}, {L}, pa, pb, pd, un);
                                finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"raw_event",
                            [&, kadd] {
                                enqueue_with_event(cq, kadd, {G}, {L}, pa, pb, pd, un);
                                finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"openmp",
                            [&] {
#pragma omp parallel for simd schedule(static)
                                for (std::size_t i = 0; i < n; ++i)
                                    hout[i] = ha[i] + hb[i];
                            },
                            clear_h, [&] { return host_check(hout, want, 1e-6); }});
        run_case(oc);
    }
    if (wanted(opt, "add_f16")) {
        // float16 storage, computed in float: the same sums as add (exact in float16).
        op_case oc{"add_f16", n, n, 6.0 * n, {}};
        auto want = expect([&](std::size_t i) { return ha[i] + hb[i]; });
        std::vector<ca::half> ha16(n), hb16(n);
        for (std::size_t i = 0; i < n; ++i) {
            ha16[i] = ca::half(ha[i]);
            hb16[i] = ca::half(hb[i]);
        }
        using harr = ca::cl_array<ca::half>;
        harr a16 = ca::to_device(q, ha16), b16 = ca::to_device(q, hb16),
             d16 = ca::zeros<ca::half>(q, {n});
        q.finish();
        auto clear_d16 = [&] {
            d16.fill(ca::half(0.0f));
            q.finish();
        };
        cl_kernel kadd16 = k("add_half"), kadd16x4 = k("add_half4");
        ca::half *pa16 = a16.svm_data(), *pb16 = b16.svm_data(), *pd16 = d16.svm_data();
        const std::size_t G4 = round_up((n + 3) / 4, L);
        oc.impls.push_back({"clarray",
                            [&] {
                                d16 = a16 + b16;
                                q.finish();
                            },
                            clear_d16, [&] { return dev_check(d16, want, 1e-3); }});
        oc.impls.push_back({"raw",
                            [&, kadd16] {
                                enqueue(cq, kadd16, {G}, {L}, pa16, pb16, pd16, un);
                                finish();
                            },
                            clear_d16, [&] { return dev_check(d16, want, 1e-3); }});
        // 4 elements per work-item (vload_half4 / vstore_half4_rte): the shape of clarray's
        // float16 vector kernel (device::tuning_t::half_vector_width).
        oc.impls.push_back({"raw_half4",
                            [&, kadd16x4, G4] {
                                enqueue(cq, kadd16x4, {G4}, {L}, pa16, pb16, pd16, un);
                                finish();
                            },
                            clear_d16, [&] { return dev_check(d16, want, 1e-3); }});
        oc.impls.push_back({"clarray_f32",
                            [&] {
                                d = a + b;
                                q.finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        run_case(oc);
    }
    if (wanted(opt, "iadd")) {
        op_case oc{"iadd", n, n, 12.0 * n, {}};
        auto want = expect([&](std::size_t i) { return ha[i] + hb[i]; });
        cl_kernel kiadd = k("iadd");
        auto reset_t = [&] {
            t = a;
            q.finish();
        };
        oc.impls.push_back({"clarray",
                            [&] {
                                t += b;
                                q.finish();
                            },
                            reset_t, [&] { return dev_check(t, want, 1e-6); }});
        oc.impls.push_back({"raw",
                            [&, kiadd] {
                                enqueue(cq, kiadd, {G}, {L}, pt, pb, un);
                                finish();
                            },
                            reset_t, [&] { return dev_check(t, want, 1e-6); }});
        oc.impls.push_back({"openmp",
                            [&] {
#pragma omp parallel for simd schedule(static)
                                for (std::size_t i = 0; i < n; ++i)
                                    ht[i] += hb[i];
                            },
                            [&] { std::copy(ha.begin(), ha.end(), ht.begin()); },
                            [&] { return host_check(ht, want, 1e-6); }});
        run_case(oc);
    }
    if (wanted(opt, "axpy")) {
        op_case oc{"axpy", n, n, 12.0 * n, {}};
        auto want = expect([&](std::size_t i) { return 2.0f * ha[i] + hb[i]; });
        cl_kernel kaxpy = k("axpy");
        oc.impls.push_back({"clarray",
                            [&] {
                                d = 2.0f * a + b;
                                q.finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"raw",
                            [&, kaxpy] {
                                enqueue(cq, kaxpy, {G}, {L}, pa, pb, pd, 2.0f, un);
                                finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"openmp",
                            [&] {
#pragma omp parallel for simd schedule(static)
                                for (std::size_t i = 0; i < n; ++i)
                                    hout[i] = 2.0f * ha[i] + hb[i];
                            },
                            clear_h, [&] { return host_check(hout, want, 1e-6); }});
        run_case(oc);
    }
    auto fused_want = [&] {
        return expect([&](std::size_t i) { return ha[i] * hb[i] + hc[i] * std::sin(he[i]); });
    };
    if (wanted(opt, "fused")) {
        op_case oc{"fused", n, n, 20.0 * n, {}};
        auto want = fused_want();
        cl_kernel kf = k("fused");
        oc.impls.push_back({"clarray",
                            [&] {
                                d = a * b + c * ca::sin(e);
                                q.finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-5); }});
        oc.impls.push_back({"clarray_buffer",
                            [&] {
                                buf_d = buf_a * buf_b + buf_c * ca::sin(buf_e);
                                q.finish();
                            },
                            clear_bd, [&] { return dev_check(buf_d, want, 1e-5); }});
        oc.impls.push_back({"raw",
                            [&, kf] {
                                enqueue(cq, kf, {G}, {L}, pa, pb, pc, pe, pd, un);
                                finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-5); }});
        oc.impls.push_back({"openmp",
                            [&] {
#pragma omp parallel for simd schedule(static)
                                for (std::size_t i = 0; i < n; ++i)
                                    hout[i] = ha[i] * hb[i] + hc[i] * std::sin(he[i]);
                            },
                            clear_h, [&] { return host_check(hout, want, 1e-5); }});
        run_case(oc);
    }
    if (wanted(opt, "strided")) {
        const std::size_t m = n / 2;
        op_case oc{"strided", n, m, 12.0 * m, {}};
        auto want = expect([&](std::size_t i) { return i % 2 == 0 ? ha[i] + hb[i] : 0.0f; });
        cl_kernel ks = k("strided_add");
        const cl_ulong um = m;
        const std::size_t Gm = round_up(m, L);
        oc.impls.push_back({"clarray",
                            [&] {
                                d(ca::range(0, n, 2)) =
                                    a(ca::range(0, n, 2)) + b(ca::range(0, n, 2));
                                q.finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"raw",
                            [&, ks, um, Gm] {
                                enqueue(cq, ks, {Gm}, {L}, pa, pb, pd, um);
                                finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"openmp",
                            [&, m] {
#pragma omp parallel for simd schedule(static)
                                for (std::size_t i = 0; i < m; ++i)
                                    hout[2 * i] = ha[2 * i] + hb[2 * i];
                            },
                            clear_h, [&] { return host_check(hout, want, 1e-6); }});
        run_case(oc);
    }
    if (wanted(opt, "transpose_add")) {
        op_case oc{"transpose_add", n, mn, 12.0 * mn, {}};
        std::vector<float> want(mn);
        for (std::size_t r = 0; r < s; ++r)
            for (std::size_t col = 0; col < s; ++col)
                want[r * s + col] = ha[col * s + r] + hb[r * s + col];
        cl_kernel kt = k("transpose_add");
        const cl_ulong us = s;
        const std::size_t Gs = round_up(s, 16);
        arr a2 = a(ca::range(0, mn)).reshape({s, s}), b2 = b(ca::range(0, mn)).reshape({s, s}),
            d2 = d(ca::range(0, mn)).reshape({s, s});
        oc.impls.push_back({"clarray",
                            [&, a2, b2, d2]() mutable {
                                d2 = a2.transpose() + b2;
                                q.finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"raw",
                            [&, kt, us, Gs] {
                                enqueue(cq, kt, {Gs, Gs}, {16, 16}, pa, pb, pd, us);
                                finish();
                            },
                            clear_d, [&] { return dev_check(d, want, 1e-6); }});
        oc.impls.push_back({"openmp",
                            [&] {
#pragma omp parallel for schedule(static)
                                for (std::size_t r = 0; r < s; ++r)
                                    for (std::size_t col = 0; col < s; ++col)
                                        hout[r * s + col] = ha[col * s + r] + hb[r * s + col];
                            },
                            clear_h, [&] { return host_check(hout, want, 1e-6); }});
        run_case(oc);
    }
    if (wanted(opt, "copy")) {
        op_case oc{"copy", n, n, 8.0 * n, {}};
        cl_kernel kc = k("copy");
        cl_int rc = CL_SUCCESS;
        cl_mem ba = clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   n * sizeof(float), ha.data(), &rc);
        check(rc, "clCreateBuffer");
        cl_mem bd = clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &rc);
        check(rc, "clCreateBuffer");
        std::shared_ptr<void> release(nullptr, [ba, bd](void*) {
            clReleaseMemObject(ba);
            clReleaseMemObject(bd);
        });
        oc.impls.push_back({"clarray",
                            [&] {
                                d = a;
                                q.finish();
                            },
                            clear_d, [&] { return dev_check(d, ha, 0); }});
        oc.impls.push_back({"clarray_buffer",
                            [&] {
                                buf_d = buf_a;
                                q.finish();
                            },
                            clear_bd, [&] { return dev_check(buf_d, ha, 0); }});
        oc.impls.push_back({"raw",
                            [&, kc] {
                                enqueue(cq, kc, {G}, {L}, pa, pd, un);
                                finish();
                            },
                            clear_d, [&] { return dev_check(d, ha, 0); }});
        oc.impls.push_back({"svm_memcpy",
                            [&] {
                                check(clEnqueueSVMMemcpy(cq, CL_FALSE, pd, pa, n * sizeof(float), 0,
                                                         nullptr, nullptr),
                                      "clEnqueueSVMMemcpy");
                                finish();
                            },
                            clear_d, [&] { return dev_check(d, ha, 0); }});
        oc.impls.push_back({"copy_buffer",
                            [&, ba, bd] {
                                check(clEnqueueCopyBuffer(cq, ba, bd, 0, 0, n * sizeof(float), 0,
                                                          nullptr, nullptr),
                                      "clEnqueueCopyBuffer");
                                finish();
                            },
                            {},
                            [&, bd]() -> std::string {
                                std::vector<float> got(n);
                                check(clEnqueueReadBuffer(cq, bd, CL_TRUE, 0, n * sizeof(float),
                                                          got.data(), 0, nullptr, nullptr),
                                      "clEnqueueReadBuffer");
                                return compare("buffer", got.data(), ha, 1, 0);
                            }});
        oc.impls.push_back({"openmp",
                            [&] {
#pragma omp parallel for simd schedule(static)
                                for (std::size_t i = 0; i < n; ++i)
                                    hout[i] = ha[i];
                            },
                            clear_h, [&] { return host_check(hout, ha, 0); }});
        run_case(oc);
    }

    // ---------------------------------------------------------- reductions
    double want_sum = 0, want_dot = 0;
    for (std::size_t i = 0; i < n; ++i) {
        want_sum += ha[i];
        want_dot += double(ha[i]) * hb[i];
    }
    arr result = ca::zeros<float>(q, {1});
    float* pres = result.svm_data();
    auto read_result = [&] {
        auto hv = result.map(ca::access::read);
        return double(hv(0));
    };
    // Two-stage raw reductions: partials, then a second launch on the device (no host read).
    const std::size_t P = cpu ? std::max<std::size_t>(1, std::min<std::size_t>(64, n / 4096))
                              : std::min<std::size_t>(1024, round_up(n, 256) / 256);
    const cl_ulong chunk = round_up((n + P - 1) / P, 32);
    arr part = ca::zeros<float>(q, {std::max<std::size_t>(P, 1)});
    float* ppart = part.svm_data();
    cl_kernel ksum = cpu ? k("sum_chunks") : k("sum_tree");
    cl_kernel kdot = cpu ? k("dot_chunks") : k("dot_tree");
    auto raw_sum_or_dot = [&, ksum, kdot, P, chunk](bool is_dot) {
        const cl_ulong uP = P;
        if (cpu) {
            if (is_dot)
                enqueue(cq, kdot, {P}, {1}, pa, pb, ppart, un, chunk);
            else
                enqueue(cq, ksum, {P}, {1}, pa, ppart, un, chunk);
            enqueue(cq, ksum, {1}, {1}, ppart, pres, uP, uP);
        } else {
            if (is_dot)
                enqueue(cq, kdot, {P * 256}, {256}, pa, pb, ppart, un, local_bytes{1024});
            else
                enqueue(cq, ksum, {P * 256}, {256}, pa, ppart, un, local_bytes{1024});
            enqueue(cq, ksum, {256}, {256}, ppart, pres, uP, local_bytes{1024});
        }
        finish();
    };
#if CLARRAY_BENCH_HAVE_REDUCE
    // A clarray reduction to one value: `reduce()` per call, the result held until the next call
    // (so its release is part of the timing, as for a user), checked by item().
    auto reduction_impl = [&](const char* name, auto reduce, double want) {
        auto held = std::make_shared<std::optional<decltype(reduce())>>();
        return impl{name,
                    [&q = q, held, reduce] {
                        held->emplace(reduce());
                        q.finish();
                    },
                    {},
                    [held, want, scalar_check] {
                        return scalar_check(double(held->value().item()), want);
                    }};
    };
#endif
    if (wanted(opt, "sum")) {
        op_case oc{"sum", n, n, 4.0 * n, {}};
#if CLARRAY_BENCH_HAVE_REDUCE
        oc.impls.push_back(reduction_impl(
            "clarray", [&] { return ca::sum(a); }, want_sum));
        oc.impls.push_back(reduction_impl(
            "clarray_buffer", [&] { return ca::sum(buf_a); }, want_sum));
#endif
        oc.impls.push_back({"raw",
                            [&] { raw_sum_or_dot(false); },
                            {},
                            [&] { return scalar_check(read_result(), want_sum); }});
        auto hs = std::make_shared<float>(0.0f);
        oc.impls.push_back({"openmp",
                            [&, hs] {
                                double acc = 0.0; // float lanes drift ~4% over 8e6 adds
#pragma omp parallel for simd reduction(+ : acc) schedule(static)
                                for (std::size_t i = 0; i < n; ++i)
                                    acc += ha[i];
                                *hs = acc;
                            },
                            {},
                            [&, hs] { return scalar_check(*hs, want_sum); }});
        run_case(oc);
    }
    if (wanted(opt, "dot")) {
        op_case oc{"dot", n, n, 8.0 * n, {}};
#if CLARRAY_BENCH_HAVE_REDUCE
        oc.impls.push_back(reduction_impl(
            "clarray", [&] { return ca::dot(a, b); }, want_dot));
        oc.impls.push_back(reduction_impl(
            "clarray_buffer", [&] { return ca::dot(buf_a, buf_b); }, want_dot));
#endif
        oc.impls.push_back({"raw",
                            [&] { raw_sum_or_dot(true); },
                            {},
                            [&] { return scalar_check(read_result(), want_dot); }});
        auto hs = std::make_shared<float>(0.0f);
        oc.impls.push_back({"openmp",
                            [&, hs] {
                                double acc = 0.0;
#pragma omp parallel for simd reduction(+ : acc) schedule(static)
                                for (std::size_t i = 0; i < n; ++i)
                                    acc += ha[i] * hb[i];
                                *hs = acc;
                            },
                            {},
                            [&, hs] { return scalar_check(*hs, want_dot); }});
        run_case(oc);
    }
    // ---------------------------------------------------------- complex64 (N >= 1e6)
    if (n >= 1000000 && (wanted(opt, "cmul_add") || wanted(opt, "cabs_sum"))) {
        using c64 = std::complex<float>;
        std::vector<c64> hza(n), hzb(n), hzd(n);
        for (std::size_t i = 0; i < n; ++i) {
            hza[i] = c64(ha[i], hb[i]);
            hzb[i] = c64(hc[i], he[i]);
            hzd[i] = c64(hb[i], ha[i]);
        }
        using carr = ca::cl_array<c64>;
        carr za = ca::to_device(q, hza), zb = ca::to_device(q, hzb), zd = ca::to_device(q, hzd),
             zc = ca::zeros<c64>(q, {n});
        q.finish();
        const float *pza = reinterpret_cast<const float*>(za.svm_data()),
                    *pzb = reinterpret_cast<const float*>(zb.svm_data()),
                    *pzd = reinterpret_cast<const float*>(zd.svm_data());
        float* pzc = reinterpret_cast<float*>(zc.svm_data());
        // Results compared part by part (real, imaginary interleaved).
        auto zc_check = [&](const std::vector<float>& want) {
            auto hv = zc.map(ca::access::read);
            return compare("device", reinterpret_cast<const float*>(hv.mapped_data()), want, 1,
                           1e-5);
        };
        auto clear_zc = [&] {
            zc.fill(c64(0, 0));
            q.finish();
        };
        if (wanted(opt, "cmul_add")) {
            op_case oc{"cmul_add", n, n, 32.0 * n, {}};
            std::vector<float> want(2 * n);
            for (std::size_t i = 0; i < n; ++i) {
                const c64 x = hza[i], y = hzb[i];
                want[2 * i] = x.real() * y.real() - x.imag() * y.imag() + hzd[i].real();
                want[2 * i + 1] = x.real() * y.imag() + x.imag() * y.real() + hzd[i].imag();
            }
            cl_kernel kc = k("cmul_add");
            oc.impls.push_back({"clarray",
                                [&] {
                                    zc = za * zb + zd;
                                    q.finish();
                                },
                                clear_zc, [&] { return zc_check(want); }});
            oc.impls.push_back({"raw",
                                [&, kc] {
                                    enqueue(cq, kc, {G}, {L}, pza, pzb, pzd, pzc, un);
                                    finish();
                                },
                                clear_zc, [&] { return zc_check(want); }});
            run_case(oc);
        }
#if CLARRAY_BENCH_HAVE_REDUCE
        if (wanted(opt, "cabs_sum")) {
            op_case oc{"cabs_sum", n, n, 8.0 * n, {}};
            double want = 0;
            for (std::size_t i = 0; i < n; ++i)
                want += std::abs(hza[i]);
            oc.impls.push_back(reduction_impl(
                "clarray", [&] { return ca::sum(ca::abs(za)); }, want));
            cl_kernel kabs = cpu ? k("cabs_chunks") : k("cabs_tree");
            oc.impls.push_back(
                {"raw",
                 [&, kabs] {
                     const cl_ulong uP = P;
                     if (cpu) {
                         enqueue(cq, kabs, {P}, {1}, pza, ppart, un, chunk);
                         enqueue(cq, ksum, {1}, {1}, ppart, pres, uP, uP);
                     } else {
                         enqueue(cq, kabs, {P * 256}, {256}, pza, ppart, un, local_bytes{1024});
                         enqueue(cq, ksum, {256}, {256}, ppart, pres, uP, local_bytes{1024});
                     }
                     finish();
                 },
                 {},
                 [&, want] { return scalar_check(read_result(), want); }});
            run_case(oc);
        }
#endif
    }
    // Axis reductions of the s x s matrix held in the first s*s elements of a.
    std::vector<float> want_row(s), want_col(s);
    for (std::size_t r = 0; r < s; ++r) {
        double acc = 0;
        for (std::size_t col = 0; col < s; ++col)
            acc += ha[r * s + col];
        want_row[r] = float(acc);
    }
    for (std::size_t col = 0; col < s; ++col) {
        double acc = 0;
        for (std::size_t r = 0; r < s; ++r)
            acc += ha[r * s + col];
        want_col[col] = float(acc);
    }
    arr vec_out = ca::zeros<float>(q, {s});
    float* pvec = vec_out.svm_data();
    std::vector<float> hvec(s);
    auto vec_check = [&](const std::vector<float>& want) {
        auto hv = vec_out.map(ca::access::read);
        std::vector<float> got(s);
        for (std::size_t i = 0; i < s; ++i)
            got[i] = hv(i);
        return compare("device", got.data(), want, 1, 1e-4);
    };
    auto clear_vec = [&] {
        vec_out.fill(0.0f);
        q.finish();
    };
    arr m2 = a(ca::range(0, mn)).reshape({s, s});
    (void)m2;
    const cl_ulong us = s;
    if (wanted(opt, "rowsum")) {
        op_case oc{"rowsum", n, mn, 4.0 * mn + 4.0 * s, {}};
#if CLARRAY_BENCH_HAVE_REDUCE
        auto held = std::make_shared<std::optional<decltype(ca::sum(m2, {1}))>>();
        oc.impls.push_back({"clarray",
                            [&, held] {
                                held->emplace(ca::sum(m2, {1}));
                                q.finish();
                            },
                            {},
                            [&, held] {
                                xt::xarray<float> got = held->value().get();
                                return compare("device", got.data(), want_row, 1, 1e-4);
                            }});
#endif
        cl_kernel kr = cpu ? k("rowsum_rows") : k("rowsum_groups");
        oc.impls.push_back({"raw",
                            [&, kr] {
                                if (cpu)
                                    enqueue(cq, kr, {round_up(s, 8)}, {8}, pa, pvec, us, us);
                                else
                                    enqueue(cq, kr, {s * 256}, {256}, pa, pvec, us, us,
                                            local_bytes{1024});
                                finish();
                            },
                            clear_vec, [&] { return vec_check(want_row); }});
        oc.impls.push_back({"openmp",
                            [&] {
#pragma omp parallel for schedule(static)
                                for (std::size_t r = 0; r < s; ++r) {
                                    float acc = 0.0f;
#pragma omp simd reduction(+ : acc)
                                    for (std::size_t col = 0; col < s; ++col)
                                        acc += ha[r * s + col];
                                    hvec[r] = acc;
                                }
                            },
                            {},
                            [&] { return compare("host", hvec.data(), want_row, 1, 1e-4); }});
        run_case(oc);
    }
    if (wanted(opt, "colsum")) {
        op_case oc{"colsum", n, mn, 4.0 * mn + 4.0 * s, {}};
#if CLARRAY_BENCH_HAVE_REDUCE
        auto held = std::make_shared<std::optional<decltype(ca::sum(m2, {0}))>>();
        oc.impls.push_back({"clarray",
                            [&, held] {
                                held->emplace(ca::sum(m2, {0}));
                                q.finish();
                            },
                            {},
                            [&, held] {
                                xt::xarray<float> got = held->value().get();
                                return compare("device", got.data(), want_col, 1, 1e-4);
                            }});
#endif
        // Row blocks: CPU min(64, s/16) blocks of contiguous rows; GPU 64 blocks.
        const std::size_t PB = cpu ? std::max<std::size_t>(1, std::min<std::size_t>(64, s / 16))
                                   : std::min<std::size_t>(64, s);
        const cl_ulong rows_per = (s + PB - 1) / PB, uPB = PB;
        arr cpart = ca::zeros<float>(q, {PB * s});
        float* pcp = cpart.svm_data();
        cl_kernel kp = cpu ? k("colsum_part_cpu") : k("colsum_part_gpu");
        cl_kernel kf = k("colsum_final");
        const std::size_t Gc = round_up(s, 64);
        oc.impls.push_back(
            {"raw",
             [&, kp, kf, PB, rows_per, uPB, pcp, Gc, cpart] {
                 if (cpu)
                     enqueue(cq, kp, {PB}, {1}, pa, pcp, us, us, rows_per);
                 else
                     enqueue(cq, kp, {round_up(s, 256), PB}, {256, 1}, pa, pcp, us, us, rows_per);
                 enqueue(cq, kf, {Gc}, {64}, static_cast<const float*>(pcp), pvec, uPB, us);
                 finish();
             },
             clear_vec, [&] { return vec_check(want_col); }});
        auto parts = std::make_shared<std::vector<float>>(std::size_t(nthreads) * s);
        oc.impls.push_back({"openmp",
                            [&, parts] {
                                std::vector<float>& pp = *parts;
#pragma omp parallel
                                {
                                    float* acc = pp.data() + std::size_t(omp_get_thread_num()) * s;
                                    std::fill(acc, acc + s, 0.0f);
#pragma omp for schedule(static)
                                    for (std::size_t r = 0; r < s; ++r) {
#pragma omp simd
                                        for (std::size_t col = 0; col < s; ++col)
                                            acc[col] += ha[r * s + col];
                                    }
                                }
                                const int used = nthreads;
#pragma omp parallel for simd schedule(static)
                                for (std::size_t col = 0; col < s; ++col) {
                                    float acc = 0.0f;
                                    for (int p = 0; p < used; ++p)
                                        acc += pp[std::size_t(p) * s + col];
                                    hvec[col] = acc;
                                }
                            },
                            {},
                            [&] { return compare("host", hvec.data(), want_col, 1, 1e-4); }});
        run_case(oc);
    }

#if CLARRAY_BENCH_HAVE_INDEXING
    // ---------------------------------------------------------- indexing
    if (wanted(opt, "take") || wanted(opt, "put") || wanted(opt, "hist")) {
        // idx[i] = i * 7919 mod n (a permutation when n is not a multiple of 7919): every
        // element once, in an order that defeats caches and prefetchers.
        std::vector<int> hidx(n), hbin(n);
        for (std::size_t i = 0; i < n; ++i) {
            hidx[i] = static_cast<int>((i * 7919u) % n);
            hbin[i] = static_cast<int>((i * 2654435761u >> 7) % 256u);
        }
        ca::cl_array<int> idx = ca::to_device(q, hidx), bin_idx = ca::to_device(q, hbin);
        ca::cl_array<int> bins = ca::zeros<int>(q, {256});
        q.finish();
        int *pidx = idx.svm_data(), *pbin = bin_idx.svm_data(), *pbins = bins.svm_data();
        if (wanted(opt, "take")) {
            op_case oc{"take", n, n, 12.0 * n, {}};
            auto want = expect([&](std::size_t i) { return ha[hidx[i]]; });
            cl_kernel kg = k("gather");
            oc.impls.push_back({"clarray",
                                [&] {
                                    d = ca::take(a, idx);
                                    q.finish();
                                },
                                clear_d, [&] { return dev_check(d, want, 0); }});
            oc.impls.push_back({"clarray_wrap", // no index check: no host read
                                [&] {
                                    d = ca::take(a, idx, 0, ca::index_mode::wrap);
                                    q.finish();
                                },
                                clear_d, [&] { return dev_check(d, want, 0); }});
            oc.impls.push_back({"raw",
                                [&, kg] {
                                    enqueue(cq, kg, {G}, {L}, pa, pidx, pd, un);
                                    finish();
                                },
                                clear_d, [&] { return dev_check(d, want, 0); }});
            oc.impls.push_back({"openmp",
                                [&] {
#pragma omp parallel for schedule(static)
                                    for (std::size_t i = 0; i < n; ++i)
                                        hout[i] = ha[hidx[i]];
                                },
                                clear_h, [&] { return host_check(hout, want, 0); }});
            run_case(oc);
        }
        if (wanted(opt, "put")) {
            op_case oc{"put", n, n, 12.0 * n, {}};
            std::vector<float> want(n);
            for (std::size_t i = 0; i < n; ++i)
                want[hidx[i]] = ha[i];
            cl_kernel ks = k("scatter");
            oc.impls.push_back({"clarray",
                                [&] {
                                    ca::put(d, idx, a);
                                    q.finish();
                                },
                                clear_d, [&] { return dev_check(d, want, 0); }});
            oc.impls.push_back({"clarray_wrap",
                                [&] {
                                    ca::put(d, idx, a, ca::index_mode::wrap);
                                    q.finish();
                                },
                                clear_d, [&] { return dev_check(d, want, 0); }});
            oc.impls.push_back({"raw",
                                [&, ks] {
                                    enqueue(cq, ks, {G}, {L}, pd, pidx, pa, un);
                                    finish();
                                },
                                clear_d, [&] { return dev_check(d, want, 0); }});
            oc.impls.push_back({"openmp",
                                [&] {
#pragma omp parallel for schedule(static)
                                    for (std::size_t i = 0; i < n; ++i)
                                        hout[hidx[i]] = ha[i];
                                },
                                clear_h, [&] { return host_check(hout, want, 0); }});
            run_case(oc);
        }
        if (wanted(opt, "hist")) {
            op_case oc{"hist", n, n, 4.0 * n, {}};
            std::vector<float> want(256, 0.0f);
            for (std::size_t i = 0; i < n; ++i)
                want[hbin[i]] += 1.0f;
            // Each call adds n more: the check runs once after a reset, so one call's counts.
            auto clear_bins = [&] {
                bins.fill(0);
                q.finish();
            };
            auto check_bins = [&] {
                auto hv = bins.map(ca::access::read);
                std::vector<float> got(256);
                for (std::size_t b = 0; b < 256; ++b)
                    got[b] = static_cast<float>(hv(b));
                return compare("device", got.data(), want, 1, 0);
            };
            cl_kernel kh = k("histogram");
            oc.impls.push_back({"clarray",
                                [&] {
                                    ca::add_at(bins, bin_idx, 1);
                                    q.finish();
                                },
                                clear_bins, check_bins});
            oc.impls.push_back({"raw",
                                [&, kh] {
                                    enqueue(cq, kh, {G}, {L}, pbins, pbin, un);
                                    finish();
                                },
                                clear_bins, check_bins});
            run_case(oc);
        }
    }
#endif

    // ---------------------------------------------------------- tuning shapes (raw only)
    if (n >= 1000000) {
        for (const char* base : {"add", "fused"}) {
            std::string op = std::string("tune_") + base;
            if (!wanted(opt, op)) continue;
            const bool is_add = std::strcmp(base, "add") == 0;
            op_case oc{op, n, n, (is_add ? 12.0 : 20.0) * n, {}};
            auto want =
                is_add ? expect([&](std::size_t i) { return ha[i] + hb[i]; }) : fused_want();
            const double tol = is_add ? 1e-6 : 1e-5;
            oc.impls.push_back({"clarray",
                                [&, is_add] {
                                    if (is_add)
                                        d = a + b;
                                    else
                                        d = a * b + c * ca::sin(e);
                                    q.finish();
                                },
                                clear_d, [&, tol] { return dev_check(d, want, tol); }});
            const std::size_t max_wg = ctx.device().max_work_group_size();
            for (int per : {1, 4, 8}) {
                std::string kname =
                    std::string(base) + (per == 1 ? "" : "_v" + std::to_string(per));
                cl_kernel kk = k(kname.c_str());
                for (std::size_t local : {64, 128, 256, 512, 1024}) {
                    if (local > max_wg) continue;
                    const std::size_t items = (n + per - 1) / per;
                    const std::size_t g = round_up(items, local);
                    std::string name =
                        "raw_" + std::to_string(per) + "pwi_L" + std::to_string(local);
                    if (per == 1 && local == L) name = "raw"; // the generated kernel's shape
                    oc.impls.push_back({name,
                                        [&, kk, g, local, is_add] {
                                            if (is_add)
                                                enqueue(cq, kk, {g}, {local}, pa, pb, pd, un);
                                            else
                                                enqueue(cq, kk, {g}, {local}, pa, pb, pc, pe, pd,
                                                        un);
                                            finish();
                                        },
                                        clear_d, [&, tol] { return dev_check(d, want, tol); }});
                }
            }
            run_case(oc);
        }
    }
}

std::vector<std::string> parse_list(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        out.push_back(item);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    options o;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error("missing value after " + arg);
            return argv[++i];
        };
        try {
            if (arg == "--reps")
                o.reps = std::stoi(value());
            else if (arg == "--target-ms")
                o.target_ms = std::stod(value());
            else if (arg == "--sizes")
                o.sizes = parse_sizes(value());
            else if (arg == "--ops")
                o.ops = parse_list(value());
            else if (arg == "--impls")
                o.impls = parse_list(value());
            else if (arg == "--out")
                o.out = value();
            else {
                std::cerr << "usage: bench_suite [--reps R] [--target-ms T] [--sizes 1e3,1e5,...] "
                             "[--ops add,sum,...] [--impls raw,openmp,...] [--out file.csv]\n";
                return 2;
            }
        } catch (const std::exception& e) {
            std::cerr << "bench_suite: " << e.what() << "\n";
            return 2;
        }
    }
    try {
        suite s(o);
        s.run_all();
    } catch (const std::exception& e) {
        std::cerr << "bench_suite: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
