// Random draws against the device's write bandwidth: values per second of clarray::random's
// uniform, normal and integers (into contiguous arrays and a transposed view), exponential, gamma,
// poisson and binomial (new arrays) next to a fill of
// the same array (clarray's fill: clEnqueueSVMMemFill / clEnqueueFillBuffer) and a raw kernel
// that writes its index, the ceiling of a kernel that only writes. Interleaved repeats (every
// op once per round), each timed from enqueue to q.finish(); prints the median per op and
// writes every sample to a CSV.
// Options: --sizes 1.6e7,1e6 --reps R --out file.csv
#include <clarray/clarray.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace ca = clarray;
namespace cr = clarray::random;

namespace {
using bench_common::median;
using bench_common::parse_sizes;

struct op {
    std::string name;
    std::size_t bytes_per_value;
    std::function<void()> run;
};

} // namespace

int main(int argc, char** argv) {
    try {
        std::vector<std::size_t> sizes{16000000};
        int reps = 15;
        std::string out = "bench_random.csv";
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string a = argv[i], v = argv[i + 1];
            if (a == "--sizes")
                sizes = parse_sizes(v);
            else if (a == "--reps")
                reps = std::max(1, std::atoi(v.c_str()));
            else if (a == "--out")
                out = v;
            else {
                std::cerr << "usage: bench_random [--sizes 1.6e7,1e6] [--reps R] [--out f.csv]\n";
                return 2;
            }
        }
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        const bool fp64 = ctx.device().has_fp64();
        ca::program raw(ctx, R"CLC(
kernel void write_index(global float* out, ulong n) {
    const size_t i = get_global_id(0);
    if (i < n) out[i] = (float)i;
}
)CLC");
        ca::kernel write_index = raw.kernel("write_index");
        std::ofstream csv(out);
        csv << "device,op,n,rep,seconds\n";
        std::cout << "device: " << ctx.device().name() << "\n";
        std::cout << "op                      n       median ms   Gvalues/s   GB/s written\n";
        for (std::size_t n : sizes) {
            auto f = ca::empty<float>(q, {n});
            auto d = fp64 ? ca::empty<double>(q, {n}) : ca::cl_array<double>();
            auto k = ca::empty<std::int32_t>(q, {n});
            const std::size_t side = 4000; // a transposed square view of up to side^2 elements
            const std::size_t rows = std::max<std::size_t>(1, n / side);
            auto square = ca::empty<float>(q, {rows, side});
            cr::generator gen(1);
            const cl_ulong count = n;
            std::vector<op> ops = {
                {"fill float32", 4, [&] { f.fill(0.5f); }},
                {"raw write float32", 4,
                 [&] { write_index(q, {(n + 255) / 256 * 256}, ca::out(f), count); }},
                {"uniform float32", 4, [&] { gen.fill_uniform(f); }},
                {"normal float32", 4, [&] { gen.fill_normal(f); }},
                {"integers int32 [0,6)", 4, [&] { gen.fill_integers(k, 0, 6); }},
                {"uniform float32 (transposed view)", 4,
                 [&] { gen.fill_uniform(square.transpose()); }},
                // The per-position distributions (a new array each, from the pool).
                {"exponential float32", 4, [&] { gen.exponential<float>(q, {n}); }},
                {"gamma float32 (shape 2)", 4, [&] { gen.gamma<float>(q, {n}, 2.0f); }},
                {"gamma float32 (shape 0.5)", 4, [&] { gen.gamma<float>(q, {n}, 0.5f); }},
            };
            if (fp64) {
                ops.push_back({"fill float64", 8, [&] { d.fill(0.5); }});
                ops.push_back({"uniform float64", 8, [&] { gen.fill_uniform(d); }});
                ops.push_back({"normal float64", 8, [&] { gen.fill_normal(d); }});
                ops.push_back({"poisson int64 (lam 3)", 8, [&] { gen.poisson(q, {n}, 3.0); }});
                ops.push_back({"poisson int64 (lam 100)", 8, [&] { gen.poisson(q, {n}, 100.0); }});
                ops.push_back(
                    {"binomial int64 (1000, 0.3)", 8, [&] { gen.binomial(q, {n}, 1000, 0.3); }});
            }
            std::vector<std::vector<double>> samples(ops.size());
            for (auto& o : ops) { // warm-up: kernel builds, first touch of the memory
                o.run();
                q.finish();
            }
            for (int r = 0; r < reps; ++r)
                for (std::size_t i = 0; i < ops.size(); ++i) {
                    const std::size_t j = (i + static_cast<std::size_t>(r)) % ops.size();
                    const auto t0 = std::chrono::steady_clock::now();
                    ops[j].run();
                    q.finish();
                    const double s =
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                            .count();
                    samples[j].push_back(s);
                    csv << '"' << ctx.device().name() << "\"," << ops[j].name << ',' << n << ','
                        << r << ',' << s << '\n';
                }
            for (std::size_t i = 0; i < ops.size(); ++i) {
                const std::size_t values =
                    ops[i].name.find("transposed") != std::string::npos ? rows * side : n;
                const double m = median(samples[i]);
                std::printf("%-33s %9zu %9.3f %11.3f %11.1f\n", ops[i].name.c_str(), values,
                            m * 1e3, values / m * 1e-9, values * ops[i].bytes_per_value / m * 1e-9);
            }
        }
        return 0;
    } catch (const ca::error& e) {
        std::cerr << "bench_random: " << e.what() << "\n";
        return 1;
    }
}
