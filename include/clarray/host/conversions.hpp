#pragma once
// Host data in xtensor form: cl_array::get() and set(xexpression), to_device from an xtensor
// expression, and the conversions of shapes and strides to xtensor's own containers. The core
// array headers stay free of xtensor; this is where it enters.
#include "clarray/host/xtensor.hpp"

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"

namespace clarray {

namespace detail {
// xtensor's dynamic shape and strides containers (those of xt::xarray and of its views).
using host_shape_type = xt::dynamic_shape<std::size_t>;
using host_strides_type = xt::dynamic_shape<std::ptrdiff_t>;

inline host_shape_type to_host_shape(const shape_type& s) {
    return host_shape_type(s.begin(), s.end());
}
inline host_strides_type to_host_strides(const strides_type& s) {
    return host_strides_type(s.begin(), s.end());
}
} // namespace detail

template <class T, class S> auto cl_array<T, S>::get() const {
    (void)get_queue(); // unbound: usage_error before alloc_ (NULL) is touched
    xt::xarray<T> out(detail::to_host_shape(shape_));
    if (size() != 0) read_c_order(out.data());
    return out;
}

template <class T, class S>
template <class E>
void cl_array<T, S>::set(const xt::xexpression<E>& e) {
    (void)get_queue(); // unbound: usage_error before alloc_ (NULL) is touched
    const auto& de = e.derived_cast();
    shape_type es(de.shape().begin(), de.shape().end());
    bool ok = true;
    try {
        ok = broadcast_shapes(es, shape_) == shape_;
    } catch (const shape_error&) {
        ok = false;
    }
    if (!ok)
        throw shape_error("set: host shape " + shape_to_string(es) +
                          " does not broadcast to the array's shape " + shape_to_string(shape_) +
                          " (" + dtype_name(dtype) + ")");
    if (size() == 0) return;
    xt::xarray<T> host = xt::broadcast(de, detail::to_host_shape(shape_));
    write_c_order(host.data());
}

// Copies a host xtensor expression (any shape) to a new C-order device array.
template <class S = svm_coarse, class E>
cl_array<typename E::value_type, S> to_device(const queue& q, const xt::xexpression<E>& e) {
    using T = typename E::value_type;
    const auto& de = e.derived_cast();
    cl_array<T, S> a(q, shape_type(de.shape().begin(), de.shape().end()));
    a.set(de);
    return a;
}
// to_device of a host xtensor expression, memory from a memory pool (svm_pool of S or
// buffer_pool; the storage policy is the pool's unless named).
template <class S = detail::storage_of_pool, class E, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<typename E::value_type, detail::pooled_storage_t<S, Pool>>
to_device(const queue& q, const xt::xexpression<E>& e, const Pool& pool) {
    using T = typename E::value_type;
    const auto& de = e.derived_cast();
    cl_array<T, detail::pooled_storage_t<S, Pool>> a(
        q, shape_type(de.shape().begin(), de.shape().end()), pool);
    a.set(de);
    return a;
}

} // namespace clarray
