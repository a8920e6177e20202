#pragma once
// Member definitions of cl_array (included by cl_array.hpp): forwards to the type-erased copies,
// fills and view arithmetic of array/copy.hpp and shape/layout.hpp.
#include <type_traits>
#include <vector>

#include "clarray/array/copy.hpp"

namespace clarray {

namespace detail {

template <class T, class S> array_ref array_ref_of(const cl_array<T, S>& a) noexcept {
    return {a.bound() ? &a.get_queue() : nullptr,
            a.data().get(),
            S::kind,
            dtype_traits<T>::id,
            &a.shape(),
            &a.strides(),
            a.offset()};
}

template <class T, class S>
event strided_copy(const cl_array<T, S>& dst, const cl_array<T, S>& src) {
    return strided_copy(array_ref_of(dst), array_ref_of(src));
}

template <class T, class S> event strided_fill(const cl_array<T, S>& dst, const T& value) {
    const stored_t<T> v = static_cast<stored_t<T>>(value);
    return strided_fill(array_ref_of(dst), &v);
}

} // namespace detail

template <class T, class S> void cl_array<T, S>::read_c_order(void* host) const {
    detail::read_c_order(detail::array_ref_of(*this), host);
}

template <class T, class S> void cl_array<T, S>::write_c_order(const void* host) {
    detail::write_c_order(detail::array_ref_of(*this), host);
}

template <class T, class S> void cl_array<T, S>::set(const std::vector<T>& v) {
    if (!detail::check_host_vector(detail::array_ref_of(*this), v.size())) return;
    if constexpr (std::is_same_v<T, stored_type>) {
        write_c_order(v.data());
    } else { // bool: std::vector<bool> is packed, the device holds one byte per element
        const std::vector<stored_type> stored(v.begin(), v.end());
        write_c_order(stored.data());
    }
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::copy(layout l) const {
    cl_array out(get_queue(), shape_, l, alloc_.get());
    detail::strided_copy(out, *this);
    return out;
}

template <class T, class S> void cl_array<T, S>::fill(const T& value) {
    detail::strided_fill(*this, value);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::reshape(shape_type new_shape) const {
    shape_type s = shape_;
    strides_type st = strides_;
    detail::reshape_view(s, st, std::move(new_shape));
    return cl_array(get_queue(), alloc_, std::move(s), std::move(st), offset_);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::ravel() const {
    shape_type flat{size()};
    strides_type st;
    if (reshape_strides(shape_, strides_, flat, st))
        return cl_array(get_queue(), alloc_, flat, st, offset_);
    return copy(layout::c).reshape(flat);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::squeeze() const {
    shape_type s = shape_;
    strides_type st = strides_;
    detail::squeeze_view(s, st);
    return cl_array(get_queue(), alloc_, std::move(s), std::move(st), offset_);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::squeeze(std::size_t axis) const {
    shape_type s = shape_;
    strides_type st = strides_;
    detail::squeeze_view(s, st, axis);
    return cl_array(get_queue(), alloc_, std::move(s), std::move(st), offset_);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::transpose() const {
    shape_type s = shape_;
    strides_type st = strides_;
    detail::transpose_view(s, st);
    return cl_array(get_queue(), alloc_, std::move(s), std::move(st), offset_);
}

template <class T, class S>
cl_array<T, S> cl_array<T, S>::transpose(const std::vector<std::size_t>& axes) const {
    shape_type s = shape_;
    strides_type st = strides_;
    detail::transpose_view(s, st, axes);
    return cl_array(get_queue(), alloc_, std::move(s), std::move(st), offset_);
}

} // namespace clarray
