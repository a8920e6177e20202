#pragma once
// A kernel object with typed launching: arrays bind per storage policy, scalars by value,
// local_memory<T>(n) as __local buffers. A launch adds the arrays' pending events to its wait list
// and records its own event on them.
#include <array>
#include <cstdint>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/runtime/context.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/handle.hpp"
#include "clarray/runtime/queue.hpp"

namespace clarray {

// Up to 3 work sizes, e.g. {n} or {rows, cols}.
struct ndrange {
    cl_uint dims = 0;
    std::size_t sizes[3] = {1, 1, 1};
    ndrange() = default;
    ndrange(std::initializer_list<std::size_t> s) {
        if (s.size() == 0 || s.size() > 3) throw usage_error("ndrange: 1 to 3 sizes required");
        for (std::size_t v : s) sizes[dims++] = v;
    }
    ndrange(std::size_t n) : dims(1) { sizes[0] = n; } // NOLINT: implicit is the point
    std::size_t total() const noexcept { return sizes[0] * sizes[1] * sizes[2]; }
};

// A __local buffer of n elements of T as a kernel argument.
template <class T> struct local_memory {
    std::size_t count;
    explicit local_memory(std::size_t n) : count(n) {}
};

// How one C++ argument becomes one kernel argument. Specialised for cl_array in array/.
template <class T, class = void> struct kernel_arg {
    static_assert(std::is_trivially_copyable_v<T> && !std::is_pointer_v<T>,
                  "kernel arguments must be cl_array, local_memory<T> or trivially copyable values");
    static constexpr unsigned binding = 0; // 0: a value, 1: an SVM pointer, 2: a cl_mem
    static void check(const T&, const queue&) {}
    static void add_dependencies(const T&, const queue&, wait_list&) {}
    static detail::handle<cl_mem> set(cl_kernel k, cl_uint idx, const T& v) {
        detail::check_cl(clSetKernelArg(k, idx, sizeof(T), &v), "clSetKernelArg");
        return {};
    }
    static void record(const T&, const queue&, const event&) {}
};

template <class T> struct kernel_arg<local_memory<T>> {
    static constexpr unsigned binding = 0;
    static void check(const local_memory<T>&, const queue&) {}
    static void add_dependencies(const local_memory<T>&, const queue&, wait_list&) {}
    static detail::handle<cl_mem> set(cl_kernel k, cl_uint idx, const local_memory<T>& m) {
        detail::check_cl(clSetKernelArg(k, idx, m.count * sizeof(T), nullptr),
                         "clSetKernelArg(local)");
        return {};
    }
    static void record(const local_memory<T>&, const queue&, const event&) {}
};

// Kernels clarray has enqueued in this process (tests check one launch per assignment).
std::uint64_t kernel_launch_count() noexcept;

namespace detail {
event enqueue_nd_range(const queue& q, cl_kernel k, const ndrange& global, const ndrange* local,
                       const wait_list& deps);
}

class kernel {
public:
    kernel(const context& ctx, detail::handle<cl_kernel> k, std::string name);

    // Launch over `global` work-items (NULL local size). Returns the launch event.
    template <class... Args> event operator()(const queue& q, ndrange global, const Args&... args) {
        return launch(q, global, ndrange(), {}, args...);
    }
    // Full form: an explicit local size (dims == 0 means NULL) and extra events to wait for.
    template <class... Args>
    event launch(const queue& q, ndrange global, ndrange local, const wait_list& deps,
                 const Args&... args) {
        if (q.context().get() != state_->ctx)
            throw usage_error("kernel '" + state_->name + "': queue from another context");
        (kernel_arg<Args>::check(args, q), ...);
        wait_list wl = deps;
        (kernel_arg<Args>::add_dependencies(args, q, wl), ...);
        event e;
        {
            // clSetKernelArg is not thread-safe on one cl_kernel: hold it for set + enqueue.
            std::lock_guard<std::mutex> lock(state_->mutex);
            cl_kernel k = kernel_for_binding(svm_mask<Args...>());
            cl_uint idx = 0;
            std::array<detail::handle<cl_mem>, sizeof...(Args) + 1> keep_alive;
            ((keep_alive[idx] = kernel_arg<Args>::set(k, idx, args), ++idx), ...);
            e = detail::enqueue_nd_range(q, k, global, local.dims ? &local : nullptr, wl);
        }
        (kernel_arg<Args>::record(args, q, e), ...);
        return e;
    }

    cl_kernel get() const noexcept { return state_->k.get(); }
    const std::string& name() const noexcept { return state_->name; }
    // Held while arguments are set and the kernel enqueued (cl_kernel is not thread-safe).
    std::mutex& argument_mutex() const noexcept { return state_->mutex; }

private:
    // Which arguments are bound as SVM pointers (bit i for argument i).
    template <class... Args> static constexpr std::uint64_t svm_mask() {
        constexpr unsigned kinds[] = {kernel_arg<Args>::binding..., 0u};
        std::uint64_t m = 0;
        for (std::size_t i = 0; i < sizeof...(Args) && i < 64; ++i)
            if (kinds[i] == 1) m |= std::uint64_t(1) << i;
        return m;
    }
    // One cl_kernel per SVM/cl_mem binding pattern: NVIDIA rejects a launch when an argument set
    // with clSetKernelArgSVMPointer is later set to a cl_mem (docs/quirks.md). Caller holds mutex.
    cl_kernel kernel_for_binding(std::uint64_t mask);

    struct state {
        state(const context& c, detail::handle<cl_kernel> kh, std::string n)
            : ctx(c.get()), k(std::move(kh)), name(std::move(n)) {}
        // Not a clarray::context: kernels live in their context's caches, and a strong reference
        // would keep it alive forever. The cl_kernel keeps its program and context alive.
        cl_context ctx;
        detail::handle<cl_kernel> k;
        std::string name;
        std::mutex mutex;
        bool k_bound = false;      // k's binding pattern is fixed once it launched
        std::uint64_t k_mask = 0;
        std::vector<std::pair<std::uint64_t, detail::handle<cl_kernel>>> variants;
    };
    std::shared_ptr<state> state_;
};

} // namespace clarray
