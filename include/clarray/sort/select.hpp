#pragma once
// Selection on the device: the elements of given ranks of a view and NumPy's partition of a view
// around one rank, by a radix select over the sort's ordered keys (kernels/sort.cl, select_*;
// docs/statistics.md). Internal: the statistics layer (clarray/stats/statistics.hpp) builds
// median, quantile, partition and topk on these.
#include <cstdint>
#include <memory>
#include <vector>

#include "clarray/array/copy.hpp"

namespace clarray::detail {

// The select path takes views of fewer elements than this (32-bit counts); larger ones sort.
inline constexpr std::uint64_t select_limit = std::uint64_t(1) << 32;

// The values of the elements of ranks[j] (their places in NumPy's order: NaN last, -0.0 equal
// to +0.0) of the view a, flattened in C order: ranks.size() values of a.type, out[j] for
// ranks[j]. poison: every value is NaN where a holds a NaN (float types). Enqueued, never blocks.
// Each distinct rank costs a pass counting the top digit and one compacting the input (then
// passes over the shrinking candidates). usage_error for an empty view or a rank out of range,
// unsupported for views of select_limit elements or more.
std::shared_ptr<allocation> select_impl(const array_ref& a, const std::vector<std::uint64_t>& ranks,
                                        bool poison);

// NumPy's partition of the view a (flattened in C order) around rank kth: the elements placed
// with the one of rank kth at kth, those before it not greater, those after it not smaller (in
// no particular order otherwise), and of that order the `count` positions from `lo`: values of
// a.type, or with indices int64 flat indices into a. Enqueued, never blocks.
std::shared_ptr<allocation> partition_impl(const array_ref& a, std::uint64_t kth, std::uint64_t lo,
                                           std::uint64_t count, bool indices);

} // namespace clarray::detail
