#pragma once
// OpenCL C source of the generated reduction and scan kernels. The templates in reduce/ describe
// an operation by type only (reduce_text), so one source serves every launch of that type.
//
// Iteration space: the map expression's shape split into kept axes (outer, one output each) and
// reduced axes (inner), each group coalesced on its own. M outputs, L reduced elements each, cut
// into P parts of `chunk` elements; P > 1 leaves [M, P] partials for a second kernel.
//
// Three kernel shapes (docs/reductions.md):
//  * chunks:  one unit per (output, part). On GPUs a unit is a work-group whose items read
//             interleaved (coalesced) and meet in a local-memory tree; on CPUs a unit is one
//             work-item reading its contiguous chunk with `lanes` independent accumulators.
//  * outputs: one work-item per `lanes` neighbouring outputs, looping over the reduced axes;
//             chosen when rows are short, and on GPUs when the kept axes are the contiguous
//             ones (column sums).
//  * rows:    CPUs, kept axes contiguous: a work-item streams whole rows of a part through a
//             strip of outputs held in accumulator rows (the partials buffer), the inner loop
//             running along the contiguous kept axis; always leaves [M, P] partials.
#include <cstddef>
#include <string>

#include "clarray/array/dtype.hpp"
#include "clarray/array/shared_struct.hpp"
#include "clarray/codegen/source_builder.hpp"

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

// Stage 1: inputs as `b` collected them (array operand j >= 1 is "a{j}[o{j}]", scalars "s{j}").
// Parameters: (global OUT-or-ACC* r, inputs..., ACC neutral, layout, [local ACC* scratch],
// [one_pass: global ACC* parts, global int* counters]).
std::string reduce_stage1_source(const source_builder& b, const std::string& map_text,
                                 dtype value_type, dtype out_type, const reduce_text& op,
                                 const reduce_kernel_spec& spec);
// Stage 2: (global const ACC* parts, global OUT* r, ulong M, ulong P, long n, ACC neutral,
// [local ACC* scratch]): output m from parts[m*P .. m*P+P).
std::string reduce_stage2_source(const reduce_text& op, dtype out_type, bool cooperative);

// Scans along the reduced axis (one reduced group), output operand 0 in the layout.
// Parameters: (global OUT* r, inputs..., global const ACC* carry, ACC neutral, layout).
// Unit (m, p) scans chunk p of line m starting from carry[m*P+p] (P > 1) or neutral.
std::string scan_source(const source_builder& b, const std::string& map_text, dtype value_type,
                        dtype out_type, const reduce_text& op, std::size_t kept_rank,
                        std::size_t red_rank, bool exclusive, bool layout_in_buffer);
// Exclusive scan of the [M, P] chunk totals in place: (global ACC* parts, ulong M, ulong P,
// ACC neutral).
std::string scan_parts_source(const reduce_text& op);

// The layout argument of reduction and scan kernels (clarray_rlayout), for `operands` arrays
// over kept_rank kept and red_rank reduced axes: M outputs, len reduced elements per output (L
// in docs/reductions.md; a field L would break the `#define L (*Lp)` of a layout in a buffer), P
// parts of `chunk` elements, kin (the innermost kept extent), nblk (blocks of that axis per
// item), n (the count finish divides by), the kept and reduced shapes, the operands' offsets,
// their kept and reduced strides [operand][axis]. The host fills the words at the *_word indices
// (reduce_layout), the generator declares declaration() and reads the indexed fields through the
// *_ref texts; it names the scalar fields (L.M, L.len...) directly, which fails every kernel build
// rather than misreading words should a name change here.
class reduce_layout_schema {
public:
    reduce_layout_schema(std::size_t operands, std::size_t kept_rank, std::size_t red_rank) noexcept
        : s_("clarray_rlayout"), M_(s_.scalar("M", false)), len_(s_.scalar("len", false)),
          P_(s_.scalar("P", false)), chunk_(s_.scalar("chunk", false)),
          kin_(s_.scalar("kin", false)), nblk_(s_.scalar("nblk", false)), n_(s_.scalar("n", true)),
          ksh_(s_.array("ksh", false, kept_rank)), rsh_(s_.array("rsh", false, red_rank)),
          off_(s_.array("off", true, operands)), kst_(s_.matrix("kst", true, operands, kept_rank)),
          rst_(s_.matrix("rst", true, operands, red_rank)) {}

    std::size_t words() const noexcept { return s_.words(); }
    std::size_t outputs_word() const noexcept { return s_.word(M_); }
    std::size_t reduced_count_word() const noexcept { return s_.word(len_); }
    std::size_t parts_word() const noexcept { return s_.word(P_); }
    std::size_t chunk_word() const noexcept { return s_.word(chunk_); }
    std::size_t kept_inner_word() const noexcept { return s_.word(kin_); }
    std::size_t blocks_word() const noexcept { return s_.word(nblk_); }
    std::size_t count_word() const noexcept { return s_.word(n_); }
    std::size_t kept_shape_word(std::size_t i) const noexcept { return s_.word(ksh_, i); }
    std::size_t reduced_shape_word(std::size_t i) const noexcept { return s_.word(rsh_, i); }
    std::size_t offset_word(std::size_t j) const noexcept { return s_.word(off_, j); }
    std::size_t kept_stride_word(std::size_t j, std::size_t i) const noexcept {
        return s_.word(kst_, j, i);
    }
    std::size_t reduced_stride_word(std::size_t j, std::size_t i) const noexcept {
        return s_.word(rst_, j, i);
    }

    const word_struct& layout() const noexcept { return s_; }
    std::string kept_shape_ref(const std::string& i) const { return s_.ref(ksh_, i); }
    std::string reduced_shape_ref(const std::string& i) const { return s_.ref(rsh_, i); }
    std::string offset_ref(std::size_t j) const { return s_.ref(off_, std::to_string(j)); }
    std::string kept_stride_ref(std::size_t j, const std::string& i) const {
        return s_.ref(kst_, std::to_string(j), i);
    }
    std::string reduced_stride_ref(std::size_t j, const std::string& i) const {
        return s_.ref(rst_, std::to_string(j), i);
    }

private:
    word_struct s_;
    word_struct::field_id M_, len_, P_, chunk_, kin_, nblk_, n_, ksh_, rsh_, off_, kst_, rst_;
};

} // namespace clarray::detail
