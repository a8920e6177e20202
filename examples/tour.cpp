// A short tour of clarray: 2-d heat diffusion written as NumPy-style array expressions on views
// of coarse-grained SVM, checked against the same loops on the host and timed next to them; then
// a zero-copy peek through a host view, the same step as a hand-written kernel, axis reductions,
// printing, and arrays dropped while their kernels are still queued. Exits non-zero on a
// mismatch.
#include <clarray/clarray.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <utility>
#include <vector>

namespace ca = clarray;
using clock_type = std::chrono::steady_clock;

namespace {

double ms_since(clock_type::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

double max_abs_diff(const float* a, const float* b, std::size_t n) {
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i)
        worst = std::max(worst, std::abs(double(a[i]) - double(b[i])));
    return worst;
}

// The host reference: the same update, in the same order of operations, as plain loops.
void host_step(const std::vector<float>& u, std::vector<float>& v, std::size_t n, float k) {
    for (std::size_t i = 1; i + 1 < n; ++i)
        for (std::size_t j = 1; j + 1 < n; ++j) {
            const std::size_t c = i * n + j;
            v[c] = u[c] + k * (u[c - n] + u[c + n] + u[c - 1] + u[c + 1] - 4.0f * u[c]);
        }
}

// One step as a raw OpenCL C kernel over the whole grid (the edges are copied unchanged).
const char* step_arguments = "global float* v, global const float* u, float k, ulong n";
const char* step_operation = R"CLC(
    const ulong r = i / n, c = i % n;
    if (r == 0 || c == 0 || r == n - 1 || c == n - 1)
        v[i] = u[i];
    else
        v[i] = u[i] + k * (u[i - n] + u[i + n] + u[i - 1] + u[i + 1] - 4.0f * u[i]))CLC";

// The tour on storage policy S: coarse-grained SVM (the default policy, and what a discrete GPU
// offers), or cl_mem buffers where the device has no SVM, so that the tour runs everywhere.
template <class S> bool tour(const ca::context& ctx, const ca::queue& q) {
    using grid = ca::cl_array<float, S>;
    const std::size_t n = 512, steps = 500;
    const float k = 0.2f, hot = 100.0f;
    const double step_bytes = 2.0 * n * n * sizeof(float); // one read and one write of the grid

    // 1. Heat diffusion: a hot square in a cold plate, edges held at 0. Each step is one
    //    generated kernel; the views are shifted windows of the same grid (no copies).
    //    Writing into a second grid and swapping avoids the in-place form's temporary.
    grid u = ca::zeros<float, S>(q, {n, n});
    grid v = ca::zeros<float, S>(q, {n, n});
    u(ca::range(n / 4, n / 2), ca::range(n / 4, n / 2)).fill(hot);
    const auto in = ca::range(1, -1), r0 = ca::range(0, -2), r2 = ca::range(2, ca::none);
    auto step = [&](grid& from, grid& to) {
        to(in, in) = from(in, in) + k * (from(r0, in) + from(r2, in) + from(in, r0) + from(in, r2) -
                                         4.0f * from(in, in));
        std::swap(from, to); // swaps the handles, not the data
    };
    std::printf("1. heat: %zu x %zu float32 grid (%s), %zu steps of one fused kernel each:\n"
                "   v(in,in) = u(in,in) + k*(u(r0,in) + u(r2,in) + u(in,r0) + u(in,r2) "
                "- 4*u(in,in))\n"
                "   in = range(1,-1), r0 = range(0,-2), r2 = range(2,none): views, no copies\n",
                n, n, S::name, steps);
    step(u, v); // the first step compiles the kernel: not timed
    q.finish();
    const auto t_dev = clock_type::now();
    for (std::size_t s = 1; s < steps; ++s)
        step(u, v); // enqueued only: the host runs ahead
    q.finish();
    const double dev_ms = ms_since(t_dev) / double(steps - 1);

    std::vector<float> hu(n * n, 0.0f), hv(n * n, 0.0f);
    for (std::size_t i = n / 4; i < n / 2; ++i)
        std::fill(hu.begin() + i * n + n / 4, hu.begin() + i * n + n / 2, hot);
    const auto t_host = clock_type::now();
    for (std::size_t s = 0; s < steps; ++s) {
        host_step(hu, hv, n, k);
        std::swap(hu, hv);
    }
    const double host_ms = ms_since(t_host) / double(steps);

    const xt::xarray<float> got = u.get();
    const double err = max_abs_diff(got.data(), hu.data(), n * n);
    bool ok = err <= 1e-4 * hot;
    std::printf("   device %8.3f ms/step %6.2f GB/s | host loops %8.3f ms/step %6.2f GB/s\n",
                dev_ms, step_bytes / dev_ms * 1e-6, host_ms, step_bytes / host_ms * 1e-6);
    std::printf("   check against the host: max abs error %.2e %s\n", err, ok ? "ok" : "FAIL");

    // 2. A host view: map() gives an xtensor view over the mapped memory. On this kind of
    //    device (host memory) coarse SVM maps in place; a discrete GPU's map, or
    //    CLARRAY_EMULATE_COARSE=1, stages the mapped range instead.
    {
        const auto view = u.map(ca::access::read);
        const std::size_t c = 3 * n / 8;
        const char* how = "through clEnqueueMapBuffer";
        if constexpr (S::is_svm)
            how = &view(c, c) == u.svm_data() + c * n + c ? "in place (zero-copy)"
                                                          : "through a staging copy";
        std::printf("2. map(): u(%zu,%zu) = %.4f, u(%zu,%zu) = %.4f, read %s\n", c, c,
                    double(view(c, c)), c, n / 2 + 8, double(view(c, n / 2 + 8)), how);
    } // the unmap is enqueued here; it does not wait

    // 3. The same step as a user kernel (PyOpenCL's ElementwiseKernel): one step from u with
    //    each spelling must give the same grid.
    ca::elementwise_kernel raw_step(ctx, step_arguments, step_operation, "heat_step");
    grid by_kernel = ca::empty_like(u);
    raw_step(q, ca::out(by_kernel), ca::in(u), k, cl_ulong(n));
    grid by_expr = u.copy();
    by_expr(in, in) =
        u(in, in) + k * (u(r0, in) + u(r2, in) + u(in, r0) + u(in, r2) - 4.0f * u(in, in));
    const double kdiff = ca::max(ca::abs(by_kernel - by_expr)).item();
    ok = ok && kdiff <= 1e-5 * hot;
    std::printf("3. elementwise_kernel step vs expression step: max abs diff %.2e %s\n", kdiff,
                kdiff <= 1e-5 * hot ? "ok" : "FAIL");

    // 4. Axis reductions: column sums (axis 0) and row maxima (axis 1), one kernel each.
    const xt::xarray<float> colsum = ca::sum(u, {0}).get();
    const xt::xarray<float> rowmax = ca::max(u, {1}).get();
    double red_err = 0, total = 0, host_total = 0;
    for (std::size_t j = 0; j < n; ++j) {
        double s = 0;
        for (std::size_t i = 0; i < n; ++i)
            s += hu[i * n + j];
        red_err = std::max(red_err, std::abs(colsum(j) - s) / std::max(1.0, s));
        total += colsum(j);
        host_total += s;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const double m = *std::max_element(hu.begin() + i * n, hu.begin() + (i + 1) * n);
        red_err = std::max(red_err, std::abs(rowmax(i) - m) / std::max(1.0, m));
    }
    std::size_t peak_row = 0;
    for (std::size_t i = 1; i < n; ++i)
        if (rowmax(i) > rowmax(peak_row)) peak_row = i;
    ok = ok && red_err <= 1e-4;
    std::printf("4. sum(u, {0}): heat %.1f of %.1f at the start (host %.1f)\n"
                "   max(u, {1}): hottest row %zu at %.3f; max rel error %.1e %s\n",
                total, hot * double(n / 4) * double(n / 4), host_total, peak_row,
                double(rowmax(peak_row)), red_err, red_err <= 1e-4 ? "ok" : "FAIL");

    // 5. Printing: a view prints as the same xt::xarray would; describe() gives the metadata.
    const std::size_t e = n / 2;
    std::cout << "5. " << ca::describe(u) << "\n   the hot square's corner, u(range(" << e - 3
              << ", " << e + 1 << "), range(" << e - 3 << ", " << e + 3 << ")):\n"
              << xt::print_options::precision(4)
              << u(ca::range(e - 3, e + 1), ca::range(e - 3, e + 3)) << "\n";

    // 6. Asynchronous release: grids dropped with their kernels still queued. Their memory
    //    goes back to the pool, ordered after those kernels by events: nobody waits.
    const auto t_rel = clock_type::now();
    {
        grid a = u.copy(), b = ca::zeros_like(u);
        for (int s = 0; s < 50; ++s)
            step(a, b);
    } // a and b are released here
    const double scope_ms = ms_since(t_rel);
    q.finish();
    const double drain_ms = ms_since(t_rel);
    const ca::pool_stats ps = ca::pool_statistics(ctx, S::kind);
    std::printf("6. two new grids, 50 steps enqueued on them, both dropped: the host went on "
                "after %.2f ms,\n   the queue drained after %.2f ms (destructors never "
                "block); the pool holds %lld blocks for reuse\n",
                scope_ms, drain_ms, static_cast<long long>(ps.held_blocks));

    return ok;
}

} // namespace

int main() {
    try {
        ca::context ctx = ca::context::from_env(); // CLARRAY_DEVICE picks another device
        ca::queue q(ctx);
        std::printf("clarray tour on %s (%s)\n", ctx.device().name().c_str(),
                    ctx.device().platform_name().c_str());
        const bool ok =
            ctx.svm_caps().coarse ? tour<ca::svm_coarse>(ctx, q) : tour<ca::buffer>(ctx, q);
        std::printf("%s\n", ok ? "all checks passed" : "MISMATCH");
        return ok ? 0 : 1;
    } catch (const ca::error& e) {
        std::fprintf(stderr, "tour: %s\n", e.what());
        return 2;
    }
}
