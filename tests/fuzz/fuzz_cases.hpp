#pragma once
// Differential fuzzing: random expression trees, views, assignments, in-place updates and
// reductions evaluated by clarray on the device and by an independent host reference.
//
// Expression trees are compile-time types, so the trees are a fixed set of templates (depth 2-4,
// `tree_*` below) instantiated for a list of dtype combinations (`combos`: two array dtypes, a
// storage policy and the C++ type of the weak scalar). Each case picks at random the combination,
// the template, what is done with it (a new array, an assignment into a view, an aliasing
// in-place update, a reduction), the shapes (rank 0-4, broadcasting), the views every leaf is cut
// from (offsets, negative steps, transposes, newaxis, F-ordered bases), the axes and the values.
//
// The host reference evaluates the same template on `hv<T>` values: NumPy 2 promotion written
// here independently of clarray's promotion.hpp (weak C++ scalars: NEP 50), integers exactly
// with NumPy's wrap-around, floats in long double with a running bound on the device's error:
//  * + - * in float: exact inputs give the correctly rounded result exactly; otherwise each op
//    adds 0.5 ulp of its result (correct rounding), and the inputs' bounds propagate
//    (|a|eb + |b|ea + ea eb for *, (ea + |q| eb) / (|b| - eb) for /);
//  * / adds 2.5 ulp in float (the OpenCL full-profile bound), 0.5 ulp in double; sqrt 3 ulp in
//    float, 0.5 in double; exp, log 3 ulp; sin, cos 4; tanh, atan 5; cbrt 2 (OpenCL C 3.0,
//    table of ULP values for built-in math functions); floor, ceil, fabs, fmod, maximum,
//    minimum, comparisons, casts between integers and exact conversions: 0 ulp;
//  * every inexact op adds the type's smallest normal (a device may flush denormals);
//  * a math function maps its input interval by its values at both ends (twice the larger
//    deviation, which also covers an extremum inside);
//  * sum/mean: 27 eps S + the inputs' bounds (S = sum of |x|; docs/reductions.md's bound),
//    prod: n eps |P| + first-order propagation; max/min/argmax: selection.
// Where the bound makes a discontinuous result undetermined (a comparison whose operands'
// intervals overlap, floor/trunc/cast near an integer, a float->int cast out of range or of NaN:
// undefined in C, a signed 32/64-bit overflow: undefined in OpenCL C) the element is not compared
// and counted as skipped. Integer results are compared exactly; float results must lie within
// the bound. docs/testing.md summarises this.
//
// Environment (docs/testing.md): CLARRAY_FUZZ_SEED (default 20261204), CLARRAY_FUZZ_CASES (default
// 120), CLARRAY_FUZZ_FIRST (first case number), CLARRAY_FUZZ_SECONDS (run cases until this
// many seconds have passed, then stop), CLARRAY_FUZZ_CASE (run only this case number: replays
// one failure). Every failure names its seed and case number.
//
// This header holds the reference and the case runners; each dtype combination is compiled in
// one of tests/fuzz/combos_*.cpp (explicit instantiations of run_combo_at), so the combinations
// compile in parallel and test_fuzz.cpp only dispatches to them.
#include "../support.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../xtensor_headers.hpp"

namespace fz {

using ld = long double;
using ca::shape_type;
using std::int16_t;
using std::int32_t;
using std::int64_t;
using std::int8_t;
using std::size_t;
using std::uint16_t;
using std::uint32_t;
using std::uint64_t;
using std::uint8_t;

template <class T> inline constexpr bool is_b = std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_f = std::is_floating_point_v<T>;
template <class T> inline constexpr bool is_i = std::is_integral_v<T> && !is_b<T>;

// ---- NumPy 2 promotion (np.result_type of two arrays; weak Python scalars) ----
template <size_t N> struct signed_of_size;
template <> struct signed_of_size<2> { using type = int16_t; };
template <> struct signed_of_size<4> { using type = int32_t; };
template <> struct signed_of_size<8> { using type = int64_t; };
template <> struct signed_of_size<16> { using type = double; }; // uint64 with a signed type

template <class A, class B> constexpr auto np_promote_fn() {
    if constexpr (std::is_same_v<A, B>)
        return A{};
    else if constexpr (is_b<A>)
        return B{};
    else if constexpr (is_b<B>)
        return A{};
    else if constexpr (is_f<A> && is_f<B>)
        return std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>{};
    else if constexpr (is_f<A> || is_f<B>) {
        using F = std::conditional_t<is_f<A>, A, B>;
        using I = std::conditional_t<is_f<A>, B, A>;
        // the smallest float holding every value of I: float32 up to 16 bits
        return std::conditional_t<(sizeof(F) == 8 || sizeof(I) >= 4), double, float>{};
    } else if constexpr (std::is_signed_v<A> == std::is_signed_v<B>) {
        return std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>{};
    } else {
        using S = std::conditional_t<std::is_signed_v<A>, A, B>;
        using U = std::conditional_t<std::is_signed_v<A>, B, A>;
        if constexpr (sizeof(S) > sizeof(U))
            return S{};
        else
            return typename signed_of_size<2 * sizeof(U)>::type{};
    }
}
template <class A, class B> using np_promote_t = decltype(np_promote_fn<A, B>());
// An array of A with a weak C++ scalar of type W (bool, int, float or double).
template <class A, class W>
using np_weak_t = std::conditional_t<
    is_b<W>, A,
    std::conditional_t<std::is_integral_v<W>, std::conditional_t<is_b<A>, int64_t, A>,
                       std::conditional_t<is_f<A>, A, double>>>;
// clarray's documented choices: math functions compute in float for <= 16-bit integers and
// bool, double for wider integers (NumPy would give float16 for 8-bit inputs); `/` of integers
// gives double.
template <class T>
using float_of_t =
    std::conditional_t<is_f<T>, T, std::conditional_t<(sizeof(T) <= 2), float, double>>;
template <class T> using true_div_t = std::conditional_t<is_f<T>, T, double>;
// Reduction result types (NumPy): sum/prod of bool and signed -> int64, unsigned -> uint64.
template <class T>
using sum_t =
    std::conditional_t<is_f<T>, T,
                       std::conditional_t<std::is_unsigned_v<T> && !is_b<T>, uint64_t, int64_t>>;
template <class T> using mean_of_t = std::conditional_t<is_f<T>, T, double>;

template <class T> const char* type_name() {
    if constexpr (is_b<T>)
        return "bool";
    else if constexpr (std::is_same_v<T, int8_t>)
        return "int8";
    else if constexpr (std::is_same_v<T, uint8_t>)
        return "uint8";
    else if constexpr (std::is_same_v<T, int16_t>)
        return "int16";
    else if constexpr (std::is_same_v<T, uint16_t>)
        return "uint16";
    else if constexpr (std::is_same_v<T, int32_t>)
        return "int32";
    else if constexpr (std::is_same_v<T, uint32_t>)
        return "uint32";
    else if constexpr (std::is_same_v<T, int64_t>)
        return "int64";
    else if constexpr (std::is_same_v<T, uint64_t>)
        return "uint64";
    else if constexpr (std::is_same_v<T, float>)
        return "float";
    else if constexpr (std::is_same_v<T, double>)
        return "double";
    else if constexpr (std::is_same_v<T, int>)
        return "int";
    else
        return "?";
}

// ---- host reference values ----
template <class T> struct hv {
    T v{};            // integers and bool
    ld x = 0, e = 0;  // floats: reference value and bound on |device - x|; e == 0: x is exact
    bool unk = false; // the device's value is not determined here (see the file comment)
    // An exact float product before its rounding (NaN: not a product). OpenCL C contracts
    // a * b + c into fma by default (FP_CONTRACT ON), so a sum of it may round only once.
    ld product = std::numeric_limits<ld>::quiet_NaN();
};
template <class T> hv<T> exact(T value) {
    hv<T> r;
    if constexpr (is_f<T>)
        r.x = value;
    else
        r.v = value;
    return r;
}
// A C++ scalar next to an array of A: weak (it takes A's type unless its kind is higher).
template <class A, class W> hv<np_weak_t<A, W>> as_weak(W w) {
    return exact<np_weak_t<A, W>>(static_cast<np_weak_t<A, W>>(w));
}

// A float result of an op: reference x with propagated bound e, plus the op's own error.
// cr: the op is correctly rounded, so exact float inputs give exactly round(x).
template <class R> hv<R> fin(ld x, ld e, ld ulps, bool cr, bool unk) {
    using L = std::numeric_limits<R>;
    hv<R> r;
    r.unk = unk;
    if (std::isnan(x)) {
        r.x = x;
        return r;
    }
    if (e == 0 && cr && std::is_same_v<R, float>) {
        // long double holds float sums and products exactly: round once, as the device does
        const R f = static_cast<R>(x);
        r.x = f;
        if (f != 0 && std::fabs(f) < L::min()) r.e = L::min();
        if (x != 0 && f == 0) r.e = L::min();
        return r;
    }
    if (std::isinf(x)) {
        r.x = x;
        return r;
    }
    r.e = e + (ulps > 0 ? ulps * ld(L::epsilon()) * std::fabs(x) + ld(L::min()) : 0);
    if (std::fabs(x) - r.e > ld(L::max())) {
        r.x = std::copysign(std::numeric_limits<ld>::infinity(), x);
        r.e = 0;
    } else {
        r.x = x;
        if (std::fabs(x) + r.e > ld(L::max())) r.unk = true;
    }
    return r;
}

// Conversion as a C cast on the device (integers wrap; float->int truncates).
template <class R, class A> hv<R> conv(const hv<A>& a) {
    if constexpr (std::is_same_v<R, A>) {
        return a;
    } else {
        hv<R> r;
        r.unk = a.unk;
        if constexpr (is_f<R>) {
            if constexpr (is_f<A>) {
                if constexpr (sizeof(R) < sizeof(A)) return fin<R>(a.x, a.e, 0.5, true, a.unk);
                r.x = a.x;
                r.e = a.e;
            } else {
                r.x = static_cast<ld>(static_cast<R>(a.v)); // rounds to nearest, as the device
            }
        } else if constexpr (is_b<R>) {
            if constexpr (is_f<A>) {
                if (std::isnan(a.x))
                    r.v = true;
                else if (a.e > 0 && std::fabs(a.x) <= a.e)
                    r.unk = true;
                else
                    r.v = a.x != 0;
            } else {
                r.v = a.v != 0;
            }
        } else {
            if constexpr (is_f<A>) {
                const ld t = std::trunc(a.x);
                if (!std::isfinite(a.x) || std::trunc(a.x - a.e) != std::trunc(a.x + a.e) ||
                    t < ld(std::numeric_limits<R>::min()) || t > ld(std::numeric_limits<R>::max()))
                    r.unk = true; // undefined in C, or undetermined here
                else
                    r.v = static_cast<R>(t);
            } else {
                r.v = static_cast<R>(a.v);
            }
        }
        return r;
    }
}

// An integer op's exact value w in type R: wraps, except a signed 32/64-bit overflow, which is
// undefined in OpenCL C (narrower types compute in int, then wrap when cast back).
template <class R> hv<R> int_result(__int128 w, bool unk) {
    hv<R> r;
    r.unk = unk;
    if constexpr (std::is_signed_v<R> && sizeof(R) >= 4) {
        if (w < __int128(std::numeric_limits<R>::min()) ||
            w > __int128(std::numeric_limits<R>::max()))
            r.unk = true;
    }
    r.v = static_cast<R>(static_cast<std::make_unsigned_t<R>>(static_cast<unsigned __int128>(w)));
    return r;
}

enum class bop {
    add,
    sub,
    mul,
    div,
    lt,
    le,
    gt,
    ge,
    eq,
    ne,
    max,
    min,
    floordiv,
    mod,
    band,
    bor,
    bxor
};

template <class R> hv<R> arith(bop op, const hv<R>& a, const hv<R>& b) {
    const bool unk = a.unk || b.unk;
    if constexpr (is_b<R>) {
        hv<R> r;
        r.unk = unk;
        switch (op) {
        case bop::add:
        case bop::bor:
        case bop::max:
            r.v = a.v || b.v;
            break;
        case bop::mul:
        case bop::band:
        case bop::min:
            r.v = a.v && b.v;
            break;
        case bop::bxor:
            r.v = a.v != b.v;
            break;
        default:
            r.unk = true; // not instantiated for bool by the templates
        }
        return r;
    } else if constexpr (is_i<R>) {
        const __int128 x = a.v, y = b.v;
        switch (op) {
        case bop::add:
            return int_result<R>(x + y, unk);
        case bop::sub:
            return int_result<R>(x - y, unk);
        case bop::mul: {
            // 16-bit unsigned products are computed in int by C (undefined past INT_MAX); clarray
            // documents NumPy's wrap-around, which is what is expected here.
            return int_result<R>(x * y, unk);
        }
        case bop::max:
            return int_result<R>(std::max(x, y), unk);
        case bop::min:
            return int_result<R>(std::min(x, y), unk);
        case bop::band:
            return int_result<R>(x & y, unk);
        case bop::bor:
            return int_result<R>(x | y, unk);
        case bop::bxor:
            return int_result<R>(x ^ y, unk);
        case bop::floordiv: {
            if (y == 0) return int_result<R>(0, unk);
            if constexpr (std::is_signed_v<R>) {
                if (y == -1) return int_result<R>(-x, unk && true); // wraps: INT_MIN // -1
                __int128 q = x / y;
                if (x % y != 0 && ((x < 0) != (y < 0))) q -= 1;
                return int_result<R>(q, unk);
            } else {
                return int_result<R>(x / y, unk);
            }
        }
        case bop::mod: {
            if (y == 0) return int_result<R>(0, unk);
            if constexpr (std::is_signed_v<R>) {
                if (y == -1) return int_result<R>(0, unk);
                __int128 m = x % y;
                if (m != 0 && ((m < 0) != (y < 0))) m += y;
                return int_result<R>(m, unk);
            } else {
                return int_result<R>(x % y, unk);
            }
        }
        default: {
            hv<R> r;
            r.unk = true;
            return r;
        }
        }
    } else {
        const ld x = a.x, y = b.x;
        const bool inf = std::isinf(x) || std::isinf(y);
        switch (op) {
        case bop::add:
        case bop::sub: {
            const ld sign = op == bop::add ? 1 : -1;
            hv<R> r = fin<R>(x + sign * y, inf ? 0 : a.e + b.e, 0.5, true, unk);
            if (std::is_same_v<R, float> && r.e == 0 && !inf && !std::isnan(r.x)) {
                // contracted with a product operand: one rounding of the exact sum
                for (int k = 0; k < 2; ++k) {
                    const ld pa = k == 0 ? a.product : x, pb = k == 1 ? b.product : y;
                    if (std::isnan(k == 0 ? a.product : b.product)) continue;
                    const ld alt = static_cast<R>(pa + sign * pb);
                    r.e = std::max(r.e, std::fabs(alt - r.x));
                }
            }
            return r;
        }
        case bop::mul: {
            if (inf) {
                const bool zero_possible = (std::isinf(x) && b.e > 0 && std::fabs(y) <= b.e) ||
                                           (std::isinf(y) && a.e > 0 && std::fabs(x) <= a.e);
                return fin<R>(x * y, 0, 0.5, true, unk || zero_possible);
            }
            hv<R> r =
                fin<R>(x * y, std::fabs(x) * b.e + std::fabs(y) * a.e + a.e * b.e, 0.5, true, unk);
            if (a.e == 0 && b.e == 0) r.product = x * y; // exact in long double for floats
            return r;
        }
        case bop::div: {
            const ld ulps = sizeof(R) == 4 ? 2.5 : 0.5;
            if (b.e > 0 && std::fabs(y) <= b.e) return fin<R>(0, 0, 0, false, true);
            if (y == 0 && a.e > 0 && std::fabs(x) <= a.e) return fin<R>(0, 0, 0, false, true);
            const ld q = x / y;
            if (inf || y == 0) return fin<R>(q, 0, ulps, sizeof(R) == 8, unk);
            return fin<R>(q, (a.e + std::fabs(q) * b.e) / (std::fabs(y) - b.e), ulps, false, unk);
        }
        case bop::max:
        case bop::min: {
            hv<R> r;
            r.unk = unk;
            if (std::isnan(x) || std::isnan(y))
                r.x = x + y; // NaN propagates (NumPy's maximum)
            else
                r.x = op == bop::max ? std::max(x, y) : std::min(x, y);
            r.e = std::max(a.e, b.e);
            return r;
        }
        case bop::floordiv:
        case bop::mod: {
            // NumPy's npy_divmod, on exact inputs only.
            if (a.e > 0 || b.e > 0) return fin<R>(0, 0, 0, false, true);
            const ld m = std::fmod(x, y); // exact
            if (op == bop::mod) {
                if (std::isnan(m)) return fin<R>(m, 0, 0, false, unk);
                if (m != 0) {
                    if ((m < 0) != (y < 0))
                        return fin<R>(m + y, 0, 0.5, true, unk || sizeof(R) == 8);
                    return fin<R>(m, 0, 0, false, unk);
                }
                hv<R> r;
                r.unk = unk;
                r.x = std::copysign(ld(0), y);
                return r;
            }
            if (y == 0) return fin<R>(x / y, 0, 0, false, unk);
            if (std::isinf(x) || std::isnan(x) || std::isnan(y))
                return fin<R>(0, 0, 0, false, true);
            ld d = std::round((x - m) / y);
            if (m != 0 && ((y < 0) != (m < 0))) d -= 1;
            hv<R> r;
            r.unk = unk || std::fabs(d) > ld(1 << 22);
            r.x = d == 0 ? std::copysign(ld(0), x / y) : d;
            return r;
        }
        default: {
            hv<R> r;
            r.unk = true;
            return r;
        }
        }
    }
}

template <class C> hv<bool> compare(bop op, const hv<C>& a, const hv<C>& b) {
    hv<bool> r;
    r.unk = a.unk || b.unk;
    auto apply = [op](auto x, auto y) {
        switch (op) {
        case bop::lt:
            return x < y;
        case bop::le:
            return x <= y;
        case bop::gt:
            return x > y;
        case bop::ge:
            return x >= y;
        case bop::eq:
            return x == y;
        default:
            return x != y;
        }
    };
    if constexpr (is_f<C>) {
        if (!std::isnan(a.x) && !std::isnan(b.x) && a.e + b.e > 0 &&
            std::fabs(a.x - b.x) <= a.e + b.e)
            r.unk = true;
        r.v = apply(a.x, b.x);
    } else {
        r.v = apply(a.v, b.v);
    }
    return r;
}

#define FZ_ARITH(SYMBOL, NAME, OP)                                                                 \
    template <class A, class B> auto SYMBOL(const hv<A>& a, const hv<B>& b) {                      \
        using P = np_promote_t<A, B>;                                                              \
        return arith(bop::OP, conv<P>(a), conv<P>(b));                                             \
    }                                                                                              \
    template <class A, class W, class = std::enable_if_t<std::is_arithmetic_v<W>>>                 \
    auto SYMBOL(const hv<A>& a, W s) {                                                             \
        return NAME(a, as_weak<A>(s));                                                             \
    }                                                                                              \
    template <class A, class W, class = std::enable_if_t<std::is_arithmetic_v<W>>>                 \
    auto SYMBOL(W s, const hv<A>& a) {                                                             \
        return NAME(as_weak<A>(s), a);                                                             \
    }
FZ_ARITH(operator+, operator+, add)
FZ_ARITH(operator-, operator-, sub)
FZ_ARITH(operator*, operator*, mul)
FZ_ARITH(operator&, operator&, band)
FZ_ARITH(operator|, operator|, bor)
FZ_ARITH(operator^, operator^, bxor)
FZ_ARITH(maximum, maximum, max)
FZ_ARITH(minimum, minimum, min)
FZ_ARITH(floor_divide, floor_divide, floordiv)
FZ_ARITH(mod, mod, mod)
#undef FZ_ARITH

template <class A, class B> auto operator/(const hv<A>& a, const hv<B>& b) {
    using R = true_div_t<np_promote_t<A, B>>;
    return arith(bop::div, conv<R>(a), conv<R>(b));
}
template <class A, class W, class = std::enable_if_t<std::is_arithmetic_v<W>>>
auto operator/(const hv<A>& a, W s) {
    return a / as_weak<A>(s);
}

#define FZ_COMPARE(SYMBOL, OP)                                                                     \
    template <class A, class B> hv<bool> SYMBOL(const hv<A>& a, const hv<B>& b) {                  \
        using P = np_promote_t<A, B>;                                                              \
        return compare(bop::OP, conv<P>(a), conv<P>(b));                                           \
    }                                                                                              \
    template <class A, class W, class = std::enable_if_t<std::is_arithmetic_v<W>>>                 \
    hv<bool> SYMBOL(const hv<A>& a, W s) {                                                         \
        return SYMBOL(a, as_weak<A>(s));                                                           \
    }
FZ_COMPARE(operator<, lt)
FZ_COMPARE(operator<=, le)
FZ_COMPARE(operator>, gt)
FZ_COMPARE(operator>=, ge)
FZ_COMPARE(operator==, eq)
FZ_COMPARE(operator!=, ne)
#undef FZ_COMPARE

template <class A> hv<A> operator-(const hv<A>& a) {
    if constexpr (is_f<A>) {
        hv<A> r = a;
        r.x = -a.x;
        r.product = -a.product; // fma(-a, b, c) contracts as well
        return r;
    } else {
        return int_result<A>(-__int128(a.v), a.unk);
    }
}
template <class A> hv<A> abs(const hv<A>& a) {
    if constexpr (is_f<A>) {
        hv<A> r;
        r.x = std::fabs(a.x);
        r.e = a.e;
        r.unk = a.unk;
        return r;
    } else if constexpr (is_b<A> || std::is_unsigned_v<A>) {
        return a;
    } else {
        // OpenCL's abs returns the unsigned magnitude; the cast back wraps abs(MIN) to MIN.
        hv<A> r;
        r.unk = a.unk;
        r.v = static_cast<A>(a.v < 0 ? static_cast<std::make_unsigned_t<A>>(
                                           0u - static_cast<std::make_unsigned_t<A>>(a.v))
                                     : static_cast<std::make_unsigned_t<A>>(a.v));
        return r;
    }
}
template <class A> hv<bool> operator!(const hv<A>& a) {
    hv<bool> r = conv<bool>(a);
    r.v = !r.v;
    return r;
}
template <class A> hv<bool> logical_not(const hv<A>& a) {
    return !a;
}
template <class A, class B> hv<bool> logical_and(const hv<A>& a, const hv<B>& b) {
    hv<bool> x = conv<bool>(a), y = conv<bool>(b), r;
    r.v = x.v && y.v;
    // a known false decides the result
    r.unk = (x.unk || y.unk) && !((!x.unk && !x.v) || (!y.unk && !y.v));
    return r;
}
template <class A> hv<bool> isfinite(const hv<A>& a) {
    hv<bool> r;
    r.unk = a.unk;
    if constexpr (is_f<A>)
        r.v = std::isfinite(a.x);
    else
        r.v = true;
    return r;
}
template <class U, class A> hv<U> astype(const hv<A>& a) {
    return conv<U>(a);
}

template <class C, class A, class B> auto where(const hv<C>& c, const hv<A>& a, const hv<B>& b) {
    using R = np_promote_t<A, B>;
    hv<bool> cb = conv<bool>(c);
    hv<R> r = cb.v ? conv<R>(a) : conv<R>(b);
    r.unk = r.unk || cb.unk;
    r.product = std::numeric_limits<ld>::quiet_NaN(); // a select is not contracted
    return r;
}
template <class C, class A, class W, class = std::enable_if_t<std::is_arithmetic_v<W>>>
auto where(const hv<C>& c, const hv<A>& a, W s) {
    return where(c, a, as_weak<A>(s));
}

// Math functions: compute in float_of(A), ulp bounds from the OpenCL C specification.
enum class fkind { smooth, periodic, step };
template <class R, class F> hv<R> math(const hv<R>& a, F f, ld ulps, fkind k) {
    const ld y = f(a.x);
    if (!std::isfinite(a.x)) return fin<R>(y, 0, ulps, false, a.unk);
    if (k == fkind::step) {
        hv<R> r;
        r.unk = a.unk || (a.e > 0 && f(a.x - a.e) != f(a.x + a.e));
        r.x = y;
        return r;
    }
    ld prop = 0;
    bool unk = a.unk || (k == fkind::periodic && a.e > 0.25);
    if (a.e > 0) {
        const ld lo = f(a.x - a.e), hi = f(a.x + a.e);
        if ((std::isnan(lo) || std::isnan(hi) || std::isinf(lo) || std::isinf(hi)) &&
            !std::isnan(y))
            unk = true;
        prop = 2 * std::max(std::fabs(lo - y), std::fabs(hi - y));
    }
    return fin<R>(y, prop, ulps, false, unk);
}
#define FZ_MATH(NAME, EXPR, ULP_FLOAT, ULP_DOUBLE, KIND)                                           \
    template <class A> auto NAME(const hv<A>& a) {                                                 \
        using R = float_of_t<A>;                                                                   \
        return math<R>(                                                                            \
            conv<R>(a), [](ld x) -> ld { return EXPR; }, sizeof(R) == 4 ? ULP_FLOAT : ULP_DOUBLE,  \
            fkind::KIND);                                                                          \
    }
FZ_MATH(sin, std::sin(x), 4, 4, periodic)
FZ_MATH(exp, std::exp(x), 3, 3, smooth)
FZ_MATH(log, std::log(x), 3, 3, smooth)
FZ_MATH(sqrt, std::sqrt(x), 3, 0.5, smooth)
FZ_MATH(tanh, std::tanh(x), 5, 5, smooth)
FZ_MATH(atan, std::atan(x), 5, 5, smooth)
FZ_MATH(cbrt, std::cbrt(x), 2, 2, smooth)
FZ_MATH(floor, std::floor(x), 0, 0, step)
FZ_MATH(ceil, std::ceil(x), 0, 0, step)
#undef FZ_MATH

using ca::abs;
using ca::astype;
using ca::atan;
using ca::cbrt;
using ca::ceil;
using ca::exp;
using ca::floor;
using ca::floor_divide;
using ca::isfinite;
using ca::log;
using ca::logical_and;
using ca::logical_not;
using ca::maximum;
using ca::minimum;
using ca::mod;
using ca::sin;
using ca::sqrt;
using ca::tanh;
// where is found by ADL: clarray's is unconstrained, fz::where takes hv.

// ---- expression tree templates: f(x, y, c, s) with x, c of dtype A, y of dtype B, s weak ----
// `ok` excludes what NumPy (and clarray, at compile time) refuses: - on bool, bit ops on floats.
#define FZ_TREE(NAME, OK, USES_C, ...)                                                             \
    struct NAME {                                                                                  \
        static constexpr const char* name = #__VA_ARGS__;                                          \
        static constexpr bool uses_c = USES_C;                                                     \
        template <class A, class B, class W> static constexpr bool ok = OK;                        \
        template <class X, class Y, class C, class S>                                              \
        static auto f(const X& x, const Y& y, const C& c, const S& s) {                            \
            (void)x, (void)y, (void)c, (void)s;                                                    \
            return __VA_ARGS__;                                                                    \
        }                                                                                          \
    };
#define FZ_NOT_BOTH_BOOL (!(is_b<A> && is_b<B>))
FZ_TREE(tree_axpy, true, false, x + y * s)
FZ_TREE(tree_diff_times, FZ_NOT_BOTH_BOOL, true, (x - y) * c)
FZ_TREE(tree_neg, true, true, -(x* s) + maximum(c, y))
FZ_TREE(tree_div, true, false, x / (abs(y) + 1))
FZ_TREE(tree_where_gt, true, true, where(x > y, x, c* s))
FZ_TREE(tree_where_ne, true, true, where((x <= s) != (y > c), y* s, x))
FZ_TREE(tree_max_min, true, true, maximum(x, y) - minimum(c, s))
FZ_TREE(tree_cast_int, true, false, astype<int32_t>(x* s) + y)
FZ_TREE(tree_sin_exp, true, false, sin(x) * exp(-abs(y * s)))
FZ_TREE(tree_sqrt_log, true, false, sqrt(abs(x* s)) + log(abs(y) + 1))
FZ_TREE(tree_tanh_cbrt, true, true, tanh(x) + cbrt(c) * atan(y))
FZ_TREE(tree_floor_eq, true, false, floor(x* s) == ceil(y))
FZ_TREE(tree_floordiv_mod, FZ_NOT_BOTH_BOOL, true, floor_divide(x, y) + mod(c, y))
FZ_TREE(tree_bits, (!is_f<np_promote_t<A, B>> && std::is_integral_v<W> && !is_b<W>), true,
        (x & y) | (c ^ s))
FZ_TREE(tree_logical, true, true, logical_and(x > s, !(y < c)) | logical_not(x))
FZ_TREE(tree_finite, true, false, where(isfinite(x / y), x / y, s))
FZ_TREE(tree_casts, true, true, where(x != 0, astype<double>(y) / x, astype<float>(c)))
FZ_TREE(tree_clip, true, false, minimum(maximum(x, s), y * 2))
FZ_TREE(tree_narrow, true, true, astype<uint8_t>(x) + astype<int16_t>(y) * c)
FZ_TREE(tree_cube, FZ_NOT_BOTH_BOOL, true, x* x* x - y * c + s)
FZ_TREE(tree_exp_sqrt, true, true, exp(x / (abs(c) + 1)) - sqrt(abs(y)))
#undef FZ_NOT_BOTH_BOOL
#undef FZ_TREE
using trees = std::tuple<tree_axpy, tree_diff_times, tree_neg, tree_div, tree_where_gt,
                         tree_where_ne, tree_max_min, tree_cast_int, tree_sin_exp, tree_sqrt_log,
                         tree_tanh_cbrt, tree_floor_eq, tree_floordiv_mod, tree_bits, tree_logical,
                         tree_finite, tree_casts, tree_clip, tree_narrow, tree_cube, tree_exp_sqrt>;

// ---- dtype combinations: arrays of A and B, storage S, weak scalar W ----
template <class A_, class B_, class S_, class W_> struct combo {
    using A = A_;
    using B = B_;
    using S = S_;
    using W = W_;
    static std::string name() {
        return std::string(type_name<A>()) + "," + type_name<B>() + "," + S::name + ",scalar " +
               type_name<W>();
    }
};
using combos = std::tuple<
    combo<float, float, ca::svm_coarse, float>, combo<int32_t, float, ca::buffer, int>,
    combo<int8_t, uint8_t, ca::svm_fine, int>, combo<bool, int16_t, ca::svm_coarse, double>,
    combo<uint32_t, int32_t, ca::buffer, float>, combo<double, float, ca::svm_fine, double>,
    combo<uint64_t, int64_t, ca::svm_coarse, int>, combo<uint16_t, uint8_t, ca::buffer, int>,
    combo<int64_t, bool, ca::svm_fine, float>, combo<float, int64_t, ca::buffer, int>>;

// Runs f(std::integral_constant<size_t, I>) for I == i.
template <class F, size_t... I> void dispatch_impl(size_t i, F& f, std::index_sequence<I...>) {
    ((i == I ? (f(std::integral_constant<size_t, I>{}), 0) : 0), ...);
}
template <size_t N, class F> void dispatch(size_t i, F&& f) {
    dispatch_impl(i, f, std::make_index_sequence<N>{});
}

// ---- random values ----
using rng_t = std::mt19937_64;
inline bool coin(rng_t& r, double p) {
    return std::uniform_real_distribution<double>(0, 1)(r) < p;
}
inline size_t below(rng_t& r, size_t n) {
    return n ? static_cast<size_t>(r() % n) : 0;
}

template <class T> T value(rng_t& r) {
    if constexpr (is_b<T>) {
        return (r() & 1) != 0;
    } else if constexpr (is_f<T>) {
        const size_t k = below(r, 100);
        if (k < 2) return std::numeric_limits<T>::quiet_NaN();
        if (k < 3)
            return (r() & 1) ? std::numeric_limits<T>::infinity()
                             : -std::numeric_limits<T>::infinity();
        if (k < 8) return 0;
        if (k < 30) return static_cast<T>(static_cast<int>(below(r, 21)) - 10); // small integers
        return static_cast<T>(std::uniform_real_distribution<double>(-100, 100)(r));
    } else if constexpr (sizeof(T) <= 2) {
        // the whole range: narrow integers compute in int and wrap when cast back
        return static_cast<T>(r());
    } else if constexpr (std::is_signed_v<T>) {
        // |v| <= 100 keeps depth-4 products far from a (undefined) 32-bit overflow
        return coin(r, 0.03)
                   ? (coin(r, 0.5) ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max())
                   : static_cast<T>(static_cast<int>(below(r, 201)) - 100);
    } else {
        return coin(r, 0.1) ? static_cast<T>(r()) : static_cast<T>(below(r, 201)); // wraps
    }
}

// A weak scalar of type W that fits both A and B (NumPy refuses an out-of-range Python int).
template <class W, class A, class B> W scalar_value(rng_t& r) {
    if constexpr (is_f<W>) {
        return coin(r, 0.3) ? static_cast<W>(static_cast<int>(below(r, 9)) - 4)
                            : static_cast<W>(std::uniform_real_distribution<double>(-10, 10)(r));
    } else {
        long lo = -100, hi = 100;
        auto narrow = [&](auto t) {
            using T = decltype(t);
            if constexpr (is_i<T>) {
                lo = std::max<long>(lo,
                                    std::is_signed_v<T> ? long(std::numeric_limits<T>::min()) : 0L);
                hi = std::min<long>(hi, sizeof(T) < 8 ? long(std::numeric_limits<T>::max()) : 100L);
            }
        };
        narrow(A{});
        narrow(B{});
        return static_cast<W>(lo + static_cast<long>(below(r, static_cast<size_t>(hi - lo + 1))));
    }
}

// ---- views: one slice spec drives the device view and its host descriptor ----
struct spec {
    enum kind_t { range, newaxis } kind = range;
    long start = 0, stop = 0, step = 1;
    bool has_start = false, has_stop = false;
};
struct hdesc { // a view over a host base in C order: shape, strides (elements), offset
    std::vector<size_t> shape;
    std::vector<long> strides;
    long offset = 0;
    size_t size() const {
        size_t n = 1;
        for (size_t e : shape)
            n *= e;
        return n;
    }
};
inline hdesc c_desc(const std::vector<size_t>& shape) {
    hdesc d;
    d.shape = shape;
    d.strides.assign(shape.size(), 1);
    for (size_t k = shape.size(); k-- > 1;)
        d.strides[k - 1] = d.strides[k] * long(shape[k]);
    return d;
}
// Python slicing semantics, written here from the language reference.
inline hdesc apply_specs(const hdesc& in, const std::vector<spec>& specs) {
    hdesc out;
    out.offset = in.offset;
    size_t dim = 0;
    for (const spec& s : specs) {
        if (s.kind == spec::newaxis) {
            out.shape.push_back(1);
            out.strides.push_back(0);
            continue;
        }
        const long E = long(in.shape[dim]), st = in.strides[dim];
        long start, stop, n;
        if (s.step > 0) {
            start = s.has_start ? (s.start < 0 ? s.start + E : s.start) : 0;
            stop = s.has_stop ? (s.stop < 0 ? s.stop + E : s.stop) : E;
            n = stop > start ? (stop - start + s.step - 1) / s.step : 0;
        } else {
            start = s.has_start ? (s.start < 0 ? s.start + E : s.start) : E - 1;
            stop = s.has_stop ? (s.stop < 0 ? s.stop + E : s.stop) : -1;
            n = start > stop ? (start - stop - s.step - 1) / -s.step : 0;
        }
        if (n > 0) out.offset += start * st;
        out.shape.push_back(size_t(n));
        out.strides.push_back(st * s.step);
        ++dim;
    }
    for (; dim < in.shape.size(); ++dim) {
        out.shape.push_back(in.shape[dim]);
        out.strides.push_back(in.strides[dim]);
    }
    return out;
}
inline hdesc transposed(const hdesc& in, const std::vector<size_t>& axes) {
    hdesc out;
    out.offset = in.offset;
    for (size_t a : axes) {
        out.shape.push_back(in.shape[a]);
        out.strides.push_back(in.strides[a]);
    }
    return out;
}
inline ca::slice_arg to_ca(const spec& s) {
    if (s.kind == spec::newaxis) return ca::slice_arg(ca::newaxis());
    ca::range_bound b0 = s.has_start ? ca::range_bound(s.start) : ca::range_bound(ca::none);
    ca::range_bound b1 = s.has_stop ? ca::range_bound(s.stop) : ca::range_bound(ca::none);
    return ca::slice_arg(ca::range(b0, b1, s.step));
}
template <class T, class S>
ca::cl_array<T, S> apply_specs(const ca::cl_array<T, S>& a, const std::vector<spec>& sp) {
    std::vector<ca::slice_arg> v;
    for (const spec& s : sp)
        v.push_back(to_ca(s));
    switch (v.size()) {
    case 0:
        return a;
    case 1:
        return a(v[0]);
    case 2:
        return a(v[0], v[1]);
    case 3:
        return a(v[0], v[1], v[2]);
    case 4:
        return a(v[0], v[1], v[2], v[3]);
    case 5:
        return a(v[0], v[1], v[2], v[3], v[4]);
    default:
        return a(v[0], v[1], v[2], v[3], v[4], v[5]);
    }
}
inline std::string spec_text(const std::vector<spec>& sp) {
    std::string t;
    for (const spec& s : sp) {
        if (!t.empty()) t += ",";
        if (s.kind == spec::newaxis) {
            t += "newaxis";
            continue;
        }
        t += (s.has_start ? std::to_string(s.start) : "") + ":" +
             (s.has_stop ? std::to_string(s.stop) : "") + ":" + std::to_string(s.step);
    }
    return "[" + t + "]";
}
inline std::string shape_text(const std::vector<size_t>& s) {
    std::string t = "(";
    for (size_t i = 0; i < s.size(); ++i)
        t += (i ? "," : "") + std::to_string(s[i]);
    return t + ")";
}

// How a view of shape V is cut from a fresh base: base shape and layout, transpose, slices.
struct view_plan {
    std::vector<size_t> base_shape;
    bool f_layout = false;
    std::vector<size_t> axes; // transpose of the base (empty: none)
    std::vector<spec> specs;
    std::string text() const {
        std::string t = "base" + shape_text(base_shape) + (f_layout ? "F" : "");
        if (!axes.empty()) t += ".T" + shape_text(axes);
        return t + spec_text(specs);
    }
};
inline view_plan plan_view(rng_t& r, const std::vector<size_t>& V, bool allow_newaxis = true) {
    view_plan p;
    const size_t rank = V.size();
    if (rank == 0) return p;
    std::vector<bool> nax(rank, false);
    size_t m = 0;
    for (size_t k = 0; k < rank; ++k) {
        nax[k] = allow_newaxis && V[k] == 1 && coin(r, 0.3);
        m += !nax[k];
    }
    if (m == 0) nax[0] = false, m = 1;
    std::vector<size_t> E;
    for (size_t k = 0; k < rank; ++k) {
        spec s;
        if (nax[k]) {
            s.kind = spec::newaxis;
            p.specs.push_back(s);
            continue;
        }
        const long ext = long(V[k]);
        static const long steps[] = {1, 1, 1, 1, 2, 3, -1, -1, -2};
        s.step = steps[below(r, 9)];
        const long extra = long(below(r, 3));
        if (ext == 0) {
            const long e = 1 + extra;
            s.step = 1;
            s.start = long(below(r, size_t(e)));
            s.stop = s.start;
            s.has_start = s.has_stop = true;
            E.push_back(size_t(e));
            p.specs.push_back(s);
            continue;
        }
        const long span = (ext - 1) * std::labs(s.step) + 1, e = span + extra;
        if (s.step > 0) {
            const long start = long(below(r, size_t(e - span + 1))), stop = start + span;
            s.has_start = start != 0 || coin(r, 0.5);
            s.start = (s.has_start && coin(r, 0.3)) ? start - e : start;
            s.has_stop = stop != e || coin(r, 0.5);
            s.stop = (s.has_stop && stop < e && coin(r, 0.3)) ? stop - e : stop;
            // the last selected index must be the span's end: stop may overshoot by < step
            if (s.has_stop && stop == start + span && s.step > 1 && stop + 1 <= e && coin(r, 0.3))
                s.stop = (s.stop < 0 && stop + 1 < e) ? stop + 1 - e : stop + 1;
        } else {
            const long start = span - 1 + long(below(r, size_t(e - span + 1))), stop = start - span;
            s.has_start = start != e - 1 || coin(r, 0.5);
            s.start = (s.has_start && coin(r, 0.3)) ? start - e : start;
            s.has_stop = stop >= 0; // -1 would mean "the last element" (Python)
            s.stop = (s.has_stop && coin(r, 0.3)) ? stop - e : stop;
        }
        E.push_back(size_t(e));
        p.specs.push_back(s);
    }
    p.base_shape = E;
    if (m >= 2 && coin(r, 0.35)) {
        // the base holds the axes permuted; transposing it back gives E
        std::vector<size_t> perm(m);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), r);
        p.axes.assign(m, 0);
        for (size_t j = 0; j < m; ++j) {
            p.base_shape[j] = E[perm[j]];
            p.axes[perm[j]] = j;
        }
    }
    p.f_layout = coin(r, 0.2);
    return p;
}

template <class T, class S> struct leaf {
    ca::cl_array<T, S> base, view;
    xt::xarray<T> host; // the base's values, C order
    hdesc d;            // the view over `host`
    std::string text;
};
template <class T, class S>
leaf<T, S> make_leaf(rng_t& r, const std::vector<size_t>& V, bool allow_newaxis = true) {
    const view_plan p = plan_view(r, V, allow_newaxis);
    leaf<T, S> l;
    shape_type bs(p.base_shape.begin(), p.base_shape.end());
    l.host = xt::xarray<T>::from_shape(bs);
    for (auto& v : l.host)
        v = value<T>(r);
    l.base = ca::cl_array<T, S>(test::q(), bs, p.f_layout ? ca::layout::f : ca::layout::c);
    l.base.set(l.host);
    ca::cl_array<T, S> t = p.axes.empty() ? l.base : l.base.transpose(p.axes);
    l.view = apply_specs(t, p.specs);
    hdesc d = c_desc(p.base_shape);
    if (!p.axes.empty()) d = transposed(d, p.axes);
    l.d = apply_specs(d, p.specs);
    l.text = p.text();
    return l;
}

// Element of a host view at output multi-index idx (the view broadcast to the output's rank).
// The view must not have more axes than idx (it would index far outside its base): a harness
// error, thrown rather than read.
template <class T> T at(const xt::xarray<T>& base, const hdesc& d, const std::vector<size_t>& idx) {
    if (d.shape.size() > idx.size())
        throw std::logic_error("fuzz harness: a rank-" + std::to_string(d.shape.size()) +
                               " view read at a rank-" + std::to_string(idx.size()) + " position");
    long off = d.offset;
    const size_t lead = idx.size() - d.shape.size();
    for (size_t k = 0; k < d.shape.size(); ++k)
        if (d.shape[k] != 1) off += long(idx[lead + k]) * d.strides[k];
    return base.data()[off];
}
inline bool next_index(std::vector<size_t>& idx, const std::vector<size_t>& shape) {
    for (size_t k = shape.size(); k-- > 0;) {
        if (++idx[k] < shape[k]) return true;
        idx[k] = 0;
    }
    return false;
}

// ---- comparison of device and host results ----
template <class T> std::string show(const T& v) {
    std::ostringstream s;
    s.precision(std::numeric_limits<double>::max_digits10);
    if constexpr (is_f<T>)
        s << double(v);
    else if constexpr (is_b<T>)
        s << (v ? "true" : "false");
    else
        s << +v;
    return s.str();
}
struct tally {
    size_t compared = 0, skipped = 0, bad = 0;
    std::string first_bad;
};
template <class T>
void check_value(tally& t, const T& got, const hv<T>& want, const std::string& where) {
    if (want.unk) {
        ++t.skipped;
        return;
    }
    ++t.compared;
    bool ok;
    if constexpr (is_f<T>) {
        const ld g = got;
        if (std::isnan(want.x))
            ok = std::isnan(g);
        else if (std::isinf(want.x))
            ok = g == want.x;
        else
            ok = std::isfinite(g) && std::fabs(g - want.x) <= want.e * (1 + 1e-9L);
    } else {
        ok = got == want.v;
    }
    if (!ok && t.bad++ < 4) {
        std::ostringstream s;
        s << "  at " << where << ": device " << show(got) << ", host ";
        if constexpr (is_f<T>)
            s << show(double(want.x)) << " +- " << double(want.e);
        else
            s << show(want.v);
        s << "\n";
        t.first_bad += s.str();
    }
}
inline std::string idx_text(const std::vector<size_t>& idx) {
    return shape_text(idx);
}

struct fuzz_stats {
    size_t cases = 0, compared = 0, skipped = 0, failed_cases = 0, skipped_cases = 0;
    std::map<std::string, size_t> kinds;
};

struct case_ctx {
    uint64_t seed;
    size_t number;
    rng_t r;
    std::string text; // what the case does, for failure messages
    fuzz_stats* stats;
};

inline std::vector<size_t> random_shape(rng_t& r, bool big_ok) {
    static const size_t ranks[] = {1, 1, 2, 2, 2, 3, 3, 4};
    const size_t rank = ranks[below(r, 8)];
    std::vector<size_t> s(rank);
    const bool big = big_ok && coin(r, 0.25);
    for (size_t k = 0; k < rank; ++k) {
        s[k] = 1 + below(r, 6);
        if (big && k + 1 == rank) s[k] = 1 + below(r, rank == 1 ? 3000 : 600);
        if (coin(r, 0.03)) s[k] = 0;
    }
    return s;
}
// A shape that broadcasts to O: leading axes dropped, some extents 1.
inline std::vector<size_t> broadcast_shape(rng_t& r, const std::vector<size_t>& O) {
    size_t drop = coin(r, 0.3) ? below(r, O.size() + 1) : 0;
    std::vector<size_t> s(O.begin() + long(drop), O.end());
    for (size_t& e : s)
        if (coin(r, 0.2)) e = 1;
    return s;
}

inline void report(case_ctx& c, const tally& t, const std::string& what) {
    c.stats->compared += t.compared;
    c.stats->skipped += t.skipped;
    if (t.bad) ++c.stats->failed_cases;
    INFO("CLARRAY_FUZZ_SEED=" << c.seed << " CLARRAY_FUZZ_CASE=" << c.number << " (replay with "
                              << "these)\n"
                              << c.text << what << "\n"
                              << t.bad << " of " << t.compared << " elements differ (" << t.skipped
                              << " undetermined)\n"
                              << t.first_bad);
    CHECK(t.bad == 0);
}

template <class H> struct hv_value;
template <class T> struct hv_value<hv<T>> { using type = T; };
template <class H> using hv_value_t = typename hv_value<std::decay_t<H>>::type;

inline size_t count(const std::vector<size_t>& s) {
    size_t n = 1;
    for (size_t e : s)
        n *= e;
    return n;
}
// Offset of a (non-broadcast) view element in its base.
inline long offset_of(const hdesc& d, const std::vector<size_t>& idx) {
    long off = d.offset;
    for (size_t k = 0; k < d.shape.size(); ++k)
        off += long(idx[k]) * d.strides[k];
    return off;
}

// Compares a whole base array after a write into some of its elements: `want` holds the
// expected value of every base element (C order).
template <class T>
void check_base(tally& t, const xt::xarray<T>& got, const std::vector<hv<T>>& want) {
    for (size_t i = 0; i < want.size(); ++i)
        check_value(t, got.data()[i], want[i], "base element " + std::to_string(i));
}
template <class T> std::vector<hv<T>> exact_all(const xt::xarray<T>& h) {
    std::vector<hv<T>> v;
    v.reserve(h.size());
    for (size_t i = 0; i < h.size(); ++i)
        v.push_back(exact<T>(h.data()[i]));
    return v;
}
template <class T> bool same_shape(const xt::xarray<T>& a, const std::vector<size_t>& s) {
    return a.dimension() == s.size() && std::equal(s.begin(), s.end(), a.shape().begin());
}

// The shape views of these shapes broadcast to (NumPy's rule; every shape here broadcasts).
inline std::vector<size_t> broadcast_all(const std::vector<std::vector<size_t>>& shapes) {
    std::vector<size_t> out;
    for (const auto& s : shapes) {
        if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
        const size_t lead = out.size() - s.size();
        for (size_t k = 0; k < s.size(); ++k)
            if (s[k] != 1) out[lead + k] = s[k];
    }
    return out;
}

template <class Tree, class Combo> void elementwise_case(case_ctx& c, bool into_view) {
    using A = typename Combo::A;
    using B = typename Combo::B;
    using S = typename Combo::S;
    using W = typename Combo::W;
    rng_t& r = c.r;
    std::vector<size_t> O = random_shape(r, true);
    auto x = make_leaf<A, S>(r, broadcast_shape(r, O));
    auto y = make_leaf<B, S>(r, broadcast_shape(r, O));
    const bool c_is_x = coin(r, 0.2); // one array read twice
    auto cl = c_is_x ? x : make_leaf<A, S>(r, broadcast_shape(r, O));
    // a new array takes the operands' broadcast shape; a view of shape O receives it broadcast
    if (!into_view)
        O = Tree::uses_c ? broadcast_all({x.d.shape, y.d.shape, cl.d.shape})
                         : broadcast_all({x.d.shape, y.d.shape});
    const W s = scalar_value<W, A, B>(r);
    c.text += std::string("elementwise into ") + (into_view ? "a view" : "a new array") + ": " +
              Tree::name + "\n  dtypes " + Combo::name() + ", output shape " + shape_text(O) +
              "\n  x " + x.text + "\n  y " + y.text + "\n  c " + (c_is_x ? "= x" : cl.text) +
              "\n  s " + show(s) + "\n";
    auto e = Tree::f(x.view, y.view, cl.view, s);
    using R = typename decltype(e)::value_type;
    using HR = hv_value_t<decltype(Tree::f(hv<A>{}, hv<B>{}, hv<A>{}, s))>;
    if constexpr (!std::is_same_v<R, HR>) {
        INFO("CLARRAY_FUZZ_SEED=" << c.seed << " CLARRAY_FUZZ_CASE=" << c.number << "\n" << c.text);
        FAIL_CHECK("result dtype: clarray " << type_name<R>() << ", NumPy 2 " << type_name<HR>());
        ++c.stats->failed_cases;
    } else {
        std::vector<hv<R>> want(count(O));
        std::vector<size_t> idx(O.size(), 0);
        if (!want.empty()) {
            size_t k = 0;
            do {
                // A new array of a tree without c has the shape of x and y broadcast, which c's
                // shape (drawn for the first output shape) need not broadcast to: c is read
                // only by the trees that use it.
                const A cv = Tree::uses_c ? at(cl.host, cl.d, idx) : A{};
                want[k++] = Tree::f(exact<A>(at(x.host, x.d, idx)), exact<B>(at(y.host, y.d, idx)),
                                    exact<A>(cv), s);
            } while (next_index(idx, O));
        }
        tally t;
        if (into_view) {
            auto out = make_leaf<R, S>(r, O);
            c.text += "  out " + out.text + "\n";
            out.view = e;
            std::vector<hv<R>> base = exact_all(out.host);
            std::fill(idx.begin(), idx.end(), 0);
            if (!want.empty()) {
                size_t k = 0;
                do {
                    base[size_t(offset_of(out.d, idx))] = want[k++];
                } while (next_index(idx, O));
            }
            check_base(t, out.base.get(), base);
        } else {
            ca::cl_array<R, S> out = e;
            const xt::xarray<R> got = out.get();
            if (!same_shape(got, O)) {
                ++t.bad;
                t.first_bad = "  result shape differs\n";
            } else {
                std::fill(idx.begin(), idx.end(), 0);
                for (size_t k = 0; k < want.size(); ++k, next_index(idx, O))
                    check_value(t, got.data()[k], want[k], idx_text(idx));
            }
        }
        report(c, t, "");
    }
}

// ---- aliasing in-place updates on one array of dtype A (NumPy: the right side is read first) ----
template <class Combo> void alias_case(case_ctx& c) {
    using A = typename Combo::A;
    using B = typename Combo::B;
    using S = typename Combo::S;
    using W = typename Combo::W;
    rng_t& r = c.r;
    const size_t kind = below(r, 5);
    std::vector<size_t> O = random_shape(r, false);
    for (size_t& e : O)
        e = std::max<size_t>(e, 2);
    if (kind == 1) { // square: a = a.T * s
        const size_t n = 2 + below(r, 40);
        O.assign(2, n);
    }
    auto a = make_leaf<A, S>(r, O, false);
    const W s = scalar_value<W, A, B>(r);
    const std::vector<hv<A>> before = exact_all(a.host);
    std::vector<hv<A>> after = before;
    const size_t rank = O.size(), axis = below(r, rank);
    c.text += "in-place on a = " + a.text + " (" + Combo::name() + "), s " + show(s) + ": ";
    // Specs that select along `axis` only.
    auto along = [&](spec sp) {
        std::vector<spec> v(axis + 1);
        v[axis] = sp;
        return v;
    };
    auto rng_spec = [](long start, bool has_start, long stop, bool has_stop, long step) {
        spec sp;
        sp.start = start, sp.has_start = has_start, sp.stop = stop, sp.has_stop = has_stop;
        sp.step = step;
        return sp;
    };
    // after[dst view] = f(src values read from `before`, broadcast to the destination shape)
    auto host_assign = [&](const hdesc& dst, auto&& f) {
        std::vector<size_t> idx(dst.shape.size(), 0);
        if (dst.size() == 0) return;
        do {
            after[size_t(offset_of(dst, idx))] = f(idx);
        } while (next_index(idx, dst.shape));
    };
    auto src_at = [&](const hdesc& src, const std::vector<size_t>& idx) {
        long off = src.offset;
        const size_t lead = idx.size() - src.shape.size();
        for (size_t k = 0; k < src.shape.size(); ++k)
            if (src.shape[k] != 1) off += long(idx[lead + k]) * src.strides[k];
        return before[size_t(off)];
    };
    if (kind == 0) { // a[1:] = a[:-1] + s along axis
        c.text += "a[1:] = a[:-1] + s along axis " + std::to_string(axis);
        const auto sd = along(rng_spec(1, true, 0, false, 1)),
                   ss = along(rng_spec(0, false, -1, true, 1));
        apply_specs(a.view, sd) = apply_specs(a.view, ss) + s;
        const hdesc dd = apply_specs(a.d, sd), sdsc = apply_specs(a.d, ss);
        host_assign(dd, [&](const std::vector<size_t>& i) { return conv<A>(src_at(sdsc, i) + s); });
    } else if (kind == 1) { // a = a.T * s
        c.text += "a = a.T * s";
        a.view = a.view.transpose() * s;
        const hdesc sdsc = transposed(a.d, {1, 0});
        host_assign(a.d,
                    [&](const std::vector<size_t>& i) { return conv<A>(src_at(sdsc, i) * s); });
    } else if (kind == 2) { // a += a[j:j+1] along axis 0: a row broadcast over all rows
        const long j = long(below(r, O[0]));
        c.text += "a += a[" + std::to_string(j) + ":" + std::to_string(j + 1) + "]";
        spec sp = rng_spec(j, true, j + 1, true, 1);
        a.view += apply_specs(a.view, std::vector<spec>{sp});
        const hdesc sdsc = apply_specs(a.d, std::vector<spec>{sp});
        host_assign(a.d, [&](const std::vector<size_t>& i) {
            return conv<A>(before[size_t(offset_of(a.d, i))] + src_at(sdsc, i));
        });
    } else if (kind == 3) { // a = maximum(a[::-1] along axis, b) with b of dtype A
        auto b = make_leaf<A, S>(r, broadcast_shape(r, O));
        c.text +=
            "a = maximum(a[::-1] along axis " + std::to_string(axis) + ", b = " + b.text + ")";
        const auto sv = along(rng_spec(0, false, 0, false, -1));
        a.view = maximum(apply_specs(a.view, sv), b.view);
        const hdesc sdsc = apply_specs(a.d, sv);
        host_assign(a.d, [&](const std::vector<size_t>& i) {
            return conv<A>(maximum(src_at(sdsc, i), exact<A>(at(b.host, b.d, i))));
        });
    } else { // a += y * s with y of dtype B, when NumPy's same_kind rule allows it
        auto y = make_leaf<B, S>(r, broadcast_shape(r, O));
        using R = np_promote_t<A, np_weak_t<B, W>>;
        constexpr bool allowed = std::is_same_v<A, R> || is_f<A> || (is_i<A> && is_i<R>);
        c.text +=
            std::string("a += y * s, y = ") + y.text + (allowed ? "" : " (refused: same_kind)");
        if constexpr (allowed) {
            a.view += y.view * s;
            host_assign(a.d, [&](const std::vector<size_t>& i) {
                return conv<A>(before[size_t(offset_of(a.d, i))] +
                               exact<B>(at(y.host, y.d, i)) * s);
            });
        }
    }
    c.text += "\n";
    tally t;
    check_base(t, a.base.get(), after);
    report(c, t, "");
}

// ---- reductions along random axes ----
enum rop { r_sum, r_prod, r_max, r_min, r_mean, r_any, r_all, r_argmax, r_argmin, r_count };
inline const char* rop_name(int op) {
    static const char* n[] = {"sum", "prod", "max",    "min",   "mean",
                              "any", "all",  "argmax", "argmin"};
    return n[op];
}

template <int OP, class V> auto reduce_group(const std::vector<hv<V>>& g) {
    if constexpr (OP == r_sum || OP == r_mean) {
        using R = std::conditional_t<OP == r_sum, sum_t<V>, mean_of_t<V>>;
        if constexpr (is_f<R>) {
            ld sum = 0, abs_sum = 0, err = 0;
            bool unk = false;
            for (const auto& h : g) {
                const hv<R> v = conv<R>(h);
                unk = unk || v.unk;
                sum += v.x;
                abs_sum += std::fabs(v.x);
                err += v.e;
            }
            using L = std::numeric_limits<R>;
            const ld n = ld(g.size());
            err += 27 * ld(L::epsilon()) * abs_sum + n * ld(L::min());
            if (std::isinf(sum) || std::isnan(sum)) err = 0;
            if constexpr (OP == r_sum) {
                hv<R> r;
                r.x = sum, r.e = err, r.unk = unk;
                if (!std::isfinite(sum)) r.e = 0;
                return r;
            } else {
                if (g.empty())
                    return fin<R>(std::numeric_limits<ld>::quiet_NaN(), 0, 0, false, false);
                return fin<R>(sum / n, err / n, 2.5, false, unk);
            }
        } else {
            __int128 acc = 0;
            bool unk = false;
            for (const auto& h : g) {
                const hv<R> v = conv<R>(h);
                unk = unk || v.unk;
                acc += v.v;
                if constexpr (std::is_unsigned_v<R>)
                    acc = __int128(uint64_t(acc)); // wraps
                else
                    unk = unk || acc > INT64_MAX || acc < INT64_MIN; // undefined in OpenCL C
            }
            return int_result<R>(acc, unk);
        }
    } else if constexpr (OP == r_prod) {
        using R = sum_t<V>;
        if constexpr (is_f<R>) {
            ld p = 1, err = 0;
            bool unk = false;
            for (size_t i = 0; i < g.size(); ++i) {
                const hv<R> v = conv<R>(g[i]);
                unk = unk || v.unk;
                p *= v.x;
                ld rest = 1; // first-order propagation of v's error
                for (size_t j = 0; j < g.size(); ++j)
                    if (j != i) rest *= std::fabs(conv<R>(g[j]).x);
                err += v.e * rest;
            }
            if (!std::isfinite(p)) return fin<R>(p, 0, 0, false, true);
            return fin<R>(p,
                          err + ld(g.size()) * ld(std::numeric_limits<R>::epsilon()) * std::fabs(p),
                          0, false, unk);
        } else {
            __int128 acc = 1;
            bool unk = false;
            for (const auto& h : g) {
                const hv<R> v = conv<R>(h);
                unk = unk || v.unk;
                if constexpr (std::is_unsigned_v<R>) {
                    acc = __int128(uint64_t(uint64_t(acc) * v.v));
                } else {
                    acc *= v.v;
                    if (acc > INT64_MAX || acc < INT64_MIN) {
                        unk = true;
                        acc = __int128(int64_t(uint64_t(acc)));
                    }
                }
            }
            return int_result<R>(acc, unk);
        }
    } else if constexpr (OP == r_max || OP == r_min) {
        hv<V> best = g[0];
        for (size_t i = 1; i < g.size(); ++i)
            best = OP == r_max ? arith(bop::max, best, g[i]) : arith(bop::min, best, g[i]);
        return best;
    } else if constexpr (OP == r_any || OP == r_all) {
        hv<bool> res;
        res.v = OP == r_all;
        bool undecided = false;
        for (const auto& h : g) {
            const hv<bool> b = conv<bool>(h);
            if (b.unk)
                undecided = true;
            else if (b.v != (OP == r_all)) {
                res.v = !res.v;
                return res;
            }
        }
        res.unk = undecided;
        return res;
    } else { // argmax / argmin: first extreme; NaN counts as the extreme
        hv<int64_t> res;
        size_t best = 0;
        bool unk = g[0].unk;
        for (size_t i = 1; i < g.size(); ++i) {
            unk = unk || g[i].unk;
            if constexpr (is_f<V>) {
                if (std::isnan(g[best].x)) break;
                if (std::isnan(g[i].x)) {
                    best = i;
                    break;
                }
                if (OP == r_argmax ? g[i].x > g[best].x : g[i].x < g[best].x) best = i;
            } else {
                if (OP == r_argmax ? g[i].v > g[best].v : g[i].v < g[best].v) best = i;
            }
        }
        if constexpr (is_f<V>) // another element within the error bounds: undetermined
            if (!std::isnan(g[best].x))
                for (size_t i = 0; i < g.size(); ++i)
                    if (i != best && !std::isnan(g[i].x) && g[i].e + g[best].e > 0 &&
                        std::fabs(g[i].x - g[best].x) <= g[i].e + g[best].e)
                        unk = true;
        res.v = int64_t(best);
        res.unk = unk;
        return res;
    }
}

template <int OP, class E>
auto device_reduce(const E& e, const std::vector<std::ptrdiff_t>& axes, bool all_axes, bool keep) {
    const ca::reduce_axes ax = all_axes ? ca::reduce_axes() : ca::reduce_axes(axes);
    if constexpr (OP == r_sum)
        return ca::sum(e, ax, keep);
    else if constexpr (OP == r_prod)
        return ca::prod(e, ax, keep);
    else if constexpr (OP == r_max)
        return ca::max(e, ax, keep);
    else if constexpr (OP == r_min)
        return ca::min(e, ax, keep);
    else if constexpr (OP == r_mean)
        return ca::mean(e, ax, keep);
    else if constexpr (OP == r_any)
        return ca::any(e, ax, keep);
    else if constexpr (OP == r_all)
        return ca::all(e, ax, keep);
    else if constexpr (OP == r_argmax)
        return ca::argmax(e, axes[0], keep);
    else
        return ca::argmin(e, axes[0], keep);
}

// Reduces x (a view) or the fused tree x + y * s.
template <int OP, bool Fused, class Combo> void reduction_case(case_ctx& c) {
    using A = typename Combo::A;
    using B = typename Combo::B;
    using S = typename Combo::S;
    using W = typename Combo::W;
    rng_t& r = c.r;
    std::vector<size_t> O = random_shape(r, true);
    auto x = make_leaf<A, S>(r, Fused ? broadcast_shape(r, O) : O);
    auto y = make_leaf<B, S>(r, broadcast_shape(r, O));
    const W s = scalar_value<W, A, B>(r);
    O = Fused ? broadcast_all({x.d.shape, y.d.shape}) : x.d.shape;
    const size_t rank = O.size();
    if (rank == 0) { // a 0-d operand: nothing to choose
        ++c.stats->skipped_cases;
        return;
    }
    // axes: all (default), or a random non-empty subset (one axis for argmax/argmin)
    const bool arg = OP == r_argmax || OP == r_argmin;
    const bool all_axes = !arg && coin(r, 0.25);
    std::vector<bool> mask(rank, all_axes);
    std::vector<std::ptrdiff_t> axes;
    if (!all_axes) {
        const size_t first = below(r, rank);
        mask[first] = true;
        if (!arg)
            for (size_t k = 0; k < rank; ++k)
                mask[k] = mask[k] || coin(r, 0.3);
        for (size_t k = 0; k < rank; ++k)
            if (mask[k])
                axes.push_back(coin(r, 0.3) ? std::ptrdiff_t(k) - std::ptrdiff_t(rank)
                                            : std::ptrdiff_t(k));
        std::shuffle(axes.begin(), axes.end(), r);
    }
    const bool keep = coin(r, 0.4);
    size_t group = 1;
    for (size_t k = 0; k < rank; ++k)
        if (mask[k]) group *= O[k];
    std::string ax_text = "(";
    for (auto a : axes)
        ax_text += std::to_string(a) + ",";
    c.text += std::string(rop_name(OP)) + "(" + (Fused ? "x + y * s" : "x") + ", axes " +
              (all_axes ? "all" : ax_text + ")") + ", keep_dims " + (keep ? "true" : "false") +
              ") over shape " + shape_text(O) + ", " + Combo::name() + "\n  x " + x.text +
              (Fused ? "\n  y " + y.text + "\n  s " + show(s) : std::string()) + "\n";
    // products of many values overflow: prod only over groups of at most 8 elements
    if (OP == r_prod && group > 8) {
        ++c.stats->skipped_cases;
        return;
    }
    // host values of the reduced expression over O
    using V = std::conditional_t<Fused, hv_value_t<decltype(hv<A>{} + hv<B>{} * s)>, A>;
    std::vector<hv<V>> vals(count(O));
    std::vector<size_t> idx(rank, 0);
    if (!vals.empty()) {
        size_t k = 0;
        do {
            if constexpr (Fused)
                vals[k++] = exact<A>(at(x.host, x.d, idx)) + exact<B>(at(y.host, y.d, idx)) * s;
            else
                vals[k++] = exact<A>(at(x.host, x.d, idx));
        } while (next_index(idx, O));
    }
    std::vector<size_t> out_shape, kept_shape;
    for (size_t k = 0; k < rank; ++k) {
        if (!mask[k]) kept_shape.push_back(O[k]);
        if (!mask[k])
            out_shape.push_back(O[k]);
        else if (keep)
            out_shape.push_back(1);
    }
    const bool needs_elements = OP == r_max || OP == r_min || arg;
    auto run = [&]() {
        if constexpr (Fused)
            return device_reduce<OP>(x.view + y.view * s, axes, all_axes, keep);
        else
            return device_reduce<OP>(x.view, axes, all_axes, keep);
    };
    tally t;
    if (group == 0 && needs_elements) {
        bool threw = false;
        try {
            (void)run();
        } catch (const ca::shape_error&) {
            threw = true;
        }
        if (!threw) {
            ++t.bad;
            t.first_bad = "  a zero-size reduction without identity did not throw shape_error\n";
        }
        report(c, t, "");
        return;
    }
    auto res = run();
    using R = typename decltype(res)::value_type;
    using HR = hv_value_t<decltype(reduce_group<OP, V>(std::vector<hv<V>>(1)))>;
    if constexpr (!std::is_same_v<R, HR>) {
        INFO("CLARRAY_FUZZ_SEED=" << c.seed << " CLARRAY_FUZZ_CASE=" << c.number << "\n" << c.text);
        FAIL_CHECK("result dtype: clarray " << type_name<R>() << ", NumPy " << type_name<HR>());
        ++c.stats->failed_cases;
    } else {
        std::vector<std::vector<hv<V>>> groups(count(kept_shape));
        std::fill(idx.begin(), idx.end(), 0);
        if (!vals.empty()) {
            size_t k = 0;
            do {
                size_t g = 0;
                for (size_t d = 0; d < rank; ++d)
                    if (!mask[d]) g = g * O[d] + idx[d];
                groups[g].push_back(vals[k++]);
            } while (next_index(idx, O));
        }
        const xt::xarray<R> got = res.get();
        if (!same_shape(got, out_shape)) {
            ++t.bad;
            t.first_bad = "  result shape " +
                          shape_text(std::vector<size_t>(got.shape().begin(), got.shape().end())) +
                          ", expected " + shape_text(out_shape) + "\n";
        } else {
            for (size_t g = 0; g < groups.size(); ++g)
                check_value(t, got.data()[g], reduce_group<OP, V>(groups[g]),
                            "output " + std::to_string(g));
        }
        report(c, t, "");
    }
}

// ---- one case ----
template <class Combo, size_t... I> std::vector<size_t> usable_trees(std::index_sequence<I...>) {
    using A = typename Combo::A;
    using B = typename Combo::B;
    using W = typename Combo::W;
    std::vector<size_t> v;
    ((std::tuple_element_t<I, trees>::template ok<A, B, W> ? v.push_back(I) : void()), ...);
    return v;
}

template <class Combo> void run_combo_case(case_ctx& c) {
    using A = typename Combo::A;
    using B = typename Combo::B;
    using W = typename Combo::W;
    rng_t& r = c.r;
    const size_t mode = below(r, 100);
    if (mode < 55) {
        constexpr size_t nt = std::tuple_size_v<trees>;
        const std::vector<size_t> usable = usable_trees<Combo>(std::make_index_sequence<nt>{});
        const size_t pick = usable[below(r, usable.size())];
        const bool into_view = coin(r, 0.45);
        c.stats->kinds[into_view ? "elementwise into a view" : "elementwise new array"]++;
        dispatch<nt>(pick, [&](auto i) {
            using Tree = std::tuple_element_t<decltype(i)::value, trees>;
            if constexpr (Tree::template ok<A, B, W>) elementwise_case<Tree, Combo>(c, into_view);
        });
    } else if (mode < 80) {
        if (coin(r, 0.3)) {
            static const int fused_ops[] = {r_sum, r_max, r_mean};
            const size_t k = below(r, 3);
            c.stats->kinds[std::string("reduction ") + rop_name(fused_ops[k]) + " of a tree"]++;
            dispatch<3>(k, [&](auto i) {
                constexpr int ops[] = {r_sum, r_max, r_mean};
                reduction_case<ops[decltype(i)::value], true, Combo>(c);
            });
        } else {
            const size_t op = below(r, r_count);
            c.stats->kinds[std::string("reduction ") + rop_name(int(op))]++;
            dispatch<r_count>(
                op, [&](auto i) { reduction_case<int(decltype(i)::value), false, Combo>(c); });
        }
    } else {
        c.stats->kinds["aliasing in-place update"]++;
        alias_case<Combo>(c);
    }
}

template <class S> bool storage_present() {
    const ca::svm_capabilities caps = test::ctx().svm_caps();
    return S::kind == ca::storage_kind::buffer ||
           (S::kind == ca::storage_kind::svm_coarse ? caps.coarse : caps.fine);
}

inline uint64_t env_u64(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    const unsigned long long x = std::strtoull(v, &end, 10);
    if (!end || *end) FAIL(name << " must be a non-negative integer (got '" << v << "')");
    return x;
}

// The case runner of combination I (one of `combos`).
template <size_t I> void run_combo_at(case_ctx& c) {
    run_combo_case<std::tuple_element_t<I, combos>>(c);
}
inline constexpr size_t combo_count = std::tuple_size_v<combos>;
#define FZ_COMBO_EXTERN(I) extern template void run_combo_at<I>(case_ctx&);
FZ_COMBO_EXTERN(0)
FZ_COMBO_EXTERN(1)
FZ_COMBO_EXTERN(2)
FZ_COMBO_EXTERN(3)
FZ_COMBO_EXTERN(4)
FZ_COMBO_EXTERN(5)
FZ_COMBO_EXTERN(6)
FZ_COMBO_EXTERN(7)
FZ_COMBO_EXTERN(8)
FZ_COMBO_EXTERN(9)
#undef FZ_COMBO_EXTERN
static_assert(combo_count == 10, "instantiate each combination in tests/fuzz/combos_*.cpp and "
                                 "declare it extern above");
// The combinations this build compiled (tests/CMakeLists.txt): every one in a CLARRAY_TEST_FULL=1
// build; else those of combos_01 (float with float: no promotion), combos_23, combos_45 and
// combos_67, which meet every dtype (each file takes about 20 s of compile CPU).
#if CLARRAY_TEST_FULL_MATRIX
inline constexpr size_t built_combos[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
#else
inline constexpr size_t built_combos[] = {0, 1, 2, 3, 4, 5, 6, 7};
#endif
constexpr bool combo_built(size_t i) {
    for (size_t b : built_combos)
        if (b == i) return true;
    return false;
}

} // namespace fz
