#pragma once
// What the evaluators (assignment, reductions, scans) learn of an expression by walking its
// terminals: its broadcast shape, its queue, the pool its results come from, and which
// terminals read beyond their view or want to hear of the launch that bound them.
#include <string>
#include <type_traits>
#include <utility>

#include "clarray/array/cl_array.hpp"
#include "clarray/error.hpp"
#include "clarray/runtime/event.hpp"

namespace clarray::detail {

// Shape of an expression: its array operands broadcast together.
template <class E> shape_type expression_shape(const E& e) {
    shape_type s;
    bool any = false, ok = true;
    e.for_each_terminal([&](const auto& t) {
        if constexpr (std::decay_t<decltype(t)>::is_array) {
            if (!ok) return;
            try {
                s = any ? broadcast_shapes(s, t.array().shape()) : t.array().shape();
            } catch (const shape_error&) {
                ok = false;
            }
            any = true;
        }
    });
    if (!any) throw usage_error("an expression needs at least one array operand");
    if (!ok) { // the message names every operand: "(3, 4) float32, (5,) int32"
        std::string operands;
        e.for_each_terminal([&](const auto& t) {
            if constexpr (std::decay_t<decltype(t)>::is_array) {
                using A = std::decay_t<decltype(t.array())>;
                operands += (operands.empty() ? "" : ", ") + shape_to_string(t.array().shape()) +
                            " " + dtype_name(A::dtype);
            }
        });
        throw shape_error("expression: operands of shapes and dtypes " + operands +
                          " cannot be broadcast together");
    }
    return s;
}
template <class E> const queue& expression_queue(const E& e) {
    const queue* q = nullptr;
    e.for_each_terminal([&](const auto& t) {
        if constexpr (std::decay_t<decltype(t)>::is_array)
            if (!q) q = &t.array().get_queue();
    });
    if (!q) throw usage_error("an expression needs at least one array operand");
    return *q;
}

// The allocation a result of storage kind k is made like: the first array operand of that kind
// that comes from a pool (the result then comes from the same pool), else none.
template <class E> const allocation* expression_storage_like(const E& e, storage_kind k) {
    const allocation* like = nullptr;
    e.for_each_terminal([&](const auto& t) {
        if constexpr (std::decay_t<decltype(t)>::is_array) {
            const allocation* a = t.array().data().get();
            if (!like && a && a->pool() && a->kind() == k) like = a;
        }
    });
    return like;
}

// Whether terminal T reads beyond its broadcast view (a gather: expr/gather.hpp), naming the
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
// Tells the terminals of e that hear launches that their kernel was enqueued as `launched`.
template <class E> void notify_launched(const E& e, const event& launched) noexcept {
    e.for_each_terminal([&](const auto& t) {
        if constexpr (hears_launch<std::decay_t<decltype(t)>>::value) t.on_launched(launched);
    });
}

} // namespace clarray::detail
