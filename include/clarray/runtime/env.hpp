#pragma once
// Environment settings read by the library (the README's table lists them). Internal.
#include <cstddef>

namespace clarray::detail {

// True when variable `name` is set, non-empty and not "0".
bool env_flag(const char* name);

// The value of variable `name` as a count: `fallback` when unset or empty; a value that is not a
// whole number in [lo, hi] (or, with power_of_two, not a power of two) throws usage_error naming
// the variable and the accepted values.
std::size_t env_count(const char* name, std::size_t fallback, std::size_t lo, std::size_t hi,
                      bool power_of_two = false);

} // namespace clarray::detail
