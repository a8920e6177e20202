// An array keeps its pool on assignment (as a C++ container keeps its allocator), std::swap
// exchanges pools, containers keep working, and every factory takes a pool. Which pool a block
// comes from is checked on the allocation (allocation::pool()) and on the pools' statistics;
// values against the host arrays the device arrays were made from.
#include "support.hpp"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "xtensor_headers.hpp"

namespace {

// Whether a's memory is a block of `pool`.
template <class A, class P> bool from_pool(const A& a, const P& pool) {
    return a.data() && a.data()->pool().get() == &pool.core();
}
// Whether a's memory is a block of the context's default pool of its kind.
template <class A> bool from_default_pool(const A& a) {
    return a.data() && a.data()->pool() && ca::detail::pool_of(*a.data())->is_default_pool();
}

template <class T> xt::xarray<T> values(std::size_t n, unsigned seed) {
    return test::random_array<T>({n}, seed);
}

// Same shape and values (xtensor's == gives one bool, which Catch2 cannot decompose).
template <class T> bool same(const xt::xarray<T>& got, const xt::xarray<T>& want) {
    const bool equal = got == want;
    if (!equal)
        UNSCOPED_INFO("got " << xt::adapt(got.data(), got.size(), xt::no_ownership()) << "\nwant "
                             << xt::adapt(want.data(), want.size(), xt::no_ownership()));
    return equal;
}

// Allocations served by a pool so far (new blocks and reuses).
std::uint64_t served(const ca::pool_stats& s) {
    return s.device_allocations + s.reuses;
}

} // namespace

TEMPLATE_LIST_TEST_CASE("move assignment between pools: the destination keeps its pool",
                        "[pool][semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    ca::pool_for_t<S> p1(test::ctx()), p2(test::ctx());
    const std::size_t n = 300;
    const xt::xarray<float> h1 = values<float>(n, 1), h2 = values<float>(n, 2),
                            h3 = values<float>(37, 3);

    SECTION("same shape: the values are written into the destination's memory") {
        A a = ca::to_device(q, h1, p1);
        A b = ca::to_device(q, h2, p2);
        const auto* a_memory = a.data().get();
        const ca::pool_stats s1 = p1.stats(), s2 = p2.stats();
        a = std::move(b);
        CHECK_FALSE(b.bound()); // NOLINT(bugprone-use-after-move): moved-from is unbound
        CHECK(a.data().get() == a_memory);
        CHECK(from_pool(a, p1));
        CHECK(same(a.get(), h2));
        CHECK(p1.stats().live_allocations == s1.live_allocations);
        CHECK(served(p1.stats()) == served(s1));                       // no new block
        CHECK(p2.stats().live_allocations == s2.live_allocations - 1); // b's memory went back
    }
    SECTION("another shape: new memory from the destination's pool, the source's shape") {
        A a = ca::to_device(q, h1, p1);
        A c = ca::to_device(q, h3, p2);
        const ca::pool_stats s1 = p1.stats(), s2 = p2.stats();
        a = std::move(c);
        CHECK_FALSE(c.bound()); // NOLINT(bugprone-use-after-move)
        CHECK(a.shape() == ca::shape_type{37});
        CHECK(from_pool(a, p1));
        CHECK(same(a.get(), h3));
        CHECK(served(p1.stats()) == served(s1) + 1);
        CHECK(p1.stats().live_allocations == s1.live_allocations); // old block out, new one in
        CHECK(p2.stats().live_allocations == s2.live_allocations - 1);
    }
    SECTION("the example: a pooled array assigned a factory's result stays in its pool") {
        A a(q, {n}, p1);
        a = ca::arange<float, S>(q, 0.0f, float(n));
        CHECK(from_pool(a, p1));
        CHECK(same(a.get(), xt::xarray<float>(xt::arange<float>(0.0f, float(n)))));
        // Another shape, an F-ordered view of a temporary of another pool as the source.
        a = ca::to_device(q, xt::xarray<float>(xt::reshape_view(h2, {15, 20})), p2).transpose();
        CHECK(from_pool(a, p1));
        CHECK(a.shape() == ca::shape_type{20, 15});
        CHECK(a.is_f_contiguous()); // the layout of the source (a transposed C array)
        CHECK(same(a.get(), xt::xarray<float>(xt::transpose(xt::reshape_view(h2, {15, 20})))));
    }
    SECTION("a default-pooled destination keeps the default pool") {
        A d = ca::to_device<S>(q, h1);
        REQUIRE(from_default_pool(d));
        const auto* d_memory = d.data().get();
        A e = ca::to_device(q, h2, p1);
        const ca::pool_stats s1 = p1.stats();
        d = std::move(e);
        CHECK(d.data().get() == d_memory);
        CHECK(from_default_pool(d));
        CHECK(same(d.get(), h2));
        CHECK(p1.stats().live_allocations == s1.live_allocations - 1);
        d = ca::to_device(q, h3, p1); // another shape: new default-pool memory
        CHECK(from_default_pool(d));
        CHECK(same(d.get(), h3));
        CHECK(p1.stats().live_allocations == s1.live_allocations - 1);
        // A pooled destination receiving default-pool memory keeps its pool too.
        A g = ca::to_device(q, h1, p2);
        g = ca::to_device<S>(q, h3);
        CHECK(from_pool(g, p2));
        CHECK(same(g.get(), h3));
    }
    SECTION("the same pool: the storage moves, no kernel, no allocation") {
        A x = ca::to_device(q, h1, p1);
        A y = ca::to_device(q, h3, p1);
        const auto* y_memory = y.data().get();
        const ca::pool_stats s1 = p1.stats();
        x = std::move(y);
        CHECK(x.data().get() == y_memory);
        CHECK(x.shape() == ca::shape_type{37});
        CHECK(p1.stats().live_allocations == s1.live_allocations - 1);
        CHECK(served(p1.stats()) == served(s1));
        CHECK(same(x.get(), h3));
        // Both from the default pool: the storage moves as well.
        A u = ca::to_device<S>(q, h1), v = ca::to_device<S>(q, h2);
        const auto* v_memory = v.data().get();
        u = std::move(v);
        CHECK(u.data().get() == v_memory);
        CHECK(same(u.get(), h2));
    }
    SECTION("an unbound or zero-size destination takes the source's storage and pool") {
        A src = ca::to_device(q, h1, p2);
        const auto* memory = src.data().get();
        A u;
        u = std::move(src);
        CHECK(u.data().get() == memory);
        CHECK(from_pool(u, p2));
        A z(q, {0}, p1); // no memory, so no pool of its own
        CHECK_FALSE(z.data());
        z = std::move(u);
        CHECK(z.data().get() == memory);
        CHECK(same(z.get(), h1));
        A w(q, {0}, p1);
        A unbound;
        w = std::move(unbound); // unbound source: the destination becomes unbound, as before
        CHECK_FALSE(w.bound());
    }
    SECTION("a view source from another pool: its values, its base untouched") {
        A a = ca::to_device(q, h1, p1);
        A big = ca::to_device(q, h2, p2);
        a = big(ca::range(0, 100));
        CHECK(from_pool(a, p1));
        CHECK(a.shape() == ca::shape_type{100});
        CHECK(same(a.get(), xt::xarray<float>(xt::view(h2, xt::range(0, 100)))));
        CHECK(same(big.get(), h2));
    }
    SECTION("into a view or an array with views: values written, pools unchanged (as before)") {
        A a = ca::to_device(q, h1, p1);
        auto v = a(ca::range(10, 47));
        const ca::pool_stats s1 = p1.stats();
        v = ca::to_device(q, h3, p2);
        a = ca::to_device<S>(q, h1); // a has a view: written
        xt::xarray<float> want = h1;
        CHECK(same(a.get(), want));
        v = ca::to_device(q, h3, p2);
        xt::view(want, xt::range(10, 47)) = h3;
        CHECK(same(a.get(), want));
        CHECK(from_pool(a, p1));
        CHECK(from_pool(v, p1));
        CHECK(served(p1.stats()) == served(s1));
    }
    SECTION("std::vector::erase between pools: the erased position keeps its pool, moved-from "
            "positions take the next element's memory") {
        std::vector<A> dev;
        std::vector<xt::xarray<float>> host;
        std::vector<const ca::allocation*> memory;
        for (unsigned i = 0; i < 6; ++i) {
            host.push_back(values<float>(5 + 3 * i, 20 + i));
            if (i % 3 == 0)
                dev.push_back(ca::to_device(q, host.back(), p1));
            else if (i % 3 == 1)
                dev.push_back(ca::to_device(q, host.back(), p2));
            else
                dev.push_back(ca::to_device<S>(q, host.back()));
            memory.push_back(dev.back().data().get());
        }
        const ca::pool_stats s1 = p1.stats(), s2 = p2.stats();
        // erase moves element 2 into element 1 (bound, p2; element 2 is of the default pool: a
        // copy into new p2 memory), then element 3 into the moved-from element 2 (unbound: it
        // takes element 3's memory), and so on.
        dev.erase(dev.begin() + 1);
        host.erase(host.begin() + 1);
        REQUIRE(dev.size() == 5);
        for (std::size_t i = 0; i < dev.size(); ++i) {
            CAPTURE(i);
            CHECK(same(dev[i].get(), host[i]));
        }
        CHECK(dev[0].data().get() == memory[0]);
        CHECK(from_pool(dev[1], p2));
        for (std::size_t i = 2; i < dev.size(); ++i) {
            CAPTURE(i);
            CHECK(dev[i].data().get() == memory[i + 1]);
        }
        CHECK(served(p2.stats()) == served(s2) + 1); // the one copy
        CHECK(served(p1.stats()) == served(s1));
        CHECK(p1.stats().live_allocations == s1.live_allocations); // elements 0 and 3
        CHECK(p2.stats().live_allocations == s2.live_allocations); // new 1 and 4 (old 1 went)
    }
}

TEMPLATE_LIST_TEST_CASE("copy and expression assignment between pools write into the "
                        "destination's memory",
                        "[pool][semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    ca::pool_for_t<S> p1(test::ctx()), p2(test::ctx());
    const std::size_t n = 300;
    const xt::xarray<float> h1 = values<float>(n, 4), h2 = values<float>(n, 5);
    A x = ca::to_device(q, h1, p1);
    const A y = ca::to_device(q, h2, p2);
    const auto* x_memory = x.data().get();
    const ca::pool_stats s1 = p1.stats(), s2 = p2.stats();

    x = y; // another pool
    CHECK(x.data().get() == x_memory);
    CHECK(from_pool(x, p1));
    CHECK(same(x.get(), h2));
    CHECK(same(y.get(), h2));
    const A z = ca::to_device(q, h1, p1);
    x = z; // the same pool: values written as well
    CHECK(x.data().get() == x_memory);
    CHECK(same(x.get(), h1));
    x = y * 2.0f + 1.0f; // an expression over another pool's array
    CHECK(x.data().get() == x_memory);
    CHECK(same(x.get(), xt::xarray<float>(h2 * 2.0f + 1.0f)));
    x += y;
    CHECK(same(x.get(), xt::xarray<float>(h2 * 2.0f + 1.0f + h2)));
    // Only z took a block of p1 (no temporary, no new memory for x); p2 has y alone.
    CHECK(p1.stats().live_allocations == s1.live_allocations + 1);
    CHECK(served(p1.stats()) == served(s1) + 1);
    CHECK(p2.stats().live_allocations == s2.live_allocations);
    CHECK(served(p2.stats()) == served(s2));

    // An unbound destination has no pool: a copy of y, or the expression's result, from the pool
    // of the source (results inherit the pool of their first array operand).
    A u;
    u = y;
    CHECK(from_pool(u, p2));
    CHECK(u.data() != y.data());
    CHECK(same(u.get(), h2));
    A w;
    w = y - 1.0f;
    CHECK(from_pool(w, p2));
    CHECK(same(w.get(), xt::xarray<float>(h2 - 1.0f)));

    // Self-assignment: nothing changes.
    A& alias = x;
    const ca::pool_stats before = p1.stats();
    x = alias;
    x = std::move(alias);
    CHECK(x.data().get() == x_memory);
    CHECK(from_pool(x, p1));
    CHECK(same(x.get(), xt::xarray<float>(h2 * 2.0f + 1.0f + h2)));
    CHECK(served(p1.stats()) == served(before));
}

TEMPLATE_LIST_TEST_CASE("std::swap exchanges arrays with their pools, containers keep pools",
                        "[pool][semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    ca::pool_for_t<S> p1(test::ctx()), p2(test::ctx());
    const xt::xarray<float> hx = values<float>(5, 6), hy = values<float>(9, 7),
                            hd = values<float>(9, 8);
    A x = ca::to_device(q, hx, p1);
    A y = ca::to_device(q, hy, p2);
    A d = ca::to_device<S>(q, hd);
    const auto *x_memory = x.data().get(), *y_memory = y.data().get(), *d_memory = d.data().get();
    const ca::pool_stats s1 = p1.stats(), s2 = p2.stats();
    std::swap(x, y);
    CHECK(x.data().get() == y_memory); // everything exchanged, pools included: no copy
    CHECK(y.data().get() == x_memory);
    CHECK(from_pool(x, p2));
    CHECK(from_pool(y, p1));
    CHECK(same(x.get(), hy));
    CHECK(same(y.get(), hx));
    using std::swap;
    swap(x, d); // a user pool and the default pool
    CHECK(x.data().get() == d_memory);
    CHECK(from_default_pool(x));
    CHECK(from_pool(d, p2));
    CHECK(same(x.get(), hd));
    CHECK(same(d.get(), hy));
    CHECK(served(p1.stats()) == served(s1));
    CHECK(served(p2.stats()) == served(s2));

    // std::vector growth moves elements by construction: every element keeps its memory.
    std::vector<A> dev;
    std::vector<xt::xarray<float>> host;
    std::vector<const ca::allocation*> memory;
    for (unsigned i = 0; i < 20; ++i) {
        host.push_back(values<float>(4 + i, 30 + i));
        if (i % 3 == 0)
            dev.push_back(ca::to_device(q, host.back(), p1));
        else if (i % 3 == 1)
            dev.emplace_back(ca::to_device(q, host.back(), p2));
        else
            dev.push_back(ca::to_device<S>(q, host.back()));
        memory.push_back(dev.back().data().get());
    }
    dev.shrink_to_fit();
    dev.reserve(2 * dev.capacity() + 1);
    for (std::size_t i = 0; i < dev.size(); ++i) {
        CAPTURE(i);
        CHECK(dev[i].data().get() == memory[i]);
        CHECK(same(dev[i].get(), host[i]));
    }
    // Insert at the front: moves between elements of different pools copy values, each position
    // keeps its pool; the values are the host vector's.
    dev.insert(dev.begin(), ca::to_device(q, values<float>(3, 99), p2));
    host.insert(host.begin(), values<float>(3, 99));
    for (std::size_t i = 0; i < dev.size(); ++i) {
        CAPTURE(i);
        CHECK(same(dev[i].get(), host[i]));
    }
}

TEMPLATE_LIST_TEST_CASE("every factory takes a pool: the result's memory comes from it",
                        "[pool][factories]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    ca::pool_for_t<S> pool(test::ctx());
    const ca::pool_stats s0 = pool.stats();
    const ca::pool_stats d0 = ca::pool_statistics(test::ctx(), S::kind);
    const xt::xarray<float> h = values<float>(24, 9);

    auto e = ca::empty<float>(q, {4, 6}, pool);
    auto z = ca::zeros<float, S>(q, {4, 6}, pool, ca::layout::f); // S named: same overload
    auto o = ca::ones<float>(q, {4, 6}, pool);
    auto f = ca::full<float>(q, {4, 6}, 2.5f, pool);
    auto r = ca::arange<float>(q, 1.0f, 20.0f, 2.0f, pool);
    auto r1 = ca::arange<float, S>(q, 0.0f, 7.0f, pool);
    auto l = ca::linspace<float>(q, 0.0f, 1.0f, 9, pool);
    auto l2 = ca::linspace<float, S>(q, 0.0f, 1.0f, 8, false, pool);
    auto i1 = ca::eye<float>(q, 3, 5, 1, pool);
    auto i2 = ca::eye<float, S>(q, 4, pool);
    auto i3 = ca::identity<float>(q, 3, pool);
    auto ix = ca::indices<float>(q, {2, 3}, pool);
    auto tv = ca::to_device(q, std::vector<float>(h.begin(), h.end()), pool);
    auto tx = ca::to_device<S>(q, xt::xarray<float>(xt::reshape_view(h, {4, 6})), pool);
    static_assert(std::is_same_v<decltype(e), A> && std::is_same_v<decltype(z), A> &&
                  std::is_same_v<decltype(r1), A> && std::is_same_v<decltype(l2), A> &&
                  std::is_same_v<decltype(i2), A> && std::is_same_v<decltype(ix), A> &&
                  std::is_same_v<decltype(tv), A> && std::is_same_v<decltype(tx), A>);
    // *_like: with a pool argument from it; without, from the pool of the array they mimic (a
    // user pool's array leads to that pool, a default-pool array to the default pool).
    A d = ca::to_device<S>(q, h);
    auto el = ca::empty_like(d, pool);
    auto zl = ca::zeros_like(d, pool);
    auto ol = ca::ones_like(d, pool);
    auto fl = ca::full_like(d, -1.5f, pool);
    auto inherit = ca::full_like(f, 4.0f);
    auto stays_default = ca::ones_like(d);

    const std::vector<const A*> pooled = {&e,  &z,  &o,  &f,  &r,  &r1, &l,  &l2, &i1,     &i2,
                                          &i3, &ix, &tv, &tx, &el, &zl, &ol, &fl, &inherit};
    for (std::size_t k = 0; k < pooled.size(); ++k) {
        CAPTURE(k);
        CHECK(from_pool(*pooled[k], pool));
    }
    CHECK(from_default_pool(stays_default));
    CHECK(pool.stats().live_allocations ==
          s0.live_allocations + static_cast<std::int64_t>(pooled.size()));
    // The default pool served d and stays_default only (indices' arange temporary came from the
    // user pool too).
    CHECK(served(ca::pool_statistics(test::ctx(), S::kind)) == served(d0) + 2);

    // Values against xtensor's.
    CHECK(z.is_f_contiguous());
    CHECK(xt::all(xt::equal(z.get(), 0.0f)));
    CHECK(xt::all(xt::equal(o.get(), 1.0f)));
    CHECK(xt::all(xt::equal(f.get(), 2.5f)));
    CHECK(same(r.get(), xt::xarray<float>(xt::arange<float>(1.0f, 20.0f, 2.0f))));
    CHECK(same(r1.get(), xt::xarray<float>(xt::arange<float>(0.0f, 7.0f))));
    CHECK(xt::allclose(l.get(), xt::xarray<float>(xt::linspace<float>(0.0f, 1.0f, 9))));
    CHECK(xt::allclose(l2.get(), xt::xarray<float>(xt::linspace<float>(0.0f, 1.0f, 8, false))));
    CHECK(same(i1.get(), xt::xarray<float>(xt::eye<float>({3, 5}, 1))));
    CHECK(same(i2.get(), xt::xarray<float>(xt::eye<float>(4))));
    CHECK(same(i3.get(), xt::xarray<float>(xt::eye<float>(3))));
    xt::xarray<float> want_ix = xt::zeros<float>({2, 2, 3});
    for (std::size_t a = 0; a < 2; ++a)
        for (std::size_t b = 0; b < 3; ++b) {
            want_ix(0, a, b) = float(a);
            want_ix(1, a, b) = float(b);
        }
    CHECK(same(ix.get(), want_ix));
    CHECK(same(tv.get(), h));
    CHECK(same(tx.get(), xt::xarray<float>(xt::reshape_view(h, {4, 6}))));
    CHECK(el.shape() == d.shape());
    CHECK(xt::all(xt::equal(zl.get(), 0.0f)));
    CHECK(xt::all(xt::equal(ol.get(), 1.0f)));
    CHECK(xt::all(xt::equal(fl.get(), -1.5f)));
    CHECK(xt::all(xt::equal(inherit.get(), 4.0f)));
    CHECK(inherit.shape() == f.shape());
    CHECK(xt::all(xt::equal(stays_default.get(), 1.0f)));
    e.fill(3.0f);
    CHECK(xt::all(xt::equal(e.get(), 3.0f)));
}

TEMPLATE_LIST_TEST_CASE("random draws and load_npy take a pool", "[pool][factories]",
                        test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    ca::pool_for_t<S> pool(test::ctx());
    const ca::pool_stats s0 = pool.stats();

    // A pooled draw gives the values of the same draw from the default pool (same generator
    // state): only where the memory comes from differs.
    ca::random::generator g1(7), g2(7);
    auto u = g1.uniform<float>(q, {64}, pool);
    auto u2 = g1.uniform<float, S>(q, {64}, -2.0f, 3.0f, pool);
    auto n = g1.normal<float>(q, {64}, pool);
    auto n2 = g1.normal<float>(q, {64}, 1.0f, 0.5f, pool);
    auto k = g1.integers<std::int32_t>(q, {64}, 0, 6, pool);
    static_assert(std::is_same_v<decltype(u2), A>);
    const A ru = g2.uniform<float, S>(q, {64});
    const A ru2 = g2.uniform<float, S>(q, {64}, -2.0f, 3.0f);
    const A rn = g2.normal<float, S>(q, {64});
    const A rn2 = g2.normal<float, S>(q, {64}, 1.0f, 0.5f);
    const auto rk = g2.integers<std::int32_t, S>(q, {64}, 0, 6);
    CHECK(from_pool(u, pool));
    CHECK(from_pool(u2, pool));
    CHECK(from_pool(n, pool));
    CHECK(from_pool(n2, pool));
    CHECK(from_pool(k, pool));
    CHECK(pool.stats().live_allocations == s0.live_allocations + 5);
    CHECK(same(u.get(), ru.get()));
    CHECK(same(u2.get(), ru2.get()));
    CHECK(same(n.get(), rn.get()));
    CHECK(same(n2.get(), rn2.get()));
    CHECK(same(k.get(), rk.get()));
    const xt::xarray<float> hu2 = u2.get();
    CHECK(xt::all(hu2 >= -2.0f && hu2 < 3.0f));

    // load_npy, the storage policy from the pool or named.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() /
                         ("clarray_pool_npy_" + std::to_string(::getpid()) + "_" + S::name);
    fs::create_directories(dir);
    const xt::xarray<float> h = test::random_array<float>({3, 5}, 11);
    const std::string c_file = (dir / "c.npy").string(), t_file = (dir / "t.npy").string();
    const A c_src = ca::to_device<S>(q, h);
    ca::save_npy(c_file, c_src);
    ca::save_npy(t_file, c_src.transpose()); // a view: its elements in C order
    auto c = ca::load_npy<float>(q, c_file, pool);
    auto t = ca::load_npy<float, S>(q, t_file, pool);
    static_assert(std::is_same_v<decltype(c), A>);
    CHECK(from_pool(c, pool));
    CHECK(from_pool(t, pool));
    CHECK(same(c.get(), h));
    CHECK(same(t.get(), xt::xarray<float>(xt::transpose(h))));
    std::error_code ec;
    fs::remove_all(dir, ec);
}
