// Sets and searching against host references written here (std::sort, std::stable_sort and
// plain loops with NumPy's order and NumPy's == for membership): isin, intersect1d (with
// indices), union1d, setdiff1d, setxor1d, lexsort, argwhere, flatnonzero, take_coords and
// put_coords, over dtypes, storage policies, views, NaN, ties, integer extremes, empty inputs,
// expressions and the errors.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

namespace {

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || std::is_same_v<T, ca::half>;
template <class T> bool is_nan(T v) {
    if constexpr (is_float_v<T>)
        return std::isnan(static_cast<double>(static_cast<float>(v)));
    else
        return false;
}
template <class T> struct is_cplx : std::false_type {};
template <class F> struct is_cplx<std::complex<F>> : std::true_type {};
// NumPy's order: NaN last, -0.0 == +0.0; complex values (without NaN here) lexicographically.
template <class T> bool before(T a, T b) {
    if constexpr (is_cplx<T>::value) {
        return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
    } else {
        if (is_nan(a)) return false;
        if (is_nan(b)) return true;
        return a < b;
    }
}
// NumPy's unique: sorted, equal values (and all NaN) once.
template <class T> std::vector<T> host_unique(std::vector<T> v) {
    std::stable_sort(v.begin(), v.end(), before<T>);
    std::vector<T> r;
    for (T x : v)
        if (r.empty() || before<T>(r.back(), x)) r.push_back(x);
    return r;
}
template <class T> bool member(const std::vector<T>& set, T x) {
    return std::any_of(set.begin(), set.end(), [&](T y) { return y == x; });
}
// Equal as NumPy's == does, or both NaN (values that came through the same path).
template <class T> bool same(T a, T b) {
    return a == b || (is_nan(a) && is_nan(b));
}
template <class T> std::size_t mismatches(const std::vector<T>& got, const std::vector<T>& want) {
    if (got.size() != want.size()) return std::max<std::size_t>(1, got.size() + want.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!same(got[i], want[i])) ++bad;
    return bad;
}

// Values with many ties; floats with NaN, infinities and signed zeros; integers with extremes.
template <class T> std::vector<T> data(std::size_t n, unsigned seed, unsigned range = 40) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        T x;
        const unsigned r = static_cast<unsigned>(rng() % 53);
        if constexpr (is_cplx<T>::value) { // ties in both parts, signed zeros, no NaN
            using F = typename T::value_type;
            x = T(F(static_cast<int>(rng() % 7) - 3), F(static_cast<int>(rng() % 3) - 1));
            if (r == 2) x = T(F(-0.0), F(0));
        } else if constexpr (is_float_v<T>) {
            double d = static_cast<double>(static_cast<int>(rng() % range)) - range / 2.0;
            if (r == 0) d = std::numeric_limits<double>::quiet_NaN();
            if (r == 1) d = std::numeric_limits<double>::infinity();
            if (r == 2) d = -0.0;
            x = static_cast<T>(d);
        } else {
            if (r == 0)
                x = std::numeric_limits<T>::min();
            else if (r == 1)
                x = std::numeric_limits<T>::max();
            else if constexpr (std::is_signed_v<T>)
                x = static_cast<T>(static_cast<int>(rng() % range) - static_cast<int>(range / 2));
            else
                x = static_cast<T>(rng() % range);
        }
        v[i] = x;
    }
    return v;
}

template <class T, class S> ca::cl_array<T, S> upload(const std::vector<T>& h) {
    return test::device_array<T, S>(test::q(), h);
}

using set_matrix =
    std::tuple<test::cfg<std::int32_t, ca::svm_coarse>, test::cfg<std::int64_t, ca::buffer>,
               test::cfg<float, ca::svm_fine>, test::cfg<double, ca::buffer>>;

// Every set routine of (a, b) against the host's.
template <class T, class S>
void check_sets(const ca::cl_array<T, S>& a, const ca::cl_array<T, S>& b) {
    const std::vector<T> ha = test::host_vector(a), hb = test::host_vector(b);
    const std::vector<T> ua = host_unique(ha), ub = host_unique(hb);
    INFO("sizes " << ha.size() << " " << hb.size());

    std::vector<bool> in, out;
    for (T x : ha) {
        in.push_back(member(hb, x));
        out.push_back(!member(hb, x));
    }
    const std::vector<bool> gi = test::host_vector(ca::isin(a, b));
    const std::vector<bool> go = test::host_vector(ca::isin(a, b, true));
    CHECK(gi == in);
    CHECK(go == out);

    std::vector<T> inter, diff, uni = ha, xr;
    for (T x : ua)
        (member(ub, x) ? inter : diff).push_back(x);
    uni.insert(uni.end(), hb.begin(), hb.end());
    uni = host_unique(uni);
    std::vector<T> aux = ua; // NumPy's setxor1d: a value differing from both neighbours
    aux.insert(aux.end(), ub.begin(), ub.end());
    std::stable_sort(aux.begin(), aux.end(), before<T>);
    for (std::size_t i = 0; i < aux.size(); ++i)
        if ((i == 0 || aux[i] != aux[i - 1]) && (i + 1 == aux.size() || aux[i] != aux[i + 1]))
            xr.push_back(aux[i]);
    CHECK(mismatches(test::host_vector(ca::intersect1d(a, b)), inter) == 0);
    CHECK(mismatches(test::host_vector(ca::union1d(a, b)), uni) == 0);
    CHECK(mismatches(test::host_vector(ca::setdiff1d(a, b)), diff) == 0);
    CHECK(mismatches(test::host_vector(ca::setxor1d(a, b)), xr) == 0);

    const auto r = ca::intersect1d_indices(a, b);
    const std::vector<T> rv = test::host_vector(r.values);
    const std::vector<std::int64_t> i1 = test::host_vector(r.indices1),
                                    i2 = test::host_vector(r.indices2);
    CHECK(mismatches(rv, inter) == 0);
    REQUIRE(i1.size() == rv.size());
    REQUIRE(i2.size() == rv.size());
    std::size_t bad = 0;
    const auto first = [](const std::vector<T>& h, T v) {
        return std::int64_t(std::find_if(h.begin(), h.end(), [&](T x) { return x == v; }) -
                            h.begin());
    };
    for (std::size_t k = 0; k < rv.size(); ++k)
        if (i1[k] != first(ha, rv[k]) || i2[k] != first(hb, rv[k])) ++bad;
    CHECK(bad == 0);
}

} // namespace

TEMPLATE_LIST_TEST_CASE("sets: isin, intersect1d, union1d, setdiff1d, setxor1d", "[sets]",
                        set_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    for (std::size_t n : {0ul, 1ul, 37ul, 1500ul}) {
        const auto a = upload<T, S>(data<T>(n, unsigned(n) + 1));
        const auto b = upload<T, S>(data<T>(n / 2 + 3, unsigned(n) + 2, 60));
        check_sets(a, b);
        if (n > 1) check_sets(b, a);
    }
    // Views: a reversed view and an offset view.
    const auto a = upload<T, S>(data<T>(200, 7));
    const auto b = upload<T, S>(data<T>(90, 8));
    check_sets(ca::cl_array<T, S>(a(ca::range(ca::none, ca::none, -2))),
               ca::cl_array<T, S>(b(ca::range(5, 80))));
    // An empty second input.
    check_sets(a, ca::cl_array<T, S>(test::q(), ca::shape_type{0}));
}

namespace {
template <class T, class S> void check_more(unsigned seed) {
    if (!test::storage_available<S>()) return;
    const std::vector<T> h0 = data<T>(120, seed), h1 = data<T>(120, seed + 1, 5);
    const auto a = upload<T, S>(h0), b = upload<T, S>(data<T>(70, seed + 2, 60));
    check_sets(ca::cl_array<T, S>(a(ca::range(ca::none, ca::none, -1))), b); // a reversed view
    std::vector<std::int64_t> idx(h0.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t i, std::int64_t j) {
        const std::size_t u = std::size_t(i), w = std::size_t(j);
        if (before(h1[u], h1[w])) return true;
        if (before(h1[w], h1[u])) return false;
        return before(h0[u], h0[w]);
    });
    CHECK(test::host_vector(ca::lexsort({a, upload<T, S>(h1)})) == idx);
}
} // namespace

TEST_CASE("sets: bool, int8, uint64, float16 and complex", "[sets]") {
    check_more<bool, ca::svm_fine>(1);
    check_more<std::int8_t, ca::buffer>(2);
    check_more<std::uint64_t, ca::svm_coarse>(3);
    check_more<ca::half, ca::buffer>(4);
    check_more<std::complex<float>, ca::svm_coarse>(5);
    if (test::dtype_available<double>()) check_more<std::complex<double>, ca::buffer>(6);
}

TEST_CASE("sets: assume_unique, expressions, n-d inputs and mixed dtypes", "[sets]") {
    using S = ca::svm_coarse;
    if (!test::storage_available<S>()) return;
    std::vector<std::int32_t> ha(50), hb(30);
    std::iota(ha.begin(), ha.end(), -10); // distinct
    for (std::size_t i = 0; i < hb.size(); ++i)
        hb[i] = std::int32_t(3 * i) - 20; // distinct, unsorted below
    std::reverse(ha.begin(), ha.end());
    const auto a = upload<std::int32_t, S>(ha), b = upload<std::int32_t, S>(hb);
    // assume_unique keeps a's order in setdiff1d (NumPy's result there).
    std::vector<std::int32_t> diff;
    for (auto x : ha)
        if (!member(hb, x)) diff.push_back(x);
    CHECK(test::host_vector(ca::setdiff1d(a, b, true)) == diff);
    CHECK(test::host_vector(ca::intersect1d(a, b, true)) ==
          test::host_vector(ca::intersect1d(a, b)));
    CHECK(test::host_vector(ca::setxor1d(a, b, true)) == test::host_vector(ca::setxor1d(a, b)));
    const auto ri = ca::intersect1d_indices(a, b, true);
    for (auto i : test::host_vector(ri.indices1))
        CHECK(member(hb, ha[std::size_t(i)]));

    // Expressions, read as their values.
    std::vector<std::int32_t> shifted;
    for (auto x : ha)
        shifted.push_back(x + 1);
    std::vector<bool> in;
    for (auto x : shifted)
        in.push_back(member(hb, x));
    CHECK(test::host_vector(ca::isin(a + 1, b)) == in);
    CHECK(test::host_vector(ca::union1d(a * 2, b)).size() == host_unique([&] {
                                                                 std::vector<std::int32_t> u;
                                                                 for (auto x : ha)
                                                                     u.push_back(2 * x);
                                                                 u.insert(u.end(), hb.begin(),
                                                                          hb.end());
                                                                 return u;
                                                             }())
                                                                 .size());

    // isin keeps element's shape; the others flatten.
    const auto m = a.reshape({5, 10});
    const auto g = ca::isin(m, b);
    CHECK(g.shape() == ca::shape_type{5, 10});
    CHECK(test::host_vector(g) == test::host_vector(ca::isin(a, b)));
    CHECK(test::host_vector(ca::intersect1d(m, b)) == test::host_vector(ca::intersect1d(a, b)));

    // Mixed dtypes promote (int32 with float: float64): 0.5 is in no integer set.
    const auto f = upload<float, S>({1.0f, 0.5f, -20.0f, std::nanf("")});
    const auto fi = ca::isin(f, b);
    static_assert(std::is_same_v<typename decltype(ca::intersect1d(f, b))::value_type, double>);
    CHECK(test::host_vector(fi) == std::vector<bool>{member(hb, 1), false, member(hb, -20), false});
}

namespace {
// NumPy's lexsort order of the keys' indices (last key primary).
template <class K0, class K1>
std::vector<std::int64_t> host_lexsort(const std::vector<K0>& k0, const std::vector<K1>& k1) {
    std::vector<std::int64_t> idx(k0.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t i, std::int64_t j) {
        if (before(k1[std::size_t(i)], k1[std::size_t(j)])) return true;
        if (before(k1[std::size_t(j)], k1[std::size_t(i)])) return false;
        return before(k0[std::size_t(i)], k0[std::size_t(j)]);
    });
    return idx;
}
} // namespace

TEMPLATE_LIST_TEST_CASE("sets: lexsort", "[sets]", set_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    for (std::size_t n : {1ul, 100ul, 2000ul}) {
        const std::vector<T> h0 = data<T>(n, 3), h1 = data<T>(n, 4, 6); // many ties in key 1
        const auto k0 = upload<T, S>(h0), k1 = upload<T, S>(h1);
        CHECK(test::host_vector(ca::lexsort({k0, k1})) == host_lexsort(h0, h1));
        CHECK(test::host_vector(ca::lexsort({k1, k0})) == host_lexsort(h1, h0));
        // One key: the stable argsort.
        CHECK(test::host_vector(ca::lexsort({k0})) == test::host_vector(ca::argsort(k0)));
        // Keys of different dtypes, and an expression key.
        std::vector<std::int64_t> parity(n);
        for (std::size_t i = 0; i < n; ++i)
            parity[i] = std::int64_t(i % 3);
        const auto p = upload<std::int64_t, S>(parity);
        CHECK(test::host_vector(ca::lexsort(k0, p)) == host_lexsort(h0, parity));
        CHECK(test::host_vector(ca::lexsort(k0, p * 1)) == host_lexsort(h0, parity));
    }
    // A reversed view as a key.
    const std::vector<T> h = data<T>(300, 9, 5), g = data<T>(300, 10, 5);
    const auto d = upload<T, S>(h), e = upload<T, S>(g);
    const ca::cl_array<T, S> r = d(ca::range(ca::none, ca::none, -1));
    CHECK(test::host_vector(ca::lexsort({e, r})) ==
          host_lexsort(g, std::vector<T>(h.rbegin(), h.rend())));
    CHECK(ca::lexsort({ca::cl_array<T, S>(test::q(), ca::shape_type{0})}).size() == 0);
}

TEMPLATE_LIST_TEST_CASE("sets: argwhere and flatnonzero", "[sets]", set_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::vector<T> h = data<T>(4 * 5 * 6, 11, 4); // about a quarter zeros
    const auto a = upload<T, S>(h).reshape({4, 5, 6});
    std::vector<std::int64_t> rows, flat;
    for (std::size_t i = 0; i < h.size(); ++i)
        if (h[i] != T(0) || is_nan(h[i])) {
            flat.push_back(std::int64_t(i));
            rows.insert(rows.end(),
                        {std::int64_t(i / 30), std::int64_t(i / 6 % 5), std::int64_t(i % 6)});
        }
    const auto w = ca::argwhere(a);
    CHECK(w.shape() == ca::shape_type{flat.size(), 3});
    CHECK(test::host_vector(w) == rows);
    CHECK(test::host_vector(ca::flatnonzero(a)) == flat);
    // A transposed view, an expression, 1-d, 0-d and empty inputs.
    const ca::cl_array<T, S> t = a.transpose();
    std::vector<std::int64_t> tflat;
    for (std::size_t k = 0, i = 0; i < 6; ++i)
        for (std::size_t j = 0; j < 5; ++j)
            for (std::size_t l = 0; l < 4; ++l, ++k) {
                const T v = h[l * 30 + j * 6 + i];
                if (v != T(0) || is_nan(v)) tflat.push_back(std::int64_t(k));
            }
    CHECK(test::host_vector(ca::flatnonzero(t)) == tflat);
    std::vector<std::int64_t> pos;
    for (std::size_t i = 0; i < h.size(); ++i)
        if (h[i] > T(0)) pos.push_back(std::int64_t(i));
    CHECK(test::host_vector(ca::flatnonzero(a > T(0))) == pos);
    const auto one = ca::argwhere(a.ravel() > T(0));
    CHECK(one.shape() == ca::shape_type{pos.size(), 1});
    CHECK(test::host_vector(one) == pos);
    const ca::cl_array<T, S> scalar = a(1, 2, 3);
    CHECK(ca::argwhere(scalar).shape() ==
          ca::shape_type{h[1 * 30 + 2 * 6 + 3] != T(0) ? 1u : 0u, 0});
    CHECK(ca::argwhere(ca::cl_array<T, S>(test::q(), ca::shape_type{0, 3})).shape() ==
          ca::shape_type{0, 2});
    CHECK(ca::flatnonzero(ca::cl_array<T, S>(test::q(), ca::shape_type{0})).size() == 0);
}

TEMPLATE_LIST_TEST_CASE("sets: take_coords and put_coords", "[sets]", set_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t R = 6, C = 7;
    const std::vector<T> h = data<T>(R * C, 12);
    const auto a = upload<T, S>(h).reshape({R, C});
    std::vector<std::int64_t> hi = {0, 5, -1, 3, -6, 2}, hj = {6, 0, -7, 3, 1, -1};
    const auto i = upload<std::int64_t, S>(hi), j = upload<std::int64_t, S>(hj);
    const auto norm = [](std::int64_t v, std::size_t n) {
        return std::size_t(v < 0 ? v + std::int64_t(n) : v);
    };
    std::vector<T> want;
    for (std::size_t k = 0; k < hi.size(); ++k)
        want.push_back(h[norm(hi[k], R) * C + norm(hj[k], C)]);
    CHECK(mismatches(test::host_vector(ca::cl_array<T, S>(ca::take_coords(a, {i, j}))), want) == 0);
    // Fused in an expression, with an index expression and broadcasting (a column of rows).
    const ca::cl_array<T, S> g = ca::take_coords(a, {i, j});
    const auto rows = i.reshape({6, 1});
    const ca::cl_array<T, S> grid = ca::take_coords(a, {rows, j});
    REQUIRE(grid.shape() == ca::shape_type{6, 6});
    const std::vector<T> hg = test::host_vector(grid);
    std::size_t bad = 0;
    for (std::size_t r = 0; r < 6; ++r)
        for (std::size_t c = 0; c < 6; ++c)
            if (!same(hg[r * 6 + c], h[norm(hi[r], R) * C + norm(hj[c], C)])) ++bad;
    CHECK(bad == 0);
    // Coordinate expressions (read in the folding kernels), both of one type.
    const ca::cl_array<T, S> ge = ca::take_coords(a, {i * std::int64_t(1), j * std::int64_t(1)});
    CHECK(mismatches(test::host_vector(ge), want) == 0);
    // Fewer coordinates than dimensions keep the trailing axes; a reversed view.
    const ca::cl_array<T, S> rv = a(ca::range(ca::none, ca::none, -1), ca::all());
    const ca::cl_array<T, S> part = ca::take_coords(rv, {i});
    REQUIRE(part.shape() == ca::shape_type{6, C});
    const std::vector<T> hp = test::host_vector(part);
    for (std::size_t r = 0; r < 6; ++r)
        for (std::size_t c = 0; c < C; ++c)
            if (!same(hp[r * C + c], h[(R - 1 - norm(hi[r], R)) * C + c])) ++bad;
    CHECK(bad == 0);
    // wrap and clip, per axis.
    const auto far = upload<std::int64_t, S>({9, -9, 100});
    std::vector<T> wrap, clip;
    for (std::int64_t v : {9, -9, 100}) {
        const std::int64_t wr = ((v % 6) + 6) % 6, wc = ((v % 7) + 7) % 7;
        wrap.push_back(h[std::size_t(wr) * C + std::size_t(wc)]);
        const std::size_t cr = std::size_t(std::clamp<std::int64_t>(v, 0, 5)),
                          cc = std::size_t(std::clamp<std::int64_t>(v, 0, 6));
        clip.push_back(h[cr * C + cc]);
    }
    CHECK(mismatches(test::host_vector(
                         ca::cl_array<T, S>(ca::take_coords(a, {far, far}, ca::index_mode::wrap))),
                     wrap) == 0);
    CHECK(mismatches(test::host_vector(
                         ca::cl_array<T, S>(ca::take_coords(a, {far, far}, ca::index_mode::clip))),
                     clip) == 0);

    // put_coords: scalar and broadcast values into a strided view.
    ca::cl_array<T, S> b = upload<T, S>(h).reshape({R, C});
    const ca::cl_array<T, S> bv =
        b(ca::all(), ca::range(ca::none, ca::none, -1)); // columns reversed
    const auto pi = upload<std::int64_t, S>({0, 2, -1}), pj = upload<std::int64_t, S>({1, -2, 0});
    ca::put_coords(bv, {pi, pj}, T(5));
    std::vector<T> hb = h;
    for (auto [r, c] : {std::pair<int, int>{0, 1}, {2, 5}, {5, 0}})
        hb[std::size_t(r) * C + (C - 1 - std::size_t(c))] = T(5);
    CHECK(mismatches(test::host_vector(b), hb) == 0);
    const auto vals = upload<T, S>({T(1), T(2), T(3)});
    ca::put_coords(b, {pi, pj}, vals);
    hb[0 * C + 1] = T(1);
    hb[2 * C + 5] = T(2);
    hb[5 * C + 0] = T(3);
    CHECK(mismatches(test::host_vector(b), hb) == 0);
    ca::put_coords(b, {pi, pj}, vals * T(2)); // an expression of values
    hb[0 * C + 1] = T(2);
    hb[2 * C + 5] = T(4);
    hb[5 * C + 0] = T(6);
    CHECK(mismatches(test::host_vector(b), hb) == 0);
}

TEST_CASE("sets: errors name what was wrong", "[sets]") {
    using S = ca::buffer;
    const auto a = upload<std::int64_t, S>({1, 2, 3, 4, 5, 6}).reshape({2, 3});
    const auto i = upload<std::int64_t, S>({0, 1}), j = upload<std::int64_t, S>({0, 3});
    const auto k = upload<std::int64_t, S>({0, 1, 2});
    // A coordinate out of range for its axis (3 for an axis of 3), though flat index 3 exists.
    using A = ca::cl_array<std::int64_t, S>;
    const auto gather = [&] { return A(ca::take_coords(a, {i, j})).get(); };
    CHECK_THROWS_AS(gather(), ca::index_error);
    CHECK_THROWS_WITH(gather(), catch_compat::Contains("take_coords"));
    test::q().finish();
    CHECK_THROWS_AS(ca::take_coords(a, {i, i, i}), ca::index_error);
    CHECK_THROWS_AS(ca::take_coords(a, {i, k}), ca::shape_error);
    CHECK_THROWS_AS(ca::put_coords(a, {i}, std::int64_t(1)), ca::index_error);
    CHECK_THROWS_AS(
        [&] {
            ca::put_coords(a, {i, j}, std::int64_t(1));
            a.get();
        }(),
        ca::index_error);
    test::q().finish();
    CHECK_THROWS_AS(ca::lexsort({i, k}), ca::shape_error);
    CHECK_THROWS_AS(ca::lexsort({a}), ca::shape_error);
    CHECK_THROWS_AS(ca::lexsort(std::vector<ca::cl_array<std::int64_t, S>>{}), ca::usage_error);
}

TEST_CASE("sets: isin, lexsort, take_coords and put_coords do not wait on the host", "[sets]") {
    // The input is written behind a user event on another queue: a call that waited on the host
    // would never return (a watchdog opens the gate after 60 s and the test fails). Kernels are
    // built by a first round on zeros.
    using S = ca::svm_coarse;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = test::ctx();
    ca::queue other(ctx);
    const std::size_t n = 300;
    const auto b = upload<std::int64_t, S>({-3, 0, 2, 5, 5});
    const auto j = upload<std::int64_t, S>({0, 2, 1});
    const auto run = [&](const ca::cl_array<std::int64_t, S>& a) {
        auto target = ca::zeros<std::int64_t, S>(test::q(), {3, 3});
        const ca::cl_array<std::int64_t, S> head = a(ca::range(0, 3));
        const auto i = head % std::int64_t(3); // expressions of one type: i and jj
        const auto jj = j % std::int64_t(3);
        ca::put_coords(target, {i, i}, std::int64_t(7));
        return std::vector<ca::cl_array<std::int64_t, S>>{
            ca::cl_array<std::int64_t, S>(ca::astype<std::int64_t>(ca::isin(a, b))),
            ca::lexsort(b(ca::range(0, 3)) * 0 + j, a(ca::range(0, 3))),
            ca::cl_array<std::int64_t, S>(ca::take_coords(a.reshape({20, 15}), {i, jj})),
            target.ravel()};
    };
    (void)run(ca::zeros<std::int64_t, S>(test::q(), {n}));
    ca::kernel writer =
        ca::program(ctx, "kernel void w(global long* a) { size_t i = get_global_id(0); "
                         "a[i] = (long)(i % 7) - 3; }")
            .kernel("w");
    test::host_wait_gate gate(ctx);
    auto a = ca::empty<std::int64_t, S>(other, {n});
    writer.launch(other, {n}, {}, {gate.event()}, ca::out(a));
    const auto got = run(a.with_queue(test::q()));
    CHECK(gate.release());
    const auto again = run(a.with_queue(test::q()).copy());
    for (std::size_t k = 0; k < got.size(); ++k) {
        INFO("result " << k);
        CHECK(test::host_vector(got[k]) == test::host_vector(again[k]));
    }
}
