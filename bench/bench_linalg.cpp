// GEMM throughput: clarray::matmul (float32 and float64, n x n times n x n) against the same
// CLBlast routine called directly on the arrays' memory, the floor of what matmul adds (the
// result's allocation from the pool, the zeroing of C, the ordering barrier). Also matmul with a
// transposed first operand (CLBlast's transpose flag, no copy). Interleaved repeats (every op
// once per round), each timed from enqueue to q.finish(); prints the median time and GFLOP/s
// (2 n^3 per product) and writes every sample to a CSV. Where the device has SVM, matmul of
// svm_coarse arrays too: on CPU devices that is the host BLAS (OpenBLAS) on the SVM memory
// (docs/linalg.md), which the buffer rows compare with CLBlast's kernels.
// --batched COUNT: instead, stacks of COUNT small systems (n = 8 and 32, float32 and float64:
// solve with one right-hand side per matrix, and inv), as cupy.linalg's batched routines in
// bench/py_field.py --only batched; n in the CSV is the matrix size, the work 2/3 n^3 + 2 n^2
// flops a solve, 2 n^3 an inverse, per matrix.
// Options: --size N (default 1024, or CLARRAY_BENCH_GEMM_SIZE) --reps R --out file.csv
//          --batched COUNT
#include <clarray/clarray.hpp>

#include <clblast.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace ca = clarray;

namespace {
using bench_common::median;

struct op {
    std::string name;
    double flops;
    std::function<void()> run;
};

template <class T>
void add_ops(std::vector<op>& ops, const ca::queue& q, std::size_t n, const char* prefix) {
    ca::random::generator gen(1);
    auto a = gen.uniform<T, ca::buffer>(q, {n, n}, T(-1), T(1));
    auto b = gen.uniform<T, ca::buffer>(q, {n, n}, T(-1), T(1));
    auto c = ca::zeros<T, ca::buffer>(q, {n, n});
    const double flops = 2.0 * double(n) * double(n) * double(n);
    ops.push_back({std::string(prefix) + " matmul", flops, [a, b] { ca::matmul(a, b); }});
    ops.push_back(
        {std::string(prefix) + " matmul(a.T, b)", flops, [a, b] { ca::matmul(a.transpose(), b); }});
    ops.push_back(
        {std::string(prefix) + " clblast::Gemm direct", flops, [a, b, c, q, n] {
             cl_command_queue raw = q.get();
             cl_event ev = nullptr;
             const auto s = clblast::Gemm<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo,
                                             clblast::Transpose::kNo, n, n, n, T(1),
                                             a.data()->buffer(), 0, n, b.data()->buffer(), 0, n,
                                             T(0), c.data()->buffer(), 0, n, &raw, &ev);
             if (s != clblast::StatusCode::kSuccess)
                 throw ca::error("clblast::Gemm: status " + std::to_string(static_cast<int>(s)));
             if (ev) clReleaseEvent(ev);
         }});
    if (!q.context().svm_caps().coarse) return;
    auto sa = gen.uniform<T, ca::svm_coarse>(q, {n, n}, T(-1), T(1));
    auto sb = gen.uniform<T, ca::svm_coarse>(q, {n, n}, T(-1), T(1));
    ops.push_back({std::string(prefix) + " matmul svm", flops, [sa, sb] { ca::matmul(sa, sb); }});
    ops.push_back({std::string(prefix) + " matmul(a.T, b) svm", flops,
                   [sa, sb] { ca::matmul(sa.transpose(), sb); }});
}

// Stacks of count n x n systems, well conditioned (uniform in [-1, 1) plus n on the diagonal).
template <class T>
void add_batched_ops(std::vector<op>& ops, std::vector<std::size_t>& sizes, const ca::queue& q,
                     std::size_t count, std::size_t n, const char* prefix) {
    ca::random::generator gen(2);
    ca::cl_array<T, ca::buffer> a = gen.uniform<T, ca::buffer>(q, {count, n, n}, T(-1), T(1)) +
                                    ca::eye<T, ca::buffer>(q, n) * T(n);
    auto b = gen.uniform<T, ca::buffer>(q, {count, n, 1}, T(-1), T(1));
    const double c = double(count), m = double(n);
    const std::string name = std::string(prefix) + " " + std::to_string(n) + "x" +
                             std::to_string(n) + " x" + std::to_string(count);
    ops.push_back({name + " solve", c * (2.0 / 3.0 * m * m * m + 2.0 * m * m),
                   [a, b] { ca::linalg::solve(a, b); }});
    ops.push_back({name + " inv", c * 2.0 * m * m * m, [a] { ca::linalg::inv(a); }});
    sizes.push_back(n);
    sizes.push_back(n);
}

} // namespace

int main(int argc, char** argv) {
    try {
        std::size_t n = 1024;
        if (const char* e = std::getenv("CLARRAY_BENCH_GEMM_SIZE"))
            n = std::strtoul(e, nullptr, 10);
        int reps = 7;
        std::size_t batched = 0;
        std::string out = "bench_linalg.csv";
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string a = argv[i], v = argv[i + 1];
            if (a == "--size")
                n = std::strtoul(v.c_str(), nullptr, 10);
            else if (a == "--reps")
                reps = std::max(1, std::atoi(v.c_str()));
            else if (a == "--out")
                out = v;
            else if (a == "--batched")
                batched = std::strtoul(v.c_str(), nullptr, 10);
            else
                throw ca::usage_error("unknown option " + a +
                                      " (--size N --reps R --out file --batched COUNT)");
        }
        if (n == 0) throw ca::usage_error("--size must be positive");
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        std::vector<op> ops;
        std::vector<std::size_t> sizes; // n of each op
        if (batched > 0) {
            for (std::size_t m : {8, 32}) {
                add_batched_ops<float>(ops, sizes, q, batched, m, "float32");
                if (ctx.device().has_fp64())
                    add_batched_ops<double>(ops, sizes, q, batched, m, "float64");
            }
        } else {
            add_ops<float>(ops, q, n, "sgemm");
            if (ctx.device().has_fp64()) add_ops<double>(ops, q, n, "dgemm");
            sizes.assign(ops.size(), n);
        }
        // One untimed round: CLBlast compiles its kernels on first use.
        for (const op& o : ops)
            o.run();
        q.finish();
        std::vector<std::vector<double>> samples(ops.size());
        for (int r = 0; r < reps; ++r)
            for (std::size_t i = 0; i < ops.size(); ++i) {
                const auto t0 = std::chrono::steady_clock::now();
                ops[i].run();
                q.finish();
                samples[i].push_back(
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
        std::ofstream csv(out);
        csv << "device,op,n,rep,seconds,gflops\n";
        std::cout << "device: " << ctx.device().name()
                  << (batched ? ", stacks of " + std::to_string(batched)
                              : ", n = " + std::to_string(n))
                  << ", " << reps << " rounds\n";
        for (std::size_t i = 0; i < ops.size(); ++i) {
            for (std::size_t r = 0; r < samples[i].size(); ++r)
                csv << '"' << ctx.device().name() << "\",\"" << ops[i].name << "\"," << sizes[i]
                    << ',' << r << ',' << samples[i][r] << ',' << ops[i].flops / samples[i][r] / 1e9
                    << '\n';
            const double t = median(samples[i]);
            std::cout << std::left << std::setw(30) << ops[i].name << std::right << std::fixed
                      << std::setprecision(3) << std::setw(10) << t * 1e3 << " ms "
                      << std::setprecision(1) << std::setw(9) << ops[i].flops / t / 1e9
                      << " GFLOP/s\n";
        }
        return 0;
    } catch (const ca::error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}
