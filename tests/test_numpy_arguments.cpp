// NumPy behaviours that needed more than the common dtypes or argument forms: add_at of 8- and
// 16-bit integers, bool and float16; maximum/minimum/fmax/fmin, max/min and cummax/cummin of
// complex values (lexicographic, NaN as NumPy); linspace of complex values; concatenate<R> of a
// braced list of different dtypes; cumulative_sum/cumulative_prod with a dtype; ceil/floor/trunc
// keeping integer dtypes; repeat with a count per element. Each against a host reference written
// here as plain loops (NumPy's definitions), over storage policies and views.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using test::each_policy;
using test::q;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

// EXPR throws E, whose message contains TEXT (evaluated once: a device check's report is
// consumed by the throw).
#define CHECK_THROWS_NAMING(EXPR, E, TEXT)                                                         \
    do {                                                                                           \
        try {                                                                                      \
            (void)(EXPR);                                                                          \
            FAIL_CHECK(#EXPR " did not throw");                                                    \
        } catch (const E& caught) {                                                                \
            CHECK_THAT(std::string(caught.what()), catch_compat::Contains(TEXT));                  \
        }                                                                                          \
    } while (0)

template <class T, class S> ca::cl_array<T, S> device(const xt::xarray<T>& h) {
    ca::cl_array<T, S> a(q(), ca::shape_type(h.shape().begin(), h.shape().end()));
    if (a.size()) a.set(h);
    return a;
}

// The n values h in a 1-d view of kind `lay`: 0 an array of its own (n elements, so an
// allocation whose size need not be a multiple of 4 bytes), 1 every second element of a larger
// array from an offset, 2 a reversed view (negative step), 3 the tail of an array one element
// longer (the view ends where its allocation ends).
template <class T, class S> ca::cl_array<T, S> placed(const xt::xarray<T>& h, int lay) {
    const std::size_t n = h.size();
    if (lay == 0 || n == 0) return device<T, S>(h);
    const std::size_t total = lay == 1 ? 2 * n + 3 : (lay == 2 ? n : n + 1);
    xt::xarray<T> big = xt::xarray<T>::from_shape({total});
    std::fill(big.begin(), big.end(), T(1));
    auto d = device<T, S>(big);
    const auto sn = static_cast<std::ptrdiff_t>(n);
    ca::cl_array<T, S> v = lay == 1   ? d(ca::range(3, 2 * sn + 3, 2))
                           : lay == 2 ? d(ca::range(sn - 1, ca::none, -1))
                                      : d(ca::range(1, sn + 1));
    v.set(h);
    return v;
}

// NumPy's add of two values of T: integers wrap, bool is logical or, float16 rounds the float
// sum once.
template <class T> T np_add(T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
        return a || b;
    } else if constexpr (std::is_same_v<T, ca::half>) {
        return T(static_cast<float>(a) + static_cast<float>(b));
    } else if constexpr (std::is_floating_point_v<T>) {
        return a + b;
    } else {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    }
}

// Random values of T over its whole range, extremes included (float16: multiples of 1/2 in
// [-2, 2], so that every partial sum of a test below 1024 in magnitude is exact in any order).
template <class T> xt::xarray<T> full_range(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    xt::xarray<T> h = xt::xarray<T>::from_shape({n});
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, bool>) {
            h(i) = (rng() % 3) == 0;
        } else if constexpr (std::is_same_v<T, ca::half>) {
            h(i) = T(static_cast<float>(static_cast<int>(rng() % 9) - 4) / 2);
        } else {
            const auto r = rng() % 8;
            h(i) = r == 0   ? std::numeric_limits<T>::max()
                   : r == 1 ? std::numeric_limits<T>::lowest()
                            : static_cast<T>(rng());
        }
    }
    return h;
}

template <class I> xt::xarray<I> indices_into(std::size_t count, std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    xt::xarray<I> h = xt::xarray<I>::from_shape({count});
    for (auto& v : h) {
        auto k = static_cast<std::int64_t>(rng() % n);
        if (rng() & 1) k -= static_cast<std::int64_t>(n); // negative: from the end
        v = static_cast<I>(k);
    }
    return h;
}
std::size_t from_end(std::int64_t k, std::size_t n) {
    return static_cast<std::size_t>(k < 0 ? k + static_cast<std::int64_t>(n) : k);
}

template <class T> xt::xarray<T> reshaped(xt::xarray<T> h, const ca::shape_type& shape) {
    h.reshape(std::vector<std::size_t>(shape.begin(), shape.end()));
    return h;
}

template <class T> bool same_value(T a, T b) {
    if constexpr (std::is_same_v<T, ca::half>)
        return static_cast<float>(a) == static_cast<float>(b);
    else
        return a == b;
}

template <class T, class S> void narrow_add_at_case(std::size_t n, std::size_t count, int lay) {
    INFO("n " << n << ", count " << count << ", layout " << lay << ", " << S::name);
    if (std::is_same_v<T, ca::half>) count = std::min<std::size_t>(count, 500);
    const xt::xarray<T> ha = full_range<T>(n, 3 + static_cast<unsigned>(n));
    auto a = placed<T, S>(ha, lay);
    const auto hi = indices_into<std::int64_t>(count, n, 5);
    const xt::xarray<T> hv = full_range<T>(count, 7);
    ca::add_at(a, device<std::int64_t, S>(hi), device<T, S>(hv));
    xt::xarray<T> expect = ha;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t k = from_end(hi(i), n);
        expect(k) = np_add<T>(expect(k), hv(i));
    }
    const xt::xarray<T> got = a.get();
    for (std::size_t k = 0; k < n; ++k) {
        INFO("element " << k);
        REQUIRE(same_value<T>(got(k), expect(k)));
    }
}

} // namespace

TEMPLATE_TEST_CASE("add_at of 8- and 16-bit integers, bool and float16 accumulates every duplicate "
                   "as NumPy's add.at",
                   "[numpy_arguments]", std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                   bool, ca::half) {
    each_policy([&](auto policy) {
        using S = decltype(policy);
        for (int lay : {0, 1, 2, 3})
            for (std::size_t n : {1, 3, 5, 17, 1024, 1087})
                for (std::size_t count : {0, 7, 3000})
                    narrow_add_at_case<TestType, S>(n, count, lay);
    });
}

TEMPLATE_TEST_CASE("add_at of narrow types along the first axis of a strided 2-d view, with scalar "
                   "and expression values",
                   "[numpy_arguments]", std::int8_t, std::uint16_t, bool) {
    using T = TestType;
    each_policy([&](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        // a: rows 1..5 and columns 1, 4, 7 of a (7, 9) array, viewed with the rows reversed.
        const xt::xarray<T> hbig = reshaped(full_range<T>(63, 11), {7, 9});
        auto big = device<T, S>(hbig);
        auto a = big(ca::range(5, 0, -1), ca::range(1, 9, 3)); // (5, 3)
        const xt::xarray<T> ha = a.get();
        const auto hi = indices_into<std::int32_t>(400, 5, 13);
        const auto idx = device<std::int32_t, S>(hi);
        const xt::xarray<T> hv = reshaped(full_range<T>(1200, 17), {400, 3});
        const xt::xarray<T> hrow = full_range<T>(3, 19);
        ca::add_at(a, idx, device<T, S>(hv));                          // values (400, 3)
        ca::add_at(a, idx, device<T, S>(hrow));                        // one row broadcast
        ca::add_at(a, idx + 0, T(1));                                  // a scalar, index expression
        ca::add_at(a, idx, ca::astype<T>(device<T, S>(hrow) != T(0))); // values expression
        xt::xarray<T> expect = ha;
        for (std::size_t i = 0; i < 400; ++i) {
            const std::size_t r = from_end(hi(i), 5);
            for (std::size_t c = 0; c < 3; ++c) {
                expect(r, c) = np_add(expect(r, c), hv(i, c));
                expect(r, c) = np_add(expect(r, c), hrow(c));
                expect(r, c) = np_add(expect(r, c), T(1));
                expect(r, c) = np_add(expect(r, c), static_cast<T>(hrow(c) != T(0)));
            }
        }
        const xt::xarray<T> got = a.get();
        for (std::size_t k = 0; k < expect.size(); ++k)
            REQUIRE(got.data()[k] == expect.data()[k]);
        // Elements outside the view keep their values.
        const xt::xarray<T> after = big.get();
        for (std::size_t r = 0; r < 7; ++r)
            for (std::size_t c = 0; c < 9; ++c)
                if (r == 0 || r == 6 || c % 3 != 1) REQUIRE(after(r, c) == hbig(r, c));
    });
}

TEST_CASE("add_at of narrow types into foreign memory, and its errors", "[numpy_arguments]") {
    // A 7-byte cl_mem of another library: its last word would stick out of the buffer.
    const std::size_t n = 7;
    cl_int rc = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(test::ctx().get(), CL_MEM_READ_WRITE, n, nullptr, &rc);
    REQUIRE(rc == CL_SUCCESS);
    {
        auto a = ca::from_cl_mem<std::uint8_t>(q(), mem, ca::foreign_layout{{n}});
        const xt::xarray<std::uint8_t> ha = full_range<std::uint8_t>(n, 23);
        a.set(ha);
        const auto hi = indices_into<std::int64_t>(999, n, 29);
        const xt::xarray<std::uint8_t> hv = full_range<std::uint8_t>(999, 31);
        ca::add_at(a, device<std::int64_t, ca::buffer>(hi), device<std::uint8_t, ca::buffer>(hv));
        std::vector<std::uint8_t> expect(ha.begin(), ha.end());
        for (std::size_t i = 0; i < hi.size(); ++i)
            expect[from_end(hi(i), n)] = np_add(expect[from_end(hi(i), n)], hv(i));
        const xt::xarray<std::uint8_t> got = a.get();
        for (std::size_t k = 0; k < n; ++k)
            REQUIRE(got(k) == expect[k]);
    }
    clReleaseMemObject(mem);

    auto small = ca::zeros<std::int8_t, ca::buffer>(q(), {4});
    const auto idx = device<std::int32_t, ca::buffer>(xt::xarray<std::int32_t>{1, 1, -1});
    // NumPy 2 refuses a Python int out of the array's range; so does add_at, naming itself.
    CHECK_THROWS_NAMING(ca::add_at(small, idx, 300), ca::dtype_error, "add_at");
    auto bytes = ca::zeros<std::uint8_t, ca::buffer>(q(), {4});
    CHECK_THROWS_AS(ca::add_at(bytes, idx, -1), ca::dtype_error);
    ca::add_at(small, idx, 127); // in range: wraps when it accumulates
    const xt::xarray<std::int8_t> hs = small.get();
    CHECK(hs(1) == np_add<std::int8_t>(127, 127));
    CHECK(hs(3) == np_add<std::int8_t>(0, 127));
    CHECK(hs(0) == 0);
    // Values that do not broadcast to idx.shape + a.shape[1:].
    CHECK_THROWS_AS(ca::add_at(small, idx, ca::zeros<std::int8_t, ca::buffer>(q(), {2})),
                    ca::shape_error);
    // An index out of range adds nothing and is reported at the next host wait.
    auto flags = ca::zeros<bool, ca::buffer>(q(), {3});
    const auto bad = device<std::int64_t, ca::buffer>(xt::xarray<std::int64_t>{0, 3});
    ca::add_at(flags, bad, true);
    CHECK_THROWS_NAMING(flags.get(), ca::index_error, "add_at");
}

// ---- complex maximum/minimum, max/min, cummax/cummin ----
namespace {

template <class C> bool has_nan(C v) {
    return std::isnan(v.real()) || std::isnan(v.imag());
}
// NumPy's CGE (greater) / CLE of complex values (umath's loops): lexicographic, and the real
// parts' strict test fails where an imaginary part is NaN.
template <class C> bool np_order(C x, C y, bool greater) {
    const bool strict = greater ? x.real() > y.real() : x.real() < y.real();
    const bool second = greater ? x.imag() >= y.imag() : x.imag() <= y.imag();
    return (strict && !std::isnan(x.imag()) && !std::isnan(y.imag())) ||
           (x.real() == y.real() && second);
}
// NumPy's maximum (greater) / minimum: x where x has a NaN part or x is in order, else y.
template <class C> C np_extreme(C x, C y, bool greater) {
    return has_nan(x) || np_order(x, y, greater) ? x : y;
}
// NumPy's fmax (greater) / fmin: x where y has a NaN part or x is in order, else y.
template <class C> C np_fextreme(C x, C y, bool greater) {
    return has_nan(y) || np_order(x, y, greater) ? x : y;
}
template <class F> bool same_part(F a, F b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}
template <class C> bool same_complex(C a, C b) {
    return same_part(a.real(), b.real()) && same_part(a.imag(), b.imag());
}

// Parts drawn from a few values (so that real parts tie often), infinities included; NaN parts
// with probability 1 / nan_one_in (never for 0).
template <class C>
xt::xarray<C> special_complex(const ca::shape_type& shape, unsigned seed, unsigned nan_one_in) {
    using F = typename C::value_type;
    const F pool[] = {F(-2),
                      F(-1),
                      F(0),
                      F(0.5),
                      F(1),
                      F(2),
                      std::numeric_limits<F>::infinity(),
                      -std::numeric_limits<F>::infinity()};
    std::mt19937_64 rng(seed);
    auto part = [&] {
        if (nan_one_in && rng() % nan_one_in == 0) return std::numeric_limits<F>::quiet_NaN();
        return pool[rng() % std::size(pool)];
    };
    xt::xarray<C> h = xt::xarray<C>::from_shape(shape);
    for (auto& v : h) {
        const F re = part();
        v = C(re, part());
    }
    return h;
}

template <class C> bool complex_available() {
    return test::dtype_available<typename C::value_type>();
}

} // namespace

TEMPLATE_TEST_CASE("maximum, minimum, fmax and fmin of complex values order them lexicographically "
                   "and treat NaN as NumPy's",
                   "[numpy_arguments]", c64, c128) {
    using C = TestType;
    using F = typename C::value_type;
    if (!complex_available<C>()) return;
    const std::size_t n = 500;
    const xt::xarray<C> hx = special_complex<C>({n}, 1, 6);
    const xt::xarray<C> hy = special_complex<C>({n}, 2, 6);
    xt::xarray<F> hr = xt::xarray<F>::from_shape({n});
    for (std::size_t i = 0; i < n; ++i)
        hr(i) = hy(i).imag(); // a real operand: NaN, infinities and ties with x's real parts
    each_policy([&](auto policy) {
        using S = decltype(policy);
        for (int lay : {0, 1, 2}) {
            INFO(S::name << ", layout " << lay);
            const auto x = placed<C, S>(hx, lay);
            const auto y = placed<C, S>(hy, (lay + 1) % 3);
            const auto r = placed<F, S>(hr, (lay + 2) % 3);
            const xt::xarray<C> mx = ca::eval(ca::maximum(x, y)).get();
            const xt::xarray<C> mn = ca::eval(ca::minimum(x, y)).get();
            const xt::xarray<C> fx = ca::eval(ca::fmax(x, y)).get();
            const xt::xarray<C> fn = ca::eval(ca::fmin(x, y)).get();
            const xt::xarray<C> mr = ca::eval(ca::maximum(r, x)).get();        // real first operand
            const xt::xarray<C> ms = ca::eval(ca::minimum(x, 0.5)).get();      // a weak scalar
            const xt::xarray<C> me = ca::eval(ca::maximum(x + F(1), y)).get(); // an expression
            const xt::xarray<C> cl = ca::eval(ca::clip(x, -1.0, y)).get();     // NumPy's clip
            for (std::size_t i = 0; i < n; ++i) {
                INFO("x " << hx(i) << ", y " << hy(i) << ", r " << hr(i));
                REQUIRE(same_complex(mx(i), np_extreme(hx(i), hy(i), true)));
                REQUIRE(same_complex(mn(i), np_extreme(hx(i), hy(i), false)));
                REQUIRE(same_complex(fx(i), np_fextreme(hx(i), hy(i), true)));
                REQUIRE(same_complex(fn(i), np_fextreme(hx(i), hy(i), false)));
                REQUIRE(same_complex(mr(i), np_extreme(C(hr(i), F(0)), hx(i), true)));
                REQUIRE(same_complex(ms(i), np_extreme(hx(i), C(F(0.5), F(0)), false)));
                REQUIRE(same_complex(me(i), np_extreme(hx(i) + F(1), hy(i), true)));
                // clip(x, lo, hi) is minimum(maximum(x, lo), hi), as NumPy's
                REQUIRE(same_complex(
                    cl(i), np_extreme(np_extreme(hx(i), C(F(-1), F(0)), true), hy(i), false)));
            }
        }
    });
}

TEMPLATE_TEST_CASE("max, min, cummax and cummin of complex values order them lexicographically and "
                   "propagate NaN as NumPy's",
                   "[numpy_arguments]", c64, c128) {
    using C = TestType;
    using F = typename C::value_type;
    if (!complex_available<C>()) return;
    const std::size_t rows = 6, cols = 41;
    each_policy([&](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        // (rows, cols) seen through a view with a negative step along the columns.
        auto view_of = [&](const xt::xarray<C>& h) {
            xt::xarray<C> big = xt::xarray<C>::from_shape({rows, 2 * cols});
            std::fill(big.begin(), big.end(), C(F(9), F(9)));
            auto d = device<C, S>(big);
            auto v =
                d(ca::all(), ca::range(2 * static_cast<std::ptrdiff_t>(cols) - 1, ca::none, -2));
            v.set(h);
            return v;
        };
        auto fold = [](const C* first, std::size_t count, std::size_t step, bool greater, C acc) {
            for (std::size_t k = 0; k < count; ++k)
                acc = np_extreme(acc, first[k * step], greater);
            return acc;
        };
        for (bool greater : {true, false}) {
            INFO((greater ? "max" : "min"));
            auto red = [&](const auto& v, auto&&... args) {
                return greater ? ca::max(v, args...) : ca::min(v, args...);
            };
            // Without NaN: every tie is between equal values, so the order of combination does
            // not matter and results compare exactly.
            const xt::xarray<C> h = special_complex<C>({rows, cols}, 5, 0);
            const auto v = view_of(h);
            const C all = red(v).item();
            REQUIRE(same_complex(all, fold(h.data() + 1, rows * cols - 1, 1, greater, h(0, 0))));
            const xt::xarray<C> by_row = red(v, ca::reduce_axes(1)).get();
            const xt::xarray<C> by_col = red(v, ca::reduce_axes(0), true).get();
            REQUIRE(by_col.shape(0) == 1);
            for (std::size_t r = 0; r < rows; ++r)
                REQUIRE(same_complex(by_row(r), fold(&h(r, 1), cols - 1, 1, greater, h(r, 0))));
            for (std::size_t c = 0; c < cols; ++c)
                REQUIRE(
                    same_complex(by_col(0, c), fold(&h(1, c), rows - 1, cols, greater, h(0, c))));
            // An initial value takes part (and is the result of an empty reduction).
            const C init(F(1), F(0.5));
            const xt::xarray<C> with_init = red(v, ca::reduce_axes(1), false, init).get();
            for (std::size_t r = 0; r < rows; ++r)
                REQUIRE(same_complex(with_init(r), fold(&h(r, 0), cols, 1, greater, init)));
            const auto none = ca::zeros<C, S>(q(), {0});
            REQUIRE(same_complex(red(none, ca::reduce_axes(), false, init).item(), init));
            CHECK_THROWS_AS(red(none), ca::shape_error);
            // The running extreme along the rows, and over the flattened array.
            const xt::xarray<C> running = (greater ? ca::cummax(v, 1) : ca::cummin(v, 1)).get();
            for (std::size_t r = 0; r < rows; ++r) {
                C acc = h(r, 0);
                for (std::size_t c = 0; c < cols; ++c) {
                    acc = np_extreme(acc, h(r, c), greater);
                    REQUIRE(same_complex(running(r, c), acc));
                }
            }
            // One NaN per row (in its real or its imaginary part): the row's result is that
            // element, whatever the order of combination; the running extreme keeps it from
            // where it occurs.
            xt::xarray<C> hn = special_complex<C>({rows, cols}, 9, 0);
            std::mt19937_64 rng(13);
            std::vector<std::size_t> at(rows);
            for (std::size_t r = 0; r < rows; ++r) {
                at[r] = rng() % cols;
                const F nan = std::numeric_limits<F>::quiet_NaN();
                hn(r, at[r]) = (r % 2) ? C(nan, F(r)) : C(F(r), nan);
            }
            const auto vn = view_of(hn);
            const xt::xarray<C> nan_rows = red(ca::eval(vn + F(0)), ca::reduce_axes(1)).get();
            for (std::size_t r = 0; r < rows; ++r)
                REQUIRE(same_complex(nan_rows(r), hn(r, at[r])));
            REQUIRE(has_nan(red(vn).item()));
            const xt::xarray<C> nan_running =
                (greater ? ca::cummax(vn + F(0), 1) : ca::cummin(vn + F(0), 1)).get();
            for (std::size_t r = 0; r < rows; ++r) {
                C acc = hn(r, 0);
                for (std::size_t c = 0; c < cols; ++c) {
                    acc = np_extreme(acc, hn(r, c), greater);
                    REQUIRE(same_complex(nan_running(r, c), acc));
                }
            }
        }
    });
}

namespace {
// NumPy's argmax (greater) / argmin of complex values (its arraytypes loop): the first NaN (in
// either part) wins, else the first strictly lexicographic extreme.
template <class C>
std::int64_t np_argextreme(const C* first, std::size_t count, std::size_t step, bool greater) {
    std::size_t best = 0;
    C m = first[0];
    if (has_nan(m)) return 0;
    for (std::size_t k = 1; k < count; ++k) {
        const C x = first[k * step];
        if (has_nan(x)) return static_cast<std::int64_t>(k);
        const bool beyond =
            greater ? (x.real() > m.real() || (x.real() == m.real() && x.imag() > m.imag()))
                    : (x.real() < m.real() || (x.real() == m.real() && x.imag() < m.imag()));
        if (beyond) {
            m = x;
            best = k;
        }
    }
    return static_cast<std::int64_t>(best);
}
} // namespace

TEMPLATE_TEST_CASE("argmax and argmin of complex values give NumPy's first lexicographic extreme "
                   "or first NaN",
                   "[numpy_arguments]", c64, c128) {
    using C = TestType;
    using F = typename C::value_type;
    if (!complex_available<C>()) return;
    const std::size_t rows = 5, cols = 37;
    each_policy([&](auto policy) {
        using S = decltype(policy);
        // nan_one_in 0: ties only; 40: a few NaN parts per row, the first of them must win.
        for (unsigned nan_one_in : {0u, 40u}) {
            INFO(S::name << ", NaN one in " << nan_one_in);
            const xt::xarray<C> h = special_complex<C>({rows, cols}, 21 + nan_one_in, nan_one_in);
            xt::xarray<C> big = xt::xarray<C>::from_shape({rows, 2 * cols});
            std::fill(big.begin(), big.end(), C(F(7), F(7)));
            auto d = device<C, S>(big);
            auto v =
                d(ca::all(), ca::range(2 * static_cast<std::ptrdiff_t>(cols) - 1, ca::none, -2));
            v.set(h);
            for (bool greater : {true, false}) {
                INFO((greater ? "argmax" : "argmin"));
                const std::int64_t flat = (greater ? ca::argmax(v) : ca::argmin(v)).item();
                REQUIRE(flat == np_argextreme(h.data(), rows * cols, 1, greater));
                const xt::xarray<std::int64_t> along1 =
                    (greater ? ca::argmax(v, 1) : ca::argmin(v, 1)).get();
                for (std::size_t r = 0; r < rows; ++r)
                    REQUIRE(along1(r) == np_argextreme(&h(r, 0), cols, 1, greater));
                const xt::xarray<std::int64_t> along0 =
                    (greater ? ca::argmax(v + F(0), 0, true) : ca::argmin(v + F(0), 0, true)).get();
                REQUIRE(along0.shape(0) == 1);
                for (std::size_t c = 0; c < cols; ++c)
                    REQUIRE(along0(0, c) == np_argextreme(&h(0, c), rows, cols, greater));
            }
        }
    });
}

// ---- linspace of complex values ----
TEMPLATE_TEST_CASE("linspace of complex values follows NumPy's formula with and without the "
                   "endpoint",
                   "[numpy_arguments]", c64, c128) {
    using C = TestType;
    using F = typename C::value_type;
    if (!complex_available<C>()) return;
    const C start(F(-1.5), F(2)), stop(F(3.25), F(-7));
    each_policy([&](auto policy) {
        using S = decltype(policy);
        for (std::size_t num : {0, 1, 2, 3, 10, 101})
            for (bool endpoint : {true, false}) {
                INFO(S::name << ", num " << num << ", endpoint " << endpoint);
                const auto a = ca::linspace<C, S>(q(), start, stop, num, endpoint);
                static_assert(std::is_same_v<typename decltype(a)::value_type, C>);
                REQUIRE(a.shape() == ca::shape_type{num});
                if (num == 0) continue;
                const xt::xarray<C> got = a.get();
                // NumPy: step = (stop - start) / div, y[i] = start + i * step, and y[-1] = stop
                // with the endpoint (div = num - 1, else num).
                const std::size_t div = endpoint ? num - 1 : num;
                const c128 step =
                    div ? (c128(stop) - c128(start)) / static_cast<double>(div) : c128(0);
                const double tol = 64 * std::numeric_limits<F>::epsilon() *
                                   (std::abs(c128(start)) + std::abs(c128(stop)));
                for (std::size_t i = 0; i < num; ++i) {
                    c128 expect = c128(start) + static_cast<double>(i) * step;
                    if (endpoint && num > 1 && i == num - 1) expect = c128(stop);
                    INFO("i " << i << ": " << got(i) << " vs " << expect);
                    REQUIRE(std::abs(c128(got(i)) - expect) <= tol);
                }
                REQUIRE(got(0) == start);
                if (endpoint && num > 1) REQUIRE(got(num - 1) == stop);
            }
    });
}

// ---- concatenate<R> of a braced list of different dtypes ----
TEST_CASE("concatenate<R> of a braced list of different dtypes converts every part, and the "
          "existing spellings keep working",
          "[numpy_arguments]") {
    each_policy([&](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        const xt::xarray<std::int8_t> h8 = full_range<std::int8_t>(9, 43);
        const xt::xarray<float> hf = {0.5f, -2.25f, 1e6f, -0.0f};
        const xt::xarray<std::uint16_t> h16 = full_range<std::uint16_t>(5, 47);
        const auto a8 = placed<std::int8_t, S>(h8, 2); // reversed
        const auto f = placed<float, S>(hf, 1);        // strided, offset
        const auto u16 = placed<std::uint16_t, S>(h16, 3);
        // NumPy's result_type of all three at once, and a part that is an expression.
        using R = ca::result_type_t<std::int8_t, float, std::uint16_t>;
        const auto r = ca::concatenate<R, S>({a8, f, u16 + std::uint16_t(1)});
        static_assert(std::is_same_v<typename decltype(r)::value_type, R>);
        std::vector<R> expect;
        for (auto v : h8)
            expect.push_back(static_cast<R>(v));
        for (auto v : hf)
            expect.push_back(static_cast<R>(v));
        for (auto v : h16)
            expect.push_back(static_cast<R>(static_cast<std::uint16_t>(v + 1)));
        REQUIRE(r.shape() == ca::shape_type{expect.size()});
        const xt::xarray<R> got = r.get();
        for (std::size_t i = 0; i < expect.size(); ++i)
            REQUIRE(got(i) == expect[i]);
        if constexpr (std::is_same_v<S, ca::svm_coarse>) { // the default storage, not named
            const xt::xarray<R> unnamed = ca::concatenate<R>({a8, f, u16 + std::uint16_t(1)}).get();
            for (std::size_t i = 0; i < expect.size(); ++i)
                REQUIRE(unnamed(i) == expect[i]);
        }
        // The tuple spelling promotes to the same type and values.
        const auto t = ca::concatenate(std::tie(a8, f, u16));
        static_assert(std::is_same_v<typename decltype(t)::value_type, R>);
        const xt::xarray<R> got_t = t.get();
        for (std::size_t i = 0; i < h8.size() + hf.size(); ++i)
            REQUIRE(got_t(i) == expect[i]);
        // A wider named dtype (NumPy's dtype=), along axis 1 (-1) of 2-d parts.
        const xt::xarray<std::int16_t> h2 = reshaped(full_range<std::int16_t>(6, 53), {2, 3});
        const xt::xarray<double> hd = {{1.5, -2.0}, {3.25, 4.0}};
        auto big =
            device<std::int16_t, S>(xt::xarray<std::int16_t>(xt::zeros<std::int16_t>({4, 3})));
        auto v2 = big(ca::range(3, 0, -2), ca::all()); // rows 3 and 1
        v2.set(h2);
        const auto d = device<double, S>(hd);
        const auto m =
            ca::concatenate<double, S>({v2, d * 2.0, v2(ca::all(), ca::range(0, 1))}, -1);
        REQUIRE(m.shape() == ca::shape_type{2, 6});
        const xt::xarray<double> hm = m.get();
        for (std::size_t i = 0; i < 2; ++i) {
            for (std::size_t j = 0; j < 3; ++j)
                REQUIRE(hm(i, j) == static_cast<double>(h2(i, j)));
            for (std::size_t j = 0; j < 2; ++j)
                REQUIRE(hm(i, 3 + j) == hd(i, j) * 2.0);
            REQUIRE(hm(i, 5) == static_cast<double>(h2(i, 0)));
        }
        // The one-dtype spellings.
        const auto same = ca::concatenate({f, f});
        const auto listed = ca::concatenate(std::vector<ca::cl_array<float, S>>{f, f}, 0);
        const xt::xarray<float> hs = same.get(), hl = listed.get();
        for (std::size_t i = 0; i < 2 * hf.size(); ++i) {
            REQUIRE(hs(i) == hf(i % hf.size()));
            REQUIRE(hl(i) == hf(i % hf.size()));
        }
        // Bad input names concatenate.
        CHECK_THROWS_NAMING((ca::concatenate<double, S>({v2, d}, 0)), ca::shape_error,
                            "concatenate");
        CHECK_THROWS_NAMING((ca::concatenate<float, S>({a8, f}, 1)), ca::index_error,
                            "concatenate");
    });
    CHECK_THROWS_NAMING(ca::concatenate<float>({}), ca::usage_error, "concatenate");
}

// ---- cumulative_sum / cumulative_prod with a dtype ----
namespace {
template <class U> U wrap_mul(U a, U b) {
    if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool>) {
        using W = std::make_unsigned_t<std::common_type_t<U, unsigned>>;
        return static_cast<U>(static_cast<W>(a) * static_cast<W>(b));
    } else {
        return a * b;
    }
}
// The running sum (or product) of h along `axis` in U, NumPy's cumulative_sum(h, axis=axis,
// dtype=U, include_initial=initial) of a 2-d h.
template <class U, class T>
xt::xarray<U> running(const xt::xarray<T>& h, std::size_t axis, bool product, bool initial) {
    const std::size_t rows = h.shape(0), cols = h.shape(1);
    const std::size_t extra = initial ? 1 : 0;
    xt::xarray<U> out =
        xt::xarray<U>::from_shape({rows + (axis == 0 ? extra : 0), cols + (axis == 1 ? extra : 0)});
    const std::size_t lines = axis == 0 ? cols : rows, len = axis == 0 ? rows : cols;
    for (std::size_t l = 0; l < lines; ++l) {
        U acc = product ? U(1) : U(0);
        auto put = [&](std::size_t k, U v) { axis == 0 ? out(k, l) = v : out(l, k) = v; };
        if (initial) put(0, acc);
        for (std::size_t k = 0; k < len; ++k) {
            const U v = static_cast<U>(axis == 0 ? h(k, l) : h(l, k));
            acc = product ? wrap_mul(acc, v) : np_add(acc, v);
            put(k + extra, acc);
        }
    }
    return out;
}
template <class U> void same_array(const xt::xarray<U>& got, const xt::xarray<U>& expect) {
    REQUIRE(got.shape() == expect.shape());
    for (std::size_t k = 0; k < expect.size(); ++k)
        REQUIRE(got.data()[k] == expect.data()[k]);
}
} // namespace

TEST_CASE("cumulative_sum and cumulative_prod with a dtype accumulate in it, as NumPy's",
          "[numpy_arguments]") {
    each_policy([&](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        const std::size_t rows = 4, cols = 9;
        const xt::xarray<std::int8_t> h =
            reshaped(full_range<std::int8_t>(rows * cols, 59), {rows, cols});
        auto big = device<std::int8_t, S>(
            xt::xarray<std::int8_t>(xt::zeros<std::int8_t>({rows, 2 * cols})));
        auto v = big(ca::all(), ca::range(2 * static_cast<std::ptrdiff_t>(cols) - 1, ca::none, -2));
        v.set(h);
        const auto s8 = ca::cumulative_sum<std::int8_t>(v, 1);
        static_assert(std::is_same_v<typename decltype(s8)::value_type, std::int8_t>);
        same_array<std::int8_t>(s8.get(), running<std::int8_t>(h, 1, false, false));
        same_array<std::int8_t>(ca::cumulative_sum<std::int8_t>(v, -1, true).get(),
                                running<std::int8_t>(h, 1, false, true));
        same_array<double>(ca::cumulative_sum<double>(v, 0, true).get(),
                           running<double>(h, 0, false, true));
        const auto p16 = ca::cumulative_prod<std::int16_t>(v, 1);
        static_assert(std::is_same_v<typename decltype(p16)::value_type, std::int16_t>);
        same_array<std::int16_t>(p16.get(), running<std::int16_t>(h, 1, true, false));
        // An expression argument, the initial 1 first.
        same_array<double>(ca::cumulative_prod<double>(v + std::int8_t(0), 0, true).get(),
                           running<double>(h, 0, true, true));
        same_array<std::uint8_t>(ca::cumulative_prod<std::uint8_t>(v, 0, true).get(),
                                 running<std::uint8_t>(h, 0, true, true));
        // bool: a running logical or (NumPy's add of bool); 1-d input needs no axis.
        const xt::xarray<bool> hb = {false, false, true, false, true};
        const auto b = placed<bool, S>(hb, 2);
        const xt::xarray<bool> gb = ca::cumulative_sum<bool>(b).get();
        bool any = false;
        for (std::size_t i = 0; i < hb.size(); ++i) {
            any = any || hb(i);
            REQUIRE(gb(i) == any);
        }
        // Bad input names the function.
        CHECK_THROWS_NAMING(ca::cumulative_sum<std::int8_t>(v), ca::usage_error, "cumulative_sum");
        const auto scalar = ca::zeros<std::int8_t, S>(q(), ca::shape_type{});
        CHECK_THROWS_NAMING(ca::cumulative_prod<double>(scalar), ca::shape_error,
                            "cumulative_prod");
        CHECK_THROWS_AS(ca::cumulative_sum<double>(v, 2), ca::index_error);
    });
}

// ---- ceil, floor, trunc of every dtype of the matrix ----
TEMPLATE_LIST_TEST_CASE("ceil, floor and trunc keep integer and bool dtypes and values",
                        "[numpy_arguments]", test::dtype_matrix) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    xt::xarray<T> h = test::random_array<T>({37}, 61);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        h(0) = std::numeric_limits<T>::max(); // exact at the extremes (no trip through float)
        h(1) = std::numeric_limits<T>::lowest();
    }
    for (int lay : {0, 1, 2}) {
        INFO("layout " << lay);
        const auto a = placed<T, S>(h, lay);
        const auto c = ca::eval(ca::ceil(a));
        const auto f = ca::eval(ca::floor(a));
        const auto t = ca::eval(ca::trunc(a));
        static_assert(std::is_same_v<typename decltype(c)::value_type, T>);
        static_assert(std::is_same_v<typename decltype(f)::value_type, T>);
        static_assert(std::is_same_v<typename decltype(t)::value_type, T>);
        const xt::xarray<T> hc = c.get(), hf = f.get(), ht = t.get();
        for (std::size_t i = 0; i < h.size(); ++i) {
            if constexpr (std::is_floating_point_v<T>) {
                REQUIRE(hc(i) == std::ceil(h(i)));
                REQUIRE(hf(i) == std::floor(h(i)));
                REQUIRE(ht(i) == std::trunc(h(i)));
            } else {
                REQUIRE(hc(i) == h(i));
                REQUIRE(hf(i) == h(i));
                REQUIRE(ht(i) == h(i));
            }
        }
    }
}

// ---- repeat with a count per element ----
namespace {
// NumPy's repeat of the 2-d h: along axis 0 or 1, or of h flattened (axis 2), each element
// counts[i] times (one count: all the same).
template <class T>
std::vector<T> repeated(const xt::xarray<T>& h, const std::vector<std::size_t>& counts, int axis) {
    auto count = [&](std::size_t i) { return counts.size() == 1 ? counts[0] : counts[i]; };
    std::vector<T> out;
    if (axis == 2) {
        for (std::size_t i = 0; i < h.size(); ++i)
            for (std::size_t k = 0; k < count(i); ++k)
                out.push_back(h.data()[i]);
        return out;
    }
    const std::size_t rows = h.shape(0), cols = h.shape(1);
    if (axis == 0) {
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t k = 0; k < count(r); ++k)
                for (std::size_t c = 0; c < cols; ++c)
                    out.push_back(h(r, c));
    } else {
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                for (std::size_t k = 0; k < count(c); ++k)
                    out.push_back(h(r, c));
    }
    return out;
}
template <class A> void same_values(const A& a, const std::vector<typename A::value_type>& expect) {
    REQUIRE(a.size() == expect.size());
    if (expect.empty()) return;
    const xt::xarray<typename A::value_type> got = a.get();
    for (std::size_t i = 0; i < expect.size(); ++i)
        REQUIRE(got.data()[i] == expect[i]);
}
} // namespace

TEST_CASE("repeat with a count per element, along an axis and flattened, counts on the host or "
          "the device",
          "[numpy_arguments]") {
    each_policy([&](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        const xt::xarray<std::int16_t> h = reshaped(full_range<std::int16_t>(12, 67), {3, 4});
        auto big =
            device<std::int16_t, S>(xt::xarray<std::int16_t>(xt::zeros<std::int16_t>({3, 8})));
        auto v = big(ca::all(), ca::range(7, ca::none, -2)); // (3, 4), negative step
        v.set(h);
        const std::vector<std::size_t> rows = {2, 0, 3}, cols = {1, 2, 0, 3};
        std::vector<std::size_t> flat(12);
        for (std::size_t i = 0; i < 12; ++i)
            flat[i] = i % 3;
        const auto r0 = ca::repeat(v, rows, 0);
        REQUIRE(r0.shape() == ca::shape_type{5, 4});
        same_values(r0, repeated(h, rows, 0));
        const auto r1 = ca::repeat(v, cols, -1);
        REQUIRE(r1.shape() == ca::shape_type{3, 6});
        same_values(r1, repeated(h, cols, 1));
        same_values(ca::repeat(v, flat), repeated(h, flat, 2));
        same_values(ca::repeat(v * std::int16_t(1), flat), repeated(h, flat, 2)); // an expression
        same_values(ca::repeat(v, std::vector<std::size_t>{2}), repeated(h, {2}, 2));
        // Counts in device arrays (integers or bool, expressions too).
        const auto c32 = device<std::int32_t, S>(xt::xarray<std::int32_t>{2, 0, 3});
        same_values(ca::repeat(v, c32, 0), repeated(h, rows, 0));
        same_values(ca::repeat(v, c32 + 1, 0), repeated(h, {3, 1, 4}, 0));
        const auto cb = device<bool, S>(xt::xarray<bool>{true, false, true, true});
        same_values(ca::repeat(v + std::int16_t(0), cb, 1), repeated(h, {1, 0, 1, 1}, 1));
        auto c64s = device<std::int64_t, S>(xt::xarray<std::int64_t>::from_shape({12}));
        c64s.fill(2);
        same_values(ca::repeat(v, c64s), repeated(h, {2}, 2));
        // Bad counts: a wrong number, a negative one, counts of two dimensions.
        CHECK_THROWS_NAMING(ca::repeat(v, std::vector<std::size_t>{1, 2}, 0), ca::shape_error,
                            "repeat");
        CHECK_THROWS_NAMING(ca::repeat(v, c32 - 1, 0), ca::shape_error, "repeat");
        const auto c2 = ca::zeros<std::int32_t, S>(q(), {2, 2});
        CHECK_THROWS_NAMING(ca::repeat(v, c2, 0), ca::shape_error, "repeat");
    });
}
