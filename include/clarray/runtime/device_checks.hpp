#pragma once
// Checks that kernels make on the device without a host round trip: an out-of-range index
// (indexing/, docs/indexing.md "Out-of-range indices"), a negative integer exponent (expr/). A
// kernel that can meet bad input gets two extra arguments, the context's flag words
// (`global uint*`) and the word reserved for its launch; on bad input it stores 1 there and goes
// on with a safe value. After the launch the operation arms the word with the launch event and
// where the check came from (a site, whose kind says which error a failure raises). Every host
// point that waits for device data (blocking reads and maps of the storage layer, queue::finish)
// then polls the context: the words of the completed launches are read, and a set word becomes
// the kind's error, thrown in the thread that launched the kernel. The words come back with the
// wait itself: just before it, a non-blocking read of the words its queue's stream covers is
// queued on the same queue (before_wait); only launches the wait does not cover are read on a
// queue of the registry's own. The runtime knows no check: the layers that launch them define
// their kinds.
//
// One word per launch in flight (not one per context): a reset can then never erase another
// launch's report, and each report knows its operation and thread.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/handle.hpp"
#include "clarray/runtime/launch.hpp"

namespace clarray {

class queue;

namespace detail {

struct device_check_site;
// A kind of check, defined by the layer that launches it: the failure's message and error.
struct device_check_kind {
    std::string (*message)(const device_check_site& site);
    // Throws the kind's error (index_error, dtype_error, ...) with that message.
    void (*raise)(const std::string& message);
    // How later failures of the same thread are counted in the message, in the singular
    // ("out-of-range indexing operation").
    const char* later;
};
// Where one launch's check came from.
struct device_check_site {
    const device_check_kind* kind = nullptr;
    const char* what = "";    // a static string: the operation ("take", "pow")
    std::size_t extent = 0;   // numbers for the kind's message (index checks: the extent that
    std::ptrdiff_t axis = -1; // indices must fit and their axis, -1 for a flat index)
};

// A context's registry of pending checks (one per context, in its context_state).
class device_checks {
public:
    // One reserved word: the kernel binds `flag` (a cl_mem, not use-tracked) and writes word.
    struct ticket {
        cl_mem flag = nullptr;
        cl_uint word = 0;
        std::uint32_t slot = 0; // 1 + the slot index; 0: no reservation
        explicit operator bool() const noexcept { return slot != 0; }
    };

    device_checks();
    ~device_checks();
    device_checks(const device_checks&) = delete;
    device_checks& operator=(const device_checks&) = delete;

    // Reserves a zeroed word for one launch; never waits for the device (more words are made
    // when all are in flight).
    ticket reserve(const context& ctx);
    // After the launch of t's kernel with event e (e null: the launch failed, same as cancel).
    void arm(const ticket& t, const event& e, const device_check_site& site) noexcept;
    // The launch did not happen: the word is free again.
    void cancel(const ticket& t) noexcept;

    // Called just before a host wait on q (a blocking read or map of device data, with deps its
    // wait list; or a finish, drains_queue): enqueues on q a non-blocking read of the words of
    // the armed launches that the wait will cover (on q, in deps, or over already), into host
    // memory of the registry, so that poll finds them without a round trip of its own. Throws
    // what the enqueue throws. Fast path: one atomic load.
    void before_wait(const queue& q, bool drains_queue, const wait_list* deps = nullptr) {
        if (pending_.load(std::memory_order_acquire) != 0) before_wait_slow(q, drains_queue, deps);
    }
    // Called after every host wait for device data on ctx. Throws index_error for a completed
    // faulty launch of this thread (or of a thread that has ended): the oldest one, the others
    // of the same thread counted in the message and dropped. The words that before_wait's reads
    // brought back are settled without the device; other completed launches are read with one
    // blocking read on the registry's own queue. Fast path: one atomic load.
    void poll(const context& ctx) {
        if (pending_.load(std::memory_order_acquire) != 0) poll_slow(ctx);
    }
    // Launches armed and not yet known to be clean, plus faulty ones not yet reported (tests).
    std::size_t pending() const noexcept { return pending_.load(); }
    // Blocking reads of words on the registry's own queue so far (tests: a host wait that covers
    // the launches needs none).
    std::size_t own_reads();

    struct state;

private:
    void before_wait_slow(const queue& q, bool drains_queue, const wait_list* deps);
    void poll_slow(const context& ctx);
    std::atomic<std::size_t> pending_{0};
    std::mutex mutex_;
    std::unique_ptr<state> s_;
};

// ctx's registry.
device_checks& device_checks_of(const context& ctx) noexcept;

// One launch's check, from reservation to arming: the kernel's two arguments (the flag words and
// the word's index), the word reserved by the first flag_argument() and handed to the registry
// by arm() after the launch; a word whose launch never happened (an exception, or arguments
// bound and never launched) is given back by the destructor. Inactive (default-constructed: wrap
// and clip) it binds NULL and index 0, which the kernels never touch. word_argument() points
// into the object: it must stay in place from binding to launch. After arm() the next
// flag_argument() reserves a new word (a launch of its own).
class device_check_reservation {
public:
    device_check_reservation() noexcept = default;
    explicit device_check_reservation(const context& ctx) : ctx_(ctx) {}
    device_check_reservation(device_check_reservation&& o) noexcept
        : ctx_(std::move(o.ctx_)), ticket_(o.ticket_), word_(o.word_) {
        o.ctx_.reset(); // inactive now
        o.ticket_ = {};
    }
    device_check_reservation& operator=(device_check_reservation&& o) noexcept {
        if (this != &o) {
            cancel();
            ctx_ = std::move(o.ctx_);
            ticket_ = o.ticket_;
            word_ = o.word_;
            o.ctx_.reset();
            o.ticket_ = {};
        }
        return *this;
    }
    device_check_reservation(const device_check_reservation&) = delete;
    device_check_reservation& operator=(const device_check_reservation&) = delete;
    ~device_check_reservation() { cancel(); }

    bool active() const noexcept { return ctx_.has_value(); }
    // A new reservation for the same check (no word yet), e.g. for a copy of an expression.
    device_check_reservation fresh() const {
        return ctx_ ? device_check_reservation(*ctx_) : device_check_reservation();
    }
    // The flag words (reserving the word now if there is none yet), then the word's index.
    launch_arg flag_argument() {
        if (!ctx_) return launch_arg::untracked_buffer(nullptr, 0);
        if (!ticket_) ticket_ = device_checks_of(*ctx_).reserve(*ctx_);
        word_ = ticket_.word;
        return launch_arg::untracked_buffer(ticket_.flag, 0);
    }
    launch_arg word_argument() const noexcept { return launch_arg::value(&word_, sizeof word_); }
    // After the launch with event e (null: it failed, the word is given back).
    void arm(const event& e, const device_check_site& site) noexcept {
        if (!ticket_) return;
        device_checks_of(*ctx_).arm(ticket_, e, site);
        ticket_ = {};
    }
    // The launch will not happen: the word is free again.
    void cancel() noexcept {
        if (!ticket_) return;
        device_checks_of(*ctx_).cancel(ticket_);
        ticket_ = {};
    }

private:
    std::optional<context> ctx_;
    device_checks::ticket ticket_;
    cl_uint word_ = 0;
};

} // namespace detail
} // namespace clarray
