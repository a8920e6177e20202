#pragma once
// An expression as the non-template evaluators (assignment, reductions, scans) see it: one walk
// of its terminals (describe) gives a list of type-erased records, and everything else (the
// broadcast shape, the queue, the pool of results, the kernel variants, operand sharing, the
// kernel arguments, the launch notices) is computed from that list in src/expr/operands.cpp.
// Only describe() and the per-terminal-type calls are compiled per expression type.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/codegen/source_builder.hpp"
#include "clarray/expr/expression.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/launch.hpp"

namespace clarray::detail {

// Whether terminal T reads beyond its broadcast view (a gather: indexing/gather.hpp), naming the
// region it may read (read_shape, read_strides, at its view's offset) for the alias analysis.
template <class T, class = void> struct reads_region : std::false_type {};
template <class T>
struct reads_region<T, std::void_t<decltype(std::declval<const T&>().read_shape())>>
    : std::true_type {};

// Whether terminal T wants the event of the launch that bound it (`on_launched`: a gather's
// index check arms its flag word with it). Other terminals cost nothing.
template <class T, class = void> struct hears_launch : std::false_type {};
template <class T>
struct hears_launch<T, std::void_t<decltype(std::declval<const T&>().on_launched(event()))>>
    : std::true_type {};

// One terminal of an expression, in visit order (the order emit() declares kernel parameters).
// It points into the terminal, which must outlive the record's use.
struct terminal_record {
    enum class kind : unsigned char { array, value, variant };
    kind what = kind::value;
    // Arrays: the operand's queue, memory, element type and view; a gather's source also names
    // the region its reads reach (read_shape/read_strides at the view's offset), and is never
    // shared with another terminal (its kernel text indexes it by other values).
    const queue* q = nullptr;
    allocation* alloc = nullptr;
    dtype type = dtype::float32;
    storage_kind storage = storage_kind::svm_coarse;
    const shape_type* shape = nullptr;
    const strides_type* strides = nullptr;
    std::ptrdiff_t offset = 0;
    const shape_type* read_shape = nullptr; // null: the view itself
    const strides_type* read_strides = nullptr;
    // Values: the bytes of their kernel argument. Variants: the value and its width in bits.
    std::size_t value_bytes = 0;
    std::uint32_t variant = 0;
    unsigned variant_bits = 0;
    // The terminal and what only its type knows: its kernel argument (taken when the kernel's
    // arguments are bound, once per launch) and, for terminals that hear launches, the notice.
    const void* terminal = nullptr;
    launch_arg (*argument)(const void* terminal) = nullptr;
    void (*launched)(const void* terminal, const event& e) noexcept = nullptr;

    bool shareable() const noexcept { return what == kind::array && read_shape == nullptr; }
};

// An expression described by one walk (describe below).
class expression_operands {
public:
    std::vector<terminal_record> terminals;

    // The array operands broadcast together; shape_error naming every operand when they do not
    // broadcast, usage_error without array operands.
    shape_type shape() const;
    // The first array operand's queue (usage_error without array operands).
    const queue& first_queue() const;
    // The allocation a result of storage kind k is made like: the first array operand of that
    // kind that comes from a pool (the result then comes from the same pool), else none.
    const allocation* storage_like(storage_kind k) const;
    // usage_error naming `what` unless every array operand is in context ctx.
    void require_context(cl_context ctx, const char* what) const;
    // The kernel variants, in visit order.
    kernel_variants variants() const;
    // The bytes of the value arguments.
    std::size_t value_bytes() const;
    // Which array terminals are the same operand (one allocation, dtype, offset, shape and
    // strides; gathers excepted): shared[i] is the first array terminal equal to array terminal
    // i (i itself for the first). Empty when no terminal repeats, or past 16 array terminals.
    std::vector<std::uint8_t> sharing() const;
    // Calls f(record) for each distinct array operand in visit order: the array terminals less
    // the repeats of `shared` (sharing()).
    template <class F> void for_each_operand(const std::vector<std::uint8_t>& shared, F&& f) const {
        std::size_t array_index = 0;
        for (const terminal_record& t : terminals) {
            if (t.what != terminal_record::kind::array) continue;
            const std::size_t i = array_index++;
            if (shared.empty() || shared[i] == i) f(t);
        }
    }
    // The kernel arguments of the terminals in visit order (variants have none), the repeated
    // array terminals of `shared` (sharing()) left out.
    void bind(std::vector<launch_arg>& args, const std::vector<std::uint8_t>& shared) const;
    // Tells the terminals that hear launches that their kernel was enqueued as e.
    void notify(const event& e) const noexcept;
};

// The sharing map packed for a kernel cache key (0: nothing shared).
std::uint64_t sharing_key(const std::vector<std::uint8_t>& shared) noexcept;

// The per-type calls of terminal type T.
template <class T> launch_arg terminal_argument(const void* t) {
    return static_cast<const T*>(t)->kernel_argument();
}
template <class T> void terminal_launched(const void* t, const event& e) noexcept {
    static_cast<const T*>(t)->on_launched(e);
}

// Appends the records of e's terminals to d (several expressions of one kernel append in turn).
template <class E> void describe(const E& e, expression_operands& d) {
    e.for_each_terminal([&](const auto& t) {
        using T = std::decay_t<decltype(t)>;
        terminal_record r;
        r.terminal = &t;
        if constexpr (is_variant_terminal_v<T>) {
            r.what = terminal_record::kind::variant;
            r.variant = t.variant();
            r.variant_bits = T::variant_bits;
        } else {
            r.argument = &terminal_argument<T>;
            if constexpr (hears_launch<T>::value) r.launched = &terminal_launched<T>;
            if constexpr (T::is_array) {
                const auto& a = t.array();
                using A = std::decay_t<decltype(a)>;
                r.what = terminal_record::kind::array;
                r.q = &a.get_queue(); // usage_error for an unbound array
                r.alloc = a.data().get();
                r.type = A::dtype;
                r.storage = A::storage_policy::kind;
                r.shape = &a.shape();
                r.strides = &a.strides();
                r.offset = a.offset();
                if constexpr (reads_region<T>::value) {
                    r.read_shape = &t.read_shape();
                    r.read_strides = &t.read_strides();
                }
            } else {
                r.value_bytes = sizeof(t.value());
            }
        }
        d.terminals.push_back(r);
    });
}
template <class E> expression_operands describe(const E& e) {
    expression_operands d;
    d.terminals.reserve(8);
    describe(e, d);
    return d;
}

// Shape, queue and result pool of an expression (one walk each).
template <class E> shape_type expression_shape(const E& e) {
    return describe(e).shape();
}
template <class E> const queue& expression_queue(const E& e) {
    return describe(e).first_queue();
}
template <class E> const allocation* expression_storage_like(const E& e, storage_kind k) {
    return describe(e).storage_like(k);
}

} // namespace clarray::detail
