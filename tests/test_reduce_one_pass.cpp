// One-pass reductions (the last unit of each output combines the partials, counted on the
// in-order queue's completion counters) and short reduced axes (an item per output, the axis
// unrolled), against host loops. CLARRAY_PLAN_AS_GPU=1 takes the GPU kernel shapes on pocl.
#include "reduce_reference.hpp"
#include "support.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using ca::all;
using ca::newaxis;
using test::reference_reduce;

// Sizes: one work-group, a few groups with a short last part, many groups, a large prime-ish.
const std::vector<std::size_t>& one_pass_sizes() {
    static const std::vector<std::size_t> s{1, 255, 3 * 4096 + 7, 70001};
    return s;
}

template <class T> double eps() {
    if constexpr (std::is_floating_point_v<T>)
        return std::numeric_limits<T>::epsilon();
    else
        return 0;
}

// Host references of every full reduction of `h` (flat), compared with the device's results.
template <class A>
void check_full_reductions(const A& a, const xt::xarray<typename A::value_type>& h,
                           const std::string& what) {
    using T = typename A::value_type;
    using SumT = ca::detail::sum_acc_t<T>;
    INFO(what);
    const std::vector<bool> mask(h.dimension(), true);
    if constexpr (std::is_floating_point_v<T>) {
        // long double: the reference of a double sum must be more exact than the device's.
        const double want = double(reference_reduce<long double>(
            h, mask, 0.0L, [](long double s, T v, std::size_t) { return s + v; })());
        const double scale = reference_reduce<double>(
            h, mask, 0.0, [](double s, T v, std::size_t) { return s + std::abs(double(v)); })();
        CHECK(std::abs(double(ca::sum(a).item()) - want) <= 27 * eps<T>() * scale + 1e-300);
        const double n = double(h.size());
        CHECK(std::abs(double(ca::mean(a).item()) - want / n) <=
              27 * eps<T>() * scale / n + 1e-300);
    } else {
        using U = std::uint64_t;
        const U want = reference_reduce<U>(h, mask, U(0), [](U s, T v, std::size_t) {
            return s + static_cast<U>(static_cast<SumT>(v));
        })();
        CHECK(ca::sum(a).item() == static_cast<SumT>(want));
    }
    const T mx = reference_reduce<T>(h, mask, std::numeric_limits<T>::lowest(),
                                     [](T m, T v, std::size_t) { return v > m ? v : m; })();
    const T mn = reference_reduce<T>(h, mask, std::numeric_limits<T>::max(),
                                     [](T m, T v, std::size_t) { return v < m ? v : m; })();
    CHECK(ca::max(a).item() == mx);
    CHECK(ca::min(a).item() == mn);
    std::int64_t imax = 0, imin = 0;
    for (std::size_t i = 1; i < h.size(); ++i) {
        if (h.data()[i] > h.data()[imax]) imax = static_cast<std::int64_t>(i);
        if (h.data()[i] < h.data()[imin]) imin = static_cast<std::int64_t>(i);
    }
    CHECK(ca::argmax(a).item() == imax);
    CHECK(ca::argmin(a).item() == imin);
    bool any = false, every = true;
    for (std::size_t i = 0; i < h.size(); ++i) {
        any = any || h.data()[i] != T(0);
        every = every && h.data()[i] != T(0);
    }
    CHECK(ca::any(a).item() == any);
    CHECK(ca::all(a).item() == every);
}

// Values whose product is exact: +-1 (bool: all true but the last, which is random).
template <class T> xt::xarray<T> unit_values(std::size_t n, unsigned seed) {
    xt::xarray<T> h = test::random_array<T>({n}, seed);
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, bool>)
            h(i) = i + 1 < n ? true : h(i);
        else if constexpr (std::is_unsigned_v<T>)
            h(i) = T(1);
        else
            h(i) = (static_cast<long long>(h(i)) % 2 == 0) ? T(1) : T(-1);
    }
    return h;
}

} // namespace

TEMPLATE_LIST_TEST_CASE("one-pass full reductions match host loops", "[reduce][one_pass]",
                        test::dtype_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    using SumT = ca::detail::sum_acc_t<T>;
    unsigned seed = 11;
    for (std::size_t n : one_pass_sizes()) {
        const std::string what = std::string(ca::dtype_name(ca::dtype_traits<T>::id)) + " " +
                                 S::name + " n=" + std::to_string(n);
        const xt::xarray<T> h = test::random_array<T>({n}, seed++);
        const A a = ca::to_device<S>(test::q(), h);
        check_full_reductions(a, h, what);
        // prod over +-1 values is exact in every type.
        const xt::xarray<T> u = unit_values<T>(n, seed++);
        SumT want = 1;
        for (std::size_t i = 0; i < n; ++i)
            want = static_cast<SumT>(want * static_cast<SumT>(u(i)));
        INFO(what);
        CHECK(ca::prod(ca::to_device<S>(test::q(), u)).item() == want);
        // A fused map: the one-pass kernel runs over the expression, not a temporary.
        if constexpr (std::is_floating_point_v<T>) {
            long double w = 0; // the product rounded to T, as on the device
            for (std::size_t i = 0; i < n; ++i)
                w += static_cast<T>(h(i) * h(i));
            CHECK(std::abs(double(ca::sum(a * a).item()) - double(w)) <= 27 * eps<T>() * double(w));
        }
    }
}

TEMPLATE_LIST_TEST_CASE("one-pass reductions launch once on in-order queues", "[reduce][one_pass]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto a = ca::full<float, S>(test::q(), {1000003}, 0.5f);
    test::q().finish();
    const auto before = ca::kernel_launch_count();
    auto s = ca::sum(a);
    const auto launches = ca::kernel_launch_count() - before;
    CHECK(s.item() == 0.5f * 1000003);
    CHECK(launches == 1);
    // An out-of-order queue has no completion counters: two passes, same result.
    ca::queue ooo(test::ctx(), ca::out_of_order);
    auto b = ca::full<float, S>(ooo, {1000003}, 0.5f);
    ooo.finish();
    const auto before_ooo = ca::kernel_launch_count();
    auto t = ca::sum(b);
    const auto launches_ooo = ca::kernel_launch_count() - before_ooo;
    CHECK(t.item() == 0.5f * 1000003);
    CHECK(launches_ooo == 2);
}

TEMPLATE_LIST_TEST_CASE("one-pass reductions: NaN, infinity and empty arrays as before",
                        "[reduce][one_pass]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::size_t n = 70001;
    xt::xarray<float> h = test::random_array<float>({n}, 3);
    h(n - 3) = nan; // in the last part
    h(n - 1) = nan;
    h(17) = inf;
    auto a = ca::to_device<S>(test::q(), h);
    CHECK(std::isnan(ca::sum(a).item()));
    CHECK(std::isnan(ca::max(a).item()));
    CHECK(std::isnan(ca::min(a).item()));
    CHECK(ca::argmax(a).item() == static_cast<std::int64_t>(n - 3)); // the first NaN
    CHECK(ca::argmin(a).item() == static_cast<std::int64_t>(n - 3));
    xt::xarray<float> hi = xt::ones<float>({n});
    hi(5) = inf;
    hi(n - 2) = inf;
    CHECK(ca::sum(ca::to_device<S>(test::q(), hi)).item() == inf);
    hi(n - 1) = -inf;
    CHECK(std::isnan(ca::sum(ca::to_device<S>(test::q(), hi)).item()));
    // Empty: the identity, or an error where there is none.
    auto e = ca::empty<float, S>(test::q(), {0});
    CHECK(ca::sum(e).item() == 0.0f);
    CHECK(ca::prod(e).item() == 1.0f);
    CHECK(ca::all(e).item() == true);
    CHECK(std::isnan(ca::mean(e).item()));
    CHECK_THROWS_AS(ca::max(e), ca::shape_error);
    auto e2 = ca::empty<float, S>(test::q(), {5, 0});
    for (float v : ca::sum(e2, 1).get())
        CHECK(v == 0.0f);
}

TEST_CASE("one-pass reductions repeat, and run concurrently on several queues",
          "[reduce][one_pass]") {
    if (!test::storage_available<ca::svm_coarse>()) return; // default storage
    // Repeats with different part counts: a counter left non-zero would corrupt the next one.
    std::vector<std::size_t> sizes{1000003, 255, 70001, 3 * 4096 + 7, 1000003, 70001};
    std::vector<ca::cl_array<float>> arrays;
    std::vector<double> want;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        xt::xarray<float> h = test::random_array<float>({sizes[i]}, unsigned(40 + i));
        double s = 0;
        for (float v : h)
            s += v;
        want.push_back(s);
        arrays.push_back(ca::to_device(test::q(), h));
    }
    auto check_sum = [&](float got, std::size_t i) {
        INFO("array " << i << " of " << sizes[i]);
        CHECK(std::abs(double(got) - want[i]) <= 27 * eps<float>() * 10.0 * double(sizes[i]));
    };
    std::vector<ca::cl_array<float>> results;
    for (int round = 0; round < 3; ++round)
        for (const auto& a : arrays)
            results.push_back(ca::sum(a)); // no wait in between
    for (std::size_t k = 0; k < results.size(); ++k)
        check_sum(results[k].item(), k % arrays.size());

    // Two in-order queues and an out-of-order one, all enqueued before any result is read.
    ca::queue q2(test::ctx());
    ca::queue ooo(test::ctx(), ca::out_of_order);
    std::vector<ca::cl_array<float>> on_q2, on_ooo;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        xt::xarray<float> h = arrays[i].get();
        on_q2.push_back(ca::to_device(q2, h));
        on_ooo.push_back(ca::to_device(ooo, h));
    }
    std::vector<std::pair<ca::cl_array<float>, std::size_t>> pending;
    for (int round = 0; round < 4; ++round)
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            pending.emplace_back(ca::sum(arrays[i]), i);
            pending.emplace_back(ca::sum(on_q2[i]), i);
            pending.emplace_back(ca::sum(on_ooo[i]), i);
            pending.emplace_back(ca::max(on_ooo[i] * 2.0f), i + 100);
        }
    for (auto& [r, i] : pending) {
        if (i >= 100) {
            xt::xarray<float> h = arrays[i - 100].get();
            CHECK(r.item() == 2.0f * xt::amax(h)());
        } else {
            check_sum(r.item(), i);
        }
    }
}

TEMPLATE_LIST_TEST_CASE("axis reductions with partials finish in one pass", "[reduce][one_pass]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    // Column sums (kept axis contiguous: an item per output, partials along the rows) and a few
    // long rows (a work-group per part).
    for (ca::shape_type shape : {ca::shape_type{5000, 7}, ca::shape_type{3, 70001}}) {
        const xt::xarray<float> h = test::random_array<float>(shape, 9);
        auto a = ca::to_device<S>(test::q(), h);
        for (std::ptrdiff_t axis : {0, 1}) {
            INFO("shape " << ca::shape_to_string(shape) << " axis " << axis);
            std::vector<bool> mask{axis == 0, axis == 1};
            auto want = reference_reduce<double>(
                h, mask, 0.0, [](double s, float v, std::size_t) { return s + v; });
            auto scale = reference_reduce<double>(h, mask, 0.0, [](double s, float v, std::size_t) {
                return s + std::abs(double(v));
            });
            auto got = ca::sum(a, axis).get();
            REQUIRE(got.size() == want.size());
            for (std::size_t i = 0; i < got.size(); ++i)
                CHECK(std::abs(double(got.data()[i]) - want.data()[i]) <=
                      27 * eps<float>() * scale.data()[i]);
            auto mx = reference_reduce<float>(
                h, mask, -std::numeric_limits<float>::infinity(),
                [](float m, float v, std::size_t) { return v > m ? v : m; });
            auto gmax = ca::max(a, axis).get();
            auto gargmin = ca::argmin(a, axis).get();
            for (std::size_t i = 0; i < gmax.size(); ++i)
                CHECK(gmax.data()[i] == mx.data()[i]);
            // argmin: the index of the first smallest element along the axis.
            const std::size_t len = shape[static_cast<std::size_t>(axis)];
            const std::size_t outs = gargmin.size();
            for (std::size_t o = 0; o < outs; ++o) {
                std::size_t bi = 0;
                auto at = [&](std::size_t k) { return axis == 0 ? h(k, o) : h(o, k); };
                for (std::size_t k = 1; k < len; ++k)
                    if (at(k) < at(bi)) bi = k;
                CHECK(gargmin.data()[o] == static_cast<std::int64_t>(bi));
            }
        }
    }
}

TEMPLATE_LIST_TEST_CASE("short reduced axes match host loops", "[reduce][short_axis]",
                        test::dtype_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    CLARRAY_REQUIRE_CFG(TestType);
    using V = T; // same-type arithmetic keeps the type (and wraps), as NumPy
    // The k-means distance shape: points [n, len] against centres [k, len], d = p - c broadcast
    // to [n, k, len], reduced over the last (short, contiguous) axis.
    const std::size_t n = 37, k = 5;
    for (std::size_t len = 1; len <= 9; ++len) {
        INFO(ca::dtype_name(ca::dtype_traits<T>::id) << " " << S::name << " len " << len);
        const xt::xarray<T> hp = test::random_array<T>({n, len}, unsigned(len));
        const xt::xarray<T> hc = test::random_array<T>({k, len}, unsigned(100 + len));
        const A p = ca::to_device<S>(test::q(), hp);
        const A c = ca::to_device<S>(test::q(), hc);
        if constexpr (std::is_same_v<T, bool>) {
            // bool: any / all of p != c over the short axis.
            auto differ = p(all(), newaxis(), all()) != c(newaxis(), all(), all());
            auto gany = ca::any(differ, {2}).get();
            auto gall = ca::all(differ, {2}).get();
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < k; ++j) {
                    bool an = false, al = true;
                    for (std::size_t t = 0; t < len; ++t) {
                        an = an || (hp(i, t) != hc(j, t));
                        al = al && (hp(i, t) != hc(j, t));
                    }
                    CHECK(gany(i, j) == an);
                    CHECK(gall(i, j) == al);
                }
        } else {
            auto d = p(all(), newaxis(), all()) - c(newaxis(), all(), all());
            using SumT = ca::detail::sum_acc_t<V>;
            auto gsum = ca::sum(d * d, {2}).get();
            auto gmax = ca::max(d, {2}).get();
            auto gargmin = ca::argmin(d, 2).get();
            REQUIRE(gsum.shape() == std::vector<std::size_t>{n, k});
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < k; ++j) {
                    double s = 0, scale = 0;
                    SumT si = 0;
                    V mx = std::numeric_limits<V>::lowest();
                    std::size_t bi = 0;
                    V best = std::numeric_limits<V>::max();
                    for (std::size_t t = 0; t < len; ++t) {
                        const V v = static_cast<V>(hp(i, t) - hc(j, t));
                        const V sq = static_cast<V>(v * v);
                        s += double(sq);
                        if constexpr (!std::is_floating_point_v<V>) // wraps as the device
                            si = static_cast<SumT>(
                                static_cast<std::uint64_t>(si) +
                                static_cast<std::uint64_t>(static_cast<SumT>(sq)));
                        scale += std::abs(double(sq));
                        if (v > mx) mx = v;
                        if (v < best) {
                            best = v;
                            bi = t;
                        }
                    }
                    if constexpr (std::is_floating_point_v<V>)
                        CHECK(std::abs(double(gsum(i, j)) - s) <= 27 * eps<V>() * scale);
                    else
                        CHECK(gsum(i, j) == si);
                    CHECK(gmax(i, j) == mx);
                    CHECK(gargmin(i, j) == static_cast<std::int64_t>(bi));
                }
            // The k-means assignment: the nearest centre per point.
            auto label = ca::argmin(ca::sum(d * d, {2}), 1).get();
            for (std::size_t i = 0; i < n; ++i) {
                std::size_t bj = 0;
                for (std::size_t j = 1; j < k; ++j)
                    if (double(gsum(i, j)) < double(gsum(i, bj))) bj = j;
                CHECK(label(i) == static_cast<std::int64_t>(bj));
            }
        }
        // A short axis that is not contiguous: columns of a [len, n] array (axis 0), and a
        // transposed view.
        const xt::xarray<T> hm = test::random_array<T>({len, n}, unsigned(200 + len));
        const A m = ca::to_device<S>(test::q(), hm);
        auto cols = ca::max(m, 0).get();
        auto rows_t = ca::min(m.transpose(), 1).get();
        for (std::size_t i = 0; i < n; ++i) {
            T mx = hm(0, i), mn = hm(0, i);
            for (std::size_t t = 1; t < len; ++t) {
                mx = hm(t, i) > mx ? hm(t, i) : mx;
                mn = hm(t, i) < mn ? hm(t, i) : mn;
            }
            CHECK(cols(i) == mx);
            CHECK(rows_t(i) == mn);
        }
    }
}

TEST_CASE("short reduced axes: mean and a kept rank of three", "[reduce][short_axis]") {
    if (!test::storage_available<ca::svm_coarse>()) return; // default storage
    // [3, 4, 6, len] with a broadcast operand: kept axes (3, 4, 6) do not coalesce.
    for (std::size_t len : {1u, 3u, 8u}) {
        INFO("len " << len);
        const xt::xarray<float> ha = test::random_array<float>({3, 1, 6, len}, 5);
        const xt::xarray<float> hb = test::random_array<float>({4, 1, len}, 6);
        auto a = ca::to_device(test::q(), ha);
        auto b = ca::to_device(test::q(), hb);
        auto got = ca::mean(a + b, {3}).get();
        REQUIRE(got.shape() == std::vector<std::size_t>{3, 4, 6});
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 4; ++j)
                for (std::size_t l = 0; l < 6; ++l) {
                    double s = 0, scale = 0;
                    for (std::size_t t = 0; t < len; ++t) {
                        const float v = ha(i, 0, l, t) + hb(j, 0, t);
                        s += v;
                        scale += std::abs(v);
                    }
                    CHECK(std::abs(double(got(i, j, l)) - s / double(len)) <=
                          27 * eps<float>() * scale / double(len) + 1e-12);
                }
    }
}
