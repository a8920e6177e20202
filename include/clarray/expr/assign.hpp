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
#include "clarray/expr/expression.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/launch.hpp"

namespace clarray {
namespace detail {

// The strides/offset/memory of one array operand, broadcast to the iteration shape.
struct operand_view {
    strides_type strides;
    std::ptrdiff_t offset;
    allocation* alloc;
    const shape_type* shape; // the operand's own shape and strides (alias analysis)
    const strides_type* own_strides;
};

template <class A> operand_view input_view(const A& a, const shape_type& target) {
    operand_view v{{}, a.offset(), a.data().get(), &a.shape(), &a.strides()};
    try {
        v.strides = broadcast_strides(a.shape(), a.strides(), target);
    } catch (const shape_error&) {
        throw shape_error("expression: operand of shape " + shape_to_string(a.shape()) +
                          " does not broadcast to shape " + shape_to_string(target));
    }
    return v;
}

// Shape of an expression: its array operands broadcast together.
template <class E> shape_type expression_shape(const E& e) {
    shape_type s;
    bool any = false;
    e.for_each_terminal([&](const auto& t) {
        if constexpr (std::decay_t<decltype(t)>::is_array) {
            s = any ? broadcast_shapes(s, t.array().shape()) : t.array().shape();
            any = true;
        }
    });
    if (!any) throw usage_error("an expression needs at least one array operand");
    return s;
}
template <class E> const queue& expression_queue(const E& e) {
    const queue* q = nullptr;
    e.for_each_terminal([&](const auto& t) {
        if constexpr (std::decay_t<decltype(t)>::is_array)
            if (!q) q = &t.array().get_queue();
    });
    if (!q) throw usage_error("an expression needs at least one array operand");
    return *q;
}

// The allocation a result of storage kind k is made like: the first array operand of that kind
// that comes from a pool (the result then comes from the same pool), else none.
template <class E> const allocation* expression_storage_like(const E& e, storage_kind k) {
    const allocation* like = nullptr;
    e.for_each_terminal([&](const auto& t) {
        if constexpr (std::decay_t<decltype(t)>::is_array) {
            const allocation* a = t.array().data().get();
            if (!like && a && a->pool() && a->kind() == k) like = a;
        }
    });
    return like;
}

template <class... E> struct expr_list {
    static std::vector<std::string> emit(source_builder& b) { return {E::emit(b)...}; }
};

// Launch sizes of a strided assignment of rank >= 2 (source_builder::assign_kernel): dimension
// 0 over the innermost axis, 1 and 2 over the rest. When some operand is laid out across the
// iteration order (a transpose: its inner stride exceeds its outer one) groups are 16 x 16
// tiles, so both the rows written and the columns read share cache lines; otherwise a group
// spans up to g consecutive inner positions.
inline void strided_launch(const shape_type& shape, std::size_t n,
                           const std::vector<operand_view>& ops, std::size_t g, ndrange& global,
                           ndrange& local) {
    const std::size_t r = shape.size(), inner = shape[r - 1], outer = n / inner;
    bool across = false; // a zero outer stride is a broadcast, not a transpose
    for (const auto& v : ops)
        across = across ||
                 (v.strides[r - 2] != 0 && std::abs(v.strides[r - 1]) > std::abs(v.strides[r - 2]));
    row_launch(inner, outer, g, across && g >= 256 ? 16 : g, global, local);
}

// outs: tuple of cl_array (handles); exprs: tuple of expression nodes.
template <class Outs, class Exprs> struct assigner;

template <class... OT, class... OS, class... E>
struct assigner<std::tuple<cl_array<OT, OS>...>, std::tuple<E...>> {
    static constexpr std::size_t n_out = sizeof...(OT);
    using first_out_t = canonical_t<std::tuple_element_t<0, std::tuple<OT...>>>;
    // Worth a vector kernel (source_builder::assign_kernel_vector): every output and value of
    // one floating type, and a math function call, which pocl's vectoriser leaves scalar.
    static constexpr bool vectorizable =
        (std::is_same_v<canonical_t<OT>, first_out_t> && ...) &&
        (std::decay_t<E>::template lanewise_as<first_out_t> && ...) &&
        (std::decay_t<E>::calls_function || ...);

    static void run(const std::tuple<cl_array<OT, OS>...>& outs, const std::tuple<E...>& exprs) {
        const auto& first = std::get<0>(outs);
        const shape_type& shape0 = first.shape();
        std::apply(
            [&](const auto&... o) {
                auto same = [&](const auto& x) {
                    if (x.shape() != shape0)
                        throw shape_error("tie: outputs of shapes " + shape_to_string(shape0) +
                                          " and " + shape_to_string(x.shape()) + " differ");
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
                ops.push_back(input_view(t.array(), shape0));
            } else {
                scalar_bytes += sizeof(t.value());
            }
        };
        std::apply([&](const auto&... e) { (e.for_each_terminal(collect), ...); }, exprs);

        if (has_harmful_alias(ops)) {
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

        std::size_t n = 1;
        for (std::size_t e : shape0)
            n *= e;
        if (n == 0) return;

        shape_type shape = shape0;
        std::vector<strides_type*> sp;
        sp.reserve(ops.size());
        for (auto& v : ops)
            sp.push_back(&v.strides);
        coalesce(shape, sp.data(), sp.size());
        const std::size_t rank = shape.size();
        bool contiguous = rank <= 1;
        if (rank == 1)
            for (auto& v : ops)
                contiguous = contiguous && v.strides[0] == 1;
        // Row kernel: every operand steps the inner axis by 1 (inputs also by 0: broadcast
        // along the row), so a work-item finds its row once and walks it with unit steps. The
        // mask of inner-broadcast inputs is part of the signature (16 operands fit).
        bool rows = !contiguous && rank >= 1 && ops.size() <= 16;
        std::uint32_t inner_broadcast = 0;
        for (std::size_t j = 0; rows && j < ops.size(); ++j) {
            const std::ptrdiff_t s = ops[j].strides[rank - 1];
            if (s == 0 && j >= n_out)
                inner_broadcast |= 1u << j;
            else if (s != 1)
                rows = false;
        }
        const std::size_t inner = rank == 0 ? 1 : shape[rank - 1];
        const assign_layout_schema schema(ops.size(), rank == 0 ? 1 : rank, contiguous);
        const device& dev = q.context().device();
        const bool by_buffer = !layout_fits(dev, ops.size(), scalar_bytes, schema.words() * 8);
        // Vector kernels on rows shorter than a vector would run their scalar tails only.
        const std::size_t vector_width = dev.quirks().function_vector_width;
        const std::size_t width =
            vectorizable && (contiguous || (rows && inner >= vector_width)) ? vector_width : 1;
        const std::uint32_t signature = static_cast<std::uint32_t>(rank) |
                                        (contiguous ? 1u << 8 : 0u) | (by_buffer ? 1u << 9 : 0u) |
                                        static_cast<std::uint32_t>(width << 10) |
                                        (rows ? 1u << 15 : 0u) | inner_broadcast << 16;

        kernel k = lookup(q.context(), signature, rank, contiguous, rows, inner_broadcast,
                          by_buffer, width);

        // Layout words at the schema's positions (the kernel's clarray_layout comes from it).
        const bool two_d = !contiguous && (rows || rank >= 2);
        // On the stack unless the layout is large (many operands of high rank).
        cl_long small_layout[256] = {};
        std::vector<cl_long> large_layout;
        if (schema.words() > 256) large_layout.resize(schema.words());
        cl_long* lay = schema.words() > 256 ? large_layout.data() : small_layout;
        lay[schema.count_word()] = static_cast<cl_long>(two_d ? n / inner : n);
        for (std::size_t j = 0; j < ops.size(); ++j)
            lay[schema.offset_word(j)] = ops[j].offset;
        if (!contiguous) { // rank >= 1 (rank 0 is contiguous)
            for (std::size_t i = 0; i < rank; ++i)
                lay[schema.shape_word(i)] = static_cast<cl_long>(shape[i]);
            for (std::size_t j = 0; j < ops.size(); ++j)
                for (std::size_t i = 0; i < rank; ++i)
                    lay[schema.stride_word(j, i)] = ops[j].strides[i];
        }

        const std::size_t g = elementwise_group_size(dev);
        ndrange global{round_up((n + width - 1) / width, g)}, local{g};
        if (rows)
            row_launch((inner + width - 1) / width, n / inner, g, g, global, local);
        else if (two_d)
            strided_launch(shape, n, ops, g, global, local);

        // Arguments: outputs, the terminals in emit order, the layout.
        std::vector<launch_arg> args;
        args.reserve(ops.size() + 4);
        std::apply([&](const auto&... o) { (args.push_back(output_arg(o)), ...); }, outs);
        auto bind = [&](const auto& t) { args.push_back(t.kernel_argument()); };
        std::apply([&](const auto&... e) { (e.for_each_terminal(bind), ...); }, exprs);
        args.push_back(launch_arg::layout(lay, schema.words() * sizeof(cl_long), by_buffer));
        launch(q, k, global, &local, args.data(), args.size());
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
    // An input that shares memory with an output at a different mapping would be overwritten
    // before it is read by other work-items. Same-index aliasing (a = a * 2) is safe.
    static bool has_harmful_alias(const std::vector<operand_view>& ops) {
        for (std::size_t o = 0; o < n_out; ++o)
            for (std::size_t i = n_out; i < ops.size(); ++i) {
                if (!ops[o].alloc || ops[o].alloc != ops[i].alloc) continue;
                if (ops[o].strides == ops[i].strides && ops[o].offset == ops[i].offset) continue;
                if (ranges_overlap(*ops[o].shape, *ops[o].own_strides, ops[o].offset, *ops[i].shape,
                                   *ops[i].own_strides, ops[i].offset))
                    return true;
            }
        return false;
    }
    template <std::size_t... I>
    static void copy_each(const std::tuple<cl_array<OT, OS>...>& outs,
                          const std::tuple<cl_array<OT, OS>...>& tmp, std::index_sequence<I...>) {
        (strided_copy(std::get<I>(outs), std::get<I>(tmp)), ...);
    }
    static kernel lookup(const context& ctx, std::uint32_t signature, std::size_t rank,
                         bool contiguous, bool rows, std::uint32_t inner_broadcast, bool by_buffer,
                         std::size_t width) {
        return cached_source_kernel(
            ctx, {&type_tag<assigner>::id, signature}, "clarray_assign", [&] {
                source_builder b;
                b.set_output_count(n_out);
                std::vector<std::string> values = expr_list<E...>::emit(b);
                std::vector<dtype> out_types{dtype_traits<OT>::id...};
                extension_set needs = b.required_extensions();
                for (dtype d : out_types)
                    needs.add(d);
                if (needs.contains(dtype_traits<double>::extension) && !ctx.device().has_fp64())
                    throw unsupported("this expression computes in float64, which device '" +
                                      ctx.device().name() +
                                      "' does not support (cl_khr_fp64); convert operands with "
                                      "astype<float>()");
                require_extensions(ctx, needs, "this expression");
                std::vector<std::string> vector_values;
                if (width > 1) {
                    source_builder vb; // the same inputs in the same order, as vectors
                    vb.set_output_count(n_out);
                    vb.set_vector_width(width);
                    vb.set_inner_broadcast(inner_broadcast);
                    vector_values = expr_list<E...>::emit(vb);
                }
                std::string src;
                if (rows)
                    src = b.assign_kernel_rows(out_types, values, vector_values, width, rank,
                                               inner_broadcast, by_buffer);
                else if (width > 1)
                    src = b.assign_kernel_vector(out_types, values, vector_values, width,
                                                 by_buffer);
                else
                    src = b.assign_kernel(out_types, values, rank, contiguous, by_buffer);
                return program_source{std::move(src), ""};
            });
    }
};

template <class T, class S, class E> void assign(const cl_array<T, S>& out, const E& e) {
    assigner<std::tuple<cl_array<T, S>>, std::tuple<E>>::run(std::tuple<cl_array<T, S>>(out),
                                                             std::tuple<E>(e));
}

template <class To, class From>
inline constexpr bool same_kind_castable_v =
    std::is_same_v<To, From> || is_floating_v<To> ||
    (is_integer_v<To> && (is_integer_v<From> || is_boolean_v<From>)) ||
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

template <class T, class S>
template <class E, class>
cl_array<T, S>& cl_array<T, S>::operator=(const E& e) {
    if (!bound()) return *this = cl_array(e);
    detail::assign(*this, e);
    return *this;
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
template <class... A> class tied_outputs {
public:
    explicit tied_outputs(A&... a) : outs_(a...) {}
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
template <class... A> tied_outputs<A...> tie(A&... outs) {
    return tied_outputs<A...>(outs...);
}

} // namespace clarray
