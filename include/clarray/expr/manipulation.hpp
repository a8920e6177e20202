#pragma once
// The manipulation functions that are expressions, so that they fuse into the kernel of the
// expression around them: clip, diff, triu, tril; and concatenate/stack of arrays of different
// element types, which promote as NumPy's (one conversion kernel per part). The ones that are
// views, copies and fills are in array/manipulation.hpp (included); their overloads for an
// expression argument are here (the expression is evaluated first: expr/materialize.hpp), with
// *_like of an expression.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "clarray/array/manipulation.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/materialize.hpp"
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

namespace detail {
// A bound of clip on an integer x given as a C++ integer: NumPy drops a lower bound at or below
// the type's least value and an upper bound at or above its greatest (they bind nothing); here
// they become that value, which gives the same result. A bound beyond the other end stays and is
// refused as in arithmetic (a dtype_error).
template <class V, bool Lower, class W> decltype(auto) clip_bound(W&& w) {
    using D = std::decay_t<W>;
    if constexpr (is_integer_v<V> && std::is_integral_v<D> && !std::is_same_v<D, bool>) {
        using lim = std::numeric_limits<V>;
        if constexpr (Lower) {
            if (std::is_signed_v<D> && static_cast<long long>(w) < 0 &&
                (!std::is_signed_v<V> ||
                 static_cast<long long>(w) < static_cast<long long>(lim::min())))
                return static_cast<D>(lim::min());
        } else {
            if (!(std::is_signed_v<D> && static_cast<long long>(w) < 0) &&
                static_cast<unsigned long long>(w) > static_cast<unsigned long long>(lim::max()))
                return static_cast<D>(lim::max());
        }
        return static_cast<D>(w);
    } else {
        return std::forward<W>(w);
    }
}
} // namespace detail

// ---- clip: NumPy's clip(a, lo, hi) = minimum(maximum(a, lo), hi), an expression ----
// lo and hi are arrays, expressions or scalars (weak, as in other expressions), or `none` for no
// bound on that side. NaN in x stays NaN. On an integer x, a C++ integer bound outside x's type
// that binds nothing (clip(x_uint8, -5, 300)) is no bound, as in NumPy 2; one that would bind
// every element (clip(x_uint8, 300, 400)) is a dtype_error.
template <class X, class L, class H, class = std::enable_if_t<is_expression_v<X>>>
auto clip(X&& x, L&& lo, H&& hi) {
    using V = detail::value_type_of<X>;
    constexpr bool no_lo = std::is_same_v<std::decay_t<L>, none_t>;
    constexpr bool no_hi = std::is_same_v<std::decay_t<H>, none_t>;
    static_assert(!(no_lo && no_hi), "clip: give at least one of lo and hi");
    if constexpr (no_lo)
        return minimum(std::forward<X>(x), detail::clip_bound<V, false>(std::forward<H>(hi)));
    else if constexpr (no_hi)
        return maximum(std::forward<X>(x), detail::clip_bound<V, true>(std::forward<L>(lo)));
    else
        return minimum(
            maximum(std::forward<X>(x), detail::clip_bound<V, true>(std::forward<L>(lo))),
            detail::clip_bound<V, false>(std::forward<H>(hi)));
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

// ---- the functions above and in array/manipulation.hpp with an expression argument: the
// expression is evaluated first into a temporary from its pool (one kernel), then treated as
// the array (views of it share the temporary, which lives as long as they do).
// expand_dims of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto expand_dims(const E& e, std::ptrdiff_t axis) {
    return expand_dims(detail::materialize(e), axis);
}
// atleast_1d of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>> auto atleast_1d(const E& e) {
    return atleast_1d(detail::materialize(e));
}
// atleast_2d of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>> auto atleast_2d(const E& e) {
    return atleast_2d(detail::materialize(e));
}
// atleast_3d of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>> auto atleast_3d(const E& e) {
    return atleast_3d(detail::materialize(e));
}
// swapaxes of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto swapaxes(const E& e, std::ptrdiff_t axis1, std::ptrdiff_t axis2) {
    return swapaxes(detail::materialize(e), axis1, axis2);
}
// moveaxis of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto moveaxis(const E& e, std::ptrdiff_t source, std::ptrdiff_t destination) {
    return moveaxis(detail::materialize(e), source, destination);
}
// transpose of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>> auto transpose(const E& e) {
    return transpose(detail::materialize(e));
}
// transpose of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto transpose(const E& e, const std::vector<std::size_t>& axes) {
    return transpose(detail::materialize(e), axes);
}
// split of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto split(const E& e, std::size_t sections, std::ptrdiff_t axis = 0) {
    return split(detail::materialize(e), sections, axis);
}
// split of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto split(const E& e, const std::vector<std::ptrdiff_t>& at, std::ptrdiff_t axis = 0) {
    return split(detail::materialize(e), at, axis);
}
// split of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto split(const E& e, std::initializer_list<std::ptrdiff_t> at, std::ptrdiff_t axis = 0) {
    return split(detail::materialize(e), at, axis);
}
// array_split of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto array_split(const E& e, std::size_t sections, std::ptrdiff_t axis = 0) {
    return array_split(detail::materialize(e), sections, axis);
}
// array_split of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto array_split(const E& e, const std::vector<std::ptrdiff_t>& at, std::ptrdiff_t axis = 0) {
    return array_split(detail::materialize(e), at, axis);
}
// array_split of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto array_split(const E& e, std::initializer_list<std::ptrdiff_t> at, std::ptrdiff_t axis = 0) {
    return array_split(detail::materialize(e), at, axis);
}
// flip of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto flip(const E& e, std::ptrdiff_t axis) {
    return flip(detail::materialize(e), axis);
}
// flip of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>> auto flip(const E& e) {
    return flip(detail::materialize(e));
}
// flipud of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>> auto flipud(const E& e) {
    return flipud(detail::materialize(e));
}
// fliplr of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>> auto fliplr(const E& e) {
    return fliplr(detail::materialize(e));
}
// roll of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto roll(const E& e, const std::vector<std::ptrdiff_t>& shifts,
          const std::vector<std::ptrdiff_t>& axes) {
    return roll(detail::materialize(e), shifts, axes);
}
// roll of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto roll(const E& e, std::ptrdiff_t shift, std::ptrdiff_t axis) {
    return roll(detail::materialize(e), shift, axis);
}
// roll of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto roll(const E& e, std::ptrdiff_t shift) {
    return roll(detail::materialize(e), shift);
}
// repeat of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto repeat(const E& e, const std::vector<std::size_t>& counts, std::ptrdiff_t axis) {
    return repeat(detail::materialize(e), counts, axis);
}
// repeat of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto repeat(const E& e, std::size_t count, std::ptrdiff_t axis) {
    return repeat(detail::materialize(e), count, axis);
}
// repeat of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto repeat(const E& e, std::size_t count) {
    return repeat(detail::materialize(e), count);
}
// repeat of an expression (evaluated first), a count per element of it flattened.
template <class E, class = detail::expression_argument_t<E>>
auto repeat(const E& e, const std::vector<std::size_t>& counts) {
    return repeat(detail::materialize(e), counts);
}
// NumPy's repeat with the counts in a device array (integer or bool, 1-d: one per element along
// the axis, or one for all; flattened without an axis); a and counts may be expressions. The
// host reads the counts (the result's shape depends on them); a negative count is a shape_error.
template <
    class A, class C,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<C>>>
auto repeat(const A& a, const C& counts, std::optional<std::ptrdiff_t> axis = std::nullopt) {
    detail::require_device_argument<C>();
    using I = detail::canonical_t<detail::value_type_of<const C&>>;
    static_assert(is_integer_v<I> || is_boolean_v<I>,
                  "repeat: the counts must be integers or bool (NumPy casts them to intp safely)");
    const auto c = detail::materialize(counts);
    if (c.dimension() > 1)
        throw shape_error("repeat: the counts must be 0-d or 1-d, not of shape " +
                          shape_to_string(c.shape()));
    std::vector<std::size_t> n;
    if (c.size() > 0) {
        const auto host = c.get(); // waits: the counts decide the result's shape
        for (const auto& v : host) {
            if constexpr (is_signed_integer_v<I>)
                if (v < 0)
                    throw shape_error("repeat: the counts must not be negative (got " +
                                      std::to_string(v) + ")");
            n.push_back(static_cast<std::size_t>(v));
        }
    }
    if (axis) return repeat(a, n, *axis);
    return repeat(a, n);
}
// tile of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto tile(const E& e, const std::vector<std::size_t>& reps) {
    return tile(detail::materialize(e), reps);
}
// tile of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto tile(const E& e, std::size_t reps) {
    return tile(detail::materialize(e), reps);
}
// pad of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto pad(const E& e, const std::vector<pad_width>& widths,
         const detail::value_type_of<const E&>& value = detail::value_type_of<const E&>(0)) {
    return pad(detail::materialize(e), widths, value);
}
// pad of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto pad(const E& e, std::size_t width,
         const detail::value_type_of<const E&>& value = detail::value_type_of<const E&>(0)) {
    return pad(detail::materialize(e), width, value);
}
// diagonal of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto diagonal(const E& e, std::ptrdiff_t k = 0, std::ptrdiff_t axis1 = 0,
              std::ptrdiff_t axis2 = 1) {
    return diagonal(detail::materialize(e), k, axis1, axis2);
}
// diag of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto diag(const E& e, std::ptrdiff_t k = 0) {
    return diag(detail::materialize(e), k);
}
// diff of an expression (evaluated first).
template <class E, class = detail::expression_argument_t<E>>
auto diff(const E& e, std::size_t n = 1, std::ptrdiff_t axis = -1) {
    return diff(detail::materialize(e), n, axis);
}

namespace detail {
// prepend / append of diff as a slice list entry: an array as it is, a scalar as one slice of
// a's shape along axis, std::nullopt as nothing.
template <class T, class S, class V>
void add_diff_part(std::vector<cl_array<T, S>>& parts, const cl_array<T, S>& a, std::size_t axis,
                   const V& v) {
    if constexpr (std::is_same_v<V, std::nullopt_t>) {
        (void)parts, (void)a, (void)axis, (void)v;
    } else if constexpr (is_scalar_v<V>) {
        shape_type shape = a.shape();
        shape[axis] = 1;
        parts.push_back(full<T, S>(a.get_queue(), shape, static_cast<T>(v)));
    } else {
        parts.push_back(v);
    }
}
} // namespace detail

// NumPy's diff with prepend and append: values joined to a along axis before the differences,
// each an array (a's shape on the other axes), a scalar (one slice of that value) or
// std::nullopt (nothing).
template <class T, class S, class P, class A = std::nullopt_t>
auto diff(const cl_array<T, S>& a, std::size_t n, std::ptrdiff_t axis, const P& prepend,
          const A& append = std::nullopt) {
    if (a.dimension() == 0) throw shape_error("diff: the input must be at least 1-d, not 0-d");
    const std::size_t ax = detail::normalize_axis(axis, a.dimension(), "diff");
    std::vector<cl_array<T, S>> parts;
    detail::add_diff_part(parts, a, ax, prepend);
    parts.push_back(a);
    detail::add_diff_part(parts, a, ax, append);
    return diff(concatenate(parts, static_cast<std::ptrdiff_t>(ax)), n, axis);
}

// ---- *_like of an expression: its shape, value type, storage policy and queue (C layout),
// allocated like its first array operand; the expression is not evaluated.
// A new uninitialised array shaped like the expression e.
template <class E, class = detail::expression_argument_t<E>> auto empty_like(const E& e) {
    detail::require_device_argument<E>();
    using V = detail::value_type_of<const E&>;
    return cl_array<V, detail::storage_of_t<E>>(detail::queue_of(e), detail::shape_of(e), layout::c,
                                                detail::storage_like_of(e));
}
// A new array shaped like the expression e, filled with value.
template <class E, class = detail::expression_argument_t<E>>
auto full_like(const E& e, const detail::value_type_of<const E&>& value) {
    auto r = empty_like(e);
    r.fill(value);
    return r;
}
// A new array shaped like the expression e, filled with zeros.
template <class E, class = detail::expression_argument_t<E>> auto zeros_like(const E& e) {
    return full_like(e, detail::value_type_of<const E&>(0));
}
// A new array shaped like the expression e, filled with ones.
template <class E, class = detail::expression_argument_t<E>> auto ones_like(const E& e) {
    return full_like(e, detail::value_type_of<const E&>(1));
}

// ---- concatenate/stack of different element types: the result type is promote_t of all ----
// Arrays and expressions of one storage policy, passed as a tuple: concatenate(std::tie(a, b),
// axis), concatenate(std::make_tuple(a * 2, b), axis). Each part is written into its place by
// one kernel (an expression is evaluated there, no temporary; an array of the result type is
// copied).
template <class... A> auto concatenate(const std::tuple<A...>& arrays, std::ptrdiff_t axis = 0) {
    static_assert(sizeof...(A) > 0, "concatenate: need at least one array");
    (detail::require_device_argument<A>(), ...);
    using First = std::decay_t<std::tuple_element_t<0, std::tuple<A...>>>;
    using S = detail::storage_of_t<First>;
    static_assert((std::is_same_v<detail::storage_of_t<A>, S> && ...),
                  "concatenate: the arrays must have one storage policy");
    using R = detail::promote_all_t<detail::value_type_of<const A&>...>;
    std::vector<shape_type> shapes;
    std::apply([&](const auto&... a) { (shapes.push_back(detail::shape_of(a)), ...); }, arrays);
    std::vector<const shape_type*> list;
    for (const shape_type& sh : shapes)
        list.push_back(&sh);
    std::size_t ax = 0;
    shape_type shape =
        detail::concatenated_shape(list.data(), list.size(), axis, "concatenate", &ax);
    const First& first = std::get<0>(arrays);
    cl_array<R, S> out(detail::queue_of(first), std::move(shape), layout::c,
                       detail::storage_like_of(first));
    std::size_t pos = 0, i = 0;
    auto put = [&](const auto& a) {
        using P = std::decay_t<decltype(a)>;
        const std::size_t n = shapes[i++][ax];
        const cl_array<R, S> dst = detail::axis_slice(out, ax, pos, pos + n);
        if constexpr (is_cl_array<P>::value && std::is_same_v<typename P::value_type, R>)
            detail::strided_copy(dst, a);
        else
            detail::assign(dst, detail::as_node(a)); // converts to R
        pos += n;
    };
    std::apply([&](const auto&... a) { (put(a), ...); }, arrays);
    return out;
}
namespace detail {
// One element of concatenate<R, S>'s braced list: an array or expression of any dtype that casts
// to R under NumPy's same_kind rule, of storage policy S. It refers to its argument, which lives
// until the end of the call's full expression (the braced list's temporaries do too).
template <class R, class S> class concat_part {
public:
    template <class E, class = std::enable_if_t<is_expression_v<E>>>
    concat_part(const E& e) // implicit: the braced list's elements convert
        : source_(&e), write_(&write_as<E>), shape_(shape_of(e)), queue_(&queue_of(e)),
          like_(storage_like_of(e)) {
        static_assert(std::is_same_v<storage_of_t<E>, S>,
                      "concatenate<R, S>: every part must have storage policy S (the default is "
                      "svm_coarse; name another: concatenate<R, clarray::buffer>({...}))");
        static_assert(same_kind_castable_v<R, canonical_t<value_type_of<const E&>>>,
                      "concatenate<R>: a part's dtype does not cast to R under NumPy's same_kind "
                      "rule (e.g. float into an integer result)");
    }
    const shape_type& shape() const noexcept { return shape_; }
    const queue& get_queue() const noexcept { return *queue_; }
    const allocation* storage_like() const noexcept { return like_; }
    // Writes the part, converted to R, into dst (its place in the result).
    void write(const cl_array<R, S>& dst) const { write_(source_, dst); }

private:
    template <class E> static void write_as(const void* p, const cl_array<R, S>& dst) {
        const E& e = *static_cast<const E*>(p);
        if constexpr (is_cl_array<E>::value &&
                      std::is_same_v<canonical_t<typename E::value_type>, R>)
            strided_copy(dst, e);
        else
            assign(dst, as_node(e)); // converts to R
    }
    const void* source_;
    void (*write_)(const void*, const cl_array<R, S>&);
    shape_type shape_;
    const queue* queue_;
    const allocation* like_;
};
} // namespace detail

// NumPy's concatenate(..., dtype=R) of a braced list of arrays and expressions of any dtypes
// (`concatenate<float>({a_int8, b_float32 * 2})`): the result is of R, each part converted into
// its place by one kernel (a part of dtype R is copied). A part that does not cast to R under
// NumPy's default same_kind rule is a compile error, as are parts of another storage policy than
// S. C++ cannot deduce one result type from a braced list of different types, so R is named
// here; std::tie(a, b) promotes to NumPy's result_type of all parts (above).
// (S is not deduced from the list: its elements are of other types than concat_part.)
template <class R, class S = svm_coarse, class = std::enable_if_t<is_dtype_v<R>>>
cl_array<R, S> concatenate(
    std::initializer_list<detail::concat_part<R, typename detail::type_holder<S>::type>> parts,
    std::ptrdiff_t axis = 0) {
    std::vector<const shape_type*> shapes;
    for (const detail::concat_part<R, S>& p : parts) {
        if (!shapes.empty() && p.get_queue().context() != parts.begin()->get_queue().context())
            throw usage_error("concatenate: arrays from different contexts");
        shapes.push_back(&p.shape());
    }
    std::size_t ax = 0;
    shape_type shape =
        detail::concatenated_shape(shapes.data(), shapes.size(), axis, "concatenate", &ax);
    const detail::concat_part<R, S>& first = *parts.begin();
    cl_array<R, S> out(first.get_queue(), std::move(shape), layout::c, first.storage_like());
    std::size_t pos = 0;
    for (const detail::concat_part<R, S>& p : parts) {
        const std::size_t n = p.shape()[ax];
        p.write(detail::axis_slice(out, ax, pos, pos + n));
        pos += n;
    }
    return out;
}
namespace detail {
// Any element of a braced list given to concatenate without a result dtype.
struct unnamed_concat_part {
    template <class E, class = std::enable_if_t<is_expression_v<E>>>
    unnamed_concat_part(const E&) {} // implicit: the braced list's elements convert
};
} // namespace detail
// concatenate({a_int8, b_float32}) (no result dtype named): C++ deduces no one type from a braced
// list of different types, so this overload only says what to write. A list of arrays of one
// dtype takes the overload of array/manipulation.hpp, an exact match.
template <int Unnamed = 0>
void concatenate(std::initializer_list<detail::unnamed_concat_part>, std::ptrdiff_t = 0) {
    static_assert(Unnamed != 0,
                  "concatenate: a braced list of different dtypes (or of expressions) needs the "
                  "result dtype named: concatenate<R>({...}) (NumPy's dtype=), or "
                  "concatenate(std::tie(a, b, ...)) for NumPy's result_type of all");
}
// Joined along a new axis, as stack, promoting as concatenate; the parts may be expressions
// (each evaluated into its place).
template <class... A> auto stack(const std::tuple<A...>& arrays, std::ptrdiff_t axis = 0) {
    static_assert(sizeof...(A) > 0, "stack: need at least one array");
    (detail::require_device_argument<A>(), ...);
    using First = std::decay_t<std::tuple_element_t<0, std::tuple<A...>>>;
    using S = detail::storage_of_t<First>;
    static_assert((std::is_same_v<detail::storage_of_t<A>, S> && ...),
                  "stack: the arrays must have one storage policy");
    using R = detail::promote_all_t<detail::value_type_of<const A&>...>;
    std::vector<shape_type> shapes;
    std::apply([&](const auto&... a) { (shapes.push_back(detail::shape_of(a)), ...); }, arrays);
    std::vector<const shape_type*> list;
    for (const shape_type& sh : shapes)
        list.push_back(&sh);
    detail::check_same_shapes(list.data(), list.size(), "stack");
    if (shapes[0].size() + 1 > max_dims)
        throw shape_error("stack: the result would have more than " + std::to_string(max_dims) +
                          " dimensions");
    const std::size_t ax = detail::normalize_axis(axis, shapes[0].size() + 1, "stack");
    shape_type shape = shapes[0];
    shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(ax), sizeof...(A));
    const First& first = std::get<0>(arrays);
    cl_array<R, S> out(detail::queue_of(first), shape, layout::c, detail::storage_like_of(first));
    std::size_t i = 0;
    auto put = [&](const auto& a) {
        using P = std::decay_t<decltype(a)>;
        // out[..., i, ...] along ax: the part's shape, a view.
        shape_type s = out.shape();
        strides_type st = out.strides();
        const std::ptrdiff_t off = out.offset() + static_cast<std::ptrdiff_t>(i++) * st[ax];
        s.erase(s.begin() + static_cast<std::ptrdiff_t>(ax));
        st.erase(st.begin() + static_cast<std::ptrdiff_t>(ax));
        const cl_array<R, S> dst = detail::view_of(out, std::move(s), std::move(st), off);
        if constexpr (is_cl_array<P>::value && std::is_same_v<typename P::value_type, R>)
            detail::strided_copy(dst, a);
        else
            detail::assign(dst, detail::as_node(a)); // converts to R
    };
    std::apply([&](const auto&... a) { (put(a), ...); }, arrays);
    return out;
}

} // namespace clarray
