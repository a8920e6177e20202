#pragma once
// The one launch path. Every kernel clarray runs (generated assignments, reduction and scan
// stages, library copies and fills, user kernels) goes through detail::launch, which does, in
// this order: check (contexts, host maps) -> wait list (what each memory operand must follow)
// -> bind (values, memory, local memory, the layout struct) -> enqueue -> record (the launch
// event on every memory operand). Operand kinds reach it as launch_args made by their traits
// (kernel_arg<T>::make for raw kernels, the terminals of generated kernels).
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/runtime/access.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/handle.hpp"

namespace clarray {

class queue;
class kernel;
class device;

// Up to 3 work sizes, e.g. {n} or {rows, cols}.
struct ndrange {
    // Number of sizes given (0: none, e.g. no local size).
    cl_uint dims = 0;
    // The sizes; those past dims are 1.
    std::size_t sizes[3] = {1, 1, 1};
    // No sizes (dims == 0).
    ndrange() = default;
    // One to three sizes (usage_error otherwise).
    ndrange(std::initializer_list<std::size_t> s) {
        if (s.size() == 0 || s.size() > 3) throw usage_error("ndrange: 1 to 3 sizes required");
        for (std::size_t v : s)
            sizes[dims++] = v;
    }
    // One size n; implicit, so that a plain count is a range.
    ndrange(std::size_t n) : dims(1) { sizes[0] = n; } // NOLINT: implicit is the point
    // The product of the sizes.
    std::size_t total() const noexcept { return sizes[0] * sizes[1] * sizes[2]; }
};

// Kernels clarray has enqueued in this process (tests check one launch per assignment).
std::uint64_t kernel_launch_count() noexcept;

namespace detail {

// Device memory whose uses are tracked (storage/allocation implements it): a launch checks it
// may run now, waits for the commands it must follow and records itself.
class tracked_memory {
public:
    virtual ~tracked_memory() = default;
    // Throws usage_error when a command with access `a` must not start (active host maps).
    virtual void check_not_mapped(access a, const char* what) const = 0;
    // Adds the events a command on q with access `a` must wait for (flushing their queues).
    virtual void add_dependencies(const queue& q, access a, wait_list& out) = 0;
    virtual void record(const queue& q, access a, const event& e) = 0;
};

// One kernel argument of a launch.
struct launch_arg {
    enum class kind : unsigned char { value, memory, local, layout_value, layout_buffer };
    kind what = kind::value;
    access acc = access::read;        // memory: how the kernel uses it
    bool svm = false;                 // memory: bound with clSetKernelArgSVMPointer
    tracked_memory* memory = nullptr; // null: no memory (zero-size array), bound as NULL
    void* svm_pointer = nullptr;      // memory, svm: the allocation's start
    cl_mem buffer = nullptr;          // memory, Buffer
    std::size_t byte_offset = 0;      // memory: bind at this byte (SVM: pointer + offset; Buffer:
                                      // a sub-buffer, which must be aligned)
    std::size_t bytes = 0;            // memory: the allocation's size; value/layout/local: size
    const void* data = nullptr;       // value/layout: the bytes (valid during the launch call)

    static launch_arg value(const void* p, std::size_t n) noexcept {
        launch_arg a;
        a.data = p;
        a.bytes = n;
        return a;
    }
    static launch_arg local(std::size_t n) noexcept {
        launch_arg a;
        a.what = kind::local;
        a.bytes = n;
        return a;
    }
    // The layout struct of a library or generated kernel: by value, or (in_buffer) through a
    // `constant` pointer to a reused buffer when it exceeds the parameter space (layout_fits).
    static launch_arg layout(const void* words, std::size_t n, bool in_buffer) noexcept {
        launch_arg a = value(words, n);
        a.what = in_buffer ? kind::layout_buffer : kind::layout_value;
        return a;
    }
    static launch_arg svm_memory(tracked_memory* m, void* base, access acc,
                                 std::size_t byte_offset = 0) noexcept {
        launch_arg a = memory_base(m, acc, byte_offset);
        a.svm = true;
        a.svm_pointer = base;
        return a;
    }
    static launch_arg buffer_memory(tracked_memory* m, cl_mem mem, std::size_t total_bytes,
                                    access acc, std::size_t byte_offset = 0) noexcept {
        launch_arg a = memory_base(m, acc, byte_offset);
        a.buffer = mem;
        a.bytes = total_bytes;
        return a;
    }

    // A cl_mem bound without use tracking (memory null): no waits, no records. For words that
    // unrelated kernels share without ordering between them (the index-check flags,
    // runtime/device_checks.hpp); a null cl_mem binds NULL.
    static launch_arg untracked_buffer(cl_mem mem, std::size_t total_bytes) noexcept {
        return buffer_memory(nullptr, mem, total_bytes, access::read_write);
    }

private:
    static launch_arg memory_base(tracked_memory* m, access acc, std::size_t byte_offset) noexcept {
        launch_arg a;
        a.what = kind::memory;
        a.acc = acc;
        a.memory = m;
        a.byte_offset = byte_offset;
        return a;
    }
};

// Enqueues k over `global` (local: null for the driver's choice) with `args` in order, after
// `extra` and whatever the memory arguments must follow. Returns the launch event, which is
// recorded on every memory argument. `what` names the command in errors (e.g. a launch over
// memory with an active host map).
event launch(const queue& q, const kernel& k, const ndrange& global, const ndrange* local,
             const launch_arg* args, std::size_t count, const wait_list& extra = {},
             const char* what = "kernel launch");

// Device buffers that carry layouts too large for the parameter space, one per launch in flight
// and reused once that launch completed (a context keeps them: context_state::layouts).
class layout_buffers {
public:
    struct slot {
        handle<cl_mem> mem;
        std::size_t capacity = 0;
        std::vector<unsigned char> host; // the words being written (kept until the write is done)
        event last_use;                  // free once complete
        bool busy = false;               // taken by a launch that has not enqueued yet
    };
    // A free slot (grown by the caller when smaller than `bytes`), or null when max_slots are in
    // flight.
    slot* acquire(std::size_t bytes);
    void release(slot* s, const event& last_use) noexcept;
    static constexpr std::size_t max_slots = 64;
    std::size_t slot_count() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return slots_.size();
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<slot>> slots_;
};

// Whether a layout struct of layout_bytes fits the parameter space next to `pointers` memory
// arguments and value_bytes of values (else it goes through launch_arg::layout(.., true)).
bool layout_fits(const device& dev, std::size_t pointers, std::size_t value_bytes,
                 std::size_t layout_bytes);

} // namespace detail
} // namespace clarray
