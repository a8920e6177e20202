// Host views (cl_array::map): reads equal get(), writes through strided/transposed/offset views
// land exactly on the view's elements, xtensor functions work on them, and raw kernel launches
// are refused while a host map that forbids them is alive.
#include "support.hpp"

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "xtensor_headers.hpp"

// Element-wise equality of two xtensor expressions (same shape and values), printing both on
// failure.
using namespace xt::placeholders;

namespace {

template <class T, class S> std::string cfg_name() {
    return std::string(ca::dtype_name(ca::dtype_traits<T>::id)) + "/" + S::name;
}

template <class Sh> ca::shape_type as_shape(const Sh& s) {
    return ca::shape_type(s.begin(), s.end());
}

// The host value type of a host_view<T> (bool is stored, and seen on the host, as uint8_t).
template <class T> using host_t = ca::stored_t<T>;

template <class T> xt::xarray<host_t<T>> to_host_type(const xt::xarray<T>& a) {
    return xt::cast<host_t<T>>(a);
}

// One view of `a` and the same view of the host copy `r`, named for messages.
template <class A, class R> struct view_pair {
    const char* name;
    A dev;
    R host; // an xtensor view into the host reference
};

// Several kinds of views of a (6, 8, 5) array and the same views of `ref` (which the host views
// write into). Returned as a callable visiting each (name, device view, host view).
template <class A, class X, class F> void for_each_view(const A& a, X& ref, F&& f) {
    f("whole array", a, xt::view(ref, xt::all()));
    f("offset block", a(ca::range(2, 5)), xt::view(ref, xt::range(2, 5)));
    f("stepped", a(ca::range(1, 6, 2), ca::all(), ca::range(0, 5, 3)),
      xt::view(ref, xt::range(1, 6, 2), xt::all(), xt::range(0, 5, 3)));
    f("reversed", a(ca::range(ca::none, ca::none, -1), ca::range(6, 1, -2)),
      xt::view(ref, xt::range(_, _, -1), xt::range(6, 1, -2)));
    f("transposed", a.transpose(), xt::transpose(ref));
    f("permuted and sliced", a.transpose({1, 2, 0})(ca::range(3, 7), 4),
      xt::view(xt::transpose(ref, {1, 2, 0}), xt::range(3, 7), 4));
    f("column", a(ca::all(), 3, 2), xt::view(ref, xt::all(), 3, 2));
    f("one element", a(4, 7, 1), xt::view(ref, 4, 7, 1));
    f("newaxis", a(ca::newaxis(), 5, ca::newaxis()),
      xt::view(ref, xt::newaxis(), 5, xt::newaxis()));
}

// The xt::xstrided_view a host_view derives from. xtensor's own traits do not recognise a
// host_view itself as an expression (see the "is an xtensor expression" test case), so functions
// such as xt::sum or operator* are applied to this base.
template <class T, class S>
const ca::detail::strided_host_view_t<host_t<T>>& xexpr(const ca::host_view<T, S>& hv) {
    return hv;
}

template <class T> host_t<T> changed(host_t<T> x) {
    if constexpr (std::is_same_v<T, bool>)
        return static_cast<host_t<T>>(x ? 0 : 1);
    else
        return static_cast<host_t<T>>(x + 1);
}

// A raw kernel adding one to each element of a float array.
const char* add_one_source = R"CLC(
kernel void add_one(global float* a) {
    size_t i = get_global_id(0);
    a[i] = a[i] + 1.0f;
}
kernel void read_sum(global const float* a, global float* out, uint n) {
    if (get_global_id(0) != 0) return;
    float s = 0.0f;
    for (uint i = 0; i < n; ++i) s += a[i];
    out[0] = s;
}
)CLC";

} // namespace

TEMPLATE_LIST_TEST_CASE("map(read) sees the values get() returns", "[host_view]",
                        CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using U = host_t<T>;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> ref = test::random_array<T>({6, 8, 5}, 201);
    auto a = ca::to_device<S>(test::q(), ref);
    for_each_view(a, ref, [&](const char* name, const auto& v, auto&& rv) {
        INFO(name);
        xt::xarray<T> g = v.get();
        CHECK_ARRAY_EQ(g, xt::xarray<T>(rv)); // the device view is the host view
        auto hv = v.map(ca::access::read);
        static_assert(std::is_same_v<typename std::decay_t<decltype(hv)>::value_type, U>);
        REQUIRE(as_shape(hv.shape()) == v.shape());
        CHECK(hv.size() == v.size());
        CHECK_ARRAY_EQ(xt::xarray<U>(hv), to_host_type(g));
        // Element access by index agrees with the flat row-major order of get().
        xt::xarray<U> flat = xt::flatten<xt::layout_type::row_major>(to_host_type(g));
        std::size_t k = 0, bad = 0;
        for (auto it = hv.begin(); it != hv.end(); ++it, ++k)
            if (*it != flat(k)) ++bad;
        CHECK(k == v.size());
        CHECK(bad == 0);
    });
    // 0-d and zero-size arrays.
    xt::xarray<T> r0 = test::random_array<T>(ca::shape_type{}, 202);
    auto z = ca::to_device<S>(test::q(), r0);
    {
        auto hv = z.map(ca::access::read);
        CHECK(hv.dimension() == 0);
        CHECK(hv() == static_cast<U>(r0()));
    }
    auto e = ca::empty<T, S>(test::q(), {0, 4});
    {
        auto hv = e.map(ca::access::read);
        CHECK(as_shape(hv.shape()) == ca::shape_type{0, 4});
        CHECK(hv.size() == 0);
    }
}

// The header promises "every xtensor function ... works" on a host_view. xt::view, printing,
// operator== and assignment do (they deduce the xexpression base), but xtensor's functions and
// operators that test xt::is_xexpression (xt::sum(hv), hv * 2.0f, xt::equal(hv, x), ...) treat a
// host_view as a scalar and do not compile: host_view derives from xexpression<xstrided_view<...>>,
// not from xexpression<host_view>. This checks the trait those functions use.
// KNOWN BUG (open): marked [!shouldfail] until host_view is an xexpression of its own type.
TEST_CASE("host_view is an xtensor expression for xtensor's traits", "[host_view][!shouldfail]") {
    CHECK(xt::is_xexpression<ca::host_view<float, ca::svm_coarse>>::value);
    CHECK(xt::is_xexpression<ca::host_view<std::int32_t, ca::buffer>>::value);
    // What does work on the host_view itself.
    auto a = ca::to_device<ca::buffer>(test::q(), test::random_array<float>({3, 4}, 204));
    xt::xarray<float> g = a.get();
    auto hv = a.map(ca::access::read);
    CHECK((hv == g));
    CHECK_ARRAY_EQ(xt::xarray<float>(xt::view(hv, 1)), xt::xarray<float>(xt::view(g, 1)));
    std::ostringstream s1, s2;
    s1 << hv;
    s2 << g;
    CHECK(s1.str() == s2.str());
    // Through its xstrided_view base, xtensor functions work.
    CHECK(xt::sum(xexpr(hv))() == Approx(xt::sum(g)()));
}

TEST_CASE("host_view of a bool array has element type uint8_t", "[host_view]") {
    static_assert(std::is_same_v<ca::host_view<bool, ca::svm_coarse>::value_type, std::uint8_t>);
    static_assert(std::is_same_v<ca::host_view<bool, ca::buffer>::value_type, std::uint8_t>);
    xt::xarray<bool> ref = test::random_array<bool>({50}, 203);
    auto a = ca::to_device<ca::buffer>(test::q(), ref);
    {
        auto hv = a.map(ca::access::read_write);
        for (std::size_t i = 0; i < 50; ++i)
            CHECK(hv(i) == (ref(i) ? 1 : 0));
        for (std::size_t i = 0; i < 50; i += 3)
            hv(i) = static_cast<std::uint8_t>(hv(i) ? 0 : 1);
    }
    for (std::size_t i = 0; i < 50; i += 3)
        ref(i) = !ref(i);
    CHECK_ARRAY_EQ(a.get(), ref);
}

TEMPLATE_LIST_TEST_CASE("writes through a read_write map land on the view's elements only",
                        "[host_view]", CLARRAY_DTYPE_THIRD(1)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using U = host_t<T>;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> ref = test::random_array<T>({6, 8, 5}, 210);
    auto a = ca::to_device<S>(test::q(), ref);
    unsigned seed = 211;
    for_each_view(a, ref, [&](const char* name, const auto& v, auto&& rv) {
        INFO(name);
        // Overwrite with new values.
        xt::xarray<T> h = test::random_array<T>(v.shape(), seed++);
        {
            auto hv = v.map(ca::access::read_write);
            hv = to_host_type(h);
        }
        rv = h;
        CHECK_ARRAY_EQ(a.get(), ref);
        CHECK_ARRAY_EQ(v.get(), h);
        // Read-modify-write of every element through the map.
        {
            auto hv = v.map(ca::access::read_write);
            for (auto& x : hv)
                x = changed<T>(x);
        }
        for (auto& x : rv)
            x = static_cast<T>(changed<T>(static_cast<U>(x)));
        CHECK_ARRAY_EQ(a.get(), ref);
    });
}

TEMPLATE_LIST_TEST_CASE("map(write) on dense arrays and views, strided views keep the gaps",
                        "[host_view]", CLARRAY_DTYPE_THIRD(2)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> ref = test::random_array<T>({7, 9}, 220);
    auto a = ca::to_device<S>(test::q(), ref);
    { // the whole array
        xt::xarray<T> h = test::random_array<T>({7, 9}, 221);
        {
            auto hv = a.map(ca::access::write);
            hv = to_host_type(h);
        }
        ref = h;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    { // a dense block in the middle: the rows around it stay
        auto v = a(ca::range(2, 5));
        xt::xarray<T> h = test::random_array<T>(v.shape(), 222);
        {
            auto hv = v.map(ca::access::write);
            hv = to_host_type(h);
        }
        xt::view(ref, xt::range(2, 5)) = h;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    { // dense but not contiguous: transposed and reversed
        auto v = a.transpose()(ca::range(ca::none, ca::none, -1));
        xt::xarray<T> h = test::random_array<T>(v.shape(), 223);
        {
            auto hv = v.map(ca::access::write);
            hv = to_host_type(h);
        }
        xt::view(xt::transpose(ref), xt::range(_, _, -1)) = h;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    { // strided: a write map must not discard the elements between the view's
        auto v = a(ca::range(1, 7, 2), ca::range(ca::none, ca::none, 3));
        xt::xarray<T> h = test::random_array<T>(v.shape(), 224);
        {
            auto hv = v.map(ca::access::write);
            hv = to_host_type(h);
        }
        xt::view(ref, xt::range(1, 7, 2), xt::range(_, _, 3)) = h;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    { // one column of a large array
        xt::xarray<T> big = test::random_array<T>({300, 300}, 225);
        auto b = ca::to_device<S>(test::q(), big);
        auto v = b(ca::all(), 17);
        xt::xarray<T> h = test::random_array<T>(v.shape(), 226);
        {
            auto hv = v.map(ca::access::write);
            hv = to_host_type(h);
        }
        xt::view(big, xt::all(), 17) = h;
        CHECK_ARRAY_EQ(b.get(), big);
    }
}

TEMPLATE_LIST_TEST_CASE("host views work with xtensor functions", "[host_view]",
                        CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using U = host_t<T>;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> ref = test::random_array<T>({6, 8, 5}, 230);
    auto a = ca::to_device<S>(test::q(), ref);
    for_each_view(a, ref, [&](const char* name, const auto& v, auto&& rv) {
        INFO(name);
        xt::xarray<U> g = to_host_type(v.get());
        {
            auto hv = v.map(ca::access::read);
            // Reductions.
            const auto& xv = xexpr(hv);
            if constexpr (std::is_floating_point_v<T>) {
                double want = 0;
                for (U x : g)
                    want += x;
                CHECK(double(xt::sum(xv)()) == Approx(want).epsilon(1e-5).margin(1e-4));
            } else {
                long long want = 0;
                for (U x : g)
                    want += static_cast<long long>(x);
                CHECK(static_cast<long long>(xt::sum(xv)()) == want);
            }
            if (v.size() > 0) {
                U mx = *std::max_element(g.begin(), g.end());
                CHECK(xt::amax(xv)() == mx);
            }
            // Element-wise expressions and views of the host view.
            CHECK((hv == g));
            CHECK_ARRAY_EQ(xt::xarray<bool>(xt::equal(xv, g)),
                           xt::xarray<bool>(xt::ones<bool>(g.shape())));
            if (v.dimension() >= 1 && v.shape(0) > 1)
                CHECK_ARRAY_EQ(xt::xarray<U>(xt::view(hv, 1)), xt::xarray<U>(xt::view(g, 1)));
            // Printing: the same text as the host copy.
            std::ostringstream got, want;
            got << hv;
            want << g;
            CHECK(got.str() == want.str());
            CHECK(!got.str().empty());
        }
        // Assigning an xtensor expression.
        {
            auto hv = v.map(ca::access::read_write);
            hv = xt::ones<U>(hv.shape());
        }
        std::fill(rv.begin(), rv.end(), T(1));
        CHECK_ARRAY_EQ(a.get(), ref);
        {
            auto hv = v.map(ca::access::read_write);
            hv = xt::zeros<U>(hv.shape());
            if (hv.size() > 0) hv.fill(static_cast<U>(1)); // and a member function of the view
        }
        CHECK_ARRAY_EQ(a.get(), ref);
        if constexpr (!std::is_same_v<T, bool>) {
            {
                auto hv = v.map(ca::access::read_write);
                xt::xarray<U> twice = xexpr(hv) * U(2) + U(3); // an expression of the mapped data
                hv = twice;
            }
            for (auto& x : rv)
                x = static_cast<T>(x * T(2) + T(3));
            CHECK_ARRAY_EQ(a.get(), ref);
        }
    });
}

TEMPLATE_LIST_TEST_CASE("several read maps at once, fine SVM maps are zero-copy", "[host_view]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    xt::xarray<float> ref = test::random_array<float>({40, 30}, 240);
    auto a = ca::to_device<S>(test::q(), ref);
    const auto failures_before = ca::current_allocation_stats().noexcept_failures;
    {
        auto h1 = a.map(ca::access::read);
        auto h2 = a(ca::range(10, 20)).map(ca::access::read);
        CHECK_ARRAY_EQ(xt::xarray<float>(h1), ref);
        CHECK_ARRAY_EQ(xt::xarray<float>(h2), xt::xarray<float>(xt::view(ref, xt::range(10, 20))));
        // Reading to the host is not a write: allowed during read maps.
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    {
        // The same region mapped twice, the first view released first (a region can be unmapped
        // once only on some drivers: the views share one map).
        // (new from the prvalue: host views are neither copied nor moved)
        auto first = std::unique_ptr<ca::host_view<float, S>>(
            new ca::host_view<float, S>(a.map(ca::access::read)));
        auto second = a.map(ca::access::read);
        auto inner = a(ca::range(5, 7)).map(ca::access::read);
        first.reset();
        CHECK_ARRAY_EQ(xt::xarray<float>(second), ref);
        CHECK(inner(1, 2) == ref(6, 2));
    }
    // Every map is gone: a write map is allowed and its values reach the device.
    {
        auto w = a.map(ca::access::write);
        std::fill(w.begin(), w.end(), 2.5f);
    }
    CHECK(ca::sum(a).item() == Approx(2.5 * 40 * 30));
    CHECK(ca::current_allocation_stats().noexcept_failures == failures_before);
    if constexpr (std::is_same_v<S, ca::svm_fine>) {
        auto hv = a.map(ca::access::read_write);
        CHECK(hv.mapped_data() == a.svm_data());
        auto v = a(ca::range(3, 9), ca::range(5, 20, 5));
        auto hv2 = v.map(ca::access::read);
        CHECK(&hv2(0, 0) == v.svm_data());
    }
}

TEMPLATE_LIST_TEST_CASE("kernel launches while a host map is alive", "[host_view]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::program prog(test::ctx(), add_one_source);
    ca::kernel add_one = prog.kernel("add_one");
    ca::kernel read_sum = prog.kernel("read_sum");
    const std::size_t n = 1024;
    xt::xarray<float> ref = test::random_array<float>({n}, 250);
    auto a = ca::to_device<S>(test::q(), ref);
    constexpr bool fine = std::is_same_v<S, ca::svm_fine>; // fine SVM needs no map ordering

    {
        auto hv = a.map(ca::access::write);
        // access::write promises to overwrite every element (the old contents may be discarded,
        // as NVIDIA's CL_MAP_WRITE_INVALIDATE_REGION does).
        hv = ref;
        if constexpr (fine) {
            CHECK_NOTHROW(add_one(test::q(), {n}, a).wait());
            ref += 1.0f;
        } else {
            CHECK_THROWS_AS(add_one(test::q(), {n}, a), ca::usage_error);
            CHECK_THROWS_AS(add_one(test::q(), {n}, ca::in(a)), ca::usage_error);
            // A view of the same allocation is the same memory.
            CHECK_THROWS_AS(add_one(test::q(), {n / 2}, a(ca::range(0, n / 2))), ca::usage_error);
        }
    }
    // The view is gone: the launch works, and ran exactly once.
    CHECK_NOTHROW(add_one(test::q(), {n}, a));
    ref += 1.0f;
    CHECK_ARRAY_EQ(a.get(), ref);

    // A read_write map blocks launches as a write map does.
    {
        auto hv = a(ca::range(100, 200)).map(ca::access::read_write);
        if constexpr (!fine) CHECK_THROWS_AS(add_one(test::q(), {n}, a), ca::usage_error);
    }
    CHECK_NOTHROW(add_one(test::q(), {n}, a));
    ref += 1.0f;
    CHECK_ARRAY_EQ(a.get(), ref);

    // A read map blocks writers but not readers.
    auto out = ca::zeros<float, S>(test::q(), {1});
    {
        auto hv = a.map(ca::access::read);
        if constexpr (!fine) CHECK_THROWS_AS(add_one(test::q(), {n}, a), ca::usage_error);
        CHECK_NOTHROW(read_sum(test::q(), {1}, ca::in(a), ca::out(out), static_cast<cl_uint>(n)));
    }
    float want = 0.0f;
    for (std::size_t i = 0; i < n; ++i)
        want += ref(i);
    CHECK(out.get()(0) == Approx(want).epsilon(1e-5));
    CHECK_ARRAY_EQ(a.get(), ref);

    // Another array is not affected by a map of this one.
    auto b = ca::to_device<S>(test::q(), ref);
    {
        auto hv = a.map(ca::access::write);
        CHECK_NOTHROW(add_one(test::q(), {n}, b));
    }
    CHECK_ARRAY_EQ(b.get(), xt::xarray<float>(ref + 1.0f));
}

TEMPLATE_LIST_TEST_CASE("writes through a map are visible to a following kernel", "[host_view]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::program prog(test::ctx(), add_one_source);
    ca::kernel add_one = prog.kernel("add_one");
    const std::size_t n = 100000;
    xt::xarray<float> h = test::random_array<float>({n}, 260);
    auto a = ca::empty<float, S>(test::q(), {n});
    {
        auto hv = a.map(ca::access::write);
        hv = h;
    }
    add_one(test::q(), {n}, a);
    {
        auto hv = a.map(ca::access::read);
        CHECK_ARRAY_EQ(xt::xarray<float>(hv), xt::xarray<float>(h + 1.0f));
    }
    xt::xarray<float> h1 = h + 1.0f; // float rounding: (h + 1) + 1 is not always h + 2
    // And a map sees what a kernel wrote before it (without an explicit wait).
    add_one(test::q(), {n}, a);
    {
        auto hv = a(ca::range(ca::none, ca::none, -7)).map(ca::access::read);
        CHECK_ARRAY_EQ(
            xt::xarray<float>(hv),
            xt::xarray<float>(xt::view(xt::xarray<float>(h1 + 1.0f), xt::range(_, _, -7))));
    }
}
