#pragma once
// Counter-based random numbers on the device (Random123's Philox4x32-10 and Threefry4x32-20).
//
// A generator is a key (the seed), a stream number and a position. Element i (flat, C order) of
// a draw of n values is the value at position p + i of the generator's sequence for that
// distribution and dtype, p being the generator's position when the draw is made; the draw then
// advances the position by n. Each value is a pure function of (algorithm, seed, stream,
// distribution and dtype, position): results do not depend on the device, the storage policy,
// the launch shape or the view written (strided, transposed, reversed). docs/random.md gives the
// counter and key layout and the conversions, so the numbers can be reproduced anywhere.
//
//   clarray::random::generator gen(42);
//   auto u = gen.uniform<float>(q, {1000});                 // [0, 1)
//   auto z = gen.normal<double>(q, {10, 10}, 0.0, 2.0);     // mean 0, standard deviation 2
//   auto k = gen.integers<std::int32_t>(q, {100}, 0, 6);    // 0..5, unbiased
//   gen.fill_uniform(a(clarray::all(), 1), -1.0f, 1.0f);    // into a strided view
//   auto g2 = gen.stream(1);                                 // an independent sequence
//   auto e = gen.gamma<double>(q, {100}, 2.0, 1.5);         // shape 2, scale 1.5
//   auto i = gen.permutation(q, 10);                        // int64 (random/sampling.hpp)
//
// Draws are enqueued and never block; one generator is not meant to be used from several
// threads at once (its position changes with each draw); give each thread its own stream.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/runtime/event.hpp"

namespace clarray::random {

// The counter-based generator (Random123's default round counts).
enum class algorithm : unsigned char {
    philox4x32_10,  // the default: 10 rounds of Philox on a 4x32-bit counter, 2x32-bit key
    threefry4x32_20 // 20 rounds of Threefry on a 4x32-bit counter, 4x32-bit key
};

// What a draw produces; with the dtype it selects the domain byte of the counter
// (docs/random.md), so that different kinds of draws never share counter blocks.
enum class distribution : unsigned char {
    uniform,
    normal,
    integers,
    exponential,
    gamma,
    beta,
    lognormal,
    chisquare,
    standard_t,
    binomial,
    poisson,
    permutation_keys // the uint64 sort keys of permutation, shuffle and choice
};

namespace detail {
// The parameters of fill_* take the array's element type without deducing it from the
// arguments, so that `fill_uniform(a, 0, 1)` works on a float array.
template <class T> struct identity { using type = T; };
template <class T> using param_t = typename identity<T>::type;

// The generator state a draw needs (no element type): the kernels' key and counter words come
// from it (src/random/generator.cpp).
struct draw_state {
    algorithm algo;
    std::uint64_t seed;
    std::uint32_t stream;
    std::uint64_t position;
};
// Fills a (bound; any view) with a.size() values at positions state.position... of the draw's
// sequence. p0 and p1 point to one stored element of a.type each: low and high (uniform,
// integers) or mean and standard deviation (normal). Throws dtype_error for a dtype the
// distribution does not produce, usage_error for bad parameters (naming them), unsupported for
// float64 without fp64. Returns the launch event (none when a is empty).
event fill(const clarray::detail::array_ref& a, const draw_state& state, distribution d,
           const void* p0, const void* p1);
// The parameters of the distributions from exponential on, as doubles (float32 draws round
// them to float): exponential (a = scale), gamma (a = shape, b = scale), beta (a, b), lognormal
// (a = mean, b = sigma), chisquare and standard_t (a = df), binomial (n, a = p), poisson (a =
// lam); permutation_keys takes none.
struct distribution_params {
    double a = 0, b = 0;
    std::int64_t n = 0;
};
// Fills a with the values at positions state.position... of distribution d (exponential and
// the keys in the block layout of uniform, the others each from a counter sequence of its own
// position: docs/random.md). Throws usage_error naming a bad
// parameter, dtype_error for a dtype d does not produce, unsupported without fp64 where the draw
// needs it. Returns the launch event (none when a is empty).
event fill_distribution(const clarray::detail::array_ref& a, const draw_state& state,
                        distribution d, const distribution_params& p);
} // namespace detail

// A counter-based random generator (seed, stream, position): the same draws give the same values
// on every device, and streams are independent.
class generator {
public:
    // Stream 0 at position 0 of the sequence of seed.
    explicit generator(std::uint64_t seed = 0, algorithm algo = algorithm::philox4x32_10) noexcept
        : algo_(algo), seed_(seed) {}

    // The seed.
    std::uint64_t seed() const noexcept { return seed_; }
    // The counter-based algorithm.
    algorithm algo() const noexcept { return algo_; }
    // The stream number (see stream()).
    std::uint32_t stream_id() const noexcept { return stream_; }
    // The position of the next draw's first value.
    std::uint64_t position() const noexcept { return position_; }

    // The generator of stream k: same seed and algorithm, position 0. Streams are independent
    // sequences (the stream is counter word 2).
    generator stream(std::uint32_t k) const noexcept {
        generator g(seed_, algo_);
        g.stream_ = k;
        return g;
    }
    // Skips n values: the next draw starts where it would after drawing n more values.
    generator& advance(std::uint64_t n) noexcept {
        position_ += n;
        return *this;
    }

    // New arrays. uniform: [low, high) (float, double); normal: mean, stddev (float, double);
    // integers: [low, high), unbiased (int32, uint32, int64, uint64).
    //@{
    template <class T, class S = svm_coarse>
    cl_array<T, S> uniform(const queue& q, const shape_type& shape, T low = T(0), T high = T(1)) {
        cl_array<T, S> a(q, shape);
        fill_uniform(a, low, high);
        return a;
    }
    template <class T, class S = svm_coarse>
    cl_array<T, S> normal(const queue& q, const shape_type& shape, T mean = T(0), T stddev = T(1)) {
        cl_array<T, S> a(q, shape);
        fill_normal(a, mean, stddev);
        return a;
    }
    template <class T, class S = svm_coarse>
    cl_array<T, S> integers(const queue& q, const shape_type& shape, T low, T high) {
        cl_array<T, S> a(q, shape);
        fill_integers(a, low, high);
        return a;
    }
    //@}
    // New arrays from a memory pool (svm_pool of S or buffer_pool, the last argument; the storage
    // policy is the pool's unless named): the same values as the draws above.
    //@{
    template <class T, class S = clarray::detail::storage_of_pool, class Pool,
              clarray::detail::if_pool_t<Pool> = 0>
    cl_array<T, clarray::detail::pooled_storage_t<S, Pool>>
    uniform(const queue& q, const shape_type& shape, T low, T high, const Pool& pool) {
        cl_array<T, clarray::detail::pooled_storage_t<S, Pool>> a(q, shape, pool);
        fill_uniform(a, low, high);
        return a;
    }
    template <class T, class S = clarray::detail::storage_of_pool, class Pool,
              clarray::detail::if_pool_t<Pool> = 0>
    cl_array<T, clarray::detail::pooled_storage_t<S, Pool>>
    uniform(const queue& q, const shape_type& shape, const Pool& pool) {
        return uniform<T, S>(q, shape, T(0), T(1), pool);
    }
    template <class T, class S = clarray::detail::storage_of_pool, class Pool,
              clarray::detail::if_pool_t<Pool> = 0>
    cl_array<T, clarray::detail::pooled_storage_t<S, Pool>>
    normal(const queue& q, const shape_type& shape, T mean, T stddev, const Pool& pool) {
        cl_array<T, clarray::detail::pooled_storage_t<S, Pool>> a(q, shape, pool);
        fill_normal(a, mean, stddev);
        return a;
    }
    template <class T, class S = clarray::detail::storage_of_pool, class Pool,
              clarray::detail::if_pool_t<Pool> = 0>
    cl_array<T, clarray::detail::pooled_storage_t<S, Pool>>
    normal(const queue& q, const shape_type& shape, const Pool& pool) {
        return normal<T, S>(q, shape, T(0), T(1), pool);
    }
    template <class T, class S = clarray::detail::storage_of_pool, class Pool,
              clarray::detail::if_pool_t<Pool> = 0>
    cl_array<T, clarray::detail::pooled_storage_t<S, Pool>>
    integers(const queue& q, const shape_type& shape, T low, T high, const Pool& pool) {
        cl_array<T, clarray::detail::pooled_storage_t<S, Pool>> a(q, shape, pool);
        fill_integers(a, low, high);
        return a;
    }
    //@}
    // New arrays of the distributions of NumPy's Generator (docs/random.md gives each method).
    // The element type is float or double for the real distributions, std::int64_t for binomial
    // and poisson; each value is a function of (seed, stream, position) alone. Bad parameters
    // throw usage_error naming them.
    //@{
    // scale * Exp(1): mean scale.
    template <class T, class S = svm_coarse>
    cl_array<T, S> exponential(const queue& q, const shape_type& size, T scale = T(1)) {
        return make<T, S>(q, size, distribution::exponential, {double(scale), 0, 0});
    }
    // Gamma(shape, scale): mean shape * scale (shape >= 0; 0 gives 0).
    template <class T, class S = svm_coarse>
    cl_array<T, S> gamma(const queue& q, const shape_type& size, T shape, T scale = T(1)) {
        return make<T, S>(q, size, distribution::gamma, {double(shape), double(scale), 0});
    }
    // Beta(a, b) in [0, 1]: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b).
    template <class T, class S = svm_coarse>
    cl_array<T, S> beta(const queue& q, const shape_type& size, T a, T b) {
        return make<T, S>(q, size, distribution::beta, {double(a), double(b), 0});
    }
    // exp(N(mean, sigma^2)).
    template <class T, class S = svm_coarse>
    cl_array<T, S> lognormal(const queue& q, const shape_type& size, T mean = T(0),
                             T sigma = T(1)) {
        return make<T, S>(q, size, distribution::lognormal, {double(mean), double(sigma), 0});
    }
    // Chi-square with df degrees of freedom: 2 Gamma(df / 2).
    template <class T, class S = svm_coarse>
    cl_array<T, S> chisquare(const queue& q, const shape_type& size, T df) {
        return make<T, S>(q, size, distribution::chisquare, {double(df), 0, 0});
    }
    // Student's t with df degrees of freedom.
    template <class T, class S = svm_coarse>
    cl_array<T, S> standard_t(const queue& q, const shape_type& size, T df) {
        return make<T, S>(q, size, distribution::standard_t, {double(df), 0, 0});
    }
    // Successes in n trials of probability p (int64; computed in double: needs fp64).
    template <class S = svm_coarse>
    cl_array<std::int64_t, S> binomial(const queue& q, const shape_type& size, std::int64_t n,
                                       double p) {
        return make<std::int64_t, S>(q, size, distribution::binomial, {p, 0, n});
    }
    // Poisson with mean lam (int64; computed in double: needs fp64).
    template <class S = svm_coarse>
    cl_array<std::int64_t, S> poisson(const queue& q, const shape_type& size, double lam = 1.0) {
        return make<std::int64_t, S>(q, size, distribution::poisson, {lam, 0, 0});
    }
    //@}

    // Sampling (random/sampling.hpp, which defines these members): permutation(q, n) (int64
    // indices), permutation(a) (a's rows in random order, a new array), shuffle(a, axis) (in
    // place), choice(q, n, size, replace, p) (int64 indices) and choice(a, size, replace, p) (rows
    // of a), multivariate_normal(mean, cov, size).
    //@{
    template <class S = svm_coarse>
    cl_array<std::int64_t, S> permutation(const queue& q, std::size_t n);
    template <class T, class S> cl_array<T, S> permutation(const cl_array<T, S>& a);
    template <class T, class S> event shuffle(const cl_array<T, S>& a, long axis = 0);
    template <class S = svm_coarse>
    cl_array<std::int64_t, S> choice(const queue& q, std::size_t n, const shape_type& size,
                                     bool replace = true, const std::vector<double>& p = {});
    template <class T, class S>
    cl_array<T, S> choice(const cl_array<T, S>& a, const shape_type& size, bool replace = true,
                          const std::vector<double>& p = {});
    template <class T, class S>
    cl_array<T, S> multivariate_normal(const cl_array<T, S>& mean, const cl_array<T, S>& cov,
                                       const shape_type& size = {});
    //@}
    // The same where arrays are read from expressions (each evaluated once first).
    //@{
    template <class E, class = clarray::detail::expression_argument_t<E>>
    auto permutation(const E& a);
    template <class E, class = clarray::detail::expression_argument_t<E>>
    auto choice(const E& a, const shape_type& size, bool replace = true,
                const std::vector<double>& p = {});
    template <class M, class C, class = clarray::detail::expression_arguments_t<M, C>>
    auto multivariate_normal(const M& mean, const C& cov, const shape_type& size = {});
    //@}

    // A new array like a (shape, storage, pool, layout) of uniform values in [low, high).
    template <class T, class S>
    cl_array<T, S> random_like(const cl_array<T, S>& a, detail::param_t<T> low = T(0),
                               detail::param_t<T> high = T(1)) {
        cl_array<T, S> r = empty_like(a);
        fill_uniform(r, low, high);
        return r;
    }

    // Into an existing array or view (its elements in C order take consecutive positions).
    // Enqueued on the array's queue after its pending uses; does not block.
    //@{
    template <class T, class S>
    event fill_uniform(const cl_array<T, S>& a, detail::param_t<T> low = T(0),
                       detail::param_t<T> high = T(1)) {
        static_assert(std::is_floating_point_v<T>, "fill_uniform: float or double arrays");
        return draw(a, distribution::uniform, low, high);
    }
    template <class T, class S>
    event fill_normal(const cl_array<T, S>& a, detail::param_t<T> mean = T(0),
                      detail::param_t<T> stddev = T(1)) {
        static_assert(std::is_floating_point_v<T>, "fill_normal: float or double arrays");
        return draw(a, distribution::normal, mean, stddev);
    }
    template <class T, class S>
    event fill_integers(const cl_array<T, S>& a, detail::param_t<T> low, detail::param_t<T> high) {
        static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) >= 4,
                      "fill_integers: int32, uint32, int64 or uint64 arrays");
        return draw(a, distribution::integers, low, high);
    }
    //@}

private:
    template <class T, class S>
    cl_array<T, S> make(const queue& q, const shape_type& size, distribution d,
                        const detail::distribution_params& p) {
        static_assert(std::is_floating_point_v<T> || std::is_same_v<T, std::int64_t>,
                      "clarray::random: these distributions give float or double arrays");
        cl_array<T, S> a(q, size);
        detail::fill_distribution(clarray::detail::array_ref_of(a),
                                  {algo_, seed_, stream_, position_}, d, p);
        position_ += a.size(); // after a successful enqueue: a rejected draw consumes nothing
        return a;
    }
    // Draws uint64 sort keys into a (advancing the position).
    template <class S> void keys(const cl_array<std::uint64_t, S>& a) {
        detail::fill_distribution(clarray::detail::array_ref_of(a),
                                  {algo_, seed_, stream_, position_},
                                  distribution::permutation_keys, {});
        position_ += a.size();
    }

    template <class T, class S> event draw(const cl_array<T, S>& a, distribution d, T p0, T p1) {
        const stored_t<T> v0 = p0, v1 = p1;
        const event e = detail::fill(clarray::detail::array_ref_of(a),
                                     {algo_, seed_, stream_, position_}, d, &v0, &v1);
        position_ += a.size(); // after a successful enqueue: a rejected draw consumes nothing
        return e;
    }

    algorithm algo_;
    std::uint64_t seed_;
    std::uint32_t stream_ = 0;
    std::uint64_t position_ = 0;
};

} // namespace clarray::random

// The sampling members (permutation, shuffle, choice, multivariate_normal).
#include "clarray/random/sampling.hpp"
