#pragma once
// Environment settings read by the library (the README's table lists them; the tuning table's
// overrides: docs/internals/tuning.md). Internal.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>

namespace clarray::detail {

// True when variable `name` is set, non-empty and not "0".
bool env_flag(const char* name);

// The value of variable `name` as a count: `fallback` when unset or empty; a value that is not a
// whole number in [lo, hi] (or, with power_of_two, not a power of two) throws usage_error naming
// the variable and the accepted values.
std::size_t env_count(const char* name, std::size_t fallback, std::size_t lo, std::size_t hi,
                      bool power_of_two = false);

// The value of variable `name` as one of `choices`: its index there, `fallback` when unset or
// empty; any other value throws usage_error naming the variable and the choices.
std::size_t env_choice(const char* name, std::initializer_list<const char*> choices,
                       std::size_t fallback);

// As env_count and env_choice, for a value `value` of variable `name` already looked up (null or
// empty: unset); the tuning table reads its overrides through an injected lookup with these.
std::size_t count_setting(const char* name, const char* value, std::size_t fallback, std::size_t lo,
                          std::size_t hi, bool power_of_two = false);
std::size_t choice_setting(const char* name, const char* value,
                           std::initializer_list<const char*> choices, std::size_t fallback);

// The value of variable `name` as a byte count: nullopt when unset or empty; "unlimited" gives
// UINT64_MAX; otherwise a whole number with an optional binary suffix K, M, G or T
// (case-insensitive, optionally followed by "B" or "iB": 512M, 4GiB). Anything else, or an
// overflow, throws usage_error naming the variable and the accepted forms.
std::optional<std::uint64_t> env_bytes(const char* name);

} // namespace clarray::detail
