#pragma once
// clarray's per-context state. Internal: included by the library's own templates only.
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/deferred_free.hpp"
#include "clarray/runtime/kernel.hpp"
#include "clarray/runtime/launch.hpp"

namespace clarray::detail {

class pool_core;
struct context_state;
struct kernel_cache_entry;
// Stops the default pools holding and releases their held blocks (memory/pool.cpp); teardown.
void release_default_pools(context_state& st) noexcept;

struct context_state {
    handle<cl_context> ctx;
    clarray::device dev;
    context_options opts;
    // SVM released behind pending work where clEnqueueSVMFree cannot be used (device quirk).
    deferred_svm_frees svm_frees;

    context_state() = default;
    context_state(const context_state&) = delete;
    context_state& operator=(const context_state&) = delete;
    // Teardown: the parked regions' commands must finish before the context goes.
    ~context_state() {
        release_default_pools(*this);
        if (ctx) svm_frees.drain(ctx.get());
    }

    // The default pools, one per storage kind, made on first use (context_options::
    // use_default_pool; make_allocation_like). They hold a non-owning context: every allocation
    // over their blocks keeps the context alive itself.
    std::mutex default_pool_mutex;
    std::shared_ptr<pool_core> default_pools[3];
    // A handle to this context that does not keep it alive (for objects it owns).
    clarray::context non_owning_handle();

    // The kernel cache (runtime/kernel_cache.hpp): one entry per (device, tag, signature).
    struct cache_key {
        cl_device_id device;
        const void* tag;
        std::uint64_t signature;
        bool operator==(const cache_key& o) const noexcept {
            return device == o.device && tag == o.tag && signature == o.signature;
        }
    };
    struct cache_key_hash {
        std::size_t operator()(const cache_key& k) const noexcept {
            return std::hash<const void*>()(k.tag) ^
                   (std::size_t(k.signature) * 0x9E3779B97F4A7C15ull) ^
                   std::hash<const void*>()(k.device);
        }
    };
    std::mutex kernel_cache_mutex; // guards the map only; builds run outside it
    std::unordered_map<cache_key, std::shared_ptr<kernel_cache_entry>, cache_key_hash>
        kernel_cache;

    // Device buffers for layouts too large for the parameter space (runtime/launch.hpp).
    layout_buffers layouts;
};

} // namespace clarray::detail
