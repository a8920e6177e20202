#pragma once
// Lazy expression nodes. An expression is a small tree of function nodes over terminals (arrays
// and scalars); it does nothing until it is assigned, when it becomes one generated kernel.
//
// Each node type N provides:
//   using value_type;                               element type of the result
//   static std::string emit(source_builder&);       OpenCL text of one element, from the type only
//   template <class F> void for_each_terminal(F&&) const;   terminals in emit order (objects that
//                                                   live in the node, never temporaries: the
//                                                   drivers keep their addresses until the launch)
//   template <class T> static constexpr bool lanewise_as;   see below
//   static constexpr bool calls_function;           a math function call (sin, pow...) inside
// Children are held as xtensor does: lvalues by const reference, temporaries by value.
//
// Terminals (what for_each_terminal visits) have `static constexpr bool is_array`. Arrays give
// array() and kernel_argument(); scalars value() and kernel_argument(); a kernel variant
// (variant_terminal) variant() and variant_bits: its value selects the source and has no
// argument (expr/operands.hpp's describe treats all three).
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/codegen/source_builder.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/promotion.hpp"
#include "clarray/types/dtype.hpp"

namespace clarray {

// Base of the lazy element-wise expressions (CRTP): `a + b` builds one, assigning it evaluates it
// in one generated kernel.
template <class D> struct expression : detail::expression_base {
    // This expression as its concrete node type D.
    const D& derived_cast() const noexcept { return static_cast<const D&>(*this); }
};

namespace detail {
template <class D> std::true_type is_expression_impl(const expression<D>*);
std::false_type is_expression_impl(...);
} // namespace detail
// Trait: T is an expression operand (a cl_array or an expression node).
template <class T>
inline constexpr bool is_expression_v =
    decltype(detail::is_expression_impl(std::declval<std::decay_t<T>*>()))::value ||
    is_cl_array<std::decay_t<T>>::value;

// C++ arithmetic values and std::complex<float/double> (NumPy's Python scalars).
template <class T>
inline constexpr bool is_scalar_v = (std::is_arithmetic_v<std::decay_t<T>> ||
                                     detail::is_std_complex<std::decay_t<T>>::value) &&
                                    is_dtype_v<detail::canonical_t<std::decay_t<T>>>;

namespace detail {

template <class T> constexpr dtype dtype_of() {
    return dtype_traits<canonical_t<T>>::id;
}

// Vector kernels (kernels/assign_vector.cl, assign_rows.cl) evaluate W elements at once on OpenCL
// vector types. A node is `lanewise_as<T>` when its whole tree computes in floating type T
// (every value, array and scalar is T, so each cast is an identity) using only ops whose OpenCL
// text means the same on vectors: an op says so by deriving from lanewise_op (or
// lanewise_call_op for a function call, which is what vector kernels are for on CPUs).
struct lanewise_op {
    static constexpr bool lanewise = true, calls_function = false;
};
struct lanewise_call_op {
    static constexpr bool lanewise = true, calls_function = true;
};
template <class Op, class = void> struct op_vector_traits {
    static constexpr bool lanewise = false, calls_function = false;
};
template <class Op> struct op_vector_traits<Op, std::void_t<decltype(Op::lanewise)>> {
    static constexpr bool lanewise = Op::lanewise, calls_function = Op::calls_function;
};
// float16 values are floats in the kernel; an op whose float16 text is a scalar helper (nextafter
// steps by a float16 ulp) says `half_lanewise = false`.
template <class Op, class = void> struct op_half_lanewise { static constexpr bool value = true; };
template <class Op> struct op_half_lanewise<Op, std::void_t<decltype(Op::half_lanewise)>> {
    static constexpr bool value = Op::half_lanewise;
};
// float16 is lanewise as float: values load with vload_halfN into floatN and store with
// vstore_halfN_rte, rounding once as the scalar kernel does. The assigner takes such kernels for
// float16 only at offsets aligned to the vector (pocl faults otherwise: docs/internals/quirks.md).
template <class V, class T>
inline constexpr bool lanewise_terminal_v = std::is_same_v<V, T>&& is_floating_v<T>;

// An array operand. A is cl_array<T,S> or const cl_array<T,S>&.
template <class A> class array_terminal : public expression<array_terminal<A>> {
    using array_type = std::decay_t<A>;

public:
    using value_type = canonical_t<typename array_type::value_type>;
    explicit array_terminal(A a) : a_(std::forward<A>(a)) {}
    static std::string emit(source_builder& b) { return b.array_input(dtype_of<value_type>()); }
    template <class F> void for_each_terminal(F&& f) const { f(*this); }
    template <class T> static constexpr bool lanewise_as = lanewise_terminal_v<value_type, T>;
    static constexpr bool calls_function = false;
    const array_type& array() const noexcept { return a_; }
    static constexpr bool is_array = true;
    // Bound at the allocation's start: generated kernels index with the view's offset.
    launch_arg kernel_argument() const noexcept {
        return memory_arg<typename array_type::storage_policy>(a_.data().get(), access::read);
    }

private:
    A a_;
};

// A scalar operand, passed as a kernel argument of type T (never baked into the source).
template <class T> class scalar_terminal : public expression<scalar_terminal<T>> {
public:
    using value_type = T;
    template <class W>
    explicit scalar_terminal(W w)
        : v_(checked_cast(w)), stored_(static_cast<kernel_value_t<T>>(v_)) {}
    static std::string emit(source_builder& b) { return b.scalar_input(dtype_of<T>()); }
    template <class F> void for_each_terminal(F&& f) const { f(*this); }
    template <class U> static constexpr bool lanewise_as = lanewise_terminal_v<T, U>;
    static constexpr bool calls_function = false;
    kernel_value_t<T> value() const noexcept { return stored_; }
    static constexpr bool is_array = false;
    launch_arg kernel_argument() const noexcept {
        return launch_arg::value(&stored_, sizeof stored_);
    }

private:
    // NumPy 2 refuses a Python int that does not fit the array's integer type; so do we. W is
    // any C++ value (e.g. a reduction's initial), so its kind is the C++ type's.
    template <class W> static T checked_cast(W w) {
        if constexpr (is_integer_v<T> && std::is_integral_v<W> && !std::is_same_v<W, bool>) {
            bool fits = std::is_signed_v<W>
                            ? (static_cast<long long>(w) >=
                                   static_cast<long long>(std::numeric_limits<T>::min()) &&
                               (w < 0 ||
                                static_cast<unsigned long long>(w) <=
                                    static_cast<unsigned long long>(std::numeric_limits<T>::max())))
                            : static_cast<unsigned long long>(w) <=
                                  static_cast<unsigned long long>(std::numeric_limits<T>::max());
            if constexpr (is_unsigned_integer_v<T> && std::is_signed_v<W>) fits = fits && w >= 0;
            if (!fits)
                throw dtype_error("scalar " + std::to_string(w) + " is out of range for the " +
                                  dtype_name(dtype_of<T>()) + " operand it is combined with");
        }
        return static_cast<T>(w);
    }
    T v_;
    kernel_value_t<T> stored_; // what the kernel argument points at (float16: a float)
};

// A kernel variant (codegen/source_builder.hpp's kernel_variants): a value below 2^Bits that the
// source is generated for (source_builder::variant_input), e.g. a gather's index mode.
template <unsigned Bits> struct variant_terminal {
    static constexpr bool is_array = false;
    static constexpr unsigned variant_bits = Bits;
    std::uint32_t value;
    std::uint32_t variant() const noexcept { return value; }
};
template <class T, class = void> struct is_variant_terminal : std::false_type {};
template <class T>
struct is_variant_terminal<T, std::void_t<decltype(T::variant_bits)>> : std::true_type {};
template <class T>
inline constexpr bool is_variant_terminal_v = is_variant_terminal<std::decay_t<T>>::value;

// Op applied to children E... (each a node type, possibly a const reference).
template <class Op, class... E> class function_node : public expression<function_node<Op, E...>> {
public:
    using value_type = typename Op::template result_t<typename std::decay_t<E>::value_type...>;
    template <class... A> explicit function_node(A&&... a) : children_(std::forward<A>(a)...) {}
    static std::string emit(source_builder& b) {
        // Children are emitted left to right (braced init order), matching for_each_terminal.
        std::string texts[] = {std::decay_t<E>::emit(b)...};
        b.note_type(dtype_of<value_type>());
        return emit_with(b, texts, std::index_sequence_for<E...>{});
    }
    template <class F> void for_each_terminal(F&& f) const {
        std::apply([&](const auto&... c) { (c.for_each_terminal(f), ...); }, children_);
    }
    template <class T>
    static constexpr bool lanewise_as = op_vector_traits<Op>::lanewise &&
                                        (!std::is_same_v<T, half> || op_half_lanewise<Op>::value) &&
                                        lanewise_terminal_v<value_type, T> &&
                                        (std::decay_t<E>::template lanewise_as<T> && ...);
    static constexpr bool calls_function =
        op_vector_traits<Op>::calls_function || (std::decay_t<E>::calls_function || ...);

private:
    template <std::size_t... I>
    static std::string emit_with(source_builder& b, const std::string* t,
                                 std::index_sequence<I...>) {
        return Op::template emit<typename std::decay_t<E>::value_type...>(b, t[I]...);
    }
    std::tuple<E...> children_;
};

// ---- the storage policy of an expression's first array operand ----
template <class... T> struct first_non_void { using type = void; };
template <class H, class... T> struct first_non_void<H, T...> {
    using type = std::conditional_t<std::is_void_v<H>, typename first_non_void<T...>::type, H>;
};
template <class N> struct first_storage { using type = void; };
template <class A> struct first_storage<array_terminal<A>> {
    using type = typename std::decay_t<A>::storage_policy;
};
template <class Op, class... E> struct first_storage<function_node<Op, E...>> {
    using type = typename first_non_void<typename first_storage<std::decay_t<E>>::type...>::type;
};
template <class N> using first_storage_t = typename first_storage<std::decay_t<N>>::type;

// ---- turning operands into nodes ----
template <class X> decltype(auto) as_node(X&& x) {
    if constexpr (is_cl_array<std::decay_t<X>>::value) {
        if constexpr (std::is_lvalue_reference_v<X>)
            return array_terminal<const std::decay_t<X>&>(x);
        else
            return array_terminal<std::decay_t<X>>(std::move(x));
    } else {
        return std::forward<X>(x);
    }
}
template <class X> using node_t = decltype(as_node(std::declval<X>()));
// How a node is stored in its parent: references to lvalue nodes, values otherwise.
template <class X>
using child_t = std::conditional_t<
    is_cl_array<std::decay_t<X>>::value, node_t<X>,
    std::conditional_t<std::is_lvalue_reference_v<X>, const std::decay_t<X>&, std::decay_t<X>>>;

template <class X> using value_type_of = typename std::decay_t<node_t<X>>::value_type;

// A weak scalar takes the type its partner dictates.
template <class Partner, class W>
using weak_scalar_t = scalar_terminal<weak_promote_t<value_type_of<Partner>, std::decay_t<W>>>;

// A comparison op (`compares`): NumPy 2 answers a comparison of an integer array with a Python
// int of any value exactly (x_uint8 < -1 is false everywhere), where arithmetic refuses an int
// its array's type cannot hold. So a C++ integer compared with an integer (or bool) array is an
// int64 scalar (uint64 if its C++ type is unsigned), which holds its value, and the comparison
// of the two types is exact (operators.hpp: is_mixed_sign_compare).
template <class Op, class = void> struct op_compares : std::false_type {};
template <class Op>
struct op_compares<Op, std::void_t<decltype(Op::compares)>> : std::bool_constant<Op::compares> {};
template <class Op, class Partner, class W>
inline constexpr bool exact_int_scalar_v =
    op_compares<Op>::value&& std::is_integral_v<std::decay_t<W>> &&
    !std::is_same_v<std::decay_t<W>, bool> && !is_inexact_v<value_type_of<Partner>>;
// The scalar terminal of weak scalar W with operand Partner under Op.
template <class Op, class Partner, class W>
using weak_operand_t =
    std::conditional_t<exact_int_scalar_v<Op, Partner, W>,
                       scalar_terminal<std::conditional_t<std::is_signed_v<std::decay_t<W>>,
                                                          std::int64_t, std::uint64_t>>,
                       weak_scalar_t<Partner, W>>;

template <class Op, class X> auto make_unary(X&& x) {
    return function_node<Op, child_t<X>>(as_node(std::forward<X>(x)));
}

template <class Op, class X, class Y> auto make_binary(X&& x, Y&& y) {
    if constexpr (is_scalar_v<X> && is_scalar_v<Y>) {
        using T = promote_t<std::decay_t<X>, std::decay_t<Y>>;
        return function_node<Op, scalar_terminal<T>, scalar_terminal<T>>(scalar_terminal<T>(x),
                                                                         scalar_terminal<T>(y));
    } else if constexpr (is_scalar_v<X>) {
        using ST = weak_operand_t<Op, Y, X>;
        return function_node<Op, ST, child_t<Y>>(ST(x), as_node(std::forward<Y>(y)));
    } else if constexpr (is_scalar_v<Y>) {
        using ST = weak_operand_t<Op, X, Y>;
        return function_node<Op, child_t<X>, ST>(as_node(std::forward<X>(x)), ST(y));
    } else {
        return function_node<Op, child_t<X>, child_t<Y>>(as_node(std::forward<X>(x)),
                                                         as_node(std::forward<Y>(y)));
    }
}

template <class X, class Y>
inline constexpr bool binary_operands_v = (is_expression_v<X> &&
                                           (is_expression_v<Y> || is_scalar_v<Y>)) ||
                                          (is_scalar_v<X> && is_expression_v<Y>);

} // namespace detail
} // namespace clarray
