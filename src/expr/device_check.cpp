#include "clarray/expr/device_check.hpp"

#include <string>

#include "clarray/error.hpp"
#include "clarray/expr/operators.hpp"

namespace clarray::detail {

namespace {
std::string negative_power_text(const device_check_site&) {
    return negative_power_message;
}
void raise_dtype_error(const std::string& message) {
    throw dtype_error(message);
}
} // namespace

const device_check_kind negative_power_check = {negative_power_text, raise_dtype_error,
                                                "failed device check"};

} // namespace clarray::detail
