#pragma once
// Axis selection and launch planning for reductions and scans (non-template; src/reduce/).
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "clarray/codegen/reduce_source.hpp"
#include "clarray/runtime/cl.hpp"
#include "clarray/runtime/device.hpp"
#include "clarray/shape/layout.hpp"

namespace clarray {

// The axes a reduction runs over: all of them (the default, NumPy's axis=None), one, or a list.
// Negative axes count from the end.
class reduce_axes {
public:
    // All axes.
    reduce_axes() = default;
    // One axis (implicit, so that sum(a, 1) works).
    reduce_axes(std::ptrdiff_t axis) : all_(false), axes_{axis} {} // NOLINT: sum(a, 1)
    // The listed axes.
    //@{
    reduce_axes(std::initializer_list<std::ptrdiff_t> axes) : all_(false), axes_(axes) {}
    reduce_axes(std::vector<std::ptrdiff_t> axes) : all_(false), axes_(std::move(axes)) {} // NOLINT
    //@}
    // Whether every axis is reduced.
    bool all() const noexcept { return all_; }
    // The axes given, as given (empty when all()).
    const std::vector<std::ptrdiff_t>& list() const noexcept { return axes_; }
    // Which of `rank` axes are reduced; throws index_error for an axis out of range and
    // usage_error for a repeated one, naming `what` and the shape.
    std::vector<bool> mask(const shape_type& shape, const char* what) const;
    // The axes as text for messages ("all", "1", "(0, 2)").
    std::string to_string() const;

private:
    bool all_ = true;
    std::vector<std::ptrdiff_t> axes_;
};

namespace detail {

// The iteration space split into kept (outer) and reduced (inner) axes, each coalesced on its
// own and padded to rank >= 1. Strides per operand, in operand order.
struct reduce_geometry {
    shape_type kept, reduced;
    std::vector<strides_type> kept_strides, reduced_strides;
    std::size_t M = 1, L = 1; // outputs, reduced elements per output
};
reduce_geometry split_axes(const shape_type& shape, const std::vector<strides_type>& strides,
                           const std::vector<bool>& reduced);

struct reduce_plan {
    reduce_kernel_spec spec;
    std::size_t parts = 1, chunk = 0, kin = 1, nblk = 1;
    std::size_t global = 1, local = 1;   // stage 1 launch
    std::size_t global2 = 1, local2 = 1; // its second dimension (short-axis kernels)
    std::size_t stage2_local = 1;        // stage 2: work-group size (1: one item per output)
    bool stage2_cooperative = false;
    std::uint32_t signature() const noexcept; // stage-1 kernel variant
};
// Chooses kernel shape, lanes, parts and launch sizes for the device (docs/reductions.md).
// ordered: keep the reduction order within a unit (user reductions: no lanes).
// counters: completion counters the launch may use for a one-pass plan (0: none, two passes).
reduce_plan plan_reduction(const device& dev, const reduce_geometry& g, bool ordered = false,
                           std::size_t counters = 0);
// Scans: units are (line, chunk) work-items; parts > 1 needs the three-pass scheme.
reduce_plan plan_scan(const device& dev, const reduce_geometry& g);

// The clarray_rlayout words (reduce_layout_schema) for operands at `offsets`.
std::vector<cl_long> reduce_layout(const reduce_geometry& g, const reduce_plan& p,
                                   const std::vector<std::ptrdiff_t>& offsets, long n);

// Work-group size of cooperative reductions on this device (a power of two).
std::size_t reduction_group_size(const device& dev);

} // namespace detail
} // namespace clarray
