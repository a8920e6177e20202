// The one launch path: argument errors name the kernel and argument, oversized layouts travel in
// reused buffers, launches from several threads on one kernel object, ordering across queues.
#include "support.hpp"

#include <thread>
#include <vector>

#include "xtensor_headers.hpp"

#include <clarray/runtime/context_state.hpp>
#include <clarray/runtime/kernel_cache.hpp>

using catch_compat::Contains;

namespace {
ca::shape_type rank10_base() {
    return ca::shape_type{3, 3, 3, 3, 3, 3, 3, 3, 3, 5};
}
} // namespace

TEST_CASE("a failing argument names the kernel and the argument", "[launch]") {
    ca::kernel k = ca::program(test::ctx(), "kernel void scale(global float* a, float s) {"
                                            " a[get_global_id(0)] *= s; }")
                       .kernel("scale");
    auto a = ca::ones<float, ca::buffer>(test::q(), {16});
    // A double where the kernel takes a float: clSetKernelArg rejects the size.
    CHECK_THROWS_WITH(k(test::q(), {16}, a, 2.0),
                      Contains("kernel 'scale', argument 1") && Contains("CL_INVALID_ARG_SIZE"));
    k(test::q(), {16}, a, 2.0f); // the kernel object is still usable
    CHECK((a.get() == xt::xarray<float>(xt::ones<float>({16}) * 2.0f)));
}

TEMPLATE_TEST_CASE("layouts too large for the parameter space reuse their buffers", "[launch]",
                   CLARRAY_POLICIES) {
    using S = TestType;
    if (test::skip_unless<S>()) return;
    ca::queue& q = test::q();
    const ca::shape_type base = rank10_base();
    const auto h2 = ca::range(0, 2);
    auto view = [&](const auto& a) { return a(h2, h2, h2, h2, h2, h2, h2, h2, h2, ca::all()); };
    auto x2 = xt::range(0, 2);
    auto hview = [&](auto& a) {
        return xt::view(a, x2, x2, x2, x2, x2, x2, x2, x2, x2, xt::all());
    };
    xt::xarray<float> hs[4];
    ca::cl_array<float, S> ds[4];
    for (unsigned i = 0; i < 4; ++i) {
        hs[i] = test::random_array<float>(base, 40 + i);
        ds[i] = ca::to_device<S>(q, hs[i]);
    }
    auto out = ca::zeros<float, S>(q, base);
    xt::xarray<float> want = xt::zeros<float>(base);
    // Rank 10 that does not coalesce, 9 operands (8 array terminals and the output): correct on
    // every device; the layout goes by value or (small parameter spaces) through a buffer.
    const std::size_t layout_bytes =
        ca::detail::assign_layout_schema(9, 10, false).words() * sizeof(cl_long);
    const bool by_buffer =
        !ca::detail::layout_fits(q.context().device(), 9, sizeof(float), layout_bytes);
    auto& layouts = test::ctx().state().layouts;
    const std::size_t slots_before = layouts.slot_count();
    for (int round = 0; round < 50; ++round) {
        const float s = static_cast<float>(round);
        view(out) = view(ds[0]) * s + view(ds[1]) - view(ds[2]) * view(ds[3]) + view(ds[0]) -
                    view(ds[1]) + view(ds[2]) * view(ds[3]);
        if (round % 10 == 9) q.finish();
    }
    hview(want) = hview(hs[0]) * 49.0f + hview(hs[1]) - hview(hs[2]) * hview(hs[3]) + hview(hs[0]) -
                  hview(hs[1]) + hview(hs[2]) * hview(hs[3]);
    CHECK(xt::allclose(out.get(), want, 1e-5, 1e-5));
    // At most one buffer per launch in flight (10 between waits), never one per launch.
    if (by_buffer) {
        CHECK(layouts.slot_count() > 0);
        CHECK(layouts.slot_count() - slots_before <= 11);
    }
    CHECK(layouts.slot_count() <= ca::detail::layout_buffers::max_slots);
}

TEST_CASE("one kernel object launched from several threads", "[launch]") {
    ca::kernel add = ca::program(test::ctx(), "kernel void add(global int* a, int v) {"
                                              " a[get_global_id(0)] += v; }")
                         .kernel("add");
    constexpr int threads = 4, per_thread = 50;
    std::vector<ca::cl_array<int, ca::buffer>> arrays;
    for (int t = 0; t < threads; ++t)
        arrays.push_back(ca::zeros<int, ca::buffer>(test::q(), {256}));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            ca::queue q(test::ctx()); // a queue per thread
            for (int i = 0; i < per_thread; ++i)
                add(q, {256}, arrays[t], t + 1);
            q.finish();
        });
    for (auto& th : pool)
        th.join();
    for (int t = 0; t < threads; ++t)
        CHECK((arrays[t].get() == xt::xarray<int>(xt::ones<int>({256}) * ((t + 1) * per_thread))));
}

TEST_CASE("the kernel cache builds each generated kernel once", "[launch]") {
    auto a = ca::arange<float, ca::buffer>(test::q(), 0.0f, 64.0f);
    ca::cl_array<float, ca::buffer> r = ca::sqrt(a) * 3.0f + a; // builds or reuses
    const std::size_t cached = ca::detail::cached_kernel_count(test::ctx());
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; ++t)
        pool.emplace_back([&] {
            ca::queue q(test::ctx());
            auto b = ca::arange<float, ca::buffer>(q, 0.0f, 64.0f);
            ca::cl_array<float, ca::buffer> c = ca::sqrt(b) * 3.0f + b;
            q.finish();
        });
    for (auto& th : pool)
        th.join();
    CHECK(ca::detail::cached_kernel_count(test::ctx()) == cached);
    xt::xarray<float> h = xt::arange<float>(0.0f, 64.0f);
    CHECK(xt::allclose(r.get(), xt::xarray<float>(xt::sqrt(h) * 3.0f + h), 1e-5, 1e-5));
}

TEST_CASE("layout words through a buffer: every launch reads its own words", "[launch]") {
    // The buffer path on every device: a kernel that sums the words it was given.
    ca::kernel k = ca::program(test::ctx(), "kernel void sum_words(global long* out, int n,"
                                            " constant long* w) {"
                                            " long s = 0; for (int i = 0; i < n; ++i) s += w[i];"
                                            " out[get_global_id(0)] = s; }")
                       .kernel("sum_words");
    ca::queue& q = test::q();
    constexpr int launches = 200;
    std::vector<ca::cl_array<std::int64_t, ca::buffer>> outs;
    std::vector<std::int64_t> want;
    auto& layouts = test::ctx().state().layouts;
    const std::size_t slots_before = layouts.slot_count();
    for (int l = 0; l < launches; ++l) {
        const int n = 1 + (l * 37) % 300; // sizes from 8 bytes to 2.4 kB
        std::vector<cl_long> words(n);
        std::int64_t sum = 0;
        for (int i = 0; i < n; ++i)
            sum += words[i] = static_cast<cl_long>(l) * 1000 + i;
        want.push_back(sum);
        outs.push_back(ca::empty<std::int64_t, ca::buffer>(q, {1}));
        const cl_int count = n;
        const ca::detail::launch_arg args[] = {
            ca::kernel_arg<ca::cl_array<std::int64_t, ca::buffer>>::make(outs.back(), q),
            ca::detail::launch_arg::value(&count, sizeof count),
            ca::detail::launch_arg::layout(words.data(), words.size() * sizeof(cl_long), true)};
        ca::detail::launch(q, k, ca::ndrange{1}, nullptr, args, 3);
        // `words` goes out of scope now: the launch must have kept its own copy.
        if (l % 25 == 24) q.finish();
    }
    for (int l = 0; l < launches; ++l)
        CHECK(outs[l].item() == want[l]);
    // Buffers are reused: at most one per launch in flight (25 between waits).
    CHECK(layouts.slot_count() - slots_before <= 26);
}
