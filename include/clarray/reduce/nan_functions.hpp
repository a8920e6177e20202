#pragma once
// NumPy's nan-aware reductions and scans, running extrema and the closeness tests over arrays and
// expressions (docs/reductions.md "NaN-aware reductions").
//
//   ca::nansum(a), nanprod, nanmean, nanvar, nanstd   NaN elements skipped, one fused pass each
//   ca::nanmax(a, 1), nanmin                          all-NaN slices give NaN
//   ca::nanargmax(a), nanargmin                       all-NaN slices: usage_error at the next wait
//   ca::nancumsum(a, 0), nancumprod                   NaN counts as 0 / 1
//   ca::cummax(a, 0), cummin                          NumPy's maximum/minimum.accumulate
//   ca::allclose(a, b), array_equal, array_equiv      bool, read back (these block)
//
// The NaN test sits in the reduction's accumulator (its `from` step), so the input is read once
// and no masked copy is made. Integer and bool inputs have no NaN: the plain functions run.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "clarray/error.hpp"
#include "clarray/expr/float_checks.hpp"
#include "clarray/reduce/reduce.hpp"

namespace clarray {
namespace detail {

// The host layout of an OpenCL vector accumulator of N elements of F (floatN is aligned to its
// size in OpenCL C).
template <class F, int N> struct alignas(N * sizeof(F)) vector_acc { F v[N]; };
// "float2", "double4", ...
template <class F, int N> std::string vector_type_name() {
    return dtype_traits<F>::cl_name + std::to_string(N);
}
// The OpenCL C test of the mapped value `v` for NaN (complex: either part, as NumPy).
template <class V> std::string nan_test() {
    return is_complex_v<V> ? "any(isnan(v))" : "isnan(v)";
}
// An accumulator of N float elements of F: the text's common part.
template <class F, int N> reduce_text vector_text() {
    reduce_text t;
    t.acc = vector_type_name<F, N>();
    t.acc_extension = dtype_traits<F>::extension;
    return t;
}

// nansum / nanprod: sum_op / prod_op whose `from` step turns NaN into the identity.
template <bool Product> struct nan_additive_op {
    using plain = std::conditional_t<Product, prod_op, sum_op>;
    static constexpr const char* name = Product ? "nanprod" : "nansum";
    static constexpr bool needs_elements = false;
    template <class V> struct impl : plain::template impl<V> {
        static reduce_text text() {
            reduce_text t = plain::template impl<V>::text();
            const char* identity = Product ? "1" : "0";
            const std::string skip = is_complex_v<V> ? "(" + t.acc + ")(" + identity + ", 0)"
                                                     : "(" + t.acc + ")" + identity;
            t.from = "return " + nan_test<V>() + " ? " + skip + " : (" + t.acc + ")v;";
            return t;
        }
    };
};
using nansum_op = nan_additive_op<false>;
using nanprod_op = nan_additive_op<true>;

// nanmean: (sum, count) of the non-NaN values in one vector accumulator (complex: (re, im, count,
// 0)), Kahan-compensated lane by lane, finished as sum / count (0 / 0: NaN for all-NaN slices).
struct nanmean_op {
    static constexpr const char* name = "nanmean";
    static constexpr bool needs_elements = false;
    template <class V> struct impl {
        static_assert(is_inexact_v<V>, "nanmean_op: floating or complex values");
        using out = V;
        using F = compute_t<real_of_t<V>>;
        static constexpr int lanes = is_complex_v<V> ? 4 : 2;
        using acc = out; // for the type lists; the device type is a vector (text().acc)
        using acc_host = vector_acc<F, lanes>;
        static reduce_text text() {
            reduce_text t = vector_text<F, lanes>();
            const std::string f = dtype_traits<F>::cl_name;
            if constexpr (is_complex_v<V>) {
                t.from = "return any(isnan(v)) ? (" + t.acc + ")0 : (" + t.acc + ")(v.x, v.y, (" +
                         f + ")1, (" + f + ")0);";
                t.finish = "return (" + vector_type_name<F, 2>() + ")(x.x / x.z, x.y / x.z);";
            } else {
                t.from = "return isnan(v) ? (" + t.acc + ")0 : (" + t.acc + ")((" + f + ")v, (" +
                         f + ")1);";
                t.finish = "return x.x / x.y;";
            }
            t.combine = "return x + y;";
            t.compensated = true;
            return t;
        }
        static acc_host neutral() { return acc_host{}; }
    };
};

// nanvar / nanstd over d = x - nanmean(x): (sum |d|^2, count) of the non-NaN d, finished with the
// divisor count - ddof (NaN when it is <= 0, as NumPy). The finish step's n is -ddof (the driver
// passes n_adjust = reduced length + ddof). A non-NaN x with a NaN or infinite d (the slice's
// mean is infinite: NumPy's inf - inf) makes the result NaN.
template <bool Std> struct nan_var_op {
    static constexpr const char* name = Std ? "nanstd" : "nanvar";
    static constexpr bool needs_elements = false;
    template <class V> struct impl {
        static_assert(is_inexact_v<V>, "nan_var_op: floating or complex values");
        using out = real_of_t<V>;
        using F = compute_t<out>;
        using acc = out;
        using acc_host = vector_acc<F, 2>;
        static reduce_text text() {
            reduce_text t = vector_text<F, 2>();
            const std::string f = dtype_traits<F>::cl_name;
            const std::string square =
                is_complex_v<V> ? "v.x * v.x + v.y * v.y" : "(" + f + ")v * (" + f + ")v";
            const std::string inf_test = is_complex_v<V> ? "any(isinf(v))" : "isinf(v)";
            t.from = "if (" + nan_test<V>() + ") return (" + t.acc + ")0;\n    if (" + inf_test +
                     ") return (" + t.acc + ")((" + f + ")NAN, (" + f + ")1);\n    return (" +
                     t.acc + ")(" + square + ", (" + f + ")1);";
            t.combine = "return x + y;";
            const std::string quotient = "x.x / dof";
            t.finish = "const " + f + " dof = x.y + (" + f + ")n;\n    return dof > 0 ? " +
                       (Std ? "sqrt(" + quotient + ")" : quotient) + " : (" + f + ")NAN;";
            t.compensated = true;
            return t;
        }
        static acc_host neutral() { return acc_host{}; }
    };
};
using nanvar_op = nan_var_op<false>;
using nanstd_op = nan_var_op<true>;

// nanmax / nanmin: NumPy's fmax.reduce / fmin.reduce. The neutral is NaN and fmax/fmin return
// the other operand of a NaN, so NaN elements drop out and an all-NaN slice stays NaN; one scalar
// accumulator, as max's.
template <bool Max> struct nan_extremum_op {
    static constexpr const char* name = Max ? "nanmax" : "nanmin";
    static constexpr bool needs_elements = true;
    template <class V> struct impl {
        static_assert(is_floating_v<V>, "nan_extremum_op: floating values");
        using out = V;
        using acc = compute_t<V>;
        using acc_host = acc;
        static reduce_text text() {
            reduce_text t = text_accumulating<acc>();
            t.from = "return v;";
            t.combine = std::string("return ") + (Max ? "fmax" : "fmin") + "(x, y);";
            t.finish = "return x;";
            return t;
        }
        static acc_host neutral() { return std::numeric_limits<acc>::quiet_NaN(); }
    };
};
using nanmax_op = nan_extremum_op<true>;
using nanmin_op = nan_extremum_op<false>;

// nanargmax / nanargmin: argmax/argmin's (value, index) pairs, NaN elements entering as the
// neutral pair (index INT64_MAX, which loses every tie). An all-NaN slice finishes as -1, which
// check_all_nan_slices reports.
template <bool Max> struct nan_arg_op {
    static constexpr const char* name = Max ? "nanargmax" : "nanargmin";
    static constexpr bool needs_elements = true;
    template <class V> struct impl : arg_op<Max>::template impl<V> {
        static_assert(is_floating_v<V>, "nan_arg_op: floating values");
        static reduce_text text() {
            reduce_text t = arg_op<Max>::template impl<V>::text();
            const std::string s = arg_op<Max>::template impl<V>::struct_name();
            t.from = s + " r;\n    if (isnan(v)) { r.v = " + (Max ? "-" : "") +
                     "INFINITY; r.i = LONG_MAX; } else { r.v = v; r.i = (long)i; }\n    return r;";
            t.finish = "return x.i == LONG_MAX ? -1L : x.i;";
            return t;
        }
    };
};
using nanargmax_op = nan_arg_op<true>;
using nanargmin_op = nan_arg_op<false>;

// The device check of nanargmax/nanargmin results: an index -1 marks an all-NaN slice; the next
// host wait throws usage_error (NumPy's ValueError "All-NaN slice encountered").
extern const device_check_kind all_nan_slice_check;

// An index passed through, setting the check's flag word where it is negative.
struct all_nan_index_check_op {
    template <class A, class C> using result_t = A;
    template <class A, class C>
    static std::string emit(source_builder& g, const std::string& index, const std::string& check) {
        const std::string f = "clarray_all_nan_checked";
        g.helper(f, "inline long " + f +
                        "(long i, global uint* f, uint w) {\n    if (i < 0) f[w] = 1u;\n"
                        "    return i;\n}");
        return f + "(" + index + ", " + check + ")";
    }
};

// Checks the indices of a nanargmax/nanargmin result on the device, in one element-wise kernel
// over the result (no host wait).
template <class S> void check_all_nan_slices(cl_array<std::int64_t, S>& indices, const char* what) {
    if (indices.size() == 0) return;
    using index_node = child_t<cl_array<std::int64_t, S>&>;
    check_node check(indices.get_context(), device_check_site{&all_nan_slice_check, what});
    indices = function_node<all_nan_index_check_op, index_node, check_node>(as_node(indices),
                                                                            std::move(check));
}

// The number of elements each output of a reduction of `shape` over `axes` reduces.
std::ptrdiff_t reduced_length(const shape_type& shape, const reduce_axes& axes, const char* what);

template <bool Std, class E>
auto nan_variance(const E& e, const reduce_axes& axes, bool keep_dims, std::ptrdiff_t ddof) {
    using F = mean_t<canonical_t<value_type_of<const E&>>>;
    auto x = astype<F>(e);
    const std::ptrdiff_t length =
        reduced_length(expression_shape(as_node(e)), axes, Std ? "nanstd" : "nanvar");
    auto m = reduce<nanmean_op>(x, axes, true);
    return reduce<nan_var_op<Std>>(x - m, axes, keep_dims, length + ddof);
}

} // namespace detail

// NumPy's nansum: the sum with NaN elements counted as 0 (all-NaN slices give 0); accumulation
// types as sum. Integers and bool: sum.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nansum(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {
    if constexpr (is_inexact_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::reduce<detail::nansum_op>(e, axes, keep_dims);
    else
        return sum(e, axes, keep_dims);
}
// NumPy's nanprod: the product with NaN elements counted as 1 (all-NaN slices give 1).
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nanprod(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {
    if constexpr (is_inexact_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::reduce<detail::nanprod_op>(e, axes, keep_dims);
    else
        return prod(e, axes, keep_dims);
}
// NumPy's nanmean: the mean of the non-NaN elements, in one pass (sum and count together);
// all-NaN and empty slices give NaN. Integers and bool: mean (float64).
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nanmean(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {
    if constexpr (is_inexact_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::reduce<detail::nanmean_op>(e, axes, keep_dims);
    else
        return mean(e, axes, keep_dims);
}
// NumPy's nanvar: the variance of the non-NaN elements with divisor count - ddof (NaN where that
// is <= 0: all-NaN slices); two fused passes as var. Complex values give real results.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nanvar(const E& e, const reduce_axes& axes = {}, bool keep_dims = false,
            std::ptrdiff_t ddof = 0) {
    if constexpr (is_inexact_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::nan_variance<false>(e, axes, keep_dims, ddof);
    else
        return var(e, axes, keep_dims, ddof);
}
// NumPy's nanstd: the square root of nanvar (same passes and ddof).
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nanstd(const E& e, const reduce_axes& axes = {}, bool keep_dims = false,
            std::ptrdiff_t ddof = 0) {
    if constexpr (is_inexact_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::nan_variance<true>(e, axes, keep_dims, ddof);
    else
        return stddev(e, axes, keep_dims, ddof);
}

// NumPy's nanmax: the maximum of the non-NaN elements; an all-NaN slice gives NaN (NumPy also
// warns). Empty reductions throw shape_error as max. Integers and bool: max.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nanmax(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {
    if constexpr (is_floating_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::reduce<detail::nanmax_op>(e, axes, keep_dims);
    else
        return max(e, axes, keep_dims);
}
// NumPy's nanmin: the minimum of the non-NaN elements; all-NaN slices give NaN.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nanmin(const E& e, const reduce_axes& axes = {}, bool keep_dims = false) {
    if constexpr (is_floating_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::reduce<detail::nanmin_op>(e, axes, keep_dims);
    else
        return min(e, axes, keep_dims);
}

// NumPy's nanargmax: the flat index (C order) of the first maximum of the non-NaN elements. An
// all-NaN input throws usage_error ("All-NaN slice encountered") at the next host wait on its
// context (the check runs on the device; nothing blocks here). Integers and bool: argmax.
template <class E, class = std::enable_if_t<is_expression_v<E>>> auto nanargmax(const E& e) {
    if constexpr (is_floating_v<detail::canonical_t<detail::value_type_of<const E&>>>) {
        auto r = detail::reduce<detail::nanargmax_op>(e, reduce_axes(), false);
        detail::check_all_nan_slices(r, "nanargmax");
        return r;
    } else {
        return argmax(e);
    }
}
// nanargmax along one axis: an all-NaN slice throws usage_error at the next host wait.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nanargmax(const E& e, std::ptrdiff_t axis, bool keep_dims = false) {
    if constexpr (is_floating_v<detail::canonical_t<detail::value_type_of<const E&>>>) {
        auto r = detail::reduce<detail::nanargmax_op>(e, reduce_axes(axis), keep_dims);
        detail::check_all_nan_slices(r, "nanargmax");
        return r;
    } else {
        return argmax(e, axis, keep_dims);
    }
}
// NumPy's nanargmin: the flat index of the first minimum of the non-NaN elements (all-NaN:
// usage_error at the next host wait).
template <class E, class = std::enable_if_t<is_expression_v<E>>> auto nanargmin(const E& e) {
    if constexpr (is_floating_v<detail::canonical_t<detail::value_type_of<const E&>>>) {
        auto r = detail::reduce<detail::nanargmin_op>(e, reduce_axes(), false);
        detail::check_all_nan_slices(r, "nanargmin");
        return r;
    } else {
        return argmin(e);
    }
}
// nanargmin along one axis: an all-NaN slice throws usage_error at the next host wait.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nanargmin(const E& e, std::ptrdiff_t axis, bool keep_dims = false) {
    if constexpr (is_floating_v<detail::canonical_t<detail::value_type_of<const E&>>>) {
        auto r = detail::reduce<detail::nanargmin_op>(e, reduce_axes(axis), keep_dims);
        detail::check_all_nan_slices(r, "nanargmin");
        return r;
    } else {
        return argmin(e, axis, keep_dims);
    }
}

// NumPy's nancumsum: the running sum with NaN elements counted as 0, along `axis` or over the
// flattened expression (C order). Integers and bool: cumsum.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nancumsum(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt) {
    if constexpr (is_inexact_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::scan<detail::nansum_op>(e, axis, false);
    else
        return cumsum(e, axis);
}
// NumPy's nancumprod: the running product with NaN elements counted as 1.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto nancumprod(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt) {
    if constexpr (is_inexact_v<detail::canonical_t<detail::value_type_of<const E&>>>)
        return detail::scan<detail::nanprod_op>(e, axis, false);
    else
        return cumprod(e, axis);
}
// NumPy's maximum.accumulate: the running maximum along `axis` (flattened without one); NaN
// propagates from where it occurs. Complex values in NumPy's lexicographic order.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto cummax(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt) {
    return detail::scan<detail::max_op>(e, axis, false);
}
// NumPy's minimum.accumulate: the running minimum (NaN propagates).
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto cummin(const E& e, std::optional<std::ptrdiff_t> axis = std::nullopt) {
    return detail::scan<detail::min_op>(e, axis, false);
}

// NumPy's allclose: whether isclose holds everywhere (a and b broadcast), in one fused reduction.
// Blocks until the answer is read back.
template <class A, class B, class = std::enable_if_t<is_expression_v<A> && is_expression_v<B>>>
bool allclose(const A& a, const B& b, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false) {
    return all(isclose(a, b, rtol, atol, equal_nan)).item();
}
// NumPy's array_equal: same shape and equal elements (with equal_nan, NaN equals NaN; complex:
// NaN in either part). Different shapes give false. Blocks to read the answer.
template <class A, class B, class = std::enable_if_t<is_expression_v<A> && is_expression_v<B>>>
bool array_equal(const A& a, const B& b, bool equal_nan = false) {
    if (detail::expression_shape(detail::as_node(a)) !=
        detail::expression_shape(detail::as_node(b)))
        return false;
    using TA = detail::value_type_of<const A&>;
    using TB = detail::value_type_of<const B&>;
    if constexpr (is_inexact_v<TA> || is_inexact_v<TB>)
        if (equal_nan) return all((a == b) | (isnan(a) & isnan(b))).item();
    return all(a == b).item();
}
// NumPy's array_equiv: whether a and b broadcast together and are equal everywhere (shapes that
// do not broadcast give false). Blocks to read the answer.
template <class A, class B, class = std::enable_if_t<is_expression_v<A> && is_expression_v<B>>>
bool array_equiv(const A& a, const B& b) {
    const shape_type sa = detail::expression_shape(detail::as_node(a));
    const shape_type sb = detail::expression_shape(detail::as_node(b));
    try {
        broadcast_shapes(sa, sb);
    } catch (const shape_error&) {
        return false;
    }
    return all(a == b).item();
}

} // namespace clarray
