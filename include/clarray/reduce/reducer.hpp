#pragma once
// Evaluation of reductions and scans over expressions: the map expression is fused into the
// generated kernel (no temporary for `a * b + c`), results are new arrays on the storage policy
// of the expression's first array operand, and nothing waits for the device.
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/codegen/reduce_source.hpp"
#include "clarray/expr/expression.hpp"
#include "clarray/expr/operands.hpp"
#include "clarray/reduce/ops.hpp"
#include "clarray/reduce/plan.hpp"
#include "clarray/reduce/reduction.hpp"
#include "clarray/runtime/kernel_cache.hpp"

namespace clarray::detail {

// The map source of node type Node (reduction_operands::emit).
template <class Node> std::string emit_node(source_builder& b) {
    return Node::emit(b);
}

template <class Op, class V, class S> struct reduce_stage2_tag {};
template <class Op, class V, class S> struct scan_parts_tag {};

// The operation Op over value type V into storage S, described for the drivers.
template <class Op, class V, class S> const reduction_op& reduction_op_of() {
    using impl = typename Op::template impl<V>;
    static const reduce_text text = impl::text();
    static const reduction_op op{Op::name,
                                 Op::needs_elements,
                                 &text,
                                 dtype_traits<V>::id,
                                 dtype_traits<typename impl::out>::id,
                                 sizeof(typename impl::acc_host),
                                 S::kind,
                                 &type_tag<reduce_stage2_tag<Op, V, S>>::id,
                                 &type_tag<scan_parts_tag<Op, V, S>>::id};
    return op;
}

template <class Op, class Node> struct reducer {
    using V = canonical_t<typename Node::value_type>;
    using impl = typename Op::template impl<V>;
    using acc_host = typename impl::acc_host;
    using out_type = typename impl::out;
    using S = first_storage_t<Node>;
    static_assert(!std::is_void_v<S>, "a reduction needs at least one array operand");
    using result = cl_array<out_type, S>;

    // n_adjust: subtracted from the reduced count passed to finish (var's ddof).
    static result run(const Node& node, const reduce_axes& axes, bool keep_dims,
                      const acc_host& neutral, bool has_initial, std::ptrdiff_t n_adjust = 0) {
        const expression_operands d = describe(node); // the only walk
        const shape_type shape = d.shape();
        const queue& q = d.first_queue();
        const reduction_shape rs = reduction_result_shape(shape, axes, keep_dims, Op::name);
        // Results and partials come from the pool of a pooled operand, if any.
        const allocation* like = d.storage_like(S::kind);
        result out(q, rs.shape, layout::c, like);
        run_reduction(
            q, reduction_op_of<Op, V, S>(),
            reduction_operands_of(d, shape, q.context(), &type_tag<reducer>::id, &emit_node<Node>),
            axes, rs.mask, out.data().get(), like, &neutral, has_initial, n_adjust);
        return out;
    }
};

template <class Op, class E>
auto reduce(const E& e, const reduce_axes& axes, bool keep_dims, std::ptrdiff_t n_adjust = 0) {
    auto node = as_node(e);
    using N = std::decay_t<decltype(node)>;
    using R = reducer<Op, N>;
    return R::run(node, axes, keep_dims, R::impl::neutral(), false, n_adjust);
}

template <class Op, class E, class W>
auto reduce_initial(const E& e, const reduce_axes& axes, bool keep_dims, const W& initial) {
    auto node = as_node(e);
    using N = std::decay_t<decltype(node)>;
    using R = reducer<Op, N>;
    using V = typename R::V;
    // The initial value takes the element type, as NumPy casts it (a weak scalar).
    const auto init = static_cast<kernel_value_t<V>>(scalar_terminal<V>(initial).value());
    return R::run(node, axes, keep_dims, typename R::acc_host(init), true);
}

} // namespace clarray::detail
