#include "clarray/memory/raw_allocator.hpp"

#include <string>

#include "clarray/error.hpp"
#include "clarray/runtime/context_state.hpp"

namespace clarray {

raw_block opencl_allocator::allocate(const context& ctx, storage_kind kind, std::size_t bytes) {
    raw_block b;
    if (kind == storage_kind::buffer) {
        cl_int rc = CL_SUCCESS;
        cl_mem m = clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE, bytes, nullptr, &rc);
        if (rc == CL_MEM_OBJECT_ALLOCATION_FAILURE || rc == CL_OUT_OF_RESOURCES ||
            rc == CL_OUT_OF_HOST_MEMORY)
            return b;
        detail::check_cl(rc, "clCreateBuffer");
        b.mem = m;
        return b;
    }
    const bool fine = kind == storage_kind::svm_fine;
    cl_svm_mem_flags flags = CL_MEM_READ_WRITE | (fine ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0);
    ctx.state().svm_frees.sweep(ctx.get()); // settle finished parked frees first
    b.svm = clSVMAlloc(ctx.get(), flags, bytes, 0);
    return b;
}

fault_injecting_allocator::fault_injecting_allocator(std::shared_ptr<raw_allocator> inner)
    : inner_(std::move(inner)) {
    if (!inner_) throw usage_error("fault_injecting_allocator: null inner allocator");
}

void fault_injecting_allocator::fail_call(std::uint64_t k) {
    if (k == 0) throw usage_error("fault_injecting_allocator::fail_call: calls count from 1");
    std::lock_guard<std::mutex> lock(mutex_);
    failing_.insert(k);
}

void fault_injecting_allocator::fail_from(std::uint64_t k) {
    if (k == 0) throw usage_error("fault_injecting_allocator::fail_from: calls count from 1");
    std::lock_guard<std::mutex> lock(mutex_);
    fail_from_ = k;
}

std::uint64_t fault_injecting_allocator::calls() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
}

std::uint64_t fault_injecting_allocator::failures() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return failures_;
}

raw_block fault_injecting_allocator::allocate(const context& ctx, storage_kind kind,
                                              std::size_t bytes) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        const std::uint64_t k = ++calls_;
        if (failing_.count(k) || (fail_from_ != 0 && k >= fail_from_)) {
            ++failures_;
            return {};
        }
    }
    return inner_->allocate(ctx, kind, bytes);
}

} // namespace clarray
