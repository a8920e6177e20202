#pragma once
// Reductions and scans over arrays and expressions (NumPy semantics, docs/reductions.md).
//
//   ca::sum(a)                    0-d array: the sum of every element
//   ca::sum(a * b + c, {1})       one fused pass, no temporary for a * b + c
//   ca::max(a, 0, true)           keep_dims; NaN propagates
//   ca::min(a, {}, false, 5.0f)   an initial value: empty reductions give it
//   ca::argmax(a) / argmax(a, 1)  flat index / index along an axis (int64)
//   ca::mean, var, stddev, norm, any, all, prod, dot, vdot, cumsum, cumprod
//   ca::cumulative_sum(a, 0, true) the array API's scan: a leading 0 with include_initial
// Complex arrays: every one (max/min/argmax/argmin order them lexicographically, as NumPy);
// norm, var and stddev give real results.
//
// Results are new arrays on the storage policy of the first array operand, in its queue. Nothing
// blocks: the kernels are enqueued and `.get()` / `.item()` wait.
#include <cmath>
#include <limits>
#include <optional>

#include "clarray/array/manipulation.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/reduce/reducer.hpp"
#include "clarray/reduce/scan.hpp"

namespace clarray {

#define CLARRAY_REDUCTION(NAME, OP)                                                                \
    template <class E, class = std::enable_if_t<is_expression_v<E>>>                               \
    auto NAME(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {                  \
        return detail::reduce<detail::OP>(e, axes, keep_dims);                                     \
    }
// sum/prod accumulate as NumPy: bool and signed integers in int64, unsigned in uint64, floats in
// their own type (float sums are compensated: see docs/reductions.md for the error bound).
CLARRAY_REDUCTION(sum, sum_op)
// Product of the elements (accumulated as sum), over all or the given axes.
CLARRAY_REDUCTION(prod, prod_op)
// Whether any element is nonzero, over all or the given axes.
CLARRAY_REDUCTION(any, any_op)
// Whether every element is nonzero, over all or the given axes.
CLARRAY_REDUCTION(all, all_op)
// Arithmetic mean in the float type (integers: float64); empty gives NaN, as NumPy.
CLARRAY_REDUCTION(mean, mean_op)
#undef CLARRAY_REDUCTION

// max/min (NumPy's amax/amin): NaN propagates; an empty reduction throws shape_error unless an
// initial value is given.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto max(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {
    return detail::reduce<detail::max_op>(e, axes, keep_dims);
}
// max with an initial value (NumPy's initial=): defined for empty reductions.
template <class E, class W, class = std::enable_if_t<is_expression_v<E> && is_scalar_v<W>>>
auto max(const E& e, const reduce_axes& axes, bool keep_dims, const W& initial) {
    return detail::reduce_initial<detail::max_op>(e, axes, keep_dims, initial);
}
// Minimum over all or the given axes; NaN propagates.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto min(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {
    return detail::reduce<detail::min_op>(e, axes, keep_dims);
}
// min with an initial value: defined for empty reductions.
template <class E, class W, class = std::enable_if_t<is_expression_v<E> && is_scalar_v<W>>>
auto min(const E& e, const reduce_axes& axes, bool keep_dims, const W& initial) {
    return detail::reduce_initial<detail::min_op>(e, axes, keep_dims, initial);
}

// Index of the first maximum/minimum (NaN counts as the extreme, as NumPy): over the flattened
// expression (C order), or along one axis.
template <class E, class = std::enable_if_t<is_expression_v<E>>> auto argmax(const E& e) {
    return detail::reduce<detail::argmax_op>(e, reduce_axes(), false);
}
// Indices of the first maximum along one axis.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto argmax(const E& e, std::ptrdiff_t axis, bool keep_dims = false) {
    return detail::reduce<detail::argmax_op>(e, reduce_axes(axis), keep_dims);
}
// Flat index (C order) of the first minimum.
template <class E, class = std::enable_if_t<is_expression_v<E>>> auto argmin(const E& e) {
    return detail::reduce<detail::argmin_op>(e, reduce_axes(), false);
}
// Indices of the first minimum along one axis.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto argmin(const E& e, std::ptrdiff_t axis, bool keep_dims = false) {
    return detail::reduce<detail::argmin_op>(e, reduce_axes(axis), keep_dims);
}

// Variance and standard deviation: two fused passes (the mean, kept as a broadcastable array,
// then the mean squared deviation); divisor n - ddof as NumPy.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto var(const E& e, const reduce_axes& axes = {}, bool keep_dims = false,
         std::ptrdiff_t ddof = 0) {
    using F = detail::mean_t<detail::canonical_t<detail::value_type_of<const E&>>>;
    auto x = astype<F>(e);
    auto m = mean(x, axes, true);
    return detail::reduce<detail::var_op>(x - m, axes, keep_dims, ddof);
}
// Standard deviation with ddof, over all or the given axes (NumPy's std).
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto stddev(const E& e, const reduce_axes& axes = {}, bool keep_dims = false,
            std::ptrdiff_t ddof = 0) {
    using F = detail::mean_t<detail::canonical_t<detail::value_type_of<const E&>>>;
    auto x = astype<F>(e);
    auto m = mean(x, axes, true);
    return detail::reduce<detail::std_op>(x - m, axes, keep_dims, ddof);
}

// Vector norms over the given axes (all: the flattened array): ord 2 (default), 1, or infinity.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto norm(const E& e, double ord = 2, const reduce_axes& axes = {}, bool keep_dims = false) {
    if (ord == 2) return detail::reduce<detail::norm2_op>(e, axes, keep_dims);
    if (ord == 1) return detail::reduce<detail::norm1_op>(e, axes, keep_dims);
    if (ord == std::numeric_limits<double>::infinity())
        return detail::reduce<detail::norm_inf_op>(e, axes, keep_dims);
    throw usage_error("norm: ord must be 1, 2 or infinity (got " + std::to_string(ord) + ")");
}

// Dot product (NumPy's dot on 1-d and 2-d arrays): the sum of products, in the promoted element
// type, fused into one reduction (matrix products are a plain generated loop, not a tuned GEMM).
template <class TA, class SA, class TB, class SB>
auto dot(const cl_array<TA, SA>& a, const cl_array<TB, SB>& b) {
    auto fail = [&] {
        return shape_error("dot: shapes " + shape_to_string(a.shape()) + " and " +
                           shape_to_string(b.shape()) + " are not aligned");
    };
    const std::size_t da = a.dimension(), db = b.dimension();
    if (da == 1 && db == 1) {
        if (a.shape(0) != b.shape(0)) throw fail();
        return detail::reduce<detail::dot_sum_op>(a * b, reduce_axes(), false);
    }
    if (da == 2 && db == 2) {
        if (a.shape(1) != b.shape(0)) throw fail();
        return detail::reduce<detail::dot_sum_op>(
            a(all(), all(), newaxis()) * b(newaxis(), all(), all()), reduce_axes(1), false);
    }
    if (da == 2 && db == 1) {
        if (a.shape(1) != b.shape(0)) throw fail();
        return detail::reduce<detail::dot_sum_op>(a * b(newaxis(), all()), reduce_axes(1), false);
    }
    if (da == 1 && db == 2) {
        if (a.shape(0) != b.shape(0)) throw fail();
        return detail::reduce<detail::dot_sum_op>(a(all(), newaxis()) * b, reduce_axes(0), false);
    }
    throw shape_error("dot: operands must be 1-d or 2-d (got shapes " + shape_to_string(a.shape()) +
                      " and " + shape_to_string(b.shape()) + ")");
}
// 1-d expressions: dot(a * 2, b + c) is one fused pass.
template <class A, class B,
          class = std::enable_if_t<is_expression_v<A> && is_expression_v<B> &&
                                   !(is_cl_array<A>::value && is_cl_array<B>::value)>>
auto dot(const A& a, const B& b) {
    const shape_type sa = detail::expression_shape(detail::as_node(a));
    const shape_type sb = detail::expression_shape(detail::as_node(b));
    if (sa.size() == 1 && sb.size() == 1) {
        if (sa != sb)
            throw shape_error("dot: expression operands must be 1-d of equal length (got shapes " +
                              shape_to_string(sa) + " and " + shape_to_string(sb) + ")");
        return detail::reduce<detail::dot_sum_op>(a * b, reduce_axes(), false);
    }
    if (sa.size() < 1 || sa.size() > 2 || sb.size() < 1 || sb.size() > 2)
        throw shape_error("dot: operands must be 1-d or 2-d (got shapes " + shape_to_string(sa) +
                          " and " + shape_to_string(sb) + ")");
    // Matrix operands: the expressions are evaluated first.
    return dot(detail::materialize(a), detail::materialize(b));
}
// Dot product of the flattened arrays; a complex first argument is conjugated (NumPy's vdot).
template <class TA, class SA, class TB, class SB>
auto vdot(const cl_array<TA, SA>& a, const cl_array<TB, SB>& b) {
    if (a.size() != b.size())
        throw shape_error("vdot: arrays of shapes " + shape_to_string(a.shape()) + " and " +
                          shape_to_string(b.shape()) + " have different sizes");
    if constexpr (is_complex_v<detail::canonical_t<TA>>)
        return detail::reduce<detail::dot_sum_op>(conj(a.ravel()) * b.ravel(), reduce_axes(),
                                                  false);
    else
        return detail::reduce<detail::dot_sum_op>(a.ravel() * b.ravel(), reduce_axes(), false);
}

// vdot of expressions: of one shape, one fused pass (a complex first operand conjugated); of
// different shapes but one size, evaluated first and flattened.
template <class A, class B,
          class = std::enable_if_t<is_expression_v<A> && is_expression_v<B> &&
                                   !(is_cl_array<A>::value && is_cl_array<B>::value)>>
auto vdot(const A& a, const B& b) {
    const shape_type sa = detail::expression_shape(detail::as_node(a));
    const shape_type sb = detail::expression_shape(detail::as_node(b));
    if (sa == sb) {
        if constexpr (is_complex_v<detail::value_type_of<const A&>>)
            return detail::reduce<detail::dot_sum_op>(conj(a) * b, reduce_axes(), false);
        else
            return detail::reduce<detail::dot_sum_op>(a * b, reduce_axes(), false);
    }
    return vdot(detail::materialize(a), detail::materialize(b));
}

// Cumulative sum/product along `axis`, or over the flattened expression (C order) without one.
// Accumulation types as sum/prod. exclusive: element i gets the combination of elements < i.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto cumsum(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt, bool exclusive = false) {
    return detail::scan<detail::sum_op>(e, axis, exclusive);
}
// Running product along an axis (flattened when none), inclusive or exclusive.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto cumprod(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt,
             bool exclusive = false) {
    return detail::scan<detail::prod_op>(e, axis, exclusive);
}

namespace detail {
// A reduction's or scan's result r as an array of U (r itself when it already is one).
template <class U, class R> auto result_as(R&& r) {
    using A = std::decay_t<R>;
    if constexpr (std::is_same_v<typename A::value_type, U>)
        return std::forward<R>(r);
    else
        return cl_array<U, typename A::storage_policy>(astype<U>(r));
}
} // namespace detail

// NumPy's dtype= argument: `sum<double>(e, ...)` sums the values converted to the given type
// and gives a result of that type. Integers wrap in it as NumPy's do (the sum modulo 2^bits is
// the same however wide the accumulator); floats accumulate in it. Likewise prod, mean, cumsum,
// cumprod.
#define CLARRAY_REDUCTION_AS(NAME)                                                                 \
    template <class U, class E, class = std::enable_if_t<is_dtype_v<U> && is_expression_v<E>>>     \
    auto NAME(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {                  \
        return detail::result_as<U>(NAME(astype<U>(e), axes, keep_dims));                          \
    }
/// sum with NumPy's dtype= (the template argument): the values converted, summed in that type.
CLARRAY_REDUCTION_AS(sum)
/// prod with NumPy's dtype= (the template argument).
CLARRAY_REDUCTION_AS(prod)
/// mean with NumPy's dtype= (the template argument).
CLARRAY_REDUCTION_AS(mean)
#undef CLARRAY_REDUCTION_AS
// cumsum with NumPy's dtype= (the template argument).
template <class U, class E, class = std::enable_if_t<is_dtype_v<U> && is_expression_v<E>>>
auto cumsum(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt, bool exclusive = false) {
    return detail::result_as<U>(cumsum(astype<U>(e), axis, exclusive));
}
// cumprod with NumPy's dtype= (the template argument).
template <class U, class E, class = std::enable_if_t<is_dtype_v<U> && is_expression_v<E>>>
auto cumprod(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt,
             bool exclusive = false) {
    return detail::result_as<U>(cumprod(astype<U>(e), axis, exclusive));
}

namespace detail {
// The array API's cumulative_sum/cumulative_prod: the scan along axis (required above one
// dimension), and with include_initial the neutral element first along it (n + 1 values).
template <class Op, class E>
auto cumulative(const E& e, std::optional<std::ptrdiff_t> axis, bool include_initial,
                const char* what) {
    const shape_type shape = shape_of(e);
    if (shape.empty())
        throw shape_error(std::string(what) + ": a 0-d array has no axis to accumulate along");
    if (!axis && shape.size() > 1)
        throw usage_error(std::string(what) + ": the axis is required for an array of " +
                          std::to_string(shape.size()) + " dimensions");
    const std::size_t ax = normalize_axis(axis.value_or(0), shape.size(), what);
    auto scanned = scan<Op>(e, static_cast<std::ptrdiff_t>(ax), false);
    if (!include_initial) return scanned;
    using A = decltype(scanned);
    using R = typename A::value_type;
    shape_type out_shape = shape;
    out_shape[ax] += 1;
    A out(scanned.get_queue(), out_shape, layout::c, scanned.data().get());
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(shape[ax]);
    const A o = moveaxis(out, static_cast<std::ptrdiff_t>(ax), 0);
    o(range(0, 1), ellipsis()).fill(std::is_same_v<Op, prod_op> ? R(1) : R(0));
    const A body = moveaxis(scanned, static_cast<std::ptrdiff_t>(ax), 0);
    if (n > 0) o(range(1, n + 1), ellipsis()) = body;
    return out;
}
} // namespace detail

// The array API's cumulative_sum: cumsum along axis (optional for 1-d input, required above),
// in sum's accumulation type; include_initial puts a 0 first along the axis (n + 1 values).
// shape_error for 0-d input, usage_error for a missing axis.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto cumulative_sum(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt,
                    bool include_initial = false) {
    return detail::cumulative<detail::sum_op>(e, axis, include_initial, "cumulative_sum");
}
// The array API's cumulative_prod: cumprod along axis, include_initial puts a 1 first.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto cumulative_prod(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt,
                     bool include_initial = false) {
    return detail::cumulative<detail::prod_op>(e, axis, include_initial, "cumulative_prod");
}
// cumulative_sum with the standard's dtype= (the template argument), as `cumsum<U>`: the values
// converted to U and summed in it (integers wrap as NumPy's; bool: a running logical or), a
// result of U.
template <class U, class E, class = std::enable_if_t<is_dtype_v<U> && is_expression_v<E>>>
auto cumulative_sum(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt,
                    bool include_initial = false) {
    return detail::result_as<U>(cumulative_sum(astype<U>(e), axis, include_initial));
}
// cumulative_prod with the standard's dtype= (the template argument), as `cumprod<U>`.
template <class U, class E, class = std::enable_if_t<is_dtype_v<U> && is_expression_v<E>>>
auto cumulative_prod(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt,
                     bool include_initial = false) {
    return detail::result_as<U>(cumulative_prod(astype<U>(e), axis, include_initial));
}

} // namespace clarray
