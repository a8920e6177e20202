// CLBlast and VkFFT called directly on clarray memory, as a user of those libraries would, with
// event ordering both ways.
//
// Neither library takes a wait list: a barrier with clarray::ready_events(...) goes first on the
// queue the library uses. CLBlast returns an event, VkFFT does not (a marker after its kernels
// gives one); clarray::wait_for records it on every array the call touched, so clarray's next
// kernels (on any queue) and the memory's release follow it. GEMM runs on clarray's queue over a
// strided view (its leading dimension is the view's row stride), the FFT on a second queue.
// Checked against host references; returns 1 on a mismatch.
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS // VkFFT's plan set-up calls clCreateCommandQueue
#define VKFFT_BACKEND 3                   // OpenCL
#include <clarray/clarray.hpp>

#include <clblast.h>
#include <vkFFT.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <vector>

namespace ca = clarray;

int main() {
    ca::context ctx = ca::context::from_env();
    ca::queue q(ctx);
    const std::size_t m = 48, k = 40, n = 36, lda = 64;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> ha(m * lda), hb(k * n);
    for (float& v : ha)
        v = dist(rng);
    for (float& v : hb)
        v = dist(rng);

    // ---- GEMM: C = A B, A the first k columns of an m x lda matrix (a strided view) ----
    auto a_full = ca::to_device<ca::buffer>(q, ha).reshape({m, lda});
    auto a = a_full(ca::all(), ca::range(0, k));
    auto b = ca::to_device<ca::buffer>(q, hb).reshape({k, n});
    b *= 2.0f; // a clarray kernel that CLBlast must follow
    ca::cl_array<float, ca::buffer> c(q, {m, n});

    ca::wait_list deps = ca::ready_events(a, ca::access::read);
    deps.add(ca::ready_events(b, ca::access::read));
    deps.add(ca::ready_events(c, ca::access::write));
    if (!deps.empty()) q.enqueue_barrier(deps);
    cl_command_queue raw = q.get();
    cl_event gemm_done = nullptr;
    clblast::StatusCode st = clblast::Gemm<float>(
        clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, m, n, k, 1.0f,
        ca::buffer_of(a), static_cast<std::size_t>(a.offset()),
        static_cast<std::size_t>(a.strides()[0]), ca::buffer_of(b),
        static_cast<std::size_t>(b.offset()), n, 0.0f, ca::buffer_of(c),
        static_cast<std::size_t>(c.offset()), n, &raw, &gemm_done);
    if (st != clblast::StatusCode::kSuccess) {
        std::printf("CLBlast Gemm failed: %d\n", static_cast<int>(st));
        return 1;
    }
    ca::event gemm(gemm_done);
    ca::wait_for(a, {gemm}, ca::access::read);
    ca::wait_for(b, {gemm}, ca::access::read);
    ca::wait_for(c, {gemm}, ca::access::write);
    ca::cl_array<float, ca::buffer> c2 = c + 1.0f; // clarray again, after CLBlast

    // ---- FFT: VkFFT on a second queue over a clarray complex array ----
    const std::size_t len = 256;
    std::vector<std::complex<float>> hx(len);
    for (std::size_t t = 0; t < len; ++t)
        hx[t] = {std::cos(0.3f * t) + 0.5f * dist(rng), std::sin(0.05f * t)};
    auto x = ca::to_device<ca::buffer>(q, hx);
    x *= std::complex<float>(0.0f, 1.0f); // a clarray kernel the FFT must follow

    ca::queue fq(ctx);
    cl_device_id dev = ctx.device().id();
    cl_context cl_ctx = ctx.get();
    std::uint64_t bytes = len * sizeof(std::complex<float>);
    VkFFTConfiguration conf{};
    conf.FFTdim = 1;
    conf.size[0] = len;
    conf.device = &dev;
    conf.context = &cl_ctx;
    conf.bufferSize = &bytes;
    conf.specifyOffsetsAtLaunch = 1; // the array may start anywhere in its buffer
    VkFFTApplication app{};
    if (initializeVkFFT(&app, conf) != VKFFT_SUCCESS) {
        std::printf("initializeVkFFT failed\n");
        return 1;
    }
    ca::wait_list fft_deps = ca::ready_events(x, ca::access::read_write);
    if (!fft_deps.empty()) fq.enqueue_barrier(fft_deps);
    cl_command_queue fraw = fq.get();
    cl_mem xmem = ca::buffer_of(x);
    VkFFTLaunchParams lp{};
    lp.commandQueue = &fraw;
    lp.buffer = &xmem;
    lp.bufferOffset = x.byte_offset();
    VkFFTResult r = VkFFTAppend(&app, -1, &lp);
    if (r != VKFFT_SUCCESS) {
        std::printf("VkFFTAppend failed: %d\n", static_cast<int>(r));
        deleteVkFFT(&app);
        return 1;
    }
    ca::wait_for(x, {fq.enqueue_marker()}, ca::access::read_write);
    ca::cl_array<float, ca::buffer> power = ca::abs(x); // on clarray's queue, after the FFT

    // ---- host references ----
    int bad = 0;
    auto got_c = c2.get();
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            double s = 0;
            for (std::size_t p = 0; p < k; ++p)
                s += double(ha[i * lda + p]) * 2.0 * double(hb[p * n + j]);
            if (std::fabs(got_c(i, j) - (s + 1.0)) > 1e-4 * (1.0 + std::fabs(s))) ++bad;
        }
    auto got_p = power.get();
    const double pi = std::acos(-1.0);
    double max_err = 0;
    for (std::size_t f = 0; f < len; ++f) {
        std::complex<double> s = 0;
        for (std::size_t t = 0; t < len; ++t)
            s += std::complex<double>(hx[t]) * std::complex<double>(0, 1) *
                 std::polar(1.0, -2.0 * pi * double(f * t % len) / double(len));
        max_err = std::max(max_err, std::fabs(got_p(f) - std::abs(s)));
    }
    if (max_err > 1e-3) ++bad;
    std::printf("GEMM %zux%zux%zu through CLBlast and a %zu-point FFT through VkFFT on clarray "
                "memory: %d mismatches (FFT max error %.3g)\n",
                m, n, k, len, bad, max_err);
    fq.finish();
    deleteVkFFT(&app);
    return bad == 0 ? 0 : 1;
}
