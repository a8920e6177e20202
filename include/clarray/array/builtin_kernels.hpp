#pragma once
// Access to the library kernels of kernels/strided.cl (internal).
#include <algorithm>
#include <cstddef>

#include "clarray/runtime/kernel.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/types/dtype.hpp"
#include "clarray/types/shared_struct.hpp"

namespace clarray::detail {

enum class builtin : unsigned char {
    strided_copy,
    strided_fill,
    arange,
    linspace,
    contiguous_copy,
    rows_copy, // rank 2 (rank 1 padded); each with an _nd twin for rank >= 3
    rows_copy_nd,
    rows_copy_broadcast,
    rows_copy_broadcast_nd,
    rows_fill,
    rows_fill_nd
};

// The kernel for (which, element type) in ctx, from the context's kernel cache. Throws
// unsupported for float64 on a device without fp64.
kernel builtin_kernel(const context& ctx, builtin which, dtype d);

// The shape and strides argument of the kernels of kernels/strided.cl, whose program begins with
// nd_pair::cl_declaration(). n: elements in the (coalesced) index space, or rows for the row
// kernels; rank: the axes used.
#define CLARRAY_ND_PAIR_FIELDS(F)                                                                  \
    F(cl_ulong, n, 0)                                                                              \
    F(cl_ulong, rank, 0)                                                                           \
    F(cl_ulong, shape, ::clarray::max_dims)                                                        \
    F(cl_long, dst_strides, ::clarray::max_dims)                                                   \
    F(cl_long, src_strides, ::clarray::max_dims)                                                   \
    F(cl_long, dst_offset, 0)                                                                      \
    F(cl_long, src_offset, 0)
CLARRAY_SHARED_STRUCT(nd_pair, CLARRAY_ND_PAIR_FIELDS);

// Work-group size for one-element-per-work-item kernels: fixed (never NULL: pocl then picks
// awkward sizes, e.g. 1 for prime n), capped by the device.
std::size_t elementwise_group_size(const device& dev);
inline std::size_t round_up(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

// Launch sizes of a row kernel: dimension 0 over `items` positions along a row, dimensions 1
// and 2 over `rows` rows. A group spans up to min(g, max_items_per_group) consecutive positions
// and as many rows as fill g, both powers of two (the kernels skip positions and rows past the
// end): few distinct group shapes, and drivers that compile a kernel for each group shape
// (pocl) compile it once for all row counts; at most 65535 groups along dimensions 1 and 2
// (CUDA-based drivers' grid limit), the rows past that going to dimension 2.
inline void row_launch(std::size_t items, std::size_t rows, std::size_t g,
                       std::size_t max_items_per_group, ndrange& global, ndrange& local) {
    std::size_t l0 = 1;
    while (l0 < items && l0 < g && l0 < max_items_per_group)
        l0 *= 2;
    std::size_t l1 = 1;
    while (l1 < rows && l1 * 2 <= g / l0)
        l1 *= 2;
    constexpr std::size_t max_groups = 65535;
    const std::size_t groups = (rows + l1 - 1) / l1;
    const std::size_t g1 = std::min(groups, max_groups), g2 = (groups + g1 - 1) / g1;
    global = ndrange{round_up(items, l0), g1 * l1, g2};
    local = ndrange{l0, l1, 1};
}

} // namespace clarray::detail
