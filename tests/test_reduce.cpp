// Reductions against host loops: every dtype x policy, shapes from 0-d and empty to primes, all
// axis selections, C / transposed / strided / broadcast inputs, NaN and infinity, accumulation
// types, the float32 error bound, fusion (one pass, no temporary) and non-blocking launches.
#include "reduce_reference.hpp"
#include "sampling.hpp"
#include "support.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using catch_compat::Contains;

using test::reference_reduce;

// Axis selections to try on a shape: all, each axis, first+last, and a negative axis.
std::vector<ca::reduce_axes> axis_cases(std::size_t rank) {
    std::vector<ca::reduce_axes> v{ca::reduce_axes()};
    for (std::size_t k = 0; k < rank; ++k) v.emplace_back(static_cast<std::ptrdiff_t>(k));
    if (rank >= 2) v.push_back(ca::reduce_axes{0, static_cast<std::ptrdiff_t>(rank - 1)});
    if (rank >= 3) v.push_back(ca::reduce_axes{-1, -2});
    return v;
}

const std::vector<ca::shape_type>& shape_cases() {
    static const std::vector<ca::shape_type> s{{},         {1},       {7},          {0},
                                               {13, 17},   {5, 0},    {0, 5},       {3, 5, 7},
                                               {2, 3, 4, 5}, {257, 3}, {3, 1031},   {1, 4099},
                                               {70000}};
    return s;
}

// The device input in three layouts with the same values: C order, a transposed view of the
// reversed shape, and every other element of a wider array.
enum class input_layout { c, transposed, strided };
const char* layout_name(input_layout l) {
    return l == input_layout::c ? "c" : l == input_layout::transposed ? "transposed" : "strided";
}

template <class A> A make_input(const xt::xarray<typename A::value_type>& host, input_layout l) {
    using T = typename A::value_type;
    const ca::shape_type shape(host.shape().begin(), host.shape().end());
    if (l == input_layout::c || shape.empty()) {
        A a(test::q(), shape);
        a.set(host);
        return a;
    }
    if (l == input_layout::transposed) {
        ca::shape_type rev(shape.rbegin(), shape.rend());
        A t(test::q(), rev);
        xt::xarray<T> ht = xt::transpose(host);
        t.set(ht);
        return t.transpose();
    }
    ca::shape_type wide = shape;
    wide.back() = 2 * shape.back();
    A w(test::q(), wide);
    A v = w(ca::ellipsis(), ca::range(0, static_cast<std::ptrdiff_t>(wide.back()), 2));
    v.set(host);
    return v;
}

template <class T> xt::xarray<T> values_for(const ca::shape_type& shape, unsigned seed) {
    return test::random_array<T>(shape, seed);
}

template <class T, class U> void check_equal(const xt::xarray<T>& got, const xt::xarray<U>& want,
                                             const std::string& what) {
    INFO(what);
    REQUIRE(got.shape() == want.shape());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i);
        if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(static_cast<double>(want.data()[i]))) {
                CHECK(std::isnan(got.data()[i]));
                continue;
            }
        }
        CHECK(got.data()[i] == static_cast<T>(want.data()[i]));
    }
}

// |got - want| <= tol * scale per element.
template <class T>
void check_close(const xt::xarray<T>& got, const xt::xarray<double>& want,
                 const xt::xarray<double>& scale, double tol, const std::string& what) {
    INFO(what);
    REQUIRE(got.shape() == want.shape());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i << ": got " << got.data()[i] << ", want " << want.data()[i]);
        if (std::isnan(want.data()[i])) {
            CHECK(std::isnan(static_cast<double>(got.data()[i])));
            continue;
        }
        CHECK(std::abs(static_cast<double>(got.data()[i]) - want.data()[i]) <=
              tol * scale.data()[i] + 1e-300);
    }
}

template <class T> constexpr double eps() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::epsilon();
    else return 0;
}

// The documented float bound (docs/reductions.md): 27 eps sum|x| on GPUs, 16 on CPUs.
template <class T> constexpr double sum_tolerance() { return 27 * eps<T>(); }

template <class T, class S>
std::string describe(const ca::shape_type& shape, const ca::reduce_axes& ax, bool keep,
                     input_layout l) {
    return std::string(ca::dtype_name(ca::dtype_traits<T>::id)) + " " + S::name + " shape " +
           ca::shape_to_string(shape) + " axes " + ax.to_string() + (keep ? " keep_dims" : "") +
           " layout " + layout_name(l);
}

} // namespace

TEMPLATE_LIST_TEST_CASE("reductions match host loops over shapes, axes and layouts", "[reduce]",
                        test::dtype_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    using SumT = ca::detail::sum_acc_t<T>;
    // The default run takes every twentieth (shape, layout, axes) case, each configuration from
    // its own offset (tests/sampling.hpp: sampled; the eleven configurations meet about half of
    // the cases, the full run all of them in every configuration): each case is some ten kernels
    // to build.
    constexpr std::size_t offset = test::index_in_v<TestType, test::dtype_matrix>;
    std::size_t combo = 0;
    unsigned seed = 1;
    for (const auto& shape : shape_cases()) {
        const xt::xarray<T> host = values_for<T>(shape, seed++);
        const xt::xarray<double> habs = xt::abs(xt::cast<double>(host));
        for (input_layout l : {input_layout::c, input_layout::transposed, input_layout::strided}) {
            if (l != input_layout::c && shape.size() < 2 && l == input_layout::transposed) continue;
            const A a = make_input<A>(host, l);
            for (const auto& ax : axis_cases(shape.size())) {
                if (!test::sampled(combo++, offset, 20)) continue;
                const std::vector<bool> mask = ax.mask(shape, "test");
                std::size_t L = 1;
                for (std::size_t k = 0; k < shape.size(); ++k)
                    if (mask[k]) L *= shape[k];
                for (bool keep : {false, true}) {
                    if (keep && l != input_layout::c) continue; // same kernels as without
                    const std::string what = describe<T, S>(shape, ax, keep, l);
                    const auto want_shape = test::kept_shape(shape, mask, keep);
                    auto reshape = [&](auto x) {
                        x.reshape(want_shape);
                        return x;
                    };
                    // sum
                    auto s = ca::sum(a, ax, keep);
                    STATIC_REQUIRE(std::is_same_v<typename decltype(s)::value_type, SumT>);
                    if constexpr (std::is_floating_point_v<T>) {
                        auto want = reference_reduce<double>(
                            host, mask, 0.0, [](double acc, T v, std::size_t) { return acc + v; });
                        auto scale = reference_reduce<double>(
                            host, mask, 0.0,
                            [](double acc, T v, std::size_t) { return acc + std::abs(double(v)); });
                        check_close(s.get(), reshape(want), reshape(scale), sum_tolerance<T>(),
                                    "sum " + what);
                    } else {
                        // Wrapping (two's complement) accumulation, as the device does.
                        using U = std::uint64_t;
                        auto want = reference_reduce<U>(host, mask, U(0), [](U acc, T v, std::size_t) {
                            return acc + static_cast<U>(static_cast<SumT>(v));
                        });
                        check_equal(s.get(), xt::xarray<SumT>(xt::cast<SumT>(reshape(want))),
                                    "sum " + what);
                    }
                    // max / min / argmax / argmin (need elements)
                    if (L == 0) {
                        CHECK_THROWS_AS(ca::max(a, ax, keep), ca::shape_error);
                        CHECK_THROWS_AS(ca::min(a, ax, keep), ca::shape_error);
                    } else {
                        auto mx = reference_reduce<T>(host, mask, std::numeric_limits<T>::lowest(),
                                                      [](T acc, T v, std::size_t) {
                                                          return v > acc ? v : acc;
                                                      });
                        auto mn = reference_reduce<T>(host, mask, std::numeric_limits<T>::max(),
                                                      [](T acc, T v, std::size_t) {
                                                          return v < acc ? v : acc;
                                                      });
                        check_equal(ca::max(a, ax, keep).get(), reshape(mx), "max " + what);
                        check_equal(ca::min(a, ax, keep).get(), reshape(mn), "min " + what);
                    }
                    // any / all
                    auto an = reference_reduce<bool>(host, mask, false, [](bool acc, T v, std::size_t) {
                        return acc || v != T(0);
                    });
                    auto al = reference_reduce<bool>(host, mask, true, [](bool acc, T v, std::size_t) {
                        return acc && v != T(0);
                    });
                    check_equal(ca::any(a, ax, keep).get(), reshape(an), "any " + what);
                    check_equal(ca::all(a, ax, keep).get(), reshape(al), "all " + what);
                }
                // argmax / argmin along single axes and flat
                if (L > 0 && (ax.all() || ax.list().size() == 1)) {
                    struct best {
                        T v;
                        std::int64_t i;
                    };
                    auto arg = [&](bool want_max) {
                        auto r = reference_reduce<best>(
                            host, mask, best{T(0), -1}, [&](best acc, T v, std::size_t i) {
                                if (acc.i < 0) return best{v, std::int64_t(i)};
                                bool better = want_max ? v > acc.v : v < acc.v;
                                return better ? best{v, std::int64_t(i)} : acc;
                            });
                        xt::xarray<std::int64_t> idx = xt::xarray<std::int64_t>::from_shape(r.shape());
                        for (std::size_t k = 0; k < r.size(); ++k) idx.data()[k] = r.data()[k].i;
                        return idx;
                    };
                    const std::string what = describe<T, S>(shape, ax, false, l);
                    if (ax.all()) {
                        check_equal(ca::argmax(a).get(), arg(true), "argmax " + what);
                        check_equal(ca::argmin(a).get(), arg(false), "argmin " + what);
                    } else {
                        check_equal(ca::argmax(a, ax.list()[0]).get(), arg(true), "argmax " + what);
                        check_equal(ca::argmin(a, ax.list()[0]).get(), arg(false), "argmin " + what);
                    }
                }
            }
        }
    }
}

TEMPLATE_LIST_TEST_CASE("prod accumulates as NumPy and wraps like it", "[reduce]",
                        test::dtype_matrix) {
    using T = typename TestType::value_type;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    using P = ca::detail::sum_acc_t<T>;
    for (const ca::shape_type& shape : {ca::shape_type{}, ca::shape_type{0}, ca::shape_type{9},
                                        ca::shape_type{6, 7}, ca::shape_type{3, 4, 5}}) {
        xt::xarray<T> host = xt::xarray<T>::from_shape(shape);
        std::size_t k = 0;
        for (auto& v : host) {
            if constexpr (std::is_floating_point_v<T>) v = T(0.75) + T(0.125) * T(k++ % 5);
            else v = static_cast<T>(k++ % 3 + 1);
        }
        A a(test::q(), shape);
        a.set(host);
        for (const auto& ax : axis_cases(shape.size())) {
            const auto mask = ax.mask(shape, "test");
            auto got = ca::prod(a, ax).get();
            STATIC_REQUIRE(std::is_same_v<typename decltype(got)::value_type, P>);
            if constexpr (std::is_floating_point_v<T>) {
                auto want = reference_reduce<double>(host, mask, 1.0,
                                                     [](double acc, T v, std::size_t) { return acc * v; });
                check_close(got, want, xt::abs(want), 64 * eps<T>(), "prod " + ax.to_string());
            } else {
                using U = std::uint64_t;
                auto want = reference_reduce<U>(host, mask, U(1), [](U acc, T v, std::size_t) {
                    return acc * static_cast<U>(static_cast<P>(v));
                });
                check_equal(got, xt::xarray<P>(xt::cast<P>(want)), "prod " + ax.to_string());
            }
        }
    }
}

TEMPLATE_LIST_TEST_CASE("float sums of 2^24+1 elements stay within the documented bound",
                        "[reduce]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = (std::size_t(1) << 24) + 1;
    xt::xarray<float> host = xt::xarray<float>::from_shape({n});
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& v : host) v = u(rng);
    double want = 0, scale = 0;
    for (float v : host) {
        want += v;
        scale += std::abs(v);
    }
    auto a = ca::to_device<S>(test::q(), host);
    const double got = ca::sum(a).item();
    INFO("got " << got << " want " << want);
    CHECK(std::abs(got - want) <= sum_tolerance<float>() * scale);
    // A plain sequential float32 sum is far outside that bound here.
    float naive = 0;
    for (float v : host) naive += v;
    CHECK(std::abs(double(naive) - want) > sum_tolerance<float>() * scale);
    // The same bound for a fused dot product and a mean.
    const double d = ca::dot(a, a).item();
    double dwant = 0;
    for (float v : host) dwant += double(v) * v;
    CHECK(std::abs(d - dwant) <= sum_tolerance<float>() * dwant * 1.01);
    CHECK(std::abs(ca::mean(a).item() - want / n) <= sum_tolerance<float>() * scale / n);
}

TEMPLATE_LIST_TEST_CASE("NaN propagates through max/min and wins argmax/argmin", "[reduce]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    xt::xarray<float> h = {{1.0f, nan, 3.0f, nan}, {-inf, 2.0f, inf, 0.5f}, {4.0f, 5.0f, -1.0f, 6.0f}};
    auto a = ca::to_device<S>(test::q(), h);
    CHECK(std::isnan(ca::max(a).item()));
    CHECK(std::isnan(ca::min(a).item()));
    CHECK(std::isnan(ca::sum(a).item()));
    CHECK(ca::argmax(a).item() == 1); // the first NaN
    CHECK(ca::argmin(a).item() == 1);
    auto rows = ca::max(a, 1).get();
    CHECK(std::isnan(rows(0)));
    CHECK(rows(1) == inf);
    CHECK(rows(2) == 6.0f);
    auto rmin = ca::min(a, 1).get();
    CHECK(rmin(1) == -inf);
    auto am = ca::argmax(a, 0).get();
    CHECK(am(0) == 2);
    CHECK(am(1) == 0); // NaN in row 0
    CHECK(am(2) == 1); // inf
    CHECK(am(3) == 0);
    // inf - inf is NaN in a sum; an all-inf row sums to inf
    CHECK(std::isnan(ca::sum(a, 1).get()(1)));
    xt::xarray<float> hi = {inf, inf, 1.0f};
    CHECK(ca::sum(ca::to_device<S>(test::q(), hi)).item() == inf);
}

TEMPLATE_LIST_TEST_CASE("empty reductions give the identity or need an initial value", "[reduce]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto e = ca::empty<float, S>(test::q(), {0});
    auto e2 = ca::empty<float, S>(test::q(), {3, 0});
    CHECK(ca::sum(e).item() == 0.0f);
    CHECK(ca::prod(e).item() == 1.0f);
    CHECK(ca::any(e).item() == false);
    CHECK(ca::all(e).item() == true);
    CHECK(std::isnan(ca::mean(e).item()));
    CHECK_THROWS_WITH(ca::max(e), Contains("max") && Contains("no identity") &&
                                      Contains("(0,)"));
    CHECK_THROWS_AS(ca::argmin(e), ca::shape_error);
    CHECK(ca::max(e, {}, false, -7.0f).item() == -7.0f);
    auto r = ca::min(e2, 1, false, 2.5f).get();
    REQUIRE(r.shape() == std::vector<std::size_t>{3});
    for (float v : r) CHECK(v == 2.5f);
    CHECK(ca::sum(e2, 0).get().size() == 0); // no outputs
    auto s1 = ca::sum(e2, 1).get();
    for (float v : s1) CHECK(v == 0.0f);
    // An initial value takes part when there are elements too.
    xt::xarray<float> h = {1.0f, 4.0f, 2.0f};
    auto a = ca::to_device<S>(test::q(), h);
    CHECK(ca::max(a, {}, false, 10.0f).item() == 10.0f);
    CHECK(ca::max(a, {}, false, 0.0f).item() == 4.0f);
}

TEST_CASE("reduction result types follow NumPy", "[reduce]") {
    if (test::skip_unless<ca::svm_coarse>()) return; // default storage
    using namespace ca;
    auto i8 = empty<std::int8_t>(test::q(), {2});
    auto u16 = empty<std::uint16_t>(test::q(), {2});
    auto b = empty<bool>(test::q(), {2});
    auto f = empty<float>(test::q(), {2});
    auto i32 = empty<std::int32_t>(test::q(), {2});
    STATIC_REQUIRE(std::is_same_v<decltype(sum(i8))::value_type, std::int64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(sum(u16))::value_type, std::uint64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(sum(b))::value_type, std::int64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(sum(f))::value_type, float>);
    STATIC_REQUIRE(std::is_same_v<decltype(prod(i8))::value_type, std::int64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(max(i8))::value_type, std::int8_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(mean(i32))::value_type, double>);
    STATIC_REQUIRE(std::is_same_v<decltype(mean(f))::value_type, float>);
    STATIC_REQUIRE(std::is_same_v<decltype(var(i8))::value_type, double>);
    STATIC_REQUIRE(std::is_same_v<decltype(argmax(f))::value_type, std::int64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(any(f))::value_type, bool>);
    STATIC_REQUIRE(std::is_same_v<decltype(dot(i8, i8))::value_type, std::int8_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(dot(i8, f))::value_type, float>);
    STATIC_REQUIRE(std::is_same_v<decltype(norm(i32))::value_type, double>);
    STATIC_REQUIRE(std::is_same_v<decltype(cumsum(i8))::value_type, std::int64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(sum(f))::storage_policy, svm_coarse>);
    auto fb = empty<float, ca::buffer>(test::q(), {2});
    STATIC_REQUIRE(std::is_same_v<decltype(sum(fb + f))::storage_policy, ca::buffer>);
    CHECK(sum(f).dimension() == 0);
}

TEMPLATE_LIST_TEST_CASE("mean, var, stddev and norms match host loops", "[reduce]",
                        test::dtype_matrix) {
    using T = typename TestType::value_type;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    using F = ca::detail::mean_t<T>;
    constexpr std::size_t offset = test::index_in_v<TestType, test::dtype_matrix>;
    std::size_t combo = 0; // every 18th axis case in the default run (sampling.hpp: sampled)
    if constexpr (std::is_same_v<T, bool>) {
        return; // (covered through the integer path; keeps this test's size down)
    } else {
        for (const ca::shape_type& shape :
             {ca::shape_type{1}, ca::shape_type{101}, ca::shape_type{7, 9}, ca::shape_type{3, 4, 5}}) {
            const xt::xarray<T> host = values_for<T>(shape, 11);
            A a(test::q(), shape);
            a.set(host);
            for (const auto& ax : axis_cases(shape.size())) {
                if (!test::sampled(combo++, offset, 18)) continue;
                const auto mask = ax.mask(shape, "test");
                const std::string what = ax.to_string() + " " + ca::shape_to_string(shape);
                std::size_t L = 1;
                for (std::size_t k = 0; k < shape.size(); ++k)
                    if (mask[k]) L *= shape[k];
                auto sum = reference_reduce<double>(host, mask, 0.0,
                                                    [](double acc, T v, std::size_t) { return acc + double(v); });
                auto sumsq = reference_reduce<double>(host, mask, 0.0, [](double acc, T v, std::size_t) {
                    return acc + double(v) * double(v);
                });
                auto sabs = reference_reduce<double>(host, mask, 0.0, [](double acc, T v, std::size_t) {
                    return acc + std::abs(double(v));
                });
                auto mabs = reference_reduce<double>(host, mask, 0.0, [](double acc, T v, std::size_t) {
                    return std::max(acc, std::abs(double(v)));
                });
                xt::xarray<double> mean = sum / double(L);
                xt::xarray<double> var = sumsq / double(L) - mean * mean;
                xt::xarray<double> var1 = var * double(L) / std::max(double(L) - 1, 1.0);
                const double tol = 64 * std::max(eps<F>(), 1e-15);
                check_close(ca::mean(a, ax).get(), mean, xt::eval(sabs / double(L)), tol, "mean " + what);
                // var's scale: the squares, not the (cancelling) difference
                xt::xarray<double> vscale = sumsq / double(L) + mean * mean;
                check_close(ca::var(a, ax).get(), var, vscale, tol * 4, "var " + what);
                if (L > 1) check_close(ca::var(a, ax, false, 1).get(), var1, vscale * 2, tol * 4, "var ddof " + what);
                check_close(ca::stddev(a, ax).get(), xt::eval(xt::sqrt(var)), xt::eval(xt::sqrt(vscale)),
                            tol * 8, "stddev " + what);
                check_close(ca::norm(a, 2, ax).get(), xt::eval(xt::sqrt(sumsq)), xt::eval(xt::sqrt(sumsq)), tol,
                            "norm2 " + what);
                check_close(ca::norm(a, 1, ax).get(), sabs, sabs, tol, "norm1 " + what);
                check_close(ca::norm(a, std::numeric_limits<double>::infinity(), ax).get(), mabs, mabs, 0,
                            "norm inf " + what);
                auto kd = ca::mean(a, ax, true);
                CHECK(kd.shape() == test::kept_shape(shape, mask, true));
            }
        }
    }
}

TEMPLATE_LIST_TEST_CASE("reductions fuse the map expression: one pass, no temporary", "[reduce]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const ca::shape_type shape{300, 517};
    auto ha = test::random_array<float>(shape, 1), hb = test::random_array<float>(shape, 2);
    xt::xarray<float> hc = test::random_array<float>({517}, 3);
    auto a = ca::to_device<S>(test::q(), ha), b = ca::to_device<S>(test::q(), hb);
    auto c = ca::to_device<S>(test::q(), hc);
    for (const ca::reduce_axes& ax : {ca::reduce_axes(), ca::reduce_axes(0), ca::reduce_axes(1)}) {
        (void)ca::sum(a * b + c, ax); // builds the kernels
        test::q().finish();
        const auto before = ca::current_allocation_stats();
        const auto launches = ca::kernel_launch_count();
        auto r = ca::sum(a * b + c, ax); // broadcast c along axis 0
        const auto after = ca::current_allocation_stats();
        CHECK(ca::kernel_launch_count() - launches <= 2); // stage 1 (+ stage 2 for partials)
        // The result and at most a small partials buffer: nothing of the input's size.
        CHECK(after.live_bytes - before.live_bytes < std::int64_t(ha.size() * sizeof(float) / 4));
        const auto mask = ax.mask(shape, "test");
        xt::xarray<float> prod = ha * hb + hc;
        auto want = reference_reduce<double>(prod, mask, 0.0,
                                             [](double acc, float v, std::size_t) { return acc + v; });
        auto scale = reference_reduce<double>(prod, mask, 0.0,
                                              [](double acc, float v, std::size_t) { return acc + std::abs(v); });
        check_close(r.get(), want, scale, sum_tolerance<float>() * 2, "fused " + ax.to_string());
    }
    // Scalars in the expression are kernel arguments: a second value reuses the kernel.
    auto s1 = ca::sum(a * 2.0f).item();
    auto s2 = ca::sum(a * 3.0f).item();
    CHECK(s2 == Approx(s1 * 1.5).epsilon(1e-4));
}

TEMPLATE_LIST_TEST_CASE("reductions do not block the host", "[reduce]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::context& ctx = test::ctx();
    ca::queue q(ctx);
    ca::kernel writer = ca::program(ctx, "kernel void w(global float* a) { a[get_global_id(0)] = 2.0f; }")
                            .kernel("w");
    cl_int rc = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(ctx.get(), &rc);
    REQUIRE(rc == CL_SUCCESS);
    auto a = ca::empty<float, S>(q, {100000});
    writer.launch(q, {100000}, {}, {ca::event::retain(gate)}, ca::out(a));
    // Each of these would deadlock if it waited: the writer cannot start before the gate opens.
    auto s = ca::sum(a);
    auto m = ca::max(a * 2.0f, 0);
    auto d = ca::dot(a, a);
    auto cs = ca::cumsum(a);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    clReleaseEvent(gate);
    CHECK(s.item() == 200000.0f);
    CHECK(m.item() == 4.0f);
    CHECK(d.item() == 400000.0f);
    CHECK(cs.get()(99999) == 200000.0f);
}

TEMPLATE_LIST_TEST_CASE("dot and vdot match host loops", "[reduce]", test::dtype_matrix) {
    using T = typename TestType::value_type;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    auto check_dot = [&](const ca::shape_type& sa, const ca::shape_type& sb) {
        const xt::xarray<T> ha = values_for<T>(sa, 5), hb = values_for<T>(sb, 6);
        A a(test::q(), sa), b(test::q(), sb);
        a.set(ha);
        b.set(hb);
        auto got = ca::dot(a, b).get();
        using R = typename decltype(got)::value_type;
        STATIC_REQUIRE(std::is_same_v<R, ca::promote_t<T, T>>);
        // host matrix product over the contracted axis, in double / wrapping integers
        const std::size_t M = sa.size() == 2 ? sa[0] : 1, K = sa.back(),
                          N = sb.size() == 2 ? sb[1] : 1;
        xt::xarray<R> want = xt::xarray<R>::from_shape(got.shape());
        xt::xarray<double> scale = xt::xarray<double>::from_shape(got.shape());
        for (std::size_t m = 0; m < M; ++m)
            for (std::size_t n = 0; n < N; ++n) {
                double acc = 0, sc = 0;
                std::uint64_t iacc = 0;
                bool bacc = false;
                for (std::size_t k = 0; k < K; ++k) {
                    const T x = ha.data()[m * K + k], y = hb.data()[k * N + n];
                    acc += double(x) * double(y);
                    sc += std::abs(double(x) * double(y));
                    iacc += static_cast<std::uint64_t>(static_cast<R>(x * y));
                    bacc = bacc || (x && y);
                }
                R w;
                if constexpr (std::is_same_v<R, bool>) w = bacc;
                else if constexpr (std::is_floating_point_v<R>) w = static_cast<R>(acc);
                else w = static_cast<R>(iacc);
                want.data()[m * N + n] = w;
                scale.data()[m * N + n] = sc;
            }
        const std::string what = ca::shape_to_string(sa) + " . " + ca::shape_to_string(sb);
        if constexpr (std::is_floating_point_v<R>)
            check_close(got, xt::xarray<double>(xt::cast<double>(want)), scale, sum_tolerance<R>(), what);
        else
            check_equal(got, want, what);
    };
    check_dot({1}, {1});
    check_dot({1000}, {1000});
    check_dot({17, 33}, {33, 9});
    check_dot({5, 64}, {64});
    check_dot({64}, {64, 7});
    A a(test::q(), ca::shape_type{3, 4}), b(test::q(), ca::shape_type{3, 4});
    CHECK_THROWS_WITH(ca::dot(a, b), Contains("not aligned") && Contains("(3, 4)"));
    // vdot flattens (a transposed view is copied to C order first)
    const xt::xarray<T> ha = values_for<T>({3, 4}, 8), hb = values_for<T>({4, 3}, 9);
    a.set(ha);
    A bt(test::q(), ca::shape_type{4, 3});
    bt.set(hb);
    auto v = ca::vdot(a, bt.transpose()).item();
    xt::xarray<T> hbt = xt::transpose(hb);
    double dw = 0;
    std::uint64_t iw = 0;
    bool bw = false;
    for (std::size_t i = 0; i < 12; ++i) {
        const T x = ha.data()[i], y = xt::xarray<T>(hbt).data()[i];
        dw += double(x) * double(y);
        iw += static_cast<std::uint64_t>(static_cast<T>(x * y));
        bw = bw || (x && y);
    }
    if constexpr (std::is_same_v<T, bool>) CHECK(v == bw);
    else if constexpr (std::is_floating_point_v<T>) CHECK(double(v) == Approx(dw).epsilon(1e-5));
    else CHECK(v == static_cast<T>(iw));
}

TEST_CASE("reduction arguments are checked", "[reduce][errors]") {
    if (test::skip_unless<ca::svm_coarse>()) return; // default storage
    auto a = ca::zeros<float>(test::q(), {2, 3});
    CHECK_THROWS_WITH(ca::sum(a, 2), Contains("axis 2") && Contains("(2, 3)"));
    CHECK_THROWS_AS(ca::sum(a, -3), ca::index_error);
    CHECK_THROWS_WITH(ca::sum(a, {1, -1}), Contains("repeated"));
    CHECK_THROWS_WITH(ca::norm(a, 3), Contains("ord"));
    CHECK_THROWS_AS(ca::argmax(a, 5), ca::index_error);
    auto b = ca::zeros<float>(test::q(), {4});
    CHECK_THROWS_WITH(ca::dot(b * 2.0f, a(0) + 1.0f), Contains("equal length"));
    CHECK_THROWS_WITH(ca::vdot(a, b), Contains("different sizes"));
    auto before = ca::current_allocation_stats();
    CHECK_THROWS(ca::max(ca::zeros<float>(test::q(), {0, 2}), 0));
    test::q().finish();
    CHECK(ca::current_allocation_stats().live_allocations == before.live_allocations);
}

TEMPLATE_LIST_TEST_CASE("reductions of pooled arrays allocate results and partials from the pool",
                        "[reduce][pool]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::pool_for_t<S> pool(test::ctx());
    auto a = ca::full<float>(test::q(), {1 << 20}, 1.0f, pool);
    auto s = ca::sum(a * 2.0f);       // partials (several parts) and result from the pool
    auto c = ca::cumsum(a);           // three-pass scan: its carries too
    CHECK(s.item() == float(2 << 20));
    CHECK(c.get()((1 << 20) - 1) == float(1 << 20));
    REQUIRE(s.data()->pool());
    CHECK(s.data()->pool() == a.data()->pool());
    CHECK(c.data()->pool() == a.data()->pool());
    const auto before = pool.stats().reuses;
    (void)ca::sum(a * 2.0f).item();   // the released partials and result are reused
    CHECK(pool.stats().reuses > before);
}

TEST_CASE("item() needs a bound array of one element", "[reduce][errors]") {
    if (test::skip_unless<ca::svm_coarse>()) return; // default storage
    ca::cl_array<float> unbound;
    CHECK_THROWS_AS(unbound.item(), ca::usage_error);
    CHECK_THROWS_WITH(ca::zeros<float>(test::q(), {2}).item(), Contains("exactly one"));
}
