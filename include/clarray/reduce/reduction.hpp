#pragma once
// Reductions and scans as the non-template drivers (src/reduce/reduction.cpp) see them: the
// operation, described once per operation and element type, and the expression, walked once
// per call by the template side (reduce/reducer.hpp). Planning, kernel lookup, argument binding
// and the launches are compiled once in the library, not once per expression type.
#include <cstddef>
#include <string>
#include <vector>

#include "clarray/codegen/reduce_source.hpp"
#include "clarray/codegen/source_builder.hpp"
#include "clarray/expr/operands.hpp"
#include "clarray/reduce/plan.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/function_ref.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/storage/policies.hpp"

namespace clarray {
class queue;
class allocation;

namespace detail {

// The operation of a reduction or scan over one element type, on one storage kind.
struct reduction_op {
    const char* name;           // for messages ("sum")
    bool needs_elements;        // no identity: an empty reduction needs an initial value
    const reduce_text* text;    // the kernel text of the accumulator (made once per type)
    dtype value, out;           // the mapped value's and the result's types
    std::size_t acc_size;       // bytes of the accumulator (host layout = kernel layout)
    storage_kind storage;       // of the results and partials
    const void* combine_tag;    // kernel cache key of the partials' combine kernel
    const void* scan_parts_tag; // of the scan of chunk totals
};

// The expression being reduced, as the drivers need it: its array operands broadcast to `shape`
// (strides and offsets of each distinct operand, in emit order), the bytes of its value
// operands, its kernel variants and operand sharing, and the walk it came from (its kernel
// arguments and launch notices); emit writes its map source.
struct reduction_operands {
    shape_type shape;
    std::vector<strides_type> strides;
    std::vector<std::ptrdiff_t> offsets;
    std::size_t scalar_bytes = 0;
    kernel_variants variants;
    std::vector<std::uint8_t> shared; // expression_operands::sharing
    const void* kernel_tag = nullptr; // per (operation, expression type): the map kernel's key
    std::string (*emit)(source_builder&) = nullptr;
    const expression_operands* source = nullptr;
};
// The reduction operands of expression d over `shape` (its broadcast shape) in context ctx
// (usage_error for operands of another context).
reduction_operands reduction_operands_of(const expression_operands& d, const shape_type& shape,
                                         const context& ctx, const void* kernel_tag,
                                         std::string (*emit)(source_builder&));

// The result's shape of reducing `shape` over `axes` (kept as 1 with keep_dims), and the mask of
// reduced axes. Throws index_error / usage_error for bad axes, naming `what`.
struct reduction_shape {
    std::vector<bool> mask;
    shape_type shape;
};
reduction_shape reduction_result_shape(const shape_type& shape, const reduce_axes& axes,
                                       bool keep_dims, const char* what);

// Reduces `e` over the axes in `mask` into `out` (C order, of the result shape; null when
// empty). `neutral` points at the accumulator's start value (acc_size bytes); has_initial: it
// is the user's initial value, so an empty reduction is allowed. n_adjust is subtracted from the
// count passed to the finish step (var's ddof). `like`: the pool temporaries come from.
void run_reduction(const queue& q, const reduction_op& op, const reduction_operands& e,
                   const reduce_axes& axes, const std::vector<bool>& mask, allocation* out,
                   const allocation* like, const void* neutral, bool has_initial,
                   std::ptrdiff_t n_adjust);

// Scans `e` along the axes in `mask` (one axis, or all of a flattened array) into `out` (C
// order, the iteration shape). `scan_tag`: the scan kernel's cache key (per operation,
// expression type and exclusiveness).
void run_scan(const queue& q, const reduction_op& op, const reduction_operands& e,
              const std::vector<bool>& mask, allocation* out, const allocation* like,
              const void* neutral, bool exclusive, const void* scan_tag);

} // namespace detail
} // namespace clarray
