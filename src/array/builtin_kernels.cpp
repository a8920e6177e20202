#include "clarray/array/builtin_kernels.hpp"

#include <string>

#include "clarray/error.hpp"
#include "clarray/runtime/kernel_cache.hpp"

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

namespace {
struct strided_program_tag {};
struct strided_kernel_tag {};
} // namespace

kernel builtin_kernel(const context& ctx, builtin which, dtype d) {
    const auto signature = (static_cast<std::uint64_t>(which) << 8) | static_cast<unsigned>(d);
    return cached_kernel(
        ctx, {&type_tag<strided_kernel_tag>::id, signature}, builtin_name(which), [&] {
            const char* extension = required_extension(d);
            if (extension)
                require_extension(ctx, extension, std::string("an array of ") + dtype_name(d));
            return cached_program(
                ctx, {&type_tag<strided_program_tag>::id, static_cast<unsigned>(d)}, [&] {
                    // The element type's extension and the struct declarations (from their C++
                    // field lists) precede the library source, which is written for any T.
                    std::string source = extension ? std::string("#pragma OPENCL EXTENSION ") +
                                                         extension + " : enable\n"
                                                   : std::string();
                    source += nd_pair::cl_declaration();
                    source += kernel_source_strided;
                    // float16 moves as 16-bit integers (CLARRAY_HALF: ranges in float).
                    return program_source{std::move(source),
                                          is_half_storage(d)
                                              ? std::string("-DT=ushort -DCLARRAY_HALF")
                                              : std::string("-DT=") + cl_type_name(d)};
                });
        });
}

std::size_t elementwise_group_size(const device& dev) {
    std::size_t g = 256;
    return dev.max_work_group_size() < g ? dev.max_work_group_size() : g;
}

} // namespace clarray::detail
