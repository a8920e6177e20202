#pragma once
// Copies between allocations of different contexts, which OpenCL has no device path for: through
// host memory, without a host wait (a read on the source queue, a user event of the destination
// context completed by the read's callback, a write on the destination queue behind it).
#include <cstddef>

#include "clarray/runtime/event.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/allocation.hpp"

namespace clarray::multi::detail {

// Copies n bytes from src (at src_offset, used on src_q) to dst (at dst_offset, used on dst_q),
// ordered after both allocations' recorded uses; returns the write's event (dst_q's context).
// The staging memory is freed by the write's completion callback. Flushes both queues.
event copy_across_contexts(const queue& src_q, allocation& src, std::size_t src_offset,
                           const queue& dst_q, allocation& dst, std::size_t dst_offset,
                           std::size_t n);

} // namespace clarray::multi::detail
