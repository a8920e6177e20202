#include "clarray/reduce/nan_functions.hpp"

#include <string>

#include "clarray/error.hpp"

namespace clarray::detail {

namespace {
std::string all_nan_slice_text(const device_check_site& site) {
    return std::string(site.what) +
           ": All-NaN slice encountered (an input slice has no element that is not NaN)";
}
void raise_usage_error(const std::string& message) {
    throw usage_error(message);
}
} // namespace

const device_check_kind all_nan_slice_check = {all_nan_slice_text, raise_usage_error,
                                               "all-NaN reduction"};

std::ptrdiff_t reduced_length(const shape_type& shape, const reduce_axes& axes, const char* what) {
    const std::vector<bool> mask = axes.mask(shape, what);
    std::ptrdiff_t length = 1;
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (mask[i]) length *= static_cast<std::ptrdiff_t>(shape[i]);
    return length;
}

} // namespace clarray::detail
