#pragma once
// A single-device OpenCL context plus clarray's per-context state (kernel caches, modes).
#include <memory>

#include "clarray/runtime/device.hpp"
#include "clarray/runtime/handle.hpp"

namespace clarray {

namespace detail {
struct context_state;
}

struct context_options {
    // Coarse-SVM host views go through a staging copy at map/unmap, so that host access outside a
    // map gives wrong results as on a discrete GPU (pocl's maps are no-ops). Default: from
    // CLARRAY_EMULATE_COARSE.
    bool emulate_coarse = false;
    // Report SVM as unavailable (tests the Buffer fallback). Default: from CLARRAY_DISABLE_SVM.
    bool disable_svm = false;
    // Small results and temporaries of library operations (reduction results and partials,
    // small expression results: at most 1 MiB) are served by per-context pools, as allocating
    // SVM costs about 1.5 ms per allocation and release on NVIDIA (docs/performance.md). User-made
    // arrays are unaffected. Default: on, off when CLARRAY_NO_ALLOCATION_CACHE is set.
    bool cache_library_allocations = true;
    static context_options from_env();
};

class context {
public:
    explicit context(const clarray::device& dev,
                     context_options opts = context_options::from_env());
    // The device CLARRAY_DEVICE selects (see select_device), options from the environment.
    static context from_env();

    const clarray::device& get_device() const noexcept;
    const clarray::device& device() const noexcept { return get_device(); }
    cl_context get() const noexcept;
    const context_options& options() const noexcept;
    // SVM capabilities as clarray uses them (all false when disable_svm is set).
    svm_capabilities svm_caps() const noexcept;

    detail::context_state& state() const noexcept { return *state_; }
    friend bool operator==(const context& a, const context& b) noexcept {
        return a.state_ == b.state_;
    }
    friend bool operator!=(const context& a, const context& b) noexcept { return !(a == b); }

private:
    friend struct detail::context_state;
    explicit context(std::shared_ptr<detail::context_state> s) noexcept : state_(std::move(s)) {}
    std::shared_ptr<detail::context_state> state_;
};

} // namespace clarray
