#pragma once
// clarray::half: the host type of float16 elements. IEEE 754 binary16 bits in a trivially
// copyable 16-bit value; conversions to and from float round to nearest even (subnormals, inf and
// NaN included), comparisons and arithmetic go through float. Converting to half is explicit
// (`half(1.5f)`, `static_cast<half>(x)`), converting to float implicit, so mixed expressions such
// as `h + 1.0f` compute in float without ambiguity; half op half gives half (rounded once).
#include <cstdint>
#include <cstring>
#include <iosfwd>
#include <limits>
#include <type_traits>

namespace clarray {

// The host type of float16 elements: IEEE 754 binary16, computing through float.
class half {
public:
    // Uninitialised (trivial); value-initialisation gives +0.
    half() = default;
    // The value v rounded to the nearest half (ties to even).
    template <class U, class = std::enable_if_t<std::is_arithmetic_v<U>>>
    explicit half(U v) noexcept
        : bits_(sizeof(U) > sizeof(float) && std::is_floating_point_v<U>
                    ? from_double(static_cast<double>(v))
                    : from_float(static_cast<float>(v))) {}

    // The half whose binary16 bits are b.
    static constexpr half from_bits(std::uint16_t b) noexcept {
        half h{};
        h.bits_ = b;
        return h;
    }
    // The binary16 bits.
    constexpr std::uint16_t bits() const noexcept { return bits_; }

    // The value as a float (exact).
    operator float() const noexcept { return to_float(bits_); }

    // Round to nearest even, from float's 24-bit significand to half's 11 bits.
    static std::uint16_t from_float(float f) noexcept {
        std::uint32_t x;
        std::memcpy(&x, &f, sizeof x);
        const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
        const std::uint32_t a = x & 0x7fffffffu;
        if (a >= 0x7f800000u) // inf, or NaN (kept quiet, with its top payload bits)
            return static_cast<std::uint16_t>(
                sign | 0x7c00u | (a > 0x7f800000u ? 0x200u | ((a >> 13) & 0x3ffu) : 0u));
        if (a >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u); // >= 65520: inf
        if (a < 0x38800000u) {                // below 2^-14: a half subnormal (or zero)
            if (a < 0x33000000u) return sign; // at most 2^-25 (the tie goes to even 0)
            const std::uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
            const std::uint32_t shift = 126u - e; // 14..24: to units of 2^-24
            std::uint32_t r = m >> shift;
            const std::uint32_t rest = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
            if (rest > halfway || (rest == halfway && (r & 1u))) ++r;
            return static_cast<std::uint16_t>(sign | r);
        }
        // Normal: rebias the exponent (127 -> 15) and round the 13 dropped bits; a carry out of
        // the significand correctly bumps the exponent (up to inf).
        std::uint32_t r = (a - 0x38000000u) >> 13;
        const std::uint32_t rest = a & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (r & 1u))) ++r;
        return static_cast<std::uint16_t>(sign | r);
    }
    // One rounding from double: rounded to odd in float first (float keeps 13 more bits than
    // half, so the nearest-even choice below sees the exact value's side of every tie).
    static std::uint16_t from_double(double d) noexcept {
        float f = static_cast<float>(d);
        const double back = static_cast<double>(f);
        if (d - d == 0 && back != d) { // finite and inexact
            std::uint32_t x;
            std::memcpy(&x, &f, sizeof x);
            if ((back < 0 ? -back : back) > (d < 0 ? -d : d)) --x; // towards zero
            x |= 1u;
            std::memcpy(&f, &x, sizeof f);
        }
        return from_float(f);
    }
    // The float value of binary16 bits h (exact).
    static float to_float(std::uint16_t h) noexcept {
        const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
        const std::uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
        std::uint32_t x;
        if (e == 0x1fu) {
            x = sign | 0x7f800000u | (m << 13); // inf / NaN
        } else if (e != 0) {
            x = sign | ((e + 112u) << 23) | (m << 13);
        } else if (m == 0) {
            x = sign;
        } else { // subnormal: normalise
            std::uint32_t ee = 113u, mm = m;
            while (!(mm & 0x400u)) {
                mm <<= 1;
                --ee;
            }
            x = sign | (ee << 23) | ((mm & 0x3ffu) << 13);
        }
        float f;
        std::memcpy(&f, &x, sizeof f);
        return f;
    }

    // Compound arithmetic, computed in float and rounded once.
    //@{
    half& operator+=(half o) noexcept { return *this = half(float(*this) + float(o)); }
    half& operator-=(half o) noexcept { return *this = half(float(*this) - float(o)); }
    half& operator*=(half o) noexcept { return *this = half(float(*this) * float(o)); }
    half& operator/=(half o) noexcept { return *this = half(float(*this) / float(o)); }
    //@}

private:
    std::uint16_t bits_;
};

static_assert(sizeof(half) == 2 && alignof(half) == 2 && std::is_trivially_copyable_v<half>,
              "half must be stored as 16 bits");

// float16 arithmetic on the host: computed in float, rounded to nearest even.
inline half operator+(half a, half b) noexcept {
    return half(float(a) + float(b));
}
// float16 subtraction (computed in float, rounded once).
inline half operator-(half a, half b) noexcept {
    return half(float(a) - float(b));
}
// float16 multiplication (computed in float, rounded once).
inline half operator*(half a, half b) noexcept {
    return half(float(a) * float(b));
}
// float16 division (computed in float, rounded once).
inline half operator/(half a, half b) noexcept {
    return half(float(a) / float(b));
}
// float16 negation (flips the sign bit).
inline half operator-(half a) noexcept {
    return half::from_bits(static_cast<std::uint16_t>(a.bits() ^ 0x8000u));
}
// float16 unary plus (the value itself).
inline half operator+(half a) noexcept {
    return a;
}
// Comparisons as float's (NaN unordered, -0 == +0).
inline bool operator==(half a, half b) noexcept {
    return float(a) == float(b);
}
// float16 comparison as floats (NaN is unequal to everything).
inline bool operator!=(half a, half b) noexcept {
    return float(a) != float(b);
}
// float16 comparison as floats.
inline bool operator<(half a, half b) noexcept {
    return float(a) < float(b);
}
// float16 comparison as floats.
inline bool operator<=(half a, half b) noexcept {
    return float(a) <= float(b);
}
// float16 comparison as floats.
inline bool operator>(half a, half b) noexcept {
    return float(a) > float(b);
}
// float16 comparison as floats.
inline bool operator>=(half a, half b) noexcept {
    return float(a) >= float(b);
}

// Prints the float16 value as the float it converts to.
template <class C, class Tr>
std::basic_ostream<C, Tr>& operator<<(std::basic_ostream<C, Tr>& os, half h) {
    return os << float(h);
}

} // namespace clarray

namespace std {
// The limits of float16 (IEEE 754 binary16), so that generic numeric code works with half.
template <> class numeric_limits<clarray::half> {
    using H = clarray::half;

public:
    // The members std::numeric_limits defines, with binary16's values.
    //@{
    static constexpr bool is_specialized = true, is_signed = true, is_integer = false,
                          is_exact = false, has_infinity = true, has_quiet_NaN = true,
                          has_signaling_NaN = true, has_denorm_loss = false, is_iec559 = true,
                          is_bounded = true, is_modulo = false, traps = false,
                          tinyness_before = false;
    static constexpr float_denorm_style has_denorm = denorm_present;
    static constexpr float_round_style round_style = round_to_nearest;
    static constexpr int digits = 11, digits10 = 3, max_digits10 = 5, radix = 2, min_exponent = -13,
                         min_exponent10 = -4, max_exponent = 16, max_exponent10 = 4;
    static constexpr H min() noexcept { return H::from_bits(0x0400); } // 2^-14
    static constexpr H lowest() noexcept { return H::from_bits(0xfbff); }
    static constexpr H max() noexcept { return H::from_bits(0x7bff); }         // 65504
    static constexpr H epsilon() noexcept { return H::from_bits(0x1400); }     // 2^-10
    static constexpr H round_error() noexcept { return H::from_bits(0x3800); } // 0.5
    static constexpr H infinity() noexcept { return H::from_bits(0x7c00); }
    static constexpr H quiet_NaN() noexcept { return H::from_bits(0x7e00); }
    static constexpr H signaling_NaN() noexcept { return H::from_bits(0x7d00); }
    static constexpr H denorm_min() noexcept { return H::from_bits(0x0001); } // 2^-24
    //@}
};
} // namespace std
