// Device selection, capability queries and error translation.
#include "support.hpp"

#include <string>

using catch_compat::Contains;

TEST_CASE("device selection", "[runtime]") {
    auto devices = ca::all_devices();
    REQUIRE_FALSE(devices.empty());
    CHECK(ca::select_device(nullptr) == devices.front());
    CHECK(ca::select_device("") == devices.front());
    CHECK(ca::select_device("0:0") == devices.front());
    const ca::device& d = devices.front();
    // Case-insensitive substring of "<platform> <device>".
    std::string name = d.name();
    for (auto& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(ca::select_device(name.c_str()) == d);
    REQUIRE_THROWS_WITH(ca::select_device("no-such-device-xyz"), Contains("matches no device"));
    REQUIRE_THROWS_AS(ca::select_device("7:9"), ca::error);
}

TEST_CASE("capability queries", "[runtime]") {
    const ca::device& d = test::ctx().device();
    CHECK(d.opencl_version() >= 120);
    CHECK(d.max_parameter_size() >= 256);
    CHECK(d.max_alloc_size() > 0);
    CHECK(d.max_work_group_size() >= 1);
    if (d.opencl_version() < 200) CHECK_FALSE(d.svm_caps().coarse);
    auto caps = test::ctx().svm_caps(); // what the context offers (CLARRAY_DISABLE_SVM hides it)
    INFO("device " << d.name() << " coarse " << caps.coarse << " fine " << caps.fine);
    // The caps agree with what allocation does.
    if (caps.coarse) CHECK_NOTHROW(ca::empty<float, ca::svm_coarse>(test::q(), {4}));
    else CHECK_THROWS_AS((ca::empty<float, ca::svm_coarse>(test::q(), {4})), ca::unsupported);
    if (caps.fine) CHECK_NOTHROW(ca::empty<float, ca::svm_fine>(test::q(), {4}));
    else CHECK_THROWS_AS((ca::empty<float, ca::svm_fine>(test::q(), {4})), ca::unsupported);
    if (!d.has_fp64()) CHECK_THROWS_AS((ca::zeros<double, ca::buffer>(test::q(), {4})), ca::unsupported);
}

TEST_CASE("error names", "[runtime]") {
    CHECK(std::string(ca::cl_error_name(CL_INVALID_VALUE)) == "CL_INVALID_VALUE");
    CHECK(std::string(ca::cl_error_name(CL_OUT_OF_RESOURCES)) == "CL_OUT_OF_RESOURCES");
    CHECK(ca::cl_error_name(-12345) == nullptr);
    ca::cl_error e(CL_INVALID_MEM_OBJECT, "clFoo");
    CHECK_THAT(std::string(e.what()), Contains("clFoo") && Contains("CL_INVALID_MEM_OBJECT"));
    ca::cl_error unknown(-12345, "clBar");
    CHECK_THAT(std::string(unknown.what()), Contains("-12345"));
    REQUIRE_THROWS_AS(ca::detail::check(CL_MEM_OBJECT_ALLOCATION_FAILURE, "clX"), ca::out_of_memory);
    REQUIRE_THROWS_AS(ca::detail::check(CL_INVALID_VALUE, "clX"), ca::cl_error);
}

TEST_CASE("queues, markers and events", "[runtime]") {
    ca::queue q(test::ctx()), ooo(test::ctx(), ca::out_of_order);
    CHECK_FALSE(q.is_out_of_order());
    CHECK(ooo.is_out_of_order());
    auto a = ca::zeros<int, ca::buffer>(q, {100});
    ca::event m = q.enqueue_marker();
    m.wait();
    CHECK(m.is_complete());
    ca::event b = ooo.enqueue_barrier({m});
    b.wait();
    CHECK(ca::event().is_complete());
    q.finish();
}
