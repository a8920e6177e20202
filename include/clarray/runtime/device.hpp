#pragma once
// A device and the capabilities clarray cares about, queried once.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "clarray/runtime/cl.hpp"

namespace clarray {

struct svm_capabilities {
    bool coarse = false;      // CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
    bool fine = false;        // CL_DEVICE_SVM_FINE_GRAIN_BUFFER
    bool fine_system = false; // CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
    bool atomics = false;     // CL_DEVICE_SVM_ATOMICS
};

class device {
public:
    device() = default;
    explicit device(cl_device_id id);

    cl_device_id id() const noexcept { return id_; }
    cl_platform_id platform() const noexcept;
    const std::string& name() const noexcept;
    const std::string& platform_name() const noexcept;
    const std::string& vendor() const noexcept;
    const std::string& version() const noexcept;        // CL_DEVICE_VERSION
    const std::string& driver_version() const noexcept; // CL_DRIVER_VERSION
    int opencl_version() const noexcept;                // e.g. 300 for "OpenCL 3.0"
    bool is_cpu() const noexcept;
    bool is_gpu() const noexcept;

    // Queried only for devices of OpenCL >= 2.0 (the query is invalid before); else all false.
    svm_capabilities svm_caps() const noexcept;
    bool has_fp64() const noexcept;
    // Whether CL_DEVICE_EXTENSIONS lists `name` (e.g. "cl_khr_fp16").
    bool has_extension(const std::string& name) const noexcept;
    std::size_t max_parameter_size() const noexcept;
    cl_ulong max_alloc_size() const noexcept;
    cl_ulong global_mem_size() const noexcept;
    std::size_t max_work_group_size() const noexcept;
    cl_uint compute_units() const noexcept;
    cl_uint mem_base_addr_align_bytes() const noexcept;

    // Per-platform workarounds (docs/internals/quirks.md), decided once from the platform/device
    // names.
    struct quirks_t {
        // How SVM still in use by pending commands is released: clEnqueueSVMFree behind them, or
        // parked and freed from a user thread once they are done (runtime/deferred_free.hpp).
        enum class svm_release { enqueue_free, park_until_done };
        svm_release pending_svm_release = svm_release::enqueue_free;
        // Contiguous device-to-device copies run as a kernel instead of clEnqueueSVMMemcpy /
        // clEnqueueCopyBuffer (pocl runs those on one thread).
        bool kernel_for_contiguous_copy = false;
        // Elements per work-item of contiguous elementwise kernels that call math functions
        // (sin, exp, pow...), on OpenCL vector types. CPU devices: 8, as pocl's work-group
        // vectoriser leaves such calls scalar while its vector builtins are SIMD
        // (docs/internals/performance.md, "Kernel shapes"); GPUs: 1. CLARRAY_VECTOR_WIDTH
        // overrides (1,2,4,8,16).
        std::size_t function_vector_width = 1;
        // Elements per work-item of contiguous (or row) expressions whose outputs, arrays and
        // values are all float16, through vload_halfN / vstore_halfN_rte: 2-byte accesses, one
        // per work-item, keep too few bytes in flight on GPUs, and pocl keeps its scalar
        // vload_half / vstore_half_rte calls unvectorised (docs/internals/quirks.md). GPUs and
        // CPUs: 4; other devices: 1. Taken only when every float16 operand starts at a multiple
        // of the width (pocl faults on vector accesses that are not).
        // CLARRAY_HALF_VECTOR_WIDTH overrides (1,2,4,8,16).
        std::size_t half_vector_width = 1;
        // The driver keeps built programs in a cache of its own, and reading a program's
        // binaries costs a compile of every kernel in it: clarray's on-disk program cache stays
        // out of the way (pocl, unless its cache is off with POCL_KERNEL_CACHE=0).
        bool driver_program_cache = false;
    };
    const quirks_t& quirks() const noexcept;

    friend bool operator==(const device& a, const device& b) noexcept { return a.id_ == b.id_; }
    friend bool operator!=(const device& a, const device& b) noexcept { return a.id_ != b.id_; }

    struct info; // defined in src/runtime/device.cpp

private:
    cl_device_id id_ = nullptr;
    std::shared_ptr<const info> info_;
};

// Every device of every platform, in platform order.
std::vector<device> all_devices();

// The device CLARRAY_DEVICE selects ("P:D" indices, or a case-insensitive substring of
// "<platform name> <device name>"); the first device when unset. Throws error when nothing matches.
device select_device(const char* selector);

} // namespace clarray
