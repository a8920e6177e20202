#include "clarray/reduce/plan.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>

#include "clarray/error.hpp"

namespace clarray {

std::string reduce_axes::to_string() const {
    if (all_) return "all";
    std::string s = "(";
    for (std::size_t i = 0; i < axes_.size(); ++i)
        s += (i ? ", " : "") + std::to_string(axes_[i]);
    return s + (axes_.size() == 1 ? ",)" : ")");
}

std::vector<bool> reduce_axes::mask(const shape_type& shape, const char* what) const {
    const std::size_t rank = shape.size();
    std::vector<bool> m(rank, all_);
    if (all_) return m;
    for (std::ptrdiff_t a : axes_) {
        const std::ptrdiff_t r = static_cast<std::ptrdiff_t>(rank);
        if (a < -r || a >= r)
            throw index_error(std::string(what) + ": axis " + std::to_string(a) +
                              " is out of bounds for an array of shape " + shape_to_string(shape));
        const std::size_t k = static_cast<std::size_t>(a < 0 ? a + r : a);
        if (m[k])
            throw usage_error(std::string(what) + ": axis " + std::to_string(a) +
                              " is repeated in axes " + to_string());
        m[k] = true;
    }
    return m;
}

namespace detail {

namespace {
std::size_t ceil_div(std::size_t a, std::size_t b) {
    return b == 0 ? 0 : (a + b - 1) / b;
}
std::size_t floor_pow2(std::size_t v) {
    std::size_t p = 1;
    while (p * 2 <= v)
        p *= 2;
    return p;
}
std::size_t clamp_parts(std::size_t want, std::size_t most) {
    return std::max<std::size_t>(1, std::min(want, std::max<std::size_t>(1, most)));
}
void coalesce_group(shape_type& shape, std::vector<strides_type>& st) {
    std::vector<strides_type*> ptrs;
    for (auto& s : st)
        ptrs.push_back(&s);
    coalesce(shape, ptrs.data(), ptrs.size());
    if (shape.empty()) {
        shape.push_back(1);
        for (auto& s : st)
            s.push_back(0);
    }
}
// Sum over operands of |innermost stride|: how far consecutive indices jump in memory.
std::ptrdiff_t inner_cost(const std::vector<strides_type>& st) {
    std::ptrdiff_t c = 0;
    for (const auto& s : st)
        c += std::abs(s.back());
    return c;
}
} // namespace

reduce_geometry split_axes(const shape_type& shape, const std::vector<strides_type>& strides,
                           const std::vector<bool>& reduced) {
    reduce_geometry g;
    g.kept_strides.resize(strides.size());
    g.reduced_strides.resize(strides.size());
    for (std::size_t i = 0; i < shape.size(); ++i) {
        auto& sh = reduced[i] ? g.reduced : g.kept;
        auto& st = reduced[i] ? g.reduced_strides : g.kept_strides;
        sh.push_back(shape[i]);
        for (std::size_t k = 0; k < strides.size(); ++k)
            st[k].push_back(strides[k][i]);
    }
    g.M = 1;
    for (std::size_t e : g.kept)
        g.M *= e;
    g.L = 1;
    for (std::size_t e : g.reduced)
        g.L *= e;
    if (g.M > 0 && g.L > 0) {
        coalesce_group(g.kept, g.kept_strides);
        coalesce_group(g.reduced, g.reduced_strides);
    } else {
        // Nothing to index: keep rank-1 placeholders (the launch writes neutrals or nothing).
        g.kept = {std::max<std::size_t>(g.M, 1)};
        g.reduced = {g.L};
        for (auto& s : g.kept_strides)
            s = {0};
        for (auto& s : g.reduced_strides)
            s = {0};
    }
    return g;
}

std::size_t reduction_group_size(const device& dev) {
    return floor_pow2(
        std::min<std::size_t>(256, std::max<std::size_t>(1, dev.max_work_group_size())));
}

std::uint32_t reduce_plan::signature() const noexcept {
    std::uint32_t lane_bits = 0;
    while ((std::size_t(1) << lane_bits) < spec.lanes)
        ++lane_bits;
    return static_cast<std::uint32_t>(spec.kept_rank) |
           static_cast<std::uint32_t>(spec.red_rank) << 5 | lane_bits << 10 |
           (spec.shape == reduce_shape::outputs ? 1u << 14 : 0u) |
           (spec.red_contiguous ? 1u << 15 : 0u) | (spec.cooperative ? 1u << 16 : 0u) |
           (spec.finish_here ? 1u << 17 : 0u) | (spec.layout_in_buffer ? 1u << 18 : 0u) |
           (spec.shape == reduce_shape::rows ? 1u << 19 : 0u) |
           (spec.kept_contiguous ? 1u << 20 : 0u) |
           static_cast<std::uint32_t>(spec.steps > 1 ? spec.steps : 0) << 21 |
           (spec.one_pass ? 1u << 26 : 0u) | (spec.short_axis ? 1u << 27 : 0u);
}

reduce_plan plan_reduction(const device& dev, const reduce_geometry& g, bool ordered,
                           std::size_t counters) {
    constexpr std::size_t cpu_run = 16;
    reduce_plan p;
    const bool gpu = !dev.is_cpu();
    // The GPU plan's parameters (measured on the H200; device::tuning_t, docs/internals/tuning.md).
    const device::tuning_t& tuned = dev.tuning();
    const std::size_t cus = std::max<cl_uint>(1, dev.compute_units());
    const std::size_t W = reduction_group_size(dev);
    const std::size_t M = g.M, L = g.L;
    p.spec.kept_rank = g.kept.size();
    p.spec.red_rank = g.reduced.size();
    bool unit_reduced = g.reduced.size() == 1;
    for (const auto& s : g.reduced_strides)
        unit_reduced = unit_reduced && s[0] == 1;
    p.spec.red_contiguous = unit_reduced && L > 0;

    const bool kept_inner = M > 1 && inner_cost(g.kept_strides) < inner_cost(g.reduced_strides);
    const bool short_rows = M > 1 && L < (gpu ? 256 : 16);
    bool kept_unit = true;
    for (const auto& s : g.kept_strides)
        kept_unit = kept_unit && s.back() == 1;
    if (!ordered && M > 1 && L >= 1 && L <= short_axis_max && g.reduced.size() == 1) {
        // One short reduced axis: an item per output, 2-d over (innermost kept axis, the rest).
        p.spec.shape = reduce_shape::outputs;
        p.spec.short_axis = true;
        p.kin = g.kept.back();
        p.chunk = L;
        const std::size_t group = gpu ? W : 64;
        p.local =
            std::min(group, floor_pow2(p.kin) < p.kin ? floor_pow2(p.kin) * 2 : floor_pow2(p.kin));
        p.local2 = group / p.local;
        p.global = ceil_div(p.kin, p.local) * p.local;
        p.global2 = ceil_div(M / p.kin, p.local2) * p.local2;
        return p;
    }
    if (!gpu && !ordered && kept_inner && g.kept.back() >= 16 && L >= 16) {
        // Stream rows through strips of outputs; parts so that every core has work (each part
        // at least 64 rows).
        p.spec.shape = reduce_shape::rows;
        p.spec.kept_contiguous = kept_unit;
        p.kin = g.kept.back();
        p.nblk = ceil_div(p.kin, rows_strip);
        const std::size_t items = (M / p.kin) * p.nblk;
        const std::size_t target = std::max<std::size_t>(16, cus * 4);
        p.parts = clamp_parts(ceil_div(target, items), L / 64);
        p.chunk = ceil_div(L, p.parts);
        p.parts = std::max<std::size_t>(1, ceil_div(L, p.chunk));
        const std::size_t total = items * p.parts;
        p.local = 1;
        p.global = total;
        p.spec.finish_here = false; // the accumulator rows live in the partials buffer
        p.stage2_cooperative = false;
        p.stage2_local = 1;
        return p;
    }
    if (!ordered && (kept_inner || short_rows)) {
        p.spec.shape = reduce_shape::outputs;
        p.kin = g.kept.back();
        p.spec.lanes = gpu ? 1 : (p.kin >= 16 ? 16 : (p.kin >= 8 ? 8 : 1));
        p.spec.steps = gpu && !ordered ? tuned.output_steps : 1;
        p.nblk = ceil_div(p.kin, p.spec.lanes);
        const std::size_t items = (M / p.kin) * p.nblk;
        const std::size_t target = gpu ? cus * tuned.output_items_per_cu : cus * 4;
        // GPUs: enough items in flight. CPUs: short runs down the reduced axes, so that the
        // pages an item touches (one per reduced step) stay in the TLB for its neighbours,
        // which read the next columns of the same rows.
        p.parts =
            gpu ? clamp_parts(ceil_div(target, items), L / 64)
                : std::max(clamp_parts(ceil_div(target, items), L / 1024), ceil_div(L, cpu_run));
        p.chunk = ceil_div(L, p.parts);
        p.parts = std::max<std::size_t>(1, ceil_div(L, p.chunk));
        const std::size_t total = items * p.parts;
        p.local = gpu ? W : (total >= 1024 ? 16 : 1);
        p.global = ((total + p.local - 1) / p.local) * p.local;
    } else {
        p.spec.shape = reduce_shape::chunks;
        if (gpu) {
            p.spec.cooperative = true;
            p.spec.lanes = ordered ? 1 : tuned.reduce_lanes;
            const std::size_t target = cus * tuned.reduce_groups_per_cu;
            p.parts = clamp_parts(ceil_div(target, M), L / (W * 16));
            p.chunk = ceil_div(ceil_div(L, p.parts), W) * W;
        } else {
            p.spec.lanes = (unit_reduced && !ordered) ? 32 : 1;
            const std::size_t target = std::max<std::size_t>(16, cus * 4);
            p.parts = clamp_parts(ceil_div(target, M), L / 4096);
            p.chunk = ceil_div(ceil_div(L, p.parts), p.spec.lanes) * p.spec.lanes;
        }
        p.parts = std::max<std::size_t>(1, ceil_div(L, p.chunk));
        if (L == 0) p.chunk = 0;
        const std::size_t units = M * p.parts;
        if (gpu) {
            p.local = W;
            p.global = units * W;
        } else {
            p.local = units >= 1024 ? 16 : 1;
            p.global = ((units + p.local - 1) / p.local) * p.local;
        }
    }
    p.spec.finish_here = p.parts == 1;
    // Partials combined by the last unit of each output, saving the second launch (the rows
    // shape above keeps two passes: its partials hold accumulator rows).
    p.spec.one_pass = p.parts > 1 && M <= counters && tuned.one_pass;
    p.spec.device_fence = dev.quirks().device_fence;
    // Stage 2 on GPUs: a work-group per output while there are few outputs, else an item per
    // output (thousands of short group trees cost more than strided reads of P partials).
    p.stage2_cooperative = gpu && p.parts > 1 && M < tuned.stage2_items_from;
    p.stage2_local = gpu ? W : 1;
    return p;
}

reduce_plan plan_scan(const device& dev, const reduce_geometry& g) {
    reduce_plan p;
    const bool gpu = !dev.is_cpu();
    const std::size_t cus = std::max<cl_uint>(1, dev.compute_units());
    p.spec.kept_rank = g.kept.size();
    p.spec.red_rank = g.reduced.size();
    p.spec.shape = reduce_shape::chunks;
    const std::size_t target = gpu ? cus * 2048 : std::max<std::size_t>(16, cus * 4);
    p.parts = clamp_parts(ceil_div(target, g.M), g.L / (gpu ? 256 : 4096));
    p.chunk = ceil_div(g.L, p.parts);
    p.parts = std::max<std::size_t>(1, ceil_div(g.L, p.chunk));
    if (g.L == 0) p.chunk = 0;
    p.spec.finish_here = false;
    const std::size_t units = g.M * p.parts;
    p.local = gpu ? 64 : (units >= 1024 ? 16 : 1);
    p.global = ((units + p.local - 1) / p.local) * p.local;
    return p;
}

std::vector<cl_long> reduce_layout(const reduce_geometry& g, const reduce_plan& p,
                                   const std::vector<std::ptrdiff_t>& offsets, long n) {
    const std::size_t operands = offsets.size();
    assert(g.kept_strides.size() == operands && g.reduced_strides.size() == operands);
    const reduce_layout_schema s(operands, g.kept.size(), g.reduced.size());
    std::vector<cl_long> w(s.words());
    auto u = [](std::size_t v) { return static_cast<cl_long>(v); };
    w[s.outputs_word()] = u(g.M);
    w[s.reduced_count_word()] = u(g.L);
    w[s.parts_word()] = u(p.parts);
    w[s.chunk_word()] = u(p.chunk);
    w[s.kept_inner_word()] = u(p.kin);
    w[s.blocks_word()] = u(p.nblk);
    w[s.count_word()] = n;
    for (std::size_t i = 0; i < g.kept.size(); ++i)
        w[s.kept_shape_word(i)] = u(g.kept[i]);
    for (std::size_t i = 0; i < g.reduced.size(); ++i)
        w[s.reduced_shape_word(i)] = u(g.reduced[i]);
    for (std::size_t j = 0; j < operands; ++j) {
        w[s.offset_word(j)] = offsets[j];
        for (std::size_t i = 0; i < g.kept.size(); ++i)
            w[s.kept_stride_word(j, i)] = g.kept_strides[j][i];
        for (std::size_t i = 0; i < g.reduced.size(); ++i)
            w[s.reduced_stride_word(j, i)] = g.reduced_strides[j][i];
    }
    return w;
}

} // namespace detail
} // namespace clarray
