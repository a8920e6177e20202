#pragma once
// Element-wise functions on floating values (NumPy 2 semantics, docs/reductions.md):
//
//   ca::isclose(a, b)            |a - b| <= atol + rtol * |b|, lazy (one kernel where assigned)
//   ca::nan_to_num(x)            NaN -> 0, +-inf -> the largest / lowest finite value, lazy
//
// Both are expressions: they fuse into the assignment or reduction that reads them (allclose is
// all(isclose(...)) in one reduction kernel).
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "clarray/expr/operators.hpp"

namespace clarray {
namespace detail {

// The type NumPy's isclose converts b to: result_type(b, 1.0) (integers and bool: float64).
template <class T> using close_float_t = std::conditional_t<is_inexact_v<T>, T, double>;

// nan_to_num on one value: its children are the value and the three replacements (scalars of the
// value's real type). Complex values have each part replaced on its own, as NumPy does.
struct nan_to_num_op {
    template <class A, class N, class P, class M> using result_t = A;
    template <class A, class N, class P, class M>
    static std::string emit(source_builder& g, const std::string& a, const std::string& nan,
                            const std::string& posinf, const std::string& neginf) {
        const std::string real = cl_value_type_name(dtype_of<real_of_t<A>>());
        const std::string f = "clarray_nan_to_num_" + real;
        g.helper(f, cl_helper("inline $T $F($T v, $T n, $T p, $T m) {\n"
                              "    return isnan(v) ? n : isinf(v) ? (v > 0 ? p : m) : v;\n}",
                              real, f));
        const std::string args = ", " + nan + ", " + posinf + ", " + neginf + ")";
        if constexpr (is_complex_v<A>) {
            const std::string c = "clarray_nan_to_num_" + std::string(dtype_traits<A>::cl_name);
            g.helper(c, cl_helper(("inline $T $F($T v, " + real + " n, " + real + " p, " + real +
                                   " m) {\n    return ($T)(" + f + "(v.x, n, p, m), " + f +
                                   "(v.y, n, p, m));\n}")
                                      .c_str(),
                                  dtype_traits<A>::cl_name, c));
            return c + "(" + a + args;
        } else {
            return f + "(" + a + args;
        }
    }
};

} // namespace detail

// NumPy's isclose: |a - b| <= atol + rtol * |b| element-wise (complex values by their modulus),
// or a == b (equal infinities), or, with equal_nan, both NaN. b is first converted to a floating
// type as NumPy does (integers and bool to float64). A lazy bool expression.
template <class A, class B,
          class = std::enable_if_t<detail::binary_operands_v<A, B> && is_expression_v<A> &&
                                   is_expression_v<B>>>
auto isclose(const A& a, const B& b, double rtol = 1e-05, double atol = 1e-08,
             bool equal_nan = false) {
    using F = detail::close_float_t<detail::value_type_of<const B&>>;
    // Every use of b converted is its own temporary node: the result holds its children by
    // value, and a named local would dangle.
    const auto y = [&b] { return astype<F>(b); };
    return ((abs(a - y()) <= atol + rtol * abs(y())) & isfinite(y())) | (a == y()) |
           (isnan(a) & isnan(y()) & equal_nan);
}

// NumPy's nan_to_num: NaN becomes `nan`, +inf `posinf`, -inf `neginf` (unset: the dtype's largest
// and lowest finite values); complex values part by part. Integer and bool values pass unchanged.
// A lazy expression of x's dtype.
template <class X, class = std::enable_if_t<is_expression_v<X>>>
auto nan_to_num(const X& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                std::optional<double> neginf = std::nullopt) {
    using T = detail::value_type_of<const X&>;
    if constexpr (!is_inexact_v<T>) {
        return astype<T>(x);
    } else {
        using R = real_of_t<T>;
        using ST = detail::scalar_terminal<R>;
        const auto bound = [](std::optional<double> v, R fallback) {
            return v ? ST(*v) : ST(fallback);
        };
        return detail::function_node<detail::nan_to_num_op, detail::child_t<const X&>, ST, ST, ST>(
            detail::as_node(x), ST(nan), bound(posinf, std::numeric_limits<R>::max()),
            bound(neginf, std::numeric_limits<R>::lowest()));
    }
}

} // namespace clarray
