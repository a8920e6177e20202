#pragma once
// Products of arrays on CLBlast: matmul, dot, vdot, inner, outer (NumPy's semantics).
//
//   auto c = clarray::matmul(a, b);       // (..., m, k) @ (..., k, n), batch axes broadcast
//   auto y = clarray::matmul(A, x);       // matrix-vector (GEMV)
//   auto s = clarray::linalg::dot(x, y);  // 1-d . 1-d: a 0-d array (s.item() reads it)
//   auto o = clarray::outer(x, y);
//   auto t = clarray::tensordot(a, b, {1, 2}, {0, 1});  // sum over a's axes 1, 2 and b's 0, 1
//
// All six are in clarray::linalg; matmul, inner, outer and tensordot are in clarray as well. dot
// and vdot stay linalg:: only: clarray::dot and clarray::vdot are the reductions of reduce/ (any
// dtype, compensated sums, fused expressions), which these do not replace.
//
// Operands have one element type (float, double or their std::complex; clarray::half computes in
// float32 and rounds once on store, as everywhere in clarray) and one storage policy; the
// result is a new C-contiguous array on the first operand's queue, from the first operand's pool.
// Everything is enqueued, nothing blocks. Strided and transposed views reach CLBlast without copies
// when each matrix has one unit-stride axis (docs/linalg.md); other views are copied once into a
// contiguous temporary.
#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/copy.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/expr/assign.hpp" // astype: float16 products run in float32
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/reduce/reduce.hpp"
#include "clarray/types/half.hpp"

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

// matmul of integer or bool stacks, which CLBlast lacks: one fused multiply-and-sum reduction
// over the broadcast product a[..., m, n, 1] * b[..., 1, n, p] (the values wrap in T as
// NumPy's: sums of products modulo 2^bits do not depend on the accumulator's width; bool gives
// whether any product is true).
template <class T, class S>
cl_array<T, S> integer_matmul(const char* what, const cl_array<T, S>& a, const cl_array<T, S>& b) {
    if (a.dimension() == 0 || b.dimension() == 0)
        throw shape_error(std::string(what) + ": 0-d operands are not matrices");
    const cl_array<T, S> ma = a.dimension() == 1 ? expand_dims(a, 0) : a;
    const cl_array<T, S> mb = b.dimension() == 1 ? expand_dims(b, 1) : b;
    const std::size_t n = ma.shape()[ma.dimension() - 1], n2 = mb.shape()[mb.dimension() - 2];
    if (n != n2)
        throw shape_error(std::string(what) + ": shapes " + shape_to_string(a.shape()) + " and " +
                          shape_to_string(b.shape()) + " do not match in the summed axis (" +
                          std::to_string(n) + " vs " + std::to_string(n2) + ")");
    auto sums = sum(expand_dims(ma, -1) * expand_dims(mb, -3), -2);
    cl_array<T, S> out(sums.get_queue(), sums.shape(), layout::c, a.data().get());
    if constexpr (is_boolean_v<T>)
        out = sums != 0;
    else
        out = astype<T>(sums);
    // The axes the 1-d operands gained go again.
    if (a.dimension() == 1 && b.dimension() == 1) return out.reshape(shape_type{});
    if (b.dimension() == 1) return out.squeeze(out.dimension() - 1);
    if (a.dimension() == 1) return out.squeeze(out.dimension() - 2);
    return out;
}

template <class T, class S>
cl_array<T, S> product_of(product_kind kind, const cl_array<T, S>& a, const cl_array<T, S>& b) {
    if constexpr (is_integer_v<T> || is_boolean_v<T>) {
        if (kind == product_kind::matmul) return integer_matmul("matmul", a, b);
        if (kind == product_kind::dot && a.dimension() <= 2 && b.dimension() <= 2 &&
            !(a.dimension() == 1 && b.dimension() == 1))
            return integer_matmul("dot", a, b);
        throw dtype_error("linalg: this product of integer or bool operands runs on CLBlast, "
                          "which has no integer routines: use matmul, tensordot or einsum");
    } else if constexpr (std::is_same_v<T, half>) {
        // CLBlast's half routines need cl_khr_fp16, which most devices lack: float16 products
        // run in float32 (sums of products in float, one rounding to half per result element).
        return product_of(kind, a.template astype<float>(), b.template astype<float>())
            .template astype<half>();
    } else {
        static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                          std::is_same_v<T, std::complex<float>> ||
                          std::is_same_v<T, std::complex<double>>,
                      "clarray linalg: operands must be float, double, std::complex<float>, "
                      "std::complex<double> (CLBlast's routines) or clarray::half");
        const array_ref ra = array_ref_of(a), rb = array_ref_of(b);
        const shape_type shape = product_shape(kind, ra, rb);
        cl_array<T, S> out(a.get_queue(), shape, layout::c, a.data().get());
        product(kind, array_ref_of(out), ra, rb);
        return out;
    }
}

// tensordot as one matrix product: a's free axes then its summed axes, b's summed axes then its
// free axes, each group flattened.
struct tensordot_plan {
    std::vector<std::size_t> order_a, order_b; // transposes bringing the groups together
    shape_type matrix_a, matrix_b;             // (free size of a, summed size), (summed, free of b)
    shape_type result;                         // a's free extents then b's
};
// Throws index_error for an axis out of range, usage_error for a repeated axis or lists of two
// lengths, shape_error (naming both shapes and the axes) for summed extents that differ.
tensordot_plan plan_tensordot(const shape_type& a, const shape_type& b,
                              const std::vector<std::ptrdiff_t>& axes_a,
                              const std::vector<std::ptrdiff_t>& axes_b);
// NumPy's integer `axes`: the last n axes of a with the first n of b (shape_error if n exceeds a
// rank).
tensordot_plan plan_tensordot(const shape_type& a, const shape_type& b, std::size_t n);

// x with its axes in `order`, as a matrix of `shape`: a view when the strides allow (a transposed
// matrix stays a view: CLBlast takes it with a transpose flag), else a C-order copy.
template <class T, class S>
cl_array<T, S> as_matrix(const cl_array<T, S>& x, const std::vector<std::size_t>& order,
                         const shape_type& shape) {
    const cl_array<T, S> moved = x.transpose(order);
    strides_type unused;
    if (reshape_strides(moved.shape(), moved.strides(), shape, unused)) return moved.reshape(shape);
    return moved.copy(layout::c).reshape(shape);
}

template <class T, class S>
cl_array<T, S> tensordot_of(const cl_array<T, S>& a, const cl_array<T, S>& b,
                            const tensordot_plan& plan) {
    return product_of(product_kind::matmul, as_matrix(a, plan.order_a, plan.matrix_a),
                      as_matrix(b, plan.order_b, plan.matrix_b))
        .reshape(plan.result);
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
// matmul of two element types: both promoted first (NumPy's result type).
template <class T1, class T2, class S, class = std::enable_if_t<!std::is_same_v<T1, T2>>>
auto matmul(const cl_array<T1, S>& a, const cl_array<T2, S>& b) {
    using R = promote_t<T1, T2>;
    return matmul(cl_array<R, S>(astype<R>(a)), cl_array<R, S>(astype<R>(b)));
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

// NumPy's tensordot: the sum of products over a's axes `axes_a` and b's axes `axes_b` (paired in
// order); the result has a's other axes, then b's. One GEMM: the operands are viewed (or, when
// their strides do not allow, copied once) as matrices.
template <class T, class S>
cl_array<T, S> tensordot(const cl_array<T, S>& a, const cl_array<T, S>& b,
                         const std::vector<std::ptrdiff_t>& axes_a,
                         const std::vector<std::ptrdiff_t>& axes_b) {
    return clarray::detail::tensordot_of(
        a, b, clarray::detail::plan_tensordot(a.shape(), b.shape(), axes_a, axes_b));
}
// NumPy's tensordot(a, b, axes=n): over the last n axes of a and the first n of b (n = 0: the
// outer product; n = 1 on matrices: matmul).
template <class T, class S>
cl_array<T, S> tensordot(const cl_array<T, S>& a, const cl_array<T, S>& b, std::size_t n = 2) {
    return clarray::detail::tensordot_of(a, b,
                                         clarray::detail::plan_tensordot(a.shape(), b.shape(), n));
}

// ---- expression operands: each evaluated first into a temporary from its pool (CLBlast reads
// arrays); after evaluation the operands need one element type and storage policy, as arrays.
#define CLARRAY_LINALG_EXPRESSION(NAME)                                                            \
    template <class A, class B, class = clarray::detail::expression_arguments_t<A, B>>             \
    auto NAME(const A& a, const B& b) {                                                            \
        return NAME(clarray::detail::materialize(a), clarray::detail::materialize(b));             \
    }
// matmul of arrays or expressions (an expression is evaluated first).
CLARRAY_LINALG_EXPRESSION(matmul)
// dot of arrays or expressions (an expression is evaluated first).
CLARRAY_LINALG_EXPRESSION(dot)
// vdot of arrays or expressions (an expression is evaluated first).
CLARRAY_LINALG_EXPRESSION(vdot)
// inner of arrays or expressions (an expression is evaluated first).
CLARRAY_LINALG_EXPRESSION(inner)
// outer of arrays or expressions (an expression is evaluated first).
CLARRAY_LINALG_EXPRESSION(outer)
#undef CLARRAY_LINALG_EXPRESSION
// tensordot over axis lists of arrays or expressions (an expression is evaluated first).
template <class A, class B, class = clarray::detail::expression_arguments_t<A, B>>
auto tensordot(const A& a, const B& b, const std::vector<std::ptrdiff_t>& axes_a,
               const std::vector<std::ptrdiff_t>& axes_b) {
    return tensordot(clarray::detail::materialize(a), clarray::detail::materialize(b), axes_a,
                     axes_b);
}
// tensordot over n axes of arrays or expressions (an expression is evaluated first).
template <class A, class B, class = clarray::detail::expression_arguments_t<A, B>>
auto tensordot(const A& a, const B& b, std::size_t n = 2) {
    return tensordot(clarray::detail::materialize(a), clarray::detail::materialize(b), n);
}

// The standard's vecdot: the sum over `axis` of conj(x1) * x2 (the operands broadcast; a
// lazy product reduced in one kernel). Integer operands accumulate as sum's (int64).
template <class A, class B, class = std::enable_if_t<is_expression_v<A> && is_expression_v<B>>>
auto vecdot(const A& x1, const B& x2, std::ptrdiff_t axis = -1) {
    using T = promote_t<clarray::detail::value_type_of<const A&>,
                        clarray::detail::value_type_of<const B&>>;
    // (in the operands' promoted type, as NumPy's: integer sums wrap, bool is "any")
    if constexpr (is_complex_v<T>)
        return sum<T>(conj(x1) * x2, axis);
    else if constexpr (is_boolean_v<T>)
        return any(logical_and(x1, x2), axis);
    else
        return sum<T>(x1 * x2, axis);
}

// The standard's vector_norm: ord 2 (default), 1, inf, -inf, 0 (the count of non-zeros) or any
// other p ((sum |x|^p)^(1/p)), over `axes` (all: the flattened array), in norm's result type.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto vector_norm(const E& x, double ord = 2, const reduce_axes& axes = {}, bool keep_dims = false) {
    using result = decltype(norm(x, 2.0, axes, keep_dims));
    using R = typename result::value_type;
    const double infinity = std::numeric_limits<double>::infinity();
    if (ord == 2 || ord == 1 || ord == infinity) return norm(x, ord, axes, keep_dims);
    if (ord == -infinity) return result(min(astype<R>(abs(x)), axes, keep_dims));
    if (ord == 0) return result(sum(astype<R>(x != 0), axes, keep_dims));
    // (the exponents are Python-style scalars: the result keeps R, float16 included)
    return result(pow(sum(pow(astype<R>(abs(x)), ord), axes, keep_dims), 1 / ord));
}

// The standard's linalg.diagonal: the diagonal `offset` of each matrix of a stack (the last two
// axes), a view.
template <class T, class S>
cl_array<T, S> diagonal(const cl_array<T, S>& a, std::ptrdiff_t offset = 0) {
    return clarray::diagonal(a, offset, -2, -1);
}

using clarray::matrix_transpose;

} // namespace linalg

using linalg::vecdot;

// matmul, inner and outer are also clarray's; clarray::dot and clarray::vdot are the reductions of
// reduce/reduce.hpp (any dtype, compensated sums, fused expressions), not these.
using linalg::inner;
using linalg::matmul;
using linalg::outer;
using linalg::tensordot;

} // namespace clarray
