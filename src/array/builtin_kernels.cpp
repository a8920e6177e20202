#include "clarray/array/builtin_kernels.hpp"

#include <string>

#include "clarray/error.hpp"
#include "clarray/runtime/context_state.hpp"
#include "clarray/runtime/program.hpp"

namespace clarray::detail {

extern const char* const kernel_source_strided;

namespace {
const char* builtin_name(builtin b) {
    switch (b) {
    case builtin::strided_copy:
        return "strided_copy";
    case builtin::strided_fill:
        return "strided_fill";
    case builtin::arange:
        return "arange";
    case builtin::linspace:
        return "linspace";
    case builtin::contiguous_copy:
        return "contiguous_copy";
    case builtin::rows_copy:
        return "rows_copy";
    case builtin::rows_copy_nd:
        return "rows_copy_nd";
    case builtin::rows_copy_broadcast:
        return "rows_copy_broadcast";
    case builtin::rows_copy_broadcast_nd:
        return "rows_copy_broadcast_nd";
    case builtin::rows_fill:
        return "rows_fill";
    case builtin::rows_fill_nd:
        return "rows_fill_nd";
    }
    return "?";
}
} // namespace

kernel builtin_kernel(const context& ctx, builtin which, dtype d, bool svm_binding) {
    context_state& st = ctx.state();
    const std::uint64_t kkey = (static_cast<std::uint64_t>(svm_binding) << 16) |
                               (static_cast<std::uint64_t>(which) << 8) | static_cast<unsigned>(d);
    std::lock_guard<std::mutex> lock(st.builtin_mutex);
    if (auto it = st.builtin_kernels.find(kkey); it != st.builtin_kernels.end()) return it->second;
    if (d == dtype::float64 && !ctx.device().has_fp64())
        throw unsupported("float64 arrays need cl_khr_fp64, which device '" + ctx.device().name() +
                          "' lacks");
    const std::uint64_t pkey = static_cast<unsigned>(d);
    auto pit = st.builtin_programs.find(pkey);
    if (pit == st.builtin_programs.end()) {
        std::string opts =
            std::string("-DT=") + cl_type_name(d) + (d == dtype::float64 ? " -DCLARRAY_FP64" : "");
        static const std::string source = nd_pair::cl_declaration() + kernel_source_strided;
        pit = st.builtin_programs.emplace(pkey, build_program(ctx, source, opts)).first;
    }
    cl_int rc = CL_SUCCESS;
    handle<cl_kernel> k(clCreateKernel(pit->second.get(), builtin_name(which), &rc));
    check_cl(rc, "clCreateKernel");
    kernel kern(ctx, std::move(k), builtin_name(which));
    st.builtin_kernels.emplace(kkey, kern);
    return kern;
}

std::size_t elementwise_group_size(const device& dev) {
    std::size_t g = 256;
    return dev.max_work_group_size() < g ? dev.max_work_group_size() : g;
}

} // namespace clarray::detail
