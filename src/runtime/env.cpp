#include "clarray/runtime/env.hpp"

#include <cctype>
#include <cerrno>
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
    return count_setting(name, std::getenv(name), fallback, lo, hi, power_of_two);
}

std::size_t count_setting(const char* name, const char* v, std::size_t fallback, std::size_t lo,
                          std::size_t hi, bool power_of_two) {
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

std::size_t env_choice(const char* name, std::initializer_list<const char*> choices,
                       std::size_t fallback) {
    return choice_setting(name, std::getenv(name), choices, fallback);
}

std::size_t choice_setting(const char* name, const char* v,
                           std::initializer_list<const char*> choices, std::size_t fallback) {
    if (!v || !*v) return fallback;
    std::size_t i = 0;
    std::string accepted;
    for (const char* c : choices) {
        if (std::strcmp(v, c) == 0) return i;
        accepted += (i++ ? ", " : "") + std::string(c);
    }
    throw usage_error(std::string(name) + " must be one of " + accepted + "; not '" + v + "'");
}

std::optional<std::uint64_t> env_bytes(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return std::nullopt;
    const std::string text(v);
    auto lower = [](std::string t) {
        for (char& c : t)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return t;
    };
    if (lower(text) == "unlimited") return std::numeric_limits<std::uint64_t>::max();
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
        ++digits;
    const std::string suffix = lower(text.substr(digits));
    unsigned shift = 0;
    bool valid = digits > 0 && digits <= 20;
    if (valid && !suffix.empty()) {
        const std::string unit = suffix.substr(1);
        valid = unit.empty() || unit == "b" || unit == "ib";
        switch (suffix[0]) {
        case 'k':
            shift = 10;
            break;
        case 'm':
            shift = 20;
            break;
        case 'g':
            shift = 30;
            break;
        case 't':
            shift = 40;
            break;
        case 'b':
            valid = suffix == "b";
            break;
        default:
            valid = false;
        }
    }
    if (valid) {
        errno = 0;
        const unsigned long long n = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
        if (errno == 0 && n <= (std::numeric_limits<std::uint64_t>::max() >> shift))
            return static_cast<std::uint64_t>(n) << shift;
    }
    throw usage_error(std::string(name) +
                      " must be a byte count: a whole number with an optional suffix K, M, G or "
                      "T (powers of 1024, e.g. 512M or 4G), or 'unlimited'; not '" +
                      text + "'");
}

} // namespace clarray::detail
