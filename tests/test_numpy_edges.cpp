// Edge cases where OpenCL's or C++'s answer is not NumPy 2's, each against a host reference
// written here from NumPy's definitions: shifts by counts at or beyond the width, exact
// comparisons of int64 with uint64 and of integer arrays with out-of-range integer scalars,
// clip with such bounds, the n-ary promotion of concatenate/stack, correctly rounded float32
// division and sqrt, integer powers with negative exponents, ceil/floor/trunc/round of
// integers, integer fmod, and the result types of fmod, power, conj and angle of bool.
#include "support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "xtensor_headers.hpp"

namespace {

template <class T> using lim = std::numeric_limits<T>;

template <class T, class S> ca::cl_array<T, S> dev(const xt::xarray<T>& h) {
    return ca::to_device<S>(test::q(), h);
}

// Elementwise equality of a device result with a host reference, naming the first difference.
template <class T, class A>
void check_equal(const std::string& what, const xt::xarray<T>& got, const xt::xarray<T>& want,
                 const xt::xarray<A>& input) {
    REQUIRE(got.shape() == want.shape());
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
        if (!(got.flat(i) == want.flat(i)) && bad++ == 0) first = i;
    INFO(what << ": " << bad << " of " << want.size() << " differ; first at " << first << ": input "
              << +input.flat(first) << ", got " << +got.flat(first) << ", want "
              << +want.flat(first));
    CHECK(bad == 0);
}

// Integer values: the extremes, small ones of both signs, and random bit patterns.
template <class T> xt::xarray<T> edge_values(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    xt::xarray<T> a = xt::xarray<T>::from_shape({n});
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = rng();
        a(i) = (r & 1) ? static_cast<T>(static_cast<std::int64_t>((r >> 8) % 40) - 20)
                       : static_cast<T>(r >> 1);
    }
    a(0) = lim<T>::min();
    a(1) = lim<T>::max();
    a(2) = 0;
    a(3) = 1;
    a(4) = static_cast<T>(-1);
    return a;
}

// ---- shifts: NumPy's npy_lshift / npy_rshift ----
// A count outside [0, width) shifts every bit out: 0 for <<, 0 or -1 (a negative a) for >>.
template <class T> T np_shl(T a, long long n) {
    if (n < 0 || n >= static_cast<long long>(8 * sizeof(T))) return 0;
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << n));
}
template <class T> T np_shr(T a, long long n) {
    if (n < 0 || n >= static_cast<long long>(8 * sizeof(T))) return a < T(0) ? T(-1) : T(0);
    return static_cast<T>(a >> n); // arithmetic for signed types
}

using int_configs =
    std::tuple<test::cfg<std::int8_t, ca::svm_coarse>, test::cfg<std::uint8_t, ca::buffer>,
               test::cfg<std::int16_t, ca::svm_fine>, test::cfg<std::uint16_t, ca::svm_coarse>,
               test::cfg<std::int32_t, ca::buffer>, test::cfg<std::uint32_t, ca::svm_fine>,
               test::cfg<std::int64_t, ca::svm_coarse>, test::cfg<std::uint64_t, ca::buffer>>;

} // namespace

TEMPLATE_LIST_TEST_CASE("shifts by counts at or beyond the width, or negative, give NumPy's "
                        "results",
                        "[numpy_edges]", int_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    constexpr long long bits = 8 * sizeof(T);
    const std::size_t n = 256;
    const xt::xarray<T> ha = edge_values<T>(n, 11);
    // Every count from -3 (signed types) to width + 3, and 100, against varied values.
    xt::xarray<T> hs = xt::xarray<T>::from_shape({n});
    const long long lo = std::is_signed_v<T> ? -3 : 0;
    for (std::size_t i = 0; i < n; ++i)
        hs(i) = static_cast<T>(lo + static_cast<long long>(i) % (bits + 4 - lo));
    hs(5) = 100;
    if (std::is_signed_v<T>) hs(6) = lim<T>::min();
    hs(7) = lim<T>::max();
    auto a = dev<T, S>(ha), s = dev<T, S>(hs);
    xt::xarray<T> want_l = ha, want_r = ha;
    for (std::size_t i = 0; i < n; ++i) {
        want_l(i) = np_shl<T>(ha(i), static_cast<long long>(hs(i)));
        want_r(i) = np_shr<T>(ha(i), static_cast<long long>(hs(i)));
    }
    check_equal("a << s", xt::xarray<T>(ca::cl_array<T, S>(a << s).get()), want_l, hs);
    check_equal("a >> s", xt::xarray<T>(ca::cl_array<T, S>(a >> s).get()), want_r, hs);

    // Scalar counts (one kernel per direction: the count is an argument).
    std::vector<long long> counts{0, 1, bits - 1, bits, bits + 1, 100};
    if (std::is_signed_v<T>) counts.insert(counts.end(), {-1, -100});
    for (long long k : counts) {
        xt::xarray<T> wl = ha, wr = ha;
        for (std::size_t i = 0; i < n; ++i) {
            wl(i) = np_shl<T>(ha(i), k);
            wr(i) = np_shr<T>(ha(i), k);
        }
        const T kt = static_cast<T>(k);
        check_equal("a << " + std::to_string(k), xt::xarray<T>(ca::cl_array<T, S>(a << kt).get()),
                    wl, ha);
        check_equal("a >> " + std::to_string(k), xt::xarray<T>(ca::cl_array<T, S>(a >> kt).get()),
                    wr, ha);
        // The scalar as a C++ int (weak): the same results.
        check_equal("a << int", xt::xarray<T>(ca::cl_array<T, S>(a << static_cast<int>(k)).get()),
                    wl, ha);
    }
    // Compound assignment shifts the same way.
    ca::cl_array<T, S> c = a;
    c = a;
    c <<= static_cast<T>(bits);
    check_equal("a <<= width", xt::xarray<T>(c.get()), xt::xarray<T>(xt::zeros<T>({n})), ha);
}

TEMPLATE_LIST_TEST_CASE("shifts of mixed dtypes shift in the promoted type", "[numpy_edges]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = 64;
    const xt::xarray<std::int8_t> h8 = edge_values<std::int8_t>(n, 21);
    xt::xarray<std::int16_t> c16 = xt::xarray<std::int16_t>::from_shape({n});
    xt::xarray<std::uint8_t> cu8 = xt::xarray<std::uint8_t>::from_shape({n});
    for (std::size_t i = 0; i < n; ++i) {
        c16(i) = static_cast<std::int16_t>(static_cast<int>(i % 20) - 2); // -2 .. 17
        cu8(i) = static_cast<std::uint8_t>(i % 20);
    }
    auto a8 = dev<std::int8_t, S>(h8);
    auto s16 = dev<std::int16_t, S>(c16);
    auto su8 = dev<std::uint8_t, S>(cu8);
    // int8 << int16 is int16: 1 << 9 is 512 there; int8 >> uint8 is int16 (NumPy's promotion).
    auto l = a8 << s16;
    auto r = a8 >> su8;
    STATIC_REQUIRE(std::is_same_v<typename decltype(l)::value_type, std::int16_t>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(r)::value_type, std::int16_t>);
    xt::xarray<std::int16_t> wl = c16, wr = c16;
    for (std::size_t i = 0; i < n; ++i) {
        wl(i) = np_shl<std::int16_t>(h8(i), c16(i));
        wr(i) = np_shr<std::int16_t>(h8(i), cu8(i));
    }
    check_equal("int8 << int16", xt::xarray<std::int16_t>(ca::cl_array<std::int16_t, S>(l).get()),
                wl, c16);
    check_equal("int8 >> uint8", xt::xarray<std::int16_t>(ca::cl_array<std::int16_t, S>(r).get()),
                wr, c16);
}

// ---- comparisons: exact for int64 with uint64 and for out-of-range integer scalars ----
namespace {
// The six comparisons of two integers as mathematical values.
template <class A, class B> std::array<bool, 6> exact_compare(A a, B b) {
    const __int128 x = a, y = b;
    return {x == y, x != y, x<y, x <= y, x> y, x >= y};
}
const char* const compare_names[6] = {"==", "!=", "<", "<=", ">", ">="};

template <class S, class X, class Y, class HA, class HB>
void check_six(const std::string& what, const X& x, const Y& y, const HA& ha, const HB& hb) {
    const std::size_t n = ha.size();
    const xt::xarray<bool> got[6] = {
        ca::cl_array<bool, S>(x == y).get(), ca::cl_array<bool, S>(x != y).get(),
        ca::cl_array<bool, S>(x < y).get(),  ca::cl_array<bool, S>(x <= y).get(),
        ca::cl_array<bool, S>(x > y).get(),  ca::cl_array<bool, S>(x >= y).get()};
    for (int k = 0; k < 6; ++k) {
        xt::xarray<bool> want = xt::xarray<bool>::from_shape({n});
        for (std::size_t i = 0; i < n; ++i) {
            if constexpr (std::is_arithmetic_v<HB>)
                want(i) = exact_compare(ha(i), hb)[k];
            else
                want(i) = exact_compare(ha(i), hb(i))[k];
        }
        check_equal(what + " " + compare_names[k], got[k], want, ha);
    }
}
} // namespace

TEMPLATE_LIST_TEST_CASE("int64 and uint64 compare exactly, not through float64", "[numpy_edges]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::int64_t p53 = std::int64_t(1) << 53;
    // Pairs that float64 cannot tell apart or orders wrongly, and random ones.
    const xt::xarray<std::int64_t> ei = {
        p53 + 1, p53, -1, lim<std::int64_t>::min(), lim<std::int64_t>::max(), 0, 5, -p53 - 1};
    const xt::xarray<std::uint64_t> eu = {std::uint64_t(p53),
                                          std::uint64_t(p53) + 1,
                                          lim<std::uint64_t>::max(),
                                          0,
                                          std::uint64_t(lim<std::int64_t>::max()) + 1,
                                          0,
                                          5,
                                          std::uint64_t(p53)};
    const xt::xarray<std::int64_t> ri = edge_values<std::int64_t>(56, 31);
    const xt::xarray<std::uint64_t> ru = edge_values<std::uint64_t>(56, 32);
    const xt::xarray<std::int64_t> hi = xt::concatenate(xt::xtuple(ei, ri));
    const xt::xarray<std::uint64_t> hu = xt::concatenate(xt::xtuple(eu, ru));
    auto i64 = dev<std::int64_t, S>(hi);
    auto u64 = dev<std::uint64_t, S>(hu);
    check_six<S>("int64 vs uint64", i64, u64, hi, hu);
    check_six<S>("uint64 vs int64", u64, i64, hu, hi);
    // Narrower signed types with uint64 promote to float64 as well.
    const xt::xarray<std::int8_t> h8 = xt::cast<std::int8_t>(hi);
    auto i8 = dev<std::int8_t, S>(h8);
    check_six<S>("int8 vs uint64", i8, u64, h8, hu);
    // maximum keeps NumPy's float64 result type.
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::maximum(i64, u64))::value_type, double>);
}

TEMPLATE_LIST_TEST_CASE("integer arrays compare exactly with integer scalars of any value",
                        "[numpy_edges]", int_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const xt::xarray<T> ha = edge_values<T>(64, 41);
    auto a = dev<T, S>(ha);
    // In range, just outside either end, and far outside (NumPy 2 answers all exactly).
    const long long signed_scalars[] = {
        -1, 5, -1000, 300, 70000, -70000, 1LL << 40, lim<long long>::min(), lim<long long>::max()};
    for (long long v : signed_scalars) {
        check_six<S>("a vs " + std::to_string(v), a, v, ha, v);
        const xt::xarray<long long> hv = xt::zeros<long long>({ha.size()}) + v;
        check_six<S>(std::to_string(v) + " vs a", v, a, hv, ha);
    }
    const unsigned long long unsigned_scalars[] = {300ULL, 1ULL << 63,
                                                   lim<unsigned long long>::max()};
    for (unsigned long long v : unsigned_scalars)
        check_six<S>("a vs " + std::to_string(v) + "u", a, v, ha, v);
    // The comparison's result stays bool and arithmetic still refuses the scalar.
    STATIC_REQUIRE(std::is_same_v<typename decltype(a < -1)::value_type, bool>);
    if constexpr (std::is_same_v<T, std::uint64_t>)
        CHECK_THROWS_AS(a + (-1), ca::dtype_error);
    else
        CHECK_THROWS_AS(a + lim<unsigned long long>::max(), ca::dtype_error);
}

namespace {
// NumPy 2.4's clip of an integer array by Python ints: a lower bound at or below the type's
// least value, an upper one at or above its greatest, is no bound; a bound beyond the other end
// raises OverflowError.
template <class T> T np_clip(T x, long long lo, long long hi) {
    __int128 v = x;
    if (lo > static_cast<long long>(lim<T>::min()) && v < lo) v = lo;
    if (static_cast<__int128>(hi) < static_cast<__int128>(lim<T>::max()) && v > hi) v = hi;
    return static_cast<T>(v);
}
} // namespace

TEMPLATE_LIST_TEST_CASE("clip of integers by out-of-range scalar bounds is NumPy 2's",
                        "[numpy_edges]", int_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const xt::xarray<T> ha = edge_values<T>(64, 51);
    auto a = dev<T, S>(ha);
    // Just beyond each end of T (clamped to long long's range).
    const __int128 ll_min = lim<long long>::min(), ll_max = lim<long long>::max();
    const long long below =
        static_cast<long long>(std::max(static_cast<__int128>(lim<T>::min()) - 5, ll_min));
    const long long above =
        static_cast<long long>(std::min(static_cast<__int128>(lim<T>::max()) + 300, ll_max));
    const std::pair<long long, long long> bounds[] = {
        {below, above},  {below, 3},
        {-1000000, 100}, {std::is_signed_v<T> ? -7 : 2, above},
        {2, 9},          {lim<long long>::min(), lim<long long>::max()}};
    for (const auto& [lo, hi] : bounds) {
        if (sizeof(T) == 8 && !std::is_signed_v<T> && hi < 0) continue;
        auto e = ca::clip(a, lo, hi);
        STATIC_REQUIRE(std::is_same_v<typename decltype(e)::value_type, T>);
        xt::xarray<T> want = ha;
        for (std::size_t i = 0; i < ha.size(); ++i)
            want(i) = np_clip<T>(ha(i), lo, hi);
        check_equal("clip(a, " + std::to_string(lo) + ", " + std::to_string(hi) + ")",
                    xt::xarray<T>(ca::cl_array<T, S>(e).get()), want, ha);
    }
    // One-sided, and bounds beyond the other end (they would bind every element): dtype_error.
    if constexpr (sizeof(T) < 8) {
        const long long over = static_cast<long long>(lim<T>::max()) + 1;
        CHECK_THROWS_AS(ca::clip(a, over, over + 10), ca::dtype_error);
        CHECK_NOTHROW(ca::clip(a, ca::none, over));
    }
    if constexpr (!std::is_same_v<T, std::int64_t>) {
        const long long under = static_cast<long long>(static_cast<__int128>(lim<T>::min()) - 1);
        CHECK_THROWS_AS(ca::clip(a, -1000000, under), ca::dtype_error);
    }
    xt::xarray<T> want_hi = ha;
    for (std::size_t i = 0; i < ha.size(); ++i)
        want_hi(i) = np_clip<T>(ha(i), lim<long long>::min(), lim<long long>::max());
    check_equal(
        "clip(a, none, huge)",
        xt::xarray<T>(ca::cl_array<T, S>(ca::clip(a, ca::none, lim<long long>::max())).get()),
        want_hi, ha);
}

// ---- n-ary promotion ----
TEST_CASE("promote_all_t promotes all types at once as NumPy's result_type", "[numpy_edges]") {
    using ca::half;
    using i8 = std::int8_t;
    using u8 = std::uint8_t;
    using i16 = std::int16_t;
    using u16 = std::uint16_t;
    using c64 = std::complex<float>;
    // np.result_type(*types) in NumPy 2.4 where it differs from pairwise promotion from the left
    // (int8, uint8 -> int16 first), and some where it does not.
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<i8, u8, half>, half>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<u8, i8, half>, half>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<half, i8, u8>, half>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<i8, u16, half>, float>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<i8, u16, float>, float>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<i16, u16, float>, float>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<u16, i16, half>, float>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<i8, u16, c64>, c64>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<i8, u8>, i16>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<i8, u8, i8>, i16>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<std::uint64_t, i8, half>, double>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<bool, bool>, bool>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<i8, u8, i16, half>, float>);
    STATIC_REQUIRE(std::is_same_v<ca::detail::promote_all_t<long long, unsigned, float>, double>);
}

TEMPLATE_LIST_TEST_CASE("concatenate and stack of int8, uint8 and float16 give float16",
                        "[numpy_edges]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const xt::xarray<std::int8_t> h8 = {-128, -1, 0, 127};
    const xt::xarray<std::uint8_t> hu8 = {0, 1, 200, 255};
    const xt::xarray<float> hf = {0.5f, -2.0f, 65504.0f, 1e-4f};
    xt::xarray<ca::half> hh = xt::xarray<ca::half>::from_shape({4});
    for (std::size_t i = 0; i < 4; ++i)
        hh(i) = static_cast<ca::half>(hf(i));
    auto a = dev<std::int8_t, S>(h8);
    auto b = dev<std::uint8_t, S>(hu8);
    auto c = ca::to_device<S>(test::q(), hh);
    auto r = ca::concatenate(std::tie(a, b, c), 0);
    STATIC_REQUIRE(std::is_same_v<decltype(r), ca::cl_array<ca::half, S>>);
    auto st = ca::stack(std::tie(a, b, c), 0);
    STATIC_REQUIRE(std::is_same_v<decltype(st), ca::cl_array<ca::half, S>>);
    // Every value here is a float16 exactly.
    std::vector<float> want;
    for (auto v : h8)
        want.push_back(float(v));
    for (auto v : hu8)
        want.push_back(float(v));
    for (auto v : hh)
        want.push_back(float(v));
    const xt::xarray<ca::half> got = r.get(), got_st = st.get();
    REQUIRE(got.size() == 12);
    REQUIRE(got_st.shape() == std::vector<std::size_t>{3, 4});
    for (std::size_t i = 0; i < 12; ++i) {
        CHECK(float(got.flat(i)) == want[i]);
        CHECK(float(got_st.flat(i)) == want[i]);
    }
}

// ---- float32 division and sqrt ----
namespace {
// NumPy's npy_divmodf in float32 arithmetic (the host's is correctly rounded): floor division
// and the remainder with the divisor's sign.
std::pair<float, float> np_divmod(float a, float b) {
    float mod = std::fmod(a, b);
    if (b == 0) return {a / b, mod};
    float div = (a - mod) / b;
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= 1.0f;
        }
    } else {
        mod = std::copysign(0.0f, b);
    }
    float floordiv;
    if (div != 0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5f) floordiv += 1.0f;
    } else {
        floordiv = std::copysign(0.0f, a / b);
    }
    return {floordiv, mod};
}
// The distance of got from want in float32 ulps (of want's binade); NaNs must match.
double ulps(float got, float want) {
    if (std::isnan(want) || std::isnan(got)) return std::isnan(want) == std::isnan(got) ? 0 : 1e9;
    if (got == want) return 0;
    if (std::isinf(want) || std::isinf(got)) return 1e9;
    const float ulp = std::nextafter(std::fabs(want), lim<float>::infinity()) - std::fabs(want);
    return std::fabs(static_cast<double>(got) - want) / ulp;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("float32 division, floor_divide, mod and sqrt are correctly rounded where "
                        "the device can",
                        "[numpy_edges]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    // Exact where the device can and the library asks for it (CLARRAY_FP32_DIVIDE_SQRT=fast
    // turns the option off, for measurements).
    const ca::device device = test::ctx().device();
    const char* mode = std::getenv("CLARRAY_FP32_DIVIDE_SQRT");
    if (device.correctly_rounded_divide_sqrt() && !(mode && std::string(mode) == "fast"))
        CHECK(device.quirks().fp32_divide_sqrt_option != nullptr);
    const bool exact = device.quirks().fp32_divide_sqrt_option != nullptr;
    const std::size_t n = 4096;
    std::mt19937_64 rng(61);
    xt::xarray<float> ha = xt::xarray<float>::from_shape({n}), hb = ha;
    for (std::size_t i = 0; i < n; ++i) {
        // Wide exponents and full mantissas: where a division that is not correctly rounded
        // shows.
        auto any = [&] {
            const float m = std::uniform_real_distribution<float>(1.0f, 2.0f)(rng);
            const int e = static_cast<int>(rng() % 60) - 30;
            return std::ldexp(rng() & 1 ? -m : m, e);
        };
        ha(i) = any();
        hb(i) = any();
    }
    ha(0) = 1e10f; // floor_divide(1e10, 3): 3.33333325e+09 (3.3333335e+09 off by an ulp)
    hb(0) = 3.0f;
    ha(1) = 1.0f;
    hb(1) = 3.0f;
    auto a = dev<float, S>(ha), b = dev<float, S>(hb);
    const xt::xarray<float> q = ca::cl_array<float, S>(a / b).get();
    const xt::xarray<float> fd = ca::cl_array<float, S>(ca::floor_divide(a, b)).get();
    const xt::xarray<float> md = ca::cl_array<float, S>(a % b).get();
    const xt::xarray<float> sq = ca::cl_array<float, S>(ca::sqrt(ca::abs(a))).get();
    double worst_q = 0, worst_sq = 0;
    std::size_t bad_fd = 0, bad_md = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float x = ha(i), y = hb(i);
        worst_q = std::max(worst_q, ulps(q(i), x / y));
        worst_sq = std::max(worst_sq, ulps(sq(i), std::sqrt(std::fabs(x))));
        const auto [want_fd, want_md] = np_divmod(x, y);
        if (exact) {
            bad_fd += !(fd(i) == want_fd && std::signbit(fd(i)) == std::signbit(want_fd));
            bad_md += !(md(i) == want_md && std::signbit(md(i)) == std::signbit(want_md));
        }
    }
    INFO("device " << device.name() << ", correctly rounded divide/sqrt: " << exact << "; worst / "
                   << worst_q << " ulp, sqrt " << worst_sq << " ulp");
    if (exact) {
        CHECK(worst_q == 0);
        CHECK(worst_sq == 0);
        CHECK(bad_fd == 0);
        CHECK(bad_md == 0);
        CHECK(fd(0) == 3333333248.0f); // NumPy: np.float32(1e10) // np.float32(3)
    } else {                           // OpenCL's limits: 2.5 ulp for x / y, 3 ulp for sqrt
        CHECK(worst_q <= 2.5);
        CHECK(worst_sq <= 3);
    }
}

// ---- integer powers with negative exponents ----
TEMPLATE_LIST_TEST_CASE("integer pow with a negative exponent is a dtype_error", "[numpy_edges]",
                        int_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = 64;
    xt::xarray<T> hb = xt::xarray<T>::from_shape({n}), he = hb;
    for (std::size_t i = 0; i < n; ++i) {
        hb(i) = static_cast<T>(static_cast<int>(i % 7) - (std::is_signed_v<T> ? 3 : 0));
        he(i) = static_cast<T>(i % 9);
    }
    auto b = dev<T, S>(hb), e = dev<T, S>(he);
    // Non-negative exponents: the powers, wrapping in T.
    xt::xarray<T> want = hb;
    for (std::size_t i = 0; i < n; ++i) {
        T r = 1;
        for (T k = 0; k < he(i); ++k)
            r = static_cast<T>(static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(hb(i)));
        want(i) = r;
    }
    check_equal("pow(b, e)", xt::xarray<T>(ca::cl_array<T, S>(ca::pow(b, e)).get()), want, he);
    // A negative scalar exponent: refused when the expression is built (NumPy's ValueError),
    // even for bases 1 and -1.
    if constexpr (std::is_signed_v<T>) {
        CHECK_THROWS_AS(ca::pow(b, -1), ca::dtype_error);
        CHECK_THROWS_AS(ca::pow(b, T(-2)), ca::dtype_error);
        // A negative exponent in an array: the device reports it at the next host wait.
        xt::xarray<T> hn = he;
        hn(17) = static_cast<T>(-1);
        auto en = dev<T, S>(hn);
        ca::cl_array<T, S> r(ca::pow(b, en));
        CHECK_THROWS_WITH(r.get(), catch_compat::Contains("negative integer powers"));
        ca::cl_array<T, S> r2(ca::pow(2, en) + b);
        CHECK_THROWS_AS(r2.get(), ca::dtype_error);
        // Reported once: the next wait is clean, and clean exponents raise nothing.
        CHECK_NOTHROW(r.get());
        check_equal("pow(b, e) after an error",
                    xt::xarray<T>(ca::cl_array<T, S>(ca::pow(b, e)).get()), want, he);
        // Inside a reduction too.
        auto total = ca::sum(ca::pow(b, en));
        CHECK_THROWS_AS(total.item(), ca::dtype_error);
    } else {
        CHECK_NOTHROW(ca::pow(b, 0u));
    }
    // Floats take negative exponents as NumPy does.
    auto f = ca::astype<double>(b);
    CHECK_NOTHROW(ca::pow(f, -1));
}

// ---- ceil, floor, trunc, round of integers and bool ----
TEMPLATE_LIST_TEST_CASE("ceil, floor, trunc and round keep integer types (NumPy 2.4)",
                        "[numpy_edges]", int_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const xt::xarray<T> ha = edge_values<T>(64, 71);
    auto a = dev<T, S>(ha);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::ceil(a))::value_type, T>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::floor(a))::value_type, T>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::trunc(a))::value_type, T>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::round(a))::value_type, T>);
    // The values themselves (int64's extremes included, which float64 would round).
    check_equal("ceil", xt::xarray<T>(ca::cl_array<T, S>(ca::ceil(a)).get()), ha, ha);
    check_equal("floor", xt::xarray<T>(ca::cl_array<T, S>(ca::floor(a)).get()), ha, ha);
    check_equal("trunc", xt::xarray<T>(ca::cl_array<T, S>(ca::trunc(a)).get()), ha, ha);
    check_equal("round", xt::xarray<T>(ca::cl_array<T, S>(ca::round(a)).get()), ha, ha);
    // rint stays a float function (NumPy's rint of integers is floating too).
    STATIC_REQUIRE(std::is_floating_point_v<typename decltype(ca::rint(a))::value_type>);
}

TEMPLATE_LIST_TEST_CASE("ceil, floor and trunc of bool are bool, round of bool is float16",
                        "[numpy_edges]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const xt::xarray<bool> hb = {true, false, true, true, false};
    auto b = ca::to_device<S>(test::q(), hb);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::ceil(b))::value_type, bool>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::floor(b))::value_type, bool>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::trunc(b))::value_type, bool>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::round(b))::value_type, ca::half>);
    const xt::xarray<bool> c = ca::cl_array<bool, S>(ca::ceil(b)).get();
    const xt::xarray<bool> t = ca::cl_array<bool, S>(ca::trunc(b)).get();
    const xt::xarray<ca::half> r = ca::cl_array<ca::half, S>(ca::round(b)).get();
    for (std::size_t i = 0; i < hb.size(); ++i) {
        CHECK(c(i) == hb(i));
        CHECK(t(i) == hb(i));
        CHECK(float(r(i)) == (hb(i) ? 1.0f : 0.0f));
    }
}

// ---- fmod of integers, and bool where NumPy has no bool loop ----
// NumPy's integer fmod: C's truncated remainder (the dividend's sign), 0 for a zero divisor (NumPy
// warns) and for a signed divisor of -1 (the minimum's quotient would overflow).
template <class T> T np_fmod(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>)
        if (b == static_cast<T>(-1)) return 0;
    return static_cast<T>(a % b);
}

TEMPLATE_LIST_TEST_CASE("fmod of integers is an integer remainder, as NumPy's", "[numpy_edges]",
                        int_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = 96;
    const xt::xarray<T> ha = edge_values<T>(n, 83);
    xt::xarray<T> hb = edge_values<T>(n, 89);
    hb(5) = static_cast<T>(-1); // the minimum by -1 (and by 0 at 2, by the maximum at 1)
    hb(6) = 0;
    hb(7) = 7;
    hb(8) = static_cast<T>(-7);
    auto a = dev<T, S>(ha), b = dev<T, S>(hb);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::fmod(a, b))::value_type, T>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::fmod(a, 3))::value_type, T>);
    xt::xarray<T> want = ha, want3 = ha;
    for (std::size_t i = 0; i < n; ++i) {
        want(i) = np_fmod<T>(ha(i), hb(i));
        want3(i) = np_fmod<T>(ha(i), T(3));
    }
    check_equal("fmod(a, b)", xt::xarray<T>(ca::cl_array<T, S>(ca::fmod(a, b)).get()), want, ha);
    check_equal("fmod(a, 3)", xt::xarray<T>(ca::cl_array<T, S>(ca::fmod(a, 3)).get()), want3, ha);
    // Mixed integer types promote first (int8 with uint8: int16); uint64 with a signed type
    // promotes to float64, where fmod is the float function, as NumPy's.
    STATIC_REQUIRE(
        std::is_same_v<typename decltype(ca::fmod(
                           a, std::declval<const ca::cl_array<std::uint8_t, S>&>()))::value_type,
                       ca::promote_t<T, std::uint8_t>>);
    STATIC_REQUIRE(
        std::is_same_v<typename decltype(ca::fmod(
                           a, std::declval<const ca::cl_array<std::uint64_t, S>&>()))::value_type,
                       std::conditional_t<std::is_signed_v<T>, double, std::uint64_t>>);
    STATIC_REQUIRE(
        std::is_same_v<typename decltype(ca::fmod(a, 3.0))::value_type, ca::promote_t<T, double>>);
}

using bool_configs = std::tuple<test::cfg<bool, ca::svm_coarse>, test::cfg<bool, ca::svm_fine>,
                                test::cfg<bool, ca::buffer>>;

TEMPLATE_LIST_TEST_CASE("fmod, power and conj of bool are int8, angle of bool float64",
                        "[numpy_edges]", bool_configs) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    if (!test::dtype_available<double>()) return;
    const xt::xarray<bool> ha = {true, false, true, false, true};
    const xt::xarray<bool> hb = {true, true, false, false, true};
    auto a = ca::to_device<S>(test::q(), ha), b = ca::to_device<S>(test::q(), hb);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::fmod(a, b))::value_type, std::int8_t>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::fmod(a, true))::value_type, std::int8_t>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::pow(a, b))::value_type, std::int8_t>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::pow(a, true))::value_type, std::int8_t>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::pow(a, 2))::value_type, std::int64_t>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::conj(a))::value_type, std::int8_t>);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::angle(a))::value_type, double>);
    // NumPy's angle of other real types: atan2 of the type with a weak 0 (int16: float32, 32 and
    // 64-bit integers float64; 8-bit ones float16, float32 here as every math function of them).
    STATIC_REQUIRE(
        std::is_same_v<typename decltype(ca::angle(
                           std::declval<const ca::cl_array<std::int16_t, S>&>()))::value_type,
                       float>);
    STATIC_REQUIRE(
        std::is_same_v<typename decltype(ca::angle(
                           std::declval<const ca::cl_array<std::int32_t, S>&>()))::value_type,
                       double>);
    STATIC_REQUIRE(
        std::is_same_v<typename decltype(ca::angle(
                           std::declval<const ca::cl_array<std::uint64_t, S>&>()))::value_type,
                       double>);
    STATIC_REQUIRE(
        std::is_same_v<typename decltype(ca::angle(
                           std::declval<const ca::cl_array<std::int8_t, S>&>()))::value_type,
                       float>);
    const xt::xarray<std::int8_t> f = ca::cl_array<std::int8_t, S>(ca::fmod(a, b)).get();
    const xt::xarray<std::int8_t> p = ca::cl_array<std::int8_t, S>(ca::pow(a, b)).get();
    const xt::xarray<std::int8_t> c = ca::cl_array<std::int8_t, S>(ca::conj(a)).get();
    const xt::xarray<double> g = ca::cl_array<double, S>(ca::angle(a)).get();
    for (std::size_t i = 0; i < ha.size(); ++i) {
        const int x = ha(i), y = hb(i);
        int power = 1; // x ** y by its definition
        for (int k = 0; k < y; ++k)
            power *= x;
        CHECK(int(f(i)) == np_fmod<int>(x, y));
        CHECK(int(p(i)) == power);
        CHECK(int(c(i)) == x);
        CHECK(g(i) == std::atan2(0.0, double(x)));
    }
}
