#pragma once
// Functions that read an array's memory (sorting, indexing, ...) take expressions through this:
// an array is used as it is, an expression is evaluated once into a new array.
#include <type_traits>

#include "clarray/expr/assign.hpp"
#include "clarray/expr/expression.hpp"

namespace clarray::detail {

// e itself when it is a cl_array (a reference, no copy); otherwise e evaluated into a new array
// (one generated kernel) of the expression's value type and storage policy, allocated like its
// first array operand of that storage (clarray::eval). Bind the result to `const auto&`.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
decltype(auto) materialize(const E& e) {
    if constexpr (is_cl_array<std::decay_t<E>>::value)
        return (e);
    else
        return eval(e);
}

// Trait: E is an expression node, not an array (the overloads that evaluate it first).
template <class E>
inline constexpr bool is_unevaluated_v = is_expression_v<E> && !is_cl_array<std::decay_t<E>>::value;

} // namespace clarray::detail
