#pragma once
// The three storage policies of cl_array. Chosen at compile time: binding a kernel argument is a
// direct call for each, with no runtime dispatch.
#include <type_traits>

#include "clarray/error.hpp"
#include "clarray/storage/allocation.hpp"

namespace clarray {

// Coarse-grained buffer SVM: the host touches it only inside a map (the default policy).
struct svm_coarse {
    static constexpr storage_kind kind = storage_kind::svm_coarse;
    static constexpr const char* name = "svm_coarse";
    static constexpr bool is_svm = true;
};
// Fine-grained buffer SVM: host views are zero-copy after synchronization.
struct svm_fine {
    static constexpr storage_kind kind = storage_kind::svm_fine;
    static constexpr const char* name = "svm_fine";
    static constexpr bool is_svm = true;
};
// A cl_mem Buffer: works on every device.
struct buffer {
    static constexpr storage_kind kind = storage_kind::buffer;
    static constexpr const char* name = "buffer";
    static constexpr bool is_svm = false;
};

template <class S>
inline constexpr bool is_storage_policy_v =
    std::is_same_v<S, svm_coarse> || std::is_same_v<S, svm_fine> || std::is_same_v<S, buffer>;

namespace detail {
// Binds the start of an allocation (offset 0) as kernel argument idx.
template <class S> void set_memory_arg(cl_kernel k, cl_uint idx, const allocation* a) {
    if constexpr (S::is_svm) {
        check_cl(clSetKernelArgSVMPointer(k, idx, a ? a->svm_pointer() : nullptr),
                 "clSetKernelArgSVMPointer");
    } else {
        cl_mem m = a ? a->buffer() : nullptr;
        check_cl(clSetKernelArg(k, idx, sizeof(cl_mem), &m), "clSetKernelArg(cl_mem)");
    }
}
} // namespace detail

} // namespace clarray
