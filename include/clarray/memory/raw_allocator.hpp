#pragma once
// The allocators memory pools get their blocks from (raw_allocator, runtime/device_memory.hpp):
// clSVMAlloc / clCreateBuffer by default; fault_injecting_allocator makes the k-th call fail.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/device_memory.hpp"

namespace clarray {

// clSVMAlloc (SVM kinds) or clCreateBuffer(CL_MEM_READ_WRITE).
class opencl_allocator final : public raw_allocator {
public:
    raw_block allocate(const context& ctx, storage_kind kind, std::size_t bytes) override;
};

// Forwards to another allocator, except on the calls chosen to fail, which report out of memory
// without calling it. Calls are numbered from 1. Thread-safe.
class fault_injecting_allocator final : public raw_allocator {
public:
    // Forwards the calls that do not fail to inner.
    explicit fault_injecting_allocator(
        std::shared_ptr<raw_allocator> inner = std::make_shared<opencl_allocator>());
    // Call k (1-based, counting from the start) fails.
    void fail_call(std::uint64_t k);
    // Every call from k on fails (k = calls() + 1: all later ones).
    void fail_from(std::uint64_t k);
    // Calls made so far, failed ones included.
    std::uint64_t calls() const;
    // Calls made to fail so far.
    std::uint64_t failures() const;

    raw_block allocate(const context& ctx, storage_kind kind, std::size_t bytes) override;

private:
    std::shared_ptr<raw_allocator> inner_;
    mutable std::mutex mutex_;
    std::set<std::uint64_t> failing_;
    std::uint64_t fail_from_ = 0; // 0: none
    std::uint64_t calls_ = 0;
    std::uint64_t failures_ = 0;
};

} // namespace clarray
