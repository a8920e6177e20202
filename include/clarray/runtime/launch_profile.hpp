#pragma once
// CLARRAY_PROFILE=1: every queue records its commands' times, and each kernel that clarray
// launches is added to a table printed to stderr when the process exits (kernel name, launches,
// total and mean device time): where a program's device time goes. Commands that are not
// clarray's kernel launches (copies, fills, CLBlast's and VkFFT's kernels) are not in it.
#include <string>

#include "clarray/runtime/event.hpp"

namespace clarray::detail {

// Whether CLARRAY_PROFILE is set (read once).
bool launch_profile_on();

// Adds the launch of kernel `name` whose command is `e` (a queue with profiling) to the table.
void launch_profile_record(const std::string& name, const event& e);

} // namespace clarray::detail
