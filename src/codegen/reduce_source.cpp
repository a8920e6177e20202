#include "clarray/codegen/reduce_source.hpp"

#include <vector>

#include "clarray/codegen/emitter.hpp"

namespace clarray::detail {

// The skeletons, embedded from kernels/*.cl (cmake/embed_kernels.cmake).
extern const char* const kernel_source_reduce_ops;
extern const char* const kernel_source_reduce_operands;
extern const char* const kernel_source_reduce_stage1;
extern const char* const kernel_source_reduce_combine;
extern const char* const kernel_source_scan;

namespace {

// Source indices j of the map's array inputs (a<j>; a0 is the output), in parameter order.
std::vector<std::size_t> array_inputs(const source_builder& b) {
    std::vector<std::size_t> inputs;
    for (const auto& p : b.params())
        if (p.is_array) inputs.push_back(p.index);
    return inputs;
}

// The text of an expression, spliced at the skeletons' marked points (@NAME@).
struct expression_text {
    std::string input_parameters; // "global const float* a1, float s2"
    std::string input_arguments;  // "a1, s2"
    std::string map_expression;   // the mapped value of one element, e.g. "(a1[o1] * s2)"
};

std::string splice_expression(const std::string& skeleton, const expression_text& text) {
    return splice(skeleton,
                  {{"@INPUT_PARAMETERS@", text.input_parameters},
                   {"@INPUT_ARGUMENTS@", text.input_arguments},
                   {"@MAP_EXPRESSION@", text.map_expression}},
                  "reduction skeleton");
}

// The pragmas every program starts with: the extensions its types need (`extensions`, the
// accumulator's and the output's), and FP_CONTRACT OFF before any arithmetic, so that mapped
// values round as NumPy's (no fma of d * d + acc).
void emit_pragmas(emitter& e, const reduce_text& op, extension_set extensions, dtype out_type,
                  bool with_output) {
    extensions.add(op.acc_extension);
    if (with_output) extensions.add(out_type);
    e.verbatim(extensions.pragmas());
    e.line("#pragma OPENCL FP_CONTRACT OFF");
}

// ACC, VALUE, OUTPUT and STORE_OUTPUT(pointer, index, value): a finished value (of the output's
// value type) stored as element `index` (float16: rounded to nearest even by vstore_half_rte).
void emit_types(emitter& e, const reduce_text& op, const std::string& value_type, dtype out_type) {
    e.define("ACC", op.acc);
    if (!value_type.empty()) e.define("VALUE", value_type);
    e.define("OUTPUT", cl_type_name(out_type));
    e.define("STORE_OUTPUT(pointer, index, value)",
             cl_store(out_type, "pointer", "index",
                      std::string("(") + cl_value_type_name(out_type) + ")(value)"));
    e.define("COMPENSATED", flag_text(op.compensated));
    // Struct accumulators (argmin/argmax) are defined by the operation's prelude.
    e.define("ACC_IS_STRUCT", flag_text(!op.prelude.empty()));
}

// The operation's functions: clarray_from (when values are mapped: value_type not empty),
// clarray_combine, clarray_finish (when outputs are finished: out_type set).
void emit_op_functions(emitter& e, const reduce_text& op, const std::string& value_type,
                       const std::string& out_value_type) {
    e.verbatim(op.prelude);
    if (!value_type.empty()) {
        e.open("inline " + op.acc + " clarray_from(" + value_type + " v, ulong i) {");
        e.line(op.from).close();
    }
    e.open("inline " + op.acc + " clarray_combine(" + op.acc + " x, " + op.acc + " y) {");
    e.line(op.combine).close();
    if (!out_value_type.empty()) {
        e.open("inline " + out_value_type + " clarray_finish(" + op.acc + " x, long n) {");
        e.line(op.finish).close();
    }
}

// FOR_EACH_INPUT(X, A): X(j, A) for every array input a<j> of the map.
void emit_inputs(emitter& e, const std::vector<std::size_t>& inputs) {
    std::string list;
    for (std::size_t j : inputs)
        list += (list.empty() ? "X(" : " X(") + count_text(j) + ", A)";
    e.define("FOR_EACH_INPUT(X, A)", list);
}

// A set of `count` accumulators (a power of two) named by `prefix`: e.g. LANES 4,
// FOR_EACH_LANE(X, A) = X(0, A) .. X(3, A), and FOLD_LANES(F), the pairs folding them into
// lane 0, halving: F(0, 2) F(1, 3) F(0, 1).
void emit_lanes(emitter& e, const std::string& plural, const std::string& singular,
                std::size_t count) {
    std::string each, fold;
    for (std::size_t k = 0; k < count; ++k)
        each += (k ? " X(" : "X(") + count_text(k) + ", A)";
    for (std::size_t half = count / 2; half >= 1; half /= 2)
        for (std::size_t k = 0; k < half; ++k)
            fold +=
                (fold.empty() ? "F(" : " F(") + count_text(k) + ", " + count_text(k + half) + ")";
    e.define(plural, count_text(count));
    e.define("FOR_EACH_" + singular + "(X, A)", each);
    e.define("FOLD_" + plural + "(F)", fold);
}

// The layout argument: its struct and how it arrives.
void emit_layout(emitter& e, const reduce_layout_schema& layout, std::size_t kept_rank,
                 std::size_t red_rank, bool in_buffer) {
    e.define("KEPT_RANK", count_text(kept_rank));
    e.define("REDUCED_RANK", count_text(red_rank));
    e.define("LAYOUT_IN_BUFFER", flag_text(in_buffer));
    e.verbatim(layout.layout().declaration());
}

const char* shape_name(const reduce_kernel_spec& spec) {
    if (spec.short_axis) return "SHAPE_SHORT_AXIS";
    switch (spec.shape) {
    case reduce_shape::chunks:
        return "SHAPE_CHUNKS";
    case reduce_shape::outputs:
        return "SHAPE_OUTPUTS";
    case reduce_shape::rows:
        return "SHAPE_ROWS";
    }
    return "SHAPE_CHUNKS";
}

expression_text expression(const source_builder& b, const std::string& map_text) {
    return {b.input_parameters(), b.input_arguments(), map_text};
}

} // namespace

std::string reduce_stage1_source(const source_builder& b, const std::string& map_text,
                                 dtype value_type, dtype out_type, const reduce_text& op,
                                 const reduce_kernel_spec& spec) {
    const std::vector<std::size_t> inputs = array_inputs(b);
    const std::string value = cl_value_type_name(value_type);
    emitter e;
    emit_pragmas(e, op, b.required_extensions(), out_type, true);
    e.comment("Hooks of kernels/reduce_stage1.cl (src/codegen/reduce_source.cpp).");
    e.define("SHAPE", shape_name(spec));
    e.define("FINISH_HERE", flag_text(spec.finish_here));
    e.define("ONE_PASS", flag_text(spec.one_pass));
    e.define("COOPERATIVE", flag_text(spec.cooperative));
    e.define("REDUCED_CONTIGUOUS", flag_text(spec.red_contiguous));
    e.define("KEPT_CONTIGUOUS", flag_text(spec.kept_contiguous));
    e.define("ROWS_STRIP", count_text(rows_strip));
    emit_lanes(e, "LANES", "LANE", spec.lanes);
    emit_lanes(e, "STEPS", "STEP", spec.steps);
    e.define("DEVICE_FENCE()", spec.device_fence);
    emit_types(e, op, value, out_type);
    emit_inputs(e, inputs);
    e.verbatim(b.helpers_text());
    emit_op_functions(e, op, value, cl_value_type_name(out_type));
    emit_layout(e, reduce_layout_schema(inputs.size(), spec.kept_rank, spec.red_rank),
                spec.kept_rank, spec.red_rank, spec.layout_in_buffer);
    const expression_text text = expression(b, map_text);
    e.verbatim(kernel_source_reduce_ops);
    e.verbatim(splice_expression(kernel_source_reduce_operands, text));
    e.verbatim(splice_expression(kernel_source_reduce_stage1, text));
    return e.str();
}

std::string reduce_stage2_source(const reduce_text& op, dtype out_type, bool cooperative) {
    emitter e;
    emit_pragmas(e, op, {}, out_type, true);
    e.comment("Hooks of kernels/reduce_combine.cl (src/codegen/reduce_source.cpp).");
    e.define("COOPERATIVE", flag_text(cooperative));
    e.define("ONE_PASS", "0");
    emit_types(e, op, "", out_type);
    emit_op_functions(e, op, "", cl_value_type_name(out_type));
    e.verbatim(kernel_source_reduce_ops);
    e.verbatim(kernel_source_reduce_combine);
    return e.str();
}

std::string scan_source(const source_builder& b, const std::string& map_text, dtype value_type,
                        dtype out_type, const reduce_text& op, std::size_t kept_rank,
                        std::size_t red_rank, bool exclusive, bool layout_in_buffer) {
    const std::vector<std::size_t> inputs = array_inputs(b);
    const std::string value = cl_value_type_name(value_type);
    emitter e;
    emit_pragmas(e, op, b.required_extensions(), out_type, true);
    e.comment("Hooks of kernels/scan.cl (src/codegen/reduce_source.cpp).");
    e.define("SCAN_PARTS", "0");
    e.define("EXCLUSIVE", flag_text(exclusive));
    e.define("REDUCED_CONTIGUOUS", "0");
    emit_types(e, op, value, out_type);
    emit_inputs(e, inputs);
    e.verbatim(b.helpers_text());
    emit_op_functions(e, op, value, cl_value_type_name(out_type));
    // The output is operand 0 of the layout, before the inputs.
    emit_layout(e, reduce_layout_schema(inputs.size() + 1, kept_rank, red_rank), kept_rank,
                red_rank, layout_in_buffer);
    const expression_text text = expression(b, map_text);
    e.verbatim(splice_expression(kernel_source_reduce_operands, text));
    e.verbatim(splice_expression(kernel_source_scan, text));
    return e.str();
}

std::string scan_parts_source(const reduce_text& op) {
    emitter e;
    emit_pragmas(e, op, {}, dtype::float32, false);
    e.comment("Hooks of kernels/scan.cl (src/codegen/reduce_source.cpp).");
    e.define("SCAN_PARTS", "1");
    e.define("ACC", op.acc);
    emit_op_functions(e, op, "", "");
    e.verbatim(
        splice_expression(kernel_source_scan, expression_text{})); // clarray_scan is left out

    return e.str();
}

} // namespace clarray::detail
