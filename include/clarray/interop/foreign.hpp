#pragma once
// Arrays over memory clarray did not allocate, and event ordering with code outside clarray.
//
// from_cl_mem, from_svm and from_host_ptr make a cl_array over another library's memory (a
// cl_mem, an SVM pointer of the same context, a host pointer on a CPU device) with any shape,
// strides and offset. The memory is an `allocation` like clarray's own: arrays and views share
// it, commands record their events on it, and when the last array is gone clarray drops its
// cl_mem reference and releases the owner (foreign_owner) after the last recorded command,
// without blocking (storage/allocation.hpp, detail::release_owner).
//
// Events both ways: ready_events(a, access) are what a foreign command over a's memory must wait
// for; wait_for(a, events, access) records foreign commands, so that clarray's later commands
// (and the release) follow them. docs/interop.md has the rules and examples.
#include <cstddef>
#include <memory>
#include <utility>

#include "clarray/array/cl_array.hpp"
#include "clarray/error.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/storage/policies.hpp"

namespace clarray {

// What keeps foreign memory valid: a shared owner (its last reference is dropped) or a release
// callback (called once). clarray keeps it until the last array over the memory and the last
// command recorded on it are done. The release may run on an OpenCL runtime thread (a completion
// callback), so it must not throw or call blocking OpenCL functions. Empty: the caller keeps
// the memory valid as long as clarray may use it (a cl_mem is retained by clarray anyway).
class foreign_owner {
public:
    // No owner.
    foreign_owner() = default;
    // Holds a reference to owner.
    foreign_owner(std::shared_ptr<void> owner) noexcept // NOLINT: implicit, as the common case
        : owner_(std::move(owner)) {}
    // Calls release(user_data) once, after the last use.
    foreign_owner(void (*release)(void* user_data), void* user_data);
    // The owner as a shared pointer (null when empty).
    const std::shared_ptr<void>& get() const noexcept { return owner_; }

private:
    std::shared_ptr<void> owner_;
};

// Where a foreign array's elements are: shape, strides in elements (empty: C-contiguous) and the
// offset of the first element in elements, from the start of the memory.
struct foreign_layout {
    // The extent of each axis.
    shape_type shape;
    // The step between neighbours along each axis, in elements (empty: C-contiguous).
    strides_type strides{};
    // The position of the first element, in elements from the start of the memory.
    std::ptrdiff_t offset = 0;
};

namespace detail {
// The memory a foreign array needs, checked: strides of the right rank (filled in when empty),
// every element within [0, bytes). Throws shape_error naming the layout and the size otherwise.
void check_foreign_layout(foreign_layout& l, std::size_t elem_size, std::size_t bytes,
                          const char* what);
// The allocations over a foreign cl_mem (retained; usage_error when of another context than q,
// shape_error when smaller than l needs), an SVM pointer (unsupported without that SVM kind,
// usage_error when not an SVM pointer of q's context) and a host pointer (unsupported unless
// q's device is a CPU, or, for fine SVM, has system SVM). Null for a layout without elements (the
// owner is released at once).
//@{
std::shared_ptr<allocation> wrap_cl_mem(const queue& q, cl_mem mem, foreign_layout& l,
                                        std::size_t elem_size, std::shared_ptr<void> owner);
std::shared_ptr<allocation> wrap_svm(const queue& q, storage_kind kind, void* svm,
                                     std::size_t bytes, foreign_layout& l, std::size_t elem_size,
                                     std::shared_ptr<void> owner);
std::shared_ptr<allocation> wrap_host_ptr(const queue& q, storage_kind kind, void* host,
                                          std::size_t bytes, foreign_layout& l,
                                          std::size_t elem_size, std::shared_ptr<void> owner);
//@}
// Records events as foreign commands of access acc on m (wait_for).
void record_foreign_events(allocation& m, const queue& q, const wait_list& events, access acc);
} // namespace detail

// An array of T over a foreign cl_mem of q's context (Buffer storage). clarray retains the
// cl_mem and releases `owner` after the last use. Errors: usage_error (null, another context),
// shape_error (the buffer does not cover the layout).
template <class T>
cl_array<T, buffer> from_cl_mem(const queue& q, cl_mem mem, foreign_layout layout,
                                foreign_owner owner = {}) {
    auto m = detail::wrap_cl_mem(q, mem, layout, sizeof(stored_t<T>), owner.get());
    return cl_array<T, buffer>(q, std::move(m), layout.shape, layout.strides, layout.offset);
}

// An array of T over `bytes` bytes of foreign SVM from clSVMAlloc in q's context (S: svm_coarse
// or svm_fine; on a device with system SVM, any host pointer with svm_fine). Pass the pointer
// clSVMAlloc returned and place the first element with layout.offset. Errors: unsupported (the
// device lacks that SVM kind), usage_error (null, not SVM of this context), shape_error.
template <class T, class S = svm_coarse>
cl_array<T, S> from_svm(const queue& q, void* svm, std::size_t bytes, foreign_layout layout,
                        foreign_owner owner = {}) {
    static_assert(S::is_svm,
                  "from_svm: S must be svm_coarse or svm_fine (from_cl_mem for buffers)");
    auto m = detail::wrap_svm(q, S::kind, svm, bytes, layout, sizeof(stored_t<T>), owner.get());
    return cl_array<T, S>(q, std::move(m), layout.shape, layout.strides, layout.offset);
}

// An array of T over `bytes` bytes of plain host memory, on a CPU device: Buffer storage through
// CL_MEM_USE_HOST_PTR (the device works in that memory), or svm_fine where the device has
// fine-grained system SVM. Errors: unsupported (not a CPU device; svm_fine without system
// SVM), usage_error (null), shape_error.
template <class T, class S = buffer>
cl_array<T, S> from_host_ptr(const queue& q, void* host, std::size_t bytes, foreign_layout layout,
                             foreign_owner owner = {}) {
    static_assert(!std::is_same_v<S, svm_coarse>,
                  "from_host_ptr: host memory is Buffer storage or (with system SVM) svm_fine");
    auto m =
        detail::wrap_host_ptr(q, S::kind, host, bytes, layout, sizeof(stored_t<T>), owner.get());
    return cl_array<T, S>(q, std::move(m), layout.shape, layout.strides, layout.offset);
}

// The events a command outside clarray must wait for before it touches a's memory with access
// acc (the last writers; for a write also the readers since). Their queues are flushed.
template <class T, class S>
wait_list ready_events(const cl_array<T, S>& a, access acc = access::read_write) {
    if (!a.bound()) throw usage_error("ready_events: unbound (default-constructed) array");
    return a.data() ? a.data()->uses_before(acc) : wait_list();
}

// Makes clarray wait for foreign commands that touch a's memory with access acc (their events):
// every later clarray command over the memory that must follow them waits for them, on any
// queue, and the memory's release does too.
template <class T, class S>
void wait_for(const cl_array<T, S>& a, const wait_list& events, access acc = access::read_write) {
    if (!a.bound()) throw usage_error("wait_for: unbound (default-constructed) array");
    if (a.data()) detail::record_foreign_events(*a.data(), a.get_queue(), events, acc);
}

// The memory of a as a cl_mem, for a library that takes buffers: a Buffer's own, or a Buffer over
// SVM memory (made once per allocation, allocation::as_buffer). The array's first element is at
// a.byte_offset() in it. Null for a zero-size array.
template <class T, class S> cl_mem buffer_of(const cl_array<T, S>& a) {
    if (!a.bound()) throw usage_error("buffer_of: unbound (default-constructed) array");
    return a.data() ? a.data()->as_buffer() : nullptr;
}

} // namespace clarray
