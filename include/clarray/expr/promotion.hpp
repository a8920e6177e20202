#pragma once
// NumPy 2 type promotion (NEP 50) on C++ element types.
//
// Array operands are strong: int8 + int8 -> int8, uint32 + int32 -> int64, int32 + float -> double.
// C++ arithmetic scalars are weak: they take the array's type when their kind (bool < integer <
// floating) is not higher: float_array * 2.0 -> float, int8_array + 1 -> int8, int_array * 2.0 ->
// double, bool_array + 1 -> int64.
// Complex (the kind above floating) combines by its parts' type: complex64 + float64 ->
// complex128, complex64 + int32 -> complex128 (as float32 + int32 -> float64); a std::complex
// scalar is weak: float32 array * 1i -> complex64, int32 array * 1i -> complex128.
#include <complex>
#include <cstdint>
#include <type_traits>

#include "clarray/types/dtype.hpp"

namespace clarray {

namespace detail {
template <std::size_t N, bool Signed> struct int_of_size;
template <> struct int_of_size<1, true> { using type = std::int8_t; };
template <> struct int_of_size<2, true> { using type = std::int16_t; };
template <> struct int_of_size<4, true> { using type = std::int32_t; };
template <> struct int_of_size<8, true> { using type = std::int64_t; };
// uint64 with int64: NumPy's choice.
template <> struct int_of_size<16, true> { using type = double; };
template <> struct int_of_size<1, false> { using type = std::uint8_t; };
template <> struct int_of_size<2, false> { using type = std::uint16_t; };
template <> struct int_of_size<4, false> { using type = std::uint32_t; };
template <> struct int_of_size<8, false> { using type = std::uint64_t; };

// Canonical spelling of each dtype (long long -> int64_t, etc.).
template <class T, class = void> struct canonical { using type = T; };
template <class T>
struct canonical<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
    using type = typename int_of_size<sizeof(T), std::is_signed_v<T>>::type;
};
template <class T> using canonical_t = typename canonical<T>::type;

template <class T> struct type_holder { using type = T; };
template <class X, class Y>
using wider_t = std::conditional_t<(dtype_traits<X>::size > dtype_traits<Y>::size), X, Y>;
// A float with an integer: float32 holds integers of up to 16 bits exactly, float16 those of
// 8 bits (int16 with float16 is float32).
template <class F, class I>
using float_int_t = std::conditional_t<
    std::is_same_v<F, double> || (dtype_traits<I>::size > 2), double,
    std::conditional_t<std::is_same_v<F, half> && (dtype_traits<I>::size > 1), float, F>>;
// A signed with an unsigned integer: the smallest signed type holding both.
template <class S, class U>
using mixed_int_t = std::conditional_t<(dtype_traits<S>::size > dtype_traits<U>::size), S,
                                       typename int_of_size<2 * dtype_traits<U>::size, true>::type>;

template <class A, class B> constexpr auto promote2() {
    if constexpr (std::is_same_v<A, B>)
        return type_holder<A>{};
    else if constexpr (is_boolean_v<A>)
        return type_holder<B>{};
    else if constexpr (is_boolean_v<B>)
        return type_holder<A>{};
    else if constexpr (is_complex_v<A> || is_complex_v<B>)
        return type_holder<
            complex_of_t<typename decltype(promote2<real_of_t<A>, real_of_t<B>>())::type>>{};
    else if constexpr (is_floating_v<A> && is_floating_v<B>)
        return type_holder<wider_t<A, B>>{};
    else if constexpr (is_floating_v<A>)
        return type_holder<float_int_t<A, B>>{};
    else if constexpr (is_floating_v<B>)
        return type_holder<float_int_t<B, A>>{};
    else if constexpr (is_signed_integer_v<A> == is_signed_integer_v<B>)
        return type_holder<wider_t<A, B>>{};
    else if constexpr (is_signed_integer_v<A>)
        return type_holder<mixed_int_t<A, B>>{};
    else
        return type_holder<mixed_int_t<B, A>>{};
}
} // namespace detail

// Promotion of two array (strong) element types.
template <class A, class B>
using promote_t =
    typename decltype(detail::promote2<detail::canonical_t<A>, detail::canonical_t<B>>())::type;

namespace detail {
// NumPy's rank of a type among its builtin types (its type number): the n-ary promotion below
// starts from the type of highest rank, float16 being the highest.
template <class T> constexpr int numpy_rank() {
    using C = canonical_t<T>;
    if constexpr (is_boolean_v<C>)
        return 0;
    else if constexpr (std::is_same_v<C, half>)
        return 23;
    else if constexpr (is_complex_v<C>)
        return sizeof(C) == 8 ? 14 : 15;
    else if constexpr (is_floating_v<C>)
        return sizeof(C) == 4 ? 11 : 12;
    else // int8 1, uint8 2, int16 3, ..., uint64 8
        return 2 * static_cast<int>(sizeof(C) == 1   ? 0
                                    : sizeof(C) == 2 ? 1
                                    : sizeof(C) == 4 ? 2
                                                     : 3) +
               (is_signed_integer_v<C> ? 1 : 2);
}
template <class A, class B>
using higher_rank_t = std::conditional_t<(numpy_rank<B>() > numpy_rank<A>()), B, A>;
template <class A, class... B> struct highest_rank { using type = A; };
template <class A, class B, class... C> struct highest_rank<A, B, C...> {
    using type = typename highest_rank<higher_rank_t<A, B>, C...>::type;
};
template <class A, class... B> struct fold_promote { using type = canonical_t<A>; };
template <class A, class B, class... C> struct fold_promote<A, B, C...> {
    using type = typename fold_promote<promote_t<A, B>, C...>::type;
};
// NumPy's promotion of several types at once (result_type, concatenate): each type promoted with
// the one of highest rank, M, and those results promoted in order. Pairwise promotion from the
// left differs where it meets a signed and an unsigned integer before a float: int8, uint8 and
// float16 give float16 (M = float16 takes each integer), not int16's float32.
template <class... T>
using promote_all_t =
    typename fold_promote<promote_t<typename highest_rank<canonical_t<T>...>::type, T>...>::type;

// An array of element type A with a weak complex scalar.
template <class A>
using weak_complex_t =
    std::conditional_t<is_complex_v<A>, A,
                       complex_of_t<std::conditional_t<is_floating_v<A>, A, double>>>;
} // namespace detail

// Type of an array of element type A combined with a weak C++ scalar of type W.
template <class A, class W>
using weak_promote_t = std::conditional_t<
    is_complex_v<detail::canonical_t<W>>, detail::weak_complex_t<detail::canonical_t<A>>,
    std::conditional_t<
        is_boolean_v<detail::canonical_t<W>>, detail::canonical_t<A>,
        std::conditional_t<
            is_integer_v<detail::canonical_t<W>>,
            std::conditional_t<is_boolean_v<A>, std::int64_t, detail::canonical_t<A>>,
            std::conditional_t<is_inexact_v<A>, detail::canonical_t<A>, double>>>>;

// The floating type math functions compute in: floats keep theirs (float16 included), small
// integers (and bool) use float, 32/64-bit integers use double (NumPy gives float16 for bool and
// 8-bit inputs; float keeps their values' precision and the results of existing code). Complex
// types keep theirs.
template <class T>
using float_of_t =
    std::conditional_t<is_inexact_v<T>, T,
                       std::conditional_t<(dtype_traits<T>::size <= 2), float, double>>;
// The result type of true division (`/`): integers divide as double, as NumPy does.
template <class T> using true_divide_t = std::conditional_t<is_inexact_v<T>, T, double>;
// bool where NumPy has no bool loop and takes the smallest integer one instead (power, fmod,
// conj of bool give int8); other types keep theirs.
template <class T> using bool_as_int8_t = std::conditional_t<is_boolean_v<T>, std::int8_t, T>;
// The result type of fmod: integers (bool as int8) keep the integer type, NumPy's truncated
// remainder; floating and complex types keep theirs.
template <class T> using fmod_result_t = std::conditional_t<is_inexact_v<T>, T, bool_as_int8_t<T>>;

} // namespace clarray
