// numpy.fft's transforms (VkFFT) against a host DFT that accumulates in double, written here
// independently of the library: one axis at a time, O(n^2) sums of e^{-+2 pi i jk/n} terms.
#include "sampling.hpp"
#include "support.hpp"

#include <cmath>
#include <complex>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace {

using shape_t = std::vector<std::size_t>;
using cd = std::complex<double>;
constexpr double pi = 3.14159265358979323846;

// The transform of h along `axis` to length n (padded with zeros / truncated first), sign -1
// forward, +1 inverse, unscaled.
xt::xarray<cd> host_dft_axis(const xt::xarray<cd>& h, std::size_t axis, std::size_t n, int sign) {
    shape_t in_shape(h.shape().begin(), h.shape().end());
    shape_t out_shape = in_shape;
    out_shape[axis] = n;
    xt::xarray<cd> out = xt::zeros<cd>(out_shape);
    std::size_t outer = 1, inner = 1;
    for (std::size_t i = 0; i < axis; ++i)
        outer *= in_shape[i];
    for (std::size_t i = axis + 1; i < in_shape.size(); ++i)
        inner *= in_shape[i];
    const std::size_t m = std::min(in_shape[axis], n);
    // Twiddles e^{sign 2 pi i r / n} for r in [0, n), exact in the argument (r = jk mod n).
    std::vector<cd> w(n);
    for (std::size_t r = 0; r < n; ++r)
        w[r] = std::polar(1.0, sign * 2.0 * pi * double(r) / double(n));
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t i = 0; i < inner; ++i)
            for (std::size_t k = 0; k < n; ++k) {
                cd acc = 0;
                for (std::size_t j = 0; j < m; ++j)
                    acc += h.flat((o * in_shape[axis] + j) * inner + i) * w[(j * k) % n];
                out.flat((o * n + k) * inner + i) = acc;
            }
    return out;
}

template <class T> xt::xarray<cd> to_cd(const xt::xarray<T>& x) {
    xt::xarray<cd> r = xt::zeros<cd>(x.shape());
    for (std::size_t i = 0; i < x.size(); ++i)
        r.flat(i) = cd(x.flat(i));
    return r;
}

template <class F> xt::xarray<std::complex<F>> random_complex(const shape_t& shape, unsigned seed) {
    const auto re = test::random_array<F>(ca::shape_type(shape.begin(), shape.end()), seed);
    const auto im = test::random_array<F>(ca::shape_type(shape.begin(), shape.end()), seed + 100);
    xt::xarray<std::complex<F>> r = xt::zeros<std::complex<F>>(shape);
    for (std::size_t i = 0; i < r.size(); ++i)
        r.flat(i) = std::complex<F>(re.flat(i), im.flat(i));
    return r;
}

double log2n(double n) {
    return std::log2(std::max(n, 2.0));
}

// Every element within c * eps * (log2 N + 1) * max|ref| (FFT rounding grows with log N).
template <class G>
void check_close(const xt::xarray<G>& got, const xt::xarray<cd>& ref, double eps, double N,
                 double c = 8) {
    REQUIRE(shape_t(got.shape().begin(), got.shape().end()) ==
            shape_t(ref.shape().begin(), ref.shape().end()));
    double scale = 1e-300;
    for (const cd& v : ref)
        scale = std::max(scale, std::abs(v));
    const double tol = c * eps * (log2n(N) + 1) * scale;
    double worst = 0;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        const double err = std::abs(cd(got.flat(i)) - ref.flat(i));
        if (!(err <= tol)) ++bad; // NaN counts
        worst = std::max(worst, err);
    }
    INFO("worst error " << worst << ", tolerance " << tol);
    CHECK(bad == 0);
}

// Buffer storage unless a test is about storage: it exists on every device (CLARRAY_DISABLE_SVM).
template <class T, class S = ca::buffer> ca::cl_array<T, S> dev(const xt::xarray<T>& h) {
    return ca::to_device<S>(test::q(), h);
}

const std::size_t sizes_1d[] = {1, 2, 3, 7, 17, 64, 1000};
const char* const norms[] = {"backward", "ortho", "forward"};

// numpy's factor for a norm: forward direction (inverse = false) or inverse over N points.
double norm_factor(const std::string& norm, bool inverse, double N) {
    if (norm == "ortho") return 1 / std::sqrt(N);
    if (norm == "forward") return inverse ? 1.0 : 1 / N;
    return inverse ? 1 / N : 1.0;
}

xt::xarray<cd> scaled(xt::xarray<cd> x, double s) {
    for (auto& v : x)
        v *= s;
    return x;
}

// numpy.fft.irfft on the host: the first n/2+1 values (padded with zeros), the Hermitian
// extension, the imaginary parts of the terms without a mirror (0 and n/2) ignored.
xt::xarray<cd> host_irfft_1d(const xt::xarray<cd>& h, std::size_t n) {
    const std::size_t rows = h.size() / h.shape().back(), m = h.shape().back();
    xt::xarray<cd> full = xt::zeros<cd>(shape_t{rows, n});
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t src = k <= n / 2 ? k : n - k;
            cd v = src < m ? h.flat(r * m + src) : cd(0);
            if (k > n / 2) v = std::conj(v);
            if (k == 0 || 2 * k == n) v = cd(v.real(), 0);
            full(r, k) = v;
        }
    return scaled(host_dft_axis(full, 1, n, +1), 1.0 / double(n));
}

using complex_types = std::tuple<std::complex<float>, std::complex<double>>;
using real_types = std::tuple<float, double>;

} // namespace

TEMPLATE_LIST_TEST_CASE("fft: 1-d fft and ifft against a host DFT", "[fft]", complex_types) {
    using C = TestType;
    using F = typename C::value_type;
    if (!test::dtype_available<F>()) return;
    const double eps = std::numeric_limits<F>::epsilon();
    for (std::size_t n : sizes_1d) {
        INFO("n = " << n);
        const auto h = random_complex<F>({n}, unsigned(n));
        const auto x = dev<C>(h);
        const auto X = ca::fft::fft(x);
        static_assert(std::is_same_v<typename decltype(X)::value_type, C>);
        const auto ref = host_dft_axis(to_cd(h), 0, n, -1);
        check_close<C>(X.get(), ref, eps, double(n));
        const auto y = ca::fft::ifft(x);
        check_close<C>(y.get(), scaled(host_dft_axis(to_cd(h), 0, n, +1), 1.0 / double(n)), eps,
                       double(n));
        const auto back = ca::fft::ifft(X);
        check_close<C>(back.get(), to_cd(h), eps, double(n));
        CHECK(bool(x.get() == h)); // VkFFT read the input in place and left it as it was
    }
}

TEST_CASE("fft: round trip at 2^20 points", "[fft]") {
    const std::size_t n = std::size_t(1) << 20;
    const auto h = random_complex<float>({n}, 5);
    const auto x = dev<std::complex<float>>(h);
    const auto back = ca::fft::ifft(ca::fft::fft(x));
    check_close<std::complex<float>>(back.get(), to_cd(h), std::numeric_limits<float>::epsilon(),
                                     double(n));
}

TEMPLATE_LIST_TEST_CASE("fft: every storage policy, views and axes", "[fft]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    using C = std::complex<float>;
    const double eps = std::numeric_limits<float>::epsilon();
    const auto h = random_complex<float>({6, 10}, 3);
    const auto x = dev<C, S>(h);
    // C order along each axis (axis 0: a VkFFT dimension that the transform omits).
    for (std::ptrdiff_t axis : {-1, 0, 1}) {
        INFO("axis " << axis);
        const std::size_t a = axis < 0 ? 1 : std::size_t(axis);
        check_close<C>(ca::fft::fft(x, -1, axis).get(),
                       host_dft_axis(to_cd(h), a, h.shape()[a], -1), eps, double(h.shape()[a]));
    }
    // A transposed view: the copy into the result reads it as any view.
    xt::xarray<C> ht = xt::transpose(h);
    const auto t = dev<C, S>(ht).transpose(); // holds h, strides (1, 6)
    check_close<C>(ca::fft::fft(t).get(), host_dft_axis(to_cd(h), 1, 10, -1), eps, 10);
    check_close<C>(ca::fft::fft(t, -1, 0).get(), host_dft_axis(to_cd(h), 0, 6, -1), eps, 6);
    // Contiguous rows at an offset (VkFFT reads them where they are).
    const auto hw = random_complex<float>({9, 10}, 8);
    const auto rows = dev<C, S>(hw)(ca::range(3, 9), ca::all());
    const xt::xarray<C> hrows = xt::view(hw, xt::range(3, 9), xt::all());
    check_close<C>(ca::fft::fft(rows).get(), host_dft_axis(to_cd(hrows), 1, 10, -1), eps, 10);
    check_close<C>(ca::fft::fft(rows, -1, 0).get(), host_dft_axis(to_cd(hrows), 0, 6, -1), eps, 6);
    check_close<C>(ca::fft::fft2(rows).get(),
                   host_dft_axis(host_dft_axis(to_cd(hrows), 0, 6, -1), 1, 10, -1), eps, 60);
    CHECK(bool(rows.get() == hrows));
    const auto hrw = test::random_array<float>({9, 10}, 9);
    const auto rrows = dev<float, S>(hrw)(ca::range(3, 9), ca::all());
    const xt::xarray<float> hrrows = xt::view(hrw, xt::range(3, 9), xt::all());
    const auto rref = host_dft_axis(to_cd(hrrows), 1, 10, -1);
    check_close<C>(ca::fft::rfft(rrows).get(),
                   xt::xarray<cd>(xt::view(rref, xt::all(), xt::range(0, 6))), eps, 10);
    CHECK(bool(rrows.get() == hrrows));
    // Every second element of every second row, at an offset; a reversed view.
    auto whole = ca::zeros<C, S>(test::q(), {13, 21});
    auto strided = whole(ca::range(1, 13, 2), ca::range(1, 21, 2));
    strided.set(h);
    check_close<C>(ca::fft::fft(strided).get(), host_dft_axis(to_cd(h), 1, 10, -1), eps, 10);
    check_close<C>(ca::fft::ifft2(strided).get(),
                   scaled(host_dft_axis(host_dft_axis(to_cd(h), 0, 6, +1), 1, 10, +1), 1.0 / 60),
                   eps, 60);
    auto rev_base = ca::zeros<C, S>(test::q(), {6, 10});
    auto rev = rev_base(ca::all(), ca::range(9, ca::none, -1));
    rev.set(h);
    check_close<C>(ca::fft::fft(rev).get(), host_dft_axis(to_cd(h), 1, 10, -1), eps, 10);
    // Real transforms of views on this policy.
    const auto hr = test::random_array<float>({6, 10}, 4);
    auto rwhole = ca::zeros<float, S>(test::q(), {6, 20});
    auto rview = rwhole(ca::all(), ca::range(0, 20, 2));
    rview.set(hr);
    const auto R = ca::fft::rfft(rview);
    auto ref = host_dft_axis(to_cd(hr), 1, 10, -1);
    check_close<C>(R.get(), xt::xarray<cd>(xt::view(ref, xt::all(), xt::range(0, 6))), eps, 10);
    const auto R0 = ca::fft::rfft(rview, -1, 0);
    ref = host_dft_axis(to_cd(hr), 0, 6, -1);
    check_close<C>(R0.get(), xt::xarray<cd>(xt::view(ref, xt::range(0, 4), xt::all())), eps, 6);
    const auto back = ca::fft::irfft(R, 10);
    check_close<float>(back.get(), to_cd(hr), eps, 10);
    const auto back0 = ca::fft::irfft(R0, 6, 0);
    check_close<float>(back0.get(), to_cd(hr), eps, 6);
}

TEMPLATE_LIST_TEST_CASE("fft: rfft and irfft against the host", "[fft]", real_types) {
    using F = TestType;
    using C = std::complex<F>;
    if (!test::dtype_available<F>()) return;
    const double eps = std::numeric_limits<F>::epsilon();
    // Each size in one of the two dtypes (every size in both: CLARRAY_TEST_FULL=1).
    std::size_t size_case = 0;
    for (std::size_t n : sizes_1d) {
        if (!test::sampled(size_case++, test::index_in_v<F, real_types>, 2)) continue;
        INFO("n = " << n);
        const auto h = test::random_array<F>({3, n}, unsigned(n) + 7);
        const auto x = dev<F>(h);
        const auto X = ca::fft::rfft(x);
        static_assert(std::is_same_v<typename decltype(X)::value_type, C>);
        const std::size_t m = n / 2 + 1;
        const auto full = host_dft_axis(to_cd(h), 1, n, -1);
        const xt::xarray<cd> ref = xt::view(full, xt::all(), xt::range(0, m));
        check_close<C>(X.get(), ref, eps, double(n));
        CHECK(bool(x.get() == h)); // read in place, left as it was
        // irfft of the spectrum (n given: odd n cannot be inferred) and of arbitrary complex
        // input, whose unmirrored imaginary parts numpy ignores.
        check_close<F>(ca::fft::irfft(X, std::ptrdiff_t(n)).get(), to_cd(h), eps, double(n));
        const auto hz = random_complex<F>({3, m}, unsigned(n) + 9);
        check_close<F>(ca::fft::irfft(dev<C>(hz), std::ptrdiff_t(n)).get(),
                       host_irfft_1d(to_cd(hz), n), eps, double(n));
        // The default length 2 (m - 1), and n that truncates or pads the input.
        if (m > 1)
            check_close<F>(ca::fft::irfft(dev<C>(hz)).get(), host_irfft_1d(to_cd(hz), 2 * (m - 1)),
                           eps, double(2 * (m - 1)));
        const std::size_t n2 = n + 5;
        check_close<F>(ca::fft::irfft(dev<C>(hz), std::ptrdiff_t(n2)).get(),
                       host_irfft_1d(to_cd(hz), n2), eps, double(n2));
        const auto full2 = host_dft_axis(to_cd(h), 1, n2, -1);
        check_close<C>(ca::fft::rfft(x, std::ptrdiff_t(n2)).get(),
                       xt::xarray<cd>(xt::view(full2, xt::all(), xt::range(0, n2 / 2 + 1))), eps,
                       double(n2));
    }
}

TEST_CASE("fft: n pads and truncates, real input promotes", "[fft]") {
    const double eps = std::numeric_limits<float>::epsilon();
    const auto h = random_complex<float>({4, 9}, 21);
    const auto x = dev<std::complex<float>>(h);
    for (std::size_t n : {1, 5, 9, 16, 23}) {
        INFO("n = " << n);
        check_close<std::complex<float>>(ca::fft::fft(x, std::ptrdiff_t(n)).get(),
                                         host_dft_axis(to_cd(h), 1, n, -1), eps, double(n));
        check_close<std::complex<float>>(ca::fft::ifft(x, std::ptrdiff_t(n), 0).get(),
                                         scaled(host_dft_axis(to_cd(h), 0, n, +1), 1.0 / n), eps,
                                         double(n));
    }
    const auto hr = test::random_array<float>({4, 9}, 22);
    const auto X = ca::fft::fft(dev<float>(hr));
    static_assert(std::is_same_v<typename decltype(X)::value_type, std::complex<float>>);
    check_close<std::complex<float>>(X.get(), host_dft_axis(to_cd(hr), 1, 9, -1), eps, 9);
    if (test::dtype_available<double>()) {
        const auto hd = test::random_array<double>({4, 9}, 23);
        const auto Xd = ca::fft::fft2(dev<double>(hd));
        static_assert(std::is_same_v<typename decltype(Xd)::value_type, std::complex<double>>);
        check_close<std::complex<double>>(
            Xd.get(), host_dft_axis(host_dft_axis(to_cd(hd), 0, 4, -1), 1, 9, -1),
            std::numeric_limits<double>::epsilon(), 36);
    }
}

TEST_CASE("fft: fft2 and fftn over 2-d, 3-d and 4-d shapes", "[fft]") {
    using C = std::complex<float>;
    const double eps = std::numeric_limits<float>::epsilon();
    struct case_t {
        shape_t shape;
        std::vector<std::ptrdiff_t> axes; // empty: all
        std::vector<std::ptrdiff_t> s;    // empty: the extents
    };
    const case_t cases[] = {
        {{6, 10}, {}, {}},         {{16, 8}, {}, {}},           {{5, 7, 9}, {}, {}},
        {{5, 7, 9}, {0, 2}, {}},   {{5, 7, 9}, {1}, {}},        {{4, 6, 8}, {0, 1}, {}},
        {{3, 4, 5, 6}, {}, {}},    {{3, 4, 5, 6}, {0, 2}, {}},  {{2, 3, 4, 5, 3}, {0, 2, 4}, {}},
        {{6, 10}, {0, 1}, {8, 7}}, {{5, 7, 9}, {}, {3, 9, 11}}, {{1, 7, 1}, {}, {}}};
    // The default run takes every second case and the last three (the 2-d lengths, the 3-d
    // lengths and the unit extents): each case is a VkFFT plan or two for pocl to build, about
    // 1 s cold; CLARRAY_TEST_FULL=1 runs all of them.
    std::size_t case_index = 0;
    for (const case_t& c : cases) {
        const std::size_t i = case_index++;
        if (i + 3 < std::size(cases) && !test::sampled(i, 0, 2)) continue;
        INFO("shape " << ca::shape_to_string(ca::shape_type(c.shape.begin(), c.shape.end())) << ", "
                      << c.axes.size() << " axes, " << c.s.size() << " lengths");
        const auto h =
            random_complex<float>(c.shape, unsigned(c.shape.size() * 31 + c.axes.size()));
        const auto x = dev<C>(h);
        std::vector<std::size_t> axes;
        if (c.axes.empty())
            for (std::size_t a = 0; a < c.shape.size(); ++a)
                axes.push_back(a);
        else
            for (std::ptrdiff_t a : c.axes)
                axes.push_back(std::size_t(a));
        xt::xarray<cd> ref = to_cd(h), iref = to_cd(h);
        double N = 1;
        for (std::size_t i = 0; i < axes.size(); ++i) {
            const std::size_t n = c.s.empty() ? c.shape[axes[i]] : std::size_t(c.s[i]);
            ref = host_dft_axis(ref, axes[i], n, -1);
            iref = host_dft_axis(iref, axes[i], n, +1);
            N *= double(n);
        }
        check_close<C>(ca::fft::fftn(x, c.s, c.axes).get(), ref, eps, N);
        CHECK(bool(x.get() == h));
        check_close<C>(ca::fft::ifftn(x, c.s, c.axes).get(), scaled(iref, 1 / N), eps, N);
        if (c.shape.size() == 2 && c.axes.empty()) {
            check_close<C>(ca::fft::fft2(x, c.s).get(), ref, eps, N);
            check_close<C>(ca::fft::ifft2(ca::fft::fft2(x)).get(), to_cd(h), eps, N);
        }
    }
    // fft2 takes the last two axes of a 3-d array by default.
    const auto h = random_complex<float>({3, 5, 6}, 77);
    check_close<C>(ca::fft::fft2(dev<C>(h)).get(),
                   host_dft_axis(host_dft_axis(to_cd(h), 1, 5, -1), 2, 6, -1), eps, 30);
    // A transposed 3-d view.
    xt::xarray<C> ht = xt::transpose(h);
    const auto t = dev<C>(ht).transpose();
    check_close<C>(
        ca::fft::fftn(t).get(),
        host_dft_axis(host_dft_axis(host_dft_axis(to_cd(h), 0, 3, -1), 1, 5, -1), 2, 6, -1), eps,
        90);
}

TEST_CASE("fft: every norm", "[fft]") {
    using C = std::complex<float>;
    const double eps = std::numeric_limits<float>::epsilon();
    const auto h = random_complex<float>({4, 12}, 41);
    const auto hr = test::random_array<float>({4, 12}, 42);
    const auto x = dev<C>(h);
    const auto xr = dev<float>(hr);
    const auto fwd = host_dft_axis(to_cd(h), 1, 12, -1), inv = host_dft_axis(to_cd(h), 1, 12, +1);
    const auto fwd2 = host_dft_axis(host_dft_axis(to_cd(h), 0, 4, -1), 1, 12, -1);
    const auto rfwd = host_dft_axis(to_cd(hr), 1, 12, -1);
    const xt::xarray<cd> rhalf = xt::view(rfwd, xt::all(), xt::range(0, 7));
    for (const char* norm : norms) {
        INFO("norm " << norm);
        check_close<C>(ca::fft::fft(x, -1, -1, norm).get(),
                       scaled(fwd, norm_factor(norm, false, 12)), eps, 12);
        check_close<C>(ca::fft::ifft(x, -1, -1, norm).get(),
                       scaled(inv, norm_factor(norm, true, 12)), eps, 12);
        check_close<C>(ca::fft::fft2(x, {}, {-2, -1}, norm).get(),
                       scaled(fwd2, norm_factor(norm, false, 48)), eps, 48);
        const auto R = ca::fft::rfft(xr, -1, -1, norm);
        check_close<C>(R.get(), scaled(rhalf, norm_factor(norm, false, 12)), eps, 12);
        // irfft with the same norm inverts rfft.
        check_close<float>(ca::fft::irfft(R, 12, -1, norm).get(), to_cd(hr), eps, 12);
        check_close<C>(ca::fft::ifft(ca::fft::fft(x, -1, -1, norm), -1, -1, norm).get(), to_cd(h),
                       eps, 12);
    }
}

// A complex transform of a complex expression runs in the temporary the expression is evaluated
// into, which becomes the result: one block from the pool, as for an array input (evaluating
// into a temporary and copying it into a new result took two). Values against the host DFT in
// every norm.
TEST_CASE("fft: complex transforms of expressions run in place in their evaluation", "[fft]") {
    using C = std::complex<float>;
    const double eps = std::numeric_limits<float>::epsilon();
    if (!test::storage_available<ca::svm_coarse>()) return;
    ca::pool_for_t<ca::svm_coarse> pool(test::ctx());
    const auto h = random_complex<float>({4, 12}, 43);
    const auto x = ca::to_device(test::q(), h, pool);
    const xt::xarray<cd> h2 = to_cd(h) * to_cd(h); // the expression x * x
    const auto served = [&] { return pool.stats().device_allocations + pool.stats().reuses; };
    for (const char* norm : norms) {
        INFO("norm " << norm);
        const auto fwd = scaled(host_dft_axis(h2, 1, 12, -1), norm_factor(norm, false, 12));
        const auto inv = scaled(host_dft_axis(h2, 1, 12, +1), norm_factor(norm, true, 12));
        const auto fwd2 = scaled(host_dft_axis(host_dft_axis(h2, 0, 4, -1), 1, 12, -1),
                                 norm_factor(norm, false, 48));
        const auto inv2 = scaled(host_dft_axis(host_dft_axis(h2, 0, 4, +1), 1, 12, +1),
                                 norm_factor(norm, true, 48));
        const auto inv0 = scaled(host_dft_axis(h2, 0, 4, +1), norm_factor(norm, true, 4));
        // Plans first (VkFFT's own buffers are not the pool's), then the counted calls.
        (void)ca::fft::ifft2(x * x, {}, {-2, -1}, norm).get();
        std::uint64_t before = served();
        const auto y = ca::fft::ifft2(x * x, {}, {-2, -1}, norm);
        CHECK(served() - before == 1);
        check_close<C>(y.get(), inv2, eps, 48);
        const auto e = ca::eval(x * x);
        before = served();
        const auto z = ca::fft::ifft2(e, {}, {-2, -1}, norm); // an array input: a new result
        CHECK(served() - before == 1);
        check_close<C>(z.get(), inv2, eps, 48);
        check_close<C>(ca::fft::fft(x * x, -1, -1, norm).get(), fwd, eps, 12);
        check_close<C>(ca::fft::ifft(x * x, -1, -1, norm).get(), inv, eps, 12);
        check_close<C>(ca::fft::fft2(x * x, {}, {-2, -1}, norm).get(), fwd2, eps, 48);
        check_close<C>(ca::fft::fftn(x * x, {}, {}, norm).get(), fwd2, eps, 48);
        check_close<C>(ca::fft::ifftn(x * x, {}, {0}, norm).get(), inv0, eps, 4);
        // A length that pads cannot run in place: the expression's array is copied as before.
        const auto padded = ca::fft::fft(x * x, 16, -1, norm);
        CHECK(padded.shape() == ca::shape_type{4, 16});
    }
    const bool untouched = x.get() == h;
    CHECK(untouched); // the operand
}

TEST_CASE("fft: errors", "[fft][errors]") {
    using C = std::complex<float>;
    const auto x = ca::zeros<C, ca::buffer>(test::q(), {4, 6});
    CHECK_THROWS_AS(ca::fft::fft(x, -1, -1, "orthonormal"), ca::usage_error);
    CHECK_THROWS_WITH(ca::fft::fft(x, -1, -1, "orthonormal"),
                      catch_compat::Contains("'orthonormal'"));
    CHECK_THROWS_AS(ca::fft::fft(x, 0), ca::usage_error);
    CHECK_THROWS_AS(ca::fft::fft(x, -3), ca::usage_error);
    CHECK_THROWS_AS(ca::fft::fft(x, -1, 2), ca::index_error);
    CHECK_THROWS_AS(ca::fft::fft(x, -1, -3), ca::index_error);
    CHECK_THROWS_AS(ca::fft::fftn(x, {4, 6}, {0}), ca::usage_error); // counts differ
    CHECK_THROWS_AS(ca::fft::fftn(x, {}, {1, -1}), ca::usage_error); // axis repeated
    CHECK_THROWS_AS(ca::fft::fftn(x, {2, 3, 4}), ca::usage_error);   // more lengths than axes
    CHECK_THROWS_AS(ca::fft::fft(ca::cl_array<C, ca::buffer>()), ca::usage_error); // unbound
    CHECK_THROWS_AS(ca::fft::fft(ca::zeros<C, ca::buffer>(test::q(), ca::shape_type{})),
                    ca::index_error); // 0-d: no axis -1
    CHECK_THROWS_AS(ca::fft::fft(ca::zeros<C, ca::buffer>(test::q(), {3, 0})), ca::usage_error);
    CHECK_THROWS_AS(ca::fft::irfft(ca::zeros<C, ca::buffer>(test::q(), {1})),
                    ca::usage_error); // n = 0
    // An empty batch gives an empty result; padding an empty axis gives zeros.
    CHECK(ca::fft::fft(ca::zeros<C, ca::buffer>(test::q(), {0, 5})).shape() ==
          ca::shape_type{0, 5});
    const auto padded = ca::fft::fft(ca::zeros<C, ca::buffer>(test::q(), {2, 0}), 4).get();
    CHECK(padded.shape()[1] == 4);
    for (const auto& v : padded)
        CHECK(v == C(0));
    ca::queue ooo(test::ctx(), ca::out_of_order);
    CHECK_THROWS_AS(ca::fft::fft(x.with_queue(ooo)), ca::unsupported);
    if (!test::ctx().device().has_fp64()) {
        CHECK_THROWS_AS(ca::fft::fft(ca::zeros<std::complex<double>, ca::buffer>(test::q(), {4})),
                        ca::unsupported);
    }
}

TEST_CASE("fft: VkFFT result codes become clarray errors", "[fft][errors]") {
    // The codes of VkFFT 1.2's VkFFTResult: 0 success, 1 malloc failed, 3002 unsupported FFT
    // length, 4031 failed to compile program.
    using ca::detail::check_vkfft;
    const auto message = [](auto f) -> std::string {
        try {
            f();
        } catch (const ca::error& e) {
            return e.what();
        }
        return "";
    };
    CHECK_NOTHROW(check_vkfft(0, "initializeVkFFT", "fft", ""));
    CHECK_THROWS_AS(check_vkfft(3002, "initializeVkFFT", "fft", "size 17"), ca::unsupported);
    CHECK(message([&] { check_vkfft(3002, "initializeVkFFT", "fft", "size 17"); }) ==
          "fft: VkFFT initializeVkFFT: VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH (size 17)");
    CHECK_THROWS_AS(check_vkfft(1, "initializeVkFFT", "rfft", ""), ca::out_of_memory);
    CHECK(message([&] { check_vkfft(4031, "VkFFTAppend", "ifft", ""); }) ==
          "ifft: VkFFT VkFFTAppend: VKFFT_ERROR_FAILED_TO_COMPILE_PROGRAM");
    CHECK(message([&] { check_vkfft(77777, "VkFFTAppend", "fft2", ""); }) ==
          "fft2: VkFFT VkFFTAppend: result 77777");
}

TEST_CASE("fft: plans are cached per configuration", "[fft]") {
    using C = std::complex<float>;
    const auto a = dev<C>(random_complex<float>({5, 24}, 51));
    const auto b = dev<C>(random_complex<float>({5, 24}, 52));
    // A contiguous forward reads its input where it is (one plan), an inverse runs in place in
    // its result (another plan, normalising for "backward").
    (void)ca::fft::fft(a);
    (void)ca::fft::ifft(a);
    const std::size_t plans = ca::fft::cached_plan_count(test::ctx());
    CHECK(plans >= 2);
    // Another array of the shape, another norm of the forward: the same plans.
    const auto X = ca::fft::fft(b);
    const auto Y = ca::fft::fft(b, -1, -1, "forward");
    (void)ca::fft::ifft(b);
    CHECK(ca::fft::cached_plan_count(test::ctx()) == plans);
    // Results of a shared plan still differ per array (the buffers are rebound per call).
    const double eps = std::numeric_limits<float>::epsilon();
    const auto ref_b = host_dft_axis(to_cd(xt::xarray<C>(b.get())), 1, 24, -1);
    check_close<C>(X.get(), ref_b, eps, 24);
    check_close<C>(Y.get(), scaled(ref_b, 1.0 / 24), eps, 24);
    check_close<C>(ca::fft::fft(a).get(), host_dft_axis(to_cd(xt::xarray<C>(a.get())), 1, 24, -1),
                   eps, 24);
    (void)ca::fft::fft(ca::zeros<C, ca::buffer>(test::q(), {5, 25}));
    CHECK(ca::fft::cached_plan_count(test::ctx()) == plans + 1);
    // Nothing may still run when the process exits: pocl's worker threads would compile the
    // transform's kernels while LLVM's static destructors run (a crash after the test passed).
    test::q().finish();
}

TEMPLATE_LIST_TEST_CASE("fft: ordering across queues, never blocking", "[fft]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    using C = std::complex<float>;
    // The input is written behind a user event: a transform that waited on the host would never
    // return. A watchdog opens the gate after 60 s and the test fails. The plan exists already
    // (building one compiles kernels, which is allowed to block).
    ca::context& ctx = test::ctx();
    ca::queue other(ctx);
    const std::size_t n = 48;
    (void)ca::fft::fft(ca::zeros<C, S>(test::q(), {3, n}));
    (void)ca::fft::rfft(ca::zeros<float, S>(test::q(), {3, n}));
    ca::kernel writer =
        ca::program(ctx, "kernel void w(global float2* a) { size_t i = get_global_id(0); "
                         "a[i] = (float2)((float)(i % 7), 1.0f); }")
            .kernel("w");
    test::host_wait_gate gate(ctx);
    auto a = ca::empty<C, S>(other, {3, n});
    writer.launch(other, {a.size()}, {}, {gate.event()}, ca::out(a));
    const auto X = ca::fft::fft(a.with_queue(test::q())); // on another queue than the writer
    const auto Xt = ca::fft::fft(a.with_queue(test::q()).transpose(), -1, 0);
    CHECK(gate.release());
    xt::xarray<C> h = xt::zeros<C>(shape_t{3, n});
    for (std::size_t i = 0; i < h.size(); ++i)
        h.flat(i) = C(float(i % 7), 1.0f);
    const double eps = std::numeric_limits<float>::epsilon();
    const auto ref = host_dft_axis(to_cd(h), 1, n, -1);
    check_close<C>(X.get(), ref, eps, n);
    check_close<C>(Xt.get(), xt::xarray<cd>(xt::transpose(ref)), eps, n);
    // A writer after the transform (on the other queue) waits for its read.
    a.fill(C(0));
    const auto Z = ca::fft::fft(a);
    check_close<C>(Z.get(), xt::xarray<cd>(xt::zeros<cd>(shape_t{3, n})), eps, n);
}

TEST_CASE("fft: odd real lengths past one VkFFT pass", "[fft]") {
    // VkFFT's R2C takes odd lengths only within one pass; longer ones run as complex transforms
    // (irfft after completing the Hermitian half). 10395 = 3 5 7 9 11: several passes.
    using C = std::complex<float>;
    const double eps = std::numeric_limits<float>::epsilon();
    const std::size_t n = 10395, m = n / 2 + 1;
    const auto h = test::random_array<float>({2, n}, 61);
    const auto X = ca::fft::rfft(dev<float>(h));
    const auto full = host_dft_axis(to_cd(h), 1, n, -1);
    check_close<C>(X.get(), xt::xarray<cd>(xt::view(full, xt::all(), xt::range(0, m))), eps,
                   double(n));
    check_close<float>(ca::fft::irfft(X, std::ptrdiff_t(n)).get(), to_cd(h), eps, double(n));
    const auto hz = random_complex<float>({2, m + 3}, 62); // truncated to m first
    check_close<float>(ca::fft::irfft(dev<C>(hz), std::ptrdiff_t(n), -1, "ortho").get(),
                       scaled(host_irfft_1d(to_cd(hz), n), std::sqrt(double(n))), eps, double(n));
}

TEST_CASE("fft: threads share the plan cache", "[fft]") {
    // Four threads, each with its own queue, transform arrays of one shape (one plan, whose
    // buffers each call rebinds under the plan's lock) and of a shape of their own.
    using C = std::complex<float>;
    const double eps = std::numeric_limits<float>::epsilon();
    std::vector<xt::xarray<C>> inputs;
    for (unsigned t = 0; t < 4; ++t)
        inputs.push_back(random_complex<float>({3, 40}, 70 + t));
    std::vector<xt::xarray<C>> shared(4), own(4);
    std::vector<std::string> errors(4);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            try {
                ca::queue q(test::ctx());
                for (int rep = 0; rep < 5; ++rep) {
                    const auto x = ca::to_device<ca::buffer>(q, inputs[t]);
                    shared[t] = ca::fft::fft(x).get();
                    own[t] = ca::fft::fft(x, std::ptrdiff_t(41 + t)).get();
                }
            } catch (const std::exception& e) {
                errors[t] = e.what();
            }
        });
    for (auto& th : threads)
        th.join();
    for (unsigned t = 0; t < 4; ++t) {
        INFO("thread " << t);
        CHECK(errors[t].empty());
        check_close<C>(shared[t], host_dft_axis(to_cd(inputs[t]), 1, 40, -1), eps, 40);
        check_close<C>(own[t], host_dft_axis(to_cd(inputs[t]), 1, 41 + t, -1), eps, 41 + t);
    }
}

TEST_CASE("fft: long transforms at offsets checked at sampled frequencies", "[fft]") {
    // Lengths past one VkFFT pass (multi-pass R2C and C2C) read in place at even and odd element
    // offsets, or copied; each checked at a few frequencies against host sums (O(n) per bin).
    using C = std::complex<float>;
    const double eps = std::numeric_limits<float>::epsilon();
    for (std::size_t n : {std::size_t(16384), std::size_t(20000)})
        for (std::size_t offset : {0, 1, 2}) {
            INFO("n = " << n << ", offset " << offset);
            const std::size_t rows = 2;
            const auto h = test::random_array<float>({offset + rows * n}, unsigned(n + offset));
            const auto base = dev<float>(h);
            const auto x =
                base(ca::range(std::ptrdiff_t(offset), std::ptrdiff_t(offset + rows * n)))
                    .reshape({rows, n});
            const auto hz = random_complex<float>({offset + rows * n}, unsigned(n + offset + 1));
            const auto zbase = dev<C>(hz);
            const auto z =
                zbase(ca::range(std::ptrdiff_t(offset), std::ptrdiff_t(offset + rows * n)))
                    .reshape({rows, n});
            const xt::xarray<C> R = ca::fft::rfft(x).get();
            const xt::xarray<C> Z = ca::fft::fft(z).get();
            const std::size_t bins[] = {0, 1, 7, 1001, n / 2 - 1, n / 2};
            double worst_r = 0, worst_z = 0, scale_r = 0, scale_z = 0;
            for (std::size_t r = 0; r < rows; ++r)
                for (std::size_t k : bins) {
                    cd sr = 0, sz = 0;
                    for (std::size_t j = 0; j < n; ++j) {
                        const cd w = std::polar(1.0, -2.0 * pi * double((j * k) % n) / double(n));
                        sr += double(h(offset + r * n + j)) * w;
                        sz += cd(hz(offset + r * n + j)) * w;
                    }
                    worst_r = std::max(worst_r, std::abs(cd(R(r, k)) - sr));
                    worst_z = std::max(worst_z, std::abs(cd(Z(r, k)) - sz));
                    scale_r = std::max(scale_r, std::abs(sr));
                    scale_z = std::max(scale_z, std::abs(sz));
                }
            // The bins' own magnitudes are a lower bound of max|X|; sqrt(n) * rms bounds the rest.
            const double tol =
                8 * eps * (log2n(double(n)) + 1) * std::max(scale_r, 10 * std::sqrt(double(n)));
            CHECK(worst_r <= tol);
            CHECK(worst_z <=
                  8 * eps * (log2n(double(n)) + 1) * std::max(scale_z, 10 * std::sqrt(double(n))));
            // Round trips through the inverses.
            check_close<float>(ca::fft::irfft(ca::fft::rfft(x), std::ptrdiff_t(n)).get(),
                               to_cd(xt::xarray<float>(x.get())), eps, double(n));
            check_close<C>(ca::fft::ifft(ca::fft::fft(z)).get(), to_cd(xt::xarray<C>(z.get())), eps,
                           double(n));
        }
}

namespace {

// The view kinds of the conformance matrix, cut from a (6, 8) base on the device and, for the
// reference, element by element on the host: the base itself, an offset window, negative steps
// (every second row from the last, columns reversed) and the transpose.
enum class view_kind { c, offset, negative, transposed };
const view_kind view_kinds[] = {view_kind::c, view_kind::offset, view_kind::negative,
                                view_kind::transposed};
const char* view_name(view_kind v) {
    switch (v) {
    case view_kind::offset:
        return "offset";
    case view_kind::negative:
        return "negative steps";
    case view_kind::transposed:
        return "transposed";
    default:
        return "C";
    }
}

template <class T, class S> ca::cl_array<T, S> cut_view(const ca::cl_array<T, S>& x, view_kind v) {
    switch (v) {
    case view_kind::offset:
        return x(ca::range(1, 5), ca::range(2, 8));
    case view_kind::negative:
        return x(ca::range(ca::none, ca::none, -2), ca::range(ca::none, ca::none, -1));
    case view_kind::transposed:
        return x.transpose();
    default:
        return x;
    }
}

template <class T> xt::xarray<T> cut_host(const xt::xarray<T>& x, view_kind v) {
    const std::size_t R = x.shape()[0], C = x.shape()[1];
    shape_t shape;
    switch (v) {
    case view_kind::offset:
        shape = {4, 6};
        break;
    case view_kind::negative:
        shape = {(R + 1) / 2, C};
        break;
    case view_kind::transposed:
        shape = {C, R};
        break;
    default:
        shape = {R, C};
    }
    xt::xarray<T> r = xt::xarray<T>::from_shape(shape);
    for (std::size_t i = 0; i < shape[0]; ++i)
        for (std::size_t j = 0; j < shape[1]; ++j) {
            std::size_t si = i, sj = j;
            if (v == view_kind::offset) {
                si = i + 1;
                sj = j + 2;
            } else if (v == view_kind::negative) {
                si = R - 1 - 2 * i;
                sj = C - 1 - j;
            } else if (v == view_kind::transposed) {
                si = j;
                sj = i;
            }
            r(i, j) = x(si, sj);
        }
    return r;
}

xt::xarray<cd> transposed(const xt::xarray<cd>& x) {
    return xt::xarray<cd>(xt::transpose(x));
}

using view_cfgs = std::tuple<
    test::cfg<std::complex<float>, ca::svm_coarse>, test::cfg<std::complex<double>, ca::svm_fine>,
    test::cfg<std::complex<float>, ca::buffer>, test::cfg<std::complex<double>, ca::buffer>>;

} // namespace

TEMPLATE_LIST_TEST_CASE("fft: every function over the view kinds (irfft of arbitrary input)",
                        "[fft]", view_cfgs) {
    // Each transform of each view kind against the host DFT of the same view. irfft's input is
    // arbitrary complex data (not a spectrum of real data: its unmirrored imaginary parts are
    // not 0), along the last axis with the default n = 2 (m - 1) and along axis 0.
    using C = typename TestType::value_type;
    using S = typename TestType::storage;
    using F = typename C::value_type;
    if (!test::storage_available<S>() || !test::dtype_available<F>()) return;
    const double eps = std::numeric_limits<F>::epsilon();
    const auto hb = random_complex<F>({6, 8}, 91);
    const auto hrb = test::random_array<F>({6, 8}, 92);
    const auto base = dev<C, S>(hb);
    const auto rbase = dev<F, S>(hrb);
    // Each view kind in two of the four configurations, one of each value type and each in a
    // Buffer one (all four: CLARRAY_TEST_FULL=1).
    constexpr std::size_t config = test::index_in_v<TestType, view_cfgs>;
    std::size_t view_case = 0;
    for (view_kind v : view_kinds) {
        if (!test::sampled(view_case++, config + config / 2, 2)) continue;
        INFO("view " << view_name(v));
        const auto x = cut_view(base, v);
        const auto xr = cut_view(rbase, v);
        const xt::xarray<cd> h = to_cd(cut_host(hb, v));
        const xt::xarray<cd> hr = to_cd(cut_host(hrb, v));
        const std::size_t rows = h.shape()[0], cols = h.shape()[1];
        const double N = double(rows * cols);
        // Complex transforms along each axis and over both.
        check_close<C>(ca::fft::fft(x).get(), host_dft_axis(h, 1, cols, -1), eps, cols);
        check_close<C>(ca::fft::fft(x, -1, 0).get(), host_dft_axis(h, 0, rows, -1), eps, rows);
        check_close<C>(ca::fft::ifft(x).get(), scaled(host_dft_axis(h, 1, cols, +1), 1.0 / cols),
                       eps, cols);
        check_close<C>(ca::fft::ifft(x, -1, 0).get(),
                       scaled(host_dft_axis(h, 0, rows, +1), 1.0 / rows), eps, rows);
        const auto fwd2 = host_dft_axis(host_dft_axis(h, 0, rows, -1), 1, cols, -1);
        const auto inv2 = scaled(host_dft_axis(host_dft_axis(h, 0, rows, +1), 1, cols, +1), 1 / N);
        check_close<C>(ca::fft::fft2(x).get(), fwd2, eps, N);
        check_close<C>(ca::fft::fftn(x).get(), fwd2, eps, N);
        check_close<C>(ca::fft::ifft2(x).get(), inv2, eps, N);
        check_close<C>(ca::fft::ifftn(x).get(), inv2, eps, N);
        // rfft of the real views along each axis.
        const auto rf1 = host_dft_axis(hr, 1, cols, -1);
        check_close<C>(ca::fft::rfft(xr).get(),
                       xt::xarray<cd>(xt::view(rf1, xt::all(), xt::range(0, cols / 2 + 1))), eps,
                       cols);
        const auto rf0 = host_dft_axis(hr, 0, rows, -1);
        check_close<C>(ca::fft::rfft(xr, -1, 0).get(),
                       xt::xarray<cd>(xt::view(rf0, xt::range(0, rows / 2 + 1), xt::all())), eps,
                       rows);
        // irfft of arbitrary complex input: the default n along the last axis, axis 0.
        const std::size_t n1 = 2 * (cols - 1), n0 = 2 * (rows - 1);
        check_close<F>(ca::fft::irfft(x).get(), host_irfft_1d(h, n1), eps, n1);
        check_close<F>(ca::fft::irfft(x, -1, 0).get(), transposed(host_irfft_1d(transposed(h), n0)),
                       eps, n0);
        // Every transform only read its input.
        CHECK(bool(to_cd(xt::xarray<C>(x.get())) == h));
        CHECK(bool(to_cd(xt::xarray<F>(xr.get())) == hr));
    }
}
