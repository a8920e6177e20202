#include "host_blas.hpp"

#include <complex>
#include <limits>
#include <string>

#include "clarray/error.hpp"
#include "clarray/runtime/cl.hpp"
#include "clarray/runtime/device.hpp"
#include "clarray/runtime/native_kernel.hpp"
#include "clarray/types/dtype.hpp"

#if CLARRAY_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace clarray::detail {

#if CLARRAY_HAVE_OPENBLAS

namespace {

CBLAS_TRANSPOSE op(bool transposed) {
    return transposed ? CblasTrans : CblasNoTrans;
}

template <class T> const T* at(const void* base, std::ptrdiff_t elements) {
    return static_cast<const T*>(base) + elements;
}
template <class T> T* at(void* base, std::ptrdiff_t elements) {
    return static_cast<T*>(base) + elements;
}

// The BLAS routines of one element type: real types take alpha and beta by value and return
// the dot product, complex ones take pointers and write it (?dotu_sub, ?dotc_sub).
template <class T> struct routines;
template <> struct routines<float> {
    static constexpr auto gemm = &cblas_sgemm;
    static constexpr auto dot = &cblas_sdot;
};
template <> struct routines<double> {
    static constexpr auto gemm = &cblas_dgemm;
    static constexpr auto dot = &cblas_ddot;
};
template <> struct routines<std::complex<float>> {
    static constexpr auto gemm = &cblas_cgemm;
    static constexpr auto dotu = &cblas_cdotu_sub;
    static constexpr auto dotc = &cblas_cdotc_sub;
};
template <> struct routines<std::complex<double>> {
    static constexpr auto gemm = &cblas_zgemm;
    static constexpr auto dotu = &cblas_zdotu_sub;
    static constexpr auto dotc = &cblas_zdotc_sub;
};
// The i-th GEMM of p: C_i = op(A_i) op(B_i).
template <class T> void gemm(const host_product& p, std::ptrdiff_t i) {
    const T one(1), zero(0);
    const auto scalar = [](const T& v) {
        if constexpr (is_complex_v<T>)
            return static_cast<const void*>(&v);
        else
            return v;
    };
    routines<T>::gemm(CblasRowMajor, op(p.trans_a), op(p.trans_b), blasint(p.m), blasint(p.n),
                      blasint(p.k), scalar(one), at<T>(p.a, i * p.stride_a), blasint(p.lda),
                      at<T>(p.b, i * p.stride_b), blasint(p.ldb), scalar(zero),
                      at<T>(p.c, i * p.stride_c), blasint(p.ldc));
}

// p's inner product into *p.c.
template <class T> void dot(const host_product& p) {
    if constexpr (is_complex_v<T>) {
        const auto f = p.what == host_product::kind::dotc ? routines<T>::dotc : routines<T>::dotu;
        f(blasint(p.k), p.a, blasint(p.inc_a), p.b, blasint(p.inc_b), p.c);
    } else {
        *static_cast<T*>(p.c) =
            routines<T>::dot(blasint(p.k), static_cast<const T*>(p.a), blasint(p.inc_a),
                             static_cast<const T*>(p.b), blasint(p.inc_b));
    }
}

// The native kernel: OpenCL hands it a copy of the host_product.
template <class T> void CL_CALLBACK run(void* args) {
    const host_product& p = *static_cast<const host_product*>(args);
    if (p.what != host_product::kind::gemm) return dot<T>(p);
    for (std::size_t i = 0; i < p.count; ++i)
        gemm<T>(p, static_cast<std::ptrdiff_t>(i));
}

bool fits_blasint(std::size_t v) {
    return v <= static_cast<std::size_t>(std::numeric_limits<blasint>::max());
}
bool fits_blasint(std::ptrdiff_t v) {
    return v >= -static_cast<std::ptrdiff_t>(std::numeric_limits<blasint>::max()) &&
           v <= static_cast<std::ptrdiff_t>(std::numeric_limits<blasint>::max());
}

} // namespace

bool host_blas_serves(const queue& q, std::initializer_list<storage_kind> kinds) {
    const device& dev = q.context().device();
    if (!dev.tuning().host_blas) return false;
    for (storage_kind k : kinds)
        if (k == storage_kind::buffer) return false;
    return dev.runs_native_kernels();
}

template <class T>
event enqueue_host_product(const queue& q, const host_product& p, const wait_list& deps) {
    if (!fits_blasint(p.m) || !fits_blasint(p.n) || !fits_blasint(p.k) || !fits_blasint(p.lda) ||
        !fits_blasint(p.ldb) || !fits_blasint(p.ldc) || !fits_blasint(p.inc_a) ||
        !fits_blasint(p.inc_b))
        throw unsupported("host BLAS product: a size or stride beyond the BLAS's integers (m " +
                          std::to_string(p.m) + ", n " + std::to_string(p.n) + ", k " +
                          std::to_string(p.k) + ")");
    return enqueue_native(q, run<T>, &p, sizeof p, deps, "host BLAS product");
}

#else // built without OpenBLAS: products always take CLBlast

bool host_blas_serves(const queue&, std::initializer_list<storage_kind>) {
    return false;
}

template <class T> event enqueue_host_product(const queue&, const host_product&, const wait_list&) {
    throw unsupported("host BLAS product: clarray was built without OpenBLAS");
}

#endif

template event enqueue_host_product<float>(const queue&, const host_product&, const wait_list&);
template event enqueue_host_product<double>(const queue&, const host_product&, const wait_list&);
template event enqueue_host_product<std::complex<float>>(const queue&, const host_product&,
                                                         const wait_list&);
template event enqueue_host_product<std::complex<double>>(const queue&, const host_product&,
                                                          const wait_list&);

} // namespace clarray::detail
