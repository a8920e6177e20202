#pragma once
// Evaluation of reductions and scans over expressions: the map expression is fused into the
// generated kernel (no temporary for `a * b + c`), results are new arrays on the storage policy
// of the expression's first array operand, and nothing waits for the device.
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/codegen/reduce_source.hpp"
#include "clarray/expr/assign_plan.hpp"
#include "clarray/expr/expression.hpp"
#include "clarray/expr/operands.hpp"
#include "clarray/reduce/ops.hpp"
#include "clarray/reduce/plan.hpp"
#include "clarray/reduce/reduction.hpp"
#include "clarray/runtime/kernel_cache.hpp"

namespace clarray::detail {

// Calls f(operands) with the node described for the drivers (reduce/reduction.hpp): its array
// operands as views broadcast to `shape`, its scalar bytes and kernel variants, and callbacks
// into the node's type (its map source, its arguments, the launch its arrays are used by).
template <class Node, class F>
decltype(auto) with_operands(const Node& node, const shape_type& shape, const context& ctx,
                             const void* kernel_tag, F&& f) {
    auto emit = [](source_builder& b) { return Node::emit(b); };
    auto bind = [&node](std::vector<launch_arg>& args) {
        node.for_each_terminal([&](const auto& t) { push_kernel_argument(args, t); });
    };
    auto launched = [&node](const event& e) { notify_launched(node, e); };
    reduction_operands ops{shape, {}, {}, 0, {}, kernel_tag, emit, bind, launched};
    const cl_context cctx = ctx.get();
    node.for_each_terminal([&](const auto& t) {
        if constexpr (std::decay_t<decltype(t)>::is_array) {
            if (t.array().get_context().get() != cctx)
                throw usage_error("reduction: operands from different contexts");
            const auto& a = t.array();
            operand_view v = input_view(a.shape(), a.strides(), a.offset(), a.data().get(), shape);
            ops.strides.push_back(v.strides);
            ops.offsets.push_back(v.offset);
        } else {
            ops.scalar_bytes += argument_bytes(t);
        }
    });
    add_variants(node, ops.variants);
    return f(static_cast<const reduction_operands&>(ops));
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
        const shape_type shape = expression_shape(node);
        const queue& q = expression_queue(node);
        const reduction_shape rs = reduction_result_shape(shape, axes, keep_dims, Op::name);
        // Results and partials come from the pool of a pooled operand, if any.
        const allocation* like = expression_storage_like(node, S::kind);
        result out(q, rs.shape, layout::c, like);
        with_operands(node, shape, q.context(), &type_tag<reducer>::id,
                      [&](const reduction_operands& ops) {
                          run_reduction(q, reduction_op_of<Op, V, S>(), ops, axes, rs.mask,
                                        out.data().get(), like, &neutral, has_initial, n_adjust);
                      });
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
