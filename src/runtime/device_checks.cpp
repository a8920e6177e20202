#include "clarray/runtime/device_checks.hpp"

#include <algorithm>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/runtime/context.hpp"
#include "clarray/runtime/context_state.hpp"
#include "clarray/runtime/queue.hpp"

namespace clarray::detail {

namespace {

constexpr cl_uint words_per_chunk = 1024;

// Whether the thread that made it still runs: a faulty launch is reported to its own thread,
// or, once that thread has ended, to any.
struct thread_mark {
    std::shared_ptr<std::atomic<bool>> alive = std::make_shared<std::atomic<bool>>(true);
    ~thread_mark() { alive->store(false); }
};
const std::shared_ptr<std::atomic<bool>>& this_thread_mark() {
    thread_local thread_mark mark;
    return mark.alive;
}

bool is_done(const event& e) noexcept {
    cl_int status = CL_QUEUED;
    if (clGetEventInfo(e.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                       nullptr) != CL_SUCCESS)
        return false;
    return status <= CL_COMPLETE; // negative: the command failed, it is over too
}

void CL_CALLBACK free_words(cl_event, cl_int, void* words) {
    delete[] static_cast<cl_uint*>(words);
}

// Where the reads before a wait land: page-locked host memory where the device offers it (a
// mapped CL_MEM_ALLOC_HOST_PTR buffer), so that the read is one DMA. Into heap memory NVIDIA's
// non-blocking read went through a staging copy that cost a take in raise mode about 220 us per
// wait on an H100, 10x the gather. The device's tuning_t::device_check_staging chooses (heap for
// comparisons).
bool pinned_landing(const device& dev) {
    return dev.tuning().device_check_staging == device::tuning_t::staging_t::pinned;
}

} // namespace

struct device_checks::state {
    // resetting: faulty and reported; its word is set until reset_parked resets it.
    enum class slot_state : unsigned char { free, reserved, armed, resetting };
    struct slot {
        slot_state st = slot_state::free;
        event ev;
        device_check_site site;
        std::shared_ptr<std::atomic<bool>> owner;
        std::uint64_t serial = 0;
        cl_command_queue q = nullptr; // the launch's queue (compared, never used)
    };
    struct fault {
        std::uint64_t serial;
        device_check_site site;
        std::shared_ptr<std::atomic<bool>> owner;
    };
    // Host memory for the words of one chunk: a mapped CL_MEM_ALLOC_HOST_PTR buffer (`pinned`,
    // page-locked where the device offers it), or heap memory (`heap`) where that failed.
    struct landing {
        handle<cl_mem> pinned;
        std::unique_ptr<cl_uint[]> heap;
        cl_uint* words = nullptr;
    };
    // A non-blocking read of some words of one chunk, enqueued on a user's queue just before a
    // host wait on it (before_wait): the wait brings the words back with it. `to` belongs to
    // the read until its event is over. A null event: the read is being enqueued.
    struct batch {
        std::uint64_t id = 0;
        event ev;
        landing to;
        std::uint32_t begin = 0, count = 0; // the slots of words[0] and after
        std::vector<std::pair<std::uint32_t, std::uint64_t>> covered; // slot, serial when read
        bool reads(std::uint32_t i) const noexcept { return i >= begin && i - begin < count; }
    };
    std::vector<handle<cl_mem>> chunks;
    std::vector<slot> slots;
    std::vector<batch> batches;
    std::vector<std::uint32_t>
        free;                  // slot indices; capacity for every slot (cancel never allocates)
    std::vector<fault> faults; // faulty launches not yet reported
    std::vector<std::uint32_t> parked; // resetting slots; capacity for every slot
    std::size_t armed = 0;
    // Above every slot reserved so far: the scans stop here (freed slots are reserved again
    // first, so this stays near the most launches ever in flight at once).
    std::uint32_t high = 0;
    std::uint64_t next_serial = 1;
    std::uint64_t next_batch = 1;
    std::vector<landing> idle;            // landings of settled batches, for the next ones
    std::optional<clarray::queue> reader; // reads and resets the words; no user work on it
    std::size_t own_reads = 0;            // blocking reads on `reader` (tests)

    ~state() {
        // Destructors never wait: a read still in flight keeps its landing until it is over
        // (heap: freed by an event callback; pinned: unmapped by a command that waits for it).
        for (batch& b : batches)
            drop(std::move(b.to), is_done(b.ev) ? event() : b.ev);
        for (landing& l : idle)
            drop(std::move(l), event());
    }

    // Host memory for a read of up to words_per_chunk words: an idle landing, else a new one.
    landing take_landing(const context& ctx) {
        if (!idle.empty()) {
            landing l = std::move(idle.back());
            idle.pop_back();
            return l;
        }
        idle.reserve(8); // recycle() never allocates
        landing l;
        if (pinned_landing(ctx.device())) {
            cl_int rc = CL_SUCCESS;
            cl_mem m = clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                      words_per_chunk * sizeof(cl_uint), nullptr, &rc);
            if (rc == CL_SUCCESS) {
                l.pinned = handle<cl_mem>(m);
                void* p = clEnqueueMapBuffer(
                    reader_queue(ctx).get(), m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                    words_per_chunk * sizeof(cl_uint), 0, nullptr, nullptr, &rc);
                if (rc == CL_SUCCESS && p) {
                    l.words = static_cast<cl_uint*>(p);
                    return l;
                }
                l.pinned = handle<cl_mem>(); // heap instead
            }
        }
        l.heap = std::make_unique<cl_uint[]>(words_per_chunk);
        l.words = l.heap.get();
        return l;
    }
    // Gives up landing l, which a read that `busy` completes may still write (null: none).
    // Never waits; a pinned buffer is released here, behind its unmap.
    void drop(landing l, const event& busy) noexcept {
        if (l.pinned) {
            // The unmap waits for the read; the buffer goes when the unmap is over.
            const cl_event after = busy.get();
            if (reader)
                (void)clEnqueueUnmapMemObject(reader->get(), l.pinned.get(), l.words, after ? 1 : 0,
                                              after ? &after : nullptr, nullptr);
        } else if (busy && l.heap) {
            cl_uint* w = l.heap.release();
            if (clSetEventCallback(busy.get(), CL_COMPLETE, free_words, w) != CL_SUCCESS) {
                // Leaked rather than freed under a read that may still write it.
            }
        }
    }
    // A settled batch's landing goes back to the idle ones (a few are kept).
    void recycle(landing&& l) noexcept {
        if (idle.size() < 8 && idle.capacity() > idle.size())
            idle.push_back(std::move(l));
        else
            drop(std::move(l), event());
    }

    const clarray::queue& reader_queue(const context& ctx) {
        // A handle that does not keep the context alive: the context owns this state.
        if (!reader) reader.emplace(ctx.state().non_owning_handle());
        return *reader;
    }

    void add_chunk(const context& ctx) {
        const std::vector<cl_uint> zeros(words_per_chunk, 0);
        cl_int rc = CL_SUCCESS;
        cl_mem m =
            clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           zeros.size() * sizeof(cl_uint), const_cast<cl_uint*>(zeros.data()), &rc);
        check_cl(rc, "clCreateBuffer(index check flags)");
        handle<cl_mem> h(m);
        const std::size_t base = slots.size();
        slots.resize(base + words_per_chunk);
        free.reserve(slots.size());
        parked.reserve(slots.size());
        chunks.push_back(std::move(h));
        for (std::size_t i = base + words_per_chunk; i-- > base;)
            free.push_back(static_cast<std::uint32_t>(i));
    }

    // Armed slot i's launch is over and its word was read: a clean slot is free again, a set
    // word becomes a fault and waits for its reset (reset_parked).
    void settle(std::uint32_t i, bool set) {
        slot& s = slots[i];
        if (set) {
            faults.push_back({s.serial, s.site, s.owner}); // a copy: s stays whole if this throws
            parked.push_back(i);                           // capacity reserved in add_chunk
            s = slot();
            s.st = slot_state::resetting;
        } else {
            s = slot();
            free.push_back(i);
        }
        --armed;
    }

    // Resets the words of the faulty slots and frees them, except those that a read before a
    // wait still in flight covers: a write must not overlap that read (it is reset later).
    // Blocking (rare, and the next kernel on the word may run on any queue).
    void reset_parked(const context& ctx) {
        for (std::size_t k = 0; k < parked.size();) {
            const std::uint32_t i = parked[k];
            if (std::any_of(batches.begin(), batches.end(),
                            [&](const batch& b) { return b.reads(i); })) {
                ++k;
                continue;
            }
            static const cl_uint zero = 0;
            check_cl(clEnqueueWriteBuffer(reader_queue(ctx).get(),
                                          chunks[i / words_per_chunk].get(), CL_TRUE,
                                          (i % words_per_chunk) * sizeof(cl_uint), sizeof(cl_uint),
                                          &zero, 0, nullptr, nullptr),
                     "clEnqueueWriteBuffer(index check flags)");
            slots[i] = slot();
            free.push_back(i);
            parked[k] = parked.back();
            parked.pop_back();
        }
    }

    // Settles the slots of the batches whose read is over, without touching the device: a slot
    // counts only if it still holds the launch it held when read (serial), since a sweep may
    // have settled it meanwhile and a new launch may own it now. A failed read leaves its slots
    // to the sweep, whose own read reports the failure.
    void settle_batches() {
        for (std::size_t b = 0; b < batches.size();) {
            batch& bt = batches[b];
            cl_int status = CL_QUEUED;
            if (!bt.ev ||
                clGetEventInfo(bt.ev.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                               &status, nullptr) != CL_SUCCESS ||
                status > CL_COMPLETE) {
                ++b;
                continue;
            }
            if (status == CL_COMPLETE)
                for (const auto& [i, serial] : bt.covered)
                    if (slots[i].st == slot_state::armed && slots[i].serial == serial)
                        settle(i, bt.to.words[i - bt.begin] != 0);
            recycle(std::move(bt.to));
            if (b + 1 != batches.size()) std::swap(bt, batches.back());
            batches.pop_back();
        }
    }

    // Moves the armed slots whose launch is over to `faults` (word set) or frees them (clean).
    // Reads the words of those slots, one blocking read per chunk concerned.
    void sweep(const context& ctx) {
        if (armed == 0) return;
        std::vector<std::uint32_t> done;
        for (std::uint32_t i = 0; i < high; ++i)
            if (slots[i].st == slot_state::armed && is_done(slots[i].ev)) done.push_back(i);
        if (done.empty()) return;
        const clarray::queue& rq = reader_queue(ctx);
        std::vector<cl_uint> words;
        std::size_t k = 0;
        while (k < done.size()) {
            const std::uint32_t chunk = done[k] / words_per_chunk;
            std::size_t end = k;
            wait_list deps; // complete already; they order the read after the kernels formally
            while (end < done.size() && done[end] / words_per_chunk == chunk)
                deps.add(slots[done[end++]].ev);
            const cl_uint first = done[k] % words_per_chunk;
            const cl_uint last = done[end - 1] % words_per_chunk;
            words.assign(last - first + 1, 0);
            check_cl(clEnqueueReadBuffer(rq.get(), chunks[chunk].get(), CL_TRUE,
                                         first * sizeof(cl_uint), words.size() * sizeof(cl_uint),
                                         words.data(), deps.size(), deps.data(), nullptr),
                     "clEnqueueReadBuffer(index check flags)");
            ++own_reads;
            for (std::size_t j = k; j < end; ++j)
                settle(done[j], words[done[j] % words_per_chunk - first] != 0);
            k = end;
        }
    }
};

device_checks::device_checks() : s_(std::make_unique<state>()) {}
device_checks::~device_checks() = default;

device_checks::ticket device_checks::reserve(const context& ctx) {
    std::lock_guard<std::mutex> lock(mutex_);
    state& s = *s_;
    // All words in flight: settle the finished launches first (their kernels are over, so the
    // read does not wait for the device), and make more words only if that frees none.
    if (s.free.empty()) {
        s.settle_batches();
        s.sweep(ctx);
        s.reset_parked(ctx);
    }
    if (s.free.empty()) s.add_chunk(ctx);
    const std::uint32_t i = s.free.back();
    s.free.pop_back();
    s.high = std::max(s.high, i + 1);
    state::slot& sl = s.slots[i];
    sl.st = state::slot_state::reserved;
    sl.owner = this_thread_mark();
    pending_.store(s.armed + s.faults.size());
    return ticket{s.chunks[i / words_per_chunk].get(), i % words_per_chunk, i + 1};
}

void device_checks::arm(const ticket& t, const event& e, const device_check_site& site) noexcept {
    if (!t) return;
    if (!e) {
        cancel(t);
        return;
    }
    cl_command_queue q = nullptr; // host-side query: the queue whose waits can read the word
    if (clGetEventInfo(e.get(), CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, nullptr) != CL_SUCCESS)
        q = nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    state& s = *s_;
    state::slot& sl = s.slots[t.slot - 1];
    sl.st = state::slot_state::armed;
    sl.ev = e;
    sl.q = q;
    sl.site = site;
    sl.serial = s.next_serial++;
    ++s.armed;
    pending_.store(s.armed + s.faults.size(), std::memory_order_release);
}

void device_checks::cancel(const ticket& t) noexcept {
    if (!t) return;
    std::lock_guard<std::mutex> lock(mutex_);
    state& s = *s_;
    state::slot& sl = s.slots[t.slot - 1];
    if (sl.st == state::slot_state::armed) --s.armed;
    sl = state::slot();
    s.free.push_back(t.slot - 1); // capacity reserved in add_chunk
    pending_.store(s.armed + s.faults.size(), std::memory_order_release);
}

void device_checks::before_wait_slow(const queue& q, bool drains_queue, const wait_list* deps) {
    // On an out-of-order queue a blocking command need not come after the read; clFinish does.
    if (q.is_out_of_order() && !drains_queue) return;
    // What to read, chosen under the mutex; the reads are enqueued outside it (an enqueue may
    // take its time), their batches listed already so that no reset overlaps them.
    struct pending_read {
        std::uint64_t id;
        cl_mem chunk;
        std::size_t offset, bytes;
        cl_uint* words;
        wait_list after;
    };
    std::vector<pending_read> reads;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        state& s = *s_;
        if (s.armed == 0) return;
        // The launches this wait will have waited for: those on q (its in-order stream, or all
        // of it for a finish), those the blocking command waits for, and those over already.
        auto covered = [&](const state::slot& sl) {
            if (sl.q == q.get()) return true;
            if (deps)
                for (cl_uint j = 0; j < deps->size(); ++j)
                    if (deps->data()[j] == sl.ev.get()) return true;
            return is_done(sl.ev);
        };
        std::vector<std::uint32_t> read;
        for (std::uint32_t i = 0; i < s.high; ++i)
            if (s.slots[i].st == state::slot_state::armed && covered(s.slots[i])) read.push_back(i);
        const std::uint64_t first_id = s.next_batch;
        auto drop_mine = [&] { // no read of this call is enqueued yet: their landings are idle
            // partition, not remove_if: the batches dropped must stay whole to give back.
            const auto mine =
                std::partition(s.batches.begin(), s.batches.end(),
                               [&](const state::batch& b) { return b.id < first_id; });
            for (auto b = mine; b != s.batches.end(); ++b)
                s.recycle(std::move(b->to));
            s.batches.erase(mine, s.batches.end());
        };
        try {
            std::size_t k = 0;
            while (k < read.size()) {
                const std::uint32_t chunk = read[k] / words_per_chunk;
                state::batch b;
                b.id = s.next_batch++;
                b.begin = read[k];
                // The launch events order the read after the kernels on other queues (an in-order
                // q's own come before it anyway); it never waits for more than the wait itself
                // does.
                wait_list after;
                std::size_t end = k;
                for (; end < read.size() && read[end] / words_per_chunk == chunk; ++end) {
                    const state::slot& sl = s.slots[read[end]];
                    if (sl.q != q.get() || q.is_out_of_order()) after.add(sl.ev);
                    b.covered.emplace_back(read[end], sl.serial);
                }
                b.count = read[end - 1] - b.begin + 1;
                b.to = s.take_landing(q.context());
                reads.push_back({b.id, s.chunks[chunk].get(),
                                 (b.begin % words_per_chunk) * sizeof(cl_uint),
                                 b.count * sizeof(cl_uint), b.to.words, std::move(after)});
                s.batches.push_back(std::move(b));
                k = end;
            }
        } catch (...) {
            drop_mine();
            throw;
        }
    }
    cl_int failed = CL_SUCCESS;
    for (const pending_read& r : reads) {
        cl_event e = nullptr;
        const cl_int rc = failed != CL_SUCCESS
                              ? failed
                              : clEnqueueReadBuffer(q.get(), r.chunk, CL_FALSE, r.offset, r.bytes,
                                                    r.words, r.after.size(), r.after.data(), &e);
        event ev(e);
        std::lock_guard<std::mutex> lock(mutex_);
        auto& batches = s_->batches;
        const auto it = std::find_if(batches.begin(), batches.end(),
                                     [&](const state::batch& b) { return b.id == r.id; });
        if (it == batches.end()) continue; // not expected: only this call removes it
        if (rc == CL_SUCCESS) {
            it->ev = std::move(ev);
        } else {
            failed = rc; // never enqueued: its slots stay armed for the next poll's sweep
            s_->recycle(std::move(it->to));
            batches.erase(it);
        }
    }
    check_cl(failed, "clEnqueueReadBuffer(index check flags, before a host wait)");
}

void device_checks::poll_slow(const context& ctx) {
    std::string message;
    const device_check_kind* kind = nullptr;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        state& s = *s_;
        s.settle_batches();
        s.sweep(ctx);
        s.reset_parked(ctx);
        const auto& me = this_thread_mark();
        auto mine = [&](const state::fault& f) { return f.owner == me || !f.owner->load(); };
        const state::fault* oldest = nullptr;
        std::size_t count = 0;
        for (const state::fault& f : s.faults)
            if (mine(f)) {
                ++count;
                if (!oldest || f.serial < oldest->serial) oldest = &f;
            }
        if (oldest) {
            kind = oldest->site.kind;
            message = kind->message(oldest->site);
            if (count > 1)
                message += " (and " + std::to_string(count - 1) + " later " + kind->later +
                           (count > 2 ? "s" : "") + " of this thread)";
            s.faults.erase(std::remove_if(s.faults.begin(), s.faults.end(), mine), s.faults.end());
        }
        pending_.store(s.armed + s.faults.size(), std::memory_order_release);
    }
    if (!kind) return;
    kind->raise(message);
    throw usage_error(message); // a kind whose raise returned
}

std::size_t device_checks::own_reads() {
    std::lock_guard<std::mutex> lock(mutex_);
    return s_->own_reads;
}

device_checks& device_checks_of(const context& ctx) noexcept {
    return ctx.state().checks;
}

} // namespace clarray::detail
