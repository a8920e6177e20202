#include "clarray/runtime/launch_profile.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "clarray/runtime/env.hpp"

namespace clarray::detail {

namespace {

struct totals {
    std::uint64_t launches = 0;
    std::uint64_t ns = 0;
};

// Launches whose commands may still run, and the sums of those that completed. Commands are
// resolved when they have completed (never waited for) and at exit.
struct profile_table {
    std::mutex m;
    std::vector<std::pair<std::string, event>> pending;
    std::map<std::string, totals> done;

    // Adds the completed pending launches to the sums (all of them: at exit).
    void resolve(bool all) {
        std::vector<std::pair<std::string, event>> left;
        for (auto& p : pending) {
            cl_int status = CL_QUEUED;
            const bool ok = clGetEventInfo(p.second.get(), CL_EVENT_COMMAND_EXECUTION_STATUS,
                                           sizeof status, &status, nullptr) == CL_SUCCESS;
            if (ok && status > CL_COMPLETE && !all) {
                left.push_back(std::move(p));
                continue;
            }
            if (!ok || status < CL_COMPLETE) continue; // failed commands take no time
            if (all && status != CL_COMPLETE) {
                cl_event e = p.second.get();
                if (clWaitForEvents(1, &e) != CL_SUCCESS) continue;
            }
            cl_ulong start = 0, end = 0;
            if (clGetEventProfilingInfo(p.second.get(), CL_PROFILING_COMMAND_START, sizeof start,
                                        &start, nullptr) != CL_SUCCESS ||
                clGetEventProfilingInfo(p.second.get(), CL_PROFILING_COMMAND_END, sizeof end, &end,
                                        nullptr) != CL_SUCCESS)
                continue;
            totals& t = done[p.first];
            ++t.launches;
            t.ns += end > start ? end - start : 0;
        }
        pending = std::move(left);
    }

    void report() {
        std::lock_guard<std::mutex> lock(m);
        resolve(true);
        std::vector<std::pair<std::string, totals>> rows(done.begin(), done.end());
        std::sort(rows.begin(), rows.end(),
                  [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
        std::uint64_t all = 0;
        for (const auto& r : rows)
            all += r.second.ns;
        std::fprintf(stderr, "clarray profile (CLARRAY_PROFILE): %.1f us of kernels\n", all / 1e3);
        std::fprintf(stderr, "%12s %9s %10s %6s  %s\n", "total us", "launches", "mean us", "share",
                     "kernel");
        for (const auto& r : rows)
            std::fprintf(stderr, "%12.1f %9llu %10.2f %5.1f%%  %s\n", r.second.ns / 1e3,
                         static_cast<unsigned long long>(r.second.launches),
                         r.second.ns / 1e3 / static_cast<double>(r.second.launches),
                         all ? 100.0 * static_cast<double>(r.second.ns) / static_cast<double>(all)
                             : 0.0,
                         r.first.c_str());
    }
};

profile_table& table() {
    static profile_table* t = [] {
        auto* p = new profile_table; // outlives static destructors; reported by atexit
        std::atexit([] { table().report(); });
        return p;
    }();
    return *t;
}

} // namespace

bool launch_profile_on() {
    static const bool on = env_flag("CLARRAY_PROFILE");
    return on;
}

void launch_profile_record(const std::string& name, const event& e) {
    if (!e) return;
    profile_table& t = table();
    std::lock_guard<std::mutex> lock(t.m);
    t.pending.emplace_back(name, e);
    if (t.pending.size() >= 4096) t.resolve(false);
}

} // namespace clarray::detail
