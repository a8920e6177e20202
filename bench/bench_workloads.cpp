// Workload benchmark: whole small programs written the way a clarray user writes them, timed per
// step, next to the same programs in NumPy / CuPy (bench/py_workloads.py, same workloads, sizes
// and CSV columns).
//
//   heat_inplace   u(in,in) = u(in,in) + a*(u(r0,in) + u(r2,in) + u(in,r0) + u(in,r2) - 4*u(in,in))
//   heat_pingpong  v(in,in) = <the same of u>, then the two grids change roles
//   softmax        m = max(x,{1},true); e = exp(x - m); s = sum(e,{1},true); y = e / s
//   kmeans_assign  d = p(all,newaxis,all) - c(newaxis,all,all); lab = argmin(sum(d*d,{2}),1)
//   standardise    (x - mean(x,{0},true)) / stddev(x,{0},true)
//   layernorm      (x - mean(x,{1},true)) / sqrt(var(x,{1},true) + eps) * gamma + beta
//   outer          c = a(all,newaxis) * b(newaxis,all)
//   where_scale    x = where(x > t, x * s, x)
//
// Composed programs (the field's paths in whole programs; checked against host computations):
//   mlp            softmax(relu(x @ w1 + b1) @ w2 + b2) by rows (matmul, fused bias + relu)
//   fftconv        real(ifft2(fft2(x) * h)), h a shift by (1, 1) in the frequency domain
//   topk           i = argsort(x)[-k:]; v = take(x, i)
//   topk_select    topk(x, k): the k largest by a selection (CuPy: argpartition, then sort k)
//   median         median(x), a 0-d array (CuPy: cupy.median)
//   percentile     percentile(x, {5, 50, 95}) (CuPy: cupy.percentile)
//   unique         unique(v) of int32 with 1000 distinct values
//   gather_norm    r = take(table, idx, 0); layer norm of the rows of r
//   montecarlo     count_nonzero(x*x + y*y <= 1) of 2 x n uniforms, read back
//   spectrum       argmax(abs(rfft(x))), read back
//   histogram      histogram(z, 256, {-4, 4}) of n normals
//   kmeans_iter    distances by GEMM, argmin, bincount, add_at, new centres
//
// One step = the work above, then q.finish(). Results of expressions are new arrays each step
// (held until the next step, so their release is part of the timing); named intermediates that
// a later statement reads twice are stored (softmax's e), one used by a single expression stays
// a lazy `auto` expression (k-means' d), as a C++ user writes them. float32 throughout.
//
// Spelling pairs: two spellings of the same work whose times should be within 1.25x of each
// other (exp of a broadcast difference vs plain exp into the same storage; copy-assign of a view
// vs the same through an expression; in-place vs ping-pong heat; a reduction over an axis of
// length 4 vs the sum written out over views).
//
// Timing: every workload is warmed up and checked against host loops (CHECK ok / CHECK FAILED;
// a failed check makes the exit code 1), then R repeats run every workload once each in an
// order rotated per repeat, so that machine noise spreads over all of them. One sample is the
// mean of `inner` steps, `inner` chosen so that a sample lasts about --target-ms. The CSV has
// every sample (columns as bench_suite); bench/report.py takes medians and ratios.
//
//   bench_workloads [--preset pocl|gpu] [--reps R] [--target-ms T] [--ops a,b] [--out f.csv]
//
// --preset picks the size set (default: pocl on a CPU device, gpu otherwise); --sizes is a
// synonym. Keep the size table in step with bench/py_workloads.py.
#include <clarray/clarray.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"

namespace ca = clarray;

namespace {
using bench_common::median;

using farr = ca::cl_array<float>;
using hvec = std::vector<float>;

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Sizes of one preset (the same table is in bench/py_workloads.py).
struct preset {
    std::string name;
    std::size_t heat;                 // grid heat x heat
    std::size_t soft_rows, soft_cols; // softmax
    std::size_t kmeans_points;        // N x 4 points, 16 x 4 centres
    std::size_t std_rows, std_cols;   // standardise
    std::size_t ln_rows, ln_cols;     // layernorm
    std::size_t outer;                // outer x outer
    std::size_t where;                // 1-d
};
const preset pocl_preset{"pocl", 1024, 512, 4096, 262144, 4096, 1024, 4096, 1024, 2048, 1u << 22};
const preset gpu_preset{"gpu", 4096,  8192, 4096, 1u << 22, 16384,
                        4096,  16384, 4096, 8192, 1u << 26};
// Sizes of the composed programs (the same table is in bench/py_workloads.py).
struct program_preset {
    std::size_t mlp_batch, mlp_in, mlp_hidden; // x: batch x in, w1: in x hidden, w2: hidden x in
    std::size_t fft;                           // fftconv: fft x fft
    std::size_t sort_n;                        // topk, unique
    std::size_t table_rows, gathered;          // gather_norm: table_rows x 256, gathered rows
    std::size_t random_n;                      // montecarlo (x2), histogram
    std::size_t spectrum;                      // rfft length
    std::size_t km_points, km_dims, km_centres;
};
const program_preset pocl_programs{1024, 512,      1024,     512,    1u << 20, 16384,
                                   8192, 1u << 20, 1u << 18, 262144, 16,       32};
const program_preset gpu_programs{4096,  1024,     4096,     2048,     16000000, 65536,
                                  32768, 16000000, 1u << 22, 1u << 22, 16,       32};
constexpr std::size_t topk_k = 100, unique_distinct = 1000, norm_cols = 256;
constexpr std::size_t kmeans_centres = 16, kmeans_dims = 4;
constexpr float heat_a = 0.2f, ln_eps = 1e-5f, where_t = 1.0f, where_s = 0.5f;

// Input patterns (exact in float; py_workloads.py uses the same ones).
hvec heat_init(std::size_t n) {
    hvec u(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            u[i * n + j] = float((i * 7 + j * 13) % 31) * 0.1f;
    return u;
}
hvec softmax_init(std::size_t rows, std::size_t cols) {
    hvec x(rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            x[r * cols + c] = float((r * 3 + c * 7) % 41) * 0.25f - 5.0f;
    return x;
}
hvec points_init(std::size_t n) {
    hvec p(n * kmeans_dims);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < kmeans_dims; ++k)
            p[i * kmeans_dims + k] = float((i * (k + 3) + k) % 17) * 0.25f - 2.0f;
    return p;
}
hvec centres_init() {
    hvec c(kmeans_centres * kmeans_dims);
    for (std::size_t j = 0; j < kmeans_centres; ++j)
        for (std::size_t k = 0; k < kmeans_dims; ++k)
            c[j * kmeans_dims + k] = float((j * 5 + k * 3) % 11) * 0.5f - 2.5f;
    return c;
}
hvec standardise_init(std::size_t rows, std::size_t cols) {
    hvec x(rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            x[r * cols + c] = float((r * 5 + c * 3) % 37) * 0.5f + float(c % 7);
    return x;
}
hvec layernorm_init(std::size_t rows, std::size_t cols) {
    hvec x(rows * cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            x[r * cols + c] = float((r * 11 + c * 5) % 43) * 0.2f - 4.0f;
    return x;
}
hvec pattern(std::size_t n, std::size_t mod, float scale, float shift) {
    hvec v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = float(i % mod) * scale + shift;
    return v;
}

// Host references (plain loops, double where it matters).
hvec heat_reference(const hvec& u, std::size_t n) {
    hvec w = u;
    for (std::size_t i = 1; i + 1 < n; ++i)
        for (std::size_t j = 1; j + 1 < n; ++j) {
            const float c = u[i * n + j];
            w[i * n + j] = c + heat_a * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                                         u[i * n + j - 1] + u[i * n + j + 1] - 4.0f * c);
        }
    return w;
}
// Squared distances of every point to every centre, N x 16 (exact for the patterns above).
hvec distances_reference(const hvec& p, const hvec& c, std::size_t n) {
    hvec d(n * kmeans_centres);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < kmeans_centres; ++j) {
            float acc = 0;
            for (std::size_t k = 0; k < kmeans_dims; ++k) {
                const float t = p[i * kmeans_dims + k] - c[j * kmeans_dims + k];
                acc += t * t;
            }
            d[i * kmeans_centres + j] = acc;
        }
    return d;
}

// Layer norm of one row of n values (mean and variance in double), scaled by gamma and shifted
// by beta, into out.
void layernorm_row_reference(const float* row, std::size_t n, const hvec& gamma, const hvec& beta,
                             float eps, float* out) {
    double mu = 0, var = 0;
    for (std::size_t c = 0; c < n; ++c)
        mu += row[c];
    mu /= double(n);
    for (std::size_t c = 0; c < n; ++c)
        var += (row[c] - mu) * (row[c] - mu);
    var /= double(n);
    for (std::size_t c = 0; c < n; ++c)
        out[c] = float((row[c] - mu) / std::sqrt(var + eps) * gamma[c] + beta[c]);
}

// Compares every element: |got - want| <= tol * (1 + |want|); "" when all pass.
template <class G, class W>
std::string compare_all(const char* what, const G& got, const W& want, double tol) {
    if (got.size() != want.size())
        return std::string(what) + ": " + std::to_string(got.size()) + " elements, expected " +
               std::to_string(want.size());
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double w = double(want[i]), g = double(got[i]);
        if (!(std::fabs(g - w) <= tol * (1.0 + std::fabs(w)))) {
            if (bad++ == 0) first = i;
        }
    }
    if (bad == 0) return "";
    std::ostringstream s;
    s << what << ": " << bad << " of " << want.size() << " elements wrong, first at " << first
      << ": " << double(got[first]) << ", expected " << double(want[first]);
    return s.str();
}
template <class T> std::vector<T> to_host(const ca::cl_array<T>& a) {
    auto x = a.get();
    return std::vector<T>(x.begin(), x.end());
}

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

struct workload {
    std::string op;    // CSV name
    std::string shape; // for the report, e.g. 1024x1024
    std::size_t elements;
    double bytes;                       // compulsory traffic per step (read once, written once)
    std::function<void()> step;         // the work, then q.finish()
    std::function<void()> reset;        // restores the inputs of state-carrying workloads
    std::function<std::string()> check; // after reset + one step: "" when right
};
// Two spellings of the same work: times should be within 1.25x.
struct spelling_pair {
    std::string op;
    std::string shape;
    std::size_t elements;
    workload first, second;
};

struct options {
    int reps = 11;
    double target_ms = 2.0;
    std::string preset; // empty: from the device type
    std::vector<std::string> ops;
    std::string out = "bench_workloads.csv";
};

std::vector<std::string> parse_list(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

std::string dims(std::size_t a, std::size_t b) {
    return std::to_string(a) + "x" + std::to_string(b);
}

class bench {
public:
    explicit bench(options o) : opt_(std::move(o)) {
        const std::string want = opt_.preset.empty()
                                     ? (ctx_.device().is_cpu() ? std::string("pocl") : "gpu")
                                     : opt_.preset;
        if (want == "pocl")
            p_ = pocl_preset, pp_ = pocl_programs;
        else if (want == "gpu")
            p_ = gpu_preset, pp_ = gpu_programs;
        else
            throw std::runtime_error("unknown preset '" + want + "' (pocl or gpu)");
    }

    // Returns the number of failed checks.
    int run() {
        header();
        std::vector<workload> ws;
        add_workloads(ws);
        add_programs(ws);
        measure("workloads", ws);
        std::vector<spelling_pair> pairs;
        add_pairs(pairs);
        for (spelling_pair& sp : pairs) {
            std::vector<workload> two{sp.first, sp.second};
            auto med = measure(sp.op, two);
            if (med.size() == 2 && med[0] > 0 && med[1] > 0) {
                const double ratio = med[1] / med[0];
                const double spread = std::max(ratio, 1.0 / ratio);
                std::printf("PAIR %-18s %-12s %-12s %10.1f us  %-12s %10.1f us  ratio %.2f  %s\n",
                            sp.op.c_str(), sp.shape.c_str(), sp.first.op.c_str(), med[0] * 1e6,
                            sp.second.op.c_str(), med[1] * 1e6, ratio,
                            spread <= 1.25 ? "within 1.25x" : "OVER 1.25x");
            }
        }
        std::fflush(stdout);
        return failures_;
    }

private:
    options opt_;
    ca::context ctx_ = ca::context::from_env();
    ca::queue q_{ctx_};
    preset p_;
    program_preset pp_;
    std::ofstream csv_;
    int failures_ = 0;

    bool wanted(const std::string& op) const {
        return opt_.ops.empty() ||
               std::find(opt_.ops.begin(), opt_.ops.end(), op) != opt_.ops.end();
    }

    void header() {
        const ca::device& d = ctx_.device();
        std::time_t t = std::time(nullptr);
        char date[64];
        std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&t));
        csv_.open(opt_.out);
        if (!csv_) throw std::runtime_error("cannot write " + opt_.out);
        auto meta = [&](const std::string& key, const std::string& value) {
            csv_ << "# " << key << ": " << value << "\n";
            std::cout << key << ": " << value << "\n";
        };
        meta("date", date);
        meta("device", d.name());
        meta("platform", d.platform_name());
        meta("device_version", d.version());
        meta("driver_version", d.driver_version());
        meta("device_type", d.is_cpu() ? "CPU" : (d.is_gpu() ? "GPU" : "other"));
        meta("compute_units", std::to_string(d.compute_units()));
        meta("host_cpu", cpu_model());
        meta("preset", p_.name);
        meta("reps", std::to_string(opt_.reps));
        meta("target_ms", std::to_string(opt_.target_ms));
        meta("library", "clarray");
        csv_ << "op,impl,n,elements,bytes,inner,rep,seconds\n";
    }

    // Warm-up + check of each case, then interleaved repeats. `impl` in the CSV is "clarray" for
    // workloads and the spelling's name for pairs (group != "workloads"). Returns the medians.
    std::vector<double> measure(const std::string& group, std::vector<workload>& ws) {
        const bool is_pair = group != "workloads";
        std::vector<int> inner(ws.size(), 1);
        std::vector<bool> ok(ws.size(), true);
        for (std::size_t i = 0; i < ws.size(); ++i) {
            workload& w = ws[i];
            const std::string label = is_pair ? group + " " + w.op : w.op;
            try {
                w.step(); // compile / first touch
                if (w.reset) w.reset();
                w.step();
                const std::string err = w.check ? w.check() : "";
                if (!err.empty()) {
                    std::cout << "  CHECK FAILED " << label << " " << w.shape << ": " << err
                              << " (excluded)\n";
                    csv_ << "# skip: " << (is_pair ? group : w.op) << "|"
                         << (is_pair ? w.op : "clarray") << "|" << w.elements
                         << "|wrong result: " << err << "\n";
                    ok[i] = false;
                    ++failures_;
                    continue;
                }
                std::cout << "  CHECK ok " << label << " " << w.shape << "\n";
                const double t0 = now_s();
                w.step();
                const double est = std::max(now_s() - t0, 1e-7);
                inner[i] = static_cast<int>(std::clamp(opt_.target_ms * 1e-3 / est, 1.0, 2000.0));
            } catch (const std::exception& e) {
                std::cout << "  FAILED " << label << " " << w.shape << ": " << e.what()
                          << " (excluded)\n";
                csv_ << "# skip: " << (is_pair ? group : w.op) << "|"
                     << (is_pair ? w.op : "clarray") << "|" << w.elements << "|failed: " << e.what()
                     << "\n";
                ok[i] = false;
                ++failures_;
            }
            std::cout << std::flush;
        }
        for (std::size_t i = 0; i < ws.size(); ++i) {
            if (!ok[i]) continue;
            csv_ << "# shape: " << (is_pair ? group : ws[i].op) << "|" << ws[i].shape << "\n";
            if (is_pair) break; // both spellings have the pair's shape
        }
        std::vector<std::vector<double>> samples(ws.size());
        const std::size_t k = ws.size();
        for (int r = 0; r < opt_.reps; ++r) {
            for (std::size_t j = 0; j < k; ++j) {
                const std::size_t i = (j + static_cast<std::size_t>(r)) % k; // rotating order
                if (!ok[i]) continue;
                const double t0 = now_s();
                for (int it = 0; it < inner[i]; ++it)
                    ws[i].step();
                const double t = (now_s() - t0) / inner[i];
                samples[i].push_back(t);
                csv_ << (is_pair ? group : ws[i].op) << "," << (is_pair ? ws[i].op : "clarray")
                     << "," << ws[i].elements << "," << ws[i].elements << "," << ws[i].bytes << ","
                     << inner[i] << "," << r << "," << t << "\n";
            }
        }
        csv_.flush();
        std::vector<double> med(ws.size(), 0.0);
        for (std::size_t i = 0; i < k; ++i) {
            if (samples[i].empty()) continue;
            med[i] = median(samples[i]);
            if (!is_pair)
                std::printf("%-16s %-12s %-10s %12.1f us/step %8.2f GB/s\n", ws[i].op.c_str(),
                            ws[i].shape.c_str(), "clarray", med[i] * 1e6,
                            ws[i].bytes / med[i] * 1e-9);
        }
        std::fflush(stdout);
        return med;
    }

    // ------------------------------------------------------------------ the workloads
    workload heat_inplace_workload() {
        const std::size_t n = p_.heat;
        const hvec u0 = heat_init(n);
        auto u = std::make_shared<farr>(ca::to_device(q_, u0).reshape({n, n}));
        auto want = std::make_shared<hvec>(heat_reference(u0, n));
        const auto in = ca::range(1, -1), r0 = ca::range(0, -2), r2 = ca::range(2, ca::none);
        const float a = heat_a;
        return {"heat_inplace",
                dims(n, n),
                n * n,
                8.0 * n * n,
                [this, u, in, r0, r2, a] {
                    farr& g = *u;
                    g(in, in) = g(in, in) + a * (g(r0, in) + g(r2, in) + g(in, r0) + g(in, r2) -
                                                 4.0f * g(in, in));
                    q_.finish();
                },
                [u, u0] { u->set(u0); },
                [u, want] { return compare_all("u", to_host(*u), *want, 1e-6); }};
    }
    workload heat_pingpong_workload() {
        const std::size_t n = p_.heat;
        const hvec u0 = heat_init(n);
        // Two grids: each step writes v's interior from u (v's border equals u0's and is never
        // written), then exchanges the handles, the stencil codes' idiom.
        struct state {
            farr u, v;
        };
        auto st = std::make_shared<state>(
            state{ca::to_device(q_, u0).reshape({n, n}), ca::to_device(q_, u0).reshape({n, n})});
        auto want = std::make_shared<hvec>(heat_reference(u0, n));
        const auto in = ca::range(1, -1), r0 = ca::range(0, -2), r2 = ca::range(2, ca::none);
        const float a = heat_a;
        return {"heat_pingpong",
                dims(n, n),
                n * n,
                8.0 * n * n,
                [this, st, in, r0, r2, a] {
                    farr& u = st->u;
                    farr& v = st->v;
                    v(in, in) = u(in, in) + a * (u(r0, in) + u(r2, in) + u(in, r0) + u(in, r2) -
                                                 4.0f * u(in, in));
                    std::swap(u, v);
                    q_.finish();
                },
                [st, u0] {
                    st->u.set(u0);
                    st->v.set(u0);
                },
                [st, want] { return compare_all("u", to_host(st->u), *want, 1e-6); }};
    }
    workload softmax_workload() {
        const std::size_t rows = p_.soft_rows, cols = p_.soft_cols;
        const hvec hx = softmax_init(rows, cols);
        auto x = std::make_shared<farr>(ca::to_device(q_, hx).reshape({rows, cols}));
        auto y = std::make_shared<std::optional<farr>>();
        return {"softmax",
                dims(rows, cols),
                rows * cols,
                8.0 * rows * cols,
                [this, x, y] {
                    auto m = ca::max(*x, {1}, true);
                    farr e = ca::exp(*x - m);
                    auto s = ca::sum(e, {1}, true);
                    y->emplace(e / s);
                    q_.finish();
                },
                {},
                [y, hx, rows, cols] {
                    hvec want(rows * cols);
                    for (std::size_t r = 0; r < rows; ++r) {
                        const float* xr = hx.data() + r * cols;
                        const float m = *std::max_element(xr, xr + cols);
                        double s = 0;
                        for (std::size_t c = 0; c < cols; ++c)
                            s += std::exp(double(xr[c]) - m);
                        for (std::size_t c = 0; c < cols; ++c)
                            want[r * cols + c] = float(std::exp(double(xr[c]) - m) / s);
                    }
                    return compare_all("y", to_host(y->value()), want, 1e-5);
                }};
    }
    workload kmeans_workload() {
        const std::size_t n = p_.kmeans_points;
        const hvec hp = points_init(n), hc = centres_init();
        auto p = std::make_shared<farr>(ca::to_device(q_, hp).reshape({n, kmeans_dims}));
        auto c =
            std::make_shared<farr>(ca::to_device(q_, hc).reshape({kmeans_centres, kmeans_dims}));
        auto lab = std::make_shared<std::optional<ca::cl_array<std::int64_t>>>();
        using ca::all;
        using ca::newaxis;
        return {"kmeans_assign",
                std::to_string(n) + "x4",
                n,
                4.0 * n * kmeans_dims + 8.0 * n,
                [this, p, c, lab] {
                    auto d = (*p)(all(), newaxis(), all()) - (*c)(newaxis(), all(), all());
                    lab->emplace(ca::argmin(ca::sum(d * d, {2}), 1));
                    q_.finish();
                },
                {},
                [lab, hp, hc, n] {
                    const hvec d = distances_reference(hp, hc, n);
                    std::vector<std::int64_t> want(n);
                    for (std::size_t i = 0; i < n; ++i) {
                        const float* di = d.data() + i * kmeans_centres;
                        want[i] = std::min_element(di, di + kmeans_centres) - di; // first minimum
                    }
                    return compare_all("labels", to_host(lab->value()), want, 0.0);
                }};
    }
    workload standardise_workload() {
        const std::size_t rows = p_.std_rows, cols = p_.std_cols;
        const hvec hx = standardise_init(rows, cols);
        auto x = std::make_shared<farr>(ca::to_device(q_, hx).reshape({rows, cols}));
        auto y = std::make_shared<std::optional<farr>>();
        return {"standardise",
                dims(rows, cols),
                rows * cols,
                8.0 * rows * cols,
                [this, x, y] {
                    const farr& v = *x;
                    y->emplace((v - ca::mean(v, {0}, true)) / ca::stddev(v, {0}, true));
                    q_.finish();
                },
                {},
                [y, hx, rows, cols] {
                    std::vector<double> mu(cols, 0.0), var(cols, 0.0);
                    for (std::size_t r = 0; r < rows; ++r)
                        for (std::size_t c = 0; c < cols; ++c)
                            mu[c] += hx[r * cols + c];
                    for (double& m : mu)
                        m /= double(rows);
                    for (std::size_t r = 0; r < rows; ++r)
                        for (std::size_t c = 0; c < cols; ++c) {
                            const double t = hx[r * cols + c] - mu[c];
                            var[c] += t * t;
                        }
                    hvec want(rows * cols);
                    for (std::size_t r = 0; r < rows; ++r)
                        for (std::size_t c = 0; c < cols; ++c)
                            want[r * cols + c] = float((hx[r * cols + c] - mu[c]) /
                                                       std::sqrt(var[c] / double(rows)));
                    return compare_all("y", to_host(y->value()), want, 1e-4);
                }};
    }
    workload layernorm_workload() {
        const std::size_t rows = p_.ln_rows, cols = p_.ln_cols;
        const hvec hx = layernorm_init(rows, cols);
        const hvec hg = pattern(cols, 5, 0.1f, 1.0f), hb = pattern(cols, 3, 0.5f, -0.5f);
        auto x = std::make_shared<farr>(ca::to_device(q_, hx).reshape({rows, cols}));
        auto gamma = std::make_shared<farr>(ca::to_device(q_, hg));
        auto beta = std::make_shared<farr>(ca::to_device(q_, hb));
        auto y = std::make_shared<std::optional<farr>>();
        const float eps = ln_eps;
        return {"layernorm",
                dims(rows, cols),
                rows * cols,
                8.0 * rows * cols,
                [this, x, gamma, beta, y, eps] {
                    const farr& v = *x;
                    y->emplace((v - ca::mean(v, {1}, true)) /
                                   ca::sqrt(ca::var(v, {1}, true) + eps) * *gamma +
                               *beta);
                    q_.finish();
                },
                {},
                [y, hx, hg, hb, rows, cols, eps] {
                    hvec want(rows * cols);
                    for (std::size_t r = 0; r < rows; ++r)
                        layernorm_row_reference(hx.data() + r * cols, cols, hg, hb, eps,
                                                want.data() + r * cols);
                    return compare_all("y", to_host(y->value()), want, 1e-4);
                }};
    }
    workload outer_workload() {
        const std::size_t n = p_.outer;
        const hvec ha = pattern(n, 19, 0.5f, -4.0f), hb = pattern(n, 23, 0.25f, -2.0f);
        auto a = std::make_shared<farr>(ca::to_device(q_, ha));
        auto b = std::make_shared<farr>(ca::to_device(q_, hb));
        auto c = std::make_shared<std::optional<farr>>();
        using ca::all;
        using ca::newaxis;
        return {"outer",
                dims(n, n),
                n * n,
                4.0 * n * n,
                [this, a, b, c] {
                    c->emplace((*a)(all(), newaxis()) * (*b)(newaxis(), all()));
                    q_.finish();
                },
                {},
                [c, ha, hb, n] {
                    hvec want(n * n);
                    for (std::size_t i = 0; i < n; ++i)
                        for (std::size_t j = 0; j < n; ++j)
                            want[i * n + j] = ha[i] * hb[j];
                    return compare_all("c", to_host(c->value()), want, 0.0);
                }};
    }
    workload where_workload() {
        const std::size_t n = p_.where;
        const hvec x0 = pattern(n, 29, 0.25f, -3.0f);
        auto x = std::make_shared<farr>(ca::to_device(q_, x0));
        const float t = where_t, s = where_s;
        return {"where_scale",
                std::to_string(n),
                n,
                8.0 * n,
                [this, x, t, s] {
                    farr& v = *x;
                    v = ca::where(v > t, v * s, v);
                    q_.finish();
                },
                [x, x0] { x->set(x0); },
                [x, x0, t, s] {
                    hvec want(x0.size());
                    for (std::size_t i = 0; i < x0.size(); ++i)
                        want[i] = x0[i] > t ? x0[i] * s : x0[i];
                    return compare_all("x", to_host(*x), want, 0.0);
                }};
    }

    // ------------------------------------------------------------------ composed programs
    // Inputs are integer patterns (bench/py_workloads.py builds the same ones); checks compare
    // with host computations in double from the same inputs.
    using carr = ca::cl_array<std::complex<float>>;
    using iarr = ca::cl_array<std::int32_t>;
    using larr = ca::cl_array<std::int64_t>;
    static hvec grid_pattern(std::size_t rows, std::size_t cols, std::size_t a, std::size_t b,
                             std::size_t mod, float scale, float shift) {
        hvec v(rows * cols);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                v[i * cols + j] = float((i * a + j * b) % mod) * scale + shift;
        return v;
    }

    workload mlp_program() {
        const std::size_t B = pp_.mlp_batch, D = pp_.mlp_in, H = pp_.mlp_hidden;
        const hvec hx = grid_pattern(B, D, 7, 3, 23, 0.05f, -0.5f);
        const hvec hw1 = grid_pattern(D, H, 5, 11, 19, 0.01f, -0.09f);
        const hvec hw2 = grid_pattern(H, D, 13, 7, 17, 0.01f, -0.08f);
        const hvec hb1 = grid_pattern(1, H, 0, 1, 7, 0.01f, -0.03f);
        const hvec hb2 = grid_pattern(1, D, 0, 1, 5, 0.02f, -0.04f);
        auto x = std::make_shared<farr>(ca::to_device(q_, hx).reshape({B, D}));
        auto w1 = std::make_shared<farr>(ca::to_device(q_, hw1).reshape({D, H}));
        auto w2 = std::make_shared<farr>(ca::to_device(q_, hw2).reshape({H, D}));
        auto b1 = std::make_shared<farr>(ca::to_device(q_, hb1));
        auto b2 = std::make_shared<farr>(ca::to_device(q_, hb2));
        auto y = std::make_shared<std::optional<farr>>();
        return {"mlp",
                std::to_string(B) + "x" + std::to_string(D) + "x" + std::to_string(H),
                B * D,
                4.0 * (2 * D * H + 2 * B * D + B * H),
                [this, x, w1, w2, b1, b2, y] {
                    farr h = ca::maximum(ca::matmul(*x, *w1) + *b1, 0.0f);
                    farr z = ca::matmul(h, *w2) + *b2;
                    auto m = ca::max(z, {1}, true);
                    farr e = ca::exp(z - m);
                    y->emplace(e / ca::sum(e, {1}, true));
                    q_.finish();
                },
                {},
                [y, hx, hw1, hw2, hb1, hb2, D, H] {
                    // The first four rows in double.
                    const std::size_t rows = 4;
                    hvec want(rows * D);
                    for (std::size_t r = 0; r < rows; ++r) {
                        std::vector<double> h(H, 0.0), z(D, 0.0);
                        for (std::size_t k = 0; k < D; ++k)
                            for (std::size_t j = 0; j < H; ++j)
                                h[j] += double(hx[r * D + k]) * hw1[k * H + j];
                        for (std::size_t j = 0; j < H; ++j)
                            h[j] = std::max(h[j] + hb1[j], 0.0);
                        for (std::size_t j = 0; j < H; ++j)
                            for (std::size_t c = 0; c < D; ++c)
                                z[c] += h[j] * hw2[j * D + c];
                        double m = -1e300, s = 0;
                        for (std::size_t c = 0; c < D; ++c)
                            m = std::max(m, z[c] += hb2[c]);
                        for (std::size_t c = 0; c < D; ++c)
                            s += std::exp(z[c] - m);
                        for (std::size_t c = 0; c < D; ++c)
                            want[r * D + c] = float(std::exp(z[c] - m) / s);
                    }
                    const hvec got = to_host(y->value());
                    return compare_all("y", hvec(got.begin(), got.begin() + rows * D), want, 1e-5);
                }};
    }
    workload fftconv_program() {
        const std::size_t n = pp_.fft;
        const hvec hx = grid_pattern(n, n, 3, 5, 29, 0.1f, 0.0f);
        // The transfer function of a circular shift by (1, 1): exp(-2 pi i (k1 + k2) / n).
        std::vector<std::complex<float>> hh(n * n);
        const double two_pi = 6.283185307179586;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                hh[i * n + j] =
                    std::complex<float>(std::polar(1.0, -two_pi * double((i + j) % n) / double(n)));
        auto x = std::make_shared<farr>(ca::to_device(q_, hx).reshape({n, n}));
        auto h = std::make_shared<carr>(ca::to_device(q_, hh).reshape({n, n}));
        auto y = std::make_shared<std::optional<farr>>();
        return {"fftconv",
                dims(n, n),
                n * n,
                4.0 * n * n * 2 + 8.0 * n * n,
                [this, x, h, y] {
                    y->emplace(ca::real(ca::fft::ifft2(ca::fft::fft2(*x) * *h)));
                    q_.finish();
                },
                {},
                [y, hx, n] {
                    hvec want(n * n);
                    for (std::size_t i = 0; i < n; ++i)
                        for (std::size_t j = 0; j < n; ++j)
                            want[i * n + j] = hx[((i + n - 1) % n) * n + (j + n - 1) % n];
                    return compare_all("y", to_host(y->value()), want, 1e-4);
                }};
    }
    // The inputs of topk and the selections: a permutation of 0 .. n-1 (distinct values).
    std::shared_ptr<farr> select_input(std::size_t n) {
        hvec hx(n);
        for (std::size_t i = 0; i < n; ++i)
            hx[i] = float((std::uint64_t(i) * 7919u) % n);
        return std::make_shared<farr>(ca::to_device(q_, hx));
    }
    workload topk_program() {
        const std::size_t n = pp_.sort_n;
        auto x = select_input(n);
        auto v = std::make_shared<std::optional<farr>>();
        return {"topk",
                std::to_string(n),
                n,
                4.0 * n,
                [this, x, v, n] {
                    auto i = ca::argsort(*x);
                    v->emplace(ca::take(*x, i(ca::range(std::ptrdiff_t(n - topk_k), ca::none))));
                    q_.finish();
                },
                {},
                [v, n] {
                    hvec want(topk_k);
                    for (std::size_t k = 0; k < topk_k; ++k)
                        want[k] = float(n - topk_k + k);
                    return compare_all("top", to_host(v->value()), want, 0.0);
                }};
    }
    workload topk_select_program() {
        const std::size_t n = pp_.sort_n;
        auto x = select_input(n);
        auto v = std::make_shared<std::optional<farr>>();
        return {"topk_select",
                std::to_string(n),
                n,
                4.0 * n,
                [this, x, v] {
                    auto [values, indices] = ca::topk(*x, topk_k);
                    v->emplace(std::move(values));
                    q_.finish();
                },
                {},
                [v, n] {
                    hvec want(topk_k);
                    for (std::size_t k = 0; k < topk_k; ++k)
                        want[k] = float(n - 1 - k);
                    return compare_all("top", to_host(v->value()), want, 0.0);
                }};
    }
    workload median_program() {
        const std::size_t n = pp_.sort_n;
        auto x = select_input(n);
        auto m = std::make_shared<std::optional<farr>>();
        return {"median",
                std::to_string(n),
                n,
                4.0 * n,
                [this, x, m] { // a 0-d array on the device, as cupy.median's
                    m->emplace(ca::median(*x));
                    q_.finish();
                },
                {},
                [m, n] {
                    return compare_all("median", hvec{float(m->value().item())},
                                       hvec{float((n - 1) / 2.0)}, 0.0);
                }};
    }
    workload percentile_program() {
        const std::size_t n = pp_.sort_n;
        auto x = select_input(n);
        auto p = std::make_shared<std::optional<farr>>();
        const std::vector<double> qs{5.0, 50.0, 95.0};
        return {"percentile",
                std::to_string(n),
                n,
                4.0 * n,
                [this, x, p, qs] {
                    p->emplace(ca::percentile(*x, qs));
                    q_.finish();
                },
                {},
                [p, n, qs] {
                    const auto got = p->value().get();
                    hvec g, want;
                    for (std::size_t k = 0; k < qs.size(); ++k) {
                        g.push_back(float(got(k)));
                        want.push_back(float(qs[k] / 100.0 * double(n - 1)));
                    }
                    return compare_all("percentile", g, want, 1e-6);
                }};
    }
    workload unique_program() {
        const std::size_t n = pp_.sort_n;
        std::vector<std::int32_t> hv(n);
        for (std::size_t i = 0; i < n; ++i)
            hv[i] = std::int32_t(((std::uint64_t(i) * 37u) ^ (std::uint64_t(i) >> 3)) %
                                 unique_distinct);
        auto v = std::make_shared<iarr>(ca::to_device(q_, hv));
        auto u = std::make_shared<std::optional<iarr>>();
        return {"unique",
                std::to_string(n),
                n,
                4.0 * n,
                [this, v, u] {
                    u->emplace(ca::unique(*v));
                    q_.finish();
                },
                {},
                [u, hv] {
                    std::vector<std::int32_t> want(hv);
                    std::sort(want.begin(), want.end());
                    want.erase(std::unique(want.begin(), want.end()), want.end());
                    return compare_all("unique", to_host(u->value()), want, 0.0);
                }};
    }
    workload gather_norm_program() {
        const std::size_t rows = pp_.table_rows, m = pp_.gathered, c = norm_cols;
        const hvec ht = grid_pattern(rows, c, 7, 13, 37, 0.1f, -1.8f);
        std::vector<std::int64_t> hi(m);
        for (std::size_t i = 0; i < m; ++i)
            hi[i] = std::int64_t((std::uint64_t(i) * 40503u) % rows);
        const hvec hg = grid_pattern(1, c, 0, 1, 3, 0.1f, 1.0f);
        const hvec hb = grid_pattern(1, c, 0, 1, 4, 0.05f, 0.0f);
        auto table = std::make_shared<farr>(ca::to_device(q_, ht).reshape({rows, c}));
        auto idx = std::make_shared<larr>(ca::to_device(q_, hi));
        auto gamma = std::make_shared<farr>(ca::to_device(q_, hg));
        auto beta = std::make_shared<farr>(ca::to_device(q_, hb));
        auto y = std::make_shared<std::optional<farr>>();
        return {"gather_norm",
                std::to_string(m) + "x" + std::to_string(c),
                m * c,
                8.0 * m * c,
                [this, table, idx, gamma, beta, y] {
                    farr r = ca::take(*table, *idx, 0);
                    auto mu = ca::mean(r, {1}, true);
                    auto var = ca::var(r, {1}, true);
                    y->emplace((r - mu) / ca::sqrt(var + ln_eps) * *gamma + *beta);
                    q_.finish();
                },
                {},
                [y, ht, hi, hg, hb, m, c] {
                    hvec want(m * c);
                    for (std::size_t i = 0; i < m; ++i)
                        layernorm_row_reference(ht.data() + std::size_t(hi[i]) * c, c, hg, hb,
                                                ln_eps, want.data() + i * c);
                    return compare_all("y", to_host(y->value()), want, 1e-4);
                }};
    }
    workload montecarlo_program() {
        const std::size_t n = pp_.random_n;
        auto gen = std::make_shared<ca::random::generator>(7);
        struct state {
            std::optional<farr> x, y;
            std::int64_t inside = 0;
        };
        auto st = std::make_shared<state>();
        return {"montecarlo",
                std::to_string(n),
                n,
                8.0 * n,
                [this, gen, st, n] {
                    st->x.emplace(gen->uniform<float>(q_, {n}));
                    st->y.emplace(gen->uniform<float>(q_, {n}));
                    const farr& x = *st->x;
                    const farr& y = *st->y;
                    st->inside = ca::count_nonzero(x * x + y * y <= 1.0f);
                },
                {},
                [st, n] {
                    const hvec x = to_host(*st->x), y = to_host(*st->y);
                    std::int64_t want = 0;
                    for (std::size_t i = 0; i < n; ++i)
                        want += x[i] * x[i] + y[i] * y[i] <= 1.0f;
                    const double pi = 4.0 * double(st->inside) / double(n);
                    if (st->inside != want)
                        return "inside " + std::to_string(st->inside) + ", expected " +
                               std::to_string(want);
                    if (std::fabs(pi - 3.14159265) > 0.01) return "pi " + std::to_string(pi);
                    return std::string();
                }};
    }
    workload spectrum_program() {
        const std::size_t n = pp_.spectrum, f0 = n / 16 + 3, f1 = n / 8 + 5;
        hvec hx(n);
        const double two_pi = 6.283185307179586;
        for (std::size_t t = 0; t < n; ++t)
            hx[t] = float(std::sin(two_pi * double(f0 * t % n) / double(n)) +
                          0.5 * std::sin(two_pi * double(f1 * t % n) / double(n)));
        auto x = std::make_shared<farr>(ca::to_device(q_, hx));
        auto peak = std::make_shared<std::int64_t>(-1);
        return {"spectrum",
                std::to_string(n),
                n,
                4.0 * n + 8.0 * (n / 2 + 1),
                [this, x, peak] {
                    *peak = ca::argmax(ca::abs(ca::fft::rfft(*x))).item();
                    q_.finish();
                },
                {},
                [peak, f0] {
                    return *peak == std::int64_t(f0) ? std::string()
                                                     : "peak at " + std::to_string(*peak) +
                                                           ", expected " + std::to_string(f0);
                }};
    }
    workload histogram_program() {
        const std::size_t n = pp_.random_n, bins = 256;
        ca::random::generator gen(11);
        auto z = std::make_shared<farr>(gen.normal<float>(q_, {n}));
        struct result {
            std::optional<larr> counts;
            std::optional<farr> edges;
        };
        auto r = std::make_shared<result>();
        return {"histogram",
                std::to_string(n),
                n,
                4.0 * n,
                [this, z, r] {
                    auto h = ca::histogram(*z, 256, {-4.0, 4.0});
                    r->counts.emplace(std::move(h.counts));
                    r->edges.emplace(std::move(h.edges));
                    q_.finish();
                },
                {},
                [z, r, bins] {
                    // NumPy's rule on the edges returned: [e_i, e_i+1), the last bin closed.
                    const hvec v = to_host(*z), e = to_host(*r->edges);
                    std::vector<std::int64_t> want(bins, 0);
                    for (float x : v) {
                        if (!(x >= e.front() && x <= e.back())) continue;
                        std::size_t b =
                            std::size_t(std::upper_bound(e.begin(), e.end(), x) - e.begin()) - 1;
                        ++want[std::min(b, bins - 1)];
                    }
                    return compare_all("counts", to_host(*r->counts), want, 0.0);
                }};
    }
    workload kmeans_iteration_program() {
        const std::size_t n = pp_.km_points, d = pp_.km_dims, k = pp_.km_centres;
        const hvec hp = grid_pattern(n, d, 1, 7, 23, 0.25f, -2.75f);
        hvec hc = grid_pattern(k, d, 5, 3, 13, 0.5f, -3.0f);
        for (std::size_t j = 0; j < k; ++j) // distinct centres: row j's pattern times (1 + j/k)
            for (std::size_t c = 0; c < d; ++c)
                hc[j * d + c] *= 1.0f + float(j) / float(k);
        auto p = std::make_shared<farr>(ca::to_device(q_, hp).reshape({n, d}));
        auto c = std::make_shared<farr>(ca::to_device(q_, hc).reshape({k, d}));
        struct result {
            std::optional<larr> labels, counts;
            std::optional<farr> centres;
        };
        auto r = std::make_shared<result>();
        return {"kmeans_iter",
                std::to_string(n) + "x" + std::to_string(d) + "/" + std::to_string(k),
                n * d,
                4.0 * n * d + 4.0 * n * k,
                [this, p, c, r, k, d] {
                    using ca::all;
                    using ca::newaxis;
                    const farr& P = *p;
                    const farr& C = *c;
                    farr dist = ca::sum(P * P, {1}, true) - 2.0f * ca::matmul(P, C.transpose()) +
                                ca::sum(C * C, {1})(newaxis(), all());
                    auto labels = ca::argmin(dist, 1);
                    auto counts = ca::bincount(labels, k);
                    farr sums = ca::zeros<float>(q_, {k, d});
                    ca::add_at(sums, labels, P);
                    farr n_per = counts.astype<float>();
                    r->centres.emplace(sums / ca::maximum(n_per(all(), newaxis()), 1.0f));
                    r->labels.emplace(std::move(labels));
                    r->counts.emplace(std::move(counts));
                    q_.finish();
                },
                {},
                [r, hp, hc, n, d, k] {
                    // Each label a nearest centre (up to float rounding of the GEMM form), the
                    // counts and centres those of the labels.
                    const auto lab = to_host(*r->labels);
                    std::vector<std::int64_t> cnt(k, 0);
                    std::vector<double> sum(k * d, 0.0);
                    for (std::size_t i = 0; i < n; ++i) {
                        double best = 1e300, mine = 0;
                        for (std::size_t j = 0; j < k; ++j) {
                            double acc = 0;
                            for (std::size_t t = 0; t < d; ++t) {
                                const double diff = double(hp[i * d + t]) - hc[j * d + t];
                                acc += diff * diff;
                            }
                            best = std::min(best, acc);
                            if (std::int64_t(j) == lab[i]) mine = acc;
                        }
                        if (lab[i] < 0 || lab[i] >= std::int64_t(k) ||
                            mine > best + 1e-3 * (1.0 + best))
                            return "point " + std::to_string(i) + ": label " +
                                   std::to_string(lab[i]) + " is not a nearest centre";
                        ++cnt[std::size_t(lab[i])];
                        for (std::size_t t = 0; t < d; ++t)
                            sum[std::size_t(lab[i]) * d + t] += hp[i * d + t];
                    }
                    std::string err = compare_all("counts", to_host(*r->counts), cnt, 0.0);
                    if (!err.empty()) return err;
                    hvec want(k * d);
                    for (std::size_t j = 0; j < k; ++j)
                        for (std::size_t t = 0; t < d; ++t)
                            want[j * d + t] =
                                float(sum[j * d + t] / double(std::max<std::int64_t>(cnt[j], 1)));
                    return compare_all("centres", to_host(*r->centres), want, 1e-4);
                }};
    }
    void add_programs(std::vector<workload>& ws) {
        if (wanted("mlp")) ws.push_back(mlp_program());
        if (wanted("fftconv")) ws.push_back(fftconv_program());
        if (wanted("topk")) ws.push_back(topk_program());
        if (wanted("topk_select")) ws.push_back(topk_select_program());
        if (wanted("median")) ws.push_back(median_program());
        if (wanted("percentile")) ws.push_back(percentile_program());
        if (wanted("unique")) ws.push_back(unique_program());
        if (wanted("gather_norm")) ws.push_back(gather_norm_program());
        if (wanted("montecarlo")) ws.push_back(montecarlo_program());
        if (wanted("spectrum")) ws.push_back(spectrum_program());
        if (wanted("histogram")) ws.push_back(histogram_program());
        if (wanted("kmeans_iter")) ws.push_back(kmeans_iteration_program());
    }

    void add_workloads(std::vector<workload>& ws) {
        using maker = workload (bench::*)();
        const std::pair<const char*, maker> all[] = {
            {"heat_inplace", &bench::heat_inplace_workload},
            {"heat_pingpong", &bench::heat_pingpong_workload},
            {"softmax", &bench::softmax_workload},
            {"kmeans_assign", &bench::kmeans_workload},
            {"standardise", &bench::standardise_workload},
            {"layernorm", &bench::layernorm_workload},
            {"outer", &bench::outer_workload},
            {"where_scale", &bench::where_workload}};
        for (const auto& [name, make] : all)
            if (wanted(name)) ws.push_back((this->*make)());
    }

    // ------------------------------------------------------------------ spelling pairs
    void add_pairs(std::vector<spelling_pair>& pairs) {
        if (wanted("pair_exp_bcast")) {
            // exp(x - m) with m (rows x 1) broadcast vs exp(x), both into the same storage.
            const std::size_t rows = p_.soft_rows, cols = p_.soft_cols;
            const hvec hx = softmax_init(rows, cols);
            auto x = std::make_shared<farr>(ca::to_device(q_, hx).reshape({rows, cols}));
            auto m = std::make_shared<farr>(ca::max(*x, {1}, true));
            auto e = std::make_shared<farr>(ca::empty<float>(q_, {rows, cols}));
            auto check = [e, hx, rows, cols](bool minus_max) {
                hvec want(rows * cols);
                for (std::size_t r = 0; r < rows; ++r) {
                    const float* xr = hx.data() + r * cols;
                    const float mr = minus_max ? *std::max_element(xr, xr + cols) : 0.0f;
                    for (std::size_t c = 0; c < cols; ++c)
                        want[r * cols + c] = std::exp(xr[c] - mr);
                }
                return compare_all("e", to_host(*e), want, 1e-5);
            };
            const std::size_t n = rows * cols;
            pairs.push_back({"pair_exp_bcast",
                             dims(rows, cols),
                             n,
                             {"bcast",
                              dims(rows, cols),
                              n,
                              8.0 * n,
                              [this, x, m, e] {
                                  *e = ca::exp(*x - *m);
                                  q_.finish();
                              },
                              {},
                              [check] { return check(true); }},
                             {"plain",
                              dims(rows, cols),
                              n,
                              8.0 * n,
                              [this, x, e] {
                                  *e = ca::exp(*x);
                                  q_.finish();
                              },
                              {},
                              [check] { return check(false); }}});
        }
        if (wanted("pair_view_assign")) {
            // u(in,in) = t (copy-assignment of arrays) vs u(in,in) = t * 1.0f (an expression).
            const std::size_t n = p_.heat, m = n - 2;
            const hvec ht = pattern(m * m, 31, 0.1f, 0.0f);
            auto u = std::make_shared<farr>(ca::zeros<float>(q_, {n, n}));
            auto t = std::make_shared<farr>(ca::to_device(q_, ht).reshape({m, m}));
            const auto in = ca::range(1, -1);
            auto check = [u, ht, n, m] {
                const hvec got = to_host(*u);
                hvec want(n * n, 0.0f);
                for (std::size_t i = 0; i < m; ++i)
                    for (std::size_t j = 0; j < m; ++j)
                        want[(i + 1) * n + j + 1] = ht[i * m + j];
                return compare_all("u", got, want, 0.0);
            };
            pairs.push_back({"pair_view_assign",
                             dims(n, n),
                             m * m,
                             {"copy",
                              dims(n, n),
                              m * m,
                              8.0 * m * m,
                              [this, u, t, in] {
                                  (*u)(in, in) = *t;
                                  q_.finish();
                              },
                              {},
                              check},
                             {"times_one",
                              dims(n, n),
                              m * m,
                              8.0 * m * m,
                              [this, u, t, in] {
                                  (*u)(in, in) = *t * 1.0f;
                                  q_.finish();
                              },
                              {},
                              check}});
        }
        if (wanted("pair_heat")) {
            workload a = heat_inplace_workload(), b = heat_pingpong_workload();
            a.op = "inplace";
            b.op = "pingpong";
            pairs.push_back({"pair_heat", a.shape, a.elements, a, b});
        }
        if (wanted("pair_axis4_sum")) {
            // sum(d*d, {2}) over the axis of length 4 vs d0*d0 + d1*d1 + d2*d2 + d3*d3, each di
            // a difference of views (N x 1 minus 1 x 16): both give the N x 16 squared distances.
            const std::size_t n = p_.kmeans_points;
            const hvec hp = points_init(n), hc = centres_init();
            auto p = std::make_shared<farr>(ca::to_device(q_, hp).reshape({n, kmeans_dims}));
            auto c = std::make_shared<farr>(
                ca::to_device(q_, hc).reshape({kmeans_centres, kmeans_dims}));
            auto dist = std::make_shared<std::optional<farr>>();
            auto want = std::make_shared<hvec>(distances_reference(hp, hc, n));
            auto check = [dist, want] {
                return compare_all("dist", to_host(dist->value()), *want, 1e-6);
            };
            using ca::all;
            using ca::newaxis;
            const std::size_t out = n * kmeans_centres;
            pairs.push_back({"pair_axis4_sum",
                             std::to_string(n) + "x16",
                             out,
                             {"reduce_axis",
                              std::to_string(n) + "x16",
                              out,
                              16.0 * n + 4.0 * out,
                              [this, p, c, dist] {
                                  auto d =
                                      (*p)(all(), newaxis(), all()) - (*c)(newaxis(), all(), all());
                                  dist->emplace(ca::sum(d * d, {2}));
                                  q_.finish();
                              },
                              {},
                              check},
                             {"written_out",
                              std::to_string(n) + "x16",
                              out,
                              16.0 * n + 4.0 * out,
                              [this, p, c, dist] {
                                  const farr& P = *p;
                                  const farr& C = *c;
                                  auto d0 = P(all(), newaxis(), 0) - C(newaxis(), all(), 0);
                                  auto d1 = P(all(), newaxis(), 1) - C(newaxis(), all(), 1);
                                  auto d2 = P(all(), newaxis(), 2) - C(newaxis(), all(), 2);
                                  auto d3 = P(all(), newaxis(), 3) - C(newaxis(), all(), 3);
                                  dist->emplace(d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3);
                                  q_.finish();
                              },
                              {},
                              check}});
        }
    }
};

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
            else if (arg == "--preset" || arg == "--sizes")
                o.preset = value();
            else if (arg == "--ops")
                o.ops = parse_list(value());
            else if (arg == "--out")
                o.out = value();
            else {
                std::cerr << "usage: bench_workloads [--preset pocl|gpu] [--reps R] "
                             "[--target-ms T] [--ops softmax,pair_heat,...] [--out file.csv]\n";
                return 2;
            }
        } catch (const std::exception& e) {
            std::cerr << "bench_workloads: " << e.what() << "\n";
            return 2;
        }
    }
    try {
        bench b(o);
        const int failed = b.run();
        if (failed > 0) {
            std::cout << "bench_workloads: " << failed << " check(s) failed\n";
            return 1;
        }
    } catch (const std::exception& e) {
        std::cerr << "bench_workloads: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
