#pragma once
// Command queues. Copies share the same cl_command_queue.
#include <cstddef>
#include <memory>
#include <mutex>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/event.hpp"

namespace clarray {

struct queue_options {
    bool out_of_order = false;
    bool profiling = false;
};
inline constexpr queue_options in_order{false, false};
inline constexpr queue_options out_of_order{true, false};
inline constexpr queue_options profiling{false, true};

class queue {
public:
    explicit queue(const context& ctx, queue_options opts = in_order);

    cl_command_queue get() const noexcept { return state_->q.get(); }
    const clarray::context& get_context() const noexcept { return state_->ctx; }
    const clarray::context& context() const noexcept { return state_->ctx; }
    bool is_out_of_order() const noexcept { return state_->opts.out_of_order; }

    void flush() const;
    void finish() const;
    // A marker that completes when every event in deps (or, if empty, all earlier commands) has.
    event enqueue_marker(const wait_list& deps = {}) const;
    event enqueue_barrier(const wait_list& deps = {}) const;

    // Zero-initialised int counters for one-pass reductions: the last work-group to finish an
    // output counts itself on counter m, combines the partials and sets the counter back to 0.
    // Commands of an in-order queue never overlap, so its reductions may share the counters;
    // an out-of-order queue has none (returns null: reductions there take two passes). Created
    // on first use; the queue keeps them.
    static constexpr std::size_t completion_counter_count = 65536;
    cl_mem completion_counters() const;

    friend bool operator==(const queue& a, const queue& b) noexcept { return a.get() == b.get(); }
    friend bool operator!=(const queue& a, const queue& b) noexcept { return a.get() != b.get(); }

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
