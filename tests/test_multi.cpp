// Sharded arrays (multi/): every result is checked against the same computation on one
// cl_array (the single-device clarray result) and against a plain host loop. The queue sets: two
// queues of one context, and one queue per device when there are several devices (pocl:
// POCL_DEVICES="pthread pthread"), whose parts meet through the host.
#include "support.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace multi = ca::multi;

namespace {

// Two queues on the test context (one device).
std::vector<ca::queue> one_device_queues() {
    static std::vector<ca::queue> qs = {test::q(), ca::queue(test::ctx())};
    return qs;
}
// One queue per device of the test device's platform (up to 3), each in its own context; empty
// when there is one device.
std::vector<ca::queue> device_queues() {
    static std::vector<ca::queue> qs = [] {
        std::vector<ca::queue> r;
        auto devs = ca::all_devices();
        if (devs.size() < 2) return r;
        for (std::size_t i = 0; i < devs.size() && i < 3; ++i)
            r.emplace_back(ca::context(devs[i]));
        return r;
    }();
    return qs;
}
// The queue sets every test runs on.
std::vector<std::pair<std::string, std::vector<ca::queue>>> queue_sets() {
    std::vector<std::pair<std::string, std::vector<ca::queue>>> sets = {
        {"one device, two queues", one_device_queues()}, {"one queue", {test::q()}}};
    if (!device_queues().empty())
        sets.push_back({"one queue per device", device_queues()});
    else
        WARN("one device only: the several-device cases run on queues of one device");
    return sets;
}
template <class S> bool storage_everywhere(const std::vector<ca::queue>& qs) {
    for (const auto& q : qs) {
        auto caps = q.context().svm_caps();
        if (S::kind == ca::storage_kind::svm_coarse && !caps.coarse) return false;
        if (S::kind == ca::storage_kind::svm_fine && !caps.fine) return false;
    }
    return true;
}

template <class T> std::vector<T> flat(const xt::xarray<T>& h) {
    return std::vector<T>(h.begin(), h.end());
}

using multi_cfgs =
    std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<float, ca::svm_fine>,
               test::cfg<std::int32_t, ca::buffer>, test::cfg<double, ca::svm_coarse>>;

// The transfers take every dtype: bool and 1-byte types besides multi_cfgs.
using transfer_cfgs =
    std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<bool, ca::svm_fine>,
               test::cfg<std::int8_t, ca::buffer>, test::cfg<std::int64_t, ca::svm_coarse>,
               test::cfg<double, ca::buffer>>;
using float_cfgs = std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<float, ca::buffer>>;

} // namespace

TEMPLATE_LIST_TEST_CASE("multi: scatter, get, gather and partitions", "[multi]", transfer_cfgs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = 37, m = 5;
    xt::xarray<T> h = test::random_array<T>({n, m}, 3);
    for (const auto& [name, qs] : queue_sets()) {
        if (!storage_everywhere<S>(qs)) continue;
        INFO(name);
        for (std::size_t block : {std::size_t(0), std::size_t(10)}) {
            multi::options o;
            o.block = block;
            auto a = multi::scatter<T, S>(qs, flat(h), {n, m}, o);
            REQUIRE(a.parts() == qs.size());
            REQUIRE(a.shape() == ca::shape_type{n, m});
            std::size_t rows = 0;
            for (std::size_t i = 0; i < a.parts(); ++i) {
                REQUIRE(a.part_begin(i) == rows);
                if (block && i + 1 < a.parts()) REQUIRE(a.part(i).shape(0) == block);
                if (!block) REQUIRE(a.part(i).shape(0) >= n / qs.size());
                rows += a.part(i).shape(0);
                REQUIRE(a.part(i).get_queue() == qs[i]);
            }
            REQUIRE(rows == n);
            REQUIRE(flat(xt::xarray<T>(a.get())) == flat(h));
            auto g = a.gather(test::q());
            REQUIRE(test::host_vector(g) == flat(h));
            // A copy is independent of the original.
            auto c = a.copy();
            a.fill(T(1));
            REQUIRE(flat(xt::xarray<T>(c.get())) == flat(h));
            REQUIRE(flat(xt::xarray<T>(a.get())) == std::vector<T>(n * m, T(1)));
        }
    }
}

TEMPLATE_LIST_TEST_CASE("multi: element-wise expressions run part by part", "[multi]", multi_cfgs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = 41, m = 3;
    xt::xarray<T> ha = test::random_array<T>({n, m}, 5), hb = test::random_array<T>({n, m}, 6);
    xt::xarray<T> hc = test::random_array<T>({m}, 7);
    // The single-device reference.
    auto da = ca::to_device<S>(test::q(), ha), db = ca::to_device<S>(test::q(), hb);
    auto dc = ca::to_device<S>(test::q(), hc);
    ca::cl_array<T, S> ref = ca::where(da > db, da * T(3) - db, db + T(2)) + dc;
    ca::cl_array<T, S> ref2 = da.copy();
    ref2 += db * T(2);
    for (const auto& [name, qs] : queue_sets()) {
        if (!storage_everywhere<S>(qs)) continue;
        INFO(name);
        auto a = multi::scatter<T, S>(qs, flat(ha), {n, m});
        auto b = multi::scatter<T, S>(qs, flat(hb), {n, m});
        auto c = multi::replicate(qs, dc);
        multi::array<T, S> r = multi::where(a > b, a * T(3) - b, b + T(2)) + c;
        auto got = flat(xt::xarray<T>(r.get()));
        REQUIRE(got == test::host_vector(ref));
        // The host loop.
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < m; ++j) {
                const T x = ha(i, j), y = hb(i, j);
                const T want = static_cast<T>(
                    (x > y ? static_cast<T>(x * T(3) - y) : static_cast<T>(y + T(2))) + hc(j));
                REQUIRE(got[i * m + j] == want);
            }
        // Assignment into an existing array and compound assignment.
        auto d = multi::empty<T, S>(qs, {n, m});
        d = a;
        d += b * T(2);
        REQUIRE(flat(xt::xarray<T>(d.get())) == test::host_vector(ref2));
        // Column selections of every part.
        auto col = multi::zeros<T, S>(qs, {n});
        col = a(ca::all(), 1) - b(ca::all(), 2);
        ca::cl_array<T, S> col_ref = da(ca::all(), 1) - db(ca::all(), 2);
        REQUIRE(flat(xt::xarray<T>(col.get())) == test::host_vector(col_ref));
        // map: any clarray function of the parts.
        multi::array<T, S> mx =
            multi::map([](const auto& x, const auto& y) { return ca::maximum(x, y) * T(2); }, a, b);
        ca::cl_array<T, S> mx_ref = ca::maximum(da, db) * T(2);
        REQUIRE(flat(xt::xarray<T>(mx.get())) == test::host_vector(mx_ref));
    }
}

TEMPLATE_LIST_TEST_CASE("multi: parts of one context run without host waits", "[multi]",
                        float_cfgs) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto qs = one_device_queues();
    const std::size_t n = 1000;
    auto a = multi::full<float, S>(qs, {n}, 2.0f), b = multi::full<float, S>(qs, {n}, 3.0f);
    auto c = multi::empty<float, S>(qs, {n});
    c = a * b + 1.0f; // the kernels are built and cached before the gate
    qs[0].finish();
    qs[1].finish();
    test::host_wait_gate gate(test::ctx());
    for (const auto& q : qs)
        q.enqueue_barrier({gate.event()});
    c = a * b + 2.0f;
    c += a;
    auto s = multi::sum(c);
    auto halo = multi::zeros<float, S>(qs, {n}, {0, 1, nullptr});
    halo.exchange_halos(1);
    REQUIRE(gate.release());
    REQUIRE(s.item() == Approx(10.0 * n));
}

TEMPLATE_LIST_TEST_CASE("multi: parts of different contexts meet without host waits", "[multi]",
                        float_cfgs) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto qs = device_queues();
    if (qs.empty() || !storage_everywhere<S>(qs)) {
        WARN("skipped: needs two devices (POCL_DEVICES=\"pthread pthread\")");
        return;
    }
    const std::size_t n = 300, m = 4;
    multi::options o;
    o.halo = 1;
    auto a = multi::full<float, S>(qs, {n, m}, 2.0f, o);
    auto r = multi::empty<float, S>(qs, {n, m});
    r = a.shifted(-1) + a.shifted(1); // kernels built before the gates
    for (const auto& q : qs)
        q.finish();
    std::vector<std::unique_ptr<test::host_wait_gate>> gates;
    for (const auto& q : qs) {
        gates.push_back(std::make_unique<test::host_wait_gate>(q.context()));
        q.enqueue_barrier({gates.back()->event()});
    }
    a.exchange_halos(1);
    r = a.shifted(-1) + a.shifted(1);
    auto s = multi::sum(r);
    auto cols = multi::sum(r, multi::rows_axis);
    auto g = a.gather(qs[0]);
    for (auto& gate : gates)
        REQUIRE(gate->release());
    // Rows next to the grid's edge see one zero row.
    REQUIRE(s.item() == Approx(4.0 * (n * m) - 2.0 * 2 * m));
    for (std::size_t i = 0; i < cols.parts(); ++i)
        REQUIRE(test::host_vector(cols.part(i)) == std::vector<float>(m, 4.0f * n - 4.0f));
    REQUIRE(test::host_vector(g) == std::vector<float>(n * m, 2.0f));
}

TEMPLATE_LIST_TEST_CASE("multi: parts keep the pool and release rules of single arrays", "[multi]",
                        float_cfgs) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    for (const auto& [name, qs] : queue_sets()) {
        if (!storage_everywhere<S>(qs)) continue;
        INFO(name);
        multi::options o;
        o.halo = 1;
        { // the pools' first blocks of these sizes
            auto a = multi::zeros<float, S>(qs, {64, 8}, o);
            auto b = multi::empty<float, S>(qs, {64, 8});
            a.exchange_halos(1);
            b = a.shifted(1) + 1.0f;
        }
        const auto before = ca::current_allocation_stats();
        for (int i = 0; i < 20; ++i) { // released without waiting, reused in event order
            auto a = multi::zeros<float, S>(qs, {64, 8}, o);
            auto b = multi::empty<float, S>(qs, {64, 8});
            a.exchange_halos(1);
            b = a.shifted(1) + static_cast<float>(i);
        }
        const auto after = ca::current_allocation_stats();
        REQUIRE(after.live_allocations == before.live_allocations);
        REQUIRE(after.pool_held_blocks <= before.pool_held_blocks);
        for (const auto& q : qs)
            q.finish();
    }
}

TEMPLATE_LIST_TEST_CASE("multi: reductions combine the parts", "[multi]", multi_cfgs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = 53, m = 4;
    xt::xarray<T> ha = test::random_array<T>({n, m}, 11);
    ha(40, 2) = T(120); // one largest element, found in the last part
    ha(3, 1) = T(-120);
    auto da = ca::to_device<S>(test::q(), ha);
    for (const auto& [name, qs] : queue_sets()) {
        if (!storage_everywhere<S>(qs)) continue;
        INFO(name);
        auto a = multi::scatter<T, S>(qs, flat(ha), {n, m});
        // Whole-array: integer sums are exact; float sums within the reduction's rounding.
        auto s = multi::sum(a).item();
        auto s_ref = ca::sum(da).item();
        double host_sum = 0;
        for (T v : ha)
            host_sum += static_cast<double>(v);
        if constexpr (std::is_integral_v<T>) {
            REQUIRE(s == s_ref);
            REQUIRE(static_cast<double>(s) == host_sum);
        } else {
            REQUIRE(static_cast<double>(s) == Approx(static_cast<double>(s_ref)).epsilon(1e-5));
            REQUIRE(static_cast<double>(s) == Approx(host_sum).epsilon(1e-5));
        }
        REQUIRE(multi::max(a).item() == ca::max(da).item());
        REQUIRE(multi::min(a).item() == ca::min(da).item());
        REQUIRE(multi::max(a).item() == T(120));
        REQUIRE(multi::argmax(a) == ca::argmax(da).item());
        REQUIRE(multi::argmax(a) == static_cast<std::int64_t>(40 * m + 2));
        REQUIRE(multi::argmin(a) == ca::argmin(da).item());
        REQUIRE(multi::argmin(a) == static_cast<std::int64_t>(3 * m + 1));
        // Of an expression.
        REQUIRE(multi::max(a * T(2) - T(1)).item() == ca::max(da * T(2) - T(1)).item());
        // Along axis 0: replicated on every queue.
        auto cols = multi::max(a, multi::rows_axis);
        auto cols_ref = test::host_vector(ca::max(da, {0}));
        for (std::size_t i = 0; i < cols.parts(); ++i)
            REQUIRE(test::host_vector(cols.part(i)) == cols_ref);
        auto csum = multi::sum(a, multi::rows_axis);
        auto csum_ref = test::host_vector(ca::sum(da, {0}));
        for (std::size_t i = 0; i < csum.parts(); ++i) {
            auto got = test::host_vector(csum.part(i));
            for (std::size_t j = 0; j < m; ++j)
                REQUIRE(static_cast<double>(got[j]) ==
                        Approx(static_cast<double>(csum_ref[j])).epsilon(1e-5));
        }
        // Along axis 1: sharded as a, nothing combines, so equal to the single device's.
        auto rows = multi::sum(a, 1);
        REQUIRE(rows.parts() == a.parts());
        REQUIRE(flat(xt::xarray<typename decltype(rows)::value_type>(rows.get())) ==
                test::host_vector(ca::sum(da, {1})));
        auto rmax = multi::max(a, -1, true);
        REQUIRE(rmax.shape() == ca::shape_type{n, 1});
        REQUIRE(flat(xt::xarray<T>(rmax.get())) == test::host_vector(ca::max(da, {1}, true)));
    }
}

TEMPLATE_LIST_TEST_CASE("multi: parts without rows", "[multi]", float_cfgs) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    for (const auto& [name, qs] : queue_sets()) {
        if (qs.size() < 2 || !storage_everywhere<S>(qs)) continue;
        INFO(name);
        const std::vector<float> h = {3.0f, -1.0f, 7.0f}; // one row of 3: the last part has none
        auto a = multi::scatter<float, S>(qs, h, {1, 3});
        REQUIRE(a.part(qs.size() - 1).size() == 0);
        multi::array<float, S> b = a * 2.0f + 1.0f;
        REQUIRE(test::host_vector(b.gather(test::q())) == std::vector<float>{7.0f, -1.0f, 15.0f});
        REQUIRE(multi::sum(a).item() == 9.0f);
        REQUIRE(multi::max(a).item() == 7.0f);
        REQUIRE(multi::argmax(a) == 2);
        REQUIRE(test::host_vector(multi::min(a, multi::rows_axis).part(1)) == h);
        auto rows = multi::sum(a, 1);
        REQUIRE(test::host_vector(rows.gather(test::q())) == std::vector<float>{9.0f});
        auto e = multi::zeros<float, S>(qs, {0, 3});
        REQUIRE(multi::sum(e).item() == 0.0f);
        REQUIRE_THROWS_AS(multi::max(e), ca::shape_error);
        REQUIRE_THROWS_AS(multi::argmax(e), ca::shape_error);
    }
}

TEMPLATE_LIST_TEST_CASE("multi: argmax finds the first NaN and the first of equal values",
                        "[multi]", float_cfgs) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    for (const auto& [name, qs] : queue_sets()) {
        if (!storage_everywhere<S>(qs)) continue;
        INFO(name);
        std::vector<float> h(30, 1.0f);
        h[7] = 5.0f;
        h[25] = 5.0f;
        auto a = multi::scatter<float, S>(qs, h, {30});
        REQUIRE(multi::argmax(a) == 7);
        h[20] = std::numeric_limits<float>::quiet_NaN();
        a.set(h);
        REQUIRE(multi::argmax(a) == 20);
        REQUIRE(std::isnan(multi::max(a).item()));
        auto d = ca::to_device<S>(test::q(), h);
        REQUIRE(multi::argmax(a) == ca::argmax(d).item());
    }
}

TEMPLATE_LIST_TEST_CASE("multi: halo exchange and shifted views (a stencil)", "[multi]",
                        multi_cfgs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = 29, m = 6;
    xt::xarray<T> h = test::random_array<T>({n, m}, 17);
    // Single device: the grid with one zero row above and below.
    auto padded = ca::zeros<T, S>(test::q(), {n + 2, m});
    padded(ca::range(1, static_cast<std::ptrdiff_t>(n + 1))).set(h);
    const auto N = static_cast<std::ptrdiff_t>(n);
    auto mid = padded(ca::range(1, N + 1)), up = padded(ca::range(0, N)),
         down = padded(ca::range(2, N + 2));
    ca::cl_array<T, S> ref = up + down * T(2) - mid;
    for (const auto& [name, qs] : queue_sets()) {
        if (!storage_everywhere<S>(qs)) continue;
        INFO(name);
        multi::options o;
        o.halo = 2;
        auto a = multi::scatter<T, S>(qs, flat(h), {n, m}, o);
        a.exchange_halos(1);
        auto r = multi::empty<T, S>(qs, {n, m});
        r = a.shifted(-1) + a.shifted(1) * T(2) - a;
        auto got = flat(xt::xarray<T>(r.get()));
        REQUIRE(got == test::host_vector(ref));
        for (std::size_t i = 0; i < n; ++i) // the host loop, zero outside the grid
            for (std::size_t j = 0; j < m; ++j) {
                const T u = i > 0 ? h(i - 1, j) : T(0), d = i + 1 < n ? h(i + 1, j) : T(0);
                REQUIRE(got[i * m + j] == static_cast<T>(u + d * T(2) - h(i, j)));
            }
        // Width 2: two rows from each neighbour; trimmed, head and tail views.
        a.exchange_halos(2);
        auto r2 = multi::empty<T, S>(qs, {n, m});
        r2 = a.shifted(-2) + a.shifted(2);
        auto got2 = flat(xt::xarray<T>(r2.get()));
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < m; ++j) {
                const T u = i > 1 ? h(i - 2, j) : T(0), d = i + 2 < n ? h(i + 2, j) : T(0);
                REQUIRE(got2[i * m + j] == static_cast<T>(u + d));
            }
        r2.trimmed(1, 1) = a.trimmed(1, 1) * T(3);
        r2.head(1) = a.head(1);
        r2.tail(1) = a.tail(1);
        auto got3 = flat(xt::xarray<T>(r2.get()));
        for (std::size_t p = 0; p < r2.parts(); ++p) {
            const std::size_t b = r2.part_begin(p), e = b + r2.part(p).shape(0);
            for (std::size_t i = b; i < e; ++i)
                for (std::size_t j = 0; j < m; ++j) {
                    const bool edge = i == b || i + 1 == e;
                    REQUIRE(got3[i * m + j] == (edge ? h(i, j) : static_cast<T>(h(i, j) * T(3))));
                }
        }
        // Overlap: exchange begun, interior computed, then the rows next to the halos.
        auto x = a.exchange_halos_begin(1);
        auto r3 = multi::empty<T, S>(qs, {n, m});
        r3.trimmed(1, 1) =
            a.shifted(-1).trimmed(1, 1) + a.shifted(1).trimmed(1, 1) * T(2) - a.trimmed(1, 1);
        x.wait();
        r3.head(1) = a.shifted(-1).head(1) + a.shifted(1).head(1) * T(2) - a.head(1);
        r3.tail(1) = a.shifted(-1).tail(1) + a.shifted(1).tail(1) * T(2) - a.tail(1);
        REQUIRE(flat(xt::xarray<T>(r3.get())) == test::host_vector(ref));
    }
}

TEMPLATE_LIST_TEST_CASE("multi: matmul by a replicated operand and take of local rows", "[multi]",
                        float_cfgs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::size_t n = 23, k = 4, m = 3;
    xt::xarray<T> ha = test::random_array<T>({n, k}, 21), hb = test::random_array<T>({k, m}, 22);
    auto da = ca::to_device<S>(test::q(), ha);
    auto db = ca::to_device<S>(test::q(), hb);
    auto ref = test::host_vector(ca::matmul(da, db));
    for (const auto& [name, qs] : queue_sets()) {
        if (!storage_everywhere<S>(qs)) continue;
        INFO(name);
        auto a = multi::scatter<T, S>(qs, flat(ha), {n, k});
        auto b = multi::replicate(qs, db);
        auto c = multi::matmul(a, b);
        auto got = flat(xt::xarray<T>(c.get()));
        REQUIRE(got.size() == ref.size());
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < m; ++j) {
                double want = 0;
                for (std::size_t l = 0; l < k; ++l)
                    want += static_cast<double>(ha(i, l)) * static_cast<double>(hb(l, j));
                REQUIRE(got[i * m + j] == Approx(ref[i * m + j]).epsilon(1e-5));
                REQUIRE(got[i * m + j] == Approx(want).epsilon(1e-4).margin(1e-3));
            }
        // take: every part's rows reversed, through indices local to the part.
        std::vector<std::int32_t> hidx(n);
        for (std::size_t p = 0; p < a.parts(); ++p) {
            const std::size_t b0 = a.part_begin(p), r = a.part(p).shape(0);
            for (std::size_t i = 0; i < r; ++i)
                hidx[b0 + i] = static_cast<std::int32_t>(r - 1 - i);
        }
        auto idx = multi::scatter<std::int32_t, S>(qs, hidx, {n});
        multi::array<T, S> t = multi::take(a, idx, 0) * T(2);
        auto tg = flat(xt::xarray<T>(t.get()));
        for (std::size_t p = 0; p < a.parts(); ++p) {
            const std::size_t b0 = a.part_begin(p);
            for (std::size_t i = 0; i < a.part(p).shape(0); ++i)
                for (std::size_t j = 0; j < k; ++j)
                    REQUIRE(tg[(b0 + i) * k + j] == ha(b0 + hidx[b0 + i], j) * T(2));
        }
    }
}

TEST_CASE("multi: bad input throws typed errors naming the problem", "[multi]") {
    auto qs = one_device_queues();
    auto a = multi::zeros<float, ca::buffer>(qs, {10, 2});
    multi::options o;
    o.block = 3;
    auto b = multi::zeros<float, ca::buffer>(qs, {10, 2}, o);
    try {
        multi::array<float, ca::buffer> c = a + b;
        FAIL("no error");
    } catch (const multi::partition_error& e) {
        REQUIRE(std::string(e.what()).find("partitioned differently") != std::string::npos);
    }
    REQUIRE_THROWS_AS(a = b, multi::partition_error);
    auto single = multi::zeros<float, ca::buffer>({test::q()}, {10, 2});
    REQUIRE_THROWS_AS(a + single, multi::partition_error);
    REQUIRE_THROWS_AS(a.shifted(1), ca::shape_error); // no halo rows
    multi::options h;
    h.halo = 1;
    auto withhalo = multi::zeros<float, ca::buffer>(qs, {10, 2}, h);
    REQUIRE_THROWS_AS(withhalo.exchange_halos(2), ca::shape_error);
    REQUIRE_THROWS_AS(withhalo.shifted(2), ca::shape_error);
    o.block = 20;
    REQUIRE_THROWS_AS((multi::zeros<float, ca::buffer>(qs, {10, 2}, o)), multi::partition_error);
    REQUIRE_THROWS_AS((multi::zeros<float, ca::buffer>({}, {10, 2})), ca::usage_error);
    REQUIRE_THROWS_AS(multi::sum(a, 0), ca::usage_error);
    REQUIRE_THROWS_AS(multi::sum(a, 2), ca::index_error);
    auto rep = multi::replicate(qs, ca::zeros<float, ca::buffer>(test::q(), {2}));
    multi::replicated<float, ca::buffer> r2 = rep;
    REQUIRE_THROWS_AS(r2 = rep + a, multi::partition_error);
    REQUIRE_THROWS_AS(multi::sum(rep), multi::partition_error);
    REQUIRE_THROWS_AS(a.set(std::vector<float>(3)), ca::shape_error);
    // Parts that do not fit the distribution they are said to have.
    REQUIRE_THROWS_AS((multi::array<float, ca::buffer>({a.part(0)}, a.shards().dist)),
                      multi::partition_error);
    REQUIRE_THROWS_AS((multi::array<float, ca::buffer>({a.part(1), a.part(0)}, b.shards().dist)),
                      multi::partition_error);
    if (!device_queues().empty()) {
        // Part 0 of x and y on different contexts.
        std::vector<ca::queue> mixed = {device_queues()[1], device_queues()[0]};
        auto x = multi::zeros<float, ca::buffer>(device_queues(), {10});
        auto y = multi::zeros<float, ca::buffer>({mixed[0], mixed[1]}, {10});
        REQUIRE_THROWS_AS(x + y, multi::partition_error);
    }
}
