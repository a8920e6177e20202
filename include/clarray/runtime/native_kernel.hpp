#pragma once
// Host functions as commands of a queue (clEnqueueNativeKernel). A CPU device's SVM is host
// memory, so a host library (the BLAS, a host sort) can work on arrays in place; as a native
// kernel it runs after a wait list and gives an event like any kernel, so it is ordered by the
// arrays' use records and never blocks the host. Only devices that run native kernels take it
// (device::runs_native_kernels).
#include <cstddef>

#include "clarray/runtime/event.hpp"
#include "clarray/runtime/queue.hpp"

namespace clarray::detail {

// A native kernel's function: it receives a copy of the arguments, and must not throw.
using native_function = void(CL_CALLBACK*)(void*);

// Enqueues fn on q after deps, with a copy of the `size` bytes at args (trivially copyable:
// OpenCL copies them), and returns its event. Throws cl_error naming `what` when the enqueue
// fails.
event enqueue_native(const queue& q, native_function fn, const void* args, std::size_t size,
                     const wait_list& deps, const char* what);

} // namespace clarray::detail
