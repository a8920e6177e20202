#pragma once
// Element-wise expressions over sharded and replicated arrays. `a + b * 2` over multi arrays is
// a multi::expr: for each part it builds the ordinary clarray expression of the parts, which
// assignment evaluates as one generated kernel per part, on the part's queue. There is no code
// generator here: the parts' expressions are clarray's.
#include <optional>
#include <type_traits>
#include <utility>

#include "clarray/expr/operators.hpp"
#include "clarray/multi/array.hpp"

namespace clarray::multi {

// A lazy expression over the parts of multi operands: part(i) is the clarray expression (or
// array) of part i. Made by the operators, the functions below and map().
template <class F> class expr {
public:
    // f(i) gives part i; s says how the parts lie.
    expr(F f, detail::shards s) : f_(std::move(f)), shards_(std::move(s)) {}
    // The clarray expression (or array) of part i of this process.
    auto part(std::size_t i) const { return f_(i); }
    // Number of parts on this process.
    std::size_t parts() const noexcept { return shards_.queues.size(); }
    // How the parts lie (the operands' partition; no distribution when every operand is
    // replicated).
    const detail::shards& shards() const noexcept { return shards_; }

private:
    F f_;
    detail::shards shards_;
};

namespace detail {

// Part i of an operand: a part of an array (a reference into the operand the expression holds,
// so the clarray node may keep it by reference), an expression's part (a temporary, kept by
// value), or the scalar itself.
template <class X> decltype(auto) part_of(const X& x, std::size_t i) {
    if constexpr (is_multi_v<X>)
        return x.part(i);
    else
        return (x);
}

template <class X> void add_shards(std::optional<shards>& s, const X& x) {
    if constexpr (is_multi_v<X>) s = s ? merge_shards(*s, x.shards()) : x.shards();
}

template <class X> inline constexpr bool operand_v = is_multi_v<X> || is_scalar_v<X>;

template <class... X>
inline constexpr bool multi_operands_v = (operand_v<X> && ...) && (is_multi_v<X> || ...);

} // namespace detail

// f applied to the parts: part i of the result is f(part i of each operand...) (scalars passed
// as they are). f may return a clarray expression or an array (a reduction along another axis,
// a product, a take): the escape hatch for what has no multi spelling. Operands hold their
// parts, so f may return expressions over its array parameters; a nested multi expression
// arrives as a temporary and must be forwarded into f's result, not referenced.
template <class F, class... X, class = std::enable_if_t<detail::multi_operands_v<X...>>>
auto map(F f, const X&... x) {
    std::optional<detail::shards> s;
    (detail::add_shards(s, x), ...);
    auto make = [f, x...](std::size_t i) { return f(detail::part_of(x, i)...); };
    return expr<decltype(make)>(std::move(make), std::move(*s));
}

#define CLARRAY_MULTI_FWD(v) std::forward<decltype(v)>(v)

#define CLARRAY_MULTI_BINARY_OPERATOR(OP)                                                          \
    template <class X, class Y, class = std::enable_if_t<detail::multi_operands_v<X, Y>>>          \
    auto operator OP(const X& x, const Y& y) {                                                     \
        return map(                                                                                \
            [](auto&& a, auto&& b) { return CLARRAY_MULTI_FWD(a) OP CLARRAY_MULTI_FWD(b); }, x,    \
            y);                                                                                    \
    }
// Element-wise operators over multi operands and scalars (clarray's, part by part).
///@{
CLARRAY_MULTI_BINARY_OPERATOR(+)
CLARRAY_MULTI_BINARY_OPERATOR(-)
CLARRAY_MULTI_BINARY_OPERATOR(*)
CLARRAY_MULTI_BINARY_OPERATOR(/)
CLARRAY_MULTI_BINARY_OPERATOR(%)
CLARRAY_MULTI_BINARY_OPERATOR(&)
CLARRAY_MULTI_BINARY_OPERATOR(|)
CLARRAY_MULTI_BINARY_OPERATOR(^)
CLARRAY_MULTI_BINARY_OPERATOR(<<)
CLARRAY_MULTI_BINARY_OPERATOR(>>)
CLARRAY_MULTI_BINARY_OPERATOR(==)
CLARRAY_MULTI_BINARY_OPERATOR(!=)
CLARRAY_MULTI_BINARY_OPERATOR(<)
CLARRAY_MULTI_BINARY_OPERATOR(<=)
CLARRAY_MULTI_BINARY_OPERATOR(>)
CLARRAY_MULTI_BINARY_OPERATOR(>=)
///@}
#undef CLARRAY_MULTI_BINARY_OPERATOR

#define CLARRAY_MULTI_UNARY_OPERATOR(OP)                                                           \
    template <class X, class = std::enable_if_t<is_multi_v<X>>> auto operator OP(const X& x) {     \
        return map([](auto&& a) { return OP CLARRAY_MULTI_FWD(a); }, x);                           \
    }
// Element-wise unary operators.
///@{
CLARRAY_MULTI_UNARY_OPERATOR(-)
CLARRAY_MULTI_UNARY_OPERATOR(~)
CLARRAY_MULTI_UNARY_OPERATOR(!)
///@}
#undef CLARRAY_MULTI_UNARY_OPERATOR

#define CLARRAY_MULTI_UNARY_FUNCTION(NAME)                                                         \
    template <class X, class = std::enable_if_t<is_multi_v<X>>> auto NAME(const X& x) {            \
        return map([](auto&& a) { return clarray::NAME(CLARRAY_MULTI_FWD(a)); }, x);               \
    }
#define CLARRAY_MULTI_UNARY_FUNCTION_X(NAME) CLARRAY_MULTI_UNARY_FUNCTION(NAME)
// clarray's element-wise functions of one operand, part by part.
///@{
CLARRAY_FLOAT_FUNCTIONS(CLARRAY_MULTI_UNARY_FUNCTION_X)
CLARRAY_MULTI_UNARY_FUNCTION(abs)
CLARRAY_MULTI_UNARY_FUNCTION(isnan)
CLARRAY_MULTI_UNARY_FUNCTION(isinf)
CLARRAY_MULTI_UNARY_FUNCTION(isfinite)
CLARRAY_MULTI_UNARY_FUNCTION(logical_not)
CLARRAY_MULTI_UNARY_FUNCTION(ceil)
CLARRAY_MULTI_UNARY_FUNCTION(floor)
CLARRAY_MULTI_UNARY_FUNCTION(trunc)
CLARRAY_MULTI_UNARY_FUNCTION(round)
///@}
#undef CLARRAY_MULTI_UNARY_FUNCTION_X
#undef CLARRAY_MULTI_UNARY_FUNCTION

#define CLARRAY_MULTI_BINARY_FUNCTION(NAME)                                                        \
    template <class X, class Y, class = std::enable_if_t<detail::multi_operands_v<X, Y>>>          \
    auto NAME(const X& x, const Y& y) {                                                            \
        return map(                                                                                \
            [](auto&& a, auto&& b) {                                                               \
                return clarray::NAME(CLARRAY_MULTI_FWD(a), CLARRAY_MULTI_FWD(b));                  \
            },                                                                                     \
            x, y);                                                                                 \
    }
// clarray's element-wise functions of two operands, part by part.
///@{
CLARRAY_MULTI_BINARY_FUNCTION(maximum)
CLARRAY_MULTI_BINARY_FUNCTION(minimum)
CLARRAY_MULTI_BINARY_FUNCTION(fmax)
CLARRAY_MULTI_BINARY_FUNCTION(fmin)
CLARRAY_MULTI_BINARY_FUNCTION(pow)
CLARRAY_MULTI_BINARY_FUNCTION(atan2)
CLARRAY_MULTI_BINARY_FUNCTION(hypot)
CLARRAY_MULTI_BINARY_FUNCTION(fmod)
CLARRAY_MULTI_BINARY_FUNCTION(floor_divide)
CLARRAY_MULTI_BINARY_FUNCTION(logical_and)
CLARRAY_MULTI_BINARY_FUNCTION(logical_or)
///@}
#undef CLARRAY_MULTI_BINARY_FUNCTION

// NumPy's where, part by part (c, x, y: multi operands or scalars, one of them multi).
template <class C, class X, class Y, class = std::enable_if_t<detail::multi_operands_v<C, X, Y>>>
auto where(const C& c, const X& x, const Y& y) {
    return map(
        [](auto&& k, auto&& a, auto&& b) {
            return clarray::where(CLARRAY_MULTI_FWD(k), CLARRAY_MULTI_FWD(a), CLARRAY_MULTI_FWD(b));
        },
        c, x, y);
}
// Element-wise conversion to U, part by part.
template <class U, class X, class = std::enable_if_t<is_multi_v<X>>> auto astype(const X& x) {
    return map([](auto&& a) { return clarray::astype<U>(CLARRAY_MULTI_FWD(a)); }, x);
}
#undef CLARRAY_MULTI_FWD

namespace detail {
// a OP= x part by part (`apply` does one part's compound assignment): one kernel per part.
template <class M, class X, class F> M& compound_parts(M& a, const X& x, F apply) {
    if constexpr (is_multi_v<X>) check_assignable(a.shards(), x.shards());
    for (std::size_t i = 0; i < a.parts(); ++i) {
        auto p = a.part(i);
        apply(p, part_of(x, i));
    }
    return a;
}
} // namespace detail

#define CLARRAY_MULTI_COMPOUND(OP)                                                                 \
    template <class T, class S, class X, class = std::enable_if_t<detail::operand_v<X>>>           \
    array<T, S>& operator OP(array<T, S>& a, const X& x) {                                         \
        return detail::compound_parts(a, x, [](auto& p, const auto& v) { p OP v; });               \
    }                                                                                              \
    template <class T, class S, class X, class = std::enable_if_t<detail::operand_v<X>>>           \
    replicated<T, S>& operator OP(replicated<T, S>& a, const X& x) {                               \
        return detail::compound_parts(a, x, [](auto& p, const auto& v) { p OP v; });               \
    }
// Compound assignment, in place part by part (one kernel per part).
///@{
CLARRAY_MULTI_COMPOUND(+=)
CLARRAY_MULTI_COMPOUND(-=)
CLARRAY_MULTI_COMPOUND(*=)
CLARRAY_MULTI_COMPOUND(/=)
///@}
#undef CLARRAY_MULTI_COMPOUND

} // namespace clarray::multi
