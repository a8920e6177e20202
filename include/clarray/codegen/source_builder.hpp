#pragma once
// Builds the OpenCL C source of one generated kernel. Expression nodes describe themselves to it
// by type (scalars are kernel arguments, never part of the source), so one source serves every
// launch of an expression type; the one exception is a kernel variant (kernel_variants below).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "clarray/runtime/context.hpp"
#include "clarray/types/dtype.hpp"

namespace clarray::detail {

// Turns `text` (an OpenCL value) into type d; bool becomes 0/1 in a uchar, float16 a float
// (its value type: cl_value_type_name; rounding to half happens on store).
std::string cl_cast(dtype d, const std::string& text);
// `text`, a value of type `from`, converted to type `to`: cl_cast, except where complex types are
// involved (real -> complex: imaginary part 0; complex -> real: the real part; complex -> bool:
// either part non-zero; between complex types: convert_T).
std::string cl_convert(dtype to, dtype from, const std::string& text);
// Element `index` of `ptr` (an array of dtype d) as a value: `ptr[index]`, or vload_half for
// float16. The vector forms read or write `width` elements from element `index` on; float16
// takes instead `vector_index`, the position in vectors (`vload_halfN(vector_index, ptr)`: no
// arithmetic on half pointers, which OpenCL C without cl_khr_fp16 only lets declare), so its
// elements start at a multiple of width.
std::string cl_load(dtype d, const std::string& ptr, const std::string& index);
std::string cl_vload(dtype d, std::size_t width, const std::string& ptr, const std::string& index,
                     const std::string& vector_index);
// The statement (without `;`) storing `value` (of d's value type) there: an assignment, or
// vstore_half_rte (round to nearest even) for float16.
std::string cl_store(dtype d, const std::string& ptr, const std::string& index,
                     const std::string& value);
std::string cl_vstore(dtype d, std::size_t width, const std::string& ptr, const std::string& index,
                      const std::string& vector_index, const std::string& value);

// The OpenCL extensions a kernel needs, each once, from the dtypes it touches
// (required_extension).
class extension_set {
public:
    void add(const char* extension); // nullptr: none
    void add(dtype d) { add(required_extension(d)); }
    void add(const extension_set& other);
    bool contains(const char* extension) const noexcept;
    bool empty() const noexcept { return names_.empty(); }
    const std::vector<const char*>& names() const noexcept { return names_; }
    // "#pragma OPENCL EXTENSION <name> : enable" lines.
    std::string pragmas() const;

private:
    std::vector<const char*> names_;
};

// Throws unsupported, naming `what`, when ctx's device lacks one of the extensions in `needs`.
void require_extensions(const context& ctx, const extension_set& needs, const std::string& what);

// Small values that select a generated kernel's source, e.g. a gather's index mode: each value
// gets a kernel of its own, with no branch on it at run time (a uniform branch still kept pocl
// from vectorising a gather). The terminals that carry them (expr/expression.hpp) add them in
// visit order; an expression type always adds the same number of the same widths, so key(), the
// values packed, tells the kernels of one type apart in the kernel cache.
class kernel_variants {
public:
    // Adds value (below 2^bits). Throws usage_error past 32 bits in all (16 gathers per kernel).
    void add(std::uint32_t value, unsigned bits);
    std::uint32_t key() const noexcept { return key_; }
    std::size_t size() const noexcept { return count_; }
    std::uint32_t operator[](std::size_t i) const noexcept { return values_[i]; }

private:
    std::uint32_t values_[32] = {};
    std::size_t count_ = 0;
    unsigned bits_ = 0;
    std::uint32_t key_ = 0;
};
// A generated kernel's cache signature: its plan's 32 bits and its variants' key above them.
inline std::uint64_t variant_signature(std::uint32_t plan_signature, const kernel_variants& v) {
    return std::uint64_t(v.key()) << 32 | plan_signature;
}

class source_builder {
public:
    // The element access of the next array operand ("a3[o3]", or "vload8(0, a3 + o3)" in a
    // vector builder); declares its parameter.
    std::string array_input(dtype d);
    // The next array operand read at `index` elements past its own offset ("a3[o3 + (index)]",
    // float16 through vload_half), for operands whose position depends on other values (a
    // gather); declares its parameter.
    // Not in vector builders (such expressions are not lanewise).
    std::string array_input_at(dtype d, const std::string& index);
    // The next scalar argument ("s2", or "((float8)(s2))" in a vector builder); declares it.
    std::string scalar_input(dtype d);
    // The next argument as a writable `global uint*` ("f3"): the flag words of device-side
    // index checks (runtime/device_checks.hpp). Not an array operand: no offset, no strides.
    std::string flag_input();
    // The value of the next kernel variant (set_variants), in visit order; not a parameter.
    std::uint32_t variant_input();
    // The kernel variants of the expression being emitted (they must outlive this builder).
    void set_variants(const kernel_variants* v) { variants_ = v; }
    // Array terminals that are one operand (expression_operands::sharing: shared[i] is the
    // first array terminal equal to terminal i): a repeat reads its first use's parameter and
    // declares none. Null or empty: every array terminal is a parameter of its own. The map
    // must outlive this builder.
    void set_shared_inputs(const std::vector<std::uint8_t>* shared) { shared_ = shared; }
    // `text` converted to type d (cl_cast). In a vector builder every value already has the
    // one element type of a lanewise expression (lanewise_as), so the conversion is the identity.
    std::string cast(dtype d, const std::string& text) const;
    // `text` of type `from` converted to type d (cl_convert); the identity in a vector builder.
    std::string convert(dtype d, dtype from, const std::string& text) const;
    // Makes this a vector builder: each value is `width` consecutive elements (floatN).
    void set_vector_width(std::size_t width) { width_ = width; }
    // Array operands (bit j: operand j, outputs first) that are constant along the inner axis of
    // a row kernel: a vector builder reads them once and broadcasts them to all lanes.
    void set_inner_broadcast(std::uint32_t mask) { inner_broadcast_ = mask; }
    // A helper function emitted once before the kernel (keyed by name).
    void helper(const std::string& name, const std::string& definition);
    // `text`, a value of type `from` (float64 or another type that computes in float), rounded
    // to float16 precision as a float, directly from its own type (one rounding). Scalar
    // builders only.
    std::string round_to_half(dtype from, const std::string& text);
    // A value of type d appears in the kernel (operands are noted by array_input/scalar_input).
    void note_type(dtype d) {
        extensions_.add(d);
        types_ |= std::uint64_t(1) << static_cast<unsigned>(d);
    }
    // Whether a value of type d was noted.
    bool uses_type(dtype d) const noexcept { return types_ >> static_cast<unsigned>(d) & 1u; }

    std::size_t array_count() const noexcept { return params_arrays_; }
    // Helper definitions collected so far (emitted before any kernel).
    const std::string& helpers_text() const noexcept { return helpers_; }
    // The inputs as a parameter list ("global const float* a1, int s0") and as the matching
    // argument list ("a1, s0"), for kernels that evaluate the expression in a helper function.
    std::string input_parameters() const;
    std::string input_arguments() const;
    // The extensions of every type noted so far (the kernels' outputs add theirs).
    const extension_set& required_extensions() const noexcept { return extensions_; }
    bool uses_fp64() const noexcept {
        return extensions_.contains(dtype_traits<double>::extension);
    }

    // Kernel parameters of the inputs, in visit order (outputs come first and are added by
    // assign_source), and the number of array operands among them.
    struct param {
        bool is_array;
        dtype type;
        std::size_t index;    // array operand index (outputs first) or scalar index
        bool is_flag = false; // a flag_input (index: its scalar index)
    };
    const std::vector<param>& params() const noexcept { return params_; }
    void set_output_count(std::size_t n) { outputs_ = n; }

private:
    std::vector<param> params_;
    std::vector<std::string> helper_names_;
    std::string helpers_;
    std::size_t outputs_ = 0;
    std::size_t params_arrays_ = 0;
    std::size_t scalars_ = 0;
    std::size_t width_ = 1;
    std::uint32_t inner_broadcast_ = 0;
    extension_set extensions_;
    std::uint64_t types_ = 0; // bit d: a value of dtype d appears
    const kernel_variants* variants_ = nullptr;
    std::size_t variants_taken_ = 0;
    const std::vector<std::uint8_t>* shared_ = nullptr;
    std::vector<std::size_t> array_terminals_; // the parameter index of each array terminal

    // The array parameter of the next array terminal, declared unless it repeats an operand.
    std::size_t next_array_parameter(dtype d);
};

} // namespace clarray::detail
