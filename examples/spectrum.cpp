// The spectrum of a noisy signal: two sines (50 Hz and 120 Hz, amplitudes 1 and 0.5) sampled at
// 1 kHz with Gaussian noise, transformed with clarray::fft::rfft (VkFFT) and reduced to
// magnitudes on the device; the host reads the magnitudes and picks the two strongest peaks.
// Prints them next to the true frequencies; exits non-zero when a peak is off by more than one
// frequency bin (fs / n).
#include <clarray/clarray.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <vector>

namespace ca = clarray;

int main(int argc, char** argv) {
    try {
        const std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 8192;
        const float fs = 1000.0f;            // samples per second
        const float f1 = 50.0f, f2 = 120.0f; // the true frequencies
        const float a1 = 1.0f, a2 = 0.5f, noise = 0.8f;
        const float two_pi = 6.2831853f;
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        ca::random::generator gen(11);

        // x(t) = a1 sin(2 pi f1 t) + a2 sin(2 pi f2 t) + noise, t = i / fs: one kernel.
        const auto t = ca::arange<float>(q, 0.0f, float(n)) / fs;
        ca::cl_array<float> x = a1 * ca::sin(two_pi * f1 * t) + a2 * ca::sin(two_pi * f2 * t) +
                                noise * gen.normal<float>(q, {n});
        // n/2 + 1 complex values, frequencies k fs / n; their magnitudes scaled to amplitudes (a
        // frequency between two bins shows less: the window's scalloping loss).
        const ca::cl_array<std::complex<float>> X = ca::fft::rfft(x);
        ca::cl_array<float> mag = ca::abs(X) * (2.0f / float(n));
        const xt::xarray<float> m = mag.get(); // the only wait

        // The two largest local maxima (a peak's neighbours leak into the bins beside it).
        std::vector<std::size_t> peaks;
        for (std::size_t k = 1; k + 1 < m.size(); ++k)
            if (m(k) > m(k - 1) && m(k) >= m(k + 1)) peaks.push_back(k);
        std::sort(peaks.begin(), peaks.end(),
                  [&](std::size_t i, std::size_t j) { return m(i) > m(j); });
        if (peaks.size() < 2) {
            std::cerr << "fewer than two peaks\n";
            return 1;
        }
        const float bin = fs / float(n);
        std::vector<float> found = {float(peaks[0]) * bin, float(peaks[1]) * bin};
        std::vector<float> amps = {m(peaks[0]), m(peaks[1])};
        if (found[0] > found[1]) {
            std::swap(found[0], found[1]);
            std::swap(amps[0], amps[1]);
        }
        std::cout << "device: " << ctx.device().name() << "\nsamples: " << n << " at " << fs
                  << " Hz, bin width " << bin << " Hz, noise sigma " << noise << "\n"
                  << std::fixed << std::setprecision(2)
                  << "      true (Hz)  found (Hz)  true amp  found amp\n"
                  << "peak 1 " << std::setw(9) << f1 << std::setw(12) << found[0] << std::setw(10)
                  << a1 << std::setw(11) << amps[0] << "\n"
                  << "peak 2 " << std::setw(9) << f2 << std::setw(12) << found[1] << std::setw(10)
                  << a2 << std::setw(11) << amps[1] << "\n";
        const bool ok = std::abs(found[0] - f1) <= bin && std::abs(found[1] - f2) <= bin;
        std::cout << (ok ? "both peaks within one bin\n" : "a peak is off by more than one bin\n");
        return ok ? 0 : 1;
    } catch (const ca::error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
