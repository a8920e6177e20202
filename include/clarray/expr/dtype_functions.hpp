#pragma once
// The array API standard's data type functions: result_type, can_cast, finfo, iinfo, isdtype,
// on C++ element types (compile time) and on dtype values (run time), with NumPy 2's promotion
// (promotion.hpp), and the standard's constants.
#include <cstddef>
#include <limits>
#include <string_view>
#include <type_traits>

#include "clarray/error.hpp"
#include "clarray/expr/promotion.hpp"
#include "clarray/types/dtype.hpp"
#include "clarray/types/half.hpp"

namespace clarray {

/// The standard's constants (NumPy's np.e, np.pi, np.inf, np.nan), as double.
///@{
inline constexpr double e = 2.718281828459045235360287471352662498;
inline constexpr double pi = 3.141592653589793238462643383279502884;
inline constexpr double inf = std::numeric_limits<double>::infinity();
inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();
///@}

/// NumPy's result_type of element types: all promoted at once (as concatenate), NumPy 2's rules.
template <class... T> using result_type_t = detail::promote_all_t<T...>;

/// Whether From converts to To without changing any value's kind or losing range ("safe"
/// casting, the standard's can_cast): To is the promotion of From and To.
template <class From, class To>
inline constexpr bool can_cast_v = std::is_same_v<promote_t<From, To>, detail::canonical_t<To>>;

namespace detail {
template <class F> void for_each_dtype_type(F&& f) {
#define CLARRAY_DTYPE_VISIT(T, ID, NAME, CLNAME, STORED, KIND, EXT, SUM) f(type_holder<T>{});
    CLARRAY_DTYPES(CLARRAY_DTYPE_VISIT)
#undef CLARRAY_DTYPE_VISIT
}
} // namespace detail

/// result_type and can_cast of dtype values (run time).
///@{
inline dtype result_type(dtype a, dtype b) {
    dtype out = a;
    detail::for_each_dtype_type([&](auto ha) {
        using A = typename decltype(ha)::type;
        if (dtype_traits<A>::id != a) return;
        detail::for_each_dtype_type([&](auto hb) {
            using B = typename decltype(hb)::type;
            if (dtype_traits<B>::id == b) out = dtype_traits<result_type_t<A, B>>::id;
        });
    });
    return out;
}
inline bool can_cast(dtype from, dtype to) {
    return result_type(from, to) == to;
}
///@}

/// Whether dtype d is of kind `kind`, one of the standard's names: "bool", "signed integer",
/// "unsigned integer", "integral", "real floating", "complex floating", "numeric"; another name
/// is a usage_error.
inline bool isdtype(dtype d, std::string_view kind) {
    const dtype_kind k = dtype_kind_of(d);
    if (kind == "bool") return k == dtype_kind::boolean;
    if (kind == "signed integer") return k == dtype_kind::signed_integer;
    if (kind == "unsigned integer") return k == dtype_kind::unsigned_integer;
    if (kind == "integral")
        return k == dtype_kind::signed_integer || k == dtype_kind::unsigned_integer;
    if (kind == "real floating") return k == dtype_kind::floating;
    if (kind == "complex floating") return k == dtype_kind::complex;
    if (kind == "numeric") return k != dtype_kind::boolean;
    throw usage_error("isdtype: unknown kind '" + std::string(kind) +
                      "' (bool, signed integer, unsigned integer, integral, real floating, "
                      "complex floating, numeric)");
}

/// Machine limits of a floating type (complex: of its parts), the standard's finfo fields.
template <class T> struct finfo {
    static_assert(is_inexact_v<detail::canonical_t<T>>,
                  "finfo: T must be a floating or complex type");
    /// The floating type described (the parts' type of a complex T).
    using real_type = real_of_t<detail::canonical_t<T>>;
    /// Bits of the type.
    static constexpr int bits = static_cast<int>(8 * sizeof(real_type));
    /// The difference between 1 and the next value.
    static constexpr real_type eps = std::numeric_limits<real_type>::epsilon();
    /// The largest finite value.
    static constexpr real_type max = std::numeric_limits<real_type>::max();
    /// The lowest finite value (-max).
    static constexpr real_type min = std::numeric_limits<real_type>::lowest();
    /// The smallest positive normal value.
    static constexpr real_type smallest_normal = std::numeric_limits<real_type>::min();
    /// The dtype described.
    static constexpr dtype dtype_id = dtype_traits<real_type>::id;
};

/// Limits of an integer type, the standard's iinfo fields.
template <class T> struct iinfo {
    static_assert(is_integer_v<detail::canonical_t<T>>, "iinfo: T must be an integer type");
    /// Bits of the type.
    static constexpr int bits = static_cast<int>(8 * sizeof(T));
    /// The largest value.
    static constexpr T max = std::numeric_limits<T>::max();
    /// The smallest value.
    static constexpr T min = std::numeric_limits<T>::min();
    /// The dtype described.
    static constexpr dtype dtype_id = dtype_traits<detail::canonical_t<T>>::id;
};

} // namespace clarray
