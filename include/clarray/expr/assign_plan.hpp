#pragma once
// The non-template part of evaluating an assignment: operand views, alias analysis, the kernel
// shape (contiguous, row, strided, vector width), its cache signature, the layout words and the
// launch sizes, building its source, binding and launching (run_assignment). The assigner
// template only describes its operands (one walk, expr/operands.hpp) and emits the expression
// text, so each expression type instantiates little.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "clarray/array/copy.hpp"
#include "clarray/codegen/assign_source.hpp"
#include "clarray/codegen/source_builder.hpp"
#include "clarray/expr/operands.hpp"
#include "clarray/runtime/function_ref.hpp"
#include "clarray/runtime/kernel.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/storage/allocation.hpp"
#include "clarray/types/dtype.hpp"

namespace clarray::detail {

// The strides/offset/memory of one array operand, broadcast to the iteration shape.
struct operand_view {
    strides_type strides;
    std::ptrdiff_t offset;
    allocation* alloc;
    const shape_type* shape; // the operand's own shape and strides (alias analysis)
    const strides_type* own_strides;
};

// An input operand's view broadcast to `target`; throws shape_error naming both shapes (and,
// when given, the operand's dtype and the output's).
operand_view input_view(const shape_type& shape, const strides_type& strides, std::ptrdiff_t offset,
                        allocation* alloc, const shape_type& target, const dtype* type = nullptr,
                        const dtype* target_type = nullptr);

// Whether an input shares memory with one of the first n_out operands (the outputs) at a
// different mapping, so that it would be overwritten before other work-items read it.
// Same-index aliasing (a = a * 2) is safe.
bool has_harmful_alias(const std::vector<operand_view>& ops, std::size_t n_out);

// One assignment's kernel shape, signature, layout words and launch sizes.
struct assign_plan {
    std::size_t n = 0; // elements; 0: nothing to launch
    std::size_t rank = 0;
    bool contiguous = false;
    bool rows = false;
    bool by_buffer = false;
    std::uint32_t inner_broadcast = 0;
    std::size_t width = 1;
    bool index32 = false; // 32-bit row arithmetic (2-d shapes: fits_index32 and the table)
    std::uint32_t signature = 0;
    ndrange global, local;
    // Layout words: on the stack unless the layout is large (many operands of high rank).
    std::size_t words = 0;
    cl_long small_words[256] = {};
    std::vector<cl_long> large_words;
    const cl_long* layout() const noexcept {
        return words > 256 ? large_words.data() : small_words;
    }
};

// Whether an expression may run on OpenCL vector types, and at which device width: none; a
// lanewise expression of one floating type that calls a math function (function_vector_width);
// a lanewise float16 expression (half_vector_width, only where every float16 operand the vector
// accesses touch is aligned to the vector).
enum class vector_path { none, function, half };

// Whether an iteration of `shape` over `ops` (strides broadcast to shape) can index in 32 bits:
// the element count, and every operand's reachable element offsets (offset plus the positive
// strides' steps over their axes, and offset plus the negative ones'), lie within int32.
bool fits_index32(const shape_type& shape, const std::vector<operand_view>& ops);

// Plans the assignment of the expression over `ops` (outputs first, coalesced in place) to
// outputs of shape `shape`.
void plan_assignment(const shape_type& shape, std::vector<operand_view>& ops, std::size_t n_out,
                     std::size_t scalar_bytes, vector_path path, const device& dev,
                     assign_plan& plan);

// What only an assignment's type knows, described once per (outputs, expressions) type: its
// kernel cache tag, the outputs' dtypes, its vector path, and how to emit the values of the
// outputs into a builder (called again with a vector builder for vector kernels).
struct assignment_kernel {
    const void* tag;
    std::vector<dtype> out_types;
    vector_path path;
    std::vector<std::string> (*emit)(source_builder&);
};

// Evaluates the expressions described by `in` (their terminals in emit order) into the n_out
// arrays `outs` (bound, of one shape and context): broadcasting, alias analysis (through
// temporaries when an input overlaps an output at another mapping), operand sharing, planning,
// the kernel from the cache, argument binding and the launch, which the terminals that hear
// launches are told of.
void run_assignment(const array_ref* outs, std::size_t n_out, const expression_operands& in,
                    const assignment_kernel& k);

// The kernel of an assignment plan for the expression type whose static tag is `tag` and its
// kernel variants, from the context's cache. On a miss, emit(b) gives the values of the outputs
// in b (called again with a vector builder for vector kernels). Throws unsupported when the
// device lacks an extension its types need.
// `shared`: the expression's operand sharing (expression_operands::sharing).
kernel assign_kernel(const context& ctx, const void* tag, const assign_plan& plan,
                     const kernel_variants& variants, const std::vector<std::uint8_t>& shared,
                     const std::vector<dtype>& out_types,
                     function_ref<std::vector<std::string>(source_builder&)> emit);

} // namespace clarray::detail
