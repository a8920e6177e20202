#pragma once
// NumPy's lexsort on the device (docs/sorting.md):
//
//   auto order = clarray::lexsort({first_name, last_name}); // by last_name, then first_name
//
// The last key is the primary one, as NumPy's. One stable argsort per key, from the least
// significant key to the primary one, each of the key gathered in the order so far: stability
// keeps the order of the earlier keys among equal values of the later ones (radix sorts of
// composite keys do the same). Never blocks.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/indexing/indexing.hpp"
#include "clarray/sort/sort.hpp"

namespace clarray {

// The int64 indices that sort the 1-d keys (all of one length) by keys.back(), then by the key
// before it, and so on (NumPy's lexsort; stable, NaN last in each key). Keys are arrays or
// expressions of one type, of any dtype (complex included: NumPy's order); keys of different
// dtypes go through the variadic form below. usage_error for no keys, shape_error for keys
// that are not 1-d or differ in length.
template <class K, class = std::enable_if_t<detail::is_array_argument_v<K>>>
auto lexsort(const std::vector<K>& keys) {
    using S = detail::storage_of_t<K>;
    if (keys.empty()) throw usage_error("lexsort: no keys (NumPy needs at least one)");
    const shape_type shape = detail::shape_of(keys.front());
    for (const K& k : keys) {
        detail::require_device_argument<K>();
        const shape_type s = detail::shape_of(k);
        if (s.size() != 1)
            throw shape_error("lexsort: keys must be 1-d, got one of shape " + shape_to_string(s));
        if (s != shape)
            throw shape_error("lexsort: keys differ in length (" + shape_to_string(shape) +
                              " and " + shape_to_string(s) + ")");
    }
    cl_array<std::int64_t, S> order = argsort(keys.front());
    for (std::size_t j = 1; j < keys.size(); ++j) {
        decltype(auto) key = detail::materialize(keys[j]);
        const cl_array<std::int64_t, S> by = argsort(take(key, order));
        cl_array<std::int64_t, S> next = eval(take(order, by));
        order = std::move(next); // no other handle: rebinds, no copy
    }
    return order;
}
// lexsort of a braced list of keys of one type: `lexsort({a, b})`.
template <class K, class = std::enable_if_t<detail::is_array_argument_v<K>>>
auto lexsort(std::initializer_list<K> keys) {
    return lexsort(std::vector<K>(keys));
}
// lexsort of keys of different dtypes (or array and expression mixed): `lexsort(a, b, c)`,
// c primary. Each key is an array or an expression.
template <
    class K0, class K1, class... Ks,
    class = std::enable_if_t<detail::is_array_argument_v<K0> && detail::is_array_argument_v<K1>>>
auto lexsort(const K0& k0, const K1& k1, const Ks&... rest) {
    using S = detail::storage_of_t<K0>;
    cl_array<std::int64_t, S> order = lexsort(std::vector<K0>{k0});
    const shape_type shape = order.shape();
    auto step = [&](const auto& k) {
        const shape_type s = detail::shape_of(k);
        if (s != shape)
            throw shape_error("lexsort: keys differ in shape (" + shape_to_string(shape) + " and " +
                              shape_to_string(s) + ")");
        decltype(auto) key = detail::materialize(k);
        const cl_array<std::int64_t, S> by = argsort(take(key, order));
        cl_array<std::int64_t, S> next = eval(take(order, by));
        order = std::move(next); // no other handle: rebinds, no copy
    };
    step(k1);
    (step(rest), ...);
    return order;
}

} // namespace clarray
