#pragma once
// NumPy's convolve and correlate of 1-d arrays on the device (docs/signal.md):
//
//   auto y = clarray::convolve(x, kernel);                     // mode full: n + m - 1 values
//   auto c = clarray::correlate(x, template_, clarray::convolve_mode::same);
//
// Short kernels are computed directly: the longer input, zero-padded, is read as a sliding
// window (an overlapping strided view of shape (n + m - 1, m)) and each window's products
// with the kernel are summed by the reduction layer: one generated kernel, in the element
// type's sum (integers wrap as NumPy's, bool is the OR of ANDs). Longer kernels of float,
// double and complex type go through the FFT layer (rfft or fft of both, zero-padded to a
// power of two, a product and the inverse), which is O(n log n); `fft_crossover` below is the
// kernel length where that became faster on pocl (bench/bench_signal.cpp, docs/signal.md).
// Integers stay direct at any length: an FFT would round them. Nothing blocks.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "clarray/array/cl_array.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/expr/promotion.hpp"
#include "clarray/fft/fft.hpp"
#include "clarray/reduce/reduce.hpp"
#include "clarray/sort/sort.hpp" // detail::materialize_as

namespace clarray {

// Which part of the full convolution convolve and correlate return (NumPy's modes): every
// overlap (n + m - 1 values), the middle max(n, m) values, or the min-overlap-free ones
// (max(n, m) - min(n, m) + 1 values).
enum class convolve_mode : unsigned char { full, same, valid };

namespace detail {

// The shorter input's length from which the FFT path is taken (float, double and complex
// inputs), measured on pocl (docs/signal.md has the table).
inline constexpr std::size_t fft_crossover = 40;

// NumPy's name of a mode; usage_error naming any other.
inline convolve_mode convolve_mode_named(const std::string& m, const char* what) {
    if (m == "full") return convolve_mode::full;
    if (m == "same") return convolve_mode::same;
    if (m == "valid") return convolve_mode::valid;
    throw usage_error(std::string(what) + ": unknown mode \"" + m + "\" (full, same or valid)");
}

template <class T, class S> cl_array<T, S> reversed(const cl_array<T, S>& a) {
    return a(range(none, none, -1));
}

template <class R>
inline constexpr bool fft_convolvable_v =
    std::is_same_v<R, float> || std::is_same_v<R, double> ||
    std::is_same_v<R, std::complex<float>> || std::is_same_v<R, std::complex<double>>;

// The direct full correlation of 1-d a with w (a at least as long): c[k] = sum_j
// a[k - (m - 1) + j] w[j] for k < n + m - 1, one reduction over a window view of padded a.
template <class R, class S>
cl_array<R, S> correlate_direct(const cl_array<R, S>& a, const cl_array<R, S>& w) {
    const std::size_t n = a.size(), m = w.size(), len = n + m - 1;
    const queue& q = a.get_queue();
    cl_array<R, S> padded(q, shape_type{n + 2 * (m - 1)}, layout::c, a.data().get());
    const std::ptrdiff_t lo = static_cast<std::ptrdiff_t>(m - 1);
    if (m > 1) {
        padded(range(0, lo)).fill(R(0));
        padded(range(lo + static_cast<std::ptrdiff_t>(n), none)).fill(R(0));
    }
    padded(range(lo, lo + static_cast<std::ptrdiff_t>(n))) = a;
    // Row k is padded[k : k + m]: overlapping rows, read only.
    const cl_array<R, S> windows(q, padded.data(), shape_type{len, m}, strides_type{1, 1},
                                 padded.offset());
    return eval(astype<R>(sum(windows * w(newaxis(), all()), reduce_axes(1))));
}

// The same through the FFT: the convolution of a with w reversed, over a power-of-two length.
template <class R, class S>
cl_array<R, S> correlate_fft(const cl_array<R, S>& a, const cl_array<R, S>& w) {
    const std::size_t len = a.size() + w.size() - 1;
    std::size_t p = 1;
    while (p < len)
        p *= 2;
    const std::ptrdiff_t np = static_cast<std::ptrdiff_t>(p);
    const std::ptrdiff_t nl = static_cast<std::ptrdiff_t>(len);
    if constexpr (is_complex_v<R>) {
        const auto fa = fft::fft(a, np);
        const auto fw = fft::fft(reversed(w), np);
        const decltype(fa) prod = eval(fa * fw);
        return fft::ifft(prod, np)(range(0, nl));
    } else {
        const auto fa = fft::rfft(a, np);
        const auto fw = fft::rfft(reversed(w), np);
        const decltype(fa) prod = eval(fa * fw);
        return fft::irfft(prod, np)(range(0, nl));
    }
}

// The full correlation (as correlate_direct) of any two non-empty 1-d arrays: the longer one
// slides (the correlation of a with w is that of reversed w with reversed a).
template <class R, class S>
cl_array<R, S> correlate_full(const cl_array<R, S>& a, const cl_array<R, S>& w) {
    if (a.size() < w.size()) return correlate_full(reversed(w), reversed(a));
    if constexpr (fft_convolvable_v<R>)
        if (w.size() >= fft_crossover) return correlate_fft(a, w);
    return correlate_direct(a, w);
}

// The part of the full result `mode` asks for (n, m: the inputs' lengths). NumPy takes `same`
// from the swapped computation when the first input is the shorter (swapped): one element
// further left for an even shorter length.
template <class R, class S>
cl_array<R, S> convolve_part(const cl_array<R, S>& full, std::size_t n, std::size_t m,
                             convolve_mode mode, bool swapped) {
    const std::size_t lo = std::min(n, m), hi = std::max(n, m);
    std::size_t start = 0, count = full.size();
    if (mode == convolve_mode::valid) {
        start = lo - 1;
        count = hi - lo + 1;
    } else if (mode == convolve_mode::same) {
        start = swapped ? lo / 2 : (lo - 1) - lo / 2;
        count = hi;
    } else {
        return full;
    }
    return full(range(static_cast<std::ptrdiff_t>(start),
                      static_cast<std::ptrdiff_t>(start + count)))
        .copy();
}

template <class A, class V> struct convolve_types {
    using R = promote_t<value_type_of<const A&>, value_type_of<const V&>>;
    using S = storage_of_t<A>;
    static_assert(std::is_same_v<S, storage_of_t<V>>,
                  "clarray::convolve/correlate: both inputs must have one storage policy");
};

// a and v as 1-d arrays of R; shape_error naming what for empty or not 1-d inputs.
template <class R, class X> auto signal_input(const X& x, const char* what, const char* name) {
    require_device_argument<X>();
    const shape_type s = shape_of(x);
    if (s.size() != 1)
        throw shape_error(std::string(what) + ": " + name + " must be 1-d, got shape " +
                          shape_to_string(s));
    if (s[0] == 0) throw shape_error(std::string(what) + ": " + name + " is empty");
    return materialize_as<R>(x);
}

} // namespace detail

// NumPy's convolve: (a * v)[k] = sum_j a[j] v[k - j] over the overlaps `mode` keeps (full by
// default), in the NumPy promotion of the two dtypes. Both 1-d and non-empty (else
// shape_error); arrays or expressions of one storage policy. Never blocks.
template <
    class A, class V,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<V>>>
auto convolve(const A& a, const V& v, convolve_mode mode = convolve_mode::full) {
    using R = typename detail::convolve_types<A, V>::R;
    const auto x = detail::signal_input<R>(a, "convolve", "a");
    const auto y = detail::signal_input<R>(v, "convolve", "v");
    // NumPy swaps the inputs so that the first is the longer: no `same` asymmetry here.
    return detail::convolve_part(detail::correlate_full(x, detail::reversed(y)), x.size(), y.size(),
                                 mode, false);
}
// convolve with NumPy's spelling of the mode ("full", "same", "valid"; usage_error otherwise).
template <
    class A, class V,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<V>>>
auto convolve(const A& a, const V& v, const std::string& mode) {
    return convolve(a, v, detail::convolve_mode_named(mode, "convolve"));
}

// NumPy's correlate: c[k] = sum_n a[n + k] conj(v[n]) over the overlaps `mode` keeps (valid by
// default), in the NumPy promotion of the two dtypes; complex v is conjugated, as NumPy's.
// Both 1-d and non-empty (else shape_error). Never blocks.
template <
    class A, class V,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<V>>>
auto correlate(const A& a, const V& v, convolve_mode mode = convolve_mode::valid) {
    using R = typename detail::convolve_types<A, V>::R;
    using S = typename detail::convolve_types<A, V>::S;
    const auto x = detail::signal_input<R>(a, "correlate", "a");
    const auto y = detail::signal_input<R>(v, "correlate", "v");
    if constexpr (is_complex_v<R>) {
        const cl_array<R, S> yc = eval(conj(y));
        return detail::convolve_part(detail::correlate_full(x, yc), x.size(), y.size(), mode,
                                     x.size() < y.size());
    } else {
        return detail::convolve_part(detail::correlate_full(x, y), x.size(), y.size(), mode,
                                     x.size() < y.size());
    }
}
// correlate with NumPy's spelling of the mode.
template <
    class A, class V,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<V>>>
auto correlate(const A& a, const V& v, const std::string& mode) {
    return correlate(a, v, detail::convolve_mode_named(mode, "correlate"));
}

} // namespace clarray
