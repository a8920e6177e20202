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
    // Whether the device runs host functions as commands (CL_DEVICE_EXECUTION_CAPABILITIES has
    // CL_EXEC_NATIVE_KERNEL): pocl's CPU devices do, GPUs' drivers do not.
    bool runs_native_kernels() const noexcept;
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
        // by warps with them (tuning_t::sort_rank, docs/sorting.md).
        bool ptx_warp_match = false;
        // Kernels may add floats atomically with PTX's red.global.add.f32 / .f64 through inline
        // assembly (NVIDIA, compute capability 6.0 and later). OpenCL 1.2 has no float atomics,
        // and the compare-and-swap loop that stands in for them serialises badly where many
        // work-items add to few addresses: add_at of 4M rows into 32 took 9.4 s on an H100.
        // CLARRAY_FLOAT_ATOMICS=cas keeps the loop (tests, measurements).
        bool ptx_float_atomics = false;
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

    // Tuned kernel parameters: one table per device (docs/internals/tuning.md), filled once when
    // the device object is made from the device's kind (kind_t) and its quirks; every kernel
    // family reads its parameters here. Each field names the variable that overrides it, for
    // experiments only (read when a device object is made; a bad value throws usage_error naming
    // the variable and what it accepts). Figures are medians of the runs docs/sorting.md,
    // docs/reductions.md and docs/internals/ name; "not measured" marks a default.
    struct tuning_t {
        // The column of the table a device takes.
        enum class kind_t {
            // A GPU of NVIDIA's OpenCL platform.
            nvidia_gpu,
            // Any other GPU.
            gpu,
            // A CPU device (pocl).
            cpu,
            // Any other device type (accelerators, custom devices).
            other
        };
        // How the radix sort ranks a tile (kernels/sort.cl, SORT_RANK_WARP).
        enum class sort_rank_t {
            // Two 4-bit local splits, each a work-group scan with its barriers.
            split,
            // One step per warp: PTX's match.any where the device has it
            // (quirks_t::ptx_warp_match), elsewhere work-group barriers standing in for the warp
            // instructions (slow: tests the algorithm).
            warp,
            // The warp algorithm with work-group barriers on every device (tests).
            barrier
        };
        // Where the raise-mode index checks' reads before a host wait land.
        enum class staging_t {
            // A mapped CL_MEM_ALLOC_HOST_PTR buffer (page-locked where the device offers it).
            pinned,
            // Heap memory.
            heap
        };

        // The column the table was filled from. CLARRAY_PLAN_AS_GPU=0|1: 1 takes the GPU
        // column on a CPU or other device, which then reports itself a GPU to every plan
        // (cooperative reductions, no math-function vector kernels): runs the GPU code paths
        // on pocl (tests).
        kind_t kind = kind_t::other;

        // Elements per work-item of contiguous (or row) expressions of one float type that call
        // math functions (sin, exp, pow...), on OpenCL vector types. CPU: 8, as pocl's
        // vectoriser leaves such calls scalar while its float8 builtins are SIMD (d = a*b +
        // c*sin(e) ran at 2.0 GB/s one element per work-item, 14.9 GB/s at 8;
        // docs/internals/quirks.md). GPUs and other devices: 1 (default, not measured).
        // CLARRAY_VECTOR_WIDTH: 1, 2, 4, 8 or 16.
        std::size_t function_vector_width = 1;
        // Elements per work-item of contiguous (or row) expressions whose outputs, arrays and
        // values are all float16 (vload_halfN / vstore_halfN_rte), taken only where every
        // float16 operand starts at a multiple of it. GPUs and CPUs: 4. pocl, c = a + b at
        // 1.6e7, widths 1 / 2 / 4 / 8: 36.7 / 33.6 / 4.44 / 4.10 ms (float32: 6.9 ms); H100:
        // float16 add 1.31x faster than float32 at one element per work-item, 1.78x at 4
        // (docs/internals/tuning.md, performance.md). Other devices: 1 (default, not measured).
        // CLARRAY_HALF_VECTOR_WIDTH: 1, 2, 4, 8 or 16.
        std::size_t half_vector_width = 1;
        // Counter blocks of a random draw per work-item (kernels/random.cl). CPU: 8, where
        // Philox's rounds then run on 8-lane vectors (pocl left its work-item loop around the
        // rounds scalar): a uniform draw of 2^20 float32 on pocl took 2.0-2.4 ms instead of
        // 4.2 (with the rounds inlined, 2.7). GPUs and other devices: 1 (a GPU's stores stay
        // coalesced; default, not measured). CLARRAY_RANDOM_ITEM_BLOCKS: 1, 2, 4, 8 or 16.
        std::size_t random_item_blocks = 1;
        // Strided and row element-wise kernels do their row arithmetic (unravelling the row
        // index, the row offsets) in 32 bits where the element count and every operand's
        // reachable offset fit below 2^31, as CuPy indexes; else, and with it off, in 64 bits
        // (docs/internals/elementwise.md). On for GPUs: on an H100 the workload benchmark ran
        // 5.7% faster (geometric mean of 8 workloads; heat, outer and layernorm 7-11%), the
        // single operations alike. Off elsewhere: pocl measures both alike (within noise), so
        // the 64-bit kernels stay. CLARRAY_INDEX32=0|1.
        bool index32 = false;

        // Reductions (src/reduce/plan.cpp). The GPU plan's parameters below serve every device
        // that is not a CPU (CPUs plan shapes of their own); all were measured on an H200.
        // Loads in flight per work-item of cooperative (full) reductions: 4. sum of 1.6e7
        // floats, 1 / 2 / 4 / 8 lanes: 52.5 / 42.2 / 43.5 / 43.5 us (one noisy run each).
        // CLARRAY_GPU_REDUCE_LANES: 1, 2, 4 or 8.
        std::size_t reduce_lanes = 4;
        // Work-groups per compute unit of cooperative reductions: 8. sum of 1.6e7 floats
        // (4 lanes), 4 / 8 / 16 / 32: 41.8 / 38.8 / 45.5 / 47.5 us (one noisy run each).
        // CLARRAY_GPU_REDUCE_GROUPS_PER_CU: 1 to 64.
        std::size_t reduce_groups_per_cu = 8;
        // Reduced steps in flight per work-item when a work-item makes one output (the outputs
        // shape, e.g. a column sum): 8. Column sum of 11313 x 11313, 4 / 8 steps: 305 / 154 us.
        // CLARRAY_GPU_OUTPUT_STEPS: 1, 2, 4, 8 or 16.
        std::size_t output_steps = 8;
        // Work-items in flight per compute unit of the outputs shape: 2048 (default, not
        // measured). CLARRAY_GPU_OUTPUT_ITEMS_PER_CU: 64 or more.
        std::size_t output_items_per_cu = 2048;
        // Output count from which stage 2 runs a work-item per output instead of a work-group:
        // 1024. Column sum of 1.28e8 elements: 308 us item per output against 317 us group per
        // output (stage 1 dominates). CLARRAY_GPU_STAGE2_ITEMS_FROM: 1 or more.
        std::size_t stage2_items_from = 1024;
        // Reductions split in parts finish in one launch (the last unit of an output combines
        // the partials) instead of a second kernel: on, every device. H200: sum of 1e5 floats
        // 36.3 -> 19.9 us, column sum of 1000 x 1000 38.5 -> 22.6 us (docs/reductions.md); CPUs:
        // default, not measured. CLARRAY_ONE_PASS=0|1.
        bool one_pass = true;

        // Radix sort (src/sort/sort.cpp, docs/sorting.md); H100 figures: 1.6e7 keys.
        // Work-items of a radix work-group (halved to the device's limit): 256, every device.
        // H100: 128 was slower (no figure recorded); elsewhere default, not measured.
        // CLARRAY_SORT_WG: a power of two, 32 to 512.
        std::size_t sort_group_size = 256;
        // Elements per work-item of a radix tile in sorts of keys only (cut to the local memory
        // and to tiles below 65536 elements). Under a register cap (sort_registers) 14:
        // float32 / uint32 sort 0.886-0.891 / 0.939-0.949 ms, against 0.907-0.951 /
        // 0.970-0.989 ms at 16 and 0.944 / 1.059 ms at 12. Without a cap 16 (H100: 8 and 12
        // slower; elsewhere default, not measured). CLARRAY_SORT_ITEMS: 1 to 64 (both counts).
        std::size_t sort_items_keys_only = 16;
        // Elements per work-item of a radix tile where positions travel (argsort, axis sorts,
        // unique). Under a register cap 12: float32 argsort 1.19-1.23 ms, against 1.28-1.30 ms
        // at 14 and 1.49-1.53 ms at 15-16. Without a cap 16 (cut to 15 by the local memory for
        // 32-bit keys; default, not measured). CLARRAY_SORT_ITEMS: 1 to 64 (both counts).
        std::size_t sort_items_with_positions = 16;
        // How tiles are ranked. warp where the device has PTX's warp instructions
        // (quirks_t::ptx_warp_match): float32 sort 1.35 against 1.47 ms by the splits, argsorts
        // 10-18% faster, uint32 sort level. Elsewhere split (the warp algorithm needs them).
        // CLARRAY_SORT_RANK=split|warp|barrier.
        sort_rank_t sort_rank = sort_rank_t::split;
        // 1-d sorts below 2^30 elements take the onesweep passes (one histogram kernel, then
        // one kernel per pass with decoupled look-back). On every device but CPUs: float32
        // sort 1.49 ms against 2.30-2.39 ms by three kernels a pass, uint32 1.50 against 1.50.
        // CPUs: off, as groups spinning on their predecessors share few cores (not measured).
        // CLARRAY_SORT_ONESWEEP=0|1.
        bool sort_onesweep = false;
        // Most work-groups per compute unit of the three-kernel radix passes: 4, every device.
        // H100 (three-kernel passes, when they were the GPU default): float32 / uint32 sort
        // 2.39 / 1.50 ms at 4, 2.31 / 1.33 ms at 16; elsewhere default, not measured.
        // CLARRAY_SORT_GROUPS_PER_CU: 1 to 64.
        std::size_t sort_groups_per_cu = 4;
        // The cap on registers per work-item of the sort's kernels, 0 for none: 64 where the
        // device takes a cap (quirks_t::register_cap_option, NVIDIA): float32 / uint32 sort
        // 0.91 / 0.97-0.99 ms at 64, 0.96 / 1.00 ms uncapped, 0.97 / 1.00 at 56, 1.04 / 1.06 at
        // 48. Elsewhere 0 (no cap can be set). CLARRAY_SORT_REGISTERS: 0, or 16 to 255.
        std::size_t sort_registers = 0;

        // Products (matmul, dot, vdot, inner, outer, tensordot) of SVM arrays through the
        // host's BLAS (OpenBLAS, where the library was built with it) in a native kernel of
        // the queue, on the SVM memory itself (src/linalg/host_blas.cpp): on CPU devices, whose
        // SVM is host memory. pocl, 2 cores, sgemm 256 / 1024: see docs/internals/tuning.md.
        // Elsewhere off (a GPU's memory is not the host's). CLARRAY_HOST_BLAS=0|1.
        bool host_blas = false;
        // sort and argsort of SVM arrays as a host radix sort in a native kernel of the queue,
        // on the SVM memory itself (src/sort/host_sort.cpp): on CPU devices, where the radix
        // kernels' barriers and local memory run as loops on few cores. pocl, 2 cores, argsort of
        // 1e6 float32: see docs/sorting.md. Elsewhere off. CLARRAY_HOST_SORT=0|1.
        bool host_sort = false;

        // Index checks (src/runtime/device_checks.cpp): pinned, every device. H100, take / put in
        // raise mode at 1.6e7: 220.3 / 973.9 us pinned, 263.6 / 1073.9 us heap (raw kernels
        // 198.5 / 907.6 us); CPUs: default, not measured. CLARRAY_INDEX_CHECK_STAGING=pinned|heap.
        staging_t device_check_staging = staging_t::pinned;
    };
    // The tuned kernel parameters of this device.
    const tuning_t& tuning() const noexcept;

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
