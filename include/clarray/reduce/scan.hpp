#pragma once
// cumsum / cumprod along one axis (or over the flattened array), inclusive or exclusive.
//
// Lines long enough to need several work-items are scanned in three passes: chunk totals (the
// reduction's stage-1 kernel), an exclusive scan of the totals per line, then every chunk scanned
// from its carry. Short lines: one pass, one work-item per line.
#include <optional>

#include "clarray/reduce/reducer.hpp"

namespace clarray::detail {

template <class Op, class V, class S> struct scan_parts_tag {};
template <class Op, class Node, bool Exclusive> struct scan_tag {};

template <class Op, class Node> struct scanner {
    using R = reducer<Op, Node>;
    using V = typename R::V;
    using impl = typename R::impl;
    using acc_host = typename R::acc_host;
    using out_type = typename impl::out;
    using S = typename R::S;
    using result = cl_array<out_type, S>;

    static result run(const Node& node, std::optional<std::ptrdiff_t> axis, bool exclusive) {
        const shape_type shape = expression_shape(node);
        const queue& q = expression_queue(node);
        const char* what = exclusive ? "exclusive scan" : "scan";
        const std::vector<bool> mask =
            axis ? reduce_axes(*axis).mask(shape, what) : reduce_axes().mask(shape, what);
        const std::size_t size = checked_size(shape);
        const allocation* like = expression_storage_like(node, S::kind);
        result out(q, axis ? shape : shape_type{size}, layout::c, like);
        if (size == 0) return out;
        node_operands<Node> ops(node, shape, q.context().get());
        const reduce_geometry gin = split_axes(shape, ops.strides, mask);
        // The output as operand 0 over the same iteration space (C order, as it was allocated).
        std::vector<strides_type> all = ops.strides;
        all.insert(all.begin(), contiguous_strides(shape, layout::c));
        const reduce_geometry g = split_axes(shape, all, mask);
        const device& dev = q.context().device();
        reduce_plan plan = plan_scan(dev, g);
        const acc_host neutral = impl::neutral();

        std::shared_ptr<allocation> parts;
        if (plan.parts > 1) {
            parts = make_temporary_like(q, S::kind, g.M * plan.parts * sizeof(acc_host), like);
            // Pass 1: chunk totals, with the same chunking (flat reduced indices) as pass 3.
            reduce_plan p1 = plan;
            p1.spec.kept_rank = gin.kept.size();
            p1.spec.red_rank = gin.reduced.size();
            p1.spec.lanes = 1;
            p1.spec.cooperative = false;
            p1.spec.red_contiguous = false;
            p1.spec.finish_here = false;
            R::enqueue_stage1(node, q, gin, p1, ops, parts.get(), neutral, 0);
            // Pass 2: exclusive scan of the totals of each line.
            kernel k = generated_kernel<scan_parts_tag<Op, V, S>>(
                q.context(), 0, "clarray_scan_parts", [&](extension_set& needs) {
                    const reduce_text text = impl::text();
                    needs.add(text.acc_extension);
                    return scan_parts_source(text);
                });
            const cl_ulong lines = g.M, parts_per_line = plan.parts;
            const launch_arg args[] = {memory_arg<S>(parts.get(), access::read_write),
                                       launch_arg::value(&lines, sizeof lines),
                                       launch_arg::value(&parts_per_line, sizeof parts_per_line),
                                       launch_arg::value(&neutral, sizeof neutral)};
            const std::size_t local = dev.is_cpu() ? 1 : 64;
            const ndrange gl{round_up(g.M, local)}, lo{local};
            launch(q, k, gl, &lo, args, 4, {}, "scan");
        }
        // Pass 3 (or the only pass): scan every chunk from its carry.
        std::vector<std::ptrdiff_t> offsets = ops.offsets;
        offsets.insert(offsets.begin(), 0);
        const std::vector<cl_long> lay = reduce_layout(g, plan, offsets, 0);
        const bool in_buffer =
            layout_needs_buffer(dev, all.size(), ops.scalar_bytes, sizeof(acc_host), lay.size());
        const std::uint32_t sig = static_cast<std::uint32_t>(plan.spec.kept_rank) |
                                  static_cast<std::uint32_t>(plan.spec.red_rank) << 5 |
                                  (in_buffer ? 1u << 10 : 0u);
        auto make = [&](extension_set& needs) {
            source_builder b;
            reduce_text text;
            const std::string map = R::emit_map(b, ops.variants, text, needs);
            return scan_source(b, map, dtype_traits<V>::id, dtype_traits<out_type>::id, text,
                               plan.spec.kept_rank, plan.spec.red_rank, exclusive, in_buffer);
        };
        const std::uint64_t key = variant_signature(sig, ops.variants);
        kernel k = exclusive ? generated_kernel<scan_tag<Op, Node, true>>(q.context(), key,
                                                                          "clarray_scan", make)
                             : generated_kernel<scan_tag<Op, Node, false>>(q.context(), key,
                                                                           "clarray_scan", make);
        std::vector<launch_arg> args;
        args.reserve(ops.strides.size() + 5);
        args.push_back(memory_arg<S>(out.data().get(), access::write));
        node_operands<Node>::arguments(node, args);
        // The chunk carries (unused when there is one chunk per line: then the output, unread).
        args.push_back(parts ? memory_arg<S>(parts.get(), access::read)
                             : memory_arg<S>(out.data().get(), access::write));
        args.push_back(launch_arg::value(&neutral, sizeof neutral));
        args.push_back(launch_arg::layout(lay.data(), lay.size() * sizeof(cl_long), in_buffer));
        const ndrange gl{plan.global}, lo{plan.local};
        notify_launched(node, launch(q, k, gl, &lo, args.data(), args.size(), {}, "scan"));
        return out;
    }
};

template <class Op, class E>
auto scan(const E& e, std::optional<std::ptrdiff_t> axis, bool exclusive) {
    auto node = as_node(e);
    return scanner<Op, std::decay_t<decltype(node)>>::run(node, axis, exclusive);
}

} // namespace clarray::detail
