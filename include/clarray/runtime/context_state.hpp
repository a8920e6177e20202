#pragma once
// clarray's per-context state. Internal: included by the library's own templates only.
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/deferred_free.hpp"
#include "clarray/runtime/kernel.hpp"

namespace clarray::detail {

class pool_core;
struct context_state;
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

    // Library kernels from kernels/*.cl, built per (template, dtype) on first use.
    std::mutex builtin_mutex;
    std::unordered_map<std::uint64_t, handle<cl_program>> builtin_programs;
    std::unordered_map<std::uint64_t, clarray::kernel> builtin_kernels;

    // Generated kernels: keyed by the expression's static type tag and a small runtime signature
    // (rank, contiguity, layout passing). A hit does no string work and no clCreateKernel.
    struct generated_key {
        const void* type_tag;
        std::uint32_t signature;
        bool operator==(const generated_key& o) const noexcept {
            return type_tag == o.type_tag && signature == o.signature;
        }
    };
    struct generated_key_hash {
        std::size_t operator()(const generated_key& k) const noexcept {
            return std::hash<const void*>()(k.type_tag) ^
                   (std::size_t(k.signature) * 0x9E3779B97F4A7C15ull);
        }
    };
    std::mutex generated_mutex;
    std::unordered_map<generated_key, clarray::kernel, generated_key_hash> generated_kernels;
};

} // namespace clarray::detail
