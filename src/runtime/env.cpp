#include "clarray/runtime/env.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "clarray/error.hpp"

namespace clarray::detail {

bool env_flag(const char* name) {
    const char* v = std::getenv(name);
    return v && *v && std::strcmp(v, "0") != 0;
}

std::size_t env_count(const char* name, std::size_t fallback, std::size_t lo, std::size_t hi,
                      bool power_of_two) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    const bool whole = *v >= '0' && *v <= '9' && *end == '\0';
    if (whole && n >= lo && n <= hi && (!power_of_two || (n & (n - 1)) == 0))
        return static_cast<std::size_t>(n);
    std::string accepted =
        (power_of_two ? "a power of two in [" : "a whole number in [") + std::to_string(lo) + ", ";
    accepted +=
        hi == std::numeric_limits<std::size_t>::max() ? std::string("...") : std::to_string(hi);
    throw usage_error(std::string(name) + " must be " + accepted + "], not '" + v + "'");
}

} // namespace clarray::detail
