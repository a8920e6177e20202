#pragma once
// How commands and host views touch memory (read by the launch path and by allocations).

namespace clarray {

// How a command or host view touches memory. `write` promises that every element of the view is
// overwritten, so its old contents need not be fetched.
enum class access { read, write, read_write };

// Whether the access writes.
inline bool writes(access a) noexcept { return a != access::read; }
// Whether the access reads.
inline bool reads(access a) noexcept { return a != access::write; }

} // namespace clarray
