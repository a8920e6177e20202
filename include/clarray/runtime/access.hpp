#pragma once
// How commands and host views touch memory (read by the launch path and by allocations).

namespace clarray {

// How a command or host view touches memory. `write` promises that every element of the view is
// overwritten, so its old contents need not be fetched.
enum class access { read, write, read_write };

inline bool writes(access a) noexcept { return a != access::read; }
inline bool reads(access a) noexcept { return a != access::write; }

} // namespace clarray
