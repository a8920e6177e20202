#include "clarray/sort/sort.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/array/shared_struct.hpp"
#include "clarray/error.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/policies.hpp"

namespace clarray::detail {
extern const char* const kernel_source_sort;

namespace {

// A view as kernels/sort.cl reads it: element i (flat, C order) at offset + sum(index * stride).
#define CLARRAY_SORT_LAYOUT_FIELDS(F)                                                              \
    F(cl_ulong, n, 0)                                                                              \
    F(cl_ulong, rank, 0)                                                                           \
    F(cl_ulong, shape, ::clarray::max_dims)                                                        \
    F(cl_long, strides, ::clarray::max_dims)                                                       \
    F(cl_long, offset, 0)
CLARRAY_SHARED_STRUCT(sort_layout, CLARRAY_SORT_LAYOUT_FIELDS);

sort_layout make_layout(shape_type shape, strides_type strides, std::ptrdiff_t offset) {
    sort_layout L;
    L.n = checked_size(shape);
    coalesce(shape, {&strides}); // keeps C order
    L.rank = shape.size();
    for (std::size_t k = 0; k < shape.size(); ++k) {
        L.shape[k] = shape[k];
        L.strides[k] = strides[k];
    }
    L.offset = offset;
    return L;
}
sort_layout layout_of(const array_ref& a) {
    return make_layout(*a.shape, *a.strides, a.offset);
}

// The kernels of kernels/sort.cl, in the order of their cache signatures.
enum class sk : unsigned {
    upsweep,
    scan,
    downsweep,
    values,
    indices,
    unique_values,
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
    unique_parts
};
const char* const kernel_names[] = {"radix_upsweep",
                                    "radix_scan",
                                    "radix_downsweep",
                                    "radix_values",
                                    "radix_indices",
                                    "sort_unique_values",
                                    "sort_unique_counts",
                                    "sort_search",
                                    "sort_minmax",
                                    "sort_bincount",
                                    "sort_bincount_weighted",
                                    "sort_histogram",
                                    "sort_edges",
                                    "sort_bincount_local",
                                    "sort_bincount_weighted_local",
                                    "sort_histogram_local",
                                    "radix_histograms",
                                    "radix_onesweep",
                                    "sort_gather",
                                    "sort_nan_class",
                                    "sort_complex_starts",
                                    "sort_unique_parts"};

constexpr unsigned radix_bits = 8;

// The most bins whose counts (32-bit) and weighted sums (64-bit) each group keeps in local
// memory (16 KiB either way) before adding them to the global ones (kernels/sort.cl,
// LOCAL_BINS and LOCAL_SUMS); more bins take one global atomic per element.
constexpr std::size_t local_bins = 4096, local_sums = 2048;

// Words of tile counters in a onesweep sort's scratch (kernels/sort.cl, radix_onesweep): one a
// pass, at most 8 passes, padded.
constexpr std::size_t scratch_counters = 64;

// The work-group size of the radix kernels: the device's tuning_t::sort_group_size, or the
// device's limit when smaller (a power of two: the scans halve it).
std::size_t radix_group(const device& dev) {
    std::size_t g = dev.tuning().sort_group_size;
    while (g > dev.max_work_group_size() && g > 16)
        g /= 2;
    return g;
}

// Local memory a radix downsweep may use: the device's, at most 48 KiB (a GPU's per-group limit;
// pocl emulates local memory in global memory and reports megabytes).
std::size_t local_budget(const device& dev) {
    return static_cast<std::size_t>(std::min<cl_ulong>(dev.local_mem_size(), 49152));
}

// How the radix kernels rank a tile (kernels/sort.cl, SORT_RANK_WARP), from the device's
// tuning_t::sort_rank: 0 by two 4-bit local splits; 1 by warps with PTX's match.any where the
// device has it (device::quirks_t::ptx_warp_match), 2 with work-group barriers standing in for
// the warp instructions (where PTX is missing, or asked for: tests the algorithm). Groups that
// are not whole warps take the splits.
int rank_mode(const device& dev) {
    if (radix_group(dev) % 32 != 0) return 0;
    using rank = device::tuning_t::sort_rank_t;
    switch (dev.tuning().sort_rank) {
    case rank::split:
        return 0;
    case rank::warp:
        return dev.quirks().ptx_warp_match ? 1 : 2;
    case rank::barrier:
        return 2;
    }
    return 0;
}

// The registers a work-item of the sort kernels may use where the device can cap them
// (device::quirks_t::register_cap_option): the device's tuning_t::sort_registers (fewer
// registers, more work-groups resident). 0 where the kernels are built without a cap.
std::size_t register_cap(const device& dev) {
    return dev.quirks().register_cap_option ? dev.tuning().sort_registers : 0;
}

// Elements per work-item of a radix tile for keys of key_bytes and positions (counts) of
// pos_bytes, keys_only: no positions array in the tile: the device's tuning_t::sort_items_*
// (under a register cap fewer, as an item's key, digit and rank, and position, live in registers
// until the tile is placed); fewer where the tile's local arrays would not fit (kernels/sort.cl,
// TILE_LOCALS), and a tile below 65536 elements (16-bit counters).
std::size_t radix_items(const device& dev, std::size_t key_bytes, std::size_t pos_bytes,
                        bool keys_only) {
    const std::size_t wanted =
        keys_only ? dev.tuning().sort_items_keys_only : dev.tuning().sort_items_with_positions;
    const std::size_t wg = radix_group(dev);
    const std::size_t fixed = 33 * wg + 2 * wg * pos_bytes + 256 * (pos_bytes + 8) + 64;
    const std::size_t budget = local_budget(dev);
    const std::size_t per_element = key_bytes + (keys_only ? 0 : pos_bytes) + 1;
    const std::size_t fit = budget > fixed ? (budget - fixed) / (wg * per_element) : 0;
    const std::size_t items = std::min({wanted, fit, 65535 / wg});
    if (items == 0)
        throw unsupported("sort: the device's local memory (" + std::to_string(budget) +
                          " bytes) cannot hold a radix tile");
    return items;
}

bool has_atomics(const device& dev) {
    return dev.has_extension("cl_khr_int64_base_atomics");
}

struct sort_program_tag {};
struct sort_kernel_tag {};

std::size_t key_size(dtype t) {
    return dtype_size(t) == 8 ? 8 : 4;
}

// Kernel k of the program for element type t (and weight / edge type w, the type W or E of the
// kernels that need one; t otherwise), with 32-bit radix positions, or 64-bit ones when wide;
// keys_only: for sorts that never move positions (no positions array in the tiles).
kernel sort_kernel(const context& ctx, sk k, dtype t, dtype w, bool wide, bool keys_only,
                   const char* what) {
    const device& dev = ctx.device();
    const std::uint64_t program_sig =
        (static_cast<std::uint64_t>(keys_only) << 17) | (static_cast<std::uint64_t>(wide) << 16) |
        (static_cast<std::uint64_t>(static_cast<unsigned>(w)) << 8) | static_cast<unsigned>(t);
    return cached_kernel(
        ctx, {&type_tag<sort_kernel_tag>::id, (program_sig << 8) | static_cast<unsigned>(k)},
        kernel_names[static_cast<unsigned>(k)], [&] {
            for (dtype d : {t, w})
                if (const char* ext = required_extension(d))
                    require_extension(ctx, ext, std::string(what) + " of " + dtype_name(d));
            return cached_program(ctx, {&type_tag<sort_program_tag>::id, program_sig}, [&] {
                const bool fp64 = dev.has_fp64();
                const bool atomics = has_atomics(dev);
                std::string source;
                if (fp64) source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
                if (atomics)
                    source += "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n";
                source += sort_layout::cl_declaration();
                source += kernel_source_sort;
                const std::size_t size = dtype_size(t);
                const char* u = size == 1   ? "uchar"
                                : size == 2 ? "ushort"
                                : size == 4 ? "uint"
                                            : "ulong";
                const dtype_kind kind = dtype_kind_of(t);
                const int sort_kind = is_half_storage(t)                   ? 3
                                      : kind == dtype_kind::floating       ? 2
                                      : kind == dtype_kind::signed_integer ? 1
                                                                           : 0;
                // float16 travels as its bits (ushort): no half values without cl_khr_fp16.
                const auto stored = [](dtype d) {
                    return is_half_storage(d) ? "ushort" : cl_type_name(d);
                };
                std::string options =
                    std::string("-DT=") + stored(t) + " -DU=" + u +
                    " -DK=" + (size == 8 ? "ulong" : "uint") +
                    " -DSORT_KIND=" + std::to_string(sort_kind) +
                    " -DSORT_WIDE=" + (size == 8 ? "1" : "0") +
                    " -DWG=" + std::to_string(radix_group(dev)) + " -DITEMS=" +
                    std::to_string(radix_items(dev, key_size(t), wide ? 8 : 4, keys_only)) +
                    " -DP=" + (wide ? "ulong" : "uint") + " -DSORT_WIDE_POS=" + (wide ? "1" : "0") +
                    " -DSORT_KEYS_ONLY=" + (keys_only ? "1" : "0") +
                    " -DLOCAL_BINS=" + std::to_string(local_bins) +
                    " -DLOCAL_SUMS=" + std::to_string(local_sums) +
                    " -DSCRATCH_COUNTERS=" + std::to_string(scratch_counters) +
                    " -DW=" + stored(w) + " -DE=" + stored(w) +
                    " -DW_HALF=" + (is_half_storage(w) ? "1" : "0");
                options += " -DSORT_RANK_WARP=" + std::to_string(rank_mode(dev));
                if (const std::size_t cap = register_cap(dev))
                    options +=
                        std::string(" ") + dev.quirks().register_cap_option + std::to_string(cap);
                if (atomics) options += " -DSORT_ATOMICS";
                if (atomics && fp64) options += " -DSORT_FP64";
                return program_source{std::move(source), std::move(options)};
            });
        });
}

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

    std::shared_ptr<allocation> alloc(std::size_t bytes) const {
        return make_allocation_like(q, kind, bytes, like);
    }
    std::shared_ptr<allocation> temp(std::size_t bytes) const {
        return make_temporary_like(q, kind, bytes, like);
    }
    launch_arg mem(allocation* a, access acc) const { return memory_arg(kind, a, acc); }
    // One work-item per element.
    void each(sk k, std::size_t n, std::initializer_list<launch_arg> args) const {
        const std::size_t g = elementwise_group_size(q.context().device());
        const ndrange global{round_up(n, g)}, local{g};
        launch(q, sort_kernel(q.context(), k, t, w, wide, keys_only, what), global, &local,
               args.begin(), args.size(), {}, what);
    }
    // `groups` work-groups of the radix size.
    void grouped(sk k, std::size_t groups, std::initializer_list<launch_arg> args) const {
        const std::size_t g = radix_group(q.context().device());
        const ndrange global{groups * g}, local{g};
        launch(q, sort_kernel(q.context(), k, t, w, wide, keys_only, what), global, &local,
               args.begin(), args.size(), {}, what);
    }
};

const queue& queue_of(const array_ref& a, const char* what) {
    if (!a.q) throw usage_error(std::string(what) + ": unbound (default-constructed) array");
    return *a.q;
}

unsigned key_bits(dtype t) {
    return static_cast<unsigned>(8 * dtype_size(t));
}

// Groups of a pass over n elements: contiguous chunks of whole tiles, enough groups to fill the
// device (8 per compute unit, at most 1024: the scan of 16 counters per group stays short).
struct partition {
    std::size_t groups, chunk;
};
partition partition_of(const device& dev, std::size_t n) {
    const std::size_t g = radix_group(dev);
    const std::size_t most = std::clamp<std::size_t>(8 * dev.compute_units(), 1, 1024);
    std::size_t chunk = round_up((n + most - 1) / most, g);
    if (chunk == 0) chunk = g;
    return {(n + chunk - 1) / chunk, chunk};
}

// The radix sort's grid: `groups` work-groups, each a contiguous chunk of whole tiles (the last
// one shorter), the device's tuning_t::sort_groups_per_cu groups per compute unit at most: few
// enough that the scan of 256 counts per group is short, enough to fill the device.
partition radix_partition(const device& dev, std::size_t n, std::size_t tile) {
    const std::size_t per_cu = dev.tuning().sort_groups_per_cu;
    const std::size_t tiles = (n + tile - 1) / tile;
    std::size_t most = std::clamp<std::size_t>(per_cu * dev.compute_units(), 1, 4096);
    most = std::max(most, n >> 30); // chunks below 2^31 elements (32-bit local counts)
    const std::size_t chunk = tile * ((tiles + most - 1) / most);
    return {(n + chunk - 1) / chunk, chunk};
}

// What the last radix pass writes (kernels/sort.cl, FINAL_*): keys (and positions) for what
// follows, or the result itself when it is laid out in the sort's order.
enum class radix_out : cl_uint { keys, values, indices, positions };

// The radix sort of the keys of an input view, with their positions when they travel: the
// sorted keys (and positions) end in keys[cur] (pos[cur]), unless the last pass wrote the result.
struct radix_state {
    std::shared_ptr<allocation> keys[2], pos[2], hist, totals;
    int cur = 0;
    partition part{};
    std::size_t n = 0;
    bool first = true;   // the next pass reads the input and makes the positions
    bool reread = false; // the next pass reads the input (in sorted order), positions travel
    allocation* in = nullptr;
    sort_layout L{};
};

// One stable pass by the digit of `mode` (kernels/sort.cl, digit_at), writing `out_kind` (into
// `out` unless keys).
void radix_pass(const op& o, radix_state& s, cl_uint mode, cl_uint shift, cl_ulong row_len,
                radix_out out_kind = radix_out::keys, allocation* out = nullptr) {
    const cl_ulong n = s.n, chunk = s.part.chunk;
    const cl_uint groups = static_cast<cl_uint>(s.part.groups);
    const cl_uint gen = s.first || mode == 2, from_input = s.first || s.reread;
    const cl_uint kind = static_cast<cl_uint>(out_kind);
    allocation *k_in = s.keys[s.cur].get(), *p_in = s.pos[s.cur].get();
    allocation *k_out = s.keys[1 - s.cur].get(), *p_out = s.pos[1 - s.cur].get();
    allocation *h = s.hist.get(), *tot = s.totals.get();
    if (!out) out = k_out; // not written: stands in for the result
    o.grouped(sk::upsweep, s.part.groups,
              {o.mem(k_in, access::read), o.mem(p_in, access::read), o.mem(h, access::write),
               o.mem(s.in, access::read), value_of(s.L), value_of(n), value_of(chunk),
               value_of(mode), value_of(shift), value_of(row_len), value_of(from_input)});
    o.grouped(sk::scan, 256,
              {o.mem(h, access::read_write), value_of(groups), o.mem(tot, access::write)});
    o.grouped(sk::downsweep, s.part.groups,
              {o.mem(k_in, access::read), o.mem(p_in, access::read), o.mem(k_out, access::write),
               o.mem(p_out, access::write), o.mem(h, access::read), o.mem(tot, access::read),
               o.mem(s.in, access::read), value_of(s.L), o.mem(out, access::write),
               o.mem(out, access::write), value_of(n), value_of(chunk), value_of(mode),
               value_of(shift), value_of(row_len), value_of(gen), value_of(from_input),
               value_of(kind)});
    s.cur = 1 - s.cur;
    s.first = false;
    s.reread = false;
}

// Whether 1-d sorts below 2^30 elements take the onesweep kernels: the device's
// tuning_t::sort_onesweep (on GPUs, not on CPUs, where groups spinning on their predecessors
// share few cores).
bool onesweep_wanted(const device& dev) {
    return dev.tuning().sort_onesweep;
}

// The key passes of a 1-d sort (32-bit positions) by onesweep (kernels/sort.cl): one histogram
// kernel for every pass, then one kernel per pass whose tiles find their digits' offsets by
// decoupled look-back.
void onesweep_sort(const op& o, radix_state& s, std::size_t tile, radix_out out_kind,
                   allocation* out) {
    const device& dev = o.q.context().device();
    const cl_uint passes = key_bits(o.t) / radix_bits;
    const cl_uint tiles = static_cast<cl_uint>((s.n + tile - 1) / tile);
    const cl_ulong n = s.n;
    // The scratch words of kernels/sort.cl (SCRATCH_COUNTERS): totals, counters, two status
    // areas; one fill zeroes all but the second area, which the first pass zeroes.
    const std::size_t area = std::size_t(tiles) * 256, head = passes * 256 + scratch_counters;
    auto scratch = o.temp((head + (passes > 1 ? 2 : 1) * area) * 4);
    const cl_uint zero = 0;
    scratch->fill(o.q, &zero, 4, 0, (head + area) * 4);
    const std::size_t hist_groups =
        std::min<std::size_t>(tiles, std::max<std::size_t>(1, 4 * dev.compute_units()));
    o.grouped(sk::histograms, hist_groups,
              {o.mem(s.in, access::read), value_of(s.L), o.mem(scratch.get(), access::read_write),
               value_of(passes)});
    for (cl_uint p = 0; p < passes; ++p) {
        const bool last = p + 1 == passes;
        const cl_uint shift = p * radix_bits, from_input = p == 0;
        const cl_uint gen = from_input;
        const cl_uint kind = static_cast<cl_uint>(last ? out_kind : radix_out::keys);
        allocation *k_in = s.keys[s.cur].get(), *p_in = s.pos[s.cur].get();
        allocation *k_out = s.keys[1 - s.cur].get(), *p_out = s.pos[1 - s.cur].get();
        allocation* dst = last && out ? out : k_out;
        o.grouped(sk::onesweep, tiles,
                  {o.mem(k_in, access::read), o.mem(p_in, access::read),
                   o.mem(k_out, access::write), o.mem(p_out, access::write),
                   o.mem(scratch.get(), access::read_write), o.mem(s.in, access::read),
                   value_of(s.L), o.mem(dst, access::write), o.mem(dst, access::write), value_of(n),
                   value_of(shift), value_of(from_input), value_of(kind), value_of(p),
                   value_of(passes), value_of(tiles), value_of(gen)});
        s.cur = 1 - s.cur;
    }
    s.first = false;
}

// Sorts the view L (element i of rows of row_len): by key within each row, then the rows by
// their number (passes over the row bits of the original positions, which keep each row's
// order): the stable sort of (row, key). Positions travel when `positions` and for several rows;
// the keys only otherwise (they give the values back). The last pass writes `out_kind` into
// `out`.
// The state of a radix sort of the view L of `in` (o.t) before its first pass: its grid and
// scratch (keys of o.t's size, positions when they travel).
radix_state radix_start(op& o, allocation* in, const sort_layout& L, bool positions,
                        std::size_t& tile) {
    radix_state s;
    s.n = L.n;
    s.in = in;
    s.L = L;
    o.wide = s.n > (std::size_t(1) << 31);
    const device& dev = o.q.context().device();
    const std::size_t ps = o.wide ? 8 : 4;
    o.keys_only = !positions; // the keys give the values back (kernels/sort.cl, to_key)
    const std::size_t ks = key_size(o.t);
    tile = radix_group(dev) * radix_items(dev, ks, ps, o.keys_only);
    s.part = radix_partition(dev, s.n, tile);
    for (int b = 0; b < 2; ++b) {
        s.keys[b] = o.temp(s.n * ks);
        // Sorts that never move positions pass the keys in their place (not read).
        s.pos[b] = positions ? o.temp(s.n * ps) : s.keys[b];
    }
    s.hist = o.temp(256 * s.part.groups * ps);
    s.totals = o.temp(256 * ps);
    return s;
}

radix_state radix_sort(op& o, allocation* in, const sort_layout& L, std::size_t row_len,
                       bool positions, radix_out out_kind = radix_out::keys,
                       allocation* out = nullptr) {
    const std::size_t rows = L.n / row_len;
    std::size_t tile = 0;
    radix_state s = radix_start(o, in, L, positions || rows > 1, tile);
    const device& dev = o.q.context().device();
    const cl_ulong rl = row_len;
    if (rows == 1 && s.n < (std::size_t(1) << 30) && onesweep_wanted(dev)) {
        onesweep_sort(o, s, tile, out_kind, out);
        return s;
    }
    unsigned passes = key_bits(o.t) / radix_bits;
    for (unsigned shift = 0; shift < 64 && (rows - 1) >> shift; shift += radix_bits)
        ++passes;
    for (unsigned p = 0; p < passes; ++p) {
        const bool key_pass = p < key_bits(o.t) / radix_bits;
        const cl_uint shift =
            key_pass ? p * radix_bits : (p - key_bits(o.t) / radix_bits) * radix_bits;
        if (p + 1 < passes)
            radix_pass(o, s, key_pass ? 0 : 1, shift, rl);
        else
            radix_pass(o, s, key_pass ? 0 : 1, shift, rl, out_kind, out);
    }
    return s;
}

// A complex sort's launches and views: o runs the kernels of the parts' dtype (float32 or
// float64), ob uint8's (the NaN class pass and the rows'); Lr and Li: the complex view as views
// of its real and imaginary parts.
struct complex_parts {
    op o, ob;
    sort_layout Lr, Li;
};
complex_parts parts_of(const op& oc, const sort_layout& L) {
    const dtype part = oc.t == dtype::complex64 ? dtype::float32 : dtype::float64;
    complex_parts c{op{oc.q, oc.kind, oc.like, part, part, oc.what},
                    op{oc.q, oc.kind, oc.like, dtype::uint8, dtype::uint8, oc.what}, L, L};
    // The parts as views of the part type: strides and offsets in parts, the imaginary part one
    // further.
    for (std::size_t k = 0; k < L.rank; ++k)
        c.Lr.strides[k] *= 2;
    c.Lr.offset *= 2;
    c.Li = c.Lr;
    c.Li.offset += 1;
    return c;
}
// The stable sort of the complex view c.Lr / c.Li (rows of row_len) in NumPy's order: by real
// part, then imaginary part, with the values that have a NaN part last, ordered as NumPy orders
// them (finite parts < NaN imaginary part < NaN real part < both NaN). An LSD sort over stable
// passes with the positions travelling: the imaginary parts' keys (read from the input), the
// real parts' keys (gathered in that order), the NaN class (0-3: 2 * isnan(re) + isnan(im),
// one pass), then the rows. The sorted positions end in s.pos[s.cur].
radix_state complex_radix(complex_parts& c, allocation* in, std::size_t row_len) {
    op& o = c.o;
    const std::size_t n = c.Lr.n, rows = n / row_len;
    const cl_ulong rl = row_len, nn = n;
    std::size_t tile = 0;
    radix_state s = radix_start(o, in, c.Li, true, tile);
    c.ob.wide = o.wide;
    c.ob.keys_only = false;
    const unsigned part_passes = key_bits(o.t) / radix_bits;
    for (unsigned p = 0; p < part_passes; ++p)
        radix_pass(o, s, 0, p * radix_bits, rl);
    const sort_layout flat = make_layout({n}, {1}, 0);
    auto gathered = o.temp(n * dtype_size(o.t));
    o.each(sk::gather, n,
           {o.mem(in, access::read), value_of(c.Lr), o.mem(s.pos[s.cur].get(), access::read),
            o.mem(gathered.get(), access::write), value_of(flat)});
    s.in = gathered.get();
    s.L = flat;
    s.reread = true;
    for (unsigned p = 0; p < part_passes; ++p)
        radix_pass(o, s, 0, p * radix_bits, rl);
    // The NaN class, sorted as uint8 keys (that program's kernels) with the positions.
    auto nan_class = o.temp(n);
    o.each(sk::nan_class, n,
           {o.mem(in, access::read), value_of(c.Lr), o.mem(s.pos[s.cur].get(), access::read),
            o.mem(nan_class.get(), access::write), value_of(nn)});
    s.in = nan_class.get();
    s.reread = true;
    radix_pass(c.ob, s, 0, 0, rl);
    for (unsigned shift = 0; shift < 64 && (rows - 1) >> shift; shift += radix_bits)
        radix_pass(c.ob, s, 1, shift, rl);
    return s;
}

// complex_radix, then the sorted values or the indices into result through O.
void complex_sort(const op& oc, allocation* in, const sort_layout& L, const sort_layout& O,
                  std::size_t row_len, bool indices, allocation* result) {
    complex_parts c = parts_of(oc, L);
    radix_state s = complex_radix(c, in, row_len);
    const cl_ulong rl = row_len;
    const std::size_t n = L.n;
    allocation* pos = s.pos[s.cur].get();
    if (indices) {
        c.ob.each(sk::indices, n,
                  {c.ob.mem(pos, access::read), c.ob.mem(result, access::write), value_of(O),
                   value_of(rl)});
        return;
    }
    const complex_parts out = parts_of(oc, O);
    for (int k = 0; k < 2; ++k)
        c.o.each(sk::gather, n,
                 {c.o.mem(in, access::read), value_of(k ? c.Li : c.Lr), c.o.mem(pos, access::read),
                  c.o.mem(result, access::write), value_of(k ? out.Li : out.Lr)});
}

// unique of a complex view (flattened): complex_radix, runs of equal values (NumPy's: -0.0
// equal to +0.0, every value with a NaN part one value) marked 0 where one starts
// (sort_complex_starts) and moved to the front with their indices by a stable pass over those
// marks, then the first value of each run and the runs' lengths.
unique_parts complex_unique(const op& oc, const array_ref& a, bool counts) {
    unique_parts r;
    const sort_layout L = layout_of(a);
    const std::size_t n = L.n;
    complex_parts c = parts_of(oc, L);
    radix_state s = complex_radix(c, a.alloc, n);
    allocation* sorted_pos = s.pos[s.cur].get();
    auto marks = c.o.temp(n);
    const cl_ulong nn = n;
    c.o.each(sk::complex_starts, n,
             {c.o.mem(a.alloc, access::read), value_of(c.Lr), c.o.mem(sorted_pos, access::read),
              c.o.mem(marks.get(), access::write), value_of(nn)});
    s.in = marks.get();
    s.L = make_layout({n}, {1}, 0);
    s.first = true; // the marks' pass scatters the sorted indices (made on the fly)
    radix_pass(c.ob, s, 0, 0, nn);
    allocation* start = s.pos[s.cur].get();
    cl_ulong count = 0;
    if (c.o.wide) {
        s.totals->read(oc.q, 0, 8, &count);
    } else {
        cl_uint c32 = 0;
        s.totals->read(oc.q, 0, 4, &c32);
        count = c32;
    }
    r.count = count;
    r.values = oc.alloc(count * dtype_size(oc.t));
    for (int k = 0; k < 2; ++k) {
        const sort_layout V = make_layout({count}, {2}, k);
        c.o.each(sk::unique_parts, count,
                 {c.o.mem(a.alloc, access::read), value_of(k ? c.Li : c.Lr),
                  c.o.mem(sorted_pos, access::read), c.o.mem(start, access::read),
                  c.o.mem(r.values.get(), access::write), value_of(V)});
    }
    if (counts) {
        r.counts = oc.alloc(count * 8);
        c.o.each(sk::unique_counts, count,
                 {c.o.mem(start, access::read), c.o.mem(r.counts.get(), access::write),
                  value_of(count), value_of(nn)});
    }
    return r;
}

} // namespace

std::shared_ptr<allocation> sort_impl(const array_ref& a, long axis, bool indices) {
    const char* what = indices ? "argsort" : "sort";
    const queue& q = queue_of(a, what);
    const shape_type& shape = *a.shape;
    const long rank = static_cast<long>(shape.size());
    if (axis < -rank || axis >= rank)
        throw index_error(std::string(what) + ": axis " + std::to_string(axis) +
                          " out of range for an array of " + std::to_string(rank) + " dimensions");
    const std::size_t ax = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
    const std::size_t n = checked_size(shape);
    if (n == 0) return nullptr;
    op o{q, a.kind, a.alloc, a.type, a.type, what};
    auto result = o.alloc(n * (indices ? 8 : dtype_size(a.type)));

    // The sorted axis last, in the input and in the (C-order) result.
    const strides_type out_strides = contiguous_strides(shape, layout::c);
    shape_type ps;
    strides_type pin, pout;
    for (std::size_t k = 0; k <= shape.size(); ++k) {
        const std::size_t d = k == shape.size() ? ax : k;
        if (k == ax) continue;
        ps.push_back(shape[d]);
        pin.push_back((*a.strides)[d]);
        pout.push_back(out_strides[d]);
    }
    const sort_layout L = make_layout(ps, pin, a.offset);
    const sort_layout O = make_layout(ps, pout, 0);
    const std::size_t row_len = shape[ax];
    if (is_complex(a.type)) {
        complex_sort(o, a.alloc, L, O, row_len, indices, result.get());
        return result;
    }

    // The result in the sort's order (a 1-d sort, or along the last axis): the last pass writes
    // it; else one more kernel writes it from the sorted keys (values) or positions (indices).
    const bool in_order = O.rank == 1 && O.strides[0] == 1 && O.offset == 0;
    if (in_order) {
        const radix_out kind = !indices       ? radix_out::values
                               : row_len == n ? radix_out::positions
                                              : radix_out::indices;
        radix_sort(o, a.alloc, L, row_len, indices, kind, result.get());
        return result;
    }
    radix_state s = radix_sort(o, a.alloc, L, row_len, indices);
    allocation* pos = s.pos[s.cur].get();
    if (indices) {
        const cl_ulong rl = row_len;
        o.each(sk::indices, n,
               {o.mem(pos, access::read), o.mem(result.get(), access::write), value_of(O),
                value_of(rl)});
    } else {
        o.each(sk::values, n,
               {o.mem(s.keys[s.cur].get(), access::read), o.mem(result.get(), access::write),
                value_of(O)});
    }
    return result;
}

std::shared_ptr<allocation> searchsorted_impl(const array_ref& sorted, const array_ref& values,
                                              side sd) {
    const queue& q = queue_of(values, "searchsorted");
    queue_of(sorted, "searchsorted");
    if (sorted.type != values.type)
        throw dtype_error(std::string("searchsorted: the sorted array is ") +
                          dtype_name(sorted.type) + ", the values " + dtype_name(values.type) +
                          " (convert one: both of one dtype)");
    if (sorted.shape->size() != 1)
        throw shape_error("searchsorted: the sorted array must be 1-d, it has " +
                          std::to_string(sorted.shape->size()) + " dimensions");
    if (sorted.q->context() != q.context())
        throw usage_error("searchsorted: arrays of different contexts");
    const std::size_t n = checked_size(*values.shape);
    if (n == 0) return nullptr;
    const op o{q, values.kind, values.alloc, values.type, values.type, "searchsorted"};
    auto result = o.alloc(n * 8);
    const cl_long s_off = sorted.offset, s_stride = (*sorted.strides)[0];
    const cl_ulong s_n = (*sorted.shape)[0];
    const cl_uint right = sd == side::right;
    // An empty sorted array has no memory; the kernel reads none of it then, but NVIDIA refuses
    // a NULL buffer argument (docs/internals/quirks.md): the values stand in for it.
    allocation* sorted_mem = s_n ? sorted.alloc : values.alloc;
    o.each(sk::search, n,
           {o.mem(sorted_mem, access::read), value_of(s_off), value_of(s_stride), value_of(s_n),
            o.mem(values.alloc, access::read), value_of(layout_of(values)),
            o.mem(result.get(), access::write), value_of(right)});
    return result;
}

unique_parts unique_impl(const array_ref& a, bool counts) {
    const char* what = counts ? "unique_counts" : "unique";
    const queue& q = queue_of(a, what);
    unique_parts r;
    const std::size_t n = checked_size(*a.shape);
    if (n == 0) return r;
    op o{q, a.kind, a.alloc, a.type, a.type, what};
    if (is_complex(a.type)) return complex_unique(o, a, counts);
    const sort_layout L = layout_of(a); // flattened, C order
    radix_state s = radix_sort(o, a.alloc, L, n, true);
    allocation* sorted_pos = s.pos[s.cur].get();
    // Runs of equal keys: a stable partition by "starts a run" moves the start indices to the
    // front (mode 2 scatters indices, not positions); their number is the total of digit 0.
    radix_pass(o, s, 2, 0, n);
    allocation* start = s.pos[s.cur].get();
    // The total of digit 0 (blocks).
    cl_ulong count = 0;
    if (o.wide) {
        cl_ulong c = 0;
        s.totals->read(q, 0, 8, &c);
        count = c;
    } else {
        cl_uint c = 0;
        s.totals->read(q, 0, 4, &c);
        count = c;
    }
    r.count = count;
    r.values = o.alloc(count * dtype_size(a.type));
    o.each(sk::unique_values, count,
           {o.mem(a.alloc, access::read), value_of(L), o.mem(sorted_pos, access::read),
            o.mem(start, access::read), o.mem(r.values.get(), access::write), value_of(count)});
    if (counts) {
        r.counts = o.alloc(count * 8);
        const cl_ulong total = n;
        o.each(sk::unique_counts, count,
               {o.mem(start, access::read), o.mem(r.counts.get(), access::write), value_of(count),
                value_of(total)});
    }
    return r;
}

namespace {

// A value of the input's dtype, exactly: integers as their sign and magnitude (every int64 and
// uint64 value), floats as a double.
struct number {
    bool integer = false;
    bool negative = false; // integer < 0
    std::uint64_t mag = 0; // integer: |value|
    double d = 0;          // the value as a double (rounded for integers beyond 2^53)
    std::string text() const {
        if (!integer) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.17g", d);
            return buf;
        }
        return (negative ? "-" : "") + std::to_string(mag);
    }
};

// The smallest and largest element of a (n > 0) as sort keys, turned back into values.
struct extremes {
    number lo, hi;
    bool nan = false;
};

// The value of an ordered key k (kernels/sort.cl, ordered(to_key(v))) of dtype t: to_key's
// inverse. Signed integers: the key is the value with its sign bit flipped, as an unsigned number
// of the dtype's width; floats: the sign bit of non-negatives flipped, every bit of negatives;
// float16 keys are 16 bits wide (in a 32-bit word).
number key_value(dtype t, std::uint64_t k) {
    number r;
    const unsigned bits = key_bits(t);
    const std::uint64_t sign = std::uint64_t(1) << (bits - 1);
    const std::uint64_t all = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    switch (dtype_kind_of(t)) {
    case dtype_kind::floating: {
        const std::uint64_t b = (k & sign) ? (k ^ sign) : (~k & all);
        if (bits == 64) {
            std::memcpy(&r.d, &b, 8);
        } else if (bits == 32) {
            const std::uint32_t b32 = static_cast<std::uint32_t>(b);
            float f;
            std::memcpy(&f, &b32, 4);
            r.d = f;
        } else {
            r.d = half::from_bits(static_cast<std::uint16_t>(b));
        }
        return r;
    }
    case dtype_kind::signed_integer:
        // k >= sign: the value k - sign >= 0; else the value is -(sign - k).
        r.integer = true;
        r.negative = k < sign;
        r.mag = r.negative ? sign - k : k - sign;
        break;
    default:
        r.integer = true;
        r.mag = k;
        break;
    }
    r.d = r.negative ? -static_cast<double>(r.mag) : static_cast<double>(r.mag);
    return r;
}

extremes minmax(const op& o, const array_ref& a) {
    const sort_layout L = layout_of(a);
    const partition p = partition_of(o.q.context().device(), L.n);
    const std::size_t ks = key_size(a.type);
    auto mm = o.temp(2 * p.groups * ks);
    const cl_ulong chunk = p.chunk;
    o.grouped(sk::minmax, p.groups,
              {o.mem(a.alloc, access::read), value_of(L), o.mem(mm.get(), access::write),
               value_of(chunk)});
    std::vector<unsigned char> host(2 * p.groups * ks);
    mm->read(o.q, 0, host.size(), host.data()); // blocks
    std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
    for (std::size_t g = 0; g < p.groups; ++g)
        for (int j = 0; j < 2; ++j) {
            std::uint64_t k;
            if (ks == 8) {
                std::memcpy(&k, host.data() + (2 * g + j) * 8, 8);
            } else {
                std::uint32_t k32;
                std::memcpy(&k32, host.data() + (2 * g + j) * 4, 4);
                k = k32;
            }
            if (j == 0)
                lo = std::min(lo, k);
            else
                hi = std::max(hi, k);
        }
    const unsigned bits = key_bits(a.type);
    const std::uint64_t all = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    extremes e{key_value(a.type, lo), key_value(a.type, hi)};
    e.nan = dtype_kind_of(a.type) == dtype_kind::floating && hi == all; // ordered: NaN's key
    return e;
}

// Sub-histograms of privatised counts of `bins` bins: as many as fit local_bins, at most 8.
cl_uint local_copies(std::size_t bins) {
    return static_cast<cl_uint>(std::clamp<std::size_t>(local_bins / bins, 1, 8));
}

void check_atomics(const queue& q, const char* what) {
    if (!has_atomics(q.context().device()))
        throw unsupported(std::string(what) +
                          ": the device lacks cl_khr_int64_base_atomics (64-bit global atomics)");
}

std::string text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

} // namespace

std::shared_ptr<allocation> bincount_impl(const array_ref& x, const array_ref* weights,
                                          std::size_t minlength, std::size_t& length) {
    const queue& q = queue_of(x, "bincount");
    const dtype_kind kind = dtype_kind_of(x.type);
    if (kind == dtype_kind::floating)
        throw dtype_error(std::string("bincount: the values must be integers or bool, got ") +
                          dtype_name(x.type));
    if (x.shape->size() != 1)
        throw shape_error("bincount: the values must be 1-d, they have " +
                          std::to_string(x.shape->size()) + " dimensions");
    if (weights) {
        queue_of(*weights, "bincount");
        if (*weights->shape != *x.shape)
            throw shape_error(
                "bincount: weights of " + std::to_string(checked_size(*weights->shape)) +
                " elements (or another shape) for " + std::to_string((*x.shape)[0]) + " values");
        if (weights->q->context() != q.context())
            throw usage_error("bincount: arrays of different contexts");
        if (!q.context().device().has_fp64())
            throw unsupported("bincount: weighted counts are float64; the device lacks fp64");
    }
    check_atomics(q, "bincount");
    const op o{q, x.kind, x.alloc, x.type, weights ? weights->type : x.type, "bincount"};
    const std::size_t n = (*x.shape)[0];
    std::size_t top = 0;
    if (n) {
        const extremes e = minmax(o, x);
        if (e.lo.negative)
            throw usage_error("bincount: negative value " + e.lo.text() + " in the input");
        if (e.hi.mag >= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw out_of_memory("bincount: largest value " + e.hi.text() + " needs too many bins");
        top = static_cast<std::size_t>(e.hi.mag) + 1;
    }
    length = std::max(top, minlength);
    if (length == 0) return nullptr;
    auto result = o.alloc(checked_size({length}) * 8);
    const std::uint64_t zero = 0;
    result->fill(q, &zero, 8, 0, length * 8);
    if (n == 0) return result;
    const sort_layout L = layout_of(x);
    const partition p = partition_of(q.context().device(), n);
    const cl_ulong chunk = p.chunk;
    const cl_uint bins = static_cast<cl_uint>(std::min(length, local_bins));
    if (!weights && length <= local_bins) {
        const cl_uint copies = local_copies(length);
        o.grouped(sk::bincount_local, p.groups,
                  {o.mem(x.alloc, access::read), value_of(L),
                   o.mem(result.get(), access::read_write), value_of(bins), value_of(copies),
                   value_of(chunk)});
    } else if (!weights) {
        o.each(
            sk::bincount, n,
            {o.mem(x.alloc, access::read), value_of(L), o.mem(result.get(), access::read_write)});
    } else if (length <= local_sums) {
        o.grouped(sk::bincount_weighted_local, p.groups,
                  {o.mem(x.alloc, access::read), value_of(L), o.mem(weights->alloc, access::read),
                   value_of(layout_of(*weights)), o.mem(result.get(), access::read_write),
                   value_of(bins), value_of(chunk)});
    } else {
        o.each(sk::bincount_weighted, n,
               {o.mem(x.alloc, access::read), value_of(L), o.mem(weights->alloc, access::read),
                value_of(layout_of(*weights)), o.mem(result.get(), access::read_write)});
    }
    return result;
}

void histogram_impl(const array_ref& a, std::size_t bins, const double* range, dtype edge_type,
                    std::shared_ptr<allocation>& counts, std::shared_ptr<allocation>& edges) {
    const queue& q = queue_of(a, "histogram");
    if (bins == 0) throw usage_error("histogram: bins must be at least 1");
    if (a.type == dtype::bool_)
        throw dtype_error("histogram: bool input (convert it to an integer dtype)");
    check_atomics(q, "histogram");
    const op o{q, a.kind, a.alloc, a.type, edge_type, "histogram"};
    const std::size_t n = checked_size(*a.shape);
    double lo = 0, hi = 1;
    if (range) {
        lo = range[0];
        hi = range[1];
        if (lo > hi)
            throw usage_error("histogram: max must be larger than min in range, got (" + text(lo) +
                              ", " + text(hi) + ")");
        if (!std::isfinite(lo) || !std::isfinite(hi))
            throw usage_error("histogram: range (" + text(lo) + ", " + text(hi) +
                              ") is not finite");
    } else if (n) {
        const extremes e = minmax(o, a);
        lo = e.lo.d;
        hi = e.hi.d;
        if (e.nan || !std::isfinite(lo) || !std::isfinite(hi))
            throw usage_error("histogram: autodetected range of [" + e.lo.text() + ", " +
                              (e.nan ? std::string("nan") : e.hi.text()) + "] is not finite");
    }
    if (lo == hi) {
        lo -= 0.5;
        hi += 0.5;
    }
    // NumPy's linspace(lo, hi, bins + 1), in float64 where the device has it, as the edge type.
    const bool single = edge_type == dtype::float32;
    const std::size_t esize = single ? 4 : 8;
    edges = o.alloc((bins + 1) * esize);
    const cl_ulong nbins = bins;
    const double step = (hi - lo) / static_cast<double>(bins);
    if (q.context().device().has_fp64()) {
        o.each(sk::edges, bins + 1,
               {o.mem(edges.get(), access::write), value_of(lo), value_of(hi), value_of(step),
                value_of(nbins)});
    } else {
        const float flo = static_cast<float>(lo), fhi = static_cast<float>(hi),
                    fstep = static_cast<float>(step);
        o.each(sk::edges, bins + 1,
               {o.mem(edges.get(), access::write), value_of(flo), value_of(fhi), value_of(fstep),
                value_of(nbins)});
    }
    counts = o.alloc(bins * 8);
    const std::uint64_t zero = 0;
    counts->fill(q, &zero, 8, 0, bins * 8);
    if (n == 0) return;
    // The comparisons and the bin arithmetic in the edge type, as NumPy's.
    unsigned char bounds[3 * 8];
    const double denom = hi - lo;
    if (single) {
        const float v[3] = {static_cast<float>(lo), static_cast<float>(hi),
                            static_cast<float>(denom)};
        std::memcpy(bounds, v, sizeof v);
    } else {
        const double v[3] = {lo, hi, denom};
        std::memcpy(bounds, v, sizeof v);
    }
    if (bins <= local_bins) {
        const partition p = partition_of(q.context().device(), n);
        const cl_ulong chunk = p.chunk;
        const cl_uint nb = static_cast<cl_uint>(bins), copies = local_copies(bins);
        o.grouped(sk::histogram_local, p.groups,
                  {o.mem(a.alloc, access::read), value_of(layout_of(a)),
                   o.mem(counts.get(), access::read_write), o.mem(edges.get(), access::read),
                   launch_arg::value(bounds, esize), launch_arg::value(bounds + esize, esize),
                   launch_arg::value(bounds + 2 * esize, esize), value_of(nb), value_of(copies),
                   value_of(chunk)});
        return;
    }
    const cl_long nb = static_cast<cl_long>(bins);
    o.each(sk::histogram, n,
           {o.mem(a.alloc, access::read), value_of(layout_of(a)),
            o.mem(counts.get(), access::read_write), o.mem(edges.get(), access::read),
            launch_arg::value(bounds, esize), launch_arg::value(bounds + esize, esize),
            launch_arg::value(bounds + 2 * esize, esize), value_of(nb)});
}

} // namespace clarray::detail
