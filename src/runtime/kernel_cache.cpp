#include "clarray/runtime/kernel_cache.hpp"

#include <atomic>
#include <mutex>
#include <optional>

#include "clarray/error.hpp"
#include "clarray/runtime/context_state.hpp"
#include "clarray/runtime/program.hpp"

namespace clarray::detail {

// One cache entry: built once; `build` is held only by callers of this key while it builds.
struct kernel_cache_entry {
    std::mutex build;
    std::atomic<bool> ready{false};
    handle<cl_program> program;
    std::optional<clarray::kernel> k;
};

namespace {
std::shared_ptr<kernel_cache_entry> entry_for(const context& ctx, kernel_key key) {
    context_state& st = ctx.state();
    const context_state::cache_key ck{ctx.device().id(), key.tag, key.signature, key.sharing};
    std::lock_guard<std::mutex> lock(st.kernel_cache_mutex);
    std::shared_ptr<kernel_cache_entry>& e = st.kernel_cache[ck];
    if (!e) e = std::make_shared<kernel_cache_entry>();
    return e;
}

clarray::kernel create_kernel(const context& ctx, const handle<cl_program>& prog,
                              const char* name) {
    cl_int rc = CL_SUCCESS;
    handle<cl_kernel> raw(clCreateKernel(prog.get(), name, &rc));
    if (rc != CL_SUCCESS)
        throw cl_error(rc, "clCreateKernel", std::string("kernel name: '") + name + "'");
    return clarray::kernel(ctx, std::move(raw), name);
}

// Runs build() for e unless it is built; a throw leaves e unbuilt (the next caller retries).
template <class F> void build_once(kernel_cache_entry& e, F&& build) {
    if (e.ready.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(e.build);
    if (e.ready.load(std::memory_order_relaxed)) return;
    build();
    e.ready.store(true, std::memory_order_release);
}
} // namespace

handle<cl_program> cached_program(const context& ctx, kernel_key key,
                                  function_ref<program_source()> make) {
    std::shared_ptr<kernel_cache_entry> e = entry_for(ctx, key);
    build_once(*e, [&] {
        program_source src = make();
        e->program = build_program(ctx, src.text, src.options);
    });
    return e->program;
}

kernel cached_kernel(const context& ctx, kernel_key key, const char* name,
                     function_ref<handle<cl_program>()> make) {
    std::shared_ptr<kernel_cache_entry> e = entry_for(ctx, key);
    build_once(*e, [&] { e->k.emplace(create_kernel(ctx, make(), name)); });
    return *e->k;
}

kernel cached_source_kernel(const context& ctx, kernel_key key, const char* name,
                            function_ref<program_source()> make) {
    std::shared_ptr<kernel_cache_entry> e = entry_for(ctx, key);
    build_once(*e, [&] {
        program_source src = make();
        e->program = build_program(ctx, src.text, src.options);
        e->k.emplace(create_kernel(ctx, e->program, name));
    });
    return *e->k;
}

std::size_t cached_kernel_count(const context& ctx) {
    context_state& st = ctx.state();
    std::lock_guard<std::mutex> lock(st.kernel_cache_mutex);
    return st.kernel_cache.size();
}

void require_extension(const context& ctx, const char* extension, const std::string& what) {
    if (!extension) return;
    const std::string ext = extension;
    const bool has =
        ext == "cl_khr_fp64" ? ctx.device().has_fp64() : ctx.device().has_extension(ext);
    if (!has)
        throw unsupported(what + " needs " + ext + ", which device '" + ctx.device().name() +
                          "' lacks");
}

} // namespace clarray::detail
