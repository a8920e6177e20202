#pragma once
// A single-device OpenCL context plus clarray's per-context state (kernel caches, modes).
#include <cstdint>
#include <memory>
#include <optional>

#include "clarray/runtime/device.hpp"
#include "clarray/runtime/device_memory.hpp"
#include "clarray/runtime/handle.hpp"

namespace clarray {

namespace detail {
struct context_state;
}

// Settings of a new context; from_env() reads them from the environment.
struct context_options {
    // Coarse-SVM host views go through a staging copy at map/unmap, so that host access outside a
    // map gives wrong results as on a discrete GPU (pocl's maps are no-ops). Default: from
    // CLARRAY_EMULATE_COARSE.
    bool emulate_coarse = false;
    // Report SVM as unavailable (tests the Buffer fallback). Default: from CLARRAY_DISABLE_SVM.
    bool disable_svm = false;
    // Every array (constructors, factories, results, copies, temporaries) comes from the
    // context's default pool of its storage kind, as CuPy's default memory pool: allocating and
    // releasing coarse SVM costs milliseconds on NVIDIA (docs/internals/memory.md, "The default
    // pool"). Arrays made with an explicit pool, and results made like them, come from that pool
    // instead. Default: on; off when CLARRAY_NO_POOL or CLARRAY_NO_ALLOCATION_CACHE is set.
    bool use_default_pool = true;
    // The most bytes each default pool (one per storage kind) keeps held for reuse; a block given
    // back beyond it releases the oldest held blocks first (a block larger than the limit itself
    // is released at once). unlimited_pool_size: no limit. Unset: half of the device's
    // CL_DEVICE_GLOBAL_MEM_SIZE. Default: from CLARRAY_POOL_LIMIT (bytes, 512M, 4G, unlimited).
    std::optional<std::uint64_t> default_pool_limit;
    // The default_pool_limit that means no limit.
    static constexpr std::uint64_t unlimited_pool_size = ~std::uint64_t(0);
    // Where the default pools get new blocks from (tests inject failures through it). Null:
    // clSVMAlloc / clCreateBuffer.
    std::shared_ptr<raw_allocator> default_pool_allocator;
    // The options with each default taken from its environment variable.
    static context_options from_env();
};

// A single-device OpenCL context with clarray's state for it (program caches, default pools);
// copies share it.
class context {
public:
    // A new OpenCL context on dev.
    explicit context(const clarray::device& dev,
                     context_options opts = context_options::from_env());
    // The device CLARRAY_DEVICE selects (see select_device), options from the environment.
    static context from_env();

    // The context's device.
    //@{
    const clarray::device& get_device() const noexcept;
    const clarray::device& device() const noexcept { return get_device(); }
    //@}
    // The OpenCL context.
    cl_context get() const noexcept;
    // The options the context was made with.
    const context_options& options() const noexcept;
    // SVM capabilities as clarray uses them (all false when disable_svm is set).
    svm_capabilities svm_caps() const noexcept;

    // The library's per-context state (caches, pools); internal.
    detail::context_state& state() const noexcept { return *state_; }
    // Whether a and b are the same context (copies of one another).
    //@{
    friend bool operator==(const context& a, const context& b) noexcept {
        return a.state_ == b.state_;
    }
    friend bool operator!=(const context& a, const context& b) noexcept { return !(a == b); }
    //@}

private:
    friend struct detail::context_state;
    explicit context(std::shared_ptr<detail::context_state> s) noexcept : state_(std::move(s)) {}
    std::shared_ptr<detail::context_state> state_;
};

} // namespace clarray
