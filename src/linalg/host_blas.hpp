#pragma once
// Products on CPU devices through the host's BLAS (OpenBLAS). A CPU device's SVM is host memory,
// so the BLAS can work on the arrays themselves: the call runs as a native kernel of the queue
// (clEnqueueNativeKernel), after the same wait list and with an event like any kernel, so it is
// ordered by the arrays' use records and never blocks the host. CLBlast's kernels on a CPU reach
// a fraction of OpenBLAS's speed (docs/linalg.md).
#include <cstddef>
#include <initializer_list>

#include "clarray/runtime/device_memory.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/queue.hpp"

namespace clarray::detail {

// One product for the host BLAS, on host pointers (element strides and counts).
struct host_product {
    // gemm: C = op(A) op(B) for `count` matrices (row-major, leading dimensions lda, ldb, ldc;
    // the i-th of each `stride_*` elements after the first). dot: *C = sum a[i * inc_a] *
    // b[i * inc_b] over k elements, dotc with a conjugated.
    enum class kind : unsigned char { gemm, dot, dotc };
    kind what = kind::gemm;
    bool trans_a = false, trans_b = false;
    std::size_t m = 0, n = 0, k = 0;
    const void* a = nullptr;
    const void* b = nullptr;
    void* c = nullptr;
    std::size_t lda = 1, ldb = 1, ldc = 1;
    std::ptrdiff_t stride_a = 0, stride_b = 0, stride_c = 0;
    std::size_t count = 1;
    std::ptrdiff_t inc_a = 1, inc_b = 1;
};

// Whether products on q over memory of these storage kinds run through the host BLAS: the
// library was built with OpenBLAS, q's device runs native kernels, its tuning says so
// (device::tuning_t::host_blas: CPU devices), and every operand is SVM.
bool host_blas_serves(const queue& q, std::initializer_list<storage_kind> kinds);

// Enqueues p on q after deps, as a native kernel; its event. T: float, double,
// std::complex<float>, std::complex<double>. Sizes beyond the BLAS's integers throw unsupported.
template <class T>
event enqueue_host_product(const queue& q, const host_product& p, const wait_list& deps);

} // namespace clarray::detail
