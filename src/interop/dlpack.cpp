#include "clarray/interop/dlpack.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "clarray/runtime/context.hpp"

namespace clarray {

DLDataType to_dlpack_dtype(dtype d) noexcept {
    const dtype_info& info = dtype_info_of(d);
    const auto bits = static_cast<std::uint8_t>(info.size * 8);
    switch (info.kind) {
    case dtype_kind::boolean:
        return {dlpack_bool_code, 8, 1};
    case dtype_kind::signed_integer:
        return {kDLInt, bits, 1};
    case dtype_kind::unsigned_integer:
        return {kDLUInt, bits, 1};
    case dtype_kind::floating:
        return {kDLFloat, bits, 1};
    case dtype_kind::complex:
        break;
    }
    return {kDLComplex, bits, 1};
}

namespace detail {

namespace {
// What an exported tensor owns: a reference to the memory and its shape and strides arrays.
struct exported {
    DLManagedTensor tensor{};
    std::shared_ptr<allocation> memory;
    std::vector<std::int64_t> shape, strides;
};

void delete_exported(DLManagedTensor* t) {
    delete static_cast<exported*>(t->manager_ctx);
}

// The device's index among its platform's devices, DLPack's device_id for OpenCL.
std::int32_t device_index(const device& dev) {
    cl_uint n = 0;
    if (clGetDeviceIDs(dev.platform(), CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS) return 0;
    std::vector<cl_device_id> ids(n);
    if (clGetDeviceIDs(dev.platform(), CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr) != CL_SUCCESS)
        return 0;
    for (cl_uint i = 0; i < n; ++i)
        if (ids[i] == dev.id()) return static_cast<std::int32_t>(i);
    return 0;
}

std::string dtype_text(const DLDataType& t) {
    return "(code " + std::to_string(t.code) + ", " + std::to_string(t.bits) + " bits, " +
           std::to_string(t.lanes) + " lanes)";
}

// Calls the tensor's deleter once, when the last reference goes; `tensor` is set only once the
// import has succeeded, so a failed import leaves the tensor to the caller.
struct tensor_owner {
    DLManagedTensor* tensor = nullptr;
    tensor_owner() = default;
    tensor_owner(const tensor_owner&) = delete;
    tensor_owner& operator=(const tensor_owner&) = delete;
    ~tensor_owner() {
        if (tensor && tensor->deleter) tensor->deleter(tensor);
    }
};

cl_mem tensor_cl_mem(const queue& q, void* data) {
    cl_mem mem = static_cast<cl_mem>(data);
    cl_context mem_ctx = nullptr;
    check_cl(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(mem_ctx), &mem_ctx, nullptr),
             "clGetMemObjectInfo(CL_MEM_CONTEXT) of a kDLOpenCL tensor's data");
    if (mem_ctx != q.context().get())
        throw usage_error("from_dlpack: the tensor's cl_mem belongs to another OpenCL context "
                          "than the queue's");
    return mem;
}
} // namespace

DLManagedTensor* export_dlpack(const queue& q, std::shared_ptr<allocation> m, dtype d,
                               const shape_type& shape, const strides_type& strides,
                               std::ptrdiff_t offset) {
    auto e = std::make_unique<exported>();
    for (std::size_t i = 0; i < shape.size(); ++i) {
        e->shape.push_back(static_cast<std::int64_t>(shape[i]));
        e->strides.push_back(static_cast<std::int64_t>(strides[i]));
    }
    const context& ctx = q.context();
    const storage_kind kind = m ? m->kind() : storage_kind::buffer;
    const bool host_visible = m && (kind == storage_kind::svm_fine ||
                                    (kind == storage_kind::svm_coarse && ctx.device().is_cpu() &&
                                     !ctx.options().emulate_coarse));
    DLTensor& t = e->tensor.dl_tensor;
    if (host_visible) {
        // A host consumer cannot wait for events: the memory is ready when it gets it.
        m->uses_before(access::read_write).wait();
        t.data = m->svm_pointer();
        t.device = {kDLCPU, 0};
    } else {
        t.data = m ? m->as_buffer() : nullptr;
        t.device = {kDLOpenCL, device_index(ctx.device())};
    }
    t.ndim = static_cast<int>(shape.size());
    t.dtype = to_dlpack_dtype(d);
    t.shape = e->shape.data();
    t.strides = e->strides.data();
    t.byte_offset = static_cast<std::uint64_t>(offset) * dtype_info_of(d).size;
    e->memory = std::move(m);
    e->tensor.manager_ctx = e.get();
    e->tensor.deleter = delete_exported;
    return &e.release()->tensor;
}

dlpack_import import_dlpack(const queue& q, DLManagedTensor* mt, dtype d, storage_kind kind,
                            const wait_list& ready) {
    if (!mt) throw usage_error("from_dlpack: null tensor");
    const DLTensor& t = mt->dl_tensor;
    const DLDataType want = to_dlpack_dtype(d);
    if (t.dtype.code != want.code || t.dtype.bits != want.bits || t.dtype.lanes != want.lanes)
        throw dtype_error("from_dlpack: the tensor's data type " + dtype_text(t.dtype) +
                          " is not " + dtype_info_of(d).name + " " + dtype_text(want));
    if (t.ndim < 0 || static_cast<std::size_t>(t.ndim) > max_dims)
        throw shape_error("from_dlpack: ndim " + std::to_string(t.ndim) + " outside 0.." +
                          std::to_string(max_dims));
    const std::size_t elem = dtype_info_of(d).size;
    dlpack_import out;
    foreign_layout& l = out.layout;
    for (int i = 0; i < t.ndim; ++i) {
        if (t.shape[i] < 0)
            throw shape_error("from_dlpack: negative extent " + std::to_string(t.shape[i]) +
                              " of axis " + std::to_string(i));
        l.shape.push_back(static_cast<std::size_t>(t.shape[i]));
        if (t.strides) l.strides.push_back(static_cast<std::ptrdiff_t>(t.strides[i]));
    }
    if (t.byte_offset % elem != 0)
        throw shape_error("from_dlpack: byte_offset " + std::to_string(t.byte_offset) +
                          " is not a multiple of the element size " + std::to_string(elem));
    l.offset = static_cast<std::ptrdiff_t>(t.byte_offset / elem);
    if (t.device.device_type != kDLOpenCL && t.device.device_type != kDLCPU)
        throw usage_error("from_dlpack: device type " + std::to_string(t.device.device_type) +
                          " is neither kDLOpenCL (4) nor kDLCPU (1)");
    std::size_t n = 1;
    for (std::size_t e : l.shape)
        n *= e;
    auto owner = std::make_shared<tensor_owner>();
    if (n == 0) { // no memory to use: the array owns none, the tensor goes now
        check_foreign_layout(l, elem, 0, "from_dlpack");
        owner->tensor = mt;
        return out;
    }
    if (!t.data) throw usage_error("from_dlpack: null data in a tensor with elements");
    if (t.device.device_type == kDLOpenCL) {
        cl_mem mem = tensor_cl_mem(q, t.data);
        if (kind == storage_kind::buffer) {
            out.memory = wrap_cl_mem(q, mem, l, elem, owner);
        } else {
            cl_bool uses_svm = CL_FALSE;
            check_cl(clGetMemObjectInfo(mem, CL_MEM_USES_SVM_POINTER, sizeof(uses_svm), &uses_svm,
                                        nullptr),
                     "clGetMemObjectInfo(CL_MEM_USES_SVM_POINTER)");
            if (!uses_svm)
                throw usage_error(std::string("from_dlpack: ") + storage_name(kind) +
                                  " storage needs a cl_mem over SVM, and the tensor's is not; "
                                  "import it as buffer storage");
            void* svm = nullptr;
            std::size_t bytes = 0;
            check_cl(clGetMemObjectInfo(mem, CL_MEM_HOST_PTR, sizeof(svm), &svm, nullptr),
                     "clGetMemObjectInfo(CL_MEM_HOST_PTR)");
            check_cl(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(bytes), &bytes, nullptr),
                     "clGetMemObjectInfo(CL_MEM_SIZE)");
            out.memory = wrap_svm(q, kind, svm, bytes, l, elem, owner);
        }
    } else {
        // Host memory carries no size: the elements' reach is what the tensor claims.
        if (l.strides.empty()) l.strides = contiguous_strides(l.shape, layout::c);
        long double hi = static_cast<long double>(l.offset);
        for (std::size_t i = 0; i < l.shape.size(); ++i)
            if (l.strides[i] > 0) hi += static_cast<long double>(l.shape[i] - 1) * l.strides[i];
        const auto bytes = static_cast<std::size_t>((hi + 1) * static_cast<long double>(elem));
        out.memory = kind == storage_kind::buffer
                         ? wrap_host_ptr(q, kind, t.data, bytes, l, elem, owner)
                         : wrap_svm(q, kind, t.data, bytes, l, elem, owner);
    }
    record_foreign_events(*out.memory, q, ready, access::write);
    owner->tensor = mt; // from here on the array owns the tensor
    return out;
}

} // namespace detail
} // namespace clarray
