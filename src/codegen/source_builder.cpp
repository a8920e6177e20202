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

void require_extensions(const context& ctx, const extension_set& needs, const std::string& what) {
    for (const char* e : needs.names())
        require_extension(ctx, e, what);
}

} // namespace clarray::detail
