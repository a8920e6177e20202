// Raw user kernels: arrays bind per policy, scalars by value, local memory, views at an offset.
#include "support.hpp"

#include <numeric>

#include "xtensor_headers.hpp"
#include <vector>

using catch_compat::Contains;

namespace {
const char* kernels = R"CLC(
kernel void sum(global const float* a, global const float* b, global float* c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
kernel void axpy(float alpha, global const float* x, global float* y, int n) {
    size_t i = get_global_id(0);
    if (i < n) y[i] += alpha * x[i];
}
// Reverses each work-group's chunk through __local memory.
kernel void reverse_groups(global const int* in, global int* out, local int* scratch) {
    size_t l = get_local_id(0), g = get_local_size(0), base = get_group_id(0) * g;
    scratch[l] = in[base + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + l] = scratch[g - 1 - l];
}
)CLC";
}

TEMPLATE_LIST_TEST_CASE("raw kernel launch", "[kernels]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    ca::program prg(test::ctx(), kernels);
    const std::size_t n = 1000;
    xt::xarray<float> ha = test::random_array<float>({n}, 1), hb = test::random_array<float>({n}, 2);
    auto a = ca::to_device<S>(test::q(), ha);
    auto b = ca::to_device<S>(test::q(), hb);
    auto c = ca::empty<float, S>(test::q(), {n});
    prg.kernel("sum")(test::q(), {n}, ca::in(a), ca::in(b), ca::out(c));
    CHECK((c.get() == xt::xarray<float>(ha + hb)));

    // Scalars by value, arrays in any position.
    prg.kernel("axpy")(test::q(), {1024}, 2.5f, ca::in(a), ca::inout(c), static_cast<int>(n));
    xt::xarray<float> expect = ha + hb + 2.5f * ha;
    auto hc = c.get();
    INFO("max abs diff " << xt::amax(xt::abs(hc - expect))() << " at c0 " << hc(0) << " vs " << expect(0));
    CHECK(xt::allclose(hc, expect, 1e-5, 1e-5)); // the device may contract to fma

    // local_memory<T>(n)
    const std::size_t groups = 8, g = 64;
    xt::xarray<int> hi = xt::arange<int>(0, static_cast<int>(groups * g));
    auto in = ca::to_device<S>(test::q(), hi);
    auto out = ca::empty<int, S>(test::q(), {groups * g});
    prg.kernel("reverse_groups").launch(test::q(), {groups * g}, {g}, {}, ca::in(in), ca::out(out),
                                         ca::local_memory<int>(g));
    auto ho = out.get();
    for (std::size_t i = 0; i < groups * g; ++i)
        CHECK(ho(i) == hi((i / g) * g + (g - 1 - i % g)));
}

TEMPLATE_LIST_TEST_CASE("raw kernel on a view at an offset", "[kernels]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    ca::program prg(test::ctx(), kernels);
    const std::size_t n = 512;
    xt::xarray<float> ha = test::random_array<float>({n}, 3);
    auto a = ca::to_device<S>(test::q(), ha);
    auto c = ca::zeros<float, S>(test::q(), {n});
    const std::size_t align = test::ctx().device().mem_base_addr_align_bytes() / sizeof(float);
    const std::size_t off = align; // an aligned offset works on every policy
    auto av = a(ca::range(off, n));
    auto cv = c(ca::range(off, n));
    prg.kernel("sum")(test::q(), {n - off}, ca::in(av), ca::in(av), ca::out(cv));
    xt::xarray<float> expect = xt::zeros<float>({n});
    xt::view(expect, xt::range(off, n)) = 2.0f * xt::view(ha, xt::range(off, n));
    CHECK((c.get() == expect));

    auto odd = a(ca::range(3, n));
    if constexpr (S::is_svm) {
        // An SVM argument may point into the middle of an allocation.
        auto cz = ca::zeros<float, S>(test::q(), {n});
        prg.kernel("sum")(test::q(), {n - 3}, ca::in(odd), ca::in(odd), ca::out(cz(ca::range(3, n))));
        xt::xarray<float> e2 = xt::zeros<float>({n});
        xt::view(e2, xt::range(3, n)) = 2.0f * xt::view(ha, xt::range(3, n));
        CHECK((cz.get() == e2));
    } else {
        // A Buffer cannot be bound at an unaligned offset: a clear error, not garbage.
        REQUIRE_THROWS_WITH(prg.kernel("sum")(test::q(), {n - 3}, ca::in(odd), ca::in(odd), ca::out(cv)),
                            Contains("CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
    }
}

TEST_CASE("one kernel object with SVM and Buffer arguments", "[kernels]") {
    if (!test::storage_available<ca::svm_coarse>()) return;
    ca::kernel twice =
        ca::program(test::ctx(), "kernel void twice(global float* a) { a[get_global_id(0)] *= 2; }")
            .kernel("twice");
    auto s = ca::full<float, ca::svm_coarse>(test::q(), {64}, 3.0f);
    auto b = ca::full<float, ca::buffer>(test::q(), {64}, 5.0f);
    twice(test::q(), {64}, s);
    twice(test::q(), {64}, b); // the same kernel object, now with a cl_mem
    twice(test::q(), {64}, s);
    CHECK((s.get() == xt::xarray<float>(xt::ones<float>({64}) * 12.0f)));
    CHECK((b.get() == xt::xarray<float>(xt::ones<float>({64}) * 10.0f)));
}
