// dtype_traits against independent references: the device's OpenCL C compiler (size, signedness
// and floatness of each OpenCL C type), the C++ type (kind, stored size) and NumPy's documented
// rules (sum accumulators, the float type of math functions); the runtime dtype table against the
// compile-time traits; the extensions generated kernels enable.
#include "support.hpp"

#include <complex>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>

namespace {

#define DTYPE_TYPES                                                                                \
    bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t,     \
        std::int64_t, std::uint64_t, float, double

bool same_text(const char* a, const char* b) {
    if (!a || !b) return a == b;
    return std::strcmp(a, b) == 0;
}

bool contains(const std::string& text, const char* what) {
    return text.find(what) != std::string::npos;
}

// The kind C++ gives T.
template <class T> ca::dtype_kind cpp_kind() {
    if constexpr (std::is_same_v<T, bool>)
        return ca::dtype_kind::boolean;
    else if constexpr (std::is_floating_point_v<T>)
        return ca::dtype_kind::floating;
    else if constexpr (std::is_signed_v<T>)
        return ca::dtype_kind::signed_integer;
    else
        return ca::dtype_kind::unsigned_integer;
}

// The one dtype whose kernels need an extension is float64 (cl_khr_fp64).
template <class T> const char* expected_extension() {
    return std::is_same_v<T, double> ? "cl_khr_fp64" : nullptr;
}

} // namespace

TEMPLATE_TEST_CASE("dtype traits match the device's OpenCL C types", "[dtype]", DTYPE_TYPES) {
    using T = TestType;
    using tr = ca::dtype_traits<T>;
    if (!test::dtype_available<T>()) return;
    const std::string t = tr::cl_name;
    std::string src = tr::extension
                          ? std::string("#pragma OPENCL EXTENSION ") + tr::extension + " : enable\n"
                          : std::string();
    src += "kernel void probe(global long* r) {\n"
           "    r[0] = sizeof(" +
           t +
           ");\n"
           "    r[1] = (" +
           t + ")-1 < (" + t +
           ")0;\n"
           "    r[2] = (" +
           t + ")0.5 != (" + t +
           ")0;\n"
           "}\n";
    ca::program prg(test::ctx(), src);
    auto r = ca::zeros<std::int64_t, ca::buffer>(test::q(), {3}); // any device
    prg.kernel("probe")(test::q(), {1}, ca::out(r));
    const auto h = r.get();
    INFO(ca::dtype_name(tr::id) << " as " << t);
    CHECK(h(0) == static_cast<std::int64_t>(tr::size));
    const bool device_signed = h(1) != 0, device_floating = h(2) != 0;
    CHECK(device_floating == (tr::kind == ca::dtype_kind::floating));
    CHECK(device_signed ==
          (tr::kind == ca::dtype_kind::signed_integer || tr::kind == ca::dtype_kind::floating));
    // bool is stored as an unsigned byte.
    if (tr::kind == ca::dtype_kind::boolean) CHECK((h(0) == 1 && !device_signed));
}

TEMPLATE_TEST_CASE("dtype traits match the C++ type and NumPy's rules", "[dtype]", DTYPE_TYPES) {
    using T = TestType;
    using tr = ca::dtype_traits<T>;
    INFO(ca::dtype_name(tr::id));
    CHECK(tr::kind == cpp_kind<T>());
    CHECK(tr::size == sizeof(typename tr::stored_type));
    CHECK(tr::size == sizeof(T));
    CHECK(std::is_same_v<typename tr::stored_type,
                         std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>>);
    CHECK(same_text(tr::extension, expected_extension<T>()));
    // NumPy's sum and prod: bool and signed integers accumulate in int64, unsigned integers in
    // uint64, floats in their own type.
    using numpy_sum =
        std::conditional_t<std::is_floating_point_v<T>, T,
                           std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                                              std::uint64_t, std::int64_t>>;
    CHECK(std::is_same_v<typename tr::sum_accumulator, numpy_sum>);

    CHECK(ca::is_boolean_v<T> == std::is_same_v<T, bool>);
    CHECK(ca::is_floating_v<T> == std::is_floating_point_v<T>);
    CHECK(ca::is_integer_v<T> == (std::is_integral_v<T> && !std::is_same_v<T, bool>));
    CHECK(ca::is_signed_integer_v<T> == (ca::is_integer_v<T> && std::is_signed_v<T>));
    CHECK(ca::is_unsigned_integer_v<T> == (ca::is_integer_v<T> && std::is_unsigned_v<T>));
}

TEMPLATE_TEST_CASE("the runtime dtype table agrees with the traits", "[dtype]", DTYPE_TYPES) {
    using T = TestType;
    using tr = ca::dtype_traits<T>;
    constexpr ca::dtype d = tr::id;
    INFO(tr::name);
    CHECK(ca::dtype_info_of(d).id == d);
    CHECK(same_text(ca::dtype_name(d), tr::name));
    CHECK(same_text(ca::cl_type_name(d), tr::cl_name));
    CHECK(ca::dtype_size(d) == tr::size);
    CHECK(ca::dtype_kind_of(d) == tr::kind);
    CHECK(same_text(ca::required_extension(d), tr::extension));
    CHECK(ca::is_floating(d) == (tr::kind == ca::dtype_kind::floating));
    static_assert(ca::dtype_size(d) == tr::size, "the table is usable at compile time");
}

TEST_CASE("every dtype has traits, a distinct name and a distinct id", "[dtype]") {
    std::set<std::size_t> ids;
    std::set<std::string> names;
    auto note = [&](auto v) {
        using tr = ca::dtype_traits<decltype(v)>;
        ids.insert(static_cast<std::size_t>(tr::id));
        names.insert(tr::name);
    };
    // (complex64 and complex128 have their trait tests in test_complex.cpp)
    std::apply([&](auto... v) { (note(v), ...); },
               std::tuple<DTYPE_TYPES, std::complex<float>, std::complex<double>>{});
    note(ca::half{}); // float16: no OpenCL C value type without cl_khr_fp16 (tests/test_half.cpp)
    CHECK(ids.size() == ca::dtype_count);
    CHECK(names.size() == ca::dtype_count);
    CHECK(*ids.rbegin() == ca::dtype_count - 1);
    // Either C++ spelling of the 64-bit integers is the same dtype.
    CHECK(ca::dtype_traits<long long>::id == ca::dtype::int64);
    CHECK(ca::dtype_traits<long>::id == ca::dtype::int64);
    CHECK(ca::dtype_traits<unsigned long long>::id == ca::dtype::uint64);
    CHECK(ca::dtype_traits<unsigned long>::id == ca::dtype::uint64);
}

TEMPLATE_TEST_CASE("generated kernels enable the extensions of the types they use", "[dtype]",
                   DTYPE_TYPES) {
    using T = TestType;
    using tr = ca::dtype_traits<T>;
    constexpr ca::dtype d = tr::id;
    const bool fp64 = std::is_same_v<T, double>;
    INFO(tr::name);
    namespace cd = ca::detail;
    const cd::assign_kernel_spec flat{cd::assign_shape::flat, 1, true};
    {
        // A copy into T, and a conversion of T into float32.
        ca::detail::source_builder b;
        const std::string v = b.array_input(d);
        CHECK(b.uses_fp64() == fp64);
        CHECK(contains(cd::assign_source(b, {d}, {v}, {}, flat), "cl_khr_fp64") == fp64);
        CHECK(contains(cd::assign_source(b, {ca::dtype::float32}, {v}, {}, flat), "cl_khr_fp64") ==
              fp64);
        CHECK(b.required_extensions().names().size() == (fp64 ? 1u : 0u));
    }
    {
        // float32 in, T out.
        ca::detail::source_builder b;
        const std::string v = b.array_input(ca::dtype::float32);
        CHECK(contains(cd::assign_source(b, {d}, {v}, {}, flat), "cl_khr_fp64") == fp64);
    }
    {
        // sin computes in float64 for 32- and 64-bit integers and float64 (NumPy), even when the
        // result is stored as float32.
        const bool computes_fp64 = fp64 || (std::is_integral_v<T> && sizeof(T) >= 4);
        using E = decltype(ca::sin(std::declval<const ca::cl_array<T>&>()));
        ca::detail::source_builder b;
        const std::string v = E::emit(b);
        CHECK(b.uses_fp64() == computes_fp64);
        CHECK(contains(cd::assign_source(b, {ca::dtype::float32}, {v}, {}, flat), "cl_khr_fp64") ==
              computes_fp64);
    }
    {
        // Reductions: the accumulator's extension reaches kernels that see only accumulators.
        using sum = cd::sum_op::impl<T>;
        using argmax = cd::argmax_op::impl<T>;
        using mean = cd::mean_op::impl<T>;
        const bool mean_fp64 = !std::is_same_v<T, float>; // NumPy: integers average in float64
        CHECK(contains(cd::reduce_stage2_source(sum::text(),
                                                ca::dtype_traits<typename sum::out>::id, false),
                       "cl_khr_fp64") == fp64);
        CHECK(contains(cd::reduce_stage2_source(argmax::text(), ca::dtype::int64, false),
                       "cl_khr_fp64") == fp64);
        CHECK(contains(cd::reduce_stage2_source(mean::text(),
                                                ca::dtype_traits<typename mean::out>::id, false),
                       "cl_khr_fp64") == mean_fp64);
        CHECK(contains(cd::scan_parts_source(sum::text()), "cl_khr_fp64") == fp64);
        CHECK(contains(cd::scan_parts_source(mean::text()), "cl_khr_fp64") == mean_fp64);
    }
}
