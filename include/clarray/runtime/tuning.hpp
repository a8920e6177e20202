#pragma once
// The tuning table (device::tuning_t): its values per device kind and the overrides of them,
// applied in one place (docs/internals/tuning.md). Internal.
#include "clarray/runtime/device.hpp"
#include "clarray/runtime/function_ref.hpp"

namespace clarray::detail {

// What the table's values depend on: the device's kind and two of its quirks.
struct tuning_basis {
    device::tuning_t::kind_t kind = device::tuning_t::kind_t::other;
    bool warp_match = false;   // quirks_t::ptx_warp_match
    bool register_cap = false; // quirks_t::register_cap_option is set
};

// A lookup of environment variables: a variable's value, null when it is unset.
using env_lookup = function_ref<const char*(const char*)>;

// The tuning table of a device of `basis` with the overrides `env` finds (CLARRAY_SORT_WG ...:
// the process environment for real devices, injected by tests). A bad override throws
// usage_error naming the variable and the values it accepts.
device::tuning_t make_tuning(const tuning_basis& basis, env_lookup env);

} // namespace clarray::detail
