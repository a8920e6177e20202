// Value semantics C++ code relies on: std::swap, moves (into and out of unbound and moved-from
// arrays), self-assignment, standard containers and algorithms. Contents are checked against
// the host arrays the device arrays were made from.
#include "support.hpp"

#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "xtensor_headers.hpp"

namespace {

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

} // namespace

static_assert(std::is_nothrow_move_constructible_v<ca::cl_array<float>>);

TEMPLATE_LIST_TEST_CASE("std::swap exchanges arrays of different shapes without a kernel",
                        "[semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using A = typename TestType::array;
    using T = typename TestType::value_type;
    ca::queue& q = test::q();
    const xt::xarray<T> hx = values<T>(5, 1), hy = values<T>(9, 2);
    A x = ca::to_device<typename TestType::storage>(q, hx);
    A y = ca::to_device<typename TestType::storage>(q, hy);
    const auto* x_storage = x.data().get();
    const auto* y_storage = y.data().get();
    std::swap(x, y);
    CHECK(x.data().get() == y_storage); // handles swapped: no copy, no new memory
    CHECK(y.data().get() == x_storage);
    CHECK(same(x.get(), hy));
    CHECK(same(y.get(), hx));
    using std::swap; // the ADL spelling generic code uses
    swap(x, y);
    CHECK(same(x.get(), hx));
    CHECK(same(y.get(), hy));
}

TEMPLATE_LIST_TEST_CASE("ping-pong with std::swap computes what a host loop computes",
                        "[semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using A = typename TestType::array;
    using T = typename TestType::value_type;
    ca::queue& q = test::q();
    xt::xarray<T> hu = values<T>(64, 3);
    A u = ca::to_device<typename TestType::storage>(q, hu);
    A v = ca::zeros_like(u);
    const auto in = ca::range(1, -1), lo = ca::range(0, -2), hi = ca::range(2, ca::none);
    for (int step = 0; step < 5; ++step) {
        v(in) = u(in) + T(0.25) * (u(lo) + u(hi) - T(2) * u(in));
        v(ca::range(0, 1)) = u(ca::range(0, 1));
        v(ca::range(-1, ca::none)) = u(ca::range(-1, ca::none));
        std::swap(u, v);
        xt::xarray<T> next = hu;
        for (std::size_t i = 1; i + 1 < hu.size(); ++i)
            next(i) = hu(i) + T(0.25) * (hu(i - 1) + hu(i + 1) - T(2) * hu(i));
        hu = next;
    }
    CHECK(xt::allclose(u.get(), hu, 1e-5, 1e-5));
}

TEMPLATE_LIST_TEST_CASE("moves leave the source unbound and work into unbound arrays",
                        "[semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using A = typename TestType::array;
    using T = typename TestType::value_type;
    ca::queue& q = test::q();
    const xt::xarray<T> hx = values<T>(6, 4);
    A x = ca::to_device<typename TestType::storage>(q, hx);
    A moved(std::move(x));
    CHECK_FALSE(x.bound()); // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(x.data() == nullptr);
    CHECK(same(moved.get(), hx));

    A target; // unbound
    target = std::move(moved);
    CHECK_FALSE(moved.bound()); // NOLINT(bugprone-use-after-move)
    CHECK(same(target.get(), hx));

    // Into a moved-from array, and out of it again.
    x = std::move(target);
    CHECK(same(x.get(), hx));
    A unbound;
    x = std::move(unbound); // moving an unbound array in makes x unbound
    CHECK_FALSE(x.bound());
    CHECK_THROWS_AS(x.get(), ca::usage_error);

    // A moved-from array is usable again: it takes what is assigned to it.
    x = ca::to_device<typename TestType::storage>(q, hx) * T(2);
    CHECK(same(x.get(), xt::xarray<T>(hx * T(2))));
}

TEMPLATE_LIST_TEST_CASE("self-assignment leaves the values", "[semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using A = typename TestType::array;
    using T = typename TestType::value_type;
    ca::queue& q = test::q();
    const xt::xarray<T> hx = values<T>(7, 5);
    A x = ca::to_device<typename TestType::storage>(q, hx);
    const auto* storage = x.data().get();
    A& alias = x;
    x = alias;
    CHECK(same(x.get(), hx));
    x = std::move(alias);
    CHECK(x.bound());
    CHECK(x.data().get() == storage);
    CHECK(same(x.get(), hx));
    A unbound;
    A& unbound_alias = unbound;
    unbound = unbound_alias; // unbound = unbound stays unbound, no error
    CHECK_FALSE(unbound.bound());
}

TEMPLATE_LIST_TEST_CASE("copy assignment writes values, a move into shared memory writes values",
                        "[semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using A = typename TestType::array;
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    xt::xarray<T> hx = values<T>(8, 6);
    const xt::xarray<T> hy = values<T>(8, 7);
    A x = ca::to_device<S>(q, hx);
    A y = ca::to_device<S>(q, hy);
    const auto* storage = x.data().get();
    x = y; // values, x keeps its storage
    CHECK(x.data().get() == storage);
    CHECK(same(x.get(), hy));
    CHECK(y.data().get() != storage);

    // A temporary view on the left of a moved array: the view's elements are written.
    x = ca::to_device<S>(q, hx);
    x(ca::range(2, 5)) = ca::to_device<S>(q, xt::xarray<T>(xt::view(hy, xt::range(0, 3))));
    xt::view(hx, xt::range(2, 5)) = xt::view(hy, xt::range(0, 3));
    CHECK(same(x.get(), hx));

    // A named view shares a's memory: a move into it writes too (it must not rebind the view).
    {
        auto column = x(ca::range(0, 4));
        column = ca::to_device<S>(q, xt::xarray<T>(xt::view(hy, xt::range(4, 8))));
        xt::view(hx, xt::range(0, 4)) = xt::view(hy, xt::range(4, 8));
        CHECK(same(x.get(), hx));
    }
    // An array whose memory nobody else sees takes the moved array's storage and shape.
    {
        A alone = ca::to_device<S>(q, hx);
        A longer = ca::to_device<S>(q, values<T>(11, 8));
        const auto* storage_of_longer = longer.data().get();
        alone = std::move(longer);
        CHECK(alone.data().get() == storage_of_longer);
        CHECK(alone.size() == 11);
    }
    // Reversal in place through a view of itself: values written, NumPy's a[:] = a[::-1].
    {
        A r = ca::to_device<S>(q, hx);
        r = r(ca::range(ca::none, ca::none, -1));
        CHECK(same(r.get(), xt::xarray<T>(xt::flip(hx, 0))));
    }
    // Copy assignment into an unbound array makes an independent copy.
    A fresh;
    fresh = y;
    CHECK(fresh.data() != y.data());
    CHECK(same(fresh.get(), hy));
}

TEMPLATE_LIST_TEST_CASE("std::vector of arrays: push_back, erase, insert, sort by key",
                        "[semantics]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using A = typename TestType::array;
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    std::vector<xt::xarray<T>> host;
    std::vector<A> dev;
    for (unsigned i = 0; i < 6; ++i) {
        host.push_back(values<T>(3 + i, 10 + i)); // every array a different shape
        dev.push_back(ca::to_device<S>(q, host.back()));
    }
    auto check_all = [&] {
        REQUIRE(dev.size() == host.size());
        for (std::size_t i = 0; i < dev.size(); ++i) {
            CAPTURE(i);
            CHECK(same(dev[i].get(), host[i]));
        }
    };
    check_all();
    dev.erase(dev.begin() + 1);
    host.erase(host.begin() + 1);
    check_all();
    dev.insert(dev.begin(), ca::to_device<S>(q, values<T>(11, 99)));
    host.insert(host.begin(), values<T>(11, 99));
    check_all();
    dev.reserve(dev.capacity() * 2 + 1); // reallocation moves every element
    check_all();

    // Sort by a key (the size, descending), an index permutation on the host as reference.
    std::vector<std::size_t> order(host.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return host[a].size() > host[b].size(); });
    std::vector<xt::xarray<T>> sorted_host;
    for (std::size_t i : order)
        sorted_host.push_back(host[i]);
    std::sort(dev.begin(), dev.end(), [](const A& a, const A& b) { return a.size() > b.size(); });
    host = sorted_host;
    check_all();

    // Copies of the vector share storage (array copies are handles).
    std::vector<A> copy = dev;
    for (std::size_t i = 0; i < dev.size(); ++i)
        CHECK(copy[i].data() == dev[i].data());
}
