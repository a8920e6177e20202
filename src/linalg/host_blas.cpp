#include "host_blas.hpp"

#include <complex>
#include <limits>
#include <string>

#include "clarray/error.hpp"
#include "clarray/runtime/cl.hpp"
#include "clarray/runtime/device.hpp"

#if CLARRAY_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace clarray::detail {

#if CLARRAY_HAVE_OPENBLAS

namespace {

// The device's CL_DEVICE_EXECUTION_CAPABILITIES include native kernels (pocl's do).
bool runs_native_kernels(const device& dev) {
    cl_device_exec_capabilities caps = 0;
    if (clGetDeviceInfo(dev.id(), CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, nullptr) !=
        CL_SUCCESS)
        return false;
    return (caps & CL_EXEC_NATIVE_KERNEL) != 0;
}

CBLAS_TRANSPOSE op(bool transposed) {
    return transposed ? CblasTrans : CblasNoTrans;
}

template <class T> const T* at(const void* base, std::ptrdiff_t elements) {
    return static_cast<const T*>(base) + elements;
}
template <class T> T* at(void* base, std::ptrdiff_t elements) {
    return static_cast<T*>(base) + elements;
}

// The BLAS calls of one element type.
template <class T> struct blas;
template <> struct blas<float> {
    static void gemm(const host_product& p, std::ptrdiff_t i) {
        cblas_sgemm(CblasRowMajor, op(p.trans_a), op(p.trans_b), blasint(p.m), blasint(p.n),
                    blasint(p.k), 1.0f, at<float>(p.a, i * p.stride_a), blasint(p.lda),
                    at<float>(p.b, i * p.stride_b), blasint(p.ldb), 0.0f,
                    at<float>(p.c, i * p.stride_c), blasint(p.ldc));
    }
    static void dot(const host_product& p) {
        *static_cast<float*>(p.c) =
            cblas_sdot(blasint(p.k), static_cast<const float*>(p.a), blasint(p.inc_a),
                       static_cast<const float*>(p.b), blasint(p.inc_b));
    }
};
template <> struct blas<double> {
    static void gemm(const host_product& p, std::ptrdiff_t i) {
        cblas_dgemm(CblasRowMajor, op(p.trans_a), op(p.trans_b), blasint(p.m), blasint(p.n),
                    blasint(p.k), 1.0, at<double>(p.a, i * p.stride_a), blasint(p.lda),
                    at<double>(p.b, i * p.stride_b), blasint(p.ldb), 0.0,
                    at<double>(p.c, i * p.stride_c), blasint(p.ldc));
    }
    static void dot(const host_product& p) {
        *static_cast<double*>(p.c) =
            cblas_ddot(blasint(p.k), static_cast<const double*>(p.a), blasint(p.inc_a),
                       static_cast<const double*>(p.b), blasint(p.inc_b));
    }
};
template <class R, class Gemm, class Dotu, class Dotc> struct complex_blas {
    using C = std::complex<R>;
    static void gemm(const host_product& p, std::ptrdiff_t i, Gemm g) {
        const C one(1), zero(0);
        g(CblasRowMajor, op(p.trans_a), op(p.trans_b), blasint(p.m), blasint(p.n), blasint(p.k),
          &one, at<C>(p.a, i * p.stride_a), blasint(p.lda), at<C>(p.b, i * p.stride_b),
          blasint(p.ldb), &zero, at<C>(p.c, i * p.stride_c), blasint(p.ldc));
    }
    static void dot(const host_product& p, Dotu u, Dotc c) {
        (p.what == host_product::kind::dotc ? c : u)(blasint(p.k), p.a, blasint(p.inc_a), p.b,
                                                     blasint(p.inc_b), p.c);
    }
};
template <> struct blas<std::complex<float>> {
    using impl = complex_blas<float, decltype(&cblas_cgemm), decltype(&cblas_cdotu_sub),
                              decltype(&cblas_cdotc_sub)>;
    static void gemm(const host_product& p, std::ptrdiff_t i) { impl::gemm(p, i, cblas_cgemm); }
    static void dot(const host_product& p) { impl::dot(p, cblas_cdotu_sub, cblas_cdotc_sub); }
};
template <> struct blas<std::complex<double>> {
    using impl = complex_blas<double, decltype(&cblas_zgemm), decltype(&cblas_zdotu_sub),
                              decltype(&cblas_zdotc_sub)>;
    static void gemm(const host_product& p, std::ptrdiff_t i) { impl::gemm(p, i, cblas_zgemm); }
    static void dot(const host_product& p) { impl::dot(p, cblas_zdotu_sub, cblas_zdotc_sub); }
};

// The native kernel: OpenCL hands it a copy of the host_product.
template <class T> void CL_CALLBACK run(void* args) {
    const host_product& p = *static_cast<const host_product*>(args);
    if (p.what != host_product::kind::gemm) return blas<T>::dot(p);
    for (std::size_t i = 0; i < p.count; ++i)
        blas<T>::gemm(p, static_cast<std::ptrdiff_t>(i));
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
    return runs_native_kernels(dev);
}

template <class T>
event enqueue_host_product(const queue& q, const host_product& p, const wait_list& deps) {
    if (!fits_blasint(p.m) || !fits_blasint(p.n) || !fits_blasint(p.k) || !fits_blasint(p.lda) ||
        !fits_blasint(p.ldb) || !fits_blasint(p.ldc) || !fits_blasint(p.inc_a) ||
        !fits_blasint(p.inc_b))
        throw unsupported("host BLAS product: a size or stride beyond the BLAS's integers (m " +
                          std::to_string(p.m) + ", n " + std::to_string(p.n) + ", k " +
                          std::to_string(p.k) + ")");
    host_product copy = p; // clEnqueueNativeKernel copies it again; the pointer must be writable
    cl_event ev = nullptr;
    check_cl(clEnqueueNativeKernel(q.get(), run<T>, &copy, sizeof copy, 0, nullptr, nullptr,
                                   deps.size(), deps.data(), &ev),
             "clEnqueueNativeKernel(host BLAS product)");
    return event(ev);
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
