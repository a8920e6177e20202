// NumPy 2 type promotion: the table of np.result_type for two arrays, written here as data from
// NumPy's documented rules (not derived from clarray), checked against clarray::promote_t and the
// expression nodes; weak C++ scalars (NEP 50); true division; narrow integer wraparound. Results
// computed on the device are compared with host references computed in the expected type.
#include "support.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "xtensor_headers.hpp"

namespace {

using D = ca::dtype;
constexpr D Bo = D::bool_, I1 = D::int8, U1 = D::uint8, I2 = D::int16, U2 = D::uint16,
            I4 = D::int32, U4 = D::uint32, I8 = D::int64, U8 = D::uint64, F2 = D::float16,
            F4 = D::float32, F8 = D::float64;

struct promo_row {
    D a, b, result;
};

// np.result_type(np.empty(1, A), np.empty(1, B)) in NumPy 2, one row per unordered pair. The rules
// it follows: bool is below every other type; two kinds of the same signedness take the larger;
// signed with unsigned takes the smallest signed type holding both (int16 for int8/uint8, ...) and
// uint64 with any signed integer has none, so float64; an integer with a float takes the smallest
// float holding the integer exactly, but at least the float's own size (float16 for 8-bit
// integers, float32 for 16-bit ones, else float64); two floats take the larger.
constexpr promo_row promo_table[] = {
    // bool
    {Bo, Bo, Bo}, {Bo, I1, I1}, {Bo, U1, U1}, {Bo, I2, I2}, {Bo, U2, U2}, {Bo, I4, I4},
    {Bo, U4, U4}, {Bo, I8, I8}, {Bo, U8, U8}, {Bo, F4, F4}, {Bo, F8, F8},
    // int8
    {I1, I1, I1}, {I1, U1, I2}, {I1, I2, I2}, {I1, U2, I4}, {I1, I4, I4}, {I1, U4, I8},
    {I1, I8, I8}, {I1, U8, F8}, {I1, F4, F4}, {I1, F8, F8},
    // uint8
    {U1, U1, U1}, {U1, I2, I2}, {U1, U2, U2}, {U1, I4, I4}, {U1, U4, U4}, {U1, I8, I8},
    {U1, U8, U8}, {U1, F4, F4}, {U1, F8, F8},
    // int16
    {I2, I2, I2}, {I2, U2, I4}, {I2, I4, I4}, {I2, U4, I8}, {I2, I8, I8}, {I2, U8, F8},
    {I2, F4, F4}, {I2, F8, F8},
    // uint16
    {U2, U2, U2}, {U2, I4, I4}, {U2, U4, U4}, {U2, I8, I8}, {U2, U8, U8}, {U2, F4, F4},
    {U2, F8, F8},
    // int32
    {I4, I4, I4}, {I4, U4, I8}, {I4, I8, I8}, {I4, U8, F8}, {I4, F4, F8}, {I4, F8, F8},
    // uint32
    {U4, U4, U4}, {U4, I8, I8}, {U4, U8, U8}, {U4, F4, F8}, {U4, F8, F8},
    // int64
    {I8, I8, I8}, {I8, U8, F8}, {I8, F4, F8}, {I8, F8, F8},
    // uint64
    {U8, U8, U8}, {U8, F4, F8}, {U8, F8, F8},
    // float32, float64
    {F4, F4, F4}, {F4, F8, F8},
    {F8, F8, F8},
    // float16 with every type (np.result_type of NumPy 2)
    {F2, Bo, F2}, {F2, I1, F2}, {F2, U1, F2}, {F2, I2, F4}, {F2, U2, F4}, {F2, I4, F8},
    {F2, U4, F8}, {F2, I8, F8}, {F2, U8, F8}, {F2, F2, F2}, {F2, F4, F4}, {F2, F8, F8},
};
constexpr std::size_t promo_rows = sizeof(promo_table) / sizeof(promo_table[0]);

constexpr bool table_has(D a, D b) {
    for (const promo_row& r : promo_table)
        if ((r.a == a && r.b == b) || (r.a == b && r.b == a)) return true;
    return false;
}
constexpr D table_result(D a, D b) {
    for (const promo_row& r : promo_table)
        if ((r.a == a && r.b == b) || (r.a == b && r.b == a)) return r.result;
    return D::bool_; // unreachable for a complete table (checked by a test below)
}

// Weak C++ scalars (NEP 50): an array of dtype A with a Python bool / int / float.
struct weak_row {
    D array, with_bool, with_int, with_float;
};
// A bool scalar never changes the array's type; an int scalar keeps any numeric array's type and
// makes a bool array the default integer (int64); a float scalar keeps a float array's type and
// makes a bool/integer array the default float (float64).
constexpr weak_row weak_table[] = {
    {Bo, Bo, I8, F8}, {I1, I1, I1, F8}, {U1, U1, U1, F8}, {I2, I2, I2, F8},
    {U2, U2, U2, F8}, {I4, I4, I4, F8}, {U4, U4, U4, F8}, {I8, I8, I8, F8},
    {U8, U8, U8, F8}, {F4, F4, F4, F4}, {F8, F8, F8, F8}, {F2, F2, F2, F2},
};

using all_types = std::tuple<bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                             std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, ca::half,
                             float, double>;
constexpr std::size_t n_types = std::tuple_size_v<all_types>;
template <std::size_t I> using type_at = std::tuple_element_t<I, all_types>;

template <D d> struct type_of;
template <> struct type_of<Bo> { using type = bool; };
template <> struct type_of<I1> { using type = std::int8_t; };
template <> struct type_of<U1> { using type = std::uint8_t; };
template <> struct type_of<I2> { using type = std::int16_t; };
template <> struct type_of<U2> { using type = std::uint16_t; };
template <> struct type_of<I4> { using type = std::int32_t; };
template <> struct type_of<U4> { using type = std::uint32_t; };
template <> struct type_of<I8> { using type = std::int64_t; };
template <> struct type_of<U8> { using type = std::uint64_t; };
template <> struct type_of<F2> { using type = ca::half; };
template <> struct type_of<F4> { using type = float; };
template <> struct type_of<F8> { using type = double; };

// Our own dtype ids and names (independent of clarray's).
template <class T> constexpr D id_of() {
    if constexpr (std::is_same_v<T, bool>) return Bo;
    else if constexpr (std::is_same_v<T, std::int8_t>) return I1;
    else if constexpr (std::is_same_v<T, std::uint8_t>) return U1;
    else if constexpr (std::is_same_v<T, std::int16_t>) return I2;
    else if constexpr (std::is_same_v<T, std::uint16_t>) return U2;
    else if constexpr (std::is_same_v<T, std::int32_t>) return I4;
    else if constexpr (std::is_same_v<T, std::uint32_t>) return U4;
    else if constexpr (std::is_same_v<T, std::int64_t>) return I8;
    else if constexpr (std::is_same_v<T, std::uint64_t>) return U8;
    else if constexpr (std::is_same_v<T, ca::half>) return F2;
    else if constexpr (std::is_same_v<T, float>) return F4;
    else {
        static_assert(std::is_same_v<T, double>);
        return F8;
    }
}
const char* name_of(D d) {
    static const char* names[] = {"bool",   "int8",   "uint8",   "int16",   "uint16",  "int32",
                                  "uint32", "int64",  "uint64",  "float16", "float32", "float64"};
    return names[static_cast<int>(d)];
}

template <class A, class B> using expected_t = typename type_of<table_result(id_of<A>(), id_of<B>())>::type;

// The id clarray gives a C++ type (through its dtype_traits, which canonicalizes the spelling).
template <class T> D clarray_id() { return ca::dtype_traits<T>::id; }

// ---- compile-time type table checks, as run-time CHECKs so each failure is reported ----
template <class A, class B> void check_promote_pair() {
    const D got = clarray_id<ca::promote_t<A, B>>();
    const D want = table_result(id_of<A>(), id_of<B>());
    INFO("promote_t<" << name_of(id_of<A>()) << ", " << name_of(id_of<B>()) << "> = "
                      << name_of(got) << ", NumPy 2 gives " << name_of(want));
    CHECK(got == want);

    // The expression nodes carry the same type (array + array, array * array, ...).
    using AA = const ca::cl_array<A>&;
    using BB = const ca::cl_array<B>&;
    using plus_t = typename decltype(std::declval<AA>() + std::declval<BB>())::value_type;
    using mul_t = typename decltype(std::declval<AA>() * std::declval<BB>())::value_type;
    using max_t = typename decltype(ca::maximum(std::declval<AA>(), std::declval<BB>()))::value_type;
    using where_t = typename decltype(ca::where(std::declval<const ca::cl_array<bool>&>(),
                                                std::declval<AA>(), std::declval<BB>()))::value_type;
    CHECK(clarray_id<plus_t>() == want);
    CHECK(clarray_id<mul_t>() == want);
    CHECK(clarray_id<max_t>() == want);
    CHECK(clarray_id<where_t>() == want);
    using cmp_t = typename decltype(std::declval<AA>() < std::declval<BB>())::value_type;
    CHECK(std::is_same_v<cmp_t, bool>);
}
template <class A, std::size_t... J> void check_promote_row(std::index_sequence<J...>) {
    (check_promote_pair<A, type_at<J>>(), ...);
}
template <std::size_t... I> void check_promote_all(std::index_sequence<I...>) {
    (check_promote_row<type_at<I>>(std::make_index_sequence<n_types>{}), ...);
}

template <class A, class W> using weak_node_t =
    typename decltype(std::declval<const ca::cl_array<A>&>() + std::declval<W>())::value_type;
template <class A, class W> using weak_node_left_t =
    typename decltype(std::declval<W>() * std::declval<const ca::cl_array<A>&>())::value_type;

template <class A> void check_weak_row() {
    const weak_row* row = nullptr;
    for (const weak_row& r : weak_table)
        if (r.array == id_of<A>()) row = &r;
    REQUIRE(row != nullptr);
    INFO("array " << name_of(id_of<A>()) << " with a weak scalar");
    CHECK(clarray_id<ca::weak_promote_t<A, bool>>() == row->with_bool);
    CHECK(clarray_id<ca::weak_promote_t<A, int>>() == row->with_int);
    CHECK(clarray_id<ca::weak_promote_t<A, double>>() == row->with_float);
    // Every C++ spelling of an integer / floating scalar is weak, on either side.
    CHECK(clarray_id<weak_node_t<A, bool>>() == row->with_bool);
    CHECK(clarray_id<weak_node_left_t<A, bool>>() == row->with_bool);
    CHECK(clarray_id<weak_node_t<A, int>>() == row->with_int);
    CHECK(clarray_id<weak_node_t<A, long long>>() == row->with_int);
    CHECK(clarray_id<weak_node_t<A, unsigned>>() == row->with_int);
    CHECK(clarray_id<weak_node_t<A, short>>() == row->with_int);
    CHECK(clarray_id<weak_node_left_t<A, int>>() == row->with_int);
    CHECK(clarray_id<weak_node_t<A, double>>() == row->with_float);
    CHECK(clarray_id<weak_node_t<A, float>>() == row->with_float);
    CHECK(clarray_id<weak_node_left_t<A, double>>() == row->with_float);
}
template <std::size_t... I> void check_weak_all(std::index_sequence<I...>) {
    (check_weak_row<type_at<I>>(), ...);
}

// ---- host data and host references ----
template <class T>
constexpr bool is_float = std::is_floating_point_v<T> || std::is_same_v<T, ca::half>;
// Values covering the whole range of T (including its extremes, 0 and -1), deterministic.
template <class T> xt::xarray<T> full_range_values(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    xt::xarray<T> a = xt::xarray<T>::from_shape({n});
    for (std::size_t i = 0; i < n; ++i) {
        T v;
        if constexpr (std::is_same_v<T, bool>) v = (rng() & 1) != 0;
        else if constexpr (is_float<T>)
            v = static_cast<T>(std::uniform_real_distribution<double>(-1e4, 1e4)(rng));
        else v = static_cast<T>(rng()); // modular: any bit pattern of T
        a(i) = v;
    }
    if constexpr (!std::is_same_v<T, bool> && !is_float<T>) {
        a(0) = std::numeric_limits<T>::min();
        a(1) = std::numeric_limits<T>::max();
        a(2) = 0;
        a(3) = static_cast<T>(-1);
        a(4) = 1;
    } else if constexpr (is_float<T>) {
        a(0) = T(0.1);
        a(1) = T(-0.5);
        a(2) = T(0);
        a(3) = T(16777217.0);
    }
    return a;
}

// x + y computed in R the way NumPy does for that result dtype (integers wrap; bool is "or").
template <class R, class X, class Y> R host_add(X x, Y y) {
    if constexpr (std::is_same_v<R, bool>) {
        return static_cast<bool>(x) || static_cast<bool>(y);
    } else if constexpr (std::is_integral_v<R>) {
        using U = std::make_unsigned_t<R>;
        return static_cast<R>(static_cast<U>(static_cast<U>(static_cast<R>(x)) +
                                             static_cast<U>(static_cast<R>(y))));
    } else {
        return static_cast<R>(static_cast<R>(x) + static_cast<R>(y));
    }
}
// Wrapping integer arithmetic in T (via the unsigned type of the same width).
template <class T> T wrap_add(T x, T y) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) + static_cast<U>(y)));
}
template <class T> T wrap_sub(T x, T y) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) - static_cast<U>(y)));
}
template <class T> T wrap_mul(T x, T y) {
    using U = std::make_unsigned_t<T>;
    // unsigned short * unsigned short promotes to int and may overflow: go through uint64.
    return static_cast<T>(static_cast<U>(static_cast<std::uint64_t>(static_cast<U>(x)) *
                                         static_cast<std::uint64_t>(static_cast<U>(y))));
}

template <class T, class S = ca::svm_coarse> ca::cl_array<T, S> dev(const xt::xarray<T>& h) {
    return ca::to_device<S>(test::q(), h);
}
template <class T> bool fp64_or_warn() {
    if (!test::ctx().device().has_fp64()) {
        WARN("skipped: device lacks fp64");
        return false;
    }
    return true;
}

// One kernel per row A: out_j = a + b_j for every B_j, each output of the table's type.
template <class S, class A, std::size_t... J> void device_row(std::index_sequence<J...>) {
    constexpr std::size_t n = 96;
    const xt::xarray<A> ha = full_range_values<A>(n, 100 + static_cast<unsigned>(id_of<A>()));
    const std::tuple<xt::xarray<type_at<J>>...> hb{
        full_range_values<type_at<J>>(n, 200 + static_cast<unsigned>(J))...};
    auto a = ca::to_device<S>(test::q(), ha);
    std::tuple<ca::cl_array<type_at<J>, S>...> b{ca::to_device<S>(test::q(), std::get<J>(hb))...};
    std::tuple<ca::cl_array<expected_t<A, type_at<J>>, S>...> out{
        ca::empty<expected_t<A, type_at<J>>, S>(test::q(), {n})...};
    std::apply([](auto&... o) { return ca::tie(o...); }, out) = std::make_tuple((a + std::get<J>(b))...);
    auto check_one = [&](auto j) {
        constexpr std::size_t jj = decltype(j)::value;
        using B = type_at<jj>;
        using R = expected_t<A, B>;
        xt::xarray<R> want = xt::xarray<R>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) want(i) = host_add<R>(ha(i), std::get<jj>(hb)(i));
        xt::xarray<R> got = std::get<jj>(out).get();
        INFO(name_of(id_of<A>()) << " array + " << name_of(id_of<B>()) << " array, computed as "
                                 << name_of(id_of<R>()));
        CHECK((got == want));
    };
    (check_one(std::integral_constant<std::size_t, J>{}), ...);
}
template <std::size_t... I> void device_all(std::index_sequence<I...>) {
    auto row = [](auto i) {
        constexpr std::size_t ii = decltype(i)::value;
        using A = type_at<ii>;
        // Cycle the storage policies over the rows; fall back to buffer where one is missing.
        const auto caps = test::ctx().svm_caps();
        if constexpr (ii % 3 == 0) {
            if (caps.coarse) return device_row<ca::svm_coarse, A>(std::make_index_sequence<n_types>{});
        } else if constexpr (ii % 3 == 1) {
            if (caps.fine) return device_row<ca::svm_fine, A>(std::make_index_sequence<n_types>{});
        }
        device_row<ca::buffer, A>(std::make_index_sequence<n_types>{});
    };
    (row(std::integral_constant<std::size_t, I>{}), ...);
}

} // namespace

TEST_CASE("promotion table is complete and symmetric", "[promotion]") {
    CHECK(promo_rows == 78); // 12 * 13 / 2 unordered pairs
    for (std::size_t i = 0; i < n_types; ++i)
        for (std::size_t j = 0; j < n_types; ++j) {
            const D a = static_cast<D>(i), b = static_cast<D>(j);
            int hits = 0;
            for (const promo_row& r : promo_table)
                hits += (r.a == a && r.b == b) || (r.a == b && r.b == a);
            INFO(name_of(a) << ", " << name_of(b));
            CHECK(hits == 1); // each unordered pair exactly once
            CHECK(table_has(a, b));
        }
}

TEST_CASE("promote_t follows NumPy 2 result_type for all 144 dtype pairs", "[promotion]") {
    check_promote_all(std::make_index_sequence<n_types>{});
    // Other C++ spellings of the same dtypes promote as their canonical types.
    CHECK(clarray_id<ca::promote_t<long long, unsigned int>>() == I8);
    CHECK(clarray_id<ca::promote_t<long, unsigned long long>>() == F8);
    CHECK(clarray_id<ca::promote_t<unsigned long, unsigned long long>>() == U8);
    CHECK(clarray_id<ca::promote_t<signed char, unsigned char>>() == I2);
    CHECK(clarray_id<ca::promote_t<short, float>>() == F4);
    CHECK(clarray_id<ca::promote_t<int, float>>() == F8);
}

TEST_CASE("array + array is computed in the promoted type on the device (all pairs)",
          "[promotion]") {
    if (!fp64_or_warn<double>()) return;
    device_all(std::make_index_sequence<n_types>{});
}

TEST_CASE("weak scalar promotion types (NEP 50)", "[promotion]") {
    check_weak_all(std::make_index_sequence<n_types>{});
    // The brief's examples, spelled out.
    using f32 = ca::cl_array<float>;
    using i8 = ca::cl_array<std::int8_t>;
    using i32 = ca::cl_array<std::int32_t>;
    using b8 = ca::cl_array<bool>;
    using u8 = ca::cl_array<std::uint8_t>;
    CHECK(std::is_same_v<decltype(std::declval<const f32&>() * 2.0)::value_type, float>);
    CHECK(std::is_same_v<decltype(std::declval<const i8&>() + 1)::value_type, std::int8_t>);
    CHECK(std::is_same_v<decltype(std::declval<const i32&>() * 2.0)::value_type, double>);
    CHECK(std::is_same_v<decltype(std::declval<const b8&>() + 1)::value_type, std::int64_t>);
    CHECK(std::is_same_v<decltype(std::declval<const u8&>() + true)::value_type, std::uint8_t>);
}

TEST_CASE("weak scalars evaluate in the array's type on the device", "[promotion]") {
    if (!test::storage_available<ca::svm_coarse>()) return; // eval() and dev() default to it
    const std::size_t n = 1000;
    SECTION("float32 array * 2.0 and * 0.1 stay float32") {
        xt::xarray<float> h = test::random_array<float>({n}, 11);
        auto a = dev<float, ca::svm_coarse>(h);
        auto r = ca::eval(a * 0.1);
        static_assert(std::is_same_v<decltype(r)::value_type, float>);
        xt::xarray<float> want = h * static_cast<float>(0.1); // the scalar becomes float32
        CHECK((r.get() == want));
        auto r2 = ca::eval(2.0 * a);
        static_assert(std::is_same_v<decltype(r2)::value_type, float>);
        CHECK((r2.get() == xt::xarray<float>(2.0f * h)));
    }
    SECTION("int8 array + 1 stays int8 and wraps") {
        if (!test::storage_available<ca::svm_fine>()) return;
        xt::xarray<std::int8_t> h = full_range_values<std::int8_t>(n, 12);
        auto a = dev<std::int8_t, ca::svm_fine>(h);
        auto r = ca::eval(a + 1);
        static_assert(std::is_same_v<decltype(r)::value_type, std::int8_t>);
        xt::xarray<std::int8_t> want = xt::xarray<std::int8_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) want(i) = wrap_add<std::int8_t>(h(i), 1);
        CHECK((r.get() == want));
        CHECK(want(1) == std::numeric_limits<std::int8_t>::min()); // 127 + 1 wrapped
        // The scalar on the left, and the extremes that still fit.
        auto r2 = ca::eval(1 - a);
        static_assert(std::is_same_v<decltype(r2)::value_type, std::int8_t>);
        for (std::size_t i = 0; i < n; ++i) want(i) = wrap_sub<std::int8_t>(1, h(i));
        CHECK((r2.get() == want));
        auto r3 = ca::eval(a + (-128));
        for (std::size_t i = 0; i < n; ++i) want(i) = wrap_add<std::int8_t>(h(i), -128);
        CHECK((r3.get() == want));
        auto r4 = ca::eval(a * 127);
        for (std::size_t i = 0; i < n; ++i) want(i) = wrap_mul<std::int8_t>(h(i), 127);
        CHECK((r4.get() == want));
    }
    SECTION("int32 array * 2.0 is float64") {
        if (!fp64_or_warn<double>()) return;
        xt::xarray<std::int32_t> h = full_range_values<std::int32_t>(n, 13);
        auto a = dev<std::int32_t, ca::buffer>(h);
        auto r = ca::eval(a * 2.0);
        static_assert(std::is_same_v<decltype(r)::value_type, double>);
        xt::xarray<double> want = xt::cast<double>(h) * 2.0;
        CHECK((r.get() == want));
        // 0.1 is kept as a double: a float32 computation would differ.
        auto r2 = ca::eval(a * 0.1);
        xt::xarray<double> want2 = xt::cast<double>(h) * 0.1;
        CHECK((r2.get() == want2));
    }
    SECTION("bool array + 1 is int64") {
        xt::xarray<bool> h = test::random_array<bool>({n}, 14);
        auto a = dev<bool, ca::svm_coarse>(h);
        auto r = ca::eval(a + 1);
        static_assert(std::is_same_v<decltype(r)::value_type, std::int64_t>);
        xt::xarray<std::int64_t> want = xt::cast<std::int64_t>(h) + std::int64_t(1);
        CHECK((r.get() == want));
        // A value that only fits int64.
        auto r2 = ca::eval(a + 5000000000LL);
        xt::xarray<std::int64_t> want2 = xt::cast<std::int64_t>(h) + std::int64_t(5000000000LL);
        CHECK((r2.get() == want2));
    }
    SECTION("uint8 array + true stays uint8") {
        xt::xarray<std::uint8_t> h = full_range_values<std::uint8_t>(n, 15);
        auto a = dev<std::uint8_t, ca::buffer>(h);
        auto r = ca::eval(a + true);
        static_assert(std::is_same_v<decltype(r)::value_type, std::uint8_t>);
        xt::xarray<std::uint8_t> want = xt::xarray<std::uint8_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i)
            want(i) = static_cast<std::uint8_t>(h(i) + static_cast<std::uint8_t>(true));
        CHECK((r.get() == want));
        // uint8 * 2 wraps in uint8.
        auto r2 = ca::eval(a * 2);
        for (std::size_t i = 0; i < n; ++i) want(i) = wrap_mul<std::uint8_t>(h(i), 2);
        CHECK((r2.get() == want));
        auto r3 = ca::eval(a + 255);
        for (std::size_t i = 0; i < n; ++i) want(i) = wrap_add<std::uint8_t>(h(i), 255);
        CHECK((r3.get() == want));
    }
    SECTION("bool array with bool and float scalars") {
        if (!fp64_or_warn<double>()) return;
        xt::xarray<bool> h = test::random_array<bool>({n}, 16);
        auto a = dev<bool, ca::svm_coarse>(h);
        auto r = ca::eval(a + true);
        static_assert(std::is_same_v<decltype(r)::value_type, bool>);
        xt::xarray<bool> want = xt::xarray<bool>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) want(i) = h(i) || true;
        CHECK((r.get() == want));
        auto r2 = ca::eval(a * 1.5);
        static_assert(std::is_same_v<decltype(r2)::value_type, double>);
        CHECK((r2.get() == xt::xarray<double>(xt::cast<double>(h) * 1.5)));
    }
    SECTION("float64 array with a float scalar stays float64; int16 with a float is float64") {
        if (!fp64_or_warn<double>()) return;
        xt::xarray<double> h = test::random_array<double>({n}, 17);
        auto a = dev<double, ca::svm_coarse>(h);
        auto r = ca::eval(a + 0.1f);
        static_assert(std::is_same_v<decltype(r)::value_type, double>);
        CHECK((r.get() == xt::xarray<double>(h + static_cast<double>(0.1f))));
        xt::xarray<std::int16_t> hi = full_range_values<std::int16_t>(n, 18);
        auto ai = dev<std::int16_t, ca::svm_coarse>(hi);
        auto r2 = ca::eval(ai + 0.1);
        static_assert(std::is_same_v<decltype(r2)::value_type, double>);
        CHECK((r2.get() == xt::xarray<double>(xt::cast<double>(hi) + 0.1)));
    }
}

TEST_CASE("out-of-range weak integer scalars throw dtype_error (NumPy 2 OverflowError)",
          "[promotion]") {
    if (!test::storage_available<ca::svm_coarse>()) return;
    xt::xarray<std::int8_t> h8 = test::random_array<std::int8_t>({16}, 21);
    xt::xarray<std::uint8_t> hu8 = test::random_array<std::uint8_t>({16}, 22);
    xt::xarray<std::int16_t> h16 = test::random_array<std::int16_t>({16}, 23);
    xt::xarray<std::uint64_t> hu64 = test::random_array<std::uint64_t>({16}, 24);
    xt::xarray<std::int64_t> h64 = test::random_array<std::int64_t>({16}, 25);
    auto i8 = dev(h8);
    auto u8 = dev(hu8);
    auto i16 = dev(h16);
    auto u64 = dev(hu64);
    auto i64 = dev(h64);
    CHECK_THROWS_AS(i8 + 1000, ca::dtype_error);
    CHECK_THROWS_AS(i8 + 128, ca::dtype_error);
    CHECK_THROWS_AS(i8 - (-129), ca::dtype_error);
    CHECK_THROWS_AS(1000 * i8, ca::dtype_error);
    CHECK_THROWS_AS(i8 + 200u, ca::dtype_error);
    CHECK_THROWS_AS(u8 + (-1), ca::dtype_error);
    CHECK_THROWS_AS(-1 + u8, ca::dtype_error);
    CHECK_THROWS_AS(u8 + 256, ca::dtype_error);
    CHECK_THROWS_AS(i16 + 40000, ca::dtype_error);
    CHECK_THROWS_AS(u64 + (-1), ca::dtype_error);
    CHECK_THROWS_AS(u64 + std::numeric_limits<std::int64_t>::min(), ca::dtype_error);
    CHECK_THROWS_AS(i64 + std::numeric_limits<std::uint64_t>::max(), ca::dtype_error);
    CHECK_THROWS_AS(ca::maximum(i8, 1000), ca::dtype_error);
    CHECK_THROWS_AS(ca::where(i8 > 0, i8, 300), ca::dtype_error);
    // The extremes of each type are accepted.
    CHECK_NOTHROW(i8 + 127);
    CHECK_NOTHROW(i8 + (-128));
    CHECK_NOTHROW(u8 + 255);
    CHECK_NOTHROW(u8 + 0);
    CHECK_NOTHROW(i16 + (-32768));
    CHECK_NOTHROW(u64 + std::numeric_limits<std::uint64_t>::max());
    CHECK_NOTHROW(i64 + std::numeric_limits<std::int64_t>::min());
    CHECK_NOTHROW(i64 + static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
    // bool and float scalars never overflow an integer array's type (they have their own kinds).
    CHECK_NOTHROW(u8 + true);
    CHECK_NOTHROW(i8 * 1000.0);
    // Compound assignment checks the scalar too.
    CHECK_THROWS_AS(i8 += 1000, ca::dtype_error);
    CHECK_THROWS_AS(u8 -= -1, ca::dtype_error);
}

TEST_CASE("true division of integers gives float64", "[promotion]") {
    if (!test::storage_available<ca::svm_coarse>()) return; // eval() defaults to it
    using i32 = ca::cl_array<std::int32_t>;
    using i8 = ca::cl_array<std::int8_t>;
    using u16 = ca::cl_array<std::uint16_t>;
    using f32 = ca::cl_array<float>;
    using i16 = ca::cl_array<std::int16_t>;
    CHECK(std::is_same_v<decltype(std::declval<const i32&>() / std::declval<const i32&>())::value_type, double>);
    CHECK(std::is_same_v<decltype(std::declval<const i8&>() / std::declval<const i8&>())::value_type, double>);
    CHECK(std::is_same_v<decltype(std::declval<const u16&>() / 3)::value_type, double>);
    CHECK(std::is_same_v<decltype(std::declval<const f32&>() / std::declval<const i16&>())::value_type, float>);
    CHECK(std::is_same_v<decltype(std::declval<const f32&>() / 3)::value_type, float>);
    if (!fp64_or_warn<double>()) return;

    const std::size_t n = 1000;
    xt::xarray<std::int32_t> ha = full_range_values<std::int32_t>(n, 31);
    xt::xarray<std::int32_t> hb = full_range_values<std::int32_t>(n, 32);
    hb(7) = 0; // x / 0 -> +-inf (0 / 0 -> nan), as NumPy
    ha(8) = 0;
    hb(8) = 0;
    if (!test::storage_available<ca::svm_fine>()) return;
    auto a = dev<std::int32_t, ca::svm_fine>(ha);
    auto b = dev<std::int32_t, ca::svm_fine>(hb);
    auto r = ca::eval(a / b);
    xt::xarray<double> want = xt::cast<double>(ha) / xt::cast<double>(hb);
    xt::xarray<double> got = r.get();
    CHECK((xt::isnan(got) == xt::isnan(want)));
    CHECK((xt::where(xt::isnan(want), 0.0, got) == xt::where(xt::isnan(want), 0.0, want)));

    xt::xarray<std::int8_t> h8 = full_range_values<std::int8_t>(n, 33);
    auto a8 = dev<std::int8_t, ca::buffer>(h8);
    auto r8 = ca::eval(a8 / 3);
    static_assert(std::is_same_v<decltype(r8)::value_type, double>);
    CHECK((r8.get() == xt::xarray<double>(xt::cast<double>(h8) / 3.0)));
}

TEST_CASE("narrow integer arithmetic wraps as in NumPy", "[promotion]") {
    if (!test::storage_available<ca::svm_coarse>()) return; // eval() defaults to it
    const std::size_t n = 1000;
    SECTION("int8: 100 + 100 == -56 and random values") {
        xt::xarray<std::int8_t> ha = full_range_values<std::int8_t>(n, 41);
        xt::xarray<std::int8_t> hb = full_range_values<std::int8_t>(n, 42);
        ha(10) = 100;
        hb(10) = 100;
        auto a = dev<std::int8_t, ca::svm_coarse>(ha);
        auto b = dev<std::int8_t, ca::svm_coarse>(hb);
        auto s = ca::eval(a + b);
        auto d = ca::eval(a - b);
        auto m = ca::eval(a * b);
        static_assert(std::is_same_v<decltype(s)::value_type, std::int8_t>);
        xt::xarray<std::int8_t> ws = xt::xarray<std::int8_t>::from_shape({n}), wd = ws, wm = ws;
        for (std::size_t i = 0; i < n; ++i) {
            ws(i) = static_cast<std::int8_t>(static_cast<std::int8_t>(ha(i)) + static_cast<std::int8_t>(hb(i)));
            wd(i) = static_cast<std::int8_t>(ha(i) - hb(i));
            wm(i) = static_cast<std::int8_t>(ha(i) * hb(i));
        }
        CHECK(ws(10) == std::int8_t(-56));
        xt::xarray<std::int8_t> gs = s.get();
        CHECK(gs(10) == ws(10));
        CHECK((gs == ws));
        CHECK((d.get() == wd));
        CHECK((m.get() == wm));
        // Compound assignment stays in int8 and wraps too.
        a += 100;
        xt::xarray<std::int8_t> wa = xt::xarray<std::int8_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) wa(i) = wrap_add<std::int8_t>(ha(i), 100);
        CHECK((a.get() == wa));
    }
    SECTION("uint8, int16, uint16") {
        xt::xarray<std::uint8_t> hu = full_range_values<std::uint8_t>(n, 43);
        xt::xarray<std::uint8_t> hv = full_range_values<std::uint8_t>(n, 44);
        auto u = dev<std::uint8_t, ca::buffer>(hu);
        auto v = dev<std::uint8_t, ca::buffer>(hv);
        xt::xarray<std::uint8_t> w8 = xt::xarray<std::uint8_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) w8(i) = wrap_sub<std::uint8_t>(hu(i), hv(i));
        CHECK((ca::eval(u - v).get() == w8));
        for (std::size_t i = 0; i < n; ++i) w8(i) = wrap_mul<std::uint8_t>(hu(i), hv(i));
        CHECK((ca::eval(u * v).get() == w8));

        xt::xarray<std::int16_t> hs = full_range_values<std::int16_t>(n, 45);
        xt::xarray<std::int16_t> ht = full_range_values<std::int16_t>(n, 46);
        auto s = dev<std::int16_t, ca::buffer>(hs);
        auto t = dev<std::int16_t, ca::buffer>(ht);
        xt::xarray<std::int16_t> w16 = xt::xarray<std::int16_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) w16(i) = wrap_mul<std::int16_t>(hs(i), ht(i));
        CHECK((ca::eval(s * t).get() == w16));
        for (std::size_t i = 0; i < n; ++i) w16(i) = wrap_add<std::int16_t>(hs(i), ht(i));
        CHECK((ca::eval(s + t).get() == w16));

        xt::xarray<std::uint16_t> hp = full_range_values<std::uint16_t>(n, 47);
        xt::xarray<std::uint16_t> hq = full_range_values<std::uint16_t>(n, 48);
        auto p = dev<std::uint16_t, ca::buffer>(hp);
        auto qq = dev<std::uint16_t, ca::buffer>(hq);
        xt::xarray<std::uint16_t> wu16 = xt::xarray<std::uint16_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) wu16(i) = wrap_mul<std::uint16_t>(hp(i), hq(i));
        CHECK((ca::eval(p * qq).get() == wu16)); // 65535 * 65535 == 1
        CHECK(wrap_mul<std::uint16_t>(65535, 65535) == 1);
    }
    SECTION("int32, uint32, int64, uint64 wrap at their width") {
        xt::xarray<std::int32_t> ha = full_range_values<std::int32_t>(n, 51);
        xt::xarray<std::int32_t> hb = full_range_values<std::int32_t>(n, 52);
        auto a = dev<std::int32_t, ca::svm_coarse>(ha);
        auto b = dev<std::int32_t, ca::svm_coarse>(hb);
        xt::xarray<std::int32_t> w = xt::xarray<std::int32_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) w(i) = wrap_add(ha(i), hb(i));
        CHECK((ca::eval(a + b).get() == w));
        for (std::size_t i = 0; i < n; ++i) w(i) = wrap_mul(ha(i), hb(i));
        CHECK((ca::eval(a * b).get() == w));

        xt::xarray<std::uint32_t> hu = full_range_values<std::uint32_t>(n, 53);
        auto u = dev<std::uint32_t, ca::svm_coarse>(hu);
        xt::xarray<std::uint32_t> wu = xt::xarray<std::uint32_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) wu(i) = wrap_sub<std::uint32_t>(0u, hu(i));
        CHECK((ca::eval(0 - u).get() == wu));

        xt::xarray<std::int64_t> hl = full_range_values<std::int64_t>(n, 54);
        xt::xarray<std::int64_t> hm = full_range_values<std::int64_t>(n, 55);
        auto l = dev<std::int64_t, ca::svm_coarse>(hl);
        auto m = dev<std::int64_t, ca::svm_coarse>(hm);
        xt::xarray<std::int64_t> wl = xt::xarray<std::int64_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) wl(i) = wrap_mul(hl(i), hm(i));
        CHECK((ca::eval(l * m).get() == wl));
        for (std::size_t i = 0; i < n; ++i) wl(i) = wrap_add<std::int64_t>(hl(i), 1);
        CHECK((ca::eval(l + 1).get() == wl)); // int64 max + 1 wraps to min

        xt::xarray<std::uint64_t> hx = full_range_values<std::uint64_t>(n, 56);
        xt::xarray<std::uint64_t> hy = full_range_values<std::uint64_t>(n, 57);
        auto x = dev<std::uint64_t, ca::svm_coarse>(hx);
        auto y = dev<std::uint64_t, ca::svm_coarse>(hy);
        xt::xarray<std::uint64_t> wx = xt::xarray<std::uint64_t>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) wx(i) = hx(i) * hy(i);
        CHECK((ca::eval(x * y).get() == wx));
    }
}
