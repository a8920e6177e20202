// linalg's decompositions and solvers (LAPACK on the host) against host references written here:
// residuals of solutions, orthogonality and reconstruction of factors, a Gaussian elimination for
// determinants, eigen-equations, and the error reports.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using cd = std::complex<double>;
using shape_t = std::vector<std::size_t>;
namespace la = ca::linalg;

template <class T> cd to_cd(const T& v) {
    if constexpr (ca::is_complex_v<T>)
        return cd(static_cast<double>(v.real()), static_cast<double>(v.imag()));
    else if constexpr (std::is_same_v<T, ca::half>)
        return cd(static_cast<double>(static_cast<float>(v)), 0.0);
    else
        return cd(static_cast<double>(v), 0.0);
}
template <class T> T from_cd(const cd& v) {
    if constexpr (ca::is_complex_v<T>)
        return T(static_cast<typename T::value_type>(v.real()),
                 static_cast<typename T::value_type>(v.imag()));
    else if constexpr (std::is_same_v<T, ca::half>)
        return T(static_cast<float>(v.real()));
    else
        return static_cast<T>(v.real());
}

// The elements of a (any view) in C order as complex doubles.
template <class A> std::vector<cd> host(const A& a) {
    std::vector<cd> out;
    if (a.size() == 0) return out;
    const auto h = a.get();
    for (const auto& v : h)
        out.push_back(to_cd(v));
    return out;
}

template <class T> double eps() {
    return std::numeric_limits<ca::real_of_t<T>>::epsilon();
}

// Random values in [-1, 1) (both parts for complex types).
template <class T> xt::xarray<T> random_stack(const shape_t& shape, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    xt::xarray<T> h = xt::xarray<T>::from_shape(shape);
    for (auto& v : h) {
        const double re = u(rng);
        v = from_cd<T>(cd(re, ca::is_complex_v<T> ? u(rng) : 0.0));
    }
    return h;
}
template <class T, class S = ca::buffer> ca::cl_array<T, S> dev(const xt::xarray<T>& h) {
    return ca::to_device<S>(test::q(), h);
}

// Row-major dense matrices of complex doubles for the references.
struct mat {
    std::size_t rows = 0, cols = 0;
    std::vector<cd> v;
    cd& operator()(std::size_t i, std::size_t j) { return v[i * cols + j]; }
    cd operator()(std::size_t i, std::size_t j) const { return v[i * cols + j]; }
};
// Matrix `index` of a C-ordered stack of r x c matrices.
mat take(const std::vector<cd>& stack, std::size_t index, std::size_t r, std::size_t c) {
    mat m{r, c,
          std::vector<cd>(stack.begin() + index * r * c, stack.begin() + (index + 1) * r * c)};
    return m;
}
mat mul(const mat& a, const mat& b) {
    REQUIRE(a.cols == b.rows);
    mat c{a.rows, b.cols, std::vector<cd>(a.rows * b.cols)};
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t k = 0; k < a.cols; ++k)
            for (std::size_t j = 0; j < b.cols; ++j)
                c(i, j) += a(i, k) * b(k, j);
    return c;
}
mat adjoint(const mat& a) {
    mat t{a.cols, a.rows, std::vector<cd>(a.v.size())};
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t j = 0; j < a.cols; ++j)
            t(j, i) = std::conj(a(i, j));
    return t;
}
mat identity(std::size_t n) {
    mat m{n, n, std::vector<cd>(n * n)};
    for (std::size_t i = 0; i < n; ++i)
        m(i, i) = 1.0;
    return m;
}
mat minus(const mat& a, const mat& b) {
    REQUIRE(a.rows == b.rows);
    REQUIRE(a.cols == b.cols);
    mat c = a;
    for (std::size_t i = 0; i < c.v.size(); ++i)
        c.v[i] -= b.v[i];
    return c;
}
double fro(const mat& a) {
    double s = 0;
    for (const cd& x : a.v)
        s += std::norm(x);
    return std::sqrt(s);
}
// Determinant by Gaussian elimination with partial pivoting.
cd host_det(mat a) {
    const std::size_t n = a.rows;
    cd d = 1.0;
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t p = k;
        for (std::size_t i = k + 1; i < n; ++i)
            if (std::abs(a(i, k)) > std::abs(a(p, k))) p = i;
        if (a(p, k) == 0.0) return 0.0;
        if (p != k) {
            for (std::size_t j = 0; j < n; ++j)
                std::swap(a(p, j), a(k, j));
            d = -d;
        }
        d *= a(k, k);
        for (std::size_t i = k + 1; i < n; ++i) {
            const cd f = a(i, k) / a(k, k);
            for (std::size_t j = k; j < n; ++j)
                a(i, j) -= f * a(k, j);
        }
    }
    return d;
}

// The message of the clarray::error f throws ("no error" when none).
std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ca::error& e) {
        return e.what();
    }
    return "no error";
}
bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

template <class A> shape_t shape_of(const A& a) {
    return shape_t(a.shape().begin(), a.shape().end());
}

// || a x - b || / (||a|| ||x|| + ||b||) per matrix of a stack solved with broadcasting.
double relative_residual(const mat& a, const mat& x, const mat& b) {
    return fro(minus(mul(a, x), b)) / (fro(a) * fro(x) + fro(b) + 1e-300);
}

// A Hermitian positive definite n x n matrix: B B^H + n I.
template <class T> xt::xarray<T> hpd_stack(std::size_t count, std::size_t n, unsigned seed) {
    const xt::xarray<T> b = random_stack<T>({count, n, n}, seed);
    xt::xarray<T> out = xt::xarray<T>::from_shape({count, n, n});
    for (std::size_t s = 0; s < count; ++s) {
        mat m{n, n, std::vector<cd>(n * n)};
        for (std::size_t i = 0; i < n * n; ++i)
            m.v[i] = to_cd(b.flat(s * n * n + i));
        mat h = mul(m, adjoint(m));
        for (std::size_t i = 0; i < n; ++i)
            h(i, i) += double(n);
        for (std::size_t i = 0; i < n * n; ++i)
            out.flat(s * n * n + i) = from_cd<T>(h.v[i]);
    }
    return out;
}

using lapack_types = std::tuple<test::cfg<float, ca::buffer>, test::cfg<double, ca::svm_coarse>,
                                test::cfg<std::complex<float>, ca::svm_fine>,
                                test::cfg<std::complex<double>, ca::buffer>>;

} // namespace

// Stacks of small systems: on GPUs solve and inv of n <= 32 (and k <= 32 right-hand sides) run
// in device kernels of clarray's own, one work-group per matrix, elsewhere on LAPACK; the
// ctest entry batched_linalg_on_this_device runs this case with CLARRAY_PLAN_AS_GPU=1, which
// takes the kernels on pocl. Either way the same residuals, errors and NaN propagation.
using batched_types = std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<double, ca::buffer>,
                                 test::cfg<float, ca::buffer>>;
TEMPLATE_LIST_TEST_CASE("linalg: stacks of small systems (solve, inv)", "[linalg][batched]",
                        batched_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    if (!CLARRAY_TEST_LAPACKE && test::ctx().device().is_cpu()) {
        WARN("skipped: no LAPACKE, and the device kernels serve GPUs only");
        return;
    }
    const double tol = 400 * eps<T>();
    // (past 32 the host path, which needs LAPACKE)
    const std::size_t most = CLARRAY_TEST_LAPACKE ? 40 : 32;
    for (std::size_t n : {1ul, 2ul, 7ul, 16ul, 32ul, 33ul}) {
        if (n > most) continue;
        INFO("n " << n);
        const auto a = dev<T, S>(random_stack<T>({5, n, n}, unsigned(n)));
        const std::vector<cd> ha = host(a);
        for (std::size_t k : {1ul, 3ul, 32ul, 40ul}) {
            if (k > most) continue;
            INFO("k " << k);
            const auto b = dev<T, S>(random_stack<T>({5, n, k}, unsigned(n + k)));
            const auto x = la::solve(a, b);
            REQUIRE(shape_of(x) == shape_t{5, n, k});
            const std::vector<cd> hb = host(b), hx = host(x);
            for (std::size_t i = 0; i < 5; ++i)
                CHECK(relative_residual(take(ha, i, n, n), take(hx, i, n, k), take(hb, i, n, k)) <
                      tol);
        }
        // a vector for every matrix; one (n, 2) right-hand side for every matrix; a (5, 1, n, n)
        // against b (2, n, 2): batch (5, 2) (a broadcast: the host path, where LAPACKE is)
        const auto v = dev<T, S>(random_stack<T>({n}, 7));
        const std::vector<cd> hv = host(v), hxv = host(la::solve(a, v));
        const auto b2 = dev<T, S>(random_stack<T>({2, n, 2}, 8));
        const auto b1 = b2.reshape({2 * n, 2})(ca::range(0, n), ca::all()); // b2's first matrix
        const std::vector<cd> hb2 = host(b2), hx5 = host(la::solve(a, b1));
        const std::vector<cd> hx10 = CLARRAY_TEST_LAPACKE
                                         ? host(la::solve(a.reshape({5, 1, n, n}), b2))
                                         : std::vector<cd>(5 * 2 * n * 2);
        const auto ai = la::inv(a);
        REQUIRE(shape_of(ai) == shape_t{5, n, n});
        const std::vector<cd> hi = host(ai);
        for (std::size_t i = 0; i < 5; ++i) {
            const mat m = take(ha, i, n, n);
            CHECK(relative_residual(m, take(hxv, i, n, 1), take(hv, 0, n, 1)) < tol);
            CHECK(relative_residual(m, take(hx5, i, n, 2), take(hb2, 0, n, 2)) < tol);
            for (std::size_t j = 0; CLARRAY_TEST_LAPACKE && j < 2; ++j)
                CHECK(relative_residual(m, take(hx10, i * 2 + j, n, 2), take(hb2, j, n, 2)) < tol);
            CHECK(relative_residual(m, take(hi, i, n, n), identity(n)) < tol);
        }
    }
    // Errors name the first singular matrix by its index in a's batch; NaN stays in its matrix.
    xt::xarray<T> h = random_stack<T>({2, 1, 3, 3}, 9);
    for (std::size_t j = 0; j < 3; ++j)
        h(1, 0, 1, j) = T(0);
    const auto sing = dev<T, S>(h);
    const auto b = dev<T, S>(random_stack<T>({2, 1, 3, 1}, 10));
    CHECK_THROWS_AS(la::solve(sing, b), ca::linalg_error);
    CHECK(contains(message_of([&] { la::solve(sing, b); }),
                   "solve: Singular matrix at stack index [1, 0] (batch shape (2, 1))"));
    if (CLARRAY_TEST_LAPACKE) { // a broadcast over b's (3): batch (2, 3)
        const auto b3 = dev<T, S>(random_stack<T>({3, 3, 1}, 13));
        CHECK(contains(message_of([&] { la::solve(sing, b3); }),
                       "solve: Singular matrix at stack index [1, 0] (batch shape (2, 1))"));
    }
    CHECK(contains(message_of([&] { la::inv(sing); }),
                   "inv: Singular matrix at stack index [1, 0] (batch shape (2, 1))"));
    xt::xarray<T> hn = random_stack<T>({2, 3, 3}, 11);
    hn(0, 1, 1) = std::numeric_limits<T>::quiet_NaN();
    const auto x = la::solve(dev<T, S>(hn), dev<T, S>(random_stack<T>({3}, 12))).get();
    const auto xi = la::inv(dev<T, S>(hn)).get();
    for (std::size_t r = 0; r < 3; ++r) {
        CHECK(std::isnan(x(0, r)));
        CHECK(std::isfinite(x(1, r)));
        CHECK(std::isnan(xi(0, r, 0)));
        CHECK(std::isfinite(xi(1, r, 0)));
    }
}

// The functions on LAPACK run where the library was built with LAPACKE (CLARRAY_TEST_LAPACKE,
// from the build); without it one case checks that they say what is missing.
#if CLARRAY_TEST_LAPACKE
TEMPLATE_LIST_TEST_CASE("linalg: solve, inv, det and slogdet", "[linalg][lapack]", lapack_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const double tol = 200 * eps<T>();
    const std::size_t n = 5;
    const auto a = dev<T, S>(random_stack<T>({2, n, n}, 1));
    const std::vector<cd> ha = host(a);

    SECTION("stacked right-hand sides, a vector, and broadcast batch axes") {
        const auto b = dev<T, S>(random_stack<T>({2, n, 3}, 2));
        const auto x = la::solve(a, b);
        CHECK(shape_of(x) == shape_t{2, n, 3});
        const std::vector<cd> hb = host(b), hx = host(x);
        for (std::size_t i = 0; i < 2; ++i)
            CHECK(relative_residual(take(ha, i, n, n), take(hx, i, n, 3), take(hb, i, n, 3)) < tol);

        const auto v = dev<T, S>(random_stack<T>({n}, 3));
        const auto xv = la::solve(a, v); // b 1-d: one vector for every matrix
        CHECK(shape_of(xv) == shape_t{2, n});
        const std::vector<cd> hv = host(v), hxv = host(xv);
        for (std::size_t i = 0; i < 2; ++i)
            CHECK(relative_residual(take(ha, i, n, n), take(hxv, i, n, 1), take(hv, 0, n, 1)) <
                  tol);

        // a (2, 1, n, n) with b (3, n, 2): batch (2, 3).
        const auto a4 = a.reshape({2, 1, n, n});
        const auto b3 = dev<T, S>(random_stack<T>({3, n, 2}, 4));
        const auto x6 = la::solve(a4, b3);
        REQUIRE(shape_of(x6) == shape_t{2, 3, n, 2});
        const std::vector<cd> hb3 = host(b3), hx6 = host(x6);
        for (std::size_t i = 0; i < 2; ++i)
            for (std::size_t j = 0; j < 3; ++j)
                CHECK(relative_residual(take(ha, i, n, n), take(hx6, i * 3 + j, n, 2),
                                        take(hb3, j, n, 2)) < tol);
    }
    SECTION("inv, det, slogdet") {
        const auto ai = la::inv(a);
        const std::vector<cd> hi = host(ai);
        const auto d = la::det(a);
        const auto [sign, logabsdet] = la::slogdet(a);
        REQUIRE(shape_of(d) == shape_t{2});
        const std::vector<cd> hd = host(d), hs = host(sign), hl = host(logabsdet);
        for (std::size_t i = 0; i < 2; ++i) {
            const mat m = take(ha, i, n, n);
            CHECK(fro(minus(mul(m, take(hi, i, n, n)), identity(n))) < tol * fro(m) * 10);
            const cd ref = host_det(m);
            CHECK(std::abs(hd[i] - ref) < tol * std::abs(ref) * 10);
            CHECK(std::abs(hs[i] * std::exp(hl[i].real()) - ref) < tol * std::abs(ref) * 10);
            CHECK(std::abs(std::abs(hs[i]) - 1.0) < tol);
        }
    }
    SECTION("0 x 0 and 1 x 1 matrices") {
        const auto e = ca::zeros<T, S>(test::q(), {0, 0});
        CHECK(to_cd(la::det(e).item()) == cd(1.0));
        CHECK(la::inv(e).size() == 0);
        CHECK(shape_of(la::solve(e, ca::zeros<T, S>(test::q(), {0}))) == shape_t{0});
        const auto one = dev<T, S>(random_stack<T>({1, 1}, 5));
        const cd v = host(one)[0];
        CHECK(std::abs(to_cd(la::det(one).item()) - v) <= tol * std::abs(v));
        CHECK(std::abs(host(la::inv(one))[0] * v - 1.0) <= tol);
        const auto none = ca::zeros<T, S>(test::q(), {0, 3, 3}); // a stack of no matrices
        CHECK(shape_of(la::inv(none)) == shape_t{0, 3, 3});
        CHECK(shape_of(la::det(none)) == shape_t{0});
    }
}

TEMPLATE_LIST_TEST_CASE("linalg: cholesky, qr, svd, eigh", "[linalg][lapack]", lapack_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const double tol = 300 * eps<T>();

    SECTION("cholesky lower and upper") {
        const std::size_t n = 6;
        const auto a = dev<T, S>(hpd_stack<T>(2, n, 7));
        const std::vector<cd> ha = host(a);
        const auto l = la::cholesky(a), u = la::cholesky(a, true);
        const std::vector<cd> hl = host(l), hu = host(u);
        for (std::size_t i = 0; i < 2; ++i) {
            const mat m = take(ha, i, n, n), L = take(hl, i, n, n), U = take(hu, i, n, n);
            CHECK(fro(minus(mul(L, adjoint(L)), m)) < tol * fro(m));
            CHECK(fro(minus(mul(adjoint(U), U), m)) < tol * fro(m));
            for (std::size_t r = 0; r < n; ++r)
                for (std::size_t c = r + 1; c < n; ++c) {
                    CHECK(L(r, c) == 0.0);
                    CHECK(U(c, r) == 0.0);
                }
        }
    }
    SECTION("qr: reduced, complete and r, tall and wide") {
        for (const shape_t& shape : {shape_t{2, 6, 4}, shape_t{4, 6}}) {
            const std::size_t m = shape[shape.size() - 2], n = shape.back(), k = std::min(m, n);
            const std::size_t count = shape.size() == 3 ? shape[0] : 1;
            const auto a = dev<T, S>(random_stack<T>(shape, 8));
            const std::vector<cd> ha = host(a);
            for (auto mode : {la::qr_mode::reduced, la::qr_mode::complete}) {
                const auto [Q, R] = la::qr(a, mode);
                const std::size_t qc = mode == la::qr_mode::complete ? m : k;
                REQUIRE(Q.shape()[Q.dimension() - 1] == qc);
                const std::vector<cd> hq = host(Q), hr = host(R);
                for (std::size_t i = 0; i < count; ++i) {
                    const mat A = take(ha, i, m, n), q = take(hq, i, m, qc), r = take(hr, i, qc, n);
                    CHECK(fro(minus(mul(adjoint(q), q), identity(qc))) < tol);
                    CHECK(fro(minus(mul(q, r), A)) < tol * fro(A));
                    for (std::size_t row = 0; row < qc; ++row)
                        for (std::size_t c = 0; c < std::min(row, n); ++c)
                            CHECK(r(row, c) == 0.0);
                }
                if (mode == la::qr_mode::reduced) {
                    const auto only_r = la::qr(a, la::qr_mode::r);
                    CHECK_FALSE(only_r.Q.bound());
                    CHECK(host(only_r.R) == hr);
                }
            }
        }
    }
    SECTION("svd and svdvals") {
        for (const shape_t& shape : {shape_t{3, 5, 4}, shape_t{3, 7}}) {
            const std::size_t m = shape[shape.size() - 2], n = shape.back(), k = std::min(m, n);
            const std::size_t count = shape.size() == 3 ? shape[0] : 1;
            const auto a = dev<T, S>(random_stack<T>(shape, 9));
            const std::vector<cd> ha = host(a);
            for (bool full : {true, false}) {
                const auto [U, Sv, Vh] = la::svd(a, full);
                const std::size_t uc = full ? m : k, vr = full ? n : k;
                const std::vector<cd> hu = host(U), hs = host(Sv), hv = host(Vh);
                for (std::size_t i = 0; i < count; ++i) {
                    const mat A = take(ha, i, m, n), u = take(hu, i, m, uc),
                              vh = take(hv, i, vr, n);
                    mat sigma{uc, vr, std::vector<cd>(uc * vr)};
                    for (std::size_t j = 0; j < k; ++j) {
                        sigma(j, j) = hs[i * k + j];
                        if (j) CHECK(hs[i * k + j].real() <= hs[i * k + j - 1].real());
                    }
                    CHECK(fro(minus(mul(adjoint(u), u), identity(uc))) < tol);
                    CHECK(fro(minus(mul(vh, adjoint(vh)), identity(vr))) < tol);
                    CHECK(fro(minus(mul(mul(u, sigma), vh), A)) < tol * fro(A));
                }
                const std::vector<cd> values = host(la::svdvals(a));
                REQUIRE(values.size() == hs.size());
                for (std::size_t j = 0; j < values.size(); ++j)
                    CHECK(std::abs(values[j] - hs[j]) < tol * std::abs(hs[0]));
            }
        }
    }
    SECTION("eigh of Hermitian matrices, lower and upper triangle") {
        const std::size_t n = 5;
        xt::xarray<T> h = random_stack<T>({2, n, n}, 10);
        for (std::size_t s = 0; s < 2; ++s) // Hermitian: the lower triangle mirrors the upper
            for (std::size_t r = 0; r < n; ++r) {
                h(s, r, r) = from_cd<T>(cd(to_cd(h(s, r, r)).real(), 0.0));
                for (std::size_t c = 0; c < r; ++c)
                    h(s, r, c) = from_cd<T>(std::conj(to_cd(h(s, c, r))));
            }
        const auto a = dev<T, S>(h);
        const std::vector<cd> ha = host(a);
        for (char uplo : {'L', 'U'}) {
            // The triangle not read holds garbage: the result must not depend on it.
            xt::xarray<T> partial = h;
            for (std::size_t s = 0; s < 2; ++s)
                for (std::size_t r = 0; r < n; ++r)
                    for (std::size_t c = 0; c < n; ++c)
                        if (uplo == 'L' ? c > r : c < r) partial(s, r, c) = from_cd<T>(cd(99, 7));
            const auto [w, V] = la::eigh(dev<T, S>(partial), uplo);
            const std::vector<cd> hw = host(w), hv = host(V);
            for (std::size_t i = 0; i < 2; ++i) {
                const mat A = take(ha, i, n, n), v = take(hv, i, n, n);
                mat lambda{n, n, std::vector<cd>(n * n)};
                for (std::size_t j = 0; j < n; ++j) {
                    lambda(j, j) = hw[i * n + j];
                    CHECK(hw[i * n + j].imag() == 0.0);
                    if (j) CHECK(hw[i * n + j].real() >= hw[i * n + j - 1].real());
                }
                CHECK(fro(minus(mul(A, v), mul(v, lambda))) < tol * fro(A));
                CHECK(fro(minus(mul(adjoint(v), v), identity(n))) < tol);
            }
            const std::vector<cd> values = host(la::eigvalsh(dev<T, S>(partial), uplo));
            for (std::size_t j = 0; j < values.size(); ++j)
                CHECK(std::abs(values[j] - hw[j]) < tol * 10);
        }
    }
}

TEMPLATE_LIST_TEST_CASE("linalg: lstsq, pinv, matrix_rank, cond, matrix_norm", "[linalg][lapack]",
                        lapack_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const double tol = 300 * eps<T>();
    const std::size_t m = 7, n = 4;

    SECTION("full-rank overdetermined: normal equations and NumPy's residuals") {
        const auto a = dev<T, S>(random_stack<T>({2, m, n}, 11));
        const auto b = dev<T, S>(random_stack<T>({2, m, 3}, 12));
        const auto [x, residuals, rank, s] = la::lstsq(a, b);
        REQUIRE(shape_of(x) == shape_t{2, n, 3});
        REQUIRE(shape_of(residuals) == shape_t{2, 3});
        REQUIRE(shape_of(s) == shape_t{2, n});
        const std::vector<cd> ha = host(a), hb = host(b), hx = host(x), hr = host(residuals);
        const std::vector<cd> hs = host(s), hsv = host(la::svdvals(a));
        for (std::size_t i = 0; i < 2; ++i) {
            CHECK(rank.get()(i) == static_cast<std::int64_t>(n));
            const mat A = take(ha, i, m, n),
                      r = minus(mul(A, take(hx, i, n, 3)), take(hb, i, m, 3));
            CHECK(fro(mul(adjoint(A), r)) < tol * fro(A) * fro(take(hb, i, m, 3)));
            for (std::size_t c = 0; c < 3; ++c) {
                double ss = 0;
                for (std::size_t row = 0; row < m; ++row)
                    ss += std::norm(r(row, c));
                CHECK(std::abs(hr[i * 3 + c].real() - ss) < tol * 10 * (1 + ss));
            }
            for (std::size_t j = 0; j < n; ++j)
                CHECK(std::abs(hs[i * n + j] - hsv[i * n + j]) < tol * std::abs(hsv[i * n]));
        }
        const auto xv = la::lstsq(a, dev<T, S>(random_stack<T>({m}, 13)));
        CHECK(shape_of(xv.x) == shape_t{2, n});
        CHECK(shape_of(xv.residuals) == shape_t{2, 1});
    }
    SECTION("rank-deficient: rank, empty residuals, minimum norm, pinv, matrix_rank") {
        // (m x 2) (2 x n): rank 2.
        const std::vector<cd> left = host(dev<T, S>(random_stack<T>({m, 2}, 14))),
                              right = host(dev<T, S>(random_stack<T>({2, n}, 15)));
        const mat A = mul(mat{m, 2, left}, mat{2, n, right});
        xt::xarray<T> ha = xt::xarray<T>::from_shape({m, n});
        for (std::size_t i = 0; i < m * n; ++i)
            ha.flat(i) = from_cd<T>(A.v[i]);
        const auto a = dev<T, S>(ha);
        const mat Ad = take(host(a), 0, m, n);
        const auto b = dev<T, S>(random_stack<T>({m, 2}, 16));
        const auto r = la::lstsq(a, b);
        CHECK(r.rank.item() == 2);
        CHECK(shape_of(r.residuals) == shape_t{0});
        const mat x = take(host(r.x), 0, n, 2), hb = take(host(b), 0, m, 2);
        const mat res = minus(mul(Ad, x), hb);
        CHECK(fro(mul(adjoint(Ad), res)) < tol * 10 * fro(Ad) * fro(hb));
        // Minimum norm: x lies in the row space of A, i.e. x = A^H y: (I - pinv(A) A) x = 0.
        const auto p = la::pinv(a);
        REQUIRE(shape_of(p) == shape_t{n, m});
        const mat P = take(host(p), 0, n, m);
        CHECK(fro(minus(mul(mul(Ad, P), Ad), Ad)) < tol * 10 * fro(Ad));
        CHECK(fro(minus(mul(mul(P, Ad), P), P)) < tol * 10 * fro(P));
        CHECK(fro(minus(x, mul(mul(P, Ad), x))) < tol * 10 * fro(x));
        CHECK(la::matrix_rank(a).item() == 2);
        CHECK(la::matrix_rank(a, 0.0).item() >= 2); // tol 0: rounding leaves tiny values
        const auto full = dev<T, S>(random_stack<T>({3, m, n}, 17));
        const auto ranks = la::matrix_rank(full).get();
        for (std::size_t i = 0; i < 3; ++i)
            CHECK(ranks(i) == static_cast<std::int64_t>(n));
    }
    SECTION("matrix_norm and cond against host computations") {
        const std::size_t k = 5;
        xt::xarray<T> hd = xt::zeros<T>({k, k}); // diagonal: the singular values are |d_i|
        const xt::xarray<T> d = random_stack<T>({k}, 18);
        for (std::size_t i = 0; i < k; ++i)
            hd(i, i) = d(i);
        std::vector<double> mags;
        for (std::size_t i = 0; i < k; ++i)
            mags.push_back(std::abs(to_cd(d(i))));
        const double big = *std::max_element(mags.begin(), mags.end()),
                     small = *std::min_element(mags.begin(), mags.end());
        double sum = 0;
        for (double v : mags)
            sum += v;
        const auto diag = dev<T, S>(hd);
        const auto norm = [&](const auto& arr, la::norm_ord o) {
            return to_cd(la::matrix_norm(arr, o).item()).real();
        };
        CHECK(std::abs(norm(diag, la::norm_ord::two) - big) < tol * big);
        CHECK(std::abs(norm(diag, la::norm_ord::minus_two) - small) < tol * big);
        CHECK(std::abs(norm(diag, la::norm_ord::nuc) - sum) < tol * sum);
        CHECK(std::abs(to_cd(la::cond(diag).item()).real() - big / small) < tol * big / small);

        const auto a = dev<T, S>(random_stack<T>({2, 4, 3}, 19));
        const std::vector<cd> ha = host(a);
        const std::vector<cd> fro_n = host(la::matrix_norm(a)),
                              one = host(la::matrix_norm(a, la::norm_ord::one)),
                              minus_inf = host(la::matrix_norm(a, la::norm_ord::minus_inf));
        for (std::size_t i = 0; i < 2; ++i) {
            const mat A = take(ha, i, 4, 3);
            double col_max = 0, row_min = 1e300;
            for (std::size_t c = 0; c < 3; ++c) {
                double s = 0;
                for (std::size_t r = 0; r < 4; ++r)
                    s += std::abs(A(r, c));
                col_max = std::max(col_max, s);
            }
            for (std::size_t r = 0; r < 4; ++r) {
                double s = 0;
                for (std::size_t c = 0; c < 3; ++c)
                    s += std::abs(A(r, c));
                row_min = std::min(row_min, s);
            }
            CHECK(std::abs(fro_n[i].real() - fro(A)) < tol * fro(A));
            CHECK(std::abs(one[i].real() - col_max) < tol * col_max);
            CHECK(std::abs(minus_inf[i].real() - row_min) < tol * row_min);
        }
        // cond in the Frobenius norm: ||A|| ||inv(A)|| with the host inverse check by residual.
        const auto sq = dev<T, S>(random_stack<T>({4, 4}, 20));
        const mat A = take(host(sq), 0, 4, 4), Ai = take(host(la::inv(sq)), 0, 4, 4);
        const double c = to_cd(la::cond(sq, la::norm_ord::fro).item()).real();
        CHECK(std::abs(c - fro(A) * fro(Ai)) < tol * 10 * c);
        CHECK(std::isinf(
            to_cd(la::cond(ca::zeros<T, S>(test::q(), {3, 3}), la::norm_ord::fro).item()).real()));
    }
}

TEMPLATE_LIST_TEST_CASE("linalg: decompositions of views on every storage policy",
                        "[linalg][lapack]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    using T = float;
    const double tol = 300 * eps<T>();
    const std::size_t n = 5;
    const xt::xarray<T> values = hpd_stack<T>(1, n, 21);
    const xt::xarray<T> flat = xt::view(values, 0, xt::all(), xt::all());
    // The matrix as an array and as views: transposed, every second element, reversed rows
    // (negative stride) and an offset window.
    auto big = ca::zeros<T, S>(test::q(), {2 * n + 1, 2 * n + 1});
    auto strided = big(ca::range(1, 2 * n + 1, 2), ca::range(1, 2 * n + 1, 2));
    strided.set(flat);
    auto rev_storage = ca::zeros<T, S>(test::q(), {n, n});
    auto reversed =
        rev_storage(ca::range(static_cast<std::ptrdiff_t>(n) - 1, ca::none, -1), ca::all());
    reversed.set(flat);
    xt::xarray<T> t = xt::transpose(flat);
    const auto transposed = dev<T, S>(t).transpose();
    auto window_storage = ca::zeros<T, S>(test::q(), {n + 2, n + 3});
    auto window = window_storage(ca::range(2, n + 2), ca::range(1, n + 1));
    window.set(flat);
    const mat A = take(std::vector<cd>(flat.begin(), flat.end()), 0, n, n);
    const auto b = dev<T, S>(random_stack<T>({n, 2}, 22));
    const mat B = take(host(b), 0, n, 2);
    for (const auto& view : {dev<T, S>(flat), strided, reversed, transposed, window}) {
        REQUIRE(host(view) == A.v);
        const mat X = take(host(la::solve(view, b)), 0, n, 2);
        CHECK(relative_residual(A, X, B) < tol);
        const mat L = take(host(la::cholesky(view)), 0, n, n);
        CHECK(fro(minus(mul(L, adjoint(L)), A)) < tol * fro(A));
        const auto [U, Sv, Vh] = la::svd(view);
        const std::vector<cd> s = host(Sv);
        mat sigma{n, n, std::vector<cd>(n * n)};
        for (std::size_t j = 0; j < n; ++j)
            sigma(j, j) = s[j];
        CHECK(fro(minus(mul(mul(take(host(U), 0, n, n), sigma), take(host(Vh), 0, n, n)), A)) <
              tol * fro(A));
        CHECK(host(view) == A.v); // the input is never written
        // a and b one array (two read maps of one allocation): x = I.
        const mat I = take(host(la::solve(view, view)), 0, n, n);
        CHECK(fro(minus(I, identity(n))) < tol * 100);
        const auto x = la::solve(view, b);
        CHECK(x.strides() == ca::contiguous_strides(x.shape(), ca::layout::c));
        CHECK(x.get_queue().get() == view.get_queue().get());
    }
}

TEST_CASE("linalg: ill-conditioned Hilbert matrices solve backward-stably", "[linalg][lapack]") {
    if (!test::dtype_available<double>()) return;
    const std::size_t n = 10;
    xt::xarray<double> h = xt::xarray<double>::from_shape({n, n});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            h(i, j) = 1.0 / double(i + j + 1);
    const auto a = dev<double>(h);
    const auto b = dev<double>(random_stack<double>({n, 1}, 23));
    const mat A = take(host(a), 0, n, n), B = take(host(b), 0, n, 1);
    const mat X = take(host(la::solve(a, b)), 0, n, 1);
    CHECK(relative_residual(A, X, B) < 100 * eps<double>());
    // Hilbert(10)'s condition number is about 1.6e13: cond sees it, det is tiny but positive.
    const double c = la::cond(a).item();
    CHECK(c > 1e12);
    CHECK(c < 1e15);
    CHECK(la::det(a).item() > 0.0);
    CHECK(la::matrix_rank(a).item() == static_cast<std::int64_t>(n));
}

TEST_CASE("linalg: decomposition errors name the function, shapes and stack index",
          "[linalg][lapack][errors]") {
    auto& q = test::q();
    xt::xarray<float> h = random_stack<float>({3, 3, 3}, 24);
    for (std::size_t j = 0; j < 3; ++j) // matrix 1: a zero row, exactly singular
        h(1, 2, j) = 0.0f;
    const auto a = dev<float>(h);
    const auto b = dev<float>(random_stack<float>({3, 3, 1}, 25));
    std::string m = message_of([&] { la::solve(a, b); });
    CHECK_THROWS_AS(la::solve(a, b), ca::linalg_error);
    CHECK(contains(m, "solve"));
    CHECK(contains(m, "Singular matrix"));
    CHECK(contains(m, "[1]"));
    m = message_of([&] { la::inv(a); });
    CHECK(contains(m, "inv: Singular matrix at stack index [1]"));
    CHECK(la::det(a).get()(1) == 0.0f); // det of a singular matrix is 0, no error
    CHECK(std::isinf(la::slogdet(a).logabsdet.get()(1)));

    xt::xarray<double> spd = hpd_stack<double>(4, 3, 26);
    spd(3, 1, 1) = -50.0; // matrix [1, 1] of the (2, 2) stack is indefinite
    const auto s = dev<double>(spd).reshape({2, 2, 3, 3});
    CHECK_THROWS_AS(la::cholesky(s), ca::linalg_error);
    m = message_of([&] { la::cholesky(s); });
    CHECK(contains(m, "cholesky: Matrix is not positive definite at stack index [1, 1]"));

    const auto rect = ca::zeros<float, ca::buffer>(q, {3, 4});
    m = message_of([&] { la::inv(rect); });
    CHECK_THROWS_AS(la::inv(rect), ca::shape_error);
    CHECK(contains(m, "(3, 4)"));
    CHECK_THROWS_AS(la::det(rect), ca::shape_error);
    CHECK_THROWS_AS(la::eigh(rect), ca::shape_error);
    CHECK_THROWS_AS(la::cholesky(ca::zeros<float, ca::buffer>(q, {4})), ca::shape_error);
    const auto sq = dev<float>(random_stack<float>({3, 3}, 27));
    m = message_of([&] { la::solve(sq, ca::zeros<float, ca::buffer>(q, {4, 2})); });
    CHECK(contains(m, "(3, 3)"));
    CHECK(contains(m, "(4, 2)"));
    CHECK_THROWS_AS(la::solve(sq, ca::zeros<float, ca::buffer>(q, {4})), ca::shape_error);
    CHECK_THROWS_AS(la::solve(ca::zeros<float, ca::buffer>(q, {2, 3, 3}),
                              ca::zeros<float, ca::buffer>(q, {3, 3, 1})),
                    ca::shape_error); // batch 2 vs 3
    CHECK_THROWS_AS(la::lstsq(rect, ca::zeros<float, ca::buffer>(q, {4})), ca::shape_error);
    CHECK_THROWS_AS(la::eigh(sq, 'X'), ca::usage_error);
    CHECK_THROWS_AS(la::matrix_rank(sq, 1e-3, 1e-3), ca::usage_error);
    CHECK_THROWS_AS(la::inv(ca::cl_array<float, ca::buffer>()), ca::usage_error);
}

TEST_CASE("linalg: NaN and infinity propagate to their matrix only", "[linalg][lapack]") {
    xt::xarray<float> h = random_stack<float>({2, 3, 3}, 28);
    h(0, 1, 1) = std::numeric_limits<float>::quiet_NaN();
    h(1, 0, 0) += 4.0f;
    const auto a = dev<float>(h);
    const auto x = la::solve(a, dev<float>(random_stack<float>({2, 3, 1}, 29))).get();
    const auto w = la::svdvals(a).get();
    for (std::size_t r = 0; r < 3; ++r) {
        CHECK(std::isnan(x(0, r, 0)));
        CHECK(std::isfinite(x(1, r, 0)));
        CHECK(std::isnan(w(0, r)));
        CHECK(std::isfinite(w(1, r)));
    }
    CHECK(std::isnan(la::det(a).get()(0)));
    h(0, 1, 1) = std::numeric_limits<float>::infinity();
    CHECK(std::isnan(la::inv(dev<float>(h)).get()(0, 0, 0)));
}

TEST_CASE("linalg: empty shapes of the decompositions", "[linalg][lapack]") {
    auto& q = test::q();
    const auto wide = ca::zeros<float, ca::buffer>(q, {0, 3});
    const auto [Q, R] = la::qr(wide, la::qr_mode::complete);
    CHECK(shape_of(Q) == shape_t{0, 0});
    CHECK(shape_of(R) == shape_t{0, 3});
    const auto tall = ca::zeros<float, ca::buffer>(q, {3, 0});
    const auto [U, Sv, Vh] = la::svd(tall);
    CHECK(shape_of(U) == shape_t{3, 3});
    CHECK(shape_of(Sv) == shape_t{0});
    CHECK(shape_of(Vh) == shape_t{0, 0});
    const std::vector<cd> hu = host(U);
    CHECK(fro(minus(take(hu, 0, 3, 3), identity(3))) == 0.0);
    const auto qr_tall = la::qr(tall, la::qr_mode::complete);
    CHECK(fro(minus(take(host(qr_tall.Q), 0, 3, 3), identity(3))) == 0.0);
    const auto [w, V] = la::eigh(ca::zeros<float, ca::buffer>(q, {0, 0}));
    CHECK(w.size() == 0);
    CHECK(V.size() == 0);
    const auto ls = la::lstsq(tall, dev<float>(random_stack<float>({3}, 30)));
    CHECK(shape_of(ls.x) == shape_t{0});
    CHECK(ls.rank.item() == 0);
    const std::vector<cd> b = host(dev<float>(random_stack<float>({3}, 30)));
    double bb = 0;
    for (const cd& v : b)
        bb += std::norm(v);
    REQUIRE(shape_of(ls.residuals) == shape_t{1}); // m > n = rank = 0: ||b||^2
    CHECK(std::abs(ls.residuals.get()(0) - bb) < 1e-5 * bb);
}

TEST_CASE("linalg: matrix_power, multi_dot and trace", "[linalg][lapack]") {
    using T = float;
    const double tol = 1e-4;
    const std::size_t n = 4;
    const auto a = dev<T>(random_stack<T>({2, n, n}, 31));
    const std::vector<cd> ha = host(a);
    for (long long p : {0LL, 1LL, 3LL, 6LL, -2LL}) {
        const std::vector<cd> hp = host(la::matrix_power(a, p));
        for (std::size_t i = 0; i < 2; ++i) {
            mat base = take(ha, i, n, n);
            if (p < 0) base = take(host(la::inv(a)), i, n, n);
            mat ref = identity(n);
            for (long long k = 0; k < (p < 0 ? -p : p); ++k)
                ref = mul(ref, base);
            CHECK(fro(minus(take(hp, i, n, n), ref)) < tol * (1 + fro(ref)));
        }
    }
    CHECK(host(a) == ha); // the operand is never written
    // Expression operands are evaluated first.
    const std::vector<cd> twice = host(la::det(a * 2.0f)), once = host(la::det(a));
    for (std::size_t i = 0; i < 2; ++i)
        CHECK(std::abs(twice[i] - 16.0 * once[i]) < tol * (1 + std::abs(16.0 * once[i])));
    const auto bx = dev<T>(random_stack<T>({n}, 39));
    const mat xs = take(host(la::solve(a + 0.0f, bx * 1.0f)), 0, n, 1);
    CHECK(relative_residual(take(ha, 0, n, n), xs, take(host(bx), 0, n, 1)) < tol);
    const auto v0 = dev<T>(random_stack<T>({3}, 32)), v3 = dev<T>(random_stack<T>({6}, 35));
    const auto m1 = dev<T>(random_stack<T>({3, 8}, 33)), m2 = dev<T>(random_stack<T>({8, 6}, 34));
    const auto chain = la::multi_dot<T, ca::buffer>({v0, m1, m2, v3});
    CHECK(chain.dimension() == 0);
    const mat ref = mul(mul(mul(mat{1, 3, host(v0)}, mat{3, 8, host(m1)}), mat{8, 6, host(m2)}),
                        mat{6, 1, host(v3)});
    CHECK(std::abs(to_cd(chain.item()) - ref.v[0]) < tol * (1 + std::abs(ref.v[0])) * 10);
    const auto mm = la::multi_dot<T, ca::buffer>({m1, m2, dev<T>(random_stack<T>({6, 2}, 36))});
    CHECK(shape_of(mm) == shape_t{3, 2});
    const std::vector<ca::cl_array<T, ca::buffer>> unfit{m1, m1};
    CHECK_THROWS_AS(la::multi_dot(unfit), ca::shape_error);

    const auto r = dev<T>(random_stack<T>({2, 3, 5}, 37));
    const std::vector<cd> hr = host(r);
    for (std::ptrdiff_t offset : {0, 2, -1, 5, -3}) {
        const auto tr = la::trace(r, offset);
        REQUIRE(shape_of(tr) == shape_t{2});
        const std::vector<cd> ht = host(tr);
        for (std::size_t i = 0; i < 2; ++i) {
            cd s = 0.0;
            for (std::size_t row = 0; row < 3; ++row) {
                const std::ptrdiff_t col = static_cast<std::ptrdiff_t>(row) + offset;
                if (col >= 0 && col < 5) s += hr[i * 15 + row * 5 + static_cast<std::size_t>(col)];
            }
            CHECK(std::abs(ht[i] - s) < tol * 10);
        }
    }
}

TEST_CASE("linalg: cross products along an axis, broadcast", "[linalg][lapack]") {
    using T = double;
    if (!test::dtype_available<T>()) return;
    const auto u = dev<T>(random_stack<T>({4, 3}, 40)), v = dev<T>(random_stack<T>({3}, 41));
    const std::vector<cd> hu = host(u), hv = host(v);
    const auto check = [](const cd* p, const cd* q, std::size_t step, const cd* r, std::size_t rs) {
        for (std::size_t i = 0; i < 3; ++i) {
            const std::size_t j = (i + 1) % 3, k = (i + 2) % 3;
            const cd want = p[j * step] * q[k * step] - p[k * step] * q[j * step];
            CHECK(std::abs(r[i * rs] - want) < 1e-12);
        }
    };
    const auto w = la::cross(u, v);
    REQUIRE(shape_of(w) == shape_t{4, 3});
    const std::vector<cd> hw = host(w);
    for (std::size_t r = 0; r < 4; ++r) {
        check(&hu[r * 3], &hv[0], 1, &hw[r * 3], 1);
    }
    // Vectors along axis 0 (columns of a 3 x 5 view, transposed storage).
    const auto p = dev<T>(random_stack<T>({5, 3}, 42)).transpose();
    const auto q = dev<T>(random_stack<T>({3, 5}, 43));
    const auto c = la::cross(p, q, 0);
    REQUIRE(shape_of(c) == shape_t{3, 5});
    const std::vector<cd> hp = host(p), hq = host(q), hc = host(c);
    for (std::size_t col = 0; col < 5; ++col)
        check(&hp[col], &hq[col], 5, &hc[col], 5);
    CHECK_THROWS_AS(la::cross(dev<T>(random_stack<T>({4, 2}, 44)), v), ca::shape_error);
    CHECK_THROWS_AS(la::cross(u, v, 2), ca::shape_error);
}

TEST_CASE("linalg: float16 decompositions compute in float32", "[linalg][lapack][half]") {
    const std::size_t n = 4;
    const xt::xarray<float> hf = hpd_stack<float>(1, n, 38);
    xt::xarray<ca::half> hh = xt::xarray<ca::half>::from_shape({1, n, n});
    for (std::size_t i = 0; i < hf.size(); ++i)
        hh.flat(i) = ca::half(hf.flat(i));
    const auto a = dev<ca::half>(hh);
    const mat A = take(host(a), 0, n, n);
    const mat X = take(host(la::solve(a, la::cholesky(a))), 0, n, n);
    const mat L = take(host(la::cholesky(a)), 0, n, n);
    CHECK(fro(minus(mul(A, X), L)) < 1e-2 * fro(L));
    // trace and matrix_power of half arrays: products in float32.
    double diagonal_sum = 0;
    for (std::size_t i = 0; i < n; ++i)
        diagonal_sum += A(i, i).real();
    CHECK(std::abs(to_cd(la::trace(a).get()(0)).real() - diagonal_sum) < 1e-2 * diagonal_sum);
    const mat A2 = take(host(la::matrix_power(a, 2)), 0, n, n);
    CHECK(fro(minus(A2, mul(A, A))) < 1e-2 * fro(mul(A, A)));
    const auto w = la::eigvalsh(a);
    CHECK(std::is_same_v<decltype(w), const ca::cl_array<ca::half, ca::buffer>>);
}

#else // the library has no LAPACKE: the functions that need it say so

TEST_CASE("linalg: without LAPACKE the decompositions throw unsupported naming it", "[linalg]") {
    const xt::xarray<double> h = {{2.0, 1.0}, {1.0, 3.0}};
    const auto a = ca::to_device<ca::buffer>(test::q(), h);
    try {
        (void)la::cholesky(a);
        FAIL("cholesky ran without LAPACKE");
    } catch (const ca::unsupported& e) {
        CHECK(std::string(e.what()).find("liblapacke-dev") != std::string::npos);
    }
    // (a 33 x 33 system: smaller ones run in device kernels on GPUs, without LAPACK)
    const auto big = ca::to_device<ca::buffer>(test::q(), xt::xarray<double>(xt::eye<double>(33)));
    CHECK_THROWS_AS(la::solve(big, big), ca::unsupported);
    // trace and matrix_power need no LAPACK.
    CHECK(la::trace(a).item() == 5.0);
}
#endif
