#pragma once
// RAII ownership of one OpenCL object reference (retain on copy, release on destruction).
#include <utility>

#include "clarray/runtime/cl.hpp"

namespace clarray::detail {

template <class T> struct cl_ref_traits;
#define CLARRAY_REF_TRAITS(T, retain_fn, release_fn)                                             \
    template <> struct cl_ref_traits<T> {                                                        \
        static void retain(T h) noexcept { retain_fn(h); }                                        \
        static void release(T h) noexcept { release_fn(h); }                                      \
    }
CLARRAY_REF_TRAITS(cl_context, clRetainContext, clReleaseContext);
CLARRAY_REF_TRAITS(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue);
CLARRAY_REF_TRAITS(cl_event, clRetainEvent, clReleaseEvent);
CLARRAY_REF_TRAITS(cl_program, clRetainProgram, clReleaseProgram);
CLARRAY_REF_TRAITS(cl_kernel, clRetainKernel, clReleaseKernel);
CLARRAY_REF_TRAITS(cl_mem, clRetainMemObject, clReleaseMemObject);
#undef CLARRAY_REF_TRAITS

template <class T> class handle {
public:
    handle() noexcept = default;
    // Takes ownership of one reference (the one a clCreate*/enqueue call returned).
    explicit handle(T raw) noexcept : raw_(raw) {}
    static handle retain(T raw) noexcept {
        if (raw) cl_ref_traits<T>::retain(raw);
        return handle(raw);
    }
    handle(const handle& o) noexcept : raw_(o.raw_) {
        if (raw_) cl_ref_traits<T>::retain(raw_);
    }
    handle(handle&& o) noexcept : raw_(std::exchange(o.raw_, nullptr)) {}
    handle& operator=(handle o) noexcept {
        std::swap(raw_, o.raw_);
        return *this;
    }
    ~handle() {
        if (raw_) cl_ref_traits<T>::release(raw_);
    }
    T get() const noexcept { return raw_; }
    T* out() noexcept { // for APIs that return through a pointer; drops the old reference
        *this = handle();
        return &raw_;
    }
    T release_ownership() noexcept { return std::exchange(raw_, nullptr); }
    explicit operator bool() const noexcept { return raw_ != nullptr; }
    friend bool operator==(const handle& a, const handle& b) noexcept { return a.raw_ == b.raw_; }
    friend bool operator!=(const handle& a, const handle& b) noexcept { return a.raw_ != b.raw_; }

private:
    T raw_ = nullptr;
};

} // namespace clarray::detail
