#pragma once
// The OpenCL C programs of element-wise assignments: one of the shape skeletons of kernels/
// (assign_common.cl, then assign_flat.cl, assign_strided.cl, assign_rows.cl or
// assign_vector.cl) after the hooks the generator emits for one plan (docs/internals/
// elementwise.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "clarray/codegen/source_builder.hpp"
#include "clarray/types/dtype.hpp"
#include "clarray/types/shared_struct.hpp"

namespace clarray::detail {

// The layout argument of assignment kernels (clarray_layout), for `operands` arrays (outputs
// first) over `rank` axes (at least 1): count, the elements (or, for 2-d launches, the rows: the
// elements over the inner extent); unless contiguous the shape; the operands' offsets; unless
// contiguous their strides [operand][axis]. The launch fills the words at the *_word indices,
// the kernel source declares declaration(), and kernels/assign_common.cl reads the fields by
// these names.
class assign_layout_schema {
public:
    assign_layout_schema(std::size_t operands, std::size_t rank, bool contiguous) noexcept
        : s_("clarray_layout"), count_(s_.scalar("count", false)),
          shape_(contiguous ? word_struct::no_field : s_.array("shape", false, rank)),
          offset_(s_.array("offset", true, operands)),
          stride_(contiguous ? word_struct::no_field : s_.matrix("stride", true, operands, rank)) {}

    std::size_t words() const noexcept { return s_.words(); }
    std::size_t count_word() const noexcept { return s_.word(count_); }
    std::size_t shape_word(std::size_t i) const noexcept { return s_.word(shape_, i); }
    std::size_t offset_word(std::size_t j) const noexcept { return s_.word(offset_, j); }
    std::size_t stride_word(std::size_t j, std::size_t i) const noexcept {
        return s_.word(stride_, j, i);
    }

    const word_struct& layout() const noexcept { return s_; }

private:
    word_struct s_;
    word_struct::field_id count_, shape_, offset_, stride_;
};

// The kernel shapes (kernels/assign_*.cl).
enum class assign_shape {
    flat,    // a work-item per element of a 1-d iteration (contiguous, or one strided axis)
    strided, // rank >= 2, 2-d launch: a work-item per (column, row)
    rows,    // every operand steps the row by 1 (inputs also by 0): width elements per item
    vector   // contiguous, width elements per work-item on vector types
};

// One assignment kernel's shape, as its plan chose it.
struct assign_kernel_spec {
    assign_shape shape = assign_shape::flat;
    std::size_t rank = 1;              // iteration rank after coalescing (0 is taken as 1)
    bool contiguous = false;           // every operand unit-stride 1-d
    std::size_t width = 1;             // elements per work-item (rows, vector)
    std::uint32_t inner_broadcast = 0; // rows: bit j, input j is constant along the row
    bool layout_in_buffer = false;     // the layout arrives through a constant pointer
    bool index32 = false;              // strided, rows: 32-bit row arithmetic (INDEX32)
};

// The program of an assignment storing values[k] (text of builder b, unconverted) into output k
// of type outs[k]; vector_values (from a vector builder over the same inputs) for width > 1.
std::string assign_source(const source_builder& b, const std::vector<dtype>& outs,
                          const std::vector<std::string>& values,
                          const std::vector<std::string>& vector_values,
                          const assign_kernel_spec& spec);

} // namespace clarray::detail
