#include "clarray/storage/allocation.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "clarray/error.hpp"
#include "clarray/runtime/context_state.hpp"
#include "clarray/runtime/device_checks.hpp"

namespace clarray {

namespace {
std::atomic<std::int64_t> g_live_allocations{0};
std::atomic<std::int64_t> g_live_bytes{0};
std::atomic<std::int64_t> g_held_events{0};
std::atomic<std::int64_t> g_pool_held_blocks{0};
std::atomic<std::int64_t> g_pool_held_events{0};
std::atomic<std::int64_t> g_noexcept_failures{0};

// Destructors and unmaps must not throw: report and go on.
void report_noexcept_failure(const char* what, cl_int rc) noexcept {
    g_noexcept_failures.fetch_add(1);
    const char* name = cl_error_name(rc);
    std::fprintf(stderr, "clarray: %s failed: %s (%d)\n", what, name ? name : "unknown", rc);
}

cl_map_flags map_flags(access a) {
    switch (a) {
    case access::read:
        return CL_MAP_READ;
    case access::write:
        return CL_MAP_WRITE_INVALIDATE_REGION;
    case access::read_write:
        break;
    }
    return CL_MAP_READ | CL_MAP_WRITE;
}

// The one host transfer of allocation::read, write, read_async and write_async: bytes
// [offset, offset + n) of the Buffer mem (or of the SVM block svm) read into `host` (a ==
// access::read) or written from it, after deps.
event host_transfer(const queue& q, cl_mem mem, void* svm, access a, bool blocking,
                    std::size_t offset, std::size_t n, void* host, const wait_list& deps) {
    const cl_bool block = blocking ? CL_TRUE : CL_FALSE;
    cl_event e = nullptr;
    if (a == access::read && mem)
        detail::check_cl(
            clEnqueueReadBuffer(q.get(), mem, block, offset, n, host, deps.size(), deps.data(), &e),
            blocking ? "clEnqueueReadBuffer" : "clEnqueueReadBuffer(asynchronous)");
    else if (a == access::read)
        detail::check_cl(clEnqueueSVMMemcpy(q.get(), block, host, static_cast<char*>(svm) + offset,
                                            n, deps.size(), deps.data(), &e),
                         blocking ? "clEnqueueSVMMemcpy(to host)"
                                  : "clEnqueueSVMMemcpy(to host, asynchronous)");
    else if (mem)
        detail::check_cl(clEnqueueWriteBuffer(q.get(), mem, block, offset, n, host, deps.size(),
                                              deps.data(), &e),
                         blocking ? "clEnqueueWriteBuffer" : "clEnqueueWriteBuffer(asynchronous)");
    else
        detail::check_cl(clEnqueueSVMMemcpy(q.get(), block, static_cast<char*>(svm) + offset, host,
                                            n, deps.size(), deps.data(), &e),
                         blocking ? "clEnqueueSVMMemcpy(from host)"
                                  : "clEnqueueSVMMemcpy(from host, asynchronous)");
    return event(e);
}

void CL_CALLBACK free_staging(cl_event, cl_int, void* staging) {
    std::free(staging);
}

// clEnqueueSVMFree's callback: frees the pointers itself (passing NULL, "let the runtime free",
// is legal too; an explicit callback is what every implementation handles).
void CL_CALLBACK free_svm_pointers(cl_command_queue q, cl_uint n, void* ptrs[], void*) {
    cl_context ctx = nullptr;
    if (clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(ctx), &ctx, nullptr) != CL_SUCCESS)
        return;
    for (cl_uint i = 0; i < n; ++i)
        clSVMFree(ctx, ptrs[i]);
}
} // namespace

allocation_stats current_allocation_stats() noexcept {
    return {g_live_allocations.load(),        g_live_bytes.load(),       g_held_events.load(),
            detail::parked_svm_frees_total(), g_pool_held_blocks.load(), g_pool_held_events.load(),
            g_noexcept_failures.load()};
}

namespace detail {
void count_pool_held(std::int64_t blocks, std::int64_t events) noexcept {
    g_pool_held_blocks.fetch_add(blocks);
    g_pool_held_events.fetch_add(events);
}

namespace {
// The completion callback of release_owner's marker: releases the owner it was given.
void CL_CALLBACK release_owner_callback(cl_event, cl_int, void* held) {
    delete static_cast<std::shared_ptr<void>*>(held);
}
} // namespace

void release_owner(const context& ctx, cl_command_queue q, std::shared_ptr<void> owner,
                   wait_list uses) noexcept {
    if (!owner) return;
    using release = device::quirks_t::svm_release;
    if (uses.all_complete()) { // nothing can touch the memory any more
        owner.reset();
        ctx.state().svm_frees.sweep(ctx.get());
        return;
    }
    if (ctx.device().quirks().pending_svm_release == release::park_until_done) {
        ctx.state().svm_frees.park_owner(std::move(owner), std::move(uses));
        ctx.state().svm_frees.sweep(ctx.get());
        return;
    }
    // As clEnqueueSVMFree's callback frees SVM behind its wait list, the marker's callback
    // releases the owner behind it.
    auto* held = new (std::nothrow) std::shared_ptr<void>(std::move(owner));
    cl_event marker = nullptr;
    cl_int rc = held ? clEnqueueMarkerWithWaitList(q, uses.size(), uses.data(), &marker)
                     : CL_OUT_OF_HOST_MEMORY;
    if (rc == CL_SUCCESS) {
        rc = clSetEventCallback(marker, CL_COMPLETE, release_owner_callback, held);
        if (rc != CL_SUCCESS) clWaitForEvents(1, &marker); // the marker follows every use
        clReleaseEvent(marker);
        clFlush(q);
        if (rc == CL_SUCCESS) return;
    }
    // Could not enqueue or register (the device was lost, no host memory): waiting is the only
    // safe way left.
    report_noexcept_failure("releasing the owner of foreign memory (falling back to wait)", rc);
    if (!uses.empty()) clWaitForEvents(uses.size(), uses.data());
    if (held)
        delete held;
    else
        owner.reset();
}

void release_svm(const context& ctx, cl_command_queue q, void* svm, wait_list uses) noexcept {
    cl_event done = nullptr;
    cl_int rc = CL_SUCCESS;
    using release = device::quirks_t::svm_release;
    if (uses.all_complete()) { // nothing can touch the memory any more
        clSVMFree(ctx.get(), svm);
    } else if (ctx.device().quirks().pending_svm_release == release::park_until_done) {
        ctx.state().svm_frees.park(ctx.get(), svm, std::move(uses));
    } else {
        rc = clEnqueueSVMFree(q, 1, &svm, free_svm_pointers, nullptr, uses.size(), uses.data(),
                              &done);
    }
    ctx.state().svm_frees.sweep(ctx.get()); // a free is a good moment to settle parked ones
    if (rc == CL_SUCCESS) {
        if (done) clReleaseEvent(done);
        if (q) clFlush(q);
    } else {
        // Could not enqueue (e.g. the device was lost): waiting is the only safe way left.
        report_noexcept_failure("clEnqueueSVMFree (falling back to wait + clSVMFree)", rc);
        if (!uses.empty()) clWaitForEvents(uses.size(), uses.data());
        clFinish(q);
        clSVMFree(ctx.get(), svm);
    }
}
} // namespace detail

allocation::allocation(const queue& home, storage_kind kind, std::size_t bytes)
    : home_(home), kind_(kind),
      emulate_coarse_(kind == storage_kind::svm_coarse && home.context().options().emulate_coarse),
      bytes_(bytes), block_bytes_(bytes) {
    const clarray::context& ctx = home.context();
    const clarray::device& dev = ctx.device();
    if (bytes == 0) throw usage_error("allocation of 0 bytes (zero-size arrays own no memory)");
    auto too_big = [&](const char* what) {
        return out_of_memory(std::string(what) + ": " + std::to_string(bytes) +
                             " bytes requested on '" + dev.name() +
                             "', CL_DEVICE_MAX_MEM_ALLOC_SIZE is " +
                             std::to_string(dev.max_alloc_size()));
    };
    if (bytes > dev.max_alloc_size()) throw too_big(storage_name(kind));
    if (kind == storage_kind::buffer) {
        cl_int rc = CL_SUCCESS;
        mem_ = clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE, bytes, nullptr, &rc);
        detail::check_cl(rc, "clCreateBuffer");
    } else {
        const bool fine = kind == storage_kind::svm_fine;
        svm_capabilities caps = ctx.svm_caps();
        if (fine ? !caps.fine : !caps.coarse)
            throw unsupported(
                std::string(storage_name(kind)) + " storage: device '" + dev.name() + "' (" +
                dev.version() + ") does not support " + (fine ? "fine" : "coarse") +
                "-grained buffer SVM" +
                (ctx.options().disable_svm ? " (SVM disabled by CLARRAY_DISABLE_SVM)" : "") +
                "; use clarray::buffer storage");
        cl_svm_mem_flags flags = CL_MEM_READ_WRITE | (fine ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0);
        detail::deferred_svm_frees& parked = ctx.state().svm_frees;
        parked.sweep(ctx.get());
        svm_ = clSVMAlloc(ctx.get(), flags, bytes, 0);
        // Memory parked behind finished-but-unswept or still-running work may be what is missing:
        // wait for it (the one blocking path, taken only under memory pressure) and retry.
        if (!svm_ && parked.drain(ctx.get()) > 0) svm_ = clSVMAlloc(ctx.get(), flags, bytes, 0);
        if (!svm_)
            throw out_of_memory(std::string("clSVMAlloc(") + storage_name(kind) + ", " +
                                std::to_string(bytes) + " bytes) returned NULL on '" + dev.name() +
                                "'");
    }
    g_live_allocations.fetch_add(1);
    g_live_bytes.fetch_add(static_cast<std::int64_t>(bytes));
}

allocation::allocation(const queue& home, storage_kind kind, std::size_t bytes,
                       detail::pool_lease lease)
    : home_(home), kind_(kind),
      emulate_coarse_(kind == storage_kind::svm_coarse && home.context().options().emulate_coarse),
      bytes_(bytes), block_bytes_(lease.block_bytes), pool_(std::move(lease.pool)), svm_(lease.svm),
      mem_(lease.mem), writers_(std::move(lease.prior_uses)) {
    // The previous owners' uses count as writers: every command, read or write, follows them
    // (their contents are garbage to us, but they may still be running over this memory).
    g_held_events.fetch_add(static_cast<std::int64_t>(writers_.size()));
    g_live_allocations.fetch_add(1);
    g_live_bytes.fetch_add(static_cast<std::int64_t>(bytes));
}

allocation::allocation(const queue& home, storage_kind kind, std::size_t bytes,
                       detail::foreign_memory foreign)
    : home_(home), kind_(kind),
      emulate_coarse_(kind == storage_kind::svm_coarse && home.context().options().emulate_coarse),
      bytes_(bytes), block_bytes_(bytes), foreign_(true), foreign_owner_(std::move(foreign.owner)),
      svm_(foreign.svm), mem_(foreign.mem) {
    g_live_allocations.fetch_add(1);
    g_live_bytes.fetch_add(static_cast<std::int64_t>(bytes));
}

wait_list allocation::all_uses_locked() {
    wait_list all;
    for (const use_record& u : writers_)
        all.add(u.ev);
    for (const use_record& u : readers_)
        all.add(u.ev);
    return all;
}

cl_mem allocation::as_buffer() {
    if (mem_) return mem_;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!svm_as_buffer_) {
        cl_int rc = CL_SUCCESS;
        svm_as_buffer_ = clCreateBuffer(home_.context().get(),
                                        CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes_, svm_, &rc);
        detail::check_cl(rc, "clCreateBuffer(CL_MEM_USE_HOST_PTR over SVM)");
    }
    return svm_as_buffer_;
}

allocation::~allocation() {
    if (svm_as_buffer_) {
        // Deletion waits for the commands that use it; the region itself goes below, ordered
        // after the same commands.
        cl_int rc = clReleaseMemObject(svm_as_buffer_);
        if (rc != CL_SUCCESS) report_noexcept_failure("clReleaseMemObject (SVM as Buffer)", rc);
    }
    if (pool_) {
        // Back to the pool with our uses: its next owner's commands are ordered after them.
        std::vector<use_record> uses;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            g_held_events.fetch_sub(static_cast<std::int64_t>(writers_.size() + readers_.size()));
            uses = std::move(writers_);
            try {
                uses.insert(uses.end(), std::make_move_iterator(readers_.begin()),
                            std::make_move_iterator(readers_.end()));
            } catch (...) { // no host memory to keep the readers: wait for them (rare, blocking)
                for (const use_record& u : readers_) {
                    clFlush(u.q.get());
                    cl_event e = u.ev.get();
                    clWaitForEvents(1, &e);
                }
            }
            writers_.clear();
            readers_.clear();
        }
        pool_->give_back(svm_, mem_, block_bytes_, std::move(uses));
    } else if (foreign_) {
        wait_list all;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            all = all_uses_locked();
            for (const auto* list : {&writers_, &readers_})
                for (const use_record& u : *list)
                    if (u.q.get() != home_.get()) clFlush(u.q.get());
            g_held_events.fetch_sub(static_cast<std::int64_t>(writers_.size() + readers_.size()));
            writers_.clear();
            readers_.clear();
        }
        if (mem_) { // clarray's reference; OpenCL defers the deletion past the commands using it
            cl_int rc = clReleaseMemObject(mem_);
            if (rc != CL_SUCCESS) report_noexcept_failure("clReleaseMemObject (foreign)", rc);
        }
        detail::release_owner(home_.context(), home_.get(), std::move(foreign_owner_),
                              std::move(all));
    } else {
        wait_list all;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            all = all_uses_locked();
            // A cross-queue wait needs the waited-for commands flushed to their device.
            for (const auto* list : {&writers_, &readers_})
                for (const use_record& u : *list)
                    if (u.q.get() != home_.get()) clFlush(u.q.get());
            g_held_events.fetch_sub(static_cast<std::int64_t>(writers_.size() + readers_.size()));
            writers_.clear();
            readers_.clear();
        }
        if (mem_) {
            // OpenCL defers the deletion until the commands using the buffer have finished.
            cl_int rc = clReleaseMemObject(mem_);
            if (rc != CL_SUCCESS) report_noexcept_failure("clReleaseMemObject", rc);
        } else if (svm_) {
            // Ordered after everything on the (in-order) home queue and after every recorded use.
            detail::release_svm(home_.context(), home_.get(), svm_, std::move(all));
        }
    }
    g_live_allocations.fetch_sub(1);
    g_live_bytes.fetch_sub(static_cast<std::int64_t>(bytes_));
}

void allocation::collect_locked(const queue& q, access a, wait_list& out) {
    auto take = [&](const std::vector<use_record>& list) {
        for (const use_record& u : list) {
            bool same_queue = u.q.get() == q.get();
            if (same_queue && u.in_order) continue; // the queue orders it already
            if (!same_queue) clFlush(u.q.get());
            out.add(u.ev);
        }
    };
    take(writers_);
    if (writes(a)) take(readers_);
}

void allocation::add_dependencies(const queue& q, access a, wait_list& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    collect_locked(q, a, out);
}

void allocation::record_locked(const queue& q, access a, const event& e) {
    if (!e) return;
    std::int64_t before = static_cast<std::int64_t>(writers_.size() + readers_.size());
    const bool in_order = !q.is_out_of_order();
    // A record of the same queue lends its queue reference: no retain/release per launch.
    auto queue_ref = [&]() {
        for (auto* list : {&writers_, &readers_})
            for (use_record& r : *list)
                if (r.q.get() == q.get()) return std::move(r.q);
        return detail::handle<cl_command_queue>::retain(q.get());
    };
    if (writes(a)) {
        // The writer waited for every earlier use, so its completion implies theirs.
        use_record u{queue_ref(), in_order, e};
        writers_.clear();
        readers_.clear();
        writers_.push_back(std::move(u));
    } else {
        bool replaced = false;
        if (in_order)
            for (use_record& r : readers_)
                if (r.q.get() == q.get()) { // later command on the same in-order queue ends later
                    r.ev = e;
                    replaced = true;
                    break;
                }
        if (!replaced) {
            if (readers_.size() >= 32) { // keep out-of-order read lists short
                std::vector<use_record> pending;
                for (use_record& r : readers_)
                    if (!r.ev.is_complete()) pending.push_back(std::move(r));
                readers_ = std::move(pending);
            }
            readers_.push_back(
                use_record{detail::handle<cl_command_queue>::retain(q.get()), in_order, e});
        }
    }
    g_held_events.fetch_add(static_cast<std::int64_t>(writers_.size() + readers_.size()) - before);
}

void allocation::record(const queue& q, access a, const event& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    record_locked(q, a, e);
}

namespace {
// Whether e's command may still run (a status that cannot be read counts as running).
bool pending(const event& e) noexcept {
    cl_int status = CL_QUEUED;
    return clGetEventInfo(e.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                          nullptr) != CL_SUCCESS ||
           status > CL_COMPLETE;
}
} // namespace

void allocation::record_foreign(const queue& q, access a, const event& e) {
    if (!e) return;
    cl_command_queue eq = nullptr;
    detail::check_cl(clGetEventInfo(e.get(), CL_EVENT_COMMAND_QUEUE, sizeof(eq), &eq, nullptr),
                     "clGetEventInfo(CL_EVENT_COMMAND_QUEUE)");
    if (!eq) eq = q.get(); // a user event: q is the queue to flush and release on
    // Not "in order": no clarray queue's order implies a foreign command's completion.
    use_record u{detail::handle<cl_command_queue>::retain(eq), false, e};
    std::lock_guard<std::mutex> lock(mutex_);
    std::int64_t before = static_cast<std::int64_t>(writers_.size() + readers_.size());
    if (writes(a)) {
        // Unlike a clarray writer, a foreign one may not have waited for the earlier uses: keep
        // those still pending, so that what follows (and the release) still waits for all.
        std::vector<use_record> kept;
        kept.reserve(writers_.size() + readers_.size() + 1); // no throw once records move
        for (auto* list : {&writers_, &readers_})
            for (use_record& r : *list)
                if (pending(r.ev)) kept.push_back(std::move(r));
        kept.push_back(std::move(u));
        writers_ = std::move(kept);
        readers_.clear();
    } else {
        if (readers_.size() >= 32) { // keep read lists short, as record_locked does
            std::vector<use_record> kept;
            kept.reserve(readers_.size());
            for (use_record& r : readers_)
                if (pending(r.ev)) kept.push_back(std::move(r));
            readers_ = std::move(kept);
        }
        readers_.push_back(std::move(u));
    }
    g_held_events.fetch_add(static_cast<std::int64_t>(writers_.size() + readers_.size()) - before);
}

wait_list allocation::uses_before(access a) {
    std::lock_guard<std::mutex> lock(mutex_);
    wait_list out;
    for (const auto* list : {&writers_, &readers_}) {
        if (list == &readers_ && !writes(a)) break;
        for (const use_record& u : *list) {
            clFlush(u.q.get());
            out.add(u.ev);
        }
    }
    return out;
}

void allocation::check_not_mapped(access a, const char* what) const {
    if (kind_ == storage_kind::svm_fine) return;
    if (write_maps_.load() > 0)
        throw usage_error(std::string(what) + ": the memory (" + storage_name(kind_) +
                          ") has an active host write map; destroy the host view first");
    if (writes(a) && read_maps_.load() > 0)
        throw usage_error(std::string(what) + ": writes memory (" + storage_name(kind_) +
                          ") that has an active host read map; destroy the host view first");
}

void allocation::read(const queue& q, std::size_t offset, std::size_t n, void* dst) {
    check_not_mapped(access::read, "read to host");
    std::unique_lock<std::mutex> lock(mutex_);
    wait_list deps;
    collect_locked(q, access::read, deps);
    // The read brings back the words of the index checks it waits for (polled below).
    detail::device_checks_of(q.context()).before_wait(q, false, &deps);
    record_locked(q, access::read,
                  host_transfer(q, mem_, svm_, access::read, true, offset, n, dst, deps));
    lock.unlock();
    // The host has waited for device data: report the index checks that completed meanwhile.
    detail::device_checks_of(q.context()).poll(q.context());
}

void allocation::write(const queue& q, std::size_t offset, std::size_t n, const void* src) {
    check_not_mapped(access::write, "write from host");
    std::lock_guard<std::mutex> lock(mutex_);
    wait_list deps;
    collect_locked(q, access::write, deps);
    record_locked(
        q, access::write,
        host_transfer(q, mem_, svm_, access::write, true, offset, n, const_cast<void*>(src), deps));
}

event allocation::write_staged(const queue& q, std::size_t offset, std::size_t n, const void* src) {
    void* staging = std::malloc(n ? n : 1);
    if (!staging) throw out_of_memory("write from host: no memory for the staging copy");
    std::memcpy(staging, src, n);
    event written;
    try {
        written = write_async(q, offset, n, staging);
    } catch (...) {
        std::free(staging);
        throw;
    }
    if (clSetEventCallback(written.get(), CL_COMPLETE, free_staging, staging) != CL_SUCCESS) {
        // No callback: the staging copy can only be freed once the write is done (where the
        // wait fails too, it is left allocated: the write may still read it).
        cl_event e = written.get();
        if (clWaitForEvents(1, &e) == CL_SUCCESS) std::free(staging);
    }
    detail::check_cl(clFlush(q.get()), "clFlush");
    return written;
}

event allocation::read_async(const queue& q, std::size_t offset, std::size_t n, void* dst,
                             const wait_list& extra) {
    check_not_mapped(access::read, "read to host");
    std::lock_guard<std::mutex> lock(mutex_);
    wait_list deps = extra;
    collect_locked(q, access::read, deps);
    event ev = host_transfer(q, mem_, svm_, access::read, false, offset, n, dst, deps);
    record_locked(q, access::read, ev);
    return ev;
}

event allocation::write_async(const queue& q, std::size_t offset, std::size_t n, const void* src,
                              const wait_list& extra) {
    check_not_mapped(access::write, "write from host");
    std::lock_guard<std::mutex> lock(mutex_);
    wait_list deps = extra;
    collect_locked(q, access::write, deps);
    event ev =
        host_transfer(q, mem_, svm_, access::write, false, offset, n, const_cast<void*>(src), deps);
    record_locked(q, access::write, ev);
    return ev;
}

event allocation::copy_from(const queue& q, allocation& src, std::size_t src_offset,
                            std::size_t dst_offset, std::size_t n) {
    if ((src.mem_ != nullptr) != (mem_ != nullptr))
        throw usage_error("device copy between SVM and Buffer storage is not supported");
    src.check_not_mapped(access::read, "device copy (source)");
    check_not_mapped(access::write, "device copy (destination)");
    wait_list deps;
    src.add_dependencies(q, access::read, deps);
    add_dependencies(q, access::write, deps);
    cl_event e = nullptr;
    if (mem_)
        detail::check_cl(clEnqueueCopyBuffer(q.get(), src.mem_, mem_, src_offset, dst_offset, n,
                                             deps.size(), deps.data(), &e),
                         "clEnqueueCopyBuffer");
    else
        detail::check_cl(clEnqueueSVMMemcpy(q.get(), CL_FALSE,
                                            static_cast<char*>(svm_) + dst_offset,
                                            static_cast<char*>(src.svm_) + src_offset, n,
                                            deps.size(), deps.data(), &e),
                         "clEnqueueSVMMemcpy");
    event ev(e);
    src.record(q, access::read, ev);
    record(q, access::write, ev);
    return ev;
}

event allocation::fill(const queue& q, const void* pattern, std::size_t pattern_size,
                       std::size_t offset, std::size_t n) {
    check_not_mapped(access::write, "fill");
    std::lock_guard<std::mutex> lock(mutex_);
    wait_list deps;
    collect_locked(q, access::write, deps);
    cl_event e = nullptr;
    if (mem_)
        detail::check_cl(clEnqueueFillBuffer(q.get(), mem_, pattern, pattern_size, offset, n,
                                             deps.size(), deps.data(), &e),
                         "clEnqueueFillBuffer");
    else
        detail::check_cl(clEnqueueSVMMemFill(q.get(), static_cast<char*>(svm_) + offset, pattern,
                                             pattern_size, n, deps.size(), deps.data(), &e),
                         "clEnqueueSVMMemFill");
    event ev(e);
    record_locked(q, access::write, ev);
    return ev;
}

void* allocation::map(const queue& q, access a, std::size_t offset, std::size_t n) {
    check_not_mapped(a, "host map");
    std::unique_lock<std::mutex> lock(mutex_);
    wait_list deps;
    // The host view is used on the host, so every earlier use on any queue must be waited for,
    // including the map queue's own (an in-order queue's order does not bind the host).
    for (const auto* list : {&writers_, &readers_}) {
        if (list == &readers_ && !writes(a)) break;
        for (const use_record& u : *list) {
            if (u.q.get() != q.get()) clFlush(u.q.get());
            deps.add(u.ev);
        }
    }
    // A view that reads brings back the words of the index checks it waits for (polled below);
    // a fine-grained view waits for events only, with no command to queue the read before.
    if (reads(a) && kind_ != storage_kind::svm_fine)
        detail::device_checks_of(q.context()).before_wait(q, false, &deps);
    void* host = nullptr;
    cl_event e = nullptr;
    switch (kind_) {
    case storage_kind::svm_fine:
        lock.unlock();
        deps.wait(); // zero-copy: synchronizing is all a fine-grained view needs
        host = static_cast<char*>(svm_) + offset;
        break;
    case storage_kind::svm_coarse:
        if (emulate_coarse_) {
            // Staging copy, as a discrete GPU's map would be: the host never sees svm_ itself.
            host = std::malloc(n);
            if (!host)
                throw out_of_memory("coarse-emulation staging copy of " + std::to_string(n) +
                                    " bytes");
            if (reads(a)) {
                cl_int rc =
                    clEnqueueSVMMemcpy(q.get(), CL_TRUE, host, static_cast<char*>(svm_) + offset, n,
                                       deps.size(), deps.data(), &e);
                if (rc != CL_SUCCESS) std::free(host);
                detail::check_cl(rc, "clEnqueueSVMMemcpy(emulated map)");
            } else {
                std::memset(host, 0xA5, n); // invalidated contents are garbage, as on a GPU
                deps.wait();
            }
        } else {
            host = static_cast<char*>(svm_) + offset;
            // Only read maps can be active together (check_not_mapped): one inside another
            // shares it; the device data it waits for is what that map already brought.
            auto shared = std::find_if(svm_maps_.begin(), svm_maps_.end(), [&](const auto& m) {
                return m.offset <= offset && offset + n <= m.offset + m.n;
            });
            if (!writes(a) && shared != svm_maps_.end()) {
                ++shared->views;
                lock.unlock();
                deps.wait();
                break;
            }
            detail::check_cl(clEnqueueSVMMap(q.get(), CL_TRUE, map_flags(a), host, n, deps.size(),
                                             deps.data(), &e),
                             "clEnqueueSVMMap");
            svm_maps_.push_back({offset, n, 1});
        }
        break;
    case storage_kind::buffer: {
        cl_int rc = CL_SUCCESS;
        host = clEnqueueMapBuffer(q.get(), mem_, CL_TRUE, map_flags(a), offset, n, deps.size(),
                                  deps.data(), &e, &rc);
        detail::check_cl(rc, "clEnqueueMapBuffer");
        break;
    }
    }
    if (e) {
        if (lock.owns_lock())
            record_locked(q, access::read, event(e));
        else
            clReleaseEvent(e);
    }
    (writes(a) ? write_maps_ : read_maps_).fetch_add(1);
    if (lock.owns_lock()) lock.unlock(); // unmap records under it
    // A view that reads device data reports the index checks that completed before it (a write-
    // only view reads nothing, and undoing it would write its garbage back).
    if (reads(a)) {
        try {
            detail::device_checks_of(q.context()).poll(q.context());
        } catch (...) {
            unmap(q, host, a, offset, n); // writes back what was read: the contents stay
            throw;
        }
    }
    return host;
}

void allocation::unmap(const queue& q, void* host, access a, std::size_t offset,
                       std::size_t n) noexcept {
    cl_event e = nullptr;
    cl_int rc = CL_SUCCESS;
    switch (kind_) {
    case storage_kind::svm_fine:
        break;
    case storage_kind::svm_coarse:
        if (emulate_coarse_) {
            if (writes(a)) {
                rc = clEnqueueSVMMemcpy(q.get(), CL_FALSE, static_cast<char*>(svm_) + offset, host,
                                        n, 0, nullptr, &e);
                if (rc == CL_SUCCESS)
                    rc = clSetEventCallback(e, CL_COMPLETE, free_staging, host);
                else
                    std::free(host);
            } else {
                std::free(host);
            }
        } else {
            std::unique_lock<std::mutex> lock(mutex_);
            auto shared = std::find_if(svm_maps_.begin(), svm_maps_.end(), [&](const auto& m) {
                return m.offset <= offset && offset + n <= m.offset + m.n;
            });
            if (shared == svm_maps_.end()) {
                rc = CL_INVALID_VALUE; // not a region this allocation mapped
            } else if (--shared->views == 0) {
                void* mapped = static_cast<char*>(svm_) + shared->offset;
                svm_maps_.erase(shared);
                lock.unlock();
                rc = clEnqueueSVMUnmap(q.get(), mapped, 0, nullptr, &e);
            }
        }
        break;
    case storage_kind::buffer:
        rc = clEnqueueUnmapMemObject(q.get(), mem_, host, 0, nullptr, &e);
        break;
    }
    if (rc != CL_SUCCESS) report_noexcept_failure("unmap of a host view", rc);
    (writes(a) ? write_maps_ : read_maps_).fetch_sub(1);
    if (e) {
        try {
            // Later commands must follow the unmap: as a writer if the host wrote, else as a
            // reader.
            record(q, writes(a) ? access::write : access::read, event(e));
        } catch (...) { // record allocates; nothing may escape a destructor path
            report_noexcept_failure("recording an unmap event", CL_OUT_OF_HOST_MEMORY);
        }
        clFlush(q.get());
    }
}

} // namespace clarray
