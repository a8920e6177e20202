// NumPy 2 promotion of complex64 / complex128 with every dtype, written here as data (from
// np.result_type of two arrays, and of an array with a Python complex / bool / int / float
// scalar, under NumPy 2's rules), checked against clarray::promote_t, weak_promote_t and the
// types of expression nodes.
#include "support.hpp"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using D = ca::dtype;
constexpr D Bo = D::bool_, I1 = D::int8, U1 = D::uint8, I2 = D::int16, U2 = D::uint16,
            I4 = D::int32, U4 = D::uint32, I8 = D::int64, U8 = D::uint64, F4 = D::float32,
            F8 = D::float64, F2 = D::float16, C8 = D::complex64, C16 = D::complex128;

struct promo_row {
    D a, b, result;
};

// np.result_type(np.empty(1, A), np.empty(1, B)) for A complex. The rule: complex with X takes
// the complex type whose parts hold the promotion of its parts' type with X (bool: the complex
// type itself), so complex64 stays complex64 with (u)int8/16 and float32, and becomes
// complex128 with (u)int32/64 and float64 (float32 + int32 -> float64).
constexpr promo_row promo_table[] = {
    {C8, Bo, C8},   {C8, I1, C8},   {C8, U1, C8},   {C8, I2, C8},   {C8, U2, C8},
    {C8, I4, C16},  {C8, U4, C16},  {C8, I8, C16},  {C8, U8, C16},  {C8, F4, C8},
    {C8, F8, C16},  {C8, C8, C8},   {C8, C16, C16}, {C16, Bo, C16}, {C16, I1, C16},
    {C16, U1, C16}, {C16, I2, C16}, {C16, U2, C16}, {C16, I4, C16}, {C16, U4, C16},
    {C16, I8, C16}, {C16, U8, C16}, {C16, F4, C16}, {C16, F8, C16}, {C16, C16, C16},
    {C8, F2, C8},   {C16, F2, C16}, // float16: NumPy 2's complex64 / complex128
};

// Weak scalars (NEP 50): an array of dtype A with a Python complex (every kind below complex
// goes to the complex type of its float: float32 -> complex64, float64, integers and bool ->
// complex128, the default float's); complex arrays with bool / int / float scalars keep their
// type.
struct weak_row {
    D array, with_complex;
};
constexpr weak_row weak_complex_table[] = {
    {Bo, C16}, {I1, C16}, {U1, C16}, {I2, C16}, {U2, C16}, {I4, C16},  {U4, C16},
    {I8, C16}, {U8, C16}, {F4, C8},  {F8, C16}, {C8, C8},  {C16, C16}, {F2, C8},
};

using all_types = std::tuple<bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                             std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float,
                             double, std::complex<float>, std::complex<double>, ca::half>;
constexpr std::size_t n_types = std::tuple_size_v<all_types>;
template <std::size_t I> using type_at = std::tuple_element_t<I, all_types>;

// Our own ids and names (independent of clarray's table).
template <class T> constexpr D id_of() {
    if constexpr (std::is_same_v<T, bool>)
        return Bo;
    else if constexpr (std::is_same_v<T, std::int8_t>)
        return I1;
    else if constexpr (std::is_same_v<T, std::uint8_t>)
        return U1;
    else if constexpr (std::is_same_v<T, std::int16_t>)
        return I2;
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return U2;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return I4;
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return U4;
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return I8;
    else if constexpr (std::is_same_v<T, std::uint64_t>)
        return U8;
    else if constexpr (std::is_same_v<T, float>)
        return F4;
    else if constexpr (std::is_same_v<T, double>)
        return F8;
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return C8;
    else if constexpr (std::is_same_v<T, ca::half>)
        return F2;
    else {
        static_assert(std::is_same_v<T, std::complex<double>>);
        return C16;
    }
}
constexpr D ids[] = {Bo, I1, U1, I2, U2, I4, U4, I8, U8, F4, F8, C8, C16, F2};
const char* name_of(D d) {
    static const char* names[] = {"bool",    "int8",      "uint8",     "int16",  "uint16",
                                  "int32",   "uint32",    "int64",     "uint64", "float32",
                                  "float64", "complex64", "complex128", "float16"};
    for (std::size_t i = 0; i < n_types; ++i)
        if (ids[i] == d) return names[i];
    return "?";
}

bool is_complex_id(D d) {
    return d == C8 || d == C16;
}
// The table's entry for an unordered pair with at least one complex type.
bool table_result(D a, D b, D& out) {
    for (const promo_row& r : promo_table)
        if ((r.a == a && r.b == b) || (r.a == b && r.b == a)) {
            out = r.result;
            return true;
        }
    return false;
}

template <class T> D clarray_id() {
    return ca::dtype_traits<T>::id;
}

template <class A, class B> void check_pair() {
    if (!is_complex_id(id_of<A>()) && !is_complex_id(id_of<B>())) return; // test_promotion.cpp
    D want{};
    REQUIRE(table_result(id_of<A>(), id_of<B>(), want));
    const D got = clarray_id<ca::promote_t<A, B>>();
    INFO("promote_t<" << name_of(id_of<A>()) << ", " << name_of(id_of<B>())
                      << "> = " << name_of(got) << ", NumPy 2 gives " << name_of(want));
    CHECK(got == want);
    using AA = const ca::cl_array<A>&;
    using BB = const ca::cl_array<B>&;
    using plus_t = typename decltype(std::declval<AA>() + std::declval<BB>())::value_type;
    using div_t = typename decltype(std::declval<AA>() / std::declval<BB>())::value_type;
    using where_t =
        typename decltype(ca::where(std::declval<const ca::cl_array<bool>&>(), std::declval<AA>(),
                                    std::declval<BB>()))::value_type;
    using eq_t = typename decltype(std::declval<AA>() == std::declval<BB>())::value_type;
    CHECK(clarray_id<plus_t>() == want);
    CHECK(clarray_id<div_t>() == want);
    CHECK(clarray_id<where_t>() == want);
    CHECK(std::is_same_v<eq_t, bool>);
}
template <class A, std::size_t... J> void check_row(std::index_sequence<J...>) {
    (check_pair<A, type_at<J>>(), ...);
}
template <std::size_t... I> void check_all(std::index_sequence<I...>) {
    (check_row<type_at<I>>(std::make_index_sequence<n_types>{}), ...);
}

template <class A, class W>
using weak_node_t =
    typename decltype(std::declval<const ca::cl_array<A>&>() * std::declval<W>())::value_type;
template <class A, class W>
using weak_left_t =
    typename decltype(std::declval<W>() - std::declval<const ca::cl_array<A>&>())::value_type;

template <class A> void check_weak() {
    const weak_row* row = nullptr;
    for (const weak_row& r : weak_complex_table)
        if (r.array == id_of<A>()) row = &r;
    REQUIRE(row != nullptr);
    INFO("array " << name_of(id_of<A>()) << " with a weak complex scalar");
    CHECK(clarray_id<ca::weak_promote_t<A, std::complex<double>>>() == row->with_complex);
    CHECK(clarray_id<ca::weak_promote_t<A, std::complex<float>>>() == row->with_complex);
    CHECK(clarray_id<weak_node_t<A, std::complex<double>>>() == row->with_complex);
    CHECK(clarray_id<weak_left_t<A, std::complex<float>>>() == row->with_complex);
    if constexpr (ca::is_complex_v<A>) {
        // bool, int and float scalars never change a complex array's type.
        CHECK(clarray_id<ca::weak_promote_t<A, bool>>() == id_of<A>());
        CHECK(clarray_id<ca::weak_promote_t<A, int>>() == id_of<A>());
        CHECK(clarray_id<ca::weak_promote_t<A, long long>>() == id_of<A>());
        CHECK(clarray_id<ca::weak_promote_t<A, double>>() == id_of<A>());
        CHECK(clarray_id<weak_node_t<A, double>>() == id_of<A>());
        CHECK(clarray_id<weak_left_t<A, int>>() == id_of<A>());
    }
}
template <std::size_t... I> void check_weak_all(std::index_sequence<I...>) {
    (check_weak<type_at<I>>(), ...);
}

} // namespace

TEST_CASE("complex promotion: the NumPy 2 table for complex with every dtype", "[promotion]") {
    // Every pair with a complex member has a row (and no pair has two).
    std::size_t pairs = 0;
    for (std::size_t i = 0; i < n_types; ++i)
        for (std::size_t j = i; j < n_types; ++j) {
            const D a = ids[i], b = ids[j];
            if (!is_complex_id(a) && !is_complex_id(b)) continue;
            ++pairs;
            D r{};
            INFO(name_of(a) << ", " << name_of(b));
            CHECK(table_result(a, b, r));
        }
    CHECK(pairs == sizeof(promo_table) / sizeof(promo_table[0]));
    check_all(std::make_index_sequence<n_types>{});
}

TEST_CASE("complex promotion: weak complex scalars and complex arrays with weak scalars",
          "[promotion]") {
    CHECK(sizeof(weak_complex_table) / sizeof(weak_complex_table[0]) == n_types);
    check_weak_all(std::make_index_sequence<n_types>{});
    // Results of mixed kinds on the math functions: float_of / true division keep complex.
    CHECK(clarray_id<ca::float_of_t<std::complex<float>>>() == C8);
    CHECK(clarray_id<ca::true_divide_t<std::complex<double>>>() == C16);
}
