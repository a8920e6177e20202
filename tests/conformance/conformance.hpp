#pragma once
// The dtype x function conformance matrix (docs/testing.md): each function of docs/api.md over
// every dtype, on views and storage policies, against NumPy's results read from
// tests/data/conformance/ (tests/data/make_conformance.py writes them).
//
// A function is one CONF_FUNCTION: the dtypes clarray accepts (a compile-time predicate: the
// others do not compile, which the matrix reports as a rejection) and a body templated on the
// element type T and the storage policy S, which reads the case's inputs (c.in<U, S>(k): the
// k-th input of the manifest line, its view cut) and checks each output against NumPy's
// (c.check(k, result)). Every (function, T) is instantiated with ONE policy, rotating with the
// function and the dtype (the matrix meets every policy without tripling its instantiations);
// the default build instantiates a sample of the pairs (in_build), CLARRAY_TEST_FULL=1 all.
#include <complex>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "../support.hpp"

namespace conf {

// How a float result is compared: within `ulps` units in the last place of NumPy's value (of the
// result type), or within `rel` times the largest magnitude of NumPy's output array (sums,
// products, transforms: errors scale with the whole array). NaN positions must match; infinities
// and integers must be equal. float16 results get one float16 ulp more (clarray rounds once from
// float, NumPy after every step).
struct tolerance {
    double ulps = 0;
    double rel = 0;
};
inline constexpr tolerance exact{0, 0};
inline constexpr tolerance math_tol{8, 0};        // OpenCL's bounds (<= 4 ulp) + NumPy's own error
inline constexpr tolerance special_tol{16, 0};    // pow, erf, tgamma, lgamma: OpenCL allows 16 ulp
inline constexpr tolerance reduce_tol{4, 64};     // rel in units of the result type's epsilon
inline constexpr tolerance transform_tol{8, 256}; // FFT, GEMM

struct input_spec {
    std::string file; // "<dtype>.<base>"
    std::string view; // "-", "2c", "2o", "2n", "2t", "1c", ...
};

struct case_t {
    std::string func, dtype, status;
    int nout = 1;
    std::vector<input_spec> inputs;
};

// Where a case stands after it ran.
enum class outcome { pass, fail, rejected_compile, rejected_runtime, skipped };

class ctx {
public:
    ctx(const case_t& c, const std::string& dir, tolerance tol) : c_(c), dir_(dir), tol_(tol) {}

    // Input k as an array of U on policy S, its view cut.
    template <class U, class S> ca::cl_array<U, S> in(std::size_t k) const {
        const input_spec& s = c_.inputs.at(k);
        auto base = ca::load_npy<U, S>(test::q(), dir_ + "/in/" + s.file + ".npy");
        return cut(base, s.view);
    }
    // Compares r with NumPy's output k.
    template <class R, class S> void check(std::size_t k, const ca::cl_array<R, S>& r);
    template <class E, std::enable_if_t<!ca::is_cl_array<E>::value, int> = 0>
    void check(std::size_t k, const E& e) {
        check(k, ca::eval(e));
    }

    const case_t& the_case() const { return c_; }
    std::string policy; // storage policy the case ran on
    std::vector<std::string> failures;
    int checked = 0;

private:
    template <class T, class S>
    static ca::cl_array<T, S> cut(const ca::cl_array<T, S>& x, const std::string& v) {
        if (v == "-") return x;
        if (v[0] == '2') {
            switch (v[1]) {
            case 'o':
                return x(ca::range(1, 5), ca::range(2, 8));
            case 'n':
                return x(ca::range(ca::none, ca::none, -2), ca::range(ca::none, ca::none, -1));
            case 't':
                return x.transpose();
            default:
                return x;
            }
        }
        const ca::cl_array<T, S> f = x.ravel();
        switch (v[1]) {
        case 'o':
            return f(ca::range(5, ca::none));
        case 'n':
            return f(ca::range(ca::none, ca::none, -3));
        case 't':
            return x(ca::all(), 3);
        default:
            return f;
        }
    }
    std::string expected_path(std::size_t k) const {
        return dir_ + "/out/" + c_.func + "." + c_.dtype + "." + std::to_string(k) + ".npy";
    }

    const case_t& c_;
    std::string dir_;
    tolerance tol_;
};

// ---- comparison (non-template parts in test_conformance.cpp) ----
// The dtype name in a .npy file's header ("float16", ...), empty when unreadable.
std::string npy_dtype(const std::string& path);
// Compares flat values (as long double / complex parts) with the tolerance; eps and ulp of the
// result type R: `digits` mantissa bits, `min_exp` of its smallest normal.
struct float_format {
    int digits, min_exp;
    bool complex = false;
};
void compare_float(const std::vector<long double>& got, const std::vector<long double>& want,
                   const std::vector<std::size_t>& shape_got,
                   const std::vector<std::size_t>& shape_want, float_format f, tolerance tol,
                   std::vector<std::string>& failures, const std::string& what);

template <class R> float_format format_of() {
    if constexpr (std::is_same_v<R, ca::half>)
        return {11, -13};
    else
        return {std::numeric_limits<R>::digits, std::numeric_limits<R>::min_exponent};
}

template <class R> void flatten(const xt::xarray<R>& h, std::vector<long double>& out) {
    for (const R& v : h) {
        if constexpr (ca::is_complex_v<R>) {
            out.push_back(static_cast<long double>(v.real()));
            out.push_back(static_cast<long double>(v.imag()));
        } else if constexpr (std::is_same_v<R, ca::half>) {
            out.push_back(static_cast<long double>(static_cast<float>(v)));
        } else {
            out.push_back(static_cast<long double>(v));
        }
    }
}

template <class R, class S> void ctx::check(std::size_t k, const ca::cl_array<R, S>& r) {
    ++checked;
    const std::string path = expected_path(k);
    const std::string want_dtype = npy_dtype(path);
    const std::string got_dtype = ca::dtype_name(ca::dtype_traits<R>::id);
    const std::string what = "output " + std::to_string(k);
    xt::xarray<R> got = r.get();
    std::vector<std::size_t> gs(got.shape().begin(), got.shape().end());
    if (want_dtype != got_dtype) {
        // docs/semantics.md: math functions of bool and 8-bit integers compute in float32, where
        // NumPy gives float16: compared at float16's precision.
        const bool documented = want_dtype == "float16" && got_dtype == "float32" &&
                                (c_.dtype == "bool" || c_.dtype == "int8" || c_.dtype == "uint8");
        if constexpr (!std::is_same_v<R, float>) {
            failures.push_back(what + ": result dtype " + got_dtype + ", NumPy's " + want_dtype);
            return;
        } else {
            if (!documented) {
                failures.push_back(what + ": result dtype " + got_dtype + ", NumPy's " +
                                   want_dtype);
                return;
            }
            xt::xarray<ca::half> want = ca::load_npy<ca::half, S>(test::q(), path).get();
            std::vector<long double> g, w;
            for (const R& v : got) // rounded to float16 as NumPy's result is
                g.push_back(static_cast<float>(ca::half(static_cast<float>(v))));
            flatten(want, w);
            std::vector<std::size_t> ws(want.shape().begin(), want.shape().end());
            compare_float(g, w, gs, ws, format_of<ca::half>(), tol_, failures, what);
            return;
        }
    }
    xt::xarray<R> want = ca::load_npy<R, S>(test::q(), path).get();
    std::vector<std::size_t> ws(want.shape().begin(), want.shape().end());
    if constexpr (ca::is_inexact_v<R>) {
        std::vector<long double> g, w;
        flatten(got, g);
        flatten(want, w);
        float_format f = format_of<ca::real_of_t<R>>();
        f.complex = ca::is_complex_v<R>;
        compare_float(g, w, gs, ws, f, tol_, failures, what);
    } else {
        if (gs != ws) {
            failures.push_back(what + ": shape " + ca::shape_to_string(r.shape()) + ", NumPy's " +
                               ca::shape_to_string(ca::shape_type(ws.begin(), ws.end())));
            return;
        }
        std::size_t bad = 0, first = 0;
        for (std::size_t i = 0; i < got.size(); ++i)
            if (!(got.data()[i] == want.data()[i]) && bad++ == 0) first = i;
        if (bad) {
            using P = std::conditional_t<
                std::is_same_v<R, bool>, int,
                std::conditional_t<ca::is_signed_integer_v<R>, long long, unsigned long long>>;
            failures.push_back(what + ": " + std::to_string(bad) + " of " +
                               std::to_string(got.size()) + " elements differ, first at flat " +
                               std::to_string(first) + ": " +
                               std::to_string(static_cast<P>(got.data()[first])) + " vs NumPy " +
                               std::to_string(static_cast<P>(want.data()[first])));
        }
    }
}

// ---- the registry of functions ----
// How a (function, dtype) pair stands in this build: the dtype does not compile for the function
// (rejected), it does but this build left it out (not_built: the default build's sample, below),
// or it is built (and ran, unless probing).
enum class pair_build { rejected, not_built, built };
// Runs the case (probe: only says how the pair stands).
using dispatch_fn = pair_build (*)(ctx&, bool probe);
struct function_entry {
    std::string name;
    dispatch_fn run;
    tolerance tol;
};
std::map<std::string, function_entry>& registry();
struct registrar {
    registrar(const char* name, dispatch_fn f, tolerance tol) {
        registry()[name] = function_entry{name, f, tol};
    }
};

template <int I> struct policy_at;
template <> struct policy_at<0> { using type = ca::svm_coarse; };
template <> struct policy_at<1> { using type = ca::svm_fine; };
template <> struct policy_at<2> { using type = ca::buffer; };

// The dtypes of the matrix in the manifest's order (bit D of a mask: dtype D), and their names.
inline constexpr const char* matrix_dtype_names[] = {
    "bool",   "int8",   "int16",   "int32",   "int64",   "uint8",     "uint16",
    "uint32", "uint64", "float16", "float32", "float64", "complex64", "complex128"};
using matrix_dtypes =
    std::tuple<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
               std::uint16_t, std::uint32_t, std::uint64_t, ca::half, float, double,
               std::complex<float>, std::complex<double>>;
template <class F, std::size_t... D> constexpr unsigned accepted_mask(std::index_sequence<D...>) {
    return ((F::template accepts<std::tuple_element_t<D, matrix_dtypes>>() ? 1u << D : 0u) | ...);
}

// The NumPy refusals of a function (bit D: NumPy raises or refuses dtype D), from the manifest
// (tests/CMakeLists.txt writes conformance_refusals.inc at configure time).
struct refusal_entry {
    std::string_view func;
    unsigned mask;
};
inline constexpr refusal_entry refusal_table[] = {
#include "conformance_refusals.inc"
};
constexpr unsigned numpy_refusals(std::string_view func) {
    for (const refusal_entry& e : refusal_table)
        if (e.func == func) return e.mask;
    return 0;
}

// Whether this build instantiates the pair. A CLARRAY_TEST_FULL=1 build instantiates every pair
// clarray accepts; the default build a fixed sample: for each function the first two accepted
// dtypes from a rotation its line number picks (every dtype meets many functions), and every
// dtype NumPy refuses (clarray must refuse it too). The matrix's default run picks from these.
inline constexpr unsigned sample_dtypes_per_function = 2;
template <class F, int K> constexpr bool in_build(unsigned d) {
#if CLARRAY_TEST_FULL_MATRIX
    (void)d;
    return true;
#else
    if (F::numpy_refused >> d & 1u) return true;
    const unsigned mask =
        accepted_mask<F>(std::make_index_sequence<std::size(matrix_dtype_names)>());
    unsigned taken = 0;
    constexpr unsigned n = std::size(matrix_dtype_names);
    for (unsigned j = 0; j < n && taken < sample_dtypes_per_function; ++j) {
        const unsigned e = (5u * static_cast<unsigned>(K) + j) % n;
        if (!(mask >> e & 1u) || (F::numpy_refused >> e & 1u)) continue; // (refusals: above)
        if (e == d) return true;
        ++taken;
    }
    return false;
#endif
}

template <class F, int K, int D, class T> pair_build run_typed(ctx& c, bool probe) {
    if constexpr (!F::template accepts<T>()) {
        return pair_build::rejected;
    } else if constexpr (!in_build<F, K>(D)) {
        return pair_build::not_built;
    } else {
        if (probe) return pair_build::built;
        using S = typename policy_at<(K + D) % 3>::type;
        c.policy = S::name;
        if (!test::storage_available<S>()) {
            c.policy += " (unavailable)";
            return pair_build::built;
        }
        F::template run<T, S>(c);
        return pair_build::built;
    }
}

// The element types of the matrix, in the manifest's names.
template <class F, int K, std::size_t... D>
pair_build dispatch_over(ctx& c, bool probe, std::index_sequence<D...>) {
    const std::string& d = c.the_case().dtype;
    pair_build r = pair_build::rejected;
    const bool found =
        ((d == matrix_dtype_names[D] &&
          (r = run_typed<F, K, int(D), std::tuple_element_t<D, matrix_dtypes>>(c, probe), true)) ||
         ...);
    if (!found) FAIL("conformance: unknown dtype " << d);
    return r;
}
template <class F, int K> pair_build dispatch(ctx& c, bool probe) {
    static_assert(std::size(matrix_dtype_names) == std::tuple_size_v<matrix_dtypes>);
    return dispatch_over<F, K>(c, probe, std::make_index_sequence<std::size(matrix_dtype_names)>());
}

// Compile-time dtype classes of the predicates.
template <class T> inline constexpr bool is_bool = std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_int = ca::is_integer_v<T>; // not bool
template <class T> inline constexpr bool is_cplx = ca::is_complex_v<T>;
template <class T> inline constexpr bool is_real_float = ca::is_floating_v<T>;

} // namespace conf

// A function of the matrix: NAME (the manifest's name), ACCEPTS (an expression in T: the dtypes
// clarray compiles it for), TOL (conf::tolerance) and the body, a function of (conf::ctx& c)
// templated on T and S.
#define CONF_FUNCTION(NAME, ACCEPTS, TOL)                                                          \
    struct conf_fn_##NAME {                                                                        \
        template <class T> static constexpr bool accepts() { return ACCEPTS; }                     \
        static constexpr unsigned numpy_refused = conf::numpy_refusals(#NAME);                     \
        template <class T, class S> static void run(conf::ctx& c);                                 \
    };                                                                                             \
    static const conf::registrar conf_reg_##NAME(#NAME, &conf::dispatch<conf_fn_##NAME, __LINE__>, \
                                                 TOL);                                             \
    template <class T, class S> void conf_fn_##NAME::run(conf::ctx& c)
