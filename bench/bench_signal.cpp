// The convolution crossover: clarray's direct correlation (a sliding-window view summed by one
// reduction kernel) against its FFT path (rfft of both inputs, a product, irfft) for a signal
// of n points and kernels of m points, float32 and float64. Each op timed from enqueue to
// q.finish(), interleaved repeats, median per op; prints direct/fft per m (above 1 the FFT is
// faster) and writes every sample to a CSV. detail::fft_crossover in signal/convolve.hpp is the
// smallest m where the FFT won on pocl (docs/signal.md has the table). FFT plans are built in
// the warm-up round.
// Options: --n N (default 1e5 on CPU devices, 1e7 otherwise) --m 4,8,...,1024 --reps R
//          --out file.csv
#include <clarray/clarray.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace ca = clarray;

namespace {
using bench_common::median;

template <class T>
void run(ca::queue& q, std::size_t n, const std::vector<std::size_t>& ms, int reps,
         std::ofstream& csv, const char* type, const std::string& device) {
    const auto a = ca::full<T>(q, {n}, T(0.5));
    for (std::size_t m : ms) {
        const auto w = ca::full<T>(q, {m}, T(0.25));
        ca::cl_array<T> keep; // the last result, so that its memory is not reused mid-op
        const std::vector<std::pair<std::string, std::function<void()>>> ops = {
            {"direct", [&] { keep = ca::detail::correlate_direct(a, w); }},
            {"fft", [&] { keep = ca::detail::correlate_fft(a, w); }},
        };
        for (const auto& o : ops) { // warm-up: kernel builds, FFT plans
            o.second();
            q.finish();
        }
        std::vector<std::vector<double>> t(ops.size());
        for (int r = 0; r < reps; ++r)
            for (std::size_t k = 0; k < ops.size(); ++k) {
                const std::size_t i = (k + static_cast<std::size_t>(r)) % ops.size();
                const double s = bench_common::seconds([&] {
                    ops[i].second();
                    q.finish();
                });
                t[i].push_back(s);
                csv << device << ',' << type << ',' << ops[i].first << ',' << n << ',' << m << ','
                    << r << ',' << s << '\n';
            }
        const double d = median(t[0]), f = median(t[1]);
        std::printf("%-7s n %zu m %5zu  direct %9.3f ms  fft %9.3f ms  direct/fft %6.2f\n", type, n,
                    m, d * 1e3, f * 1e3, d / f);
    }
}

} // namespace

int main(int argc, char** argv) {
    try {
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        std::size_t n = ctx.device().is_cpu() ? 100000 : 10000000;
        std::vector<std::size_t> ms = {4, 8, 16, 32, 48, 64, 96, 128, 256, 512, 1024};
        int reps = 7;
        std::string out = "bench_signal.csv";
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string a = argv[i], v = argv[i + 1];
            if (a == "--n")
                n = static_cast<std::size_t>(std::stod(v));
            else if (a == "--m")
                ms = bench_common::parse_sizes(v);
            else if (a == "--reps")
                reps = std::max(1, std::atoi(v.c_str()));
            else if (a == "--out")
                out = v;
            else {
                std::cerr << "usage: bench_signal [--n N] [--m 4,8,16] [--reps R] [--out f.csv]\n";
                return 2;
            }
        }
        std::ofstream csv(out);
        csv << "device,type,op,n,m,rep,seconds\n";
        const std::string device = ctx.device().name();
        std::printf("device: %s\n", device.c_str());
        run<float>(q, n, ms, reps, csv, "float32", device);
        if (ctx.device().has_fp64()) run<double>(q, n, ms, reps, csv, "float64", device);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "bench_signal: " << e.what() << '\n';
        return 1;
    }
}
