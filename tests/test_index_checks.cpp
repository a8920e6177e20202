// Raise-mode index checks on the device (runtime/device_checks.hpp, docs/indexing.md): take, put
// and add_at do not wait at the call; an index out of range is reported as index_error by the
// next host wait (get, item, a host view, queue::finish) after the faulty kernel completed, once,
// in the thread that issued it. Expected values come from host loops over the same indices.
#include "support.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace {

using test::q;

using test::device_array;
using test::each_policy;
using test::host_vector;

std::size_t pending() {
    return ca::detail::device_checks_of(test::ctx()).pending();
}

std::vector<float> iota_values(std::size_t n, float base) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = base + static_cast<float>(i);
    return v;
}

// The clamped position a faulty raise-mode take reads (negative indices count from the end).
std::int64_t clamped(std::int64_t k, std::int64_t n) {
    if (k < 0) k += n;
    return std::clamp<std::int64_t>(k, 0, n - 1);
}

bool mentions(const ca::index_error& e, const std::string& text) {
    return std::string(e.what()).find(text) != std::string::npos;
}

} // namespace

TEST_CASE("take raise: an index out of range is reported at the first host wait, once",
          "[indexing][index_checks]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        const std::vector<float> hb = iota_values(10, 100);
        auto b = device_array<float, S>(q(), hb);
        const std::vector<std::int64_t> hi{1, 10, -3, -11, 9};
        auto idx = device_array<std::int64_t, S>(q(), hi);
        auto ok = device_array<std::int64_t, S>(q(), {0, 9, -10});
        REQUIRE(pending() == 0);

        // get(): the call does not throw, the read does, once; the result holds clamped values.
        ca::cl_array<float, S> r(q(), {hi.size()});
        CHECK_NOTHROW(r = ca::take(b, idx));
        try {
            (void)r.get();
            FAIL("get() of a faulty take did not throw");
        } catch (const ca::index_error& e) {
            CHECK(mentions(e, "take"));
            CHECK(mentions(e, "an array of size 10"));
        }
        std::vector<float> got;
        CHECK_NOTHROW(got = host_vector(r)); // reported once
        for (std::size_t i = 0; i < hi.size(); ++i)
            CHECK(got[i] == hb[static_cast<std::size_t>(clamped(hi[i], 10))]);
        CHECK(pending() == 0);

        // item() of a faulty result.
        auto one = device_array<std::int32_t, S>(q(), {std::int32_t{-11}});
        ca::cl_array<float, S> r1 = ca::take(b, one);
        CHECK_THROWS_AS(r1(0).item(), ca::index_error);
        CHECK(r1(0).item() == hb[0]);

        // A host view of the result.
        ca::cl_array<float, S> r2 = ca::take(b, idx);
        CHECK_THROWS_AS(r2.map(ca::access::read), ca::index_error);
        {
            auto view = r2.map(ca::access::read);
            CHECK(view(1) == hb[9]);
        }
        // The view that threw was unmapped: the array is usable by kernels.
        CHECK_NOTHROW(r2 += 1.0f);

        // queue::finish.
        ca::cl_array<float, S> r3 = ca::take(b, idx);
        CHECK_THROWS_AS(q().finish(), ca::index_error);
        CHECK_NOTHROW(q().finish());

        // Along an axis: the message names it.
        auto b2 = ca::cl_array<float, S>(b.reshape({2, 5}));
        ca::cl_array<float, S> r4 = ca::take(b2, one, 1);
        try {
            (void)r4.get();
            FAIL("get() of a faulty take along axis 1 did not throw");
        } catch (const ca::index_error& e) {
            CHECK(mentions(e, "axis 1 with size 5"));
        }

        // A valid take after a faulty one; wrap and clip never register a check.
        ca::cl_array<float, S> r5 = ca::take(b, ok);
        const auto g5 = host_vector(r5);
        CHECK(g5 == std::vector<float>{hb[0], hb[9], hb[0]});
        ca::cl_array<float, S> r6 = ca::take(b, idx, 0, ca::index_mode::wrap);
        CHECK(pending() == 0);
        CHECK_NOTHROW(host_vector(r6));

        // Two faulty takes, one report (the first, the second counted), then nothing.
        ca::cl_array<float, S> r7 = ca::take(b, idx);
        ca::cl_array<float, S> r8 = ca::take(b2, one, 1);
        try {
            (void)r8.get();
            FAIL("two faulty takes were not reported");
        } catch (const ca::index_error& e) {
            CHECK(mentions(e, "an array of size 10"));
            CHECK(mentions(e, "and 1 later"));
        }
        CHECK_NOTHROW(host_vector(r7));
        CHECK(pending() == 0);
    });
}

TEST_CASE("a fused gather and a reduction of a gather report a bad index at the read",
          "[indexing][index_checks]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        const std::size_t n = 300;
        const std::vector<float> ha = iota_values(n, 1), hb = iota_values(50, -20);
        std::vector<std::int32_t> hi(n);
        for (std::size_t i = 0; i < n; ++i)
            hi[i] = static_cast<std::int32_t>((i * 7) % 50) - (i % 3 == 0 ? 50 : 0);
        hi[123] = 50; // out of range
        auto a = device_array<float, S>(q(), ha);
        auto b = device_array<float, S>(q(), hb);
        auto idx = device_array<std::int32_t, S>(q(), hi);
        ca::cl_array<float, S> c(q(), {n});
        const std::uint64_t before = ca::kernel_launch_count();
        CHECK_NOTHROW(c = a * ca::take(b, idx));
        CHECK(ca::kernel_launch_count() - before == 1); // no check kernel, no conversion
        CHECK_THROWS_AS(c.get(), ca::index_error);
        const auto got = host_vector(c);
        for (std::size_t i = 0; i < n; ++i)
            REQUIRE(got[i] == ha[i] * hb[static_cast<std::size_t>(clamped(hi[i], 50))]);

        auto s = ca::sum(ca::take(b, idx));
        CHECK_THROWS_AS(s.item(), ca::index_error);
        double expect = 0;
        for (std::size_t i = 0; i < n; ++i)
            expect += hb[static_cast<std::size_t>(clamped(hi[i], 50))];
        CHECK(s.item() == Approx(expect));

        // A scan of a gather (the scan's kernels hear of their launches too).
        auto cs = ca::cumsum(ca::take(b, idx));
        CHECK_THROWS_AS(cs.get(), ca::index_error);
        const auto gcs = host_vector(cs);
        double run = 0;
        for (std::size_t i = 0; i < n; ++i) {
            run += hb[static_cast<std::size_t>(clamped(hi[i], 50))];
            REQUIRE(gcs[i] == Approx(run));
        }
        CHECK(pending() == 0);
    });
}

TEST_CASE("put and add_at with a bad index report it at the next read and write nothing out of "
          "bounds",
          "[indexing][index_checks]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        // The target is the middle of a larger array: its neighbours must stay as they were.
        const std::vector<float> hbig = iota_values(30, 0);
        auto big = device_array<float, S>(q(), hbig);
        auto a = big(ca::range(10, 20));
        const std::vector<std::int64_t> hi{1, 10, -2, -11, 3};
        const std::vector<float> hv{5, 6, 7, 8, 9};
        auto idx = device_array<std::int64_t, S>(q(), hi);
        auto v = device_array<float, S>(q(), hv);

        CHECK_NOTHROW(ca::put(a, idx, v));
        CHECK_THROWS_AS(big.get(), ca::index_error);
        std::vector<float> expect = hbig;
        for (std::size_t i = 0; i < hi.size(); ++i) {
            std::int64_t k = hi[i] < 0 ? hi[i] + 10 : hi[i];
            if (k >= 0 && k < 10) expect[10 + static_cast<std::size_t>(k)] = hv[i];
        }
        CHECK(host_vector(big) == expect);

        auto idx32 = device_array<std::int32_t, S>(q(), {2, 2, 12, -1});
        CHECK_NOTHROW(ca::add_at(a, idx32, 1.0f));
        try {
            (void)a.get();
            FAIL("add_at with a bad index was not reported");
        } catch (const ca::index_error& e) {
            CHECK(mentions(e, "add_at"));
            CHECK(mentions(e, "axis 0 with size 10"));
        }
        expect[12] += 2;
        expect[19] += 1;
        CHECK(host_vector(big) == expect);

        // wrap mode writes every index and registers nothing.
        ca::put(a, idx, v, ca::index_mode::wrap);
        CHECK(pending() == 0);
        CHECK_NOTHROW(host_vector(big));
    });
}

TEST_CASE("index checks across two queues of one context", "[indexing][index_checks]") {
    ca::queue q2(test::ctx());
    auto b = device_array<float, ca::buffer>(q2, iota_values(10, 0));
    auto bad = device_array<std::int64_t, ca::buffer>(q2, {3, 42});
    auto other = device_array<float, ca::buffer>(q(), iota_values(4, 0));
    q2.finish();

    // Reported by a finish of the queue that ran it.
    ca::cl_array<float, ca::buffer> r = ca::take(b, bad);
    CHECK_THROWS_AS(q2.finish(), ca::index_error);

    // Or by a read of anything on the context once the kernel completed (clFinish itself does
    // not poll).
    ca::cl_array<float, ca::buffer> r2 = ca::take(b, bad);
    REQUIRE(clFinish(q2.get()) == CL_SUCCESS);
    CHECK_THROWS_AS(other.get(), ca::index_error);
    CHECK_NOTHROW(other.get());
    CHECK(host_vector(r2) == std::vector<float>{3, 9});
    CHECK(pending() == 0);
}

TEST_CASE("index checks report to the thread that issued the faulty operation",
          "[indexing][index_checks]") {
    // Two threads, each with its own arrays and queue, alternate faulty and valid takes: each
    // gets exactly its own errors (its size in the message), never the other's.
    std::atomic<int> failures{0};
    auto worker = [&](std::size_t n, int rounds) {
        try {
            ca::queue qq(test::ctx());
            auto b = device_array<float, ca::buffer>(qq, iota_values(n, 0));
            auto bad =
                device_array<std::int64_t, ca::buffer>(qq, {0, static_cast<std::int64_t>(n)});
            auto good = device_array<std::int64_t, ca::buffer>(qq, {1, -1});
            const std::string size = "an array of size " + std::to_string(n);
            for (int i = 0; i < rounds; ++i) {
                ca::cl_array<float, ca::buffer> r = ca::take(b, bad);
                try {
                    (void)r.get();
                    ++failures; // not reported
                } catch (const ca::index_error& e) {
                    if (!mentions(e, size) || mentions(e, "later")) ++failures;
                }
                ca::cl_array<float, ca::buffer> g = ca::take(b, good);
                const auto got = host_vector(g); // must not throw
                if (got != std::vector<float>{1, static_cast<float>(n - 1)}) ++failures;
            }
            qq.finish();
        } catch (...) {
            ++failures;
        }
    };
    std::thread t1(worker, 10, 40), t2(worker, 20, 40);
    t1.join();
    t2.join();
    CHECK(failures == 0);
    CHECK(pending() == 0);

    // A thread that ended with an unreported error hands it to the next host wait of any thread.
    auto b = device_array<float, ca::buffer>(q(), iota_values(7, 0));
    auto bad = device_array<std::int64_t, ca::buffer>(q(), {8});
    ca::cl_array<float, ca::buffer> r;
    std::thread t3([&] { r = ca::take(b, bad); });
    t3.join();
    CHECK_THROWS_AS(r.get(), ca::index_error);
    CHECK(pending() == 0);
}

TEST_CASE("many checks in flight: the flag words grow and every fault is reported",
          "[indexing][index_checks]") {
    auto b = device_array<float, ca::buffer>(q(), iota_values(16, 0));
    auto good = device_array<std::int32_t, ca::buffer>(q(), {0, 15});
    auto bad = device_array<std::int32_t, ca::buffer>(q(), {16});
    std::vector<ca::cl_array<float, ca::buffer>> results;
    for (int i = 0; i < 1500; ++i)
        results.push_back(ca::take(b, i == 700 ? bad : good));
    CHECK_THROWS_AS(q().finish(), ca::index_error);
    CHECK_NOTHROW(q().finish());
    CHECK(pending() == 0);
    CHECK(host_vector(results[700]) == std::vector<float>{15});
    CHECK(host_vector(results[1499]) == std::vector<float>{0, 15});
}
