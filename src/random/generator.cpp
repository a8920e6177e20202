#include "clarray/random/generator.hpp"

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/error.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/policies.hpp"
#include "clarray/types/shared_struct.hpp"

namespace clarray::detail {
extern const char* const kernel_source_random;
extern const char* const kernel_source_random123;
} // namespace clarray::detail

namespace clarray::random::detail {

using clarray::detail::array_ref;
using clarray::detail::launch_arg;

namespace {

// The layout argument of kernels/random.cl: which positions the draw covers, where its elements
// are (the coalesced view) and the key and upper counter words.
#define CLARRAY_RANDOM_LAYOUT_FIELDS(F)                                                            \
    F(cl_ulong, n, 0)           /* elements */                                                     \
    F(cl_ulong, position, 0)    /* position of element 0 */                                        \
    F(cl_ulong, first_block, 0) /* position / values per block */                                  \
    F(cl_ulong, rank, 0)                                                                           \
    F(cl_ulong, shape, ::clarray::max_dims)                                                        \
    F(cl_long, strides, ::clarray::max_dims)                                                       \
    F(cl_long, offset, 0)                                                                          \
    F(cl_uint, key, 4)                                                                             \
    F(cl_uint, counter_hi, 2) /* counter words 2 (stream) and 3 (domain << 24) */
CLARRAY_SHARED_STRUCT(random_layout, CLARRAY_RANDOM_LAYOUT_FIELDS);

const char* distribution_name(distribution d) {
    switch (d) {
    case distribution::uniform:
        return "uniform";
    case distribution::normal:
        return "normal";
    case distribution::integers:
        return "integers";
    case distribution::exponential:
        return "exponential";
    case distribution::gamma:
        return "gamma";
    case distribution::beta:
        return "beta";
    case distribution::lognormal:
        return "lognormal";
    case distribution::chisquare:
        return "chisquare";
    case distribution::standard_t:
        return "standard_t";
    case distribution::binomial:
        return "binomial";
    case distribution::poisson:
        return "poisson";
    case distribution::permutation_keys:
        return "permutation keys";
    }
    return "?";
}

// The domain byte of counter word 3 (docs/random.md); 0 when d does not produce dtype t.
unsigned domain_of(distribution d, dtype t) {
    switch (d) {
    case distribution::uniform:
        return t == dtype::float32 ? 1 : t == dtype::float64 ? 2 : 0;
    case distribution::normal:
        return t == dtype::float32 ? 3 : t == dtype::float64 ? 4 : 0;
    case distribution::integers:
        switch (t) {
        case dtype::int32:
            return 5;
        case dtype::uint32:
            return 6;
        case dtype::int64:
            return 7;
        case dtype::uint64:
            return 8;
        default:
            return 0;
        }
    case distribution::exponential:
    case distribution::gamma:
    case distribution::beta:
    case distribution::lognormal:
    case distribution::chisquare:
    case distribution::standard_t: {
        // 9/10 exponential, 11/12 gamma, ... 19/20 standard_t: float32, float64.
        const unsigned first =
            9 + 2 * (static_cast<unsigned>(d) - static_cast<unsigned>(distribution::exponential));
        return t == dtype::float32 ? first : t == dtype::float64 ? first + 1 : 0;
    }
    case distribution::binomial:
        return t == dtype::int64 ? 21 : 0;
    case distribution::poisson:
        return t == dtype::int64 ? 22 : 0;
    case distribution::permutation_keys:
        return t == dtype::uint64 ? 23 : 0;
    }
    return 0;
}

// The kernel of d in kernels/random.cl (prefixed: no clash with names an OpenCL C compiler
// reserves or declares).
const char* kernel_name(distribution d) {
    switch (d) {
    case distribution::uniform:
        return "random_uniform";
    case distribution::normal:
        return "random_normal";
    case distribution::integers:
        return "random_integers";
    case distribution::exponential:
        return "random_exponential";
    case distribution::gamma:
    case distribution::chisquare: // gamma(df / 2, 2)
        return "random_gamma";
    case distribution::beta:
        return "random_beta";
    case distribution::lognormal:
        return "random_lognormal";
    case distribution::standard_t:
        return "random_standard_t";
    case distribution::binomial:
        return "random_binomial";
    case distribution::poisson:
        return "random_poisson";
    case distribution::permutation_keys:
        return "random_bits";
    }
    return "?";
}

// Counter blocks a work-item computes (RANDOM_ITEM_BLOCKS of kernels/random.cl; the tuning table
// says why 8 on CPUs and 1 elsewhere).
std::size_t item_blocks(const device& dev) {
    return dev.tuning().random_item_blocks;
}

struct random_program_tag {};
struct random_kernel_tag {};

// Kernel `d` of the program for (algorithm, dtype): the Random123 text, the layout declaration
// and kernels/random.cl, specialised by -D options.
kernel random_kernel(const context& ctx, algorithm algo, distribution d, dtype t) {
    using namespace clarray::detail;
    // The per-position distributions (gamma to poisson) are a program of their own: the uniform,
    // normal, exponential and integer draws do not compile their code.
    const bool per_position = d > distribution::exponential && d != distribution::permutation_keys;
    const std::uint64_t program_sig = (static_cast<std::uint64_t>(per_position) << 16) |
                                      (static_cast<std::uint64_t>(algo) << 8) |
                                      static_cast<unsigned>(t);
    return cached_kernel(
        ctx, {&type_tag<random_kernel_tag>::id, (program_sig << 8) | static_cast<unsigned>(d)},
        kernel_name(d), [&] {
            const char* extension = required_extension(t);
            if (extension)
                require_extension(ctx, extension,
                                  std::string("random ") + distribution_name(d) + " of " +
                                      dtype_name(t));
            return cached_program(ctx, {&type_tag<random_program_tag>::id, program_sig}, [&] {
                const bool real = dtype_kind_of(t) == dtype_kind::floating;
                const bool wide = dtype_size(t) == 8;
                std::string source =
                    extension ? std::string("#pragma OPENCL EXTENSION ") + extension + " : enable\n"
                              : std::string();
                // u01fixedpt.h's double conversions only where doubles exist.
                source += std::string("#define R123_USE_U01_DOUBLE ") +
                          (t == dtype::float64 ? "1\n" : "0\n");
                source += kernel_source_random123;
                source += "\n";
                source += random_layout::cl_declaration();
                source += kernel_source_random;
                std::string options =
                    std::string("-DT=") + cl_type_name(t) + " -DU=" + (wide ? "ulong" : "uint") +
                    " -DRANDOM_THREEFRY=" + (algo == algorithm::threefry4x32_20 ? "1" : "0") +
                    " -DRANDOM_WIDE=" + (wide ? "1" : "0") +
                    " -DRANDOM_REAL=" + (real ? "1" : "0") +
                    " -DRANDOM_PER_POSITION=" + (per_position ? "1" : "0") +
                    " -DRANDOM_ITEM_BLOCKS=" + std::to_string(item_blocks(ctx.device()));
                return program_source{std::move(source), std::move(options)};
            });
        });
}

template <class V> launch_arg value_of(const V& v) noexcept {
    return launch_arg::value(&v, sizeof(V));
}

template <class F> F load(const void* p) {
    F v;
    std::memcpy(&v, p, sizeof(F));
    return v;
}
template <class F> std::string text(F v) {
    return std::to_string(v);
}

// Checks the parameters of a floating draw; returns high - low (uniform).
template <class F> F check_real(distribution d, const void* p0, const void* p1) {
    const F a = load<F>(p0), b = load<F>(p1);
    if (d == distribution::uniform) {
        if (!std::isfinite(a) || !std::isfinite(b) || !(a < b) || !std::isfinite(b - a))
            throw usage_error(
                "uniform: needs finite low < high with a finite high - low, got low " + text(a) +
                ", high " + text(b));
        return b - a;
    }
    if (!std::isfinite(a) || !std::isfinite(b) || b < 0)
        throw usage_error("normal: needs a finite mean and a finite stddev >= 0, got mean " +
                          text(a) + ", stddev " + text(b));
    return F(0);
}

// range = high - low and threshold = 2^W mod range, in the unsigned type of the dtype's width.
template <class I, class UI> void check_integers(const void* p0, const void* p1, UI& range, UI& t) {
    const I low = load<I>(p0), high = load<I>(p1);
    if (!(low < high))
        throw usage_error("integers: needs low < high, got low " + text(low) + ", high " +
                          text(high));
    range = static_cast<UI>(static_cast<UI>(high) - static_cast<UI>(low));
    t = static_cast<UI>(static_cast<UI>(0) - range) % range;
}

// The number of values a draw into a writes; usage_error when they pass the sequence's end.
std::size_t draw_size(const array_ref& a, const draw_state& state) {
    const std::size_t n = checked_size(*a.shape);
    if (n > std::numeric_limits<std::uint64_t>::max() - state.position)
        throw usage_error("random: the draw of " + std::to_string(n) + " values at position " +
                          std::to_string(state.position) + " passes the end of the sequence");
    return n;
}

// The kernel's layout of a draw of n values into a from counter block first_block: a's shape
// coalesced (C order kept: flat index i stays element i), the key and the counter's high words.
random_layout draw_layout(const array_ref& a, const draw_state& state, std::size_t n,
                          cl_ulong first_block, unsigned domain) {
    random_layout L;
    shape_type shape = *a.shape;
    strides_type strides = *a.strides;
    coalesce(shape, {&strides});
    L.n = n;
    L.position = state.position;
    L.first_block = first_block;
    L.rank = shape.size();
    for (std::size_t k = 0; k < shape.size(); ++k) {
        L.shape[k] = shape[k];
        L.strides[k] = strides[k];
    }
    L.offset = a.offset;
    L.key[0] = static_cast<cl_uint>(state.seed);
    L.key[1] = static_cast<cl_uint>(state.seed >> 32);
    L.counter_hi[0] = state.stream;
    L.counter_hi[1] = static_cast<cl_uint>(domain) << 24;
    return L;
}

} // namespace

event fill(const array_ref& a, const draw_state& state, distribution d, const void* p0,
           const void* p1) {
    using namespace clarray::detail;
    const unsigned domain = domain_of(d, a.type);
    if (!domain)
        throw dtype_error(std::string("random ") + distribution_name(d) + ": no values of dtype " +
                          dtype_name(a.type) +
                          (d == distribution::integers ? " (int32, uint32, int64 or uint64)"
                                                       : " (float32 or float64)"));
    if (!a.q) throw usage_error("random: unbound (default-constructed) array");
    const queue& q = *a.q;
    const bool wide = dtype_size(a.type) == 8;
    const cl_ulong per_block = wide ? 2 : 4;

    // Parameters first: a bad one throws before anything is enqueued.
    unsigned char params[3 * 8] = {}; // the kernel's value arguments after the layout
    std::size_t param_sizes[3] = {0, 0, 0};
    const std::size_t elem = dtype_size(a.type);
    if (d == distribution::integers) {
        std::memcpy(params, p0, elem);
        param_sizes[0] = elem;
        param_sizes[1] = param_sizes[2] = elem; // U has the dtype's width
        if (a.type == dtype::int32 || a.type == dtype::uint32) {
            cl_uint range, t;
            if (a.type == dtype::int32)
                check_integers<cl_int>(p0, p1, range, t);
            else
                check_integers<cl_uint>(p0, p1, range, t);
            std::memcpy(params + 8, &range, 4);
            std::memcpy(params + 16, &t, 4);
        } else {
            cl_ulong range, t;
            if (a.type == dtype::int64)
                check_integers<cl_long>(p0, p1, range, t);
            else
                check_integers<cl_ulong>(p0, p1, range, t);
            std::memcpy(params + 8, &range, 8);
            std::memcpy(params + 16, &t, 8);
        }
    } else {
        std::memcpy(params, p0, elem);
        std::memcpy(params + 8, p1, elem);
        param_sizes[0] = param_sizes[1] = elem;
        if (d == distribution::uniform) {
            param_sizes[2] = elem;
            if (wide) {
                const double w = check_real<double>(d, p0, p1);
                std::memcpy(params + 16, &w, 8);
            } else {
                const float w = check_real<float>(d, p0, p1);
                std::memcpy(params + 16, &w, 4);
            }
        } else if (wide) {
            check_real<double>(d, p0, p1);
        } else {
            check_real<float>(d, p0, p1);
        }
    }

    const std::size_t n = draw_size(a, state);
    if (n == 0) return {};

    const random_layout L = draw_layout(a, state, n, state.position / per_block, domain);

    const kernel k = random_kernel(q.context(), state.algo, d, a.type);
    const cl_ulong last_block = (state.position + n - 1) / per_block;
    const std::size_t blocks = static_cast<std::size_t>(last_block - L.first_block + 1);
    const std::size_t per_item = item_blocks(q.context().device());
    const std::size_t g = elementwise_group_size(q.context().device());
    const ndrange global{round_up((blocks + per_item - 1) / per_item, g)}, local{g};
    launch_arg args[5] = {memory_arg(a.kind, a.alloc, access::write), value_of(L)};
    std::size_t count = 2;
    for (std::size_t i = 0; i < 3; ++i)
        if (param_sizes[i]) args[count++] = launch_arg::value(params + 8 * i, param_sizes[i]);
    return launch(q, k, global, &local, args, count, {}, "random draw");
}

} // namespace clarray::random::detail

namespace clarray::random::detail {

namespace {

std::string number(double v) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
}

// usage_error "<distribution>: <parameter> must be <rule>, got <value>" unless ok.
void require(bool ok, distribution d, const char* parameter, const char* rule, double got) {
    if (!ok)
        throw usage_error(std::string(distribution_name(d)) + ": " + parameter + " must be " +
                          rule + ", got " + number(got));
}

// NumPy's largest Poisson mean: the values stay far from int64's end.
constexpr double poisson_lam_max = 9.223372006484771e18;

} // namespace

event fill_distribution(const array_ref& a, const draw_state& state, distribution d,
                        const distribution_params& p) {
    using namespace clarray::detail;
    if (d < distribution::exponential)
        throw usage_error(std::string("random ") + distribution_name(d) +
                          ": drawn by fill, not fill_distribution");
    const unsigned domain = domain_of(d, a.type);
    if (!domain) {
        const char* want = d == distribution::binomial || d == distribution::poisson ? "int64"
                           : d == distribution::permutation_keys                     ? "uint64"
                                                                 : "float32 or float64";
        throw dtype_error(std::string("random ") + distribution_name(d) + ": no values of dtype " +
                          dtype_name(a.type) + " (" + want + ")");
    }
    if (!a.q) throw usage_error("random: unbound (default-constructed) array");
    const queue& q = *a.q;

    // Parameters first: a bad one throws before anything is enqueued.
    const bool finite_a = std::isfinite(p.a), finite_b = std::isfinite(p.b);
    double k0 = p.a, k1 = p.b; // the kernel's two real parameters
    switch (d) {
    case distribution::exponential:
        require(finite_a && p.a >= 0, d, "scale", "finite and >= 0", p.a);
        break;
    case distribution::gamma:
        require(finite_a && p.a >= 0, d, "shape", "finite and >= 0", p.a);
        require(finite_b && p.b >= 0, d, "scale", "finite and >= 0", p.b);
        break;
    case distribution::beta:
        require(finite_a && p.a > 0, d, "a", "finite and > 0", p.a);
        require(finite_b && p.b > 0, d, "b", "finite and > 0", p.b);
        break;
    case distribution::lognormal:
        require(finite_a, d, "mean", "finite", p.a);
        require(finite_b && p.b >= 0, d, "sigma", "finite and >= 0", p.b);
        break;
    case distribution::chisquare:
        require(finite_a && p.a > 0, d, "df", "finite and > 0", p.a);
        k0 = p.a / 2; // Gamma(df / 2, 2)
        k1 = 2;
        break;
    case distribution::standard_t:
        require(finite_a && p.a > 0, d, "df", "finite and > 0", p.a);
        break;
    case distribution::binomial:
        require(p.n >= 0 && p.n <= (std::int64_t(1) << 53), d, "n", "in [0, 2^53]",
                static_cast<double>(p.n));
        require(p.a >= 0 && p.a <= 1, d, "p", "in [0, 1]", p.a);
        break;
    case distribution::poisson:
        require(p.a >= 0 && p.a <= poisson_lam_max, d, "lam", "in [0, 9.2e18]", p.a);
        break;
    default:
        break;
    }
    const std::size_t n = draw_size(a, state);
    if (n == 0) return {};

    // The program: the float dtype of the computation (binomial and poisson compute in double),
    // the uint64 integers program for the keys.
    const bool integer_values = d == distribution::binomial || d == distribution::poisson;
    const dtype program_type = integer_values ? dtype::float64 : a.type;
    // The keys and exponential take the block layout of uniform (2 or 4 values per block).
    const bool blocked = d == distribution::permutation_keys || d == distribution::exponential;
    const cl_ulong per_block = dtype_size(a.type) == 8 ? 2 : 4;

    const random_layout L =
        draw_layout(a, state, n, blocked ? state.position / per_block : state.position, domain);

    const kernel k = random_kernel(q.context(), state.algo, d, program_type);
    const std::size_t per_item = blocked ? item_blocks(q.context().device()) : 1;
    const std::size_t units =
        blocked ? static_cast<std::size_t>((state.position + n - 1) / per_block - L.first_block + 1)
                : n;
    const std::size_t items = (units + per_item - 1) / per_item;
    const std::size_t g = elementwise_group_size(q.context().device());
    const ndrange global{round_up(items, g)}, local{g};
    const float f0 = static_cast<float>(k0), f1 = static_cast<float>(k1);
    const cl_long count = p.n;
    launch_arg args[4] = {memory_arg(a.kind, a.alloc, access::write), value_of(L)};
    std::size_t nargs = 2;
    if (d == distribution::binomial) {
        args[nargs++] = value_of(count);
        args[nargs++] = value_of(k0);
    } else if (d == distribution::poisson) {
        args[nargs++] = value_of(k0);
    } else if (d != distribution::permutation_keys) {
        const bool two = d != distribution::exponential && d != distribution::standard_t;
        if (a.type == dtype::float32) {
            args[nargs++] = value_of(f0);
            if (two) args[nargs++] = value_of(f1);
        } else {
            args[nargs++] = value_of(k0);
            if (two) args[nargs++] = value_of(k1);
        }
    }
    return launch(q, k, global, &local, args, nargs, {}, "random draw");
}

} // namespace clarray::random::detail
