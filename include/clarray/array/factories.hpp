#pragma once
// Array factories: empty, zeros, ones, full, arange, linspace, *_like, to_device from a
// std::vector (to_device from an xtensor expression is in host/conversions.hpp).
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"

namespace clarray {

namespace detail {
// The storage policy S of a factory that takes a memory pool, when S is not named: the pool's.
struct storage_of_pool {};
// The storage policy of a factory given S (possibly storage_of_pool) and a pool. A pool of
// another storage kind than a named S is a compile error (cl_array's pool constructor says so).
template <class S, class Pool>
using pooled_storage_t =
    std::conditional_t<std::is_same_v<S, storage_of_pool>, typename Pool::storage_policy, S>;
// SFINAE: the overload that takes a memory pool.
template <class Pool> using if_pool_t = std::enable_if_t<is_memory_pool_v<Pool>, int>;
} // namespace detail

// Every factory has an overload that takes a memory pool (svm_pool<S> or buffer_pool, as the
// cl_array constructor): the new array's memory comes from that pool, and the storage policy is
// the pool's when not named (`zeros<float>(q, shape, pool)` and `zeros<float, S>(q, shape, pool)`
// both work). Without a pool, memory comes from the context's default pool.

// A new array of the shape whose elements are not initialised (NumPy's empty).
template <class T, class S = svm_coarse>
cl_array<T, S> empty(const queue& q, const shape_type& shape, layout l = layout::c) {
    return cl_array<T, S>(q, shape, l);
}
// A new array of the shape filled with value (enqueued, does not block).
template <class T, class S = svm_coarse>
cl_array<T, S> full(const queue& q, const shape_type& shape, const T& value, layout l = layout::c) {
    cl_array<T, S> a(q, shape, l);
    a.fill(value);
    return a;
}
// A new array of the shape filled with zeros.
template <class T, class S = svm_coarse>
cl_array<T, S> zeros(const queue& q, const shape_type& shape, layout l = layout::c) {
    return full<T, S>(q, shape, T(0), l);
}
// A new array of the shape filled with ones.
template <class T, class S = svm_coarse>
cl_array<T, S> ones(const queue& q, const shape_type& shape, layout l = layout::c) {
    return full<T, S>(q, shape, T(1), l);
}

// empty from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> empty(const queue& q, const shape_type& shape,
                                                     const Pool& pool, layout l = layout::c) {
    return cl_array<T, detail::pooled_storage_t<S, Pool>>(q, shape, pool, l);
}
// full from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> full(const queue& q, const shape_type& shape,
                                                    const T& value, const Pool& pool,
                                                    layout l = layout::c) {
    cl_array<T, detail::pooled_storage_t<S, Pool>> a(q, shape, pool, l);
    a.fill(value);
    return a;
}
// zeros from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> zeros(const queue& q, const shape_type& shape,
                                                     const Pool& pool, layout l = layout::c) {
    return full<T, S>(q, shape, T(0), pool, l);
}
// ones from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> ones(const queue& q, const shape_type& shape,
                                                    const Pool& pool, layout l = layout::c) {
    return full<T, S>(q, shape, T(1), pool, l);
}

// The layout of a new array like `a`: F when a is F-contiguous (and not C), else C.
template <class T, class S> layout layout_like(const cl_array<T, S>& a) {
    return a.is_f_contiguous() && !a.is_c_contiguous() ? layout::f : layout::c;
}
// *_like arrays allocate like a: from a's pool when a's memory comes from a user pool (as results
// and temporaries do), else from the context's default pool; or from the pool passed.
template <class T, class S> cl_array<T, S> empty_like(const cl_array<T, S>& a) {
    return cl_array<T, S>(a.get_queue(), a.shape(), layout_like(a), a.data().get());
}
// empty_like with memory from `pool` (of a's storage kind).
template <class T, class S, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, S> empty_like(const cl_array<T, S>& a, const Pool& pool) {
    return cl_array<T, S>(a.get_queue(), a.shape(), pool, layout_like(a));
}
// A new array of a's shape, storage and queue filled with value.
template <class T, class S> cl_array<T, S> full_like(const cl_array<T, S>& a, const T& value) {
    cl_array<T, S> r = empty_like(a);
    r.fill(value);
    return r;
}
// full_like with memory from `pool` (of a's storage kind).
template <class T, class S, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, S> full_like(const cl_array<T, S>& a, const T& value, const Pool& pool) {
    cl_array<T, S> r = empty_like(a, pool);
    r.fill(value);
    return r;
}
// A new array of a's shape, storage and queue filled with zeros.
template <class T, class S> cl_array<T, S> zeros_like(const cl_array<T, S>& a) {
    return full_like(a, T(0));
}
// zeros_like with memory from `pool` (of a's storage kind).
template <class T, class S, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, S> zeros_like(const cl_array<T, S>& a, const Pool& pool) {
    return full_like(a, T(0), pool);
}
// A new array of a's shape, storage and queue filled with ones.
template <class T, class S> cl_array<T, S> ones_like(const cl_array<T, S>& a) {
    return full_like(a, T(1));
}
// ones_like with memory from `pool` (of a's storage kind).
template <class T, class S, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, S> ones_like(const cl_array<T, S>& a, const Pool& pool) {
    return full_like(a, T(1), pool);
}

namespace detail {
// The element count of arange(start, stop, step) (step != 0); throws shape_error when it cannot
// be computed or is too large. Depends on T only, not on the storage.
template <class T> std::size_t arange_length(T start, T stop, T step) {
    if constexpr (is_floating_v<T>) {
        double c = std::ceil((static_cast<double>(stop) - start) / step);
        // NaN/inf bounds, or more elements than a size_t holds: the cast below would be undefined.
        if (std::isnan(c))
            throw shape_error("arange: cannot compute the length from start " +
                              std::to_string(start) + ", stop " + std::to_string(stop) + ", step " +
                              std::to_string(step));
        if (c >= 9.2e18) // below 2^63: checked_size rejects such extents anyway
            throw shape_error("arange: " + std::to_string(c) + " elements (start " +
                              std::to_string(start) + ", stop " + std::to_string(stop) + ", step " +
                              std::to_string(step) + ") is too many");
        return c > 0 ? static_cast<std::size_t>(c) : 0;
    } else {
        // In 64-bit unsigned arithmetic: stop - start + step - 1 overflowed T for wide ranges
        // (e.g. arange<int>(-2e9, 2e9)); the distance between two T values always fits.
        using u64 = unsigned long long;
        std::size_t n = 0;
        if (step > 0 && stop > start)
            n = static_cast<std::size_t>((static_cast<u64>(stop) - static_cast<u64>(start) - 1) /
                                             static_cast<u64>(step) +
                                         1);
        if constexpr (is_signed_integer_v<T>)
            if (step < 0 && stop < start)
                n = static_cast<std::size_t>(
                    (static_cast<u64>(start) - static_cast<u64>(stop) - 1) /
                        (u64(0) - static_cast<u64>(static_cast<long long>(step))) +
                    1);
        return n;
    }
}
} // namespace detail

namespace detail {
// arange into a new array that make(shape) allocates.
template <class T, class Make> auto make_arange(T start, T stop, T step, Make make) {
    static_assert(!is_boolean_v<T>, "arange: bool is not a numeric range type");
    static_assert(!is_complex_v<T>, "arange: complex numbers are not a range type");
    if (step == T(0)) throw usage_error("arange: step must not be zero");
    auto a = make(shape_type{arange_length(start, stop, step)});
    const kernel_value_t<T> k_start = static_cast<kernel_value_t<T>>(start),
                            k_step = static_cast<kernel_value_t<T>>(step);
    if (a.size() != 0) fill_arange(array_ref_of(a), &k_start, &k_step);
    return a;
}
// linspace into a new array that make(shape) allocates.
template <class T, class Make>
auto make_linspace(T start, T stop, std::size_t num, bool endpoint, Make make) {
    static_assert(is_floating_v<T> || is_complex_v<T>,
                  "linspace: T must be a floating or complex type");
    auto a = make(shape_type{num});
    if (num == 0) return a;
    std::size_t div = endpoint ? num - 1 : num;
    // In the kernel's value type (float for float16: a step rounded to half would drift). Complex
    // values as NumPy's: start + i * step part by part (i is real), the step computed in double.
    using K = kernel_value_t<T>;
    using W = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;
    const K k_start = static_cast<K>(start), k_stop = static_cast<K>(stop),
            step = div > 0 ? static_cast<K>((static_cast<W>(stop) - static_cast<W>(start)) /
                                            static_cast<double>(div))
                           : K(0);
    fill_linspace(array_ref_of(a), &k_start, &step, &k_stop, endpoint);
    return a;
}
} // namespace detail

// Values start, start+step, ... before stop (NumPy's arange).
template <class T, class S = svm_coarse>
cl_array<T, S> arange(const queue& q, T start, T stop, T step = T(1)) {
    return detail::make_arange(start, stop, step,
                               [&](const shape_type& s) { return cl_array<T, S>(q, s); });
}
// arange from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> arange(const queue& q, T start, T stop, T step,
                                                      const Pool& pool) {
    return detail::make_arange(start, stop, step, [&](const shape_type& s) {
        return cl_array<T, detail::pooled_storage_t<S, Pool>>(q, s, pool);
    });
}
// arange from a memory pool, step 1.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> arange(const queue& q, T start, T stop,
                                                      const Pool& pool) {
    return arange<T, S>(q, start, stop, T(1), pool);
}

// num values evenly spaced over [start, stop] (or [start, stop) without endpoint), as NumPy.
template <class T, class S = svm_coarse>
cl_array<T, S> linspace(const queue& q, T start, T stop, std::size_t num, bool endpoint = true) {
    return detail::make_linspace(start, stop, num, endpoint,
                                 [&](const shape_type& s) { return cl_array<T, S>(q, s); });
}
// linspace from a memory pool.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>>
linspace(const queue& q, T start, T stop, std::size_t num, bool endpoint, const Pool& pool) {
    return detail::make_linspace(start, stop, num, endpoint, [&](const shape_type& s) {
        return cl_array<T, detail::pooled_storage_t<S, Pool>>(q, s, pool);
    });
}
// linspace from a memory pool, with the endpoint.
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> linspace(const queue& q, T start, T stop,
                                                        std::size_t num, const Pool& pool) {
    return linspace<T, S>(q, start, stop, num, true, pool);
}

// Copies a host vector to a new 1-d device array.
template <class S = svm_coarse, class T>
cl_array<T, S> to_device(const queue& q, const std::vector<T>& v) {
    cl_array<T, S> a(q, shape_type{v.size()});
    a.set(v);
    return a;
}
// to_device of a host vector, memory from a memory pool.
template <class S = detail::storage_of_pool, class T, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> to_device(const queue& q, const std::vector<T>& v,
                                                         const Pool& pool) {
    cl_array<T, detail::pooled_storage_t<S, Pool>> a(q, shape_type{v.size()}, pool);
    a.set(v);
    return a;
}

} // namespace clarray
