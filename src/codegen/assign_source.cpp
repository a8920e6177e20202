#include "clarray/codegen/assign_source.hpp"

#include "clarray/codegen/emitter.hpp"

namespace clarray::detail {

// The skeletons, embedded from kernels/*.cl (cmake/embed_kernels.cmake).
extern const char* const kernel_source_assign_common;
extern const char* const kernel_source_assign_flat;
extern const char* const kernel_source_assign_strided;
extern const char* const kernel_source_assign_rows;
extern const char* const kernel_source_assign_vector;

namespace {

bool bit(std::uint32_t mask, std::size_t j) {
    return j < 32 && (mask >> j & 1u);
}

// "#define FOR_EACH_<name>(X, A) X(j, A) ..." over the operands j (outputs first) for which
// `take(j)` holds.
template <class Take>
void emit_operand_list(emitter& e, const char* name, std::size_t operands, Take take) {
    std::string list;
    for (std::size_t j = 0; j < operands; ++j)
        if (take(j)) list += (list.empty() ? "X(" : " X(") + count_text(j) + ", A)";
    e.define(std::string("FOR_EACH_") + name + "(X, A)", list);
}

const char* shape_skeleton(assign_shape shape) {
    switch (shape) {
    case assign_shape::strided:
        return kernel_source_assign_strided;
    case assign_shape::rows:
        return kernel_source_assign_rows;
    case assign_shape::vector:
        return kernel_source_assign_vector;
    case assign_shape::flat:
        break;
    }
    return kernel_source_assign_flat;
}

// The parameters of the outputs (a0 .. a<k>) and of the builder's inputs.
std::string operand_parameters(const source_builder& b, const std::vector<dtype>& outs) {
    std::string s;
    for (std::size_t k = 0; k < outs.size(); ++k)
        s += std::string(k ? ", " : "") + "global " + cl_type_name(outs[k]) + "* a" + count_text(k);
    const std::string inputs = b.input_parameters();
    if (!inputs.empty()) s += ", " + inputs;
    return s;
}

// The statements storing output k's value (converted to its type) at o<k>, one per line.
std::string element_stores(const std::vector<dtype>& outs, const std::vector<std::string>& values) {
    std::string s;
    for (std::size_t k = 0; k < outs.size(); ++k)
        s += cl_store(outs[k], "a" + count_text(k), "o" + count_text(k),
                      cl_cast(outs[k], values[k])) +
             ";\n";
    return s;
}

// The statements storing `width` elements of output k's vector value at o<k> (float16: at
// vector position v<k>).
std::string vector_stores(const std::vector<dtype>& outs, const std::vector<std::string>& values,
                          std::size_t width) {
    std::string s;
    for (std::size_t k = 0; k < outs.size(); ++k)
        s += cl_vstore(outs[k], width, "a" + count_text(k), "o" + count_text(k),
                       "v" + count_text(k), values[k]) +
             ";\n";
    return s;
}

} // namespace

std::string assign_source(const source_builder& b, const std::vector<dtype>& outs,
                          const std::vector<std::string>& values,
                          const std::vector<std::string>& vector_values,
                          const assign_kernel_spec& spec) {
    // The type of every array operand j: the outputs, then the builder's array inputs.
    std::vector<dtype> types = outs;
    for (const auto& p : b.params())
        if (p.is_array) {
            if (types.size() <= p.index) types.resize(p.index + 1, p.type);
            types[p.index] = p.type;
        }
    const std::size_t operands = types.size();
    const std::size_t rank = spec.rank == 0 ? 1 : spec.rank;
    const bool rows = spec.shape == assign_shape::rows;
    const bool vector = spec.width > 1;

    emitter e;
    extension_set extensions = b.required_extensions();
    for (dtype d : outs)
        extensions.add(d);
    e.verbatim(extensions.pragmas());
    // NumPy rounds every operation: a * b + c must not become one fma (OpenCL C contracts by
    // default). Memory-bound kernels lose nothing by it.
    e.line("#pragma OPENCL FP_CONTRACT OFF");
    e.verbatim(b.helpers_text());
    e.comment("Hooks of kernels/assign_common.cl (src/codegen/assign_source.cpp).");
    e.define("INDEX32", flag_text(spec.index32));
    e.define("LAYOUT_IN_BUFFER", flag_text(spec.layout_in_buffer));
    e.define("RANK", count_text(rank));
    e.define("CONTIGUOUS", flag_text(spec.contiguous));
    e.define("WIDTH", count_text(spec.width));
    emit_operand_list(e, "OPERAND", operands, [](std::size_t) { return true; });
    if (rows) {
        emit_operand_list(e, "ALONG_ROW", operands,
                          [&](std::size_t j) { return !bit(spec.inner_broadcast, j); });
        emit_operand_list(e, "INNER_BROADCAST", operands,
                          [&](std::size_t j) { return bit(spec.inner_broadcast, j); });
    }
    if (vector)
        emit_operand_list(e, "HALF_VECTOR", operands, [&](std::size_t j) {
            return is_half_storage(types[j]) && !bit(spec.inner_broadcast, j);
        });
    e.verbatim(assign_layout_schema(operands, rank, spec.contiguous).layout().declaration());
    e.verbatim(kernel_source_assign_common);
    e.verbatim(splice(shape_skeleton(spec.shape),
                      {{"@OPERAND_PARAMETERS@", operand_parameters(b, outs)},
                       {"@STORE_ELEMENT@", element_stores(outs, values)},
                       {"@STORE_VECTOR@",
                        vector ? vector_stores(outs, vector_values, spec.width) : std::string()}},
                      "assignment skeleton"));
    return e.str();
}

} // namespace clarray::detail
