#include "clarray/memory/pool.hpp"

#include <algorithm>
#include <string>

#include "clarray/error.hpp"
#include "clarray/runtime/context_state.hpp"

namespace clarray::detail {

namespace {
// A held block is scanned for one that needs no wait at most this deep (newest first).
constexpr std::size_t reuse_scan_depth = 16;

bool event_complete(const event& e) noexcept {
    cl_int status = CL_QUEUED;
    return clGetEventInfo(e.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                          nullptr) == CL_SUCCESS &&
           status <= CL_COMPLETE; // negative: the command failed, it is over
}

// True when a command on q is ordered after every use without waiting on an event: each use is
// complete (pruned) or an earlier command of the same in-order queue.
bool needs_no_wait(const std::vector<use_record>& uses, const queue& q) noexcept {
    if (uses.empty()) return true;
    if (q.is_out_of_order()) return false;
    return std::all_of(uses.begin(), uses.end(),
                       [&](const use_record& u) { return u.q.get() == q.get() && u.in_order; });
}

void flush_queues(const std::vector<use_record>& uses) noexcept {
    for (const use_record& u : uses)
        clFlush(u.q.get());
}

void check_pool_kind(const context& ctx, storage_kind kind) {
    if (kind == storage_kind::buffer) return;
    const bool fine = kind == storage_kind::svm_fine;
    svm_capabilities caps = ctx.svm_caps();
    if (fine ? !caps.fine : !caps.coarse)
        throw unsupported(
            std::string("svm_pool<") + storage_name(kind) + ">: device '" + ctx.device().name() +
            "' does not support " + (fine ? "fine" : "coarse") + "-grained buffer SVM" +
            (ctx.options().disable_svm ? " (SVM disabled by CLARRAY_DISABLE_SVM)" : "") +
            "; use clarray::buffer_pool");
}
} // namespace

pool_core::pool_core(const context& ctx, storage_kind kind,
                     std::shared_ptr<raw_allocator> allocator, std::uint64_t max_held_bytes)
    : ctx_(ctx), kind_(kind),
      allocator_(allocator ? std::move(allocator) : std::make_shared<opencl_allocator>()),
      max_held_bytes_(max_held_bytes) {
    check_pool_kind(ctx, kind);
}

pool_core::~pool_core() {
    free_held();
}

std::size_t pool_core::prune_locked(held_block& b) noexcept {
    const std::size_t before = b.uses.size();
    b.uses.erase(std::remove_if(b.uses.begin(), b.uses.end(),
                                [](const use_record& u) { return event_complete(u.ev); }),
                 b.uses.end());
    const std::size_t dropped = before - b.uses.size();
    stats_.held_events -= static_cast<std::int64_t>(dropped);
    count_pool_held(0, -static_cast<std::int64_t>(dropped));
    return dropped;
}

void pool_core::forget_held_locked(const held_block& b) noexcept {
    stats_.held_blocks -= 1;
    stats_.held_bytes -= static_cast<std::int64_t>(b.bytes);
    stats_.held_events -= static_cast<std::int64_t>(b.uses.size());
    count_pool_held(-1, -static_cast<std::int64_t>(b.uses.size()));
}

bool pool_core::take_held(pool_bins::bin_t bin, const queue& q, held_block& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = bins_.find(bin);
    if (it == bins_.end() || it->second.empty()) return false;
    std::vector<held_block>& blocks = it->second;
    // Newest first (its memory is likely still in cache); the first that needs no wait wins.
    std::size_t pick = blocks.size();
    for (std::size_t i = blocks.size(), scanned = 0; i-- > 0 && scanned < reuse_scan_depth;
         ++scanned) {
        prune_locked(blocks[i]);
        if (needs_no_wait(blocks[i].uses, q)) {
            pick = i;
            break;
        }
    }
    bool behind_pending = false;
    if (pick == blocks.size()) {
        // Every candidate has pending uses elsewhere: take the oldest, the likeliest to be done.
        pick = 0;
        prune_locked(blocks[0]);
        behind_pending = !needs_no_wait(blocks[0].uses, q);
    }
    forget_held_locked(blocks[pick]);
    out = std::move(blocks[pick]);
    blocks.erase(blocks.begin() + static_cast<std::ptrdiff_t>(pick));
    stats_.reuses += 1;
    if (behind_pending) stats_.reuses_behind_pending_work += 1;
    return true;
}

std::shared_ptr<allocation> pool_core::allocate(const queue& q, std::size_t bytes) {
    const char* kind_name = storage_name(kind_);
    if (bytes == 0)
        throw usage_error(std::string("memory pool (") + kind_name +
                          "): allocation of 0 bytes (zero-size arrays own no memory)");
    if (q.context() != ctx_)
        throw usage_error(std::string("memory pool (") + kind_name +
                          "): the queue belongs to another context than the pool");
    const device& dev = ctx_.device();
    if (bytes > dev.max_alloc_size())
        throw out_of_memory(std::string("memory pool (") + kind_name +
                            "): " + std::to_string(bytes) + " bytes requested on '" + dev.name() +
                            "', CL_DEVICE_MAX_MEM_ALLOC_SIZE is " +
                            std::to_string(dev.max_alloc_size()));
    const pool_bins::bin_t bin = pool_bins::bin_number(bytes);
    held_block b;
    if (!take_held(bin, q, b)) {
        // Every request of this bin fits a block of the bin's size (capped at the device limit,
        // which no request exceeds).
        b.bytes = static_cast<std::size_t>(
            std::min<std::uint64_t>(pool_bins::alloc_size(bin), dev.max_alloc_size()));
        raw_block r = allocate_block(bytes, b.bytes);
        b.svm = r.svm;
        b.mem = r.mem;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stats_.live_allocations += 1;
        stats_.live_bytes += static_cast<std::int64_t>(b.bytes);
    }
    pool_lease lease{shared_from_this(), b.svm, b.mem, b.bytes, std::move(b.uses)};
    try {
        return std::make_shared<allocation>(q, kind_, bytes, std::move(lease));
    } catch (...) { // the allocation was never made: the lease is intact, keep the block
        give_back(lease.svm, lease.mem, lease.block_bytes, std::move(lease.prior_uses));
        throw;
    }
}

raw_block pool_core::allocate_block(std::size_t request, std::size_t block_bytes) {
    raw_block r = allocator_->allocate(ctx_, kind_, block_bytes);
    auto count_retry = [&] {
        std::lock_guard<std::mutex> lock(mutex_);
        stats_.oom_retries += 1;
    };
    // Out of memory: what this pool and the context's default pools (all kinds share the
    // device's memory) hold may be what is missing. Blocks nobody uses any more first (no
    // waiting)...
    if (!r && free_idle_held() + release_default_pools_for_oom(ctx_, this, false) > 0) {
        count_retry();
        r = allocator_->allocate(ctx_, kind_, block_bytes);
    }
    // ...then, the one blocking path, taken only under memory pressure: wait for the held
    // blocks' last uses and for SVM parked behind pending work, free them, retry.
    if (!r) {
        std::size_t released =
            wait_and_free_held() + release_default_pools_for_oom(ctx_, this, true);
        if (kind_ != storage_kind::buffer) released += ctx_.state().svm_frees.drain(ctx_.get());
        if (released > 0) {
            count_retry();
            r = allocator_->allocate(ctx_, kind_, block_bytes);
        }
    }
    if (!r)
        throw out_of_memory(std::string("memory pool (") + storage_name(kind_) +
                            "): out of device memory for a block of " +
                            std::to_string(block_bytes) + " bytes (request of " +
                            std::to_string(request) + " bytes) on '" + ctx_.device().name() +
                            "', after releasing the pool's held blocks");
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.device_allocations += 1;
    return r;
}

void pool_core::give_back(void* svm, cl_mem mem, std::size_t block_bytes,
                          std::vector<use_record> uses) noexcept {
    held_block b;
    b.svm = svm;
    b.mem = mem;
    b.bytes = block_bytes;
    b.uses = std::move(uses);
    // Later cross-queue waits and status polls need the commands on their way to the device.
    flush_queues(b.uses);
    std::unique_lock<std::mutex> lock(mutex_);
    stats_.live_allocations -= 1;
    stats_.live_bytes -= static_cast<std::int64_t>(block_bytes);
    if (holding_ && block_bytes > max_held_bytes_) {
        stats_.limit_releases += 1; // holding it alone would pass the limit
        lock.unlock();
        release(b);
        return;
    }
    // Make room: the oldest held blocks go first, one at a time, released outside the lock.
    held_block oldest;
    while (holding_ &&
           static_cast<std::uint64_t>(stats_.held_bytes) + block_bytes > max_held_bytes_ &&
           take_oldest_locked(oldest)) {
        stats_.limit_releases += 1;
        lock.unlock();
        release(oldest);
        lock.lock();
    }
    if (holding_) { // tested again: stop_holding may have run while the lock was released
        try {
            b.age = next_age_++;
            std::vector<held_block>& blocks = bins_[pool_bins::bin_number(block_bytes)];
            blocks.push_back(std::move(b)); // strong guarantee: b is intact if this throws
            const held_block& kept = blocks.back();
            stats_.held_blocks += 1;
            stats_.held_bytes += static_cast<std::int64_t>(kept.bytes);
            stats_.held_events += static_cast<std::int64_t>(kept.uses.size());
            count_pool_held(1, static_cast<std::int64_t>(kept.uses.size()));
            return;
        } catch (...) { // no host memory to hold it: release it instead
        }
    }
    lock.unlock();
    release(b);
}

bool pool_core::take_oldest_locked(held_block& out) noexcept {
    // Each bin is ordered oldest first, so the oldest block is at the front of one of them.
    std::vector<held_block>* from = nullptr;
    for (auto& bin : bins_)
        if (!bin.second.empty() && (!from || bin.second.front().age < from->front().age))
            from = &bin.second;
    if (!from) return false;
    forget_held_locked(from->front());
    out = std::move(from->front());
    from->erase(from->begin());
    return true;
}

void pool_core::release(held_block& b) noexcept {
    if (b.mem) {
        // OpenCL defers the deletion until the commands using the buffer have finished.
        clReleaseMemObject(b.mem);
    } else if (b.svm) {
        cl_command_queue q = b.uses.empty() ? nullptr : b.uses.front().q.get();
        flush_queues(b.uses);
        try {
            wait_list uses;
            for (const use_record& u : b.uses)
                uses.add(u.ev);
            release_svm(ctx_, q, b.svm, std::move(uses));
        } catch (...) { // no host memory for the wait list: wait for each use, then free
            for (const use_record& u : b.uses) {
                cl_event e = u.ev.get();
                clWaitForEvents(1, &e);
            }
            clSVMFree(ctx_.get(), b.svm);
        }
    }
    b.svm = nullptr;
    b.mem = nullptr;
    b.uses.clear();
}

std::size_t pool_core::free_held() noexcept {
    std::map<pool_bins::bin_t, std::vector<held_block>> all;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        all.swap(bins_);
        for (auto& bin : all)
            for (held_block& b : bin.second)
                forget_held_locked(b);
    }
    std::size_t n = 0;
    for (auto& bin : all)
        for (held_block& b : bin.second) {
            release(b);
            ++n;
        }
    return n;
}

std::size_t pool_core::free_idle_held() noexcept {
    std::vector<held_block> idle;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto& bin : bins_) {
            std::vector<held_block>& blocks = bin.second;
            for (std::size_t i = 0; i < blocks.size();) {
                prune_locked(blocks[i]);
                if (!blocks[i].uses.empty()) {
                    ++i;
                    continue;
                }
                try {
                    idle.push_back(std::move(blocks[i]));
                } catch (...) {
                    break; // no host memory: release what we have
                }
                forget_held_locked(idle.back());
                blocks.erase(blocks.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
    }
    for (held_block& b : idle)
        release(b);
    return idle.size();
}

std::size_t pool_core::wait_and_free_held() noexcept {
    std::map<pool_bins::bin_t, std::vector<held_block>> all;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        all.swap(bins_);
        for (auto& bin : all)
            for (held_block& b : bin.second)
                forget_held_locked(b);
    }
    std::size_t n = 0;
    for (auto& bin : all)
        for (held_block& b : bin.second) {
            flush_queues(b.uses);
            for (const use_record& u : b.uses) {
                cl_event e = u.ev.get();
                clWaitForEvents(1, &e);
            }
            b.uses.clear(); // all complete: release frees at once
            release(b);
            ++n;
        }
    return n;
}

void pool_core::stop_holding() noexcept {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        holding_ = false;
    }
    free_held();
}

pool_stats pool_core::stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
}

namespace {
// A context's default pools, one per storage kind, made on first use (context_options::
// use_default_pool; make_allocation_like). They hold a non-owning context: every allocation over
// their blocks keeps the context alive itself.
struct default_pools final : context_extension {
    std::mutex mutex;
    std::shared_ptr<pool_core> pools[3];

    // The context's teardown: stops the pools holding; their held blocks are freed, or parked
    // behind their uses before the context waits for its parked frees.
    void release() noexcept override {
        std::shared_ptr<pool_core> taken[3];
        {
            std::lock_guard<std::mutex> lock(mutex);
            for (int k = 0; k < 3; ++k)
                taken[k] = std::move(pools[k]);
        }
        for (auto& p : taken)
            if (p) p->stop_holding();
    }
};

// The default pools made so far (null where none), copied out under the lock.
void existing_default_pools(context_state& st, std::shared_ptr<pool_core> (&out)[3]) noexcept {
    default_pools* d = st.find_extension<default_pools>();
    if (!d) return;
    std::lock_guard<std::mutex> lock(d->mutex);
    for (int k = 0; k < 3; ++k)
        out[k] = d->pools[k];
}
} // namespace

std::shared_ptr<pool_core> default_pool(const context& ctx, storage_kind kind) {
    if (!ctx.options().use_default_pool) return nullptr;
    const svm_capabilities caps = ctx.svm_caps();
    if ((kind == storage_kind::svm_coarse && !caps.coarse) ||
        (kind == storage_kind::svm_fine && !caps.fine))
        return nullptr; // the plain allocation throws the usual unsupported error
    context_state& st = ctx.state();
    default_pools& d = st.extension<default_pools>();
    std::lock_guard<std::mutex> lock(d.mutex);
    std::shared_ptr<pool_core>& p = d.pools[static_cast<int>(kind)];
    if (!p) {
        p = std::make_shared<pool_core>(st.non_owning_handle(), kind,
                                        ctx.options().default_pool_allocator,
                                        default_pool_limit(ctx));
        p->mark_default_pool();
    }
    return p;
}

std::size_t release_default_pools_for_oom(const context& ctx, const pool_core* except,
                                          bool wait) noexcept {
    std::shared_ptr<pool_core> pools[3];
    existing_default_pools(ctx.state(), pools);
    std::size_t released = 0;
    for (auto& p : pools)
        if (p && p.get() != except)
            released += wait ? p->wait_and_free_held() : p->free_idle_held();
    return released;
}

std::shared_ptr<allocation> make_allocation_like(const queue& q, storage_kind kind,
                                                 std::size_t bytes, const allocation* like) {
    // Only user pools propagate: a result made like a default-pool block comes from the default
    // pool of its own kind anyway.
    pool_core* pool = like ? pool_of(*like) : nullptr;
    if (pool && !pool->is_default_pool() && pool->kind() == kind &&
        pool->get_context() == q.context())
        return pool->allocate(q, bytes);
    if (std::shared_ptr<pool_core> p = default_pool(q.context(), kind))
        return p->allocate(q, bytes);
    return std::make_shared<allocation>(q, kind, bytes);
}
std::shared_ptr<allocation> make_temporary_like(const queue& q, storage_kind kind,
                                                std::size_t bytes, const allocation* like) {
    return make_allocation_like(q, kind, bytes, like);
}

} // namespace clarray::detail

namespace clarray {

std::size_t free_cached(const context& ctx) noexcept {
    std::shared_ptr<detail::pool_core> pools[3];
    detail::existing_default_pools(ctx.state(), pools);
    std::size_t released = 0;
    for (auto& p : pools)
        if (p) released += p->free_held();
    ctx.state().svm_frees.sweep(ctx.get()); // status queries only
    return released;
}

pool_stats pool_statistics(const context& ctx, storage_kind kind) {
    std::shared_ptr<detail::pool_core> pools[3];
    detail::existing_default_pools(ctx.state(), pools);
    const auto& p = pools[static_cast<int>(kind)];
    return p ? p->stats() : pool_stats{};
}

std::uint64_t default_pool_limit(const context& ctx) noexcept {
    if (ctx.options().default_pool_limit) return *ctx.options().default_pool_limit;
    return ctx.device().global_mem_size() / 2;
}

} // namespace clarray
