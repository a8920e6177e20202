#pragma once
// The sampling members of clarray::random::generator (declared in generator.hpp, which includes
// this header at its end): permutation, shuffle, choice and multivariate_normal. They compose
// the generator's draws with the library's sort (argsort of random keys), gather (take), scan
// and search (searchsorted) and Cholesky factorization, so they live apart from the draws.
//
//   auto i = gen.permutation(q, 10);                 // int64, a random order of 0..9
//   gen.shuffle(a, 1);                               // a's columns in a random order, in place
//   auto c = gen.choice(q, 5, {3}, false);           // 3 distinct indices of 0..4
//   auto w = gen.choice(q, 3, {100}, true, {0.5, 0.25, 0.25});
//   auto x = gen.multivariate_normal(mean, cov, {1000}); // (1000, k)
//
// Each value is still a function of (seed, stream, position): a permutation of n sorts n uint64
// keys drawn at n positions of the key sequence (docs/random.md gives each method).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/array/copy.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/indexing/indexing.hpp"
#include "clarray/linalg/decompositions.hpp"
#include "clarray/linalg/linalg.hpp"
#include "clarray/random/generator.hpp"
#include "clarray/sort/sort.hpp"

namespace clarray::random {

namespace detail {
// choice's checks of p (usage_error naming p: its length, NaN or negative entries, a sum off 1
// by more than NumPy's sqrt(eps), fewer non-zero entries than m without replacement) and, for
// replace, the cumulative distribution: cdf[i] = min(1, (p[0] + ... + p[i]) / sum), 1 from the
// last non-zero entry on, so that searchsorted(cdf, u, right) for u in [0, 1) never returns an
// entry of probability 0. Empty without replacement. (src/random/sampling.cpp)
std::vector<double> choice_cdf(std::size_t n, const std::vector<double>& p, bool replace,
                               std::size_t m);
// usage_error unless m values can be chosen from n (n > 0 when m > 0; m <= n without
// replacement).
void check_choice(std::size_t n, std::size_t m, bool replace);
// multivariate_normal's checks of the shapes (shape_error naming mean or cov) and of cov's
// symmetry (usage_error naming cov; `values` is cov in C order, k x k).
void check_mvn_shapes(const shape_type& mean, const shape_type& cov);
template <class T> void check_symmetric(const std::vector<T>& values, std::size_t k);
} // namespace detail

template <class S> cl_array<std::int64_t, S> generator::permutation(const queue& q, std::size_t n) {
    cl_array<std::uint64_t, S> k(q, {n});
    keys(k);
    // Stable: equal keys (probability below n^2 / 2^65) keep their index order.
    return argsort(k);
}

template <class T, class S> cl_array<T, S> generator::permutation(const cl_array<T, S>& a) {
    const queue& q = clarray::detail::queue_of(a, "permutation");
    if (a.dimension() == 0) throw usage_error("permutation: a must have at least one axis");
    const cl_array<std::int64_t, S> idx = permutation<S>(q, a.shape()[0]);
    if (a.size() == 0) return cl_array<T, S>(q, a.shape());
    return cl_array<T, S>(take(a, idx, 0));
}

template <class T, class S> event generator::shuffle(const cl_array<T, S>& a, long axis) {
    const queue& q = clarray::detail::queue_of(a, "shuffle");
    if (a.dimension() == 0) throw usage_error("shuffle: a must have at least one axis");
    const std::size_t ax = clarray::detail::normalize_axis(axis, a.dimension(), "shuffle");
    const cl_array<std::int64_t, S> idx = permutation<S>(q, a.shape()[ax]);
    if (a.size() == 0) return {};
    // The gather reads a before the copy writes it (a temporary between them).
    const cl_array<T, S> shuffled(take(a, idx, static_cast<std::ptrdiff_t>(ax)));
    return clarray::detail::strided_copy(clarray::detail::array_ref_of(a),
                                         clarray::detail::array_ref_of(shuffled));
}

template <class S>
cl_array<std::int64_t, S> generator::choice(const queue& q, std::size_t n, const shape_type& size,
                                            bool replace, const std::vector<double>& p) {
    const std::size_t m = checked_size(size);
    detail::check_choice(n, m, replace);
    const std::vector<double> cdf = detail::choice_cdf(n, p, replace, m);
    if (m == 0) return cl_array<std::int64_t, S>(q, size);
    if (p.empty()) {
        if (replace) {
            // Uniform indices: m positions of the int64 integers sequence.
            cl_array<std::int64_t, S> r(q, size);
            fill_integers(r, 0, static_cast<std::int64_t>(n));
            return r;
        }
        // The first m of a permutation of n.
        const cl_array<std::int64_t, S> perm = permutation<S>(q, n);
        cl_array<std::int64_t, S> r(q, {m});
        r = perm(range(0, static_cast<std::ptrdiff_t>(m)));
        return r.reshape(size);
    }
    cl_array<double, S> table(q, {n}); // the cdf (replace) or p
    if (replace) {
        // Inversion: u in [0, 1) from m positions of the float64 uniform sequence, the index of
        // the first cdf entry above it.
        clarray::detail::array_ref_of(table).alloc->write_staged(q, 0, n * sizeof(double),
                                                                 cdf.data());
        const cl_array<double, S> u = uniform<double, S>(q, size);
        return searchsorted(table, u, side::right);
    }
    // Without replacement (Efraimidis and Spirakis): keys E_i / p_i with E_i ~ Exp(1) from n
    // positions of the float64 exponential sequence; the m smallest keys' indices, in increasing
    // key order, are distributed as NumPy's successive draws (each draw with probability
    // proportional to p among the entries not drawn yet). p_i = 0 gives the key +inf (or NaN for
    // E_i = 0), which sorts after every finite key.
    clarray::detail::array_ref_of(table).alloc->write_staged(q, 0, n * sizeof(double), p.data());
    const cl_array<double, S> e = exponential<double, S>(q, {n});
    const cl_array<double, S> keys_of(e / table);
    const cl_array<std::int64_t, S> order = argsort(keys_of);
    cl_array<std::int64_t, S> r(q, {m});
    r = order(range(0, static_cast<std::ptrdiff_t>(m)));
    return r.reshape(size);
}

template <class T, class S>
cl_array<T, S> generator::choice(const cl_array<T, S>& a, const shape_type& size, bool replace,
                                 const std::vector<double>& p) {
    const queue& q = clarray::detail::queue_of(a, "choice");
    if (a.dimension() == 0) throw usage_error("choice: a must have at least one axis");
    const cl_array<std::int64_t, S> idx = choice<S>(q, a.shape()[0], size, replace, p);
    if (idx.size() == 0 || a.size() == 0) {
        shape_type shape = size;
        for (std::size_t k = 1; k < a.dimension(); ++k)
            shape.push_back(a.shape()[k]);
        return cl_array<T, S>(q, shape);
    }
    return cl_array<T, S>(take(a, idx, 0));
}

template <class T, class S>
cl_array<T, S> generator::multivariate_normal(const cl_array<T, S>& mean, const cl_array<T, S>& cov,
                                              const shape_type& size) {
    static_assert(std::is_floating_point_v<T>, "multivariate_normal: float or double mean and cov");
    const queue& q = clarray::detail::queue_of(mean, "multivariate_normal");
    clarray::detail::queue_of(cov, "multivariate_normal");
    detail::check_mvn_shapes(mean.shape(), cov.shape());
    const std::size_t k = mean.shape()[0];
    shape_type out_shape = size;
    out_shape.push_back(k);
    const std::size_t m = checked_size(size);
    if (k == 0) return cl_array<T, S>(q, out_shape);
    // cholesky reads cov to the host and blocks; so does this symmetry check.
    std::vector<T> host(k * k);
    clarray::detail::read_c_order(clarray::detail::array_ref_of(cov), host.data());
    detail::check_symmetric(host, k);
    cl_array<T, S> lower;
    try {
        lower = linalg::cholesky(cov);
    } catch (const linalg_error& e) {
        throw linalg_error(std::string("multivariate_normal: cov is not positive definite (") +
                           e.what() + ")");
    }
    if (m == 0) return cl_array<T, S>(q, out_shape); // cov checked all the same, as NumPy does
    // Rows x = mean + L z: the (m, k) standard normals times L^T, plus mean.
    const cl_array<T, S> z = normal<T, S>(q, {m, k});
    const cl_array<T, S> lz = matmul(z, lower.transpose());
    cl_array<T, S> x(lz + mean);
    return x.reshape(out_shape);
}

template <class E, class> auto generator::permutation(const E& a) {
    return permutation(clarray::detail::materialize(a));
}

template <class E, class>
auto generator::choice(const E& a, const shape_type& size, bool replace,
                       const std::vector<double>& p) {
    return choice(clarray::detail::materialize(a), size, replace, p);
}

template <class M, class C, class>
auto generator::multivariate_normal(const M& mean, const C& cov, const shape_type& size) {
    return multivariate_normal(clarray::detail::materialize(mean),
                               clarray::detail::materialize(cov), size);
}

} // namespace clarray::random
