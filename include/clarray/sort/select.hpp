#pragma once
// Selection on the device: the elements of given ranks of a view and NumPy's partition of a view
// around one rank, by a radix select over the sort's ordered keys (kernels/sort.cl, select_*;
// docs/statistics.md). Internal: the statistics layer (clarray/stats/statistics.hpp) builds
// median, quantile, partition and topk on these.
#include <algorithm>
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
// passes over the shrinking candidates), but a rank right after a selected one costs one pass
// over the input (select_above; see select_passes). usage_error for an empty view or a rank out of
// range, unsupported for views of select_limit elements or more.
std::shared_ptr<allocation> select_impl(const array_ref& a, const std::vector<std::uint64_t>& ranks,
                                        bool poison);

// The full selections select_impl makes for ranks (the distinct ranks less those right after
// a selected one).
inline std::size_t select_passes(std::vector<std::uint64_t> ranks) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::size_t full = 0;
    bool prev_full = false;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const bool derived = prev_full && ranks[i] == ranks[i - 1] + 1;
        full += derived ? 0 : 1;
        prev_full = !derived;
    }
    return full;
}

// NumPy's partition of the view a (flattened in C order) around rank kth: the elements placed
// with the one of rank kth at kth, those before it not greater, those after it not smaller (in
// no particular order otherwise), and of that order the `count` positions from `lo`: values of
// a.type, or with indices int64 flat indices into a. Enqueued, never blocks.
std::shared_ptr<allocation> partition_impl(const array_ref& a, std::uint64_t kth, std::uint64_t lo,
                                           std::uint64_t count, bool indices);

} // namespace clarray::detail
