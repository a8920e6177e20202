#include "clarray/codegen/source_builder.hpp"

#include "clarray/error.hpp"
#include "clarray/runtime/kernel_cache.hpp"

#include <algorithm>
#include <cstring>

namespace clarray::detail {

void extension_set::add(const char* extension) {
    if (extension && !contains(extension)) names_.push_back(extension);
}

void extension_set::add(const extension_set& other) {
    for (const char* e : other.names_)
        add(e);
}

bool extension_set::contains(const char* extension) const noexcept {
    return extension && std::any_of(names_.begin(), names_.end(),
                                    [&](const char* e) { return std::strcmp(e, extension) == 0; });
}

std::string extension_set::pragmas() const {
    std::string s;
    for (const char* e : names_)
        s += std::string("#pragma OPENCL EXTENSION ") + e + " : enable\n";
    return s;
}

std::string cl_cast(dtype d, const std::string& text) {
    if (dtype_kind_of(d) == dtype_kind::boolean)
        return std::string("((") + cl_type_name(d) + ")((" + text + ") != 0))";
    return std::string("((") + cl_value_type_name(d) + ")(" + text + "))";
}

std::string cl_load(dtype d, const std::string& ptr, const std::string& index) {
    if (is_half_storage(d)) return "vload_half(" + index + ", " + ptr + ")";
    return ptr + "[" + index + "]";
}

std::string cl_vload(dtype d, std::size_t width, const std::string& ptr, const std::string& index,
                     const std::string& vector_index) {
    const std::string w = std::to_string(width);
    if (is_half_storage(d)) return "vload_half" + w + "(" + vector_index + ", " + ptr + ")";
    return "vload" + w + "(0, " + ptr + " + " + index + ")";
}

std::string cl_store(dtype d, const std::string& ptr, const std::string& index,
                     const std::string& value) {
    if (is_half_storage(d)) return "vstore_half_rte(" + value + ", " + index + ", " + ptr + ")";
    return ptr + "[" + index + "] = " + value;
}

std::string cl_vstore(dtype d, std::size_t width, const std::string& ptr, const std::string& index,
                      const std::string& vector_index, const std::string& value) {
    const std::string w = std::to_string(width);
    if (is_half_storage(d))
        return "vstore_half" + w + "_rte(" + value + ", " + vector_index + ", " + ptr + ")";
    return "vstore" + w + "(" + value + ", 0, " + ptr + " + " + index + ")";
}

std::string cl_convert(dtype to, dtype from, const std::string& text) {
    const std::string t = cl_type_name(to);
    if (to == from || (!is_complex(to) && !is_complex(from))) return cl_cast(to, text);
    if (is_complex(to) && is_complex(from)) return "convert_" + t + "(" + text + ")";
    if (is_complex(to)) {
        const std::string part =
            cl_type_name(to == dtype::complex64 ? dtype::float32 : dtype::float64);
        return "((" + t + ")((" + part + ")(" + text + "), (" + part + ")0))";
    }
    // NumPy: a complex number is true when either part is non-zero (NaN included).
    if (dtype_kind_of(to) == dtype_kind::boolean)
        return "((" + t + ")any((" + text + ") != (" + cl_type_name(from) + ")0))";
    return cl_cast(to, "(" + text + ").x");
}

std::size_t source_builder::next_array_parameter(dtype d) {
    const std::size_t t = array_terminals_.size();
    if (shared_ && t < shared_->size() && (*shared_)[t] != t) {
        const std::size_t j = array_terminals_[(*shared_)[t]]; // the operand's first use
        array_terminals_.push_back(j);
        return j;
    }
    const std::size_t j = outputs_ + params_arrays_++;
    params_.push_back({true, d, j});
    array_terminals_.push_back(j);
    return j;
}

std::string source_builder::array_input(dtype d) {
    note_type(d);
    const std::size_t j = next_array_parameter(d);
    const std::string J = std::to_string(j);
    if (width_ > 1 && j < 32 && (inner_broadcast_ >> j & 1u))
        return std::string("((") + cl_value_type_name(d) + std::to_string(width_) + ")(" +
               cl_load(d, "a" + J, "o" + J) + "))";
    if (width_ > 1) return cl_vload(d, width_, "a" + J, "o" + J, "v" + J);
    return cl_load(d, "a" + J, "o" + J);
}

std::string source_builder::array_input_at(dtype d, const std::string& index) {
    note_type(d);
    const std::size_t j = next_array_parameter(d);
    const std::string J = std::to_string(j);
    // float16 through vload_half: a half value needs cl_khr_fp16.
    return cl_load(d, "a" + J, "o" + J + " + (" + index + ")");
}

std::string source_builder::scalar_input(dtype d) {
    note_type(d);
    std::size_t j = scalars_++;
    params_.push_back({false, d, j});
    // Broadcast explicitly: OpenCL's vector builtins (pow, atan2...) take no scalar operands.
    if (width_ > 1)
        return std::string("((") + cl_value_type_name(d) + std::to_string(width_) + ")(s" +
               std::to_string(j) + "))";
    return "s" + std::to_string(j);
}

std::string source_builder::flag_input() {
    std::size_t j = scalars_++;
    params_.push_back({false, dtype::uint32, j, true});
    return "f" + std::to_string(j);
}

void kernel_variants::add(std::uint32_t value, unsigned bits) {
    if (bits_ + bits > 32 || count_ == 32)
        throw usage_error("expression: too many operands that select the kernel's source (at most "
                          "16 take() operands per expression); evaluate parts into arrays first");
    values_[count_++] = value;
    key_ |= (value & ((std::uint32_t(1) << bits) - 1)) << bits_;
    bits_ += bits;
}

std::uint32_t source_builder::variant_input() {
    if (!variants_ || variants_taken_ >= variants_->size())
        throw error("source_builder: a node asked for a kernel variant its terminals did not "
                    "give (a library bug)");
    return (*variants_)[variants_taken_++];
}

std::string source_builder::cast(dtype d, const std::string& text) const {
    if (width_ > 1) return "(" + text + ")";
    return cl_cast(d, text);
}

std::string source_builder::convert(dtype d, dtype from, const std::string& text) const {
    if (width_ > 1) return "(" + text + ")";
    return cl_convert(d, from, text);
}

std::string source_builder::input_parameters() const {
    std::string s;
    for (const param& p : params_) {
        if (!s.empty()) s += ", ";
        if (p.is_array)
            s += std::string("global const ") + cl_type_name(p.type) + "* a" +
                 std::to_string(p.index);
        else if (p.is_flag)
            // restrict (the flag words alias no operand): without it a conditional store to
            // them kept pocl from vectorising the loads after it (a gather ran 2x slower).
            s += "global uint* restrict f" + std::to_string(p.index);
        else
            s += std::string(cl_value_type_name(p.type)) + " s" + std::to_string(p.index);
    }
    return s;
}

std::string source_builder::input_arguments() const {
    std::string s;
    for (const param& p : params_) {
        if (!s.empty()) s += ", ";
        s += (p.is_array ? "a" : (p.is_flag ? "f" : "s")) + std::to_string(p.index);
    }
    return s;
}

std::string source_builder::round_to_half(dtype from, const std::string& text) {
    // No half values without cl_khr_fp16: a round trip through 16 private bits.
    const std::string t = from == dtype::float64 ? "double" : "float";
    const std::string f = "clarray_round_half_" + t;
    helper(f, "inline float " + f + "(" + t + " x) {\n    ushort h;\n" +
                  "    vstore_half_rte(x, 0, (half*)&h);\n" +
                  "    return vload_half(0, (const half*)&h);\n}");
    return f + "((" + t + ")(" + text + "))";
}

void source_builder::helper(const std::string& name, const std::string& definition) {
    if (std::find(helper_names_.begin(), helper_names_.end(), name) != helper_names_.end()) return;
    helper_names_.push_back(name);
    helpers_ += definition;
    helpers_ += "\n";
}

namespace {
// Adds the offsets of outer position m (an index over axes 0..rank-2) to prefix<j>: axes
// rank-2..1 by division, axis 0 by what remains (m < the product of the outer extents).
std::string unravel_rows(const assign_layout_schema& lay, const std::string& prefix,
                         std::size_t n_arrays, std::size_t rank) {
    const auto J = [](std::size_t j) { return std::to_string(j); };
    std::string s = "    ulong rem = m;\n";
    s += "    for (int k = " + J(rank - 2) + "; k >= 1; --k) {\n";
    s += "        const ulong c = rem % " + lay.shape_ref("k") +
         ";\n        rem /= " + lay.shape_ref("k") + ";\n";
    for (std::size_t j = 0; j < n_arrays; ++j)
        s += "        " + prefix + J(j) + " += (long)c * " + lay.stride_ref(j, "k") + ";\n";
    s += "    }\n";
    for (std::size_t j = 0; j < n_arrays; ++j)
        s += "    " + prefix + J(j) + " += (long)rem * " + lay.stride_ref(j, "0") + ";\n";
    return s;
}

// The positions in vectors of the float16 operands of a vector kernel (cl_vload's vector_index):
// v<j> = base<j> / W + get_global_id(0), linear in the work-item so that the compiler sees
// consecutive vectors (pocl, add_f16 at 1.6e7: indexing by (base + i0) / W ran at 0.57x the raw
// 4-per-work-item kernel, this form at 0.89x). base<j>, the operand's first
// element of the work-item's run or row, is a multiple of W: the plan takes float16 vector
// kernels only then. Inner-broadcast operands are read one element at a time.
std::string half_vector_indices(const std::vector<dtype>& outs,
                                const std::vector<source_builder::param>& params,
                                std::uint32_t inner_broadcast, std::size_t width,
                                const std::string& indent, const std::vector<std::string>& bases) {
    std::vector<dtype> types = outs;
    for (const auto& p : params)
        if (p.is_array) types.push_back(p.type);
    std::string s;
    for (std::size_t j = 0; j < types.size() && j < bases.size(); ++j) {
        if (!is_half_storage(types[j]) || (j < 32 && (inner_broadcast >> j & 1u))) continue;
        s += indent + "const long v" + std::to_string(j) + " = " + bases[j] + " / " +
             std::to_string(width) + " + (long)get_global_id(0);\n";
    }
    return s;
}
} // namespace

assign_layout_schema source_builder::layout_schema(std::size_t outputs, std::size_t rank,
                                                   bool contiguous) const {
    return assign_layout_schema(outputs + params_arrays_, rank == 0 ? 1 : rank, contiguous);
}

std::string source_builder::kernel_head(const std::vector<dtype>& outs,
                                        const assign_layout_schema& lay,
                                        bool layout_in_buffer) const {
    std::string s;
    extension_set extensions = extensions_;
    for (dtype d : outs)
        extensions.add(d);
    s += extensions.pragmas();
    // NumPy rounds every operation: a * b + c must not become one fma (OpenCL C contracts by
    // default). Memory-bound kernels lose nothing by it.
    s += "#pragma OPENCL FP_CONTRACT OFF\n";
    s += helpers_;
    s += lay.layout().declaration() + "\n";
    s += "kernel void clarray_assign(";
    for (std::size_t k = 0; k < outs.size(); ++k)
        s += std::string("global ") + cl_type_name(outs[k]) + "* a" + std::to_string(k) + ", ";
    const std::string inputs = input_parameters();
    if (!inputs.empty()) s += inputs + ", ";
    s += lay.layout().parameter(layout_in_buffer) + ") {\n" + word_struct::open(layout_in_buffer);
    return s;
}

std::string source_builder::assign_kernel(const std::vector<dtype>& outs,
                                          const std::vector<std::string>& values, std::size_t rank,
                                          bool contiguous, bool layout_in_buffer) const {
    const std::size_t n_arrays = outs.size() + params_arrays_;
    const assign_layout_schema lay = layout_schema(outs.size(), rank, contiguous);
    std::string s = kernel_head(outs, lay, layout_in_buffer);
    const auto J = [](std::size_t j) { return std::to_string(j); };
    if (contiguous || rank <= 1) {
        s += "    ulong gid = get_global_id(0);\n    if (gid >= " + lay.count_ref() + ") return;\n";
        for (std::size_t j = 0; j < n_arrays; ++j)
            s += "    long o" + J(j) + " = " + lay.offset_ref(j) + " + (long)gid" +
                 (contiguous ? std::string() : " * " + lay.stride_ref(j, "0")) + ";\n";
    } else {
        // Dimension 0 walks the innermost axis, dimensions 1 and 2 the flattened rest
        // (dimension 2 only past a driver's group-count limit: strided_launch in
        // src/expr/assign_plan.cpp). Rank 2 needs no division; higher ranks unravel only the outer
        // index. No loop in the body, so pocl vectorises across dimension 0.
        const std::string in = J(rank - 1);
        s += "    const ulong i = get_global_id(0);\n";
        s += "    const ulong m = get_global_id(1) + get_global_id(2) * get_global_size(1);\n";
        s += "    if (i >= " + lay.shape_ref(in) + " || m >= " + lay.count_ref() + ") return;\n";
        for (std::size_t j = 0; j < n_arrays; ++j)
            s += "    long o" + J(j) + " = " + lay.offset_ref(j) + " + (long)i * " +
                 lay.stride_ref(j, in) +
                 (rank == 2 ? " + (long)m * " + lay.stride_ref(j, "0") : std::string()) + ";\n";
        if (rank > 2) s += unravel_rows(lay, "o", n_arrays, rank);
    }
    for (std::size_t k = 0; k < outs.size(); ++k)
        s += "    " +
             cl_store(outs[k], "a" + std::to_string(k), "o" + std::to_string(k),
                      cl_cast(outs[k], values[k])) +
             ";\n";
    s += "}\n" + word_struct::close(layout_in_buffer);
    return s;
}

std::string source_builder::assign_kernel_rows(const std::vector<dtype>& outs,
                                               const std::vector<std::string>& values,
                                               const std::vector<std::string>& vector_values,
                                               std::size_t width, std::size_t rank,
                                               std::uint32_t inner_broadcast,
                                               bool layout_in_buffer) const {
    const std::size_t n_arrays = outs.size() + params_arrays_;
    const auto J = [](std::size_t j) { return std::to_string(j); };
    const std::string W = J(width), in = J(rank - 1);
    const assign_layout_schema lay = layout_schema(outs.size(), rank, false);
    std::string s = kernel_head(outs, lay, layout_in_buffer);
    s += "    const ulong i0 = get_global_id(0)" + (width > 1 ? " * " + W : std::string()) + ";\n";
    s += "    const ulong m = get_global_id(1) + get_global_id(2) * get_global_size(1);\n";
    s += "    const ulong inner = " + lay.shape_ref(in) + ";\n";
    s += "    if (i0 >= inner || m >= " + lay.count_ref() + ") return;\n";
    // Row bases: rank 1 is one row, rank 2 one multiply, higher ranks unravel m once.
    for (std::size_t j = 0; j < n_arrays; ++j)
        s += "    long b" + J(j) + " = " + lay.offset_ref(j) +
             (rank == 2 ? " + (long)m * " + lay.stride_ref(j, "0") : std::string()) + ";\n";
    if (rank > 2) s += unravel_rows(lay, "b", n_arrays, rank);
    auto offsets = [&](const std::string& indent, const std::string& i) {
        std::string t;
        for (std::size_t j = 0; j < n_arrays; ++j)
            t += indent + "const long o" + J(j) + " = b" + J(j) +
                 ((inner_broadcast >> j & 1u) ? std::string() : " + (long)" + i) + ";\n";
        return t;
    };
    if (width == 1) {
        s += offsets("    ", "i0");
        for (std::size_t k = 0; k < outs.size(); ++k)
            s += "    " + cl_store(outs[k], "a" + J(k), "o" + J(k), cl_cast(outs[k], values[k])) +
                 ";\n";
    } else {
        s += "    if (i0 + " + W + " <= inner) {\n";
        s += offsets("        ", "i0");
        std::vector<std::string> bases;
        for (std::size_t j = 0; j < n_arrays; ++j)
            bases.push_back("b" + J(j));
        s += half_vector_indices(outs, params_, inner_broadcast, width, "        ", bases);
        for (std::size_t k = 0; k < outs.size(); ++k)
            s += "        " +
                 cl_vstore(outs[k], width, "a" + J(k), "o" + J(k), "v" + J(k), vector_values[k]) +
                 ";\n";
        s += "    } else {\n";
        s += "        for (ulong i = i0; i < inner; ++i) {\n";
        s += offsets("            ", "i");
        for (std::size_t k = 0; k < outs.size(); ++k)
            s += "            " +
                 cl_store(outs[k], "a" + J(k), "o" + J(k), cl_cast(outs[k], values[k])) + ";\n";
        s += "        }\n    }\n";
    }
    s += "}\n" + word_struct::close(layout_in_buffer);
    return s;
}

std::string source_builder::assign_kernel_vector(const std::vector<dtype>& outs,
                                                 const std::vector<std::string>& values,
                                                 const std::vector<std::string>& vector_values,
                                                 std::size_t width, bool layout_in_buffer) const {
    const std::size_t n_arrays = outs.size() + params_arrays_;
    const auto J = [](std::size_t j) { return std::to_string(j); };
    const std::string W = J(width);
    const assign_layout_schema lay = layout_schema(outs.size(), 1, true);
    std::string s = kernel_head(outs, lay, layout_in_buffer);
    const std::string n = lay.count_ref();
    s += "    const ulong i0 = get_global_id(0) * " + W + ";\n";
    s += "    if (i0 + " + W + " <= " + n + ") {\n";
    std::vector<std::string> bases;
    for (std::size_t j = 0; j < n_arrays; ++j) {
        s += "        const long o" + J(j) + " = " + lay.offset_ref(j) + " + (long)i0;\n";
        bases.push_back(lay.offset_ref(j));
    }
    s += half_vector_indices(outs, params_, 0, width, "        ", bases);
    for (std::size_t k = 0; k < outs.size(); ++k)
        s += "        " +
             cl_vstore(outs[k], width, "a" + J(k), "o" + J(k), "v" + J(k), vector_values[k]) +
             ";\n";
    s += "    } else {\n";
    s += "        for (ulong i = i0; i < " + n + "; ++i) {\n";
    for (std::size_t j = 0; j < n_arrays; ++j)
        s += "            const long o" + J(j) + " = " + lay.offset_ref(j) + " + (long)i;\n";
    for (std::size_t k = 0; k < outs.size(); ++k)
        s += "            " +
             cl_store(outs[k], "a" + J(k), "o" + J(k), cl_cast(outs[k], values[k])) + ";\n";
    s += "        }\n    }\n}\n" + word_struct::close(layout_in_buffer);
    return s;
}

void require_extensions(const context& ctx, const extension_set& needs, const std::string& what) {
    for (const char* e : needs.names())
        require_extension(ctx, e, what);
}

} // namespace clarray::detail
