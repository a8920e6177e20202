#pragma once
// Products and gathers of sharded arrays, part by part: matmul of a sharded left operand by a
// replicated right one, take with indices local to each part.
#include "clarray/indexing/indexing.hpp"
#include "clarray/linalg/linalg.hpp"
#include "clarray/multi/expression.hpp"

namespace clarray::multi {

// a @ b with a sharded by rows (2-d) and b replicated: part i is matmul(a's part i, b's copy
// i), so the result is sharded as a. Enqueued on every part's queue.
template <class T, class S> array<T, S> matmul(const array<T, S>& a, const replicated<T, S>& b) {
    detail::merge_shards(a.shards(), b.shards());
    if (a.dimension() != 2)
        throw shape_error("multi::matmul: the sharded operand must be 2-d (it has " +
                          std::to_string(a.dimension()) + " axes)");
    std::vector<cl_array<T, S>> parts;
    for (std::size_t i = 0; i < a.parts(); ++i)
        parts.push_back(clarray::matmul(a.part(i), b.part(i)));
    auto d = std::make_shared<detail::distribution>(*a.shards().dist);
    d->rows = a.shards().rows;
    return array<T, S>(std::move(parts), std::move(d));
}

// take(a's part i, idx's part i, axis) for every part: the indices of part i index part i of a
// (local rows along axis 0) or, for a replicated a, its copy. The result is an expression
// partitioned as idx (a and idx need as many parts in the same contexts, not equal rows).
template <class A, class X, class = std::enable_if_t<is_multi_v<A> && is_multi_v<X>>>
auto take(const A& a, const X& idx, std::optional<std::ptrdiff_t> axis = std::nullopt) {
    detail::shards s = idx.shards();
    detail::shards as = a.shards();
    as.dist = nullptr; // rows of a and idx need not match: only the parts' places
    as.rows.clear();
    detail::merge_shards(as, s);
    auto make = [a, idx, axis](std::size_t i) {
        return clarray::take(a.part(i), idx.part(i), axis);
    };
    return expr<decltype(make)>(std::move(make), std::move(s));
}

} // namespace clarray::multi
