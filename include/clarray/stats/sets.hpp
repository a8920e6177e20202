#pragma once
// NumPy's set routines on the device (docs/sorting.md, "Sets"):
//
//   auto m = clarray::isin(x, labels);            // bool, x's shape
//   auto c = clarray::intersect1d(a, b);          // sorted distinct values in both
//   auto [v, ia, ib] = clarray::intersect1d_indices(a, b); // and where they first occur
//   auto u = clarray::union1d(a, b);  auto d = clarray::setdiff1d(a, b);
//   auto x = clarray::setxor1d(a, b);
//
// Built as NumPy builds them, on the sort layer's kernels: a sort (or unique) of each input,
// searchsorted of one in the other (the membership test of a sorted merge), and compress of the
// members. isin never blocks (but for complex input); the others read the size of their result
// back (unique and compress do: the size depends on the data), which waits for the work before
// them. Complex values, which searchsorted does not order, are tested by NumPy's merge instead:
// a stable sort of both inputs joined, where an element equal to its successor has a match.
//
// The two inputs are converted to their NumPy promotion first (int32 with float32: float64) and
// flattened; they may be views of any storage policy or expressions (evaluated once). Equality is
// NumPy's ==: -0.0 equals +0.0, and NaN equals nothing, so a NaN is never in the other set (isin
// gives false, setdiff1d and setxor1d keep it).
#include <cstdint>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/expr/promotion.hpp"
#include "clarray/indexing/indexing.hpp"
#include "clarray/sort/sort.hpp"

namespace clarray {

// The result of intersect1d_indices: the common values and where each first occurs in a and b.
template <class T, class S> struct intersect_result {
    // The sorted distinct values found in both inputs.
    cl_array<T, S> values;
    // The flat int64 index in a of each value's first occurrence.
    cl_array<std::int64_t, S> indices1;
    // The flat int64 index in b of each value's first occurrence.
    cl_array<std::int64_t, S> indices2;
};

namespace detail {

// The element type two set arguments are compared in (NumPy's promotion).
template <class A, class B> struct set_type {
    using type = promote_t<value_type_of<const A&>, value_type_of<const B&>>;
    static_assert(std::is_same_v<storage_of_t<A>, storage_of_t<B>>,
                  "clarray set routines: both inputs must have one storage policy");
};
template <class A, class B> using set_type_t = typename set_type<A, B>::type;

// x converted to R and flattened (a view where x is one already).
template <class R, class X> auto set_operand(const X& x, const char* what) {
    require_device_argument<X>();
    using S = storage_of_t<X>;
    const cl_array<R, S> a = materialize_as<R>(x);
    queue_of(a, what);
    return a.ravel();
}

// Whether each element of e is in the sorted 1-d s (inverted: is not): the insertion point's
// value equals it. One searchsorted and one comparison kernel.
template <class T, class S>
cl_array<bool, S> isin_sorted(const cl_array<T, S>& e, const cl_array<T, S>& s, bool invert) {
    const queue& q = e.get_queue();
    if (s.size() == 0 || e.size() == 0) {
        cl_array<bool, S> out(q, e.shape(), layout::c, e.data().get());
        if (out.size() > 0) out.fill(invert);
        return out;
    }
    const cl_array<std::int64_t, S> pos = searchsorted(s, e);
    // An insertion point past the end is clipped onto the last value, which is smaller.
    const auto found = take(s, pos, 0, index_mode::clip);
    if (invert) return eval(found != e);
    return eval(found == e);
}

// Where a sorted 1-d array's value differs from the one before it (the first is true).
template <class T, class S> cl_array<bool, S> first_of_runs(const cl_array<T, S>& s) {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
    cl_array<bool, S> m(s.get_queue(), shape_type{s.size()}, layout::c, s.data().get());
    m(range(0, 1)).fill(true);
    if (n > 1) m(range(1, n)) = s(range(1, n)) != s(range(0, n - 1));
    return m;
}

// The values of a (1-d) sorted, without repeats unless assume_unique, and the flat index of
// each one's first occurrence (a stable argsort keeps the first of equal values first).
template <class T, class S> struct firsts {
    cl_array<T, S> values;
    cl_array<std::int64_t, S> index;
};
template <class T, class S> firsts<T, S> first_occurrences(const cl_array<T, S>& a, bool unique) {
    firsts<T, S> r;
    r.index = argsort(a);
    r.values = eval(take(a, r.index));
    if (unique && a.size() > 1) {
        const cl_array<bool, S> m = first_of_runs(r.values);
        r.values = compress(m, r.values);
        r.index = compress(m, r.index);
    }
    return r;
}

// Whether each element of the 1-d u, free of repeats, is in v, free of repeats too (inverted:
// is not), by NumPy's sorted merge: in a stable sort of u and v joined, an element of u that
// equals its successor has its match from v there. For complex values, which searchsorted does
// not order; never blocks. The flags are scattered into n + 1 slots, the last a sink for the
// elements without a match.
template <class T, class S>
cl_array<bool, S> member_of_unique(const cl_array<T, S>& u, const cl_array<T, S>& v, bool invert) {
    const std::size_t n = u.size(), m = v.size();
    cl_array<bool, S> flags(u.get_queue(), shape_type{n + 1}, layout::c, u.data().get());
    flags.fill(invert);
    const cl_array<bool, S> out = flags(range(0, static_cast<std::ptrdiff_t>(n)));
    if (n == 0 || m == 0) return out;
    const cl_array<T, S> aux = concatenate({u, v});
    const cl_array<std::int64_t, S> order = argsort(aux);
    const cl_array<T, S> sorted = eval(take(aux, order));
    const std::ptrdiff_t len = static_cast<std::ptrdiff_t>(n + m);
    const cl_array<std::int64_t, S> at = order(range(0, len - 1));
    const std::int64_t sink = static_cast<std::int64_t>(n);
    const cl_array<std::int64_t, S> target =
        eval(where((sorted(range(0, len - 1)) == sorted(range(1, len))) & (at < sink), at, sink));
    put(flags, target, !invert);
    return out;
}

// Membership of the 1-d u (free of repeats) in v (free of repeats; sorted unless T is complex):
// searchsorted where T has an order for it, else the merge above.
template <class T, class S>
cl_array<bool, S> members(const cl_array<T, S>& u, const cl_array<T, S>& v, bool invert) {
    if constexpr (is_complex_v<T>)
        return member_of_unique(u, v, invert);
    else
        return isin_sorted(u, v, invert);
}

// isin of complex values: the distinct values of e (a sort), their membership by the merge,
// and each element's flag gathered from its value's (NumPy's in1d with return_inverse). Blocks:
// the count of distinct values is read back.
template <class T, class S>
cl_array<bool, S> isin_complex(const cl_array<T, S>& e, const cl_array<T, S>& t, bool invert) {
    const queue& q = e.get_queue();
    if (e.size() == 0 || t.size() == 0) {
        cl_array<bool, S> out(q, e.shape(), layout::c, e.data().get());
        if (out.size() > 0) out.fill(invert);
        return out;
    }
    const cl_array<T, S> flat = e.ravel();
    const cl_array<std::int64_t, S> order = argsort(flat);
    const cl_array<T, S> sorted = eval(take(flat, order));
    const cl_array<bool, S> first = first_of_runs(sorted);
    const cl_array<T, S> distinct = compress(first, sorted);
    // The rank of each sorted element's value among the distinct ones, scattered back to the
    // element's place.
    const cl_array<std::int64_t, S> rank = eval(cumsum(astype<std::int64_t>(first)) - 1);
    cl_array<std::int64_t, S> inverse(q, shape_type{flat.size()}, layout::c, e.data().get());
    put(inverse, order, rank);
    const cl_array<bool, S> in = member_of_unique(distinct, unique(t), invert);
    return cl_array<bool, S>(eval(take(in, inverse))).reshape(e.shape());
}

} // namespace detail

// NumPy's isin: whether each element of `element` is in `test_elements` (bool, element's
// shape); invert gives the complement (NumPy's invert=True). Never blocks: a sort of
// test_elements, a searchsorted and one comparison. Complex input takes the merge: it reads the
// count of element's distinct values back.
template <
    class A, class B,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<B>>>
auto isin(const A& element, const B& test_elements, bool invert = false) {
    using R = detail::set_type_t<A, B>;
    detail::require_device_argument<A>();
    const auto e = detail::materialize_as<R>(element);
    detail::queue_of(e, "isin");
    const auto t = detail::set_operand<R>(test_elements, "isin");
    if constexpr (is_complex_v<R>)
        return detail::isin_complex(e, t, invert);
    else
        return detail::isin_sorted(e, t.size() > 1 ? sort(t) : t, invert);
}

// NumPy's intersect1d: the sorted distinct values in both a and b (flattened). With
// assume_unique the inputs are taken as free of repeats (no unique pass; repeats then stay).
// Blocks: the result's size is read back.
template <
    class A, class B,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<B>>>
auto intersect1d(const A& a, const B& b, bool assume_unique = false) {
    using R = detail::set_type_t<A, B>;
    const auto x = detail::set_operand<R>(a, "intersect1d");
    const auto y = detail::set_operand<R>(b, "intersect1d");
    const auto ux = assume_unique ? sort(x) : unique(x);
    const auto uy = assume_unique ? sort(y) : unique(y);
    return compress(detail::members(ux, uy, false), ux);
}

// NumPy's intersect1d with return_indices: the common values (as intersect1d) and the flat
// int64 index of each one's first occurrence in a and in b. Blocks: the sizes are read back.
template <
    class A, class B,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<B>>>
auto intersect1d_indices(const A& a, const B& b, bool assume_unique = false) {
    using R = detail::set_type_t<A, B>;
    using S = detail::storage_of_t<A>;
    const auto x = detail::set_operand<R>(a, "intersect1d_indices");
    const auto y = detail::set_operand<R>(b, "intersect1d_indices");
    const detail::firsts<R, S> fx = detail::first_occurrences(x, !assume_unique);
    const detail::firsts<R, S> fy = detail::first_occurrences(y, !assume_unique);
    const cl_array<bool, S> common = detail::members(fx.values, fy.values, false);
    intersect_result<R, S> r;
    r.values = compress(common, fx.values);
    r.indices1 = compress(common, fx.index);
    if (r.values.size() == 0) {
        r.indices2 = r.indices1.copy();
        return r;
    }
    if constexpr (is_complex_v<R>) // the common values of b, in the same (sorted) order
        r.indices2 = compress(detail::members(fy.values, fx.values, false), fy.index);
    else
        r.indices2 = eval(take(fy.index, searchsorted(fy.values, r.values)));
    return r;
}

// NumPy's union1d: the sorted distinct values in a or b (flattened). Blocks: the size is read
// back.
template <
    class A, class B,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<B>>>
auto union1d(const A& a, const B& b) {
    using R = detail::set_type_t<A, B>;
    const auto x = detail::set_operand<R>(a, "union1d");
    const auto y = detail::set_operand<R>(b, "union1d");
    return unique(concatenate({x, y}));
}

// NumPy's setdiff1d: the sorted distinct values of a not in b. With assume_unique, a is taken
// as free of repeats and its elements keep their order (NumPy's result there). Blocks: the size
// is read back.
template <
    class A, class B,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<B>>>
auto setdiff1d(const A& a, const B& b, bool assume_unique = false) {
    using R = detail::set_type_t<A, B>;
    const auto x = detail::set_operand<R>(a, "setdiff1d");
    const auto y = detail::set_operand<R>(b, "setdiff1d");
    const auto ux = assume_unique ? x : unique(x);
    const auto sy = assume_unique ? sort(y) : unique(y);
    return compress(detail::members(ux, sy, true), ux);
}

// NumPy's setxor1d: the sorted values in exactly one of a and b. With assume_unique the inputs
// are taken as free of repeats. Blocks: the size is read back.
template <
    class A, class B,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<B>>>
auto setxor1d(const A& a, const B& b, bool assume_unique = false) {
    using R = detail::set_type_t<A, B>;
    using S = detail::storage_of_t<A>;
    const auto x = detail::set_operand<R>(a, "setxor1d");
    const auto y = detail::set_operand<R>(b, "setxor1d");
    const cl_array<R, S> aux =
        assume_unique ? sort(concatenate({x, y})) : sort(concatenate({unique(x), unique(y)}));
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(aux.size());
    if (n == 0) return aux;
    // NumPy's flags: a value is kept where it differs from both neighbours.
    cl_array<bool, S> flag(aux.get_queue(), shape_type{aux.size() + 1}, layout::c,
                           aux.data().get());
    flag(range(0, 1)).fill(true);
    flag(range(n, n + 1)).fill(true);
    if (n > 1) flag(range(1, n)) = aux(range(1, n)) != aux(range(0, n - 1));
    return compress(flag(range(1, n + 1)) & flag(range(0, n)), aux);
}

} // namespace clarray
