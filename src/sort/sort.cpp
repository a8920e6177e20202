// Sorting: sort, argsort and unique, by LSD radix sorts of ordered keys (kernels/sort.cl), with
// their complex forms. searchsorted is in search.cpp, bincount and histogram in histogram.cpp;
// what they share (the view struct, the kernels' program, op) in sort_kernels.hpp.
#include <algorithm>
#include <memory>
#include <string>

#include "clarray/error.hpp"
#include "host_sort.hpp"
#include "sort_kernels.hpp"

namespace clarray::detail {
using namespace sorting;

namespace {

constexpr unsigned radix_bits = 8;

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
    // CPU devices: one group scans the rows (docs/internals/quirks.md); else a group a digit.
    const bool rows = o.q.context().device().is_cpu();
    o.grouped(rows ? sk::scan_rows : sk::scan, rows ? 1 : 256,
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
void onesweep_sort(const op& o, radix_state& s, std::size_t tile, unsigned key_passes,
                   radix_out out_kind, allocation* out) {
    const device& dev = o.q.context().device();
    const cl_uint passes = key_passes;
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

// Sorts the view L (element i of rows of row_len): by key within each row, then the rows by
// their number (passes over the row bits of the original positions, which keep each row's
// order): the stable sort of (row, key). Positions travel when `positions` and for several rows;
// the keys only otherwise (they give the values back). The last pass writes `out_kind` into
// `out`.
radix_state radix_sort(op& o, allocation* in, const sort_layout& L, std::size_t row_len,
                       bool positions, radix_out out_kind = radix_out::keys,
                       allocation* out = nullptr, unsigned key_passes = 0) {
    const std::size_t rows = L.n / row_len;
    std::size_t tile = 0;
    radix_state s = radix_start(o, in, L, positions || rows > 1, tile);
    const device& dev = o.q.context().device();
    const cl_ulong rl = row_len;
    if (key_passes == 0) key_passes = key_bits(o.t) / radix_bits;
    if (rows == 1 && s.n < (std::size_t(1) << 30) && onesweep_wanted(dev)) {
        onesweep_sort(o, s, tile, key_passes, out_kind, out);
        return s;
    }
    unsigned passes = key_passes;
    for (unsigned shift = 0; shift < 64 && (rows - 1) >> shift; shift += radix_bits)
        ++passes;
    for (unsigned p = 0; p < passes; ++p) {
        const bool key_pass = p < key_passes;
        const cl_uint shift = key_pass ? p * radix_bits : (p - key_passes) * radix_bits;
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
    if (host_sort_serves(o, row_len)) {
        host_sort(o, a.alloc, L, O, row_len, indices, result.get());
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

namespace {

// The keys of the last pass's first `count` slots to the values of a new allocation.
std::shared_ptr<allocation> values_of_keys(const op& o, allocation* keys, cl_ulong count) {
    auto values = o.alloc(count * dtype_size(o.t));
    const sort_layout V = make_layout({count}, {1}, 0);
    o.each(sk::values, count,
           {o.mem(keys, access::read), o.mem(values.get(), access::write), value_of(V)});
    return values;
}

// The most distinct keys unique counts instead of sorting: one work-group compacts the counts
// (kernels/sort.cl, sort_span_compact), a few hundred bins a work-item at most.
constexpr std::uint64_t span_bins_max = 65536;

// unique of integers whose keys lie in [lo, lo + bins): counts by key, then the non-zero bins in
// order. No sort: one pass over the input, then the compacted bins copied into results of their
// number.
unique_parts span_unique(const op& o, const array_ref& a, std::uint64_t lo, std::uint64_t bins,
                         bool counts) {
    const sort_layout L = layout_of(a);
    const partition p = partition_of(o.q.context().device(), L.n);
    auto hits = o.zeroed_counters(bins);
    const cl_uint nb = static_cast<cl_uint>(bins);
    const cl_ulong chunk = p.chunk;
    // Kernel arguments of K's width: 32-bit keys for types up to 4 bytes.
    const cl_uint lo32 = static_cast<cl_uint>(lo);
    const cl_ulong lo64 = lo;
    const launch_arg lo_arg = key_size(a.type) == 8 ? value_of(lo64) : value_of(lo32);
    o.grouped(bins <= local_bins ? sk::span_counts_local : sk::span_counts, p.groups,
              {o.mem(a.alloc, access::read), value_of(L), o.mem(hits.get(), access::read_write),
               lo_arg, value_of(nb), value_of(chunk)});
    auto values = o.temp(bins * dtype_size(a.type));
    auto value_counts = o.temp(counts ? bins * 8 : 8);
    auto total = o.temp(4);
    const cl_uint with_counts = counts;
    o.grouped(sk::span_compact, 1,
              {o.mem(hits.get(), access::read), value_of(nb), lo_arg,
               o.mem(values.get(), access::write), o.mem(value_counts.get(), access::write),
               value_of(with_counts), o.mem(total.get(), access::write)});
    cl_uint count = 0;
    total->read(o.q, 0, 4, &count); // blocks
    unique_parts r;
    r.count = count;
    r.values = o.alloc(count * dtype_size(a.type));
    r.values->copy_from(o.q, *values, 0, 0, count * dtype_size(a.type));
    if (counts) {
        r.counts = o.alloc(count * 8);
        r.counts->copy_from(o.q, *value_counts, 0, 0, count * 8);
    }
    return r;
}

} // namespace

unique_parts unique_impl(const array_ref& a, bool counts) {
    const char* what = counts ? "unique_counts" : "unique";
    const queue& q = queue_of(a, what);
    unique_parts r;
    const std::size_t n = checked_size(*a.shape);
    if (n == 0) return r;
    op o{q, a.kind, a.alloc, a.type, a.type, what};
    if (is_complex(a.type)) return complex_unique(o, a, counts);
    const sort_layout L = layout_of(a); // flattened, C order
    // Integers: the keys' extremes first (a read that blocks, as the count's does anyway). Few
    // distinct keys are counted instead of sorted; otherwise the sort skips the passes of the
    // digits every key shares (those above the highest bit where the extremes differ).
    unsigned key_passes = 0;
    const dtype_kind kind = dtype_kind_of(a.type);
    if (kind != dtype_kind::floating && !is_half_storage(a.type)) {
        const key_extremes e = extremes_of(o, a);
        const std::uint64_t span = e.hi - e.lo; // bins - 1
        if (span < std::min<std::uint64_t>(span_bins_max, std::max<std::uint64_t>(4096, 2 * n)) &&
            n < (std::size_t(1) << 32))
            return span_unique(o, a, e.lo, span + 1, counts);
        unsigned top = 0; // the highest bit where the extremes differ, plus one
        for (std::uint64_t d = e.lo ^ e.hi; d; d >>= 1)
            ++top;
        key_passes = std::max(1u, (top + radix_bits - 1) / radix_bits);
    }
    // The keys alone are sorted (their positions are not needed), then one more stable pass
    // partitions them by "starts a run of equal keys": the first key of each run moves to the
    // front, in order, and their number is the total of digit 0. unique_counts lets positions
    // travel in that pass: the runs' starts, whose differences are the counts.
    radix_state s = radix_sort(o, a.alloc, L, n, false, radix_out::keys, nullptr, key_passes);
    if (counts) { // the program and grid of a sort whose positions travel
        o.keys_only = false;
        const device& dev = q.context().device();
        const std::size_t ps = o.wide ? 8 : 4;
        s.pos[0] = o.temp(n * ps);
        s.pos[1] = o.temp(n * ps);
        s.part = radix_partition(dev, n,
                                 radix_group(dev) * radix_items(dev, key_size(a.type), ps, false));
        s.hist = o.temp(256 * s.part.groups * ps);
    }
    radix_pass(o, s, 2, 0, n);
    cl_ulong count = 0;
    if (o.wide) {
        s.totals->read(q, 0, 8, &count); // blocks
    } else {
        cl_uint c = 0;
        s.totals->read(q, 0, 4, &c); // blocks
        count = c;
    }
    r.count = count;
    r.values = values_of_keys(o, s.keys[s.cur].get(), count);
    if (counts) {
        r.counts = o.alloc(count * 8);
        const cl_ulong total = n;
        o.each(sk::unique_counts, count,
               {o.mem(s.pos[s.cur].get(), access::read), o.mem(r.counts.get(), access::write),
                value_of(count), value_of(total)});
    }
    return r;
}

} // namespace clarray::detail
