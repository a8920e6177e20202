#pragma once
// clarray's per-context state. Internal: included by the library's own templates only.
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/deferred_free.hpp"
#include "clarray/runtime/device_checks.hpp"
#include "clarray/runtime/kernel.hpp"
#include "clarray/runtime/launch.hpp"

namespace clarray::detail {

struct kernel_cache_entry; // runtime/kernel_cache.cpp

// Per-context state of a higher layer (memory's default pools), kept in context_state::
// extension<T>() so that this layer does not know its type.
class context_extension {
public:
    virtual ~context_extension() = default;
    // The context's teardown, before it waits for its parked SVM frees: let go of the device
    // memory it holds (freed, or released behind its pending uses). Never throws.
    virtual void release() noexcept = 0;
};

struct context_state {
    handle<cl_context> ctx;
    clarray::device dev;
    context_options opts;
    // SVM released behind pending work where clEnqueueSVMFree cannot be used (device quirk).
    deferred_svm_frees svm_frees;

    context_state() = default;
    context_state(const context_state&) = delete;
    context_state& operator=(const context_state&) = delete;
    // Teardown: the extensions release their memory (newest first), then the parked regions'
    // commands must finish before the context goes.
    ~context_state() {
        for (auto it = extensions.rbegin(); it != extensions.rend(); ++it)
            it->value->release();
        if (ctx) svm_frees.drain(ctx.get());
    }

    // Higher layers' per-context state (extension<T>), in order of creation.
    struct keyed_extension {
        const void* key;
        std::unique_ptr<context_extension> value;
    };
    std::mutex extensions_mutex;
    std::vector<keyed_extension> extensions;
    // The extension of type T (derived from context_extension), made by T() on first use; it
    // lives as long as this state. Thread-safe.
    template <class T> T& extension() {
        std::lock_guard<std::mutex> lock(extensions_mutex);
        if (T* found = find_extension_locked<T>()) return *found;
        extensions.push_back({extension_key<T>(), std::make_unique<T>()});
        return static_cast<T&>(*extensions.back().value);
    }
    // The extension of type T if it was made, else null.
    template <class T> T* find_extension() noexcept {
        std::lock_guard<std::mutex> lock(extensions_mutex);
        return find_extension_locked<T>();
    }
    template <class T> T* find_extension_locked() noexcept {
        for (const keyed_extension& e : extensions)
            if (e.key == extension_key<T>()) return static_cast<T*>(e.value.get());
        return nullptr;
    }
    template <class T> static const void* extension_key() noexcept {
        static char key; // its address identifies T (writable: never merged with another)
        return &key;
    }
    // A handle to this context that does not keep it alive (for objects it owns).
    clarray::context non_owning_handle();

    // The kernel cache (runtime/kernel_cache.hpp): one entry per (device, tag, signature).
    struct cache_key {
        cl_device_id device;
        const void* tag;
        std::uint64_t signature;
        std::uint64_t sharing;
        bool operator==(const cache_key& o) const noexcept {
            return device == o.device && tag == o.tag && signature == o.signature &&
                   sharing == o.sharing;
        }
    };
    struct cache_key_hash {
        std::size_t operator()(const cache_key& k) const noexcept {
            return std::hash<const void*>()(k.tag) ^
                   (std::size_t(k.signature) * 0x9E3779B97F4A7C15ull) ^
                   (std::size_t(k.sharing) * 0xC2B2AE3D27D4EB4Full) ^
                   std::hash<const void*>()(k.device);
        }
    };
    std::mutex kernel_cache_mutex; // guards the map only; builds run outside it
    std::unordered_map<cache_key, std::shared_ptr<kernel_cache_entry>, cache_key_hash> kernel_cache;

    // Device buffers for layouts too large for the parameter space (runtime/launch.hpp).
    layout_buffers layouts;

    // Pending device-side checks (index ranges, negative integer powers, all-NaN slices: runtime/
    // device_checks.hpp), polled after host waits.
    device_checks checks;
};

} // namespace clarray::detail
