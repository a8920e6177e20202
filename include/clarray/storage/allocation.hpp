#pragma once
// One device allocation (an SVM region or a cl_mem), shared by every array and view over it.
//
// It records which queues and events used it, so that
//  * a command on another queue (or on an out-of-order queue) waits for the commands it must
//  follow,
//  * the release follows all of them without blocking: memory whose uses are all complete is freed
//    at once; otherwise clEnqueueSVMFree on the home queue with every recorded event in its wait
//    list (then clFlush), or, where a driver cannot defer SVM frees, the region is parked and freed
//    by a later sweep (runtime/deferred_free.hpp). Buffers: clReleaseMemObject, which OpenCL
//    itself defers until the commands using the object are done.
// Host maps are counted, so a kernel launched over memory with an active write map is an error.
// Foreign memory (memory clarray did not allocate, interop/foreign.hpp) is an allocation too: its
// release lets go of clarray's cl_mem reference and, after the same recorded uses, of the owner
// that keeps the memory valid.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "clarray/runtime/access.hpp"
#include "clarray/runtime/device_memory.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/runtime/queue.hpp"

namespace clarray {

// Counters for tests and diagnostics (process-wide).
struct allocation_stats {
    // Allocations not yet released.
    std::int64_t live_allocations;
    // Bytes of those allocations.
    std::int64_t live_bytes;
    // Events held by usage records of live allocations.
    std::int64_t held_events;
    // Released SVM regions waiting for their commands (NVIDIA path).
    std::int64_t parked_frees;
    // Released blocks that memory pools keep for reuse.
    std::int64_t pool_held_blocks;
    // Events of those blocks' previous uses, still referenced.
    std::int64_t pool_held_events;
    // OpenCL failures in paths that must not throw (unmaps, releases), reported on stderr.
    std::int64_t noexcept_failures;
};
// Live allocations, bytes and pooled blocks of this process, for leak checks.
allocation_stats current_allocation_stats() noexcept;

namespace detail {
// One recorded use of device memory: the command's event and its queue.
struct use_record {
    handle<cl_command_queue> q;
    bool in_order;
    event ev;
};

// Where the block of a pooled allocation goes when the allocation is released: back to its
// pool with the uses of its last owner, whose commands the next owner's must follow. The memory
// layer's pool (memory/pool.hpp) is the one implementation.
class block_recycler {
public:
    virtual ~block_recycler() = default;
    // Takes the block over (keeps or releases it). Never throws.
    virtual void give_back(void* svm, cl_mem mem, std::size_t block_bytes,
                           std::vector<use_record> uses) noexcept = 0;
};

// A pool block handed to a new allocation, with the uses of its previous owners: the new
// allocation starts with them as earlier writers, so its first command on any queue waits for
// whatever a queue order does not already imply (memory/pool.hpp).
struct pool_lease {
    std::shared_ptr<block_recycler> pool;
    void* svm = nullptr;
    cl_mem mem = nullptr;
    std::size_t block_bytes = 0;
    std::vector<use_record> prior_uses;
};

// Memory clarray did not allocate, for allocation's foreign constructor: an SVM pointer (of the
// context, or a host pointer where the device has system SVM) or a cl_mem (a reference the
// allocation takes over), and the owner that keeps it valid (may be null: then whoever made it
// keeps it valid as long as clarray may use it).
struct foreign_memory {
    void* svm = nullptr;
    cl_mem mem = nullptr;
    std::shared_ptr<void> owner;
};

// Releases `owner` once the commands behind `uses` are done, without blocking: at once when they
// are complete, else parked (drivers that cannot defer SVM frees, as release_svm: the owner may
// free SVM) or from the completion callback of a marker enqueued on q after `uses`. The queues
// of `uses` must have been flushed. Never throws.
void release_owner(const context& ctx, cl_command_queue q, std::shared_ptr<void> owner,
                   wait_list uses) noexcept;
// Releases SVM once the commands behind `uses` are done, without blocking: clSVMFree when they
// are complete, else parked (drivers that cannot defer frees) or clEnqueueSVMFree on q with
// `uses` as wait list. The queues of `uses` must have been flushed. Never throws.
void release_svm(const context& ctx, cl_command_queue q, void* svm, wait_list uses) noexcept;
// Process-wide counters of memory pools (current_allocation_stats).
void count_pool_held(std::int64_t blocks, std::int64_t events) noexcept;
} // namespace detail

// One device allocation (an SVM region or a cl_mem), shared by the arrays and views over it; it
// orders the commands that use it and releases the memory after them without blocking.
class allocation final : public detail::tracked_memory {
public:
    // Allocates bytes > 0 for use from `home` (the queue its release is enqueued on). Throws
    // unsupported when the context lacks that SVM kind, out_of_memory when allocation fails.
    allocation(const queue& home, storage_kind kind, std::size_t bytes);
    // Over a pool block (memory/pool.hpp): the release returns the block to the pool instead of
    // freeing it. Does not throw.
    allocation(const queue& home, storage_kind kind, std::size_t bytes, detail::pool_lease lease);
    // Over foreign memory of `bytes` bytes (interop/foreign.hpp checks it): the release drops
    // foreign.mem's reference and releases foreign.owner after every recorded use. Does not
    // throw.
    allocation(const queue& home, storage_kind kind, std::size_t bytes,
               detail::foreign_memory foreign);
    ~allocation() override;
    allocation(const allocation&) = delete;
    allocation& operator=(const allocation&) = delete;

    // The kind of memory (coarse SVM, fine SVM or buffer).
    storage_kind kind() const noexcept { return kind_; }
    // Size in bytes, as requested.
    std::size_t bytes() const noexcept { return bytes_; }
    // The SVM pointer (null for a buffer).
    void* svm_pointer() const noexcept { return svm_; }
    // The cl_mem of a buffer (null for SVM; see as_buffer()).
    cl_mem buffer() const noexcept { return mem_; }
    // The memory as a cl_mem, for libraries that take Buffers only (CLBlast): a Buffer's own
    // cl_mem, or for SVM a Buffer over the region (CL_MEM_USE_HOST_PTR with the SVM pointer,
    // which OpenCL 2.0 defines to use the SVM memory itself), made on first use and released
    // with the allocation, before the region (OpenCL defers its deletion until the commands
    // using it are done). Throws cl_error when the driver refuses to create it.
    cl_mem as_buffer();
    // The queue the release is enqueued on.
    const queue& home_queue() const noexcept { return home_; }
    // The context of the memory.
    const clarray::context& context() const noexcept { return home_.context(); }
    // The pool the memory came from (null for memory of its own). Temporaries made "like" this
    // allocation come from the same pool (detail::make_allocation_like, detail::pool_of).
    const std::shared_ptr<detail::block_recycler>& pool() const noexcept { return pool_; }
    // Bytes of the underlying block: bytes() rounded up to the pool's size bin, or bytes().
    std::size_t block_bytes() const noexcept { return block_bytes_; }
    // Whether the memory is foreign (not allocated by clarray).
    bool is_foreign() const noexcept { return foreign_; }

    // Records the command `e` of code outside clarray (another library, the user's own enqueue)
    // that touched this memory with access `a`: every later command that must follow it waits
    // for it, on any queue (its queue's order is not known), and the release follows it. A user
    // event (no queue) is recorded with q.
    void record_foreign(const queue& q, access a, const event& e);
    // The events a command outside clarray that touches this memory with access `a` must wait
    // for: the last writers, and for a write also the readers since. Flushes their queues.
    wait_list uses_before(access a);

    // Adds to `out` the events a command on q that touches this memory with access `a` must wait
    // for: earlier writers (and, for writes, readers) on other queues, or on q when q is out of
    // order. Flushes those queues, as cross-queue waits require.
    void add_dependencies(const queue& q, access a, wait_list& out) override;
    // Records that the command `e` on q touched this memory with access `a`.
    void record(const queue& q, access a, const event& e) override;
    // Throws usage_error when a command with access `a` must not start now because host maps are
    // active (a write map blocks everything, a read map blocks writers). Fine SVM is exempt.
    void check_not_mapped(access a, const char* what) const override;

    // Blocking host transfers of a byte range, ordered after the recorded uses.
    //@{
    void read(const queue& q, std::size_t offset, std::size_t n, void* dst);
    void write(const queue& q, std::size_t offset, std::size_t n, const void* src);
    //@}
    // A host-to-device write that does not block: src is copied into a staging block the
    // command owns (freed by the command's completion callback), so the caller may reuse src at
    // once. Ordered after the recorded uses; returns the write's event.
    event write_staged(const queue& q, std::size_t offset, std::size_t n, const void* src);
    // Asynchronous host transfers of a byte range, ordered after the recorded uses and `deps`
    // (events of q's context); the host memory must stay valid until the returned event
    // completes. Moving data between contexts goes through them.
    //@{
    event read_async(const queue& q, std::size_t offset, std::size_t n, void* dst,
                     const wait_list& deps = {});
    event write_async(const queue& q, std::size_t offset, std::size_t n, const void* src,
                      const wait_list& deps = {});
    //@}
    // Asynchronous device copy / fill (pattern_size a power of two dividing offset and n).
    //@{
    event copy_from(const queue& q, allocation& src, std::size_t src_offset, std::size_t dst_offset,
                    std::size_t n);
    event fill(const queue& q, const void* pattern, std::size_t pattern_size, std::size_t offset,
               std::size_t n);
    //@}

    // Host view of [offset, offset+n): returns once the host may touch it. `a == write` may
    // discard the old contents. Every map must be matched by exactly one unmap with the same
    // arguments; unmap enqueues (never waits) and never throws.
    //@{
    void* map(const queue& q, access a, std::size_t offset, std::size_t n);
    void unmap(const queue& q, void* host, access a, std::size_t offset, std::size_t n) noexcept;
    //@}

private:
    using use_record = detail::use_record;
    void record_locked(const queue& q, access a, const event& e);
    void collect_locked(const queue& q, access a, wait_list& out);
    wait_list all_uses_locked();

    queue home_;
    storage_kind kind_;
    bool emulate_coarse_;
    std::size_t bytes_;
    std::size_t block_bytes_;
    std::shared_ptr<detail::block_recycler> pool_;
    bool foreign_ = false;
    std::shared_ptr<void> foreign_owner_;
    void* svm_ = nullptr;
    cl_mem mem_ = nullptr;
    cl_mem svm_as_buffer_ = nullptr; // as_buffer() of SVM, guarded by mutex_
    mutable std::mutex mutex_;
    std::vector<use_record> writers_; // the last write(s)
    std::vector<use_record> readers_; // reads since the last write
    std::atomic<int> write_maps_{0};
    std::atomic<int> read_maps_{0};
    // Active maps of coarse SVM (byte offset, bytes, views sharing it), guarded by mutex_: a read
    // map inside an active read map shares it, because a region may be unmapped only once (NVIDIA
    // rejects the second unmap of a doubly mapped pointer with CL_INVALID_VALUE).
    struct svm_map_record {
        std::size_t offset, n;
        int views;
    };
    std::vector<svm_map_record> svm_maps_;
};

} // namespace clarray
