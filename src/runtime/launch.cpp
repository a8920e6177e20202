#include "clarray/runtime/launch.hpp"

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "clarray/runtime/context_state.hpp"
#include "clarray/runtime/device.hpp"
#include "clarray/runtime/kernel.hpp"
#include "clarray/runtime/launch_profile.hpp"
#include "clarray/runtime/queue.hpp"

namespace clarray {

namespace detail {
namespace {

std::atomic<std::uint64_t> g_launches{0};

std::string argument_text(const kernel& k, std::size_t i) {
    return "kernel '" + k.name() + "', argument " + std::to_string(i);
}

void check_arg(cl_int rc, const char* call, const kernel& k, std::size_t i) {
    if (rc != CL_SUCCESS) throw cl_error(rc, call, argument_text(k, i));
}

std::string plural(std::size_t n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// Bytes of an OpenCL C parameter type by its name ("int", "float4", "global float*"), or 0 when
// the name is not a scalar, vector or pointer type (a struct).
std::size_t parameter_bytes(std::string type, const device& dev) {
    if (!type.empty() && type.back() == '*') {
        cl_uint bits = 0;
        clGetDeviceInfo(dev.id(), CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, nullptr);
        return bits / 8;
    }
    std::size_t lanes = 1;
    std::size_t digits = type.find_first_of("0123456789");
    if (digits != std::string::npos) {
        lanes = std::stoul(type.substr(digits));
        if (lanes == 3) lanes = 4; // 3-component vectors take the size of 4
        type.erase(digits);
    }
    static const std::pair<const char*, std::size_t> sizes[] = {
        {"char", 1},           {"uchar", 1},        {"short", 2},        {"ushort", 2},
        {"half", 2},           {"int", 4},          {"uint", 4},         {"float", 4},
        {"long", 8},           {"ulong", 8},        {"double", 8},       {"unsigned char", 1},
        {"unsigned short", 2}, {"unsigned int", 4}, {"unsigned long", 8}};
    for (const auto& s : sizes)
        if (type == s.first) return s.second * lanes;
    if (type == "size_t" || type == "ptrdiff_t" || type == "intptr_t" || type == "uintptr_t")
        return parameter_bytes("void*", dev);
    return 0;
}

// What the kernel declares for parameter i, from clGetKernelArgInfo: "the parameter is 'int n',
// which takes 4 bytes". Drivers need not report it unless the program was built with
// -cl-kernel-arg-info (OpenCL promises it only then; pocl reports it always); failure paths
// alone ask.
std::string declared_parameter(const queue& q, cl_kernel raw, cl_uint i) {
    char type[256] = {0}, name[256] = {0};
    cl_kernel_arg_address_qualifier address = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    if (clGetKernelArgInfo(raw, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type, nullptr) !=
        CL_SUCCESS)
        return "the kernel's parameter types are not available on this driver unless the program "
               "is built with -cl-kernel-arg-info";
    clGetKernelArgInfo(raw, i, CL_KERNEL_ARG_NAME, sizeof name - 1, name, nullptr);
    clGetKernelArgInfo(raw, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address, nullptr);
    std::string decl = type;
    if (address == CL_KERNEL_ARG_ADDRESS_GLOBAL) decl = "global " + decl;
    if (address == CL_KERNEL_ARG_ADDRESS_CONSTANT) decl = "constant " + decl;
    if (address == CL_KERNEL_ARG_ADDRESS_LOCAL) decl = "local " + decl;
    std::string text = "the parameter is '" + decl + (*name ? std::string(" ") + name : "") + "'";
    if (address == CL_KERNEL_ARG_ADDRESS_GLOBAL || address == CL_KERNEL_ARG_ADDRESS_CONSTANT)
        return text + ": pass a cl_array";
    if (address == CL_KERNEL_ARG_ADDRESS_LOCAL) return text + ": pass local_memory<T>(count)";
    if (std::size_t bytes = parameter_bytes(type, q.context().device()))
        return text + ", which takes " + plural(bytes, "byte");
    return text;
}

// The words of a failed argument: what was given and what the kernel declares.
std::string given_text(const launch_arg& a) {
    switch (a.what) {
    case launch_arg::kind::value:
        return "given a value of " + plural(a.bytes, "byte");
    case launch_arg::kind::local:
        return "given local memory of " + plural(a.bytes, "byte");
    case launch_arg::kind::memory:
        return "given an array (device memory)";
    default:
        return "given the layout words";
    }
}

[[noreturn]] void argument_failed(cl_int rc, const char* call, const queue& q, const kernel& k,
                                  cl_kernel raw, std::size_t i, const launch_arg& a) {
    std::string detail = argument_text(k, i) + ": " + given_text(a) + "; ";
    if (rc == CL_INVALID_ARG_INDEX)
        detail += "the kernel takes " + plural(k.argument_count(), "argument");
    else
        detail += declared_parameter(q, raw, static_cast<cl_uint>(i));
    throw cl_error(rc, call, detail);
}

// Binds one memory argument. A Buffer view that does not start at the allocation's start needs a
// sub-buffer (returned, to be kept until the enqueue), which must be aligned.
handle<cl_mem> bind_memory(const queue& q, const kernel& k, cl_kernel raw, cl_uint i,
                           const launch_arg& a) {
    if (a.svm) {
        void* p = a.svm_pointer ? static_cast<char*>(a.svm_pointer) + a.byte_offset : nullptr;
        if (cl_int rc = clSetKernelArgSVMPointer(raw, i, p))
            argument_failed(rc, "clSetKernelArgSVMPointer", q, k, raw, i, a);
        return {};
    }
    if (a.byte_offset == 0 || !a.buffer) {
        cl_mem m = a.buffer;
        if (cl_int rc = clSetKernelArg(raw, i, sizeof(cl_mem), &m))
            argument_failed(rc, "clSetKernelArg(cl_mem)", q, k, raw, i, a);
        return {};
    }
    const std::size_t align = q.context().device().mem_base_addr_align_bytes();
    if (align == 0 || a.byte_offset % align != 0)
        throw usage_error(
            argument_text(k, i) + ": a Buffer view at byte offset " +
            std::to_string(a.byte_offset) + " is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN (" +
            std::to_string(align) + " bytes); pass the base array and its offset() instead");
    cl_buffer_region region{a.byte_offset, a.bytes - a.byte_offset};
    cl_int rc = CL_SUCCESS;
    handle<cl_mem> sub(
        clCreateSubBuffer(a.buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &rc));
    check_arg(rc, "clCreateSubBuffer", k, i);
    cl_mem m = sub.get();
    check_arg(clSetKernelArg(raw, i, sizeof(cl_mem), &m), "clSetKernelArg(cl_mem)", k, i);
    return sub;
}

} // namespace

// ---- layout buffers ----

layout_buffers::slot* layout_buffers::acquire(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    slot* fitting = nullptr;  // the smallest free slot that holds `bytes`
    slot* any_free = nullptr; // else a free slot to grow
    for (auto& s : slots_) {
        if (s->busy || !s->last_use.is_complete()) continue;
        if (s->capacity >= bytes && (!fitting || s->capacity < fitting->capacity))
            fitting = s.get();
        if (!any_free) any_free = s.get();
    }
    slot* chosen = fitting ? fitting : any_free;
    if (!chosen && slots_.size() < max_slots) {
        slots_.push_back(std::make_unique<slot>());
        chosen = slots_.back().get();
    }
    if (chosen) chosen->busy = true;
    return chosen; // null: every slot is in flight
}

void layout_buffers::release(slot* s, const event& last_use) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    s->last_use = last_use;
    s->busy = false;
}

namespace {

// Puts `bytes` of layout words into a device buffer for kernel argument i, without blocking: the
// write is enqueued on q before the kernel (its event joins the kernel's wait list), from a host
// copy that the slot keeps until the kernel that reads it completed. When every slot is in
// flight, a one-off buffer initialised from the words at creation (CL_MEM_COPY_HOST_PTR).
struct layout_upload {
    layout_buffers* owner = nullptr;
    layout_buffers::slot* s = nullptr;
    event written;
    handle<cl_mem> one_off;

    cl_mem prepare(const queue& q, const kernel& k, std::size_t i, const void* data,
                   std::size_t bytes, wait_list& deps) {
        owner = &q.context().state().layouts;
        s = owner->acquire(bytes);
        cl_int rc = CL_SUCCESS;
        if (!s) {
            one_off = handle<cl_mem>(clCreateBuffer(q.context().get(),
                                                    CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                                                    const_cast<void*>(data), &rc));
            check_arg(rc, "clCreateBuffer(layout)", k, i);
            return one_off.get();
        }
        if (!s->mem || s->capacity < bytes) {
            std::size_t cap = 256;
            while (cap < bytes)
                cap *= 2;
            s->mem = handle<cl_mem>(
                clCreateBuffer(q.context().get(), CL_MEM_READ_ONLY, cap, nullptr, &rc));
            check_arg(rc, "clCreateBuffer(layout)", k, i);
            s->capacity = cap;
            s->host.resize(cap);
        }
        std::memcpy(s->host.data(), data, bytes);
        cl_event ev = nullptr;
        check_arg(clEnqueueWriteBuffer(q.get(), s->mem.get(), CL_FALSE, 0, bytes, s->host.data(), 0,
                                       nullptr, &ev),
                  "clEnqueueWriteBuffer(layout)", k, i);
        written = event(ev);
        deps.add(written);
        return s->mem.get();
    }
    // The slot is free again once `e` (the kernel; on failure the write, if any) completed.
    void finish(const event& e) noexcept {
        if (s) owner->release(s, e ? e : written);
        s = nullptr;
    }
};

} // namespace

event launch(const queue& q, const kernel& k, const ndrange& global, const ndrange* local,
             const launch_arg* args, std::size_t count, const wait_list& extra, const char* what) {
    // check
    if (q.context().get() != k.context_handle())
        throw usage_error("kernel '" + k.name() + "': queue from another context");
    if (count > 64) throw usage_error("kernel '" + k.name() + "': more than 64 arguments");
    std::uint64_t svm_mask = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const launch_arg& a = args[i];
        if (a.what != launch_arg::kind::memory) continue;
        if (a.svm) svm_mask |= std::uint64_t(1) << i;
        if (a.memory) a.memory->check_not_mapped(a.acc, what);
    }
    // wait list
    wait_list deps = extra;
    for (std::size_t i = 0; i < count; ++i)
        if (args[i].what == launch_arg::kind::memory && args[i].memory)
            args[i].memory->add_dependencies(q, args[i].acc, deps);
    // bind + enqueue
    event e;
    layout_upload upload;
    try {
        std::lock_guard<std::mutex> lock(k.argument_mutex());
        // Too few arguments would launch with those left from an earlier launch.
        if (count < k.argument_count())
            throw cl_error(CL_INVALID_KERNEL_ARGS, "clEnqueueNDRangeKernel",
                           "kernel '" + k.name() + "' takes " +
                               plural(k.argument_count(), "argument") + ", given " +
                               std::to_string(count));
        cl_kernel raw = k.variant_for(svm_mask);
        handle<cl_mem> subs[4];
        std::size_t n_subs = 0;
        std::vector<handle<cl_mem>> more_subs;
        for (std::size_t i = 0; i < count; ++i) {
            const launch_arg& a = args[i];
            const cl_uint idx = static_cast<cl_uint>(i);
            switch (a.what) {
            case launch_arg::kind::value:
            case launch_arg::kind::layout_value:
                if (cl_int rc = clSetKernelArg(raw, idx, a.bytes, a.data))
                    argument_failed(rc, "clSetKernelArg", q, k, raw, i, a);
                break;
            case launch_arg::kind::local:
                if (cl_int rc = clSetKernelArg(raw, idx, a.bytes, nullptr))
                    argument_failed(rc, "clSetKernelArg(local)", q, k, raw, i, a);
                break;
            case launch_arg::kind::layout_buffer: {
                cl_mem m = upload.prepare(q, k, i, a.data, a.bytes, deps);
                check_arg(clSetKernelArg(raw, idx, sizeof(cl_mem), &m), "clSetKernelArg(layout)", k,
                          i);
                break;
            }
            case launch_arg::kind::memory: {
                handle<cl_mem> sub = bind_memory(q, k, raw, idx, a);
                if (sub) {
                    if (n_subs < 4)
                        subs[n_subs++] = std::move(sub);
                    else
                        more_subs.push_back(std::move(sub));
                }
                break;
            }
            }
        }
        cl_event ev = nullptr;
        check_cl(clEnqueueNDRangeKernel(q.get(), raw, global.dims, nullptr, global.sizes,
                                        local ? local->sizes : nullptr, deps.size(), deps.data(),
                                        &ev),
                 "clEnqueueNDRangeKernel");
        e = event(ev);
    } catch (...) {
        upload.finish(event());
        throw;
    }
    upload.finish(e);
    g_launches.fetch_add(1, std::memory_order_relaxed);
    if (launch_profile_on()) launch_profile_record(k.name(), e);
    // record
    for (std::size_t i = 0; i < count; ++i)
        if (args[i].what == launch_arg::kind::memory && args[i].memory)
            args[i].memory->record(q, args[i].acc, e);
    return e;
}

bool layout_fits(const device& dev, std::size_t pointers, std::size_t value_bytes,
                 std::size_t layout_bytes) {
    // 64 bytes of slack: drivers count alignment padding between parameters.
    return pointers * sizeof(void*) + value_bytes + layout_bytes + 64 <= dev.max_parameter_size();
}

} // namespace detail

std::uint64_t kernel_launch_count() noexcept {
    return detail::g_launches.load();
}

} // namespace clarray
