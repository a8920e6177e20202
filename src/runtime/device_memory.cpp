#include "clarray/runtime/device_memory.hpp"

namespace clarray {

const char* storage_name(storage_kind k) noexcept {
    switch (k) {
    case storage_kind::svm_coarse:
        return "svm_coarse";
    case storage_kind::svm_fine:
        return "svm_fine";
    case storage_kind::buffer:
        return "buffer";
    }
    return "?";
}

} // namespace clarray
