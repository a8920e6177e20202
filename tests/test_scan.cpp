// cumsum / cumprod against host loops (inclusive and exclusive, along each axis and flattened,
// strided inputs, lines long enough for the three-pass scheme), and the string kernels.
#include "reduce_reference.hpp"
#include "support.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace {

using catch_compat::Contains;

// Products of up to 32 values of magnitude <= 100 stay finite in float32.
bool checked_size_small(const ca::shape_type& s) {
    std::size_t n = 1;
    for (auto e : s) n *= e;
    return n <= 32;
}

// Host scan of x along `axis` (or flattened when axis < 0), accumulating in A with wrap-around.
template <class A, class T, class F>
xt::xarray<A> reference_scan(const xt::xarray<T>& x, std::ptrdiff_t axis, bool exclusive, A init,
                             F&& f) {
    const ca::shape_type shape(x.shape().begin(), x.shape().end());
    if (axis < 0) {
        xt::xarray<A> out = xt::xarray<A>::from_shape({x.size()});
        A acc = init;
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (exclusive) out.data()[i] = acc;
            acc = f(acc, x.data()[i]);
            if (!exclusive) out.data()[i] = acc;
        }
        return out;
    }
    xt::xarray<A> out = xt::xarray<A>::from_shape(shape);
    std::size_t inner = 1, outer = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (k < std::size_t(axis)) outer *= shape[k];
        if (k > std::size_t(axis)) inner *= shape[k];
    }
    const std::size_t n = shape[axis];
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t i = 0; i < inner; ++i) {
            A acc = init;
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t at = (o * n + k) * inner + i;
                if (exclusive) out.data()[at] = acc;
                acc = f(acc, x.data()[at]);
                if (!exclusive) out.data()[at] = acc;
            }
        }
    return out;
}

} // namespace

using scan_types = std::tuple<test::cfg<std::int8_t, ca::svm_coarse>, test::cfg<std::int32_t, ca::buffer>,
                              test::cfg<std::uint16_t, ca::svm_fine>, test::cfg<float, ca::svm_coarse>,
                              test::cfg<float, ca::svm_fine>, test::cfg<double, ca::buffer>,
                              test::cfg<bool, ca::buffer>>;

TEMPLATE_LIST_TEST_CASE("cumsum and cumprod match host loops", "[scan]", scan_types) {
    using T = typename TestType::value_type;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    using R = ca::detail::sum_acc_t<T>;
    for (const ca::shape_type& shape :
         {ca::shape_type{}, ca::shape_type{0}, ca::shape_type{1}, ca::shape_type{37},
          ca::shape_type{5, 0}, ca::shape_type{6, 7}, ca::shape_type{3, 4, 5},
          ca::shape_type{2, 9000}, ca::shape_type{9000, 3}, ca::shape_type{300001}}) {
        xt::xarray<T> host = test::random_array<T>(shape, 3);
        if constexpr (std::is_floating_point_v<T>)
            for (auto& v : host) v = std::round(v); // integral values: exact float sums
        A a(test::q(), shape);
        a.set(host);
        std::vector<std::ptrdiff_t> axes{-1};
        for (std::size_t k = 0; k < shape.size(); ++k) axes.push_back(std::ptrdiff_t(k));
        for (std::ptrdiff_t axis : axes)
            for (bool exclusive : {false, true}) {
                INFO("shape " << ca::shape_to_string(shape) << " axis " << axis
                              << (exclusive ? " exclusive" : ""));
                std::optional<std::ptrdiff_t> ax;
                if (axis >= 0) ax = axis;
                auto got = ca::cumsum(a, ax, exclusive).get();
                STATIC_REQUIRE(std::is_same_v<typename decltype(got)::value_type, R>);
                using W = std::conditional_t<std::is_floating_point_v<R>, R, std::uint64_t>;
                auto want = reference_scan<W>(host, axis, exclusive, W(0), [](W acc, T v) {
                    return W(acc + static_cast<W>(static_cast<R>(v)));
                });
                REQUIRE(got.shape() == want.shape());
                bool same = true;
                for (std::size_t i = 0; i < got.size(); ++i) same = same && got.data()[i] == R(want.data()[i]);
                CHECK(same);
                if (shape.size() <= 2 && checked_size_small(shape)) {
                    // cumprod on small shapes (products of larger ones overflow floats)
                    auto gp = ca::cumprod(a, ax, exclusive).get();
                    auto wp = reference_scan<W>(host, axis, exclusive, W(1), [](W acc, T v) {
                        return W(acc * static_cast<W>(static_cast<R>(v)));
                    });
                    bool psame = true;
                    for (std::size_t i = 0; i < gp.size(); ++i) psame = psame && gp.data()[i] == R(wp.data()[i]);
                    CHECK(psame);
                }
            }
    }
}

TEMPLATE_LIST_TEST_CASE("scans of strided views and expressions", "[scan]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    xt::xarray<float> h = xt::round(test::random_array<float>({40, 30}, 4));
    auto a = ca::to_device<S>(test::q(), h);
    auto v = a(ca::range(1, 40, 3), ca::range(29, 0, -2)); // strided, reversed columns
    xt::xarray<float> hv = v.get();
    auto got = ca::cumsum(v * 2.0f + 1.0f, 0).get();
    xt::xarray<float> he = hv * 2.0f + 1.0f;
    auto want = reference_scan<float>(he, 0, false, 0.0f, [](float acc, float x) { return acc + x; });
    CHECK(bool(got == want));
    auto gt = ca::cumsum(a.transpose(), 1, true).get();
    xt::xarray<float> ht = xt::transpose(h);
    const bool same_t = gt == reference_scan<float>(ht, 1, true, 0.0f, [](float acc, float x) { return acc + x; });
    CHECK(same_t);
    CHECK_THROWS_AS(ca::cumsum(a, 2), ca::index_error);
}

TEMPLATE_LIST_TEST_CASE("elementwise_kernel and reduction_kernel from strings", "[kernels]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::context& ctx = test::ctx();
    const std::size_t n = 100003;
    auto hx = test::random_array<float>({n}, 1), hy = test::random_array<float>({n}, 2);
    auto x = ca::to_device<S>(test::q(), hx), y = ca::to_device<S>(test::q(), hy);
    ca::elementwise_kernel axpy(ctx, "global float* z, float a, global const float* x",
                                "z[i] = a * x[i] + z[i]", "axpy");
    auto z = y.copy();
    axpy(test::q(), z, 2.0f, ca::in(x));
    xt::xarray<float> want = 2.0f * hx + hy;
    CHECK(xt::allclose(z.get(), want));
    // A view binds at its first element (Buffers: only at CL_DEVICE_MEM_BASE_ADDR_ALIGN).
    auto zt = z(ca::range(10, static_cast<std::ptrdiff_t>(n)));
    ca::elementwise_kernel neg(ctx, "global float* v", "v[i] = -v[i]");
    if constexpr (S::is_svm) {
        neg(test::q(), zt);
        auto back = z.get();
        CHECK(back(5) == want(5));
        CHECK(back(10) == -want(10));
    } else {
        CHECK_THROWS_WITH(neg(test::q(), zt), Contains("not aligned"));
    }
    CHECK_THROWS_WITH(neg(test::q(), x(ca::range(0, 100, 2))), Contains("not C-contiguous"));

    ca::reduction_kernel<float> dotk(ctx, 0.0f, "a + b", "x[i] * y[i]",
                                     "global const float* x, global const float* y");
    const double got = dotk(test::q(), ca::in(x), ca::in(y)).item();
    double dw = 0, sc = 0;
    for (std::size_t i = 0; i < n; ++i) {
        dw += double(hx(i)) * hy(i);
        sc += std::abs(double(hx(i)) * hy(i));
    }
    CHECK(std::abs(got - dw) <= 1e-5 * sc);
    ca::reduction_kernel<float> maxk(ctx, -INFINITY, "fmax(a, b)", "fabs(x[i])",
                                     "global const float* x");
    CHECK(maxk(test::q(), x).item() == xt::amax(xt::abs(hx))());
    auto empty = ca::empty<float, S>(test::q(), {0});
    CHECK(maxk(test::q(), empty).item() == -INFINITY);
    ca::reduction_kernel<std::int64_t> count(ctx, 0, "a + b", "x[i] > 0.0f ? 1 : 0",
                                             "global const float* x");
    CHECK(count(test::q(), x).item() == std::int64_t(xt::sum(xt::cast<std::int64_t>(hx > 0.0f))()));
    // Build errors carry the compiler's log.
    try {
        ca::elementwise_kernel bad(ctx, "global float* v", "v[i] = undefined_name[i]");
        FAIL("a kernel with an undefined name built");
    } catch (const ca::build_error& e) {
        CHECK(std::string(e.what()).find("undefined_name") != std::string::npos);
    }
    CHECK_THROWS_AS(ca::reduction_kernel<float>(ctx, 0.0f, "a +* b", "x[i]", "global const float* x"),
                    ca::build_error);
}
