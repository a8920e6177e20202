#pragma once
// The einsum planner: subscripts and operand shapes in, a plan of steps out. No device, no
// element type: linalg/einsum.hpp runs the plan on arrays, einsum_path prints it.
//
// A plan has three parts:
//  * per operand, a preparation: a view that walks a repeated index once (a diagonal, its strides
//    summed) and drops axes broadcast from extent 1, then a sum over the indices that this operand
//    alone has and the output lacks;
//  * pairwise contractions in a greedy order (the pair whose intermediate is smallest first), each
//    a matrix product (batch, free of a, summed) @ (batch, summed, free of b) or, without a summed
//    index, an element-wise broadcast product (three or more operands without any summed index
//    multiply in one element-wise kernel instead);
//  * a transpose of the last term into the output's index order.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "clarray/shape/layout.hpp"

namespace clarray {

namespace linalg {
// The pairwise order einsum contracts its operands in (einsum_path's result).
struct einsum_path_info {
    // The contractions in order, as opt_einsum writes paths: each pair (i, j), i < j, names two
    // positions of the current list of operands; both leave the list and their product joins its
    // end. Empty for one operand, and when three or more operands multiply element-wise with no
    // summed index (one kernel over all of them, no pairs).
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    // A printable account of the plan: each operand's preparation (diagonal views, sums), each
    // contraction with its subscripts, its lowering and the shape of its result.
    std::string description;
};
} // namespace linalg

namespace detail {

// The preparation of one operand, before any contraction.
struct einsum_prepare {
    // For each axis of the prepared view, the operand's axes it walks together: one axis, or
    // several for a repeated index (a diagonal: their strides summed). Axes of extent 1 broadcast
    // against a longer one (ellipsis dimensions) are in no group: the view drops them.
    std::vector<std::vector<std::size_t>> axis_groups;
    // The extents of the prepared view.
    shape_type view_shape;
    // The view's axes summed before any contraction (empty: no sum).
    std::vector<std::ptrdiff_t> sum_axes;
    // The indices of the prepared operand after the sum, one per axis.
    std::string labels;
    // Its shape after the sum.
    shape_type shape;
    // For a fused product (einsum_plan::fused_product): for each output axis, the prepared
    // operand's axis on it, or -1 where it has none (broadcast).
    std::vector<std::ptrdiff_t> output_place;
};

// One pairwise contraction of the terms at positions `first` < `second` of the current list.
struct einsum_contraction {
    // The positions of the two terms in the current list (both leave it; the result joins its
    // end).
    std::size_t first = 0, second = 0;
    // The indices of both operands and of the result (batch indices, then a's free ones, then b's).
    std::string labels_a, labels_b, labels_result;
    // The summed indices (in a's order); none: an element-wise broadcast product.
    std::string summed;
    // The matrix product form: a with its axes in order_a is matrix_a (batch, free of a, summed),
    // b with its axes in order_b is matrix_b (batch, summed, free of b); without batch indices
    // both are 2-d. The product reshaped to `result` is the result term.
    //@{
    std::vector<std::size_t> order_a, order_b;
    shape_type matrix_a, matrix_b;
    shape_type result;
    //@}
    // The broadcast form over `space` (the result's axes, then the summed ones): for each axis of
    // the space, the axis of a (and of b) on it, or -1 where the operand has extent 1 there.
    //@{
    std::vector<std::ptrdiff_t> place_a, place_b;
    shape_type space;
    //@}
    // The space's summed axes (its last ones).
    std::vector<std::ptrdiff_t> space_sum_axes;
};

// The whole plan of an einsum call.
struct einsum_plan {
    // One preparation per operand, in the operands' order.
    std::vector<einsum_prepare> operands;
    // The pairwise contractions, in the order they run.
    std::vector<einsum_contraction> contractions;
    // Three or more operands whose prepared indices are all output indices: one element-wise
    // product kernel of all of them over the output (no contractions), instead of one per pair.
    bool fused_product = false;
    // The last term's axes in the output's order (a transpose), and the output's shape.
    //@{
    std::vector<std::size_t> output_order;
    shape_type output_shape;
    //@}
    // The output's indices (ellipsis dimensions spelled with the letters the plan gave them).
    std::string output_labels;
    // The pairs and the printable account, for einsum_path.
    linalg::einsum_path_info path;
};

// Parses `subscripts` (NumPy's einsum syntax) for operands of `shapes` and plans the steps.
// Throws usage_error for malformed subscripts (naming them and the position), a wrong operand
// count, an output index in no input or repeated in the output; shape_error for a term whose
// index count does not match its operand's rank, an index whose extents disagree (naming the
// index, the operands and the extents) or ellipsis dimensions that do not broadcast.
einsum_plan plan_einsum(const std::string& subscripts, const std::vector<shape_type>& shapes);

} // namespace detail

namespace linalg {
// The path einsum takes for `subscripts` over operands of these shapes: the pairwise
// contraction order (greedy: the pair with the smallest intermediate first) and a description.
// Throws as einsum does for bad subscripts or shapes.
einsum_path_info einsum_path(const std::string& subscripts, const std::vector<shape_type>& shapes);
} // namespace linalg

} // namespace clarray
