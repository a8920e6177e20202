// Indexing by integer arrays and masks (indexing/indexing.hpp): differential against host loops
// over dtypes, storage policies, index types, layouts (contiguous, strided, offset, transposed)
// and sizes.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace {

using test::q;

using test::each_policy;
using test::host_vector;

template <class T, class S> ca::cl_array<T, S> device(const xt::xarray<T>& h) {
    ca::cl_array<T, S> a(q(), ca::shape_type(h.shape().begin(), h.shape().end()));
    if (a.size()) a.set(h);
    return a;
}

template <class I>
xt::xarray<I> random_indices(std::size_t count, std::int64_t n, bool negative, bool out_of_range,
                             unsigned seed) {
    std::mt19937_64 rng(seed);
    xt::xarray<I> h = xt::xarray<I>::from_shape({count});
    for (auto& v : h) {
        std::int64_t k = n ? static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)) : 0;
        if (negative && (rng() & 1)) k -= n;
        if (out_of_range) k += (rng() & 1) ? 3 * n + 1 : -3 * n - 1;
        v = static_cast<I>(k);
    }
    return h;
}

std::int64_t host_index(std::int64_t k, std::int64_t n, ca::index_mode m) {
    if (m == ca::index_mode::wrap) return ((k % n) + n) % n;
    if (m == ca::index_mode::raise && k < 0) k += n;
    return std::clamp<std::int64_t>(k, 0, n - 1);
}

// The gathered array in three layouts over the same values `h` (n elements): contiguous, a
// strided offset view, and a reversed view.
template <class T, class S> ca::cl_array<T, S> layout_of(const xt::xarray<T>& h, int layout) {
    const std::size_t n = h.size();
    if (layout == 0 || n == 0) return device<T, S>(h);
    xt::xarray<T> big = xt::xarray<T>::from_shape({2 * n + 3});
    std::fill(big.begin(), big.end(), T(1));
    auto d = device<T, S>(big);
    if (layout == 1) {
        auto v = d(ca::range(3, static_cast<std::ptrdiff_t>(2 * n + 3), 2));
        if (n) v.set(h);
        return v;
    }
    auto v = d(ca::range(static_cast<std::ptrdiff_t>(n) - 1, ca::none, -1));
    if (n) v.set(h);
    return v;
}

template <class T, class S, class I> void flat_take_case(std::size_t n, std::size_t count) {
    const xt::xarray<T> hb = test::random_array<T>({n}, 3);
    for (int lay : {0, 1, 2})
        for (ca::index_mode mode :
             {ca::index_mode::raise, ca::index_mode::wrap, ca::index_mode::clip}) {
            INFO("n " << n << ", count " << count << ", layout " << lay << ", mode "
                      << static_cast<int>(mode));
            auto b = layout_of<T, S>(hb, lay);
            const bool wild = mode != ca::index_mode::raise;
            const auto hi = random_indices<I>(n ? count : 0, static_cast<std::int64_t>(n), true,
                                              wild && count % 2, 7);
            auto idx = device<I, S>(hi);
            ca::cl_array<T, S> r = ca::take(b, idx, std::nullopt, mode);
            REQUIRE(r.shape() == idx.shape());
            const auto got = host_vector(r);
            for (std::size_t i = 0; i < got.size(); ++i)
                REQUIRE(got[i] == hb(host_index(hi(i), static_cast<std::int64_t>(n), mode)));
        }
}

} // namespace

using take_types =
    std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<std::int32_t, ca::buffer>,
               test::cfg<double, ca::svm_fine>, test::cfg<bool, ca::buffer>,
               test::cfg<std::uint8_t, ca::svm_fine>, test::cfg<std::int64_t, ca::svm_coarse>>;

TEMPLATE_LIST_TEST_CASE("take gathers like a host loop: sizes, layouts, modes", "[indexing]",
                        take_types) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(1031)})
        for (std::size_t count : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(997)})
            flat_take_case<T, S, std::int32_t>(n, count);
    flat_take_case<T, S, std::int64_t>(13, 101);
}

TEST_CASE("take of 2^20 + 3 elements, int64 indices, every policy", "[indexing]") {
    const std::size_t n = (1u << 20) + 3;
    auto run = [&](auto policy) {
        using S = decltype(policy);
        if (!test::storage_available<S>()) return;
        flat_take_case<float, S, std::int64_t>(n, n);
    };
    run(ca::svm_coarse{});
    run(ca::svm_fine{});
    run(ca::buffer{});
}

TEST_CASE("take along an axis: 3-d arrays, 2-d indices, transposed and offset views",
          "[indexing]") {
    each_policy([&](auto policy) {
        using S = decltype(policy);
        const xt::xarray<float> h = test::random_array<float>({4, 5, 6}, 5);
        auto base = device<float, S>(h);
        const xt::xarray<std::int32_t> hi = {{0, -1, 2}, {3, 3, -4}};
        auto idx2 = device<std::int32_t, ca::buffer>(xt::xarray<std::int32_t>(xt::transpose(hi)));
        auto idx = ca::transpose(idx2); // a transposed index view
        for (int view : {0, 1})
            for (std::ptrdiff_t axis : {0, 1, 2, -1}) {
                INFO("view " << view << ", axis " << axis);
                // view 1: a transposed, offset view of a bigger array
                const xt::xarray<float> big = test::random_array<float>({7, 6, 5}, 9);
                auto d = device<float, S>(big);
                auto tv = d(ca::range(1, 7), ca::all(), ca::range(0, 4)).transpose({2, 1, 0});
                const auto& a = view == 0 ? base : tv;
                const xt::xarray<float> ha = a.get();
                if (axis == 0) { // a flat take of it (gathers from a C-order copy)
                    auto flat_idx =
                        device<std::int64_t, ca::buffer>(xt::xarray<std::int64_t>{0, -1, 17, 5, 5});
                    const auto got = host_vector(ca::cl_array<float, S>(ca::take(a, flat_idx)));
                    const std::int64_t size = static_cast<std::int64_t>(a.size());
                    for (std::size_t i = 0; i < 5; ++i) {
                        const std::int64_t k = flat_idx.get()(i);
                        REQUIRE(got[i] == ha.data()[k < 0 ? k + size : k]);
                    }
                }
                const std::size_t ax = axis < 0 ? 2 : static_cast<std::size_t>(axis);
                const std::int64_t len = static_cast<std::int64_t>(a.shape()[ax]);
                ca::cl_array<float, S> r = ca::take(a, idx, axis);
                ca::shape_type expect_shape;
                for (std::size_t d = 0; d < ax; ++d)
                    expect_shape.push_back(a.shape()[d]);
                expect_shape.push_back(2);
                expect_shape.push_back(3);
                for (std::size_t d = ax + 1; d < 3; ++d)
                    expect_shape.push_back(a.shape()[d]);
                REQUIRE(r.shape() == expect_shape);
                xt::xarray<float> hr = r.get();
                for (std::size_t p = 0; p < hr.size(); ++p) {
                    // unravel p over the result, then read the host array at the gathered position
                    std::vector<std::size_t> c(expect_shape.size());
                    std::size_t rem = p;
                    for (std::size_t d = expect_shape.size(); d-- > 0;) {
                        c[d] = rem % expect_shape[d];
                        rem /= expect_shape[d];
                    }
                    std::int64_t k = hi(c[ax], c[ax + 1]);
                    if (k < 0) k += len;
                    std::vector<std::size_t> src;
                    for (std::size_t d = 0; d < ax; ++d)
                        src.push_back(c[d]);
                    src.push_back(static_cast<std::size_t>(k));
                    for (std::size_t d = ax + 2; d < c.size(); ++d)
                        src.push_back(c[d]);
                    REQUIRE(hr.data()[p] == ha.element(src.begin(), src.end()));
                }
            }
    });
}

TEST_CASE("take checks indices and axes with typed errors", "[indexing][errors]") {
    auto a = device<float, ca::buffer>(test::random_array<float>({10}, 1));
    auto ok = device<std::int64_t, ca::buffer>(xt::xarray<std::int64_t>{0, 9, -10});
    CHECK_NOTHROW(ca::cl_array<float, ca::buffer>(ca::take(a, ok)));
    for (std::int64_t bad : {10, -11, 1000}) {
        auto idx = device<std::int64_t, ca::buffer>(xt::xarray<std::int64_t>{1, bad, 2});
        // Checked on the device: the call returns, the next host wait throws
        // (test_index_checks.cpp has the details).
        ca::cl_array<float, ca::buffer> r = ca::take(a, idx);
        CHECK_THROWS_AS(r.get(), ca::index_error);
        r = ca::take(a, idx);
        CHECK_THROWS_WITH(r.get(), catch_compat::Contains("size 10"));
        CHECK_NOTHROW(
            ca::cl_array<float, ca::buffer>(ca::take(a, idx, 0, ca::index_mode::wrap)).get());
        auto idx32 = device<std::int32_t, ca::buffer>(
            xt::xarray<std::int32_t>{static_cast<std::int32_t>(bad)});
        ca::put(a, idx32, 1.0f);
        CHECK_THROWS_AS(a.get(), ca::index_error);
        ca::add_at(a, idx32, 1.0f);
        CHECK_THROWS_AS(a.get(), ca::index_error);
    }
    CHECK_THROWS_AS(ca::take(a, ok, 1), ca::index_error); // axis errors stay immediate
    CHECK_THROWS_AS(ca::take(a, ok, -2), ca::index_error);
    auto empty = ca::cl_array<float, ca::buffer>(q(), {0});
    CHECK_THROWS_AS(ca::take(empty, ok, 0, ca::index_mode::clip), ca::index_error);
    // An empty axis needs no device data: raise mode throws at the call too.
    CHECK_THROWS_AS(ca::take(empty, ok), ca::index_error);
    CHECK_THROWS_AS(ca::put(empty, ok, 1.0f), ca::index_error);
    CHECK_THROWS_AS(ca::add_at(empty, ok, 1.0f), ca::index_error);
    auto values = device<float, ca::buffer>(xt::xarray<float>{1, 2});
    auto idx3 = device<std::int64_t, ca::buffer>(xt::xarray<std::int64_t>{1, 2, 3});
    CHECK_THROWS_AS(ca::add_at(a, idx3, values), ca::shape_error); // (2,) vs (3,)
    auto mask = device<bool, ca::buffer>(xt::xarray<bool>{true, false});
    CHECK_THROWS_AS(ca::extract(mask, a), ca::shape_error);
    auto a2 = ca::cl_array<float, ca::buffer>(q(), {2, 5});
    CHECK_THROWS_AS(ca::compress(ca::cl_array<bool, ca::buffer>(q(), {2, 1}), a2), ca::shape_error);
    CHECK_THROWS_AS(ca::compress(ca::cl_array<bool, ca::buffer>(q(), {11}), a), ca::index_error);
}

TEST_CASE("a fused gather (a times take(b, idx) plus 1) is one kernel, and reductions read gathers",
          "[indexing]") {
    auto run = [](auto pa, auto pb, auto pi) {
        using SA = decltype(pa);
        using SB = decltype(pb);
        using SI = decltype(pi);
        const std::size_t n = 1000;
        auto ha = test::random_array<float>({n}, 1);
        auto hb = test::random_array<float>({50}, 2);
        auto hi = random_indices<std::int32_t>(n, 50, true, false, 3);
        auto a = device<float, SA>(ha);
        auto b = device<float, SB>(hb);
        auto idx = device<std::int32_t, SI>(hi);
        auto e = a * ca::take(b, idx) + 1; // the indices are checked by the kernel
        ca::cl_array<float, SA> c(q(), {n});
        const std::uint64_t before = ca::kernel_launch_count();
        c = e;
        CHECK(ca::kernel_launch_count() - before == 1);
        const auto got = host_vector(c);
        for (std::size_t i = 0; i < n; ++i) {
            const float expect = ha(i) * hb(host_index(hi(i), 50, ca::index_mode::raise)) + 1;
            REQUIRE(got[i] == expect);
        }
        // A gather inside a reduction.
        const double s =
            ca::sum(ca::astype<double>(ca::take(b, idx, 0, ca::index_mode::wrap))).item();
        double hs = 0;
        for (std::size_t i = 0; i < n; ++i)
            hs += hb(host_index(hi(i), 50, ca::index_mode::wrap));
        CHECK(s == Approx(hs).epsilon(1e-9));
        // Writing a gather of b into b itself goes through a temporary (as if b were read first).
        auto hrev = device<std::int64_t, SI>(
            xt::xarray<std::int64_t>(xt::arange<std::int64_t>(49, -1, -1)));
        auto bb = b.copy();
        bb = ca::take(bb, hrev);
        const auto rev = host_vector(bb);
        for (std::size_t i = 0; i < 50; ++i)
            REQUIRE(rev[i] == hb(49 - i));
    };
    if (test::storage_available<ca::svm_coarse>() && test::storage_available<ca::svm_fine>())
        run(ca::svm_coarse{}, ca::buffer{}, ca::svm_fine{});
    run(ca::buffer{}, ca::buffer{}, ca::buffer{});
}

TEST_CASE("the index mode selects the gather's kernel: one per mode, reused, in expressions and "
          "reductions",
          "[indexing]") {
    using M = ca::index_mode;
    const std::size_t n = 500;
    const std::int64_t len = 37;
    auto hb = test::random_array<float>({static_cast<std::size_t>(len)}, 5);
    auto b = device<float, ca::buffer>(hb);
    // Out of range both ways (wrap and clip differ there) and in [-len, len) (raise).
    auto hout = random_indices<std::int64_t>(n, len, true, true, 6);
    auto hin = random_indices<std::int64_t>(n, len, true, false, 7);
    auto out_idx = device<std::int64_t, ca::buffer>(hout);
    auto in_idx = device<std::int64_t, ca::buffer>(hin);
    auto expect = [&](M m1, const xt::xarray<std::int64_t>& i1, M m2,
                      const xt::xarray<std::int64_t>& i2) {
        std::vector<float> e(n);
        for (std::size_t i = 0; i < n; ++i)
            e[i] = hb(host_index(i1(i), len, m1)) - 2 * hb(host_index(i2(i), len, m2));
        return e;
    };
    // One expression type, its two modes given at run time: every pairing gives its own values
    // (a kernel shared across modes would give one pairing's values for all).
    auto two = [&](M m1, const ca::cl_array<std::int64_t, ca::buffer>& i1, M m2,
                   const ca::cl_array<std::int64_t, ca::buffer>& i2) {
        return ca::cl_array<float, ca::buffer>(ca::take(b, i1, 0, m1) - 2 * ca::take(b, i2, 0, m2));
    };
    const std::pair<M, M> pairs[] = {
        {M::wrap, M::clip}, {M::clip, M::wrap}, {M::raise, M::wrap}, {M::clip, M::raise}};
    for (int round = 0; round < 2; ++round) {
        const std::size_t cached = ca::detail::cached_kernel_count(test::ctx());
        for (auto [m1, m2] : pairs) {
            INFO("modes " << int(m1) << ", " << int(m2) << ", round " << round);
            const auto& i1 = m1 == M::raise ? in_idx : out_idx;
            const auto& i2 = m2 == M::raise ? in_idx : out_idx;
            const auto got = host_vector(two(m1, i1, m2, i2));
            const auto want =
                expect(m1, m1 == M::raise ? hin : hout, m2, m2 == M::raise ? hin : hout);
            for (std::size_t i = 0; i < n; ++i)
                REQUIRE(got[i] == want[i]);
        }
        // The second round builds nothing: each pairing's kernel is in the cache.
        if (round == 1) CHECK(ca::detail::cached_kernel_count(test::ctx()) == cached);
    }
    // A reduction of a gather: its kernel is keyed by the mode too.
    for (M m : {M::wrap, M::clip, M::wrap}) {
        const double got = ca::sum(ca::astype<double>(ca::take(b, out_idx, 0, m))).item();
        double want = 0;
        for (std::size_t i = 0; i < n; ++i)
            want += hb(host_index(hout(i), len, m));
        CHECK(got == Approx(want).epsilon(1e-9));
    }
}

TEST_CASE("kernel variants pack into the cache key, and past 32 bits throw usage_error",
          "[indexing][errors]") {
    ca::detail::kernel_variants a, b;
    for (std::uint32_t k = 0; k < 16; ++k) {
        a.add(k % 3, 2);
        b.add(k == 15 ? 1 : k % 3, 2);
    }
    CHECK(a.size() == 16);
    CHECK(a[15] == 0);
    CHECK(a.key() != b.key()); // the last value alone differs
    CHECK_THROWS_AS(a.add(1, 2), ca::usage_error);
}

namespace {
template <class T, class S, class I> void put_case(std::size_t n, std::size_t count, int lay) {
    INFO("n " << n << ", count " << count << ", layout " << lay);
    const xt::xarray<T> ha = test::random_array<T>({n}, 11);
    auto a = layout_of<T, S>(ha, lay);
    const auto hi = random_indices<I>(count, static_cast<std::int64_t>(n), true, false, 5);
    // values shorter than the indices repeat (NumPy's put)
    const std::size_t nv = count > 3 ? count / 3 : 1;
    const xt::xarray<T> hv = test::random_array<T>({nv}, 6);
    ca::put(a, device<I, S>(hi), device<T, S>(hv));
    // Host: every target keeps its old value unless some index wrote it; with duplicates, one
    // of the values written there.
    std::vector<std::vector<T>> written(n);
    for (std::size_t i = 0; i < count; ++i)
        written[static_cast<std::size_t>(
                    host_index(hi(i), static_cast<std::int64_t>(n), ca::index_mode::raise))]
            .push_back(hv(i % nv));
    const auto got = host_vector(a);
    for (std::size_t k = 0; k < n; ++k) {
        if (written[k].empty())
            REQUIRE(got[k] == ha(k));
        else
            REQUIRE(std::find(written[k].begin(), written[k].end(), got[k]) != written[k].end());
    }
}

template <class T, class S, class I> void add_at_case(std::size_t n, std::size_t count, int lay) {
    INFO("n " << n << ", count " << count << ", layout " << lay);
    // Float values are multiples of 1/8 in [-10, 10]: every partial sum (below 2^16 in
    // magnitude) is exact in float, so the atomics' order cannot change the result and it is
    // compared exactly (a lost or doubled value shows).
    auto eighths = [](xt::xarray<T> v) {
        if constexpr (std::is_floating_point_v<T>)
            for (auto& x : v)
                x = static_cast<T>(std::round(static_cast<double>(x) * 8) / 8);
        return v;
    };
    const xt::xarray<T> ha = eighths(test::random_array<T>({n}, 12));
    auto a = layout_of<T, S>(ha, lay);
    const auto hi = random_indices<I>(count, static_cast<std::int64_t>(n), true, false, 8);
    const xt::xarray<T> hv = eighths(test::random_array<T>({count}, 9));
    ca::add_at(a, device<I, S>(hi), device<T, S>(hv));
    std::vector<T> exact(ha.begin(), ha.end());
    for (std::size_t i = 0; i < count; ++i) {
        const auto k = static_cast<std::size_t>(
            host_index(hi(i), static_cast<std::int64_t>(n), ca::index_mode::raise));
        exact[k] = static_cast<T>(exact[k] + hv(i));
    }
    const auto got = host_vector(a);
    for (std::size_t k = 0; k < n; ++k)
        REQUIRE(got[k] == exact[k]);
}
} // namespace

using scatter_types =
    std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<std::int32_t, ca::buffer>,
               test::cfg<double, ca::svm_fine>, test::cfg<std::int64_t, ca::buffer>,
               test::cfg<std::uint32_t, ca::svm_fine>, test::cfg<std::uint64_t, ca::svm_coarse>>;

TEMPLATE_LIST_TEST_CASE("put and add_at scatter like host loops, duplicates included", "[indexing]",
                        scatter_types) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    for (int lay : {0, 1, 2})
        for (std::size_t n : {std::size_t(1), std::size_t(17), std::size_t(1031)})
            for (std::size_t count : {std::size_t(0), std::size_t(1), std::size_t(5000)}) {
                put_case<T, S, std::int32_t>(n, count, lay);
                add_at_case<T, S, std::int64_t>(n, count, lay);
            }
    add_at_case<T, S, std::int32_t>((1u << 20) + 3, (1u << 20) + 3, 0);
}

TEST_CASE("put of bool and int8, modes wrap and clip, scalar values", "[indexing]") {
    auto a = ca::zeros<bool, ca::buffer>(q(), {10});
    auto idx = device<std::int32_t, ca::buffer>(xt::xarray<std::int32_t>{3, -1, 12});
    ca::put(a, idx, true, ca::index_mode::wrap);
    xt::xarray<bool> ha = a.get();
    for (std::size_t k = 0; k < 10; ++k)
        CHECK(ha(k) == (k == 3 || k == 9 || k == 2));
    auto b = ca::zeros<std::int8_t, ca::buffer>(q(), {10});
    ca::put(b, idx, std::int8_t(5), ca::index_mode::clip);
    xt::xarray<std::int8_t> hb = b.get();
    for (std::size_t k = 0; k < 10; ++k)
        CHECK(hb(k) == ((k == 3 || k == 0 || k == 9) ? 5 : 0));
}

TEST_CASE("add_at along the first axis of a 2-d view (np.add.at(a, idx, rows))", "[indexing]") {
    each_policy([&](auto policy) {
        using S = decltype(policy);
        auto big = ca::zeros<double, S>(q(), {6, 8});
        auto a = big(ca::range(1, 5), ca::range(1, 8, 3)); // (4, 3), strided and offset
        const auto hi = random_indices<std::int64_t>(300, 4, true, false, 4);
        const xt::xarray<double> hv = test::random_array<double>({300, 3}, 2);
        ca::add_at(a, device<std::int64_t, ca::buffer>(hi), device<double, S>(hv));
        xt::xarray<double> expect = xt::zeros<double>({4, 3});
        for (std::size_t i = 0; i < 300; ++i)
            for (std::size_t c = 0; c < 3; ++c)
                expect(static_cast<std::size_t>(host_index(hi(i), 4, ca::index_mode::raise)), c) +=
                    hv(i, c);
        xt::xarray<double> got = a.get();
        for (std::size_t k = 0; k < expect.size(); ++k)
            REQUIRE(got.data()[k] == Approx(expect.data()[k]).margin(1e-9));
        // Elements outside the view stay zero.
        xt::xarray<double> hbig = big.get();
        CHECK(hbig(0, 0) == 0);
        CHECK(hbig(5, 7) == 0);
        CHECK(hbig(1, 2) == 0);
        // A scalar broadcast to every selected row.
        auto counts = ca::zeros<std::int32_t, ca::buffer>(q(), {4});
        ca::add_at(counts, device<std::int64_t, ca::buffer>(hi), 1);
        xt::xarray<std::int32_t> hc = counts.get();
        std::vector<std::int32_t> ec(4, 0);
        for (std::size_t i = 0; i < 300; ++i)
            ++ec[static_cast<std::size_t>(host_index(hi(i), 4, ca::index_mode::raise))];
        for (std::size_t k = 0; k < 4; ++k)
            CHECK(hc(k) == ec[k]);
    });
}

TEST_CASE("masked(x, x > 0) = x * 2 is putmask with expressions", "[indexing]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        const xt::xarray<float> h = test::random_array<float>({5, 7}, 41);
        auto big = device<float, S>(test::random_array<float>({7, 9}, 42));
        auto x = big(ca::range(1, 6), ca::range(0, 7)); // an offset view
        x.set(h);
        const std::uint64_t before = ca::kernel_launch_count();
        ca::masked(x, x > 0.0f) = x * 2.0f;
        CHECK(ca::kernel_launch_count() - before == 1);
        xt::xarray<float> got = x.get();
        for (std::size_t i = 0; i < h.size(); ++i)
            REQUIRE(got.data()[i] == (h.data()[i] > 0 ? h.data()[i] * 2.0f : h.data()[i]));
    });
}

namespace {
template <class T, class S> void mask_case(std::size_t n, int lay) {
    INFO("n " << n << ", layout " << lay);
    const xt::xarray<T> ha = test::random_array<T>({n}, 21);
    auto a = layout_of<T, S>(ha, lay);
    // int32 mask with a quarter nonzero: truthiness, not only bools
    xt::xarray<std::int32_t> hm = test::random_array<std::int32_t>({n}, 22);
    for (auto& v : hm)
        v = (v % 4 == 0) ? v + 1 : 0;
    auto mask = layout_of<std::int32_t, ca::buffer>(hm, 2 - lay);
    std::vector<T> expect;
    std::vector<std::int64_t> where;
    for (std::size_t i = 0; i < n; ++i)
        if (hm(i)) {
            expect.push_back(ha(i));
            where.push_back(static_cast<std::int64_t>(i));
        }
    auto r = ca::extract(mask, a);
    REQUIRE(r.shape() == ca::shape_type{expect.size()});
    CHECK(host_vector(r) == expect);
    CHECK(ca::count_nonzero(mask) == static_cast<std::int64_t>(expect.size()));
    auto nz = ca::nonzero(mask);
    REQUIRE(nz.size() == 1);
    CHECK(host_vector(nz[0]) == where);
    // compress with a shorter condition
    if (n > 2) {
        auto shorter = mask(ca::range(0, static_cast<std::ptrdiff_t>(n / 2)));
        auto rc = ca::compress(shorter, a);
        std::vector<T> ec;
        for (std::size_t i = 0; i < n / 2; ++i)
            if (hm(i)) ec.push_back(ha(i));
        CHECK(host_vector(rc) == ec);
    }
    // putmask with an array and with a scalar
    const xt::xarray<T> hv = test::random_array<T>({n}, 23);
    ca::putmask(a, mask, device<T, S>(hv));
    auto got = host_vector(a);
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(got[i] == (hm(i) ? hv(i) : ha(i)));
    ca::putmask(a, mask, T(1));
    got = host_vector(a);
    for (std::size_t i = 0; i < n; ++i)
        REQUIRE(got[i] == (hm(i) ? T(1) : ha(i)));
}
} // namespace

TEMPLATE_LIST_TEST_CASE("extract, compress, nonzero, count_nonzero and putmask", "[indexing]",
                        take_types) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    for (int lay : {0, 1, 2})
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(1031)})
            mask_case<T, S>(n, lay);
}

TEST_CASE("masks over 2^20 + 3 elements and nonzero of a transposed 3-d view", "[indexing]") {
    each_policy([](auto policy) { mask_case<float, decltype(policy)>((1u << 20) + 3, 1); });
    const xt::xarray<bool> h = test::random_array<bool>({3, 4, 5}, 4);
    auto d = device<bool, ca::buffer>(h);
    auto t = d.transpose({2, 0, 1}); // (5, 3, 4)
    xt::xarray<bool> ht = t.get();
    auto nz = ca::nonzero(t);
    REQUIRE(nz.size() == 3);
    std::vector<std::int64_t> e0, e1, e2;
    for (std::size_t i = 0; i < 5; ++i)
        for (std::size_t j = 0; j < 3; ++j)
            for (std::size_t k = 0; k < 4; ++k)
                if (ht(i, j, k)) {
                    e0.push_back(static_cast<std::int64_t>(i));
                    e1.push_back(static_cast<std::int64_t>(j));
                    e2.push_back(static_cast<std::int64_t>(k));
                }
    CHECK(host_vector(nz[0]) == e0);
    CHECK(host_vector(nz[1]) == e1);
    CHECK(host_vector(nz[2]) == e2);
    CHECK_THROWS_AS(ca::nonzero(d(0, 0, 0)), ca::shape_error);
}

// One k-means step (N points in 2-d, K centroids): distances by broadcasting, the nearest
// centroid by argmin along axis 1, the centroid update by add_at and counts, against the same
// step on the host.
TEST_CASE("a k-means step equals the host's", "[indexing]") {
    each_policy([&](auto policy) {
        using S = decltype(policy);
        const std::size_t N = 100000, K = 8;
        const xt::xarray<float> hp = test::random_array<float>({N, 2}, 31);
        xt::xarray<float> hc = xt::xarray<float>::from_shape({K, 2});
        for (std::size_t k = 0; k < K; ++k) {
            hc(k, 0) = hp(k * 97, 0);
            hc(k, 1) = hp(k * 97, 1);
        }
        auto p = device<float, S>(hp);
        auto c = device<float, S>(hc);
        auto px = p(ca::all(), 0), py = p(ca::all(), 1);
        auto cx = c(ca::all(), 0), cy = c(ca::all(), 1);
        auto dx = px(ca::all(), ca::newaxis()) - cx(ca::newaxis(), ca::all());
        auto dy = py(ca::all(), ca::newaxis()) - cy(ca::newaxis(), ca::all());
        ca::cl_array<float, S> dist = dx * dx + dy * dy; // (N, K)
        auto labels = ca::argmin(dist, 1);               // int64 (N,)
        auto sums = ca::zeros<float, S>(q(), {K, 2});
        auto counts = ca::zeros<std::int32_t, S>(q(), {K});
        ca::add_at(sums, labels, p);
        ca::add_at(counts, labels, 1);
        ca::cl_array<float, S> next = sums / ca::astype<float>(counts(ca::all(), ca::newaxis()));

        // Host step: the same float arithmetic for the distances, double sums.
        xt::xarray<std::int64_t> hl = labels.get();
        std::vector<double> hs(2 * K, 0.0);
        std::vector<std::int32_t> hn(K, 0);
        for (std::size_t i = 0; i < N; ++i) {
            std::size_t best = 0;
            float bd = 0;
            for (std::size_t k = 0; k < K; ++k) {
                const float ddx = hp(i, 0) - hc(k, 0), ddy = hp(i, 1) - hc(k, 1);
                const float d = ddx * ddx + ddy * ddy;
                if (k == 0 || d < bd) {
                    bd = d;
                    best = k;
                }
            }
            REQUIRE(hl(i) == static_cast<std::int64_t>(best));
            hs[2 * best] += hp(i, 0);
            hs[2 * best + 1] += hp(i, 1);
            ++hn[best];
        }
        xt::xarray<std::int32_t> gn = counts.get();
        xt::xarray<float> gnext = next.get();
        for (std::size_t k = 0; k < K; ++k) {
            CHECK(gn(k) == hn[k]);
            for (std::size_t d = 0; d < 2; ++d)
                CHECK(gnext(k, d) == Approx(hs[2 * k + d] / hn[k]).epsilon(1e-4));
        }
    });
}
