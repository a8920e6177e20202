#pragma once
// Reductions of sharded arrays and expressions: every part reduces on its own queue (clarray's
// generated reductions, all enqueued before any is combined), then the partial results combine
// in part order on the first part's queue, and with a communicator over the processes.
//
//   multi::sum(a)          0-d cl_array on the first queue (max, min alike)
//   multi::sum(a, multi::rows_axis)   replicated: the column sums on every queue
//   multi::sum(a, 1)       sharded: one value per row, partitioned as a
//   multi::argmax(a)       the global flat index (int64; blocks)
#include <cmath>
#include <cstdint>
#include <vector>

#include "clarray/multi/expression.hpp"
#include "clarray/reduce/reduce.hpp"

namespace clarray::multi {

namespace detail {

template <class A> struct part_traits;
template <class T, class S> struct part_traits<cl_array<T, S>> {
    using value_type = T;
    using storage = S;
};

template <class R> R combine_host(const R& a, const R& b, reduce_op op) {
    if (op == reduce_op::sum) return a + b;
    if (a != a) return a; // NaN propagates, as clarray::max/min
    if (b != b) return b;
    if (op == reduce_op::max) return b > a ? b : a;
    return b < a ? b : a;
}

// The partials combined in part order on partials[0]'s queue (device copies within a context).
template <class R, class S>
cl_array<R, S> combine_local(const std::vector<cl_array<R, S>>& partials, reduce_op op) {
    // Each step a new array: assigning to one that shares memory would write into a partial.
    std::vector<cl_array<R, S>> acc{partials.front()};
    for (std::size_t i = 1; i < partials.size(); ++i) {
        const cl_array<R, S>& last = acc.back();
        cl_array<R, S> p = to_queue(partials[i], last.get_queue());
        cl_array<R, S> next(last.get_queue(), last.shape(), layout::c, last.data().get());
        if (op == reduce_op::sum)
            next = last + p;
        else if (op == reduce_op::max)
            next = clarray::maximum(last, p);
        else
            next = clarray::minimum(last, p);
        acc.push_back(std::move(next));
    }
    return acc.back();
}

// values (count elements of R) combined over the processes of comm, in rank order.
template <class R> void allreduce_host(communicator& comm, std::vector<R>& values, reduce_op op) {
    if (comm.can_allreduce(dtype_traits<R>::id)) {
        comm.allreduce(values.data(), values.size(), dtype_traits<R>::id, op);
        return;
    }
    const std::size_t n = values.size(), bytes = n * sizeof(R);
    std::vector<R> all(n * static_cast<std::size_t>(comm.size()));
    comm.allgatherv(values.data(), bytes, all.data(),
                    std::vector<std::size_t>(static_cast<std::size_t>(comm.size()), bytes));
    for (std::size_t k = 0; k < n; ++k) {
        R acc = all[k];
        for (int r = 1; r < comm.size(); ++r)
            acc = combine_host(acc, all[static_cast<std::size_t>(r) * n + k], op);
        values[k] = acc;
    }
}

// acc's values combined over the processes (blocks), written back to acc.
template <class R, class S>
void allreduce_array(communicator& comm, cl_array<R, S>& acc, reduce_op op) {
    auto h = acc.get();
    std::vector<R> v(h.begin(), h.end());
    allreduce_host(comm, v, op);
    acc.set(v);
}

// Elements of part i of x (an array or an expression).
template <class X> std::size_t part_size(const X& x, std::size_t i) {
    std::size_t n = 1;
    for (std::size_t e : clarray::detail::shape_of(x.part(i)))
        n *= e;
    return n;
}

template <class X> void require_sharded(const X& x, const char* what) {
    if (!x.shards().dist)
        throw partition_error(std::string(what) +
                              ": the operand is replicated (reduce one of its parts instead)");
}

template <class Reduce, class X> auto reduce_all(const X& x, reduce_op op, Reduce red) {
    require_sharded(x, "multi reduction");
    using P = decltype(red(x.part(0)));
    std::vector<P> partials;
    for (std::size_t i = 0; i < x.shards().queues.size(); ++i)
        if (op == reduce_op::sum || part_size(x, i) != 0) partials.push_back(red(x.part(i)));
    const auto& comm = x.shards().dist->comm;
    if (partials.empty() && (!comm || comm->size() == 1))
        throw shape_error("multi reduction: max/min of an empty array");
    // A process without rows takes part with the identity of sum only; max/min need rows on
    // every process (partitions give each process rows unless the array has fewer rows).
    if (partials.empty()) throw shape_error("multi reduction: max/min over a process without rows");
    P acc = combine_local(partials, op);
    if (comm && comm->size() > 1) allreduce_array(*comm, acc, op);
    return acc;
}

template <class Reduce, class X>
auto reduce_axis(const X& x, std::ptrdiff_t axis_in, bool keep_dims, Reduce red) {
    require_sharded(x, "multi reduction");
    const std::size_t axis =
        normalise_axis(axis_in, clarray::detail::shape_of(x.part(0)).size(), "multi reduction");
    if (axis == 0)
        throw usage_error("multi reduction: axis 0 is the sharded axis; pass multi::rows_axis "
                          "(the result is replicated)");
    using P = decltype(red(x.part(0), axis, keep_dims));
    using R = typename part_traits<P>::value_type;
    using RS = typename part_traits<P>::storage;
    std::vector<P> partials;
    for (std::size_t i = 0; i < x.shards().queues.size(); ++i)
        partials.push_back(red(x.part(i), axis, keep_dims));
    auto d = std::make_shared<distribution>(*x.shards().dist);
    d->rows = x.shards().rows;
    return array<R, RS>(std::move(partials), std::move(d));
}

template <class Reduce, class X>
auto reduce_rows(const X& x, bool keep_dims, reduce_op op, Reduce red) {
    require_sharded(x, "multi reduction");
    using P = decltype(red(x.part(0), 0, keep_dims));
    using R = typename part_traits<P>::value_type;
    using RS = typename part_traits<P>::storage;
    const std::size_t n = x.shards().queues.size();
    std::vector<P> partials; // every part's reduction enqueued before any combines
    for (std::size_t i = 0; i < n; ++i)
        if (op == reduce_op::sum || part_size(x, i) != 0)
            partials.push_back(red(x.part(i), 0, keep_dims));
    if (partials.empty()) throw shape_error("multi reduction: max/min along an empty axis 0");
    P acc = combine_local(partials, op);
    const auto& comm = x.shards().dist->comm;
    if (comm && comm->size() > 1) allreduce_array(*comm, acc, op);
    std::vector<P> copies{acc};
    for (std::size_t i = 1; i < n; ++i)
        copies.push_back(to_queue(acc, x.shards().queues[i]));
    return replicated<R, RS>(std::move(copies));
}

template <class R> struct arg_candidate {
    R value;
    std::int64_t index;
    std::int64_t valid;
};

template <class R> bool arg_better(const R& v, const R& best, bool want_max) {
    if (best != best) return false; // the first NaN wins, as NumPy's argmax
    if (v != v) return true;
    return want_max ? v > best : v < best;
}

template <class X> std::int64_t arg_reduce(const X& x, bool want_max) {
    require_sharded(x, want_max ? "multi::argmax" : "multi::argmin");
    using R = typename part_traits<decltype(clarray::max(x.part(0)))>::value_type;
    const auto& sh = x.shards();
    const auto begins = row_begins(sh.rows);
    const std::size_t n = sh.queues.size();
    std::vector<
        cl_array<std::int64_t, typename part_traits<decltype(clarray::max(x.part(0)))>::storage>>
        idx;
    std::vector<decltype(clarray::max(x.part(0)))> val;
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < n; ++i) { // every part's reductions enqueued before any read
        if (part_size(x, i) == 0) continue;
        idx.push_back(want_max ? clarray::argmax(x.part(i)) : clarray::argmin(x.part(i)));
        val.push_back(want_max ? clarray::max(x.part(i)) : clarray::min(x.part(i)));
        which.push_back(i);
    }
    arg_candidate<R> best{R{}, 0, 0};
    for (std::size_t k = 0; k < which.size(); ++k) {
        const std::size_t i = which[k];
        const R v = val[k].item();
        const std::size_t row = part_size(x, i) / sh.rows[sh.dist->first_local + i];
        const std::int64_t g =
            static_cast<std::int64_t>(begins[sh.dist->first_local + i] * row) + idx[k].item();
        if (!best.valid || arg_better(v, best.value, want_max)) best = {v, g, 1};
    }
    const auto& comm = sh.dist->comm;
    if (comm && comm->size() > 1) {
        std::vector<arg_candidate<R>> all(static_cast<std::size_t>(comm->size()));
        comm->allgatherv(&best, sizeof best, all.data(),
                         std::vector<std::size_t>(all.size(), sizeof best));
        best = {R{}, 0, 0};
        for (const auto& c : all) // rank order is row order
            if (c.valid && (!best.valid || arg_better(c.value, best.value, want_max))) best = c;
    }
    if (!best.valid) throw shape_error("multi::argmax/argmin of an empty array");
    return best.index;
}

} // namespace detail

// The tag of reductions along axis 0, the sharded axis (their result is replicated).
struct rows_axis_t {};
// Pass to sum/max/min for a reduction along axis 0: multi::sum(a, multi::rows_axis).
inline constexpr rows_axis_t rows_axis{};

#define CLARRAY_MULTI_REDUCTION(NAME, OP)                                                          \
    template <class X, class = std::enable_if_t<is_multi_v<X>>> auto NAME(const X& x) {            \
        return detail::reduce_all(x, reduce_op::OP,                                                \
                                  [](const auto& p) { return clarray::NAME(p); });                 \
    }                                                                                              \
    template <class X, class = std::enable_if_t<is_multi_v<X>>>                                    \
    auto NAME(const X& x, std::ptrdiff_t axis, bool keep_dims = false) {                           \
        return detail::reduce_axis(x, axis, keep_dims, [](const auto& p, std::size_t ax, bool k) { \
            return clarray::NAME(p, {static_cast<std::ptrdiff_t>(ax)}, k);                         \
        });                                                                                        \
    }                                                                                              \
    template <class X, class = std::enable_if_t<is_multi_v<X>>>                                    \
    auto NAME(const X& x, rows_axis_t, bool keep_dims = false) {                                   \
        return detail::reduce_rows(                                                                \
            x, keep_dims, reduce_op::OP, [](const auto& p, std::size_t ax, bool k) {               \
                return clarray::NAME(p, {static_cast<std::ptrdiff_t>(ax)}, k);                     \
            });                                                                                    \
    }
// Reductions of a sharded array or expression, clarray's reductions part by part:
//  * NAME(x): a 0-d cl_array on the first part's queue (enqueued; partials of other contexts
//    travel through host memory without a host wait; with other processes MPI_Allreduce waits);
//  * NAME(x, axis), axis != 0: a sharded multi::array of x's partition (nothing combines);
//  * NAME(x, rows_axis): along axis 0, a multi::replicated (the combined result on every queue).
///@{
CLARRAY_MULTI_REDUCTION(sum, sum)
CLARRAY_MULTI_REDUCTION(max, max)
CLARRAY_MULTI_REDUCTION(min, min)
///@}
#undef CLARRAY_MULTI_REDUCTION

// The global flat index of the largest element (the first one; NaN first), as NumPy's argmax.
// Blocks: the parts' candidates meet on the host.
template <class X, class = std::enable_if_t<is_multi_v<X>>> std::int64_t argmax(const X& x) {
    return detail::arg_reduce(x, true);
}
// The global flat index of the smallest element (the first one; NaN first).
template <class X, class = std::enable_if_t<is_multi_v<X>>> std::int64_t argmin(const X& x) {
    return detail::arg_reduce(x, false);
}

} // namespace clarray::multi
