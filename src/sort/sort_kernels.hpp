#pragma once
// What the sort layer's sources share (src/sort/: sort.cpp, search.cpp, histogram.cpp): the view
// struct of kernels/sort.cl, its kernels and the one place that builds their program, and `op`,
// an operation's launches. Internal: not installed, included by src/sort/ only.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/sort/sort.hpp"
#include "clarray/storage/policies.hpp"
#include "clarray/types/shared_struct.hpp"

namespace clarray::detail::sorting {

// A view as kernels/sort.cl reads it: element i (flat, C order) at offset + sum(index * stride).
#define CLARRAY_SORT_LAYOUT_FIELDS(F)                                                              \
    F(cl_ulong, n, 0)                                                                              \
    F(cl_ulong, rank, 0)                                                                           \
    F(cl_ulong, shape, ::clarray::max_dims)                                                        \
    F(cl_long, strides, ::clarray::max_dims)                                                       \
    F(cl_long, offset, 0)
CLARRAY_SHARED_STRUCT(sort_layout, CLARRAY_SORT_LAYOUT_FIELDS);

// The layout of the view (shape, strides in elements, offset), its dimensions coalesced (C
// order kept).
sort_layout make_layout(shape_type shape, strides_type strides, std::ptrdiff_t offset);
sort_layout layout_of(const array_ref& a);

// The kernels of kernels/sort.cl, in the order of their cache signatures.
enum class sk : unsigned {
    upsweep,
    scan,
    downsweep,
    values,
    indices,
    unique_counts,
    search,
    minmax,
    bincount,
    bincount_weighted,
    histogram,
    edges,
    bincount_local,
    bincount_weighted_local,
    histogram_local,
    histograms,
    onesweep,
    gather,
    nan_class,
    complex_starts,
    unique_parts,
    span_counts_local,
    span_counts,
    span_compact,
    select_init,
    select_pass,
    select_pass_multi,
    select_choose,
    select_value,
    select_partition,
    select_above,
    select_next,
    histogram_search,
    histogram_search_local,
    histogram2d,
    histogram2d_local,
    histogram_weighted,
    histogram_weighted_local,
    histogram2d_weighted,
    histogram2d_weighted_local,
    density,
    digitize,
    select_compact,
    scan_rows,
    select_neighbour
};

// The types of the histogram kernels beyond T and W (kernels/sort.cl): E the type the values of
// T are compared with the edges in, Y histogram2d's second input, F the type of its comparisons.
// An op without them builds E = W, Y = T, F = E.
struct more_types {
    dtype e, y, f;
};

// The most bins whose counts (32-bit) and weighted sums (64-bit) each group keeps in local
// memory (16 KiB either way) before adding them to the global ones (kernels/sort.cl,
// LOCAL_BINS and LOCAL_SUMS); more bins take one global atomic per element.
constexpr std::size_t local_bins = 4096, local_sums = 2048;

// Words of tile counters in a onesweep sort's scratch (kernels/sort.cl, radix_onesweep): one a
// pass, at most 8 passes, padded.
constexpr std::size_t scratch_counters = 64;

// The work-group size of the radix kernels: the device's tuning_t::sort_group_size, or the
// device's limit when smaller (a power of two: the scans halve it).
std::size_t radix_group(const device& dev);

// Elements per work-item of a radix tile for keys of key_bytes and positions (counts) of
// pos_bytes, keys_only: no positions array in the tile: the device's tuning_t::sort_items_*
// (under a register cap fewer, as an item's key, digit and rank, and position, live in registers
// until the tile is placed); fewer where the tile's local arrays would not fit (kernels/sort.cl,
// TILE_LOCALS), and a tile below 65536 elements (16-bit counters).
std::size_t radix_items(const device& dev, std::size_t key_bytes, std::size_t pos_bytes,
                        bool keys_only);

// The bytes of a radix key of dtype t: 8 for 64-bit types, 4 otherwise.
std::size_t key_size(dtype t);
// The bits of a value of dtype t (its ordered key's significant bits).
unsigned key_bits(dtype t);

// Throws unsupported naming `what` where the device lacks 64-bit global atomics (the counting
// kernels' cl_khr_int64_base_atomics).
void check_atomics(const queue& q, const char* what);

template <class V> launch_arg value_of(const V& v) noexcept {
    return launch_arg::value(&v, sizeof(V));
}

// One operation's launches: its queue, the input's storage (temporaries and results are
// allocated like it) and its element type.
struct op {
    const queue& q;
    storage_kind kind;
    const allocation* like;
    dtype t;
    dtype w;
    const char* what;
    bool wide = false;      // 64-bit radix positions and counts
    bool keys_only = false; // no positions ever travel with the radix keys
    std::optional<more_types> more = std::nullopt;

    std::shared_ptr<allocation> alloc(std::size_t bytes) const {
        return make_allocation_like(q, kind, bytes, like);
    }
    std::shared_ptr<allocation> temp(std::size_t bytes) const {
        return make_temporary_like(q, kind, bytes, like);
    }
    // A temporary of `words` 32-bit counters, zeroed on the queue.
    std::shared_ptr<allocation> zeroed_counters(std::size_t words) const {
        auto a = temp(words * 4);
        const cl_uint zero = 0;
        a->fill(q, &zero, 4, 0, words * 4);
        return a;
    }
    launch_arg mem(allocation* a, access acc) const { return memory_arg(kind, a, acc); }
    // One work-item per element.
    void each(sk k, std::size_t n, std::initializer_list<launch_arg> args) const;
    // `groups` work-groups of the radix size.
    void grouped(sk k, std::size_t groups, std::initializer_list<launch_arg> args) const;
    void grouped(sk k, std::size_t groups, const std::vector<launch_arg>& args) const;
    void grouped(sk k, std::size_t groups, const launch_arg* args, std::size_t count) const;
};

// The smallest and largest ordered key (kernels/sort.cl, ordered) of the view a (o.t): one
// kernel, and a read that blocks. a must not be empty.
struct key_extremes {
    std::uint64_t lo, hi;
};
key_extremes extremes_of(const op& o, const array_ref& a);

// a's queue; throws usage_error naming `what` for an unbound array.
const queue& queue_of(const array_ref& a, const char* what);

// Groups of a pass over n elements: contiguous chunks of whole tiles, enough groups to fill the
// device (8 per compute unit, at most 1024: the scan of 16 counters per group stays short).
struct partition {
    std::size_t groups, chunk;
};
partition partition_of(const device& dev, std::size_t n);

} // namespace clarray::detail::sorting
