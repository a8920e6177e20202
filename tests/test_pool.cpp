// Memory pools: size bins, reuse ordered by events across in-order and out-of-order queues, final
// frees that neither block nor free early, out-of-memory recovery, statistics.
// Kernels are held back by user events where "still pending" must be a fact, not a timing guess.
#include "support.hpp"

#include <clarray/runtime/context_state.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

using catch_compat::Contains;

// Memory of its own, or a block of the context's default pool: never a user's pool.
bool not_from_user_pool(const ca::allocation& a) {
    return a.pool() == nullptr || ca::detail::pool_of(a)->is_default_pool();
}

using pool_policies = std::tuple<ca::svm_coarse, ca::svm_fine, ca::buffer>;
namespace bins = ca::pool_bins;

const char* kernels_source = R"CLC(
kernel void write_value(global uint* a, uint value) { a[get_global_id(0)] = value; }
// Keeps writing the canary (volatile: every store happens), so that a kernel that overlaps it on
// the same memory leaves mixed values behind.
kernel void busy_canary(global volatile uint* a, uint value, uint spins) {
    size_t i = get_global_id(0);
    for (uint k = 0; k < spins; ++k) a[i] = value;
}
kernel void check_canary(global const uint* a, uint expected, global uint* mismatches, uint slot) {
    if (a[get_global_id(0)] != expected) atomic_inc(&mismatches[slot]);
}
)CLC";

struct user_event {
    cl_event raw;
    explicit user_event(const ca::context& c) {
        cl_int rc = CL_SUCCESS;
        raw = clCreateUserEvent(c.get(), &rc);
        REQUIRE(rc == CL_SUCCESS);
    }
    ~user_event() { clReleaseEvent(raw); }
    ca::event handle() const { return ca::event::retain(raw); }
    void complete() const { REQUIRE(clSetUserEventStatus(raw, CL_COMPLETE) == CL_SUCCESS); }
};

ca::program& programs() {
    static ca::program p(test::ctx(), kernels_source);
    return p;
}

bool contains_event(const ca::wait_list& wl, const ca::event& e) {
    for (const ca::event& x : wl.events())
        if (x.get() == e.get()) return true;
    return false;
}

// Releases what the context's default pools hold and waits for SVM frees parked behind pending
// work (NVIDIA path), so that the process-wide counters compare across a test.
void settle(const ca::context& c) {
    ca::free_cached(c);
    c.state().svm_frees.drain(c.get());
}

// n elements of memory of its own (no pool): the raw allocation path, whose address reuse
// exposes a block freed too early.
template <class T, class S> ca::cl_array<T, S> own_memory_array(const ca::queue& q, std::size_t n) {
    return ca::cl_array<T, S>(q, std::make_shared<ca::allocation>(q, S::kind, n * sizeof(T)), {n},
                              {1}, 0);
}

} // namespace

TEST_CASE("pool size bins: rounding below 1/16 and consistent round trips up to 2^34", "[pool]") {
    std::mt19937_64 rng(20261203);
    auto check_size = [](std::uint64_t s) {
        const bins::bin_t b = bins::bin_number(s);
        const std::uint64_t a = bins::alloc_size(b);
        INFO("size " << s << " bin " << b << " alloc_size " << a);
        REQUIRE(a >= s);
        REQUIRE(bins::bin_number(a) == b);
        REQUIRE((a - s) * 16 < s); // overhead strictly below 1/16
    };
    for (int i = 0; i < 20000; ++i) {
        // Log-uniform over [1, 2^34]: every octave gets its share.
        const unsigned octave = static_cast<unsigned>(rng() % 35);
        const std::uint64_t lo = std::uint64_t(1) << octave;
        check_size(lo + rng() % lo);
    }
    for (unsigned e = 0; e <= 34; ++e) {
        const std::uint64_t p = std::uint64_t(1) << e;
        for (std::int64_t d = -5; d <= 5; ++d)
            if (static_cast<std::int64_t>(p) + d > 0) check_size(p + d);
    }
    // Bins are ordered like their sizes, and a bin's block fits exactly its own requests.
    for (std::uint64_t s = 1; s < 70000; ++s) {
        REQUIRE(bins::bin_number(s + 1) >= bins::bin_number(s));
        const bins::bin_t b = bins::bin_number(s);
        REQUIRE(bins::bin_number(bins::alloc_size(b) + 1) > b); // the next size: a later bin
    }
    CHECK(bins::bin_number(1) != bins::bin_number(2));
    CHECK(bins::alloc_size(bins::bin_number(15)) == 15); // small sizes: exact
    CHECK(bins::alloc_size(bins::bin_number(17)) == 17);
    CHECK(bins::alloc_size(bins::bin_number(33)) == 33);
    CHECK(bins::alloc_size(bins::bin_number(1000)) == 1023);
    CHECK(bins::alloc_size(bins::bin_number(std::uint64_t(1) << 34)) ==
          (std::uint64_t(1) << 34) + (std::uint64_t(1) << 30) - 1);
}

TEMPLATE_LIST_TEST_CASE("pooled arrays: released blocks are reused and copies / results / "
                        "temporaries come from the same pool",
                        "[pool]", pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = test::ctx();
    ca::queue q(ctx);
    ca::pool_for_t<S> pool(ctx);
    const std::size_t n = 1000;
    {
        auto a = ca::full<float>(q, {n}, 1.5f, pool);
        static_assert(std::is_same_v<decltype(a), ca::cl_array<float, S>>);
        REQUIRE(a.data()->pool().get() == &pool.core());
        CHECK(a.data()->bytes() == n * sizeof(float));
        CHECK(a.data()->block_bytes() == bins::alloc_size(bins::bin_number(n * sizeof(float))));
        ca::pool_stats st = pool.stats();
        CHECK(st.live_allocations == 1);
        CHECK(st.live_bytes == static_cast<std::int64_t>(a.data()->block_bytes()));
        CHECK(st.device_allocations == 1);

        auto b = a.copy();
        ca::cl_array<float, S> c = a + b * 2.0f;
        auto d = ca::empty_like(c);
        d.fill(0.5f);
        ca::cl_array<float, S> e = d - c; // the first array operand is pooled
        for (const auto* x : {&b, &c, &d, &e})
            CHECK(x->data()->pool().get() == &pool.core());
        CHECK(pool.stats().live_allocations == 5);
        CHECK(xt::all(xt::equal(c.get(), 4.5f)));
        CHECK(xt::all(xt::equal(e.get(), -4.0f)));

        // Alias temporaries: the shifted self-assignment evaluates into a pooled temporary.
        auto x = ca::to_device<S>(q, std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7});
        auto px = ca::empty<float>(q, {8}, pool);
        px = x;
        const ca::pool_stats before = pool.stats();
        const auto global_before = ca::current_allocation_stats();
        px(ca::range(1, 8)) = px(ca::range(0, 7)) * 10.0f;
        const ca::pool_stats after = pool.stats();
        CHECK(after.device_allocations + after.reuses ==
              before.device_allocations + before.reuses + 1);
        CHECK(ca::current_allocation_stats().live_allocations == global_before.live_allocations);
        CHECK((px.get() == xt::xarray<float>{0, 0, 10, 20, 30, 40, 50, 60}));
        // Arrays from the default pool never lead results into a user's pool.
        CHECK(not_from_user_pool(*x.copy().data()));
        ca::cl_array<float, S> y = x + 1.0f;
        CHECK(not_from_user_pool(*y.data()));
    }
    ca::pool_stats st = pool.stats();
    CHECK(st.live_allocations == 0);
    CHECK(st.live_bytes == 0);
    CHECK(st.held_blocks >= 5);
    const std::uint64_t device_calls = st.device_allocations;
    {
        auto again = ca::zeros<float>(q, {n}, pool);
        CHECK(pool.stats().device_allocations == device_calls); // a held block, no device call
        CHECK(pool.stats().reuses == st.reuses + 1);
        CHECK(xt::all(xt::equal(again.get(), 0.0f)));
    }
    const std::int64_t held = pool.stats().held_blocks;
    CHECK(pool.free_held() == static_cast<std::size_t>(held));
    CHECK(pool.stats().held_blocks == 0);
    CHECK(pool.stats().held_bytes == 0);
}

TEMPLATE_LIST_TEST_CASE("pool reuse: the same in-order queue needs no wait while another queue "
                        "or an out-of-order queue waits for the previous uses",
                        "[pool]", pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = test::ctx();
    ca::queue q1(ctx), q2(ctx), ooo(ctx, ca::out_of_order);
    ca::kernel writer = programs().kernel("write_value");
    ca::pool_for_t<S> pool(ctx);
    const auto global_before = ca::current_allocation_stats();
    const std::size_t n = 4096, bytes = n * sizeof(std::uint32_t);

    user_event gate(ctx);
    ca::event pending;
    {
        ca::cl_array<std::uint32_t, S> a(q1, {n}, pool);
        pending = writer.launch(q1, {n}, {}, {gate.handle()}, ca::out(a), 7u);
    }
    REQUIRE_FALSE(pending.is_complete());
    CHECK(pool.stats().held_blocks == 1);
    CHECK(pool.stats().held_events == 1);
    CHECK(ca::current_allocation_stats().pool_held_events == global_before.pool_held_events + 1);

    auto reuse_on = [&](const ca::queue& q, ca::access acc) {
        auto al = pool.allocate(q, bytes);
        ca::wait_list wl;
        al->add_dependencies(q, acc, wl);
        return std::make_pair(al, wl);
    };
    {
        auto [al, wl] = reuse_on(q1, ca::access::write); // the queue orders it already
        CHECK(wl.empty());
        CHECK(pool.stats().reuses_behind_pending_work == 0);
        CHECK(pool.stats().device_allocations == 1);
    }
    {
        auto [al, wl] = reuse_on(q2, ca::access::write);
        CHECK(contains_event(wl, pending));
        CHECK(pool.stats().reuses_behind_pending_work == 1);
    }
    {
        auto [al, wl] = reuse_on(q2, ca::access::read); // readers follow the old users too
        CHECK(contains_event(wl, pending));
    }
    {
        auto [al, wl] = reuse_on(ooo, ca::access::write);
        CHECK(contains_event(wl, pending));
        CHECK(pool.stats().reuses_behind_pending_work == 3);
    }
    CHECK(pool.stats().device_allocations == 1); // one block served all of them
    CHECK_FALSE(pending.is_complete());

    gate.complete();
    pending.wait();
    {
        auto [al, wl] = reuse_on(q2, ca::access::write); // done: the event is dropped
        CHECK(wl.empty());
        CHECK(pool.stats().reuses_behind_pending_work == 3);
    }
    CHECK(pool.stats().held_events == 0);
    pool.free_held();
    const auto after = ca::current_allocation_stats();
    CHECK(after.pool_held_blocks == global_before.pool_held_blocks);
    CHECK(after.pool_held_events == global_before.pool_held_events);
    CHECK(after.held_events == global_before.held_events);
}

TEMPLATE_LIST_TEST_CASE("pool hammer: two in-order queues and an out-of-order queue never see "
                        "a block reused early",
                        "[pool]", pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = test::ctx();
    ca::kernel busy = programs().kernel("busy_canary");
    ca::kernel check = programs().kernel("check_canary");
    settle(ctx);
    const auto global_before = ca::current_allocation_stats();
    const std::size_t iterations = 1000;
    const std::size_t sizes[] = {1024, 1500, 3000}; // three bins
    const cl_uint spins = 200;
    std::mt19937 rng(7);
    {
        std::vector<ca::queue> queues{ca::queue(ctx), ca::queue(ctx),
                                      ca::queue(ctx, ca::out_of_order)};
        std::vector<ca::cl_array<std::uint32_t, S>> mismatches;
        for (const ca::queue& q : queues)
            mismatches.push_back(ca::zeros<std::uint32_t, S>(q, {iterations}));
        ca::pool_for_t<S> pool(ctx);
        // The first half is held back by a gate: every block is certainly still in use when it
        // is handed out again, so only the recorded events order its next owner. The second half
        // runs as fast as it can.
        user_event gate(ctx);
        ca::pool_stats gated{};
        for (std::size_t it = 0; it < iterations; ++it) {
            if (it == iterations / 2) {
                gated = pool.stats();
                gate.complete();
            }
            ca::wait_list held_back;
            if (it < iterations / 2) held_back.add(gate.handle());
            const std::size_t qi = it % queues.size();
            const ca::queue& q = queues[qi];
            const std::size_t n = sizes[rng() % 3];
            const auto canary = static_cast<cl_uint>(0xC0DE0000u + it);
            ca::cl_array<std::uint32_t, S> block(q, {n}, pool);
            busy.launch(q, {n}, {}, held_back, ca::out(block), canary, spins);
            check.launch(q, {n}, {}, {}, ca::in(block), canary, ca::inout(mismatches[qi]),
                         static_cast<cl_uint>(it));
        } // each block is released at once, with its kernels still queued or running
        const ca::pool_stats st = pool.stats();
        for (const ca::queue& q : queues)
            q.finish();

        std::size_t bad_iterations = 0, bad_elements = 0;
        for (std::size_t qi = 0; qi < queues.size(); ++qi) {
            auto h = mismatches[qi].get();
            for (std::size_t it = qi; it < iterations; it += queues.size())
                if (h(it) != 0) {
                    ++bad_iterations;
                    bad_elements += h(it);
                }
        }
        INFO("reuses " << st.reuses << ", behind pending work " << st.reuses_behind_pending_work
                       << " (first half, gated: " << gated.reuses_behind_pending_work
                       << "), device allocations " << st.device_allocations);
        CHECK(bad_iterations == 0);
        CHECK(bad_elements == 0);
        // The interesting path was taken: blocks went to other queues while still in use.
        CHECK(st.reuses + st.device_allocations == iterations);
        CHECK(st.reuses >= iterations / 2);
        CHECK(gated.reuses_behind_pending_work > 0);
        CHECK(st.reuses_behind_pending_work > gated.reuses_behind_pending_work);
        CHECK(st.live_allocations == 0);

        pool.free_held();
        const ca::pool_stats done = pool.stats();
        CHECK(done.held_blocks == 0);
        CHECK(done.held_bytes == 0);
        CHECK(done.held_events == 0);
    }
    settle(ctx);
    const auto after = ca::current_allocation_stats();
    CHECK(after.live_allocations == global_before.live_allocations);
    CHECK(after.live_bytes == global_before.live_bytes);
    CHECK(after.held_events == global_before.held_events);
    CHECK(after.pool_held_blocks == global_before.pool_held_blocks);
    CHECK(after.pool_held_events == global_before.pool_held_events);
    CHECK(after.parked_frees == global_before.parked_frees);
}

TEMPLATE_LIST_TEST_CASE("pool shared by two host threads with a queue each", "[pool]",
                        pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = test::ctx();
    ca::kernel busy = programs().kernel("busy_canary");
    ca::kernel check = programs().kernel("check_canary");
    ca::pool_for_t<S> pool(ctx);
    const std::size_t iterations = 300;
    std::vector<ca::queue> queues{ca::queue(ctx), ca::queue(ctx)};
    std::vector<ca::cl_array<std::uint32_t, S>> mismatches;
    for (const ca::queue& q : queues)
        mismatches.push_back(ca::zeros<std::uint32_t, S>(q, {iterations}));
    std::vector<std::string> errors(queues.size());
    auto worker = [&](std::size_t t) {
        try {
            std::mt19937 rng(static_cast<unsigned>(t) + 11);
            for (std::size_t it = 0; it < iterations; ++it) {
                // Sizes across the pool's bins, in whole groups of 64: with the driver's
                // choice of group size pocl compiled a kernel per distinct size (a sixth of a
                // cold suite's kernel builds).
                const std::size_t n = 64 * (8 + rng() % 32);
                const auto canary = static_cast<cl_uint>((t << 24) + it);
                ca::cl_array<std::uint32_t, S> block(queues[t], {n}, pool);
                busy.launch(queues[t], {n}, {64}, {}, ca::out(block), canary, cl_uint(50));
                check.launch(queues[t], {n}, {64}, {}, ca::in(block), canary,
                             ca::inout(mismatches[t]), static_cast<cl_uint>(it));
            }
        } catch (const std::exception& e) {
            errors[t] = e.what();
        }
    };
    std::thread other(worker, 1);
    worker(0);
    other.join();
    for (const std::string& e : errors)
        CHECK(e.empty());
    for (std::size_t t = 0; t < queues.size(); ++t) {
        auto h = mismatches[t].get();
        CHECK(xt::all(xt::equal(h, 0u)));
    }
    const ca::pool_stats st = pool.stats();
    CHECK(st.live_allocations == 0);
    CHECK(st.reuses + st.device_allocations == 2 * iterations);
    CHECK(st.held_blocks == static_cast<std::int64_t>(st.device_allocations));
}

TEMPLATE_LIST_TEST_CASE("pool final frees never block and never free early", "[pool]",
                        pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = test::ctx();
    ca::queue q1(ctx), q2(ctx), other(ctx);
    ca::kernel writer = programs().kernel("write_value");
    const std::size_t n = 16384;
    const std::uint32_t canary = 0xCA11AB1Eu;
    settle(ctx);
    const auto global_before = ca::current_allocation_stats();
    for (bool destroy_pool : {true, false}) {
        INFO((destroy_pool ? "pool destroyed" : "free_held()"));
        user_event gate1(ctx), gate2(ctx);
        ca::event k1, k2;
        std::optional<ca::pool_for_t<S>> pool(std::in_place, ctx);
        {
            ca::cl_array<std::uint32_t, S> a(q1, {n}, *pool);
            k1 = writer.launch(q1, {n}, {}, {gate1.handle()}, ca::out(a), 1u);
            k2 = writer.launch(q2, {n}, {}, {gate2.handle()}, ca::out(a.with_queue(q2)), 2u);
        }
        CHECK(pool->stats().held_blocks == 1);
        if (destroy_pool)
            pool.reset();
        else
            CHECK(pool->free_held() == 1); // a deadlock here would mean it blocked
        CHECK_FALSE(k1.is_complete());
        CHECK(ca::current_allocation_stats().pool_held_blocks == global_before.pool_held_blocks);
        // Were the block freed already, this raw allocation would likely get its memory.
        auto b = own_memory_array<std::uint32_t, S>(other, n);
        b.fill(canary);
        gate1.complete();
        k1.wait();
        CHECK_FALSE(k2.is_complete());
        gate2.complete();
        k2.wait();
        q1.finish();
        q2.finish();
        CHECK(xt::all(xt::equal(b.get(), canary)));
    }
    settle(ctx);
    CHECK(ca::current_allocation_stats().parked_frees == global_before.parked_frees);
    CHECK(ca::current_allocation_stats().live_allocations == global_before.live_allocations);
}

TEMPLATE_LIST_TEST_CASE("stop_holding: blocks given back are released and the pool still serves",
                        "[pool]", pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::queue q(test::ctx());
    ca::pool_for_t<S> pool(test::ctx());
    std::optional<ca::cl_array<float, S>> a = ca::zeros<float>(q, {100}, pool);
    { auto b = ca::zeros<float>(q, {100}, pool); }
    CHECK(pool.stats().held_blocks == 1);
    pool.stop_holding();
    CHECK(pool.stats().held_blocks == 0);
    a.reset();
    CHECK(pool.stats().held_blocks == 0);
    CHECK(pool.stats().live_allocations == 0);
    auto c = ca::ones<float>(q, {100}, pool);
    CHECK(pool.stats().device_allocations == 3);
    CHECK(xt::all(xt::equal(c.get(), 1.0f)));
}

TEMPLATE_LIST_TEST_CASE("pool out of memory: held blocks are released and the allocation "
                        "retried before a final failure that names the size",
                        "[pool]", pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = test::ctx();
    ca::queue q(ctx);
    auto faults = std::make_shared<ca::fault_injecting_allocator>();
    ca::pool_for_t<S> pool(ctx, ca::pool_options{faults});
    // Out of memory also releases what the context's default pools hold (tested below): empty
    // them, so that the calls counted here are this pool's own.
    settle(ctx);

    SECTION("the k-th call fails: an idle held block is freed, the retry succeeds") {
        { auto a = ca::zeros<float>(q, {1 << 18}, pool); } // call 1
        q.finish();
        REQUIRE(pool.stats().held_blocks == 1);
        faults->fail_call(2);
        auto b = ca::full<float>(q, {1 << 19}, 2.0f, pool); // call 2 fails, call 3 succeeds
        CHECK(faults->calls() == 3);
        CHECK(faults->failures() == 1);
        CHECK(pool.stats().oom_retries == 1);
        CHECK(pool.stats().held_blocks == 0);
        CHECK(pool.stats().device_allocations == 2);
        CHECK(xt::all(xt::equal(b.get(), 2.0f)));
    }
    SECTION("a held block still in use is waited for, freed, and the retry succeeds") {
        ca::kernel busy = programs().kernel("busy_canary");
        {
            ca::cl_array<std::uint32_t, S> a(q, {1 << 16}, pool);
            busy.launch(q, {1 << 16}, {}, {}, ca::out(a), 5u, cl_uint(2000));
        }
        faults->fail_call(2);
        auto b = ca::full<float>(q, {1 << 19}, 3.0f, pool);
        CHECK(faults->calls() == 3);
        CHECK(pool.stats().oom_retries == 1);
        CHECK(pool.stats().held_blocks == 0);
        CHECK(xt::all(xt::equal(b.get(), 3.0f)));
    }
    SECTION("every call fails, nothing held: out_of_memory naming the size, no retry") {
        faults->fail_from(1);
        try {
            ca::cl_array<std::uint8_t, S> a(q, {12345}, pool);
            FAIL("no exception");
        } catch (const ca::out_of_memory& e) {
            const std::string what = e.what();
            INFO(what);
            CHECK(what.find("12345 bytes") != std::string::npos);
            CHECK(what.find(std::to_string(bins::alloc_size(bins::bin_number(12345))) + " bytes") !=
                  std::string::npos);
            CHECK(what.find(S::name) != std::string::npos);
        }
        CHECK(faults->calls() == 1);
        CHECK(pool.stats().oom_retries == 0);
        CHECK(pool.stats().live_allocations == 0);
    }
    SECTION("every call fails after one success: held blocks released, one retry, then the "
            "error") {
        { auto a = ca::zeros<float>(q, {1000}, pool); }
        q.finish();
        faults->fail_from(2);
        CHECK_THROWS_AS(ca::zeros<float>(q, {50000}, pool), ca::out_of_memory);
        CHECK(faults->calls() == 3);
        CHECK(pool.stats().oom_retries == 1);
        CHECK(pool.stats().held_blocks == 0);
        CHECK(pool.stats().live_allocations == 0);
    }
    SECTION("requests beyond CL_DEVICE_MAX_MEM_ALLOC_SIZE and of 0 bytes are rejected") {
        const std::size_t too_big = ctx.device().max_alloc_size() + 1;
        CHECK_THROWS_WITH(pool.allocate(q, too_big), Contains(std::to_string(too_big) + " bytes"));
        CHECK_THROWS_AS(pool.allocate(q, too_big), ca::out_of_memory);
        CHECK_THROWS_AS(pool.allocate(q, 0), ca::usage_error);
        CHECK(faults->calls() == 0);
    }
}

TEST_CASE("pools: wrong context / missing SVM / make_allocation_like", "[pool]") {
    ca::context& ctx = test::ctx();
    ca::buffer_pool pool(ctx);
    ca::context other(ctx.device());
    ca::queue q_other(other);
    CHECK_THROWS_AS(pool.allocate(q_other, 64), ca::usage_error);

    ca::context_options no_svm = ctx.options();
    no_svm.disable_svm = true;
    ca::context without_svm(ctx.device(), no_svm);
    CHECK_THROWS_AS(ca::svm_pool<ca::svm_coarse>(without_svm), ca::unsupported);
    CHECK_THROWS_AS(ca::svm_pool<ca::svm_fine>(without_svm), ca::unsupported);
    CHECK_NOTHROW(ca::buffer_pool(without_svm));

    const ca::queue& q = test::q();
    auto pooled = pool.allocate(q, 256);
    auto own = ca::detail::make_allocation_like(q, ca::storage_kind::buffer, 100, nullptr);
    CHECK(not_from_user_pool(*own));
    auto like_pooled =
        ca::detail::make_allocation_like(q, ca::storage_kind::buffer, 100, pooled.get());
    CHECK(like_pooled->pool().get() == &pool.core());
    CHECK(like_pooled->bytes() == 100);
    auto like_own = ca::detail::make_allocation_like(q, ca::storage_kind::buffer, 100, own.get());
    CHECK(not_from_user_pool(*like_own));
    if (test::storage_available<ca::svm_coarse>()) { // another kind never comes from the pool
        auto svm =
            ca::detail::make_allocation_like(q, ca::storage_kind::svm_coarse, 100, pooled.get());
        CHECK(not_from_user_pool(*svm));
        CHECK(svm->svm_pointer() != nullptr);
    }
    // Another context's queue: memory of its own, not the pool's.
    auto foreign =
        ca::detail::make_allocation_like(q_other, ca::storage_kind::buffer, 100, pooled.get());
    CHECK(not_from_user_pool(*foreign));
}

namespace {

// A context on test::ctx()'s device whose default pools start empty, with `adjust` applied to
// its options (so that counters and limits are this test's alone).
template <class F> ca::context fresh_context(F adjust) {
    ca::context_options o = test::ctx().options();
    adjust(o);
    return ca::context(test::ctx().device(), o);
}
ca::context fresh_context() {
    return fresh_context([](ca::context_options&) {});
}

// Sets an environment variable for one scope and restores its previous value.
class scoped_env {
public:
    scoped_env(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~scoped_env() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }
    scoped_env(const scoped_env&) = delete;
    scoped_env& operator=(const scoped_env&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

} // namespace

TEMPLATE_LIST_TEST_CASE("every array comes from the context's default pool: constructors, "
                        "factories, results, copies, reductions",
                        "[pool]", test::all_policies) {
    using S = typename TestType::storage;
    if (test::skip_unless<S>()) return;
    ca::context ctx = fresh_context();
    ca::queue q(ctx);
    const xt::xarray<float> h = test::random_array<float>({1000}, 3);
    auto a = ca::to_device<S>(q, h);
    REQUIRE(a.data()->pool() != nullptr);
    ca::detail::pool_core& def = *ca::detail::pool_of(*a.data());
    CHECK(def.is_default_pool());
    CHECK(def.kind() == S::kind);
    CHECK(def.max_held_bytes() == ca::default_pool_limit(ctx));
    CHECK(ca::default_pool_limit(ctx) == ctx.device().global_mem_size() / 2);

    ca::cl_array<float, S> plain(q, {7, 3});
    auto z = ca::zeros<float, S>(q, {5});
    auto r = ca::arange<float, S>(q, 0.0f, 10.0f);
    auto l = ca::linspace<float, S>(q, 0.0f, 1.0f, 9);
    auto like = ca::ones_like(a);
    auto s = ca::sum(a);
    ca::cl_array<float, S> twice = a * 2.0f;
    auto c = twice.copy(ca::layout::f);
    for (const auto* x : {&plain, &z, &r, &l, &like, &s, &twice, &c})
        CHECK(x->data()->pool().get() == &def);
    // Large arrays too (there is no size limit), and their results.
    auto big = ca::zeros<float, S>(q, {(std::size_t(1) << 20) / sizeof(float) + 1});
    ca::cl_array<float, S> big_result = big + s;
    CHECK(big.data()->pool().get() == &def);
    CHECK(big_result.data()->pool().get() == &def);
    const ca::pool_stats st = ca::pool_statistics(ctx, S::kind);
    CHECK(st.live_allocations == 11);
    CHECK(st.device_allocations + st.reuses >= 11);
    for (ca::storage_kind other :
         {ca::storage_kind::svm_coarse, ca::storage_kind::svm_fine, ca::storage_kind::buffer})
        if (other != S::kind) CHECK(ca::pool_statistics(ctx, other).device_allocations == 0);

    const double want = xt::sum(xt::xarray<double>(h))();
    CHECK(s.item() == Approx(want).epsilon(1e-5));
    CHECK((twice.get() == xt::xarray<float>(h * 2.0f)));
    CHECK((c.get() == xt::xarray<float>(h * 2.0f)));
    CHECK(xt::all(xt::equal(big_result.get(), float(s.item()))));
    CHECK((r.get() == xt::xarray<float>(xt::arange<float>(0.0f, 10.0f))));
    // A reused block is written again only after its previous readers: results stay right when
    // a freed result's block serves the next one while the old value is still being read.
    std::vector<ca::cl_array<float, S>> keep;
    for (int i = 0; i < 8; ++i) {
        ca::cl_array<float, S> tmp = a * float(i);
        keep.push_back(ca::cl_array<float, S>(tmp + 1.0f));
    }
    for (int i = 0; i < 8; ++i)
        CHECK((keep[i].get() == xt::xarray<float>(h * float(i) + 1.0f)));
}

TEMPLATE_LIST_TEST_CASE("default pool: creating arrays in a loop reuses a bounded set of blocks",
                        "[pool]", test::all_policies) {
    using S = typename TestType::storage;
    if (test::skip_unless<S>()) return;
    ca::context ctx = fresh_context();
    ca::queue q(ctx);
    const std::size_t sizes[] = {1000, 1 << 16, 300000}; // three bins, up to above 1 MiB
    std::vector<xt::xarray<float>> hosts;
    for (std::size_t n : sizes)
        hosts.push_back(test::random_array<float>({n}, static_cast<int>(n)));
    std::uint64_t after_first_round = 0;
    for (int it = 0; it < 60; ++it) {
        const std::size_t k = static_cast<std::size_t>(it) % 3;
        auto a = ca::to_device<S>(q, hosts[k]);                 // user-made
        auto b = ca::zeros<float, S>(q, {sizes[k]});            // factory
        ca::cl_array<float, S> c = a * 3.0f + b;                // result
        auto d = c.copy();                                      // copy
        d(ca::range(1, ca::none)) = d(ca::range(0, -1)) + 1.0f; // aliasing temporary
        auto total = ca::sum(a);                                // reduction result, partials
        if (it % 10 == 0 || it == 59) {
            xt::xarray<float> want = hosts[k] * 3.0f;
            xt::xarray<float> shifted = want;
            for (std::size_t i = 1; i < sizes[k]; ++i)
                shifted(i) = want(i - 1) + 1.0f;
            CHECK((c.get() == want));
            CHECK((d.get() == shifted));
            CHECK(total.item() ==
                  Approx(double(xt::sum(xt::xarray<double>(hosts[k]))())).epsilon(1e-4));
        }
        if (it == 2) after_first_round = ca::pool_statistics(ctx, S::kind).device_allocations;
    }
    const ca::pool_stats st = ca::pool_statistics(ctx, S::kind);
    INFO("device allocations " << st.device_allocations << " after the first round "
                               << after_first_round << ", reuses " << st.reuses);
    CHECK(st.live_allocations == 0);
    // Each size's first round made the blocks its iterations need; later rounds reuse them
    // (queue order makes the previous iteration's blocks free for the same in-order queue).
    CHECK(st.device_allocations == after_first_round);
    CHECK(st.reuses >= 57 * 5);
    CHECK(st.held_blocks == static_cast<std::int64_t>(st.device_allocations));
}

TEMPLATE_LIST_TEST_CASE("default pool: a block reused on another queue or an out-of-order queue "
                        "waits for its previous uses",
                        "[pool]", pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context ctx = fresh_context();
    ca::kernel writer = ca::program(ctx, kernels_source).kernel("write_value");
    const std::size_t n = 16384;
    const std::uint32_t canary = 0x5AFE5AFEu;
    for (bool out_of_order : {false, true}) {
        INFO((out_of_order ? "out-of-order queue" : "another in-order queue"));
        ca::free_cached(ctx); // the bin then holds exactly the block released below
        ca::queue q1(ctx), q2(ctx, out_of_order ? ca::out_of_order : ca::in_order);
        user_event gate(ctx);
        ca::event pending;
        const void* block = nullptr;
        {
            auto a = ca::empty<std::uint32_t, S>(q1, {n});
            block =
                S::is_svm ? a.data()->svm_pointer() : static_cast<const void*>(a.data()->buffer());
            pending = writer.launch(q1, {n}, {}, {gate.handle()}, ca::out(a), 1u);
        } // a's block goes back to the default pool with its gated writer
        const ca::pool_stats before = ca::pool_statistics(ctx, S::kind);
        auto b = ca::empty<std::uint32_t, S>(q2, {n});
        const void* reused =
            S::is_svm ? b.data()->svm_pointer() : static_cast<const void*>(b.data()->buffer());
        REQUIRE(reused == block); // the only held block of its bin
        CHECK(ca::pool_statistics(ctx, S::kind).reuses_behind_pending_work ==
              before.reuses_behind_pending_work + 1);
        b.fill(canary); // must run after the gated writer, never before it
        CHECK_FALSE(pending.is_complete());
        gate.complete();
        CHECK(xt::all(xt::equal(b.get(), canary)));
        q1.finish();
        CHECK(xt::all(xt::equal(b.get(), canary)));
    }
}

TEST_CASE("default pool: the same in-order queue reuses a block without waiting", "[pool]") {
    ca::context ctx = fresh_context();
    ca::queue q(ctx);
    ca::program prg(ctx, kernels_source);
    ca::kernel writer = prg.kernel("write_value");
    user_event gate(ctx);
    const std::size_t n = 4096;
    ca::event pending;
    {
        auto a = ca::empty<std::uint32_t, ca::buffer>(q, {n});
        pending = writer.launch(q, {n}, {}, {gate.handle()}, ca::out(a), 9u);
    }
    auto b = ca::empty<std::uint32_t, ca::buffer>(q, {n});
    ca::wait_list wl;
    b.data()->add_dependencies(q, ca::access::write, wl);
    CHECK(wl.empty()); // the queue orders it after the writer already
    const ca::pool_stats st = ca::pool_statistics(ctx, ca::storage_kind::buffer);
    CHECK(st.reuses == 1);
    CHECK(st.reuses_behind_pending_work == 0);
    b.fill(4u);
    gate.complete();
    CHECK(xt::all(xt::equal(b.get(), 4u)));
}

TEMPLATE_LIST_TEST_CASE("default pool limit: held bytes stay within it, the oldest blocks go "
                        "first, a block above it is released at once",
                        "[pool]", pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    const auto block_of = [](std::size_t n) {
        return bins::alloc_size(bins::bin_number(n * sizeof(float)));
    };
    const std::size_t n1 = 10000, n2 = 20000, n3 = 40000;
    // Room for the two newest of three blocks.
    const std::uint64_t limit = block_of(n2) + block_of(n3);
    ca::context ctx = fresh_context([&](ca::context_options& o) { o.default_pool_limit = limit; });
    ca::queue q(ctx);
    CHECK(ca::default_pool_limit(ctx) == limit);
    auto held = [&] { return ca::pool_statistics(ctx, S::kind); };
    {
        std::optional<ca::cl_array<float, S>> a1 = ca::zeros<float, S>(q, {n1});
        std::optional<ca::cl_array<float, S>> a2 = ca::zeros<float, S>(q, {n2});
        std::optional<ca::cl_array<float, S>> a3 = ca::zeros<float, S>(q, {n3});
        a1.reset(); // given back first: the oldest held block
        a2.reset();
        CHECK(held().held_blocks == 2);
        CHECK(held().limit_releases == 0);
        a3.reset(); // holding all three would pass the limit: n1's block goes
    }
    ca::pool_stats st = held();
    CHECK(static_cast<std::uint64_t>(st.held_bytes) <= limit);
    CHECK(st.held_blocks == 2);
    CHECK(st.limit_releases == 1);
    // Which blocks stayed: n2 and n3 are reused, n1 needs a new device allocation.
    const std::uint64_t made = st.device_allocations;
    {
        auto b3 = ca::empty<float, S>(q, {n3});
        auto b2 = ca::empty<float, S>(q, {n2});
        CHECK(held().device_allocations == made);
        auto b1 = ca::empty<float, S>(q, {n1});
        CHECK(held().device_allocations == made + 1);
    }
    CHECK(static_cast<std::uint64_t>(held().held_bytes) <= limit);
    CHECK(held().limit_releases >= 2);
    // A block larger than the whole limit is never held.
    const std::int64_t blocks_before = held().held_blocks;
    const std::uint64_t releases_before = held().limit_releases;
    { auto huge = ca::zeros<float, S>(q, {static_cast<std::size_t>(limit)}); }
    CHECK(held().held_blocks == blocks_before);
    CHECK(held().limit_releases == releases_before + 1);
    CHECK(static_cast<std::uint64_t>(held().held_bytes) <= limit);

    // Limit 0: nothing is held, everything still works.
    ca::context none = fresh_context([](ca::context_options& o) { o.default_pool_limit = 0; });
    ca::queue qn(none);
    for (int i = 0; i < 3; ++i) {
        ca::cl_array<float, S> x = ca::ones<float, S>(qn, {1000}) * 2.0f;
        CHECK(xt::all(xt::equal(x.get(), 2.0f)));
    }
    CHECK(ca::pool_statistics(none, S::kind).held_blocks == 0);
    CHECK(ca::pool_statistics(none, S::kind).reuses == 0);
}

TEMPLATE_LIST_TEST_CASE("free_cached releases every held block without blocking", "[pool]",
                        pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    const auto global_before = ca::current_allocation_stats();
    {
        ca::context ctx = fresh_context();
        ca::queue q(ctx);
        ca::kernel writer = ca::program(ctx, kernels_source).kernel("write_value");
        user_event gate(ctx);
        ca::event pending;
        {
            auto a = ca::zeros<std::uint32_t, S>(q, {1000});
            auto b = ca::zeros<std::uint32_t, S>(q, {100000});
            pending = writer.launch(q, {100000}, {}, {gate.handle()}, ca::out(b), 3u);
        }
        const ca::pool_stats st = ca::pool_statistics(ctx, S::kind);
        CHECK(st.held_blocks == 2);
        CHECK(ca::current_allocation_stats().pool_held_blocks ==
              global_before.pool_held_blocks + 2);
        CHECK(ca::free_cached(ctx) == 2); // a deadlock here would mean it waited for the gate
        CHECK_FALSE(pending.is_complete());
        const ca::pool_stats after = ca::pool_statistics(ctx, S::kind);
        CHECK(after.held_blocks == 0);
        CHECK(after.held_bytes == 0);
        CHECK(after.held_events == 0);
        CHECK(ca::free_cached(ctx) == 0);
        // The pool still serves, with new blocks.
        auto c = ca::full<std::uint32_t, S>(q, {1000}, 5u);
        CHECK(ca::pool_statistics(ctx, S::kind).device_allocations == st.device_allocations + 1);
        gate.complete();
        CHECK(xt::all(xt::equal(c.get(), 5u)));
        q.finish();
    } // teardown: the default pools' blocks and parked frees are released with the context
    const auto after = ca::current_allocation_stats();
    CHECK(after.live_allocations == global_before.live_allocations);
    CHECK(after.live_bytes == global_before.live_bytes);
    CHECK(after.held_events == global_before.held_events);
    CHECK(after.pool_held_blocks == global_before.pool_held_blocks);
    CHECK(after.pool_held_events == global_before.pool_held_events);
    CHECK(after.parked_frees == global_before.parked_frees);
}

TEST_CASE("context teardown releases the default pools' blocks behind pending work", "[pool]") {
    const auto global_before = ca::current_allocation_stats();
    std::optional<user_event> gate;
    ca::event pending;
    {
        ca::context ctx = fresh_context();
        ca::queue q(ctx);
        gate.emplace(ctx);
        ca::kernel writer = ca::program(ctx, kernels_source).kernel("write_value");
        auto a = ca::empty<std::uint32_t, ca::buffer>(q, {4096});
        pending = writer.launch(q, {4096}, {}, {gate->handle()}, ca::out(a), 1u);
        CHECK(ca::current_allocation_stats().pool_held_blocks == global_before.pool_held_blocks);
    } // a is held by the default pool, then released by the teardown behind the gated writer
    CHECK(ca::current_allocation_stats().pool_held_blocks == global_before.pool_held_blocks);
    gate->complete();
    pending.wait();
    gate.reset();
    const auto after = ca::current_allocation_stats();
    CHECK(after.live_allocations == global_before.live_allocations);
    CHECK(after.held_events == global_before.held_events);
    CHECK(after.pool_held_events == global_before.pool_held_events);
}

TEMPLATE_LIST_TEST_CASE("default pool off (option, CLARRAY_NO_POOL, CLARRAY_NO_ALLOCATION_CACHE): "
                        "arrays own their memory",
                        "[pool]", test::all_policies) {
    using S = typename TestType::storage;
    if (test::skip_unless<S>()) return;
    const xt::xarray<float> h = test::random_array<float>({1000}, 5);
    const double want = xt::sum(xt::xarray<double>(h))();
    for (const char* how : {"option", "CLARRAY_NO_POOL", "CLARRAY_NO_ALLOCATION_CACHE"}) {
        INFO(how);
        ca::context_options o = test::ctx().options();
        if (std::string(how) == "option") {
            o.use_default_pool = false;
        } else {
            scoped_env off(how, "1");
            o.use_default_pool = ca::context_options::from_env().use_default_pool;
            CHECK_FALSE(o.use_default_pool);
        }
        ca::context plain(test::ctx().device(), o);
        ca::queue pq(plain);
        auto pa = ca::to_device<S>(pq, h);
        auto ps = ca::sum(pa);
        ca::cl_array<float, S> pr = pa + 1.0f;
        auto pz = ca::zeros<float, S>(pq, {10});
        for (const auto* x : {&pa, &ps, &pr, &pz})
            CHECK(x->data()->pool() == nullptr);
        CHECK(ps.item() == Approx(want).epsilon(1e-5));
        CHECK((pr.get() == xt::xarray<float>(h + 1.0f)));
        CHECK(ca::pool_statistics(plain, S::kind).device_allocations == 0);
        CHECK(ca::free_cached(plain) == 0);
        // A user pool still works, and results made like its arrays come from it.
        ca::pool_for_t<S> pool(plain);
        auto u = ca::ones<float>(pq, {10}, pool);
        ca::cl_array<float, S> ur = u * 2.0f;
        CHECK(ur.data()->pool().get() == &pool.core());
    }
    {
        scoped_env unset_a("CLARRAY_NO_POOL", nullptr), unset_b("CLARRAY_NO_ALLOCATION_CACHE", "0");
        CHECK(ca::context_options::from_env().use_default_pool);
    }
}

TEST_CASE("CLARRAY_POOL_LIMIT: byte counts with suffixes, 'unlimited', and errors naming the "
          "variable",
          "[pool]") {
    const char* name = "CLARRAY_POOL_LIMIT";
    const std::pair<const char*, std::uint64_t> good[] = {
        {"0", 0},
        {"123456", 123456},
        {"512M", std::uint64_t(512) << 20},
        {"4G", std::uint64_t(4) << 30},
        {"4g", std::uint64_t(4) << 30},
        {"64KiB", std::uint64_t(64) << 10},
        {"2TB", std::uint64_t(2) << 40},
        {"100B", 100},
        {"unlimited", ca::context_options::unlimited_pool_size},
    };
    for (const auto& g : good) {
        INFO(g.first);
        scoped_env set(name, g.first);
        const ca::context_options o = ca::context_options::from_env();
        REQUIRE(o.default_pool_limit.has_value());
        CHECK(*o.default_pool_limit == g.second);
    }
    for (const char* bad : {"-1", "12x", "1.5G", "G", "4 G", "99999999999999999999", "20000000T"}) {
        INFO(bad);
        scoped_env set(name, bad);
        CHECK_THROWS_AS(ca::context_options::from_env(), ca::usage_error);
        CHECK_THROWS_WITH(ca::context_options::from_env(), Contains(name));
    }
    {
        scoped_env unset(name, nullptr);
        CHECK_FALSE(ca::context_options::from_env().default_pool_limit.has_value());
    }
}

TEMPLATE_LIST_TEST_CASE("default pool out of memory: held blocks of the default pools are "
                        "released and the allocation retried",
                        "[pool]", pool_policies) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    auto faults = std::make_shared<ca::fault_injecting_allocator>();
    ca::context ctx =
        fresh_context([&](ca::context_options& o) { o.default_pool_allocator = faults; });
    ca::queue q(ctx);
    SECTION("the default pool's own held block") {
        { auto a = ca::zeros<float, S>(q, {1 << 16}); } // call 1
        q.finish();
        faults->fail_call(2);
        auto b = ca::full<float, S>(q, {1 << 17}, 2.0f); // call 2 fails, call 3 succeeds
        CHECK(faults->calls() == 3);
        const ca::pool_stats st = ca::pool_statistics(ctx, S::kind);
        CHECK(st.oom_retries == 1);
        CHECK(st.held_blocks == 0);
        CHECK(xt::all(xt::equal(b.get(), 2.0f)));
    }
    SECTION("a block in use is waited for, then the final error names the size") {
        ca::kernel busy = ca::program(ctx, kernels_source).kernel("busy_canary");
        {
            ca::cl_array<std::uint32_t, S> a(q, {1 << 14});
            busy.launch(q, {1 << 14}, {}, {}, ca::out(a), 5u, cl_uint(2000));
        }
        faults->fail_from(2);
        try {
            ca::cl_array<std::uint8_t, S> b(q, {777777});
            FAIL("no exception");
        } catch (const ca::out_of_memory& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find("777777 bytes") != std::string::npos);
        }
        CHECK(faults->calls() == 3); // one retry after releasing the (waited-for) held block
        const ca::pool_stats st = ca::pool_statistics(ctx, S::kind);
        CHECK(st.oom_retries == 1);
        CHECK(st.held_blocks == 0);
        CHECK(st.live_allocations == 0);
    }
    SECTION("a user pool's out of memory releases the default pools' held blocks") {
        { auto a = ca::zeros<float, S>(q, {1 << 16}); } // default pool, call 1
        q.finish();
        REQUIRE(ca::pool_statistics(ctx, S::kind).held_blocks == 1);
        auto user_faults = std::make_shared<ca::fault_injecting_allocator>();
        user_faults->fail_call(1);
        ca::pool_for_t<S> pool(ctx, ca::pool_options{user_faults});
        auto b = ca::full<float>(q, {1000}, 4.0f, pool);
        CHECK(user_faults->calls() == 2);
        CHECK(pool.stats().oom_retries == 1);
        CHECK(ca::pool_statistics(ctx, S::kind).held_blocks == 0);
        CHECK(xt::all(xt::equal(b.get(), 4.0f)));
    }
}
