#pragma once
// cumsum / cumprod along one axis (or over the flattened array), inclusive or exclusive.
//
// Lines long enough to need several work-items are scanned in three passes: chunk totals (the
// reduction's stage-1 kernel), an exclusive scan of the totals per line, then every chunk scanned
// from its carry. Short lines: one pass, one work-item per line.
#include <optional>

#include "clarray/reduce/reducer.hpp"

namespace clarray::detail {

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
        const expression_operands d = describe(node); // the only walk
        const shape_type shape = d.shape();
        const queue& q = d.first_queue();
        const char* what = exclusive ? "exclusive scan" : "scan";
        const std::vector<bool> mask =
            axis ? reduce_axes(*axis).mask(shape, what) : reduce_axes().mask(shape, what);
        const std::size_t size = checked_size(shape);
        const allocation* like = d.storage_like(S::kind);
        result out(q, axis ? shape : shape_type{size}, layout::c, like);
        if (size == 0) return out;
        const acc_host neutral = impl::neutral();
        const void* tag = exclusive ? &type_tag<scan_tag<Op, Node, true>>::id
                                    : &type_tag<scan_tag<Op, Node, false>>::id;
        // Pass 1 of long lines is the reduction's map kernel: the reducer's cache key.
        run_scan(q, reduction_op_of<Op, V, S>(),
                 reduction_operands_of(d, shape, q.context(), &type_tag<R>::id, &emit_node<Node>),
                 mask, out.data().get(), like, &neutral, exclusive, tag);
        return out;
    }
};

template <class Op, class E>
auto scan(const E& e, std::optional<std::ptrdiff_t> axis, bool exclusive) {
    auto node = as_node(e);
    return scanner<Op, std::decay_t<decltype(node)>>::run(node, axis, exclusive);
}

} // namespace clarray::detail
