#pragma once
// Access to the library kernels of kernels/strided.cl (internal).
#include <cstddef>

#include "clarray/array/dtype.hpp"
#include "clarray/array/layout.hpp"
#include "clarray/runtime/kernel.hpp"

namespace clarray::detail {

enum class builtin : unsigned char {
    strided_copy,
    strided_fill,
    arange,
    linspace,
    contiguous_copy
};

// The kernel for (which, element type, argument binding) in ctx, built on first use and cached.
// SVM and Buffer bindings get separate kernel objects: some drivers (NVIDIA) reject a launch when
// an argument once set with clSetKernelArgSVMPointer is later set to a cl_mem (see docs/quirks.md).
// Throws unsupported for float64 on a device without fp64.
kernel builtin_kernel(const context& ctx, builtin which, dtype d, bool svm_binding);

// Mirrors `nd_pair` in kernels/strided.cl.
struct nd_pair {
    cl_ulong n = 0;
    cl_ulong rank = 0;
    cl_ulong shape[max_dims] = {};
    cl_long dst_strides[max_dims] = {};
    cl_long src_strides[max_dims] = {};
    cl_long dst_offset = 0;
    cl_long src_offset = 0;
};

// Work-group size for one-element-per-work-item kernels: fixed (never NULL: pocl then picks
// awkward sizes, e.g. 1 for prime n), capped by the device.
std::size_t elementwise_group_size(const device& dev);
inline std::size_t round_up(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

} // namespace clarray::detail
