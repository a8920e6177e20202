#include "clarray/interop/foreign.hpp"

#include <string>

#include "clarray/runtime/context.hpp"

namespace clarray {

foreign_owner::foreign_owner(void (*release)(void* user_data), void* user_data) {
    if (!release) throw usage_error("foreign_owner: null release callback");
    // The token's deleter is the callback: it runs exactly once, when the last reference goes.
    owner_ = std::shared_ptr<void>(user_data, [release](void* p) noexcept { release(p); });
}

namespace detail {

namespace {
std::string layout_text(const foreign_layout& l) {
    std::string s = "shape " + shape_to_string(l.shape) + ", strides (";
    for (std::size_t i = 0; i < l.strides.size(); ++i)
        s += (i ? "," : "") + std::to_string(l.strides[i]);
    return s + "), offset " + std::to_string(l.offset);
}

std::size_t count(const shape_type& s) {
    std::size_t n = 1;
    for (std::size_t e : s)
        n *= e;
    return n;
}

// An allocation over foreign memory, or null (and the owner released now) for no elements.
std::shared_ptr<allocation> make_foreign(const queue& q, storage_kind kind, std::size_t bytes,
                                         foreign_memory f) {
    return std::make_shared<allocation>(q, kind, bytes, std::move(f));
}
} // namespace

void check_foreign_layout(foreign_layout& l, std::size_t elem_size, std::size_t bytes,
                          const char* what) {
    if (l.strides.empty() && !l.shape.empty()) l.strides = contiguous_strides(l.shape, layout::c);
    if (l.strides.size() != l.shape.size())
        throw shape_error(std::string(what) + ": " + std::to_string(l.strides.size()) +
                          " strides for " + std::to_string(l.shape.size()) + " axes (" +
                          layout_text(l) + ")");
    checked_bytes(l.shape, elem_size); // shape_error when the element count overflows
    if (count(l.shape) == 0) return;
    // The lowest and highest element positions the layout reaches.
    long double lo = static_cast<long double>(l.offset), hi = lo;
    for (std::size_t i = 0; i < l.shape.size(); ++i) {
        long double reach = static_cast<long double>(l.shape[i] - 1) * l.strides[i];
        (reach < 0 ? lo : hi) += reach;
    }
    const long double end = (hi + 1) * static_cast<long double>(elem_size);
    if (lo < 0 || end > static_cast<long double>(bytes))
        throw shape_error(std::string(what) + ": " + layout_text(l) + " of " +
                          std::to_string(elem_size) + "-byte elements reaches elements " +
                          std::to_string(static_cast<long long>(lo)) + " to " +
                          std::to_string(static_cast<long long>(hi)) + ", outside the memory's " +
                          std::to_string(bytes) + " bytes");
}

std::shared_ptr<allocation> wrap_cl_mem(const queue& q, cl_mem mem, foreign_layout& l,
                                        std::size_t elem_size, std::shared_ptr<void> owner) {
    if (!mem) throw usage_error("from_cl_mem: null cl_mem");
    cl_context mem_ctx = nullptr;
    check_cl(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(mem_ctx), &mem_ctx, nullptr),
             "clGetMemObjectInfo(CL_MEM_CONTEXT)");
    if (mem_ctx != q.context().get())
        throw usage_error("from_cl_mem: the cl_mem belongs to another OpenCL context than the "
                          "queue's");
    std::size_t bytes = 0;
    check_cl(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(bytes), &bytes, nullptr),
             "clGetMemObjectInfo(CL_MEM_SIZE)");
    check_foreign_layout(l, elem_size, bytes, "from_cl_mem");
    if (count(l.shape) == 0) return nullptr;
    check_cl(clRetainMemObject(mem), "clRetainMemObject");
    try {
        return make_foreign(q, storage_kind::buffer, bytes, {nullptr, mem, std::move(owner)});
    } catch (...) {
        clReleaseMemObject(mem);
        throw;
    }
}

std::shared_ptr<allocation> wrap_svm(const queue& q, storage_kind kind, void* svm,
                                     std::size_t bytes, foreign_layout& l, std::size_t elem_size,
                                     std::shared_ptr<void> owner) {
    const context& ctx = q.context();
    const bool fine = kind == storage_kind::svm_fine;
    svm_capabilities caps = ctx.svm_caps();
    if (fine ? !caps.fine : !caps.coarse)
        throw unsupported(
            std::string("from_svm: ") + storage_name(kind) + " storage: device '" +
            ctx.device().name() + "' does not support " + (fine ? "fine" : "coarse") +
            "-grained buffer SVM" +
            (ctx.options().disable_svm ? " (SVM disabled by CLARRAY_DISABLE_SVM)" : "") +
            "; wrap a cl_mem with from_cl_mem");
    if (!svm) throw usage_error("from_svm: null SVM pointer");
    check_foreign_layout(l, elem_size, bytes, "from_svm");
    if (count(l.shape) == 0) return nullptr;
    if (!caps.fine_system) {
        // OpenCL tells whether a pointer is SVM of a context only through a Buffer over it:
        // CL_MEM_USES_SVM_POINTER. The Buffer also fails when `bytes` exceeds the region.
        cl_int rc = CL_SUCCESS;
        cl_mem probe =
            clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, svm, &rc);
        if (rc == CL_INVALID_BUFFER_SIZE)
            throw usage_error("from_svm: " + std::to_string(bytes) +
                              " bytes exceed the SVM region at the pointer");
        check_cl(rc, "clCreateBuffer(CL_MEM_USE_HOST_PTR over the SVM pointer)");
        cl_bool uses_svm = CL_FALSE;
        rc = clGetMemObjectInfo(probe, CL_MEM_USES_SVM_POINTER, sizeof(uses_svm), &uses_svm,
                                nullptr);
        clReleaseMemObject(probe);
        check_cl(rc, "clGetMemObjectInfo(CL_MEM_USES_SVM_POINTER)");
        if (!uses_svm)
            throw usage_error("from_svm: the pointer is not the start of an SVM region of the "
                              "queue's context (another context's SVM, or host memory); pass "
                              "what clSVMAlloc returned and select the first element with "
                              "the layout's offset");
    }
    return make_foreign(q, kind, bytes, {svm, nullptr, std::move(owner)});
}

std::shared_ptr<allocation> wrap_host_ptr(const queue& q, storage_kind kind, void* host,
                                          std::size_t bytes, foreign_layout& l,
                                          std::size_t elem_size, std::shared_ptr<void> owner) {
    const context& ctx = q.context();
    if (kind == storage_kind::svm_fine) {
        if (!ctx.svm_caps().fine_system)
            throw unsupported("from_host_ptr: svm_fine storage over host memory needs "
                              "fine-grained system SVM, which device '" +
                              ctx.device().name() + "' does not have; use buffer storage");
    } else if (!ctx.device().is_cpu()) {
        throw unsupported("from_host_ptr: device '" + ctx.device().name() +
                          "' is not a CPU device: it would work on a copy of host memory; "
                          "copy the data with to_device or set()");
    }
    if (!host) throw usage_error("from_host_ptr: null host pointer");
    check_foreign_layout(l, elem_size, bytes, "from_host_ptr");
    if (count(l.shape) == 0) return nullptr;
    if (kind == storage_kind::svm_fine)
        return make_foreign(q, kind, bytes, {host, nullptr, std::move(owner)});
    cl_int rc = CL_SUCCESS;
    cl_mem mem =
        clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host, &rc);
    check_cl(rc, "clCreateBuffer(CL_MEM_USE_HOST_PTR)");
    try {
        return make_foreign(q, kind, bytes, {nullptr, mem, std::move(owner)});
    } catch (...) {
        clReleaseMemObject(mem);
        throw;
    }
}

void record_foreign_events(allocation& m, const queue& q, const wait_list& events, access acc) {
    for (const event& e : events.events()) {
        cl_context ectx = nullptr;
        check_cl(clGetEventInfo(e.get(), CL_EVENT_CONTEXT, sizeof(ectx), &ectx, nullptr),
                 "clGetEventInfo(CL_EVENT_CONTEXT)");
        if (ectx != m.context().get())
            throw usage_error("wait_for: an event of another OpenCL context than the array's");
    }
    for (const event& e : events.events())
        m.record_foreign(q, acc, e);
}

} // namespace detail
} // namespace clarray
