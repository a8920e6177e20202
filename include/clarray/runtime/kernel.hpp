#pragma once
// A kernel object with typed launching: every C++ argument becomes one launch_arg through
// kernel_arg<T> (arrays bind per storage policy, specialised in array/; scalars by value;
// local_memory<T>(n) as __local buffers), then the one launch path (runtime/launch.hpp) checks,
// orders, binds, enqueues and records.
#include <cstddef>
#include <cstdint>
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
#include "clarray/runtime/launch.hpp"

namespace clarray {

// A __local buffer of n elements of T as a kernel argument.
template <class T> struct local_memory {
    // Number of elements.
    std::size_t count;
    // A __local buffer of n elements.
    explicit local_memory(std::size_t n) : count(n) {}
};

// How one C++ argument becomes one kernel argument: `make` returns its launch_arg (which may
// point into the argument: it lives until the launch returns). Specialised for cl_array in array/.
template <class T, class = void> struct kernel_arg {
    static_assert(
        std::is_trivially_copyable_v<T> && !std::is_pointer_v<T>,
        "kernel arguments must be cl_array, local_memory<T> or trivially copyable values");
    // The argument passed by value (its bytes).
    static detail::launch_arg make(const T& v, const queue&) noexcept {
        return detail::launch_arg::value(&v, sizeof(T));
    }
};

// A local_memory<T> argument: a __local buffer of its size.
template <class T> struct kernel_arg<local_memory<T>> {
    // The argument: count * sizeof(T) bytes of __local memory.
    static detail::launch_arg make(const local_memory<T>& m, const queue&) noexcept {
        return detail::launch_arg::local(m.count * sizeof(T));
    }
};

// A kernel of a built program, launched with typed arguments: k(q, global, args...).
class kernel {
public:
    // Wraps the kernel k named name of a program of ctx (program::kernel makes them).
    kernel(const context& ctx, detail::handle<cl_kernel> k, std::string name);

    // Launch over `global` work-items (NULL local size). Returns the launch event.
    template <class... Args> event operator()(const queue& q, ndrange global, const Args&... args) {
        return launch(q, global, ndrange(), {}, args...);
    }
    // Full form: an explicit local size (dims == 0 means NULL) and extra events to wait for.
    template <class... Args>
    event launch(const queue& q, ndrange global, ndrange local, const wait_list& deps,
                 const Args&... args) const {
        const detail::launch_arg list[] = {kernel_arg<Args>::make(args, q)...,
                                           detail::launch_arg()};
        return detail::launch(q, *this, global, local.dims ? &local : nullptr, list,
                              sizeof...(Args), deps);
    }

    // The OpenCL kernel.
    cl_kernel get() const noexcept { return state_->k.get(); }
    // The kernel's function name.
    const std::string& name() const noexcept { return state_->name; }
    // The OpenCL context of the kernel's program.
    cl_context context_handle() const noexcept { return state_->ctx; }
    // Held while arguments are set and the kernel enqueued (cl_kernel is not thread-safe).
    std::mutex& argument_mutex() const noexcept { return state_->mutex; }
    // The cl_kernel for a pattern of SVM-bound arguments (bit i: argument i). One cl_kernel per
    // pattern: NVIDIA rejects a launch when an argument set with clSetKernelArgSVMPointer is
    // later set to a cl_mem (docs/internals/quirks.md). The caller holds argument_mutex().
    cl_kernel variant_for(std::uint64_t svm_mask) const;
    // CL_KERNEL_NUM_ARGS, queried once. The caller holds argument_mutex().
    cl_uint argument_count() const;

private:
    struct state {
        state(const context& c, detail::handle<cl_kernel> kh, std::string n)
            : ctx(c.get()), k(std::move(kh)), name(std::move(n)) {}
        // Not a clarray::context: kernels live in their context's cache, and a strong reference
        // would keep it alive forever. The cl_kernel keeps its program and context alive.
        cl_context ctx;
        detail::handle<cl_kernel> k;
        std::string name;
        std::mutex mutex;
        bool k_bound = false; // k's binding pattern is fixed once it launched
        std::uint64_t k_mask = 0;
        cl_uint arg_count = 0;
        bool arg_count_known = false;
        std::vector<std::pair<std::uint64_t, detail::handle<cl_kernel>>> variants;
    };
    std::shared_ptr<state> state_;
};

} // namespace clarray
