// The fused expression engine: results equal the xtensor reference for every layout mix, one
// kernel per assignment, aliasing handled as NumPy does, scalars never baked into kernels.
#include "support.hpp"

#include <array>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "xtensor_headers.hpp"

#include "clarray/runtime/kernel_cache.hpp"

using catch_compat::Contains;

namespace {

// Device and host versions of the same view of a 2-d array, for each layout case.
enum class layout_case {
    c,
    f,
    strided,
    offset,
    transposed,
    reversed,
    broadcast_row,
    zero_d,
    empty
};
const layout_case all_cases[] = {
    layout_case::c,          layout_case::f,        layout_case::strided,       layout_case::offset,
    layout_case::transposed, layout_case::reversed, layout_case::broadcast_row, layout_case::zero_d,
    layout_case::empty};
const char* case_name(layout_case c) {
    switch (c) {
    case layout_case::c:
        return "C";
    case layout_case::f:
        return "F";
    case layout_case::strided:
        return "strided";
    case layout_case::offset:
        return "offset";
    case layout_case::transposed:
        return "transposed";
    case layout_case::reversed:
        return "negative steps";
    case layout_case::broadcast_row:
        return "broadcast row";
    case layout_case::zero_d:
        return "0-d";
    case layout_case::empty:
        return "zero-size";
    }
    return "?";
}

// An operand of case `c` with the case's shape (or broadcastable to it), plus its host twin.
template <class T, class S>
std::pair<ca::cl_array<T, S>, xt::xarray<T>> make_operand(layout_case c, unsigned seed) {
    ca::queue& q = test::q();
    switch (c) {
    case layout_case::c: {
        auto h = test::random_array<T>({6, 5}, seed);
        return {ca::to_device<S>(q, h), h};
    }
    case layout_case::f: {
        auto h = test::random_array<T>({6, 5}, seed);
        auto d = ca::empty<T, S>(q, {6, 5}, ca::layout::f);
        d.set(h);
        return {d, h};
    }
    case layout_case::strided: { // every other row and column of a 12x10 array
        auto h = test::random_array<T>({12, 10}, seed);
        auto d = ca::to_device<S>(q, h)(ca::range(0, 12, 2), ca::range(1, 10, 2));
        return {d, xt::view(h, xt::range(0, 12, 2), xt::range(1, 10, 2))};
    }
    case layout_case::offset: {
        auto h = test::random_array<T>({9, 8}, seed);
        auto d = ca::to_device<S>(q, h)(ca::range(2, 8), ca::range(3, 8));
        return {d, xt::view(h, xt::range(2, 8), xt::range(3, 8))};
    }
    case layout_case::transposed: {
        auto h = test::random_array<T>({5, 6}, seed);
        auto d = ca::to_device<S>(q, h).transpose();
        return {d, xt::transpose(h)};
    }
    case layout_case::reversed: {
        auto h = test::random_array<T>({6, 9}, seed);
        auto d =
            ca::to_device<S>(q, h)(ca::range(ca::none, ca::none, -1), ca::range(8, ca::none, -2));
        // rows 5..0, columns 8, 6, 4, 2, 0
        return {d, xt::view(xt::flip(xt::flip(h, 0), 1), xt::all(), xt::range(0, 9, 2))};
    }
    case layout_case::broadcast_row: {
        auto h = test::random_array<T>({5}, seed);
        return {ca::to_device<S>(q, h), h};
    }
    case layout_case::zero_d: {
        xt::xarray<T> h = test::random_array<T>({}, seed);
        return {ca::to_device<S>(q, h), h};
    }
    case layout_case::empty: {
        auto h = test::random_array<T>({0, 5}, seed);
        return {ca::to_device<S>(q, h), h};
    }
    }
    throw std::logic_error("case");
}

template <class T> void check_equal(const xt::xarray<T>& got, const xt::xarray<T>& expect) {
    REQUIRE(got.shape() == expect.shape());
    if constexpr (std::is_floating_point_v<T>)
        CHECK(xt::allclose(got, expect, 1e-5, 1e-5));
    else
        CHECK((got == expect));
}

} // namespace

TEMPLATE_LIST_TEST_CASE("elementwise results equal xtensor for every layout mix", "[expr]",
                        CLARRAY_DTYPE_THIRD(0)) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    for (layout_case ca_ : all_cases)
        for (layout_case cb : {layout_case::c, layout_case::f, layout_case::strided,
                               layout_case::reversed, layout_case::broadcast_row}) {
            if ((ca_ == layout_case::zero_d || ca_ == layout_case::empty) && cb != layout_case::c)
                continue;
            layout_case cb2 = (ca_ == layout_case::zero_d || ca_ == layout_case::empty) ? ca_ : cb;
            INFO("a: " << case_name(ca_) << ", b: " << case_name(cb2));
            auto [a, ha] = make_operand<T, S>(ca_, 1);
            auto [b, hb] = make_operand<T, S>(cb2, 2);
            auto target = ca::broadcast_shapes(a.shape(), b.shape());
            std::uint64_t before = ca::kernel_launch_count();
            if constexpr (std::is_same_v<T, bool>) {
                ca::cl_array<bool, S> r = (a & b) | !a;
                std::uint64_t launches = ca::kernel_launch_count() - before;
                xt::xarray<bool> expect = (ha && hb) || !ha;
                check_equal<bool>(r.get(), xt::xarray<bool>(xt::broadcast(expect, target)));
                CHECK(launches == (r.size() ? 1u : 0u));
            } else {
                // One fused kernel for a three-node expression with a scalar.
                ca::cl_array<T, S> r = a * b + T(3);
                std::uint64_t launches = ca::kernel_launch_count() - before;
                xt::xarray<T> expect = xt::broadcast(xt::xarray<T>(ha * hb + T(3)), target);
                // Host arithmetic promotes narrow ints to int: bring it back to T (wraps, as
                // NumPy).
                check_equal<T>(r.get(), xt::xarray<T>(xt::cast<T>(expect)));
                CHECK(launches == (r.size() ? 1u : 0u));
                // Write into a strided, offset output view.
                if (target.size() == 2 && target[0] == 6) {
                    auto big = ca::zeros<T, S>(test::q(), {8, 12});
                    auto out = big(ca::range(1, 7), ca::range(10, 0, -2));
                    out = a - b;
                    xt::xarray<T> hbig = xt::zeros<T>({8, 12});
                    xt::view(hbig, xt::range(1, 7), xt::range(10, 0, -2)) =
                        xt::cast<T>(xt::xarray<T>(ha - hb) + xt::zeros<T>(target));
                    check_equal<T>(big.get(), hbig);
                }
            }
        }
}

TEMPLATE_LIST_TEST_CASE("three-operand mixed layouts and broadcasting", "[expr]",
                        test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    auto hc = test::random_array<float>({4, 1, 6}, 3);
    auto hr = test::random_array<float>({5, 1}, 4);
    auto hm = test::random_array<float>({6, 5, 4}, 5);
    auto col = ca::to_device<S>(q, hc);
    auto row = ca::to_device<S>(q, hr);
    auto m = ca::to_device<S>(q, hm).transpose(); // (4, 5, 6), F-ordered
    ca::cl_array<float, S> r = col * row + ca::sin(m);
    xt::xarray<float> expect = hc * hr + xt::sin(xt::transpose(hm));
    check_equal<float>(r.get(), expect);
    REQUIRE_THROWS_AS(
        (ca::cl_array<float, S>(col + ca::to_device<S>(q, test::random_array<float>({7}, 1)))),
        ca::shape_error);
}

TEMPLATE_LIST_TEST_CASE("aliasing: in place and overlapping views", "[expr]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    const std::size_t n = 1000;
    auto ha = test::random_array<float>({n}, 6), hb = test::random_array<float>({n}, 7);
    auto a = ca::to_device<S>(q, ha), b = ca::to_device<S>(q, hb);

    // Same-index aliasing is safe in one kernel.
    std::uint64_t before = ca::kernel_launch_count();
    a = a * 2.0f + b;
    CHECK(ca::kernel_launch_count() - before == 1);
    xt::xarray<float> ea = ha * 2.0f + hb;
    check_equal<float>(a.get(), ea);

    // Shifted overlap: as if the right side were read first (NumPy semantics).
    a(ca::range(1, n)) = a(ca::range(0, n - 1)) + 1.0f;
    xt::xarray<float> shifted = ea;
    xt::view(shifted, xt::range(1, n)) = xt::view(ea, xt::range(0, n - 1)) + 1.0f;
    check_equal<float>(a.get(), shifted);
    a(ca::range(0, n - 1)) = a(ca::range(1, n)) * 1.0f;
    xt::xarray<float> back = shifted;
    xt::view(back, xt::range(0, n - 1)) = xt::eval(xt::view(shifted, xt::range(1, n)));
    check_equal<float>(a.get(), back);

    // Transposing in place.
    auto hs = test::random_array<float>({17, 17}, 8);
    auto s = ca::to_device<S>(q, hs);
    s = ca::transpose(s) + 0.0f;
    check_equal<float>(s.get(), xt::xarray<float>(xt::transpose(hs)));
    // x = y element copy with reversal of the same array.
    auto r = ca::to_device<S>(q, ha);
    r = r(ca::range(ca::none, ca::none, -1));
    check_equal<float>(r.get(), xt::xarray<float>(xt::flip(ha, 0)));
}

TEMPLATE_LIST_TEST_CASE("compound assignment and tie", "[expr]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    auto ha = test::random_array<float>({50, 3}, 9), hb = test::random_array<float>({3}, 10);
    auto a = ca::to_device<S>(q, ha), b = ca::to_device<S>(q, hb);
    xt::xarray<float> e = ha;
    std::uint64_t before = ca::kernel_launch_count();
    a += b;
    a *= 2.0f;
    a -= ca::cos(b);
    a /= 4.0f;
    CHECK(ca::kernel_launch_count() - before == 4);
    e = (((e + hb) * 2.0f) - xt::cos(hb)) / 4.0f;
    check_equal<float>(a.get(), e);

    auto hi = test::random_array<int>({64}, 11);
    auto i = ca::to_device<S>(q, hi);
    i <<= 2;
    i %= 7;
    xt::xarray<int> ei = hi * 4;
    for (auto& v : ei)
        v = ((v % 7) + 7) % 7; // Python modulo with a positive divisor
    check_equal<int>(i.get(), ei);

    auto x = ca::zeros<float, S>(q, {50, 3}), y = ca::zeros<float, S>(q, {50, 3});
    before = ca::kernel_launch_count();
    ca::tie(x, y) = std::make_tuple(a + b, a * b);
    CHECK(ca::kernel_launch_count() - before == 1);
    check_equal<float>(x.get(), xt::xarray<float>(e + hb));
    check_equal<float>(y.get(), xt::xarray<float>(e * hb));
}

TEMPLATE_LIST_TEST_CASE("an operand used several times is one kernel argument", "[expr]",
                        test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    const std::size_t n = 300;
    auto hx = test::random_array<float>({n}, 21), hy = test::random_array<float>({n}, 22),
         hz = test::random_array<float>({n}, 23);
    auto x = ca::to_device<S>(q, hx), y = ca::to_device<S>(q, hy), z = ca::to_device<S>(q, hz);

    // The map: array terminals in visit order, each pointing at its first equal terminal.
    using map = std::vector<std::uint8_t>;
    CHECK(ca::detail::describe(x * x + y * x).sharing() == map{0, 0, 2, 0});
    CHECK(ca::detail::describe(x * y + z * x).sharing() == map{0, 1, 2, 0});
    CHECK(ca::detail::describe(x * y + z).sharing().empty());
    // Views of one allocation at other offsets or steps are other operands.
    auto head = x(ca::range(0, n - 1)), tail = x(ca::range(1, n));
    CHECK(ca::detail::describe(head * tail).sharing().empty());
    CHECK(ca::detail::describe(head * x(ca::range(0, n - 1))).sharing() == map{0, 0});
    CHECK(ca::detail::sharing_key(map{0, 0}) != 0);
    CHECK(ca::detail::sharing_key(map{0, 0, 2, 0}) != ca::detail::sharing_key(map{0, 1, 2, 0}));

    // One expression type under three sharing patterns: each has a kernel of its own (a kernel
    // built for one would take the wrong number of arguments for another).
    auto check = [&](const ca::cl_array<float, S>& a, const ca::cl_array<float, S>& b,
                     const ca::cl_array<float, S>& c, const ca::cl_array<float, S>& d) {
        ca::cl_array<float, S> r = a * b + c * d;
        xt::xarray<float> expect = a.get() * b.get() + c.get() * d.get();
        check_equal<float>(r.get(), expect);
        // The reductions share operands the same way.
        const double total = ca::sum(a * b + c * d).item();
        const double host = xt::sum(xt::xarray<double>(expect))();
        CHECK(std::abs(total - host) <= 1e-4 * (1.0 + xt::sum(xt::abs(expect))()));
    };
    check(x, x, y, x);
    check(x, y, y, x);
    check(x, y, z, x);
    check(x, y, z, y);

    // Output among the shared inputs: one kernel, as if every input were read first.
    const std::uint64_t before = ca::kernel_launch_count();
    x = x * x + x;
    CHECK(ca::kernel_launch_count() - before == 1);
    check_equal<float>(x.get(), xt::xarray<float>(hx * hx + hx));
    // A shifted view of the output is not shared: it goes through a temporary.
    x = ca::to_device<S>(q, hx);
    x(ca::range(1, n)) = x(ca::range(0, n - 1)) * x(ca::range(0, n - 1));
    xt::xarray<float> shifted = hx;
    xt::view(shifted, xt::range(1, n)) =
        xt::eval(xt::view(hx, xt::range(0, n - 1)) * xt::view(hx, xt::range(0, n - 1)));
    check_equal<float>(x.get(), shifted);
}

TEST_CASE("scalars are kernel arguments: one kernel for all values", "[expr]") {
    ca::queue& q = test::q();
    auto a = ca::arange<float, ca::buffer>(q, 0.0f, 100.0f);
    ca::cl_array<float, ca::buffer> r = a * 2.0f; // builds (or reuses) the kernel
    const std::size_t cached = ca::detail::cached_kernel_count(test::ctx());
    for (float s : {3.0f, -1.5f, 1e6f}) {
        r = a * s;
        check_equal<float>(r.get(), xt::xarray<float>(xt::arange<float>(0.0f, 100.0f) * s));
    }
    CHECK(ca::detail::cached_kernel_count(test::ctx()) == cached);
}

TEST_CASE("2^24+1 elements: 64-bit index math reaches the last one", "[expr]") {
    ca::queue& q = test::q();
    const std::size_t n = (std::size_t(1) << 24) + 1;
    auto a = ca::zeros<float, ca::buffer>(q, {n});
    a = a + 1.0f;
    auto h = a.get();
    CHECK(h(n - 1) == 1.0f);
    CHECK(h(n - 2) == 1.0f);
    CHECK(xt::sum(h)() == Approx(double(n)));
}

TEST_CASE("32-bit index math only where the count and every reachable offset fit", "[expr]") {
    namespace cd = ca::detail;
    const auto view = [](ca::strides_type strides, std::ptrdiff_t offset) {
        return cd::operand_view{std::move(strides), offset, nullptr, nullptr, nullptr};
    };
    const std::ptrdiff_t max = (std::ptrdiff_t(1) << 31) - 1; // the largest int
    const std::size_t big = std::size_t(max);
    // The element count: 2^31 - 1 elements fit, 2^31 do not.
    CHECK(cd::fits_index32({1000}, {view({1}, 0), view({1}, 0)}));
    CHECK(cd::fits_index32({big}, {view({1}, 0)}));
    CHECK_FALSE(cd::fits_index32({big + 1}, {view({1}, 0)}));
    CHECK_FALSE(cd::fits_index32({std::size_t(1) << 16, std::size_t(1) << 15}, {view({1, 1}, 0)}));
    // An offset: the last element at 2^31 - 1 fits, one further does not.
    CHECK(cd::fits_index32({10}, {view({1}, 0), view({1}, max - 9)}));
    CHECK_FALSE(cd::fits_index32({10}, {view({1}, 0), view({1}, max - 8)}));
    // Strides: 3 x 4 reaches 2 * s0 + 3, with s0 = 2^30 - 2 the largest int, with 2^30 - 1 past it.
    const std::ptrdiff_t half = std::ptrdiff_t(1) << 30;
    CHECK(cd::fits_index32({3, 4}, {view({4, 1}, 0), view({half - 2, 1}, 0)}));
    CHECK_FALSE(cd::fits_index32({3, 4}, {view({4, 1}, 0), view({half - 1, 1}, 0)}));
    // Negative strides reach down from the offset (a reversed view of 2^31 - 1 elements fits);
    // below -2^31 does not.
    CHECK(cd::fits_index32({big}, {view({1}, 0), view({-1}, max - 1)}));
    CHECK(cd::fits_index32({3}, {view({-half}, 0)}));
    CHECK_FALSE(cd::fits_index32({3}, {view({-half - 1}, 0)}));
    // A broadcast input (stride 0) reaches only its offset; a zero-size iteration reaches nothing.
    CHECK(cd::fits_index32({std::size_t(1) << 16, std::size_t(1) << 14},
                           {view({std::ptrdiff_t(1) << 14, 1}, 0), view({0, 1}, max - (1 << 14))}));
    CHECK(cd::fits_index32({0, std::size_t(1) << 40}, {view({0, 1}, max)}));

    // The plan takes 32-bit row arithmetic in the 2-d shapes (here a row kernel over 2 x 5
    // views of 2 x 6 arrays, reaching offset + 10) where the table allows and the operands fit,
    // and caches the two kernels apart (the signature differs); flat kernels index in 64 bits.
    const ca::device& dev = test::ctx().device();
    std::vector<cd::operand_view> near{view({6, 1}, 0), view({6, 1}, max - 10)};
    std::vector<cd::operand_view> far{view({6, 1}, 0), view({6, 1}, max - 9)};
    std::vector<cd::operand_view> flat{view({1}, 0), view({1}, 0)};
    cd::assign_plan fits, does_not, contiguous;
    cd::plan_assignment({2, 5}, near, 1, 0, cd::vector_path::none, dev, fits);
    cd::plan_assignment({2, 5}, far, 1, 0, cd::vector_path::none, dev, does_not);
    cd::plan_assignment({10}, flat, 1, 0, cd::vector_path::none, dev, contiguous);
    REQUIRE(fits.rows);
    REQUIRE(does_not.rows);
    CHECK(fits.index32 == dev.tuning().index32);
    CHECK_FALSE(does_not.index32);
    CHECK((fits.signature != does_not.signature) == dev.tuning().index32);
    CHECK_FALSE(contiguous.index32);
}

namespace {
// A queue of a context on the test device whose device object reads CLARRAY_INDEX32 = on, with
// the test context's options (one per value for the process).
ca::queue& queue_with_index32(bool on) {
    static std::map<bool, std::unique_ptr<ca::queue>> made;
    auto& slot = made[on];
    if (!slot) {
        const ca::context& base = test::ctx(); // made first: it must not see the override
        const char* old = std::getenv("CLARRAY_INDEX32");
        const std::string saved = old ? old : "";
        ::setenv("CLARRAY_INDEX32", on ? "1" : "0", 1);
        ca::device dev(base.device().id());
        if (old)
            ::setenv("CLARRAY_INDEX32", saved.c_str(), 1);
        else
            ::unsetenv("CLARRAY_INDEX32");
        slot = std::make_unique<ca::queue>(ca::context(dev, base.options()));
    }
    return *slot;
}
} // namespace

TEST_CASE("32- and 64-bit row arithmetic give the same results in the 2-d kernel shapes",
          "[expr]") {
    // The test context indexes as its table says; a second context on the same device the other
    // way. Strided rank 2 with negative steps, strided rank 3 (the row index unravelled), rows
    // of rank 2 with an inner broadcast, rows of rank 3, and rows of rank 3 on vector types
    // (a math function: CPUs).
    const bool other = !test::ctx().device().tuning().index32;
    ca::queue& q = queue_with_index32(other);
    REQUIRE(q.context().device().tuning().index32 == other);
    const xt::xarray<float> h = test::random_array<float>({12, 10}, 7);
    const xt::xarray<float> g = test::random_array<float>({12, 10}, 8);
    const auto a = ca::to_device<ca::buffer>(q, h);
    const auto b = ca::to_device<ca::buffer>(q, g);

    ca::cl_array<float, ca::buffer> reversed =
        a(ca::range(ca::none, ca::none, -1), ca::range(8, ca::none, -2)) -
        b(ca::range(0, 12), ca::range(0, 5));
    check_equal<float>(reversed.get(), xt::xarray<float>(xt::view(xt::flip(xt::flip(h, 0), 1),
                                                                  xt::all(), xt::range(1, 10, 2)) -
                                                         xt::view(g, xt::all(), xt::range(0, 5))));

    const auto a3 = a.reshape({3, 4, 10});
    const auto h3 = xt::reshape_view(h, {3, 4, 10});
    ca::cl_array<float, ca::buffer> transposed = a3.transpose() + 1.0f;
    check_equal<float>(transposed.get(), xt::xarray<float>(xt::transpose(h3) + 1.0f));

    ca::cl_array<float, ca::buffer> rows = a - b(ca::all(), ca::range(0, 1));
    check_equal<float>(rows.get(), xt::xarray<float>(h - xt::view(g, xt::all(), xt::range(0, 1))));

    ca::cl_array<float, ca::buffer> rows3 = a3(ca::all(), ca::all(), ca::range(1, 10)) * 2.0f;
    check_equal<float>(
        rows3.get(),
        xt::xarray<float>(xt::view(h3, xt::all(), xt::all(), xt::range(1, 10)) * 2.0f));

    ca::cl_array<float, ca::buffer> vector3 = ca::sin(a3(ca::all(), ca::all(), ca::range(0, 9)));
    check_equal<float>(vector3.get(), xt::xarray<float>(xt::sin(
                                          xt::view(h3, xt::all(), xt::all(), xt::range(0, 9)))));
}

TEST_CASE("strided launches past 65535 groups along the outer dimensions", "[expr]") {
    // A (n, 2) transposed view: 2 inner positions per group row, so the outer positions need
    // more than 65535 groups and spill into the third launch dimension.
    ca::queue& q = test::q();
    const std::size_t n = 9000000;
    xt::xarray<float> h = xt::arange<float>(0.0f, float(2 * n)).reshape({2, n});
    auto a = ca::to_device<ca::buffer>(q, h);
    auto at = a.transpose(); // shape (n, 2), strides (1, n)
    ca::cl_array<float, ca::buffer> c = at * 2.0f + 1.0f;
    REQUIRE(c.shape() == std::vector<std::size_t>{n, 2});
    auto got = c.get();
    xt::xarray<float> want = xt::transpose(h) * 2.0f + 1.0f;
    CHECK((got == want));
    // A rank-3 transposed view: the outer index is unravelled in the kernel.
    auto a3 = a.reshape({2, 3, n / 3});
    ca::cl_array<float, ca::buffer> c3 = a3.transpose() - 1.0f;
    xt::xarray<float> h3 = xt::reshape_view(h, std::vector<std::size_t>{2, 3, n / 3});
    xt::xarray<float> want3 = xt::transpose(h3) - 1.0f;
    CHECK((c3.get() == want3));
}

namespace {
template <class A, std::size_t... I>
auto sum_all(const std::vector<A>& v, std::index_sequence<I...>) {
    return (v[I] + ...);
}
} // namespace

TEST_CASE("very wide expressions pass their layout in a buffer", "[expr]") {
    ca::queue& q = test::q();
    constexpr std::size_t k = 40;
    std::vector<ca::cl_array<float, ca::buffer>> ops;
    xt::xarray<float> expect = xt::zeros<float>({9, 7});
    for (std::size_t i = 0; i < k; ++i) {
        auto h = test::random_array<float>({9, 14}, static_cast<unsigned>(i));
        ops.push_back(ca::to_device<ca::buffer>(q, h)(ca::all(), ca::range(0, 14, 2)));
        expect += xt::view(h, xt::all(), xt::range(0, 14, 2));
    }
    ca::cl_array<float, ca::buffer> r = sum_all(ops, std::make_index_sequence<k>{});
    check_equal<float>(r.get(), expect);
}

TEST_CASE("mixed storage policies in one expression", "[expr]") {
    if (!test::storage_available<ca::svm_coarse>()) return;
    ca::queue& q = test::q();
    auto ha = test::random_array<float>({300}, 1), hb = test::random_array<float>({300}, 2);
    auto a = ca::to_device<ca::svm_coarse>(q, ha);
    auto b = ca::to_device<ca::buffer>(q, hb);
    ca::cl_array<float, ca::buffer> r = a * b;
    check_equal<float>(r.get(), xt::xarray<float>(ha * hb));
}

TEST_CASE("concurrent launches from several threads", "[expr]") {
    ca::queue& q = test::q();
    auto ha = test::random_array<float>({4096}, 3);
    auto a = ca::to_device<ca::buffer>(q, ha);
    std::vector<std::thread> threads;
    std::array<bool, 4> ok{};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            ca::queue mine(test::ctx());
            auto r = ca::zeros<float, ca::buffer>(mine, {4096});
            for (int i = 0; i < 50; ++i)
                r = a.with_queue(mine) * float(t) + float(i);
            xt::xarray<float> e = ha * float(t) + 49.0f;
            ok[t] = xt::allclose(r.get(), e);
        });
    for (auto& th : threads)
        th.join();
    for (bool b : ok)
        CHECK(b);
}

TEST_CASE("expression errors", "[expr]") {
    ca::queue& q = test::q();
    auto a = ca::zeros<float, ca::buffer>(q, {4, 3});
    auto b = ca::zeros<float, ca::buffer>(q, {4});
    REQUIRE_THROWS_WITH(a = a + b, Contains("broadcast"));
    ca::context other(test::ctx().device());
    ca::queue q2(other);
    auto c = ca::zeros<float, ca::buffer>(q2, {4, 3});
    REQUIRE_THROWS_AS(a = a + c, ca::usage_error);
    auto mapped = ca::zeros<float, ca::buffer>(q, {4, 3});
    {
        auto hv = mapped.map(ca::access::read_write);
        REQUIRE_THROWS_WITH(mapped = a + 1.0f, Contains("host write map"));
    }
    mapped = a + 1.0f;
    CHECK((mapped.get() == xt::ones<float>({4, 3})));
}
