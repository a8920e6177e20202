#include "clarray/runtime/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <CL/cl_ext.h>
#include <cstdio>

#include "clarray/error.hpp"
#include "clarray/runtime/env.hpp"
#include "clarray/runtime/tuning.hpp"

namespace clarray {

struct device::info {
    cl_platform_id platform = nullptr;
    std::string name, platform_name, vendor, version, driver_version;
    int cl_version = 0;
    cl_device_type type = 0;
    svm_capabilities svm;
    bool fp64 = false;
    bool fp32_divide_sqrt = false; // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT
    bool native_kernels = false;   // CL_EXEC_NATIVE_KERNEL
    std::string extensions;        // CL_DEVICE_EXTENSIONS, space separated
    std::size_t max_param = 0;
    cl_ulong max_alloc = 0;
    cl_ulong global_mem = 0;
    std::size_t max_wg = 0;
    cl_uint units = 0;
    cl_ulong local_mem = 0;
    cl_uint base_align_bits = 0;
    device::quirks_t quirks;
    device::tuning_t tuning;
};

namespace {

std::string device_string(cl_device_id id, cl_device_info what) {
    std::size_t n = 0;
    detail::check_cl(clGetDeviceInfo(id, what, 0, nullptr, &n), "clGetDeviceInfo");
    std::string s(n, '\0');
    detail::check_cl(clGetDeviceInfo(id, what, n, s.data(), nullptr), "clGetDeviceInfo");
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

std::string platform_string(cl_platform_id id, cl_platform_info what) {
    std::size_t n = 0;
    detail::check_cl(clGetPlatformInfo(id, what, 0, nullptr, &n), "clGetPlatformInfo");
    std::string s(n, '\0');
    detail::check_cl(clGetPlatformInfo(id, what, n, s.data(), nullptr), "clGetPlatformInfo");
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

template <class T> T device_value(cl_device_id id, cl_device_info what) {
    T v{};
    detail::check_cl(clGetDeviceInfo(id, what, sizeof(T), &v, nullptr), "clGetDeviceInfo");
    return v;
}

int parse_cl_version(const std::string& v) { // "OpenCL 3.0 ..."
    int major = 0, minor = 0;
    if (std::sscanf(v.c_str(), "OpenCL %d.%d", &major, &minor) != 2) return 0;
    return major * 100 + minor * 10;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

device::device(cl_device_id id) : id_(id) {
    auto i = std::make_shared<info>();
    i->platform = device_value<cl_platform_id>(id, CL_DEVICE_PLATFORM);
    i->name = device_string(id, CL_DEVICE_NAME);
    i->platform_name = platform_string(i->platform, CL_PLATFORM_NAME);
    i->vendor = device_string(id, CL_DEVICE_VENDOR);
    i->version = device_string(id, CL_DEVICE_VERSION);
    i->driver_version = device_string(id, CL_DRIVER_VERSION);
    i->cl_version = parse_cl_version(i->version);
    i->type = device_value<cl_device_type>(id, CL_DEVICE_TYPE);
    if (i->cl_version >= 200) {
        auto caps = device_value<cl_device_svm_capabilities>(id, CL_DEVICE_SVM_CAPABILITIES);
        i->svm.coarse = caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
        i->svm.fine = caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
        i->svm.fine_system = caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM;
        i->svm.atomics = caps & CL_DEVICE_SVM_ATOMICS;
    }
    i->fp64 = device_value<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
    i->fp32_divide_sqrt = (device_value<cl_device_fp_config>(id, CL_DEVICE_SINGLE_FP_CONFIG) &
                           CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    i->native_kernels = (device_value<cl_device_exec_capabilities>(
                             id, CL_DEVICE_EXECUTION_CAPABILITIES) &
                         CL_EXEC_NATIVE_KERNEL) != 0;
    i->extensions = device_string(id, CL_DEVICE_EXTENSIONS);
    // Testing override: report fp64 absent, so that the errors of devices without cl_khr_fp64 can
    // be checked on devices that have it (pocl). Read when a device object is created.
    if (detail::env_flag("CLARRAY_DISABLE_FP64")) i->fp64 = false;
    i->max_param = device_value<std::size_t>(id, CL_DEVICE_MAX_PARAMETER_SIZE);
    i->max_alloc = device_value<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    i->global_mem = device_value<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
    i->max_wg = device_value<std::size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    i->units = device_value<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
    i->local_mem = device_value<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE);
    i->base_align_bits = device_value<cl_uint>(id, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    // NVIDIA: clEnqueueSVMFree deferred behind pending commands crashes the process, and frees
    // from event callbacks make later clSVMAlloc calls fail (docs/internals/quirks.md).
    using release = quirks_t::svm_release;
    const bool nvidia = i->platform_name.find("NVIDIA") != std::string::npos;
    i->quirks.pending_svm_release = nvidia ? release::park_until_done : release::enqueue_free;
    if (nvidia) i->quirks.device_fence = "asm volatile(\"membar.gl;\" ::: \"memory\")";
    if (nvidia && i->extensions.find("cl_nv_compiler_options") != std::string::npos)
        i->quirks.register_cap_option = "-cl-nv-maxrregcount=";
    if (nvidia && i->extensions.find("cl_nv_device_attribute_query") != std::string::npos) {
        cl_uint major = 0; // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
        if (clGetDeviceInfo(id, 0x4000, sizeof(major), &major, nullptr) == CL_SUCCESS) {
            i->quirks.ptx_warp_match = major >= 7;
            i->quirks.ptx_float_atomics =
                major >= 6 && detail::env_choice("CLARRAY_FLOAT_ATOMICS", {"ptx", "cas"}, 0) == 0;
        }
    }
    // pocl: its memcpy commands run on one thread, a copy kernel on all cores; it caches built
    // programs itself, and its CL_PROGRAM_BINARIES compiles every kernel of the program for a
    // generic work-group size first (docs/internals/quirks.md).
    const bool pocl = i->platform_name.find("Portable Computing Language") != std::string::npos;
    i->quirks.kernel_for_contiguous_copy = pocl;
    const char* pocl_cache = std::getenv("POCL_KERNEL_CACHE");
    i->quirks.driver_program_cache = pocl && !(pocl_cache && std::strcmp(pocl_cache, "0") == 0);
    // NumPy's float32 division and sqrt are correctly rounded; OpenCL's need not be (NVIDIA's
    // are off by up to 2.5-3 ulp without the option).
    if (i->fp32_divide_sqrt &&
        detail::env_choice("CLARRAY_FP32_DIVIDE_SQRT", {"correct", "fast"}, 0) == 0)
        i->quirks.fp32_divide_sqrt_option = "-cl-fp32-correctly-rounded-divide-sqrt";
    if (const char* f = std::getenv("CLARRAY_DEVICE_FENCE")) { // "mem_fence" (testing)
        if (std::strcmp(f, "mem_fence") == 0)
            i->quirks.device_fence = "mem_fence(CLK_GLOBAL_MEM_FENCE)";
    }
    if (const char* q = std::getenv("CLARRAY_SVM_RELEASE")) { // "enqueue" or "park" (testing)
        if (std::strcmp(q, "enqueue") == 0) i->quirks.pending_svm_release = release::enqueue_free;
        if (std::strcmp(q, "park") == 0) i->quirks.pending_svm_release = release::park_until_done;
    }
    // The tuning table (docs/internals/tuning.md), with the overrides of the environment. Its
    // testing override CLARRAY_PLAN_AS_GPU=1 takes the GPU column on a CPU, and the device
    // reports itself a GPU, so that pocl runs the GPU code paths in CI.
    using kind = tuning_t::kind_t;
    detail::tuning_basis basis;
    basis.kind = (i->type & CL_DEVICE_TYPE_CPU)   ? kind::cpu
                 : (i->type & CL_DEVICE_TYPE_GPU) ? (nvidia ? kind::nvidia_gpu : kind::gpu)
                                                  : kind::other;
    basis.warp_match = i->quirks.ptx_warp_match;
    basis.register_cap = i->quirks.register_cap_option != nullptr;
    i->tuning = detail::make_tuning(
        basis, [](const char* name) -> const char* { return std::getenv(name); });
    if (i->tuning.kind != basis.kind) i->type = CL_DEVICE_TYPE_GPU;
    info_ = std::move(i);
}

cl_platform_id device::platform() const noexcept {
    return info_->platform;
}
const std::string& device::name() const noexcept {
    return info_->name;
}
const std::string& device::platform_name() const noexcept {
    return info_->platform_name;
}
const std::string& device::vendor() const noexcept {
    return info_->vendor;
}
const std::string& device::version() const noexcept {
    return info_->version;
}
const std::string& device::driver_version() const noexcept {
    return info_->driver_version;
}
int device::opencl_version() const noexcept {
    return info_->cl_version;
}
bool device::is_cpu() const noexcept {
    return info_->type & CL_DEVICE_TYPE_CPU;
}
bool device::is_gpu() const noexcept {
    return info_->type & CL_DEVICE_TYPE_GPU;
}
svm_capabilities device::svm_caps() const noexcept {
    return info_->svm;
}
bool device::has_fp64() const noexcept {
    return info_->fp64;
}
bool device::runs_native_kernels() const noexcept {
    return info_->native_kernels;
}
bool device::correctly_rounded_divide_sqrt() const noexcept {
    return info_->fp32_divide_sqrt;
}
bool device::has_extension(const std::string& name) const noexcept {
    const std::string& all = info_->extensions;
    for (std::size_t pos = all.find(name); pos != std::string::npos;
         pos = all.find(name, pos + 1)) {
        const bool starts = pos == 0 || all[pos - 1] == ' ';
        const std::size_t end = pos + name.size();
        if (starts && (end == all.size() || all[end] == ' ')) return true;
    }
    return false;
}
std::size_t device::max_parameter_size() const noexcept {
    return info_->max_param;
}
cl_ulong device::max_alloc_size() const noexcept {
    return info_->max_alloc;
}
cl_ulong device::global_mem_size() const noexcept {
    return info_->global_mem;
}
std::size_t device::max_work_group_size() const noexcept {
    return info_->max_wg;
}
cl_uint device::compute_units() const noexcept {
    return info_->units;
}
cl_ulong device::local_mem_size() const noexcept {
    return info_->local_mem;
}
cl_uint device::mem_base_addr_align_bytes() const noexcept {
    return info_->base_align_bits / 8;
}
const device::quirks_t& device::quirks() const noexcept {
    return info_->quirks;
}
const device::tuning_t& device::tuning() const noexcept {
    return info_->tuning;
}

std::vector<device> all_devices() {
    cl_uint np = 0;
    cl_int rc = clGetPlatformIDs(0, nullptr, &np);
    if (rc == CL_PLATFORM_NOT_FOUND_KHR || np == 0) return {};
    detail::check_cl(rc, "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(np);
    detail::check_cl(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
    std::vector<device> out;
    for (cl_platform_id p : platforms) {
        cl_uint nd = 0;
        rc = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
        if (rc == CL_DEVICE_NOT_FOUND || nd == 0) continue;
        detail::check_cl(rc, "clGetDeviceIDs");
        std::vector<cl_device_id> ids(nd);
        detail::check_cl(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ids.data(), nullptr),
                         "clGetDeviceIDs");
        for (cl_device_id id : ids)
            out.emplace_back(id);
    }
    return out;
}

device select_device(const char* selector) {
    std::vector<device> devs = all_devices();
    if (devs.empty())
        throw error("no OpenCL device found (is an ICD such as pocl-opencl-icd installed? "
                    "OCL_ICD_VENDORS=" +
                    std::string(std::getenv("OCL_ICD_VENDORS") ? std::getenv("OCL_ICD_VENDORS")
                                                               : "<unset>") +
                    ")");
    if (!selector || !*selector) return devs.front();
    std::string sel = selector;
    int pi = -1, di = -1;
    char tail = 0;
    if (std::sscanf(sel.c_str(), "%d:%d%c", &pi, &di, &tail) == 2) {
        // Platform and device index, counted per platform.
        int p = -1;
        cl_platform_id last = nullptr;
        int d = 0;
        for (const device& dv : devs) {
            if (dv.platform() != last) {
                last = dv.platform();
                ++p;
                d = 0;
            }
            if (p == pi && d == di) return dv;
            ++d;
        }
        throw error("CLARRAY_DEVICE=" + sel + ": no device with that platform:device index");
    }
    std::string needle = lower(sel);
    std::string seen;
    for (const device& dv : devs) {
        std::string full = dv.platform_name() + " " + dv.name();
        if (lower(full).find(needle) != std::string::npos) return dv;
        seen += "\n  " + full;
    }
    throw error("CLARRAY_DEVICE=" + sel + " matches no device; available:" + seen);
}

} // namespace clarray
