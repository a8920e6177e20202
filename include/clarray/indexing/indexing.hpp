#pragma once
// Indexing by integer arrays and boolean masks, with NumPy's names (docs/indexing.md):
//
//   ca::take(a, idx)                  a.flat[idx] (an expression: `x * take(a, idx) + 1` is one
//   ca::take(a, idx, axis, mode)      kernel); along an axis; mode raise / wrap / clip
//   ca::put(a, idx, values, mode)     a.flat[idx] = values (values repeat; duplicates: one wins)
//   ca::add_at(a, idx, values)        np.add.at: a[idx] += values, duplicates accumulate (atomics)
//   ca::compress(cond, a)             the elements of a.flat where cond (1-d, in order)
//   ca::extract(cond, a)              the same with cond of a's size
//   ca::nonzero(a)                    one int64 array of indices per axis
//   ca::count_nonzero(a)              a host integer
//   ca::putmask(a, mask, values)      a = values where mask (values broadcast, one kernel)
//   ca::masked(a, mask) = values      the same, e.g. masked(x, x > 0) = x * 2
//
// Where the host waits: nowhere for take/put/add_at in any mode; in raise mode their kernels
// flag an index out of range on the device, and the next host wait reports it
// (runtime/device_checks.hpp). compress, extract and nonzero read the count of selected elements
// (the result's size); count_nonzero reads its result. Everything else is enqueued.
//
// Every argument that is read may be an expression (docs/semantics.md): take's indices and the
// conditions of compress, extract, nonzero and count_nonzero are read inside their kernels; the
// gathered array, put's and add_at's indices and values and the array compress/extract select
// from are evaluated first into a temporary (expr/materialize.hpp).
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/copy.hpp"
#include "clarray/array/manipulation.hpp" // detail::normalize_axis
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/indexing/gather.hpp"
#include "clarray/reduce/reduce.hpp"

namespace clarray {
namespace detail {

// One scatter over type-erased operands (src/indexing/indexing.cpp). flat: a.flat[k] (put);
// else a[k, ...] along axis 0 (add_at). values: put reads values.flat[i % values.size];
// add_at reads values, already broadcast to idx.shape + a.shape[1:], in C order.
// raise mode: an index out of range is skipped and reported at the next host wait as
// index_error naming `what` (runtime/device_checks.hpp).
void scatter(const array_ref& a, const array_ref& idx, const array_ref& values, index_mode mode,
             bool flat, bool add, const char* what);
// out[j] = a.flat[i] for the i where the inclusive running count pos (int64, contiguous, of
// n elements) steps; out holds pos[n - 1] elements.
void compact(const array_ref& out, const array_ref& a, const array_ref& pos, std::size_t n);
// out (int64, contiguous, rank x count): the coordinates in `shape` of the flat positions where
// pos steps.
void nonzero_coordinates(const array_ref& out, const shape_type& shape, const array_ref& pos,
                         std::size_t count);
// index_error naming what, the extent and the axis.
[[noreturn]] void throw_index_range(const char* what, std::size_t extent,
                                    std::optional<std::size_t> axis);

template <class I> constexpr void check_index_type() {
    static_assert(is_index_type_v<I>,
                  "clarray indexing: index arrays must be int32 or int64 (NumPy refuses float and "
                  "bool index arrays here too)");
}

// Where a raise-mode check came from (the index_error's message): axis empty for a flat index.
inline device_check_site check_site(const char* what, std::size_t extent,
                                    std::optional<std::size_t> axis) noexcept {
    return {&index_range_check, what, extent, axis ? static_cast<std::ptrdiff_t>(*axis) : -1};
}

template <class A, class B> void same_context(const A& a, const B& b, const char* what) {
    if (queue_of(a).context() != queue_of(b).context())
        throw usage_error(std::string(what) + ": arrays from different contexts");
}

// v as type T on its own storage (a conversion kernel only when the types differ).
template <class T, class V, class VS> cl_array<T, VS> as_type(const cl_array<V, VS>& v) {
    if constexpr (std::is_same_v<canonical_t<T>, canonical_t<V>>)
        return v;
    else
        return cl_array<T, VS>(astype<T>(v));
}

// b, or a copy of it when it overlaps a's memory (a scatter reads b while it writes a).
template <class A, class B> B unaliased(const A& a, const B& b) {
    if (a.data() && a.data() == b.data() &&
        ranges_overlap(a.shape(), a.strides(), a.offset(), b.shape(), b.strides(), b.offset()))
        return b.copy();
    return b;
}

// Whether the integer w is a value of the integer type T.
template <class T, class W> constexpr bool integer_fits(W w) {
    if constexpr (std::is_signed_v<W>)
        if (w < 0)
            return std::is_signed_v<T> && static_cast<long long>(w) >=
                                              static_cast<long long>(std::numeric_limits<T>::min());
    return static_cast<unsigned long long>(w) <=
           static_cast<unsigned long long>(std::numeric_limits<T>::max());
}

template <class T, class S> cl_array<T, S> one_value(const queue& q, const T& v) {
    cl_array<T, S> x(q, shape_type{1});
    x.fill(v);
    return x;
}

} // namespace detail

// ---- gather ----

// a.flat[idx] (axis empty) or a taken along `axis` at idx: shape a.shape[:axis] + idx.shape +
// a.shape[axis+1:]. An expression: it is evaluated where it is assigned, fused with the rest.
// raise mode checks the indices in the kernel: an index out of range reads a clamped position
// and the next host wait throws index_error (docs/indexing.md); an empty axis throws here. A flat
// take of a view that is not one strided line gathers from a contiguous copy of it (as NumPy's
// ravel).
// a and idx may be expressions: a is evaluated first (a temporary); idx is read inside the
// gather's kernel (`take(a, idx + 1)` adds no kernel of its own).
template <
    class A, class X,
    class = std::enable_if_t<detail::is_array_argument_v<A> && detail::is_array_argument_v<X>>>
auto take(const A& a_in, const X& idx, std::optional<std::ptrdiff_t> axis = std::nullopt,
          index_mode mode = index_mode::raise) {
    detail::require_device_argument<X>();
    decltype(auto) a = detail::materialize(a_in);
    using AT = std::decay_t<decltype(a)>;
    using T = typename AT::value_type;
    using S = typename AT::storage_policy;
    // The index operand as a node held by value: an array's handle, or the expression.
    using N = std::conditional_t<is_cl_array<X>::value, detail::array_terminal<X>, X>;
    detail::check_index_type<typename N::value_type>();
    detail::same_context(a, idx, "take");
    const cl_array<T, S> src = axis ? a : a.ravel();
    const std::size_t ax = axis ? detail::normalize_axis(*axis, a.dimension(), "take") : 0;
    const std::size_t n = src.shape()[ax];
    const std::optional<std::size_t> named = axis ? std::optional<std::size_t>(ax) : std::nullopt;
    const shape_type idx_shape = detail::shape_of(idx);
    if (n == 0 && checked_size(idx_shape) > 0) {
        if (mode == index_mode::raise) detail::throw_index_range("take", n, named);
        throw index_error("take: cannot take from an empty axis");
    }
    return detail::gather_node<T, S, N>(src, N(idx), idx_shape, ax, mode,
                                        detail::check_site("take", n, named));
}

// ---- scatter ----

// a.flat[idx[i]] = values.flat[i % values.size()] (NumPy's put); for duplicate indices one of
// the writes wins, unspecified which. values is converted to a's dtype. raise mode: an index out
// of range writes nothing and the next host wait throws index_error.
template <class T, class S, class I, class IS, class V, class VS>
void put(const cl_array<T, S>& a, const cl_array<I, IS>& idx, const cl_array<V, VS>& values,
         index_mode mode = index_mode::raise) {
    detail::check_index_type<I>();
    detail::same_context(a, idx, "put");
    detail::same_context(a, values, "put");
    if (idx.size() == 0) return;
    if (values.size() == 0)
        throw shape_error("put: no values for " + std::to_string(idx.size()) + " indices");
    if (a.size() == 0) {
        if (mode == index_mode::raise) detail::throw_index_range("put", 0, std::nullopt);
        throw index_error("put: cannot put into an empty array");
    }
    const auto v = detail::unaliased(a, detail::as_type<T>(values));
    const auto i = detail::unaliased(a, idx);
    detail::scatter(detail::array_ref_of(a), detail::array_ref_of(i), detail::array_ref_of(v), mode,
                    true, false, "put");
}
// put with one scalar value for every index.
template <class T, class S, class I, class IS, class W, class = std::enable_if_t<is_scalar_v<W>>>
void put(const cl_array<T, S>& a, const cl_array<I, IS>& idx, const W& value,
         index_mode mode = index_mode::raise) {
    put(a, idx, detail::one_value<T, S>(a.get_queue(), static_cast<T>(value)), mode);
}

// np.add.at(a, idx, values): a[idx] += values with every duplicate index accumulating (device
// atomics; float sums in an unspecified order). idx indexes a's first axis; values broadcast to
// idx.shape + a.shape[1:]. Negative indices count from the end; an index out of range adds
// nothing and the next host wait throws index_error. Every dtype: 32- and 64-bit types with
// atomic adds, complex with one atomic add per part (64-bit types and complex128 need
// cl_khr_int64_base_atomics); 8- and 16-bit integers (wrapping as NumPy's), bool (logical or,
// NumPy's add of bool) and float16 (each add rounded to float16) with a 32-bit compare-exchange
// of the word around the element (kernels/indexing.cl).
template <class T, class S, class I, class IS, class V, class VS>
void add_at(const cl_array<T, S>& a, const cl_array<I, IS>& idx, const cl_array<V, VS>& values) {
    detail::check_index_type<I>();
    detail::same_context(a, idx, "add_at");
    detail::same_context(a, values, "add_at");
    if (a.dimension() == 0) throw shape_error("add_at: a 0-d array has no axis to index");
    shape_type target = idx.shape();
    for (std::size_t d = 1; d < a.dimension(); ++d)
        target.push_back(a.shape()[d]);
    if (target.size() > max_dims)
        throw shape_error("add_at: a[idx] would have more than " + std::to_string(max_dims) +
                          " dimensions");
    const auto v = detail::unaliased(a, detail::as_type<T>(values));
    const strides_type vst = broadcast_strides(v.shape(), v.strides(), target); // shape_error
    if (idx.size() == 0) return;
    if (a.shape()[0] == 0) detail::throw_index_range("add_at", 0, std::size_t{0});
    const auto i = detail::unaliased(a, idx);
    const std::decay_t<decltype(v)> vb(v.get_queue(), v.data(), target, vst, v.offset());
    detail::scatter(detail::array_ref_of(a), detail::array_ref_of(i), detail::array_ref_of(vb),
                    index_mode::raise, false, true, "add_at");
}
// add_at with one scalar value added at every index. An integer value outside an integer a's
// range is a dtype_error (NumPy 2 refuses such a Python int too) rather than a silent wrap.
template <class T, class S, class I, class IS, class W, class = std::enable_if_t<is_scalar_v<W>>>
void add_at(const cl_array<T, S>& a, const cl_array<I, IS>& idx, const W& value) {
    if constexpr (is_integer_v<detail::canonical_t<T>> && std::is_integral_v<W> &&
                  !std::is_same_v<W, bool>) {
        if (!detail::integer_fits<T>(value))
            throw dtype_error("add_at: the value " + std::to_string(value) +
                              " is out of range for the " + dtype_name(detail::dtype_of<T>()) +
                              " array");
    }
    add_at(a, idx, detail::one_value<T, S>(a.get_queue(), static_cast<T>(value)));
}

// put and add_at with an index or values expression: the scatter reads arrays, so each
// expression is evaluated first into a temporary (values directly as a's dtype).
namespace detail {
template <class T, class V> decltype(auto) values_as(const V& v) {
    if constexpr (is_expression_only_v<V>)
        return clarray::eval(astype<T>(v));
    else
        return materialize(v);
}
template <class X, class V>
inline constexpr bool scatter_expression_args_v = is_array_argument_v<X>&& is_array_argument_v<V> &&
                                                  (is_non_array_argument_v<X> ||
                                                   is_non_array_argument_v<V>);
template <class X, class W>
inline constexpr bool scatter_scalar_args_v = is_non_array_argument_v<X>&& is_scalar_v<W>;
} // namespace detail
// put with an index or values expression (each evaluated first).
template <class T, class S, class X, class V,
          class = std::enable_if_t<detail::scatter_expression_args_v<X, V>>>
void put(const cl_array<T, S>& a, const X& idx, const V& values,
         index_mode mode = index_mode::raise) {
    put(a, detail::materialize(idx), detail::values_as<T>(values), mode);
}
// put of one scalar value at an index expression (evaluated first).
template <class T, class S, class X, class W,
          class = std::enable_if_t<detail::scatter_scalar_args_v<X, W>>, class = void>
void put(const cl_array<T, S>& a, const X& idx, const W& value,
         index_mode mode = index_mode::raise) {
    put(a, detail::materialize(idx), value, mode);
}
// add_at with an index or values expression (each evaluated first).
template <class T, class S, class X, class V,
          class = std::enable_if_t<detail::scatter_expression_args_v<X, V>>>
void add_at(const cl_array<T, S>& a, const X& idx, const V& values) {
    add_at(a, detail::materialize(idx), detail::values_as<T>(values));
}
// add_at of one scalar value at an index expression (evaluated first).
template <class T, class S, class X, class W,
          class = std::enable_if_t<detail::scatter_scalar_args_v<X, W>>, class = void>
void add_at(const cl_array<T, S>& a, const X& idx, const W& value) {
    add_at(a, detail::materialize(idx), value);
}

// ---- boolean masks ----
namespace detail {
// Inclusive running count of the nonzero elements of m (an array or an expression, read in the
// scan's kernel) in C order (int64, contiguous).
template <class M> auto running_count(const M& m) {
    return cumsum(astype<std::int64_t>(astype<bool>(m)));
}
// The last element of a running count: the host waits for it.
template <class S> std::size_t total(const cl_array<std::int64_t, S>& pos) {
    const std::size_t n = pos.size();
    return static_cast<std::size_t>(
        pos(range(static_cast<std::ptrdiff_t>(n) - 1, static_cast<std::ptrdiff_t>(n))).item());
}
template <class M, class T, class S>
cl_array<T, S> compress_flat(const M& cond, std::size_t cond_size, const cl_array<T, S>& a,
                             const char* what) {
    same_context(a, cond, what);
    if (cond_size == 0) return cl_array<T, S>(a.get_queue(), shape_type{0});
    const auto pos = running_count(cond);
    const std::size_t count = total(pos); // the host waits here: the result's size
    cl_array<T, S> out(a.get_queue(), shape_type{count}, layout::c, a.data().get());
    if (count > 0) compact(array_ref_of(out), array_ref_of(a), array_ref_of(pos), cond_size);
    return out;
}
template <class C, class A>
inline constexpr bool mask_args_v = is_array_argument_v<C>&& is_array_argument_v<A>;
} // namespace detail

// The elements of a.flat at the positions where the 1-d cond is nonzero, in order (NumPy's
// compress without axis); cond may be shorter than a. cond may be an expression (read in the
// scan's kernel: `compress(x > 0, x)`); an expression a is evaluated first.
template <class C, class A, class = std::enable_if_t<detail::mask_args_v<C, A>>>
auto compress(const C& cond, const A& a_in) {
    detail::require_device_argument<C>();
    decltype(auto) a = detail::materialize(a_in);
    const shape_type cs = detail::shape_of(cond);
    if (cs.size() != 1)
        throw shape_error("compress: the condition must be 1-d, not of shape " +
                          shape_to_string(cs));
    if (cs[0] > a.size())
        throw index_error("compress: condition of " + std::to_string(cs[0]) +
                          " elements is longer than the array's " + std::to_string(a.size()));
    return detail::compress_flat(cond, cs[0], a, "compress");
}

// The elements of a.flat where cond.flat is nonzero (cond of a's size), in order; cond and a
// as in compress.
template <class C, class A, class = std::enable_if_t<detail::mask_args_v<C, A>>>
auto extract(const C& cond, const A& a_in) {
    detail::require_device_argument<C>();
    decltype(auto) a = detail::materialize(a_in);
    const shape_type cs = detail::shape_of(cond);
    const std::size_t n = checked_size(cs);
    if (n != a.size())
        throw shape_error("extract: condition of shape " + shape_to_string(cs) +
                          " and array of shape " + shape_to_string(a.shape()) + " differ in size");
    return detail::compress_flat(cond, n, a, "extract");
}

// The indices of the nonzero elements, one int64 array per axis (C order), as NumPy's nonzero.
// a may be an expression (read in the scan's kernel: `nonzero(x > 0)`); the results have its
// storage policy.
template <class E, class = std::enable_if_t<detail::is_array_argument_v<E>>>
auto nonzero(const E& a) {
    detail::require_device_argument<E>();
    using S = detail::storage_of_t<E>;
    const shape_type shape = detail::shape_of(a);
    const queue& q = detail::queue_of(a);
    if (shape.size() == 0)
        throw shape_error("nonzero: a 0-d array has no axes (NumPy refuses it too)");
    const std::size_t rank = shape.size();
    std::vector<cl_array<std::int64_t, S>> result;
    if (checked_size(shape) == 0) {
        for (std::size_t k = 0; k < rank; ++k)
            result.emplace_back(q, shape_type{0});
        return result;
    }
    const auto pos = detail::running_count(a);
    const std::size_t count = detail::total(pos); // the host waits here
    cl_array<std::int64_t, S> coords(q, shape_type{rank, count}, layout::c,
                                     detail::storage_like_of(a));
    if (count > 0)
        detail::nonzero_coordinates(detail::array_ref_of(coords), shape, detail::array_ref_of(pos),
                                    count);
    for (std::size_t k = 0; k < rank; ++k)
        result.push_back(coords(static_cast<std::ptrdiff_t>(k)));
    return result;
}

// How many elements are nonzero (a an array or an expression, read in the sum's kernel); the host
// waits for the count.
template <class E, class = std::enable_if_t<detail::is_array_argument_v<E>>>
std::int64_t count_nonzero(const E& a) {
    detail::require_device_argument<E>();
    if (checked_size(detail::shape_of(a)) == 0) return 0;
    return sum(astype<bool>(a)).item();
}

// a = values where mask is nonzero (values broadcast to a's shape and converted to a's dtype;
// np.copyto(a, values, where=mask)). One kernel, enqueued.
template <class T, class S, class M, class V>
void putmask(const cl_array<T, S>& a, const M& mask, const V& values) {
    static_assert(is_expression_v<M>, "putmask: the mask must be an array or an expression");
    if constexpr (is_scalar_v<V>)
        detail::assign(a, where(mask, static_cast<T>(values), a));
    else
        detail::assign(a, where(mask, astype<T>(values), a));
}

// `masked(a, mask) = values` is putmask(a, mask, values): `masked(x, x > 0) = x * 2`.
template <class T, class S, class M> class masked_array {
public:
    // The elements of a where mask is nonzero (masked() makes it).
    masked_array(const cl_array<T, S>& a, M mask) : a_(a), mask_(std::move(mask)) {}
    // putmask(a, mask, values): one kernel, enqueued.
    template <class V> masked_array& operator=(const V& values) {
        putmask(a_, mask_, values);
        return *this;
    }

private:
    cl_array<T, S> a_; // a handle: writes go to the caller's array
    M mask_;
};
// a's elements where mask is true, as an assignment target: `masked(a, m) = expr`.
template <class T, class S, class M>
masked_array<T, S, std::decay_t<M>> masked(const cl_array<T, S>& a, M&& mask) {
    return masked_array<T, S, std::decay_t<M>>(a, std::forward<M>(mask));
}

} // namespace clarray
