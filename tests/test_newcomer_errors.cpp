// Mistakes a newcomer makes, and what clarray says about them at run time. The compile-time ones
// (a host xt::xarray in a device expression, `a = host`) are the compile_fail/newcomer_errors.cpp
// cases.
#include "support.hpp"

#include <string>

#include <xtensor/xview.hpp>

namespace {
std::string what_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ca::error& e) {
        return e.what();
    }
    return "(no error)";
}
bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
} // namespace

// Arrays of different storage policies in one expression: each operand is bound as its storage
// needs (SVM pointer or cl_mem), so this works; the result takes the first array's policy.
TEMPLATE_LIST_TEST_CASE("errors: storage policies mix in one expression", "[newcomer]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    if (!test::storage_available<ca::svm_coarse>() || !test::storage_available<ca::svm_fine>())
        return;
    auto& q = test::q();
    const xt::xarray<float> h1 = test::random_array<float>({6, 5}, 1);
    const xt::xarray<float> h2 = test::random_array<float>({6, 5}, 2);
    const xt::xarray<float> h3 = test::random_array<float>({5}, 3);
    auto a = ca::to_device<S>(q, h1);
    auto b = ca::to_device<ca::buffer>(q, h2);
    auto c = ca::to_device<ca::svm_fine>(q, h3);
    auto d = ca::to_device<ca::svm_coarse>(q, h2);
    const xt::xarray<float> ref = h1 * 2.0f + h2 - h3;
    auto r = ca::eval(a * 2.0f + b - c);
    static_assert(std::is_same_v<decltype(r), ca::cl_array<float, S>>);
    CHECK(xt::allclose(r.get(), ref));
    ca::cl_array<float, ca::buffer> out(q, {6, 5});
    out = a * 2.0f + d - c; // into a Buffer from SVM operands
    CHECK(xt::allclose(out.get(), ref));
    // Views of each, at offsets.
    out(ca::range(1, 6), ca::all()) = a(ca::range(0, 5), ca::all()) + b(ca::range(1, 6), ca::all());
    const xt::xarray<float> ref2 =
        xt::view(h1, xt::range(0, 5), xt::all()) + xt::view(h2, xt::range(1, 6), xt::all());
    CHECK(xt::allclose(xt::view(out.get(), xt::range(1, 6), xt::all()), ref2));
}

TEST_CASE("errors: a kernel argument of the wrong size names kernel, argument and sizes",
          "[newcomer][errors]") {
    auto& q = test::q();
    ca::program prg(test::ctx(), "kernel void scale(global float* x, int n, float4 v) {"
                                 " if (get_global_id(0) < n) x[get_global_id(0)] *= v.x; }");
    ca::kernel scale = prg.kernel("scale");
    auto a = ca::ones<float, ca::buffer>(q, {8});
    cl_float4 v{{2, 0, 0, 0}};
    // A 64-bit integer where the kernel takes an int.
    const std::string w = what_of([&] { scale(q, {8}, a, std::int64_t(8), v); });
    INFO(w);
    CHECK(has(w, "CL_INVALID_ARG_SIZE"));
    CHECK(has(w, "kernel 'scale', argument 1"));
    CHECK(has(w, "given a value of 8 bytes"));
    // The declared type: programs are built with -cl-kernel-arg-info, so the driver reports it.
    CHECK(has(w, "the parameter is 'int n', which takes 4 bytes"));
    const std::string w2 = what_of([&] { scale(q, {8}, a, 8, 2.0f); });
    CHECK(has(w2, "argument 2: given a value of 4 bytes; the parameter is 'float4 v', which "
                  "takes 16 bytes"));
    const std::string w3 = what_of([&] { scale(q, {8}, 1.0f, 8, v); });
    CHECK(has(w3, "argument 0: given a value of 4 bytes; the parameter is 'global float* x'"));
    CHECK(has(w3, "pass a cl_array"));
    const std::string w4 = what_of([&] { scale(q, {8}, a, ca::local_memory<float>(4), v); });
    CHECK(has(w4, "argument 1: given local memory of 16 bytes; the parameter is 'int n'"));
    // Too many and too few arguments name the count (too few after a launch would otherwise
    // reuse the earlier launch's values).
    scale(q, {8}, a, 8, v);
    const std::string many = what_of([&] { scale(q, {8}, a, 8, v, 1); });
    CHECK(has(many, "CL_INVALID_ARG_INDEX"));
    CHECK(has(many, "kernel 'scale', argument 3: given a value of 4 bytes; the kernel takes 3 "
                    "arguments"));
    const std::string few = what_of([&] { scale(q, {8}, a, 8); });
    CHECK(has(few, "CL_INVALID_KERNEL_ARGS"));
    CHECK(has(few, "kernel 'scale' takes 3 arguments, given 2"));
    scale(q, {8}, a, 8, v); // still usable
    CHECK((a.get() == xt::xarray<float>(xt::ones<float>({8}) * 4.0f)));

    // A program built elsewhere without -cl-kernel-arg-info: the size given, and how to get more
    // (where the driver reports nothing without it).
    const char* src = "kernel void scale(global float* x, int n) { x[get_global_id(0)] *= n; }";
    cl_int rc = CL_SUCCESS;
    cl_program raw = clCreateProgramWithSource(test::ctx().get(), 1, &src, nullptr, &rc);
    REQUIRE(rc == CL_SUCCESS);
    cl_device_id dev = test::ctx().device().id();
    REQUIRE(clBuildProgram(raw, 1, &dev, "", nullptr, nullptr) == CL_SUCCESS);
    ca::kernel plain = ca::program(test::ctx(), raw).kernel("scale");
    const std::string w5 = what_of([&] { plain(q, {8}, a, std::int64_t(2)); });
    CHECK(has(w5, "kernel 'scale', argument 1: given a value of 8 bytes; "));
    cl_char type[64] = {0};
    if (clGetKernelArgInfo(plain.get(), 1, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr) !=
        CL_SUCCESS)
        CHECK(has(w5, "-cl-kernel-arg-info"));
    else
        CHECK(has(w5, "the parameter is 'int n'"));
}

TEST_CASE("errors: shape mismatches show both shapes and dtypes", "[newcomer][errors]") {
    auto& q = test::q();
    auto a = ca::zeros<float, ca::buffer>(q, {3, 4});
    auto b = ca::zeros<std::int32_t, ca::buffer>(q, {5});
    auto c = ca::zeros<std::int16_t, ca::buffer>(q, {2, 4});
    // Operands that do not broadcast together.
    std::string w = what_of([&] { ca::eval(a + b); });
    CHECK(has(w, "(3, 4) float32"));
    CHECK(has(w, "(5,) int32"));
    CHECK_THROWS_AS(ca::eval(a + b), ca::shape_error);
    // An expression that does not broadcast to the output.
    w = what_of([&] { c = a * 2.0f; });
    CHECK(has(w, "(3, 4) float32"));
    CHECK(has(w, "(2, 4) int16"));
    // Array assignment.
    auto d = ca::zeros<float, ca::buffer>(q, {2, 4});
    w = what_of([&] { d = a; });
    CHECK(has(w, "(3, 4) float32"));
    CHECK(has(w, "(2, 4) float32"));
    // Host data.
    w = what_of([&] { d.set(xt::xarray<float>::from_shape({3})); });
    CHECK(has(w, "(3,)"));
    CHECK(has(w, "(2, 4) (float32)"));
}
