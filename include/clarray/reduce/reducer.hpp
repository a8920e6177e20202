#pragma once
// Evaluation of reductions and scans over expressions: the map expression is fused into the
// generated kernel (no temporary for `a * b + c`), results are new arrays on the storage policy
// of the expression's first array operand, and nothing waits for the device.
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/codegen/assign.hpp"
#include "clarray/codegen/reduce_source.hpp"
#include "clarray/expr/expression.hpp"
#include "clarray/reduce/ops.hpp"
#include "clarray/reduce/plan.hpp"

namespace clarray::detail {

// ---- the storage policy of an expression's first array operand ----
template <class... T> struct first_non_void { using type = void; };
template <class H, class... T> struct first_non_void<H, T...> {
    using type = std::conditional_t<std::is_void_v<H>, typename first_non_void<T...>::type, H>;
};
template <class N> struct first_storage { using type = void; };
template <class A> struct first_storage<array_terminal<A>> {
    using type = typename std::decay_t<A>::storage_policy;
};
template <class Op, class... E> struct first_storage<function_node<Op, E...>> {
    using type = typename first_non_void<typename first_storage<std::decay_t<E>>::type...>::type;
};
template <class N> using first_storage_t = typename first_storage<std::decay_t<N>>::type;

// Binds kernel arguments in order.
class arg_binder {
public:
    explicit arg_binder(cl_kernel k) : k_(k) {}
    template <class S> void memory(const allocation* a) { set_memory_arg<S>(k_, idx_++, a); }
    void bytes(const void* p, std::size_t n) {
        check_cl(clSetKernelArg(k_, idx_++, n, p), "clSetKernelArg");
    }
    template <class T> void value(const T& v) { bytes(&v, sizeof(T)); }
    void local(std::size_t n) {
        check_cl(clSetKernelArg(k_, idx_++, n, nullptr), "clSetKernelArg(local)");
    }
    // The layout words by value, or through a read-only buffer kept alive in `keep`.
    void layout(const context& ctx, const std::vector<cl_long>& words, bool in_buffer,
                handle<cl_mem>& keep) {
        if (!in_buffer) return bytes(words.data(), words.size() * sizeof(cl_long));
        cl_int rc = CL_SUCCESS;
        keep = handle<cl_mem>(clCreateBuffer(ctx.get(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                             words.size() * sizeof(cl_long),
                                             const_cast<cl_long*>(words.data()), &rc));
        check_cl(rc, "clCreateBuffer(layout)");
        cl_mem m = keep.get();
        bytes(&m, sizeof(cl_mem));
    }

private:
    cl_kernel k_;
    cl_uint idx_ = 0;
};

// A generated kernel from the context's cache, built from `make_source()` on first use.
template <class Tag, class F>
kernel cached_kernel(const context& ctx, std::uint32_t signature, const char* name,
                     F&& make_source) {
    context_state& st = ctx.state();
    const context_state::generated_key key{&type_tag<Tag>::id, signature};
    std::lock_guard<std::mutex> lock(st.generated_mutex);
    auto it = st.generated_kernels.find(key);
    if (it != st.generated_kernels.end()) return it->second;
    std::string src = make_source();
    if (src.find("cl_khr_fp64") != std::string::npos && !ctx.device().has_fp64())
        throw unsupported(std::string(name) + " computes in float64, which device '" +
                          ctx.device().name() + "' does not support (cl_khr_fp64)");
    handle<cl_program> prog = build_program(ctx, src, "");
    cl_int rc = CL_SUCCESS;
    handle<cl_kernel> raw(clCreateKernel(prog.get(), name, &rc));
    check_cl(rc, "clCreateKernel(generated reduction)");
    kernel k(ctx, std::move(raw), name);
    st.generated_kernels.emplace(key, k);
    return k;
}

// The array operands of a node: views broadcast to `shape`, with dependency bookkeeping.
template <class Node> struct node_operands {
    std::vector<strides_type> strides;
    std::vector<std::ptrdiff_t> offsets;
    std::size_t scalar_bytes = 0;

    node_operands(const Node& node, const shape_type& shape, cl_context cctx) {
        node.for_each_terminal([&](const auto& t) {
            if constexpr (std::decay_t<decltype(t)>::is_array) {
                if (t.array().get_context().get() != cctx)
                    throw usage_error("reduction: operands from different contexts");
                operand_view v = input_view(t.array(), shape);
                strides.push_back(v.strides);
                offsets.push_back(v.offset);
            } else {
                scalar_bytes += sizeof(t.value());
            }
        });
    }
    static void dependencies(const Node& node, const queue& q, wait_list& deps) {
        node.for_each_terminal([&](const auto& t) {
            if constexpr (std::decay_t<decltype(t)>::is_array)
                if (t.array().data()) {
                    t.array().data()->check_not_mapped(access::read, "reduction");
                    t.array().data()->add_dependencies(q, access::read, deps);
                }
        });
    }
    static void bind(const Node& node, arg_binder& b) {
        node.for_each_terminal([&](const auto& t) {
            using term = std::decay_t<decltype(t)>;
            if constexpr (term::is_array) {
                using A = std::decay_t<decltype(t.array())>;
                b.memory<typename A::storage_policy>(t.array().data().get());
            } else {
                b.value(t.value());
            }
        });
    }
    static void record(const Node& node, const queue& q, const event& ev) {
        node.for_each_terminal([&](const auto& t) {
            if constexpr (std::decay_t<decltype(t)>::is_array)
                if (t.array().data()) t.array().data()->record(q, access::read, ev);
        });
    }
};

inline bool layout_needs_buffer(const device& dev, std::size_t arrays, std::size_t scalar_bytes,
                                std::size_t acc_bytes, std::size_t words) {
    return (arrays + 2) * sizeof(void*) + scalar_bytes + acc_bytes + words * 8 + 64 >
           dev.max_parameter_size();
}

template <class Op, class V, class S> struct reduce_stage2_tag {};

// Stage 2: [M, P] partials of the accumulator type into the finished outputs.
template <class Op, class V, class S, class Out>
void reduce_partials(const queue& q, const std::shared_ptr<allocation>& parts,
                     const cl_array<Out, S>& out, const reduce_plan& plan, std::size_t M, long n,
                     const typename Op::template impl<V>::acc_host& neutral) {
    using impl = typename Op::template impl<V>;
    const context& ctx = q.context();
    const bool coop = plan.stage2_cooperative;
    kernel k = cached_kernel<reduce_stage2_tag<Op, V, S>>(
        ctx, coop ? 1u : 0u, "clarray_reduce_final",
        [&] { return reduce_stage2_source(impl::text(), dtype_traits<Out>::id, coop, false); });
    wait_list deps;
    parts->add_dependencies(q, access::read, deps);
    const std::size_t local = plan.stage2_local;
    event ev;
    {
        std::lock_guard<std::mutex> lock(k.argument_mutex());
        arg_binder b(k.get());
        b.memory<S>(parts.get());
        b.memory<S>(out.data().get());
        b.value(static_cast<cl_ulong>(M));
        b.value(static_cast<cl_ulong>(plan.parts));
        b.value(static_cast<cl_long>(n));
        b.value(neutral);
        if (coop) b.local(local * sizeof(neutral));
        const std::size_t global = coop ? M * local : round_up(M, local);
        const ndrange g{global}, l{local};
        ev = enqueue_nd_range(q, k.get(), g, &l, deps);
    }
    parts->record(q, access::read, ev);
    out.data()->record(q, access::write, ev);
}

template <class Op, class Node> struct reducer {
    using V = canonical_t<typename Node::value_type>;
    using impl = typename Op::template impl<V>;
    using acc_host = typename impl::acc_host;
    using out_type = typename impl::out;
    using S = first_storage_t<Node>;
    static_assert(!std::is_void_v<S>, "a reduction needs at least one array operand");
    using result = cl_array<out_type, S>;

    // n_adjust: subtracted from the reduced count passed to finish (var's ddof).
    static result run(const Node& node, const reduce_axes& axes, bool keep_dims,
                      const acc_host& neutral, bool has_initial, std::ptrdiff_t n_adjust = 0) {
        const shape_type shape = expression_shape(node);
        const queue& q = expression_queue(node);
        const std::vector<bool> mask = axes.mask(shape, Op::name);
        shape_type out_shape;
        for (std::size_t i = 0; i < shape.size(); ++i)
            if (!mask[i])
                out_shape.push_back(shape[i]);
            else if (keep_dims)
                out_shape.push_back(1);
        // Results and partials come from the pool of a pooled operand, if any.
        const allocation* like = expression_storage_like(node, S::kind);
        result out(q, out_shape, layout::c, like);
        node_operands<Node> ops(node, shape, q.context().get());
        reduce_geometry g = split_axes(shape, ops.strides, mask);
        if (g.M == 0) return out;
        if (g.L == 0 && Op::needs_elements && !has_initial)
            throw shape_error(std::string(Op::name) + ": zero-size reduction over axes " +
                              axes.to_string() + " of shape " + shape_to_string(shape) +
                              " has no identity; pass an initial value");
        const long n = static_cast<long>(g.L) - static_cast<long>(n_adjust);
        if (g.L == 0) {
            // Nothing to read: stage 2 over zero partials writes finish(neutral) per output.
            // Stage 1 is skipped because an empty operand has no memory to bind (NVIDIA
            // rejects a NULL SVM argument at launch).
            reduce_plan none;
            none.parts = 0;
            auto dummy = make_temporary_like(q, S::kind, sizeof(acc_host), like);
            reduce_partials<Op, V, S>(q, dummy, out, none, g.M, n, neutral);
            return out;
        }
        // An in-order queue's completion counters allow one-pass plans (queue.hpp).
        const device& dev = q.context().device();
        const std::size_t counters = q.is_out_of_order() ? 0 : queue::completion_counter_count;
        reduce_plan plan = plan_reduction(dev, g, false, counters);
        std::shared_ptr<allocation> parts;
        if (!plan.spec.finish_here) {
            // The rows shape keeps its accumulator rows after the [M, P] partials.
            static const std::size_t rows_extra = rows_extra_partials(impl::text());
            const std::size_t per = plan.spec.shape == reduce_shape::rows ? 1 + rows_extra : 1;
            parts =
                make_temporary_like(q, S::kind, g.M * plan.parts * per * sizeof(acc_host), like);
        }
        if (plan.spec.one_pass) {
            enqueue_stage1(node, q, g, plan, ops, out.data().get(), neutral, n, parts.get(),
                           q.completion_counters());
            return out;
        }
        enqueue_stage1(node, q, g, plan, ops, parts ? parts.get() : out.data().get(), neutral, n);
        if (parts) reduce_partials<Op, V, S>(q, parts, out, plan, g.M, n, neutral);
        return out;
    }

    // Stage 1 into `target` (finished outputs or [M, P] partials, per plan.spec.finish_here).
    // One-pass plans: target takes the finished outputs, `parts` the partials, `counters` the
    // queue's completion counters.
    static void enqueue_stage1(const Node& node, const queue& q, const reduce_geometry& g,
                               reduce_plan& plan, const node_operands<Node>& ops,
                               allocation* target, const acc_host& neutral, long n,
                               allocation* parts = nullptr, cl_mem counters = nullptr) {
        const device& dev = q.context().device();
        const std::vector<cl_long> lay = reduce_layout(g, plan, ops.offsets, n);
        plan.spec.layout_in_buffer = layout_needs_buffer(dev, ops.strides.size(), ops.scalar_bytes,
                                                         sizeof(acc_host), lay.size());
        kernel k = cached_kernel<reducer>(q.context(), plan.signature(), "clarray_reduce", [&] {
            source_builder b;
            b.set_output_count(1);
            const std::string map = Node::emit(b);
            return reduce_stage1_source(b, map, dtype_traits<V>::id, dtype_traits<out_type>::id,
                                        impl::text(), plan.spec);
        });
        wait_list deps;
        node_operands<Node>::dependencies(node, q, deps);
        target->add_dependencies(q, access::write, deps);
        if (parts) parts->add_dependencies(q, access::write, deps);
        event ev;
        {
            std::lock_guard<std::mutex> lock(k.argument_mutex());
            arg_binder b(k.get());
            b.memory<S>(target);
            node_operands<Node>::bind(node, b);
            b.value(neutral);
            handle<cl_mem> lay_buf;
            b.layout(q.context(), lay, plan.spec.layout_in_buffer, lay_buf);
            if (plan.spec.cooperative) b.local(plan.local * sizeof(acc_host));
            if (plan.spec.one_pass) {
                b.memory<S>(parts);
                b.value(counters);
            }
            const ndrange gl =
                plan.spec.short_axis ? ndrange{plan.global, plan.global2} : ndrange{plan.global};
            const ndrange lo =
                plan.spec.short_axis ? ndrange{plan.local, plan.local2} : ndrange{plan.local};
            ev = enqueue_nd_range(q, k.get(), gl, &lo, deps);
        }
        node_operands<Node>::record(node, q, ev);
        target->record(q, access::write, ev);
        if (parts) parts->record(q, access::write, ev);
    }
};

template <class Op, class E>
auto reduce(const E& e, const reduce_axes& axes, bool keep_dims, std::ptrdiff_t n_adjust = 0) {
    auto node = as_node(e);
    using N = std::decay_t<decltype(node)>;
    using R = reducer<Op, N>;
    return R::run(node, axes, keep_dims, R::impl::neutral(), false, n_adjust);
}

template <class Op, class E, class W>
auto reduce_initial(const E& e, const reduce_axes& axes, bool keep_dims, const W& initial) {
    auto node = as_node(e);
    using N = std::decay_t<decltype(node)>;
    using R = reducer<Op, N>;
    using V = typename R::V;
    // The initial value takes the element type, as NumPy casts it (a weak scalar).
    const auto init = static_cast<stored_t<V>>(scalar_terminal<V>(initial).value());
    return R::run(node, axes, keep_dims, typename R::acc_host(init), true);
}

} // namespace clarray::detail
