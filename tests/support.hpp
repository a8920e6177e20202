#pragma once
// Shared test fixtures: one context and queue per process, type lists for parametrized tests.
#include "catch.hpp"

#include <clarray/clarray.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include "xtensor_headers.hpp"

namespace ca = clarray;

namespace test {

inline ca::context& ctx() {
    static ca::context c = ca::context::from_env();
    return c;
}
inline bool& shared_queue_made() {
    static bool made = false;
    return made;
}
inline ca::queue& q() {
    static ca::queue qq = [] {
        ca::queue made(ctx());
        shared_queue_made() = true;
        return made;
    }();
    return qq;
}
// Waits for the shared queue's commands if it was made (tests/run_end.cpp, at the run's end).
inline void finish_shared_queue() {
    if (shared_queue_made()) q().finish();
}

// A 1-d device array of policy S holding h (on queue qq).
template <class T, class S>
ca::cl_array<T, S> device_array(const ca::queue& qq, const std::vector<T>& h) {
    ca::cl_array<T, S> a(qq, {h.size()});
    a.set(xt::adapt(h, {h.size()}));
    return a;
}
// A host copy of a in C order as a flat vector (views come back through get()).
template <class A> std::vector<typename A::value_type> host_vector(const A& a) {
    using T = typename A::value_type;
    std::vector<T> v;
    if (a.size() == 0) return v;
    xt::xarray<T> h = a.get();
    v.assign(h.begin(), h.end());
    return v;
}

// Whether storage S can be allocated on the test device; prints why not (Catch2 2 has no SKIP).
template <class S> bool storage_available() {
    ca::svm_capabilities caps = ctx().svm_caps();
    bool ok = S::kind == ca::storage_kind::buffer ||
              (S::kind == ca::storage_kind::svm_coarse ? caps.coarse : caps.fine);
    if (!ok) WARN("skipped: device lacks " << S::name << " storage");
    return ok;
}
// Runs f(policy) for every storage policy the device offers (a policy value: svm_coarse{}...).
template <class F> void each_policy(F&& f) {
    if (storage_available<ca::svm_coarse>()) f(ca::svm_coarse{});
    if (storage_available<ca::svm_fine>()) f(ca::svm_fine{});
    f(ca::buffer{});
}
template <class T> bool dtype_available() {
    if (std::is_same_v<T, double> && !ctx().device().has_fp64()) {
        WARN("skipped: device lacks fp64");
        return false;
    }
    return true;
}

// One test parameter: element type x storage policy.
template <class T, class S> struct cfg {
    using value_type = T;
    using storage = S;
    using array = ca::cl_array<T, S>;
};

#define CLARRAY_POLICIES ca::svm_coarse, ca::svm_fine, ca::buffer

using all_policies =
    std::tuple<cfg<float, ca::svm_coarse>, cfg<float, ca::svm_fine>, cfg<float, ca::buffer>>;

// The dtype matrix on every policy: every dtype once, the policies rotating; a build configured
// with CLARRAY_TEST_FULL=1 (scripts/run-all-checks.sh full) adds float64, float32 and int32 on
// their other policies (the default build leaves them out: they compile and run as long as the
// rest of the matrix's entries together).
using dtype_matrix =
    std::tuple<cfg<bool, ca::svm_coarse>, cfg<std::int8_t, ca::svm_coarse>,
               cfg<std::uint8_t, ca::buffer>, cfg<std::int16_t, ca::svm_fine>,
               cfg<std::uint16_t, ca::svm_coarse>, cfg<std::int32_t, ca::buffer>,
               cfg<std::uint32_t, ca::svm_fine>, cfg<std::int64_t, ca::svm_coarse>,
               cfg<std::uint64_t, ca::buffer>, cfg<float, ca::svm_fine>, cfg<double, ca::svm_coarse>
#if CLARRAY_TEST_FULL_MATRIX
               ,
               cfg<double, ca::buffer>, cfg<float, ca::buffer>, cfg<std::int32_t, ca::svm_coarse>,
               cfg<std::int32_t, ca::svm_fine>
#endif
               >;

// A third of the dtype matrix for a test case of the default build: TEMPLATE_LIST_TEST_CASEs
// whose subject is not the dtypes (views, host views, factories) take CLARRAY_DTYPE_THIRD(k),
// k = 0, 1, 2 in turn through a file: entries of dtype_matrix, every storage policy in each
// third, every dtype in one (float in two), so a file of three or more such cases meets every
// dtype; a CLARRAY_TEST_FULL=1 build gives each case the whole matrix.
template <int K> struct dtype_third;
template <> struct dtype_third<0> {
    using type = std::tuple<cfg<bool, ca::svm_coarse>, cfg<std::int16_t, ca::svm_fine>,
                            cfg<std::int32_t, ca::buffer>, cfg<float, ca::svm_fine>>;
};
template <> struct dtype_third<1> {
    using type = std::tuple<cfg<std::int8_t, ca::svm_coarse>, cfg<std::uint32_t, ca::svm_fine>,
                            cfg<std::uint64_t, ca::buffer>, cfg<double, ca::svm_coarse>>;
};
template <> struct dtype_third<2> {
    using type = std::tuple<cfg<std::uint8_t, ca::buffer>, cfg<std::uint16_t, ca::svm_coarse>,
                            cfg<std::int64_t, ca::svm_coarse>, cfg<float, ca::svm_fine>>;
};
#if CLARRAY_TEST_FULL_MATRIX
#define CLARRAY_DTYPE_THIRD(k) test::dtype_matrix
#else
#define CLARRAY_DTYPE_THIRD(k) test::dtype_third<k>::type
#endif

// Deterministic random host data of any dtype (values small enough for exact integer math).
template <class T> xt::xarray<T> random_array(const ca::shape_type& shape, unsigned seed = 1) {
    std::mt19937_64 rng(seed);
    xt::xarray<T> a = xt::xarray<T>::from_shape(shape);
    for (auto& v : a) {
        if constexpr (std::is_same_v<T, bool>)
            v = (rng() & 1) != 0;
        else if constexpr (std::is_floating_point_v<T>)
            v = static_cast<T>(std::uniform_real_distribution<double>(-10, 10)(rng));
        else if constexpr (std::is_signed_v<T>)
            v = static_cast<T>(static_cast<int>(rng() % 200) - 100);
        else
            v = static_cast<T>(rng() % 200);
    }
    return a;
}

template <class S> bool skip_unless() {
    return !storage_available<S>();
}

// A user event that holds back the commands enqueued behind it (event() in their wait list), to
// check that the calls enqueued after them return without waiting on the host: a call that waited
// would never return, so a watchdog thread opens the gate after `limit` and the calls count as
// blocked. release(), called once the calls under test have returned, stops the watchdog and
// opens the gate; the destructor does the same when a failure skipped release().
class host_wait_gate {
public:
    explicit host_wait_gate(const ca::context& ctx,
                            std::chrono::seconds limit = std::chrono::seconds(60))
        : gate_(make_gate(ctx)), watchdog_([this, limit] {
              std::unique_lock<std::mutex> lock(m_);
              if (!cv_.wait_for(lock, limit, [this] { return returned_; })) {
                  blocked_ = true;
                  clSetUserEventStatus(gate_, CL_COMPLETE);
              }
          }) {}
    host_wait_gate(const host_wait_gate&) = delete;
    host_wait_gate& operator=(const host_wait_gate&) = delete;
    ~host_wait_gate() {
        if (watchdog_.joinable()) {
            stop_watchdog();
            if (!blocked_) clSetUserEventStatus(gate_, CL_COMPLETE);
        }
        clReleaseEvent(gate_);
    }

    // The gate, for the wait list of the commands it holds back.
    ca::event event() const { return ca::event::retain(gate_); }
    // Whether the calls under test returned before the watchdog had to open the gate.
    bool release() {
        if (watchdog_.joinable()) {
            stop_watchdog();
            if (!blocked_) REQUIRE(clSetUserEventStatus(gate_, CL_COMPLETE) == CL_SUCCESS);
        }
        return !blocked_;
    }

private:
    static cl_event make_gate(const ca::context& ctx) {
        cl_int rc = CL_SUCCESS;
        cl_event gate = clCreateUserEvent(ctx.get(), &rc);
        REQUIRE(rc == CL_SUCCESS);
        return gate;
    }
    void stop_watchdog() {
        {
            std::lock_guard<std::mutex> lock(m_);
            returned_ = true;
        }
        cv_.notify_one();
        watchdog_.join();
    }

    cl_event gate_;
    std::mutex m_;
    std::condition_variable cv_;
    bool returned_ = false, blocked_ = false;
    std::thread watchdog_; // last: starts once the members it uses exist
};

} // namespace test

#define CLARRAY_REQUIRE_CFG(C)                                                                     \
    do {                                                                                           \
        if (!test::storage_available<typename C::storage>() ||                                     \
            !test::dtype_available<typename C::value_type>())                                      \
            return;                                                                                \
    } while (0)

// Element-wise equality of two xtensor expressions (same shape and values), printing both on
// failure.
#define CHECK_ARRAY_EQ(got, want)                                                                  \
    do {                                                                                           \
        const auto& ca_got_ = (got);                                                               \
        const auto& ca_want_ = (want);                                                             \
        const bool ca_equal_ = (ca_got_ == ca_want_);                                              \
        if (!ca_equal_) UNSCOPED_INFO("got:\n" << ca_got_ << "\nwant:\n" << ca_want_);             \
        CHECK(ca_equal_);                                                                          \
    } while (0)
