#pragma once
// Elementwise operators and functions on clarray expressions. Each op states its result type
// (NumPy 2 rules) and its OpenCL text; operands are converted to the computation type first, and
// the result to the result type, so narrow integers wrap as in NumPy. Complex values are OpenCL
// float2/double2; their products, quotients and functions are the helpers of
// codegen/complex_helpers.hpp.
#include <string>
#include <type_traits>
#include <utility>

#include "clarray/codegen/complex_helpers.hpp"
#include "clarray/expr/device_check.hpp"
#include "clarray/expr/expression.hpp"

namespace clarray {
namespace detail {

// `text` converted to T: a C cast, or in a vector kernel the lanewise identity (see lanewise).
template <class T> std::string cast_to(const source_builder& g, const std::string& text) {
    return g.cast(dtype_of<T>(), text);
}
// `text` of type From converted to T (cast_to, or a conversion to or from complex).
template <class T, class From>
std::string convert(const source_builder& g, const std::string& text) {
    return g.convert(dtype_of<T>(), dtype_of<From>(), text);
}
// Whether `text` of type A is non-zero (a complex number: either part).
template <class A> std::string truth(const std::string& text) {
    if constexpr (is_complex_v<A>)
        return "any((" + text + ") != 0)";
    else
        return "(" + text + ") != 0";
}
// x SYMBOL y on complex values of type R: + and - are the vector operators.
template <class R>
std::string complex_arith(source_builder& g, const char* symbol, const std::string& x,
                          const std::string& y) {
    if (symbol[0] == '*')
        return complex_helper(g, complex_fn::mul, dtype_of<R>()) + "(" + x + ", " + y + ")";
    return "(" + x + " " + symbol + " " + y + ")";
}
// An OpenCL helper function from its text: $T stands for the type, $F for the function's name.
inline std::string cl_helper(const char* text, const std::string& type, const std::string& name) {
    std::string s;
    for (const char* c = text; *c; ++c) {
        if (c[0] == '$' && (c[1] == 'T' || c[1] == 'F'))
            s += *++c == 'T' ? type : name;
        else
            s += *c;
    }
    return s;
}

// ---- binary arithmetic: result = promote(A, B), computed in the result type ----
#define CLARRAY_ARITH_OP(NAME, SYMBOL, CHECK, BASE)                                                \
    struct NAME BASE {                                                                             \
        template <class A, class B> using result_t = promote_t<A, B>;                              \
        template <class A, class B>                                                                \
        static std::string emit(source_builder& g, const std::string& a, const std::string& b) {   \
            using R = result_t<A, B>;                                                              \
            CHECK;                                                                                 \
            if constexpr (is_complex_v<R>)                                                         \
                return complex_arith<R>(g, SYMBOL, convert<R, A>(g, a), convert<R, B>(g, b));      \
            else                                                                                   \
                return cast_to<R>(g, cast_to<R>(g, a) + " " SYMBOL " " + cast_to<R>(g, b));        \
        }                                                                                          \
    };
CLARRAY_ARITH_OP(plus_op, "+", , : lanewise_op)
CLARRAY_ARITH_OP(minus_op, "-",
                 static_assert(!is_boolean_v<R>, "boolean subtract is not supported (as in NumPy); "
                                                 "use logical_xor or ^"),
                 : lanewise_op)
CLARRAY_ARITH_OP(multiplies_op, "*", , : lanewise_op)
CLARRAY_ARITH_OP(bit_and_op, "&",
                 static_assert(!is_inexact_v<R>, "& needs integer or bool operands"), )
CLARRAY_ARITH_OP(bit_or_op, "|",
                 static_assert(!is_inexact_v<R>, "| needs integer or bool operands"), )
CLARRAY_ARITH_OP(bit_xor_op, "^",
                 static_assert(!is_inexact_v<R>, "^ needs integer or bool operands"), )
#undef CLARRAY_ARITH_OP

// Shifts as NumPy's: OpenCL takes the count modulo the (promoted) width, NumPy does not. A count
// at least the width, or negative, shifts every bit out: a << n is 0, a >> n is 0 or, for a
// negative signed a, -1. The count is compared as unsigned (a negative one is then too large).
template <bool Left> struct shift_op {
    template <class A, class B> using result_t = promote_t<A, B>;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b) {
        using R = result_t<A, B>;
        static_assert(is_integer_v<R>, "<< and >> need integer operands");
        const std::string t = cl_value_type_name(dtype_of<R>());
        const std::string u = is_signed_integer_v<R> ? "u" + t : t;
        const std::string bits = std::to_string(8 * sizeof(R));
        const std::string f = std::string(Left ? "clarray_shl_" : "clarray_shr_") + t;
        std::string body;
        if (Left)
            body = "(" + u + ")b < " + bits + " ? ($T)((" + u + ")a << b) : 0";
        else if (is_signed_integer_v<R>)
            body = "(" + u + ")b < " + bits + " ? a >> b : (a < 0 ? -1 : 0)";
        else
            body = "b < " + bits + " ? a >> b : 0";
        g.helper(f, cl_helper(("inline $T $F($T a, $T b) { return " + body + "; }").c_str(), t, f));
        return f + "(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
    }
};
using shift_left_op = shift_op<true>;
using shift_right_op = shift_op<false>;

// True division: integers divide as double (NumPy's true_divide).
struct divides_op : lanewise_op {
    template <class A, class B> using result_t = true_divide_t<promote_t<A, B>>;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b) {
        using R = result_t<A, B>;
        if constexpr (is_complex_v<R>)
            return complex_helper(g, complex_fn::div, dtype_of<R>()) + "(" + convert<R, A>(g, a) +
                   ", " + convert<R, B>(g, b) + ")";
        else
            return cast_to<R>(g, cast_to<R>(g, a) + " / " + cast_to<R>(g, b));
    }
};

// Python-style floor division and modulo (the result takes the divisor's sign); integer division
// by zero gives 0, as NumPy does (it warns), instead of trapping.
struct floor_divide_op {
    template <class A, class B> using result_t = promote_t<A, B>;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b) {
        using R = result_t<A, B>;
        static_assert(!is_boolean_v<R>, "floor_divide needs numeric operands");
        static_assert(!is_complex_v<R>, "floor_divide is not defined for complex numbers");
        const std::string t = cl_value_type_name(dtype_of<R>()), f = "clarray_floordiv_" + t;
        if constexpr (is_floating_v<R>) {
            // NumPy's npy_divmod: exact even where a / b rounds (devices need not round
            // division correctly).
            g.helper(f, cl_helper(R"CLC(inline $T $F($T a, $T b) {
    if (b == 0) return a / b;
    $T m = fmod(a, b);
    $T d = (a - m) / b;
    if (m != 0 && ((b < 0) != (m < 0))) d -= 1;
    if (d == 0) return copysign(($T)0, a / b);
    $T f = floor(d);
    if (d - f > ($T)0.5) f += 1;
    return f;
})CLC",
                                  t, f));
        } else if constexpr (is_signed_integer_v<R>) {
            g.helper(f, cl_helper(R"CLC(inline $T $F($T a, $T b) {
    if (b == 0) return 0;
    if (b == -1) return ($T)(0 - (u$T)a);
    $T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
})CLC",
                                  t, f));
        } else {
            g.helper(f, cl_helper("inline $T $F($T a, $T b) { return b == 0 ? 0 : a / b; }", t, f));
        }
        return f + "(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
    }
};
struct modulus_op {
    template <class A, class B> using result_t = promote_t<A, B>;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b) {
        using R = result_t<A, B>;
        static_assert(!is_boolean_v<R>, "% needs numeric operands");
        static_assert(!is_complex_v<R>, "% is not defined for complex numbers");
        const std::string t = cl_value_type_name(dtype_of<R>()), f = "clarray_mod_" + t;
        if constexpr (is_floating_v<R>) {
            g.helper(f, cl_helper(R"CLC(inline $T $F($T a, $T b) {
    $T r = fmod(a, b);
    if (r != 0) { if ((r < 0) != (b < 0)) r += b; }
    else if (b == b) r = copysign(($T)0, b); // zero takes b's sign
    return r;
})CLC",
                                  t, f));
        } else if constexpr (is_signed_integer_v<R>) {
            g.helper(f, cl_helper(R"CLC(inline $T $F($T a, $T b) {
    if (b == 0 || b == -1) return 0;
    $T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
})CLC",
                                  t, f));
        } else {
            g.helper(f, cl_helper("inline $T $F($T a, $T b) { return b == 0 ? 0 : a % b; }", t, f));
        }
        return f + "(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
    }
};

// Integer powers by squaring (OpenCL has pow for floats only). A negative integer exponent is
// an error, as NumPy's ValueError: pow() refuses a negative scalar exponent when the expression
// is built, and an integer array exponent is checked on the device (checked_power_op); the
// helper's own answer to one (0) is never a result.
// bool ** bool is int8 (NumPy has no bool power).
struct power_op : lanewise_call_op { // lanewise for floats only (lanewise_as)
    template <class A, class B> using result_t = bool_as_int8_t<promote_t<A, B>>;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b) {
        using R = result_t<A, B>;
        if constexpr (is_complex_v<R>) {
            return complex_helper(g, complex_fn::pow, dtype_of<R>()) + "(" + convert<R, A>(g, a) +
                   ", " + convert<R, B>(g, b) + ")";
        } else if constexpr (is_floating_v<R>) {
            return "pow(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
        } else {
            const std::string t = cl_value_type_name(dtype_of<R>()), f = "clarray_ipow_" + t;
            std::string text = "inline $T $F($T b, $T e) {\n";
            if constexpr (is_signed_integer_v<R>) text += "    if (e < 0) return 0;\n";
            text += R"CLC(    $T r = 1;
    while (e) { if (e & 1) r *= b; b *= b; e >>= 1; }
    return r;
})CLC";
            g.helper(f, cl_helper(text.c_str(), t, f));
            return f + "(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
        }
    }
};

// NumPy's ValueError for an integer power with a negative exponent, a dtype_error here.
inline constexpr const char* negative_power_message =
    "pow: integers to negative integer powers are not allowed (NumPy's power raises too); "
    "convert the base or the exponent to a floating type first";
// The device check of an array exponent (runtime/device_checks.hpp): negative_power_message.
extern const device_check_kind negative_power_check;

// A device check's two kernel arguments (expr/device_check.hpp) as one child of a function
// node: its text is "flag words, word index", for the op's helper to pass on.
class check_node {
public:
    using value_type = bool; // no value: see emit
    check_node(const context& ctx, const device_check_site& site) : check_(ctx, site, true) {}
    static std::string emit(source_builder& b) {
        const std::string flag = b.flag_input();
        return flag + ", " + b.scalar_input(dtype::uint32);
    }
    template <class F> void for_each_terminal(F&& f) const {
        f(check_.flag_terminal());
        f(check_.word_terminal());
    }
    template <class T> static constexpr bool lanewise_as = false;
    static constexpr bool calls_function = false;

private:
    device_check check_;
};

// power_op on integers whose exponent is an array of a signed type: a negative exponent sets the
// check's flag word (the next host wait throws dtype_error) and gives 0.
struct checked_power_op {
    template <class A, class B, class C> using result_t = power_op::result_t<A, B>;
    template <class A, class B, class C>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b,
                            const std::string& check) {
        using R = result_t<A, B, C>;
        static_assert(is_integer_v<R>, "checked_power_op: integer powers only");
        const std::string t = cl_value_type_name(dtype_of<R>()), f = "clarray_ipow_checked_" + t;
        const std::string power = power_op::emit<R, R>(g, "b", "e");
        g.helper(f, cl_helper(("inline $T $F($T b, $T e, global uint* f, uint w) {\n"
                               "    if (e < 0) { f[w] = 1u; return 0; }\n"
                               "    return " +
                               power + ";\n}")
                                  .c_str(),
                              t, f));
        return f + "(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ", " + check + ")";
    }
};

// Whether Y is an array operand of a signed integer type (a scalar is not).
template <class Y> constexpr bool signed_integer_operand() {
    if constexpr (is_scalar_v<Y>)
        return false;
    else
        return is_signed_integer_v<value_type_of<Y>>;
}

// pow(x, y): NumPy's power; on integers a negative exponent is a dtype_error (see power_op).
template <class X, class Y> auto make_power(X&& x, Y&& y) {
    using plain = decltype(make_binary<power_op>(std::forward<X>(x), std::forward<Y>(y)));
    using R = typename plain::value_type;
    if constexpr (!is_integer_v<R> || !(is_scalar_v<Y> || signed_integer_operand<Y>())) {
        return make_binary<power_op>(std::forward<X>(x), std::forward<Y>(y));
    } else if constexpr (is_scalar_v<Y>) {
        if constexpr (std::is_signed_v<std::decay_t<Y>>)
            if (y < 0) throw dtype_error(negative_power_message);
        return make_binary<power_op>(std::forward<X>(x), std::forward<Y>(y));
    } else {
        const context* ctx = nullptr;
        as_node(y).for_each_terminal([&](const auto& t) {
            if constexpr (std::decay_t<decltype(t)>::is_array)
                if (!ctx) ctx = &t.array().get_context();
        });
        check_node check(*ctx, device_check_site{&negative_power_check, "pow"});
        if constexpr (is_scalar_v<X>) {
            using ST = weak_operand_t<power_op, Y, X>;
            return function_node<checked_power_op, ST, child_t<Y>, check_node>(
                ST(x), as_node(std::forward<Y>(y)), std::move(check));
        } else {
            return function_node<checked_power_op, child_t<X>, child_t<Y>, check_node>(
                as_node(std::forward<X>(x)), as_node(std::forward<Y>(y)), std::move(check));
        }
    }
}

// Complex maximum/minimum/fmax/fmin as NumPy's: lexicographic order (real parts, then imaginary
// parts). maximum/minimum give a where a has a NaN part or compares GE (LE) to b, else b, so the
// first operand with a NaN wins; fmax/fmin give a where b has a NaN part or a compares GE (LE),
// else b (NumPy's CGE/CLE, whose real-part test fails when an imaginary part is NaN).
template <class R>
std::string complex_extremum(source_builder& g, const char* name, bool greater, bool propagate_nan,
                             const std::string& a, const std::string& b) {
    const std::string t = cl_value_type_name(dtype_of<R>());
    const std::string f = std::string("clarray_") + name + "_" + t;
    const std::string cmp = greater ? ">" : "<";
    const std::string order = "((a.x " + cmp + " b.x && !isnan(a.y) && !isnan(b.y)) || " +
                              "(a.x == b.x && a.y " + cmp + "= b.y))";
    const std::string keep_a = propagate_nan ? "isnan(a.x) || isnan(a.y) || " + order
                                             : "isnan(b.x) || isnan(b.y) || " + order;
    g.helper(f, cl_helper(("inline $T $F($T a, $T b) { return (" + keep_a + ") ? a : b; }").c_str(),
                          t, f));
    return f + "(" + a + ", " + b + ")";
}

// maximum/minimum propagate NaN (NumPy); fmax/fmin ignore it. Complex values in NumPy's
// lexicographic order (complex_extremum).
#define CLARRAY_MINMAX_OP(NAME, FN, PROPAGATE_NAN, BASE)                                           \
    struct NAME BASE {                                                                             \
        template <class A, class B> using result_t = promote_t<A, B>;                              \
        template <class A, class B>                                                                \
        static std::string emit(source_builder& g, const std::string& a, const std::string& b) {   \
            using R = result_t<A, B>;                                                              \
            if constexpr (is_complex_v<R>) {                                                       \
                return complex_extremum<R>(g, #NAME, FN[1] == 'a' /* max */, PROPAGATE_NAN,        \
                                           convert<R, A>(g, a), convert<R, B>(g, b));              \
            } else if constexpr (is_floating_v<R> && PROPAGATE_NAN) {                              \
                const std::string t = cl_value_type_name(dtype_of<R>()),                           \
                                  f = "clarray_" #NAME "_" + t;                                    \
                g.helper(f, cl_helper("inline $T $F($T a, $T b) {"                                 \
                                      " return (isnan(a) || isnan(b)) ? a + b : f" FN "(a, b); }", \
                                      t, f));                                                      \
                return f + "(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";                 \
            } else {                                                                               \
                return std::string(is_floating_v<R> ? "f" FN : FN) + "(" + cast_to<R>(g, a) +      \
                       ", " + cast_to<R>(g, b) + ")";                                              \
            }                                                                                      \
        }                                                                                          \
    };
CLARRAY_MINMAX_OP(maximum_op, "max", true, ) // scalar helper
CLARRAY_MINMAX_OP(minimum_op, "min", true, )
CLARRAY_MINMAX_OP(fmax_op, "max", false, : lanewise_op)
CLARRAY_MINMAX_OP(fmin_op, "min", false, : lanewise_op)
#undef CLARRAY_MINMAX_OP

// A signed integer with an unsigned one whose promotion is floating (uint64 with any signed
// type: float64): NumPy 2 compares such values exactly, not through float64.
template <class A, class B> constexpr bool is_mixed_sign_compare() {
    if constexpr (is_integer_v<A> && is_integer_v<B>)
        return is_signed_integer_v<A> != is_signed_integer_v<B> && is_floating_v<promote_t<A, B>>;
    else
        return false;
}
// The sign of s - u (-1, 0, 1) for a signed s and an unsigned u, exactly, as OpenCL text.
inline std::string mixed_sign_compare(source_builder& g, const std::string& s,
                                      const std::string& u) {
    g.helper("clarray_cmp_su", "inline int clarray_cmp_su(long s, ulong u) {\n"
                               "    if (s < 0) return -1;\n"
                               "    return (ulong)s < u ? -1 : ((ulong)s > u ? 1 : 0);\n}");
    return "clarray_cmp_su((long)(" + s + "), (ulong)(" + u + "))";
}

// Comparisons: computed in the promoted type, bool result; a signed with an unsigned integer
// exactly (is_mixed_sign_compare). Complex values compare equal when both parts do (COMPLEX:
// "all" for ==, "any" for !=); complex numbers are not ordered.
#define CLARRAY_COMPARE_OP(NAME, SYMBOL, COMPLEX)                                                  \
    struct NAME {                                                                                  \
        static constexpr bool compares = true;                                                     \
        template <class A, class B> using result_t = bool;                                         \
        template <class A, class B>                                                                \
        static std::string emit(source_builder& g, const std::string& a, const std::string& b) {   \
            using C = promote_t<A, B>;                                                             \
            static_assert(!is_complex_v<C> || sizeof(COMPLEX) > 1,                                 \
                          SYMBOL ": complex numbers are not ordered");                             \
            if constexpr (is_complex_v<C>)                                                         \
                return std::string(COMPLEX "(") + convert<C, A>(g, a) + " " SYMBOL " " +           \
                       convert<C, B>(g, b) + ")";                                                  \
            else if constexpr (is_mixed_sign_compare<A, B>() && is_signed_integer_v<A>)            \
                return "(" + mixed_sign_compare(g, a, b) + " " SYMBOL " 0)";                       \
            else if constexpr (is_mixed_sign_compare<A, B>())                                      \
                return "(0 " SYMBOL " " + mixed_sign_compare(g, b, a) + ")";                       \
            else                                                                                   \
                return "(" + cast_to<C>(g, a) + " " SYMBOL " " + cast_to<C>(g, b) + ")";           \
        }                                                                                          \
    };
CLARRAY_COMPARE_OP(equal_op, "==", "all")
CLARRAY_COMPARE_OP(not_equal_op, "!=", "any")
CLARRAY_COMPARE_OP(less_op, "<", "")
CLARRAY_COMPARE_OP(less_equal_op, "<=", "")
CLARRAY_COMPARE_OP(greater_op, ">", "")
CLARRAY_COMPARE_OP(greater_equal_op, ">=", "")
#undef CLARRAY_COMPARE_OP

struct logical_and_op {
    template <class A, class B> using result_t = bool;
    template <class A, class B>
    static std::string emit(source_builder&, const std::string& a, const std::string& b) {
        return "(" + truth<A>(a) + " && " + truth<B>(b) + ")";
    }
};
struct logical_or_op {
    template <class A, class B> using result_t = bool;
    template <class A, class B>
    static std::string emit(source_builder&, const std::string& a, const std::string& b) {
        return "(" + truth<A>(a) + " || " + truth<B>(b) + ")";
    }
};
struct logical_xor_op {
    template <class A, class B> using result_t = bool;
    template <class A, class B>
    static std::string emit(source_builder&, const std::string& a, const std::string& b) {
        return "((" + truth<A>(a) + ") != (" + truth<B>(b) + "))";
    }
};

// Two-argument float functions: computed in float_of(promote(A, B)).
#define CLARRAY_FLOAT_BINARY(NAME, FN)                                                             \
    struct NAME : lanewise_call_op {                                                               \
        template <class A, class B> using result_t = float_of_t<promote_t<A, B>>;                  \
        template <class A, class B>                                                                \
        static std::string emit(source_builder& g, const std::string& a, const std::string& b) {   \
            using R = result_t<A, B>;                                                              \
            static_assert(!is_complex_v<R>, FN ": complex operands are not supported");            \
            return std::string(FN "(") + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";         \
        }                                                                                          \
    };
CLARRAY_FLOAT_BINARY(atan2_op, "atan2")
CLARRAY_FLOAT_BINARY(hypot_op, "hypot")
CLARRAY_FLOAT_BINARY(copysign_op, "copysign")
#undef CLARRAY_FLOAT_BINARY

// fmod: C's truncated remainder (the result takes the dividend's sign). Floats use OpenCL's fmod;
// integers (bool as int8, fmod_result_t) stay integers, as NumPy's, where x fmod 0 is 0 (NumPy
// warns) and a signed x fmod -1 is 0 (no overflow trap for the type's minimum).
struct fmod_op : lanewise_call_op { // lanewise for floats only (lanewise_as)
    template <class A, class B> using result_t = fmod_result_t<promote_t<A, B>>;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b) {
        using R = result_t<A, B>;
        static_assert(!is_complex_v<R>, "fmod: complex operands are not supported");
        if constexpr (is_floating_v<R>) {
            return "fmod(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
        } else {
            const std::string t = cl_value_type_name(dtype_of<R>()), f = "clarray_fmod_" + t;
            g.helper(f, cl_helper(is_signed_integer_v<R>
                                      ? "inline $T $F($T a, $T b) {"
                                        " return (b == 0 || b == -1) ? 0 : ($T)(a % b); }"
                                      : "inline $T $F($T a, $T b) { return b == 0 ? 0 : a % b; }",
                                  t, f));
            return f + "(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
        }
    }
};

// nextafter: float16 steps to the neighbouring float16 (its values are floats in the kernel,
// where nextafter would step by a float ulp, which the store rounds away).
struct nextafter_op : lanewise_call_op {
    static constexpr bool half_lanewise = false; // float16: a scalar helper
    template <class A, class B> using result_t = float_of_t<promote_t<A, B>>;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b) {
        using R = result_t<A, B>;
        if constexpr (std::is_same_v<R, half>) {
            // The float16 ulp at |a| is 2^(e-10), e its binade (subnormals share 2^-14's), half
            // that when stepping down onto the binade below.
            g.helper("clarray_nextafter_half",
                     R"CLC(inline float clarray_nextafter_half(float a, float b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return b;
    if (a == 0) return copysign(0x1p-24f, b);
    if (isinf(a)) return copysign(65504.0f, a);
    const float m = fabs(a);
    const int e = max(ilogb(m), -14);
    float ulp = ldexp(1.0f, e - 10);
    if ((b > a) != (a > 0) && e > -14 && m == ldexp(1.0f, e)) ulp *= 0.5f;
    const float r = b > a ? a + ulp : a - ulp;
    if (r == 0) return copysign(0.0f, a);
    return fabs(r) > 65504.0f ? copysign(INFINITY, r) : r;
})CLC");
            return "clarray_nextafter_half(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
        } else {
            return "nextafter(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
        }
    }
};

// ---- unary ----
struct negate_op : lanewise_op {
    template <class A> using result_t = A;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        static_assert(!is_boolean_v<A>, "unary - on bool is not supported (as in NumPy); use !");
        return cast_to<A>(g, "-" + cast_to<A>(g, a));
    }
};
struct bit_not_op { // ~ : bitwise for integers, logical for bool (as NumPy)
    template <class A> using result_t = A;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        static_assert(!is_inexact_v<A>, "~ needs integer or bool operands");
        if constexpr (is_boolean_v<A>)
            return std::string("((") + dtype_traits<bool>::cl_name + ")((" + a + ") == 0))";
        else
            return cast_to<A>(g, "~" + cast_to<A>(g, a));
    }
};
struct logical_not_op {
    template <class A> using result_t = bool;
    template <class A> static std::string emit(source_builder&, const std::string& a) {
        if constexpr (is_complex_v<A>) return "all((" + a + ") == 0)";
        return "((" + a + ") == 0)";
    }
};
struct abs_op : lanewise_op { // fabs for floats; |z| (real) for complex
    template <class A> using result_t = real_of_t<A>;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        if constexpr (is_complex_v<A>)
            return complex_helper(g, complex_fn::abs, dtype_of<A>()) + "(" + a + ")";
        else if constexpr (is_floating_v<A>)
            return "fabs(" + cast_to<A>(g, a) + ")";
        else if constexpr (is_boolean_v<A> || is_unsigned_integer_v<A>)
            return cast_to<A>(g, a);
        else
            return cast_to<A>(g, "abs(" + cast_to<A>(g, a) + ")");
    }
};
template <class U> struct cast_op : lanewise_op { // the identity when lanewise
    template <class A> using result_t = canonical_t<U>;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        if constexpr (std::is_same_v<U, half> && !std::is_same_v<A, half>) {
            // float16 values compute in float; an explicit cast rounds as a store would (never
            // lanewise: a lanewise tree has no value of another type). A complex value gives its
            // real part.
            if constexpr (is_complex_v<A>)
                return g.round_to_half(dtype_of<real_of_t<A>>(), "(" + a + ").x");
            else
                return g.round_to_half(dtype_of<A>(), a);
        } else {
            return convert<canonical_t<U>, A>(g, a);
        }
    }
};

// The parts of complex numbers (NumPy's real, imag, conj, angle); on real values real and conj
// are the value, imag is 0 and angle is atan2(0, x) in float_of(A). conj of bool is int8 and
// angle of bool float64, as NumPy's (conj has no bool loop; angle computes atan2(0, x) with a
// Python int 0, which makes bool int64).
struct real_op {
    template <class A> using result_t = real_of_t<A>;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        if constexpr (is_complex_v<A>)
            return cast_to<real_of_t<A>>(g, "(" + a + ").x");
        else
            return cast_to<A>(g, a);
    }
};
struct imag_op {
    template <class A> using result_t = real_of_t<A>;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        if constexpr (is_complex_v<A>)
            return cast_to<real_of_t<A>>(g, "(" + a + ").y");
        else
            return cast_to<A>(g, "0");
    }
};
struct conj_op {
    template <class A> using result_t = bool_as_int8_t<A>;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        if constexpr (is_complex_v<A>)
            return complex_helper(g, complex_fn::conj, dtype_of<A>()) + "(" + a + ")";
        else
            return cast_to<result_t<A>>(g, a);
    }
};
struct angle_op {
    template <class A>
    using result_t = std::conditional_t<is_boolean_v<A>, double, real_of_t<float_of_t<A>>>;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        if constexpr (is_complex_v<A>) {
            return complex_helper(g, complex_fn::arg, dtype_of<A>()) + "(" + a + ")";
        } else {
            using F = result_t<A>;
            return "atan2(" + cast_to<F>(g, "0") + ", " + cast_to<F>(g, a) + ")";
        }
    }
};

// The complex helper of a one-argument math function, or -1 (not defined for complex here).
constexpr int complex_unary_function(const char* name) {
    const char* names[] = {"exp",   "log",   "sqrt",  "sin",  "cos",  "tanh",  "tan",
                           "sinh",  "cosh",  "asin",  "acos", "atan", "asinh", "acosh",
                           "atanh", "expm1", "log1p", "log2", "log10"};
    const complex_fn fns[] = {
        complex_fn::exp,   complex_fn::log,   complex_fn::sqrt,  complex_fn::sin,
        complex_fn::cos,   complex_fn::tanh,  complex_fn::tan,   complex_fn::sinh,
        complex_fn::cosh,  complex_fn::asin,  complex_fn::acos,  complex_fn::atan,
        complex_fn::asinh, complex_fn::acosh, complex_fn::atanh, complex_fn::expm1,
        complex_fn::log1p, complex_fn::log2,  complex_fn::log10};
    static_assert(sizeof(names) / sizeof(names[0]) == sizeof(fns) / sizeof(fns[0]));
    for (int i = 0; i < int(sizeof(names) / sizeof(names[0])); ++i) {
        int k = 0;
        while (names[i][k] && names[i][k] == name[k])
            ++k;
        if (names[i][k] == name[k]) return static_cast<int>(fns[i]);
    }
    return -1;
}

// One-argument float functions, computed in float_of(A); on complex values, those of
// complex_unary_function.
#define CLARRAY_FLOAT_UNARY(NAME, FN)                                                              \
    struct NAME : lanewise_call_op {                                                               \
        template <class A> using result_t = float_of_t<A>;                                         \
        template <class A> static std::string emit(source_builder& g, const std::string& a) {      \
            if constexpr (is_complex_v<A>) {                                                       \
                constexpr int f = complex_unary_function(FN);                                      \
                static_assert(f >= 0 || dependent_false_v<A>,                                      \
                              FN ": not defined for complex operands (docs/complex.md lists the "  \
                                 "functions that are)");                                           \
                return complex_helper(g, static_cast<complex_fn>(f), dtype_of<A>()) + "(" + a +    \
                       ")";                                                                        \
            } else {                                                                               \
                return std::string(FN "(") + cast_to<float_of_t<A>>(g, a) + ")";                   \
            }                                                                                      \
        }                                                                                          \
    };
// clang-format off
#define CLARRAY_FLOAT_FUNCTIONS(X)                                                                 \
    X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh)         \
    X(atanh) X(exp) X(exp2) X(exp10) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sqrt) X(rsqrt)    \
    X(cbrt) X(rint) X(fabs) X(erf) X(erfc) X(tgamma) X(lgamma) X(sinpi) X(cospi) X(tanpi) X(logb)
// clang-format on
#define CLARRAY_DEFINE_FLOAT_UNARY(F) CLARRAY_FLOAT_UNARY(F##_op, #F)
CLARRAY_FLOAT_FUNCTIONS(CLARRAY_DEFINE_FLOAT_UNARY)
#undef CLARRAY_DEFINE_FLOAT_UNARY
#undef CLARRAY_FLOAT_UNARY

// ceil, floor, trunc and round as NumPy 2.4: an integer keeps its type and value; bool stays
// bool for ceil, floor and trunc, and round of bool is float16 (BOOL_RESULT); floats as the
// math functions above, round to the nearest even on ties (OpenCL's rint; its round goes away
// from zero). Not defined for complex numbers.
#define CLARRAY_ROUNDING_OP(NAME, FN, BOOL_RESULT)                                                 \
    struct NAME : lanewise_call_op {                                                               \
        template <class A>                                                                         \
        using result_t =                                                                           \
            std::conditional_t<is_integer_v<A>, A,                                                 \
                               std::conditional_t<is_boolean_v<A>, BOOL_RESULT, float_of_t<A>>>;   \
        template <class A> static std::string emit(source_builder& g, const std::string& a) {      \
            static_assert(!is_complex_v<A>, FN ": not defined for complex operands");              \
            if constexpr (is_floating_v<A>)                                                        \
                return std::string(FN "(") + cast_to<A>(g, a) + ")";                               \
            else /* its own value */                                                               \
                return cast_to<result_t<A>>(g, a);                                                 \
        }                                                                                          \
    };
CLARRAY_ROUNDING_OP(ceil_op, "ceil", bool)
CLARRAY_ROUNDING_OP(floor_op, "floor", bool)
CLARRAY_ROUNDING_OP(trunc_op, "trunc", bool)
CLARRAY_ROUNDING_OP(round_op, "rint", half)
#undef CLARRAY_ROUNDING_OP
#define CLARRAY_ROUNDING_FUNCTIONS(X) X(ceil) X(floor) X(trunc) X(round)

// sign as NumPy 2: -1, 0 or 1 in the operand's type, NaN stays NaN; a complex z gives z / |z|
// (0 at 0). No bool loop, as NumPy.
struct sign_op {
    template <class A> using result_t = A;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        static_assert(!is_boolean_v<A>, "sign: not defined for bool (as in NumPy)");
        const std::string t = cl_value_type_name(dtype_of<A>()), f = "clarray_sign_" + t;
        if constexpr (is_complex_v<A>) {
            const std::string abs = complex_helper(g, complex_fn::abs, dtype_of<A>());
            g.helper(f, cl_helper(("inline $T $F($T z) { const " +
                                   std::string(cl_value_type_name(dtype_of<real_of_t<A>>())) +
                                   " m = " + abs + "(z); return m == 0 ? z * 0 : z / m; }")
                                      .c_str(),
                                  t, f));
        } else if constexpr (is_floating_v<A>) {
            g.helper(f, cl_helper("inline $T $F($T x) { return x > 0 ? 1 : x < 0 ? -1 : x == 0 ? "
                                  "0 : x; }",
                                  t, f));
        } else {
            g.helper(f,
                     cl_helper("inline $T $F($T x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }", t, f));
        }
        return f + "(" + cast_to<A>(g, a) + ")";
    }
};
// signbit: whether the sign bit is set (an integer: whether it is negative; bool: false).
struct signbit_op {
    template <class A> using result_t = bool;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        static_assert(!is_complex_v<A>, "signbit: not defined for complex operands");
        if constexpr (is_floating_v<A>)
            return "(signbit(" + cast_to<A>(g, a) + ") != 0)";
        else if constexpr (is_signed_integer_v<A>)
            return "((" + a + ") < 0)";
        else
            return "0";
    }
};
// square: x * x in the operand's type (bool squares as int8, as NumPy's).
struct square_op {
    template <class A> using result_t = bool_as_int8_t<A>;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        using R = result_t<A>;
        const std::string t = cl_value_type_name(dtype_of<R>()), f = "clarray_square_" + t;
        if constexpr (is_complex_v<R>)
            g.helper(f, cl_helper("inline $T $F($T z) { return ($T)(z.x * z.x - z.y * z.y, z.x * "
                                  "z.y + z.y * z.x); }",
                                  t, f));
        else
            g.helper(f, cl_helper("inline $T $F($T x) { return x * x; }", t, f));
        return cast_to<R>(g, f + "(" + convert<R, A>(g, a) + ")");
    }
};
// reciprocal: 1 / x in the operand's type (an integer divides as integers: 0 for |x| > 1, and
// 0 for x == 0, as clarray's integer division by zero; NumPy gives that value undefined).
struct reciprocal_op {
    template <class A> using result_t = A;
    template <class A> static std::string emit(source_builder& g, const std::string& a) {
        static_assert(!is_boolean_v<A>, "reciprocal: not defined for bool (as in NumPy)");
        if constexpr (is_complex_v<A>)
            return complex_helper(g, complex_fn::div, dtype_of<A>()) + "((" +
                   cl_type_name(dtype_of<A>()) + ")(1, 0), " + a + ")";
        const std::string t = cl_value_type_name(dtype_of<A>()), f = "clarray_reciprocal_" + t;
        if constexpr (is_floating_v<A>)
            g.helper(f, cl_helper("inline $T $F($T x) { return 1 / x; }", t, f));
        else
            g.helper(f, cl_helper("inline $T $F($T x) { return x == 0 ? 0 : 1 / x; }", t, f));
        return f + "(" + cast_to<A>(g, a) + ")";
    }
};
// logaddexp(x, y) = log(e^x + e^y) and logaddexp2 (base 2), NumPy's formulas: no overflow for
// large arguments, x + log(2) where x == y (infinities included), NaN where either is NaN.
template <bool Base2> struct logaddexp_op {
    template <class A, class B> using result_t = float_of_t<promote_t<A, B>>;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& b) {
        using R = result_t<A, B>;
        static_assert(!is_complex_v<R>, "logaddexp: complex operands are not supported");
        const std::string t = cl_value_type_name(dtype_of<R>());
        const std::string f = std::string(Base2 ? "clarray_logaddexp2_" : "clarray_logaddexp_") + t;
        g.helper(f, cl_helper(Base2 ? R"CLC(inline $T $F($T x, $T y) {
    if (x == y) return x + 1;
    const $T d = x - y;
    if (d > 0) return x + log1p(exp2(-d)) * ($T)1.44269504088896340736;
    if (d <= 0) return y + log1p(exp2(d)) * ($T)1.44269504088896340736;
    return d;
})CLC"
                                    : R"CLC(inline $T $F($T x, $T y) {
    if (x == y) return x + ($T)0.693147180559945309417;
    const $T d = x - y;
    if (d > 0) return x + log1p(exp(-d));
    if (d <= 0) return y + log1p(exp(d));
    return d;
})CLC",
                              t, f));
        return f + "(" + cast_to<R>(g, a) + ", " + cast_to<R>(g, b) + ")";
    }
};

// round(x, decimals) with p = 10^|decimals| and below = (decimals < 0), NumPy's formulas.
struct round_decimals_op {
    template <class A, class P, class B> using result_t = A;
    template <class A, class P, class B>
    static std::string emit(source_builder& g, const std::string& a, const std::string& p,
                            const std::string& below) {
        const std::string t = cl_value_type_name(dtype_of<A>()), f = "clarray_round_places_" + t;
        if constexpr (std::is_same_v<A, half>) {
            // NumPy rounds every float16 step to float16 (x * p before rint, the quotient).
            const std::string scaled =
                g.round_to_half(dtype::float32, "below != 0 ? x / p : x * p");
            const std::string back = g.round_to_half(dtype::float32, "below != 0 ? r * p : r / p");
            const std::string body = "inline $T $F($T x, $T p, $T below) { const $T r = rint(" +
                                     scaled + "); return " + back + "; }";
            g.helper(f, cl_helper(body.c_str(), t, f));
        } else if constexpr (is_floating_v<A>) {
            g.helper(f, cl_helper("inline $T $F($T x, $T p, $T below) { return below != 0 ? "
                                  "rint(x / p) * p : rint(x * p) / p; }",
                                  t, f));
        } else { // the nearest multiple of p, ties to the even multiple
            g.helper(f, cl_helper(R"CLC(inline $T $F($T x, $T p, $T below) {
    if (below == 0 || p == 1) return x;
    $T q = x / p, r = x % p;
    if (r < 0) { r += p; q -= 1; }
    if (r > p / 2 || (r == p / 2 && (q & 1) != 0)) q += 1;
    return q * p;
})CLC",
                                  t, f));
        }
        return f + "(" + cast_to<A>(g, a) + ", " + p + ", " + below + ")";
    }
};

// Complex: NaN or infinite when either part is (COMPLEX "any"), finite when both are ("all").
#define CLARRAY_CLASSIFY_OP(NAME, FN, INT_VALUE, COMPLEX)                                          \
    struct NAME {                                                                                  \
        template <class A> using result_t = bool;                                                  \
        template <class A> static std::string emit(source_builder&, const std::string& a) {        \
            if constexpr (is_complex_v<A>)                                                         \
                return std::string(COMPLEX "(" FN "(") + a + "))";                                 \
            else if constexpr (is_floating_v<A>)                                                   \
                return std::string("(" FN "(") + a + ") != 0)";                                    \
            else                                                                                   \
                return INT_VALUE;                                                                  \
        }                                                                                          \
    };
CLARRAY_CLASSIFY_OP(isnan_op, "isnan", "0", "any")
CLARRAY_CLASSIFY_OP(isinf_op, "isinf", "0", "any")
CLARRAY_CLASSIFY_OP(isfinite_op, "isfinite", "1", "all")
#undef CLARRAY_CLASSIFY_OP

// where(c, x, y): x where c is true, else y; x and y promoted together.
struct where_op {
    template <class C, class A, class B> using result_t = promote_t<A, B>;
    template <class C, class A, class B>
    static std::string emit(source_builder& g, const std::string& c, const std::string& a,
                            const std::string& b) {
        using R = promote_t<A, B>;
        return "((" + truth<C>(c) + ") ? " + convert<R, A>(g, a) + " : " + convert<R, B>(g, b) +
               ")";
    }
};

template <class Op, class C, class X, class Y> auto make_where(C&& c, X&& x, Y&& y) {
    static_assert(is_expression_v<C>, "where: the condition must be an array expression");
    if constexpr (is_scalar_v<X> && is_scalar_v<Y>) {
        using T = promote_t<std::decay_t<X>, std::decay_t<Y>>;
        return function_node<Op, child_t<C>, scalar_terminal<T>, scalar_terminal<T>>(
            as_node(std::forward<C>(c)), scalar_terminal<T>(x), scalar_terminal<T>(y));
    } else if constexpr (is_scalar_v<X>) {
        using ST = weak_scalar_t<Y, X>;
        return function_node<Op, child_t<C>, ST, child_t<Y>>(as_node(std::forward<C>(c)), ST(x),
                                                             as_node(std::forward<Y>(y)));
    } else if constexpr (is_scalar_v<Y>) {
        using ST = weak_scalar_t<X, Y>;
        return function_node<Op, child_t<C>, child_t<X>, ST>(as_node(std::forward<C>(c)),
                                                             as_node(std::forward<X>(x)), ST(y));
    } else {
        return function_node<Op, child_t<C>, child_t<X>, child_t<Y>>(
            as_node(std::forward<C>(c)), as_node(std::forward<X>(x)), as_node(std::forward<Y>(y)));
    }
}

} // namespace detail

// ---- operators ----
#define CLARRAY_BINARY_OPERATOR(SYMBOL, OP)                                                        \
    template <class X, class Y, class = std::enable_if_t<detail::binary_operands_v<X, Y>>>         \
    auto operator SYMBOL(X&& x, Y&& y) {                                                           \
        return detail::make_binary<detail::OP>(std::forward<X>(x), std::forward<Y>(y));            \
    }
/// Element-wise `x op y` of arrays, expressions and scalars: a lazy expression, evaluated by one
/// generated kernel where it is assigned, with NumPy 2's promotion (docs/semantics.md).
///@{
CLARRAY_BINARY_OPERATOR(+, plus_op)
CLARRAY_BINARY_OPERATOR(-, minus_op)
CLARRAY_BINARY_OPERATOR(*, multiplies_op)
CLARRAY_BINARY_OPERATOR(/, divides_op)
CLARRAY_BINARY_OPERATOR(%, modulus_op)
CLARRAY_BINARY_OPERATOR(&, bit_and_op)
CLARRAY_BINARY_OPERATOR(|, bit_or_op)
CLARRAY_BINARY_OPERATOR(^, bit_xor_op)
CLARRAY_BINARY_OPERATOR(<<, shift_left_op)
CLARRAY_BINARY_OPERATOR(>>, shift_right_op)
CLARRAY_BINARY_OPERATOR(==, equal_op)
CLARRAY_BINARY_OPERATOR(!=, not_equal_op)
CLARRAY_BINARY_OPERATOR(<, less_op)
CLARRAY_BINARY_OPERATOR(<=, less_equal_op)
CLARRAY_BINARY_OPERATOR(>, greater_op)
CLARRAY_BINARY_OPERATOR(>=, greater_equal_op)
///@}
#undef CLARRAY_BINARY_OPERATOR

#define CLARRAY_BINARY_FUNCTION(NAME, OP)                                                          \
    template <class X, class Y, class = std::enable_if_t<detail::binary_operands_v<X, Y>>>         \
    auto NAME(X&& x, Y&& y) {                                                                      \
        return detail::make_binary<detail::OP>(std::forward<X>(x), std::forward<Y>(y));            \
    }
/// NumPy's binary function of the same name, element-wise over arrays, expressions and scalars
/// (lazy; broadcasting and promotion as the operators).
///@{
CLARRAY_BINARY_FUNCTION(floor_divide, floor_divide_op)
CLARRAY_BINARY_FUNCTION(mod, modulus_op)
CLARRAY_BINARY_FUNCTION(maximum, maximum_op)
CLARRAY_BINARY_FUNCTION(minimum, minimum_op)
CLARRAY_BINARY_FUNCTION(fmax, fmax_op)
CLARRAY_BINARY_FUNCTION(fmin, fmin_op)
CLARRAY_BINARY_FUNCTION(atan2, atan2_op)
CLARRAY_BINARY_FUNCTION(hypot, hypot_op)
CLARRAY_BINARY_FUNCTION(copysign, copysign_op)
CLARRAY_BINARY_FUNCTION(fmod, fmod_op)
CLARRAY_BINARY_FUNCTION(nextafter, nextafter_op)
CLARRAY_BINARY_FUNCTION(logical_and, logical_and_op)
CLARRAY_BINARY_FUNCTION(logical_or, logical_or_op)
CLARRAY_BINARY_FUNCTION(logical_xor, logical_xor_op)
CLARRAY_BINARY_FUNCTION(logaddexp, logaddexp_op<false>)
CLARRAY_BINARY_FUNCTION(logaddexp2, logaddexp_op<true>)
///@}
/// The array API standard's (and NumPy's) names of the operators: `add(x, y)` is `x + y`, and so
/// on; lazy, with the operators' broadcasting and promotion.
///@{
CLARRAY_BINARY_FUNCTION(add, plus_op)
CLARRAY_BINARY_FUNCTION(subtract, minus_op)
CLARRAY_BINARY_FUNCTION(multiply, multiplies_op)
CLARRAY_BINARY_FUNCTION(divide, divides_op)
CLARRAY_BINARY_FUNCTION(remainder, modulus_op)
CLARRAY_BINARY_FUNCTION(bitwise_and, bit_and_op)
CLARRAY_BINARY_FUNCTION(bitwise_or, bit_or_op)
CLARRAY_BINARY_FUNCTION(bitwise_xor, bit_xor_op)
CLARRAY_BINARY_FUNCTION(bitwise_left_shift, shift_left_op)
CLARRAY_BINARY_FUNCTION(bitwise_right_shift, shift_right_op)
CLARRAY_BINARY_FUNCTION(equal, equal_op)
CLARRAY_BINARY_FUNCTION(not_equal, not_equal_op)
CLARRAY_BINARY_FUNCTION(less, less_op)
CLARRAY_BINARY_FUNCTION(less_equal, less_equal_op)
CLARRAY_BINARY_FUNCTION(greater, greater_op)
CLARRAY_BINARY_FUNCTION(greater_equal, greater_equal_op)
///@}
#undef CLARRAY_BINARY_FUNCTION
/// NumPy's power, element-wise (lazy). On integers a negative exponent is a dtype_error: a
/// scalar one here, an array one on the device, reported by the next host wait (as an index
/// check's, docs/semantics.md).
template <class X, class Y, class = std::enable_if_t<detail::binary_operands_v<X, Y>>>
auto pow(X&& x, Y&& y) {
    return detail::make_power(std::forward<X>(x), std::forward<Y>(y));
}

#define CLARRAY_UNARY(NAME, OP)                                                                    \
    template <class X, class = std::enable_if_t<is_expression_v<X>>> auto NAME(X&& x) {            \
        return detail::make_unary<detail::OP>(std::forward<X>(x));                                 \
    }
/// NumPy's unary operator or function of the same name, element-wise (lazy): `-x`, `~x`, `!x`,
/// abs, isnan, real, imag, conj, angle and the math functions (sin, exp, sqrt, ...), which
/// compute in the floating type NumPy gives (docs/semantics.md).
///@{
CLARRAY_UNARY(operator-, negate_op)
CLARRAY_UNARY(operator~, bit_not_op)
CLARRAY_UNARY(operator!, logical_not_op)
CLARRAY_UNARY(logical_not, logical_not_op)
CLARRAY_UNARY(abs, abs_op)
CLARRAY_UNARY(isnan, isnan_op)
CLARRAY_UNARY(isinf, isinf_op)
CLARRAY_UNARY(isfinite, isfinite_op)
CLARRAY_UNARY(real, real_op)
CLARRAY_UNARY(imag, imag_op)
CLARRAY_UNARY(conj, conj_op)
CLARRAY_UNARY(angle, angle_op)
CLARRAY_UNARY(sign, sign_op)
CLARRAY_UNARY(signbit, signbit_op)
CLARRAY_UNARY(square, square_op)
CLARRAY_UNARY(reciprocal, reciprocal_op)
CLARRAY_UNARY(negative, negate_op)
CLARRAY_UNARY(bitwise_invert, bit_not_op)
#define CLARRAY_DEFINE_FLOAT_FUNCTION(F) CLARRAY_UNARY(F, F##_op)
CLARRAY_FLOAT_FUNCTIONS(CLARRAY_DEFINE_FLOAT_FUNCTION)
CLARRAY_ROUNDING_FUNCTIONS(CLARRAY_DEFINE_FLOAT_FUNCTION)
///@}
#undef CLARRAY_DEFINE_FLOAT_FUNCTION
#undef CLARRAY_UNARY
/// Unary plus: the operand itself.
template <class X, class = std::enable_if_t<is_expression_v<X>>> auto operator+(X&& x) {
    return std::forward<X>(x);
}
/// NumPy's positive: the operand itself (bool is not accepted, as NumPy).
template <class X, class = std::enable_if_t<is_expression_v<X>>> auto positive(X&& x) {
    static_assert(!std::is_same_v<detail::value_type_of<X>, bool>,
                  "positive: not defined for bool (as in NumPy)");
    return std::forward<X>(x);
}

/// NumPy's round(x, decimals): x rounded to `decimals` decimal places (negative: to tens,
/// hundreds...), ties to even, computed as NumPy does: rint(x * 10^d) / 10^d for d >= 0 and
/// rint(x / 10^-d) * 10^-d below, in x's float type. Integers keep their values for d >= 0 and
/// round to multiples of 10^-d (ties to even) below. Lazy.
template <class X, class = std::enable_if_t<is_expression_v<X>>> auto round(X&& x, int decimals) {
    using T = detail::value_type_of<X>;
    static_assert(!is_complex_v<T> && !is_boolean_v<T>, "round(x, decimals): real numbers only");
    using P = std::conditional_t<is_floating_v<T>, double, T>;
    P p = 1;
    const int places = decimals < 0 ? -decimals : decimals;
    for (int i = 0; i < places && (is_floating_v<T> || decimals < 0); ++i)
        p = static_cast<P>(p * 10);
    using ST = detail::scalar_terminal<T>;
    return detail::function_node<detail::round_decimals_op, detail::child_t<X>, ST, ST>(
        detail::as_node(std::forward<X>(x)), ST(static_cast<T>(p)), ST(decimals < 0 ? 1 : 0));
}

/// NumPy's divmod: floor_divide(x, y) and mod(x, y), as a pair of lazy expressions.
template <class X, class Y, class = std::enable_if_t<detail::binary_operands_v<X, Y>>>
auto divmod(const X& x, const Y& y) {
    return std::make_pair(floor_divide(x, y), mod(x, y));
}

// Elementwise conversion to U (as C casts; to bool: != 0).
template <class U, class X, class = std::enable_if_t<is_expression_v<X>>> auto astype(X&& x) {
    return detail::make_unary<detail::cast_op<U>>(std::forward<X>(x));
}

/// NumPy's where: x where c is true, else y, element-wise (lazy; c, x and y broadcast).
template <class C, class X, class Y> auto where(C&& c, X&& x, Y&& y) {
    return detail::make_where<detail::where_op>(std::forward<C>(c), std::forward<X>(x),
                                                std::forward<Y>(y));
}

} // namespace clarray
