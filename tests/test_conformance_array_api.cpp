// Conformance matrix (test_conformance.cpp): the NumPy 2 and array API additions: sign and
// friends, logaddexp, divmod, round with decimals, along-axis indexing, pad's modes, the set
// routines, the signal layer, vecdot/vector_norm and the FFT helpers.
#include "conformance/conformance.hpp"

using namespace conf;

namespace {
template <class T> inline constexpr bool real_v = !is_cplx<T>;
} // namespace

#define CONF_ELEMENTWISE(NAME, EXPR, ACCEPTS, TOL)                                                 \
    CONF_FUNCTION(NAME, ACCEPTS, TOL) {                                                            \
        const auto a = c.in<T, S>(0);                                                              \
        c.check(0, EXPR);                                                                          \
    }

CONF_ELEMENTWISE(sign, ca::sign(a), !is_bool<T>, math_tol)
CONF_ELEMENTWISE(signbit, ca::signbit(a), real_v<T>, exact)
CONF_ELEMENTWISE(square, ca::square(a), true, math_tol)
CONF_ELEMENTWISE(reciprocal, ca::reciprocal(a), !is_bool<T>, math_tol)
CONF_ELEMENTWISE(round_decimals, ca::round(a, 2), real_v<T> && !is_bool<T>, math_tol)
CONF_ELEMENTWISE(matrix_transpose, ca::matrix_transpose(a), true, exact)
CONF_ELEMENTWISE(flatnonzero, ca::flatnonzero(a), true, exact)
CONF_ELEMENTWISE(argwhere, ca::argwhere(a), true, exact)
CONF_ELEMENTWISE(gradient, ca::gradient(a, 1), !is_bool<T>, reduce_tol)
CONF_ELEMENTWISE(trapezoid, ca::trapezoid(a), !is_bool<T>, reduce_tol)
CONF_ELEMENTWISE(cumulative_sum, ca::cumulative_sum(a, 1, true), true, reduce_tol)
CONF_ELEMENTWISE(vector_norm, ca::linalg::vector_norm(a), true, reduce_tol)
CONF_ELEMENTWISE(fftshift, ca::fft::fftshift(a), true, exact)
CONF_ELEMENTWISE(ifftshift, ca::fft::ifftshift(a), true, exact)
CONF_ELEMENTWISE(rfftn, ca::fft::rfftn(a), real_v<T>, transform_tol)
CONF_ELEMENTWISE(irfftn, ca::fft::irfftn(a), true, transform_tol)
CONF_ELEMENTWISE(hfft, ca::fft::hfft(a), true, transform_tol)
CONF_ELEMENTWISE(ihfft, ca::fft::ihfft(a), real_v<T>, transform_tol)

#define CONF_PAIR(NAME, EXPR, ACCEPTS, TOL)                                                        \
    CONF_FUNCTION(NAME, ACCEPTS, TOL) {                                                            \
        const auto a = c.in<T, S>(0);                                                              \
        const auto b = c.in<T, S>(1);                                                              \
        c.check(0, EXPR);                                                                          \
    }

CONF_PAIR(logaddexp, ca::logaddexp(a, b), real_v<T>, math_tol)
CONF_PAIR(logaddexp2, ca::logaddexp2(a, b), real_v<T>, math_tol)
CONF_PAIR(isin, ca::isin(a, b), true, exact)
CONF_PAIR(intersect1d, ca::intersect1d(a, b), true, exact)
CONF_PAIR(union1d, ca::union1d(a, b), true, exact)
CONF_PAIR(setdiff1d, ca::setdiff1d(a, b), true, exact)
CONF_PAIR(setxor1d, ca::setxor1d(a, b), true, exact)
CONF_PAIR(convolve, ca::convolve(a, b), true, reduce_tol)
CONF_PAIR(correlate, ca::correlate(a, b, "full"), true, reduce_tol)
CONF_PAIR(polyval, ca::polyval(a, b), !is_bool<T>, reduce_tol)
CONF_PAIR(vecdot, ca::linalg::vecdot(a, b), true, reduce_tol)

CONF_FUNCTION(divmod, real_v<T> && !is_bool<T>, exact) {
    const auto a = c.in<T, S>(0);
    const auto b = c.in<T, S>(1);
    const auto [quotient, remainder] = ca::divmod(a, b);
    c.check(0, quotient);
    c.check(1, remainder);
}

CONF_FUNCTION(take_along_axis, true, exact) {
    c.check(0, ca::take_along_axis(c.in<T, S>(0), c.in<std::int64_t, S>(1), 1));
}

CONF_FUNCTION(put_along_axis, true, exact) {
    const auto a = c.in<T, S>(0);
    ca::put_along_axis(a, c.in<std::int64_t, S>(1), c.in<std::int64_t, S>(2), 1);
    c.check(0, a);
}

#define CONF_PAD(MODE, ACCEPTS, TOL)                                                               \
    CONF_FUNCTION(pad_##MODE, ACCEPTS, TOL) {                                                      \
        c.check(0, ca::pad(c.in<T, S>(0), {{1, 2}, {2, 1}}, ca::pad_mode::MODE));                  \
    }

CONF_PAD(edge, true, exact)
CONF_PAD(wrap, true, exact)
CONF_PAD(reflect, true, exact)
CONF_PAD(symmetric, true, exact)
CONF_PAD(linear_ramp, !is_bool<T>, exact)
CONF_PAD(maximum, true, exact)
CONF_PAD(minimum, true, exact)
CONF_PAD(mean, !is_bool<T>, reduce_tol)
CONF_PAD(median, !is_bool<T>, reduce_tol)

CONF_FUNCTION(unique_inverse, true, exact) {
    const auto u = ca::unique_inverse(c.in<T, S>(0));
    c.check(0, u.values);
    c.check(1, u.inverse_indices);
}

CONF_FUNCTION(interp, real_v<T>, math_tol) {
    c.check(0, ca::interp(c.in<T, S>(0), c.in<double, S>(1), c.in<double, S>(2)));
}

CONF_FUNCTION(digitize, real_v<T> && !is_bool<T>, exact) {
    c.check(0, ca::digitize(c.in<T, S>(0), c.in<double, S>(1)));
}
CONF_FUNCTION(digitize_right, real_v<T> && !is_bool<T>, exact) {
    c.check(0, ca::digitize(c.in<T, S>(0), c.in<double, S>(1), true));
}
CONF_FUNCTION(histogram_edges, real_v<T> && !is_bool<T>, exact) {
    c.check(0, ca::histogram(c.in<T, S>(0), c.in<double, S>(1)).counts);
}
