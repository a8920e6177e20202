#pragma once
// The manipulation functions that are expressions, so that they fuse into the kernel of the
// expression around them: clip, diff, triu, tril; and concatenate/stack of arrays of different
// element types, which promote as NumPy's (one conversion kernel per part). The ones that are
// views, copies and fills are in array/manipulation.hpp (included).
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "clarray/array/manipulation.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/operators.hpp"

namespace clarray {

namespace detail {

// hi - lo in the operands' type (wrapping like NumPy's subtract); for bool, hi != lo (NumPy's
// diff uses not_equal for booleans).
struct diff_op {
    template <class A, class B> using result_t = A;
    template <class A, class B>
    static std::string emit(source_builder& g, const std::string& hi, const std::string& lo) {
        static_assert(std::is_same_v<A, B>, "diff: both operands have one type");
        if constexpr (is_boolean_v<A>)
            return "((" + hi + ") != (" + lo + "))";
        else
            return cast_to<A>(g, cast_to<A>(g, hi) + " - " + cast_to<A>(g, lo));
    }
};

template <class T, class S>
using diff_node_t =
    function_node<diff_op, array_terminal<cl_array<T, S>>, array_terminal<cl_array<T, S>>>;

// a[1:] - a[:-1] along axis: an expression of two views of a.
template <class T, class S> diff_node_t<T, S> diff_once(const cl_array<T, S>& a, std::size_t axis) {
    const std::size_t n = a.shape()[axis];
    return diff_node_t<T, S>(
        array_terminal<cl_array<T, S>>(axis_slice(a, axis, n > 0 ? 1 : 0, n)),
        array_terminal<cl_array<T, S>>(axis_slice(a, axis, 0, n > 0 ? n - 1 : 0)));
}

template <class A, class... B> struct promote_all { using type = canonical_t<A>; };
template <class A, class B, class... C> struct promote_all<A, B, C...> {
    using type = typename promote_all<promote_t<A, B>, C...>::type;
};

// An expression's shape and queue, for functions that take arrays and expressions alike.
template <class X> shape_type shape_of(const X& x) {
    if constexpr (is_cl_array<std::decay_t<X>>::value)
        return x.shape();
    else
        return expression_shape(x);
}
template <class X> const queue& queue_of(const X& x) {
    if constexpr (is_cl_array<std::decay_t<X>>::value)
        return x.get_queue();
    else
        return expression_queue(x);
}

// where(col - row (>= or <=) k, x, 0) over the last two axes of x (a 1-d x of extent n is taken
// as n x n rows, as NumPy's triu/tril do).
template <class Op, class X> auto triangle(X&& x, std::ptrdiff_t k, const char* what) {
    using V = value_type_of<X>;
    using S = first_storage_t<node_t<X>>;
    const shape_type shape = shape_of(x);
    if (shape.empty())
        throw shape_error(std::string(what) + ": the input must be at least 1-d, not 0-d");
    const std::size_t cols = shape.back();
    const std::size_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : cols;
    const std::size_t longest = rows > cols ? rows : cols;
    // One index vector read as the column index (along the last axis) and the row index.
    const cl_array<std::int64_t, S> r =
        arange<std::int64_t, S>(queue_of(x), 0, static_cast<std::int64_t>(longest));
    cl_array<std::int64_t, S> col = view_of(r, shape_type{cols}, strides_type{1}, 0);
    cl_array<std::int64_t, S> row = view_of(r, shape_type{rows, 1}, strides_type{1, 0}, 0);
    auto mask = make_binary<Op>(make_binary<minus_op>(std::move(col), std::move(row)), k);
    // half is no C++ scalar type: a weak float zero keeps float16 (as NumPy's Python 0.0).
    using Zero = std::conditional_t<std::is_same_v<V, half>, float, V>;
    return make_where<where_op>(std::move(mask), std::forward<X>(x), Zero(0));
}

} // namespace detail

// ---- clip: NumPy's clip(a, lo, hi) = minimum(maximum(a, lo), hi), an expression ----
// lo and hi are arrays, expressions or scalars (weak, as in other expressions), or `none` for no
// bound on that side. NaN in x stays NaN.
template <class X, class L, class H, class = std::enable_if_t<is_expression_v<X>>>
auto clip(X&& x, L&& lo, H&& hi) {
    constexpr bool no_lo = std::is_same_v<std::decay_t<L>, none_t>;
    constexpr bool no_hi = std::is_same_v<std::decay_t<H>, none_t>;
    static_assert(!(no_lo && no_hi), "clip: give at least one of lo and hi");
    if constexpr (no_lo)
        return minimum(std::forward<X>(x), std::forward<H>(hi));
    else if constexpr (no_hi)
        return maximum(std::forward<X>(x), std::forward<L>(lo));
    else
        return minimum(maximum(std::forward<X>(x), std::forward<L>(lo)), std::forward<H>(hi));
}

// ---- diff: the n-th discrete difference along axis (NumPy's diff), an expression ----
// For n = 1 the expression is a[1:] - a[:-1] over two views of a (no copy). For n > 1 the first
// n - 1 differences are evaluated (one kernel each) and the last is the expression. The result
// keeps a's type (integers wrap as NumPy's); for bool it is a[1:] != a[:-1].
template <class T, class S>
detail::diff_node_t<T, S> diff(const cl_array<T, S>& a, std::size_t n = 1,
                               std::ptrdiff_t axis = -1) {
    if (a.dimension() == 0) throw shape_error("diff: the input must be at least 1-d, not 0-d");
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "diff");
    if (n == 0) { // a itself: a - 0 (a zero read through stride-0 views)
        const cl_array<T, S> zero = zeros<T, S>(a.get_queue(), shape_type{1});
        return detail::diff_node_t<T, S>(detail::array_terminal<cl_array<T, S>>(a),
                                         detail::array_terminal<cl_array<T, S>>(detail::view_of(
                                             zero, a.shape(), strides_type(a.dimension(), 0), 0)));
    }
    cl_array<T, S> b = a;
    for (std::size_t i = 1; i < n; ++i) {
        cl_array<T, S> next(detail::diff_once(b, ax));
        std::swap(b, next); // rebinds b: assigning would write into a's memory
    }
    return detail::diff_once(b, ax);
}

// ---- triu/tril: x with the elements below (triu) / above (tril) diagonal k of its last two
// axes set to zero, an expression (x an array or an expression).
template <class X, class = std::enable_if_t<is_expression_v<X>>>
auto triu(X&& x, std::ptrdiff_t k = 0) {
    return detail::triangle<detail::greater_equal_op>(std::forward<X>(x), k, "triu");
}
// The lower triangle (k-th diagonal and below) of the last two axes, zeros elsewhere (lazy).
template <class X, class = std::enable_if_t<is_expression_v<X>>>
auto tril(X&& x, std::ptrdiff_t k = 0) {
    return detail::triangle<detail::less_equal_op>(std::forward<X>(x), k, "tril");
}

// ---- concatenate/stack of different element types: the result type is promote_t of all ----
// Arrays of one storage policy, passed as a tuple: concatenate(std::tie(a, b), axis).
template <class... A> auto concatenate(const std::tuple<A...>& arrays, std::ptrdiff_t axis = 0) {
    static_assert(sizeof...(A) > 0, "concatenate: need at least one array");
    static_assert((is_cl_array<std::decay_t<A>>::value && ...),
                  "concatenate: the tuple must hold cl_arrays");
    using First = std::decay_t<std::tuple_element_t<0, std::tuple<A...>>>;
    using S = typename First::storage_policy;
    static_assert((std::is_same_v<typename std::decay_t<A>::storage_policy, S> && ...),
                  "concatenate: the arrays must have one storage policy");
    using R = typename detail::promote_all<typename std::decay_t<A>::value_type...>::type;
    std::vector<const shape_type*> list;
    std::apply([&](const auto&... a) { (list.push_back(&a.shape()), ...); }, arrays);
    std::size_t ax = 0;
    shape_type shape =
        detail::concatenated_shape(list.data(), list.size(), axis, "concatenate", &ax);
    const First& first = std::get<0>(arrays);
    cl_array<R, S> out(first.get_queue(), std::move(shape), layout::c, first.data().get());
    std::size_t pos = 0;
    auto put = [&](const auto& a) {
        using P = std::decay_t<decltype(a)>;
        const std::size_t n = a.shape()[ax];
        const cl_array<R, S> dst = detail::axis_slice(out, ax, pos, pos + n);
        if constexpr (std::is_same_v<typename P::value_type, R>)
            detail::strided_copy(dst, a);
        else
            detail::assign(dst, detail::as_node(a)); // converts to R
        pos += n;
    };
    std::apply([&](const auto&... a) { (put(a), ...); }, arrays);
    return out;
}
// Joined along a new axis, as stack, promoting as concatenate.
template <class... A> auto stack(const std::tuple<A...>& arrays, std::ptrdiff_t axis = 0) {
    std::vector<const shape_type*> shapes;
    std::apply([&](const auto&... a) { (shapes.push_back(&a.shape()), ...); }, arrays);
    detail::check_same_shapes(shapes.data(), shapes.size(), "stack");
    const std::size_t ax =
        detail::normalize_axis(axis, std::get<0>(arrays).dimension() + 1, "stack");
    return std::apply(
        [&](const auto&... a) {
            return concatenate(std::make_tuple(detail::with_axis(a, ax)...),
                               static_cast<std::ptrdiff_t>(ax));
        },
        arrays);
}

} // namespace clarray
