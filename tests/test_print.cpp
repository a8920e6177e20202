// Printing (operator<< of arrays, views and expressions) and describe(). The reference is
// xtensor's own printing of the same host data, made without the device.
#include "support.hpp"

#include <chrono>
#include <future>
#include <sstream>
#include <string>

#include <xtensor/xio.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xview.hpp>

namespace {

template <class X> std::string printed(const X& x) {
    std::ostringstream s;
    s << x;
    return s.str();
}

// A layout of the tests: the device view and the same view of the host data.
enum class view_kind { whole, strided, transposed, column, empty, scalar };
constexpr view_kind all_views[] = {view_kind::whole,  view_kind::strided, view_kind::transposed,
                                   view_kind::column, view_kind::empty,   view_kind::scalar};

template <class A> A device_view(const A& a, view_kind v) {
    switch (v) {
    case view_kind::strided:
        return a(ca::range(1, ca::none, 2), ca::range(ca::none, ca::none, -3));
    case view_kind::transposed:
        return a.transpose();
    case view_kind::column:
        return a(ca::all(), 2);
    case view_kind::empty:
        return a(ca::range(2, 2), ca::all());
    case view_kind::scalar:
        return a(1, 3);
    default:
        return a;
    }
}
template <class H> xt::xarray<typename H::value_type> host_view(const H& h, view_kind v) {
    switch (v) {
    case view_kind::strided:
        return xt::view(h, xt::range(1, xt::placeholders::_, 2),
                        xt::range(xt::placeholders::_, xt::placeholders::_, -3));
    case view_kind::transposed:
        return xt::transpose(h);
    case view_kind::column:
        return xt::view(h, xt::all(), 2);
    case view_kind::empty:
        return xt::view(h, xt::range(2, 2), xt::all());
    case view_kind::scalar: {
        xt::xarray<typename H::value_type> s = xt::xarray<typename H::value_type>::from_shape({});
        s() = h(1, 3);
        return s;
    }
    default:
        return h;
    }
}

} // namespace

TEMPLATE_LIST_TEST_CASE("print: arrays and views print as xtensor prints the same host data",
                        "[print]", test::dtype_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto& q = test::q();
    const xt::xarray<T> h = test::random_array<T>({5, 7}, 11);
    const auto a = ca::to_device<S>(q, h);
    for (view_kind v : all_views) {
        INFO("view " << static_cast<int>(v));
        CHECK(printed(device_view(a, v)) == printed(host_view(h, v)));
    }
}

TEMPLATE_LIST_TEST_CASE("print: summarisation, precision and expressions", "[print]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto& q = test::q();
    // Large enough for xtensor's summarisation ("...") in both directions.
    const xt::xarray<float> h = test::random_array<float>({40, 50}, 3);
    const auto a = ca::to_device<S>(q, h);
    const std::string big = printed(a);
    CHECK(big.find("...") != std::string::npos);
    CHECK(big == printed(h));
    // Stream-local print options reach xtensor's printer.
    std::ostringstream dev, host;
    dev << xt::print_options::precision(2) << a(ca::range(0, 3), ca::range(0, 4));
    host << xt::print_options::precision(2) << xt::view(h, xt::range(0, 3), xt::range(0, 4));
    CHECK(dev.str() == host.str());
    CHECK(dev.str() != printed(xt::view(h, xt::range(0, 3), xt::range(0, 4))));
    // An expression is evaluated, then printed.
    const xt::xarray<float> h2 = test::random_array<float>({50}, 4);
    const auto b = ca::to_device<S>(q, h2);
    const xt::xarray<float> ref = h * 2.0f + h2;
    CHECK(printed(a * 2.0f + b) == printed(ref));
    const xt::xarray<bool> cmp = h > 0.0f;
    CHECK(printed(a > 0.0f) == printed(cmp));
}

TEMPLATE_LIST_TEST_CASE("print: describe names shape, dtype, storage, device and views", "[print]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto& q = test::q();
    const std::string dev = "device='" + test::ctx().device().name() + "')";
    auto a = ca::zeros<float, S>(q, {3, 4});
    CHECK(ca::describe(a) ==
          std::string("cl_array(shape=(3, 4), dtype=float32, storage=") + S::name + ", " + dev);
    auto i = ca::zeros<std::int16_t, S>(q, {5});
    CHECK(ca::describe(i) ==
          std::string("cl_array(shape=(5,), dtype=int16, storage=") + S::name + ", " + dev);
    // A view: where it sits in its memory.
    CHECK(ca::describe(a(ca::range(1, 3), ca::range(ca::none, ca::none, -2))) ==
          std::string("cl_array(shape=(2, 2), dtype=float32, storage=") + S::name +
              ", strides=(4, -2), offset=7, " + dev);
    CHECK(ca::describe(a.transpose()) == std::string("cl_array(shape=(4, 3), dtype=float32, "
                                                     "storage=") +
                                             S::name + ", strides=(1, 4), offset=0, " + dev);
    // An unbound array is described, never read (printing it prints the description).
    ca::cl_array<double, S> unbound;
    const std::string u = std::string("cl_array(unbound, dtype=float64, storage=") + S::name + ")";
    CHECK(ca::describe(unbound) == u);
    CHECK(printed(unbound) == u);
}

// Printing waits for the array's own writers (here on another queue), and not for unrelated
// work: a command held back by a user event on another queue does not hold the print.
TEMPLATE_LIST_TEST_CASE("print: waits for the array's writers only", "[print]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto& q = test::q();
    ca::queue other(test::ctx());
    cl_int rc = CL_SUCCESS;
    ca::event gate(clCreateUserEvent(test::ctx().get(), &rc));
    REQUIRE(rc == CL_SUCCESS);
    struct open_gate { // the gate opens whatever happens, so no command stays blocked
        const ca::event& e;
        ~open_gate() { clSetUserEventStatus(e.get(), CL_COMPLETE); }
    } guard{gate};
    ca::program prg(test::ctx(), "kernel void put(global float* x, float v) {"
                                 " x[get_global_id(0)] = v; }");
    ca::kernel put = prg.kernel("put");

    const xt::xarray<float> h = test::random_array<float>({4, 3}, 5);
    const auto a = ca::to_device<S>(q, h);
    auto unrelated = ca::zeros<float, S>(other, {64});
    put.launch(other, {64}, ca::ndrange(), {gate}, ca::out(unrelated), 1.0f);
    auto printing = std::async(std::launch::async, [&] { return printed(a); });
    const bool done = printing.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
    CHECK(done); // else the print waited for the unrelated command
    clSetUserEventStatus(gate.get(), CL_COMPLETE);
    CHECK(printing.get() == printed(h));

    // The array's own writer, on the other queue behind a second gate: the print waits for it
    // and shows what it wrote.
    ca::event gate2(clCreateUserEvent(test::ctx().get(), &rc));
    REQUIRE(rc == CL_SUCCESS);
    open_gate guard2{gate2};
    auto b = a.with_queue(other);
    put.launch(other, {a.size()}, ca::ndrange(), {gate2}, ca::out(b), 7.0f);
    auto second = std::async(std::launch::async, [&] { return printed(a); });
    CHECK(second.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
    clSetUserEventStatus(gate2.get(), CL_COMPLETE);
    const xt::xarray<float> sevens = xt::ones<float>({4, 3}) * 7.0f;
    CHECK(second.get() == printed(sevens));
}
