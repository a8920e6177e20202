// Bad-input survey: every public entry point given invalid arguments throws a typed clarray error
// whose message names the problem, and the failed call leaves no allocation, byte or held event
// behind (ca::current_allocation_stats() unchanged). Parametrized over the storage policies.
#include "support.hpp"

#include <clarray/runtime/env.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using catch_compat::Contains;

// Matches an exception whose what() contains `part`.
class what_contains : public catch_compat::MatcherBase<std::exception> {
public:
    explicit what_contains(std::string part) : part_(std::move(part)) {}
    bool match(const std::exception& e) const override {
        return std::string(e.what()).find(part_) != std::string::npos;
    }
    std::string describe() const override { return "what() contains \"" + part_ + "\""; }

private:
    std::string part_;
};

// The counters equal `before`: nothing was allocated, leaked or recorded by a failed call.
void require_unchanged(const ca::allocation_stats& before) {
    ca::allocation_stats now = ca::current_allocation_stats();
    CHECK(now.live_allocations == before.live_allocations);
    CHECK(now.live_bytes == before.live_bytes);
    CHECK(now.held_events == before.held_events);
}

const char* const twice_source =
    "kernel void twice(global float* a) { a[get_global_id(0)] *= 2; }\n"
    "kernel void scale(global float* a, float s) { a[get_global_id(0)] *= s; }\n";

} // namespace

// `expr` throws E (or a type derived from it) matching M, and changes no allocation counter.
#define CHECK_FAILS(expr, E, M)                                                                    \
    do {                                                                                           \
        const ca::allocation_stats stats_before_ = ca::current_allocation_stats();                 \
        CHECK_THROWS_MATCHES(expr, E, M);                                                          \
        require_unchanged(stats_before_);                                                          \
    } while (0)

TEMPLATE_LIST_TEST_CASE("bad input: invalid shapes", "[errors]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        // Negative extents from signed containers, and a negative value wrapped to size_t.
        CHECK_FAILS((A(q, std::vector<int>{2, -1})), ca::shape_error,
                    what_contains("negative extent") && what_contains("-1"));
        CHECK_FAILS((A(q, std::vector<long long>{-5})), ca::shape_error, what_contains("negative"));
        CHECK_FAILS((ca::empty<T, S>(q, {static_cast<std::size_t>(-3)})), ca::shape_error,
                    what_contains("negative or too large"));
        // Element count overflow.
        const std::size_t big = std::size_t(1) << 40;
        CHECK_FAILS((ca::zeros<T, S>(q, {big, big})), ca::shape_error, what_contains("overflow"));
        // The element count fits, the byte count does not: (2^62 + 1) * 4 bytes wrapped to a
        // 4-byte allocation behind a 2^62-element array before the fix.
        CHECK_FAILS((ca::empty<T, S>(q, {(std::size_t(1) << 62) + 1})), ca::out_of_memory,
                    what_contains("overflows the byte count"));
        CHECK_FAILS((ca::full<T, S>(q, {std::size_t(1) << 62}, T(1))), ca::out_of_memory,
                    what_contains("byte count"));
        // Rank above max_dims.
        CHECK_FAILS((ca::ones<T, S>(q, ca::shape_type(ca::max_dims + 1, 1))), ca::shape_error,
                    what_contains("17 dimensions") && what_contains("at most 16"));
        // arange: zero step, and lengths that cannot be computed (the cast was undefined).
        CHECK_FAILS((ca::arange<T, S>(q, T(0), T(10), T(0))), ca::usage_error,
                    what_contains("step must not be zero"));
        CHECK_FAILS((ca::arange<T, S>(q, T(0), std::numeric_limits<T>::infinity())),
                    ca::shape_error, what_contains("too many"));
        CHECK_FAILS((ca::arange<T, S>(q, T(0), std::numeric_limits<T>::quiet_NaN())),
                    ca::shape_error, what_contains("cannot compute the length"));
        CHECK_FAILS((ca::arange<T, S>(q, T(0), T(1e30f))), ca::shape_error,
                    what_contains("too many"));

        // reshape
        auto a = ca::zeros<T, S>(q, {3, 4});
        CHECK_FAILS(a.reshape({5, 3}), ca::shape_error,
                    what_contains("(3, 4)") && what_contains("(5, 3)"));
        CHECK_FAILS(a.reshape({ca::infer, ca::infer}), ca::shape_error,
                    what_contains("more than one extent to infer"));
        CHECK_FAILS(a.reshape({5, ca::infer}), ca::shape_error, what_contains("cannot infer"));
        CHECK_FAILS(a.reshape({big, big}), ca::shape_error, what_contains("overflows"));
        CHECK_FAILS(a.reshape(ca::shape_type(ca::max_dims + 1, 1)), ca::shape_error,
                    what_contains("dimensions"));
        CHECK_FAILS(a.transpose().reshape({12}), ca::shape_error, what_contains("without a copy"));
        CHECK(a.reshape({2, ca::infer}).shape() == ca::shape_type{2, 6});
        CHECK((a.get() == xt::zeros<T>({3, 4})));
    }
    require_unchanged(base);
}

TEMPLATE_LIST_TEST_CASE("bad input: mismatched shapes in expressions, tie, set and assignment",
                        "[errors]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        auto a = ca::zeros<T, S>(q, {3, 4});
        auto b = ca::zeros<T, S>(q, {5});
        auto c = ca::zeros<T, S>(q, {3, 4});
        auto d = ca::zeros<T, S>(q, {4, 3});
        auto small = ca::zeros<T, S>(q, {4});

        CHECK_FAILS(c = a + b, ca::shape_error, what_contains("(3, 4)") && what_contains("(5,)"));
        CHECK_FAILS((A(a * b)), ca::shape_error, what_contains("cannot be broadcast"));
        // An input larger than the output does not broadcast to it.
        CHECK_FAILS(small = a + 1.0f, ca::shape_error,
                    what_contains("(3, 4)") && what_contains("(4,)"));
        CHECK_FAILS(a += b, ca::shape_error, what_contains("(5,)") && what_contains("(3, 4)"));
        CHECK_FAILS((ca::tie(c, d) = std::make_tuple(a + 1.0f, a * 2.0f)), ca::shape_error,
                    what_contains("tie") && what_contains("(4, 3)"));
        CHECK_FAILS(a.set(xt::xarray<T>(xt::zeros<T>({4, 3}))), ca::shape_error,
                    what_contains("(4, 3)") && what_contains("(3, 4)"));
        CHECK_FAILS(a.set(std::vector<T>(11)), ca::shape_error,
                    what_contains("11 elements") && what_contains("12 elements"));
        // On a strided view: its own shape counts.
        auto v = a(ca::all(), ca::range(0, 4, 2));
        CHECK_FAILS(v.set(std::vector<T>(12)), ca::shape_error, what_contains("(3, 2)"));
        CHECK_FAILS(a = b, ca::shape_error, what_contains("(5,)") && what_contains("(3, 4)"));
        CHECK_FAILS(v = d, ca::shape_error, what_contains("(4, 3)") && what_contains("(3, 2)"));
        // Nothing was written by the failed calls.
        CHECK((a.get() == xt::zeros<T>({3, 4})));
        CHECK((c.get() == xt::zeros<T>({3, 4})));
    }
    require_unchanged(base);
}

TEMPLATE_LIST_TEST_CASE("bad input: views out of range", "[errors]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        auto a = ca::zeros<T, S>(q, {3, 4});
        CHECK_FAILS(a(3), ca::index_error,
                    what_contains("index 3") && what_contains("axis 0") &&
                        what_contains("extent 3"));
        CHECK_FAILS(a(-4), ca::index_error, what_contains("index -4"));
        CHECK_FAILS(a(0, 4), ca::index_error, what_contains("index 4") && what_contains("axis 1"));
        CHECK_FAILS(a(ca::range(1, 5)), ca::index_error, what_contains("range stop 5"));
        CHECK_FAILS(a(ca::range(-5, 2)), ca::index_error, what_contains("range start -5"));
        CHECK_FAILS(a(ca::range(2, 0, -1), ca::range(4, 0, -1)), ca::index_error,
                    what_contains("range start 4") && what_contains("axis 1"));
        CHECK_FAILS(a(ca::all(), ca::range(0, 4, 0)), ca::index_error,
                    what_contains("step must not be zero"));
        CHECK_FAILS(a(0, 0, 0), ca::index_error, what_contains("too many indices: 3"));
        CHECK_FAILS(a(ca::ellipsis(), ca::all(), ca::all(), ca::all()), ca::index_error,
                    what_contains("too many indices"));
        CHECK_FAILS(a(ca::ellipsis(), 0, ca::ellipsis()), ca::index_error,
                    what_contains("at most one ellipsis"));
        // newaxis beyond max_dims (was accepted: a 17-d view that no kernel can take).
        const auto n = ca::newaxis();
        CHECK_FAILS(a(n, n, n, n, n, n, n, n, n, n, n, n, n, n, n), ca::index_error,
                    what_contains("more than 16 dimensions"));
        CHECK(a(n, n, n, n, n, n, n, n, n, n, n, n, n, n).dimension() == 16);
        // A view's bounds are its own, not its base's.
        auto r = a(ca::range(1, 3));
        CHECK_FAILS(r(2), ca::index_error, what_contains("extent 2"));

        // Huge steps select one element (the length and stride arithmetic overflowed before).
        auto s1 = a(0, ca::range(0, 4, std::numeric_limits<std::ptrdiff_t>::max()));
        CHECK(s1.shape() == ca::shape_type{1});
        auto s2 = a(0, ca::range(3, ca::none, std::numeric_limits<std::ptrdiff_t>::min()));
        CHECK(s2.shape() == ca::shape_type{1});
        CHECK(s2.offset() == 3);
        auto s3 = a(ca::range(0, 3, std::numeric_limits<std::ptrdiff_t>::max())); // stride 4 * step
        CHECK(s3.shape() == ca::shape_type{1, 4});
        CHECK((s3.get() == xt::zeros<T>({1, 4})));

        // transpose / squeeze / shape(axis)
        CHECK_FAILS(a.transpose({0, 0}), ca::index_error, what_contains("not a permutation"));
        CHECK_FAILS(a.transpose({0, 2}), ca::index_error, what_contains("[ 0 2 ]"));
        CHECK_FAILS(a.transpose({0}), ca::index_error, what_contains("(3, 4)"));
        CHECK_FAILS(ca::transpose(a, {1, 0, 2}), ca::index_error,
                    what_contains("not a permutation"));
        CHECK_FAILS(a.squeeze(0), ca::shape_error, what_contains("extent 3, not 1"));
        CHECK_FAILS(a.squeeze(2), ca::index_error, what_contains("axis 2 out of range"));
        // Was std::out_of_range from svector::at, outside the clarray::error family.
        CHECK_FAILS(a.shape(2), ca::index_error, what_contains("axis 2"));
        CHECK(a.shape(1) == 4);
    }
    require_unchanged(base);
}

TEMPLATE_LIST_TEST_CASE("bad input: scalars out of range for the operand dtype", "[errors]",
                        test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        auto i8 = ca::zeros<std::int8_t, S>(q, {4});
        auto u8 = ca::zeros<std::uint8_t, S>(q, {4});
        auto u64 = ca::zeros<std::uint64_t, S>(q, {4});
        // NumPy 2: a Python int that does not fit the array's integer type is an error.
        CHECK_FAILS(i8 + 1000, ca::dtype_error, what_contains("1000") && what_contains("int8"));
        CHECK_FAILS(u8 - (-1), ca::dtype_error, what_contains("-1") && what_contains("uint8"));
        CHECK_FAILS(u64 * -1, ca::dtype_error, what_contains("uint64"));
        CHECK_FAILS(i8 += 300, ca::dtype_error, what_contains("300"));
        CHECK((i8.get() == xt::zeros<std::int8_t>({4})));
        // The limits themselves are fine.
        ca::cl_array<std::int8_t, S> hi = i8 + 127;
        ca::cl_array<std::uint8_t, S> top = u8 + 255;
        CHECK(hi.get()(0) == 127);
        CHECK(top.get()(3) == 255);
    }
    require_unchanged(base);
}

TEMPLATE_LIST_TEST_CASE("bad input: kernel build and launch errors", "[errors]",
                        test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        // A syntax error: build_error with the compiler's log and the numbered source.
        const std::string bad = "kernel void k(global float* a) {\n  a[0] = 1\n}\n";
        CHECK_FAILS(ca::program(test::ctx(), bad), ca::build_error,
                    what_contains("CL_BUILD_PROGRAM_FAILURE") && what_contains("build log") &&
                        what_contains("   2|   a[0] = 1"));
        try {
            ca::program p(test::ctx(), bad);
        } catch (const ca::build_error& e) {
            CHECK(e.code() == CL_BUILD_PROGRAM_FAILURE);
            CHECK_THAT(e.log(), Contains("expected ';'"));
        }
        // Unknown build options: pocl says CL_INVALID_BUILD_OPTIONS, NVIDIA
        // CL_BUILD_PROGRAM_FAILURE with a log line; either way the message names the options.
        CHECK_FAILS(ca::program(test::ctx(), twice_source, "-cl-no-such-option"), ca::build_error,
                    what_contains("build options: -cl-no-such-option"));
        try {
            ca::program p(test::ctx(), twice_source, "-cl-no-such-option");
        } catch (const ca::build_error& e) {
            CHECK((e.code() == CL_INVALID_BUILD_OPTIONS || e.code() == CL_BUILD_PROGRAM_FAILURE));
        }

        ca::program prg(test::ctx(), twice_source);
        ca::kernel twice = prg.kernel("twice");
        ca::kernel scale = prg.kernel("scale");
        auto a = ca::arange<T, S>(q, T(0), T(8));
        // Too few, too many, wrongly sized arguments; a bad ndrange.
        CHECK_FAILS(twice(q, {8}), ca::cl_error,
                    what_contains("clEnqueueNDRangeKernel") &&
                        what_contains("CL_INVALID_KERNEL_ARGS"));
        CHECK_FAILS(twice(q, {8}, a, 1.0f), ca::cl_error, what_contains("CL_INVALID_ARG_INDEX"));
        CHECK_FAILS(scale(q, {8}, a, 2.0), ca::cl_error, what_contains("CL_INVALID_ARG_SIZE"));
        CHECK_FAILS(twice(q, ca::ndrange(), a), ca::cl_error,
                    what_contains("CL_INVALID_WORK_DIMENSION"));
        CHECK_FAILS((ca::ndrange{1, 2, 3, 4}), ca::usage_error, what_contains("1 to 3 sizes"));
        // An unbound array would be bound as NULL (was: a NULL argument, a crash in the kernel).
        A unbound;
        CHECK_FAILS(twice(q, {1}, unbound), ca::usage_error, what_contains("unbound"));
        // A Buffer view at an offset not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN cannot be a
        // sub-buffer; SVM views are passed as interior pointers.
        if constexpr (!S::is_svm)
            CHECK_FAILS(twice(q, {1}, a(ca::range(1, 8))), ca::usage_error,
                        what_contains("CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
        // After all that, the kernels still work.
        twice(q, {8}, a);
        scale(q, {8}, a, 0.5f);
        CHECK((a.get() == xt::arange<T>(0, 8)));
    }
    require_unchanged(base);
}

TEMPLATE_LIST_TEST_CASE("bad input: objects of two contexts are not mixed", "[errors]",
                        test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        ca::queue& q = test::q();
        ca::context other(test::ctx().device());
        ca::queue q2(other);
        auto a = ca::ones<T, S>(q, {8});
        auto c = ca::zeros<T, S>(q, {8});
        auto b = ca::zeros<T, S>(q2, {8});

        CHECK_FAILS(c = a + b, ca::usage_error, what_contains("different contexts"));
        CHECK_FAILS(b = a * 2.0f, ca::usage_error, what_contains("different contexts"));
        CHECK_FAILS((A(a + b)), ca::usage_error, what_contains("different contexts"));
        CHECK_FAILS(c += b, ca::usage_error, what_contains("different contexts"));
        // Was unchecked: the second output was bound in a kernel of the other context.
        CHECK_FAILS((ca::tie(c, b) = std::make_tuple(a + 1.0f, a + 2.0f)), ca::usage_error,
                    what_contains("tie: outputs from different contexts"));
        // Was unchecked: a device copy named memory of another context.
        CHECK_FAILS(c = b, ca::usage_error, what_contains("another context"));
        CHECK_FAILS(b = a, ca::usage_error, what_contains("another context"));
        CHECK_FAILS(a.with_queue(q2), ca::usage_error, what_contains("another context"));
        ca::kernel twice = ca::program(test::ctx(), twice_source).kernel("twice");
        CHECK_FAILS(twice(q2, {8}, b), ca::usage_error,
                    what_contains("queue from another context"));
        CHECK_FAILS(twice(q, {8}, b), ca::usage_error, what_contains("array from another context"));
        CHECK((c.get() == xt::zeros<T>({8})));
        CHECK((b.get() == xt::zeros<T>({8})));
        // Each context on its own works.
        b = b + 3.0f;
        c = a + 1.0f;
        CHECK((b.get() == xt::ones<T>({8}) * T(3)));
        CHECK((c.get() == xt::ones<T>({8}) * T(2)));
    }
    require_unchanged(base);
}

TEMPLATE_LIST_TEST_CASE("bad input: float64 on a device without fp64", "[errors]",
                        test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using S = typename TestType::storage;
    // The test device may well have fp64; CLARRAY_DISABLE_FP64 makes a device object report it
    // absent (read when the object is created), which is what a device without it reports.
    ::setenv("CLARRAY_DISABLE_FP64", "1", 1);
    ca::device dev(test::ctx().device().id());
    ::unsetenv("CLARRAY_DISABLE_FP64");
    REQUIRE_FALSE(dev.has_fp64());
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        ca::context ctx(dev, test::ctx().options());
        ca::queue q(ctx);
        // Storage and memory commands need no fp64.
        auto d = ca::zeros<double, S>(q, {4});
        auto f = ca::ones<float, S>(q, {4});
        CHECK_FAILS((ca::arange<double, S>(q, 0.0, 4.0)), ca::unsupported,
                    what_contains("float64") && what_contains("cl_khr_fp64"));
        CHECK_FAILS(d = d * 2.0, ca::unsupported,
                    what_contains("float64") && what_contains("astype"));
        // The output array is allocated, then the kernel is refused: nothing stays behind.
        CHECK_FAILS((ca::cl_array<double, S>(f + 1.0f)), ca::unsupported, what_contains("float64"));
        CHECK_FAILS(d(ca::range(0, 4, 2)).copy(), ca::unsupported, what_contains("float64"));
        CHECK((d.get() == xt::zeros<double>({4})));
        ca::cl_array<float, S> g = f * 2.0f; // float32 is fine
        CHECK((g.get() == xt::ones<float>({4}) * 2.0f));
    }
    require_unchanged(base);
    if (test::ctx().device().has_fp64()) { // the override, not the device, refused float64
        auto r = ca::arange<double, S>(test::q(), 0.0, 4.0);
        CHECK((r.get() == xt::arange<double>(0, 4)));
    }
}

TEMPLATE_LIST_TEST_CASE("bad input: oversized allocations", "[errors]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        const std::size_t n = test::ctx().device().max_alloc_size() / sizeof(T) + 1;
        CHECK_FAILS((ca::empty<T, S>(q, {n})), ca::out_of_memory,
                    what_contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
        CHECK_FAILS((ca::zeros<T, S>(q, {2, n / 2 + 1})), ca::out_of_memory,
                    what_contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
        CHECK_FAILS((ca::arange<T, S>(q, T(0), T(n) * 2)), ca::out_of_memory,
                    what_contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
        // Small operands whose broadcast result is far too large.
        auto col = ca::zeros<T, S>(q, {std::size_t(1) << 20, 1});
        auto row = ca::zeros<T, S>(q, {std::size_t(1) << 20});
        CHECK_FAILS((A(col + row)), ca::out_of_memory,
                    what_contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
        // Allocation still works afterwards.
        auto ok = ca::full<T, S>(q, {16}, T(7));
        CHECK(ok.get()(15) == T(7));
    }
    require_unchanged(base);
}

TEMPLATE_LIST_TEST_CASE("bad input: commands over active host maps", "[errors]",
                        test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        ca::kernel twice = ca::program(test::ctx(), twice_source).kernel("twice");
        auto a = ca::arange<T, S>(q, T(0), T(8));
        auto b = ca::zeros<T, S>(q, {8});
        if constexpr (S::kind == ca::storage_kind::svm_fine) {
            // Fine-grained SVM is coherent: it needs no unmap, and launching is allowed.
            auto hv = a.map(ca::access::read_write);
            CHECK_NOTHROW(twice(q, {8}, a));
        } else {
            {
                auto hv = a.map(ca::access::read_write);
                CHECK_FAILS(twice(q, {8}, a), ca::usage_error,
                            what_contains("kernel launch") &&
                                what_contains("active host write map"));
                CHECK_FAILS(b = a + 1.0f, ca::usage_error,
                            what_contains("expression evaluation") && what_contains("write map"));
                CHECK_FAILS(a = b, ca::usage_error, what_contains("write map"));
                CHECK_FAILS(a.fill(T(1)), ca::usage_error, what_contains("fill"));
                CHECK_FAILS(a.get(), ca::usage_error, what_contains("read to host"));
                CHECK_FAILS(a.set(std::vector<T>(8)), ca::usage_error,
                            what_contains("write from host"));
                CHECK_FAILS(a.map(ca::access::read), ca::usage_error, what_contains("host map"));
                // A view of the mapped memory: copy() allocates, then the copy is refused.
                CHECK_FAILS(a(ca::range(0, 8, 2)).copy(), ca::usage_error,
                            what_contains("write map"));
                CHECK_FAILS(a(ca::range(0, 4)).copy(), ca::usage_error, what_contains("write map"));
                hv(0) = T(42); // the map itself works
            }
            {
                auto hv = a.map(ca::access::read);
                // Writers are refused, readers may run.
                CHECK_FAILS(twice(q, {8}, a), ca::usage_error,
                            what_contains("active host read map"));
                CHECK_FAILS(a.fill(T(1)), ca::usage_error, what_contains("read map"));
                CHECK_NOTHROW(b = a + 1.0f);
                CHECK(hv(0) == T(42));
            }
            // Unmapped: everything works again.
            twice(q, {8}, a);
            xt::xarray<T> expect = xt::arange<T>(0, 8) * T(2);
            expect(0) = T(84);
            CHECK((a.get() == expect));
            CHECK(b.get()(0) == T(43));
        }
        // An unbound array has no memory to map (was: a host view over NULL).
        A unbound;
        CHECK_FAILS(unbound.map(), ca::usage_error, what_contains("unbound"));
    }
    require_unchanged(base);
}

TEMPLATE_LIST_TEST_CASE("bad input: unbound arrays", "[errors]", test::all_policies) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using A = typename TestType::array;
    ca::queue& q = test::q();
    const ca::allocation_stats base = ca::current_allocation_stats();
    {
        A u;
        auto a = ca::zeros<T, S>(q, {3});
        // Was: the strided copy kernel read a NULL argument.
        CHECK_FAILS(a = u, ca::usage_error, what_contains("unbound"));
        CHECK_FAILS(a = a + u, ca::usage_error, what_contains("unbound"));
        CHECK_FAILS(u.get(), ca::usage_error, what_contains("unbound"));
        CHECK_FAILS(u.set(std::vector<T>(1)), ca::usage_error, what_contains("unbound"));
        CHECK_FAILS(u.fill(T(1)), ca::usage_error, what_contains("unbound"));
        CHECK_FAILS(u.copy(), ca::usage_error, what_contains("unbound"));
        CHECK_FAILS(u.with_queue(q), ca::usage_error, what_contains("unbound"));
        CHECK_FAILS(u.reshape({1}), ca::usage_error, what_contains("unbound"));
        // A 0-d output and an unbound one (0-d too): was a kernel writing through NULL.
        auto s = ca::zeros<T, S>(q, ca::shape_type{});
        CHECK_FAILS((ca::tie(s, u) = std::make_tuple(s + 1.0f, s + 2.0f)), ca::usage_error,
                    what_contains("unbound"));
        CHECK(s.get()() == T(0));
        CHECK((a.get() == xt::zeros<T>({3})));
    }
    require_unchanged(base);
}

TEST_CASE("bad input: a setting outside its choices is a usage_error naming them", "[errors]") {
    const char* name = "CLARRAY_TEST_CHOICE_SETTING";
    ::unsetenv(name);
    CHECK(ca::detail::env_choice(name, {"pinned", "heap"}, 7) == 7);
    ::setenv(name, "", 1);
    CHECK(ca::detail::env_choice(name, {"pinned", "heap"}, 7) == 7);
    ::setenv(name, "heap", 1);
    CHECK(ca::detail::env_choice(name, {"pinned", "heap"}, 7) == 1);
    ::setenv(name, "Heap", 1);
    CHECK_THROWS_MATCHES(
        ca::detail::env_choice(name, {"pinned", "heap"}, 7), ca::usage_error,
        what_contains(std::string(name) + " must be one of pinned, heap; not 'Heap'"));
    ::unsetenv(name);
}
