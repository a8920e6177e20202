#pragma once
// Evaluation of expressions into arrays: one generated kernel per assignment (several outputs
// with tie()). Per launch: broadcast and coalesce the operands' strides, look the kernel up by
// (expression type, rank, contiguity), bind arguments, enqueue; no string work on a cache hit.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <mutex>
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
    static std::vector<std::string> emit(source_builder& b) { return {E::emit(b)...}; }
    // Each value prepared for its output's type: converted where complex types are involved (the
    // kernel casts the others); a float64 value for a float16 output rounded from double (the
    // store's float conversion would round twice).
    template <class... OT> static std::vector<std::string> emit_for(source_builder& b) {
        return {
            output_value<canonical_t<OT>, typename std::decay_t<E>::value_type>(b, E::emit(b))...};
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
    // Worth a vector kernel (source_builder::assign_kernel_vector): every output and value of
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

    static void run(const std::tuple<cl_array<OT, OS>...>& outs, const std::tuple<E...>& exprs) {
        const auto& first = std::get<0>(outs);
        const shape_type& shape0 = first.shape();
        std::apply(
            [&](const auto&... o) {
                auto same = [&](const auto& x) {
                    if (x.shape() != shape0)
                        throw shape_error("tie: outputs of shapes " + shape_to_string(shape0) +
                                          " " + dtype_name(first.dtype) + " and " +
                                          shape_to_string(x.shape()) + " " + dtype_name(x.dtype) +
                                          " differ");
                    // get_context() throws for an unbound output (it would be bound as NULL).
                    if (x.get_context() != first.get_context())
                        throw usage_error("tie: outputs from different contexts");
                };
                (same(o), ...);
            },
            outs);
        const queue& q = first.get_queue();
        const cl_context cctx = q.context().get();

        // Operand views: outputs first, then the inputs in emit order.
        std::vector<operand_view> ops; // one per operand: their count has no bound
        ops.reserve(8);
        std::apply(
            [&](const auto&... o) {
                (ops.push_back({o.strides(), o.offset(), o.data().get(), &o.shape(), &o.strides()}),
                 ...);
            },
            outs);
        std::size_t scalar_bytes = 0;
        auto collect = [&](const auto& t) {
            if constexpr (std::decay_t<decltype(t)>::is_array) {
                if (t.array().get_context().get() != cctx)
                    throw usage_error("expression: operands from different contexts");
                const auto& a = t.array();
                static constexpr dtype in_type = std::decay_t<decltype(a)>::dtype;
                static constexpr dtype out_type = dtype_traits<first_out_t>::id;
                ops.push_back(input_view(a.shape(), a.strides(), a.offset(), a.data().get(), shape0,
                                         &in_type, &out_type));
                if constexpr (reads_region<std::decay_t<decltype(t)>>::value) {
                    ops.back().shape = &t.read_shape();
                    ops.back().own_strides = &t.read_strides();
                }
            } else {
                scalar_bytes += argument_bytes(t);
            }
        };
        std::apply([&](const auto&... e) { (e.for_each_terminal(collect), ...); }, exprs);

        if (has_harmful_alias(ops, n_out)) {
            // Evaluate into temporaries first, as if every input were read before any write.
            // They come from the library pool whatever their size (an in-place update in a loop
            // would otherwise pay a fresh allocation, and its first touch, each time).
            std::tuple<cl_array<OT, OS>...> tmp = std::apply(
                [&](const auto&... o) {
                    return std::tuple<cl_array<OT, OS>...>(temporary_like(o)...);
                },
                outs);
            run(tmp, exprs);
            copy_each(outs, tmp, std::index_sequence_for<OT...>{});
            return;
        }

        assign_plan plan;
        plan_assignment(shape0, ops, n_out, scalar_bytes,
                        vectorizable  ? vector_path::function
                        : half_vector ? vector_path::half
                                      : vector_path::none,
                        q.context().device(), plan);
        if (plan.n == 0) return;
        static const std::vector<dtype> out_types{dtype_traits<OT>::id...};
        kernel_variants variants;
        std::apply([&](const auto&... e) { (add_variants(e, variants), ...); }, exprs);
        kernel k = assign_kernel(
            q.context(), &type_tag<assigner>::id, plan, variants, out_types,
            [](source_builder& b) { return expr_list<E...>::template emit_for<OT...>(b); });

        // Arguments: outputs, the terminals in emit order, the layout.
        std::vector<launch_arg> args;
        args.reserve(ops.size() + 4);
        std::apply([&](const auto&... o) { (args.push_back(output_arg(o)), ...); }, outs);
        auto bind = [&](const auto& t) { push_kernel_argument(args, t); };
        std::apply([&](const auto&... e) { (e.for_each_terminal(bind), ...); }, exprs);
        args.push_back(
            launch_arg::layout(plan.layout(), plan.words * sizeof(cl_long), plan.by_buffer));
        const event launched = launch(q, k, plan.global, &plan.local, args.data(), args.size(), {},
                                      "expression evaluation");
        std::apply([&](const auto&... e) { (notify_launched(e, launched), ...); }, exprs);
    }

private:
    template <class A> static A temporary_like(const A& o) {
        using U = typename A::stored_type;
        std::shared_ptr<allocation> a;
        if (o.size() > 0)
            a = make_temporary_like(o.get_queue(), A::storage_policy::kind, o.size() * sizeof(U),
                                    o.data().get());
        return A(o.get_queue(), std::move(a), o.shape(), contiguous_strides(o.shape(), layout::c),
                 0);
    }
    template <class A> static launch_arg output_arg(const A& a) {
        return memory_arg<typename A::storage_policy>(a.data().get(), access::write);
    }
    template <std::size_t... I>
    static void copy_each(const std::tuple<cl_array<OT, OS>...>& outs,
                          const std::tuple<cl_array<OT, OS>...>& tmp, std::index_sequence<I...>) {
        (strided_copy(std::get<I>(outs), std::get<I>(tmp)), ...);
    }
};

template <class T, class S, class E> void assign(const cl_array<T, S>& out, const E& e) {
    assigner<std::tuple<cl_array<T, S>>, std::tuple<E>>::run(std::tuple<cl_array<T, S>>(out),
                                                             std::tuple<E>(e));
}

template <class To, class From>
inline constexpr bool same_kind_castable_v = std::is_same_v<To, From> || is_complex_v<To> ||
                                             (is_floating_v<To> && !is_complex_v<From>) ||
                                             (is_integer_v<To> &&
                                              (is_integer_v<From> || is_boolean_v<From>)) ||
                                             (is_boolean_v<To> && is_boolean_v<From>);

} // namespace detail

// ---- cl_array members that take expressions ----
template <class T, class S>
template <class E, class>
cl_array<T, S>::cl_array(const E& e)
    : cl_array(detail::expression_queue(e), detail::expression_shape(e), layout::c,
               detail::expression_storage_like(e, S::kind)) {
    detail::assign(*this, e);
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
