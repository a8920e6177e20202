// Views (operator() with range/all/newaxis/ellipsis/indices, transpose, reshape, ravel, squeeze)
// and element writes through them (set, fill, copy, `x = y`), each checked against the same view
// taken with xtensor on the host copy of the data.
#include "support.hpp"

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "xtensor_headers.hpp"

using namespace xt::placeholders; // xt::range(_, stop, step)

namespace {

template <class T, class S> std::string cfg_name() {
    return std::string(ca::dtype_name(ca::dtype_traits<T>::id)) + "/" + S::name;
}

template <class Sh> ca::shape_type as_shape(const Sh& s) {
    return ca::shape_type(s.begin(), s.end());
}

// v.get() equals the xtensor expression xv (evaluated on the host).
template <class A, class X> void check_view(const A& v, const X& xv, const char* desc) {
    INFO(desc);
    xt::xarray<typename A::value_type> want = xv;
    REQUIRE(v.shape() == as_shape(want.shape()));
    CHECK(v.size() == want.size());
    CHECK(v.dimension() == want.dimension());
    CHECK_ARRAY_EQ(v.get(), want);
}
#define VIEW_CASE(ca_view, xt_view) check_view(ca_view, xt_view, #ca_view)

template <class T> T other_value() {
    if constexpr (std::is_same_v<T, bool>)
        return true;
    else if constexpr (std::is_floating_point_v<T>)
        return T(123.25);
    else
        return T(117);
}

// ---- random views: the same view arguments for clarray and for xt::strided_view ----

struct view_spec {
    std::vector<ca::slice_arg> ca_args;
    xt::xstrided_slice_vector xt_args;
    std::string text;
};

template <class A> A apply_spec(const A& a, const std::vector<ca::slice_arg>& s) {
    switch (s.size()) {
    case 0:
        return a();
    case 1:
        return a(s[0]);
    case 2:
        return a(s[0], s[1]);
    case 3:
        return a(s[0], s[1], s[2]);
    case 4:
        return a(s[0], s[1], s[2], s[3]);
    case 5:
        return a(s[0], s[1], s[2], s[3], s[4]);
    case 6:
        return a(s[0], s[1], s[2], s[3], s[4], s[5]);
    case 7:
        return a(s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
    case 8:
        return a(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
    case 9:
        return a(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]);
    case 10:
        return a(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9]);
    case 11:
        return a(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10]);
    default:
        FAIL("too many view arguments in the test generator");
        return a;
    }
}

// The number of elements Python's a[start:stop:step] selects from n (slice.indices, then count).
long python_slice_length(long n, bool has_start, long start, bool has_stop, long stop, long step) {
    auto norm = [&](bool has, long v, long dflt, long lo, long hi) {
        if (!has) return dflt;
        if (v < 0) v += n;
        return std::min(std::max(v, lo), hi);
    };
    long b = step > 0 ? norm(has_start, start, 0, 0, n) : norm(has_start, start, n - 1, -1, n - 1);
    long e = step > 0 ? norm(has_stop, stop, n, 0, n) : norm(has_stop, stop, -1, -1, n - 1);
    long count = 0;
    for (long i = b; step > 0 ? i < e : i > e; i += step)
        ++count;
    return count;
}

class view_generator {
public:
    explicit view_generator(unsigned seed) : rng_(seed) {}

    // A random, valid (in-range) view of an array of `shape`.
    view_spec make(const ca::shape_type& shape) {
        view_spec v;
        const std::size_t nd = shape.size();
        std::size_t consumed = pick(0, static_cast<long>(nd));
        bool use_ellipsis = coin(0.3);
        std::size_t ell_pos = use_ellipsis ? pick(0, static_cast<long>(consumed)) : consumed + 1;
        std::size_t axis = 0;
        for (std::size_t k = 0; k <= consumed; ++k) {
            // (newaxis only while the argument list stays short: at most 11 arguments)
            if (coin(0.15) && v.ca_args.size() + (consumed - k) < 9) add_newaxis(v);
            if (use_ellipsis && k == ell_pos) {
                v.ca_args.push_back(ca::slice_arg(ca::ellipsis()));
                v.xt_args.push_back(xt::ellipsis());
                v.text += "..., ";
                axis += nd - consumed;
            }
            if (k == consumed) break;
            add_axis(v, shape[axis++]);
        }
        if (coin(0.1) && v.ca_args.size() < 11) add_newaxis(v);
        return v;
    }

private:
    std::mt19937 rng_;
    long pick(long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng_); }
    bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

    void add_newaxis(view_spec& v) {
        v.ca_args.push_back(ca::slice_arg(ca::newaxis()));
        v.xt_args.push_back(xt::newaxis());
        v.text += "newaxis, ";
    }
    void add_axis(view_spec& v, std::size_t extent) {
        const long n = static_cast<long>(extent);
        double r = std::uniform_real_distribution<double>(0, 1)(rng_);
        if (r < 0.2 && n > 0) {
            long i = pick(-n, n - 1); // negative counts from the end
            v.ca_args.push_back(ca::slice_arg(i));
            v.xt_args.push_back(static_cast<std::ptrdiff_t>(i < 0 ? i + n : i));
            v.text += std::to_string(i) + ", ";
            return;
        }
        if (r < 0.35) {
            v.ca_args.push_back(ca::slice_arg(ca::all()));
            v.xt_args.push_back(xt::all());
            v.text += ":, ";
            return;
        }
        static const long steps[] = {-3, -2, -1, 1, 1, 1, 2, 3, 7};
        long step = steps[pick(0, 8)];
        // In-range bounds (clarray rejects what Python would clamp): [-n, n] for positive steps;
        // for negative steps [-n-1, n-1] (-n-1 means "before the first element").
        long lo = step > 0 ? -n : -n - 1, hi = step > 0 ? n : n - 1;
        bool has_start = !coin(0.25), has_stop = !coin(0.25);
        long start = pick(lo, hi), stop = pick(lo, hi);
        ca::range_bound b0 = has_start ? ca::range_bound(start) : ca::range_bound(ca::none);
        ca::range_bound b1 = has_stop ? ca::range_bound(stop) : ca::range_bound(ca::none);
        v.ca_args.push_back(ca::slice_arg(ca::range(b0, b1, step)));
        std::ptrdiff_t s0 = start, s1 = stop, st = step;
        if (python_slice_length(n, has_start, start, has_stop, stop, step) == 0)
            v.xt_args.push_back(xt::range(0, 0)); // xtensor 0.24 mis-sizes empty stepped ranges
        else if (has_start && has_stop)
            v.xt_args.push_back(xt::range(s0, s1, st));
        else if (has_start)
            v.xt_args.push_back(xt::range(s0, _, st));
        else if (has_stop)
            v.xt_args.push_back(xt::range(_, s1, st));
        else
            v.xt_args.push_back(xt::range(_, _, st));
        v.text += (has_start ? std::to_string(start) : std::string()) + ":" +
                  (has_stop ? std::to_string(stop) : std::string()) + ":" + std::to_string(step) +
                  ", ";
    }
};

} // namespace

// ---------------------------------------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("views with ranges / indices / newaxis / ellipsis equal xtensor's",
                        "[views]", CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));

    xt::xarray<T> r = test::random_array<T>({7, 9}, 101);
    auto a = ca::to_device<S>(test::q(), r);
    const std::size_t n0 = r.shape()[0], n1 = r.shape()[1];

    VIEW_CASE(a(), r);
    VIEW_CASE(a(ca::range(1, 5)), xt::view(r, xt::range(1, 5)));
    VIEW_CASE(a(ca::range(1, 5), ca::range(2, 8, 3)),
              xt::view(r, xt::range(1, 5), xt::range(2, 8, 3)));
    VIEW_CASE(a(ca::range(-5, -1)), xt::view(r, xt::range(-5, -1)));
    VIEW_CASE(a(ca::range(ca::none, 4)), xt::view(r, xt::range(_, 4)));
    VIEW_CASE(a(ca::range(3, ca::none)), xt::view(r, xt::range(3, _)));
    VIEW_CASE(a(ca::all(), ca::range(ca::none, ca::none, 2)),
              xt::view(r, xt::all(), xt::range(_, _, 2)));
    VIEW_CASE(a(ca::range(ca::none, ca::none, -1)), xt::view(r, xt::range(_, _, -1)));
    VIEW_CASE(a(ca::range(5, 1, -2), ca::range(ca::none, ca::none, -1)),
              xt::view(r, xt::range(5, 1, -2), xt::range(_, _, -1)));
    VIEW_CASE(a(ca::range(-1, ca::none, -3), ca::range(ca::none, 2, -1)),
              xt::view(r, xt::range(-1, _, -3), xt::range(_, 2, -1)));
    VIEW_CASE(a(ca::range(-2, -6, -1)), xt::view(r, xt::range(-2, -6, -1)));
    VIEW_CASE(a(ca::range(ca::none, -8, -1)), xt::view(r, xt::range(_, -8, -1))); // down to row 0
    VIEW_CASE(a(ca::range(0, 7, 10)), xt::view(r, xt::range(0, 7, 10)));
    VIEW_CASE(a(ca::range(1, 7, 4), ca::range(8, -10, -4)),
              xt::view(r, xt::range(1, 7, 4), xt::range(8, -10, -4)));
    // Empty ranges.
    VIEW_CASE(a(ca::range(3, 3)), xt::view(r, xt::range(3, 3)));
    VIEW_CASE(a(ca::range(5, 2)), xt::view(r, xt::range(5, 2)));
    // (xtensor 0.24 gives empty *stepped* ranges a negative extent; an empty xt::range stands in.)
    VIEW_CASE(a(ca::range(2, 5, -1)), xt::view(r, xt::range(0, 0)));
    VIEW_CASE(a(ca::all(), ca::range(1, 0, 2)), xt::view(r, xt::all(), xt::range(0, 0)));
    VIEW_CASE(a(ca::all(), ca::range(9, ca::none)), xt::view(r, xt::all(), xt::range(9, _)));
    // Integer indices (negative ones count from the end).
    VIEW_CASE(a(2), xt::view(r, 2));
    VIEW_CASE(a(-1), xt::view(r, n0 - 1));
    VIEW_CASE(a(ca::all(), 3), xt::view(r, xt::all(), 3));
    VIEW_CASE(a(ca::range(ca::none, ca::none, -2), -9), xt::view(r, xt::range(_, _, -2), n1 - 9));
    VIEW_CASE(a(1, 2), xt::view(r, 1, 2));   // 0-d
    VIEW_CASE(a(-7, -9), xt::view(r, 0, 0)); // 0-d, first element
    VIEW_CASE(a(-1, -1), xt::view(r, n0 - 1, n1 - 1));
    // newaxis and ellipsis.
    VIEW_CASE(a(ca::newaxis()), xt::view(r, xt::newaxis()));
    VIEW_CASE(a(ca::newaxis(), ca::all(), ca::newaxis()),
              xt::view(r, xt::newaxis(), xt::all(), xt::newaxis()));
    VIEW_CASE(a(ca::all(), ca::all(), ca::newaxis()),
              xt::view(r, xt::all(), xt::all(), xt::newaxis()));
    VIEW_CASE(a(3, ca::newaxis(), ca::range(1, 7, 2)),
              xt::view(r, 3, xt::newaxis(), xt::range(1, 7, 2)));
    VIEW_CASE(a(ca::ellipsis()), xt::strided_view(r, {xt::ellipsis()}));
    VIEW_CASE(a(ca::ellipsis(), 4), xt::strided_view(r, {xt::ellipsis(), 4}));
    VIEW_CASE(a(2, ca::ellipsis()), xt::strided_view(r, {2, xt::ellipsis()}));
    VIEW_CASE(a(2, ca::ellipsis(), 4), xt::strided_view(r, {2, xt::ellipsis(), 4}));
    VIEW_CASE(a(ca::ellipsis(), ca::newaxis()),
              xt::strided_view(r, {xt::ellipsis(), xt::newaxis()}));
    VIEW_CASE(a(ca::newaxis(), ca::ellipsis(), ca::range(ca::none, ca::none, -3)),
              xt::strided_view(r, {xt::newaxis(), xt::ellipsis(), xt::range(_, _, -3)}));

    // Views are views: same storage.
    CHECK(a(ca::range(1, 5), 2).data() == a.data());
    CHECK(a(ca::range(ca::none, ca::none, -1)).data() == a.data());

    // 3-d, and views of views.
    xt::xarray<T> r3 = test::random_array<T>({4, 5, 6}, 102);
    auto b = ca::to_device<S>(test::q(), r3);
    VIEW_CASE(b(ca::ellipsis(), ca::range(1, 4)),
              xt::strided_view(r3, {xt::ellipsis(), xt::range(1, 4)}));
    VIEW_CASE(b(1, ca::ellipsis(), ca::range(ca::none, ca::none, -2)),
              xt::strided_view(r3, {1, xt::ellipsis(), xt::range(_, _, -2)}));
    VIEW_CASE(b(ca::range(ca::none, ca::none, -1), ca::newaxis(), 2, ca::range(1, ca::none, 2)),
              xt::view(r3, xt::range(_, _, -1), xt::newaxis(), 2, xt::range(1, _, 2)));
    VIEW_CASE(b(ca::newaxis(), ca::ellipsis(), ca::newaxis()),
              xt::strided_view(r3, {xt::newaxis(), xt::ellipsis(), xt::newaxis()}));
    VIEW_CASE(b(ca::all(), 2), xt::view(r3, xt::all(), 2));
    VIEW_CASE(b(3, 4, 5), xt::view(r3, 3, 4, 5));
    {
        xt::xarray<T> s1 = xt::view(r3, xt::range(1, 4));
        xt::xarray<T> s2 = xt::view(s1, xt::all(), xt::range(4, 0, -1));
        VIEW_CASE(b(ca::range(1, 4))(ca::all(),
                                     ca::range(4, 0, -1))(ca::range(ca::none, ca::none, -1), 2),
                  xt::view(s2, xt::range(_, _, -1), 2));
        VIEW_CASE(b(ca::range(1, 4))(ca::all(), ca::range(4, 0, -1)), s2);
    }
    VIEW_CASE(b.transpose()(ca::range(1, 5), 2),
              xt::view(xt::xarray<T>(xt::transpose(r3)), xt::range(1, 5), 2));
    VIEW_CASE(
        b(ca::range(ca::none, ca::none, -1)).transpose({2, 0, 1})(ca::range(ca::none, ca::none, 2)),
        xt::view(xt::xarray<T>(
                     xt::transpose(xt::xarray<T>(xt::view(r3, xt::range(_, _, -1))), {2, 0, 1})),
                 xt::range(_, _, 2)));

    // 0-d and zero-size arrays.
    xt::xarray<T> r0 = test::random_array<T>(ca::shape_type{}, 103);
    auto z = ca::to_device<S>(test::q(), r0);
    VIEW_CASE(z(), r0);
    VIEW_CASE(z(ca::newaxis()), xt::strided_view(r0, {xt::newaxis()}));
    VIEW_CASE(z(ca::ellipsis()), r0);
    xt::xarray<T> re = xt::xarray<T>::from_shape({0, 3});
    auto e = ca::empty<T, S>(test::q(), {0, 3});
    VIEW_CASE(e(ca::all(), 1), xt::view(re, xt::all(), 1));
    VIEW_CASE(e(ca::range(ca::none, ca::none, -1), ca::range(0, 2)),
              xt::view(re, xt::range(_, _, -1), xt::range(0, 2)));
    VIEW_CASE(e(ca::newaxis(), ca::ellipsis()),
              xt::strided_view(re, {xt::newaxis(), xt::ellipsis()}));
}

TEMPLATE_LIST_TEST_CASE("random views and views of views equal xtensor's strided_view", "[views]",
                        CLARRAY_DTYPE_THIRD(1)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    view_generator gen(7 + static_cast<unsigned>(ca::dtype_traits<T>::id) * 31 +
                       static_cast<unsigned>(S::kind));
    const std::vector<ca::shape_type> shapes = {
        {6, 5, 7}, {1, 8, 3}, {11}, {3, 0, 4}, {2, 3, 2, 3}};
    for (const auto& shape : shapes) {
        xt::xarray<T> r = test::random_array<T>(shape, 104);
        auto a = ca::to_device<S>(test::q(), r);
        for (int trial = 0; trial < 25; ++trial) {
            view_spec s1 = gen.make(shape);
            INFO("shape " << ca::shape_to_string(shape) << " view [" << s1.text << "]");
            auto v1 = apply_spec(a, s1.ca_args);
            xt::xarray<T> w1 = xt::strided_view(r, s1.xt_args);
            REQUIRE(v1.shape() == as_shape(w1.shape()));
            CHECK_ARRAY_EQ(v1.get(), w1);
            // A view of the view.
            view_spec s2 = gen.make(v1.shape());
            INFO("then [" << s2.text << "]");
            auto v2 = apply_spec(v1, s2.ca_args);
            xt::xarray<T> w2 = xt::strided_view(w1, s2.xt_args);
            REQUIRE(v2.shape() == as_shape(w2.shape()));
            CHECK_ARRAY_EQ(v2.get(), w2);
            // Transposing the result, and a contiguous copy of it.
            CHECK_ARRAY_EQ(v2.transpose().get(), xt::xarray<T>(xt::transpose(w2)));
            auto c = v2.copy();
            CHECK(c.is_c_contiguous());
            CHECK_ARRAY_EQ(c.get(), w2);
        }
    }
}

TEMPLATE_LIST_TEST_CASE("set / fill / copy through random views", "[views]",
                        CLARRAY_DTYPE_THIRD(2)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    view_generator gen(1000 + static_cast<unsigned>(ca::dtype_traits<T>::id) * 7 +
                       static_cast<unsigned>(S::kind));
    const ca::shape_type shape{5, 6, 7};
    xt::xarray<T> ref = test::random_array<T>(shape, 105);
    auto a = ca::to_device<S>(test::q(), ref);
    for (int trial = 0; trial < 30; ++trial) {
        view_spec s = gen.make(shape);
        INFO("trial " << trial << " view [" << s.text << "]");
        auto v = apply_spec(a, s.ca_args);
        auto rv = xt::strided_view(ref, s.xt_args); // writes go to ref
        REQUIRE(v.shape() == as_shape(rv.shape()));
        switch (trial % 3) {
        case 0: { // set from a host array of the view's shape
            xt::xarray<T> h = test::random_array<T>(v.shape(), 200 + trial);
            v.set(h);
            rv = h;
            break;
        }
        case 1: { // fill
            T val = test::random_array<T>(ca::shape_type{}, 300 + trial)();
            v.fill(val);
            rv.fill(val);
            break;
        }
        case 2: { // a copy is independent of its source
            xt::xarray<T> before = v.get();
            auto c = v.copy();
            CHECK(c.is_c_contiguous());
            CHECK(c.offset() == 0);
            CHECK(c.shape() == v.shape());
            if (c.size() > 0) CHECK(c.data() != a.data());
            c.fill(other_value<T>());
            CHECK_ARRAY_EQ(v.get(), before);
            xt::xarray<T> filled = xt::xarray<T>::from_shape(v.shape());
            filled.fill(other_value<T>());
            CHECK_ARRAY_EQ(c.get(), filled);
            break;
        }
        }
        // Every element, inside the view or not, is as on the host.
        CHECK_ARRAY_EQ(a.get(), ref);
    }
}

TEMPLATE_LIST_TEST_CASE("out-of-range views and too many indices throw index_error", "[views]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto a = ca::zeros<float, S>(test::q(), {4, 5});
    CHECK_THROWS_AS(a(4), ca::index_error);
    CHECK_THROWS_AS(a(-5), ca::index_error);
    CHECK_THROWS_AS(a(0, 5), ca::index_error);
    CHECK_THROWS_AS(a(ca::all(), -6), ca::index_error);
    CHECK_THROWS_AS(a(ca::range(0, 5)), ca::index_error);
    CHECK_THROWS_AS(a(ca::range(-5, 2)), ca::index_error);
    CHECK_THROWS_AS(a(ca::range(5, ca::none)), ca::index_error);
    CHECK_THROWS_AS(a(ca::all(), ca::range(0, 6)), ca::index_error);
    CHECK_THROWS_AS(a(ca::range(4, 0, -1)), ca::index_error); // start past the last element
    CHECK_THROWS_AS(a(ca::range(2, -6, -1)), ca::index_error);
    CHECK_THROWS_AS(a(ca::range(0, 3, 0)), ca::index_error); // zero step
    CHECK_THROWS_AS(a(0, 0, 0), ca::index_error);            // too many indices
    CHECK_THROWS_AS(a(ca::all(), ca::all(), ca::all()), ca::index_error);
    CHECK_THROWS_AS(a(ca::ellipsis(), 0, 0, 0), ca::index_error);
    CHECK_THROWS_AS(a(ca::newaxis(), 1, ca::range(0, 2), 0), ca::index_error);
    CHECK_THROWS_AS(a(ca::ellipsis(), ca::ellipsis()), ca::index_error);
    CHECK_THROWS_AS(a(1)(0, 0), ca::index_error);
    auto z = ca::zeros<float, S>(test::q(), ca::shape_type{});
    CHECK_THROWS_AS(z(0), ca::index_error);
    CHECK_THROWS_AS(z(ca::all()), ca::index_error);
    auto e = ca::zeros<float, S>(test::q(), {0, 3});
    CHECK_THROWS_AS(e(0), ca::index_error);
    // In range (the limits themselves): no throw, and the expected shapes.
    CHECK(a(ca::range(4, ca::none)).shape() == ca::shape_type{0, 5});
    CHECK(a(ca::range(-4, 4)).shape() == ca::shape_type{4, 5});
    CHECK(a(ca::range(3, -5, -1)).shape() == ca::shape_type{4, 5});
    CHECK(a(ca::newaxis(), 1, ca::newaxis(), 4).shape() == ca::shape_type{1, 1});
    CHECK(a(ca::ellipsis(), 0, 0).shape() == ca::shape_type{});
    CHECK(z(ca::newaxis(), ca::ellipsis()).shape() == ca::shape_type{1});
}

TEMPLATE_LIST_TEST_CASE("transpose equals xt::transpose", "[views]", CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> r = test::random_array<T>({3, 4, 5}, 106);
    auto a = ca::to_device<S>(test::q(), r);
    VIEW_CASE(a.transpose(), xt::transpose(r));
    VIEW_CASE(ca::transpose(a), xt::transpose(r));
    VIEW_CASE(a.transpose({1, 2, 0}), xt::transpose(r, {1, 2, 0}));
    VIEW_CASE(a.transpose({2, 0, 1}), xt::transpose(r, {2, 0, 1}));
    VIEW_CASE(a.transpose({0, 1, 2}), r);
    VIEW_CASE(ca::transpose(a, {0, 2, 1}), xt::transpose(r, {0, 2, 1}));
    VIEW_CASE(a.transpose().transpose(), r);
    VIEW_CASE(a.transpose({1, 2, 0}).transpose({1, 2, 0}),
              xt::transpose(xt::xarray<T>(xt::transpose(r, {1, 2, 0})), {1, 2, 0}));
    VIEW_CASE(a(ca::range(ca::none, ca::none, -1), 1).transpose(),
              xt::transpose(xt::xarray<T>(xt::view(r, xt::range(_, _, -1), 1))));
    CHECK(a.transpose().data() == a.data());
    CHECK(a.transpose().is_f_contiguous());
    // 1-d and 0-d transposes are the identity.
    xt::xarray<T> r1 = test::random_array<T>({6}, 107);
    auto a1 = ca::to_device<S>(test::q(), r1);
    VIEW_CASE(a1.transpose(), r1);
    auto a0 = ca::to_device<S>(test::q(), test::random_array<T>(ca::shape_type{}, 108));
    CHECK(a0.transpose().shape() == ca::shape_type{});
    CHECK_ARRAY_EQ(a0.transpose().get(), a0.get());
    // Not a permutation.
    CHECK_THROWS_AS(a.transpose({0, 0, 1}), ca::index_error);
    CHECK_THROWS_AS(a.transpose({0, 1}), ca::index_error);
    CHECK_THROWS_AS(a.transpose({0, 1, 3}), ca::index_error);
    CHECK_THROWS_AS(a.transpose({0, 1, 2, 3}), ca::index_error);
}

TEMPLATE_LIST_TEST_CASE("reshape / ravel / squeeze equal xtensor's", "[views]",
                        CLARRAY_DTYPE_THIRD(1)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> r = test::random_array<T>({4, 5, 6}, 109);
    auto a = ca::to_device<S>(test::q(), r);

    // Contiguous arrays reshape to anything of the same size, as views.
    VIEW_CASE(a.reshape({6, 20}), xt::reshape_view(r, {6, 20}));
    VIEW_CASE(a.reshape({120}), xt::reshape_view(r, {120}));
    VIEW_CASE(a.reshape({2, 1, 3, 20}), xt::reshape_view(r, {2, 1, 3, 20}));
    VIEW_CASE(a.reshape({1, 120, 1}), xt::reshape_view(r, {1, 120, 1}));
    VIEW_CASE(a.reshape({ca::infer, 8}), xt::reshape_view(r, {r.size() / 8, std::size_t(8)}));
    VIEW_CASE(a.reshape({3, ca::infer, 5}),
              xt::reshape_view(r, {std::size_t(3), r.size() / 15, std::size_t(5)}));
    VIEW_CASE(a.reshape({ca::infer}), xt::reshape_view(r, {r.size()}));
    CHECK(a.reshape({6, 20}).data() == a.data());
    CHECK(a.reshape({6, 20}).is_c_contiguous());
    // Non-contiguous views that can still be reshaped without a copy.
    {
        auto v = a(ca::range(0, 4, 2)); // (2, 5, 6), strides (60, 6, 1): the last two merge
        xt::xarray<T> w = xt::view(r, xt::range(0, 4, 2));
        VIEW_CASE(v.reshape({2, 30}), xt::reshape_view(w, {2, 30}));
        VIEW_CASE(v.reshape({2, 1, 30}), xt::reshape_view(w, {2, 1, 30}));
        VIEW_CASE(v.reshape({2, 5, 3, 2}), xt::reshape_view(w, {2, 5, 3, 2}));
        VIEW_CASE(v.reshape({2, 10, 3}), xt::reshape_view(w, {2, 10, 3}));
        CHECK(v.reshape({2, 30}).data() == a.data());
        CHECK_FALSE(v.reshape({2, 30}).is_c_contiguous());
        // Merging the stepped axis with the next one needs a copy.
        CHECK_THROWS_AS(v.reshape({10, 6}), ca::shape_error);
        CHECK_THROWS_AS(v.reshape({60}), ca::shape_error);
        VIEW_CASE(v.copy().reshape({10, 6}), xt::reshape_view(w, {10, 6}));
    }
    {
        auto v = a(ca::all(), ca::range(0, 5, 2)); // (4, 3, 6), strides (30, 12, 1): none merge
        xt::xarray<T> w = xt::view(r, xt::all(), xt::range(0, 5, 2));
        VIEW_CASE(v.reshape({4, 3, 2, 3}), xt::reshape_view(w, {4, 3, 2, 3}));
        VIEW_CASE(v.reshape({2, 2, 3, 6}), xt::reshape_view(w, {2, 2, 3, 6}));
        CHECK(v.reshape({4, 3, 2, 3}).data() == a.data());
        CHECK_THROWS_AS(v.reshape({12, 6}), ca::shape_error);
        CHECK_THROWS_AS(v.reshape({4, 18}), ca::shape_error);
        CHECK_THROWS_AS(v.reshape({72}), ca::shape_error);
        VIEW_CASE(v.copy().reshape({4, 18}), xt::reshape_view(w, {4, 18}));
    }
    {
        auto v = a.reshape({120})(ca::range(ca::none, ca::none, -1)); // negative stride
        xt::xarray<T> w = xt::view(xt::xarray<T>(xt::reshape_view(r, {120})), xt::range(_, _, -1));
        VIEW_CASE(v.reshape({8, 15}), xt::reshape_view(w, {8, 15}));
        VIEW_CASE(v.reshape({2, ca::infer, 3}), xt::reshape_view(w, {2, 20, 3}));
    }
    {
        auto v = a(ca::range(1, 3)); // rows of a C array: a contiguous block
        xt::xarray<T> w = xt::view(r, xt::range(1, 3));
        VIEW_CASE(v.reshape({ca::infer}), xt::reshape_view(w, {w.size()}));
        VIEW_CASE(v.reshape({5, 12}), xt::reshape_view(w, {5, 12}));
    }
    // A transposed (F-contiguous) array reshapes in C order only through a copy.
    {
        auto t = a.transpose(); // (6, 5, 4)
        xt::xarray<T> w = xt::transpose(r);
        CHECK_THROWS_AS(t.reshape({30, 4}), ca::shape_error);
        CHECK_THROWS_AS(t.reshape({120}), ca::shape_error);
        VIEW_CASE(t.copy().reshape({30, 4}), xt::reshape_view(w, {30, 4}));
        VIEW_CASE(t.reshape({6, 5, 2, 2}), xt::reshape_view(w, {6, 5, 2, 2})); // splits one axis
    }
    // A reshaped view writes through to its base.
    {
        xt::xarray<T> ref = r;
        auto v = a.reshape({10, 12})(ca::range(2, 8, 3));
        xt::xarray<T> h = test::random_array<T>(v.shape(), 110);
        v.set(h);
        auto rv = xt::view(xt::reshape_view(ref, {10, 12}), xt::range(2, 8, 3));
        rv = h;
        CHECK_ARRAY_EQ(a.get(), ref);
        a.set(r);
    }
    // Errors.
    CHECK_THROWS_AS(a.reshape({7, 17}), ca::shape_error);
    CHECK_THROWS_AS(a.reshape({121}), ca::shape_error);
    CHECK_THROWS_AS(a.reshape({ca::infer, ca::infer, 6}), ca::shape_error);
    CHECK_THROWS_AS(a.reshape({ca::infer, 7}), ca::shape_error);
    CHECK_THROWS_AS(a.reshape({0, ca::infer}), ca::shape_error);
    // 0-d, size-1 and zero-size reshapes.
    {
        xt::xarray<T> r0 = test::random_array<T>(ca::shape_type{}, 111);
        auto a0 = ca::to_device<S>(test::q(), r0);
        VIEW_CASE(a0.reshape({1}), xt::reshape_view(r0, {1}));
        VIEW_CASE(a0.reshape({1, 1, 1}), xt::reshape_view(r0, {1, 1, 1}));
        VIEW_CASE(a0.reshape({1}).reshape({}), r0);
        VIEW_CASE(a(1, 2, ca::range(3, 4)).reshape({}), xt::view(r, 1, 2, 3));
        auto e = ca::empty<T, S>(test::q(), {0, 3});
        CHECK(e.reshape({3, 0, 5}).shape() == ca::shape_type{3, 0, 5});
        CHECK(e.reshape({ca::infer, 3}).shape() == ca::shape_type{0, 3});
        CHECK_THROWS_AS(e.reshape({ca::infer, 0}), ca::shape_error); // ambiguous, as in NumPy
        CHECK_THROWS_AS(e.reshape({1}), ca::shape_error);
    }

    // ravel: a view when possible, else a C-order copy; always the row-major element order.
    auto flat = [](const auto& x) {
        xt::xarray<T> w = x;
        return xt::xarray<T>(xt::flatten<xt::layout_type::row_major>(w));
    };
    {
        auto f = a.ravel();
        CHECK(f.shape() == ca::shape_type{r.size()});
        CHECK_ARRAY_EQ(f.get(), flat(r));
        CHECK(f.data() == a.data());
        auto ft = a.transpose().ravel();
        CHECK_ARRAY_EQ(ft.get(), flat(xt::transpose(r)));
        CHECK(ft.is_c_contiguous());
        CHECK(ft.data() != a.data());
        auto fs = a(ca::all(), ca::range(ca::none, ca::none, -2), 3).ravel();
        CHECK_ARRAY_EQ(fs.get(), flat(xt::view(r, xt::all(), xt::range(_, _, -2), 3)));
        auto f1 = a(1, 2, ca::range(ca::none, ca::none, 2)).ravel(); // 1-d stepped: still a view
        CHECK_ARRAY_EQ(f1.get(), flat(xt::view(r, 1, 2, xt::range(_, _, 2))));
        CHECK(f1.data() == a.data());
        auto f0 = a(3, 4, 5).ravel();
        CHECK_ARRAY_EQ(f0.get(), flat(xt::view(r, 3, 4, 5)));
        CHECK(f0.shape() == ca::shape_type{1});
    }

    // squeeze
    {
        xt::xarray<T> rs = test::random_array<T>({1, 4, 1, 5, 1}, 112);
        auto s = ca::to_device<S>(test::q(), rs);
        VIEW_CASE(s.squeeze(), xt::squeeze(rs));
        VIEW_CASE(s.squeeze(0), xt::squeeze(rs, {0}));
        VIEW_CASE(s.squeeze(2), xt::squeeze(rs, {2}));
        VIEW_CASE(s.squeeze(4), xt::squeeze(rs, {4}));
        VIEW_CASE(s.squeeze(4).squeeze(0), xt::squeeze(rs, {0, 4}));
        VIEW_CASE(s(ca::all(), ca::range(ca::none, ca::none, -1)).squeeze(),
                  xt::squeeze(xt::xarray<T>(xt::view(rs, xt::all(), xt::range(_, _, -1)))));
        VIEW_CASE(a(ca::range(2, 3), ca::newaxis(), 4).squeeze(),
                  xt::squeeze(xt::xarray<T>(xt::view(r, xt::range(2, 3), xt::newaxis(), 4))));
        CHECK(s.squeeze().data() == s.data());
        CHECK_THROWS_AS(s.squeeze(1), ca::shape_error);
        CHECK_THROWS_AS(s.squeeze(5), ca::index_error);
        auto one = ca::to_device<S>(test::q(), test::random_array<T>({1, 1}, 113));
        CHECK(one.squeeze().shape() == ca::shape_type{});
        CHECK_ARRAY_EQ(one.squeeze().get(), xt::xarray<T>(xt::squeeze(one.get())));
    }
}

TEMPLATE_LIST_TEST_CASE("set on views with broadcasting", "[views]", CLARRAY_DTYPE_THIRD(2)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> ref = test::random_array<T>({6, 8}, 120);
    auto a = ca::to_device<S>(test::q(), ref);

    { // full-shape host array into a stepped, reversed view
        auto v = a(ca::range(1, 6, 2), ca::range(ca::none, ca::none, -3));
        auto rv = xt::view(ref, xt::range(1, 6, 2), xt::range(_, _, -3));
        xt::xarray<T> h = test::random_array<T>(v.shape(), 121);
        v.set(h);
        rv = h;
        CHECK_ARRAY_EQ(a.get(), ref);
        CHECK_ARRAY_EQ(v.get(), h);
    }
    { // a row broadcast down a column range
        auto v = a(ca::range(2, 5), ca::range(1, 7));
        auto rv = xt::view(ref, xt::range(2, 5), xt::range(1, 7));
        xt::xarray<T> h = test::random_array<T>({6}, 122);
        v.set(h);
        rv = h;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    { // a column broadcast across a transposed view
        auto v = a.transpose()(ca::range(ca::none, ca::none, 2));
        auto rv = xt::view(xt::transpose(ref), xt::range(_, _, 2));
        xt::xarray<T> h = test::random_array<T>({v.shape(0), 1}, 123);
        v.set(h);
        rv = h;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    { // a 0-d host array broadcast to a strided view
        auto v = a(ca::all(), ca::range(0, 8, 4));
        auto rv = xt::view(ref, xt::all(), xt::range(0, 8, 4));
        xt::xarray<T> h = test::random_array<T>(ca::shape_type{}, 124);
        v.set(h);
        rv = h;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    { // a lazy xtensor expression, and a single element (0-d view)
        auto v = a(ca::range(0, 2), ca::range(0, 3));
        xt::xarray<T> src = test::random_array<T>({3, 2}, 125);
        v.set(xt::transpose(src));
        xt::view(ref, xt::range(0, 2), xt::range(0, 3)) = xt::transpose(src);
        auto e = a(5, -1);
        xt::xarray<T> one = test::random_array<T>(ca::shape_type{}, 126);
        e.set(one);
        xt::view(ref, 5, 7) = one;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    { // std::vector into a view, in the view's row-major order
        auto v = a(ca::range(ca::none, ca::none, -5), 3);
        xt::xarray<T> h = test::random_array<T>(v.shape(), 127);
        v.set(std::vector<T>(h.begin(), h.end()));
        xt::view(ref, xt::range(_, _, -5), 3) = h;
        CHECK_ARRAY_EQ(a.get(), ref);
    }
    // Shapes that do not broadcast.
    auto v = a(ca::range(0, 3), ca::range(0, 4));
    CHECK_THROWS_AS(v.set(test::random_array<T>({3, 3}, 128)), ca::shape_error);
    CHECK_THROWS_AS(v.set(test::random_array<T>({2, 3, 4}, 129)), ca::shape_error);
    CHECK_THROWS_AS(v.set(std::vector<T>(11)), ca::shape_error);
    CHECK_ARRAY_EQ(a.get(), ref);
    // Zero-size views accept anything broadcastable and change nothing.
    a(ca::range(3, 3)).set(test::random_array<T>({8}, 130));
    CHECK_ARRAY_EQ(a.get(), ref);
}

TEMPLATE_LIST_TEST_CASE("fill on strided / reversed / transposed views", "[views]",
                        CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> ref = test::random_array<T>({9, 10, 3}, 140);
    auto a = ca::to_device<S>(test::q(), ref);
    auto val = [](int k) { return test::random_array<T>(ca::shape_type{}, 500 + k)(); };

    a(ca::range(1, 8, 3), ca::all(), 2).fill(val(0));
    xt::view(ref, xt::range(1, 8, 3), xt::all(), 2).fill(val(0));
    CHECK_ARRAY_EQ(a.get(), ref);

    a(ca::range(ca::none, ca::none, -1)).fill(val(1)); // dense, negative stride: everything
    xt::view(ref, xt::range(_, _, -1)).fill(val(1));
    CHECK_ARRAY_EQ(a.get(), ref);

    a(ca::range(6, 1, -2), ca::range(ca::none, ca::none, -3)).fill(val(2));
    xt::view(ref, xt::range(6, 1, -2), xt::range(_, _, -3)).fill(val(2));
    CHECK_ARRAY_EQ(a.get(), ref);

    a.transpose()(ca::range(0, 2)).fill(val(3)); // last axis 0..1 of every (i, j)
    xt::view(xt::transpose(ref), xt::range(0, 2)).fill(val(3));
    CHECK_ARRAY_EQ(a.get(), ref);

    a(ca::range(2, 5), ca::range(3, 7)).fill(val(4)); // dense rows of a block, gaps between
    xt::view(ref, xt::range(2, 5), xt::range(3, 7)).fill(val(4));
    CHECK_ARRAY_EQ(a.get(), ref);

    a(4, 5, 1).fill(val(5)); // one element
    ref(4, 5, 1) = val(5);
    CHECK_ARRAY_EQ(a.get(), ref);

    a(ca::newaxis(), 8, ca::newaxis(), ca::range(ca::none, ca::none, 9)).fill(val(6));
    xt::view(ref, 8, xt::range(_, _, 9)).fill(val(6));
    CHECK_ARRAY_EQ(a.get(), ref);

    a(ca::range(3, 3)).fill(val(7)); // empty: no-op
    CHECK_ARRAY_EQ(a.get(), ref);

    // A large strided fill (about 1e5 touched elements).
    xt::xarray<T> big = test::random_array<T>({400, 500}, 141);
    auto b = ca::to_device<S>(test::q(), big);
    b(ca::all(), ca::range(1, ca::none, 2)).fill(val(8));
    xt::view(big, xt::all(), xt::range(1, _, 2)).fill(val(8));
    CHECK_ARRAY_EQ(b.get(), big);
}

TEMPLATE_LIST_TEST_CASE("copy of views is C-contiguous and independent", "[views]",
                        CLARRAY_DTYPE_THIRD(1)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> r = test::random_array<T>({5, 6, 4}, 150);
    auto a = ca::to_device<S>(test::q(), r);
    auto v = a(ca::range(4, ca::none, -2), ca::newaxis(), ca::range(1, 6, 2));
    xt::xarray<T> w = xt::view(r, xt::range(4, _, -2), xt::newaxis(), xt::range(1, 6, 2));
    auto c = v.copy();
    CHECK(c.shape() == as_shape(w.shape()));
    CHECK(c.is_c_contiguous());
    CHECK(c.offset() == 0);
    CHECK(c.data() != a.data());
    CHECK_ARRAY_EQ(c.get(), w);
    auto f = v.copy(ca::layout::f);
    CHECK(f.is_f_contiguous());
    CHECK_ARRAY_EQ(f.get(), w);
    // Writing to the copies leaves the source alone, and vice versa.
    c.fill(other_value<T>());
    f.set(test::random_array<T>(f.shape(), 151));
    CHECK_ARRAY_EQ(a.get(), r);
    auto c2 = v.copy();
    a.fill(other_value<T>());
    CHECK_ARRAY_EQ(c2.get(), w);
    // Copies of 0-d and zero-size views.
    a.set(r);
    auto c0 = a(1, 2, 3).copy();
    CHECK(c0.shape() == ca::shape_type{});
    CHECK_ARRAY_EQ(c0.get(), xt::xarray<T>(xt::view(r, 1, 2, 3)));
    auto ce = a(ca::range(2, 2)).copy();
    CHECK(ce.shape() == ca::shape_type{0, 6, 4});
    CHECK(ce.get().size() == 0);
}

TEMPLATE_LIST_TEST_CASE("x = y assigns elements with broadcasting", "[views]",
                        CLARRAY_DTYPE_THIRD(2)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    xt::xarray<T> ra = test::random_array<T>({6, 7}, 160);
    xt::xarray<T> rb = test::random_array<T>({6, 7}, 161);
    auto a = ca::to_device<S>(test::q(), ra);
    auto b = ca::to_device<S>(test::q(), rb);

    // Whole arrays: values are copied, the handles stay distinct.
    {
        A x = ca::to_device<S>(test::q(), ra);
        A& res = (x = b);
        CHECK(&res == &x);
        CHECK(x.data() != b.data());
        CHECK_ARRAY_EQ(x.get(), rb);
        x.fill(other_value<T>());
        CHECK_ARRAY_EQ(b.get(), rb);
    }
    // View = view of another array.
    a(ca::range(1, 4), ca::range(ca::none, ca::none, -2)) = b(ca::range(3, 6), ca::range(0, 4));
    xt::view(ra, xt::range(1, 4), xt::range(_, _, -2)) =
        xt::xarray<T>(xt::view(rb, xt::range(3, 6), xt::range(0, 4)));
    CHECK_ARRAY_EQ(a.get(), ra);
    // A named view is a handle: assigning to it writes into a.
    {
        auto x = a(ca::all(), 5);
        x = b(ca::all(), 0);
        xt::view(ra, xt::all(), 5) = xt::xarray<T>(xt::view(rb, xt::all(), 0));
        CHECK_ARRAY_EQ(a.get(), ra);
    }
    // Broadcasting: a row to every row of a block, a column across, a single element everywhere.
    a(ca::range(0, 3)) = b(5);
    xt::view(ra, xt::range(0, 3)) = xt::xarray<T>(xt::view(rb, 5));
    CHECK_ARRAY_EQ(a.get(), ra);
    a(ca::range(3, 6), ca::range(1, 5)) = b(ca::range(0, 3), ca::range(6, 7));
    xt::view(ra, xt::range(3, 6), xt::range(1, 5)) =
        xt::xarray<T>(xt::view(rb, xt::range(0, 3), xt::range(6, 7)));
    CHECK_ARRAY_EQ(a.get(), ra);
    a(ca::all(), ca::range(ca::none, ca::none, 3)) = b(2, 2);
    xt::view(ra, xt::all(), xt::range(_, _, 3)) = xt::xarray<T>(xt::view(rb, 2, 2));
    CHECK_ARRAY_EQ(a.get(), ra);
    // Transposed source.
    {
        xt::xarray<T> rs = test::random_array<T>({7, 6}, 162);
        auto s = ca::to_device<S>(test::q(), rs);
        a = s.transpose();
        ra = xt::transpose(rs);
        CHECK_ARRAY_EQ(a.get(), ra);
    }
    CHECK_ARRAY_EQ(b.get(), rb); // the sources never changed
    // Shapes that do not broadcast.
    CHECK_THROWS_AS(a(ca::range(0, 2)) = b(ca::range(0, 3)), ca::shape_error);
    CHECK_THROWS_AS(a(0) = b(ca::all(), 0), ca::shape_error);
    CHECK_THROWS_AS(a(0, 0) = b(0), ca::shape_error);
    CHECK_ARRAY_EQ(a.get(), ra);
    // Zero-size destination: nothing happens.
    a(ca::range(2, 2)) = b(ca::range(4, 4));
    CHECK_ARRAY_EQ(a.get(), ra);
    // An unbound (default-constructed) array takes a copy of what is assigned.
    {
        A u;
        CHECK_FALSE(u.bound());
        const A src = b(ca::range(1, 3));
        u = src;
        CHECK(u.bound());
        CHECK(u.shape() == ca::shape_type{2, 7});
        CHECK_ARRAY_EQ(u.get(), xt::xarray<T>(xt::view(rb, xt::range(1, 3))));
        u.fill(other_value<T>());
        CHECK_ARRAY_EQ(b.get(), rb);
    }
}

TEMPLATE_LIST_TEST_CASE("overlapping assignment within one array behaves as NumPy", "[views]",
                        CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    // The host reference reads the source into a temporary first: NumPy semantics.
    auto assign_ref = [](auto&& dst, const auto& src) {
        xt::xarray<T> tmp = src;
        dst = tmp;
    };
    for (std::size_t n : {std::size_t(10), std::size_t(1000), std::size_t(100000)}) {
        INFO("n = " << n);
        xt::xarray<T> r = test::random_array<T>({n}, 170);
        auto a = ca::to_device<S>(test::q(), r);
        const long m = static_cast<long>(n);

        a(ca::range(1, m)) = a(ca::range(0, m - 1)); // shift right
        assign_ref(xt::view(r, xt::range(1, m)), xt::view(r, xt::range(0, m - 1)));
        CHECK_ARRAY_EQ(a.get(), r);

        a(ca::range(0, m - 3)) = a(ca::range(3, m)); // shift left
        assign_ref(xt::view(r, xt::range(0, m - 3)), xt::view(r, xt::range(3, m)));
        CHECK_ARRAY_EQ(a.get(), r);

        a = a(ca::range(ca::none, ca::none, -1)); // reverse in place
        assign_ref(r, xt::view(r, xt::range(_, _, -1)));
        CHECK_ARRAY_EQ(a.get(), r);

        a(ca::range(0, m, 2)) = a(ca::range(1, m, 2)); // interleaved
        assign_ref(xt::view(r, xt::range(0, m, 2)), xt::view(r, xt::range(1, m, 2)));
        CHECK_ARRAY_EQ(a.get(), r);

        a(ca::range(m / 2, m)) = a(ca::range(m / 2 - 1, ca::none, -1)); // mirror halves
        assign_ref(xt::view(r, xt::range(m / 2, m)), xt::view(r, xt::range(m / 2 - 1, _, -1)));
        CHECK_ARRAY_EQ(a.get(), r);

        a(ca::range(0, m / 2)) = a(ca::range(m / 2, m)); // disjoint parts of one allocation
        assign_ref(xt::view(r, xt::range(0, m / 2)), xt::view(r, xt::range(m / 2, m)));
        CHECK_ARRAY_EQ(a.get(), r);

        a = a; // self-assignment: unchanged
        CHECK_ARRAY_EQ(a.get(), r);
    }
    {
        // 2-d: in-place transpose of a square matrix, and row/column shifts.
        xt::xarray<T> r = test::random_array<T>({33, 33}, 171);
        auto a = ca::to_device<S>(test::q(), r);
        a = a.transpose();
        assign_ref(r, xt::transpose(r));
        CHECK_ARRAY_EQ(a.get(), r);
        a(ca::range(1, 33)) = a(ca::range(0, 32));
        assign_ref(xt::view(r, xt::range(1, 33)), xt::view(r, xt::range(0, 32)));
        CHECK_ARRAY_EQ(a.get(), r);
        a(ca::all(), ca::range(0, 30)) = a(ca::all(), ca::range(3, 33));
        assign_ref(xt::view(r, xt::all(), xt::range(0, 30)),
                   xt::view(r, xt::all(), xt::range(3, 33)));
        CHECK_ARRAY_EQ(a.get(), r);
        // Broadcast from inside the destination: row 0 everywhere, then column 5 everywhere.
        a(ca::range(0, 10)) = a(0);
        assign_ref(xt::view(r, xt::range(0, 10)), xt::view(r, 0));
        CHECK_ARRAY_EQ(a.get(), r);
        a = a(ca::all(), ca::range(5, 6));
        assign_ref(xt::view(r, xt::all()), xt::view(r, xt::all(), xt::range(5, 6)));
        CHECK_ARRAY_EQ(a.get(), r);
    }
}
