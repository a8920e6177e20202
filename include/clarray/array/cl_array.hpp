#pragma once
// cl_array<T, Storage>: an n-d strided array in device memory.
//
// Value semantics (docs/semantics.md has the whole story):
//  * copies of a cl_array are handles: they share the allocation (like views); `copy()` makes an
//    independent array;
//  * `x = y` and `x = expression` write values into x's storage (broadcasting to x's shape), as
//    `x(view) = y` does;
//  * moves transfer the handle when nobody else can see x's memory: `x = std::move(y)` or
//    `x = f()` rebinds x to y's storage without a kernel and leaves y unbound, so std::swap and
//    standard containers and algorithms work; into shared memory (x is a view or has views, e.g.
//    `x(range(1, 3)) = f()`) a move writes values;
//  * an array keeps its pool on assignment, as a C++ container keeps its allocator: a move
//    between arrays of different pools writes y's values into memory of x's pool;
//  * a default-constructed (or moved-from) array is unbound and takes the shape and storage of
//    what is first assigned to it.
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/kernel.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/shape/slice.hpp"
#include "clarray/storage/allocation.hpp"
#include "clarray/storage/policies.hpp"
#include "clarray/types/dtype.hpp"

// The host side (get, set, map, to_device with xtensor) is in host/: this header names xtensor's
// expression base only, so that set() keeps its signature without including xtensor.
namespace xt {
template <class D> class xexpression;
} // namespace xt

namespace clarray {

template <class T, class Storage = svm_coarse> class cl_array;

namespace detail {
// The xtensor expression tag of cl_arrays and clarray expressions (see xscalar_base_impl below).
struct device_expression_tag {};
// The base of every expression node (expr/expression.hpp): cl_array's expression constructor and
// assignment recognise nodes by it without naming a type of the layer above.
struct expression_base {
    using expression_tag = device_expression_tag;
};
template <class E>
inline constexpr bool is_expression_node_v = std::is_base_of_v<expression_base, E>;
} // namespace detail

namespace detail {
// An array passed to a raw kernel with a declared access (see in/out/inout below).
// AtView: bind the view's first element (raw kernels) or the allocation's start (library kernels,
// which index with the offset themselves).
template <class A, access Acc, bool AtView = true> struct array_arg { const A& array; };

template <class C> shape_type to_shape(const C& c) {
    shape_type s;
    for (auto v : c) {
        if constexpr (std::is_signed_v<decltype(v)>)
            if (v < 0) {
                std::string txt = "(";
                for (auto w : c)
                    txt += std::to_string(w) + ",";
                throw shape_error("negative extent in shape " + txt + ")");
            }
        s.push_back(static_cast<std::size_t>(v));
    }
    return s;
}

template <class T, class S>
event strided_copy(const cl_array<T, S>& dst, const cl_array<T, S>& src);
template <class T, class S> event strided_fill(const cl_array<T, S>& dst, const T& value);
} // namespace detail

// Declare how a raw kernel uses an array argument (the default is read_write). Reads may overlap
// with other reads; writes are ordered after every earlier use.
template <class A> detail::array_arg<A, access::read> in(const A& a) {
    return {a};
}
// Marks an array passed to a raw kernel as written (its old contents need not be read).
template <class A> detail::array_arg<A, access::write> out(const A& a) {
    return {a};
}
// Marks an array passed to a raw kernel as read and written.
template <class A> detail::array_arg<A, access::read_write> inout(const A& a) {
    return {a};
}

// An n-d strided array of T in device memory, in a storage policy's memory; copies share the
// storage, copy() copies the values (the file header and docs/semantics.md say more).
template <class T, class Storage> class cl_array {
    static_assert(is_dtype_v<T>, "cl_array: unsupported element type (the dtypes are listed in "
                                 "clarray/types/dtype.hpp, CLARRAY_DTYPES)");
    static_assert(is_storage_policy_v<Storage>,
                  "cl_array: Storage must be svm_coarse, svm_fine or buffer");

public:
    // The element type T.
    using value_type = T;
    // The type device memory holds per element (stored_t<T>).
    using stored_type = stored_t<T>;
    // The storage policy (svm_coarse, svm_fine or buffer).
    using storage_policy = Storage;
    // Marks a device operand for xtensor (not an xtensor scalar: see the end of this file).
    using expression_tag = detail::device_expression_tag;
    // The dtype of T.
    static constexpr clarray::dtype dtype = dtype_traits<T>::id;

    // An unbound array: it takes the shape and storage of what is first assigned to it.
    cl_array() = default;
    // Uninitialised contents (see zeros/full for initialised arrays). The storage comes from the
    // context's default pool of this storage kind (context_options::use_default_pool).
    cl_array(const queue& q, const shape_type& shape, layout l = layout::c)
        : q_(q), shape_(shape), strides_(contiguous_strides(shape, l)) {
        if (std::size_t bytes = checked_bytes(shape))
            alloc_ = detail::make_allocation_like(q, Storage::kind, bytes, nullptr);
    }
    // Uninitialised contents, the shape given as any container of integers (a negative extent
    // throws shape_error).
    template <class C, class = std::enable_if_t<!std::is_same_v<C, shape_type> &&
                                                std::is_integral_v<typename C::value_type>>>
    cl_array(const queue& q, const C& shape, layout l = layout::c)
        : cl_array(q, detail::to_shape(shape), l) {}
    // The memory pool type of this storage kind (pool_for_t<Storage>).
    using pool_type = pool_for_t<Storage>;
    // Uninitialised contents, storage from a memory pool of this storage kind
    // (svm_pool<svm_coarse>, svm_pool<svm_fine> or buffer_pool). Copies, results, temporaries
    // made from it allocate from that pool, and assignment keeps it (docs/semantics.md).
    cl_array(const queue& q, const shape_type& shape, const pool_type& pool, layout l = layout::c)
        : q_(q), shape_(shape), strides_(contiguous_strides(shape, l)) {
        if (std::size_t bytes = checked_bytes(shape)) alloc_ = pool.allocate(q, bytes);
    }
    // A pool of another storage kind than Storage: a compile error that says so.
    template <class P,
              std::enable_if_t<is_memory_pool_v<P> && !std::is_same_v<P, pool_type>, int> = 0>
    cl_array(const queue&, const shape_type&, const P&, layout = layout::c) {
        static_assert(detail::dependent_false_v<P>,
                      "cl_array<T, Storage>(queue, shape, pool): the pool is of another storage "
                      "kind than Storage (an SVM pool never serves Buffer storage, nor a coarse "
                      "pool fine storage); use pool_for_t<Storage>");
    }
    // Uninitialised contents, allocated like `storage_like` (from its user pool if it has one,
    // else from the default pool, see detail::make_allocation_like): the library's results and
    // temporaries. May be null.
    cl_array(const queue& q, const shape_type& shape, layout l, const allocation* storage_like)
        : q_(q), shape_(shape), strides_(contiguous_strides(shape, l)) {
        if (std::size_t bytes = checked_bytes(shape))
            alloc_ = detail::make_allocation_like(q, Storage::kind, bytes, storage_like);
    }
    // A view over existing storage (used by views and by the library).
    cl_array(const queue& q, std::shared_ptr<allocation> alloc, shape_type shape,
             strides_type strides, std::ptrdiff_t offset)
        : q_(q), alloc_(std::move(alloc)), shape_(std::move(shape)), strides_(std::move(strides)),
          offset_(offset) {}

    // The members that take expressions (this constructor, assignment from an expression and the
    // compound assignments) are defined in expr/assign.hpp, which needs the expression layer;
    // include <clarray/clarray.hpp> (or expr/operators.hpp and expr/assign.hpp) to use them.
    // Evaluates an expression (one kernel) into a new array of its shape.
    template <class E, class = std::enable_if_t<detail::is_expression_node_v<E>>>
    cl_array(const E& e); // NOLINT: implicit, so that `cl_array<float> c = a + b;` works

    // Copies share storage (handles); see "Value semantics" above. A moved-from array is unbound.
    cl_array(const cl_array&) = default;
    // Takes src's handle; src becomes unbound.
    cl_array(cl_array&& src) noexcept
        : q_(std::move(src.q_)), alloc_(std::move(src.alloc_)), shape_(std::move(src.shape_)),
          strides_(std::move(src.strides_)), offset_(src.offset_) {
        src.unbind();
    }
    ~cl_array() = default;
    // `x = y` writes y's values into x (y broadcast to x's shape; one kernel, no allocation). An
    // unbound x becomes an independent copy of y; unbound = unbound stays unbound.
    cl_array& operator=(const cl_array& src) { return write_values(src); }
    // `x = std::move(y)` / `x = f()`: when no other array or view shares x's memory (or x is
    // unbound), x takes y's shape and values and y becomes unbound: nobody can observe x's old
    // memory, so this is what writing would do, minus the copy. When x's memory and y's come from
    // the same pool (same_pool), x takes y's storage and metadata without a kernel; this is what
    // std::swap, std::vector's erase/insert and std::sort rely on. When the pools differ, x keeps
    // its pool (as a C++ container keeps its allocator): y's values are written into x's memory
    // if x has y's shape and is contiguous, else into new memory from x's pool (one copy kernel
    // on x's queue either way).
    // When x's memory is shared (x is a view, or has views: `a(all(), 5) = f()`,
    // `a = a(range(none, none, -1))`), the values are written into it, as `x = y` does.
    cl_array& operator=(cl_array&& src) {
        if (this == &src) return *this;
        if (bound() && alloc_.use_count() > 1) return write_values(src);
        if (alloc_ && src.alloc_ && !same_pool(alloc_.get(), src.alloc_.get()))
            return move_values_into_own_pool(src);
        q_ = std::move(src.q_);
        alloc_ = std::move(src.alloc_);
        shape_ = std::move(src.shape_);
        strides_ = std::move(src.strides_);
        offset_ = src.offset_;
        src.unbind();
        return *this;
    }

    // Writes the expression's values into this array (one kernel); e broadcasts to our shape.
    template <class E, class = std::enable_if_t<detail::is_expression_node_v<E>>>
    cl_array& operator=(const E& e);
    // Host data is not a device value: `a = host` says what to write instead.
    template <class D> cl_array& operator=(const xt::xexpression<D>&) {
        static_assert(detail::dependent_false_v<D>,
                      "clarray: a host xtensor expression cannot be assigned to a cl_array; copy "
                      "it into the array with a.set(host)");
        return *this;
    }
    // In place, one kernel each; the result must be castable to T (NumPy's same_kind rule).
    //@{
    template <class X> cl_array& operator+=(const X& x);
    template <class X> cl_array& operator-=(const X& x);
    template <class X> cl_array& operator*=(const X& x);
    template <class X> cl_array& operator/=(const X& x);
    template <class X> cl_array& operator%=(const X& x);
    template <class X> cl_array& operator&=(const X& x);
    template <class X> cl_array& operator|=(const X& x);
    template <class X> cl_array& operator^=(const X& x);
    template <class X> cl_array& operator<<=(const X& x);
    template <class X> cl_array& operator>>=(const X& x);
    //@}

    // ---- metadata ----
    // Whether the array has storage and a queue (false when default-constructed or moved from).
    bool bound() const noexcept { return q_.has_value(); }
    // The extent of every axis.
    const shape_type& shape() const noexcept { return shape_; }
    // The extent of one axis (index_error when out of range).
    std::size_t shape(std::size_t axis) const {
        if (axis >= shape_.size()) // clarray::error family, not std::out_of_range
            throw index_error("shape: axis " + std::to_string(axis) + " out of range for shape " +
                              shape_to_string(shape_));
        return shape_[axis];
    }
    // The step between neighbours along each axis, in elements (may be negative or 0).
    const strides_type& strides() const noexcept { return strides_; }
    // The position of the first element in the storage, in elements.
    std::ptrdiff_t offset() const noexcept { return offset_; }
    // The position of the first element in the storage, in bytes.
    std::size_t byte_offset() const noexcept { return offset_ * sizeof(stored_type); }
    // Number of axes.
    std::size_t dimension() const noexcept { return shape_.size(); }
    // Number of elements (product of the shape).
    std::size_t size() const noexcept {
        std::size_t n = 1;
        for (std::size_t e : shape_)
            n *= e;
        return n;
    }
    // Bytes the elements take (size() times the stored element size).
    std::size_t nbytes() const noexcept { return size() * sizeof(stored_type); }
    // Whether the elements are contiguous in C (row-major) order.
    bool is_c_contiguous() const noexcept { return clarray::is_c_contiguous(shape_, strides_); }
    // Whether the elements are contiguous in Fortran (column-major) order.
    bool is_f_contiguous() const noexcept { return clarray::is_f_contiguous(shape_, strides_); }
    // The queue the array's operations are enqueued on (usage_error when unbound).
    const queue& get_queue() const {
        if (!q_) throw usage_error("cl_array: unbound (default-constructed) array");
        return *q_;
    }
    // The context of the array's queue (usage_error when unbound).
    const clarray::context& get_context() const { return get_queue().context(); }
    // The device memory the array views, shared with its copies and views (null when unbound).
    const std::shared_ptr<allocation>& data() const noexcept { return alloc_; }
    // The same array, with its operations enqueued on q (same context).
    cl_array with_queue(const queue& q) const {
        if (q.context() != get_context()) throw usage_error("with_queue: queue of another context");
        return cl_array(q, alloc_, shape_, strides_, offset_);
    }
    // SVM only: the address of the first element (host access to coarse SVM needs map()).
    stored_type* svm_data() const noexcept {
        static_assert(Storage::is_svm, "svm_data() needs an SVM storage policy");
        return alloc_ ? static_cast<stored_type*>(alloc_->svm_pointer()) + offset_ : nullptr;
    }

    // ---- host transfer ----
    // Copy to the host as an xt::xarray<T> (blocks until the data is there). Works on any view.
    // Defined with set(xexpression) and map() in host/ (clarray.hpp includes it); the deduced
    // return type keeps xtensor out of this header.
    auto get() const;
    // The single element of a size-1 array (0-d reduction results); blocks until it is there.
    T item() const {
        if (size() != 1)
            throw shape_error("item: array of shape " + shape_to_string(shape_) +
                              " does not have exactly one element");
        const queue& q = get_queue(); // throws usage_error for an unbound array
        stored_type v{};
        alloc_->read(q, byte_offset(), sizeof(stored_type), &v);
        return static_cast<T>(v);
    }
    // Copy from the host; `e` is broadcast to this array's shape. Works on any view. Blocks.
    template <class E> void set(const xt::xexpression<E>& e);
    // Copy from the host: v holds size() values in C order. Works on any view. Blocks.
    void set(const std::vector<T>& v);
    // A new array with this one's values, contiguous in layout l. Enqueued, does not block.
    cl_array copy(layout l = layout::c) const;
    // Every element = value. Enqueued, does not block.
    void fill(const T& value);
    // A new array with this one's values converted to U (as C casts; to bool: != 0), contiguous
    // in layout l: NumPy's astype. Enqueued, does not block. Defined in expr/assign.hpp (one
    // generated kernel); the free function astype<U>(x) is the lazy expression.
    template <class U> cl_array<U, Storage> astype(layout l = layout::c) const;
    // A typed, strided xtensor view of this array on the host; see host/host_view.hpp.
    auto map(access a = access::read_write) const; // host_view<T, Storage>

    // ---- views (share storage) ----
    // A view selected by integers, range(), all(), newaxis() and ellipsis(), one per axis as
    // NumPy's a[...] (docs/indexing.md); missing trailing axes are taken whole.
    template <class... A> cl_array operator()(const A&... args) const {
        slice_arg list[] = {slice_arg(args)..., slice_arg(all())};
        shape_type s = shape_;
        strides_type st = strides_;
        std::ptrdiff_t off = offset_;
        detail::apply_slices(s, st, off, list, sizeof...(A));
        return cl_array(get_queue(), alloc_, std::move(s), std::move(st), off);
    }
    // Same elements in a new shape (one extent may be clarray::infer). Shares storage when the
    // strides allow it, else throws shape_error: use copy().reshape(...) to reshape a copy.
    cl_array reshape(shape_type new_shape) const;
    // 1-d view when possible, else a contiguous copy (as NumPy's ravel).
    cl_array ravel() const;
    // View without the extent-1 axes.
    cl_array squeeze() const;
    // View without one axis, which must have extent 1 (else shape_error).
    cl_array squeeze(std::size_t axis) const;
    // View with the axes reversed.
    cl_array transpose() const;
    // View with the axes permuted: axis i of the result is axis axes[i] of this array.
    cl_array transpose(const std::vector<std::size_t>& axes) const;

private:
    // Host transfer of the elements in C order (blocks); host holds size() stored_type values.
    void read_c_order(void* host) const;
    void write_c_order(const void* host);

    cl_array& write_values(const cl_array& src) {
        if (!bound()) {
            if (src.bound()) *this = src.copy();
            return *this;
        }
        detail::strided_copy(*this, src);
        return *this;
    }
    // Move assignment between pools (operator=(cl_array&&)): alloc_ is ours alone, src has memory
    // from another pool. src becomes unbound once its values are in our pool's memory.
    cl_array& move_values_into_own_pool(cl_array& src) {
        if (shape_ == src.shape_ && (is_c_contiguous() || is_f_contiguous())) {
            detail::strided_copy(*this, src);
        } else {
            const layout l =
                src.is_f_contiguous() && !src.is_c_contiguous() ? layout::f : layout::c;
            cl_array fresh(*q_, src.shape_, l, alloc_.get()); // allocated like ours: our pool
            detail::strided_copy(fresh, src);
            alloc_ = std::move(fresh.alloc_);
            shape_ = std::move(fresh.shape_);
            strides_ = std::move(fresh.strides_);
            offset_ = 0;
        }
        src.unbind();
        return *this;
    }
    void unbind() noexcept {
        q_.reset();
        alloc_.reset();
        shape_.clear();
        strides_.clear();
        offset_ = 0;
    }
    // Whether the memory of a and b comes from the same pool, as assignment sees it (it moves
    // storage only within one pool, docs/semantics.md "Pools and assignment"): both from one user
    // pool, or both from no user pool (a context's default pool, or memory of its own when
    // pooling is off). Null (no memory: unbound or zero-size) is in no user pool.
    static bool same_pool(const allocation* a, const allocation* b) noexcept {
        return user_pool_of(a) == user_pool_of(b);
    }
    // The user pool m's block came from (null: a default pool, memory of its own, or no memory).
    static const detail::pool_core* user_pool_of(const allocation* m) noexcept {
        const detail::pool_core* p = m ? detail::pool_of(*m) : nullptr;
        return p && !p->is_default_pool() ? p : nullptr;
    }
    // The byte count of a new contiguous array of `shape` (0: no storage).
    static std::size_t checked_bytes(const shape_type& shape) {
        return detail::checked_bytes(shape, sizeof(stored_type));
    }

    std::optional<queue> q_;
    std::shared_ptr<allocation> alloc_;
    shape_type shape_;
    strides_type strides_;
    std::ptrdiff_t offset_ = 0;
};

// The array with its axes reversed (a view, no copy), as NumPy's transpose.
template <class T, class S> cl_array<T, S> transpose(const cl_array<T, S>& a) {
    return a.transpose();
}
// The array with its axes permuted by `axes` (a view, no copy).
template <class T, class S>
cl_array<T, S> transpose(const cl_array<T, S>& a, const std::vector<std::size_t>& axes) {
    return a.transpose(axes);
}

// ---- kernel arguments ----
// Trait: true for cl_array types.
template <class T> struct is_cl_array : std::false_type {};
template <class T, class S> struct is_cl_array<cl_array<T, S>> : std::true_type {};

// An array passed to a raw kernel through in(), out() or inout(), with that access.
template <class T, class S, access Acc, bool AtView>
struct kernel_arg<detail::array_arg<cl_array<T, S>, Acc, AtView>> {
    // The launch argument of the array (usage_error when unbound or of another context).
    static detail::launch_arg make(const detail::array_arg<cl_array<T, S>, Acc, AtView>& a,
                                   const queue& q) {
        if (!a.array.bound()) // would bind NULL, as no zero-size array does
            throw usage_error("kernel argument: unbound (default-constructed) array");
        if (a.array.get_context() != q.context())
            throw usage_error("kernel argument: array from another context than the queue");
        // Raw kernels see the view's first element; library kernels index from the start.
        return detail::memory_arg<S>(a.array.data().get(), Acc,
                                     AtView && a.array.data() ? a.array.byte_offset() : 0);
    }
};

// A plain cl_array argument: bound at its first element, used read_write.
template <class T, class S> struct kernel_arg<cl_array<T, S>> {
    // The launch argument of the array, as inout(x).
    static detail::launch_arg make(const cl_array<T, S>& x, const queue& q) {
        return kernel_arg<detail::array_arg<cl_array<T, S>, access::read_write, true>>::make({x},
                                                                                             q);
    }
};

} // namespace clarray

// xtensor takes any operand of its operators that is not an xtensor expression for a scalar, so
// `a + host` (a cl_array and an xt::xarray) would build a host expression holding the cl_array as
// a scalar and fail later, far from the mistake, in pages of candidates. Wrapped as a scalar, a
// device array or expression carries the device tag, and xtensor's operators and functions then
// make a host_operand_error instead, which says what to do in one static_assert. (Two
// declarations of xtensor's expression-tag extension points, which must match its own.)
namespace clarray::detail {
template <class... E> struct host_operand_error {
    template <class... A> explicit host_operand_error(A&&...) {
        static_assert(dependent_false_v<host_operand_error>,
                      "clarray: a host xtensor expression (xt::xarray...) cannot be an operand of "
                      "a device expression; copy it to the device first: "
                      "clarray::to_device(queue, host)");
    }
    template <class U> operator U() const; // no second error where the result is used
};
} // namespace clarray::detail
namespace xt::extension {
template <class Tag, class CT> struct xscalar_base_impl;
template <class CT> struct xscalar_base_impl<clarray::detail::device_expression_tag, CT> {
    using type = clarray::detail::expression_base;
};
} // namespace xt::extension
namespace xt::detail {
template <class Tag, class F, class... E> struct select_xfunction_expression;
template <class F, class... E>
struct select_xfunction_expression<clarray::detail::device_expression_tag, F, E...> {
    using type = clarray::detail::host_operand_error<F, E...>;
};
} // namespace xt::detail

#include "clarray/array/cl_array_impl.hpp"
