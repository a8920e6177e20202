#include "sort_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/runtime/kernel_cache.hpp"

namespace clarray::detail {
extern const char* const kernel_source_sort;
}

namespace clarray::detail::sorting {

namespace {

// The parts of kernels/sort.cl (SORT_PART): one program each, with the parameters it reads.
enum class part { radix, count, tally, select };
const char* const part_macros[] = {"SORT_PART_RADIX", "SORT_PART_COUNT", "SORT_PART_TALLY",
                                   "SORT_PART_SELECT"};

// The kernels of kernels/sort.cl, indexed by sk: name and part.
struct kernel_entry {
    const char* name;
    part in;
};
const kernel_entry kernel_table[] = {
    {"radix_upsweep", part::radix},
    {"radix_scan", part::radix},
    {"radix_downsweep", part::radix},
    {"radix_values", part::radix},
    {"radix_indices", part::radix},
    {"sort_unique_counts", part::radix},
    {"sort_search", part::count},
    {"sort_minmax", part::count},
    {"sort_bincount", part::tally},
    {"sort_bincount_weighted", part::tally},
    {"sort_histogram", part::tally},
    {"sort_edges", part::tally},
    {"sort_bincount_local", part::tally},
    {"sort_bincount_weighted_local", part::tally},
    {"sort_histogram_local", part::tally},
    {"radix_histograms", part::radix},
    {"radix_onesweep", part::radix},
    {"sort_gather", part::radix},
    {"sort_nan_class", part::radix},
    {"sort_complex_starts", part::radix},
    {"sort_unique_parts", part::radix},
    {"sort_span_counts_local", part::count},
    {"sort_span_counts", part::count},
    {"sort_span_compact", part::count},
    {"select_init", part::select},
    {"select_pass", part::select},
    {"select_pass_multi", part::select},
    {"select_choose", part::select},
    {"select_value", part::select},
    {"select_partition", part::select},
    {"select_above", part::select},
    {"select_next", part::select},
    {"sort_histogram_search", part::tally},
    {"sort_histogram_search_local", part::tally},
    {"sort_histogram2d", part::tally},
    {"sort_histogram2d_local", part::tally},
    {"sort_histogram_weighted", part::tally},
    {"sort_histogram_weighted_local", part::tally},
    {"sort_histogram2d_weighted", part::tally},
    {"sort_histogram2d_weighted_local", part::tally},
    {"sort_density", part::tally},
    {"sort_digitize", part::tally},
    {"select_compact", part::select},
    {"radix_scan_rows", part::radix},
    {"select_neighbour", part::select},
};

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

bool has_atomics(const device& dev) {
    return dev.has_extension("cl_khr_int64_base_atomics");
}

struct sort_program_tag {};
struct sort_kernel_tag {};

// Kernel k of the program of its part for element type t (and weight / edge type w, the type W
// or E of the kernels that need one; t otherwise), with 32-bit radix positions, or 64-bit ones
// when wide; keys_only: for sorts that never move positions (no positions array in the tiles);
// more: the histogram kernels' other types (E = w, Y = t, F = E without). Only the radix part
// reads wide and keys_only, only the tally part w and more: the other parts' programs are shared
// whatever they are.
kernel sort_kernel(const context& ctx, sk k, dtype t, dtype w, bool wide, bool keys_only,
                   const std::optional<more_types>& more, const char* what) {
    const device& dev = ctx.device();
    const kernel_entry& entry = kernel_table[static_cast<unsigned>(k)];
    const bool radix = entry.in == part::radix, tally = entry.in == part::tally;
    if (!radix) wide = keys_only = false;
    if (!tally) w = t;
    const bool with_more = tally && more.has_value();
    const more_types m = with_more ? *more : more_types{w, t, w};
    const auto id = [](dtype d) { return static_cast<std::uint64_t>(static_cast<unsigned>(d)); };
    // 8 bits a dtype (fewer than 256 of them), the flags and the part above them; the kernel below.
    const std::uint64_t program_sig =
        (static_cast<std::uint64_t>(entry.in) << 43) |
        (static_cast<std::uint64_t>(with_more) << 42) |
        (static_cast<std::uint64_t>(keys_only) << 41) | (static_cast<std::uint64_t>(wide) << 40) |
        (with_more ? (id(m.f) << 32) | (id(m.y) << 24) | (id(m.e) << 16) : 0) | (id(w) << 8) |
        id(t);
    return cached_kernel(
        ctx, {&type_tag<sort_kernel_tag>::id, (program_sig << 8) | static_cast<unsigned>(k)},
        entry.name, [&] {
            for (dtype d : {t, w, m.e, m.y, m.f})
                if (const char* ext = required_extension(d))
                    require_extension(ctx, ext, std::string(what) + " of " + dtype_name(d));
            return cached_program(ctx, {&type_tag<sort_program_tag>::id, program_sig}, [&] {
                const bool fp64 = dev.has_fp64();
                const bool atomics = has_atomics(dev);
                std::string source;
                if (fp64) source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
                if (atomics && tally)
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
                    std::string("-DSORT_PART=") + part_macros[static_cast<unsigned>(entry.in)] +
                    " -DT=" + stored(t) + " -DU=" + u + " -DK=" + (size == 8 ? "ulong" : "uint") +
                    " -DSORT_KIND=" + std::to_string(sort_kind) +
                    " -DSORT_WIDE=" + (size == 8 ? "1" : "0") +
                    " -DWG=" + std::to_string(radix_group(dev)) +
                    " -DP=" + (wide ? "ulong" : "uint");
                switch (entry.in) {
                case part::radix:
                    options +=
                        " -DITEMS=" +
                        std::to_string(radix_items(dev, key_size(t), wide ? 8 : 4, keys_only)) +
                        " -DSORT_WIDE_POS=" + (wide ? "1" : "0") +
                        " -DSORT_KEYS_ONLY=" + (keys_only ? "1" : "0") +
                        " -DSCRATCH_COUNTERS=" + std::to_string(scratch_counters) +
                        " -DSORT_RANK_WARP=" + std::to_string(rank_mode(dev));
                    if (const std::size_t cap = register_cap(dev))
                        options += std::string(" ") + dev.quirks().register_cap_option +
                                   std::to_string(cap);
                    break;
                case part::count:
                    options += " -DLOCAL_BINS=" + std::to_string(local_bins);
                    break;
                case part::tally:
                    options +=
                        " -DLOCAL_BINS=" + std::to_string(local_bins) +
                        " -DLOCAL_SUMS=" + std::to_string(local_sums) + " -DW=" + stored(w) +
                        " -DE=" + stored(m.e) + " -DW_HALF=" + (is_half_storage(w) ? "1" : "0") +
                        " -DY=" + stored(m.y) + " -DY_HALF=" + (is_half_storage(m.y) ? "1" : "0") +
                        " -DF=" + stored(m.f);
                    if (atomics) options += " -DSORT_ATOMICS";
                    if (atomics && fp64) options += " -DSORT_FP64";
                    if (dev.quirks().ptx_float_atomics) options += " -DPTX_FLOAT_ATOMICS";
                    break;
                case part::select:
                    break;
                }
                return program_source{std::move(source), std::move(options)};
            });
        });
}

} // namespace

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

std::size_t radix_group(const device& dev) {
    std::size_t g = dev.tuning().sort_group_size;
    while (g > dev.max_work_group_size() && g > 16)
        g /= 2;
    return g;
}

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

std::size_t key_size(dtype t) {
    return dtype_size(t) == 8 ? 8 : 4;
}

unsigned key_bits(dtype t) {
    return static_cast<unsigned>(8 * dtype_size(t));
}

key_extremes extremes_of(const op& o, const array_ref& a) {
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
    key_extremes e{std::numeric_limits<std::uint64_t>::max(), 0};
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
                e.lo = std::min(e.lo, k);
            else
                e.hi = std::max(e.hi, k);
        }
    return e;
}

void check_atomics(const queue& q, const char* what) {
    if (!has_atomics(q.context().device()))
        throw unsupported(std::string(what) +
                          ": the device lacks cl_khr_int64_base_atomics (64-bit global atomics)");
}

void op::each(sk k, std::size_t n, std::initializer_list<launch_arg> args) const {
    const std::size_t g = elementwise_group_size(q.context().device());
    const ndrange global{round_up(n, g)}, local{g};
    launch(q, sort_kernel(q.context(), k, t, w, wide, keys_only, more, what), global, &local,
           args.begin(), args.size(), {}, what);
}

void op::grouped(sk k, std::size_t groups, std::initializer_list<launch_arg> args) const {
    grouped(k, groups, args.begin(), args.size());
}
void op::grouped(sk k, std::size_t groups, const std::vector<launch_arg>& args) const {
    grouped(k, groups, args.data(), args.size());
}
void op::grouped(sk k, std::size_t groups, const launch_arg* args, std::size_t count) const {
    const std::size_t g = radix_group(q.context().device());
    const ndrange global{groups * g}, local{g};
    launch(q, sort_kernel(q.context(), k, t, w, wide, keys_only, more, what), global, &local, args,
           count, {}, what);
}

const queue& queue_of(const array_ref& a, const char* what) {
    if (!a.q) throw usage_error(std::string(what) + ": unbound (default-constructed) array");
    return *a.q;
}

partition partition_of(const device& dev, std::size_t n) {
    const std::size_t g = radix_group(dev);
    const std::size_t most = std::clamp<std::size_t>(8 * dev.compute_units(), 1, 1024);
    std::size_t chunk = round_up((n + most - 1) / most, g);
    if (chunk == 0) chunk = g;
    return {(n + chunk - 1) / chunk, chunk};
}

} // namespace clarray::detail::sorting
