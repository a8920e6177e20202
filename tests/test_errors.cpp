// Bad input gives a typed clarray error whose message names the problem, and leaks nothing.
#include "support.hpp"

#include <string>
#include <vector>

using catch_compat::Contains;

TEST_CASE("invalid shapes", "[errors]") {
    auto before = ca::current_allocation_stats();
    ca::queue& q = test::q();
    REQUIRE_THROWS_AS((ca::cl_array<float, ca::buffer>(q, std::vector<int>{-1, 3})), ca::shape_error);
    REQUIRE_THROWS_WITH((ca::cl_array<float, ca::buffer>(q, std::vector<int>{4, -2})),
                        Contains("negative"));
    // 2^40 * 2^40 elements overflow the index type.
    REQUIRE_THROWS_WITH((ca::empty<float, ca::buffer>(q, {std::size_t(1) << 40, std::size_t(1) << 40})),
                        Contains("overflow"));
    // Zero elements, but the other extents' strides still overflow 64-bit offsets.
    REQUIRE_THROWS_WITH((ca::empty<float, ca::buffer>(q, {0, std::size_t(1) << 40, std::size_t(1) << 40})),
                        Contains("strides overflow"));
    // A shape of max_dims + 1 extents cannot even be built.
    REQUIRE_THROWS_WITH((ca::empty<float, ca::buffer>(q, ca::shape_type(ca::max_dims + 1, 1))),
                        Contains("dimensions"));
    REQUIRE_THROWS_WITH(
        (ca::cl_array<float, ca::buffer>(q, std::vector<std::size_t>(ca::max_dims + 1, 1))),
        Contains("17 dimensions"));
    CHECK(ca::current_allocation_stats().live_allocations == before.live_allocations);
}

TEMPLATE_TEST_CASE("oversized allocations are out_of_memory", "[errors]", CLARRAY_POLICIES) {
    if (!test::storage_available<TestType>()) return;
    auto before = ca::current_allocation_stats();
    std::size_t n = test::ctx().device().max_alloc_size() / sizeof(float) + 1;
    REQUIRE_THROWS_AS((ca::empty<float, TestType>(test::q(), {n})), ca::out_of_memory);
    REQUIRE_THROWS_WITH((ca::empty<float, TestType>(test::q(), {n})),
                        Contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
    CHECK(ca::current_allocation_stats().live_allocations == before.live_allocations);
}

TEST_CASE("shape mismatch in set and assignment", "[errors]") {
    ca::queue& q = test::q();
    auto a = ca::zeros<float, ca::buffer>(q, {3, 4});
    xt::xarray<float> wrong = xt::zeros<float>({4, 3});
    REQUIRE_THROWS_AS(a.set(wrong), ca::shape_error);
    REQUIRE_THROWS_WITH(a.set(wrong), Contains("(4, 3)") && Contains("(3, 4)"));
    REQUIRE_THROWS_AS(a.set(std::vector<float>(11)), ca::shape_error);
    auto b = ca::zeros<float, ca::buffer>(q, {5});
    REQUIRE_THROWS_WITH(a = b, Contains("(5,)") && Contains("(3, 4)"));
    // The failed calls changed nothing.
    CHECK((a.get() == xt::zeros<float>({3, 4})));
}

TEST_CASE("out-of-range views and bad view arguments", "[errors]") {
    auto a = ca::zeros<float, ca::buffer>(test::q(), {3, 4});
    REQUIRE_THROWS_AS(a(3), ca::index_error);
    REQUIRE_THROWS_WITH(a(0, 4), Contains("index 4") && Contains("axis 1"));
    REQUIRE_THROWS_AS(a(-4), ca::index_error);
    REQUIRE_THROWS_AS(a(ca::range(0, 5)), ca::index_error);
    REQUIRE_THROWS_AS(a(ca::range(0, 3, 0)), ca::index_error);
    REQUIRE_THROWS_AS(a(0, 0, 0), ca::index_error);
    REQUIRE_THROWS_AS(a(ca::ellipsis(), 0, ca::ellipsis()), ca::index_error);
    REQUIRE_THROWS_AS(a.transpose({0, 0}), ca::index_error);
    REQUIRE_THROWS_AS(a.squeeze(0), ca::shape_error);
    REQUIRE_THROWS_AS(a.reshape({5, 3}), ca::shape_error);
    REQUIRE_THROWS_WITH(a.transpose().reshape({12}), Contains("without a copy"));
}

TEST_CASE("kernel build errors carry the build log", "[errors]") {
    try {
        ca::program bad(test::ctx(), "kernel void k(global float* a) { a[0] = undeclared_name; }");
        FAIL("build should have failed");
    } catch (const ca::build_error& e) {
        CHECK(e.code() == CL_BUILD_PROGRAM_FAILURE);
        CHECK_THAT(e.log(), Contains("undeclared_name"));
        CHECK_THAT(std::string(e.what()), Contains("CL_BUILD_PROGRAM_FAILURE"));
    }
    ca::program good(test::ctx(), "kernel void k(global float* a) { a[0] = 1; }");
    try {
        (void)good.kernel("no_such_kernel");
        FAIL("kernel creation should have failed");
    } catch (const ca::cl_error& e) {
        CHECK(e.code() == CL_INVALID_KERNEL_NAME);
        CHECK_THAT(std::string(e.what()), Contains("no_such_kernel") && Contains("CL_INVALID_KERNEL_NAME"));
    }
}

TEST_CASE("objects from different contexts are not mixed", "[errors]") {
    ca::context other(test::ctx().device());
    ca::queue q_other(other);
    auto a = ca::zeros<float, ca::buffer>(test::q(), {8});
    ca::kernel k = ca::program(test::ctx(), "kernel void k(global float* a) { a[0] = 1; }").kernel("k");
    REQUIRE_THROWS_AS(k(q_other, {1}, a), ca::usage_error);
    ca::kernel k_other = ca::program(other, "kernel void k(global float* a) { a[0] = 1; }").kernel("k");
    REQUIRE_THROWS_WITH(k_other(q_other, {1}, a), Contains("another context"));
    REQUIRE_THROWS_AS(a.with_queue(q_other), ca::usage_error);
}

TEST_CASE("SVM storage without SVM support is unsupported", "[errors]") {
    ca::context_options opts;
    opts.disable_svm = true;
    ca::context no_svm(test::ctx().device(), opts);
    ca::queue q(no_svm);
    CHECK_FALSE(no_svm.svm_caps().coarse);
    REQUIRE_THROWS_AS((ca::empty<float, ca::svm_coarse>(q, {4})), ca::unsupported);
    REQUIRE_THROWS_WITH((ca::empty<float, ca::svm_fine>(q, {4})),
                        Contains("fine-grained") && Contains("buffer"));
    // The Buffer policy is the fallback that always works.
    auto b = ca::arange<int, ca::buffer>(q, 0, 10);
    CHECK((b.get() == xt::arange<int>(0, 10)));
}

TEST_CASE("unbound arrays", "[errors]") {
    ca::cl_array<float> a;
    CHECK_FALSE(a.bound());
    REQUIRE_THROWS_AS(a.get_queue(), ca::usage_error);
    // Assigning to an unbound array binds it to a copy.
    if (!test::storage_available<ca::svm_coarse>()) return;
    auto src = ca::arange<float, ca::svm_coarse>(test::q(), 0.0f, 5.0f);
    a = src;
    CHECK(a.bound());
    CHECK(a.data() != src.data());
    CHECK((a.get() == src.get()));
}
