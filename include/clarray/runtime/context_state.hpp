#pragma once
// clarray's per-context state. Internal: included by the library's own templates only.
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/kernel.hpp"

namespace clarray::detail {

struct context_state {
    handle<cl_context> ctx;
    clarray::device dev;
    context_options opts;

    // Library kernels from kernels/*.cl, built per (template, dtype) on first use.
    std::mutex builtin_mutex;
    std::unordered_map<std::uint64_t, handle<cl_program>> builtin_programs;
    std::unordered_map<std::uint64_t, clarray::kernel> builtin_kernels;
};

} // namespace clarray::detail
