#pragma once
// The one kernel cache of a context: generated kernels (assignments, reductions, scans) and the
// library kernels of kernels/*.cl. Keyed by (device, static tag, small runtime signature): the
// tag is the address of a static object per C++ type (an expression type, a library program), the
// signature what the source depends on at run time (rank, contiguity, dtype...). A hit does no
// string work and no clCreateKernel. A miss builds outside the cache's lock: other launches go
// on; only callers of the same key wait for that build. A failed build is not cached.
#include <cstddef>
#include <cstdint>
#include <string>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/function_ref.hpp"
#include "clarray/runtime/handle.hpp"
#include "clarray/runtime/kernel.hpp"

namespace clarray::detail {

// A static tag per type T: its address identifies T in the kernel cache.
template <class... T> struct type_tag { static constexpr char id = 0; };

struct kernel_key {
    kernel_key(const void* t, std::uint64_t s, std::uint64_t shared = 0) noexcept
        : tag(t), signature(s), sharing(shared) {}
    const void* tag;
    std::uint64_t signature;
    std::uint64_t sharing; // which operands of an expression are one (expr/operands.hpp)
};

struct program_source {
    std::string text;
    std::string options;
};

// The program for key, built from make() on first use. make may throw (e.g. unsupported when the
// types need an extension the device lacks); nothing is cached then.
handle<cl_program> cached_program(const context& ctx, kernel_key key,
                                  function_ref<program_source()> make);
// Kernel `name` of the program that make() gives (make may itself use cached_program).
kernel cached_kernel(const context& ctx, kernel_key key, const char* name,
                     function_ref<handle<cl_program>()> make);
// Kernel `name` of a program of its own, built from make()'s source (generated kernels).
kernel cached_source_kernel(const context& ctx, kernel_key key, const char* name,
                            function_ref<program_source()> make);
// Programs and kernels the context's cache holds (tests: one kernel for all scalar values).
std::size_t cached_kernel_count(const context& ctx);

// Throws unsupported when the device lacks `extension` (null: none needed), naming `what`.
void require_extension(const context& ctx, const char* extension, const std::string& what);

} // namespace clarray::detail
