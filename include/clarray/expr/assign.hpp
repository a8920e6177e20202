#pragma once
// Evaluation of expressions into arrays: one generated kernel per assignment (several outputs
// with tie()). Per launch: broadcast and coalesce the operands' strides, look the kernel up by
// (expression type, rank, contiguity, operand sharing), bind arguments, enqueue; no string work
// on a cache hit. The template side walks the expression once (expr/operands.hpp) and describes
// the assignment's type once (assignment_kernel); run_assignment (src/expr/assign_plan.cpp) does
// the rest.
#include <string>
#include <tuple>
#include <vector>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/codegen/source_builder.hpp"
#include "clarray/expr/assign_plan.hpp"
#include "clarray/expr/expression.hpp"
#include "clarray/expr/operands.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/launch.hpp"

namespace clarray {
namespace detail {

template <class... E> struct expr_list {
    static std::vector<std::string> emit(source_builder& b) {
        return {std::decay_t<E>::emit(b)...};
    }
    // Each value prepared for its output's type: converted where complex types are involved (the
    // kernel casts the others); a float64 value for a float16 output rounded from double (the
    // store's float conversion would round twice).
    template <class... OT> static std::vector<std::string> emit_for(source_builder& b) {
        return {output_value<canonical_t<OT>, typename std::decay_t<E>::value_type>(
            b, std::decay_t<E>::emit(b))...};
    }
    template <class O, class V>
    static std::string output_value(source_builder& b, const std::string& text) {
        if constexpr (!std::is_same_v<O, V> && (is_complex_v<O> || is_complex_v<V>))
            return b.convert(dtype_traits<O>::id, dtype_traits<V>::id, text);
        else if constexpr (std::is_same_v<O, half> && std::is_same_v<V, double>)
            return b.round_to_half(dtype::float64, text);
        else
            return text;
    }
};

// outs: tuple of cl_array (handles); exprs: tuple of expression nodes.
template <class Outs, class Exprs> struct assigner;

template <class... OT, class... OS, class... E>
struct assigner<std::tuple<cl_array<OT, OS>...>, std::tuple<E...>> {
    static constexpr std::size_t n_out = sizeof...(OT);
    using first_out_t = canonical_t<std::tuple_element_t<0, std::tuple<OT...>>>;
    static constexpr bool same_out = (std::is_same_v<canonical_t<OT>, first_out_t> && ...);
    // Worth a vector kernel (kernels/assign_vector.cl): every output and value of
    // one floating type, and a math function call, which pocl's vectoriser leaves scalar.
    // float16 (half_vector below) has its own width.
    static constexpr bool vectorizable =
        same_out && !std::is_same_v<first_out_t, half> &&
        (std::decay_t<E>::template lanewise_as<first_out_t> && ...) &&
        (std::decay_t<E>::calls_function || ...);
    // float16 everywhere (outputs, arrays, values) and every op lanewise: several elements per
    // work-item keep more bytes in flight on GPUs (device::tuning_t::half_vector_width).
    static constexpr bool half_vector = same_out && std::is_same_v<first_out_t, half> &&
                                        (std::decay_t<E>::template lanewise_as<half> && ...);

    // Described once per type: what the driver cannot learn from the operands.
    static const assignment_kernel& description() {
        static const assignment_kernel k{
            &type_tag<assigner>::id,
            {dtype_traits<OT>::id...},
            vectorizable  ? vector_path::function
            : half_vector ? vector_path::half
                          : vector_path::none,
            [](source_builder& b) { return expr_list<E...>::template emit_for<OT...>(b); }};
        return k;
    }

    // `described`: the expressions' operands when the caller has walked them already.
    static void run(const std::tuple<cl_array<OT, OS>...>& outs, const std::tuple<E...>& exprs,
                    const expression_operands* described = nullptr) {
        run_described(outs, exprs, described, std::index_sequence_for<OT...>{});
    }

private:
    template <std::size_t... I>
    static void run_described(const std::tuple<cl_array<OT, OS>...>& outs,
                              const std::tuple<E...>& exprs, const expression_operands* described,
                              std::index_sequence<I...>) {
        const array_ref refs[] = {array_ref_of(std::get<I>(outs))...};
        if (described) return run_assignment(refs, n_out, *described, description());
        expression_operands in;
        in.terminals.reserve(8);
        std::apply([&](const auto&... e) { (describe(e, in), ...); }, exprs);
        run_assignment(refs, n_out, in, description());
    }
};

// out = e in one kernel; `described`: e's operands when the caller has walked them already.
template <class T, class S, class E>
void assign(const cl_array<T, S>& out, const E& e, const expression_operands* described = nullptr) {
    assigner<std::tuple<cl_array<T, S>>, std::tuple<const E&>>::run(
        std::tuple<cl_array<T, S>>(out), std::tuple<const E&>(e), described);
}

template <class To, class From>
inline constexpr bool same_kind_castable_v = std::is_same_v<To, From> || is_complex_v<To> ||
                                             (is_floating_v<To> && !is_complex_v<From>) ||
                                             (is_integer_v<To> &&
                                              (is_integer_v<From> || is_boolean_v<From>)) ||
                                             (is_boolean_v<To> && is_boolean_v<From>);

} // namespace detail

// ---- cl_array members that take expressions ----
template <class T, class S> template <class E, class> cl_array<T, S>::cl_array(const E& e) {
    const detail::expression_operands in = detail::describe(e); // the only walk
    *this = cl_array(in.first_queue(), in.shape(), layout::c, in.storage_like(S::kind));
    detail::assign(*this, e, &in);
}

// Writes the expression's values into this array (one kernel); e broadcasts to its shape.
template <class T, class S>
template <class E, class>
cl_array<T, S>& cl_array<T, S>::operator=(const E& e) {
    if (!bound()) return *this = cl_array(e);
    detail::assign(*this, e);
    return *this;
}

// NumPy's astype: a new array, converted by one generated kernel (the same type: a copy).
template <class T, class S>
template <class U>
cl_array<U, S> cl_array<T, S>::astype(layout l) const {
    if constexpr (std::is_same_v<U, T>) {
        return copy(l);
    } else {
        cl_array<U, S> out(get_queue(), shape_, l, alloc_.get());
        detail::assign(out, detail::as_node(*this));
        return out;
    }
}

#define CLARRAY_COMPOUND(SYMBOL, OPSYMBOL)                                                         \
    template <class T, class S>                                                                    \
    template <class X>                                                                             \
    cl_array<T, S>& cl_array<T, S>::operator SYMBOL(const X& x) {                                  \
        auto e = (*this)OPSYMBOL x;                                                                \
        using R = typename decltype(e)::value_type;                                                \
        static_assert(detail::same_kind_castable_v<detail::canonical_t<T>, R>,                     \
                      "in-place operation would cast the result to a different kind (NumPy's "     \
                      "same_kind rule); assign the expression explicitly with astype<T>()");       \
        detail::assign(*this, e);                                                                  \
        return *this;                                                                              \
    }
// In place, one kernel each; the result must be castable to T (NumPy's same_kind rule).
//@{
CLARRAY_COMPOUND(+=, +)
CLARRAY_COMPOUND(-=, -)
CLARRAY_COMPOUND(*=, *)
CLARRAY_COMPOUND(/=, /)
CLARRAY_COMPOUND(%=, %)
CLARRAY_COMPOUND(&=, &)
CLARRAY_COMPOUND(|=, |)
CLARRAY_COMPOUND(^=, ^)
CLARRAY_COMPOUND(<<=, <<)
CLARRAY_COMPOUND(>>=, >>)
//@}
#undef CLARRAY_COMPOUND

// Evaluates an expression into a new array on its first array operand's queue, with that
// operand's storage policy unless S names another.
template <class S = void, class E, class = std::enable_if_t<is_expression_v<E>>>
auto eval(const E& e) {
    using N = std::decay_t<detail::node_t<const E&>>;
    using T = typename N::value_type;
    using Storage = std::conditional_t<std::is_void_v<S>, detail::first_storage_t<N>, S>;
    return cl_array<T, Storage>(detail::as_node(e));
}

// ---- several outputs in one kernel: tie(x, y) = std::tuple(e1, e2) ----
// The outputs of tie(): assigning a tuple of expressions writes all of them in one kernel.
template <class... A> class tied_outputs {
public:
    // Refers to the output arrays a... (they must outlive this object).
    explicit tied_outputs(A&... a) : outs_(a...) {}
    // Evaluates exprs[i] into output i, all in one generated kernel.
    template <class... E> tied_outputs& operator=(const std::tuple<E...>& exprs) {
        static_assert(sizeof...(E) == sizeof...(A), "tie: one expression per output");
        auto nodes = std::apply(
            [](const auto&... e) { return std::make_tuple(detail::as_node(e)...); }, exprs);
        detail::assigner<std::tuple<A...>, decltype(nodes)>::run(outs_, nodes);
        return *this;
    }

private:
    std::tuple<A...> outs_; // handles share the outputs' storage
};
// Several outputs written by one generated kernel: `tie(x, y) = std::make_tuple(e1, e2)`.
template <class... A> tied_outputs<A...> tie(A&... outs) {
    return tied_outputs<A...>(outs...);
}

} // namespace clarray
