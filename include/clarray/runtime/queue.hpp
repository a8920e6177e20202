#pragma once
// Command queues. Copies share the same cl_command_queue.
#include <cstddef>
#include <memory>
#include <mutex>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/event.hpp"

namespace clarray {

// Properties of a new queue.
struct queue_options {
    // Commands may run in any order their dependencies allow (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE).
    bool out_of_order = false;
    // Events record start and end times (CL_QUEUE_PROFILING_ENABLE).
    bool profiling = false;
};
// An in-order queue without profiling (the default).
inline constexpr queue_options in_order{false, false};
// An out-of-order queue.
inline constexpr queue_options out_of_order{true, false};
// An in-order queue with profiling.
inline constexpr queue_options profiling{false, true};

// An OpenCL command queue on a context's device; copies share the same cl_command_queue.
class queue {
public:
    // A new command queue on ctx's device.
    explicit queue(const context& ctx, queue_options opts = in_order);

    // The OpenCL command queue.
    cl_command_queue get() const noexcept { return state_->q.get(); }
    // The queue's context.
    //@{
    const clarray::context& get_context() const noexcept { return state_->ctx; }
    const clarray::context& context() const noexcept { return state_->ctx; }
    //@}
    // Whether commands may run out of order.
    bool is_out_of_order() const noexcept { return state_->opts.out_of_order; }

    // Submits the enqueued commands to the device without waiting (clFlush).
    void flush() const;
    // Blocks until every enqueued command has completed (clFinish).
    void finish() const;
    // A marker that completes when every event in deps (or, if empty, all earlier commands) has.
    event enqueue_marker(const wait_list& deps = {}) const;
    // A barrier: later commands wait for every event in deps (or, if empty, all earlier
    // commands); returns its event.
    event enqueue_barrier(const wait_list& deps = {}) const;

    // Zero-initialised int counters for one-pass reductions: the last work-group to finish an
    // output counts itself on counter m, combines the partials and sets the counter back to 0.
    // Commands of an in-order queue never overlap, so its reductions may share the counters;
    // an out-of-order queue has none (returns null: reductions there take two passes). Created
    // on first use; the queue keeps them.
    static constexpr std::size_t completion_counter_count = 65536;
    // The buffer of completion_counter_count counters described above (null out of order).
    cl_mem completion_counters() const;

    // Whether a and b are the same OpenCL command queue.
    //@{
    friend bool operator==(const queue& a, const queue& b) noexcept { return a.get() == b.get(); }
    friend bool operator!=(const queue& a, const queue& b) noexcept { return a.get() != b.get(); }
    //@}

private:
    struct state {
        state(clarray::context c, detail::handle<cl_command_queue> h, queue_options o)
            : ctx(std::move(c)), q(std::move(h)), opts(o) {}
        clarray::context ctx;
        detail::handle<cl_command_queue> q;
        queue_options opts;
        mutable std::once_flag counters_once;
        mutable detail::handle<cl_mem> counters;
    };
    std::shared_ptr<const state> state_;
};

} // namespace clarray
