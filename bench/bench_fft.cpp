// Forward complex64 transforms through clarray::fft (VkFFT) next to a plain device copy of the
// same array (clarray's copy: one read and one write of every element), the bandwidth context:
// a transform reads and writes the data at least once per pass, so its time over the copy's says
// how many memory passes it costs. 1-d: fft of n1 points; 2-d: fft2 of n2 x n2. Each op timed
// from enqueue to q.finish(), interleaved repeats; prints the median per op with GFLOP/s as
// 5 N log2 N / t (the usual radix-2 count) and the ratio to the copy; writes every sample to a
// CSV. The plans are built in the warm-up round, outside the timing.
// Options: --n1 16777216 --n2 4096 --reps R --out file.csv (defaults on CPU devices: 2^20, 1024)
#include <clarray/clarray.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace ca = clarray;
using c64 = std::complex<float>;

namespace {
using bench_common::median;

struct op {
    std::string name;
    std::size_t points;
    bool transform; // false: the copy the transform is compared with
    std::function<void()> run;
};

} // namespace

int main(int argc, char** argv) {
    try {
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        const bool cpu = ctx.device().is_cpu();
        std::size_t n1 = cpu ? std::size_t(1) << 20 : std::size_t(1) << 24;
        std::size_t n2 = cpu ? 1024 : 4096;
        int reps = 11;
        std::string out = "bench_fft.csv";
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string a = argv[i], v = argv[i + 1];
            if (a == "--n1")
                n1 = static_cast<std::size_t>(std::stod(v));
            else if (a == "--n2")
                n2 = static_cast<std::size_t>(std::stod(v));
            else if (a == "--reps")
                reps = std::max(1, std::atoi(v.c_str()));
            else if (a == "--out")
                out = v;
            else {
                std::cerr << "usage: bench_fft [--n1 N] [--n2 SIDE] [--reps R] [--out f.csv]\n";
                return 2;
            }
        }
        // Inputs with every value set (a transform of uninitialised memory may meet NaNs, whose
        // arithmetic is slower on some devices).
        auto x1 = ca::full<c64>(q, {n1}, c64(0.5f, -0.25f));
        auto x2 = ca::full<c64>(q, {n2, n2}, c64(0.5f, -0.25f));
        ca::cl_array<c64> keep; // the last result, so that its memory is not reused mid-op
        std::vector<op> ops = {
            {"fft c64 1-d", n1, true, [&] { keep = ca::fft::fft(x1); }},
            {"copy c64 1-d", n1, false, [&] { keep = x1.copy(); }},
            {"fft2 c64 2-d", n2 * n2, true, [&] { keep = ca::fft::fft2(x2); }},
            {"copy c64 2-d", n2 * n2, false, [&] { keep = x2.copy(); }},
        };
        for (auto& o : ops) { // warm-up: plans, kernel builds, first touch of the memory
            o.run();
            q.finish();
        }
        std::ofstream csv(out);
        csv << "device,op,points,rep,seconds\n";
        std::vector<std::vector<double>> samples(ops.size());
        for (int r = 0; r < reps; ++r)
            for (std::size_t i = 0; i < ops.size(); ++i) {
                const std::size_t j = (i + static_cast<std::size_t>(r)) % ops.size();
                const auto t0 = std::chrono::steady_clock::now();
                ops[j].run();
                q.finish();
                const double s =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                samples[j].push_back(s);
                csv << '"' << ctx.device().name() << "\"," << ops[j].name << ',' << ops[j].points
                    << ',' << r << ',' << s << '\n';
            }
        std::cout << "device: " << ctx.device().name() << "\n"
                  << "op                  points      median ms    GFLOP/s   GB/s (r+w)   "
                     "time / copy\n";
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const double m = median(samples[i]);
            const double N = double(ops[i].points);
            const double gflops = ops[i].transform ? 5 * N * std::log2(N) / m * 1e-9 : 0;
            const double gbs = 2 * N * sizeof(c64) / m * 1e-9; // one read and one write each
            const double copy = median(samples[ops[i].transform ? i + 1 : i]);
            std::printf("%-18s %10zu %12.3f %10.2f %12.1f %12.2f\n", ops[i].name.c_str(),
                        ops[i].points, m * 1e3, gflops, gbs, m / copy);
        }
        return 0;
    } catch (const ca::error& e) {
        std::cerr << "bench_fft: " << e.what() << "\n";
        return 1;
    }
}
