#include "clarray/host/print.hpp"

#include <string>

#include "clarray/runtime/device.hpp"

namespace clarray::detail {

std::string describe_array(const queue* q, dtype type, const char* storage, const shape_type& shape,
                           const strides_type& strides, std::ptrdiff_t offset) {
    std::string s = "cl_array(";
    if (q) {
        s += "shape=" + shape_to_string(shape);
    } else {
        s += "unbound";
    }
    s += std::string(", dtype=") + dtype_name(type) + ", storage=" + storage;
    // A view is described by where it sits in its memory (strides in elements, as shape).
    if (q && (!is_c_contiguous(shape, strides) || offset != 0)) {
        s += ", strides=(";
        for (std::size_t i = 0; i < strides.size(); ++i)
            s += (i ? ", " : "") + std::to_string(strides[i]);
        s += strides.size() == 1 ? ",)" : ")";
        s += ", offset=" + std::to_string(offset);
    }
    if (q) s += ", device='" + q->context().device().name() + "'";
    return s + ")";
}

} // namespace clarray::detail
