#include "clarray/reduce/reduction.hpp"

#include <memory>
#include <string>
#include <vector>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign_plan.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/allocation.hpp"

namespace clarray::detail {

namespace {

// A generated reduction or scan kernel from the context's cache. On a miss make_source(needs)
// returns the source and adds to `needs` the extensions of the types it uses (the map
// expression's, the accumulator's, the output's); the device must have them.
kernel generated_kernel(const context& ctx, const void* tag, std::uint64_t signature,
                        const char* name, function_ref<std::string(extension_set&)> make_source,
                        std::uint64_t sharing = 0) {
    return cached_source_kernel(ctx, {tag, signature, sharing}, name, [&] {
        extension_set needs;
        std::string src = make_source(needs);
        require_extensions(ctx, needs, std::string("kernel ") + name + " (its element types)");
        return program_source{std::move(src), ""};
    });
}

bool layout_needs_buffer(const device& dev, std::size_t arrays, std::size_t scalar_bytes,
                         std::size_t acc_bytes, std::size_t words) {
    return !layout_fits(dev, arrays + 2, scalar_bytes + acc_bytes, words * 8);
}

// The map expression (with its kernel variants) emitted into b; adds to `needs` the extensions of
// every type involved (the map's, the accumulator's, the value's and the output's).
std::string emit_map(source_builder& b, const reduction_op& op, const reduction_operands& e,
                     extension_set& needs) {
    b.set_output_count(1);
    b.set_variants(&e.variants);
    b.set_shared_inputs(&e.shared);
    std::string map = e.emit(b);
    needs.add(b.required_extensions());
    needs.add(op.text->acc_extension);
    needs.add(op.value);
    needs.add(op.out);
    return map;
}

// Combine: [M, P] partials of the accumulator type into the finished outputs.
void combine_partials(const queue& q, const reduction_op& op, allocation* parts, allocation* out,
                      const reduce_plan& plan, std::size_t outputs_count, long n,
                      const void* neutral) {
    const bool coop = plan.stage2_cooperative;
    kernel k = generated_kernel(q.context(), op.combine_tag, coop ? 1u : 0u, "clarray_reduce_final",
                                [&](extension_set& needs) {
                                    needs.add(op.text->acc_extension);
                                    needs.add(op.out);
                                    return reduce_stage2_source(*op.text, op.out, coop);
                                });
    const std::size_t local = plan.stage2_local;
    const cl_ulong outputs = outputs_count, parts_per_output = plan.parts;
    const cl_long count = n;
    launch_arg args[] = {memory_arg(op.storage, parts, access::read),
                         memory_arg(op.storage, out, access::write),
                         launch_arg::value(&outputs, sizeof outputs),
                         launch_arg::value(&parts_per_output, sizeof parts_per_output),
                         launch_arg::value(&count, sizeof count),
                         launch_arg::value(neutral, op.acc_size),
                         launch_arg::local(local * op.acc_size)};
    const std::size_t global = coop ? outputs_count * local : round_up(outputs_count, local);
    const ndrange g{global}, l{local};
    launch(q, k, g, &l, args, coop ? 7 : 6, {}, "reduction");
}

// Stage 1 into `target` (finished outputs or [M, P] partials, per plan.spec.finish_here).
// One-pass plans: target takes the finished outputs, `parts` the partials, `counters` the
// queue's completion counters.
void enqueue_map_reduce(const queue& q, const reduction_op& op, const reduction_operands& e,
                        const reduce_geometry& g, reduce_plan& plan, allocation* target,
                        const void* neutral, long n, allocation* parts = nullptr,
                        cl_mem counters = nullptr) {
    const device& dev = q.context().device();
    const std::vector<cl_long> lay = reduce_layout(g, plan, e.offsets, n);
    plan.spec.layout_in_buffer =
        layout_needs_buffer(dev, e.strides.size(), e.scalar_bytes, op.acc_size, lay.size());
    kernel k = generated_kernel(
        q.context(), e.kernel_tag, variant_signature(plan.signature(), e.variants),
        "clarray_reduce",
        [&](extension_set& needs) {
            source_builder b;
            const std::string map = emit_map(b, op, e, needs);
            return reduce_stage1_source(b, map, op.value, op.out, *op.text, plan.spec);
        },
        sharing_key(e.shared));
    std::vector<launch_arg> args;
    args.reserve(e.strides.size() + 6);
    args.push_back(memory_arg(op.storage, target, access::write));
    e.source->bind(args, e.shared);
    args.push_back(launch_arg::value(neutral, op.acc_size));
    args.push_back(
        launch_arg::layout(lay.data(), lay.size() * sizeof(cl_long), plan.spec.layout_in_buffer));
    if (plan.spec.cooperative) args.push_back(launch_arg::local(plan.local * op.acc_size));
    if (plan.spec.one_pass) {
        args.push_back(memory_arg(op.storage, parts, access::write));
        args.push_back(launch_arg::value(&counters, sizeof counters));
    }
    const ndrange gl =
        plan.spec.short_axis ? ndrange{plan.global, plan.global2} : ndrange{plan.global};
    const ndrange lo =
        plan.spec.short_axis ? ndrange{plan.local, plan.local2} : ndrange{plan.local};
    e.source->notify(launch(q, k, gl, &lo, args.data(), args.size(), {}, "reduction"));
}

} // namespace

reduction_operands reduction_operands_of(const expression_operands& d, const shape_type& shape,
                                         const context& ctx, const void* kernel_tag,
                                         std::string (*emit)(source_builder&)) {
    d.require_context(ctx.get(), "reduction");
    reduction_operands ops;
    ops.shape = shape;
    ops.shared = d.sharing();
    ops.scalar_bytes = d.value_bytes();
    ops.variants = d.variants();
    ops.kernel_tag = kernel_tag;
    ops.emit = emit;
    ops.source = &d;
    d.for_each_operand(ops.shared, [&](const terminal_record& t) { // each operand once
        const operand_view v = input_view(*t.shape, *t.strides, t.offset, t.alloc, shape);
        ops.strides.push_back(v.strides);
        ops.offsets.push_back(v.offset);
    });
    return ops;
}

reduction_shape reduction_result_shape(const shape_type& shape, const reduce_axes& axes,
                                       bool keep_dims, const char* what) {
    reduction_shape r;
    r.mask = axes.mask(shape, what);
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (!r.mask[i])
            r.shape.push_back(shape[i]);
        else if (keep_dims)
            r.shape.push_back(1);
    return r;
}

void run_reduction(const queue& q, const reduction_op& op, const reduction_operands& e,
                   const reduce_axes& axes, const std::vector<bool>& mask, allocation* out,
                   const allocation* like, const void* neutral, bool has_initial,
                   std::ptrdiff_t n_adjust) {
    reduce_geometry g = split_axes(e.shape, e.strides, mask);
    if (g.M == 0) return;
    if (g.L == 0 && op.needs_elements && !has_initial)
        throw shape_error(std::string(op.name) + ": zero-size reduction over axes " +
                          axes.to_string() + " of shape " + shape_to_string(e.shape) +
                          " has no identity; pass an initial value");
    const long n = static_cast<long>(g.L) - static_cast<long>(n_adjust);
    if (g.L == 0) {
        // Nothing to read: the combine over zero partials writes finish(neutral) per output.
        // The map kernel is skipped because an empty operand has no memory to bind (NVIDIA
        // rejects a NULL SVM argument at launch).
        reduce_plan none;
        none.parts = 0;
        auto dummy = make_temporary_like(q, op.storage, op.acc_size, like);
        combine_partials(q, op, dummy.get(), out, none, g.M, n, neutral);
        return;
    }
    // An in-order queue's completion counters allow one-pass plans (queue.hpp).
    const device& dev = q.context().device();
    const std::size_t counters = q.is_out_of_order() ? 0 : queue::completion_counter_count;
    reduce_plan plan = plan_reduction(dev, g, false, counters);
    std::shared_ptr<allocation> parts;
    if (!plan.spec.finish_here) {
        // The rows shape keeps its accumulator rows after the [M, P] partials.
        const std::size_t per =
            plan.spec.shape == reduce_shape::rows ? 1 + rows_extra_partials(*op.text) : 1;
        parts = make_temporary_like(q, op.storage, g.M * plan.parts * per * op.acc_size, like);
    }
    if (plan.spec.one_pass) {
        enqueue_map_reduce(q, op, e, g, plan, out, neutral, n, parts.get(),
                           q.completion_counters());
        return;
    }
    enqueue_map_reduce(q, op, e, g, plan, parts ? parts.get() : out, neutral, n);
    if (parts) combine_partials(q, op, parts.get(), out, plan, g.M, n, neutral);
}

void run_scan(const queue& q, const reduction_op& op, const reduction_operands& e,
              const std::vector<bool>& mask, allocation* out, const allocation* like,
              const void* neutral, bool exclusive, const void* scan_tag) {
    const reduce_geometry gin = split_axes(e.shape, e.strides, mask);
    // The output as operand 0 over the same iteration space (C order, as it was allocated).
    std::vector<strides_type> all = e.strides;
    all.insert(all.begin(), contiguous_strides(e.shape, layout::c));
    const reduce_geometry g = split_axes(e.shape, all, mask);
    const device& dev = q.context().device();
    reduce_plan plan = plan_scan(dev, g);

    std::shared_ptr<allocation> parts;
    if (plan.parts > 1) {
        parts = make_temporary_like(q, op.storage, g.M * plan.parts * op.acc_size, like);
        // Pass 1: chunk totals, with the same chunking (flat reduced indices) as pass 3.
        reduce_plan totals = plan;
        totals.spec.kept_rank = gin.kept.size();
        totals.spec.red_rank = gin.reduced.size();
        totals.spec.lanes = 1;
        totals.spec.cooperative = false;
        totals.spec.red_contiguous = false;
        totals.spec.finish_here = false;
        enqueue_map_reduce(q, op, e, gin, totals, parts.get(), neutral, 0);
        // Pass 2: exclusive scan of the totals of each line.
        kernel k = generated_kernel(q.context(), op.scan_parts_tag, 0, "clarray_scan_parts",
                                    [&](extension_set& needs) {
                                        needs.add(op.text->acc_extension);
                                        return scan_parts_source(*op.text);
                                    });
        const cl_ulong lines = g.M, parts_per_line = plan.parts;
        const launch_arg args[] = {memory_arg(op.storage, parts.get(), access::read_write),
                                   launch_arg::value(&lines, sizeof lines),
                                   launch_arg::value(&parts_per_line, sizeof parts_per_line),
                                   launch_arg::value(neutral, op.acc_size)};
        const std::size_t local = dev.is_cpu() ? 1 : 64;
        const ndrange gl{round_up(g.M, local)}, lo{local};
        launch(q, k, gl, &lo, args, 4, {}, "scan");
    }
    // Pass 3 (or the only pass): scan every chunk from its carry.
    std::vector<std::ptrdiff_t> offsets = e.offsets;
    offsets.insert(offsets.begin(), 0);
    const std::vector<cl_long> lay = reduce_layout(g, plan, offsets, 0);
    const bool in_buffer =
        layout_needs_buffer(dev, all.size(), e.scalar_bytes, op.acc_size, lay.size());
    const std::uint32_t sig = static_cast<std::uint32_t>(plan.spec.kept_rank) |
                              static_cast<std::uint32_t>(plan.spec.red_rank) << 5 |
                              (in_buffer ? 1u << 10 : 0u);
    kernel k = generated_kernel(
        q.context(), scan_tag, variant_signature(sig, e.variants), "clarray_scan",
        [&](extension_set& needs) {
            source_builder b;
            const std::string map = emit_map(b, op, e, needs);
            return scan_source(b, map, op.value, op.out, *op.text, plan.spec.kept_rank,
                               plan.spec.red_rank, exclusive, in_buffer);
        },
        sharing_key(e.shared));
    std::vector<launch_arg> args;
    args.reserve(e.strides.size() + 5);
    args.push_back(memory_arg(op.storage, out, access::write));
    e.source->bind(args, e.shared);
    // The chunk carries (unused when there is one chunk per line: then the output, unread).
    args.push_back(parts ? memory_arg(op.storage, parts.get(), access::read)
                         : memory_arg(op.storage, out, access::write));
    args.push_back(launch_arg::value(neutral, op.acc_size));
    args.push_back(launch_arg::layout(lay.data(), lay.size() * sizeof(cl_long), in_buffer));
    const ndrange gl{plan.global}, lo{plan.local};
    e.source->notify(launch(q, k, gl, &lo, args.data(), args.size(), {}, "scan"));
}

} // namespace clarray::detail
