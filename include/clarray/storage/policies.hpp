#pragma once
// The three storage policies of cl_array. Chosen at compile time: binding a kernel argument is a
// direct call for each, with no runtime dispatch.
#include <type_traits>

#include "clarray/error.hpp"
#include "clarray/storage/allocation.hpp"

namespace clarray {

// Coarse-grained buffer SVM: the host touches it only inside a map (the default policy).
struct svm_coarse {
    // The runtime storage kind.
    static constexpr storage_kind kind = storage_kind::svm_coarse;
    // The policy's name.
    static constexpr const char* name = "svm_coarse";
    // Whether the memory is SVM (kernels take a pointer, not a cl_mem).
    static constexpr bool is_svm = true;
};
// Fine-grained buffer SVM: host views are zero-copy after synchronization.
struct svm_fine {
    // The runtime storage kind.
    static constexpr storage_kind kind = storage_kind::svm_fine;
    // The policy's name.
    static constexpr const char* name = "svm_fine";
    // Whether the memory is SVM (kernels take a pointer, not a cl_mem).
    static constexpr bool is_svm = true;
};
// A cl_mem Buffer: works on every device.
struct buffer {
    // The runtime storage kind.
    static constexpr storage_kind kind = storage_kind::buffer;
    // The policy's name.
    static constexpr const char* name = "buffer";
    // Whether the memory is SVM (kernels take a pointer, not a cl_mem).
    static constexpr bool is_svm = false;
};

// Trait: S is a storage policy (svm_coarse, svm_fine or buffer).
template <class S>
inline constexpr bool is_storage_policy_v =
    std::is_same_v<S, svm_coarse> || std::is_same_v<S, svm_fine> || std::is_same_v<S, buffer>;

namespace detail {
// Allocation a (null for a zero-size array) as a kernel argument used with access acc, bound at
// byte_offset into it: an SVM pointer or a cl_mem, decided at compile time.
template <class S>
launch_arg memory_arg(allocation* a, access acc, std::size_t byte_offset = 0) noexcept {
    if constexpr (S::is_svm)
        return launch_arg::svm_memory(a, a ? a->svm_pointer() : nullptr, acc, byte_offset);
    else
        return launch_arg::buffer_memory(a, a ? a->buffer() : nullptr, a ? a->bytes() : 0, acc,
                                         byte_offset);
}
// The same for a storage kind known only at run time (the library's type-erased copies).
inline launch_arg memory_arg(storage_kind kind, allocation* a, access acc,
                             std::size_t byte_offset = 0) noexcept {
    if (kind != storage_kind::buffer)
        return launch_arg::svm_memory(a, a ? a->svm_pointer() : nullptr, acc, byte_offset);
    return launch_arg::buffer_memory(a, a ? a->buffer() : nullptr, a ? a->bytes() : 0, acc,
                                     byte_offset);
}
} // namespace detail

} // namespace clarray
