#include "clarray/runtime/deferred_free.hpp"

#include <atomic>

namespace clarray::detail {

namespace {
std::atomic<std::int64_t> g_parked{0};
} // namespace

void deferred_svm_frees::park(cl_context ctx, void* ptr, wait_list uses) noexcept {
    try {
        std::lock_guard<std::mutex> lock(mutex_);
        parked_.reserve(parked_.size() + 1); // may throw while `uses` is still intact
        parked_.push_back({ptr, std::move(uses), nullptr});
        g_parked.fetch_add(1);
    } catch (...) {
        if (!uses.empty()) clWaitForEvents(uses.size(), uses.data());
        clSVMFree(ctx, ptr);
    }
}

void deferred_svm_frees::park_owner(std::shared_ptr<void> owner, wait_list uses) noexcept {
    try {
        std::lock_guard<std::mutex> lock(mutex_);
        parked_.reserve(parked_.size() + 1);
        parked_.push_back({nullptr, std::move(uses), std::move(owner)});
        g_parked.fetch_add(1);
    } catch (...) {
        if (!uses.empty()) clWaitForEvents(uses.size(), uses.data());
        owner.reset();
    }
}

void deferred_svm_frees::release(cl_context ctx, parked& p) noexcept {
    if (p.ptr) clSVMFree(ctx, p.ptr);
    p.owner.reset();
}

std::size_t deferred_svm_frees::sweep(cl_context ctx) noexcept {
    std::vector<parked> done;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (parked_.empty()) return 0;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < parked_.size(); ++i) {
            if (parked_[i].uses.all_complete()) {
                try {
                    done.push_back(std::move(parked_[i]));
                    continue;
                } catch (...) { // keep it for a later sweep
                }
            }
            if (kept != i) parked_[kept] = std::move(parked_[i]);
            ++kept;
        }
        parked_.resize(kept);
    }
    for (parked& p : done)
        release(ctx, p);
    g_parked.fetch_sub(static_cast<std::int64_t>(done.size()));
    return done.size();
}

std::size_t deferred_svm_frees::drain(cl_context ctx) noexcept {
    std::vector<parked> all;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        all.swap(parked_);
    }
    for (parked& p : all) {
        if (!p.uses.empty()) clWaitForEvents(p.uses.size(), p.uses.data());
        release(ctx, p);
    }
    g_parked.fetch_sub(static_cast<std::int64_t>(all.size()));
    return all.size();
}

std::int64_t parked_svm_frees_total() noexcept {
    return g_parked.load();
}

} // namespace clarray::detail
