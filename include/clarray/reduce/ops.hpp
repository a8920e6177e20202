#pragma once
// The reduction operations, each described by type only: its accumulator and output types
// (NumPy's), its neutral element and its OpenCL text (codegen/reduce_source.hpp).
//
// Op::impl<V> for the mapped value type V provides:
//   acc (device accumulator), acc_host (its host layout), out (result element type),
//   static reduce_text text(), static acc_host neutral().
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "clarray/codegen/reduce_source.hpp"
#include "clarray/expr/promotion.hpp"
#include "clarray/types/dtype.hpp"
#include "clarray/types/shared_struct.hpp"

namespace clarray::detail {

// NumPy's sum/prod accumulator (dtype_traits).
template <class V> using sum_acc_t = typename dtype_traits<V>::sum_accumulator;
// mean/var/std/norm compute in the input's float (or complex) type, integers in float64.
template <class V> using mean_t = std::conditional_t<is_inexact_v<V>, V, double>;
// The type values of V accumulate in on the device: V, but float16 in float32 (it has no
// arithmetic of its own without cl_khr_fp16; NumPy, too, sums float16 in float32).
template <class V> using compute_t = std::conditional_t<std::is_same_v<V, half>, float, V>;
// The output of an accumulation of V in A: float16 stays float16 (rounded once, at the end).
template <class V, class A> using result_of_t = std::conditional_t<std::is_same_v<V, half>, V, A>;

// A reduce_text whose accumulator is dtype A.
template <class A> reduce_text text_accumulating() {
    reduce_text t;
    t.acc = dtype_traits<A>::cl_name;
    t.acc_extension = dtype_traits<A>::extension;
    return t;
}

// Accumulate `from` values by addition (compensated for floats and, part by part, complex).
template <class A> reduce_text additive_text(std::string from, std::string finish) {
    reduce_text t = text_accumulating<A>();
    t.from = std::move(from);
    t.combine = "return x + y;";
    t.finish = std::move(finish);
    t.compensated = is_inexact_v<A>;
    return t;
}

struct sum_op {
    static constexpr const char* name = "sum";
    static constexpr bool needs_elements = false;
    template <class V> struct impl {
        using acc = sum_acc_t<V>;
        using acc_host = stored_t<acc>;
        using out = result_of_t<V, acc>;
        static reduce_text text() {
            return additive_text<acc>(std::string("return (") + dtype_traits<acc>::cl_name + ")v;",
                                      "return x;");
        }
        static acc_host neutral() { return 0; }
    };
};

struct prod_op {
    static constexpr const char* name = "prod";
    static constexpr bool needs_elements = false;
    template <class V> struct impl {
        using acc = sum_acc_t<V>;
        using acc_host = stored_t<acc>;
        using out = result_of_t<V, acc>;
        static reduce_text text() {
            reduce_text t = text_accumulating<acc>();
            t.from = "return (" + t.acc + ")v;";
            // Complex: the product of codegen/complex_helpers.hpp, written out (x, y are values).
            t.combine = is_complex_v<acc> ? "return (" + t.acc +
                                                ")(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);"
                                          : "return x * y;";
            t.finish = "return x;";
            return t;
        }
        static acc_host neutral() { return 1; }
    };
};

// Sum in the value's own type (dot products: NumPy keeps the promoted type; bool dot is "any
// pair both true").
struct dot_sum_op {
    static constexpr const char* name = "dot";
    static constexpr bool needs_elements = false;
    template <class V> struct impl {
        using acc = compute_t<V>;
        using acc_host = stored_t<acc>;
        using out = V;
        static reduce_text text() {
            if constexpr (is_boolean_v<V>) {
                reduce_text t = text_accumulating<bool>();
                t.from = "return v != 0;";
                t.combine = "return x | y;";
                t.finish = "return x;";
                return t;
            } else {
                return additive_text<acc>("return v;", "return x;");
            }
        }
        static acc_host neutral() { return 0; }
    };
};

// max / min propagate NaN (NumPy's amax/amin); the neutral is the type's lowest/highest value
// (or the caller's `initial`). Complex values in NumPy's lexicographic order, as maximum's
// (expr/operators.hpp): x wins where it has a NaN part, so NaN propagates; the neutral
// (-inf, -inf) / (inf, inf) is below / above every other value.
template <bool Max> struct extremum_op {
    static constexpr const char* name = Max ? "max" : "min";
    static constexpr bool needs_elements = true;
    template <class V> struct impl {
        using acc = compute_t<V>;
        using acc_host = stored_t<acc>;
        using out = V;
        static reduce_text text() {
            reduce_text t = text_accumulating<acc>();
            t.from = "return v;";
            const std::string cmp = Max ? ">" : "<";
            if constexpr (is_complex_v<V>)
                t.combine = "return (isnan(x.x) || isnan(x.y) || (x.x " + cmp +
                            " y.x && !isnan(y.y)) || (x.x == y.x && x.y " + cmp +
                            "= y.y)) ? x : y;";
            else if constexpr (is_floating_v<V>)
                t.combine = "return (isnan(x) || x " + cmp + " y) ? x : y;";
            else
                t.combine = "return x " + cmp + " y ? x : y;";
            t.finish = "return x;";
            return t;
        }
        static acc_host neutral() {
            if constexpr (is_complex_v<V>) {
                using F = typename acc_host::value_type;
                const F inf = std::numeric_limits<F>::infinity();
                return Max ? acc_host(-inf, -inf) : acc_host(inf, inf);
            } else if constexpr (is_floating_v<V>)
                return Max ? -std::numeric_limits<acc>::infinity()
                           : std::numeric_limits<acc>::infinity();
            else if constexpr (is_boolean_v<V>)
                return Max ? 0 : 1;
            else
                return Max ? std::numeric_limits<V>::lowest() : std::numeric_limits<V>::max();
        }
    };
};
using max_op = extremum_op<true>;
using min_op = extremum_op<false>;

template <bool Any> struct logical_op {
    static constexpr const char* name = Any ? "any" : "all";
    static constexpr bool needs_elements = false;
    template <class V> struct impl {
        using acc = bool;
        using acc_host = std::uint8_t;
        using out = bool;
        static reduce_text text() {
            reduce_text t = text_accumulating<bool>();
            t.from = is_complex_v<V> ? "return any(v != 0);" : "return v != 0;";
            t.combine = Any ? "return x | y;" : "return x & y;";
            t.finish = "return x;";
            return t;
        }
        static acc_host neutral() { return Any ? 0 : 1; }
    };
};
using any_op = logical_op<true>;
using all_op = logical_op<false>;

// argmax / argmin: (value, index) pairs; NaN wins (the first NaN, as NumPy); ties take the
// smaller index, so the order of combination does not matter. Complex values in NumPy's
// lexicographic order (real parts, then imaginary parts; a NaN in either part wins), held as
// their two parts v and w: std::complex is aligned to its part, OpenCL C's float2 to its size.
template <bool Max> struct arg_op {
    static constexpr const char* name = Max ? "argmax" : "argmin";
    static constexpr bool needs_elements = true;
    template <class V> struct impl {
        using part = real_of_t<compute_t<V>>;
#define CLARRAY_ARG_ACC_FIELDS(F) F(stored_t<compute_t<V>>, v, 0) F(std::int64_t, i, 0)
#define CLARRAY_ARG_COMPLEX_ACC_FIELDS(F) F(part, v, 0) F(part, w, 0) F(std::int64_t, i, 0)
        // The device accumulator (value, index) and its host layout, from one field list.
        CLARRAY_SHARED_STRUCT(real_acc, CLARRAY_ARG_ACC_FIELDS);
        CLARRAY_SHARED_STRUCT(complex_acc, CLARRAY_ARG_COMPLEX_ACC_FIELDS);
#undef CLARRAY_ARG_ACC_FIELDS
#undef CLARRAY_ARG_COMPLEX_ACC_FIELDS
        using acc_host = std::conditional_t<is_complex_v<V>, complex_acc, real_acc>;
        using acc = std::int64_t; // placeholder for the type lists; the device type is a struct
        using out = std::int64_t;
        static std::string struct_name() {
            return std::string("clarray_arg_") + dtype_traits<V>::cl_name;
        }
        static reduce_text text() {
            reduce_text t = text_accumulating<compute_t<V>>(); // the extension of the V it holds
            const std::string s = struct_name();
            t.acc = s;
            t.prelude = acc_host::cl_declaration(s.c_str());
            const std::string cmp = Max ? ">" : "<";
            std::string body;
            if constexpr (is_complex_v<V>) {
                t.from = s + " r; r.v = v.x; r.w = v.y; r.i = (long)i; return r;";
                body = "const int xn = isnan(x.v) || isnan(x.w), yn = isnan(y.v) || isnan(y.w);\n"
                       "    if (xn || yn) return (xn && yn) ? (x.i <= y.i ? x : y) : (xn ? x : "
                       "y);\n    ";
                body += "if (x.v " + cmp + " y.v || (x.v == y.v && x.w " + cmp +
                        " y.w)) return x;\n    if (y.v " + cmp + " x.v || (y.v == x.v && y.w " +
                        cmp + " x.w)) return y;\n    return x.i <= y.i ? x : y;";
            } else {
                t.from = s + " r; r.v = v; r.i = (long)i; return r;";
                if constexpr (is_floating_v<V>)
                    body = "const int xn = isnan(x.v), yn = isnan(y.v);\n"
                           "    if (xn || yn) return (xn && yn) ? (x.i <= y.i ? x : y) : (xn ? x "
                           ": y);\n    ";
                body += "if (x.v " + cmp + " y.v) return x;\n    if (y.v " + cmp +
                        " x.v) return y;\n    return x.i <= y.i ? x : y;";
            }
            t.combine = body;
            t.finish = "return x.i;";
            return t;
        }
        static acc_host neutral() {
            acc_host a{};
            if constexpr (is_complex_v<V>) {
                const auto n = extremum_op<Max>::template impl<V>::neutral();
                a.v = n.real();
                a.w = n.imag();
            } else {
                a.v = extremum_op<Max>::template impl<V>::neutral();
            }
            a.i = std::numeric_limits<std::int64_t>::max();
            return a;
        }
    };
};
using argmax_op = arg_op<true>;
using argmin_op = arg_op<false>;

// Sums in the float type F of the map value v, finished by f(x, n). Complex values: mean
// sums in their complex type, the others sum |v|^2 or |v| in its real type (real results).
enum class float_sum_kind { mean, sum_squares_var, sum_squares_std, l1, l2 };
template <float_sum_kind K> struct float_sum_op {
    static constexpr const char* name = K == float_sum_kind::mean              ? "mean"
                                        : K == float_sum_kind::sum_squares_var ? "var"
                                        : K == float_sum_kind::sum_squares_std ? "std"
                                                                               : "norm";
    static constexpr bool needs_elements = false;
    template <class V> struct impl {
        // The result type: complex mean complex, the other complex sums real; float16 results
        // float16 (accumulated in float32).
        using out = std::conditional_t<K == float_sum_kind::mean, mean_t<V>, real_of_t<mean_t<V>>>;
        using acc = compute_t<out>;
        using acc_host = acc;
        static reduce_text text() {
            const std::string f = dtype_traits<acc>::cl_name;
            const std::string v = "(" + f + ")v";
            if constexpr (is_complex_v<V> && K != float_sum_kind::mean) {
                // v is complex (mean_t<V> is V): |v|^2 = x^2 + y^2 rounds as NumPy's norm.
                const std::string sq = "return v.x * v.x + v.y * v.y;";
                switch (K) {
                case float_sum_kind::sum_squares_var:
                    return additive_text<acc>(sq, "return x / (" + f + ")n;");
                case float_sum_kind::sum_squares_std:
                    return additive_text<acc>(sq, "return sqrt(x / (" + f + ")n);");
                case float_sum_kind::l1:
                    return additive_text<acc>("return hypot(v.x, v.y);", "return x;");
                default:
                    return additive_text<acc>(sq, "return sqrt(x);");
                }
            }
            switch (K) {
            case float_sum_kind::mean:
                return additive_text<acc>("return " + v + ";", "return x / (" + f + ")n;");
            case float_sum_kind::sum_squares_var:
                return additive_text<acc>("return " + v + " * " + v + ";",
                                          "return x / (" + f + ")n;");
            case float_sum_kind::sum_squares_std:
                return additive_text<acc>("return " + v + " * " + v + ";",
                                          "return sqrt(x / (" + f + ")n);");
            case float_sum_kind::l1:
                return additive_text<acc>("return fabs(" + v + ");", "return x;");
            case float_sum_kind::l2:
            default:
                return additive_text<acc>("return " + v + " * " + v + ";", "return sqrt(x);");
            }
        }
        static acc_host neutral() { return 0; }
    };
};
using mean_op = float_sum_op<float_sum_kind::mean>;
using var_op = float_sum_op<float_sum_kind::sum_squares_var>;
using std_op = float_sum_op<float_sum_kind::sum_squares_std>;
using norm1_op = float_sum_op<float_sum_kind::l1>;
using norm2_op = float_sum_op<float_sum_kind::l2>;

// max |v| in the float type (NaN propagates).
struct norm_inf_op {
    static constexpr const char* name = "norm(inf)";
    static constexpr bool needs_elements = true;
    template <class V> struct impl {
        using out = real_of_t<mean_t<V>>;
        using acc = compute_t<out>;
        using acc_host = acc;
        static reduce_text text() {
            reduce_text t = text_accumulating<acc>();
            t.from = is_complex_v<V> ? "return hypot(v.x, v.y);" : "return fabs((" + t.acc + ")v);";
            t.combine = "return (isnan(x) || x > y) ? x : y;";
            t.finish = "return x;";
            return t;
        }
        static acc_host neutral() { return 0; }
    };
};

} // namespace clarray::detail
