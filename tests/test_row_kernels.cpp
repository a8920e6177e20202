// Row kernels (kernels/assign_rows.cl; rows_copy/rows_fill in kernels/strided.cl):
// assignments and copies whose innermost axis is unit-stride for every operand (or stride 0 for
// an input broadcast along the row). Row lengths around the vector width exercise the tails,
// and the layouts that must not take the row path (negative or non-unit inner strides,
// transposes) are checked against the same host references. Run also with
// CLARRAY_PLAN_AS_GPU=1 (one element per work-item) and CLARRAY_EMULATE_COARSE=1.
#include "support.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>

#include "xtensor_headers.hpp"

using namespace xt::placeholders; // xt::range(_, stop, step)

namespace {

using row_cfgs =
    std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<float, ca::svm_fine>,
               test::cfg<float, ca::buffer>, test::cfg<double, ca::svm_coarse>,
               test::cfg<double, ca::buffer>, test::cfg<std::int32_t, ca::svm_coarse>,
               test::cfg<std::int32_t, ca::svm_fine>, test::cfg<std::int32_t, ca::buffer>>;

template <class T> double rel_tol() {
    if constexpr (std::is_integral_v<T>) return 0;
    return std::is_same_v<T, float> ? 2e-5 : 1e-12;
}

// Elementwise |got - want| <= tol * (1 + |want|) (exact for integers); names the first bad index.
template <class T, class U>
void check_near(const std::string& what, const xt::xarray<T>& got, const xt::xarray<U>& want) {
    INFO(what);
    REQUIRE(got.shape() == want.shape());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double g = static_cast<double>(got.flat(i)), w = static_cast<double>(want.flat(i));
        if (!(std::abs(g - w) <= rel_tol<T>() * (1 + std::abs(w)))) {
            std::ostringstream os;
            os << what << ": element " << i << " of " << got.size() << " is " << g << ", want "
               << w;
            FAIL(os.str());
        }
    }
}

// Random values in [-10, 10] (integers: [-100, 100)), scaled to [-2, 2] for floating types so
// that exp stays well inside float's range.
template <class T> xt::xarray<T> values(const ca::shape_type& shape, unsigned seed) {
    xt::xarray<T> a = test::random_array<T>(shape, seed);
    if constexpr (std::is_floating_point_v<T>) a = a / T(5);
    return a;
}

} // namespace

TEMPLATE_LIST_TEST_CASE("row kernels: operands broadcast along and across rows, tails",
                        "[expr][rows]", row_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    for (std::size_t rows : {1u, 5u})
        for (std::size_t cols : {1u, 3u, 7u, 8u, 9u, 17u, 69u}) {
            CAPTURE(rows, cols);
            const xt::xarray<T> hx = values<T>({rows, cols}, 1), hm = values<T>({rows, 1}, 2),
                                hv = values<T>({cols}, 3);
            auto x = ca::to_device<S>(q, hx), m = ca::to_device<S>(q, hm),
                 v = ca::to_device<S>(q, hv);
            auto y = ca::zeros<T, S>(q, {rows, cols});

            y = x - m; // m constant along each row
            check_near("x - m", y.get(), xt::xarray<T>(hx - hm));
            y = x * v + m; // v constant across rows (outer stride 0)
            check_near("x * v + m", y.get(), xt::xarray<T>(hx * hv + hm));
            y = m * T(3) - v; // every input broadcast
            check_near("m * 3 - v", y.get(), xt::xarray<T>(hm * T(3) - hv));
            if constexpr (std::is_floating_point_v<T>) {
                // Vector kernels (CPU): a broadcast operand read once per work-item.
                y = ca::exp(x - m);
                check_near("exp(x - m)", y.get(), xt::xarray<T>(xt::exp(hx - hm)));
                y = ca::sin(x) * v + ca::cos(m);
                check_near("sin(x) * v + cos(m)", y.get(),
                           xt::xarray<T>(xt::sin(hx) * hv + xt::cos(hm)));
                // Two outputs, one a view with an offset and a padded row.
                auto z = ca::zeros<T, S>(q, {rows, cols + 2});
                auto zv = z(ca::all(), ca::range(1, -1));
                ca::tie(y, zv) = std::make_tuple(ca::exp(m - x), ca::sqrt(ca::abs(x)) + m);
                check_near("tie: exp(m - x)", y.get(), xt::xarray<T>(xt::exp(hm - hx)));
                xt::xarray<T> want_z = xt::zeros<T>({rows, cols + 2});
                xt::view(want_z, xt::all(), xt::range(1, -1)) = xt::sqrt(xt::abs(hx)) + hm;
                check_near("tie: sqrt(|x|) + m into a view", z.get(), want_z);
            }
            // A 1-d operand broadcast from one element (rank 1, inner stride 0).
            auto one = ca::to_device<S>(q, xt::xarray<T>(xt::view(hv, xt::range(0, 1))));
            auto flat = ca::zeros<T, S>(q, {cols});
            flat = v - one;
            check_near("v - v[:1]", flat.get(), xt::xarray<T>(hv - hv(0)));
        }
}

TEMPLATE_LIST_TEST_CASE("row kernels: views, offsets, negative strides, transposes, rank 3",
                        "[expr][rows]", row_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    const auto in = ca::range(1, -1);
    auto xin = xt::range(1, -1); // (xtensor takes no const range adaptors)
    for (std::size_t n : {3u, 10u, 37u}) {
        CAPTURE(n);
        const std::size_t k = n - 2;
        const xt::xarray<T> hu = values<T>({n, n}, 4), ht = values<T>({k, k}, 5),
                            hcol = values<T>({k, 1}, 6), hrow = values<T>({k}, 7);
        auto t = ca::to_device<S>(q, ht), col = ca::to_device<S>(q, hcol),
             row = ca::to_device<S>(q, hrow);
        auto fresh = [&] { return ca::to_device<S>(q, hu); };
        auto expect = [&](const auto& inner) {
            xt::xarray<T> w = hu;
            xt::view(w, xin, xin) = inner;
            return w;
        };

        auto u = fresh();
        u(in, in) = t; // array-to-view copy: rows_copy
        check_near("u[1:-1, 1:-1] = t", u.get(), expect(ht));
        u = fresh();
        u(in, in) = t * T(1); // the same as a generated row kernel
        check_near("u[1:-1, 1:-1] = t * 1", u.get(), expect(ht));
        u = fresh();
        u(in, in) = col; // source broadcast along the rows: rows_copy_broadcast
        check_near("u[1:-1, 1:-1] = col", u.get(), expect(xt::broadcast(hcol, {k, k})));
        u = fresh();
        u(in, in) = row; // source broadcast across rows
        check_near("u[1:-1, 1:-1] = row", u.get(), expect(xt::broadcast(hrow, {k, k})));
        u = fresh();
        u(in, in).fill(T(7)); // rows_fill
        check_near("u[1:-1, 1:-1].fill(7)", u.get(),
                   expect(xt::xarray<T>(xt::full_like(ht, T(7)))));

        // Negative outer stride: still unit-stride rows.
        const auto rev = ca::range(ca::none, ca::none, -1);
        auto xrev = xt::range(_, _, -1);
        u = fresh();
        u(in, in) = t(rev, ca::all());
        check_near("u[1:-1, 1:-1] = t[::-1, :]", u.get(),
                   expect(xt::xarray<T>(xt::view(ht, xrev, xt::all()))));
        // Negative inner stride (source, then destination): not the row path.
        u = fresh();
        u(in, in) = t(ca::all(), rev);
        check_near("u[1:-1, 1:-1] = t[:, ::-1]", u.get(),
                   expect(xt::xarray<T>(xt::view(ht, xt::all(), xrev))));
        u = fresh();
        u(in, in) = t(ca::all(), rev) + row;
        check_near("u[1:-1, 1:-1] = t[:, ::-1] + row", u.get(),
                   expect(xt::xarray<T>(xt::view(ht, xt::all(), xrev) + hrow)));
        u = fresh();
        const long ln = static_cast<long>(n);
        u(in, ca::range(ln - 2, 0, -1)) = t; // columns n-2 .. 1, reversed
        {
            xt::xarray<T> w = hu;
            xt::view(w, xin, xt::range(ln - 2, 0, -1)) = ht;
            check_near("u[1:-1, -2:0:-1] = t", u.get(), w);
        }
        // Transposed source: inner stride n, the strided kernels.
        u = fresh();
        u(in, in) = ca::transpose(t);
        check_near("u[1:-1, 1:-1] = t.T", u.get(), expect(xt::xarray<T>(xt::transpose(ht))));
        u = fresh();
        u(in, in) = ca::transpose(t) - col;
        check_near("u[1:-1, 1:-1] = t.T - col", u.get(),
                   expect(xt::xarray<T>(xt::transpose(ht) - hcol)));
        // Every other column: inner stride 2 (and an alias: the same rows of u).
        u = fresh();
        u(in, ca::range(0, ln - 1, 2)) = u(in, ca::range(1, ln, 2)) * T(2);
        {
            xt::xarray<T> w = hu;
            xt::view(w, xin, xt::range(0, ln - 1, 2)) =
                xt::xarray<T>(xt::view(hu, xin, xt::range(1, ln, 2))) * T(2);
            check_near("u[1:-1, :-1:2] = 2 u[1:-1, 1::2]", u.get(), w);
        }

        // Rank 3 after coalescing: the row index unravels over two outer axes.
        const xt::xarray<T> hw = values<T>({4, n, n}, 8), h3 = values<T>({4, k, k}, 9),
                            hb = values<T>({4, 1, 1}, 10);
        auto w3 = ca::to_device<S>(q, hw), t3 = ca::to_device<S>(q, h3),
             b3 = ca::to_device<S>(q, hb);
        w3(ca::all(), in, in) = t3;
        xt::xarray<T> want3 = hw;
        xt::view(want3, xt::all(), xin, xin) = h3;
        check_near("w[:, 1:-1, 1:-1] = t3", w3.get(), want3);
        w3(ca::all(), in, in) = t3 * b3 + T(1);
        xt::view(want3, xt::all(), xin, xin) = h3 * hb + T(1);
        check_near("w[:, 1:-1, 1:-1] = t3 * b + 1", w3.get(), want3);
        w3(ca::all(), in, in) = b3;
        xt::view(want3, xt::all(), xin, xin) = xt::broadcast(hb, {std::size_t(4), k, k});
        check_near("w[:, 1:-1, 1:-1] = b", w3.get(), want3);
        w3(ca::all(), in, in).fill(T(-3));
        xt::view(want3, xt::all(), xin, xin) = T(-3);
        check_near("w[:, 1:-1, 1:-1].fill(-3)", w3.get(), want3);
        if constexpr (std::is_floating_point_v<T>) {
            w3(ca::all(), in, in) = ca::exp(t3 - b3);
            xt::view(want3, xt::all(), xin, xin) = xt::exp(h3 - hb);
            check_near("w[:, 1:-1, 1:-1] = exp(t3 - b)", w3.get(), want3);
        }
        // Host transfers of views go through the same copies.
        check_near("get() of a view", ca::to_device<S>(q, hw)(ca::all(), in, in).get(),
                   xt::xarray<T>(xt::view(hw, xt::all(), xin, xin)));
    }
}

TEMPLATE_LIST_TEST_CASE("in-place stencil through the alias temporary equals the host update",
                        "[expr][rows]", row_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    const auto in = ca::range(1, -1), r0 = ca::range(0, -2), r2 = ca::range(2, ca::none);
    auto xin = xt::range(1, -1);
    auto x0 = xt::range(0, -2);
    auto x2 = xt::range(2, _);
    const T a = std::is_integral_v<T> ? T(2) : T(0.1);
    for (std::size_t n : {3u, 11u, 64u}) {
        CAPTURE(n);
        xt::xarray<T> h = values<T>({n, n}, 11);
        auto u = ca::to_device<S>(q, h);
        auto v = ca::to_device<S>(q, h); // ping-pong partner
        for (int step = 0; step < 3; ++step) {
            xt::xarray<T> next = h;
            xt::view(next, xin, xin) =
                xt::view(h, xin, xin) +
                a * (xt::view(h, x0, xin) + xt::view(h, x2, xin) + xt::view(h, xin, x0) +
                     xt::view(h, xin, x2) - T(4) * xt::view(h, xin, xin));
            u(in, in) =
                u(in, in) + a * (u(r0, in) + u(r2, in) + u(in, r0) + u(in, r2) - T(4) * u(in, in));
            h = next;
            check_near("in-place stencil step", u.get(), h);
        }
        // Ping-pong: the same update into the other array (no alias).
        xt::xarray<T> hp = xt::xarray<T>(v.get());
        auto w = ca::to_device<S>(q, hp);
        w(in, in) =
            v(in, in) + a * (v(r0, in) + v(r2, in) + v(in, r0) + v(in, r2) - T(4) * v(in, in));
        xt::xarray<T> want = hp;
        xt::view(want, xin, xin) =
            xt::view(hp, xin, xin) +
            a * (xt::view(hp, x0, xin) + xt::view(hp, x2, xin) + xt::view(hp, xin, x0) +
                 xt::view(hp, xin, x2) - T(4) * xt::view(hp, xin, xin));
        check_near("ping-pong stencil", w.get(), want);
        // Overlapping shifted copy within one array (strided_copy's temporary).
        auto s = ca::to_device<S>(q, h);
        s(r2, in) = s(r0, in);
        xt::xarray<T> shifted = h;
        xt::view(shifted, x2, xin) = xt::xarray<T>(xt::view(h, x0, xin));
        check_near("u[2:, 1:-1] = u[:-2, 1:-1]", s.get(), shifted);
    }
}

TEMPLATE_LIST_TEST_CASE("row kernels with the layout in a buffer (high rank, many operands)",
                        "[expr][rows]", row_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    // Rank 10 that does not coalesce: extents 2 of axes of extent 3, rows of 10 out of 12 (a
    // vector and a tail on CPUs). 10 operands, whose layout exceeds pocl's 1024 parameter bytes.
    const ca::shape_type base{3, 3, 3, 3, 3, 3, 3, 3, 3, 12};
    const auto h2 = ca::range(0, 2), hin = ca::range(1, -1);
    auto x2 = xt::range(0, 2);
    auto xin = xt::range(1, -1);
    auto view = [&](const auto& a) { return a(h2, h2, h2, h2, h2, h2, h2, h2, h2, hin); };
    auto hview = [&](auto& a) { return xt::view(a, x2, x2, x2, x2, x2, x2, x2, x2, x2, xin); };
    xt::xarray<T> hs[5];
    ca::cl_array<T, S> ds[5];
    for (unsigned i = 0; i < 5; ++i) {
        hs[i] = values<T>(base, 20 + i);
        ds[i] = ca::to_device<S>(q, hs[i]);
    }
    auto out = ca::zeros<T, S>(q, base);
    view(out) = view(ds[0]) + view(ds[1]) * view(ds[2]) - view(ds[3]) + view(ds[4]) + view(ds[1]) -
                view(ds[2]) + view(ds[0]) * view(ds[4]);
    xt::xarray<T> want = xt::zeros<T>(base);
    hview(want) = hview(hs[0]) + hview(hs[1]) * hview(hs[2]) - hview(hs[3]) + hview(hs[4]) +
                  hview(hs[1]) - hview(hs[2]) + hview(hs[0]) * hview(hs[4]);
    check_near("rank-10 rows, 9 inputs", out.get(), want);
    if constexpr (std::is_floating_point_v<T>) {
        view(out) = ca::exp(view(ds[0])) + view(ds[1]) * view(ds[2]) - view(ds[3]) +
                    view(ds[4]) + view(ds[1]) - ca::sin(view(ds[2])) + view(ds[0]) * view(ds[4]);
        hview(want) = xt::exp(hview(hs[0])) + hview(hs[1]) * hview(hs[2]) - hview(hs[3]) +
                      hview(hs[4]) + hview(hs[1]) - xt::sin(hview(hs[2])) +
                      hview(hs[0]) * hview(hs[4]);
        check_near("rank-10 rows, 9 inputs, math functions", out.get(), want);
    }
    view(out) = view(ds[3]); // the rows_copy_nd kernel
    hview(want) = hview(hs[3]);
    check_near("rank-10 rows copy", out.get(), want);
}
