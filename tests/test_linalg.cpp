// matmul, dot, vdot, inner and outer (CLBlast) against host loops that accumulate in double.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using shape_t = std::vector<std::size_t>;

// NumPy's matmul on the host, written independently of the library: 1-d operands promoted,
// batch axes broadcast by hand. Also returns sum |a_ik * b_kj| per element, the error scale.
template <class T>
void host_matmul(const xt::xarray<T>& a0, const xt::xarray<T>& b0, xt::xarray<double>& out,
                 xt::xarray<double>& mag) {
    shape_t sa(a0.shape().begin(), a0.shape().end()), sb(b0.shape().begin(), b0.shape().end());
    const bool va = sa.size() == 1, vb = sb.size() == 1;
    if (va) sa.insert(sa.begin(), 1);
    if (vb) sb.push_back(1);
    const std::size_t M = sa[sa.size() - 2], K = sa.back(), N = sb.back();
    const std::size_t ba = sa.size() - 2, bb = sb.size() - 2, nb = std::max(ba, bb);
    shape_t batch(nb, 1);
    for (std::size_t i = 0; i < nb; ++i) {
        const std::size_t ea = i + ba >= nb ? sa[i + ba - nb] : 1;
        const std::size_t eb = i + bb >= nb ? sb[i + bb - nb] : 1;
        REQUIRE((ea == eb || ea == 1 || eb == 1));
        batch[i] = std::max(ea, eb);
        if (ea == 0 || eb == 0) batch[i] = 0;
    }
    shape_t full = batch;
    full.push_back(M);
    full.push_back(N);
    out = xt::zeros<double>(full);
    mag = xt::zeros<double>(full);
    std::size_t count = 1;
    for (std::size_t e : batch)
        count *= e;
    std::vector<std::size_t> bi(nb, 0), ia(sa.size()), ib(sb.size()), io(full.size());
    for (std::size_t c = 0; c < count; ++c) {
        std::size_t rest = c;
        for (std::size_t i = nb; i-- > 0;) {
            bi[i] = rest % batch[i];
            rest /= batch[i];
        }
        for (std::size_t i = 0; i < ba; ++i)
            ia[i] = sa[i] == 1 ? 0 : bi[i + nb - ba];
        for (std::size_t i = 0; i < bb; ++i)
            ib[i] = sb[i] == 1 ? 0 : bi[i + nb - bb];
        for (std::size_t i = 0; i < nb; ++i)
            io[i] = bi[i];
        for (std::size_t m = 0; m < M; ++m)
            for (std::size_t n = 0; n < N; ++n) {
                double s = 0, g = 0;
                for (std::size_t k = 0; k < K; ++k) {
                    ia[ba] = m;
                    ia[ba + 1] = k;
                    ib[bb] = k;
                    ib[bb + 1] = n;
                    // a0/b0 are indexed in their own rank (1-d operands have no promoted axis).
                    const double x = va ? double(a0(k)) : double(a0.element(ia.begin(), ia.end()));
                    const double y = vb ? double(b0(k)) : double(b0.element(ib.begin(), ib.end()));
                    s += x * y;
                    g += std::abs(x * y);
                }
                io[nb] = m;
                io[nb + 1] = n;
                out.element(io.begin(), io.end()) = s;
                mag.element(io.begin(), io.end()) = g;
            }
    }
    shape_t result = batch;
    if (!va) result.push_back(M);
    if (!vb) result.push_back(N);
    out.reshape(result);
    mag.reshape(result);
}

// Every element within k * eps * sum|a b| (a sum of K products in T rounds by at most about that).
template <class T>
void check_close(const xt::xarray<T>& got, const xt::xarray<double>& ref,
                 const xt::xarray<double>& mag, std::size_t K) {
    REQUIRE(shape_t(got.shape().begin(), got.shape().end()) ==
            shape_t(ref.shape().begin(), ref.shape().end()));
    const double eps = std::numeric_limits<T>::epsilon();
    std::size_t bad = 0;
    double worst = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        const double err = std::abs(double(got.flat(i)) - ref.flat(i));
        const double tol = 2.0 * double(K + 1) * eps * mag.flat(i) + 1e-30;
        if (!(err <= tol)) ++bad; // NaN counts
        if (!(err / tol <= worst)) worst = err / tol;
    }
    INFO("worst error / tolerance " << worst);
    CHECK(bad == 0);
}

template <class T, class S> ca::cl_array<T, S> dev(const xt::xarray<T>& h) {
    return ca::to_device<S>(test::q(), h);
}

// A 2-d device view holding `values` in the layout `how`: C order; transposed (the transpose of
// a C-order array); strided (every second row and column of a larger array); reversed rows
// (a negative stride, which the library copies once).
enum class layout_kind { c, transposed, strided, reversed };
const layout_kind all_layouts[] = {layout_kind::c, layout_kind::transposed, layout_kind::strided,
                                   layout_kind::reversed};
const char* layout_name(layout_kind k) {
    switch (k) {
    case layout_kind::c:
        return "C";
    case layout_kind::transposed:
        return "transposed";
    case layout_kind::strided:
        return "strided";
    case layout_kind::reversed:
        break;
    }
    return "reversed";
}

template <class T, class S>
ca::cl_array<T, S> view_of(const xt::xarray<T>& values, layout_kind how) {
    const std::size_t R = values.shape()[0], C = values.shape()[1];
    switch (how) {
    case layout_kind::c:
        return dev<T, S>(values);
    case layout_kind::transposed: {
        xt::xarray<T> t = xt::transpose(values);
        return dev<T, S>(t).transpose();
    }
    case layout_kind::strided: {
        auto whole = ca::zeros<T, S>(test::q(), {2 * R + 1, 2 * C + 1});
        auto v = whole(ca::range(1, 2 * R + 1, 2), ca::range(1, 2 * C + 1, 2));
        v.set(values);
        return v;
    }
    case layout_kind::reversed:
        break;
    }
    auto whole = ca::zeros<T, S>(test::q(), {R, C});
    auto v = whole(ca::range(static_cast<std::ptrdiff_t>(R) - 1, ca::none, -1), ca::all());
    v.set(values);
    return v;
}

template <class T, class S>
void check_matmul(const ca::cl_array<T, S>& a, const ca::cl_array<T, S>& b) {
    const xt::xarray<T> ha = a.get(), hb = b.get();
    xt::xarray<double> ref, mag;
    host_matmul(ha, hb, ref, mag);
    const auto c = ca::matmul(a, b);
    const std::size_t K = ha.shape().back();
    check_close<T>(c.get(), ref, mag, K);
}

using linalg_types = std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<float, ca::svm_fine>,
                                test::cfg<float, ca::buffer>, test::cfg<double, ca::svm_coarse>,
                                test::cfg<double, ca::svm_fine>, test::cfg<double, ca::buffer>>;

} // namespace

TEMPLATE_LIST_TEST_CASE("linalg: matmul of matrices over shapes and layouts", "[linalg]",
                        linalg_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    struct mkn {
        std::size_t m, k, n;
        bool all_layouts;
    };
    const mkn shapes[] = {{1, 1, 1, true},   {7, 13, 5, true},  {31, 37, 29, true},
                          {1, 11, 1, false}, {17, 1, 3, false}, {1, 9, 23, false},
                          {23, 9, 1, false}, {0, 3, 4, false},  {3, 0, 4, false},
                          {3, 4, 0, false},  {67, 64, 3, false}};
    unsigned seed = 1;
    for (const mkn& s : shapes) {
        for (layout_kind la : all_layouts)
            for (layout_kind lb : all_layouts) {
                if (!s.all_layouts &&
                    !(la == lb || (la == layout_kind::transposed && lb == layout_kind::strided)))
                    continue;
                INFO("M K N = " << s.m << " " << s.k << " " << s.n << ", A " << layout_name(la)
                                << ", B " << layout_name(lb));
                const auto ha = test::random_array<T>({s.m, s.k}, seed++);
                const auto hb = test::random_array<T>({s.k, s.n}, seed++);
                check_matmul(view_of<T, S>(ha, la), view_of<T, S>(hb, lb));
            }
    }
}

TEMPLATE_LIST_TEST_CASE("linalg: matmul with vectors (GEMV and DOT)", "[linalg]", linalg_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    unsigned seed = 100;
    for (std::size_t k : {std::size_t(1), std::size_t(2), std::size_t(19), std::size_t(0)})
        for (layout_kind lm : all_layouts)
            for (layout_kind lv : {layout_kind::c, layout_kind::strided, layout_kind::reversed}) {
                INFO("K " << k << ", matrix " << layout_name(lm) << ", vector " << layout_name(lv));
                const auto hm = test::random_array<T>({k, 5}, seed++);
                const auto hmt = test::random_array<T>({6, k}, seed++);
                const auto hv = test::random_array<T>({k, 1}, seed++);
                const auto hw = test::random_array<T>({k, 1}, seed++);
                // 1-d views: a column of a 2-d view in that layout.
                const auto v = view_of<T, S>(hv, lv)(ca::all(), 0);
                const auto w = view_of<T, S>(hw, lv)(ca::all(), 0);
                check_matmul(v, view_of<T, S>(hm, lm));  // (K) @ (K, 5)
                check_matmul(view_of<T, S>(hmt, lm), v); // (6, K) @ (K)
                check_matmul(v, w);                      // (K) @ (K): 0-d
            }
}

TEMPLATE_LIST_TEST_CASE("linalg: batched matmul with broadcasting", "[linalg]", linalg_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    struct pair_case {
        shape_t a, b;
    };
    const pair_case cases[] = {
        {{4, 3, 5}, {4, 5, 2}},       // one stride each: GemmStridedBatched
        {{2, 1, 3, 5}, {3, 5, 7}},    // broadcast both ways: GemmBatched
        {{4, 3, 5}, {5, 2}},          // a 2-d operand broadcast over the batch (stride 0)
        {{3, 5}, {6, 5, 2}},          //
        {{5}, {3, 5, 2}},             // a 1-d operand against a stack
        {{2, 3, 3, 5}, {5}},          //
        {{0, 3, 5}, {5, 2}},          // an empty batch
        {{2, 1, 1, 4}, {1, 3, 4, 1}}, // M = N = 1 batched
        {{3, 4, 0}, {3, 0, 2}},       // K = 0
    };
    unsigned seed = 200;
    for (const pair_case& c : cases) {
        INFO("shapes " << ::Catch::Detail::stringify(c.a) << " @ "
                       << ::Catch::Detail::stringify(c.b));
        const auto ha = test::random_array<T>(ca::shape_type(c.a.begin(), c.a.end()), seed++);
        const auto hb = test::random_array<T>(ca::shape_type(c.b.begin(), c.b.end()), seed++);
        check_matmul(dev<T, S>(ha), dev<T, S>(hb));
    }
    // Batch axes that do not coalesce (every second stack of a larger array, transposed
    // matrices inside): GemmBatched with per-matrix offsets.
    const auto big = dev<T, S>(test::random_array<T>({4, 3, 6, 5}, seed++));
    const auto a = big(ca::range(0, 4, 2), ca::all(), ca::all(), ca::all()).transpose({0, 1, 3, 2});
    const auto b = dev<T, S>(test::random_array<T>({2, 1, 6, 4}, seed++));
    check_matmul(a, b);
    // Batch axes in reversed order (negative batch strides).
    const auto r = big(ca::range(3, ca::none, -1), ca::all(), ca::all(), ca::all());
    check_matmul(r, dev<T, S>(test::random_array<T>({5, 2}, seed++)));
}

TEMPLATE_LIST_TEST_CASE("linalg: dot vdot inner outer", "[linalg]", linalg_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    unsigned seed = 300;
    // dot: 1-d . 1-d, 2-d . 2-d, 2-d . 1-d, 1-d . 2-d, as matmul.
    {
        const auto x = test::random_array<T>({23}, seed++), y = test::random_array<T>({23}, seed++);
        const auto m = test::random_array<T>({4, 23}, seed++),
                   n = test::random_array<T>({23, 3}, seed++);
        xt::xarray<double> ref, mag;
        host_matmul(x, y, ref, mag);
        const auto d = ca::linalg::dot(dev<T, S>(x), dev<T, S>(y));
        CHECK(d.shape().empty());
        check_close<T>(d.get(), ref, mag, 23);
        host_matmul(m, n, ref, mag);
        check_close<T>(
            ca::linalg::dot(dev<T, S>(m), view_of<T, S>(n, layout_kind::transposed)).get(), ref,
            mag, 23);
        host_matmul(m, y, ref, mag);
        check_close<T>(ca::linalg::dot(dev<T, S>(m), dev<T, S>(y)).get(), ref, mag, 23);
        host_matmul(x, n, ref, mag);
        check_close<T>(ca::linalg::dot(dev<T, S>(x), dev<T, S>(n)).get(), ref, mag, 23);
    }
    // vdot: both flattened in C order, whatever their shapes and layouts.
    {
        const auto a = test::random_array<T>({6, 7}, seed++),
                   b = test::random_array<T>({7, 6}, seed++);
        for (layout_kind l : all_layouts) {
            INFO("vdot, layout " << layout_name(l));
            double s = 0, g = 0;
            for (std::size_t i = 0; i < a.size(); ++i) {
                s += double(a.flat(i)) * double(b.flat(i));
                g += std::abs(double(a.flat(i)) * double(b.flat(i)));
            }
            const auto v = ca::linalg::vdot(view_of<T, S>(a, l), view_of<T, S>(b, l));
            CHECK(v.shape().empty());
            check_close<T>(v.get(), xt::xarray<double>(s), xt::xarray<double>(g), a.size());
        }
        const auto e =
            ca::linalg::vdot(ca::zeros<T, S>(test::q(), {0, 3}), ca::zeros<T, S>(test::q(), {0}));
        CHECK(e.item() == T(0));
    }
    // inner: sum over the last axes, result a.shape[:-1] + b.shape[:-1].
    for (layout_kind l : all_layouts) {
        INFO("inner, layout " << layout_name(l));
        const auto a = test::random_array<T>({5, 9}, seed++);
        const auto b3 = test::random_array<T>({2, 3, 9}, seed++);
        const auto got = ca::inner(view_of<T, S>(a, l), dev<T, S>(b3)).get();
        REQUIRE(shape_t(got.shape().begin(), got.shape().end()) == shape_t{5, 2, 3});
        xt::xarray<double> ref = xt::zeros<double>({5, 2, 3}), mag = ref;
        for (std::size_t i = 0; i < 5; ++i)
            for (std::size_t j = 0; j < 2; ++j)
                for (std::size_t k = 0; k < 3; ++k)
                    for (std::size_t t = 0; t < 9; ++t) {
                        const double p = double(a(i, t)) * double(b3(j, k, t));
                        ref(i, j, k) += p;
                        mag(i, j, k) += std::abs(p);
                    }
        check_close<T>(got, ref, mag, 9);
        const auto x = test::random_array<T>({9}, seed++);
        const auto ix = ca::inner(dev<T, S>(x), view_of<T, S>(a, l)).get(); // (9) . (5, 9) -> (5)
        xt::xarray<double> r1 = xt::zeros<double>({5}), m1 = r1;
        for (std::size_t i = 0; i < 5; ++i)
            for (std::size_t t = 0; t < 9; ++t) {
                r1(i) += double(x(t)) * double(a(i, t));
                m1(i) += std::abs(double(x(t)) * double(a(i, t)));
            }
        check_close<T>(ix, r1, m1, 9);
    }
    // outer: flattened operands, any layout.
    for (layout_kind l : all_layouts) {
        INFO("outer, layout " << layout_name(l));
        const auto a = test::random_array<T>({3, 4}, seed++),
                   b = test::random_array<T>({5, 2}, seed++);
        const auto got = ca::outer(view_of<T, S>(a, l), view_of<T, S>(b, l)).get();
        REQUIRE(shape_t(got.shape().begin(), got.shape().end()) == shape_t{12, 10});
        xt::xarray<double> ref = xt::zeros<double>({12, 10}), mag = ref;
        for (std::size_t i = 0; i < 12; ++i)
            for (std::size_t j = 0; j < 10; ++j) {
                ref(i, j) = double(a.flat(i)) * double(b.flat(j));
                mag(i, j) = std::abs(ref(i, j));
            }
        check_close<T>(got, ref, mag, 1);
    }
}

TEMPLATE_LIST_TEST_CASE("linalg: results never read the old contents of reused memory", "[linalg]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    // The output comes from the pool: a block that held NaNs must not leak them into results
    // (BLAS routines compute beta * C even for beta = 0).
    const std::size_t n = 24;
    const auto ha = test::random_array<float>({n, n}, 7), hb = test::random_array<float>({n, n}, 8);
    const auto hv = test::random_array<float>({n}, 9);
    const auto a = dev<float, S>(ha), b = dev<float, S>(hb);
    const auto v = dev<float, S>(hv);
    for (int round = 0; round < 3; ++round) {
        xt::xarray<double> ref, mag;
        { const auto junk = ca::full<float, S>(test::q(), {n, n}, std::nanf("")); }
        host_matmul(ha, hb, ref, mag);
        check_close<float>(ca::matmul(a, b).get(), ref, mag, n);
        { const auto junk = ca::full<float, S>(test::q(), {n}, std::nanf("")); }
        host_matmul(ha, hv, ref, mag);
        check_close<float>(ca::matmul(a, v).get(), ref, mag, n);
    }
}

TEMPLATE_LIST_TEST_CASE("linalg: ordering across queues", "[linalg]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    // The operands are written on another queue; the product waits for those writes without
    // the host waiting, and the next writer of an operand waits for the product.
    ca::queue other(test::ctx());
    const std::size_t n = 40;
    const auto ha = test::random_array<float>({n, n}, 11),
               hb = test::random_array<float>({n, n}, 12);
    ca::cl_array<float, S> a(other, {n, n}), b(other, {n, n});
    a.set(ha);
    b.set(hb);
    auto a2 = ca::cl_array<float, S>(other, {n, n});
    a2.fill(0.0f);
    a2 = a; // a kernel on `other`
    const auto c = ca::matmul(a2.with_queue(test::q()), b);
    a2.fill(1.0f); // must wait for the product's read
    xt::xarray<double> ref, mag;
    host_matmul(ha, hb, ref, mag);
    check_close<float>(c.get(), ref, mag, n);
    // The operand's memory, written by a kernel after the first product (through its SVM pointer
    // on SVM storage), is what the second product reads through the same cl_mem.
    const auto again = ca::matmul(a2, b);
    const xt::xarray<float> ones = xt::ones<float>({n, n});
    host_matmul(ones, hb, ref, mag);
    check_close<float>(again.get(), ref, mag, n);
    b.fill(-1.0f);
    const auto third = ca::matmul(a2, b);
    host_matmul(ones, xt::xarray<float>(-ones), ref, mag);
    check_close<float>(third.get(), ref, mag, n);
}

TEMPLATE_LIST_TEST_CASE("linalg: products do not block the host", "[linalg]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    // A writer gated by a user event comes first on the queue: a product that waited on the host
    // for it would never return. A watchdog opens the gate after 60 s and the test fails.
    ca::context& ctx = test::ctx();
    ca::queue q(ctx);
    ca::kernel writer =
        ca::program(ctx, "kernel void w(global float* a) { a[get_global_id(0)] = 2.0f; }")
            .kernel("w");
    test::host_wait_gate gate(ctx);
    auto a = ca::empty<float, S>(q, {4, 8, 8});
    writer.launch(q, {a.size()}, {}, {gate.event()}, ca::out(a));
    // GemmStridedBatched, GemmBatched (batch axes that do not coalesce), Gemm, Gemv, Dot, and a
    // reversed view (copied first).
    const auto strided = ca::matmul(a, a);
    const auto offsets = ca::matmul(
        a(ca::range(0, 4, 2), ca::all(), ca::all())(ca::newaxis(), ca::all(), ca::all(), ca::all()),
        a(ca::range(0, 2), ca::newaxis(), ca::all(), ca::all()));
    const auto gemm = ca::matmul(a(0), a(1));
    const auto gemv = ca::matmul(a(0), a(1, ca::all(), 2));
    const auto d = ca::linalg::dot(a(0, 1), a(2, 3));
    const auto rev = ca::matmul(a(ca::range(3, ca::none, -1)), a);
    CHECK(gate.release());
    const xt::xarray<float> host = a.get(); // all 2
    const auto all_equal = [](const xt::xarray<float>& x, float v) {
        return std::all_of(x.begin(), x.end(), [v](float e) { return e == v; });
    };
    REQUIRE(all_equal(host, 2.0f));
    const float k = 8 * 2.0f * 2.0f; // each element: 8 products of 2 * 2
    CHECK(all_equal(strided.get(), k));
    CHECK(offsets.shape() == ca::shape_type{2, 2, 8, 8});
    CHECK(all_equal(offsets.get(), k));
    CHECK(all_equal(gemm.get(), k));
    CHECK(all_equal(gemv.get(), k));
    CHECK(all_equal(d.get(), k));
    CHECK(all_equal(rev.get(), k));
}

TEMPLATE_LIST_TEST_CASE("linalg: products of SVM arrays on a CPU device run through the host BLAS",
                        "[linalg]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    // The product's write is a native kernel exactly where the host BLAS serves it (a CPU
    // device, tuning_t::host_blas, SVM storage, a build with OpenBLAS); CLBlast's is a kernel.
    const ca::device& device = test::ctx().device();
    cl_device_exec_capabilities caps = 0;
    REQUIRE(clGetDeviceInfo(device.id(), CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps,
                            nullptr) == CL_SUCCESS);
    const bool built_with_openblas = CLARRAY_TEST_OPENBLAS != 0;
    const bool host = built_with_openblas && device.tuning().host_blas && S::is_svm &&
                      (caps & CL_EXEC_NATIVE_KERNEL) != 0;
    const char* setting = std::getenv("CLARRAY_HOST_BLAS");
    CHECK(device.tuning().host_blas == (setting ? std::string(setting) == "1" : device.is_cpu()));
    const std::size_t n = 33;
    const auto ha = test::random_array<float>({3, n, n}, 21),
               hb = test::random_array<float>({n, n}, 22);
    const auto a = dev<float, S>(ha), b = dev<float, S>(hb);
    for (const auto& c : {ca::matmul(a, b), ca::matmul(a(1), b), ca::linalg::dot(b(0), b(1))}) {
        ca::queue other(test::ctx());
        ca::wait_list last_write;
        c.data()->add_dependencies(other, ca::access::read, last_write);
        REQUIRE(last_write.size() >= 1);
        cl_command_type type = 0;
        REQUIRE(clGetEventInfo(last_write.events().back().get(), CL_EVENT_COMMAND_TYPE, sizeof type,
                               &type, nullptr) == CL_SUCCESS);
        CHECK((type == CL_COMMAND_NATIVE_KERNEL) == host);
    }
    // And the batch's values.
    xt::xarray<double> ref, mag;
    for (std::size_t i = 0; i < 3; ++i) {
        host_matmul(xt::xarray<float>(xt::view(ha, i)), hb, ref, mag);
        check_close<float>(xt::xarray<float>(xt::view(ca::matmul(a, b).get(), i)), ref, mag, n);
    }
}

TEST_CASE("support: host_wait_gate reports a call that waits on the host", "[linalg][support]") {
    // The check the test above relies on: get() must read the gated writer's values, so it waits
    // until the watchdog opens the gate (after 1 s) and release() reports it.
    ca::context& ctx = test::ctx();
    ca::queue q(ctx);
    ca::kernel writer =
        ca::program(ctx, "kernel void w(global float* a) { a[get_global_id(0)] = 3.0f; }")
            .kernel("w");
    test::host_wait_gate gate(ctx, std::chrono::seconds(1));
    auto a = ca::empty<float, ca::buffer>(q, {16});
    writer.launch(q, {a.size()}, {}, {gate.event()}, ca::out(a));
    const xt::xarray<float> host = a.get();
    CHECK(!gate.release());
    CHECK(host == xt::xarray<float>(xt::ones<float>({16}) * 3.0f));
}

TEST_CASE("linalg: errors", "[linalg][errors]") {
    auto& q = test::q();
    const auto a = ca::zeros<float, ca::buffer>(q, {3, 4}),
               b = ca::zeros<float, ca::buffer>(q, {5, 6});
    auto message = [](const std::function<void()>& f) -> std::string {
        try {
            f();
        } catch (const ca::error& e) {
            return e.what();
        }
        return "no error";
    };
    const std::string m = message([&] { ca::matmul(a, b); });
    CHECK_THROWS_AS(ca::matmul(a, b), ca::shape_error);
    CHECK(m.find("matmul") != std::string::npos);
    CHECK(m.find("(3, 4)") != std::string::npos);
    CHECK(m.find("(5, 6)") != std::string::npos);
    CHECK_THROWS_AS(ca::matmul(ca::zeros<float, ca::buffer>(q, {2, 3, 4}),
                               ca::zeros<float, ca::buffer>(q, {3, 4, 2})),
                    ca::shape_error); // batch 2 vs 3
    CHECK_THROWS_AS(ca::matmul(ca::zeros<float, ca::buffer>(q, {}), a), ca::shape_error);
    CHECK_THROWS_AS(ca::linalg::dot(ca::zeros<float, ca::buffer>(q, {2, 3, 4}),
                                    ca::zeros<float, ca::buffer>(q, {4, 2})),
                    ca::shape_error);
    CHECK_THROWS_AS(ca::linalg::vdot(a, b), ca::shape_error);
    CHECK_THROWS_AS(ca::inner(a, b), ca::shape_error);
    CHECK_THROWS_AS(ca::matmul(ca::cl_array<float, ca::buffer>(), a), ca::usage_error);
    ca::queue ooo(test::ctx(), ca::out_of_order);
    CHECK_THROWS_AS(ca::matmul(a.with_queue(ooo), ca::zeros<float, ca::buffer>(q, {4, 2})),
                    ca::unsupported);
    if (!test::ctx().device().has_fp64()) { // e.g. CLARRAY_DISABLE_FP64=1
        const std::string fp64 = message([&] {
            ca::matmul(ca::zeros<double, ca::buffer>(q, {2, 2}),
                       ca::zeros<double, ca::buffer>(q, {2, 2}));
        });
        CHECK(fp64.find("float64 needs cl_khr_fp64") != std::string::npos);
    }
    // CLBlast status codes become typed errors naming the routine.
    using ca::detail::check_blas;
    CHECK_NOTHROW(check_blas(0, "clblast::Gemm"));
    const std::string lead = message([] { check_blas(-1016, "clblast::Gemm"); });
    CHECK(lead == "clblast::Gemm: kInvalidLeadDimA");
    CHECK_THROWS_AS(check_blas(-1016, "clblast::Gemm"), ca::usage_error);
    CHECK_THROWS_AS(check_blas(-2044, "clblast::Gemm"), ca::unsupported);
    CHECK_THROWS_AS(check_blas(-4, "clblast::Gemm"), ca::out_of_memory);
    CHECK_THROWS_AS(check_blas(-36, "clblast::Gemm"), ca::cl_error);
    CHECK_THROWS_AS(check_blas(-2041, "clblast::Gemm"), ca::error);
    CHECK(message([] { check_blas(-2041, "clblast::Gemm"); }) == "clblast::Gemm: kDatabaseError");
}

namespace {
template <class R>
xt::xarray<std::complex<R>> random_complex(const ca::shape_type& shape, unsigned seed) {
    const auto re = test::random_array<R>(shape, seed), im = test::random_array<R>(shape, seed + 7);
    xt::xarray<std::complex<R>> z = xt::xarray<std::complex<R>>::from_shape(shape);
    for (std::size_t i = 0; i < z.size(); ++i)
        z.flat(i) = {re.flat(i), im.flat(i)};
    return z;
}
using complex_types = std::tuple<test::cfg<std::complex<float>, ca::svm_coarse>,
                                 test::cfg<std::complex<double>, ca::buffer>>;
} // namespace

TEMPLATE_LIST_TEST_CASE("linalg: complex products", "[linalg][complex]", complex_types) {
    using T = typename TestType::value_type;
    using R = typename T::value_type;
    using S = typename TestType::storage;
    using C = std::complex<double>;
    CLARRAY_REQUIRE_CFG(TestType);
    if (std::is_same_v<R, double> && !test::ctx().device().has_fp64()) return;
    const double eps = std::numeric_limits<R>::epsilon();
    // got within 4 (K + 1) eps sum |x y| of the double-accumulated reference.
    const auto check = [&](const xt::xarray<T>& got, const std::vector<C>& ref,
                           const std::vector<double>& mag, std::size_t K) {
        REQUIRE(got.size() == ref.size());
        std::size_t bad = 0;
        for (std::size_t i = 0; i < ref.size(); ++i)
            if (!(std::abs(C(got.flat(i)) - ref[i]) <= 4.0 * double(K + 1) * eps * mag[i] + 1e-30))
                ++bad;
        CHECK(bad == 0);
    };
    const std::size_t M = 7, K = 13, N = 5;
    const auto a = random_complex<R>({M, K}, 1), b = random_complex<R>({K, N}, 2);
    const auto x = random_complex<R>({K}, 3), y = random_complex<R>({K}, 4);
    // matmul with a transposed first operand (Gemm), matrix . vector (Gemv).
    {
        xt::xarray<T> at = xt::transpose(a);
        const auto got = ca::matmul(dev<T, S>(at).transpose(), dev<T, S>(b)).get();
        std::vector<C> ref(M * N);
        std::vector<double> mag(M * N);
        for (std::size_t i = 0; i < M; ++i)
            for (std::size_t j = 0; j < N; ++j)
                for (std::size_t k = 0; k < K; ++k) {
                    ref[i * N + j] += C(a(i, k)) * C(b(k, j));
                    mag[i * N + j] += std::abs(C(a(i, k)) * C(b(k, j)));
                }
        check(got, ref, mag, K);
        const auto gv = ca::matmul(dev<T, S>(a), dev<T, S>(x)).get();
        std::vector<C> rv(M);
        std::vector<double> mv(M);
        for (std::size_t i = 0; i < M; ++i)
            for (std::size_t k = 0; k < K; ++k) {
                rv[i] += C(a(i, k)) * C(x(k));
                mv[i] += std::abs(C(a(i, k)) * C(x(k)));
            }
        check(gv, rv, mv, K);
    }
    // dot does not conjugate (Dotu); vdot conjugates its first operand (Dotc), as NumPy's.
    {
        C d = 0, v = 0;
        double g = 0;
        for (std::size_t k = 0; k < K; ++k) {
            d += C(x(k)) * C(y(k));
            v += std::conj(C(x(k))) * C(y(k));
            g += std::abs(C(x(k)) * C(y(k)));
        }
        check(ca::linalg::dot(dev<T, S>(x), dev<T, S>(y)).get(), {d}, {g}, K);
        check(ca::linalg::vdot(dev<T, S>(x), dev<T, S>(y)).get(), {v}, {g}, K);
    }
}

namespace {
// NumPy's tensordot on the host: every result element sums over the summed axes' index space
// (axes given non-negative, paired in order). Also returns sum |a b| per element (error scale).
template <class T>
void host_tensordot(const xt::xarray<T>& a, const xt::xarray<T>& b,
                    const std::vector<std::size_t>& sum_a, const std::vector<std::size_t>& sum_b,
                    xt::xarray<double>& out, xt::xarray<double>& mag) {
    std::vector<std::size_t> free_a, free_b;
    shape_t shape, summed;
    for (std::size_t k = 0; k < a.dimension(); ++k)
        if (std::find(sum_a.begin(), sum_a.end(), k) == sum_a.end()) {
            free_a.push_back(k);
            shape.push_back(a.shape()[k]);
        }
    for (std::size_t k = 0; k < b.dimension(); ++k)
        if (std::find(sum_b.begin(), sum_b.end(), k) == sum_b.end()) {
            free_b.push_back(k);
            shape.push_back(b.shape()[k]);
        }
    for (std::size_t k : sum_a)
        summed.push_back(a.shape()[k]);
    out = xt::zeros<double>(shape);
    mag = xt::zeros<double>(shape);
    // Unravels `flat` over `extents` (C order) into `index`.
    auto unravel = [](std::size_t flat, const shape_t& extents, shape_t& index) {
        index.assign(extents.size(), 0);
        for (std::size_t i = extents.size(); i-- > 0;) {
            index[i] = flat % extents[i];
            flat /= extents[i];
        }
    };
    std::size_t n_out = 1, n_sum = 1;
    for (std::size_t e : shape)
        n_out *= e;
    for (std::size_t e : summed)
        n_sum *= e;
    shape_t io, is, ia(a.dimension()), ib(b.dimension());
    for (std::size_t o = 0; o < n_out; ++o) {
        unravel(o, shape, io);
        for (std::size_t i = 0; i < free_a.size(); ++i)
            ia[free_a[i]] = io[i];
        for (std::size_t i = 0; i < free_b.size(); ++i)
            ib[free_b[i]] = io[free_a.size() + i];
        double s = 0, g = 0;
        for (std::size_t c = 0; c < n_sum; ++c) {
            unravel(c, summed, is);
            for (std::size_t i = 0; i < sum_a.size(); ++i) {
                ia[sum_a[i]] = is[i];
                ib[sum_b[i]] = is[i];
            }
            const double x = double(a.element(ia.begin(), ia.end()));
            const double y = double(b.element(ib.begin(), ib.end()));
            s += x * y;
            g += std::abs(x * y);
        }
        out.flat(o) = s;
        mag.flat(o) = g;
    }
}
} // namespace

TEMPLATE_LIST_TEST_CASE("linalg: tensordot over axis lists and layouts", "[linalg]", linalg_types) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    struct case_t {
        ca::shape_type a, b;
        std::vector<std::ptrdiff_t> axes_a, axes_b; // as given to tensordot
        std::vector<std::size_t> ref_a, ref_b;      // the same, non-negative
        bool transpose_a;                           // a is the transposed view of a C array
    };
    const case_t cases[] = {
        {{3, 4, 5}, {4, 5, 6}, {1, 2}, {0, 1}, {1, 2}, {0, 1}, false},
        {{3, 4, 5}, {5, 4, 2}, {1, 2}, {1, 0}, {1, 2}, {1, 0}, false},
        {{2, 3, 4}, {4, 2, 5}, {-1, 0}, {0, 1}, {2, 0}, {0, 1}, false},
        {{7, 5}, {7, 3}, {0}, {0}, {0}, {0}, false}, // a.T @ b
        {{5, 7}, {7, 3}, {0}, {0}, {0}, {0}, true},  // a is a transposed view: (7, 5) . (7, 3)
        {{2, 3}, {4}, {}, {}, {}, {}, false},        // outer product
        {{0, 3}, {3, 2}, {1}, {0}, {1}, {0}, false}, // empty result
        {{3, 0}, {0, 2}, {1}, {0}, {1}, {0}, false}, // empty sum: zeros
        {{6, 1, 5}, {5, 1, 4}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, true}, // (5, 1, 6) view
    };
    unsigned seed = 40;
    for (const case_t& c : cases) {
        INFO("a " << ca::shape_to_string(c.a) << (c.transpose_a ? " (transposed view)" : "")
                  << ", b " << ca::shape_to_string(c.b));
        auto ha = test::random_array<T>(c.a, seed++);
        const auto hb = test::random_array<T>(c.b, seed++);
        const auto stored = dev<T, S>(ha);
        const auto a = c.transpose_a ? stored.transpose() : stored; // assignment would copy
        if (c.transpose_a) ha = xt::transpose(ha);
        xt::xarray<double> ref, mag;
        host_tensordot(xt::xarray<T>(ha), hb, c.ref_a, c.ref_b, ref, mag);
        std::size_t K = 1;
        for (std::size_t k : c.ref_a)
            K *= ha.shape()[k];
        check_close<T>(ca::tensordot(a, dev<T, S>(hb), c.axes_a, c.axes_b).get(), ref, mag, K);
    }
    // The integer form: the last n axes of a with the first n of b.
    const auto ha = test::random_array<T>({2, 4, 4}, seed++),
               hb = test::random_array<T>({4, 4, 5}, seed++);
    const auto a = dev<T, S>(ha), b = dev<T, S>(hb);
    for (std::size_t n = 0; n <= 2; ++n) {
        INFO("axes = " << n);
        std::vector<std::size_t> ra, rb;
        std::size_t K = 1;
        for (std::size_t i = 0; i < n; ++i) {
            ra.push_back(3 - n + i);
            rb.push_back(i);
            K *= hb.shape()[i];
        }
        xt::xarray<double> ref, mag;
        host_tensordot(ha, hb, ra, rb, ref, mag);
        check_close<T>(ca::linalg::tensordot(a, b, n).get(), ref, mag, K);
    }
}

TEST_CASE("linalg: tensordot errors", "[linalg][errors]") {
    auto& q = test::q();
    const auto a = ca::zeros<float, ca::buffer>(q, {3, 4, 5}),
               b = ca::zeros<float, ca::buffer>(q, {4, 6});
    CHECK_THROWS_AS(ca::tensordot(a, b, {1, 2}, {0, 1}), ca::shape_error); // 5 vs 6
    try {
        ca::tensordot(a, b, {2}, {1});
        FAIL("no error");
    } catch (const ca::shape_error& e) {
        const std::string m = e.what();
        CHECK(m.find("(3, 4, 5)") != std::string::npos);
        CHECK(m.find("(4, 6)") != std::string::npos);
    }
    CHECK_THROWS_AS(ca::tensordot(a, b, {1}, {0, 1}), ca::usage_error);
    CHECK_THROWS_AS(ca::tensordot(a, b, {3}, {0}), ca::index_error);
    CHECK_THROWS_AS(ca::tensordot(a, b, {-4}, {0}), ca::index_error);
    CHECK_THROWS_AS(ca::tensordot(a, a, {1, 1}, {1, 2}), ca::usage_error);
    CHECK_THROWS_AS(ca::tensordot(a, b, 3), ca::shape_error);
    CHECK_THROWS_AS(ca::tensordot(a, b, 1), ca::shape_error); // 5 vs 4
}

TEMPLATE_LIST_TEST_CASE("linalg: float16 products compute in float32 and round once",
                        "[linalg][half]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    using ca::half;
    const std::size_t M = 9, K = 33, N = 7;
    const auto fa = test::random_array<float>({M, K}, 71),
               fb = test::random_array<float>({K, N}, 72);
    xt::xarray<half> ha = xt::xarray<half>::from_shape({M, K}),
                     hb = xt::xarray<half>::from_shape({K, N});
    for (std::size_t i = 0; i < ha.size(); ++i)
        ha.flat(i) = half(fa.flat(i));
    for (std::size_t i = 0; i < hb.size(); ++i)
        hb.flat(i) = half(fb.flat(i));
    const xt::xarray<half> got = ca::matmul(dev<half, S>(ha), dev<half, S>(hb)).get();
    REQUIRE(got.shape()[0] == M);
    REQUIRE(got.shape()[1] == N);
    std::size_t bad = 0;
    for (std::size_t m = 0; m < M; ++m)
        for (std::size_t n = 0; n < N; ++n) {
            double s = 0, g = 0;
            for (std::size_t k = 0; k < K; ++k) {
                const double p = double(float(ha(m, k))) * double(float(hb(k, n)));
                s += p;
                g += std::abs(p);
            }
            // One rounding to half (2^-11 relative) after a float32 sum of K products.
            const double tol = std::ldexp(std::abs(s), -11) + 2.0 * (K + 1) * 0x1p-24 * g + 1e-7;
            if (!(std::abs(double(float(got(m, n))) - s) <= tol)) ++bad;
        }
    CHECK(bad == 0);
    // tensordot and dot take the same path.
    const auto v = dev<half, S>(xt::xarray<half>(xt::view(ha, 0, xt::all())));
    const double d = double(float(ca::linalg::dot(v, v).get()()));
    double ref = 0;
    for (std::size_t k = 0; k < K; ++k)
        ref += double(float(ha(0, k))) * double(float(ha(0, k)));
    CHECK(std::abs(d - ref) <= std::ldexp(ref, -10));
}
