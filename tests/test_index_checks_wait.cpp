// How raise-mode index checks are read back (runtime/device_checks.hpp, docs/indexing.md): a host
// wait that covers the faulty launch (a read or a reading view on its queue, a read that waits for
// it from another queue, a finish) brings the flag words back with the wait itself, with no read
// on the registry's own queue; other waits fall back to that read. Either way the error is
// reported once, at the first such wait. Expected values come from host loops over the indices.
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

ca::detail::device_checks& checks() {
    return ca::detail::device_checks_of(test::ctx());
}

std::vector<float> iota_values(std::size_t n, float base) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = base + static_cast<float>(i);
    return v;
}

// What a take reads for index k of an array of n (clamped when out of range).
template <class I>
std::vector<float> expected(const std::vector<float>& b, const std::vector<I>& k) {
    const auto n = static_cast<std::int64_t>(b.size());
    std::vector<float> r;
    for (I i : k) {
        std::int64_t j = i < 0 ? i + n : i;
        r.push_back(b[static_cast<std::size_t>(std::clamp<std::int64_t>(j, 0, n - 1))]);
    }
    return r;
}

} // namespace

TEST_CASE("index checks: a wait that covers the launch brings its word back itself",
          "[indexing][device_checks]") {
    each_policy([](auto policy) {
        using S = decltype(policy);
        INFO(S::name);
        const std::vector<float> hb = iota_values(12, 50);
        auto b = device_array<float, S>(q(), hb);
        const std::vector<std::int32_t> hbad{3, 12, -13}, hgood{0, -1, 5};
        auto bad = device_array<std::int32_t, S>(q(), hbad);
        auto good = device_array<std::int32_t, S>(q(), hgood);
        q().finish();
        REQUIRE(checks().pending() == 0);
        const std::size_t own = checks().own_reads();

        // A read on the launch's queue.
        ca::cl_array<float, S> r = ca::take(b, bad);
        CHECK_THROWS_AS(r.get(), ca::index_error);
        CHECK(checks().own_reads() == own);
        CHECK(host_vector(r) == expected(hb, hbad));

        // A finish of the launch's queue; then a valid take reusing the reset word.
        for (int round = 0; round < 20; ++round) {
            ca::cl_array<float, S> rb = ca::take(b, bad);
            CHECK_THROWS_AS(q().finish(), ca::index_error);
            ca::cl_array<float, S> rg = ca::take(b, good);
            CHECK_NOTHROW(q().finish());
            CHECK(host_vector(rg) == expected(hb, hgood));
        }
        CHECK(checks().own_reads() == own);

        // put: the next read of anything on the queue reports it.
        ca::cl_array<float, S> dst = device_array<float, S>(q(), iota_values(12, 0));
        auto values = device_array<float, S>(q(), {-1, -2, -3});
        ca::put(dst, bad, values);
        CHECK_THROWS_AS(b.get(), ca::index_error);
        CHECK(checks().own_reads() == own);
        std::vector<float> want = iota_values(12, 0);
        want[3] = -1; // the bad indices write nothing
        CHECK(host_vector(dst) == want);

        // A reading host view; a fine-grained view waits for events only and reads the word on
        // the registry's queue instead.
        ca::cl_array<float, S> rv = ca::take(b, bad);
        CHECK_THROWS_AS(rv.map(ca::access::read), ca::index_error);
        if (S::kind != ca::storage_kind::svm_fine) CHECK(checks().own_reads() == own);
        CHECK(checks().pending() == 0);
    });
}

TEST_CASE("index checks: a read from another queue that waits for the launch reports it",
          "[indexing][device_checks]") {
    ca::queue q2(test::ctx());
    const std::vector<float> hb = iota_values(9, 0);
    const std::vector<std::int64_t> hbad{8, 9};
    auto b = device_array<float, ca::buffer>(q2, hb);
    auto bad = device_array<std::int64_t, ca::buffer>(q2, hbad);
    q2.finish();
    const std::size_t own = checks().own_reads();
    ca::cl_array<float, ca::buffer> r = ca::take(b, bad);
    // The read on q() waits for the take on q2 (its use record): the word comes with it.
    CHECK_THROWS_AS(r.with_queue(q()).get(), ca::index_error);
    CHECK(checks().own_reads() == own);
    CHECK(host_vector(r.with_queue(q())) == expected(hb, hbad));
    CHECK(checks().pending() == 0);
}

TEST_CASE("index checks on an out-of-order queue", "[indexing][device_checks]") {
    ca::queue ooo(test::ctx(), ca::out_of_order);
    const std::vector<float> hb = iota_values(16, 0);
    auto b = device_array<float, ca::buffer>(ooo, hb);
    const std::vector<std::int32_t> hbad{16}, hgood{0, 15};
    auto bad = device_array<std::int32_t, ca::buffer>(ooo, hbad);
    auto good = device_array<std::int32_t, ca::buffer>(ooo, hgood);
    ooo.finish();

    // A blocking read on an out-of-order queue need not follow a read queued before it: the
    // word is read after the wait (on the registry's queue), still at this wait.
    ca::cl_array<float, ca::buffer> r = ca::take(b, bad);
    CHECK_THROWS_AS(r.get(), ca::index_error);
    CHECK_NOTHROW(r.get());

    // A finish drains the queue, the words' reads with it: two faults among many launches, one
    // report. (Reserving may read the words of launches over meanwhile when all are in flight.)
    std::vector<ca::cl_array<float, ca::buffer>> results;
    for (int i = 0; i < 1500; ++i)
        results.push_back(ca::take(b, i == 100 || i == 1300 ? bad : good));
    const std::size_t own = checks().own_reads();
    try {
        ooo.finish();
        FAIL("the faulty takes were not reported");
    } catch (const ca::index_error& e) {
        CHECK(std::string(e.what()).find("and 1 later") != std::string::npos);
    }
    CHECK(checks().own_reads() == own);
    CHECK_NOTHROW(ooo.finish());
    CHECK(checks().pending() == 0);
    CHECK(host_vector(results[1300]) == expected(hb, hbad));
    CHECK(host_vector(results[1499]) == expected(hb, hgood));
}

TEST_CASE("index checks: four threads, each reporting its own faults at every kind of wait",
          "[indexing][device_checks]") {
    // Each thread has its own queue (one out of order) and sizes, and alternates faulty and valid
    // takes and puts, reported by a read, a finish or a reading view in turn: reads of other
    // threads' queues, their sweeps and the words' reuse interleave with its own.
    std::atomic<int> failures{0};
    auto worker = [&](std::size_t n, bool ooo, int rounds) {
        try {
            ca::queue qq(test::ctx(), ooo ? ca::out_of_order : ca::in_order);
            const std::vector<float> hb = iota_values(n, 1);
            auto b = device_array<float, ca::buffer>(qq, hb);
            const std::vector<std::int64_t> hbad{0, static_cast<std::int64_t>(n)}, hgood{1, -1};
            auto bad = device_array<std::int64_t, ca::buffer>(qq, hbad);
            auto good = device_array<std::int64_t, ca::buffer>(qq, hgood);
            auto dst = device_array<float, ca::buffer>(qq, std::vector<float>(n, 0));
            auto two = device_array<float, ca::buffer>(qq, {7, 8});
            const std::string size = "size " + std::to_string(n);
            for (int i = 0; i < rounds; ++i) {
                ca::cl_array<float, ca::buffer> r = ca::take(b, bad);
                if (i % 3 == 1) ca::put(dst, bad, two);
                try {
                    switch (i % 3) {
                    case 0:
                        (void)r.get();
                        break;
                    case 1:
                        qq.finish();
                        break;
                    default:
                        (void)r.map(ca::access::read);
                        break;
                    }
                    ++failures; // not reported
                } catch (const ca::index_error& e) {
                    if (std::string(e.what()).find(size) == std::string::npos) ++failures;
                }
                ca::cl_array<float, ca::buffer> g = ca::take(b, good);
                if (host_vector(g) != expected(hb, hgood)) ++failures; // must not throw
                if (host_vector(r) != expected(hb, hbad)) ++failures;
            }
            qq.finish();
            std::vector<float> want(n, 0);
            want[0] = 7;
            if (host_vector(dst) != want) ++failures;
        } catch (...) {
            ++failures;
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < 4; ++t)
        threads.emplace_back(worker, 10 + t, t == 3, 60);
    for (std::thread& t : threads)
        t.join();
    CHECK(failures == 0);
    CHECK(checks().pending() == 0);
}
