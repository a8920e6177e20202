// float16 expressions several elements per work-item (device::tuning_t::half_vector_width): with
// the width forced to 2, 4 and 8 (CLARRAY_HALF_VECTOR_WIDTH, read when a device object is made),
// all float16 expressions over sizes around the width, views at offsets 0..4 (aligned to the vector
// or not) and 2-d row layouts must give the bits of a host float computation rounded once with
// clarray::half, as the scalar kernel does; the plan takes the vector kernel only at aligned
// offsets and row steps, and mixed expressions never (without the alignment rule the vector
// kernels read the wrong elements, or on pocl, had they computed addresses, crash at width 8).
#include "half_reference.hpp"
#include "support.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "xtensor_headers.hpp"

namespace {

using ca::half;

// A context on the test device whose device object reads CLARRAY_HALF_VECTOR_WIDTH = w, with the
// test context's options; one per width for the process (their kernel caches are their own).
struct width_context {
    ca::context ctx;
    ca::queue q;
};
width_context& context_with_half_width(std::size_t w) {
    static std::map<std::size_t, std::unique_ptr<width_context>> made;
    auto& slot = made[w];
    if (!slot) {
        const ca::context& base = test::ctx(); // made first: it must not see the override
        const char* old = std::getenv("CLARRAY_HALF_VECTOR_WIDTH");
        const std::string saved = old ? old : "";
        ::setenv("CLARRAY_HALF_VECTOR_WIDTH", std::to_string(w).c_str(), 1);
        ca::device dev(base.device().id());
        if (old)
            ::setenv("CLARRAY_HALF_VECTOR_WIDTH", saved.c_str(), 1);
        else
            ::unsetenv("CLARRAY_HALF_VECTOR_WIDTH");
        ca::context c(dev, base.options());
        slot = std::make_unique<width_context>(width_context{c, ca::queue(c)});
    }
    return *slot;
}

// Random halves in [-12, 12) with zeros, infinities, NaN, the largest and smallest magnitudes.
xt::xarray<half> operand_values(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    xt::xarray<half> a = xt::xarray<half>::from_shape({n});
    for (auto& v : a)
        v = half(std::uniform_real_distribution<float>(-12.0f, 12.0f)(rng));
    const std::vector<half> special = test::half_specials();
    for (std::size_t i = 0; i < std::size(special) && i * 5 + seed % 5 < n; ++i)
        a.flat(i * 5 + seed % 5) = special[i];
    return a;
}

bool same_half(half x, half y) {
    return x.bits() == y.bits() || (std::isnan(float(x)) && std::isnan(float(y)));
}

// Bit-exact comparison (any NaN matches any NaN); reports the first difference.
void check_bits(const std::string& what, const xt::xarray<half>& got,
                const xt::xarray<half>& want) {
    INFO(what);
    REQUIRE(got.shape() == want.shape());
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!same_half(got.flat(i), want.flat(i)) && bad++ == 0) first = i;
    INFO("first difference at flat index " << first << " of " << got.size() << ": got bits "
                                           << (bad ? got.flat(first).bits() : 0) << ", want "
                                           << (bad ? want.flat(first).bits() : 0));
    CHECK(bad == 0);
}

using test::host_map;
using test::host_zip;
// A product stored to a volatile, so that the compiler cannot contract it with the sum (the
// kernels' FP_CONTRACT is OFF).
float mul_add(float x, float s, float y) {
    volatile float p = x * s;
    return p + y;
}

xt::xarray<half> slice(const xt::xarray<half>& h, std::size_t off, std::size_t n) {
    return xt::view(h, xt::range(off, off + n));
}

} // namespace

TEST_CASE("float16 vector kernels: the plan takes them at aligned offsets and row steps only",
          "[half][vector]") {
    const ca::device& dev = context_with_half_width(4).ctx.device();
    REQUIRE(dev.tuning().half_vector_width == 4);
    using ca::detail::operand_view;
    using ca::detail::vector_path;
    const std::size_t n_out = 1;
    auto plan = [&](const ca::shape_type& shape, std::vector<ca::strides_type> strides,
                    std::vector<std::ptrdiff_t> offsets, vector_path path) {
        std::vector<operand_view> ops;
        for (std::size_t j = 0; j < strides.size(); ++j)
            ops.push_back({strides[j], offsets[j], nullptr, &shape, &strides[j]});
        ca::detail::assign_plan p;
        ca::detail::plan_assignment(shape, ops, n_out, 0, path, dev, p);
        return std::make_tuple(p.width, p.signature, p.rows);
    };
    const auto half_path = vector_path::half;
    // Contiguous: every offset a multiple of 4, else the scalar kernel (another signature).
    const ca::shape_type v{1001};
    const auto [w0, sig0, r0] = plan(v, {{1}, {1}, {1}}, {0, 4, 8}, half_path);
    CHECK(w0 == 4);
    CHECK_FALSE(r0);
    for (std::ptrdiff_t off : {1, 2, 3, 5}) {
        CAPTURE(off);
        const auto [w1, sig1, r1] = plan(v, {{1}, {1}, {1}}, {0, off, 4}, half_path);
        CHECK(w1 == 1);
        CHECK(sig1 != sig0);
        const auto [w2, sig2, r2] = plan(v, {{1}, {1}, {1}}, {off, 0, 4}, half_path);
        CHECK(w2 == 1);
    }
    CHECK(std::get<0>(plan(v, {{1}, {1}}, {0, 0}, vector_path::none)) == 1);
    // Rows: the steps between rows count too; an inner-broadcast input (a column) is read one
    // element at a time and needs no alignment.
    const ca::shape_type m{7, 37};
    const auto [w3, sig3, r3] = plan(m, {{40, 1}, {40, 1}, {1, 0}}, {0, 80, 3}, half_path);
    CHECK(r3);
    CHECK(w3 == 4);
    CHECK(std::get<0>(plan(m, {{38, 1}, {40, 1}, {1, 0}}, {0, 0, 3}, half_path)) == 1);
    CHECK(std::get<0>(plan(m, {{40, 1}, {40, 1}, {1, 0}}, {0, 2, 3}, half_path)) == 1);
    // Rows shorter than the vector stay scalar.
    const ca::shape_type thin{7, 3};
    CHECK(std::get<0>(plan(thin, {{4, 1}, {4, 1}}, {0, 0}, half_path)) == 1);
}

TEST_CASE("float16 vector kernels: which expressions take them", "[half][vector]") {
    ca::queue& q = test::q();
    // Buffer storage: every device has it (the flags do not depend on it).
    auto a = ca::zeros<half, ca::buffer>(q, {4}), b = ca::zeros<half, ca::buffer>(q, {4});
    auto f = ca::zeros<float, ca::buffer>(q, {4});
    using out = std::tuple<ca::cl_array<half>>;
    using out2 = std::tuple<ca::cl_array<half>, ca::cl_array<half>>;
    using ca::detail::assigner;
    static_assert(assigner<out, std::tuple<decltype(a + b)>>::half_vector);
    static_assert(assigner<out, std::tuple<decltype(a * 0.5 + b)>>::half_vector);
    static_assert(assigner<out, std::tuple<decltype(-ca::exp(a))>>::half_vector);
    static_assert(assigner<out2, std::tuple<decltype(a + b), decltype(a * b)>>::half_vector);
    // Not for the math-function vector path, whose width is another quirk.
    static_assert(!assigner<out, std::tuple<decltype(ca::exp(a))>>::vectorizable);
    // Mixed with float32, a float32 output, a scalar helper, a non-lanewise op: scalar.
    static_assert(!assigner<out, std::tuple<decltype(a + f)>>::half_vector);
    static_assert(
        !assigner<std::tuple<ca::cl_array<float>>, std::tuple<decltype(a + b)>>::half_vector);
    static_assert(!assigner<out, std::tuple<decltype(ca::nextafter(a, b))>>::half_vector);
    static_assert(!assigner<out, std::tuple<decltype(ca::maximum(a, b))>>::half_vector);
    static_assert(!assigner<out, std::tuple<decltype(ca::astype<half>(f))>>::half_vector);
    // The default: 4 on GPUs and CPUs.
    const ca::device& dev = test::ctx().device();
    if (std::getenv("CLARRAY_HALF_VECTOR_WIDTH") == nullptr && (dev.is_gpu() || dev.is_cpu()))
        CHECK(dev.tuning().half_vector_width == 4u);
}

TEMPLATE_TEST_CASE("float16 vector kernels give the scalar kernel's bits", "[half][vector]",
                   CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    ca::queue& q1 = context_with_half_width(1).q;
    for (std::size_t w : {2u, 4u, 8u}) {
        CAPTURE(w);
        ca::queue& q = context_with_half_width(w).q;
        REQUIRE(q.context().device().tuning().half_vector_width == w);
        for (std::size_t n : {0u, 1u, 3u, 4u, 5u, 1000003u}) {
            CAPTURE(n);
            const std::size_t m = n + 4;
            const xt::xarray<half> ha = operand_values(m, 1), hb = operand_values(m, 2);
            auto a = ca::to_device<S>(q, ha), b = ca::to_device<S>(q, hb);
            auto out = ca::zeros<half, S>(q, {m});
            const float tenth = half(0.1);
            for (std::size_t off : {0u, 1u, 2u, 3u, 4u}) {
                CAPTURE(off);
                const auto r = ca::range(off, off + n);
                auto av = a(r), bv = b(r), ov = out(r);
                const xt::xarray<half> ta = slice(ha, off, n), tb = slice(hb, off, n);
                ov = av + bv;
                check_bits("a + b", ov.get(),
                           host_zip(ta, tb, [](float x, float y) { return x + y; }));
                ov = av * 0.1 + bv;
                check_bits("a * 0.1 + b", ov.get(), host_zip(ta, tb, [&](float x, float y) {
                               return mul_add(x, tenth, y);
                           }));
                ov = -av;
                check_bits("-a", ov.get(), host_map(ta, [](float x) { return -x; }));
                // Inputs at offset 0 and `off`, the output at offset 0: aligned when off is.
                auto o0 = out(ca::range(0, n));
                o0 = a(ca::range(0, n)) - bv;
                check_bits("a[0:n] - b[off:off+n]", o0.get(),
                           host_zip(slice(ha, 0, n), tb, [](float x, float y) { return x - y; }));
                // A math function: the device's exp within a half ulp of the host's (float
                // libraries differ), and bit for bit the width-1 kernel's on the same device.
                ov = ca::exp(av) * 0.5;
                const xt::xarray<half> got = ov.get();
                auto a1 = ca::to_device<S>(q1, ta);
                ca::cl_array<half, S> scalar = ca::exp(a1) * 0.5;
                check_bits("exp(a) * 0.5 against the scalar kernel", got, scalar.get());
                const xt::xarray<half> want =
                    host_map(ta, [](float x) { return std::exp(x) * 0.5f; });
                std::size_t far = 0; // exp(x) / 2 >= 0: the bits order the values
                for (std::size_t i = 0; i < n; ++i)
                    far += !same_half(got.flat(i), want.flat(i)) &&
                           std::abs(int(got.flat(i).bits()) - int(want.flat(i).bits())) > 1;
                CHECK(far == 0);
            }
            // Two outputs in one kernel, the second at an offset.
            auto x = ca::zeros<half, S>(q, {n});
            auto yv = out(ca::range(4, 4 + n));
            ca::tie(x, yv) =
                std::make_tuple(a(ca::range(0, n)) * b(ca::range(0, n)), a(ca::range(0, n)) + 2.0);
            check_bits(
                "tie: a * b", x.get(),
                host_zip(slice(ha, 0, n), slice(hb, 0, n), [](float u, float v) { return u * v; }));
            check_bits("tie: a + 2", yv.get(),
                       host_map(slice(ha, 0, n), [](float u) { return u + 2.0f; }));
        }
    }
    q1.finish();
}

TEMPLATE_TEST_CASE("float16 vector kernels on rows: steps aligned or not, column broadcast",
                   "[half][vector]", CLARRAY_POLICIES) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    const std::size_t rows = 7, cols = 37;
    for (std::size_t w : {2u, 4u, 8u}) {
        CAPTURE(w);
        ca::queue& q = context_with_half_width(w).q;
        // Row steps of 40 (aligned to 2 and 4) and 39 (to neither); views at offsets 0 and 1.
        for (std::size_t step : {40u, 39u}) {
            for (std::size_t off : {0u, 1u}) {
                CAPTURE(step, off);
                const xt::xarray<half> ha = operand_values(rows * step + off, 3),
                                       hb = operand_values(rows * step + off, 4),
                                       hc = operand_values(rows, 5);
                auto view = [&](auto& arr) {
                    return arr(ca::range(off, off + rows * step))
                        .reshape({rows, step})(ca::all(), ca::range(0, cols));
                };
                auto host_view = [&](const xt::xarray<half>& h) {
                    xt::xarray<half> r = xt::xarray<half>::from_shape({rows, cols});
                    for (std::size_t i = 0; i < rows; ++i)
                        for (std::size_t j = 0; j < cols; ++j)
                            r(i, j) = h(off + i * step + j);
                    return r;
                };
                auto a = ca::to_device<S>(q, ha), b = ca::to_device<S>(q, hb);
                auto col = ca::to_device<S>(q, hc).reshape({rows, 1});
                auto out = ca::zeros<half, S>(q, {rows * step + off});
                auto av = view(a), bv = view(b), ov = view(out);
                const xt::xarray<half> ta = host_view(ha), tb = host_view(hb);
                const float tenth = half(0.1);
                ov = av * 0.1 + bv;
                check_bits("rows: a * 0.1 + b", ov.get(), host_zip(ta, tb, [&](float x, float y) {
                               return mul_add(x, tenth, y);
                           }));
                ov = -av;
                check_bits("rows: -a", ov.get(), host_map(ta, [](float x) { return -x; }));
                ov = av + col;
                xt::xarray<half> want = xt::xarray<half>::from_shape({rows, cols});
                for (std::size_t i = 0; i < rows; ++i)
                    for (std::size_t j = 0; j < cols; ++j)
                        want(i, j) = half(float(ta(i, j)) + float(hc(i)));
                check_bits("rows: a + column", ov.get(), want);
                // Rows in reverse order: a negative step between rows.
                ov = av(ca::range(ca::none, ca::none, -1), ca::all()) + bv;
                for (std::size_t i = 0; i < rows; ++i)
                    for (std::size_t j = 0; j < cols; ++j)
                        want(i, j) = half(float(ta(rows - 1 - i, j)) + float(tb(i, j)));
                check_bits("rows: a[::-1] + b", ov.get(), want);
            }
        }
    }
}
