#pragma once
// Shapes, strides (in elements, may be negative or zero) and the index arithmetic on them.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "clarray/shape/fixed_vector.hpp"

namespace clarray {

// Arrays have at most this many dimensions (generated kernels pack shape and strides into one
// argument; pocl allows only 1024 bytes of parameters).
inline constexpr std::size_t max_dims = 16;

// Shape (extents) and strides (in elements) of an array, stored inline (at most max_dims): a
// longer shape throws shape_error when it is built.
//@{
using shape_type = fixed_vector<std::size_t, max_dims>;
using strides_type = fixed_vector<std::ptrdiff_t, max_dims>;
//@}

// Memory order of a new array.
enum class layout { c, f };

// A shape extent that reshape() infers, like NumPy's -1.
inline constexpr std::size_t infer = static_cast<std::size_t>(-1);

// Product of the extents; throws shape_error when it overflows or the rank exceeds max_dims.
std::size_t checked_size(const shape_type& shape);
// The strides (in elements) of a contiguous array of shape in C or Fortran order.
strides_type contiguous_strides(const shape_type& shape, layout l);
// Whether (shape, strides) is a C-contiguous array.
bool is_c_contiguous(const shape_type& shape, const strides_type& strides);
// Whether (shape, strides) is a Fortran-contiguous array.
bool is_f_contiguous(const shape_type& shape, const strides_type& strides);

// Elements [first, last) of the allocation that a view touches (first == last when empty).
std::pair<std::ptrdiff_t, std::ptrdiff_t>
covering_range(const shape_type& shape, const strides_type& strides, std::ptrdiff_t offset);
// Whether two views' covering ranges (of one allocation) overlap.
bool ranges_overlap(const shape_type& sa, const strides_type& ta, std::ptrdiff_t oa,
                    const shape_type& sb, const strides_type& tb, std::ptrdiff_t ob);
// True when the view touches each element of its covering range exactly once (any order).
bool is_dense(const shape_type& shape, const strides_type& strides);

// Removes extent-1 axes and merges adjacent axes that are contiguous for every operand, so most
// launches index one flat range. All stride lists are rewritten in step with the shape.
void coalesce(shape_type& shape, strides_type* const* strides, std::size_t count);
// coalesce for a list of stride lists.
inline void coalesce(shape_type& shape, std::initializer_list<strides_type*> strides) {
    coalesce(shape, strides.begin(), strides.size());
}

// NumPy broadcasting of two shapes; throws shape_error naming both when incompatible.
shape_type broadcast_shapes(const shape_type& a, const shape_type& b);
// Strides that read `strides` (of `shape`) as if broadcast to `target`.
strides_type broadcast_strides(const shape_type& shape, const strides_type& strides,
                               const shape_type& target);

// A shape as NumPy prints it: "(3, 4)", "(5,)", "()".
std::string shape_to_string(const shape_type& shape);

// New strides for `new_shape` over the same memory, or false when impossible without a copy.
bool reshape_strides(const shape_type& shape, const strides_type& strides,
                     const shape_type& new_shape, strides_type& out);

namespace detail {
// The bytes of a contiguous array of `shape` with elements of elem_size bytes; throws
// out_of_memory when the count overflows (and shape_error as checked_size does).
std::size_t checked_bytes(const shape_type& shape, std::size_t elem_size);

// cl_array's views as arithmetic on (shape, strides), rewritten in place (the offset stays):
// throw what reshape, squeeze and transpose throw, naming those operations.
// reshape: to `requested` (one extent may be `infer`) over the same memory.
void reshape_view(shape_type& shape, strides_type& strides, shape_type requested);
// squeeze: without the extent-1 axes, or without `axis`, which must have extent 1.
void squeeze_view(shape_type& shape, strides_type& strides);
void squeeze_view(shape_type& shape, strides_type& strides, std::size_t axis);
// transpose: the axes reversed, or permuted (axis i of the result is axes[i]).
void transpose_view(shape_type& shape, strides_type& strides);
void transpose_view(shape_type& shape, strides_type& strides, const std::vector<std::size_t>& axes);
} // namespace detail

} // namespace clarray
