#pragma once
// host_view: a typed, strided xtensor view of a cl_array on the host.
//
//  * svm_coarse: the covering byte range is mapped (clEnqueueSVMMap) on construction;
//  * svm_fine:   zero-copy, construction only waits for the array's pending commands;
//  * buffer:     the covering range is mapped with clEnqueueMapBuffer.
// The view derives from xt::xstrided_view: element access, assignment, printing, xt::view and ==
// work on it directly. Known limitation: xt::is_xexpression<host_view> is false, so xtensor
// functions and operators constrained on that trait (xt::sum(hv), hv * 2) need the base view:
// use hv.view() (or copy with xt::xarray<T>(hv.view())).
// Destruction enqueues the unmap (never waits, never throws); later commands are ordered after it.
#include <array>
#include <memory>
#include <optional>

#include "clarray/host/xtensor.hpp"

#include "clarray/array/cl_array.hpp"
#include "clarray/host/conversions.hpp"

namespace clarray {

namespace detail {

template <class U>
using flat_adaptor_t = decltype(xt::adapt(std::declval<U*>(), std::size_t(), xt::no_ownership(),
                                          std::declval<std::array<std::size_t, 1>>()));
template <class U>
using strided_host_view_t =
    decltype(xt::strided_view(std::declval<flat_adaptor_t<U>>(), std::declval<host_shape_type>(),
                              std::declval<host_strides_type>(), std::size_t(),
                              xt::layout_type::dynamic));

// Holds one active map of a byte range; the base that is constructed first and destroyed last.
class map_guard {
public:
    map_guard(const std::optional<queue>& q, std::shared_ptr<allocation> alloc, access a,
              std::size_t offset, std::size_t n)
        : alloc_(std::move(alloc)), a_(a), offset_(offset), n_(n) {
        if (alloc_ && n_ > 0) {
            q_ = q;
            host_ = alloc_->map(*q_, a_, offset_, n_);
        }
    }
    map_guard(const map_guard&) = delete;
    map_guard& operator=(const map_guard&) = delete;
    ~map_guard() {
        if (host_) alloc_->unmap(*q_, host_, a_, offset_, n_);
    }
    void* mapped_host_pointer() const noexcept { return host_; }

private:
    std::shared_ptr<allocation> alloc_;
    std::optional<queue> q_;
    access a_;
    std::size_t offset_, n_;
    void* host_ = nullptr;
};

} // namespace detail

// A typed strided xtensor view of a mapped array on the host (from a.map()); it unmaps on
// destruction without blocking.
template <class T, class S>
class host_view : private detail::map_guard, public detail::strided_host_view_t<stored_t<T>> {
    using U = stored_t<T>;
    using view_base = detail::strided_host_view_t<U>;

public:
    using view_base::operator=;

    // Maps the elements [range.first, range.second) of a's storage (those its view covers) with
    // access acc; blocks until the host may touch them.
    host_view(const cl_array<T, S>& a, access acc, std::pair<std::ptrdiff_t, std::ptrdiff_t> range)
        : detail::map_guard(a.bound() ? std::optional<queue>(a.get_queue()) : std::nullopt,
                            a.data(), acc, range.first * sizeof(U),
                            (range.second - range.first) * sizeof(U)),
          view_base(
              xt::adapt(
                  static_cast<U*>(mapped_host_pointer()),
                  static_cast<std::size_t>(range.second - range.first), xt::no_ownership(),
                  std::array<std::size_t, 1>{static_cast<std::size_t>(range.second - range.first)}),
              detail::to_host_shape(a.shape()), host_strides(a),
              static_cast<std::size_t>(a.offset() - range.first), xt::layout_type::dynamic) {}
    host_view(const host_view&) = delete;
    host_view& operator=(const host_view&) = delete;

    // The xtensor view itself, for functions that need a true xexpression (xt::sum(hv.view())).
    //@{
    view_base& view() noexcept { return *this; }
    const view_base& view() const noexcept { return *this; }
    //@}

    // Host address of the mapped covering range; the view's element 0 is at data() + data_offset().
    U* mapped_data() const noexcept { return static_cast<U*>(mapped_host_pointer()); }

private:
    // A zero-size view maps nothing, so its data pointer is NULL; xtensor still computes the end
    // of the data as data + stride * (extent - 1), a non-zero offset on NULL (undefined, UBSan
    // halts). Zero strides keep every such offset 0; no element is ever addressed.
    static detail::host_strides_type host_strides(const cl_array<T, S>& a) {
        return a.size() == 0 ? detail::host_strides_type(a.dimension(), 0)
                             : detail::to_host_strides(a.strides());
    }
};

template <class T, class S> auto cl_array<T, S>::map(access a) const {
    // An unbound array is 0-d with one element but no memory: its view would wrap NULL.
    (void)get_queue(); // throws usage_error when unbound
    auto range = covering_range(shape_, strides_, offset_);
    // A write-only map may discard old contents, which is only right when the view covers its
    // whole range; a strided view keeps the elements between its own.
    if (a == access::write && !is_dense(shape_, strides_)) a = access::read_write;
    return host_view<T, S>(*this, a, range);
}

} // namespace clarray
