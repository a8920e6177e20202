// Expressions wherever an array is read (docs/semantics.md, "Expressions as arguments"): every
// function below gets an expression on every storage policy, compared with the same function of
// the evaluated array and with a host reference computed here.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <tuple>
#include <vector>

namespace {

using test::each_policy;
using test::host_vector;
using test::q;

template <class T, class S> ca::cl_array<T, S> device(const xt::xarray<T>& h) {
    ca::cl_array<T, S> a(q(), ca::shape_type(h.shape().begin(), h.shape().end()));
    if (a.size()) a.set(h);
    return a;
}
template <class A> xt::xarray<typename A::value_type> host(const A& a) {
    return a.get();
}
template <class A, class B> void require_same(const A& got, const B& want) {
    const auto g = host(got);
    const auto w = host(want);
    REQUIRE(g.shape() == w.shape());
    REQUIRE(bool(g == w));
}
template <class A, class B> bool same_values(const A& a, const B& b) {
    return bool(a == b);
}
template <class T> void require_close(const xt::xarray<T>& got, const xt::xarray<T>& want) {
    REQUIRE(got.shape() == want.shape());
    for (std::size_t i = 0; i < got.size(); ++i)
        REQUIRE(std::abs(got.data()[i] - want.data()[i]) <= 1e-4 * (1 + std::abs(want.data()[i])));
}
std::int64_t wrap_index(std::int64_t k, std::int64_t n) {
    return k < 0 ? k + n : k;
}

} // namespace

TEST_CASE("take reads an index expression in its kernel, flat and along every axis",
          "[expression_arguments]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        const xt::xarray<float> ha = test::random_array<float>({4, 5}, 3);
        const auto a = device<float, S>(ha);
        const xt::xarray<std::int32_t> hi = {0, 2, -2, 1};
        const auto idx = device<std::int32_t, S>(hi);
        const xt::xarray<std::int32_t> hk = hi + 1; // the index expression's values
        const ca::cl_array<std::int32_t, S> k = idx + 1;

        // flat: a.flat[idx + 1]
        const ca::cl_array<float, S> flat = ca::take(a, idx + 1);
        require_same(flat, ca::cl_array<float, S>(ca::take(a, k)));
        for (std::size_t i = 0; i < hk.size(); ++i)
            REQUIRE(flat.get()(i) == ha.data()[wrap_index(hk(i), 20)]);
        // fused into an expression around it
        const ca::cl_array<float, S> fused = ca::take(a, idx + 1) * 2.0f + 1.0f;
        for (std::size_t i = 0; i < hk.size(); ++i)
            REQUIRE(fused.get()(i) == ha.data()[wrap_index(hk(i), 20)] * 2.0f + 1.0f);

        // along axis 0 (idx's axes are followed by a's last axis) and axis 1 (the last)
        for (std::ptrdiff_t axis : {0, 1, -1}) {
            INFO("axis " << axis);
            const std::size_t ax = axis == 0 ? 0 : 1;
            const ca::cl_array<float, S> got = ca::take(a, idx + 1, axis);
            require_same(got, ca::cl_array<float, S>(ca::take(a, k, axis)));
            const std::int64_t n = static_cast<std::int64_t>(ha.shape()[ax]);
            const xt::xarray<float> h = got.get();
            for (std::size_t i = 0; i < 4; ++i)
                for (std::size_t j = 0; j < hk.size(); ++j) {
                    const std::size_t kk = static_cast<std::size_t>(wrap_index(hk(j), n));
                    if (ax == 0 && i < 4)
                        for (std::size_t c = 0; c < 5; ++c)
                            REQUIRE(h(j, c) == ha(kk, c));
                    if (ax == 1) REQUIRE(h(i, j) == ha(i, kk));
                }
        }

        // a 2-d index expression broadcasting two arrays, along axis 0: result (2, 3, 5)
        xt::xarray<std::int64_t> hcol = xt::xarray<std::int64_t>::from_shape({2, 1});
        hcol(0, 0) = 0;
        hcol(1, 0) = 2;
        const xt::xarray<std::int64_t> hrow = {0, 1, -3};
        const auto col = device<std::int64_t, S>(hcol);
        const auto row = device<std::int64_t, S>(hrow);
        const ca::cl_array<float, S> g2 = ca::take(a, col + row, 0, ca::index_mode::wrap);
        REQUIRE(g2.shape() == ca::shape_type{2, 3, 5});
        const xt::xarray<float> h2 = g2.get();
        for (std::size_t i = 0; i < 2; ++i)
            for (std::size_t j = 0; j < 3; ++j) {
                const std::int64_t kk = ((hcol(i, 0) + hrow(j)) % 4 + 4) % 4;
                for (std::size_t c = 0; c < 5; ++c)
                    REQUIRE(h2(i, j, c) == ha(static_cast<std::size_t>(kk), c));
            }

        // a take inside the index expression, along axis 0 (its terminals restrided too)
        const auto perm = device<std::int32_t, S>(xt::xarray<std::int32_t>{3, 0});
        const ca::cl_array<float, S> nested = ca::take(a, ca::take(idx, perm) + 1, 0);
        require_same(nested, ca::cl_array<float, S>(ca::take(a, ca::take(k, perm), 0)));
        for (std::size_t c = 0; c < 5; ++c)
            REQUIRE(nested.get()(1, c) == ha(static_cast<std::size_t>(hk(0)), c));

        // the gathered operand an expression (evaluated first)
        const ca::cl_array<float, S> ge = ca::take(a * 3.0f, idx, 1);
        require_same(ge, ca::cl_array<float, S>(ca::take(ca::eval(a * 3.0f), idx, 1)));
        REQUIRE(ge.get()(1, 2) == ha(1, 3) * 3.0f);

        // raise mode still checks an index expression
        auto bad = [&] { return ca::cl_array<float, S>(ca::take(a, idx + 30)).get(); };
        CHECK_THROWS_AS(bad(), ca::index_error);
    });
}

TEST_CASE("put and add_at take index and value expressions", "[expression_arguments]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        const xt::xarray<float> ha = test::random_array<float>({6}, 4);
        const xt::xarray<std::int32_t> hi = {-1, 0, 3};
        const xt::xarray<float> hv = {1.5f, 2.5f, 3.5f};
        const auto idx = device<std::int32_t, S>(hi);
        const auto v = device<float, S>(hv);

        auto a = device<float, S>(ha);
        auto b = device<float, S>(ha);
        ca::put(a, idx + 1, v * 2.0f);
        ca::put(b, ca::eval(idx + 1), ca::eval(v * 2.0f));
        xt::xarray<float> want = ha;
        for (std::size_t i = 0; i < 3; ++i)
            want(static_cast<std::size_t>(wrap_index(hi(i) + 1, 6))) = hv(i) * 2.0f;
        require_same(a, b);
        REQUIRE(same_values(a.get(), want));

        ca::put(a, idx + 2, 9.0f); // a scalar value at an index expression
        for (std::size_t i = 0; i < 3; ++i)
            want(static_cast<std::size_t>(wrap_index(hi(i) + 2, 6))) = 9.0f;
        REQUIRE(same_values(a.get(), want));

        auto c = device<float, S>(ha);
        ca::add_at(c, idx * 0 + 2, v + 1.0f); // every value at index 2
        ca::add_at(c, idx + 1, 1.0f);
        xt::xarray<float> want_c = ha;
        for (std::size_t i = 0; i < 3; ++i) {
            want_c(2) += hv(i) + 1.0f;
            want_c(static_cast<std::size_t>(wrap_index(hi(i) + 1, 6))) += 1.0f;
        }
        require_close<float>(c.get(), want_c);
    });
}

TEST_CASE("compress, extract, nonzero and count_nonzero read condition expressions",
          "[expression_arguments]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        const xt::xarray<float> hx = test::random_array<float>({37}, 5);
        const auto x = device<float, S>(hx);
        std::vector<float> want, want2;
        for (float v : hx)
            if (v > 0) {
                want.push_back(v);
                want2.push_back(v * 2);
            }
        const auto got = ca::compress(x > 0.0f, x);
        REQUIRE(host_vector(got) == want);
        require_same(got, ca::compress(ca::eval(x > 0.0f), x));
        REQUIRE(host_vector(ca::compress(x > 0.0f, x * 2.0f)) == want2);
        REQUIRE(ca::count_nonzero(x > 0.0f) == static_cast<std::int64_t>(want.size()));

        const xt::xarray<float> hm = test::random_array<float>({3, 5}, 6);
        const auto m = device<float, S>(hm);
        std::vector<float> want_e;
        std::vector<std::int64_t> rows, cols;
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 5; ++j)
                if (hm(i, j) < 1.0f) {
                    want_e.push_back(hm(i, j) + 1);
                    rows.push_back(static_cast<std::int64_t>(i));
                    cols.push_back(static_cast<std::int64_t>(j));
                }
        REQUIRE(host_vector(ca::extract(m < 1.0f, m + 1.0f)) == want_e);
        const auto nz = ca::nonzero(m < 1.0f);
        static_assert(std::is_same_v<std::decay_t<decltype(nz[0])>, ca::cl_array<std::int64_t, S>>);
        REQUIRE(nz.size() == 2);
        REQUIRE(host_vector(nz[0]) == rows);
        REQUIRE(host_vector(nz[1]) == cols);
        const auto nz_eval = ca::nonzero(ca::eval(m < 1.0f));
        require_same(nz[1], nz_eval[1]);
    });
}

TEST_CASE("manipulation functions take expressions", "[expression_arguments]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        const xt::xarray<float> hx = test::random_array<float>({3, 4}, 7);
        const xt::xarray<float> hy = test::random_array<float>({3, 4}, 8);
        const auto x = device<float, S>(hx);
        const auto y = device<float, S>(hy);
        const auto e = x * 2.0f;     // the expression
        const auto ev = ca::eval(e); // and its value
        const xt::xarray<float> he = hx * 2.0f;

        require_same(ca::flip(e, 1), ca::flip(ev, 1));
        REQUIRE(same_values(ca::flip(e, 1).get(), xt::flip(he, 1)));
        require_same(ca::flip(e), ca::flip(ev));
        require_same(ca::flipud(e), ca::flipud(ev));
        require_same(ca::fliplr(e), ca::fliplr(ev));
        require_same(ca::transpose(e), ca::transpose(ev));
        REQUIRE(same_values(ca::transpose(e).get(), xt::transpose(he)));
        require_same(ca::transpose(e, {1, 0}), ca::transpose(ev, {1, 0}));
        require_same(ca::swapaxes(e, 0, 1), ca::swapaxes(ev, 0, 1));
        require_same(ca::moveaxis(e, 0, 1), ca::moveaxis(ev, 0, 1));
        require_same(ca::expand_dims(e, 1), ca::expand_dims(ev, 1));
        require_same(ca::atleast_3d(e), ca::atleast_3d(ev));
        require_same(ca::roll(e, 1, 1), ca::roll(ev, 1, 1));
        REQUIRE(same_values(ca::roll(e, 1, 1).get(), xt::roll(he, 1, 1)));
        require_same(ca::roll(e, 5), ca::roll(ev, 5));
        require_same(ca::roll(e, {1, 2}, {0, 1}), ca::roll(ev, {1, 2}, {0, 1}));
        require_same(ca::repeat(e, 2, 0), ca::repeat(ev, 2, 0));
        REQUIRE(same_values(ca::repeat(e, 2, 0).get(), xt::repeat(he, 2, 0)));
        require_same(ca::repeat(e, {1, 0, 2}, 0), ca::repeat(ev, {1, 0, 2}, 0));
        require_same(ca::tile(e, {2, 1}), ca::tile(ev, {2, 1}));
        require_same(ca::pad(e, 1, 5.0f), ca::pad(ev, 1, 5.0f));
        REQUIRE(
            same_values(ca::pad(e, 1, 5.0f).get(), xt::pad(he, 1, xt::pad_mode::constant, 5.0f)));
        require_same(ca::pad(e, {{1, 0}, {0, 2}}), ca::pad(ev, {{1, 0}, {0, 2}}));
        require_same(ca::diagonal(e, 1), ca::diagonal(ev, 1));
        require_same(ca::diag(e), ca::diag(ev));
        require_same(ca::cl_array<float, S>(ca::diff(e, 1, 0)),
                     ca::cl_array<float, S>(ca::diff(ev, 1, 0)));
        REQUIRE(same_values(ca::cl_array<float, S>(ca::diff(e)).get(), xt::diff(he, 1, 1)));
        const auto parts = ca::split(e, {1}, 1);
        const auto want_parts = ca::split(ev, {1}, 1);
        REQUIRE(parts.size() == 2);
        require_same(parts[1], want_parts[1]);
        require_same(ca::array_split(e, 3, 1)[2], ca::array_split(ev, 3, 1)[2]);

        // *_like: the expression's shape, type and storage, not evaluated
        const auto z = ca::zeros_like(x > 0.0f);
        static_assert(std::is_same_v<std::decay_t<decltype(z)>, ca::cl_array<bool, S>>);
        REQUIRE(z.shape() == x.shape());
        REQUIRE(host_vector(z) == std::vector<bool>(12, false));
        const auto f = ca::full_like(e, 3.5f);
        REQUIRE(host_vector(f) == std::vector<float>(12, 3.5f));
        REQUIRE(host_vector(ca::ones_like(e)) == std::vector<float>(12, 1.0f));
        REQUIRE(ca::empty_like(e).shape() == ca::shape_type{3, 4});

        // concatenate and stack of tuples: each expression is written into its place
        const auto cat = ca::concatenate(std::make_tuple(e, y, x + y), 1);
        REQUIRE(same_values(cat.get(), xt::concatenate(xt::xtuple(he, hy, hx + hy), 1)));
        const auto st = ca::stack(std::make_tuple(e, y), 1);
        REQUIRE(same_values(st.get(), xt::stack(xt::xtuple(he, hy), 1)));
        require_same(st, ca::stack(std::make_tuple(ev, y), 1));
        // mixed types promote: int32 expression with float
        const auto cat2 =
            ca::concatenate(std::make_tuple(x.template astype<std::int32_t>() + 1, y));
        static_assert(std::is_same_v<typename std::decay_t<decltype(cat2)>::value_type, double>);
        REQUIRE(cat2.shape() == ca::shape_type{6, 4});
    });
}

TEST_CASE("linalg products and reductions take expressions", "[expression_arguments]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        const xt::xarray<float> ha = test::random_array<float>({3, 4}, 9);
        const xt::xarray<float> hb = test::random_array<float>({4, 2}, 10);
        const auto a = device<float, S>(ha);
        const auto b = device<float, S>(hb);
        xt::xarray<float> want = xt::zeros<float>({3, 2});
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 2; ++j)
                for (std::size_t k = 0; k < 4; ++k)
                    want(i, j) += 2 * ha(i, k) * (hb(k, j) + 1);
        const auto m = ca::matmul(a * 2.0f, b + 1.0f);
        require_close<float>(m.get(), want);
        require_same(m, ca::matmul(ca::eval(a * 2.0f), ca::eval(b + 1.0f)));
        require_same(ca::matmul(a, b + 1.0f), ca::matmul(a, ca::eval(b + 1.0f)));
        require_same(ca::linalg::dot(a * 2.0f, b), ca::linalg::dot(ca::eval(a * 2.0f), b));
        require_same(ca::inner(a * 2.0f, a), ca::inner(ca::eval(a * 2.0f), a));
        require_same(ca::outer(a * 2.0f, b), ca::outer(ca::eval(a * 2.0f), b));
        require_same(ca::tensordot(a * 2.0f, b, 1), ca::tensordot(ca::eval(a * 2.0f), b, 1));
        require_same(ca::tensordot(a * 2.0f, b, {1}, {0}),
                     ca::tensordot(ca::eval(a * 2.0f), b, {1}, {0}));
        require_same(ca::linalg::vdot(a * 2.0f, a), ca::linalg::vdot(ca::eval(a * 2.0f), a));

        // the reductions: dot of 2-d expressions, vdot of expressions
        require_close<float>(ca::dot(a * 2.0f, b + 1.0f).get(), want);
        float v = 0;
        for (std::size_t i = 0; i < ha.size(); ++i)
            v += ha.data()[i] * 2 * ha.data()[i];
        require_close<float>(xt::xarray<float>(ca::vdot(a * 2.0f, a).get()), xt::xarray<float>(v));
        require_close<float>(
            xt::xarray<float>(ca::vdot(a * 2.0f, ca::transpose(a)).get()),
            xt::xarray<float>(ca::vdot(ca::eval(a * 2.0f), ca::transpose(a)).get()));
        const xt::xarray<float> cs = ca::cumsum(a * 2.0f, 1).get();
        require_close<float>(cs, xt::xarray<float>(xt::cumsum(xt::xarray<float>(ha * 2.0f), 1)));
    });
}

TEST_CASE("fft transforms take expressions", "[expression_arguments]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        const std::size_t n = 16;
        const xt::xarray<float> hx = test::random_array<float>({n}, 11);
        const xt::xarray<float> hw = test::random_array<float>({n}, 12);
        const auto x = device<float, S>(hx);
        const auto w = device<float, S>(hw);
        const auto r = ca::fft::rfft(x * w);
        require_same(r, ca::fft::rfft(ca::eval(x * w)));
        const xt::xarray<std::complex<float>> hr = r.get();
        REQUIRE(hr.size() == n / 2 + 1);
        for (std::size_t k = 0; k <= n / 2; ++k) { // a host DFT of x * w
            std::complex<double> s = 0;
            for (std::size_t t = 0; t < n; ++t)
                s += static_cast<double>(hx(t) * hw(t)) *
                     std::polar(1.0, -2 * M_PI * static_cast<double>(k * t) / n);
            REQUIRE(std::abs(std::complex<double>(hr(k)) - s) < 1e-3 * (1 + std::abs(s)));
        }
        require_same(ca::fft::fft(x * w), ca::fft::fft(ca::eval(x * w)));
        require_same(ca::fft::ifft(x * w, 8), ca::fft::ifft(ca::eval(x * w), 8));
        require_same(ca::fft::irfft(r * 2.0f), ca::fft::irfft(ca::eval(r * 2.0f)));
        const auto x2 = x.reshape({4, 4});
        require_same(ca::fft::fft2(x2 + 1.0f), ca::fft::fft2(ca::eval(x2 + 1.0f)));
        require_same(ca::fft::ifft2(x2 + 1.0f), ca::fft::ifft2(ca::eval(x2 + 1.0f)));
        require_same(ca::fft::fftn(x2 + 1.0f, {}, {0}),
                     ca::fft::fftn(ca::eval(x2 + 1.0f), {}, {0}));
        require_same(ca::fft::ifftn(x2 + 1.0f), ca::fft::ifftn(ca::eval(x2 + 1.0f)));
    });
}
