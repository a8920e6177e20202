#pragma once
// Decompositions and solvers (NumPy's np.linalg): solve, inv, det, slogdet, cholesky, qr, svd,
// svdvals, eigh, eigvalsh, lstsq, pinv, matrix_rank, cond, matrix_norm, plus matrix_power,
// multi_dot and trace on the products of linalg.hpp, and cross as array expressions.
//
//   auto x = clarray::linalg::solve(A, b);          // A (..., n, n), b (..., n, k) or (n,)
//   auto [Q, R] = clarray::linalg::qr(A);           // reduced QR
//   auto [U, S, Vh] = clarray::linalg::svd(A, false);
//   auto [w, V] = clarray::linalg::eigh(H);         // ascending eigenvalues, eigenvector columns
//
// Every function takes stacks (..., m, n) and any view, on any storage policy; results are new
// C-contiguous arrays on the input's queue, from the input's pool. Element types: float, double,
// std::complex<float>, std::complex<double>; clarray::half computes in float32 and rounds the
// results to half. Integer and bool arrays are refused at compile time (convert first:
// a.astype<double>(), which is what NumPy does implicitly); cross takes any dtype but bool.
//
// The factorizations run LAPACK (LAPACKE) on the host, one matrix at a time (docs/linalg.md):
// they read the stack once, block until the results are known (a singular matrix must raise, as
// in NumPy), and write each result with one transfer (a host map: on CPU devices with SVM the
// results are written in place). Failures of the values raise linalg_error naming the function
// and the stack index; shapes that do not fit raise shape_error. matrix_power, multi_dot and
// trace are enqueued products (CLBlast), cross enqueued expression kernels: they block only
// where matrix_power inverts.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/expr/assign.hpp" // cross writes expressions into views
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/linalg/linalg.hpp"
#include "clarray/runtime/function_ref.hpp"
#include "clarray/types/half.hpp"

namespace clarray {

namespace linalg {

// qr's modes (NumPy's mode=): reduced Q (m, k), R (k, n); complete Q (m, m), R (m, n); r: R
// (k, n) only (Q left unbound). k = min(m, n).
enum class qr_mode : unsigned char { reduced, complete, r };

// Matrix norm orders (NumPy's ord=): Frobenius, nuclear (sum of singular values), max / min
// column sum of absolute values (1, -1), largest / smallest singular value (2, -2), max / min
// row sum (inf, -inf).
enum class norm_ord : unsigned char { fro, nuc, one, minus_one, two, minus_two, inf, minus_inf };

// slogdet's result: det = sign * exp(logabsdet); sign is 0 (and logabsdet -inf) for a singular
// matrix, a unit complex number for complex matrices.
template <class T, class Storage> struct slogdet_result {
    // Sign (real) or phase (complex) of the determinant.
    cl_array<T, Storage> sign;
    // Natural log of the determinant's absolute value.
    cl_array<real_of_t<T>, Storage> logabsdet;
};

// qr's result: A = Q R with Q's columns orthonormal and R upper triangular.
template <class T, class Storage> struct qr_result {
    // The orthonormal factor (unbound for qr_mode::r).
    cl_array<T, Storage> Q;
    // The upper triangular factor.
    cl_array<T, Storage> R;
};

// svd's result: A = U diag(S) Vh, S descending and real.
template <class T, class Storage> struct svd_result {
    // Left singular vectors (columns).
    cl_array<T, Storage> U;
    // Singular values, descending.
    cl_array<real_of_t<T>, Storage> S;
    // Right singular vectors (rows), the conjugate transpose of V.
    cl_array<T, Storage> Vh;
};

// eigh's result: A v = w v for each eigenvalue w (ascending) and eigenvector column v.
template <class T, class Storage> struct eigh_result {
    // Real eigenvalues, ascending (..., n).
    cl_array<real_of_t<T>, Storage> eigenvalues;
    // Orthonormal eigenvectors: column i belongs to eigenvalues[i] (..., n, n).
    cl_array<T, Storage> eigenvectors;
};

// lstsq's result (NumPy's rules, extended to stacks in docs/linalg.md).
template <class T, class Storage> struct lstsq_result {
    // The minimum-norm least-squares solution (..., n, k) or (..., n).
    cl_array<T, Storage> x;
    // Squared residual norms per column (..., k), or (..., 1) for a vector b; (..., 0) unless
    // m > n and every matrix has full rank n.
    cl_array<real_of_t<T>, Storage> residuals;
    // Effective rank of each matrix (0-d for a single matrix).
    cl_array<std::int64_t, Storage> rank;
    // Singular values of each matrix, descending (..., min(m, n)).
    cl_array<real_of_t<T>, Storage> s;
};

} // namespace linalg

namespace detail {

template <class T>
inline constexpr bool lapack_dtype_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

template <class T> constexpr void check_lapack_dtype() {
    static_assert(lapack_dtype_v<T> || std::is_same_v<T, half>,
                  "clarray::linalg decompositions take float, double, std::complex<float>, "
                  "std::complex<double> or clarray::half; convert integer or bool arrays first: "
                  "solve(a.astype<double>(), b.astype<double>())");
}

// A new C-contiguous result of `shape` on like's queue, from like's pool.
template <class U, class T, class S>
cl_array<U, S> new_result(const cl_array<T, S>& like, const shape_type& shape) {
    return cl_array<U, S>(like.get_queue(), shape, layout::c, like.data().get());
}

// float32 arrays for the computation of a half array (the result is rounded back by the caller).
template <class T, class S> cl_array<float, S> to_float(const cl_array<T, S>& a) {
    return a.template astype<float>();
}
template <class T, class S> cl_array<half, S> to_half(const cl_array<T, S>& a) {
    if (!a.bound()) return {};
    return a.template astype<half>();
}

// The batch shape of a, a stack of matrices (..., m, n): throws usage_error when a is unbound,
// shape_error naming `function` and a's shape when a has fewer than two axes or, when `square`,
// when m != n. (The drivers below check the dtype and that the build has LAPACKE.)
shape_type matrix_batch(const char* function, const array_ref& a, bool square);
// The shape of solve's (or lstsq's) x for a (..., m, n) and b: (..., n) when b is 1-d, else
// (..., n, k), the batch axes of a and b broadcast. Throws shape_error naming both shapes.
shape_type solution_shape(const char* function, const array_ref& a, const array_ref& b,
                          bool square);

// The stack drivers (src/linalg/decompositions.cpp): each reads its inputs to the host once,
// runs the per-matrix LAPACK layer and writes the results (new C-contiguous arrays of the shapes
// the templates below allocate). Throw linalg_error for the values' failures.
void lapack_solve(const array_ref& a, const array_ref& b, const array_ref& x);
void lapack_inv(const array_ref& a, const array_ref& out);
// det, sign and logabsdet may each be null (not wanted).
void lapack_det(const char* function, const array_ref& a, const array_ref* det,
                const array_ref* sign, const array_ref* logabsdet);
void lapack_cholesky(const array_ref& a, bool upper, const array_ref& out);
// q is null for qr_mode::r.
void lapack_qr(const array_ref& a, linalg::qr_mode mode, const array_ref* q, const array_ref& r);
// u and vh are null for svdvals.
void lapack_svd(const char* function, const array_ref& a, bool full_matrices, const array_ref* u,
                const array_ref& s, const array_ref* vh);
// v is null for eigvalsh.
void lapack_eigh(const char* function, const array_ref& a, char uplo, const array_ref& w,
                 const array_ref* v);
// make_residuals allocates the residuals of the shape it is given (known once the ranks are).
void lapack_lstsq(const array_ref& a, const array_ref& b, std::optional<double> rcond,
                  const array_ref& x, const array_ref& s, const array_ref& rank,
                  function_ref<array_ref(const shape_type&)> make_residuals);
void lapack_pinv(const array_ref& a, std::optional<double> rtol, const array_ref& out);
void lapack_matrix_rank(const array_ref& a, std::optional<double> tol, std::optional<double> rtol,
                        const array_ref& out);
void lapack_matrix_norm(const char* function, const array_ref& a, linalg::norm_ord ord,
                        const array_ref& out);
void lapack_cond(const array_ref& a, std::optional<linalg::norm_ord> ord, const array_ref& out);

// The order of a chain of matrix products: split[i][j] is where the product of operands i..j
// (inclusive) splits into (i..split) (split+1..j), minimising scalar multiplications; dims has
// the chain's n + 1 extents (operand i is dims[i] x dims[i + 1]).
std::vector<std::vector<std::size_t>> matrix_chain_order(const std::vector<std::size_t>& dims);

template <class T, class S>
cl_array<T, S> chain_product(const std::vector<cl_array<T, S>>& m,
                             const std::vector<std::vector<std::size_t>>& split, std::size_t i,
                             std::size_t j) {
    if (i == j) return m[i];
    return linalg::matmul(chain_product(m, split, i, split[i][j]),
                          chain_product(m, split, split[i][j] + 1, j));
}

// The stack of n x n identity matrices of shape batch + (n, n), like `like`.
template <class T, class S>
cl_array<T, S> identity_stack(const cl_array<T, S>& like, shape_type shape) {
    cl_array<T, S> out = new_result<T>(like, shape);
    if (out.size() == 0) return out;
    strided_fill(out, T(0));
    const std::size_t n = shape.back();
    strides_type strides = out.strides();
    shape.pop_back();
    strides.pop_back();
    strides.back() = static_cast<std::ptrdiff_t>(n + 1);
    strided_fill(cl_array<T, S>(out.get_queue(), out.data(), shape, strides, 0), T(1));
    return out;
}

// The axis of extent 3 that cross reads in an operand of shape `shape`, for an axis counted in
// the broadcast result's `rank` axes; shape_error naming both shapes when it has no such axis.
std::size_t cross_axis(const shape_type& shape, const shape_type& other, std::ptrdiff_t axis);

// Element i along `axis` of x: a view without that axis.
template <class T, class S>
cl_array<T, S> component(const cl_array<T, S>& x, std::size_t axis, std::size_t i) {
    shape_type shape;
    strides_type strides;
    for (std::size_t d = 0; d < x.dimension(); ++d)
        if (d != axis) shape.push_back(x.shape()[d]), strides.push_back(x.strides()[d]);
    return cl_array<T, S>(x.get_queue(), x.data(), shape, strides,
                          x.offset() + static_cast<std::ptrdiff_t>(i) * x.strides()[axis]);
}

} // namespace detail

namespace linalg {

// NumPy 2's solve: x with a @ x = b for a (..., n, n); b is a vector (n,) only when b is 1-d,
// else a stack of right-hand sides (..., n, k) whose batch axes broadcast with a's. Throws
// linalg_error "Singular matrix" (naming the stack index) when a matrix is exactly singular.
template <class T, class S> cl_array<T, S> solve(const cl_array<T, S>& a, const cl_array<T, S>& b) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(solve(detail::to_float(a), detail::to_float(b)));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a), rb = detail::array_ref_of(b);
        auto x = detail::new_result<T>(a, detail::solution_shape("solve", ra, rb, true));
        detail::lapack_solve(ra, rb, detail::array_ref_of(x));
        return x;
    }
}

// The inverse of each square matrix of the stack; linalg_error "Singular matrix" when one is.
template <class T, class S> cl_array<T, S> inv(const cl_array<T, S>& a) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(inv(detail::to_float(a)));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        detail::matrix_batch("inv", ra, true);
        auto out = detail::new_result<T>(a, a.shape());
        detail::lapack_inv(ra, detail::array_ref_of(out));
        return out;
    }
}

// The determinant of each square matrix (shape: the batch axes; 0-d for one matrix), from an LU
// factorization. The determinant of a 0 x 0 matrix is 1.
template <class T, class S> cl_array<T, S> det(const cl_array<T, S>& a) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(det(detail::to_float(a)));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        auto out = detail::new_result<T>(a, detail::matrix_batch("det", ra, true));
        const detail::array_ref ro = detail::array_ref_of(out);
        detail::lapack_det("det", ra, &ro, nullptr, nullptr);
        return out;
    }
}

// Sign and log of the absolute value of each determinant, without det's overflow.
template <class T, class S> slogdet_result<T, S> slogdet(const cl_array<T, S>& a) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        auto r = slogdet(detail::to_float(a));
        return {detail::to_half(r.sign), detail::to_half(r.logabsdet)};
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        const shape_type batch = detail::matrix_batch("slogdet", ra, true);
        slogdet_result<T, S> r{detail::new_result<T>(a, batch),
                               detail::new_result<real_of_t<T>>(a, batch)};
        const detail::array_ref rs = detail::array_ref_of(r.sign),
                                rl = detail::array_ref_of(r.logabsdet);
        detail::lapack_det("slogdet", ra, nullptr, &rs, &rl);
        return r;
    }
}

// The Cholesky factor of each Hermitian positive definite matrix: lower L with A = L L^H
// (reading A's lower triangle), or with `upper` U with A = U^H U (reading the upper triangle).
// linalg_error "Matrix is not positive definite" (naming the stack index) otherwise.
template <class T, class S> cl_array<T, S> cholesky(const cl_array<T, S>& a, bool upper = false) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(cholesky(detail::to_float(a), upper));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        detail::matrix_batch("cholesky", ra, true);
        auto out = detail::new_result<T>(a, a.shape());
        detail::lapack_cholesky(ra, upper, detail::array_ref_of(out));
        return out;
    }
}

// Householder QR of each (..., m, n) matrix (geqrf, then orgqr/ungqr for Q); see qr_mode.
template <class T, class S>
qr_result<T, S> qr(const cl_array<T, S>& a, qr_mode mode = qr_mode::reduced) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        auto r = qr(detail::to_float(a), mode);
        return {detail::to_half(r.Q), detail::to_half(r.R)};
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        shape_type q_shape = detail::matrix_batch("qr", ra, false), r_shape = q_shape;
        const std::size_t m = a.shape()[a.dimension() - 2], n = a.shape().back();
        const std::size_t k = std::min(m, n);
        const bool complete = mode == qr_mode::complete;
        q_shape.push_back(m);
        q_shape.push_back(complete ? m : k);
        r_shape.push_back(complete ? m : k);
        r_shape.push_back(n);
        qr_result<T, S> r;
        r.R = detail::new_result<T>(a, r_shape);
        if (mode != qr_mode::r) r.Q = detail::new_result<T>(a, q_shape);
        const detail::array_ref rq = detail::array_ref_of(r.Q);
        detail::lapack_qr(ra, mode, mode == qr_mode::r ? nullptr : &rq, detail::array_ref_of(r.R));
        return r;
    }
}

// Singular value decomposition of each (..., m, n) matrix (gesdd): with full_matrices U is
// (m, m) and Vh (n, n), else (m, k) and (k, n); S is (k,), descending. k = min(m, n).
// linalg_error "SVD did not converge" when the iteration fails.
template <class T, class S>
svd_result<T, S> svd(const cl_array<T, S>& a, bool full_matrices = true) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        auto r = svd(detail::to_float(a), full_matrices);
        return {detail::to_half(r.U), detail::to_half(r.S), detail::to_half(r.Vh)};
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        shape_type u = detail::matrix_batch("svd", ra, false), vh = u, s = u;
        const std::size_t m = a.shape()[a.dimension() - 2], n = a.shape().back();
        const std::size_t k = std::min(m, n);
        u.push_back(m);
        u.push_back(full_matrices ? m : k);
        vh.push_back(full_matrices ? n : k);
        vh.push_back(n);
        s.push_back(k);
        svd_result<T, S> r{detail::new_result<T>(a, u), detail::new_result<real_of_t<T>>(a, s),
                           detail::new_result<T>(a, vh)};
        const detail::array_ref ru = detail::array_ref_of(r.U), rv = detail::array_ref_of(r.Vh);
        detail::lapack_svd("svd", ra, full_matrices, &ru, detail::array_ref_of(r.S), &rv);
        return r;
    }
}

// The singular values of each matrix (..., min(m, n)), descending, without the vectors.
template <class T, class S> cl_array<real_of_t<T>, S> svdvals(const cl_array<T, S>& a) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(svdvals(detail::to_float(a)));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        shape_type s = detail::matrix_batch("svdvals", ra, false);
        s.push_back(std::min(a.shape()[a.dimension() - 2], a.shape().back()));
        auto out = detail::new_result<real_of_t<T>>(a, s);
        detail::lapack_svd("svdvals", ra, false, nullptr, detail::array_ref_of(out), nullptr);
        return out;
    }
}

// Eigenvalues (ascending) and eigenvectors of each Hermitian (real symmetric) matrix, reading
// only its lower (uplo 'L') or upper ('U') triangle (syevd/heevd). linalg_error "Eigenvalues did
// not converge" when the iteration fails.
template <class T, class S> eigh_result<T, S> eigh(const cl_array<T, S>& a, char uplo = 'L') {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        auto r = eigh(detail::to_float(a), uplo);
        return {detail::to_half(r.eigenvalues), detail::to_half(r.eigenvectors)};
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        shape_type w = detail::matrix_batch("eigh", ra, true);
        w.push_back(a.shape().back());
        eigh_result<T, S> r{detail::new_result<real_of_t<T>>(a, w),
                            detail::new_result<T>(a, a.shape())};
        const detail::array_ref rv = detail::array_ref_of(r.eigenvectors);
        detail::lapack_eigh("eigh", ra, uplo, detail::array_ref_of(r.eigenvalues), &rv);
        return r;
    }
}

// The eigenvalues (ascending) of each Hermitian matrix, without the vectors.
template <class T, class S>
cl_array<real_of_t<T>, S> eigvalsh(const cl_array<T, S>& a, char uplo = 'L') {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(eigvalsh(detail::to_float(a), uplo));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        shape_type w = detail::matrix_batch("eigvalsh", ra, true);
        w.push_back(a.shape().back());
        auto out = detail::new_result<real_of_t<T>>(a, w);
        detail::lapack_eigh("eigvalsh", ra, uplo, detail::array_ref_of(out), nullptr);
        return out;
    }
}

// The minimum-norm least-squares solution of a @ x = b (gelsd) for a (..., m, n) and b (..., m,
// k) or (m,) (a vector when 1-d, batch axes broadcast). Singular values <= rcond * the largest
// count as zero; rcond defaults to eps * max(m, n) (NumPy 2's rcond=None).
template <class T, class S>
lstsq_result<T, S> lstsq(const cl_array<T, S>& a, const cl_array<T, S>& b,
                         std::optional<double> rcond = std::nullopt) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        auto r = lstsq(detail::to_float(a), detail::to_float(b), rcond);
        return {detail::to_half(r.x), detail::to_half(r.residuals), r.rank, detail::to_half(r.s)};
    } else {
        using R = real_of_t<T>;
        const detail::array_ref ra = detail::array_ref_of(a), rb = detail::array_ref_of(b);
        const shape_type x_shape = detail::solution_shape("lstsq", ra, rb, false);
        shape_type batch(x_shape.begin(), x_shape.end() - (b.dimension() == 1 ? 1 : 2)),
            s_shape = batch;
        s_shape.push_back(std::min(a.shape()[a.dimension() - 2], a.shape().back()));
        lstsq_result<T, S> r{detail::new_result<T>(a, x_shape),
                             {},
                             detail::new_result<std::int64_t>(a, batch),
                             detail::new_result<R>(a, s_shape)};
        auto make_residuals = [&](const shape_type& shape) {
            r.residuals = detail::new_result<R>(a, shape);
            return detail::array_ref_of(r.residuals);
        };
        detail::lapack_lstsq(ra, rb, rcond, detail::array_ref_of(r.x), detail::array_ref_of(r.s),
                             detail::array_ref_of(r.rank), make_residuals);
        return r;
    }
}

// The Moore-Penrose pseudo-inverse of each (..., m, n) matrix, (..., n, m), through gelsd:
// singular values <= rtol * the largest count as zero; rtol defaults to max(m, n) * eps (the
// array API's default; NumPy's pinv keeps 1e-15 unless given rtol=None).
template <class T, class S>
cl_array<T, S> pinv(const cl_array<T, S>& a, std::optional<double> rtol = std::nullopt) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(pinv(detail::to_float(a), rtol));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        shape_type shape = detail::matrix_batch("pinv", ra, false);
        shape.push_back(a.shape().back());
        shape.push_back(a.shape()[a.dimension() - 2]);
        auto out = detail::new_result<T>(a, shape);
        detail::lapack_pinv(ra, rtol, detail::array_ref_of(out));
        return out;
    }
}

// The rank of each matrix: the number of singular values > tol (absolute), or, when tol is not
// given, > rtol * the largest (rtol defaults to max(m, n) * eps); giving both is a usage_error.
// Shape: the batch axes.
template <class T, class S>
cl_array<std::int64_t, S> matrix_rank(const cl_array<T, S>& a,
                                      std::optional<double> tol = std::nullopt,
                                      std::optional<double> rtol = std::nullopt) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return matrix_rank(detail::to_float(a), tol, rtol);
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        auto out =
            detail::new_result<std::int64_t>(a, detail::matrix_batch("matrix_rank", ra, false));
        detail::lapack_matrix_rank(ra, tol, rtol, detail::array_ref_of(out));
        return out;
    }
}

// The matrix norm of each matrix (see norm_ord; default Frobenius), real, of the batch shape.
template <class T, class S>
cl_array<real_of_t<T>, S> matrix_norm(const cl_array<T, S>& a, norm_ord ord = norm_ord::fro) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(matrix_norm(detail::to_float(a), ord));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        auto out =
            detail::new_result<real_of_t<T>>(a, detail::matrix_batch("matrix_norm", ra, false));
        detail::lapack_matrix_norm("matrix_norm", ra, ord, detail::array_ref_of(out));
        return out;
    }
}

// The condition number of each matrix in the norm `ord`: without ord (or two / minus_two) the
// ratio of the extreme singular values (any m x n), else norm(a) * norm(inv(a)) (square; inf for
// a singular matrix).
template <class T, class S>
cl_array<real_of_t<T>, S> cond(const cl_array<T, S>& a,
                               std::optional<norm_ord> ord = std::nullopt) {
    detail::check_lapack_dtype<T>();
    if constexpr (std::is_same_v<T, half>) {
        return detail::to_half(cond(detail::to_float(a), ord));
    } else {
        const detail::array_ref ra = detail::array_ref_of(a);
        const bool singular_values = !ord || *ord == norm_ord::two || *ord == norm_ord::minus_two;
        auto out =
            detail::new_result<real_of_t<T>>(a, detail::matrix_batch("cond", ra, !singular_values));
        detail::lapack_cond(ra, ord, detail::array_ref_of(out));
        return out;
    }
}

// a raised to the integer power n for each square matrix, by repeated squaring (matmul); n = 0
// gives identities, n < 0 powers of inv(a) (which blocks and may throw linalg_error).
template <class T, class S> cl_array<T, S> matrix_power(const cl_array<T, S>& a, long long n) {
    detail::check_lapack_dtype<T>();
    detail::matrix_batch("matrix_power", detail::array_ref_of(a), true);
    if (n == 0) return detail::identity_stack(a, a.shape());
    // std::optional and emplace: assigning to a bound array would write into its memory (a's).
    std::optional<cl_array<T, S>> base, result;
    base.emplace(n < 0 ? inv(a) : a);
    unsigned long long e =
        n < 0 ? 0ULL - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
    for (;;) {
        if (e & 1ULL) {
            if (result) {
                cl_array<T, S> product = matmul(*result, *base);
                result.emplace(std::move(product));
            } else {
                result.emplace(*base);
            }
        }
        e >>= 1;
        if (!e) break;
        cl_array<T, S> square = matmul(*base, *base);
        base.emplace(std::move(square));
    }
    if (result->data() == a.data()) return result->copy(); // n = 1: a new array, as always
    return std::move(*result);
}

// The product of a chain of arrays in the order of fewest scalar multiplications (NumPy's
// multi_dot): the first may be 1-d (a row vector), the last 1-d (a column vector), the others
// are 2-d. Enqueued matmuls, nothing blocks.
template <class T, class S> cl_array<T, S> multi_dot(const std::vector<cl_array<T, S>>& arrays) {
    detail::check_lapack_dtype<T>();
    if (arrays.size() < 2)
        throw usage_error("multi_dot: needs at least two arrays, got " +
                          std::to_string(arrays.size()));
    const bool row = arrays.front().dimension() == 1, col = arrays.back().dimension() == 1;
    std::vector<cl_array<T, S>> m; // 1-d ends as a row and a column (views)
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        const cl_array<T, S>& x = arrays[i];
        if (i == 0 && row)
            m.push_back(x.reshape({1, x.size()}));
        else if (i + 1 == arrays.size() && col)
            m.push_back(x.reshape({x.size(), 1}));
        else
            m.push_back(x);
    }
    std::vector<std::size_t> dims;
    for (std::size_t i = 0; i < m.size(); ++i) {
        if (m[i].dimension() != 2)
            throw shape_error("multi_dot: array " + std::to_string(i) + " has shape " +
                              shape_to_string(arrays[i].shape()) +
                              " (2-d expected; 1-d only first or last)");
        if (i && m[i].shape()[0] != dims.back())
            throw shape_error("multi_dot: shapes " + shape_to_string(arrays[i - 1].shape()) +
                              " and " + shape_to_string(arrays[i].shape()) + " (arrays " +
                              std::to_string(i - 1) + " and " + std::to_string(i) + ") do not fit");
        if (!i) dims.push_back(m[i].shape()[0]);
        dims.push_back(m[i].shape()[1]);
    }
    cl_array<T, S> out =
        detail::chain_product(m, detail::matrix_chain_order(dims), 0, m.size() - 1);
    if (row && col) return out.reshape(shape_type{});
    if (row) return out.reshape({out.shape()[1]});
    if (col) return out.reshape({out.shape()[0]});
    return out;
}

// The sum of each matrix's diagonal `offset` (above the main one when positive, below when
// negative), of the batch shape: the diagonal as a strided view times a vector of ones (GEMV).
template <class T, class S>
cl_array<T, S> trace(const cl_array<T, S>& a, std::ptrdiff_t offset = 0) {
    detail::check_lapack_dtype<T>();
    const shape_type batch = detail::matrix_batch("trace", detail::array_ref_of(a), false);
    const std::size_t r = a.dimension();
    const auto m = static_cast<std::ptrdiff_t>(a.shape()[r - 2]),
               n = static_cast<std::ptrdiff_t>(a.shape()[r - 1]);
    const std::ptrdiff_t rs = a.strides()[r - 2], cs = a.strides()[r - 1];
    const std::ptrdiff_t length = std::max<std::ptrdiff_t>(
        0, offset >= 0 ? std::min(m, n - offset) : std::min(m + offset, n));
    shape_type shape = batch;
    strides_type strides(a.strides().begin(), a.strides().end() - 2);
    shape.push_back(static_cast<std::size_t>(length));
    strides.push_back(rs + cs);
    const std::ptrdiff_t start = length == 0 ? 0 : offset >= 0 ? offset * cs : -offset * rs;
    const cl_array<T, S> diagonal(a.get_queue(), a.data(), shape, strides, a.offset() + start);
    cl_array<T, S> ones = detail::new_result<T>(a, {static_cast<std::size_t>(length)});
    if (length) detail::strided_fill(ones, T(1));
    return matmul(diagonal, ones);
}

// The cross product of 3-element vectors along `axis` (NumPy 2's linalg.cross, the array API's):
// both operands have extent 3 there, the other axes broadcast; axis counts in the broadcast shape
// (negative: from the end). Three expression kernels, one per component; nothing blocks.
template <class T, class S>
cl_array<T, S> cross(const cl_array<T, S>& x1, const cl_array<T, S>& x2, std::ptrdiff_t axis = -1) {
    static_assert(!std::is_same_v<T, bool>,
                  "clarray::linalg::cross: bool vectors have no cross product; convert first, "
                  "e.g. cross(a.astype<std::int32_t>(), b.astype<std::int32_t>())");
    const std::size_t k1 = detail::cross_axis(x1.shape(), x2.shape(), axis),
                      k2 = detail::cross_axis(x2.shape(), x1.shape(), axis);
    const shape_type shape = broadcast_shapes(x1.shape(), x2.shape());
    cl_array<T, S> out = detail::new_result<T>(x1, shape);
    if (out.size() == 0) return out;
    const std::size_t ko = shape.size() - (x1.dimension() - k1);
    const auto a = [&](std::size_t i) { return detail::component(x1, k1, i); };
    const auto b = [&](std::size_t i) { return detail::component(x2, k2, i); };
    for (std::size_t i = 0; i < 3; ++i) {
        const std::size_t j = (i + 1) % 3, k = (i + 2) % 3;
        cl_array<T, S> target = detail::component(out, ko, i);
        target = a(j) * b(k) - a(k) * b(j);
    }
    return out;
}

// ---- expression operands: evaluated first into a temporary from their pool (LAPACK reads host
// copies of arrays); the other arguments pass through.
#define CLARRAY_LAPACK_EXPRESSION(NAME)                                                            \
    template <class E, class... Args, class = clarray::detail::expression_argument_t<E>>           \
    auto NAME(const E& e, const Args&... args) {                                                   \
        return NAME(clarray::detail::materialize(e), args...);                                     \
    }
#define CLARRAY_LAPACK_EXPRESSION2(NAME)                                                           \
    template <class A, class B, class... Args,                                                     \
              class = clarray::detail::expression_arguments_t<A, B>>                               \
    auto NAME(const A& a, const B& b, const Args&... args) {                                       \
        return NAME(clarray::detail::materialize(a), clarray::detail::materialize(b), args...);    \
    }
// solve of arrays or expressions (an expression is evaluated first).
CLARRAY_LAPACK_EXPRESSION2(solve)
// lstsq of arrays or expressions (an expression is evaluated first).
CLARRAY_LAPACK_EXPRESSION2(lstsq)
// inv of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(inv)
// det of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(det)
// slogdet of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(slogdet)
// cholesky of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(cholesky)
// qr of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(qr)
// svd of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(svd)
// svdvals of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(svdvals)
// eigh of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(eigh)
// eigvalsh of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(eigvalsh)
// pinv of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(pinv)
// matrix_rank of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(matrix_rank)
// matrix_norm of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(matrix_norm)
// cond of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(cond)
// matrix_power of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(matrix_power)
// trace of an expression (evaluated first).
CLARRAY_LAPACK_EXPRESSION(trace)
// cross of arrays or expressions (an expression is evaluated first).
CLARRAY_LAPACK_EXPRESSION2(cross)
#undef CLARRAY_LAPACK_EXPRESSION
#undef CLARRAY_LAPACK_EXPRESSION2

} // namespace linalg

} // namespace clarray
