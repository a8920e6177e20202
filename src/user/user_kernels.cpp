#include "clarray/user/user_kernels.hpp"

namespace clarray::detail {

namespace {
// The user's own text (arguments, preamble, operation) may name any OpenCL C type; it is not a
// dtype clarray knows, so the only way to see that it needs fp64 is to read it.
bool user_text_uses_double(std::initializer_list<const std::string*> texts) {
    for (const std::string* t : texts)
        if (t->find("double") != std::string::npos) return true;
    return false;
}
std::string fp64_pragma() {
    return std::string("#pragma OPENCL EXTENSION ") + required_extension(dtype::float64) +
           " : enable\n";
}
} // namespace

std::string elementwise_source(const std::string& name, const std::string& arguments,
                               const std::string& operation, const std::string& preamble) {
    std::string s;
    if (user_text_uses_double({&arguments, &operation, &preamble})) s += fp64_pragma();
    s += preamble + "\n";
    s += "kernel void " + name + "(" + arguments + ", ulong clarray_n) {\n";
    s += "    const ulong i = get_global_id(0);\n    if (i >= clarray_n) return;\n";
    s += "    " + operation + ";\n}\n";
    return s;
}

// Stage 1: part p of [0, n) in chunks (a work-group per part with a local tree on GPUs, one
// work-item per part on CPUs); stage 2 combines the parts. The user's names come first in the
// parameter lists; ours are prefixed so they cannot collide with theirs.
std::string user_reduction_source(dtype type, const std::string& reduce_expr,
                                  const std::string& map_expr, const std::string& arguments,
                                  const std::string& preamble, bool cooperative) {
    const std::string T = cl_type_name(type);
    std::string s;
    if (const char* ext = required_extension(type))
        s += std::string("#pragma OPENCL EXTENSION ") + ext + " : enable\n";
    else if (user_text_uses_double({&reduce_expr, &map_expr, &arguments, &preamble}))
        s += fp64_pragma();
    s += preamble + "\n";
    s += "inline " + T + " clarray_user_combine(" + T + " a, " + T + " b) {\n    return (" +
         reduce_expr + ");\n}\n";
    const std::string tree =
        "    {\n        const uint t = get_local_id(0);\n        clarray_scratch[t] = clarray_acc;\n"
        "        barrier(CLK_LOCAL_MEM_FENCE);\n"
        "        for (uint h = get_local_size(0) / 2; h > 0; h >>= 1) {\n"
        "            if (t < h) clarray_scratch[t] = clarray_user_combine(clarray_scratch[t], "
        "clarray_scratch[t + h]);\n"
        "            barrier(CLK_LOCAL_MEM_FENCE);\n        }\n"
        "        clarray_acc = clarray_scratch[0];\n    }\n";
    s += "kernel void clarray_user_reduce(" + arguments + ", global " + T +
         "* clarray_r, ulong clarray_n, ulong clarray_chunk, " + T + " clarray_neutral, local " +
         T + "* clarray_scratch) {\n";
    s += "    const ulong clarray_p = get_group_id(0);\n";
    s += "    const ulong clarray_begin = clarray_p * clarray_chunk;\n";
    s += "    const ulong clarray_end = min(clarray_begin + clarray_chunk, clarray_n);\n";
    s += "    " + T + " clarray_acc = clarray_neutral;\n";
    s += "    for (ulong i = clarray_begin + get_local_id(0); i < clarray_end; i += "
         "get_local_size(0))\n";
    s += "        clarray_acc = clarray_user_combine(clarray_acc, (" + T + ")(" + map_expr +
         "));\n";
    if (cooperative) s += tree;
    s += "    if (get_local_id(0) == 0) clarray_r[clarray_p] = clarray_acc;\n}\n";
    s += "kernel void clarray_user_reduce_final(global const " + T + "* clarray_parts, global " +
         T + "* clarray_r, ulong clarray_count, " + T + " clarray_neutral, local " + T +
         "* clarray_scratch) {\n";
    s += "    " + T + " clarray_acc = clarray_neutral;\n";
    s += "    for (ulong k = get_local_id(0); k < clarray_count; k += get_local_size(0))\n";
    s += "        clarray_acc = clarray_user_combine(clarray_acc, clarray_parts[k]);\n";
    if (cooperative) s += tree;
    s += "    if (get_local_id(0) == 0) clarray_r[0] = clarray_acc;\n}\n";
    return s;
}

} // namespace clarray::detail
