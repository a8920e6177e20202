#pragma once
// A device and the capabilities clarray cares about, queried once.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "clarray/runtime/cl.hpp"

namespace clarray {

// The kinds of shared virtual memory a device supports (CL_DEVICE_SVM_CAPABILITIES).
struct svm_capabilities {
    // Coarse-grained SVM buffers (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER).
    bool coarse = false;
    // Fine-grained SVM buffers (CL_DEVICE_SVM_FINE_GRAIN_BUFFER).
    bool fine = false;
    // Fine-grained system SVM: any host pointer (CL_DEVICE_SVM_FINE_GRAIN_SYSTEM).
    bool fine_system = false;
    // SVM atomics shared with the host (CL_DEVICE_SVM_ATOMICS).
    bool atomics = false;
};

// An OpenCL device and the properties clarray uses, queried once; copies are cheap.
class device {
public:
    // No device (null id).
    device() = default;
    // The device of an OpenCL id; queries its properties.
    explicit device(cl_device_id id);

    // The OpenCL device id.
    cl_device_id id() const noexcept { return id_; }
    // The OpenCL platform the device belongs to.
    cl_platform_id platform() const noexcept;
    // The device name (CL_DEVICE_NAME).
    const std::string& name() const noexcept;
    // The platform name (CL_PLATFORM_NAME).
    const std::string& platform_name() const noexcept;
    // The device vendor (CL_DEVICE_VENDOR).
    const std::string& vendor() const noexcept;
    // The device's OpenCL version string (CL_DEVICE_VERSION).
    const std::string& version() const noexcept;
    // The driver version string (CL_DRIVER_VERSION).
    const std::string& driver_version() const noexcept;
    // The device's OpenCL version as a number, e.g. 300 for "OpenCL 3.0".
    int opencl_version() const noexcept;
    // Whether the device is a CPU (CL_DEVICE_TYPE_CPU).
    bool is_cpu() const noexcept;
    // Whether the device is a GPU (CL_DEVICE_TYPE_GPU).
    bool is_gpu() const noexcept;

    // Queried only for devices of OpenCL >= 2.0 (the query is invalid before); else all false.
    svm_capabilities svm_caps() const noexcept;
    // Whether the device computes in double (float64 and complex128 kernels).
    bool has_fp64() const noexcept;
    // Whether float32 division and sqrt can be correctly rounded: CL_DEVICE_SINGLE_FP_CONFIG has
    // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT (OpenCL only requires 2.5 ulp for x / y, 3 for sqrt).
    bool correctly_rounded_divide_sqrt() const noexcept;
    // Whether CL_DEVICE_EXTENSIONS lists `name` (e.g. "cl_khr_fp16").
    bool has_extension(const std::string& name) const noexcept;
    // Most bytes of arguments a kernel may take (CL_DEVICE_MAX_PARAMETER_SIZE).
    std::size_t max_parameter_size() const noexcept;
    // Largest single allocation in bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
    cl_ulong max_alloc_size() const noexcept;
    // Global memory in bytes (CL_DEVICE_GLOBAL_MEM_SIZE).
    cl_ulong global_mem_size() const noexcept;
    // Most work-items in a work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE).
    std::size_t max_work_group_size() const noexcept;
    // Number of compute units (CL_DEVICE_MAX_COMPUTE_UNITS).
    cl_uint compute_units() const noexcept;
    // Local memory of a work-group in bytes (CL_DEVICE_LOCAL_MEM_SIZE).
    cl_ulong local_mem_size() const noexcept;
    // The alignment in bytes a Buffer sub-region's origin needs (CL_DEVICE_MEM_BASE_ADDR_ALIGN
    // converted from bits).
    cl_uint mem_base_addr_align_bytes() const noexcept;

    // Per-platform workarounds (docs/internals/quirks.md), decided once from the platform/device
    // names.
    struct quirks_t {
        // How SVM still in use by pending commands is released: clEnqueueSVMFree behind them, or
        // parked and freed from a user thread once they are done (runtime/deferred_free.hpp).
        enum class svm_release { enqueue_free, park_until_done };
        // How this platform releases SVM that pending commands still use.
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
        // The OpenCL C statement that makes a work-item's earlier global stores visible to every
        // work-group before its later atomics (one-pass reductions publish partials this way).
        // mem_fence(CLK_GLOBAL_MEM_FENCE) does on most drivers; NVIDIA's orders only within the
        // work-group (membar.cta), so there it is PTX's device-wide membar.gl
        // (docs/internals/quirks.md).
        const char* device_fence = "mem_fence(CLK_GLOBAL_MEM_FENCE)";
        // Kernels may use PTX's warp instructions (match.any.sync, bar.warp.sync, %lanemask_lt)
        // through inline assembly, work-items 32 l ... 32 l + 31 of a group forming one warp:
        // NVIDIA devices of compute capability 7.0 and later. The radix sort can rank its tiles
        // by warps with them (CLARRAY_SORT_RANK=warp, docs/sorting.md).
        bool ptx_warp_match = false;
        // The build option that caps the registers of a work-item, followed by the number
        // (NVIDIA's -cl-nv-maxrregcount=, cl_nv_compiler_options), or null: the radix sort's
        // kernels trade registers for work-groups resident on a compute unit.
        const char* register_cap_option = nullptr;
        // The build option of the library's programs that makes float32 `/` and sqrt correctly
        // rounded, as NumPy's (and the host's) are: -cl-fp32-correctly-rounded-divide-sqrt where
        // the device reports the capability (correctly_rounded_divide_sqrt()), else null (the
        // spec's 2.5 and 3 ulp). CLARRAY_FP32_DIVIDE_SQRT=fast leaves it out (measurements).
        const char* fp32_divide_sqrt_option = nullptr;
    };
    // The workarounds this device's platform needs.
    const quirks_t& quirks() const noexcept;

    // Whether a and b are the same OpenCL device.
    //@{
    friend bool operator==(const device& a, const device& b) noexcept { return a.id_ == b.id_; }
    friend bool operator!=(const device& a, const device& b) noexcept { return a.id_ != b.id_; }
    //@}

    // The queried properties (defined in src/runtime/device.cpp).
    struct info;

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
