#pragma once
// DLPack in and out: to_dlpack(a) hands another framework a DLManagedTensor over a's memory,
// from_dlpack<T, S>(q, tensor) makes a cl_array over a tensor's memory and takes ownership.
//
// Device types: kDLOpenCL, whose data is a cl_mem (Buffer storage, or SVM storage over a Buffer
// that uses an SVM pointer), and kDLCPU, whose data is a host pointer: memory the host reaches
// without a map (fine-grained SVM; SVM, or host memory through CL_MEM_USE_HOST_PTR, on CPU
// devices). Strides in elements, byte_offset in bytes. Only with DLPack's header
// (libdlpack-dev); the library defines CLARRAY_HAVE_DLPACK when it has built this part.
// docs/interop.md has the rules.
#include <dlpack/dlpack.h>

#include <memory>

#include "clarray/interop/foreign.hpp"
#include "clarray/types/dtype.hpp"

namespace clarray {

// DLPack's type code of bool (kDLBool, DLPack 0.8; the headers before it lack the name).
inline constexpr std::uint8_t dlpack_bool_code = 6;

// The DLPack data type of dtype d: kDLBool (8 bits), kDLInt/kDLUInt, kDLFloat (16, 32, 64 bits),
// kDLComplex (64, 128 bits), one lane.
DLDataType to_dlpack_dtype(dtype d) noexcept;

namespace detail {
// The exported tensor over m (null for no elements) with a's metadata. host_visible: kDLCPU with
// the SVM pointer (the host waits for the memory's pending uses first), else kDLOpenCL with a
// cl_mem. The deleter drops the reference to m.
DLManagedTensor* export_dlpack(const queue& q, std::shared_ptr<allocation> m, dtype d,
                               const shape_type& shape, const strides_type& strides,
                               std::ptrdiff_t offset);
// The memory and layout of tensor t for an array of dtype d and storage kind `kind` on q; takes
// t's ownership only when it returns (the owner calls t's deleter after the last use).
struct dlpack_import {
    std::shared_ptr<allocation> memory;
    foreign_layout layout;
};
dlpack_import import_dlpack(const queue& q, DLManagedTensor* t, dtype d, storage_kind kind,
                            const wait_list& ready);
} // namespace detail

// A DLManagedTensor over a's memory and layout (a view exports its view). The tensor holds a
// reference to the memory until its deleter runs (the consumer calls it once). Device kDLCPU
// where the memory is host-accessible without a map (svm_fine; SVM on a CPU device outside
// coarse emulation): to_dlpack waits for the memory's pending commands first, as a host consumer
// cannot wait for events. Otherwise kDLOpenCL with a cl_mem (an SVM array's Buffer wrapper,
// buffer_of): the consumer's commands must wait for ready_events(a) first.
template <class T, class S> DLManagedTensor* to_dlpack(const cl_array<T, S>& a) {
    if (!a.bound()) throw usage_error("to_dlpack: unbound (default-constructed) array");
    return detail::export_dlpack(a.get_queue(), a.data(), dtype_traits<T>::id, a.shape(),
                                 a.strides(), a.offset());
}

// An array of T and storage S over a DLPack tensor, on q. On success the array owns the tensor:
// its deleter runs exactly once, after the last array over it and the last command recorded on
// it are done. `ready`: events of the producer's pending writes (recorded as with wait_for).
// On an exception the tensor stays the caller's. Errors: dtype_error (data type other than T's),
// usage_error (device type other than kDLOpenCL or kDLCPU, a cl_mem of another context, a
// cl_mem that is not over SVM for SVM storage, null data), unsupported (storage the device
// lacks; host memory on a device other than a CPU), shape_error (negative extents, a layout
// the memory does not cover).
template <class T, class S = buffer>
cl_array<T, S> from_dlpack(const queue& q, DLManagedTensor* tensor, const wait_list& ready = {}) {
    detail::dlpack_import in =
        detail::import_dlpack(q, tensor, dtype_traits<T>::id, S::kind, ready);
    return cl_array<T, S>(q, std::move(in.memory), in.layout.shape, in.layout.strides,
                          in.layout.offset);
}

} // namespace clarray
