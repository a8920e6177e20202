// Release ordering: memory is freed only after every queue that used it is done with it, and the
// release never blocks the host. Kernels are held back by user events, so "still running" is a
// fact, not a timing guess: a destructor that waited would deadlock (and the test time out).
// These tests exercise the raw release path (clEnqueueSVMFree / parking / clReleaseMemObject), so
// they run on a context whose arrays do not come from the default pool; the pooled counterparts
// (a released block reused on another queue) are in test_pool.cpp.
#include "support.hpp"

#include <vector>

namespace {

const char* writer_source = R"CLC(
kernel void write_value(global float* a, float value) { a[get_global_id(0)] = value; }
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

// 64 KiB: below glibc's mmap threshold, so a freed block is likely handed out again at once.
constexpr std::size_t canary_n = 16384;
constexpr float canary = -12345.0f;

template <class S> ca::cl_array<float, S> make_canary(const ca::queue& q) {
    auto b = ca::empty<float, S>(q, {canary_n});
    b.set(std::vector<float>(canary_n, canary));
    return b;
}

template <class S> bool canary_intact(const ca::cl_array<float, S>& b) {
    auto h = b.get();
    for (float v : h)
        if (v != canary) return false;
    return true;
}

// The device of test::ctx(), with arrays of memory of their own (no default pool).
ca::context& unpooled_ctx() {
    static ca::context c = [] {
        ca::context_options o = test::ctx().options();
        o.use_default_pool = false;
        return ca::context(test::ctx().device(), o);
    }();
    return c;
}

} // namespace

TEMPLATE_TEST_CASE("release waits for a pending kernel on the same queue", "[release]",
                   CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = unpooled_ctx();
    ca::queue q1(ctx), q_other(ctx);
    ca::kernel writer = ca::program(ctx, writer_source).kernel("write_value");
    auto before = ca::current_allocation_stats();

    user_event gate(ctx);
    ca::event pending;
    {
        auto a = ca::empty<float, S>(q1, {canary_n});
        pending = writer.launch(q1, {canary_n}, {}, {gate.handle()}, ca::out(a), 1.0f);
    } // a is destroyed here, with its kernel still waiting for the gate
    CHECK_FALSE(pending.is_complete());
    CHECK(ca::current_allocation_stats().live_allocations == before.live_allocations);

    // If the memory had been freed, this allocation would likely reuse it and the kernel would
    // overwrite the canary.
    auto b = make_canary<S>(q_other);
    gate.complete();
    pending.wait();
    q1.finish();
    CHECK(canary_intact(b));
    // Where frees are parked (NVIDIA), the next allocation settles the finished ones.
    (void)ca::empty<float, S>(q1, {4});
    CHECK(ca::current_allocation_stats().parked_frees == before.parked_frees);
}

TEMPLATE_TEST_CASE("release waits for pending kernels on two queues", "[release]",
                   CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = unpooled_ctx();
    ca::queue q1(ctx), q2(ctx), q3(ctx);
    ca::kernel writer = ca::program(ctx, writer_source).kernel("write_value");

    user_event gate1(ctx), gate2(ctx);
    ca::event k1, k2;
    {
        auto a = ca::empty<float, S>(q1, {canary_n}); // home queue q1
        k1 = writer.launch(q1, {canary_n}, {}, {gate1.handle()}, ca::out(a), 1.0f);
        auto a2 = a.with_queue(q2);
        // a2's launch must wait for k1 (a writer on another queue) and for gate2.
        k2 = writer.launch(q2, {canary_n}, {}, {gate2.handle()}, ca::out(a2), 2.0f);
    }
    gate1.complete();
    k1.wait(); // q1 is idle now; the free must still wait for q2's kernel
    CHECK_FALSE(k2.is_complete());
    auto b = make_canary<S>(q3);
    gate2.complete();
    k2.wait();
    q1.finish();
    q2.finish();
    CHECK(canary_intact(b));
}

TEMPLATE_TEST_CASE("release after use on an out-of-order queue", "[release]", CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = unpooled_ctx();
    ca::queue home(ctx), ooo(ctx, ca::out_of_order), other(ctx);
    ca::kernel writer = ca::program(ctx, writer_source).kernel("write_value");
    user_event gate(ctx);
    ca::event k;
    {
        auto a = ca::empty<float, S>(home, {canary_n});
        k = writer.launch(ooo, {canary_n}, {}, {gate.handle()}, ca::out(a.with_queue(ooo)), 3.0f);
    }
    CHECK_FALSE(k.is_complete());
    auto b = make_canary<S>(other);
    gate.complete();
    k.wait();
    home.finish();
    ooo.finish();
    CHECK(canary_intact(b));
}

TEMPLATE_TEST_CASE("dependencies across queues and on out-of-order queues", "[release]",
                   CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::context& ctx = test::ctx();
    ca::program prg(ctx, R"CLC(
kernel void write_value(global float* a, float value) { a[get_global_id(0)] = value; }
kernel void add_one(global const float* a, global float* b) {
    size_t i = get_global_id(0); b[i] = a[i] + 1.0f;
}
)CLC");
    ca::kernel writer = prg.kernel("write_value"), add_one = prg.kernel("add_one");
    const std::size_t n = 4096;
    for (bool out_of_order : {false, true}) {
        ca::queue q1(ctx), q2(ctx, out_of_order ? ca::out_of_order : ca::in_order);
        user_event gate(ctx);
        auto a = ca::zeros<float, S>(q1, {n});
        auto b = ca::zeros<float, S>(q2, {n});
        writer.launch(q1, {n}, {}, {gate.handle()}, ca::out(a), 5.0f);
        // Reads a on q2: must wait for the gated writer on q1, never see the zeros.
        ca::event consumer = add_one(q2, {n}, ca::in(a.with_queue(q2)), ca::out(b));
        CHECK_FALSE(consumer.is_complete());
        gate.complete();
        auto hb = b.get();
        auto expect = xt::xarray<float>(a.get()) + 1.0f;
        CHECK((hb == expect));
        CHECK(hb(0) == 6.0f);
    }
}

TEST_CASE("allocation and event counters return to baseline", "[release]") {
    ca::free_cached(test::ctx());
    auto before = ca::current_allocation_stats();
    {
        ca::queue q1(test::ctx()), q2(test::ctx(), ca::out_of_order);
        auto a = ca::arange<float, ca::buffer>(q1, 0.0f, 1000.0f);
        auto b = a.with_queue(q2).copy();
        auto c = ca::zeros<float, ca::buffer>(q1, {10, 10});
        c(ca::range(0, 10, 2), ca::all()).fill(1.0f);
        CHECK(ca::current_allocation_stats().live_allocations == before.live_allocations + 3);
        CHECK(ca::current_allocation_stats().held_events > before.held_events);
        (void)b.get();
        (void)c.get();
    }
    auto after = ca::current_allocation_stats();
    CHECK(after.live_allocations == before.live_allocations);
    CHECK(after.live_bytes == before.live_bytes);
    CHECK(after.held_events == before.held_events);
    // The arrays' blocks went back to the default pool, with their events; free_cached releases
    // them all.
    CHECK(after.pool_held_blocks >= before.pool_held_blocks + 3);
    CHECK(ca::free_cached(test::ctx()) >= 3);
    after = ca::current_allocation_stats();
    CHECK(after.pool_held_blocks == before.pool_held_blocks);
    CHECK(after.pool_held_events == before.pool_held_events);
}

TEST_CASE("zero-size arrays own no allocation", "[release]") {
    auto before = ca::current_allocation_stats();
    auto a = ca::zeros<float, ca::buffer>(test::q(), {0, 7});
    CHECK(a.size() == 0);
    CHECK(a.data() == nullptr);
    CHECK(ca::current_allocation_stats().live_allocations == before.live_allocations);
    CHECK((a.get().shape() == xt::xarray<float>::shape_type{0, 7}));
    a.fill(3.0f); // no-op, no launch
    if (test::storage_available<ca::svm_coarse>()) {
        auto s = ca::empty<float, ca::svm_coarse>(test::q(), {0});
        CHECK(s.data() == nullptr);
        auto hv = s.map(ca::access::read);
        CHECK(hv.size() == 0);
    }
}
