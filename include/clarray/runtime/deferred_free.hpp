#pragma once
// SVM regions whose release waits for pending commands, freed later from a user thread.
//
// The portable release of SVM behind pending work is clEnqueueSVMFree. NVIDIA's driver crashes on
// such deferred frees, and freeing from an event callback (a driver thread) leaves later
// clSVMAlloc calls returning NULL (docs/internals/quirks.md). There, a release parks the pointer
// here with the events it must follow; each later allocation or release sweeps the list without
// blocking (a status query per event) and frees what is done. Only an allocation that fails waits
// for the parked frees before it retries, and the context's teardown waits for the rest.
// The owners of foreign memory (interop/foreign.hpp) are parked the same way on such drivers:
// releasing one may free SVM, which must not happen on a driver's callback thread there.
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "clarray/runtime/event.hpp"

namespace clarray::detail {

// Regions parked in all contexts of the process (diagnostics, leak checks).
std::int64_t parked_svm_frees_total() noexcept;

class deferred_svm_frees {
public:
    deferred_svm_frees() = default;
    deferred_svm_frees(const deferred_svm_frees&) = delete;
    deferred_svm_frees& operator=(const deferred_svm_frees&) = delete;

    // Frees `ptr` with clSVMFree once every event in `uses` has completed. Never blocks, never
    // throws (a failed list append frees after waiting: there is no other safe choice left).
    void park(cl_context ctx, void* ptr, wait_list uses) noexcept;
    // Releases `owner` (the lifetime handle of foreign memory) once every event in `uses` has
    // completed. Never blocks, never throws (as park).
    void park_owner(std::shared_ptr<void> owner, wait_list uses) noexcept;
    // Frees every parked region (and releases every parked owner) whose events have all
    // completed. Returns how many were released.
    std::size_t sweep(cl_context ctx) noexcept;
    // Waits for every parked region's events and frees them all (allocation failure, teardown).
    std::size_t drain(cl_context ctx) noexcept;

private:
    struct parked {
        void* ptr; // null for an owner
        wait_list uses;
        std::shared_ptr<void> owner;
    };
    static void release(cl_context ctx, parked& p) noexcept;
    std::mutex mutex_;
    std::vector<parked> parked_;
};

} // namespace clarray::detail
