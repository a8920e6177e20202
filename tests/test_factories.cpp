// Factories: empty, zeros, ones, full, arange, linspace, *_like and to_device, checked against
// xtensor (or a direct NumPy-definition loop on the host) for every dtype and storage policy.
#include "support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "xtensor_headers.hpp"

namespace {

template <class T, class S> std::string cfg_name() {
    return std::string(ca::dtype_name(ca::dtype_traits<T>::id)) + "/" + S::name;
}

std::string shape_str(const ca::shape_type& s) {
    return ca::shape_to_string(s);
}

// The shapes most factory tests run over: 0-d, zero-size, 1-d, 2-d, 3-d, unit axes.
std::vector<ca::shape_type> factory_shapes() {
    return {ca::shape_type{},        ca::shape_type{0},       ca::shape_type{0, 3},
            ca::shape_type{3, 0},    ca::shape_type{1},       ca::shape_type{7},
            ca::shape_type{3, 4},    ca::shape_type{2, 3, 4}, ca::shape_type{4, 1, 5},
            ca::shape_type{1, 1, 1}, ca::shape_type{257, 33}};
}

std::size_t product(const ca::shape_type& s) {
    std::size_t n = 1;
    for (std::size_t e : s)
        n *= e;
    return n;
}

// Contiguous strides (in elements) from their definition: the C stride of an axis is the number
// of elements in one step of it, i.e. the product of the later extents (earlier ones for F).
// Only used for non-empty shapes, where this is unambiguous.
ca::strides_type reference_strides(const ca::shape_type& s, ca::layout l) {
    ca::strides_type st(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        std::ptrdiff_t p = 1;
        for (std::size_t j = 0; j < s.size(); ++j)
            if (l == ca::layout::c ? j > i : j < i) p *= static_cast<std::ptrdiff_t>(s[j]);
        st[i] = p;
    }
    return st;
}

// The raw memory of a (full, offset-0) array as the host sees it through a map equals the
// reference flattened in the array's memory order.
template <class T, class S>
void check_memory_order(const ca::cl_array<T, S>& a, const xt::xarray<T>& ref, ca::layout l) {
    using U = ca::stored_t<T>;
    if (ref.size() == 0) return;
    std::vector<U> expected;
    if (l == ca::layout::c) {
        xt::xarray<T, xt::layout_type::row_major> r = ref;
        for (std::size_t k = 0; k < r.size(); ++k)
            expected.push_back(static_cast<U>(r.data()[k]));
    } else {
        xt::xarray<T, xt::layout_type::column_major> r = ref;
        for (std::size_t k = 0; k < r.size(); ++k)
            expected.push_back(static_cast<U>(r.data()[k]));
    }
    std::vector<U> memory;
    {
        auto hv = a.map(ca::access::read);
        const U* p = hv.mapped_data();
        REQUIRE(p != nullptr);
        memory.assign(p, p + ref.size());
    }
    CHECK(memory == expected);
}

template <class T, class S>
void check_contiguous_layout(const ca::cl_array<T, S>& a, const ca::shape_type& shape,
                             ca::layout l) {
    INFO("shape " << shape_str(shape) << (l == ca::layout::c ? " C" : " F"));
    REQUIRE(a.bound());
    CHECK(a.shape() == shape);
    CHECK(a.dimension() == shape.size());
    CHECK(a.size() == product(shape));
    CHECK(a.nbytes() == product(shape) * sizeof(ca::stored_t<T>));
    CHECK(a.offset() == 0);
    REQUIRE(a.strides().size() == shape.size());
    if (product(shape) > 0) CHECK(a.strides() == reference_strides(shape, l));
    if (l == ca::layout::c)
        CHECK(a.is_c_contiguous());
    else
        CHECK(a.is_f_contiguous());
}

template <class T> T big_value() {
    if constexpr (std::is_same_v<T, bool>)
        return true;
    else
        return std::numeric_limits<T>::max();
}
template <class T> T low_value() {
    if constexpr (std::is_same_v<T, bool>)
        return false;
    else if constexpr (std::is_floating_point_v<T>)
        return T(-1.5e3);
    else
        return std::numeric_limits<T>::lowest();
}

// NumPy's arange from its definition: length ceil((stop - start) / step) (at least 0), values
// start + i * step. Integers are computed exactly in 64 bits.
template <class T> xt::xarray<T> reference_arange(T start, T stop, T step) {
    std::vector<T> v;
    if constexpr (std::is_floating_point_v<T>) {
        double c = std::ceil((static_cast<double>(stop) - static_cast<double>(start)) /
                             static_cast<double>(step));
        std::size_t n = c > 0 ? static_cast<std::size_t>(c) : 0;
        for (std::size_t i = 0; i < n; ++i)
            v.push_back(static_cast<T>(static_cast<double>(start) +
                                       static_cast<double>(i) * static_cast<double>(step)));
    } else {
        // __int128 is not needed: the test ranges stay far from the 64-bit limits.
        using W = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
        if (step > 0)
            for (W x = start; x < static_cast<W>(stop); x += static_cast<W>(step))
                v.push_back(static_cast<T>(x));
        else if constexpr (std::is_signed_v<T>)
            for (W x = start; x > static_cast<W>(stop); x += static_cast<W>(step))
                v.push_back(static_cast<T>(x));
    }
    xt::xarray<T> r = xt::xarray<T>::from_shape({v.size()});
    std::copy(v.begin(), v.end(), r.begin());
    return r;
}

template <class T> void check_close(const xt::xarray<T>& got, const xt::xarray<T>& want) {
    REQUIRE(got.shape() == want.shape());
    if constexpr (std::is_floating_point_v<T>) {
        const double eps = std::is_same_v<T, float> ? 1e-5 : 1e-12;
        std::size_t bad = 0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            double g = got.data()[i], w = want.data()[i];
            double scale = std::max(1.0, std::abs(w));
            if (!(std::abs(g - w) <= eps * scale)) {
                if (bad < 5) UNSCOPED_INFO("element " << i << ": got " << g << ", want " << w);
                ++bad;
            }
        }
        CHECK(bad == 0);
    } else {
        CHECK_ARRAY_EQ(got, want);
    }
}

} // namespace

TEMPLATE_LIST_TEST_CASE("empty: shape / size / C and F contiguous strides", "[factories]",
                        CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    for (const auto& shape : factory_shapes())
        for (ca::layout l : {ca::layout::c, ca::layout::f}) {
            auto a = ca::empty<T, S>(test::q(), shape, l);
            check_contiguous_layout(a, shape, l);
            // The memory is usable: what is written is read back.
            xt::xarray<T> r = test::random_array<T>(shape, 3);
            a.set(r);
            CHECK_ARRAY_EQ(a.get(), r);
            check_memory_order(a, r, l);
        }
    // C layout is the default.
    auto d = ca::empty<T, S>(test::q(), {2, 5});
    CHECK(d.strides() == reference_strides({2, 5}, ca::layout::c));
}

TEMPLATE_LIST_TEST_CASE("zeros / ones / full equal xtensor's", "[factories]",
                        CLARRAY_DTYPE_THIRD(1)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    for (const auto& shape : factory_shapes())
        for (ca::layout l : {ca::layout::c, ca::layout::f}) {
            INFO("shape " << shape_str(shape) << (l == ca::layout::c ? " C" : " F"));
            auto z = ca::zeros<T, S>(test::q(), shape, l);
            auto o = ca::ones<T, S>(test::q(), shape, l);
            auto fb = ca::full<T, S>(test::q(), shape, big_value<T>(), l);
            auto fl = ca::full<T, S>(test::q(), shape, low_value<T>(), l);
            check_contiguous_layout(z, shape, l);
            check_contiguous_layout(o, shape, l);
            check_contiguous_layout(fb, shape, l);

            xt::xarray<T> rz = xt::zeros<T>(shape);
            xt::xarray<T> ro = xt::ones<T>(shape);
            xt::xarray<T> rb = xt::xarray<T>::from_shape(shape);
            rb.fill(big_value<T>());
            xt::xarray<T> rl = xt::xarray<T>::from_shape(shape);
            rl.fill(low_value<T>());

            xt::xarray<T> gz = z.get(), go = o.get(), gb = fb.get(), gl = fl.get();
            CHECK(gz.shape() == shape);
            CHECK_ARRAY_EQ(gz, rz);
            CHECK_ARRAY_EQ(go, ro);
            CHECK_ARRAY_EQ(gb, rb);
            CHECK_ARRAY_EQ(gl, rl);
        }
}

TEMPLATE_LIST_TEST_CASE("full on a reused allocation overwrites every element", "[factories]",
                        CLARRAY_DTYPE_THIRD(2)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    // Fill after random contents, with a size that is not a multiple of any pattern/vector width.
    ca::shape_type shape{37, 29};
    auto a = ca::empty<T, S>(test::q(), shape);
    a.set(test::random_array<T>(shape, 11));
    a.fill(big_value<T>());
    xt::xarray<T> want = xt::xarray<T>::from_shape(shape);
    want.fill(big_value<T>());
    CHECK_ARRAY_EQ(a.get(), want);
    a.fill(T(0));
    CHECK_ARRAY_EQ(a.get(), xt::xarray<T>(xt::zeros<T>(shape)));
}

TEMPLATE_LIST_TEST_CASE("arange equals xtensor's arange", "[factories]", CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    if constexpr (!std::is_same_v<T, bool>) {
        struct case_t {
            T start, stop, step;
        };
        std::vector<case_t> cases;
        if constexpr (std::is_floating_point_v<T>) {
            cases = {{T(0), T(10), T(1)},      {T(0.5), T(7.25), T(0.75)},
                     {T(-3), T(3), T(0.25)},   {T(5), T(-5), T(-0.5)},
                     {T(1), T(2), T(0.1)},     {T(-2.5), T(100.5), T(1.5)},
                     {T(0), T(1000), T(0.125)}};
        } else if constexpr (std::is_signed_v<T>) {
            cases = {{T(0), T(10), T(1)},    {T(2), T(50), T(3)},    {T(-100), T(100), T(9)},
                     {T(10), T(-10), T(-3)}, {T(5), T(-100), T(-7)}, {T(-5), T(5), T(10)}};
        } else {
            cases = {{T(0), T(10), T(1)},
                     {T(2), T(50), T(3)},
                     {T(0), T(200), T(7)},
                     {T(1), T(255), T(254)}};
        }
        for (const auto& c : cases) {
            INFO("arange(" << +c.start << ", " << +c.stop << ", " << +c.step << ")");
            auto a = ca::arange<T, S>(test::q(), c.start, c.stop, c.step);
            xt::xarray<T> got = a.get();
            xt::xarray<T> want = xt::arange<T>(c.start, c.stop, c.step);
            check_close(got, want);
            check_close(got, reference_arange(c.start, c.stop, c.step));
            CHECK(a.dimension() == 1);
            CHECK(a.is_c_contiguous());
        }
        // The default step is 1.
        {
            auto a = ca::arange<T, S>(test::q(), T(3), T(20));
            check_close(a.get(), xt::xarray<T>(xt::arange<T>(T(3), T(20))));
        }
        // A long range (1e5 elements for the wide types; small types wrap, as NumPy would not
        // allow, so stay in range).
        if constexpr (sizeof(T) >= 4) {
            auto a = ca::arange<T, S>(test::q(), T(0), T(100000));
            check_close(a.get(), xt::xarray<T>(xt::arange<T>(T(0), T(100000))));
        } else {
            T hi = std::numeric_limits<T>::max();
            auto a = ca::arange<T, S>(test::q(), T(0), hi);
            check_close(a.get(), reference_arange(T(0), hi, T(1)));
        }
        // Empty ranges (NumPy gives length 0 when the step points away from stop).
        for (const auto& c : std::vector<case_t>{{T(5), T(5), T(1)}, {T(7), T(3), T(1)}}) {
            INFO("empty arange(" << +c.start << ", " << +c.stop << ", " << +c.step << ")");
            auto a = ca::arange<T, S>(test::q(), c.start, c.stop, c.step);
            CHECK(a.shape() == reference_arange(c.start, c.stop, c.step).shape());
            CHECK(a.size() == 0);
            CHECK(a.get().size() == 0);
        }
        if constexpr (std::is_signed_v<T>) {
            auto a = ca::arange<T, S>(test::q(), T(3), T(7), T(-1));
            CHECK(a.size() == reference_arange(T(3), T(7), T(-1)).size());
        }
        // A single element when the step overshoots (xtensor's signed arange gets this wrong,
        // so compare with the definition).
        {
            auto a = ca::arange<T, S>(test::q(), T(0), T(1), T(3));
            check_close(a.get(), reference_arange(T(0), T(1), T(3)));
        }
        CHECK_THROWS_AS((ca::arange<T, S>(test::q(), T(0), T(10), T(0))), ca::usage_error);
    } else {
        SUCCEED("arange is not defined for bool");
    }
}

TEMPLATE_LIST_TEST_CASE("linspace equals xtensor's linspace", "[factories]",
                        CLARRAY_DTYPE_THIRD(1)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));
    if constexpr (std::is_floating_point_v<T>) {
        struct case_t {
            T start, stop;
            std::size_t num;
            bool endpoint;
        };
        std::vector<case_t> cases = {
            {T(0), T(1), 50, true},    {T(0), T(1), 50, false},    {T(-3), T(7), 11, true},
            {T(-3), T(7), 11, false},  {T(5), T(-5), 21, true},    {T(2), T(3), 2, true},
            {T(2), T(3), 2, false},    {T(1), T(9), 1, true},      {T(1), T(9), 1, false},
            {T(0.1), T(0.7), 7, true}, {T(-1), T(1), 100000, true}};
        for (const auto& c : cases) {
            INFO("linspace(" << c.start << ", " << c.stop << ", " << c.num << ", "
                             << (c.endpoint ? "endpoint" : "no endpoint") << ")");
            auto a = ca::linspace<T, S>(test::q(), c.start, c.stop, c.num, c.endpoint);
            xt::xarray<T> got = a.get();
            xt::xarray<T> want = xt::linspace<T>(c.start, c.stop, c.num, c.endpoint);
            check_close(got, want);
            REQUIRE(got.size() == c.num);
            CHECK(got(0) == c.start); // the first sample is exactly start
            // With the endpoint, the last sample is exactly stop (as NumPy guarantees).
            if (c.endpoint && c.num > 1) CHECK(got(c.num - 1) == c.stop);
            if (!c.endpoint && c.num > 1) CHECK(got(c.num - 1) != c.stop);
        }
        // num = 0 gives an empty array.
        auto e = ca::linspace<T, S>(test::q(), T(0), T(1), 0);
        CHECK(e.shape() == ca::shape_type{0});
        CHECK(e.get().size() == 0);
    } else {
        SUCCEED("linspace is only defined for floating types");
    }
}

TEMPLATE_LIST_TEST_CASE("*_like: shape, layout and values follow the source", "[factories]",
                        CLARRAY_DTYPE_THIRD(2)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));

    ca::shape_type shape{4, 6, 5};
    xt::xarray<T> r = test::random_array<T>(shape, 5);
    A c = ca::to_device<S>(test::q(), r);
    A f = ca::empty<T, S>(test::q(), shape, ca::layout::f);
    f.set(r);
    A tr = c.transpose();                                          // F-contiguous view
    A strided = c(ca::all(), ca::range(0, 6, 2), ca::range(1, 5)); // neither C nor F
    A zero_d = ca::to_device<S>(test::q(), test::random_array<T>(ca::shape_type{}, 9));
    A zero_size = ca::empty<T, S>(test::q(), {0, 3});

    struct src_t {
        const char* name;
        A a;
        ca::layout expect;
    };
    std::vector<src_t> sources = {
        {"C array", c, ca::layout::c},          {"F array", f, ca::layout::f},
        {"transposed view", tr, ca::layout::f}, {"strided view", strided, ca::layout::c},
        {"0-d", zero_d, ca::layout::c},         {"zero-size", zero_size, ca::layout::c}};
    for (auto& s : sources) {
        INFO(s.name);
        xt::xarray<T> before = s.a.get();
        const ca::shape_type sh = s.a.shape();

        A e = ca::empty_like(s.a);
        check_contiguous_layout(e, sh, s.expect);
        if (s.a.size() > 0) CHECK(e.data() != s.a.data());

        A z = ca::zeros_like(s.a);
        check_contiguous_layout(z, sh, s.expect);
        CHECK_ARRAY_EQ(z.get(), xt::xarray<T>(xt::zeros<T>(sh)));

        A o = ca::ones_like(s.a);
        check_contiguous_layout(o, sh, s.expect);
        CHECK_ARRAY_EQ(o.get(), xt::xarray<T>(xt::ones<T>(sh)));

        A fl = ca::full_like(s.a, big_value<T>());
        check_contiguous_layout(fl, sh, s.expect);
        xt::xarray<T> want = xt::xarray<T>::from_shape(sh);
        want.fill(big_value<T>());
        CHECK_ARRAY_EQ(fl.get(), want);

        // New storage: filling the *_like arrays left the source alone.
        CHECK_ARRAY_EQ(s.a.get(), before);
    }
    CHECK_ARRAY_EQ(c.get(), r);
}

TEMPLATE_LIST_TEST_CASE("to_device copies xtensor expressions and vectors", "[factories]",
                        CLARRAY_DTYPE_THIRD(0)) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    INFO((cfg_name<T, S>()));

    for (const auto& shape : factory_shapes()) {
        INFO("shape " << shape_str(shape));
        xt::xarray<T> r = test::random_array<T>(shape, 21);
        auto a = ca::to_device<S>(test::q(), r);
        static_assert(std::is_same_v<decltype(a), ca::cl_array<T, S>>);
        check_contiguous_layout(a, shape, ca::layout::c);
        CHECK_ARRAY_EQ(a.get(), r);
        check_memory_order(a, r, ca::layout::c);
        // A column-major host container goes to a C-order device array with the same values.
        xt::xarray<T, xt::layout_type::column_major> rf = r;
        auto b = ca::to_device<S>(test::q(), rf);
        check_contiguous_layout(b, shape, ca::layout::c);
        CHECK_ARRAY_EQ(b.get(), r);
    }

    // Lazy expressions: a transposed view, a strided view, a broadcast.
    xt::xarray<T> r = test::random_array<T>({5, 7}, 22);
    {
        auto a = ca::to_device<S>(test::q(), xt::transpose(r));
        xt::xarray<T> want = xt::transpose(r);
        check_contiguous_layout(a, {7, 5}, ca::layout::c);
        CHECK_ARRAY_EQ(a.get(), want);
    }
    {
        auto v = xt::view(r, xt::range(1, 5, 2), xt::range(6, 0, -3));
        auto a = ca::to_device<S>(test::q(), v);
        xt::xarray<T> want = v;
        check_contiguous_layout(a, ca::shape_type(want.shape().begin(), want.shape().end()),
                                ca::layout::c);
        CHECK_ARRAY_EQ(a.get(), want);
    }
    {
        auto a = ca::to_device<S>(test::q(), xt::ones<T>({3, 4}));
        CHECK_ARRAY_EQ(a.get(), xt::xarray<T>(xt::ones<T>({3, 4})));
    }
    if constexpr (!std::is_same_v<T, bool>) {
        auto a = ca::to_device<S>(test::q(), xt::arange<T>(T(0), T(24)));
        CHECK_ARRAY_EQ(a.get(), xt::xarray<T>(xt::arange<T>(T(0), T(24))));
    }

    // std::vector: a 1-d array of the same elements.
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000)}) {
        INFO("vector of " << n);
        xt::xarray<T> h = test::random_array<T>({n}, 23);
        std::vector<T> v(h.begin(), h.end());
        auto a = ca::to_device<S>(test::q(), v);
        CHECK(a.shape() == ca::shape_type{n});
        xt::xarray<T> got = a.get();
        CHECK_ARRAY_EQ(got, h);
        CHECK(std::vector<T>(got.begin(), got.end()) == v);
    }
}

TEST_CASE("array construction rejects negative extents", "[factories]") {
    CHECK_THROWS_AS(ca::cl_array<float>(test::q(), std::vector<int>{2, -3}), ca::shape_error);
    auto a = ca::cl_array<float, ca::buffer>(test::q(), std::vector<int>{2, 3});
    CHECK(a.shape() == ca::shape_type{2, 3});
    CHECK(a.strides() == reference_strides({2, 3}, ca::layout::c));
}
