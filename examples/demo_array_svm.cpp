// Port of PyOpenCL's examples/demo_array_svm.py: two random float32 arrays in coarse-grained SVM,
// a hand-written `sum` kernel into dest, then dest - (a + b) as one generated kernel; its norm
// must be 0. Exits non-zero on a mismatch.
#include <clarray/clarray.hpp>

#include <cmath>
#include <iostream>

#if CLARRAY_XTENSOR_SUBFOLDERS // xtensor 0.26+ (clarray/host/xtensor.hpp)
#include <xtensor/generators/xrandom.hpp>
#else
#include <xtensor/xrandom.hpp>
#endif

namespace ca = clarray;

static const char* sum_source = R"CLC(
kernel void sum(global const float* a, global const float* b, global float* c) {
    size_t gid = get_global_id(0);
    c[gid] = a[gid] + b[gid];
}
)CLC";

int main() {
    try {
        const std::size_t n = 50000;
        xt::random::seed(0);
        xt::xarray<float> a_host = xt::random::rand<float>({n});
        xt::xarray<float> b_host = xt::random::rand<float>({n});

        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        auto a = ca::to_device<ca::svm_coarse>(q, a_host);
        auto b = ca::to_device<ca::svm_coarse>(q, b_host);
        auto dest = ca::empty_like(a);

        ca::program prg(ctx, sum_source);
        prg.kernel("sum")(q, {n}, ca::in(a), ca::in(b), ca::out(dest));

        ca::cl_array<float> diff = dest - (a + b); // one fused kernel
        xt::xarray<float> d = diff.get();
        double norm = 0;
        for (float v : d) norm += double(v) * v;
        norm = std::sqrt(norm);
        std::cout << norm << "\n";

        xt::xarray<float> got = dest.get(), expect = a_host + b_host;
        bool close = xt::allclose(got, expect);
        if (norm != 0 || !close) {
            std::cerr << "MISMATCH: norm " << norm << ", allclose " << close << "\n";
            return 1;
        }
        return 0;
    } catch (const ca::error& e) {
        std::cerr << "clarray error: " << e.what() << "\n";
        return 2;
    }
}
