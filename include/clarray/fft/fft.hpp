#pragma once
// Discrete Fourier transforms on VkFFT (OpenCL backend), with NumPy's numpy.fft semantics:
//
//   auto X = clarray::fft::fft(x);               // complex64 or complex128, along the last axis
//   auto y = clarray::fft::ifft(X, -1, -1, "ortho");
//   auto R = clarray::fft::rfft(signal);         // real -> n/2+1 complex values
//   auto s = clarray::fft::irfft(R, n);          // back to n real values
//   auto F = clarray::fft::fft2(image);          // the last two axes
//   auto G = clarray::fft::fftn(volume, {}, {0, 2});
//
// The result is a new C-contiguous array on the input's queue, from the input's pool; every
// operand may be any view (strided, transposed, offset) of any storage policy. Everything is
// enqueued, nothing blocks (except building a VkFFT plan on first use of a shape: docs/fft.md).
// Element types: std::complex<float> / <double>; float and double promote to complex64 /
// complex128 (fft, ifft and their n-d forms), rfft takes real input, irfft complex (real input:
// zero imaginary parts). As NumPy's, bool and integer inputs compute in float64 (complex128
// results) and float16 in float32 (complex64 results; irfft and hfft give float16 back).
#include <complex>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"

namespace clarray {
namespace detail {

enum class fft_op : unsigned char {
    forward, // complex -> complex, e^{-2 pi i jk/n}
    inverse, // complex -> complex, e^{+2 pi i jk/n}
    r2c,     // real -> n/2+1 complex (forward)
    c2r      // n/2+1 complex -> real (inverse)
};

// One call, checked and with its defaults resolved: the axes (distinct, in [0, rank)) and the
// logical transform length along each (the real length for r2c and c2r).
struct fft_request {
    fft_op op = fft_op::forward;
    const char* name = "fft";
    unsigned char norm = 0; // 0 backward, 1 ortho, 2 forward
    std::vector<std::size_t> axes;
    std::vector<std::size_t> lengths;
    shape_type out_shape;
    dtype out_type = dtype::complex64;
};

// Checks the arguments of `name` for input `in` and resolves the defaults: axes (empty and
// `all_axes`: every axis; empty otherwise: the last sizes.size() axes), sizes (empty: the
// input's extents; -1 entries: the input's extent). Throws usage_error (unbound input, a bad
// norm, a length < 1, sizes and axes of different counts, a repeated axis), index_error (an
// axis out of range), unsupported (float64/complex128 on a device without fp64, an
// out-of-order queue).
fft_request make_fft_request(fft_op op, const char* name, const array_ref& in,
                             const std::vector<std::ptrdiff_t>& sizes,
                             const std::vector<std::ptrdiff_t>& axes, bool all_axes,
                             std::string_view norm);
// out (bound unless empty, C-contiguous, of r.out_shape and r.out_type) = the transform of in.
// Enqueues the copies, the VkFFT commands and the scaling after the operands' recorded uses,
// and records the last command's event on every operand.
void fft_execute(const fft_request& r, const array_ref& out, const array_ref& in);

// Throws the clarray::error for a VkFFT result code (nothing for VKFFT_SUCCESS, 0): "fft: VkFFT
// initializeVkFFT: VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH (detail)". Lengths and radices VkFFT does
// not take become unsupported, failed allocations out_of_memory, the rest clarray::error.
void check_vkfft(int result, const char* call, const char* name, const std::string& detail);

// The transform types of an input type, as NumPy's: bool and integers compute in float64,
// float16 in float32 (complex64 results). real_output: the result of irfft and hfft, NumPy's
// result_type(input's real type, 1.0), which keeps float16.
template <class T> struct fft_traits {
    static_assert(is_inexact_v<T> || is_integer_v<T> || is_boolean_v<T>,
                  "clarray::fft: the input must be a number or bool");
    using real = std::conditional_t<std::is_same_v<T, half>, float,
                                    std::conditional_t<is_inexact_v<T>, real_of_t<T>, double>>;
    using complex = std::complex<real>;
    using real_output = std::conditional_t<std::is_same_v<T, half>, half, real>;
};

template <class R, class T, class S>
cl_array<R, S> fft_call(fft_op op, const char* name, const cl_array<T, S>& a,
                        const std::vector<std::ptrdiff_t>& sizes,
                        const std::vector<std::ptrdiff_t>& axes, bool all_axes,
                        std::string_view norm) {
    if constexpr (!std::is_same_v<T, typename fft_traits<T>::real> &&
                  !std::is_same_v<T, typename fft_traits<T>::complex>) {
        // bool and integers (float64 first) and float16 (float32 first), as NumPy
        using P = typename fft_traits<T>::real;
        return fft_call<R>(op, name, cl_array<P, S>(astype<P>(a)), sizes, axes, all_axes, norm);
    } else {
        const array_ref in = array_ref_of(a);
        const fft_request r = make_fft_request(op, name, in, sizes, axes, all_axes, norm);
        cl_array<R, S> out(a.get_queue(), r.out_shape, layout::c, a.data().get());
        fft_execute(r, array_ref_of(out), in);
        return out;
    }
}

// The complex transform r (forward or inverse) run in place in `work` (bound, C-contiguous, of
// r.out_shape and r.out_type): enqueued like fft_execute.
void fft_execute_in_place(const fft_request& r, const array_ref& work);

// fft_call of an array nothing else uses (an evaluated expression): a complex transform whose
// result has the input's shape and type runs in place in it, without a copy into a new result
// (ifft2(fft2(x) * H) reads and writes the product once).
template <class R, class T, class S>
cl_array<R, S> fft_call_owned(fft_op op, const char* name, cl_array<T, S>&& a,
                              const std::vector<std::ptrdiff_t>& sizes,
                              const std::vector<std::ptrdiff_t>& axes, bool all_axes,
                              std::string_view norm) {
    if constexpr (std::is_same_v<R, T>) {
        if ((op == fft_op::forward || op == fft_op::inverse) && a.is_c_contiguous()) {
            const array_ref work = array_ref_of(a);
            const fft_request r = make_fft_request(op, name, work, sizes, axes, all_axes, norm);
            if (r.out_shape == a.shape()) {
                fft_execute_in_place(r, work);
                return std::move(a);
            }
        }
    }
    return fft_call<R>(op, name, a, sizes, axes, all_axes, norm);
}

} // namespace detail

namespace fft {

// NumPy's fft: the 1-d transform along `axis`; n (> 0) pads with zeros or truncates that axis
// first (-1: its extent). norm: "backward" (no scaling forward, 1/n inverse), "ortho"
// (1/sqrt(n) both ways) or "forward" (1/n forward, none inverse).
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
fft(const cl_array<T, S>& a, std::ptrdiff_t n = -1, std::ptrdiff_t axis = -1,
    std::string_view norm = "backward") {
    using C = typename clarray::detail::fft_traits<T>::complex;
    return clarray::detail::fft_call<C>(clarray::detail::fft_op::forward, "fft", a, {n}, {axis},
                                        false, norm);
}
// The inverse of fft: ifft(fft(a)) == a.
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
ifft(const cl_array<T, S>& a, std::ptrdiff_t n = -1, std::ptrdiff_t axis = -1,
     std::string_view norm = "backward") {
    using C = typename clarray::detail::fft_traits<T>::complex;
    return clarray::detail::fft_call<C>(clarray::detail::fft_op::inverse, "ifft", a, {n}, {axis},
                                        false, norm);
}
// The transform of real input: the n/2+1 non-negative frequencies along `axis` (n: the real
// length after padding or truncation, -1: the extent).
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
rfft(const cl_array<T, S>& a, std::ptrdiff_t n = -1, std::ptrdiff_t axis = -1,
     std::string_view norm = "backward") {
    static_assert(!is_complex_v<T>, "clarray::fft::rfft: the input must be real (float, double, "
                                    "float16, integer or bool)");
    using C = typename clarray::detail::fft_traits<T>::complex;
    return clarray::detail::fft_call<C>(clarray::detail::fft_op::r2c, "rfft", a, {n}, {axis}, false,
                                        norm);
}
// The inverse of rfft: n real values (-1: 2 * (m - 1) for m input values along `axis`); the
// input is truncated or padded with zeros to n/2+1 values first. Real input counts as complex
// with zero imaginary parts (NumPy's); float16 input gives float16, as NumPy's.
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::real_output, S>
irfft(const cl_array<T, S>& a, std::ptrdiff_t n = -1, std::ptrdiff_t axis = -1,
      std::string_view norm = "backward") {
    using traits = clarray::detail::fft_traits<T>;
    using C = typename traits::complex;
    using O = typename traits::real_output;
    if constexpr (std::is_same_v<T, C>) {
        return clarray::detail::fft_call<O>(clarray::detail::fft_op::c2r, "irfft", a, {n}, {axis},
                                            false, norm);
    } else {
        cl_array<typename traits::real, S> r = irfft(cl_array<C, S>(astype<C>(a)), n, axis, norm);
        if constexpr (std::is_same_v<O, typename traits::real>)
            return r;
        else
            return cl_array<O, S>(astype<O>(r));
    }
}
// The n-d transform over `axes` (empty: every axis when s is empty, else the last s.size()
// axes); s: the lengths along those axes (empty: the extents; -1 entries likewise). Repeated
// axes are refused.
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
fftn(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& s = {},
     const std::vector<std::ptrdiff_t>& axes = {}, std::string_view norm = "backward") {
    using C = typename clarray::detail::fft_traits<T>::complex;
    return clarray::detail::fft_call<C>(clarray::detail::fft_op::forward, "fftn", a, s, axes,
                                        s.empty(), norm);
}
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
// NumPy's ifftn: the inverse of fftn over the given axes (all by default).
ifftn(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& s = {},
      const std::vector<std::ptrdiff_t>& axes = {}, std::string_view norm = "backward") {
    using C = typename clarray::detail::fft_traits<T>::complex;
    return clarray::detail::fft_call<C>(clarray::detail::fft_op::inverse, "ifftn", a, s, axes,
                                        s.empty(), norm);
}
// fftn over two axes, by default the last two.
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
fft2(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& s = {},
     const std::vector<std::ptrdiff_t>& axes = {-2, -1}, std::string_view norm = "backward") {
    using C = typename clarray::detail::fft_traits<T>::complex;
    return clarray::detail::fft_call<C>(clarray::detail::fft_op::forward, "fft2", a, s, axes, false,
                                        norm);
}
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
// NumPy's ifft2: the inverse of fft2 over the last two axes.
ifft2(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& s = {},
      const std::vector<std::ptrdiff_t>& axes = {-2, -1}, std::string_view norm = "backward") {
    using C = typename clarray::detail::fft_traits<T>::complex;
    return clarray::detail::fft_call<C>(clarray::detail::fft_op::inverse, "ifft2", a, s, axes,
                                        false, norm);
}

// ---- expression inputs: evaluated first into a temporary from their pool (VkFFT reads
// arrays), e.g. rfft(x * window); the element type is the expression's value type. A complex
// transform of a complex expression whose result keeps its shape runs in place in that
// temporary, which becomes the result: ifft2(fft2(x) * H) makes no copy.
#define CLARRAY_FFT_EXPRESSION(NAME, SIZE, SIZE_DEFAULT, AXES, AXES_DEFAULT)                       \
    template <class E, class = clarray::detail::expression_argument_t<E>>                          \
    auto NAME(const E& a, SIZE n = SIZE_DEFAULT, AXES axis = AXES_DEFAULT,                         \
              std::string_view norm = "backward") {                                                \
        return NAME(clarray::detail::materialize(a), n, axis, norm);                               \
    }
// fft of an expression (evaluated first; in place when complex).
template <class E, class = clarray::detail::expression_argument_t<E>>
auto fft(const E& a, std::ptrdiff_t n = -1, std::ptrdiff_t axis = -1,
         std::string_view norm = "backward") {
    auto work = clarray::detail::materialize(a);
    using C = typename clarray::detail::fft_traits<typename decltype(work)::value_type>::complex;
    return clarray::detail::fft_call_owned<C>(clarray::detail::fft_op::forward, "fft",
                                              std::move(work), {n}, {axis}, false, norm);
}
// ifft of an expression (evaluated first; in place when complex).
template <class E, class = clarray::detail::expression_argument_t<E>>
auto ifft(const E& a, std::ptrdiff_t n = -1, std::ptrdiff_t axis = -1,
          std::string_view norm = "backward") {
    auto work = clarray::detail::materialize(a);
    using C = typename clarray::detail::fft_traits<typename decltype(work)::value_type>::complex;
    return clarray::detail::fft_call_owned<C>(clarray::detail::fft_op::inverse, "ifft",
                                              std::move(work), {n}, {axis}, false, norm);
}
// rfft of an expression (evaluated first): rfft(x * window).
CLARRAY_FFT_EXPRESSION(rfft, std::ptrdiff_t, -1, std::ptrdiff_t, -1)
// irfft of an expression (evaluated first).
CLARRAY_FFT_EXPRESSION(irfft, std::ptrdiff_t, -1, std::ptrdiff_t, -1)
// fftn of an expression (evaluated first; in place when complex).
template <class E, class = clarray::detail::expression_argument_t<E>>
auto fftn(const E& a, const std::vector<std::ptrdiff_t>& s = {},
          const std::vector<std::ptrdiff_t>& axes = {}, std::string_view norm = "backward") {
    auto work = clarray::detail::materialize(a);
    using C = typename clarray::detail::fft_traits<typename decltype(work)::value_type>::complex;
    return clarray::detail::fft_call_owned<C>(clarray::detail::fft_op::forward, "fftn",
                                              std::move(work), s, axes, s.empty(), norm);
}
// ifftn of an expression (evaluated first; in place when complex).
template <class E, class = clarray::detail::expression_argument_t<E>>
auto ifftn(const E& a, const std::vector<std::ptrdiff_t>& s = {},
           const std::vector<std::ptrdiff_t>& axes = {}, std::string_view norm = "backward") {
    auto work = clarray::detail::materialize(a);
    using C = typename clarray::detail::fft_traits<typename decltype(work)::value_type>::complex;
    return clarray::detail::fft_call_owned<C>(clarray::detail::fft_op::inverse, "ifftn",
                                              std::move(work), s, axes, s.empty(), norm);
}
// fft2 of an expression (evaluated first; in place when complex).
template <class E, class = clarray::detail::expression_argument_t<E>>
auto fft2(const E& a, const std::vector<std::ptrdiff_t>& s = {},
          const std::vector<std::ptrdiff_t>& axes = {-2, -1}, std::string_view norm = "backward") {
    auto work = clarray::detail::materialize(a);
    using C = typename clarray::detail::fft_traits<typename decltype(work)::value_type>::complex;
    return clarray::detail::fft_call_owned<C>(clarray::detail::fft_op::forward, "fft2",
                                              std::move(work), s, axes, false, norm);
}
// ifft2 of an expression (evaluated first; in place when complex): ifft2(fft2(x) * H).
template <class E, class = clarray::detail::expression_argument_t<E>>
auto ifft2(const E& a, const std::vector<std::ptrdiff_t>& s = {},
           const std::vector<std::ptrdiff_t>& axes = {-2, -1}, std::string_view norm = "backward") {
    auto work = clarray::detail::materialize(a);
    using C = typename clarray::detail::fft_traits<typename decltype(work)::value_type>::complex;
    return clarray::detail::fft_call_owned<C>(clarray::detail::fft_op::inverse, "ifft2",
                                              std::move(work), s, axes, false, norm);
}

// Plans the context keeps (one per shape and axis configuration, precision and kind), for
// tests and diagnostics.
std::size_t cached_plan_count(const context& ctx);

namespace detail {
// The axes an n-d transform runs over: `axes`, else every axis (s empty) or the last s.size().
inline std::vector<std::ptrdiff_t> transform_axes(const char* name, std::size_t rank,
                                                  const std::vector<std::ptrdiff_t>& s,
                                                  const std::vector<std::ptrdiff_t>& axes) {
    if (!s.empty() && !axes.empty() && s.size() != axes.size())
        throw usage_error(std::string(name) + ": s has " + std::to_string(s.size()) +
                          " lengths for " + std::to_string(axes.size()) + " axes");
    if (!axes.empty()) return axes;
    const std::size_t k = s.empty() ? rank : s.size();
    if (k > rank || k == 0)
        throw shape_error(std::string(name) + ": " + std::to_string(k) + " axes for an array of " +
                          std::to_string(rank) + " dimensions");
    std::vector<std::ptrdiff_t> out;
    for (std::size_t i = rank - k; i < rank; ++i)
        out.push_back(static_cast<std::ptrdiff_t>(i));
    return out;
}
// NumPy's swap of the normalisation direction (hfft and ihfft are irfft and rfft reversed).
inline std::string_view swapped_norm(std::string_view norm) {
    if (norm == "backward") return "forward";
    if (norm == "forward") return "backward";
    return norm;
}
template <class V> V all_but_last(const V& v) {
    return v.empty() ? v : V(v.begin(), v.end() - 1);
}
} // namespace detail

// NumPy's rfftn: rfft along the last of `axes`, then fft along the others (axes and s as fftn).
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
rfftn(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& s = {},
      const std::vector<std::ptrdiff_t>& axes = {}, std::string_view norm = "backward") {
    const auto ax = detail::transform_axes("rfftn", a.dimension(), s, axes);
    auto last = rfft(a, s.empty() ? -1 : s.back(), ax.back(), norm);
    if (ax.size() == 1) return last;
    return fftn(last, detail::all_but_last(s), detail::all_but_last(ax), norm);
}
// NumPy's irfftn: the inverse of rfftn (s: the real output's lengths; the last one defaults to
// 2 (m - 1) for m input values). Real input counts as complex with zero imaginary parts; float16
// input gives float32 (NumPy's result over several axes; a C++ result type cannot depend on the
// number of axes, so one axis gives float32 too, where NumPy's irfft gives float16).
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::real, S>
irfftn(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& s = {},
       const std::vector<std::ptrdiff_t>& axes = {}, std::string_view norm = "backward") {
    using C = typename clarray::detail::fft_traits<T>::complex;
    if constexpr (!std::is_same_v<T, C>) {
        return irfftn(cl_array<C, S>(astype<C>(a)), s, axes, norm);
    } else {
        const auto ax = detail::transform_axes("irfftn", a.dimension(), s, axes);
        if (ax.size() == 1) return irfft(a, s.empty() ? -1 : s.back(), ax.back(), norm);
        return irfft(ifftn(a, detail::all_but_last(s), detail::all_but_last(ax), norm),
                     s.empty() ? -1 : s.back(), ax.back(), norm);
    }
}
// rfftn over two axes, by default the last two.
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
rfft2(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& s = {},
      const std::vector<std::ptrdiff_t>& axes = {-2, -1}, std::string_view norm = "backward") {
    return rfftn(a, s, axes, norm);
}
// irfftn over two axes, by default the last two.
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::real, S>
irfft2(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& s = {},
       const std::vector<std::ptrdiff_t>& axes = {-2, -1}, std::string_view norm = "backward") {
    return irfftn(a, s, axes, norm);
}
// NumPy's hfft: the real spectrum of a signal with Hermitian symmetry, given its first half
// (irfft of the conjugate with the normalisation reversed); n real values (-1: 2 (m - 1)).
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::real_output, S>
hfft(const cl_array<T, S>& a, std::ptrdiff_t n = -1, std::ptrdiff_t axis = -1,
     std::string_view norm = "backward") {
    if constexpr (is_complex_v<T>)
        return irfft(cl_array<T, S>(conj(a)), n, axis, detail::swapped_norm(norm));
    else // real input is its own conjugate
        return irfft(a, n, axis, detail::swapped_norm(norm));
}
// NumPy's ihfft: the inverse of hfft (the conjugate of rfft with the normalisation reversed).
template <class T, class S>
cl_array<typename clarray::detail::fft_traits<T>::complex, S>
ihfft(const cl_array<T, S>& a, std::ptrdiff_t n = -1, std::ptrdiff_t axis = -1,
      std::string_view norm = "backward") {
    using C = typename clarray::detail::fft_traits<T>::complex;
    return cl_array<C, S>(conj(rfft(a, n, axis, detail::swapped_norm(norm))));
}

// ---- the helpers of expressions (evaluated first, as above)
// hfft of an expression.
CLARRAY_FFT_EXPRESSION(hfft, std::ptrdiff_t, -1, std::ptrdiff_t, -1)
// ihfft of an expression.
CLARRAY_FFT_EXPRESSION(ihfft, std::ptrdiff_t, -1, std::ptrdiff_t, -1)
// rfftn of an expression.
CLARRAY_FFT_EXPRESSION(rfftn, const std::vector<std::ptrdiff_t>&, {},
                       const std::vector<std::ptrdiff_t>&, {})
// irfftn of an expression.
CLARRAY_FFT_EXPRESSION(irfftn, const std::vector<std::ptrdiff_t>&, {},
                       const std::vector<std::ptrdiff_t>&, {})
#undef CLARRAY_FFT_EXPRESSION
// rfft2 of an expression.
template <class E, class = clarray::detail::expression_argument_t<E>>
auto rfft2(const E& a, const std::vector<std::ptrdiff_t>& s = {},
           const std::vector<std::ptrdiff_t>& axes = {-2, -1}, std::string_view norm = "backward") {
    return rfft2(clarray::detail::materialize(a), s, axes, norm);
}
// irfft2 of an expression.
template <class E, class = clarray::detail::expression_argument_t<E>>
auto irfft2(const E& a, const std::vector<std::ptrdiff_t>& s = {},
            const std::vector<std::ptrdiff_t>& axes = {-2, -1},
            std::string_view norm = "backward") {
    return irfft2(clarray::detail::materialize(a), s, axes, norm);
}

// The sample frequencies of an n-point transform with sample spacing d: [0, 1, ..., -1] / (d n)
// (NumPy's fftfreq), float64 by default.
template <class T = double, class S = svm_coarse>
cl_array<T, S> fftfreq(const queue& q, std::size_t n, double d = 1.0) {
    static_assert(std::is_floating_point_v<T>, "fftfreq: T must be float or double");
    const cl_array<T, S> k = arange<T, S>(q, T(0), T(n));
    return cl_array<T, S>(where(k < T((n + 1) / 2), k, k - T(n)) * T(1.0 / (d * double(n))));
}
// The n / 2 + 1 non-negative frequencies of rfft: [0, 1, ..., n / 2] / (d n).
template <class T = double, class S = svm_coarse>
cl_array<T, S> rfftfreq(const queue& q, std::size_t n, double d = 1.0) {
    static_assert(std::is_floating_point_v<T>, "rfftfreq: T must be float or double");
    const cl_array<T, S> k = arange<T, S>(q, T(0), T(n / 2 + 1));
    return cl_array<T, S>(k * T(1.0 / (d * double(n))));
}
namespace detail {
template <class T, class S>
cl_array<T, S> shifted(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& axes,
                       bool inverse) {
    std::vector<std::ptrdiff_t> ax = axes;
    if (ax.empty())
        for (std::size_t i = 0; i < a.dimension(); ++i)
            ax.push_back(static_cast<std::ptrdiff_t>(i));
    std::vector<std::ptrdiff_t> shifts;
    for (std::ptrdiff_t axis : ax) {
        const std::size_t k = clarray::detail::normalize_axis(axis, a.dimension(), "fftshift");
        const auto half = static_cast<std::ptrdiff_t>(a.shape()[k] / 2);
        shifts.push_back(inverse ? -half : half);
    }
    return roll(a, shifts, ax);
}
} // namespace detail
// The zero frequency moved to the centre along `axes` (all by default): NumPy's fftshift.
template <class T, class S>
cl_array<T, S> fftshift(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& axes = {}) {
    return detail::shifted(a, axes, false);
}
// The inverse of fftshift.
template <class T, class S>
cl_array<T, S> ifftshift(const cl_array<T, S>& a, const std::vector<std::ptrdiff_t>& axes = {}) {
    return detail::shifted(a, axes, true);
}

} // namespace fft
} // namespace clarray
