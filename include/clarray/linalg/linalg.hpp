#pragma once
// Products of arrays on CLBlast: matmul, dot, vdot, inner, outer (NumPy's semantics).
//
//   auto c = clarray::matmul(a, b);       // (..., m, k) @ (..., k, n), batch axes broadcast
//   auto y = clarray::matmul(A, x);       // matrix-vector (GEMV)
//   auto s = clarray::linalg::dot(x, y);  // 1-d . 1-d: a 0-d array (s.item() reads it)
//   auto o = clarray::outer(x, y);
//
// All five are in clarray::linalg; matmul, inner and outer are in clarray as well. dot and vdot
// stay linalg:: only: clarray::dot and clarray::vdot are the reductions of reduce/ (any dtype,
// compensated sums, fused expressions), which these do not replace.
//
// Operands have one element type (float, double or their std::complex) and one storage policy; the
// result is a new C-contiguous array on the first operand's queue, from the first operand's pool.
// Everything is enqueued, nothing blocks. Strided and transposed views reach CLBlast without copies
// when each matrix has one unit-stride axis (docs/linalg.md); other views are copied once into a
// contiguous temporary.
#include <complex>
#include <type_traits>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/copy.hpp"

namespace clarray {

namespace detail {
enum class product_kind : unsigned char { matmul, dot, vdot, inner, outer };

// The result shape of `kind` over a and b. Throws shape_error naming both shapes when they do
// not fit, usage_error for unbound operands or operands of two contexts, unsupported for
// float64 on a device without fp64 or for an out-of-order queue.
shape_type product_shape(product_kind kind, const array_ref& a, const array_ref& b);
// out (bound unless empty, C-contiguous, of product_shape's shape, on a's queue) = kind(a, b).
// Enqueues the CLBlast routine after the operands' recorded uses and records its event on them.
void product(product_kind kind, const array_ref& out, const array_ref& a, const array_ref& b);
// Throws the clarray::error for a CLBlast status code (nothing for success): "clblast::Gemm:
// kInvalidLeadDimA". OpenCL codes become cl_error, missing precision unsupported, failed
// allocations out_of_memory, rejected arguments usage_error.
void check_blas(int status, const char* routine);

template <class T, class S>
cl_array<T, S> product_of(product_kind kind, const cl_array<T, S>& a, const cl_array<T, S>& b) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                      std::is_same_v<T, std::complex<float>> ||
                      std::is_same_v<T, std::complex<double>>,
                  "clarray linalg: operands must be float, double, std::complex<float> or "
                  "std::complex<double> (CLBlast's routines)");
    const array_ref ra = array_ref_of(a), rb = array_ref_of(b);
    const shape_type shape = product_shape(kind, ra, rb);
    cl_array<T, S> out(a.get_queue(), shape, layout::c, a.data().get());
    product(kind, array_ref_of(out), ra, rb);
    return out;
}
} // namespace detail

namespace linalg {

// NumPy's matmul: 2-d operands are matrices; n-d operands are stacks of matrices in the last two
// axes, whose leading (batch) axes broadcast; a 1-d first operand is a row vector and a 1-d
// second operand a column vector, whose axis the result drops. 0-d operands are refused.
template <class T, class S>
cl_array<T, S> matmul(const cl_array<T, S>& a, const cl_array<T, S>& b) {
    return clarray::detail::product_of(clarray::detail::product_kind::matmul, a, b);
}
// NumPy's dot for operands of rank 1 or 2: 1-d . 1-d is the inner product (a 0-d array), else
// as matmul. Higher ranks throw shape_error (use matmul or inner).
template <class T, class S> cl_array<T, S> dot(const cl_array<T, S>& a, const cl_array<T, S>& b) {
    return clarray::detail::product_of(clarray::detail::product_kind::dot, a, b);
}
// Sum of a * b over both arrays flattened in C order (same element count): a 0-d array.
template <class T, class S> cl_array<T, S> vdot(const cl_array<T, S>& a, const cl_array<T, S>& b) {
    return clarray::detail::product_of(clarray::detail::product_kind::vdot, a, b);
}
// Sum over the last axes: result shape a.shape[:-1] + b.shape[:-1] (1-d . 1-d: a 0-d array).
template <class T, class S> cl_array<T, S> inner(const cl_array<T, S>& a, const cl_array<T, S>& b) {
    return clarray::detail::product_of(clarray::detail::product_kind::inner, a, b);
}
// result(i, j) = a.flat[i] * b.flat[j]: shape (a.size(), b.size()).
template <class T, class S> cl_array<T, S> outer(const cl_array<T, S>& a, const cl_array<T, S>& b) {
    return clarray::detail::product_of(clarray::detail::product_kind::outer, a, b);
}

} // namespace linalg

// matmul, inner and outer are also clarray's; clarray::dot and clarray::vdot are the reductions of
// reduce/reduce.hpp (any dtype, compensated sums, fused expressions), not these.
using linalg::inner;
using linalg::matmul;
using linalg::outer;

} // namespace clarray
