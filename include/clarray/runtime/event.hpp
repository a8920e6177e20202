#pragma once
// Events and wait lists. Every enqueue in clarray takes a wait_list and returns an event.
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "clarray/runtime/handle.hpp"

namespace clarray {

// A reference-counted OpenCL event: the completion of one enqueued command.
class event {
public:
    // A null event (counts as complete).
    event() noexcept = default;
    // Takes ownership of an event the caller holds a reference to.
    explicit event(cl_event owned) noexcept : h_(owned) {}
    // An event sharing raw, adding a reference to it (the caller keeps its own).
    static event retain(cl_event raw) noexcept { return event(detail::handle<cl_event>::retain(raw)); }

    // The OpenCL event (null for a null event).
    cl_event get() const noexcept { return h_.get(); }
    // Whether this is not a null event.
    explicit operator bool() const noexcept { return bool(h_); }
    // Blocks until the command completed; throws cl_error if it failed.
    void wait() const;
    // True once the command is CL_COMPLETE (or failed); never blocks. A null event is complete.
    bool is_complete() const;
    // Profiling times in ns (the queue must have profiling enabled).
    //@{
    cl_ulong profiling_start() const;
    cl_ulong profiling_end() const;
    //@}

private:
    explicit event(detail::handle<cl_event> h) noexcept : h_(std::move(h)) {}
    detail::handle<cl_event> h_;
};

// Events a command must wait for. Holds references; null events are ignored.
class wait_list {
public:
    // An empty list.
    wait_list() = default;
    // The listed events (null ones left out).
    wait_list(std::initializer_list<event> evs) {
        for (const event& e : evs) add(e);
    }
    // Appends e unless it is null.
    void add(const event& e) {
        if (e) events_.push_back(e);
    }
    // Appends every event of other.
    void add(const wait_list& other) {
        for (const event& e : other.events_) events_.push_back(e);
    }
    // Whether the list holds no event.
    bool empty() const noexcept { return events_.empty(); }
    // Number of events.
    cl_uint size() const noexcept { return static_cast<cl_uint>(events_.size()); }
    // Removes every event.
    void clear() noexcept { events_.clear(); }
    // Contiguous raw handles for an enqueue call (nullptr when empty, as OpenCL requires).
    const cl_event* data() const {
        static_assert(sizeof(event) == sizeof(cl_event), "event must be a bare handle");
        return events_.empty() ? nullptr : reinterpret_cast<const cl_event*>(events_.data());
    }
    // Blocks until every event has completed (clWaitForEvents).
    void wait() const;
    // True once every command has completed (or failed); never blocks, never throws. An event
    // whose status cannot be read counts as pending: callers must not assume it is over.
    bool all_complete() const noexcept;
    // The events.
    const std::vector<event>& events() const noexcept { return events_; }

private:
    std::vector<event> events_;
};

} // namespace clarray
