#pragma once
// Member definitions of cl_array and the strided copy/fill behind them (included by cl_array.hpp).
#include <algorithm>
#include <string>
#include <vector>

namespace clarray {

namespace detail {

inline std::string strides_to_string(const strides_type& st) {
    std::string s = "(";
    for (std::size_t i = 0; i < st.size(); ++i)
        s += (i ? ", " : "") + std::to_string(st[i]);
    return s + ")";
}

inline void fill_pair(nd_pair& L, const shape_type& shape, const strides_type& ds,
                      const strides_type* ss, std::ptrdiff_t doff, std::ptrdiff_t soff) {
    L.n = 1;
    L.rank = shape.size();
    for (std::size_t k = 0; k < shape.size(); ++k) {
        L.shape[k] = shape[k];
        L.n *= shape[k];
        L.dst_strides[k] = ds[k];
        if (ss) L.src_strides[k] = (*ss)[k];
    }
    L.dst_offset = doff;
    L.src_offset = soff;
}

// The layout of a row kernel (kernels/strided.cl) over coalesced axes whose innermost one is
// unit-stride for dst: n counts the rows, rank 1 is padded to one row of rank 2. Sets the launch
// sizes; returns whether the rank >= 3 (_nd) kernels are needed.
inline bool rows_pair(nd_pair& L, shape_type shape, strides_type ds, strides_type ss,
                      std::ptrdiff_t doff, std::ptrdiff_t soff, std::size_t g, ndrange& global,
                      ndrange& local) {
    if (shape.size() == 1) { // (not insert(): GCC's -Warray-bounds misreads svector's)
        shape = shape_type{1, shape[0]};
        ds = strides_type{0, ds[0]};
        ss = strides_type{0, ss[0]};
    }
    fill_pair(L, shape, ds, &ss, doff, soff);
    const std::size_t inner = shape.back();
    L.n /= inner;
    row_launch(inner, L.n, g, g, global, local);
    return shape.size() > 2;
}

// dst = src elementwise, src broadcast to dst's shape. Overlapping views of one allocation with
// different layouts go through a temporary, so the result is as if src was read first.
template <class T, class S>
event strided_copy(const cl_array<T, S>& dst, const cl_array<T, S>& src) {
    // An unbound source has no memory (the copy would read a NULL kernel argument), and memory of
    // another context cannot be named by this queue's commands.
    if (!src.bound())
        throw usage_error("assignment: the source array is unbound (default-constructed)");
    if (src.get_context() != dst.get_context())
        throw usage_error("assignment: source array from another context than the destination");
    shape_type shape = dst.shape();
    strides_type ds = dst.strides();
    strides_type ss;
    try {
        ss = broadcast_strides(src.shape(), src.strides(), shape);
    } catch (const shape_error&) {
        throw shape_error("assignment: source shape " + shape_to_string(src.shape()) +
                          " does not broadcast to destination shape " + shape_to_string(shape));
    }
    if (dst.size() == 0) return {};
    if (src.data() == dst.data()) {
        if (ds == ss && dst.offset() == src.offset()) return {}; // x = x
        if (ranges_overlap(shape, ds, dst.offset(), src.shape(), src.strides(), src.offset())) {
            // Through a C-ordered temporary from the library pool (never reaches the user).
            const std::size_t bytes = src.size() * sizeof(stored_t<T>);
            cl_array<T, S> tmp(
                src.get_queue(),
                make_temporary_like(src.get_queue(), S::kind, bytes, src.data().get()), src.shape(),
                contiguous_strides(src.shape(), layout::c), 0);
            strided_copy(tmp, src);
            return strided_copy(dst, tmp);
        }
    }
    coalesce(shape, {&ds, &ss});
    const queue& q = dst.get_queue();
    using U = stored_t<T>;
    if (shape.empty() || (shape.size() == 1 && ds[0] == 1 && ss[0] == 1)) {
        std::size_t n = shape.empty() ? 1 : shape[0];
        const device& dev = q.context().device();
        if (!dev.quirks().kernel_for_contiguous_copy)
            return dst.data()->copy_from(q, *src.data(), src.byte_offset(), dst.byte_offset(),
                                         n * sizeof(U));
        kernel k =
            builtin_kernel(q.context(), builtin::contiguous_copy, dtype_traits<T>::id);
        std::size_t g = elementwise_group_size(dev);
        using A = cl_array<T, S>;
        return k.launch(q, {round_up(n, g)}, {g}, {}, array_arg<A, access::write, false>{dst},
                        array_arg<A, access::read, false>{src}, static_cast<cl_long>(dst.offset()),
                        static_cast<cl_long>(src.offset()), static_cast<cl_ulong>(n));
    }
    std::size_t g = elementwise_group_size(q.context().device());
    using A = cl_array<T, S>;
    nd_pair L;
    if (ds.back() == 1 && (ss.back() == 1 || ss.back() == 0)) {
        // Unit-stride rows (the source's possibly broadcast along them): the row kernels.
        ndrange global, local;
        const bool nd = rows_pair(L, shape, ds, ss, dst.offset(), src.offset(), g, global, local);
        const builtin which =
            ss.back() == 1 ? (nd ? builtin::rows_copy_nd : builtin::rows_copy)
                           : (nd ? builtin::rows_copy_broadcast_nd : builtin::rows_copy_broadcast);
        kernel k = builtin_kernel(q.context(), which, dtype_traits<T>::id);
        return k.launch(q, global, local, {}, array_arg<A, access::write, false>{dst},
                        array_arg<A, access::read, false>{src}, L);
    }
    fill_pair(L, shape, ds, &ss, dst.offset(), src.offset());
    kernel k = builtin_kernel(q.context(), builtin::strided_copy, dtype_traits<T>::id);
    return k.launch(q, {round_up(L.n, g)}, {g}, {}, array_arg<A, access::write, false>{dst},
                    array_arg<A, access::read, false>{src}, L);
}

template <class T, class S> event strided_fill(const cl_array<T, S>& dst, const T& value) {
    if (dst.size() == 0) return {};
    using U = stored_t<T>;
    const U v = static_cast<U>(value);
    const queue& q = dst.get_queue();
    if (is_dense(dst.shape(), dst.strides())) {
        auto [lo, hi] = covering_range(dst.shape(), dst.strides(), dst.offset());
        return dst.data()->fill(q, &v, sizeof(U), lo * sizeof(U), (hi - lo) * sizeof(U));
    }
    shape_type shape = dst.shape();
    strides_type ds = dst.strides();
    coalesce(shape, {&ds});
    std::size_t g = elementwise_group_size(q.context().device());
    using A = cl_array<T, S>;
    nd_pair L;
    if (ds.back() == 1) { // unit-stride rows
        ndrange global, local;
        const bool nd =
            rows_pair(L, shape, ds, strides_type(ds.size(), 0), dst.offset(), 0, g, global, local);
        kernel k = builtin_kernel(q.context(), nd ? builtin::rows_fill_nd : builtin::rows_fill,
                                  dtype_traits<T>::id);
        return k.launch(q, global, local, {}, array_arg<A, access::write, false>{dst}, v, L);
    }
    fill_pair(L, shape, ds, nullptr, dst.offset(), 0);
    kernel k = builtin_kernel(q.context(), builtin::strided_fill, dtype_traits<T>::id);
    return k.launch(q, {round_up(L.n, g)}, {g}, {}, array_arg<A, access::write, false>{dst}, v, L);
}

} // namespace detail

template <class T, class S> void cl_array<T, S>::read_c_order(void* host) const {
    const queue& q = get_queue();
    if (is_c_contiguous()) {
        alloc_->read(q, byte_offset(), nbytes(), host);
    } else {
        cl_array tmp = copy(layout::c);
        tmp.alloc_->read(q, 0, nbytes(), host);
    }
}

template <class T, class S> void cl_array<T, S>::write_c_order(const void* host) {
    const queue& q = get_queue();
    if (is_c_contiguous()) {
        alloc_->write(q, byte_offset(), nbytes(), host);
    } else {
        cl_array tmp(q, shape_, layout::c, alloc_.get());
        tmp.alloc_->write(q, 0, nbytes(), host);
        detail::strided_copy(*this, tmp);
    }
}

template <class T, class S> void cl_array<T, S>::set(const std::vector<T>& v) {
    if (v.size() != size())
        throw shape_error("set: vector of " + std::to_string(v.size()) +
                          " elements for an array of shape " + shape_to_string(shape_) + " (" +
                          std::to_string(size()) + " elements)");
    (void)get_queue(); // unbound: usage_error before alloc_ (NULL) is touched
    if (size() == 0) return;
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
    std::size_t known = 1, inferred = new_shape.size();
    for (std::size_t i = 0; i < new_shape.size(); ++i) {
        if (new_shape[i] == infer) {
            if (inferred != new_shape.size())
                throw shape_error("reshape: more than one extent to infer");
            inferred = i;
        } else {
            known *= new_shape[i];
        }
    }
    if (inferred != new_shape.size()) {
        if (known == 0 || size() % known != 0)
            throw shape_error("reshape: cannot infer an extent to reshape " +
                              shape_to_string(shape_) + " (" + std::to_string(size()) +
                              " elements)");
        new_shape[inferred] = size() / known;
    }
    if (checked_size(new_shape) != size())
        throw shape_error("reshape: cannot reshape an array of shape " + shape_to_string(shape_) +
                          " (" + std::to_string(size()) + " elements) into shape " +
                          shape_to_string(new_shape));
    strides_type st;
    if (!reshape_strides(shape_, strides_, new_shape, st))
        throw shape_error("reshape: a view of shape " + shape_to_string(shape_) + " and strides " +
                          detail::strides_to_string(strides_) + " cannot become shape " +
                          shape_to_string(new_shape) + " without a copy; use copy().reshape(...)");
    return cl_array(get_queue(), alloc_, std::move(new_shape), std::move(st), offset_);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::ravel() const {
    shape_type flat{size()};
    strides_type st;
    if (reshape_strides(shape_, strides_, flat, st))
        return cl_array(get_queue(), alloc_, flat, st, offset_);
    return copy(layout::c).reshape(flat);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::squeeze() const {
    shape_type s;
    strides_type st;
    for (std::size_t i = 0; i < shape_.size(); ++i)
        if (shape_[i] != 1) {
            s.push_back(shape_[i]);
            st.push_back(strides_[i]);
        }
    return cl_array(get_queue(), alloc_, s, st, offset_);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::squeeze(std::size_t axis) const {
    if (axis >= shape_.size())
        throw index_error("squeeze: axis " + std::to_string(axis) + " out of range for shape " +
                          shape_to_string(shape_));
    if (shape_[axis] != 1)
        throw shape_error("squeeze: axis " + std::to_string(axis) + " of shape " +
                          shape_to_string(shape_) + " has extent " + std::to_string(shape_[axis]) +
                          ", not 1");
    shape_type s = shape_;
    strides_type st = strides_;
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(axis));
    st.erase(st.begin() + static_cast<std::ptrdiff_t>(axis));
    return cl_array(get_queue(), alloc_, s, st, offset_);
}

template <class T, class S> cl_array<T, S> cl_array<T, S>::transpose() const {
    shape_type s(shape_.rbegin(), shape_.rend());
    strides_type st(strides_.rbegin(), strides_.rend());
    return cl_array(get_queue(), alloc_, s, st, offset_);
}

template <class T, class S>
cl_array<T, S> cl_array<T, S>::transpose(const std::vector<std::size_t>& axes) const {
    std::vector<bool> seen(shape_.size(), false);
    bool ok = axes.size() == shape_.size();
    for (std::size_t a : axes) {
        if (!ok || a >= shape_.size() || seen[a]) {
            ok = false;
            break;
        }
        seen[a] = true;
    }
    if (!ok) {
        std::string txt;
        for (std::size_t a : axes)
            txt += std::to_string(a) + " ";
        throw index_error("transpose: axes [ " + txt + "] are not a permutation of the " +
                          std::to_string(shape_.size()) + " axes of shape " +
                          shape_to_string(shape_));
    }
    shape_type s;
    strides_type st;
    for (std::size_t a : axes) {
        s.push_back(shape_[a]);
        st.push_back(strides_[a]);
    }
    return cl_array(get_queue(), alloc_, s, st, offset_);
}

} // namespace clarray
