#pragma once
// Sorting and searching on the device, NumPy's names and orders (docs/sorting.md).
//
//   auto s = clarray::sort(a);                 // along the last axis; a new C-order array
//   auto i = clarray::argsort(a, 0);           // stable, int64 indices along axis 0
//   auto k = clarray::searchsorted(s, v, clarray::side::right);
//   auto u = clarray::unique_counts(a);        // u.values, u.counts (reads the count: blocks)
//   auto c = clarray::bincount(x, w, 10);      // float64 sums of w per value of x
//   auto h = clarray::histogram(a, 20, {0.0, 1.0}); // h.counts (int64), h.edges
//   (explicit edges, weights, density, histogram2d and digitize: clarray/sort/histogram.hpp)
//
// Order: NumPy's. Integers numerically, floats numerically with -0.0 equal to +0.0 and every NaN
// after every number; sorts are stable (equal elements keep their order), so argsort of equal
// keys gives increasing indices. Every function takes any view (strided, offset, transposed) of
// any storage policy and returns new C-order arrays of that storage, allocated like the input
// (its pool). sort, argsort and searchsorted are enqueued and never block; unique, bincount and
// histogram without a range read a few values back (the size or range of their result depends
// on the data), which waits for the work before them.
//
// Every function also takes expressions (`sort(a * 2)`, `bincount(labels + 1, k)`): an
// expression is evaluated once into a temporary of its value type and storage policy (one
// kernel, expr/materialize.hpp), which the function then reads as an array.
//
// Complex arrays sort lexicographically, as NumPy's (real part, then imaginary part; values
// with a NaN part last, NumPy's order of them), and unique finds their distinct values;
// searchsorted, bincount and histogram do not take complex arrays (a compile-time error).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/copy.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/expr/promotion.hpp"
#include "clarray/shape/layout.hpp"

namespace clarray {

// Which insertion index searchsorted returns among equal values: the first (left) or after the
// last (right).
enum class side : unsigned char { left, right };

namespace detail {
// The results are made here, from `like`'s pool, in C order. Null for an empty result.
// sort/argsort of a along axis (negative counts from the end): values of a.type, or int64
// indices. Throws index_error for an axis out of range (a 0-d array has none).
std::shared_ptr<allocation> sort_impl(const array_ref& a, long axis, bool indices);
// searchsorted of every element of values (its shape, C order) in the 1-d sorted.
std::shared_ptr<allocation> searchsorted_impl(const array_ref& sorted, const array_ref& values,
                                              side s);
struct unique_parts {
    std::shared_ptr<allocation> values, counts; // counts: null unless asked for
    std::size_t count = 0;
};
unique_parts unique_impl(const array_ref& a, bool counts);
// int64 counts (no weights) or float64 sums (weights), `length` elements.
std::shared_ptr<allocation> bincount_impl(const array_ref& x, const array_ref* weights,
                                          std::size_t minlength, std::size_t& length);
// counts: int64[bins]; edges: bins + 1 of edge_type (float32 for float32 input, else float64).
void histogram_impl(const array_ref& a, std::size_t bins, const double* range, dtype edge_type,
                    std::shared_ptr<allocation>& counts, std::shared_ptr<allocation>& edges);

template <class T, class S>
cl_array<T, S> wrap_result(const queue& q, std::shared_ptr<allocation> alloc, shape_type shape) {
    strides_type strides = contiguous_strides(shape, layout::c);
    return cl_array<T, S>(q, std::move(alloc), std::move(shape), std::move(strides), 0);
}
template <class T, class S> const queue& queue_of(const cl_array<T, S>& a, const char* what) {
    if (!a.bound()) throw usage_error(std::string(what) + ": unbound (default-constructed) array");
    return a.get_queue();
}
} // namespace detail

// A sorted copy of a along axis (stable).
template <class T, class S> cl_array<T, S> sort(const cl_array<T, S>& a, long axis = -1) {
    const queue& q = detail::queue_of(a, "sort");
    return detail::wrap_result<T, S>(q, detail::sort_impl(detail::array_ref_of(a), axis, false),
                                     a.shape());
}
// The int64 indices that sort a along axis (stable): sort(a) equals a gathered along axis.
template <class T, class S>
cl_array<std::int64_t, S> argsort(const cl_array<T, S>& a, long axis = -1) {
    const queue& q = detail::queue_of(a, "argsort");
    return detail::wrap_result<std::int64_t, S>(
        q, detail::sort_impl(detail::array_ref_of(a), axis, true), a.shape());
}

// For each element of values, the index into the 1-d, sorted `sorted` where it would be inserted
// to keep the order: before equal elements (left) or after them (right). int64, values' shape.
template <class T, class S>
cl_array<std::int64_t, S> searchsorted(const cl_array<T, S>& sorted, const cl_array<T, S>& values,
                                       side s = side::left) {
    static_assert(!is_complex_v<T>, "clarray::searchsorted: complex arrays are not supported; "
                                    "search their real parts (clarray::real) instead");
    detail::queue_of(sorted, "searchsorted");
    const queue& q = detail::queue_of(values, "searchsorted");
    return detail::wrap_result<std::int64_t, S>(
        q, detail::searchsorted_impl(detail::array_ref_of(sorted), detail::array_ref_of(values), s),
        values.shape());
}
namespace detail {
// NumPy's spelling of a side: "left" or "right" (else usage_error).
inline side side_named(const std::string& s) {
    if (s != "left" && s != "right")
        throw usage_error("searchsorted: side must be \"left\" or \"right\", got \"" + s + "\"");
    return s == "left" ? side::left : side::right;
}
} // namespace detail
// The same with NumPy's spelling of the side: "left" or "right" (else usage_error).
template <class T, class S>
cl_array<std::int64_t, S> searchsorted(const cl_array<T, S>& sorted, const cl_array<T, S>& values,
                                       const std::string& s) {
    return searchsorted(sorted, values, detail::side_named(s));
}

// The sorted distinct values of a (flattened); NaNs count as one value, -0.0 and +0.0 as one
// (the first in sorted order is kept). Blocks: the number of values is read back.
template <class T, class S> cl_array<T, S> unique(const cl_array<T, S>& a) {
    const queue& q = detail::queue_of(a, "unique");
    detail::unique_parts p = detail::unique_impl(detail::array_ref_of(a), false);
    return detail::wrap_result<T, S>(q, std::move(p.values), {p.count});
}
// The result of unique_counts.
template <class T, class S> struct unique_result {
    // The sorted distinct values.
    cl_array<T, S> values;
    // How often each value occurs.
    cl_array<std::int64_t, S> counts;
};
// The sorted distinct values of a and how often each occurs (NumPy's unique with return_counts).
template <class T, class S> unique_result<T, S> unique_counts(const cl_array<T, S>& a) {
    const queue& q = detail::queue_of(a, "unique_counts");
    detail::unique_parts p = detail::unique_impl(detail::array_ref_of(a), true);
    return {detail::wrap_result<T, S>(q, std::move(p.values), {p.count}),
            detail::wrap_result<std::int64_t, S>(q, std::move(p.counts), {p.count})};
}

// How often each value 0, 1, ... occurs in the 1-d integer array x: int64, length
// max(max(x) + 1, minlength). Negative values throw usage_error. Blocks: the length is read back.
template <class T, class S>
cl_array<std::int64_t, S> bincount(const cl_array<T, S>& x, std::size_t minlength = 0) {
    static_assert(!is_complex_v<T>, "clarray::bincount: the values must be integers or bool, "
                                    "not complex");
    const queue& q = detail::queue_of(x, "bincount");
    std::size_t length = 0;
    auto alloc = detail::bincount_impl(detail::array_ref_of(x), nullptr, minlength, length);
    return detail::wrap_result<std::int64_t, S>(q, std::move(alloc), {length});
}
// Weighted: the float64 sum of weights[i] over the i with x[i] == value (weights: x's shape, any
// dtype). Needs fp64.
template <class T, class S, class W>
cl_array<double, S> bincount(const cl_array<T, S>& x, const cl_array<W, S>& weights,
                             std::size_t minlength = 0) {
    static_assert(!is_complex_v<T>, "clarray::bincount: the values must be integers or bool, "
                                    "not complex");
    static_assert(!is_complex_v<W>, "clarray::bincount: complex weights are not supported; "
                                    "count their real and imaginary parts (clarray::real, "
                                    "clarray::imag) separately");
    const queue& q = detail::queue_of(x, "bincount");
    detail::queue_of(weights, "bincount");
    std::size_t length = 0;
    const detail::array_ref w = detail::array_ref_of(weights);
    auto alloc = detail::bincount_impl(detail::array_ref_of(x), &w, minlength, length);
    return detail::wrap_result<double, S>(q, std::move(alloc), {length});
}

// Equal-width histogram of a (flattened), NumPy's rules: `bins` bins between range's ends (by
// default the smallest and largest element, read back: blocks), every bin half-open but the last,
// which is closed; elements outside the range and NaN are not counted. Edges are computed in
// float32 for float32 input, else in float64, as NumPy does.
template <class T>
using histogram_edge_t = std::conditional_t<std::is_same_v<T, float>, float, double>;
// The result of histogram: for input of T, counts of C (int64; the weights' sums or float64
// densities: clarray/sort/histogram.hpp) and edges of E (explicit edges keep their dtype).
template <class T, class S, class C = std::int64_t, class E = histogram_edge_t<T>>
struct histogram_result {
    // The count of each bin.
    cl_array<C, S> counts;
    // The bins' edges (bins + 1 values).
    cl_array<E, S> edges;
};
// NumPy's histogram: counts in `bins` equal bins over `range` (min to max by default), and
// the edges.
template <class T, class S>
histogram_result<T, S> histogram(const cl_array<T, S>& a, std::size_t bins = 10,
                                 std::optional<std::pair<double, double>> range = std::nullopt) {
    static_assert(!is_complex_v<T>, "clarray::histogram: complex arrays are not supported; "
                                    "take their real parts (clarray::real) or magnitudes "
                                    "(clarray::abs) first");
    const queue& q = detail::queue_of(a, "histogram");
    std::shared_ptr<allocation> counts, edges;
    const double r[2] = {range ? range->first : 0.0, range ? range->second : 0.0};
    detail::histogram_impl(detail::array_ref_of(a), bins, range ? r : nullptr,
                           dtype_traits<histogram_edge_t<T>>::id, counts, edges);
    return {detail::wrap_result<std::int64_t, S>(q, std::move(counts), {bins}),
            detail::wrap_result<histogram_edge_t<T>, S>(q, std::move(edges), {bins + 1})};
}

// ---- The same functions over expressions: evaluated once (detail::materialize), then as above.
// sort of an expression (its value type and storage policy).
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto sort(const E& e, long axis = -1) {
    return sort(detail::materialize(e), axis);
}
// argsort of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto argsort(const E& e, long axis = -1) {
    return argsort(detail::materialize(e), axis);
}
// unique of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto unique(const E& e) {
    return unique(detail::materialize(e));
}
// unique_counts of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto unique_counts(const E& e) {
    return unique_counts(detail::materialize(e));
}
// bincount of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto bincount(const E& x, std::size_t minlength = 0) {
    return bincount(detail::materialize(x), minlength);
}
// Weighted bincount where the values or the weights (or both) are expressions.
template <
    class E, class F,
    class = std::enable_if_t<is_expression_v<E> && is_expression_v<F> &&
                             (detail::is_expression_only_v<E> || detail::is_expression_only_v<F>)>>
auto bincount(const E& x, const F& weights, std::size_t minlength = 0) {
    return bincount(detail::materialize(x), detail::materialize(weights), minlength);
}
// histogram of an expression.
template <class E, class = std::enable_if_t<detail::is_expression_only_v<E>>>
auto histogram(const E& a, std::size_t bins = 10,
               std::optional<std::pair<double, double>> range = std::nullopt) {
    return histogram(detail::materialize(a), bins, range);
}
// histogram with a range written as NumPy's tuple: `histogram(a, 256, {-4.0, 4.0})` (a braced
// pair does not convert to the std::optional of the overloads above).
template <class A>
auto histogram(const A& a, std::size_t bins, std::pair<double, double> range)
    -> decltype(histogram(a, bins, std::optional<std::pair<double, double>>(range))) {
    return histogram(a, bins, std::optional<std::pair<double, double>>(range));
}

namespace detail {
// Trait: both are arrays of one element type and storage (the overload above takes them).
template <class A, class B> struct same_array : std::false_type {};
template <class T, class S> struct same_array<cl_array<T, S>, cl_array<T, S>> : std::true_type {};
// x as an array of element type R: itself (an array of R), or converted (one kernel).
template <class R, class E> decltype(auto) materialize_as(const E& e) {
    using V = typename std::decay_t<node_t<const E&>>::value_type;
    if constexpr (std::is_same_v<canonical_t<V>, canonical_t<R>>)
        return materialize(e);
    else
        return eval(astype<R>(e));
}
} // namespace detail
// searchsorted where either argument is an expression or the two differ in element type: both
// are converted to their NumPy promotion (sorted int32, values float32: both float64) first.
template <class A, class B,
          class = std::enable_if_t<is_expression_v<A> && is_expression_v<B> &&
                                   !detail::same_array<std::decay_t<A>, std::decay_t<B>>::value>>
auto searchsorted(const A& sorted, const B& values, side s = side::left) {
    using TA = typename std::decay_t<detail::node_t<const A&>>::value_type;
    using TB = typename std::decay_t<detail::node_t<const B&>>::value_type;
    using R = promote_t<TA, TB>;
    static_assert(std::is_same_v<detail::first_storage_t<detail::node_t<const A&>>,
                                 detail::first_storage_t<detail::node_t<const B&>>>,
                  "clarray::searchsorted: the sorted array and the values must have one storage "
                  "policy");
    return searchsorted(detail::materialize_as<R>(sorted), detail::materialize_as<R>(values), s);
}
// The same with the side spelled "left" or "right".
template <class A, class B,
          class = std::enable_if_t<is_expression_v<A> && is_expression_v<B> &&
                                   !detail::same_array<std::decay_t<A>, std::decay_t<B>>::value>>
auto searchsorted(const A& sorted, const B& values, const std::string& s) {
    return searchsorted(sorted, values, detail::side_named(s));
}

} // namespace clarray
