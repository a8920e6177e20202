#include "clarray/expr/operands.hpp"

#include <string>

#include "clarray/error.hpp"

namespace clarray::detail {

shape_type expression_operands::shape() const {
    shape_type s;
    bool any = false;
    for (const terminal_record& t : terminals) {
        if (t.what != terminal_record::kind::array) continue;
        try {
            s = any ? broadcast_shapes(s, *t.shape) : *t.shape;
        } catch (const shape_error&) {
            std::string operands; // every operand: "(3, 4) float32, (5,) int32"
            for (const terminal_record& u : terminals)
                if (u.what == terminal_record::kind::array)
                    operands += (operands.empty() ? "" : ", ") + shape_to_string(*u.shape) + " " +
                                dtype_name(u.type);
            throw shape_error("expression: operands of shapes and dtypes " + operands +
                              " cannot be broadcast together");
        }
        any = true;
    }
    if (!any) throw usage_error("an expression needs at least one array operand");
    return s;
}

const queue& expression_operands::first_queue() const {
    for (const terminal_record& t : terminals)
        if (t.what == terminal_record::kind::array) return *t.q;
    throw usage_error("an expression needs at least one array operand");
}

const allocation* expression_operands::storage_like(storage_kind k) const {
    for (const terminal_record& t : terminals)
        if (t.what == terminal_record::kind::array && t.alloc && t.alloc->pool() &&
            t.alloc->kind() == k)
            return t.alloc;
    return nullptr;
}

void expression_operands::require_context(cl_context ctx, const char* what) const {
    for (const terminal_record& t : terminals)
        if (t.what == terminal_record::kind::array && t.q->context().get() != ctx)
            throw usage_error(std::string(what) + ": operands from different contexts");
}

kernel_variants expression_operands::variants() const {
    kernel_variants v;
    for (const terminal_record& t : terminals)
        if (t.what == terminal_record::kind::variant) v.add(t.variant, t.variant_bits);
    return v;
}

std::size_t expression_operands::value_bytes() const {
    std::size_t n = 0;
    for (const terminal_record& t : terminals)
        if (t.what == terminal_record::kind::value) n += t.value_bytes;
    return n;
}

std::vector<std::uint8_t> expression_operands::sharing() const {
    const terminal_record* arrays[16];
    std::size_t n = 0;
    for (const terminal_record& t : terminals) {
        if (t.what != terminal_record::kind::array) continue;
        if (n == 16) return {}; // the key holds 16 (x*x+x has 3)
        arrays[n++] = &t;
    }
    std::vector<std::uint8_t> shared;
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t first = i;
        const terminal_record& a = *arrays[i];
        for (std::size_t j = 0; j < i && first == i && a.shareable(); ++j) {
            const terminal_record& b = *arrays[j];
            if (b.shareable() && b.alloc == a.alloc && b.alloc && b.type == a.type &&
                b.offset == a.offset && *b.shape == *a.shape && *b.strides == *a.strides)
                first = j;
        }
        if (first != i && shared.empty()) // the first repeat: the map so far is the identity
            for (std::size_t k = 0; k < i; ++k)
                shared.push_back(static_cast<std::uint8_t>(k));
        if (!shared.empty()) shared.push_back(static_cast<std::uint8_t>(first));
    }
    return shared;
}

std::uint64_t sharing_key(const std::vector<std::uint8_t>& shared) noexcept {
    // 4 bits per array terminal (at most 16), each entry's difference from the identity: zero
    // for no sharing, and never zero for a map with a repeat.
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < shared.size(); ++i)
        key |= std::uint64_t((shared[i] ^ i) & 15u) << (4 * i);
    return key;
}

void expression_operands::bind(std::vector<launch_arg>& args,
                               const std::vector<std::uint8_t>& shared) const {
    std::size_t array_index = 0;
    for (const terminal_record& t : terminals) {
        if (t.what == terminal_record::kind::variant) continue;
        if (t.what == terminal_record::kind::array) {
            const std::size_t i = array_index++;
            if (!shared.empty() && shared[i] != i) continue; // bound once, as its first use
        }
        args.push_back(t.argument(t.terminal));
    }
}

void expression_operands::notify(const event& e) const noexcept {
    for (const terminal_record& t : terminals)
        if (t.launched) t.launched(t.terminal, e);
}

} // namespace clarray::detail
