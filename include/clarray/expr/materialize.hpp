#pragma once
// Array arguments that may be expressions. Every public function that reads an array also takes
// an expression (docs/semantics.md, "Expressions as arguments"). Functions with a generated
// kernel of their own read the expression inside it (take's indices, the condition of compress,
// extract and nonzero, putmask, reductions, scans, concatenate/stack of tuples); the others
// evaluate it first, with materialize() below, into a temporary from the pool of the
// expression's storage policy (the first array operand's pool: a user pool is inherited).
//
//   detail::materialize(e)          e itself (a const reference) when e is a cl_array, else
//                                   eval(e): a new C-contiguous array of e's value type and the
//                                   storage policy of e's first array operand
//   detail::expression_argument_t   enable_if for the expression overloads of a function: a
//                                   clarray expression node, or host data (refused with a
//                                   static_assert naming the fix)
//   detail::shape_of, queue_of, storage_like_of    shape, queue and allocation-to-follow of an
//                                   array or expression, without evaluating it
#include <type_traits>
#include <vector>

#include "clarray/expr/assign.hpp"
#include "clarray/expr/expression.hpp"

namespace clarray::detail {

// Host data passed where a device array is read: an xtensor expression (it has an
// expression_tag) or a std::vector.
template <class E, class = void> struct is_host_data : std::false_type {};
template <class E>
struct is_host_data<E, std::void_t<typename E::expression_tag>> : std::true_type {};
template <class T, class A> struct is_host_data<std::vector<T, A>, void> : std::true_type {};
template <class E>
inline constexpr bool is_host_data_v = is_host_data<std::decay_t<E>>::value && !is_expression_v<E>;

// A clarray expression that is not a cl_array (an expression node).
template <class E>
inline constexpr bool is_expression_only_v =
    is_expression_v<E> && !is_cl_array<std::decay_t<E>>::value;

// An argument where an array is read: an array or an expression, or host data (refused by
// require_device_argument with the fix); and one of those that is not a cl_array.
template <class E>
inline constexpr bool is_array_argument_v = is_expression_v<E> || is_host_data_v<E>;
template <class E>
inline constexpr bool is_non_array_argument_v = is_expression_only_v<E> || is_host_data_v<E>;

// Enables the expression overload of a function that reads an array: expression nodes, and
// host data so that materialize's static_assert says what to write instead.
template <class E> using expression_argument_t = std::enable_if_t<is_non_array_argument_v<E>>;

// The expression overload of a function of two arrays: each an array or an expression, at least
// one not an array.
template <class A, class B>
using expression_arguments_t =
    std::enable_if_t<is_array_argument_v<A> && is_array_argument_v<B> &&
                     (is_non_array_argument_v<A> || is_non_array_argument_v<B>)>;

// Refuses host data and other non-device arguments at compile time, naming the fix.
template <class E> constexpr void require_device_argument() {
    static_assert(!is_host_data_v<E>,
                  "clarray: this argument is host data; copy it to the device first, e.g. "
                  "clarray::to_device(q, x)");
    static_assert(is_expression_v<E> || is_host_data_v<E>,
                  "clarray: this argument must be a cl_array or a clarray expression");
}

// e as an array: e itself (a const reference: no copy, no kernel) when it is a cl_array, else e
// evaluated (one kernel) into a new C-contiguous array of e's value type, on e's first array
// operand's queue, storage policy and pool (clarray::eval). Host data fails to compile, naming
// the fix.
template <class E> decltype(auto) materialize(const E& e) {
    require_device_argument<E>();
    if constexpr (is_cl_array<std::decay_t<E>>::value)
        return (e);
    else
        return clarray::eval(e);
}

// The shape and queue of an array or expression, for functions that take either.
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
// The storage policy of an array or expression (its first array operand's).
template <class X>
using storage_of_t = first_storage_t<std::decay_t<node_t<const std::decay_t<X>&>>>;
// The allocation a new array made from x is allocated like (its pool), or none.
template <class X> const allocation* storage_like_of(const X& x) {
    if constexpr (is_cl_array<std::decay_t<X>>::value)
        return x.data().get();
    else
        return expression_storage_like(x, storage_of_t<X>::kind);
}

} // namespace clarray::detail
