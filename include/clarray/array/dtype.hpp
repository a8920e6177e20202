#pragma once
// Element types clarray stores, with their OpenCL C spelling. bool is stored as uchar (OpenCL C
// has no storable bool).
#include <cstdint>
#include <type_traits>

namespace clarray {

enum class dtype : unsigned char {
    bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64
};

template <class T> struct dtype_traits; // only the supported types are defined

#define CLARRAY_DTYPE(T, ID, CLNAME, STORED)                                                     \
    template <> struct dtype_traits<T> {                                                          \
        static constexpr dtype id = dtype::ID;                                                    \
        static constexpr const char* cl_name = CLNAME;                                            \
        using stored_type = STORED;                                                               \
    }
CLARRAY_DTYPE(bool, bool_, "uchar", std::uint8_t);
CLARRAY_DTYPE(std::int8_t, int8, "char", std::int8_t);
CLARRAY_DTYPE(std::uint8_t, uint8, "uchar", std::uint8_t);
CLARRAY_DTYPE(std::int16_t, int16, "short", std::int16_t);
CLARRAY_DTYPE(std::uint16_t, uint16, "ushort", std::uint16_t);
CLARRAY_DTYPE(std::int32_t, int32, "int", std::int32_t);
CLARRAY_DTYPE(std::uint32_t, uint32, "uint", std::uint32_t);
CLARRAY_DTYPE(std::int64_t, int64, "long", std::int64_t);
CLARRAY_DTYPE(std::uint64_t, uint64, "ulong", std::uint64_t);
CLARRAY_DTYPE(float, float32, "float", float);
CLARRAY_DTYPE(double, float64, "double", double);
#undef CLARRAY_DTYPE

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
template <class T> struct is_dtype<T, std::void_t<decltype(dtype_traits<T>::id)>> : std::true_type {};
template <class T> inline constexpr bool is_dtype_v = is_dtype<T>::value;

// The type the device memory holds for T.
template <class T> using stored_t = typename dtype_traits<T>::stored_type;

const char* dtype_name(dtype d) noexcept;  // "float32", "int8", ...
const char* cl_type_name(dtype d) noexcept; // "float", "char", ...
std::size_t dtype_size(dtype d) noexcept;
inline bool is_floating(dtype d) noexcept { return d == dtype::float32 || d == dtype::float64; }

} // namespace clarray
