#pragma once
// Obtaining device memory: the storage kinds and the interface that hands out raw blocks of them.
// The allocators themselves (clSVMAlloc / clCreateBuffer, fault injection for tests) are in
// memory/raw_allocator.hpp; context_options names the one its default pools use.
#include <cstddef>

#include "clarray/runtime/cl.hpp"

namespace clarray {

class context;

// The kinds of device memory: coarse-grained SVM, fine-grained SVM, cl_mem buffer.
enum class storage_kind : unsigned char { svm_coarse, svm_fine, buffer };
// The storage policy's name: "svm_coarse", "svm_fine" or "buffer".
const char* storage_name(storage_kind k) noexcept;

// A block of device memory: an SVM pointer or a cl_mem (one reference), or neither.
struct raw_block {
    // The SVM pointer of an SVM block.
    void* svm = nullptr;
    // The buffer of a cl_mem block.
    cl_mem mem = nullptr;
    // Whether the block holds memory.
    explicit operator bool() const noexcept { return svm != nullptr || mem != nullptr; }
};

// Where memory pools get their blocks from. Replaceable, so that tests can make the k-th
// allocation fail.
class raw_allocator {
public:
    virtual ~raw_allocator() = default;
    // A new block of `bytes` bytes of `kind`, or an empty block when the device is out of memory
    // (clSVMAlloc returned NULL, CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES): the pool
    // then releases what it holds and retries. Other failures throw. The block is released by the
    // library's release path (clSVMFree behind pending work, clReleaseMemObject).
    virtual raw_block allocate(const context& ctx, storage_kind kind, std::size_t bytes) = 0;
};

} // namespace clarray
