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
#include "clarray/expr/assign.hpp"
#include "clarray/expr/expression.hpp"
#include "clarray/reduce/ops.hpp"
#include "clarray/reduce/plan.hpp"

namespace clarray::detail {

// A generated reduction or scan kernel from the context's cache. On a miss make_source(needs)
// returns the source and adds to `needs` the extensions of the types it uses (the map
// expression's, the accumulator's, the output's); the device must have them.
template <class Tag, class F>
kernel generated_kernel(const context& ctx, std::uint64_t signature, const char* name,
                        F&& make_source) {
    return cached_source_kernel(ctx, {&type_tag<Tag>::id, signature}, name, [&] {
        extension_set needs;
        std::string src = make_source(needs);
        require_extensions(ctx, needs, std::string("kernel ") + name + " (its element types)");
        return program_source{std::move(src), ""};
    });
}

// The array operands of a node: views broadcast to `shape`, with dependency bookkeeping.
template <class Node> struct node_operands {
    std::vector<strides_type> strides;
    std::vector<std::ptrdiff_t> offsets;
    std::size_t scalar_bytes = 0;
    kernel_variants variants; // of the node's source (expr/expression.hpp)

    node_operands(const Node& node, const shape_type& shape, cl_context cctx) {
        node.for_each_terminal([&](const auto& t) {
            if constexpr (std::decay_t<decltype(t)>::is_array) {
                if (t.array().get_context().get() != cctx)
                    throw usage_error("reduction: operands from different contexts");
                const auto& a = t.array();
                operand_view v =
                    input_view(a.shape(), a.strides(), a.offset(), a.data().get(), shape);
                strides.push_back(v.strides);
                offsets.push_back(v.offset);
            } else {
                scalar_bytes += argument_bytes(t);
            }
        });
        add_variants(node, variants);
    }
    // The node's terminals as kernel arguments, in emit order.
    static void arguments(const Node& node, std::vector<launch_arg>& args) {
        node.for_each_terminal([&](const auto& t) { push_kernel_argument(args, t); });
    }
};

inline bool layout_needs_buffer(const device& dev, std::size_t arrays, std::size_t scalar_bytes,
                                std::size_t acc_bytes, std::size_t words) {
    return !layout_fits(dev, arrays + 2, scalar_bytes + acc_bytes, words * 8);
}

template <class Op, class V, class S> struct reduce_stage2_tag {};

// Stage 2: [M, P] partials of the accumulator type into the finished outputs.
template <class Op, class V, class S, class Out>
void reduce_partials(const queue& q, const std::shared_ptr<allocation>& parts,
                     const cl_array<Out, S>& out, const reduce_plan& plan, std::size_t M, long n,
                     const typename Op::template impl<V>::acc_host& neutral) {
    using impl = typename Op::template impl<V>;
    const context& ctx = q.context();
    const bool coop = plan.stage2_cooperative;
    kernel k = generated_kernel<reduce_stage2_tag<Op, V, S>>(
        ctx, coop ? 1u : 0u, "clarray_reduce_final", [&](extension_set& needs) {
            const reduce_text text = impl::text();
            needs.add(text.acc_extension);
            needs.add(dtype_traits<Out>::id);
            return reduce_stage2_source(text, dtype_traits<Out>::id, coop);
        });
    const std::size_t local = plan.stage2_local;
    const cl_ulong outputs = M, parts_per_output = plan.parts;
    const cl_long count = n;
    launch_arg args[] = {memory_arg<S>(parts.get(), access::read),
                         memory_arg<S>(out.data().get(), access::write),
                         launch_arg::value(&outputs, sizeof outputs),
                         launch_arg::value(&parts_per_output, sizeof parts_per_output),
                         launch_arg::value(&count, sizeof count),
                         launch_arg::value(&neutral, sizeof neutral),
                         launch_arg::local(local * sizeof(neutral))};
    const std::size_t global = coop ? M * local : round_up(M, local);
    const ndrange g{global}, l{local};
    launch(q, k, g, &l, args, coop ? 7 : 6, {}, "reduction");
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
        const std::vector<bool> mask = axes.mask(shape, Op::name);
        shape_type out_shape;
        for (std::size_t i = 0; i < shape.size(); ++i)
            if (!mask[i])
                out_shape.push_back(shape[i]);
            else if (keep_dims)
                out_shape.push_back(1);
        // Results and partials come from the pool of a pooled operand, if any.
        const allocation* like = expression_storage_like(node, S::kind);
        result out(q, out_shape, layout::c, like);
        node_operands<Node> ops(node, shape, q.context().get());
        reduce_geometry g = split_axes(shape, ops.strides, mask);
        if (g.M == 0) return out;
        if (g.L == 0 && Op::needs_elements && !has_initial)
            throw shape_error(std::string(Op::name) + ": zero-size reduction over axes " +
                              axes.to_string() + " of shape " + shape_to_string(shape) +
                              " has no identity; pass an initial value");
        const long n = static_cast<long>(g.L) - static_cast<long>(n_adjust);
        if (g.L == 0) {
            // Nothing to read: stage 2 over zero partials writes finish(neutral) per output.
            // Stage 1 is skipped because an empty operand has no memory to bind (NVIDIA
            // rejects a NULL SVM argument at launch).
            reduce_plan none;
            none.parts = 0;
            auto dummy = make_temporary_like(q, S::kind, sizeof(acc_host), like);
            reduce_partials<Op, V, S>(q, dummy, out, none, g.M, n, neutral);
            return out;
        }
        // An in-order queue's completion counters allow one-pass plans (queue.hpp).
        const device& dev = q.context().device();
        const std::size_t counters = q.is_out_of_order() ? 0 : queue::completion_counter_count;
        reduce_plan plan = plan_reduction(dev, g, false, counters);
        std::shared_ptr<allocation> parts;
        if (!plan.spec.finish_here) {
            // The rows shape keeps its accumulator rows after the [M, P] partials.
            static const std::size_t rows_extra = rows_extra_partials(impl::text());
            const std::size_t per = plan.spec.shape == reduce_shape::rows ? 1 + rows_extra : 1;
            parts =
                make_temporary_like(q, S::kind, g.M * plan.parts * per * sizeof(acc_host), like);
        }
        if (plan.spec.one_pass) {
            enqueue_stage1(node, q, g, plan, ops, out.data().get(), neutral, n, parts.get(),
                           q.completion_counters());
            return out;
        }
        enqueue_stage1(node, q, g, plan, ops, parts ? parts.get() : out.data().get(), neutral, n);
        if (parts) reduce_partials<Op, V, S>(q, parts, out, plan, g.M, n, neutral);
        return out;
    }

    // The map expression (with its kernel variants) emitted into b and the operation's text; adds
    // to `needs` the extensions of every type involved (the map's, the accumulator's, the
    // value's and the output's).
    static std::string emit_map(source_builder& b, const kernel_variants& variants,
                                reduce_text& text, extension_set& needs) {
        b.set_output_count(1);
        b.set_variants(&variants);
        std::string map = Node::emit(b);
        text = impl::text();
        needs.add(b.required_extensions());
        needs.add(text.acc_extension);
        needs.add(dtype_traits<V>::id);
        needs.add(dtype_traits<out_type>::id);
        return map;
    }

    // Stage 1 into `target` (finished outputs or [M, P] partials, per plan.spec.finish_here).
    // One-pass plans: target takes the finished outputs, `parts` the partials, `counters` the
    // queue's completion counters.
    static void enqueue_stage1(const Node& node, const queue& q, const reduce_geometry& g,
                               reduce_plan& plan, const node_operands<Node>& ops,
                               allocation* target, const acc_host& neutral, long n,
                               allocation* parts = nullptr, cl_mem counters = nullptr) {
        const device& dev = q.context().device();
        const std::vector<cl_long> lay = reduce_layout(g, plan, ops.offsets, n);
        plan.spec.layout_in_buffer = layout_needs_buffer(dev, ops.strides.size(), ops.scalar_bytes,
                                                         sizeof(acc_host), lay.size());
        kernel k = generated_kernel<reducer>(
            q.context(), variant_signature(plan.signature(), ops.variants), "clarray_reduce",
            [&](extension_set& needs) {
                source_builder b;
                reduce_text text;
                const std::string map = emit_map(b, ops.variants, text, needs);
                return reduce_stage1_source(b, map, dtype_traits<V>::id, dtype_traits<out_type>::id,
                                            text, plan.spec);
            });
        std::vector<launch_arg> args;
        args.reserve(ops.strides.size() + 6);
        args.push_back(memory_arg<S>(target, access::write));
        node_operands<Node>::arguments(node, args);
        args.push_back(launch_arg::value(&neutral, sizeof neutral));
        args.push_back(launch_arg::layout(lay.data(), lay.size() * sizeof(cl_long),
                                          plan.spec.layout_in_buffer));
        if (plan.spec.cooperative) args.push_back(launch_arg::local(plan.local * sizeof(acc_host)));
        if (plan.spec.one_pass) {
            args.push_back(memory_arg<S>(parts, access::write));
            args.push_back(launch_arg::value(&counters, sizeof counters));
        }
        const ndrange gl =
            plan.spec.short_axis ? ndrange{plan.global, plan.global2} : ndrange{plan.global};
        const ndrange lo =
            plan.spec.short_axis ? ndrange{plan.local, plan.local2} : ndrange{plan.local};
        notify_launched(node, launch(q, k, gl, &lo, args.data(), args.size(), {}, "reduction"));
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
