#include "clarray/runtime/error_flag.hpp"

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

} // namespace

std::string index_range_message(const index_check_site& site) {
    const std::string n = std::to_string(site.extent);
    return std::string(site.what) + ": an index is out of range for " +
           (site.axis >= 0 ? "axis " + std::to_string(site.axis) + " with size " + n
                           : "an array of size " + n) +
           " (indices must lie in [-" + n + ", " + n + "))";
}

struct index_checks::state {
    enum class slot_state : unsigned char { free, reserved, armed };
    struct slot {
        slot_state st = slot_state::free;
        event ev;
        index_check_site site;
        std::shared_ptr<std::atomic<bool>> owner;
        std::uint64_t serial = 0;
    };
    struct fault {
        std::uint64_t serial;
        index_check_site site;
        std::shared_ptr<std::atomic<bool>> owner;
    };
    std::vector<handle<cl_mem>> chunks;
    std::vector<slot> slots;
    std::vector<std::uint32_t>
        free;                  // slot indices; capacity for every slot (cancel never allocates)
    std::vector<fault> faults; // faulty launches not yet reported
    std::size_t armed = 0;
    std::uint64_t next_serial = 1;
    std::optional<clarray::queue> reader; // reads and resets the words; no user work on it

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
        chunks.push_back(std::move(h));
        for (std::size_t i = base + words_per_chunk; i-- > base;)
            free.push_back(static_cast<std::uint32_t>(i));
    }

    // Moves the armed slots whose launch is over to `faults` (word set) or frees them (clean).
    // Reads the words of those slots, one blocking read per chunk concerned.
    void sweep(const context& ctx) {
        if (armed == 0) return;
        std::vector<std::uint32_t> done;
        for (std::uint32_t i = 0; i < slots.size(); ++i)
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
            for (std::size_t j = k; j < end; ++j) {
                const std::uint32_t i = done[j];
                slot& s = slots[i];
                if (words[i % words_per_chunk - first] != 0) {
                    // Reset before the slot is reused (blocking: rare, and the next kernel on
                    // this word may run on any queue).
                    static const cl_uint zero = 0;
                    check_cl(clEnqueueWriteBuffer(rq.get(), chunks[chunk].get(), CL_TRUE,
                                                  (i % words_per_chunk) * sizeof(cl_uint),
                                                  sizeof(cl_uint), &zero, 0, nullptr, nullptr),
                             "clEnqueueWriteBuffer(index check flags)");
                    faults.push_back({s.serial, s.site, std::move(s.owner)});
                }
                s = slot();
                --armed;
                free.push_back(i);
            }
            k = end;
        }
    }
};

index_checks::index_checks() : s_(std::make_unique<state>()) {}
index_checks::~index_checks() = default;

index_checks::ticket index_checks::reserve(const context& ctx) {
    std::lock_guard<std::mutex> lock(mutex_);
    state& s = *s_;
    // All words in flight: settle the finished launches first (their kernels are over, so the
    // read does not wait for the device), and make more words only if that frees none.
    if (s.free.empty()) s.sweep(ctx);
    if (s.free.empty()) s.add_chunk(ctx);
    const std::uint32_t i = s.free.back();
    s.free.pop_back();
    state::slot& sl = s.slots[i];
    sl.st = state::slot_state::reserved;
    sl.owner = this_thread_mark();
    pending_.store(s.armed + s.faults.size());
    return ticket{s.chunks[i / words_per_chunk].get(), i % words_per_chunk, i + 1};
}

void index_checks::arm(const ticket& t, const event& e, const index_check_site& site) noexcept {
    if (!t) return;
    if (!e) {
        cancel(t);
        return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    state& s = *s_;
    state::slot& sl = s.slots[t.slot - 1];
    sl.st = state::slot_state::armed;
    sl.ev = e;
    sl.site = site;
    sl.serial = s.next_serial++;
    ++s.armed;
    pending_.store(s.armed + s.faults.size(), std::memory_order_release);
}

void index_checks::cancel(const ticket& t) noexcept {
    if (!t) return;
    std::lock_guard<std::mutex> lock(mutex_);
    state& s = *s_;
    state::slot& sl = s.slots[t.slot - 1];
    if (sl.st == state::slot_state::armed) --s.armed;
    sl = state::slot();
    s.free.push_back(t.slot - 1); // capacity reserved in add_chunk
    pending_.store(s.armed + s.faults.size(), std::memory_order_release);
}

void index_checks::poll_slow(const context& ctx) {
    std::string message;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        state& s = *s_;
        s.sweep(ctx);
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
            message = index_range_message(oldest->site);
            if (count > 1)
                message += " (and " + std::to_string(count - 1) +
                           " later out-of-range indexing operation" + (count > 2 ? "s" : "") +
                           " of this thread)";
            s.faults.erase(std::remove_if(s.faults.begin(), s.faults.end(), mine), s.faults.end());
        }
        pending_.store(s.armed + s.faults.size(), std::memory_order_release);
    }
    if (!message.empty()) throw index_error(message);
}

index_checks& index_checks_of(const context& ctx) noexcept {
    return ctx.state().checks;
}

} // namespace clarray::detail
