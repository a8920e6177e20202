// Sorting N keys: clarray::sort and clarray::argsort (device radix sort) against std::sort and a
// parallel host sort (std::sort of one chunk per hardware thread, then parallel pairwise
// std::inplace_merge rounds), for float32 and uint32 keys. Every timing is a median of
// interleaved repeats; device timings run from enqueue to q.finish() on resident data (no
// transfers). The device result is checked against std::sort's. Then bincount of N int32 values
// into 256 and 4096 bins (privatised counts), checked against a host loop. The median (radix
// select, kernels/sort.cl select_*) is timed next to the sort, checked against the sorted keys.
// N: --n 1.6e7, or the environment variable CLARRAY_BENCH_N (default 1.6e7); --reps R;
// --host-reps H (default R; 0 skips the host sorts, for tuning runs of the device sort);
// --out file.csv writes every sample (columns as bench_random's: device,op,n,rep,seconds).
#include <clarray/clarray.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "bench_common.hpp"

namespace ca = clarray;

namespace {
using bench_common::median;
using bench_common::seconds;

template <class T> void parallel_sort(std::vector<T>& v) {
    const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t n = v.size();
    std::vector<std::size_t> bounds;
    for (std::size_t t = 0; t <= threads; ++t)
        bounds.push_back(n * t / threads);
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t)
        pool.emplace_back([&, t] { std::sort(v.begin() + bounds[t], v.begin() + bounds[t + 1]); });
    for (auto& th : pool)
        th.join();
    for (std::size_t width = 1; width < threads; width *= 2) {
        pool.clear();
        for (std::size_t t = 0; t + width < threads; t += 2 * width) {
            const std::size_t lo = bounds[t], mid = bounds[t + width],
                              hi = bounds[std::min(threads, t + 2 * width)];
            pool.emplace_back([&v, lo, mid, hi] {
                std::inplace_merge(v.begin() + lo, v.begin() + mid, v.begin() + hi);
            });
        }
        for (auto& th : pool)
            th.join();
    }
}

template <class T> std::vector<T> keys(std::size_t n) {
    std::mt19937_64 rng(42);
    std::vector<T> v(n);
    for (auto& x : v) {
        if constexpr (std::is_floating_point_v<T>)
            x = static_cast<T>(std::normal_distribution<double>(0, 1000)(rng));
        else
            x = static_cast<T>(rng());
    }
    return v;
}

template <class T>
bool run(const ca::queue& q, std::size_t n, int reps, int host_reps, const char* name,
         std::ostream& csv) {
    const std::vector<T> host = keys<T>(n);
    ca::cl_array<T> d(q, ca::shape_type{n});
    d.set(host);
    std::vector<T> want = host;
    std::sort(want.begin(), want.end());
    {
        ca::cl_array<T> s = ca::sort(d); // warm-up (builds the kernels) and check
        ca::cl_array<std::int64_t> i = ca::argsort(d);
        const xt::xarray<T> got = s.get();
        if (!std::equal(want.begin(), want.end(), got.begin())) {
            std::cerr << name << ": device sort differs from std::sort\n";
            return false;
        }
        const xt::xarray<std::int64_t> idx = i.get();
        for (std::size_t k = 0; k < n; ++k)
            if (host[static_cast<std::size_t>(idx(k))] != want[k]) {
                std::cerr << name << ": device argsort differs from std::sort\n";
                return false;
            }
    }
    {
        // median (radix select, no sort): checked against the sorted keys
        using R = ca::stat_float_t<T>;
        const double got = static_cast<double>(ca::median(d).item());
        const double mid =
            n % 2 ? double(R(want[n / 2])) : double((R(want[n / 2 - 1]) + R(want[n / 2])) / R(2));
        if (got != mid) {
            std::cerr << name << ": device median differs from the sorted keys'\n";
            return false;
        }
    }
    std::vector<double> t_sort, t_arg, t_med, t_std, t_par;
    for (int r = 0; r < reps; ++r) {
        t_sort.push_back(seconds([&] {
            ca::cl_array<T> s = ca::sort(d);
            q.finish();
        }));
        t_arg.push_back(seconds([&] {
            ca::cl_array<std::int64_t> i = ca::argsort(d);
            q.finish();
        }));
        t_med.push_back(seconds([&] {
            auto m = ca::median(d);
            q.finish();
        }));
        if (r >= host_reps) continue;
        std::vector<T> a = host, b = host;
        t_std.push_back(seconds([&] { std::sort(a.begin(), a.end()); }));
        t_par.push_back(seconds([&] { parallel_sort(b); }));
        if (b != want) {
            std::cerr << name << ": parallel host sort is wrong\n";
            return false;
        }
    }
    const std::string dev = q.context().device().name();
    auto line = [&](const char* what, const std::vector<double>& t) {
        if (t.empty()) return;
        for (std::size_t r = 0; r < t.size(); ++r)
            csv << '"' << dev << "\"," << name << ' ' << what << ',' << n << ',' << r << ',' << t[r]
                << '\n';
        const double s = median(t);
        std::cout << name << "  " << what << std::string(24 - std::string(what).size(), ' ')
                  << s * 1e3 << " ms  " << n / s / 1e6 << " Mkeys/s\n";
    };
    line("clarray::sort", t_sort);
    line("clarray::argsort", t_arg);
    line("clarray::median", t_med);
    std::cout << name << "  median / sort time        " << median(t_med) / median(t_sort) << "\n";
    line("std::sort", t_std);
    line("parallel host sort", t_par);
    return true;
}

// bincount of n int32 values in [0, bins) (privatised counts up to 4096 bins), checked against
// a host loop. Includes bincount's blocking read of the extremes.
bool run_bincount(const ca::queue& q, std::size_t n, std::size_t bins, int reps,
                  std::ostream& csv) {
    std::mt19937_64 rng(7);
    std::vector<std::int32_t> host(n);
    std::vector<std::int64_t> want(bins, 0);
    for (auto& x : host) {
        x = static_cast<std::int32_t>(rng() % bins);
        ++want[static_cast<std::size_t>(x)];
    }
    ca::cl_array<std::int32_t> d(q, ca::shape_type{n});
    d.set(host);
    const xt::xarray<std::int64_t> got = ca::bincount(d, bins).get();
    if (!std::equal(want.begin(), want.end(), got.begin())) {
        std::cerr << "bincount differs from the host's counts\n";
        return false;
    }
    std::vector<double> t;
    for (int r = 0; r < reps; ++r)
        t.push_back(seconds([&] {
            ca::cl_array<std::int64_t> c = ca::bincount(d, bins);
            q.finish();
        }));
    const std::string dev = q.context().device().name(), what = "bincount " + std::to_string(bins);
    for (std::size_t r = 0; r < t.size(); ++r)
        csv << '"' << dev << "\",int32 " << what << ',' << n << ',' << r << ',' << t[r] << '\n';
    const double m = median(t);
    std::cout << "int32  clarray::" << what << std::string(15 - what.size(), ' ') << m * 1e3
              << " ms  " << n / m / 1e6 << " Mvalues/s\n";
    return true;
}

} // namespace

int main(int argc, char** argv) {
    try {
        std::size_t n = 16000000;
        if (const char* e = std::getenv("CLARRAY_BENCH_N"))
            n = static_cast<std::size_t>(std::stod(e));
        int reps = 5, host_reps = -1;
        std::string out;
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string a = argv[i], v = argv[i + 1];
            if (a == "--n")
                n = static_cast<std::size_t>(std::stod(v));
            else if (a == "--reps")
                reps = std::max(1, std::atoi(v.c_str()));
            else if (a == "--host-reps")
                host_reps = std::max(0, std::atoi(v.c_str()));
            else if (a == "--out")
                out = v;
            else {
                std::cerr
                    << "usage: bench_sort [--n N] [--reps R] [--host-reps H] [--out file.csv]\n";
                return 2;
            }
        }
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        std::cout << "device: " << ctx.device().name() << "  N = " << n
                  << "  host threads: " << std::thread::hardware_concurrency() << "\n";
        std::ofstream file;
        if (!out.empty()) file.open(out);
        std::ostream& csv = file;
        if (file.is_open()) csv << "device,op,n,rep,seconds\n";
        const int hr = host_reps < 0 ? reps : host_reps;
        const bool ok = run<float>(q, n, reps, hr, "float32", csv) &&
                        run<std::uint32_t>(q, n, reps, hr, "uint32", csv) &&
                        run_bincount(q, n, 256, reps, csv) && run_bincount(q, n, 4096, reps, csv);
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "bench_sort: " << e.what() << "\n";
        return 1;
    }
}
