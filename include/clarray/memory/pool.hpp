#pragma once
// Memory pools: released blocks are kept in size bins (memory/bins.hpp) and handed out again,
// so that allocation-heavy code (temporaries, results) does not pay clSVMAlloc/clSVMFree or
// clCreateBuffer each time, and, on drivers that cannot free SVM behind pending work, does not
// free at all while it holds a block.
//
// Every array comes from a pool: the context's default pool of its storage kind unless it was
// made with an explicit one (context_options::use_default_pool; ca::free_cached,
// ca::pool_statistics below).
//
//   ca::svm_pool<ca::svm_coarse> pool(ctx);          // or svm_pool<svm_fine>, buffer_pool
//   ca::cl_array<float> a(q, {n}, pool);             // storage from the pool
//   auto z = ca::zeros<float>(q, {n}, pool);         // factories take a pool too
//   ca::cl_array<float> c = a + z;                   // results, copies, temporaries: same pool
//
// Safety across queues (docs/internals/memory.md): a released block keeps the events of every
// command that used it; the next allocation over the block starts with them as earlier writers, so
// its first command waits for exactly what its queue's order does not already imply (nothing when
// it runs on the same in-order queue, which is why that reuse is preferred). Final frees never
// block and never free early: complete blocks are freed, others go to the library's release path.
// One pool kind per storage kind: an SVM block can never serve a Buffer array (compile error).
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "clarray/memory/bins.hpp"
#include "clarray/memory/raw_allocator.hpp"
#include "clarray/runtime/context.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/allocation.hpp"
#include "clarray/storage/policies.hpp"

namespace clarray {

// A pool's counters (block bytes are the bins' sizes, not the requested ones).
struct pool_stats {
    // Allocations over blocks of this pool.
    std::int64_t live_allocations = 0;
    // Block bytes of those.
    std::int64_t live_bytes = 0;
    // Released blocks kept for reuse.
    std::int64_t held_blocks = 0;
    // Block bytes of those.
    std::int64_t held_bytes = 0;
    // Events of held blocks' previous uses, still referenced.
    std::int64_t held_events = 0;
    // Blocks obtained from the raw allocator.
    std::uint64_t device_allocations = 0;
    // Requests served from held blocks.
    std::uint64_t reuses = 0;
    // Reuses whose block still had pending uses that the new owner's queue order does not imply
    // (another queue, or an out-of-order queue): its first command waits for them.
    std::uint64_t reuses_behind_pending_work = 0;
    // Allocations retried after releasing held blocks.
    std::uint64_t oom_retries = 0;
    // Blocks released when given back because holding them would pass the pool's limit on held
    // bytes (the oldest held blocks, or the given-back block itself when larger than the limit).
    std::uint64_t limit_releases = 0;
};

// Settings of a user memory pool.
struct pool_options {
    // Where the pool gets new blocks from (null: opencl_allocator).
    std::shared_ptr<raw_allocator> allocator;
    // The most bytes the pool keeps held for reuse (see pool_stats::limit_releases).
    std::uint64_t max_held_bytes = ~std::uint64_t(0);
};

namespace detail {

// The shared state of a pool; allocations over its blocks keep it alive (allocation::pool()).
class pool_core final : public block_recycler, public std::enable_shared_from_this<pool_core> {
public:
    pool_core(const context& ctx, storage_kind kind, std::shared_ptr<raw_allocator> allocator,
              std::uint64_t max_held_bytes = ~std::uint64_t(0));
    ~pool_core(); // frees the held blocks (never blocks)
    pool_core(const pool_core&) = delete;
    pool_core& operator=(const pool_core&) = delete;

    // An allocation of `bytes` > 0 for use from q (same context): a held block of the request's
    // bin when there is one (preferably one that needs no wait on q), else a new block. Out of
    // memory: releases held blocks and retries, then throws out_of_memory naming the size.
    std::shared_ptr<allocation> allocate(const queue& q, std::size_t bytes);
    // Called by ~allocation: keeps the block with its uses (or releases it if not holding). When
    // holding it would pass max_held_bytes, the oldest held blocks are released first (they are
    // the least likely to be asked for again); a block larger than the limit is released itself.
    void give_back(void* svm, cl_mem mem, std::size_t block_bytes,
                   std::vector<use_record> uses) noexcept override;

    pool_stats stats() const;
    // Releases every held block: complete ones are freed at once, the others through the
    // release path (parked or clEnqueueSVMFree behind their uses; Buffers: clReleaseMemObject).
    // Never blocks. Returns the number of blocks released.
    std::size_t free_held() noexcept;
    // free_held(), and blocks given back from now on are released instead of held.
    void stop_holding() noexcept;
    // Out-of-memory handling (also of the context's other pools): releases the held blocks whose
    // uses are complete, without waiting / waits for the held blocks' uses (blocking) and
    // releases them all. Both return the number of blocks released.
    std::size_t free_idle_held() noexcept;
    std::size_t wait_and_free_held() noexcept;

    storage_kind kind() const noexcept { return kind_; }
    const clarray::context& get_context() const noexcept { return ctx_; }
    std::uint64_t max_held_bytes() const noexcept { return max_held_bytes_; }
    // One of a context's default pools (make_allocation_like), not a user's pool.
    bool is_default_pool() const noexcept { return default_; }
    void mark_default_pool() noexcept { default_ = true; }

private:
    struct held_block {
        void* svm = nullptr;
        cl_mem mem = nullptr;
        std::size_t bytes = 0;
        std::uint64_t age = 0; // order of giving back: the smallest is the oldest held block
        std::vector<use_record> uses;
    };
    bool take_held(pool_bins::bin_t bin, const queue& q, held_block& out);
    raw_block allocate_block(std::size_t request, std::size_t block_bytes);
    // Moves the oldest held block out (false when none is held).
    bool take_oldest_locked(held_block& out) noexcept;
    void release(held_block& b) noexcept;
    std::size_t prune_locked(held_block& b) noexcept;
    void forget_held_locked(const held_block& b) noexcept;

    clarray::context ctx_;
    storage_kind kind_;
    std::shared_ptr<raw_allocator> allocator_;
    mutable std::mutex mutex_;
    std::map<pool_bins::bin_t, std::vector<held_block>> bins_; // newest block last
    std::uint64_t max_held_bytes_;
    std::uint64_t next_age_ = 0;
    bool holding_ = true;
    bool default_ = false;
    pool_stats stats_;
};

// The pool `a`'s block came from (null for memory of its own). pool_core is the one
// block_recycler, so the allocation's recycler is its pool.
inline pool_core* pool_of(const allocation& a) noexcept {
    return static_cast<pool_core*>(a.pool().get());
}

// The one way the library allocates an array, a result or a temporary: from `like`'s pool when
// it has one of this kind and context (a user's pool), else from the context's default pool of
// that kind (context_options::use_default_pool), else memory of its own
// (std::make_shared<allocation>). `like` may be null. bytes > 0.
std::shared_ptr<allocation> make_allocation_like(const queue& q, storage_kind kind,
                                                 std::size_t bytes, const allocation* like);
// A temporary that never reaches the user (reduction and scan partials): the same rule as
// make_allocation_like.
std::shared_ptr<allocation> make_temporary_like(const queue& q, storage_kind kind,
                                                std::size_t bytes, const allocation* like);
// The context's default pool of `kind`, made on first use; null when pooling is off
// (context_options::use_default_pool) or the context lacks that SVM kind.
std::shared_ptr<pool_core> default_pool(const context& ctx, storage_kind kind);
// Out of memory in any pool of the context: what the default pools hold may be what is missing.
// Releases their idle held blocks (wait = false) or, as the last resort, waits for all of them;
// `except` is the pool already handled. Returns the number of blocks released.
std::size_t release_default_pools_for_oom(const context& ctx, const pool_core* except,
                                          bool wait) noexcept;

// The pool handle of one storage policy. Copies share the pool; when the last handle goes, the
// pool stops holding (held blocks are released, live ones are released when their arrays go).
template <class Storage> class typed_pool {
public:
    using storage_policy = Storage;
    explicit typed_pool(const clarray::context& ctx, pool_options opts = {})
        : owner_(std::make_shared<owner>(std::make_shared<pool_core>(
              ctx, Storage::kind, std::move(opts.allocator), opts.max_held_bytes))) {}

    // Raw allocation of `bytes` > 0 for use from q (arrays: cl_array(q, shape, pool)).
    std::shared_ptr<allocation> allocate(const queue& q, std::size_t bytes) const {
        return owner_->core->allocate(q, bytes);
    }
    pool_stats stats() const { return owner_->core->stats(); }
    std::size_t free_held() const noexcept { return owner_->core->free_held(); }
    void stop_holding() const noexcept { owner_->core->stop_holding(); }
    const clarray::context& get_context() const noexcept { return owner_->core->get_context(); }
    detail::pool_core& core() const noexcept { return *owner_->core; }

    friend bool operator==(const typed_pool& a, const typed_pool& b) noexcept {
        return a.owner_ == b.owner_;
    }
    friend bool operator!=(const typed_pool& a, const typed_pool& b) noexcept { return !(a == b); }

private:
    struct owner {
        std::shared_ptr<pool_core> core;
        explicit owner(std::shared_ptr<pool_core> c) : core(std::move(c)) {}
        owner(const owner&) = delete;
        owner& operator=(const owner&) = delete;
        ~owner() { core->stop_holding(); }
    };
    std::shared_ptr<owner> owner_;
};

template <class> inline constexpr bool dependent_false_v = false;

} // namespace detail

// A pool of SVM blocks of one kind: svm_pool<svm_coarse> or svm_pool<svm_fine>. Throws
// unsupported when the context lacks that SVM kind.
template <class Kind> class svm_pool : public detail::typed_pool<Kind> {
    static_assert(std::is_same_v<Kind, svm_coarse> || std::is_same_v<Kind, svm_fine>,
                  "svm_pool<Kind>: Kind must be svm_coarse or svm_fine; Buffer storage is pooled "
                  "by buffer_pool (an SVM block can never serve Buffer storage)");

public:
    using detail::typed_pool<Kind>::typed_pool;
};

// A pool of cl_mem Buffers.
class buffer_pool : public detail::typed_pool<buffer> {
public:
    using detail::typed_pool<buffer>::typed_pool;
};

// The pool type that allocates storage S.
template <class S> struct pool_for;
template <> struct pool_for<svm_coarse> { using type = svm_pool<svm_coarse>; };
template <> struct pool_for<svm_fine> { using type = svm_pool<svm_fine>; };
template <> struct pool_for<buffer> { using type = buffer_pool; };
// The pool type that allocates storage S (`svm_pool<S>` or buffer_pool).
template <class S> using pool_for_t = typename pool_for<S>::type;

// Releases every block the context's default pools hold (all storage kinds) and settles SVM
// frees parked behind work that has finished. Never blocks: blocks still in use are released
// behind their pending commands, as an array's memory is. Live arrays are unaffected. Returns the
// number of blocks released.
std::size_t free_cached(const context& ctx) noexcept;
// The counters of the context's default pool of `kind` (all zero before its first allocation,
// or when pooling is off).
pool_stats pool_statistics(const context& ctx, storage_kind kind);
// The limit on held bytes of each of the context's default pools: context_options::
// default_pool_limit, or half of CL_DEVICE_GLOBAL_MEM_SIZE when unset.
std::uint64_t default_pool_limit(const context& ctx) noexcept;

// Trait: P is a memory pool type (svm_pool<K> or buffer_pool).
template <class P> inline constexpr bool is_memory_pool_v = false;
// SVM pools are memory pools.
template <class K> inline constexpr bool is_memory_pool_v<svm_pool<K>> = true;
// Buffer pools are memory pools.
template <> inline constexpr bool is_memory_pool_v<buffer_pool> = true;

} // namespace clarray
