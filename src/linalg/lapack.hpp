#pragma once
// The per-matrix layer of linalg's decompositions and solvers: each routine factors or solves ONE
// matrix held in host memory, in LAPACK's column-major order (element (i, j) at i + j * ld).
//
// This is the seam between the stack driver (src/linalg/decompositions.cpp: shape checks, the
// copy of a stack of matrices to the host, the loop over the matrices, the error messages with
// the stack index, the write-back of the results) and the code that does the arithmetic. Today
// every routine is host LAPACKE. A hybrid path for large matrices (host panel factorizations,
// trailing updates on the device through CLBlast) or batched device kernels for stacks of small
// matrices would take the driver's place for the matrices they serve and keep its contract:
// the same results, layouts and status codes per matrix.
//
// Status: 0 on success; > 0 a failure of the matrix's values that the caller reports as
// linalg_error (the LAPACK info: a zero pivot, a non-positive leading minor, an iteration that
// did not converge). Invalid arguments (a negative info) and workspace allocation failures throw
// here (error, out_of_memory): they are library faults, never the user's data. Sizes beyond
// LAPACK's integers throw unsupported.
#include <complex>
#include <cstddef>

#include "clarray/types/dtype.hpp"

namespace clarray::detail::lapack {

// Whether the library was built with LAPACKE (CLARRAY_HAVE_LAPACKE).
bool available() noexcept;
// Throws unsupported naming `function` and the missing package when !available().
void require(const char* function);

// The routines of one element type T (float, double, std::complex<float>, std::complex<double>);
// R is its real type. Dimensions are element counts; ld* are leading dimensions (>= rows, >= 1).
template <class T> struct routines {
    using R = real_of_t<T>;
    // LU with partial pivoting of the m x n matrix a in place (getrf); ipiv gets min(m, n) 1-based
    // row interchanges. > 0: U(info, info) is exactly zero (the factorization is complete).
    static int lu(std::size_t m, std::size_t n, T* a, std::size_t lda, int* ipiv);
    // Solves op(A) X = B with A's LU from lu() (getrs); trans: 'N', 'T' or 'C'; B is n x nrhs.
    // (No status: getrs has no failure of the values.)
    static void lu_solve(char trans, std::size_t n, std::size_t nrhs, const T* a, std::size_t lda,
                         const int* ipiv, T* b, std::size_t ldb);
    // The inverse from lu()'s factors, in place (getri).
    static int lu_inverse(std::size_t n, T* a, std::size_t lda, const int* ipiv);
    // Cholesky factor of the Hermitian positive definite n x n matrix a in place (potrf), reading
    // and writing the triangle `uplo` ('L': A = L L^H, 'U': A = U^H U); the other triangle is
    // left as it was. > 0: the leading minor of that order is not positive definite.
    static int cholesky(char uplo, std::size_t n, T* a, std::size_t lda);
    // Householder QR of the m x n matrix a in place (geqrf): R on and above the diagonal, the
    // reflectors below it, their scalars in tau (min(m, n)). (No status: geqrf has no failure of
    // the values.)
    static void qr(std::size_t m, std::size_t n, T* a, std::size_t lda, T* tau);
    // The first n columns (m >= n >= k) of Q from qr()'s k reflectors, in place (orgqr/ungqr;
    // no status).
    static void qr_q(std::size_t m, std::size_t n, std::size_t k, T* a, std::size_t lda,
                     const T* tau);
    // Singular values (descending) of the m x n matrix a, which is destroyed (gesdd); jobz 'N':
    // values only; 'S': the min(m, n) leading vectors; 'A': all (u m x m, vt n x n). u and vt may
    // be null for 'N'. > 0: the iteration did not converge.
    static int svd(char jobz, std::size_t m, std::size_t n, T* a, std::size_t lda, R* s, T* u,
                   std::size_t ldu, T* vt, std::size_t ldvt);
    // Eigenvalues (ascending) of the Hermitian n x n matrix a from its triangle `uplo`
    // (syevd/heevd); jobz 'V' overwrites a with the orthonormal eigenvectors (columns), 'N'
    // destroys it. > 0: the iteration did not converge.
    static int eigh(char jobz, char uplo, std::size_t n, T* a, std::size_t lda, R* w);
    // Minimum-norm least-squares solution of the m x n A X = B (gelsd): a is destroyed, b
    // (ldb >= max(m, n), nrhs columns) holds X in its first n rows on return, s the singular
    // values (min(m, n)), rank the effective rank (singular values > rcond * s[0]). > 0: the
    // SVD did not converge.
    static int lstsq(std::size_t m, std::size_t n, std::size_t nrhs, T* a, std::size_t lda, T* b,
                     std::size_t ldb, R* s, R rcond, std::size_t& rank);
};

} // namespace clarray::detail::lapack
