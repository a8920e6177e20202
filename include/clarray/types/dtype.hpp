#pragma once
// Element types clarray stores. Everything a layer needs to know about a type comes from here:
// its kind, size, OpenCL C spelling, the OpenCL extension it needs and the type its sums
// accumulate in. bool is stored as uchar (OpenCL C has no storable bool); complex numbers as
// OpenCL float2/double2 (real, imaginary), the layout of std::complex. float16 is stored as
// OpenCL C `half` (pointers to half need no cl_khr_fp16), read and written with vload_half /
// vstore_half_rte, and its values compute in float (cl_value_type_name, kernel_value_t).
#include <cstddef>
#include <cstdint>
#include <type_traits>

// std::complex is only named here; <complex> (with <sstream>, about 46k preprocessed lines) is
// included where complex values are used (expr/, linalg/, host/). libstdc++'s declaration is
// repeated; other standard libraries get the header.
#if defined(__GLIBCXX__)
namespace std {
template <typename T> class complex;
} // namespace std
#else
#include <complex>
#endif

#include "clarray/types/half.hpp"

namespace clarray {

namespace detail {
// Bytes per element of a stored type; a std::complex is its two parts ([complex.numbers]), which
// holds without its definition.
template <class T> struct stored_size { static constexpr std::size_t value = sizeof(T); };
template <class F> struct stored_size<std::complex<F>> {
    static constexpr std::size_t value = 2 * sizeof(F);
};
} // namespace detail

// How a dtype computes: NumPy's kinds. The order is NumPy's "same kind" order (a value converts
// without changing kind towards a later one).
enum class dtype_kind : unsigned char {
    boolean,
    signed_integer,
    unsigned_integer,
    floating,
    complex
};

// The one list of dtypes; each row is
//   X(C++ type, dtype id, NumPy name, OpenCL C name, stored type, kind, OpenCL extension,
//     sum/prod accumulator (NumPy's: bool and signed integers in int64, unsigned in uint64))
// The order is the enum's. A new dtype is a row here plus its rules in expr/promotion.hpp.
#define CLARRAY_DTYPES(X)                                                                          \
    X(bool, bool_, "bool", "uchar", std::uint8_t, boolean, nullptr, std::int64_t)                  \
    X(std::int8_t, int8, "int8", "char", std::int8_t, signed_integer, nullptr, std::int64_t)       \
    X(std::uint8_t, uint8, "uint8", "uchar", std::uint8_t, unsigned_integer, nullptr,              \
      std::uint64_t)                                                                               \
    X(std::int16_t, int16, "int16", "short", std::int16_t, signed_integer, nullptr, std::int64_t)  \
    X(std::uint16_t, uint16, "uint16", "ushort", std::uint16_t, unsigned_integer, nullptr,         \
      std::uint64_t)                                                                               \
    X(std::int32_t, int32, "int32", "int", std::int32_t, signed_integer, nullptr, std::int64_t)    \
    X(std::uint32_t, uint32, "uint32", "uint", std::uint32_t, unsigned_integer, nullptr,           \
      std::uint64_t)                                                                               \
    X(std::int64_t, int64, "int64", "long", std::int64_t, signed_integer, nullptr, std::int64_t)   \
    X(std::uint64_t, uint64, "uint64", "ulong", std::uint64_t, unsigned_integer, nullptr,          \
      std::uint64_t)                                                                               \
    X(half, float16, "float16", "half", half, floating, nullptr, float)                            \
    X(float, float32, "float32", "float", float, floating, nullptr, float)                         \
    X(double, float64, "float64", "double", double, floating, "cl_khr_fp64", double)               \
    X(std::complex<float>, complex64, "complex64", "float2", std::complex<float>, complex,         \
      nullptr, std::complex<float>)                                                                \
    X(std::complex<double>, complex128, "complex128", "double2", std::complex<double>, complex,    \
      "cl_khr_fp64", std::complex<double>)

#define CLARRAY_DTYPE_ID(T, ID, NAME, CLNAME, STORED, KIND, EXT, SUM) ID,
// The element types, as NumPy names them (bool_, int8, ..., float16, float32, float64, complex64,
// complex128).
enum class dtype : unsigned char { CLARRAY_DTYPES(CLARRAY_DTYPE_ID) };
#undef CLARRAY_DTYPE_ID

// The runtime view of one row.
struct dtype_info {
    // The dtype.
    dtype id;
    // Its NumPy kind.
    dtype_kind kind;
    // Bytes stored per element.
    std::size_t size;
    // NumPy's name ("float32").
    const char* name;
    // The OpenCL C type that stores it ("float").
    const char* cl_name;
    // The OpenCL extension its kernels need, or nullptr (core OpenCL C).
    const char* extension;
};

namespace detail {
#define CLARRAY_DTYPE_INFO(T, ID, NAME, CLNAME, STORED, KIND, EXT, SUM)                            \
    dtype_info{dtype::ID, dtype_kind::KIND, detail::stored_size<STORED>::value, NAME, CLNAME, EXT},
inline constexpr dtype_info dtype_table[] = {CLARRAY_DTYPES(CLARRAY_DTYPE_INFO)};
#undef CLARRAY_DTYPE_INFO
} // namespace detail

// Number of dtypes.
inline constexpr std::size_t dtype_count = sizeof(detail::dtype_table) / sizeof(dtype_info);

// The table row of dtype d: name, OpenCL type, size, kind and required extension.
constexpr const dtype_info& dtype_info_of(dtype d) noexcept {
    return detail::dtype_table[static_cast<std::size_t>(d)];
}
// NumPy's name of dtype d ("float32", "complex64", ...).
constexpr const char* dtype_name(dtype d) noexcept {
    return dtype_info_of(d).name;
} // "float32"
// The OpenCL C type that stores dtype d ("float", "float2", "half", ...).
constexpr const char* cl_type_name(dtype d) noexcept {
    return dtype_info_of(d).cl_name;
} // "float"
// Bytes per element of dtype d.
constexpr std::size_t dtype_size(dtype d) noexcept {
    return dtype_info_of(d).size;
}
// Whether dtype d is bool, signed or unsigned integer, floating or complex.
constexpr dtype_kind dtype_kind_of(dtype d) noexcept {
    return dtype_info_of(d).kind;
}
// The OpenCL extension a kernel touching d must enable, or nullptr.
constexpr const char* required_extension(dtype d) noexcept {
    return dtype_info_of(d).extension;
}
// Whether dtype d is a real floating type (float16, float32, float64).
constexpr bool is_floating(dtype d) noexcept {
    return dtype_kind_of(d) == dtype_kind::floating;
}
// Whether dtype d is complex64 or complex128.
constexpr bool is_complex(dtype d) noexcept {
    return dtype_kind_of(d) == dtype_kind::complex;
}
// float16 elements move through vload_half / vstore_half_rte, never as values of their own type.
constexpr bool is_half_storage(dtype d) noexcept {
    return d == dtype::float16;
}
// The OpenCL C type of d's values inside a kernel (scalar arguments, casts, accumulators):
// cl_type_name, except float16, which computes in float.
constexpr const char* cl_value_type_name(dtype d) noexcept {
    return is_half_storage(d) ? "float" : cl_type_name(d);
}

template <class T> struct dtype_traits; // only the supported types are defined

// (Doxygen reads the /** */ comments of the expanded macro: `//` cannot end a macro line.)
#define CLARRAY_DTYPE_TRAITS(T, ID, NAME, CLNAME, STORED, KIND, EXT, SUM)                          \
    /** The dtype of T: its id, kind, size, names, extension and types. */                         \
    template <> struct dtype_traits<T> {                                                           \
        /** The dtype. */                                                                          \
        static constexpr dtype id = dtype::ID;                                                     \
        /** Its NumPy kind. */                                                                     \
        static constexpr dtype_kind kind = dtype_kind::KIND;                                       \
        /** Bytes stored per element. */                                                           \
        static constexpr std::size_t size = detail::stored_size<STORED>::value;                    \
        /** NumPy's name. */                                                                       \
        static constexpr const char* name = NAME;                                                  \
        /** The OpenCL C type that stores it. */                                                   \
        static constexpr const char* cl_name = CLNAME;                                             \
        /** The OpenCL extension its kernels need, or nullptr. */                                  \
        static constexpr const char* extension = EXT;                                              \
        /** The type device memory holds. */                                                       \
        using stored_type = STORED;                                                                \
        /** The type sums and products accumulate in (NumPy's). */                                 \
        using sum_accumulator = SUM;                                                               \
    };
CLARRAY_DTYPES(CLARRAY_DTYPE_TRAITS)
#undef CLARRAY_DTYPE_TRAITS

// `long long` and `long` are distinct C++ types of the same width on LP64; map the one that is not
// std::int64_t onto it so either spelling works.
template <>
struct dtype_traits<std::conditional_t<std::is_same_v<long, std::int64_t>, long long, long>>
    : dtype_traits<std::int64_t> {};
template <>
struct dtype_traits<std::conditional_t<std::is_same_v<unsigned long, std::uint64_t>,
                                       unsigned long long, unsigned long>>
    : dtype_traits<std::uint64_t> {};

template <class T, class = void> struct is_dtype : std::false_type {};
template <class T>
struct is_dtype<T, std::void_t<decltype(dtype_traits<T>::id)>> : std::true_type {};
// Trait: T is an element type (has dtype_traits).
template <class T> inline constexpr bool is_dtype_v = is_dtype<T>::value;

// The type the device memory holds for T.
template <class T> using stored_t = typename dtype_traits<T>::stored_type;
// The host type of a kernel value of dtype T (cl_value_type_name): float for half.
template <class T>
using kernel_value_t = std::conditional_t<std::is_same_v<T, half>, float, stored_t<T>>;

// Kind tests on dtypes (T must be one): its kind, and whether it is bool, a signed, unsigned or
// any integer, floating or complex.
//@{
template <class T> inline constexpr dtype_kind kind_of_v = dtype_traits<T>::kind;
template <class T> inline constexpr bool is_boolean_v = kind_of_v<T> == dtype_kind::boolean;
template <class T>
inline constexpr bool is_signed_integer_v = kind_of_v<T> == dtype_kind::signed_integer;
template <class T>
inline constexpr bool is_unsigned_integer_v = kind_of_v<T> == dtype_kind::unsigned_integer;
template <class T>
inline constexpr bool is_integer_v = is_signed_integer_v<T> || is_unsigned_integer_v<T>;
template <class T> inline constexpr bool is_floating_v = kind_of_v<T> == dtype_kind::floating;
template <class T> inline constexpr bool is_complex_v = kind_of_v<T> == dtype_kind::complex;
//@}
// NumPy's "inexact": floating or complex.
template <class T> inline constexpr bool is_inexact_v = is_floating_v<T> || is_complex_v<T>;

namespace detail {
template <class T> struct real_of { using type = T; };
template <class F> struct real_of<std::complex<F>> { using type = F; };
template <class T> struct is_std_complex : std::false_type {};
template <class F> struct is_std_complex<std::complex<F>> : std::true_type {};
} // namespace detail
// The type of a complex type's parts (float for complex64); other types map to themselves.
template <class T> using real_of_t = typename detail::real_of<T>::type;
// The complex type whose parts hold the floating type F exactly (NumPy: complex64 for float32 and
// narrower, complex128 for float64).
template <class F>
using complex_of_t = std::complex<std::conditional_t<(sizeof(F) > 4), double, float>>;

} // namespace clarray
