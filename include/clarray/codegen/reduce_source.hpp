#pragma once
// OpenCL C source of the generated reduction and scan kernels. The templates in reduce/ describe
// an operation by type only (reduce_text), so one source serves every launch of that type.
//
// Each kernel shape is an OpenCL C skeleton under kernels/ (reduce_stage1.cl: the four shapes of
// stage 1; reduce_combine.cl: stage 2; scan.cl: the scans; reduce_ops.cl and reduce_operands.cl:
// what they share), which the functions below specialise: they write only the skeleton's hooks
// (#define flags and types, the operand lists, the operation's functions, the layout struct)
// before it, and splice the expression's text (input parameters, arguments, the map expression)
// at its marked points. Iteration space, shapes and parameters: the skeletons' comments and
// docs/reductions.md.
#include <cstddef>
#include <string>

#include "clarray/codegen/source_builder.hpp"
#include "clarray/types/dtype.hpp"
#include "clarray/types/shared_struct.hpp"

namespace clarray::detail {

// One reduction operation in OpenCL C. Bodies are statements ending in `return`:
//   from:    ACC from the mapped value `v` (value type) and its flat reduced index `i` (ulong)
//   combine: ACC from two accumulators `x`, `y` (must be associative and commutative)
//   finish:  the output value from accumulator `x` and the count `n` (long; e.g. mean's divisor)
struct reduce_text {
    std::string acc; // accumulator type
    // The OpenCL extension the accumulator type needs (its dtype's required_extension).
    const char* acc_extension = nullptr;
    std::string prelude; // definitions the bodies need (e.g. an index/value struct)
    std::string from, combine, finish;
    // Kahan-compensated accumulation in the sequential part (float sums: combine is x + y).
    bool compensated = false;
};

enum class reduce_shape : unsigned char { chunks, outputs, rows };

// rows shape: outputs per work-item strip (its accumulator rows stay in L1/L2).
constexpr std::size_t rows_strip = 4096;
// rows shape: accumulator elements the partials buffer needs beyond the [M, P] partials.
inline std::size_t rows_extra_partials(const reduce_text& op) {
    return op.compensated ? 2 : 1;
}

struct reduce_kernel_spec {
    reduce_shape shape = reduce_shape::chunks;
    std::size_t kept_rank = 1, red_rank = 1; // after coalescing, at least 1 (padded)
    bool red_contiguous = false;             // one reduced axis with unit stride for every input
    bool kept_contiguous = false; // rows shape: innermost kept axis unit stride for every input
    std::size_t lanes = 1;        // independent accumulators per work-item
    // outputs shape with one output per item (GPUs): reduced steps whose loads are in flight at
    // once, each into its own accumulator.
    std::size_t steps = 1;
    bool cooperative = false; // chunks shape: a work-group per unit with a local tree
    bool finish_here = true;  // P == 1: write finished outputs, else ACC partials
    // P > 1 in one launch: every unit stores its partial, counts itself on its output's
    // counter, and the last unit of an output to finish combines the P partials, writes the
    // finished output and sets the counter back to 0 (the counters must not be shared with a
    // command that may run at the same time: queue::completion_counters).
    bool one_pass = false;
    // one_pass: the statement ordering a unit's partial before its count (device::quirks_t).
    const char* device_fence = "mem_fence(CLK_GLOBAL_MEM_FENCE)";
    bool layout_in_buffer = false;
    // outputs shape over one short reduced axis (1..short_axis_max elements): an item per
    // output walking the axis in registers, launched 2-d (dim 0: the innermost kept axis, dim 1:
    // the other kept axes).
    bool short_axis = false;
};
// Longest reduced axis of the short-axis kernel. Its plain (uncompensated) sum stays within the
// documented float error bound ((short_axis_max - 1) ulps of sum |x|).
constexpr std::size_t short_axis_max = 8;

// Stage 1 (kernels/reduce_stage1.cl): inputs as `b` collected them (array operand j >= 1 is
// "a{j}[o{j}]", scalars "s{j}"). Parameters: (global OUT-or-ACC* result, inputs..., ACC neutral,
// layout, [local ACC* scratch], [one_pass: global ACC* parts, global int* counters]).
std::string reduce_stage1_source(const source_builder& b, const std::string& map_text,
                                 dtype value_type, dtype out_type, const reduce_text& op,
                                 const reduce_kernel_spec& spec);
// Stage 2 (kernels/reduce_combine.cl): (global const ACC* parts, global OUT* result,
// ulong outputs, ulong part_count, long count, ACC neutral, [local ACC* scratch]): output m from
// parts[m*P .. m*P+P) (P = part_count).
std::string reduce_stage2_source(const reduce_text& op, dtype out_type, bool cooperative);

// Scans along the reduced axis (one reduced group; kernels/scan.cl), output operand 0 in the
// layout. Parameters: (global OUT* result, inputs..., global const ACC* carry, ACC neutral,
// layout).
// Unit (m, p) scans chunk p of line m starting from carry[m*P+p] (P > 1) or neutral.
std::string scan_source(const source_builder& b, const std::string& map_text, dtype value_type,
                        dtype out_type, const reduce_text& op, std::size_t kept_rank,
                        std::size_t red_rank, bool exclusive, bool layout_in_buffer);
// Exclusive scan of the [M, P] chunk totals in place: (global ACC* parts, ulong outputs,
// ulong part_count, ACC neutral).
std::string scan_parts_source(const reduce_text& op);

// The layout argument of reduction and scan kernels (clarray_rlayout), for `operands` arrays
// over kept_rank kept and red_rank reduced axes: `outputs` (M in docs/reductions.md), `length`
// reduced elements per output (L), `part_count` parts (P) of `chunk` elements, `inner_outputs`
// (the innermost kept extent), `inner_blocks` (blocks of that axis per item), `count` (the count
// finish divides by), the kept and reduced shapes, the operands' offsets, their kept and reduced
// strides [operand][axis]. The host fills the words at the *_word indices (reduce_layout), the
// generator emits declaration(), and the skeletons (kernels/reduce_operands.cl and the kernels
// after it) read the fields by these names: a renamed field fails every kernel build rather than
// misreading words.
class reduce_layout_schema {
public:
    reduce_layout_schema(std::size_t operands, std::size_t kept_rank, std::size_t red_rank) noexcept
        : s_("clarray_rlayout"), outputs_(s_.scalar("outputs", false)),
          length_(s_.scalar("length", false)), parts_(s_.scalar("part_count", false)),
          chunk_(s_.scalar("chunk", false)), inner_(s_.scalar("inner_outputs", false)),
          blocks_(s_.scalar("inner_blocks", false)), count_(s_.scalar("count", true)),
          kept_shape_(s_.array("kept_shape", false, kept_rank)),
          reduced_shape_(s_.array("reduced_shape", false, red_rank)),
          offset_(s_.array("offset", true, operands)),
          kept_stride_(s_.matrix("kept_stride", true, operands, kept_rank)),
          reduced_stride_(s_.matrix("reduced_stride", true, operands, red_rank)) {}

    std::size_t words() const noexcept { return s_.words(); }
    std::size_t outputs_word() const noexcept { return s_.word(outputs_); }
    std::size_t reduced_count_word() const noexcept { return s_.word(length_); }
    std::size_t parts_word() const noexcept { return s_.word(parts_); }
    std::size_t chunk_word() const noexcept { return s_.word(chunk_); }
    std::size_t kept_inner_word() const noexcept { return s_.word(inner_); }
    std::size_t blocks_word() const noexcept { return s_.word(blocks_); }
    std::size_t count_word() const noexcept { return s_.word(count_); }
    std::size_t kept_shape_word(std::size_t i) const noexcept { return s_.word(kept_shape_, i); }
    std::size_t reduced_shape_word(std::size_t i) const noexcept {
        return s_.word(reduced_shape_, i);
    }
    std::size_t offset_word(std::size_t j) const noexcept { return s_.word(offset_, j); }
    std::size_t kept_stride_word(std::size_t j, std::size_t i) const noexcept {
        return s_.word(kept_stride_, j, i);
    }
    std::size_t reduced_stride_word(std::size_t j, std::size_t i) const noexcept {
        return s_.word(reduced_stride_, j, i);
    }

    const word_struct& layout() const noexcept { return s_; }

private:
    word_struct s_;
    word_struct::field_id outputs_, length_, parts_, chunk_, inner_, blocks_, count_, kept_shape_,
        reduced_shape_, offset_, kept_stride_, reduced_stride_;
};

} // namespace clarray::detail
