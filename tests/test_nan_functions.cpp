// NaN-aware reductions and scans, running extrema, isclose / allclose / array_equal / array_equiv
// and nan_to_num against host loops written here: random data with NaN at random positions,
// all-NaN slices, infinities, empty arrays and axes, views and expressions as inputs, the dtype
// matrix on the reductions and the storage policies on a few, and the errors.
#include "reduce_reference.hpp"
#include "sampling.hpp"
#include "support.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

// Host values widened: double, or complex<double> for complex dtypes.
template <class T>
using wide_t = std::conditional_t<ca::is_complex_v<T>, std::complex<double>, double>;

template <class T> wide_t<T> widen(const T& v) {
    if constexpr (ca::is_complex_v<T>)
        return {static_cast<double>(v.real()), static_cast<double>(v.imag())};
    else if constexpr (std::is_same_v<T, ca::half>)
        return static_cast<double>(static_cast<float>(v));
    else
        return static_cast<double>(v);
}
template <class W> bool wide_nan(const W& v) {
    if constexpr (std::is_same_v<W, std::complex<double>>)
        return std::isnan(v.real()) || std::isnan(v.imag());
    else
        return std::isnan(v);
}
template <class T> bool host_nan(const T& v) {
    return wide_nan(widen(v));
}

template <class T> T from_double(double d) {
    if constexpr (std::is_same_v<T, ca::half>)
        return ca::half(static_cast<float>(d));
    else
        return static_cast<T>(d);
}

// Random values in [-10, 10]; `nan_share` of them NaN (complex: the real or the imaginary part),
// a few infinities when `infinities`, and with `all_nan_row` the first row along axis 0 all NaN.
template <class T>
xt::xarray<T> nan_data(const ca::shape_type& shape, unsigned seed, double nan_share,
                       bool infinities, bool all_nan_row) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(-10, 10), unit(0, 1);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    xt::xarray<T> a = xt::xarray<T>::from_shape(shape);
    const std::size_t row = shape.empty() || shape[0] == 0 ? 0 : a.size() / shape[0];
    for (std::size_t k = 0; k < a.size(); ++k) {
        double re = value(rng), im = value(rng);
        const double u = unit(rng);
        if (u < nan_share || (all_nan_row && k < row)) {
            (unit(rng) < 0.5 || !ca::is_complex_v<T> ? re : im) = nan;
        } else if (infinities && u > 0.995) {
            re = unit(rng) < 0.5 ? inf : -inf;
        }
        if constexpr (ca::is_complex_v<T>)
            a.data()[k] =
                T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(im));
        else
            a.data()[k] = from_double<T>(re);
    }
    return a;
}

// The non-NaN values of every output of reducing x over mask, in reduced order, and their reduced
// indices.
template <class T> struct groups {
    std::vector<std::vector<wide_t<T>>> values;
    std::vector<std::vector<std::int64_t>> indices;
    ca::shape_type shape; // of the result without keep_dims
};
template <class T> groups<T> non_nan_groups(const xt::xarray<T>& x, const std::vector<bool>& mask) {
    groups<T> g;
    const ca::shape_type shape(x.shape().begin(), x.shape().end());
    g.shape = test::kept_shape(shape, mask, false);
    std::size_t outputs = 1;
    for (auto e : g.shape)
        outputs *= e;
    g.values.resize(outputs);
    g.indices.resize(outputs);
    test::for_each_reduced(x, mask, [&](std::size_t o, std::size_t red, const T& v) {
        if (host_nan(v)) return;
        g.values[o].push_back(widen(v));
        g.indices[o].push_back(static_cast<std::int64_t>(red));
    });
    return g;
}

template <class T> double tolerance() {
    if constexpr (std::is_same_v<ca::real_of_t<T>, ca::half>)
        return 4e-3;
    else if constexpr (std::is_same_v<ca::real_of_t<T>, float>)
        return 2e-5;
    else
        return 1e-12;
}

// got (any dtype) against want: both NaN, equal (infinities), or within tol * scale.
template <class G, class W>
void check_value(const G& got_value, const W& want, double tol, double scale) {
    const auto got = widen(got_value);
    INFO("got " << got << ", want " << want);
    if constexpr (std::is_same_v<W, std::complex<double>>) {
        // Part by part where a part is infinite (NaN: either part, as NumPy).
        if (!wide_nan(want) && (std::isinf(want.real()) || std::isinf(want.imag()))) {
            check_value(got.real(), want.real(), tol, scale);
            check_value(got.imag(), want.imag(), tol, scale);
            return;
        }
    }
    if (wide_nan(want)) {
        CHECK(wide_nan(got));
        return;
    }
    if constexpr (std::is_same_v<W, double>) {
        if (std::isinf(want)) {
            CHECK(got == want);
            return;
        }
    }
    CHECK(std::abs(got - want) <= tol * scale);
}

template <class T> double abs_sum(const std::vector<T>& v) {
    double s = 0;
    for (const auto& x : v)
        s += std::abs(x);
    return s;
}

// Every nan reduction of x over `axes` (policy of A) against the host loops.
template <class T, class A>
void check_reductions(const A& device, const xt::xarray<T>& x, const ca::reduce_axes& axes,
                      bool with_arg) {
    using W = wide_t<T>;
    const ca::shape_type shape(x.shape().begin(), x.shape().end());
    const std::vector<bool> mask = axes.mask(shape, "test");
    const groups<T> g = non_nan_groups(x, mask);
    const double tol = tolerance<T>();
    INFO(ca::dtype_name(ca::dtype_traits<T>::id)
         << " shape " << ca::shape_to_string(shape) << " axes " << axes.to_string());

    auto sums = test::host_vector(ca::nansum(device, axes));
    auto means = test::host_vector(ca::nanmean(device, axes));
    auto vars = test::host_vector(ca::nanvar(device, axes, false, 1));
    auto stds = test::host_vector(ca::nanstd(device, axes));
    // nanprod of values near 1 (an expression input): products of many elements stay finite.
    auto prods = test::host_vector(ca::nanprod(device / 100 + 1, axes));
    REQUIRE(sums.size() == g.values.size());
    REQUIRE(prods.size() == g.values.size());
    for (std::size_t o = 0; o < g.values.size(); ++o) {
        INFO("output " << o << " of " << g.values.size() << ", " << g.values[o].size()
                       << " non-NaN values");
        const auto& v = g.values[o];
        const double n = static_cast<double>(v.size());
        W sum = 0;
        for (const W& e : v)
            sum += e;
        const double scale = 1 + abs_sum(v);
        check_value(sums[o], sum, tol, scale);
        check_value(means[o], v.empty() ? W(std::nan("")) : sum / n, tol, scale / std::max(n, 1.0));
        // Variance about the mean, divisor n - ddof; infinite values make inf - inf, NaN.
        for (int ddof : {0, 1}) {
            double sq = 0;
            for (const W& e : v)
                sq += std::norm(e - sum / n);
            const double dof = n - ddof;
            const double want = dof > 0 ? sq / dof : std::nan("");
            const double got_scale = 1 + std::abs(want);
            if (ddof == 1)
                check_value(vars[o], want, 8 * tol, got_scale);
            else
                check_value(stds[o], dof > 0 ? std::sqrt(want) : want, 8 * tol,
                            1 + std::sqrt(std::abs(want)));
        }
    }
    // nanprod: product of 1 + v / 100 over the non-NaN values.
    for (std::size_t o = 0; o < g.values.size(); ++o) {
        W p = 1;
        for (const W& e : g.values[o]) {
            // A complex value with an infinite part divides into NaN (Smith's division, as
            // NumPy's), which nanprod of the mapped values skips.
            if constexpr (ca::is_complex_v<T>)
                if (std::isinf(e.real()) || std::isinf(e.imag())) continue;
            p *= e / 100.0 + 1.0;
        }
        INFO("nanprod output " << o);
        check_value(prods[o], p, 50 * tol, 1 + std::abs(p));
    }
    if constexpr (!ca::is_complex_v<T>) {
        auto maxs = test::host_vector(ca::nanmax(device, axes));
        auto mins = test::host_vector(ca::nanmin(device, axes));
        for (std::size_t o = 0; o < g.values.size(); ++o) {
            INFO("nanmax/nanmin output " << o);
            const auto& v = g.values[o];
            double mx = std::nan(""), mn = std::nan("");
            for (double e : v) {
                if (std::isnan(mx) || e > mx) mx = e;
                if (std::isnan(mn) || e < mn) mn = e;
            }
            check_value(maxs[o], mx, 0, 0);
            check_value(mins[o], mn, 0, 0);
        }
        bool all_nan_slice = false;
        for (const auto& v : g.values)
            all_nan_slice = all_nan_slice || v.empty();
        if (with_arg && !all_nan_slice && (axes.all() || axes.list().size() == 1)) {
            auto amax = axes.all() ? ca::nanargmax(device) : ca::nanargmax(device, axes.list()[0]);
            auto amin = axes.all() ? ca::nanargmin(device) : ca::nanargmin(device, axes.list()[0]);
            const auto imax = test::host_vector(amax), imin = test::host_vector(amin);
            for (std::size_t o = 0; o < g.values.size(); ++o) {
                INFO("nanargmax/nanargmin output " << o);
                const auto& v = g.values[o];
                std::size_t bmax = 0, bmin = 0;
                for (std::size_t k = 1; k < v.size(); ++k) {
                    if (v[k] > v[bmax]) bmax = k;
                    if (v[k] < v[bmin]) bmin = k;
                }
                CHECK(imax[o] == g.indices[o][bmax]);
                CHECK(imin[o] == g.indices[o][bmin]);
            }
        }
    }
}

template <class T, class S> ca::cl_array<T, S> on_device(const xt::xarray<T>& h) {
    const ca::shape_type shape(h.shape().begin(), h.shape().end());
    ca::cl_array<T, S> a(test::q(), shape);
    if (a.size() != 0) a.set(h);
    return a;
}

std::vector<ca::reduce_axes> axes_of(std::size_t rank) {
    std::vector<ca::reduce_axes> v{ca::reduce_axes()};
    for (std::size_t k = 0; k < rank; ++k)
        v.emplace_back(static_cast<std::ptrdiff_t>(k));
    if (rank == 3) v.push_back(ca::reduce_axes{0, -1});
    return v;
}

using nan_dtypes =
    std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<double, ca::buffer>,
               test::cfg<ca::half, ca::svm_fine>, test::cfg<std::complex<float>, ca::svm_coarse>>;
using integer_dtypes =
    std::tuple<test::cfg<std::int32_t, ca::buffer>, test::cfg<bool, ca::svm_coarse>>;
using scan_dtypes = std::tuple<test::cfg<double, ca::buffer>, test::cfg<ca::half, ca::svm_fine>,
                               test::cfg<std::complex<float>, ca::svm_coarse>>;
using close_dtypes = std::tuple<test::cfg<float, ca::buffer>, test::cfg<double, ca::svm_coarse>,
                                test::cfg<std::complex<double>, ca::svm_fine>>;
using nan_to_num_dtypes =
    std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<ca::half, ca::buffer>,
               test::cfg<std::complex<float>, ca::svm_fine>,
               test::cfg<std::int16_t, ca::svm_coarse>>;

} // namespace

TEMPLATE_LIST_TEST_CASE("nan reductions match host loops over shapes, axes and NaN patterns",
                        "[nan]", nan_dtypes) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    if (!test::storage_available<S>() || !test::dtype_available<ca::real_of_t<T>>()) return;
    if (std::is_same_v<ca::real_of_t<T>, double> && !test::ctx().device().has_fp64()) return;
    const std::vector<ca::shape_type> shapes{{7}, {13, 17}, {3, 5, 7}, {3, 1031}, {20000}};
    // The default run takes every fourth (shape, axes) case, each configuration from its own
    // offset (tests/sampling.hpp): the four configurations meet every case once.
    constexpr std::size_t offset = test::index_in_v<TestType, nan_dtypes>;
    unsigned seed = 11;
    for (std::size_t si = 0; si < shapes.size(); ++si) {
        const ca::shape_type& shape = shapes[si];
        const auto axes_cases = axes_of(shape.size());
        for (int pattern = 0; pattern < 3; ++pattern) {
            // 0: random NaN with an all-NaN first row; 1: no NaN; 2: NaN and infinities.
            const xt::xarray<T> h = nan_data<T>(shape, ++seed, pattern == 1 ? 0.0 : 0.2,
                                                pattern == 2, pattern == 0 && shape.size() > 1);
            const auto d = on_device<T, S>(h);
            INFO("pattern " << pattern);
            for (std::size_t ai = 0; ai < axes_cases.size(); ++ai)
                if (test::sampled(si * 8 + ai, offset, 4))
                    check_reductions<T>(d, h, axes_cases[ai], pattern != 0);
        }
    }
}

TEMPLATE_LIST_TEST_CASE("nan reductions read views and expressions on every storage policy",
                        "[nan]", test::all_policies) {
    using S = typename TestType::storage;
    using A = ca::cl_array<float, S>;
    if (!test::storage_available<S>()) return;
    const xt::xarray<float> h = nan_data<float>({6, 9}, 41, 0.3, true, false);
    const A base = on_device<float, S>(h);
    // A transposed view, an offset view with a negative step, and an expression of a view.
    const A transposed = base.transpose();
    const xt::xarray<float> ht = xt::transpose(h);
    const A reversed = base(ca::range(1, 6), ca::range(8, ca::none, -2));
    const xt::xarray<float> hr =
        xt::view(h, xt::range(1, 6), xt::range(8, xt::placeholders::_, -2));
    for (const auto& axes : axes_of(2)) {
        check_reductions<float>(transposed, ht, axes, false);
        check_reductions<float>(reversed, hr, axes, false);
        const xt::xarray<float> he = hr * 2.0f - 1.0f;
        check_reductions<float>(reversed * 2.0f - 1.0f, he, axes, false);
    }
    // keep_dims keeps the reduced axes as 1.
    CHECK(ca::nanmean(transposed, 1, true).shape() == ca::shape_type{9, 1});
    CHECK(ca::nanvar(base, {0, 1}, true).shape() == ca::shape_type{1, 1});
    CHECK(ca::nanargmin(base, 0, true).shape() == ca::shape_type{1, 9});
    // Results live on the input's policy.
    STATIC_REQUIRE(std::is_same_v<decltype(ca::nanmax(base)), A>);
    STATIC_REQUIRE(std::is_same_v<decltype(ca::nanargmax(base, 0)), ca::cl_array<std::int64_t, S>>);
}

TEMPLATE_LIST_TEST_CASE("nan reductions of integers and bool are the plain ones", "[nan]",
                        integer_dtypes) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = ca::cl_array<T, S>;
    if (!test::storage_available<S>()) return;
    const xt::xarray<T> h = test::random_array<T>({5, 11}, 7);
    const A d = on_device<T, S>(h);
    // Result types as NumPy's plain functions.
    STATIC_REQUIRE(std::is_same_v<decltype(ca::nansum(d)), decltype(ca::sum(d))>);
    STATIC_REQUIRE(std::is_same_v<decltype(ca::nanmean(d)), ca::cl_array<double, S>>);
    STATIC_REQUIRE(std::is_same_v<decltype(ca::nanmax(d)), A>);
    STATIC_REQUIRE(std::is_same_v<decltype(ca::nancumsum(d)), decltype(ca::cumsum(d))>);
    for (std::ptrdiff_t axis : {0, 1}) {
        const auto sums = test::host_vector(ca::nansum(d, axis));
        const auto means = test::host_vector(ca::nanmean(d, axis));
        const auto maxs = test::host_vector(ca::nanmax(d, axis));
        const auto args = test::host_vector(ca::nanargmin(d, axis));
        const auto g = non_nan_groups(h, ca::reduce_axes(axis).mask({5, 11}, "test"));
        for (std::size_t o = 0; o < g.values.size(); ++o) {
            double s = 0, mx = g.values[o][0];
            std::size_t amin = 0;
            for (std::size_t k = 0; k < g.values[o].size(); ++k) {
                s += g.values[o][k];
                mx = std::max(mx, g.values[o][k]);
                if (g.values[o][k] < g.values[o][amin]) amin = k;
            }
            CHECK(static_cast<double>(sums[o]) == s);
            CHECK(means[o] == Approx(s / static_cast<double>(g.values[o].size())));
            CHECK(static_cast<double>(maxs[o]) == mx);
            CHECK(args[o] == g.indices[o][amin]);
        }
    }
}

TEST_CASE("nan scans and running extrema match host loops", "[nan]") {
    using A = ca::cl_array<float, ca::buffer>;
    for (const ca::shape_type& shape : {ca::shape_type{40}, ca::shape_type{7, 3000}}) {
        for (int pattern = 0; pattern < 2; ++pattern) {
            const xt::xarray<float> h =
                nan_data<float>(shape, 60 + pattern, pattern ? 0.2 : 0.0, pattern != 0, false);
            const A d = on_device<float, ca::buffer>(h);
            const std::size_t line = shape.back(), lines = h.size() / line;
            INFO("shape " << ca::shape_to_string(shape) << " pattern " << pattern);
            const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(shape.size()) - 1;
            const auto sums = test::host_vector(ca::nancumsum(d, last));
            const auto prods = test::host_vector(ca::nancumprod(d / 100 + 1, last));
            const auto maxs = test::host_vector(ca::cummax(d, last));
            const auto mins = test::host_vector(ca::cummin(d, last));
            const auto flat = test::host_vector(ca::nancumsum(d));
            REQUIRE(flat.size() == h.size());
            double flat_sum = 0, flat_scale = 1;
            for (std::size_t l = 0; l < lines; ++l) {
                double s = 0, p = 1, scale = 1, mx = -INFINITY, mn = INFINITY;
                for (std::size_t k = 0; k < line; ++k) {
                    const std::size_t i = l * line + k;
                    const double v = h.data()[i];
                    INFO("element " << i);
                    if (!std::isnan(v)) {
                        s += v;
                        p *= v / 100 + 1;
                        scale += std::abs(v);
                        flat_sum += v;
                        flat_scale += std::abs(v);
                    }
                    // maximum.accumulate propagates NaN from where it occurs.
                    mx = std::isnan(mx) || std::isnan(v) ? std::nan("") : std::max(mx, v);
                    mn = std::isnan(mn) || std::isnan(v) ? std::nan("") : std::min(mn, v);
                    check_value(sums[i], s, 1e-5, scale);
                    check_value(prods[i], p, 1e-4, 1 + std::abs(p));
                    check_value(maxs[i], mx, 0, 0);
                    check_value(mins[i], mn, 0, 0);
                    check_value(flat[i], flat_sum, 1e-5, flat_scale);
                }
            }
        }
    }
}

TEMPLATE_LIST_TEST_CASE("nan scans of double, half and complex values", "[nan]", scan_dtypes) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    if (!test::storage_available<S>() || !test::dtype_available<ca::real_of_t<T>>()) return;
    const xt::xarray<T> h = nan_data<T>({4, 300}, 71, 0.25, false, true);
    const auto d = on_device<T, S>(h);
    const auto sums = test::host_vector(ca::nancumsum(d, 0));
    STATIC_REQUIRE(std::is_same_v<decltype(ca::nancumsum(d, 0)), decltype(ca::cumsum(d, 0))>);
    for (std::size_t c = 0; c < 300; ++c) {
        wide_t<T> s = 0;
        double scale = 1;
        for (std::size_t r = 0; r < 4; ++r) {
            const auto v = widen(h(r, c));
            if (!wide_nan(v)) {
                s += v;
                scale += std::abs(v);
            }
            INFO("element (" << r << ", " << c << ")");
            check_value(sums[r * 300 + c], s, tolerance<T>(), scale);
        }
    }
}

TEST_CASE("nan reductions of empty arrays and axes give NumPy's values or errors", "[nan]") {
    const ca::cl_array<float, ca::buffer> empty(test::q(), {0});
    const ca::cl_array<double, ca::buffer> rows(test::q(), {3, 0});
    CHECK(ca::nansum(empty).item() == 0.0f);
    CHECK(ca::nanprod(empty).item() == 1.0f);
    CHECK(std::isnan(ca::nanmean(empty).item()));
    CHECK(std::isnan(ca::nanvar(empty).item()));
    CHECK(std::isnan(ca::nanstd(empty, {}, false, 1).item()));
    const auto means = test::host_vector(ca::nanmean(rows, 1));
    REQUIRE(means.size() == 3);
    for (double m : means)
        CHECK(std::isnan(m));
    CHECK(ca::nansum(rows, 0).size() == 0);
    CHECK(ca::nancumsum(empty).size() == 0);
    CHECK_THROWS_AS(ca::nanmax(empty), ca::shape_error);
    CHECK_THROWS_AS(ca::nanargmin(rows, 1), ca::shape_error);
    CHECK_THROWS_AS(ca::nanmin(rows, 2), ca::index_error);
}

TEMPLATE_LIST_TEST_CASE("nanargmax of an all-NaN slice throws usage_error at the next wait",
                        "[nan]", test::all_policies) {
    using S = typename TestType::storage;
    if (!test::storage_available<S>()) return;
    xt::xarray<float> h = nan_data<float>({4, 6}, 83, 0.2, false, false);
    for (std::size_t c = 0; c < 6; ++c)
        h(2, c) = NAN;
    const auto d = on_device<float, S>(h);
    // Along axis 0 every column has a value; along axis 1 row 2 has none.
    CHECK_NOTHROW(ca::nanargmax(d, 0).get());
    auto bad = ca::nanargmax(d, 1); // no wait here
    CHECK_THROWS_AS(bad.get(), ca::usage_error);
    auto bad_min = ca::nanargmin(d(2));
    try {
        (void)bad_min.item();
        FAIL("nanargmin of an all-NaN row did not throw");
    } catch (const ca::usage_error& e) {
        CHECK(std::string(e.what()).find("nanargmin: All-NaN slice") != std::string::npos);
    }
    // The nanmax of the same slice is NaN, without error.
    CHECK(std::isnan(ca::nanmax(d(2)).item()));
    CHECK_NOTHROW(ca::nanargmax(d).item());
}

namespace {

// NumPy's isclose on host values (b converted to floating first).
template <class W>
bool host_isclose(const W& a, const W& b, double rtol, double atol, bool equal_nan) {
    bool finite_b;
    if constexpr (std::is_same_v<W, std::complex<double>>)
        finite_b = std::isfinite(b.real()) && std::isfinite(b.imag());
    else
        finite_b = std::isfinite(b);
    if (a == b) return true;
    if (equal_nan && wide_nan(a) && wide_nan(b)) return true;
    return finite_b && std::abs(a - b) <= atol + rtol * std::abs(b);
}

// b as a, with relative perturbations around rtol, some exact copies, NaN and infinities.
template <class T> xt::xarray<T> perturbed(const xt::xarray<T>& a, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    xt::xarray<T> b = a;
    for (auto& v : b) {
        const double u = unit(rng);
        const double factor = u < 0.3 ? 1.0 : u < 0.6 ? 1 + 1e-6 : u < 0.9 ? 1 + 1e-3 : 1 + 1e-5;
        if constexpr (ca::is_complex_v<T>)
            v = T(static_cast<typename T::value_type>(v.real() * factor), v.imag());
        else if constexpr (std::is_floating_point_v<T>)
            v = static_cast<T>(v * factor);
        if (unit(rng) < 0.05) v = from_double<T>(std::numeric_limits<double>::infinity());
        if (unit(rng) < 0.05) v = from_double<T>(std::nan(""));
    }
    return b;
}

} // namespace

TEMPLATE_LIST_TEST_CASE("isclose, allclose, array_equal and array_equiv match NumPy's formulas",
                        "[nan]", close_dtypes) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    if (!test::storage_available<S>() || !test::dtype_available<ca::real_of_t<T>>()) return;
    const xt::xarray<T> ha = nan_data<T>({9, 13}, 91, 0.05, true, false);
    const xt::xarray<T> hb = perturbed(ha, 92);
    const auto a = on_device<T, S>(ha), b = on_device<T, S>(hb);
    for (bool equal_nan : {false, true}) {
        for (double rtol : {1e-05, 1e-2}) {
            const ca::cl_array<bool, S> close = ca::isclose(a, b, rtol, 1e-08, equal_nan);
            const auto got = test::host_vector(close);
            bool all = true;
            for (std::size_t i = 0; i < ha.size(); ++i) {
                const bool want =
                    host_isclose(widen(ha.data()[i]), widen(hb.data()[i]), rtol, 1e-08, equal_nan);
                all = all && want;
                INFO("element " << i << " rtol " << rtol << " equal_nan " << equal_nan);
                CHECK(got[i] == want);
            }
            CHECK(ca::allclose(a, b, rtol, 1e-08, equal_nan) == all);
        }
    }
    // An array is close to and equal to itself only with equal_nan when it holds NaN.
    CHECK(ca::allclose(a, a, 1e-05, 1e-08, true));
    CHECK_FALSE(ca::allclose(a, a));
    CHECK(ca::array_equal(a, a, true));
    CHECK_FALSE(ca::array_equal(a, a));
    CHECK_FALSE(ca::array_equal(a, b, true));
    // Different shapes: false, no error; array_equiv broadcasts.
    CHECK_FALSE(ca::array_equal(a, a.transpose()));
    const ca::cl_array<T, S> row = on_device<T, S>(xt::xarray<T>(xt::view(ha, 3, xt::all())));
    const ca::cl_array<T, S> rows = on_device<T, S>(
        xt::xarray<T>(xt::broadcast(xt::view(ha, 3, xt::all()), std::vector<std::size_t>{4, 13})));
    CHECK(ca::array_equiv(rows, row.reshape({1, 13})) == ca::array_equal(rows, rows));
    CHECK_FALSE(ca::array_equiv(a, row.reshape({13, 1})));
    xt::xarray<T> clean = nan_data<T>({5, 13}, 93, 0.0, false, false);
    const auto c = on_device<T, S>(clean);
    CHECK(ca::array_equiv(c, c(ca::range(0, 1), ca::all()) * T(0) + c));
    CHECK_FALSE(ca::array_equiv(c, c(0)));
    CHECK(ca::array_equiv(c(ca::range(2, 3)), c(2)));
}

TEST_CASE("isclose converts integers to float64 and compares infinities by equality", "[nan]") {
    const xt::xarray<std::int32_t> hi = test::random_array<std::int32_t>({50}, 5);
    const auto i = on_device<std::int32_t, ca::buffer>(hi);
    xt::xarray<double> hd = xt::cast<double>(hi);
    std::mt19937_64 rng(6);
    for (auto& v : hd)
        v += (rng() % 3 == 0) ? 1e-3 : 0.0;
    const auto d = on_device<double, ca::buffer>(hd);
    STATIC_REQUIRE(std::is_same_v<typename decltype(ca::isclose(i, i))::value_type, bool>);
    const ca::cl_array<bool, ca::buffer> close = ca::isclose(i, d);
    const auto got = test::host_vector(close);
    for (std::size_t k = 0; k < 50; ++k)
        CHECK(got[k] == host_isclose(static_cast<double>(hi(k)), hd(k), 1e-05, 1e-08, false));
    CHECK(ca::allclose(i, i));
    CHECK(ca::array_equal(i, i, true));
    const double inf = std::numeric_limits<double>::infinity();
    const auto specials = on_device<double, ca::buffer>(xt::xarray<double>{inf, -inf, inf, 1});
    const auto others = on_device<double, ca::buffer>(xt::xarray<double>{inf, inf, 1e308, 1});
    const ca::cl_array<bool, ca::buffer> sc = ca::isclose(specials, others);
    CHECK(test::host_vector(sc) == std::vector<bool>{true, false, false, true});
}

TEMPLATE_LIST_TEST_CASE("nan_to_num replaces NaN and infinities part by part", "[nan]",
                        nan_to_num_dtypes) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using R = ca::real_of_t<T>;
    if (!test::storage_available<S>()) return;
    xt::xarray<T> h;
    if constexpr (ca::is_inexact_v<T>)
        h = nan_data<T>({300}, 101, 0.2, true, false);
    else
        h = test::random_array<T>({300}, 101);
    const auto d = on_device<T, S>(h);
    const double big = static_cast<double>(static_cast<float>(std::numeric_limits<R>::max()));
    auto replace = [&](double v, double nan, double pos, double neg) {
        return std::isnan(v) ? nan : v == INFINITY ? pos : v == -INFINITY ? neg : v;
    };
    for (int variant = 0; variant < 2; ++variant) {
        const ca::cl_array<T, S> got =
            variant == 0 ? ca::cl_array<T, S>(ca::nan_to_num(d))
                         : ca::cl_array<T, S>(ca::nan_to_num(d, 5.0, 100.0, -200.0));
        const auto g = test::host_vector(got);
        for (std::size_t k = 0; k < h.size(); ++k) {
            const auto v = widen(h.data()[k]);
            const double nan = variant ? 5 : 0, pos = variant ? 100 : big,
                         neg = variant ? -200 : -big;
            INFO("element " << k << " variant " << variant);
            if constexpr (ca::is_complex_v<T>) {
                const std::complex<double> want(replace(v.real(), nan, pos, neg),
                                                replace(v.imag(), nan, pos, neg));
                CHECK(widen(g[k]) == want);
            } else if constexpr (ca::is_floating_v<T>) {
                CHECK(widen(g[k]) == replace(v, nan, pos, neg));
            } else {
                CHECK(g[k] == h.data()[k]);
            }
        }
    }
}
