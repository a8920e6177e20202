// The stack drivers of linalg's decompositions and solvers (include/clarray/linalg/
// decompositions.hpp): shape checks, one blocking map (or read) of each input stack, the loop
// over the matrices through the per-matrix layer (lapack.hpp), error messages with the stack
// index, and the results written through host maps of the new (C-contiguous) result arrays: on a
// CPU device with SVM the map is the memory itself, elsewhere the unmap is the one transfer.
//
// Layouts: the host copy of a matrix is C-ordered (row-major), which LAPACK (column-major) reads
// as the transpose. solve, inv, det, slogdet and cholesky use that directly (det(A^T) = det(A),
// inv(A^T) = inv(A)^T, the Cholesky factor of A^T is the transpose of the other triangle's);
// qr, svd, eigh and lstsq transpose each matrix into a column-major work matrix, O(m n) beside
// their O(m n min(m, n)).
//
// A matrix with a NaN or an infinity gives NaN results (for all of its outputs) instead of a
// LAPACK call, whose behaviour on such input is not defined (LAPACKE rejects it as an invalid
// argument).
#include "clarray/linalg/decompositions.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "batched.hpp"
#include "clarray/error.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/storage/allocation.hpp"
#include "lapack.hpp"

namespace clarray::detail {

namespace {

using linalg::norm_ord;
using linalg::qr_mode;

// Whether t is C's dtype; false when C is no dtype of this build (complex types are optional in
// types/dtype.hpp).
template <class C> bool is_dtype_of(dtype t) {
    if constexpr (is_dtype_v<C>)
        return t == dtype_traits<C>::id;
    else
        return false;
}

// Calls f(T{}) for the element type of t (float, double or their std::complex), after checking that
// the build has LAPACK. Throws dtype_error naming `function` for another dtype.
template <class F> void with_dtype(const char* function, dtype t, F&& f) {
    lapack::require(function);
    switch (t) {
    case dtype::float32:
        return f(float{});
    case dtype::float64:
        return f(double{});
    default:
        break;
    }
    if (is_dtype_of<std::complex<float>>(t)) return f(std::complex<float>{});
    if (is_dtype_of<std::complex<double>>(t)) return f(std::complex<double>{});
    throw dtype_error(std::string(function) + ": no LAPACK routine for dtype " + dtype_name(t));
}

std::size_t rows_of(const shape_type& s) {
    return s[s.size() - 2];
}
std::size_t cols_of(const shape_type& s) {
    return s[s.size() - 1];
}
shape_type batch_of(const shape_type& s, std::size_t matrix_axes = 2) {
    return shape_type(s.begin(), s.end() - matrix_axes);
}

// The C-ordered elements of a (any view) in host memory, for reading: a C-contiguous array is
// mapped (on a CPU device with SVM that is the memory itself, elsewhere one transfer), another
// view is read once through a C-ordered device copy. Unmapped on destruction (never blocking).
template <class T> class host_input {
public:
    explicit host_input(const array_ref& a) : a_(a), count_(checked_size(*a.shape)) {
        if (!count_) return;
        if (is_c_contiguous(*a.shape, *a.strides)) {
            mapped_ = a.alloc->map(*a.q, access::read, byte_offset(), bytes());
            data_ = static_cast<const T*>(mapped_);
        } else {
            copy_.resize(count_);
            read_c_order(a, copy_.data());
            data_ = copy_.data();
        }
    }
    ~host_input() {
        if (mapped_) a_.alloc->unmap(*a_.q, mapped_, access::read, byte_offset(), bytes());
    }
    host_input(const host_input&) = delete;
    host_input& operator=(const host_input&) = delete;
    const T* data() const { return data_; }

private:
    std::size_t byte_offset() const { return static_cast<std::size_t>(a_.offset) * a_.elem_size(); }
    std::size_t bytes() const { return count_ * a_.elem_size(); }

    array_ref a_;
    std::size_t count_;
    void* mapped_ = nullptr;
    std::vector<T> copy_;
    const T* data_ = nullptr;
};

// A result array (new, C-contiguous) mapped for writing; unmapped (never blocking, never
// throwing) on destruction, which hands the values to the device.
class mapped_result {
public:
    explicit mapped_result(const array_ref& out)
        : out_(out), bytes_(checked_size(*out.shape) * out.elem_size()) {
        if (bytes_)
            host_ =
                out_.alloc->map(*out_.q, access::write,
                                static_cast<std::size_t>(out_.offset) * out_.elem_size(), bytes_);
    }
    ~mapped_result() {
        if (host_)
            out_.alloc->unmap(*out_.q, host_, access::write,
                              static_cast<std::size_t>(out_.offset) * out_.elem_size(), bytes_);
    }
    mapped_result(const mapped_result&) = delete;
    mapped_result& operator=(const mapped_result&) = delete;
    template <class T> T* as() const { return static_cast<T*>(host_); }

private:
    array_ref out_;
    std::size_t bytes_;
    void* host_ = nullptr;
};

// For each matrix of the broadcast batch `out` (C order), the index of the matrix of an operand
// whose batch is `in` (right-aligned, extent-1 axes repeat).
std::vector<std::size_t> broadcast_matrix_index(const shape_type& in, const shape_type& out) {
    const std::size_t count = checked_size(out);
    std::vector<std::size_t> index(count, 0);
    const std::size_t lead = out.size() - in.size();
    std::vector<std::size_t> idx(out.size(), 0);
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t k = 0;
        for (std::size_t d = lead; d < out.size(); ++d)
            k = k * in[d - lead] + (in[d - lead] == 1 ? 0 : idx[d]);
        index[i] = k;
        for (std::size_t d = out.size(); d-- > 0;) {
            if (++idx[d] < out[d]) break;
            idx[d] = 0;
        }
    }
    return index;
}

// " at stack index [i, j] (batch shape (p, q))" for matrix i of a stack, "" for one matrix.
std::string where(const shape_type& batch, std::size_t i) {
    if (batch.empty()) return "";
    std::vector<std::size_t> idx(batch.size());
    for (std::size_t d = batch.size(); d-- > 0;) {
        idx[d] = i % batch[d];
        i /= batch[d];
    }
    std::string s = " at stack index [";
    for (std::size_t d = 0; d < idx.size(); ++d)
        s += (d ? ", " : "") + std::to_string(idx[d]);
    return s + "] (batch shape " + shape_to_string(batch) + ")";
}

[[noreturn]] void fail(const char* function, const char* what, const shape_type& batch,
                       std::size_t i) {
    throw linalg_error(std::string(function) + ": " + what + where(batch, i));
}

template <class T> bool finite(const T& v) {
    if constexpr (is_complex_v<T>)
        return std::isfinite(v.real()) && std::isfinite(v.imag());
    else
        return std::isfinite(v);
}
template <class T> bool all_finite(const T* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (!finite(p[i])) return false;
    return true;
}
template <class T> T nan_value() {
    const real_of_t<T> nan = std::numeric_limits<real_of_t<T>>::quiet_NaN();
    if constexpr (is_complex_v<T>)
        return T(nan, nan);
    else
        return nan;
}
template <class T> void fill_nan(T* p, std::size_t n) {
    std::fill(p, p + n, nan_value<T>());
}
template <class T> T conj_of(const T& v) {
    if constexpr (is_complex_v<T>)
        return std::conj(v);
    else
        return v;
}

// The row-major m x n matrix `row` into column-major `col` (leading dimension ld >= m).
template <class T>
void to_column_major(const T* row, std::size_t m, std::size_t n, T* col, std::size_t ld) {
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < m; ++i)
            col[i + j * ld] = row[i * n + j];
}
// The column-major m x n matrix `col` (leading dimension ld) into row-major `row`.
template <class T>
void to_row_major(const T* col, std::size_t ld, std::size_t m, std::size_t n, T* row) {
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j)
            row[i * n + j] = col[i + j * ld];
}

// Whether r is C-contiguous from its allocation's start (the device kernels' results).
bool c_contiguous(const array_ref& r) {
    return r.offset == 0 && is_c_contiguous(*r.shape, *r.strides);
}

std::size_t at_least_one(std::size_t n) {
    return std::max<std::size_t>(n, 1);
}

template <class R> R default_tolerance(std::size_t m, std::size_t n) {
    return std::numeric_limits<R>::epsilon() * static_cast<R>(std::max(m, n));
}

// ---- solve -------------------------------------------------------------------------------------

template <class T> void solve_t(const array_ref& ra, const array_ref& rb, const array_ref& rx) {
    using lp = lapack::routines<T>;
    const shape_type& xs = *rx.shape;
    const bool vector = rb.shape->size() == 1;
    const std::size_t n = rows_of(*ra.shape), k = vector ? 1 : cols_of(xs);
    const shape_type batch = batch_of(xs, vector ? 1 : 2);
    const std::size_t count = checked_size(batch);
    if (count == 0 || n == 0 || k == 0) return;
    // The device kernels take a's stack as it is (a broadcast over b's batch axes would be copied
    // once per matrix of the result: the host path indexes it instead).
    if (batched::applies(*rx.q, rx.type, n, k, count) && c_contiguous(rx) &&
        batch_of(*ra.shape) == batch) {
        const std::size_t bad = batched::solve(ra, &rb, rx, count, n, k);
        if (bad < count)
            fail("solve", "Singular matrix", batch_of(*ra.shape),
                 broadcast_matrix_index(batch_of(*ra.shape), batch)[bad]);
        return;
    }
    const host_input<T> a(ra), b(rb);
    const std::vector<std::size_t> ia = broadcast_matrix_index(batch_of(*ra.shape), batch),
                                   ib = vector ? std::vector<std::size_t>(count, 0)
                                               : broadcast_matrix_index(batch_of(*rb.shape), batch);
    mapped_result out(rx);
    T* x = out.as<T>();
    std::vector<T> lu(n * n), rhs(n * k);
    std::vector<int> ipiv(n);
    std::size_t factored = count; // the matrix of a whose LU `lu` holds (none yet)
    bool lu_finite = true;
    for (std::size_t i = 0; i < count; ++i) {
        const T* ai = a.data() + ia[i] * n * n;
        const T* bi = b.data() + ib[i] * n * k;
        T* xi = x + i * n * k;
        if (ia[i] != factored) {
            factored = ia[i];
            lu_finite = all_finite(ai, n * n);
            if (lu_finite) {
                // The row-major A is the column-major A^T: factor that, solve with its transpose.
                std::copy(ai, ai + n * n, lu.begin());
                if (lp::lu(n, n, lu.data(), n, ipiv.data()) > 0)
                    fail("solve", "Singular matrix", batch_of(*ra.shape), ia[i]);
            }
        }
        if (!lu_finite || !all_finite(bi, n * k)) {
            fill_nan(xi, n * k);
            continue;
        }
        to_column_major(bi, n, k, rhs.data(), n);
        lp::lu_solve('T', n, k, lu.data(), n, ipiv.data(), rhs.data(), n);
        to_row_major(rhs.data(), n, n, k, xi);
    }
}

// ---- inv, det, slogdet -------------------------------------------------------------------------

template <class T> void inv_t(const array_ref& ra, const array_ref& rout) {
    using lp = lapack::routines<T>;
    const std::size_t n = rows_of(*ra.shape);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0 || n == 0) return;
    if (batched::applies(*rout.q, rout.type, n, n, count) && c_contiguous(rout)) {
        const std::size_t bad = batched::solve(ra, nullptr, rout, count, n, n);
        if (bad < count) fail("inv", "Singular matrix", batch, bad);
        return;
    }
    const host_input<T> a(ra);
    mapped_result out(rout);
    std::vector<int> ipiv(n);
    for (std::size_t i = 0; i < count; ++i) {
        T* m = out.as<T>() + i * n * n;
        std::copy(a.data() + i * n * n, a.data() + (i + 1) * n * n, m);
        if (!all_finite(m, n * n)) {
            fill_nan(m, n * n);
            continue;
        }
        // inv(A^T) = inv(A)^T: inverting the column-major A^T in place leaves inv(A) row-major.
        if (lp::lu(n, n, m, n, ipiv.data()) > 0) fail("inv", "Singular matrix", batch, i);
        if (lp::lu_inverse(n, m, n, ipiv.data()) > 0) fail("inv", "Singular matrix", batch, i);
    }
}

template <class T>
void det_t(const array_ref& ra, const array_ref* rdet, const array_ref* rsign,
           const array_ref* rlog) {
    using R = real_of_t<T>;
    using lp = lapack::routines<T>;
    const std::size_t n = rows_of(*ra.shape);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0) return;
    const host_input<T> a(ra);
    // One map per wanted result.
    std::optional<mapped_result> det, sign, logabs;
    if (rdet) det.emplace(*rdet);
    if (rsign) sign.emplace(*rsign);
    if (rlog) logabs.emplace(*rlog);
    std::vector<T> lu(n * n);
    std::vector<int> ipiv(n);
    for (std::size_t i = 0; i < count; ++i) {
        T d_value(1), s_value(1);
        R log_value(0);
        std::copy(a.data() + i * n * n, a.data() + (i + 1) * n * n, lu.begin());
        if (!all_finite(lu.data(), n * n)) {
            d_value = s_value = nan_value<T>();
            log_value = nan_value<R>();
        } else if (n) {
            // det(A^T) = det(A): the LU of the column-major A^T serves.
            // A positive info (an exactly zero pivot) is no error here: the product below is 0.
            lp::lu(n, n, lu.data(), n, ipiv.data());
            bool odd = false;
            for (std::size_t j = 0; j < n; ++j) {
                const T u = lu[j + j * n];
                odd ^= ipiv[j] != static_cast<int>(j + 1);
                d_value *= u;
                const R magnitude = std::abs(u);
                if (magnitude == R(0)) {
                    s_value = T(0);
                    log_value = -std::numeric_limits<R>::infinity();
                } else if (s_value != T(0)) {
                    s_value *= u / magnitude;
                    log_value += std::log(magnitude);
                }
            }
            if (odd) d_value = -d_value, s_value = -s_value;
        }
        if (det) det->as<T>()[i] = d_value;
        if (sign) sign->as<T>()[i] = s_value;
        if (logabs) logabs->as<R>()[i] = log_value;
    }
}

// ---- cholesky ----------------------------------------------------------------------------------

template <class T> void cholesky_t(const array_ref& ra, bool upper, const array_ref& rout) {
    using lp = lapack::routines<T>;
    const std::size_t n = rows_of(*ra.shape);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0 || n == 0) return;
    const host_input<T> a(ra);
    mapped_result out(rout);
    for (std::size_t i = 0; i < count; ++i) {
        T* m = out.as<T>() + i * n * n;
        std::copy(a.data() + i * n * n, a.data() + (i + 1) * n * n, m);
        if (!all_finite(m, n * n)) {
            fill_nan(m, n * n);
            continue;
        }
        // The column-major view is A^T = conj(A): its upper triangle is A's lower one, and its
        // factor U' (U'^H U' = conj(A)) read row-major is L = U'^T with L L^H = A. Likewise 'L'
        // gives A's upper factor.
        const char uplo = upper ? 'L' : 'U';
        if (lp::cholesky(uplo, n, m, n) > 0)
            fail("cholesky", "Matrix is not positive definite", batch, i);
        for (std::size_t r = 0; r < n; ++r) // zero the row-major triangle not computed
            for (std::size_t c = 0; c < n; ++c)
                if (upper ? c < r : c > r) m[r * n + c] = T(0);
    }
}

// ---- qr ----------------------------------------------------------------------------------------

template <class T>
void qr_t(const array_ref& ra, qr_mode mode, const array_ref* rq, const array_ref& rr) {
    using lp = lapack::routines<T>;
    const std::size_t m = rows_of(*ra.shape), n = cols_of(*ra.shape), k = std::min(m, n);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0) return;
    const bool complete = mode == qr_mode::complete;
    const std::size_t q_cols = complete ? m : k, r_rows = complete ? m : k;
    const host_input<T> a(ra);
    std::optional<mapped_result> q;
    if (rq) q.emplace(*rq);
    mapped_result r(rr);
    const std::size_t ld = at_least_one(m);
    std::vector<T> work(ld * std::max(n, q_cols)), tau(at_least_one(k));
    for (std::size_t i = 0; i < count; ++i) {
        const T* ai = a.data() + i * m * n;
        T* qi = q ? q->as<T>() + i * m * q_cols : nullptr;
        T* ri = r.as<T>() + i * r_rows * n;
        if (!all_finite(ai, m * n)) {
            fill_nan(ri, r_rows * n);
            if (qi) fill_nan(qi, m * q_cols);
            continue;
        }
        std::fill(work.begin(), work.end(), T(0));
        to_column_major(ai, m, n, work.data(), ld);
        if (k) lp::qr(m, n, work.data(), ld, tau.data());
        for (std::size_t row = 0; row < r_rows; ++row)
            for (std::size_t c = 0; c < n; ++c)
                ri[row * n + c] = c >= row && row < k ? work[row + c * ld] : T(0);
        if (!qi || m == 0 || q_cols == 0) continue;
        // Q's extra columns (complete, m > n) come from the reflectors applied to unit vectors:
        // orgqr/ungqr sets them up itself from any starting values.
        lp::qr_q(m, q_cols, k, work.data(), ld, tau.data());
        to_row_major(work.data(), ld, m, q_cols, qi);
    }
}

// ---- svd ---------------------------------------------------------------------------------------

template <class T> void set_identity(T* p, std::size_t n) {
    std::fill(p, p + n * n, T(0));
    for (std::size_t j = 0; j < n; ++j)
        p[j * n + j] = T(1);
}

template <class T>
void svd_t(const char* function, const array_ref& ra, bool full, const array_ref* ru,
           const array_ref& rs, const array_ref* rvh) {
    using R = real_of_t<T>;
    using lp = lapack::routines<T>;
    const std::size_t m = rows_of(*ra.shape), n = cols_of(*ra.shape), k = std::min(m, n);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0) return;
    const bool vectors = ru != nullptr;
    const std::size_t u_cols = full ? m : k, vh_rows = full ? n : k;
    const char jobz = !vectors ? 'N' : full ? 'A' : 'S';
    const host_input<T> a(ra);
    std::optional<mapped_result> u, vh;
    if (vectors) u.emplace(*ru), vh.emplace(*rvh);
    mapped_result s(rs);
    const std::size_t ld = at_least_one(m), ldvt = at_least_one(vh_rows);
    std::vector<T> work(ld * n), uw(vectors ? ld * u_cols : 0), vw(vectors ? ldvt * n : 0);
    for (std::size_t i = 0; i < count; ++i) {
        const T* ai = a.data() + i * m * n;
        R* si = s.as<R>() + i * k;
        T* ui = vectors ? u->as<T>() + i * m * u_cols : nullptr;
        T* vi = vectors ? vh->as<T>() + i * vh_rows * n : nullptr;
        if (k == 0) { // no singular values; the full bases are identities
            if (vectors && full) set_identity(ui, m), set_identity(vi, n);
            continue;
        }
        if (!all_finite(ai, m * n)) {
            fill_nan(si, k);
            if (vectors) fill_nan(ui, m * u_cols), fill_nan(vi, vh_rows * n);
            continue;
        }
        to_column_major(ai, m, n, work.data(), ld);
        if (lp::svd(jobz, m, n, work.data(), ld, si, vectors ? uw.data() : nullptr, ld,
                    vectors ? vw.data() : nullptr, ldvt) > 0)
            fail(function, "SVD did not converge", batch, i);
        if (!vectors) continue;
        to_row_major(uw.data(), ld, m, u_cols, ui);
        to_row_major(vw.data(), ldvt, vh_rows, n, vi);
    }
}

// ---- eigh --------------------------------------------------------------------------------------

template <class T>
void eigh_t(const char* function, const array_ref& ra, char uplo, const array_ref& rw,
            const array_ref* rv) {
    using R = real_of_t<T>;
    using lp = lapack::routines<T>;
    const std::size_t n = rows_of(*ra.shape);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0 || n == 0) return;
    const host_input<T> a(ra);
    std::optional<mapped_result> v;
    if (rv) v.emplace(*rv);
    mapped_result w(rw);
    std::vector<T> work(n * n);
    // The column-major view of the row-major A is A^T = conj(A) (Hermitian): its eigenvalues
    // are A's, its eigenvectors the conjugates of A's, and A's triangle `uplo` is its other one.
    const char lapack_uplo = uplo == 'U' ? 'L' : 'U';
    for (std::size_t i = 0; i < count; ++i) {
        const T* ai = a.data() + i * n * n;
        R* wi = w.as<R>() + i * n;
        T* vi = rv ? v->as<T>() + i * n * n : nullptr;
        if (!all_finite(ai, n * n)) {
            fill_nan(wi, n);
            if (vi) fill_nan(vi, n * n);
            continue;
        }
        std::copy(ai, ai + n * n, work.begin());
        if (lp::eigh(vi ? 'V' : 'N', lapack_uplo, n, work.data(), n, wi) > 0)
            fail(function, "Eigenvalues did not converge", batch, i);
        if (!vi) continue;
        for (std::size_t r = 0; r < n; ++r) // vi(r, c) = conj(work(r, c)), work column-major
            for (std::size_t c = 0; c < n; ++c)
                vi[r * n + c] = conj_of(work[r + c * n]);
    }
}

// ---- lstsq and pinv ----------------------------------------------------------------------------

template <class T>
void lstsq_t(const array_ref& ra, const array_ref& rb, std::optional<double> rcond,
             const array_ref& rx, const array_ref& rs, const array_ref& rrank,
             function_ref<array_ref(const shape_type&)> make_residuals) {
    using R = real_of_t<T>;
    using lp = lapack::routines<T>;
    const bool vector = rb.shape->size() == 1;
    const std::size_t m = rows_of(*ra.shape), n = cols_of(*ra.shape), mn = std::min(m, n);
    const std::size_t k = vector ? 1 : cols_of(*rb.shape);
    const shape_type batch = batch_of(*rx.shape, vector ? 1 : 2);
    const std::size_t count = checked_size(batch);
    const R cutoff = rcond ? static_cast<R>(*rcond) : default_tolerance<R>(m, n);
    std::vector<R> residuals(count * k, R(0));
    bool residuals_defined = m > n;
    if (count) {
        const host_input<T> a(ra), b(rb);
        const std::vector<std::size_t> ia = broadcast_matrix_index(batch_of(*ra.shape), batch),
                                       ib = vector ? std::vector<std::size_t>(count, 0)
                                                   : broadcast_matrix_index(batch_of(*rb.shape),
                                                                            batch);
        mapped_result x(rx), s(rs), rank(rrank);
        const std::size_t lda = at_least_one(m), ldb = at_least_one(std::max(m, n));
        std::vector<T> aw(lda * n), bw(ldb * k);
        for (std::size_t i = 0; i < count; ++i) {
            const T* ai = a.data() + ia[i] * m * n;
            const T* bi = b.data() + ib[i] * m * k;
            T* xi = x.as<T>() + i * n * k;
            R* si = s.as<R>() + i * mn;
            std::size_t found = 0;
            if (!all_finite(ai, m * n) || !all_finite(bi, m * k)) {
                fill_nan(xi, n * k);
                fill_nan(si, mn);
                fill_nan(residuals.data() + i * k, k);
                rank.as<std::int64_t>()[i] = 0;
                residuals_defined = residuals_defined && n == 0;
                continue;
            }
            std::fill(bw.begin(), bw.end(), T(0));
            to_column_major(bi, m, k, bw.data(), ldb);
            // An empty a (m or n 0) leaves x = 0 and rank 0: bw holds b (n == 0) or zeros.
            if (mn) {
                to_column_major(ai, m, n, aw.data(), lda);
                if (lp::lstsq(m, n, k, aw.data(), lda, bw.data(), ldb, si, cutoff, found) > 0)
                    fail("lstsq", "SVD did not converge", batch_of(*ra.shape), ia[i]);
            }
            rank.as<std::int64_t>()[i] = static_cast<std::int64_t>(found);
            if (found != n) residuals_defined = false;
            to_row_major(bw.data(), ldb, n, k, xi);
            if (m > n) // gelsd leaves the residual's components in rows n..m-1 (full rank)
                for (std::size_t c = 0; c < k; ++c) {
                    R sum(0);
                    for (std::size_t row = n; row < m; ++row)
                        sum += std::norm(std::complex<R>(bw[row + c * ldb]));
                    residuals[i * k + c] = sum;
                }
        }
    }
    shape_type shape = batch;
    shape.push_back(residuals_defined ? k : 0);
    const array_ref out = make_residuals(shape);
    if (!residuals_defined || residuals.empty()) return;
    mapped_result r(out);
    std::copy(residuals.begin(), residuals.end(), r.as<R>());
}

template <class T>
void pinv_t(const array_ref& ra, std::optional<double> rtol, const array_ref& rout) {
    using R = real_of_t<T>;
    using lp = lapack::routines<T>;
    const std::size_t m = rows_of(*ra.shape), n = cols_of(*ra.shape);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0 || m == 0 || n == 0) return;
    const R cutoff = rtol ? static_cast<R>(*rtol) : default_tolerance<R>(m, n);
    const host_input<T> a(ra);
    mapped_result out(rout);
    const std::size_t ldb = std::max(m, n);
    std::vector<T> aw(m * n), bw(ldb * m);
    std::vector<R> s(std::min(m, n));
    for (std::size_t i = 0; i < count; ++i) {
        const T* ai = a.data() + i * m * n;
        T* pi = out.as<T>() + i * n * m;
        if (!all_finite(ai, m * n)) {
            fill_nan(pi, n * m);
            continue;
        }
        // pinv(A) is the minimum-norm least-squares solution of A X = I (m x m).
        to_column_major(ai, m, n, aw.data(), m);
        std::fill(bw.begin(), bw.end(), T(0));
        for (std::size_t j = 0; j < m; ++j)
            bw[j + j * ldb] = T(1);
        std::size_t rank = 0;
        if (lp::lstsq(m, n, m, aw.data(), m, bw.data(), ldb, s.data(), cutoff, rank) > 0)
            fail("pinv", "SVD did not converge", batch, i);
        to_row_major(bw.data(), ldb, n, m, pi);
    }
}

// ---- singular-value based: matrix_rank, norms, cond
// -----------------------------------------------

// The singular values (descending) of matrix i of the row-major stack, NaN for non-finite input.
template <class T> struct singular_values {
    using R = real_of_t<T>;
    std::size_t m, n;
    std::vector<T> work;
    std::vector<R> s;
    singular_values(std::size_t m_, std::size_t n_)
        : m(m_), n(n_), work(at_least_one(m_) * n_), s(std::min(m_, n_)) {}
    const std::vector<R>& of(const char* function, const T* matrix, const shape_type& batch,
                             std::size_t i) {
        if (s.empty()) return s;
        if (!all_finite(matrix, m * n)) {
            fill_nan(s.data(), s.size());
            return s;
        }
        to_column_major(matrix, m, n, work.data(), at_least_one(m));
        if (lapack::routines<T>::svd('N', m, n, work.data(), at_least_one(m), s.data(), nullptr, 1,
                                     nullptr, 1) > 0)
            fail(function, "SVD did not converge", batch, i);
        return s;
    }
};

template <class T>
void matrix_rank_t(const array_ref& ra, std::optional<double> tol, std::optional<double> rtol,
                   const array_ref& rout) {
    using R = real_of_t<T>;
    const std::size_t m = rows_of(*ra.shape), n = cols_of(*ra.shape);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0) return;
    const host_input<T> a(ra);
    mapped_result out(rout);
    singular_values<T> sv(m, n);
    const R relative = rtol ? static_cast<R>(*rtol) : default_tolerance<R>(m, n);
    for (std::size_t i = 0; i < count; ++i) {
        const std::vector<R>& s = sv.of("matrix_rank", a.data() + i * m * n, batch, i);
        const R limit = tol ? static_cast<R>(*tol) : s.empty() ? R(0) : s.front() * relative;
        out.as<std::int64_t>()[i] = static_cast<std::int64_t>(
            std::count_if(s.begin(), s.end(), [&](R v) { return v > limit; }));
    }
}

// The norm `ord` of the row-major m x n matrix p; `sv` for the singular values.
template <class T>
real_of_t<T> norm_of(const char* function, norm_ord ord, const T* p, std::size_t m, std::size_t n,
                     singular_values<T>& sv, const shape_type& batch, std::size_t i) {
    using R = real_of_t<T>;
    const auto line_sums = [&](bool columns) { // sums of |a| along columns (1) or rows (inf)
        std::vector<R> sums(columns ? n : m, R(0));
        for (std::size_t r = 0; r < m; ++r)
            for (std::size_t c = 0; c < n; ++c)
                sums[columns ? c : r] += std::abs(p[r * n + c]);
        return sums;
    };
    switch (ord) {
    case norm_ord::fro: {
        R sum(0);
        for (std::size_t j = 0; j < m * n; ++j)
            sum += std::norm(std::complex<R>(p[j]));
        return std::sqrt(sum);
    }
    case norm_ord::nuc: {
        const std::vector<R>& s = sv.of(function, p, batch, i);
        R sum(0);
        for (R v : s)
            sum += v;
        return sum;
    }
    case norm_ord::two:
    case norm_ord::minus_two: {
        const std::vector<R>& s = sv.of(function, p, batch, i);
        return ord == norm_ord::two ? s.front() : s.back();
    }
    case norm_ord::one:
    case norm_ord::minus_one:
    case norm_ord::inf:
    case norm_ord::minus_inf:
        break;
    }
    const std::vector<R> sums = line_sums(ord == norm_ord::one || ord == norm_ord::minus_one);
    if (!all_finite(p, m * n)) return nan_value<R>();
    return ord == norm_ord::one || ord == norm_ord::inf
               ? *std::max_element(sums.begin(), sums.end())
               : *std::min_element(sums.begin(), sums.end());
}

const char* ord_name(norm_ord ord) {
    switch (ord) {
    case norm_ord::fro:
        return "fro";
    case norm_ord::nuc:
        return "nuc";
    case norm_ord::one:
        return "1";
    case norm_ord::minus_one:
        return "-1";
    case norm_ord::two:
        return "2";
    case norm_ord::minus_two:
        return "-2";
    case norm_ord::inf:
        return "inf";
    case norm_ord::minus_inf:
        break;
    }
    return "-inf";
}

template <class T>
void matrix_norm_t(const char* function, const array_ref& ra, norm_ord ord, const array_ref& rout) {
    using R = real_of_t<T>;
    const std::size_t m = rows_of(*ra.shape), n = cols_of(*ra.shape);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0) return;
    if ((m == 0 || n == 0) && ord != norm_ord::fro && ord != norm_ord::nuc)
        throw shape_error(std::string(function) + ": the norm of order " + ord_name(ord) +
                          " of an empty matrix (shape " + shape_to_string(*ra.shape) +
                          ") is not defined");
    const host_input<T> a(ra);
    mapped_result out(rout);
    singular_values<T> sv(m, n);
    for (std::size_t i = 0; i < count; ++i)
        out.as<R>()[i] = norm_of(function, ord, a.data() + i * m * n, m, n, sv, batch, i);
}

template <class T>
void cond_t(const array_ref& ra, std::optional<norm_ord> ord, const array_ref& rout) {
    using R = real_of_t<T>;
    using lp = lapack::routines<T>;
    const std::size_t m = rows_of(*ra.shape), n = cols_of(*ra.shape);
    const shape_type batch = batch_of(*ra.shape);
    const std::size_t count = checked_size(batch);
    if (count == 0) return;
    if (m == 0 || n == 0)
        throw shape_error("cond: the condition number of an empty matrix (shape " +
                          shape_to_string(*ra.shape) + ") is not defined");
    const host_input<T> a(ra);
    mapped_result out(rout);
    singular_values<T> sv(m, n);
    const norm_ord p = ord ? *ord : norm_ord::two;
    std::vector<T> inverse(n * n);
    std::vector<int> ipiv(n);
    for (std::size_t i = 0; i < count; ++i) {
        const T* ai = a.data() + i * m * n;
        R& result = out.as<R>()[i];
        if (p == norm_ord::two || p == norm_ord::minus_two) {
            const std::vector<R>& s = sv.of("cond", ai, batch, i);
            result = p == norm_ord::two ? s.front() / s.back() : s.back() / s.front();
            continue;
        }
        if (!all_finite(ai, n * n)) {
            result = nan_value<R>();
            continue;
        }
        // norm(A) * norm(inv(A)); inv(A) row-major is the inverse of the column-major A^T.
        std::copy(ai, ai + n * n, inverse.begin());
        if (lp::lu(n, n, inverse.data(), n, ipiv.data()) > 0 ||
            lp::lu_inverse(n, inverse.data(), n, ipiv.data()) > 0) {
            result = std::numeric_limits<R>::infinity(); // NumPy: a singular matrix has cond inf
            continue;
        }
        result = norm_of("cond", p, ai, n, n, sv, batch, i) *
                 norm_of("cond", p, inverse.data(), n, n, sv, batch, i);
    }
}

} // namespace

// ---- the entry points --------------------------------------------------------------------------

shape_type matrix_batch(const char* function, const array_ref& a, bool square) {
    if (!a.q) throw usage_error(std::string(function) + ": unbound (default-constructed) array");
    const shape_type& s = *a.shape;
    if (s.size() < 2)
        throw shape_error(std::string(function) +
                          ": expected a stack of matrices (..., m, n), got " + "shape " +
                          shape_to_string(s));
    if (square && rows_of(s) != cols_of(s))
        throw shape_error(std::string(function) + ": expected square matrices, got shape " +
                          shape_to_string(s) + " (last two axes must be equal)");
    return batch_of(s);
}

shape_type solution_shape(const char* function, const array_ref& a, const array_ref& b,
                          bool square) {
    const shape_type batch_a = matrix_batch(function, a, square);
    if (!b.q) throw usage_error(std::string(function) + ": unbound (default-constructed) b");
    if (a.q->context() != b.q->context())
        throw usage_error(std::string(function) + ": operands from two contexts");
    const shape_type& sa = *a.shape;
    const shape_type& sb = *b.shape;
    const auto mismatch = [&](const std::string& why) {
        return shape_error(std::string(function) + ": shapes " + shape_to_string(sa) + " and " +
                           shape_to_string(sb) + " " + why);
    };
    if (sb.empty()) throw mismatch("do not fit (b is 0-d)");
    const std::size_t m = rows_of(sa), n = cols_of(sa);
    if (sb.size() == 1) { // NumPy 2: a vector only when b is 1-d
        if (sb[0] != m)
            throw mismatch("do not fit: b has " + std::to_string(sb[0]) + " elements, a " +
                           std::to_string(m) + " rows");
        shape_type x = batch_a;
        x.push_back(n);
        return x;
    }
    if (rows_of(sb) != m)
        throw mismatch("do not fit: b has " + std::to_string(rows_of(sb)) + " rows, a " +
                       std::to_string(m) +
                       " (b is a stack of (..., m, k) right-hand sides "
                       "unless it is 1-d)");
    shape_type x;
    try {
        x = broadcast_shapes(batch_a, batch_of(sb));
    } catch (const shape_error&) {
        throw mismatch("have batch axes that do not broadcast");
    }
    x.push_back(n);
    x.push_back(cols_of(sb));
    return x;
}

void lapack_solve(const array_ref& a, const array_ref& b, const array_ref& x) {
    if (b.type != a.type) throw dtype_error("solve: a and b have different dtypes");
    with_dtype("solve", a.type, [&](auto t) { solve_t<decltype(t)>(a, b, x); });
}
void lapack_inv(const array_ref& a, const array_ref& out) {
    with_dtype("inv", a.type, [&](auto t) { inv_t<decltype(t)>(a, out); });
}
void lapack_det(const char* function, const array_ref& a, const array_ref* det,
                const array_ref* sign, const array_ref* logabsdet) {
    with_dtype(function, a.type, [&](auto t) { det_t<decltype(t)>(a, det, sign, logabsdet); });
}
void lapack_cholesky(const array_ref& a, bool upper, const array_ref& out) {
    with_dtype("cholesky", a.type, [&](auto t) { cholesky_t<decltype(t)>(a, upper, out); });
}
void lapack_qr(const array_ref& a, linalg::qr_mode mode, const array_ref* q, const array_ref& r) {
    with_dtype("qr", a.type, [&](auto t) { qr_t<decltype(t)>(a, mode, q, r); });
}
void lapack_svd(const char* function, const array_ref& a, bool full_matrices, const array_ref* u,
                const array_ref& s, const array_ref* vh) {
    with_dtype(function, a.type,
               [&](auto t) { svd_t<decltype(t)>(function, a, full_matrices, u, s, vh); });
}
void lapack_eigh(const char* function, const array_ref& a, char uplo, const array_ref& w,
                 const array_ref* v) {
    if (uplo != 'L' && uplo != 'U')
        throw usage_error(std::string(function) + ": uplo must be 'L' or 'U', got '" +
                          std::string(1, uplo) + "'");
    with_dtype(function, a.type, [&](auto t) { eigh_t<decltype(t)>(function, a, uplo, w, v); });
}
void lapack_lstsq(const array_ref& a, const array_ref& b, std::optional<double> rcond,
                  const array_ref& x, const array_ref& s, const array_ref& rank,
                  function_ref<array_ref(const shape_type&)> make_residuals) {
    if (b.type != a.type) throw dtype_error("lstsq: a and b have different dtypes");
    with_dtype("lstsq", a.type,
               [&](auto t) { lstsq_t<decltype(t)>(a, b, rcond, x, s, rank, make_residuals); });
}
void lapack_pinv(const array_ref& a, std::optional<double> rtol, const array_ref& out) {
    with_dtype("pinv", a.type, [&](auto t) { pinv_t<decltype(t)>(a, rtol, out); });
}
void lapack_matrix_rank(const array_ref& a, std::optional<double> tol, std::optional<double> rtol,
                        const array_ref& out) {
    if (tol && rtol)
        throw usage_error("matrix_rank: give tol or rtol, not both (NumPy 2 refuses both)");
    with_dtype("matrix_rank", a.type,
               [&](auto t) { matrix_rank_t<decltype(t)>(a, tol, rtol, out); });
}
void lapack_matrix_norm(const char* function, const array_ref& a, linalg::norm_ord ord,
                        const array_ref& out) {
    with_dtype(function, a.type,
               [&](auto t) { matrix_norm_t<decltype(t)>(function, a, ord, out); });
}
void lapack_cond(const array_ref& a, std::optional<linalg::norm_ord> ord, const array_ref& out) {
    with_dtype("cond", a.type, [&](auto t) { cond_t<decltype(t)>(a, ord, out); });
}

std::size_t cross_axis(const shape_type& shape, const shape_type& other, std::ptrdiff_t axis) {
    const auto rank = static_cast<std::ptrdiff_t>(std::max(shape.size(), other.size()));
    const auto fail_with = [&](const std::string& why) {
        return shape_error("cross: shapes " + shape_to_string(shape) + " and " +
                           shape_to_string(other) + ", axis " + std::to_string(axis) + ": " + why);
    };
    if (axis < -rank || axis >= rank) throw fail_with("the axis is out of range");
    const std::ptrdiff_t from_end = rank - (axis < 0 ? axis + rank : axis); // 1: the last axis
    const auto own = static_cast<std::ptrdiff_t>(shape.size());
    if (from_end > own || shape[static_cast<std::size_t>(own - from_end)] != 3)
        throw fail_with("both operands need 3 elements along the axis");
    return static_cast<std::size_t>(own - from_end);
}

std::vector<std::vector<std::size_t>> matrix_chain_order(const std::vector<std::size_t>& dims) {
    const std::size_t n = dims.size() - 1;
    std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0.0));
    std::vector<std::vector<std::size_t>> split(n, std::vector<std::size_t>(n, 0));
    for (std::size_t length = 1; length < n; ++length)
        for (std::size_t i = 0; i + length < n; ++i) {
            const std::size_t j = i + length;
            cost[i][j] = std::numeric_limits<double>::infinity();
            for (std::size_t k = i; k < j; ++k) {
                const double c = cost[i][k] + cost[k + 1][j] +
                                 static_cast<double>(dims[i]) * static_cast<double>(dims[k + 1]) *
                                     static_cast<double>(dims[j + 1]);
                if (c < cost[i][j]) cost[i][j] = c, split[i][j] = k;
            }
        }
    return split;
}

} // namespace clarray::detail
