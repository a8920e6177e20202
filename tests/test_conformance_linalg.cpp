// Conformance matrix (test_conformance.cpp): linear algebra products (CLBlast) and FFT (VkFFT).
#include "conformance/conformance.hpp"

using namespace conf;

// CLBlast's types; float16 computes in float32.
template <class T> inline constexpr bool blas_v = ca::is_inexact_v<T>;
// VkFFT takes every dtype: bool and integers compute in float64, float16 in float32 (as NumPy).

#define CONF_PRODUCT(NAME, ACCEPTS, EXPR)                                                          \
    CONF_FUNCTION(NAME, ACCEPTS, transform_tol) {                                                  \
        const auto a = c.in<T, S>(0), b = c.in<T, S>(1);                                           \
        c.check(0, EXPR);                                                                          \
    }
// matmul and tensordot (and dot of matrices) of integers and bool: a fused reduction of clarray's.
CONF_PRODUCT(matmul, true, ca::matmul(a, b.transpose()))
CONF_PRODUCT(linalg_dot, true, ca::linalg::dot(a, b.transpose()))
CONF_PRODUCT(linalg_vdot, blas_v<T>, ca::linalg::vdot(a, b))
CONF_PRODUCT(inner, blas_v<T>, ca::inner(a, b))
CONF_PRODUCT(outer, blas_v<T>, ca::outer(a, b))
CONF_PRODUCT(tensordot, true,
             ca::tensordot(a, b, std::vector<std::ptrdiff_t>{0}, std::vector<std::ptrdiff_t>{0}))

#define CONF_FFT(NAME, ACCEPTS)                                                                    \
    CONF_FUNCTION(NAME, ACCEPTS, transform_tol) {                                                  \
        c.check(0, ca::fft::NAME(c.in<T, S>(0)));                                                  \
    }
CONF_FFT(fft, true)
CONF_FFT(ifft, true)
CONF_FFT(rfft, !is_cplx<T>)
CONF_FFT(irfft, true)
CONF_FFT(fft2, true)
CONF_FFT(ifft2, true)
CONF_FFT(fftn, true)
CONF_FFT(ifftn, true)
