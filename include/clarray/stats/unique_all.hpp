#pragma once
// The array API standard's unique functions: unique_values, unique_inverse and unique_all, with
// the standard's field names; built on the sort layer's unique (one sort, the count read back)
// and its stable argsort and searchsorted.
//
//   auto [values, inverse_indices] = clarray::unique_inverse(a);   // values[inverse] == a
//   auto u = clarray::unique_all(a);     // u.values, u.indices, u.inverse_indices, u.counts
//
// Like unique, each blocks once: the number of distinct values is read back. NaNs count as one
// value (NumPy 2's equal_nan; for complex arrays, every value with a NaN part).
#include <cstdint>
#include <type_traits>

#include "clarray/array/cl_array.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/indexing/indexing.hpp"
#include "clarray/reduce/reduce.hpp"
#include "clarray/sort/sort.hpp"

namespace clarray {

namespace detail {
// For each element of the 1-d `flat`, the index of its value among unique(flat) (`values`):
// searchsorted into them; for complex arrays, which searchsorted does not take, each element's
// run in flat's stable argsort `order` (a run: equal values, -0.0 equal to +0.0, every value
// with a NaN part one value, as unique's), scattered back to the element's position. `order`
// is made here when the caller has none (unique_all has it already).
template <class T, class S>
cl_array<std::int64_t, S> inverse_indices_of(const cl_array<T, S>& values,
                                             const cl_array<T, S>& flat,
                                             const cl_array<std::int64_t, S>* order = nullptr) {
    if constexpr (!is_complex_v<T>) {
        return searchsorted(values, flat, side::left);
    } else {
        const long n = static_cast<long>(flat.size());
        cl_array<std::int64_t, S> step(flat.get_queue(), flat.shape(), layout::c,
                                       flat.data().get());
        if (n == 0) return step;
        const cl_array<std::int64_t, S> own =
            order ? cl_array<std::int64_t, S>() : argsort(flat, 0);
        const cl_array<std::int64_t, S>& sort_order = order ? *order : own;
        const cl_array<T, S> sorted = take(flat, sort_order);
        step(range(0, 1)).fill(0);
        if (n > 1) {
            const cl_array<T, S> cur = sorted(range(1, n)), prev = sorted(range(0, n - 1));
            step(range(1, n)) = astype<std::int64_t>(
                logical_and(cur != prev, !logical_and(isnan(cur), isnan(prev))));
        }
        cl_array<std::int64_t, S> inverse = empty_like(step);
        put(inverse, sort_order, cumsum(step, 0));
        return inverse;
    }
}
} // namespace detail

/// The result of unique_inverse: the sorted distinct values and, for each element of the input
/// (its shape), the index of its value in `values`.
template <class T, class S> struct unique_inverse_result {
    /// The sorted distinct values.
    cl_array<T, S> values;
    /// Each element's index in values (the input's shape).
    cl_array<std::int64_t, S> inverse_indices;
};

/// The result of unique_all: values, the index of each value's first occurrence in the
/// flattened input, the inverse indices (the input's shape) and the counts.
template <class T, class S> struct unique_all_result {
    /// The sorted distinct values.
    cl_array<T, S> values;
    /// The flat index of each value's first occurrence.
    cl_array<std::int64_t, S> indices;
    /// Each element's index in values (the input's shape).
    cl_array<std::int64_t, S> inverse_indices;
    /// How often each value occurs.
    cl_array<std::int64_t, S> counts;
};

/// The standard's name of unique: the sorted distinct values of the flattened input.
template <class E> auto unique_values(const E& e) {
    return unique(detail::materialize(e));
}

/// The sorted distinct values and where each element's value is among them.
template <class T, class S> unique_inverse_result<T, S> unique_inverse(const cl_array<T, S>& a) {
    cl_array<T, S> values = unique(a);
    cl_array<T, S> flat = a.ravel();
    cl_array<std::int64_t, S> inverse = detail::inverse_indices_of(values, flat);
    return {std::move(values), inverse.reshape(a.shape())};
}

/// unique_inverse of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto unique_inverse(const E& e) {
    return unique_inverse(detail::materialize(e));
}

/// Values, first indices, inverse indices and counts (the standard's unique_all).
template <class T, class S> unique_all_result<T, S> unique_all(const cl_array<T, S>& a) {
    auto [values, counts] = unique_counts(a);
    cl_array<T, S> flat = a.ravel();
    // The stable argsort lists equal values in input order: each run starts at its first
    // occurrence, and the runs start at the exclusive running sum of the counts.
    const cl_array<std::int64_t, S> order = argsort(flat, 0);
    cl_array<std::int64_t, S> inverse = detail::inverse_indices_of(values, flat, &order);
    const cl_array<std::int64_t, S> starts = cumsum(counts, 0, true);
    cl_array<std::int64_t, S> first = take(order, starts);
    return {std::move(values), std::move(first), inverse.reshape(a.shape()), std::move(counts)};
}

/// unique_all of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto unique_all(const E& e) {
    return unique_all(detail::materialize(e));
}

} // namespace clarray
