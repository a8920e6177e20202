#include "clarray/expr/assign_plan.hpp"

#include <algorithm>
#include <cstdlib>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/error.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/storage/policies.hpp"

namespace clarray::detail {

namespace {
// Launch sizes of a strided assignment of rank >= 2 (kernels/assign_strided.cl): dimension
// 0 over the innermost axis, 1 and 2 over the rest. When some operand is laid out across the
// iteration order (a transpose: its inner stride exceeds its outer one) groups are 16 x 16
// tiles, so both the rows written and the columns read share cache lines; otherwise a group
// spans up to g consecutive inner positions.
void strided_launch(const shape_type& shape, std::size_t n, const std::vector<operand_view>& ops,
                    std::size_t g, ndrange& global, ndrange& local) {
    const std::size_t r = shape.size(), inner = shape[r - 1], outer = n / inner;
    bool across = false; // a zero outer stride is a broadcast, not a transpose
    for (const auto& v : ops)
        across = across ||
                 (v.strides[r - 2] != 0 && std::abs(v.strides[r - 1]) > std::abs(v.strides[r - 2]));
    row_launch(inner, outer, g, across && g >= 256 ? 16 : g, global, local);
}

// Whether every vector access of a width-w kernel falls on a multiple of w elements from its
// allocation's start (which is aligned far beyond a vector): each operand's offset and, for row
// kernels, its steps between rows. Inner-broadcast inputs are read one element at a time.
bool vector_aligned(const std::vector<operand_view>& ops, std::size_t rank, bool contiguous,
                    std::uint32_t inner_broadcast, std::size_t w) {
    const auto aligned = [w](std::ptrdiff_t x) { return x % static_cast<std::ptrdiff_t>(w) == 0; };
    for (std::size_t j = 0; j < ops.size(); ++j) {
        if (j < 32 && (inner_broadcast >> j & 1u)) continue;
        if (!aligned(ops[j].offset)) return false;
        if (!contiguous)
            for (std::size_t i = 0; i + 1 < rank; ++i)
                if (!aligned(ops[j].strides[i])) return false;
    }
    return true;
}
} // namespace

operand_view input_view(const shape_type& shape, const strides_type& strides, std::ptrdiff_t offset,
                        allocation* alloc, const shape_type& target, const dtype* type,
                        const dtype* target_type) {
    operand_view v{{}, offset, alloc, &shape, &strides};
    try {
        v.strides = broadcast_strides(shape, strides, target);
    } catch (const shape_error&) {
        auto of = [](const dtype* t) { return t ? std::string(" ") + dtype_name(*t) : ""; };
        throw shape_error("expression: operand of shape " + shape_to_string(shape) + of(type) +
                          " does not broadcast to the output's shape " + shape_to_string(target) +
                          of(target_type));
    }
    return v;
}

bool has_harmful_alias(const std::vector<operand_view>& ops, std::size_t n_out) {
    for (std::size_t o = 0; o < n_out; ++o)
        for (std::size_t i = n_out; i < ops.size(); ++i) {
            if (!ops[o].alloc || ops[o].alloc != ops[i].alloc) continue;
            if (ops[o].strides == ops[i].strides && ops[o].offset == ops[i].offset) continue;
            if (ranges_overlap(*ops[o].shape, *ops[o].own_strides, ops[o].offset, *ops[i].shape,
                               *ops[i].own_strides, ops[i].offset))
                return true;
        }
    return false;
}

bool fits_index32(const shape_type& shape, const std::vector<operand_view>& ops) {
    constexpr std::int64_t limit = std::int64_t(1) << 31; // int holds [-2^31, 2^31)
    std::uint64_t n = 1;
    for (std::size_t e : shape) {
        if (e == 0) return true; // nothing is reached
        if (e >= static_cast<std::uint64_t>(limit)) return false;
        n *= e;
        if (n >= static_cast<std::uint64_t>(limit)) return false;
    }
    for (const operand_view& v : ops) {
        std::int64_t high = v.offset, low = v.offset;
        for (std::size_t i = 0; i < shape.size(); ++i) {
            // |stride| and extent below 2^31: the step stays below 2^62.
            const std::int64_t stride = v.strides[i];
            if (stride >= limit || stride <= -limit) return false;
            const std::int64_t step = stride * static_cast<std::int64_t>(shape[i] - 1);
            (step > 0 ? high : low) += step;
            if (high >= limit || low < -limit) return false;
        }
        if (high >= limit || low < -limit) return false;
    }
    return true;
}

void plan_assignment(const shape_type& shape0, std::vector<operand_view>& ops, std::size_t n_out,
                     std::size_t scalar_bytes, vector_path path, const device& dev,
                     assign_plan& p) {
    std::size_t n = 1;
    for (std::size_t e : shape0)
        n *= e;
    p.n = n;
    if (n == 0) return;

    shape_type shape = shape0;
    strides_type* small_sp[32];
    std::vector<strides_type*> large_sp;
    if (ops.size() > 32) large_sp.resize(ops.size());
    strides_type** sp = ops.size() > 32 ? large_sp.data() : small_sp;
    for (std::size_t j = 0; j < ops.size(); ++j)
        sp[j] = &ops[j].strides;
    coalesce(shape, sp, ops.size());
    const std::size_t rank = shape.size();
    bool contiguous = rank <= 1;
    if (rank == 1)
        for (auto& v : ops)
            contiguous = contiguous && v.strides[0] == 1;
    // Row kernel: every operand steps the inner axis by 1 (inputs also by 0: broadcast along the
    // row), so a work-item finds its row once and walks it with unit steps. The mask of
    // inner-broadcast inputs is part of the signature (16 operands fit).
    bool rows = !contiguous && rank >= 1 && ops.size() <= 16;
    std::uint32_t inner_broadcast = 0;
    for (std::size_t j = 0; rows && j < ops.size(); ++j) {
        const std::ptrdiff_t s = ops[j].strides[rank - 1];
        if (s == 0 && j >= n_out)
            inner_broadcast |= 1u << j;
        else if (s != 1)
            rows = false;
    }
    if (!rows) inner_broadcast = 0;
    const std::size_t inner = rank == 0 ? 1 : shape[rank - 1];
    const assign_layout_schema schema(ops.size(), rank == 0 ? 1 : rank, contiguous);
    const bool by_buffer = !layout_fits(dev, ops.size(), scalar_bytes, schema.words() * 8);
    // Vector kernels on rows shorter than a vector would run their scalar tails only.
    const std::size_t vector_width = path == vector_path::function
                                         ? dev.tuning().function_vector_width
                                     : path == vector_path::half ? dev.tuning().half_vector_width
                                                                 : 1;
    std::size_t width =
        vector_width > 1 && (contiguous || (rows && inner >= vector_width)) ? vector_width : 1;
    if (width > 1 && path == vector_path::half &&
        !vector_aligned(ops, rank, contiguous, inner_broadcast, width))
        width = 1;
    p.rank = rank;
    p.contiguous = contiguous;
    p.rows = rows;
    p.by_buffer = by_buffer;
    p.inner_broadcast = inner_broadcast;
    p.width = width;
    // 32-bit row arithmetic (kernels/assign_common.cl): the 2-d shapes, where the table allows
    // and every offset fits (after coalescing: fewer axes to sum, the same reach). The flat and
    // vector shapes index in 64 bits: their code would be the same.
    const bool two_d = !contiguous && (rows || rank >= 2);
    p.index32 = two_d && dev.tuning().index32 && fits_index32(shape, ops);
    // rank <= max_dims (16) takes bits 0..6.
    p.signature = static_cast<std::uint32_t>(rank) | (p.index32 ? 1u << 7 : 0u) |
                  (contiguous ? 1u << 8 : 0u) | (by_buffer ? 1u << 9 : 0u) |
                  static_cast<std::uint32_t>(width << 10) | (rows ? 1u << 15 : 0u) |
                  inner_broadcast << 16;

    // Layout words at the schema's positions (the kernel's clarray_layout comes from it).
    p.words = schema.words();
    if (p.words > 256) p.large_words.assign(p.words, 0);
    cl_long* lay = p.words > 256 ? p.large_words.data() : p.small_words;
    lay[schema.count_word()] = static_cast<cl_long>(two_d ? n / inner : n);
    for (std::size_t j = 0; j < ops.size(); ++j)
        lay[schema.offset_word(j)] = ops[j].offset;
    if (!contiguous) { // rank >= 1 (rank 0 is contiguous)
        for (std::size_t i = 0; i < rank; ++i)
            lay[schema.shape_word(i)] = static_cast<cl_long>(shape[i]);
        for (std::size_t j = 0; j < ops.size(); ++j)
            for (std::size_t i = 0; i < rank; ++i)
                lay[schema.stride_word(j, i)] = ops[j].strides[i];
    }

    const std::size_t g = elementwise_group_size(dev);
    p.global = ndrange{round_up((n + width - 1) / width, g)};
    p.local = ndrange{g};
    if (rows)
        row_launch((inner + width - 1) / width, n / inner, g, g, p.global, p.local);
    else if (two_d)
        strided_launch(shape, n, ops, g, p.global, p.local);
}

kernel assign_kernel(const context& ctx, const void* tag, const assign_plan& p,
                     const kernel_variants& variants, const std::vector<std::uint8_t>& shared,
                     const std::vector<dtype>& out_types,
                     function_ref<std::vector<std::string>(source_builder&)> emit) {
    const std::uint64_t signature = variant_signature(p.signature, variants);
    return cached_source_kernel(ctx, {tag, signature, sharing_key(shared)}, "clarray_assign", [&] {
        source_builder b;
        b.set_output_count(out_types.size());
        b.set_variants(&variants);
        b.set_shared_inputs(&shared);
        std::vector<std::string> values = emit(b);
        extension_set needs = b.required_extensions();
        for (dtype d : out_types)
            needs.add(d);
        if (needs.contains(dtype_traits<double>::extension) && !ctx.device().has_fp64()) {
            const bool wide_complex =
                b.uses_type(dtype::complex128) ||
                std::find(out_types.begin(), out_types.end(), dtype::complex128) != out_types.end();
            throw unsupported(std::string("this expression computes in ") +
                              (wide_complex ? "complex128" : "float64") + ", which device '" +
                              ctx.device().name() +
                              "' does not support (cl_khr_fp64); convert operands with " +
                              (wide_complex ? "astype<std::complex<float>>()" : "astype<float>()"));
        }
        require_extensions(ctx, needs, "this expression");
        std::vector<std::string> vector_values;
        if (p.width > 1) {
            source_builder vb; // the same inputs in the same order, as vectors
            vb.set_output_count(out_types.size());
            vb.set_vector_width(p.width);
            vb.set_inner_broadcast(p.inner_broadcast);
            vb.set_variants(&variants);
            vb.set_shared_inputs(&shared);
            vector_values = emit(vb);
        }
        assign_kernel_spec spec;
        spec.shape = p.rows                        ? assign_shape::rows
                     : p.width > 1                 ? assign_shape::vector
                     : p.contiguous || p.rank <= 1 ? assign_shape::flat
                                                   : assign_shape::strided;
        spec.rank = p.rank;
        spec.contiguous = p.contiguous;
        spec.width = p.width;
        spec.inner_broadcast = p.inner_broadcast;
        spec.layout_in_buffer = p.by_buffer;
        spec.index32 = p.index32;
        return program_source{assign_source(b, out_types, values, vector_values, spec), ""};
    });
}

void run_assignment(const array_ref* outs, std::size_t n_out, const expression_operands& in,
                    const assignment_kernel& k) {
    const array_ref& first = outs[0];
    if (!first.q) throw usage_error("cl_array: unbound (default-constructed) array");
    const shape_type& shape0 = *first.shape;
    for (std::size_t o = 1; o < n_out; ++o) {
        if (!outs[o].q) throw usage_error("cl_array: unbound (default-constructed) array");
        if (*outs[o].shape != shape0)
            throw shape_error("tie: outputs of shapes " + shape_to_string(shape0) + " " +
                              dtype_name(first.type) + " and " + shape_to_string(*outs[o].shape) +
                              " " + dtype_name(outs[o].type) + " differ");
        if (outs[o].q->context() != first.q->context())
            throw usage_error("tie: outputs from different contexts");
    }
    const queue& q = *first.q;
    in.require_context(q.context().get(), "expression");

    // Operand views: outputs first, then each distinct array operand in emit order.
    const std::vector<std::uint8_t> shared = in.sharing();
    std::vector<operand_view> ops; // one per operand: their count has no bound
    ops.reserve(n_out + in.terminals.size());
    for (std::size_t o = 0; o < n_out; ++o)
        ops.push_back(
            {*outs[o].strides, outs[o].offset, outs[o].alloc, outs[o].shape, outs[o].strides});
    in.for_each_operand(shared, [&](const terminal_record& t) {
        ops.push_back(
            input_view(*t.shape, *t.strides, t.offset, t.alloc, shape0, &t.type, &first.type));
        if (t.read_shape) {
            ops.back().shape = t.read_shape;
            ops.back().own_strides = t.read_strides;
        }
    });

    if (has_harmful_alias(ops, n_out)) {
        // Evaluate into temporaries first, as if every input were read before any write. They
        // come from the library pool whatever their size (an in-place update in a loop would
        // otherwise pay a fresh allocation, and its first touch, each time).
        const std::size_t size = checked_size(shape0);
        const strides_type c_strides = contiguous_strides(shape0, layout::c);
        std::vector<std::shared_ptr<allocation>> held(n_out);
        std::vector<array_ref> tmp(outs, outs + n_out);
        for (std::size_t o = 0; o < n_out; ++o) {
            if (size > 0)
                held[o] = make_temporary_like(*outs[o].q, outs[o].kind, size * outs[o].elem_size(),
                                              outs[o].alloc);
            tmp[o].alloc = held[o].get();
            tmp[o].strides = &c_strides;
            tmp[o].offset = 0;
        }
        run_assignment(tmp.data(), n_out, in, k);
        for (std::size_t o = 0; o < n_out; ++o)
            strided_copy(outs[o], tmp[o]);
        return;
    }

    assign_plan plan;
    plan_assignment(shape0, ops, n_out, in.value_bytes(), k.path, q.context().device(), plan);
    if (plan.n == 0) return;
    const kernel_variants variants = in.variants();
    const kernel kern = assign_kernel(q.context(), k.tag, plan, variants, shared, k.out_types,
                                      [&](source_builder& b) { return k.emit(b); });

    // Arguments: outputs, the terminals in emit order (each operand once), the layout.
    std::vector<launch_arg> args;
    args.reserve(n_out + in.terminals.size() + 1);
    for (std::size_t o = 0; o < n_out; ++o)
        args.push_back(memory_arg(outs[o].kind, outs[o].alloc, access::write));
    in.bind(args, shared);
    args.push_back(launch_arg::layout(plan.layout(), plan.words * sizeof(cl_long), plan.by_buffer));
    const event launched = launch(q, kern, plan.global, &plan.local, args.data(), args.size(), {},
                                  "expression evaluation");
    in.notify(launched);
}

} // namespace clarray::detail
