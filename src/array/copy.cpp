#include "clarray/array/copy.hpp"

#include <iterator>
#include <memory>
#include <string>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/error.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/kernel.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/allocation.hpp"
#include "clarray/storage/policies.hpp"

namespace clarray::detail {

namespace {

// The library kernels index from the allocation's start (the offsets travel in their layout).
launch_arg written(const array_ref& a) noexcept {
    return memory_arg(a.kind, a.alloc, access::write);
}
launch_arg read(const array_ref& a) noexcept {
    return memory_arg(a.kind, a.alloc, access::read);
}
template <class V> launch_arg value_of(const V& v) noexcept {
    return launch_arg::value(&v, sizeof(V));
}

event launch_1d(const queue& q, const kernel& k, std::size_t n, std::size_t g,
                const launch_arg* args, std::size_t count) {
    const ndrange global{round_up(n, g)}, local{g};
    return launch(q, k, global, &local, args, count);
}

void fill_pair(nd_pair& L, const shape_type& shape, const strides_type& ds, const strides_type* ss,
               std::ptrdiff_t doff, std::ptrdiff_t soff) {
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
bool rows_pair(nd_pair& L, shape_type shape, strides_type ds, strides_type ss, std::ptrdiff_t doff,
               std::ptrdiff_t soff, std::size_t g, ndrange& global, ndrange& local) {
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

const queue& bound_queue(const array_ref& a) {
    if (!a.q) throw usage_error("cl_array: unbound (default-constructed) array");
    return *a.q;
}

} // namespace

event strided_copy(const array_ref& dst, const array_ref& src) {
    // An unbound source has no memory (the copy would read a NULL kernel argument), and memory of
    // another context cannot be named by this queue's commands.
    if (!src.q) throw usage_error("assignment: the source array is unbound (default-constructed)");
    const queue& q = bound_queue(dst);
    if (src.q->context() != q.context())
        throw usage_error("assignment: source array from another context than the destination");
    shape_type shape = *dst.shape;
    strides_type ds = *dst.strides;
    strides_type ss;
    try {
        ss = broadcast_strides(*src.shape, *src.strides, shape);
    } catch (const shape_error&) {
        throw shape_error("assignment: source shape " + shape_to_string(*src.shape) + " " +
                          dtype_name(src.type) + " does not broadcast to destination shape " +
                          shape_to_string(shape) + " " + dtype_name(dst.type));
    }
    if (checked_size(shape) == 0) return {};
    if (src.alloc == dst.alloc) {
        if (ds == ss && dst.offset == src.offset) return {}; // x = x
        if (ranges_overlap(shape, ds, dst.offset, *src.shape, *src.strides, src.offset)) {
            // Through a C-ordered temporary from the library pool (never reaches the user).
            const std::size_t bytes = checked_size(*src.shape) * src.elem_size();
            const std::shared_ptr<allocation> memory =
                make_temporary_like(*src.q, src.kind, bytes, src.alloc);
            const strides_type c_strides = contiguous_strides(*src.shape, layout::c);
            array_ref tmp = src;
            tmp.alloc = memory.get();
            tmp.strides = &c_strides;
            tmp.offset = 0;
            strided_copy(tmp, src);
            return strided_copy(dst, tmp);
        }
    }
    coalesce(shape, {&ds, &ss});
    const std::size_t elem = dst.elem_size();
    const device& dev = q.context().device();
    if (shape.empty() || (shape.size() == 1 && ds[0] == 1 && ss[0] == 1)) {
        const std::size_t n = shape.empty() ? 1 : shape[0];
        if (!dev.quirks().kernel_for_contiguous_copy)
            return dst.alloc->copy_from(q, *src.alloc, src.offset * elem, dst.offset * elem,
                                        n * elem);
        const kernel k = builtin_kernel(q.context(), builtin::contiguous_copy, dst.type);
        const cl_long doff = dst.offset, soff = src.offset;
        const cl_ulong count = n;
        const launch_arg args[] = {written(dst), read(src), value_of(doff), value_of(soff),
                                   value_of(count)};
        return launch_1d(q, k, n, elementwise_group_size(dev), args, std::size(args));
    }
    const std::size_t g = elementwise_group_size(dev);
    nd_pair L;
    builtin which = builtin::strided_copy;
    ndrange global, local;
    if (ds.back() == 1 && (ss.back() == 1 || ss.back() == 0)) {
        // Unit-stride rows (the source's possibly broadcast along them): the row kernels.
        const bool nd = rows_pair(L, shape, ds, ss, dst.offset, src.offset, g, global, local);
        which = ss.back() == 1
                    ? (nd ? builtin::rows_copy_nd : builtin::rows_copy)
                    : (nd ? builtin::rows_copy_broadcast_nd : builtin::rows_copy_broadcast);
    } else {
        fill_pair(L, shape, ds, &ss, dst.offset, src.offset);
        global = ndrange{round_up(L.n, g)};
        local = ndrange{g};
    }
    const kernel k = builtin_kernel(q.context(), which, dst.type);
    const launch_arg args[] = {written(dst), read(src), value_of(L)};
    return launch(q, k, global, &local, args, std::size(args));
}

event strided_fill(const array_ref& dst, const void* value) {
    const shape_type& dshape = *dst.shape;
    if (checked_size(dshape) == 0) return {};
    const std::size_t elem = dst.elem_size();
    const queue& q = bound_queue(dst);
    if (is_dense(dshape, *dst.strides)) {
        auto [lo, hi] = covering_range(dshape, *dst.strides, dst.offset);
        return dst.alloc->fill(q, value, elem, lo * elem, (hi - lo) * elem);
    }
    shape_type shape = dshape;
    strides_type ds = *dst.strides;
    coalesce(shape, {&ds});
    const std::size_t g = elementwise_group_size(q.context().device());
    nd_pair L;
    builtin which = builtin::strided_fill;
    ndrange global, local;
    if (ds.back() == 1) { // unit-stride rows
        const bool nd =
            rows_pair(L, shape, ds, strides_type(ds.size(), 0), dst.offset, 0, g, global, local);
        which = nd ? builtin::rows_fill_nd : builtin::rows_fill;
    } else {
        fill_pair(L, shape, ds, nullptr, dst.offset, 0);
        global = ndrange{round_up(L.n, g)};
        local = ndrange{g};
    }
    const kernel k = builtin_kernel(q.context(), which, dst.type);
    const launch_arg args[] = {written(dst), launch_arg::value(value, elem), value_of(L)};
    return launch(q, k, global, &local, args, std::size(args));
}

event fill_arange(const array_ref& a, const void* start, const void* step) {
    const queue& q = bound_queue(a);
    const std::size_t elem = is_half_storage(a.type) ? sizeof(float) : a.elem_size();
    const kernel k = builtin_kernel(q.context(), builtin::arange, a.type);
    const cl_long offset = a.offset;
    const cl_ulong n = checked_size(*a.shape);
    const launch_arg args[] = {written(a), launch_arg::value(start, elem),
                               launch_arg::value(step, elem), value_of(offset), value_of(n)};
    return launch_1d(q, k, n, elementwise_group_size(q.context().device()), args, std::size(args));
}

event fill_linspace(const array_ref& a, const void* start, const void* step, const void* stop,
                    bool endpoint) {
    const queue& q = bound_queue(a);
    const std::size_t elem = is_half_storage(a.type) ? sizeof(float) : a.elem_size();
    const kernel k = builtin_kernel(q.context(), builtin::linspace, a.type);
    const cl_ulong n = checked_size(*a.shape);
    const cl_int last_is_stop = endpoint && n > 1;
    const cl_long offset = a.offset;
    const launch_arg args[] = {written(a),
                               launch_arg::value(start, elem),
                               launch_arg::value(step, elem),
                               launch_arg::value(stop, elem),
                               value_of(last_is_stop),
                               value_of(offset),
                               value_of(n)};
    return launch_1d(q, k, n, elementwise_group_size(q.context().device()), args, std::size(args));
}

namespace {
// a's elements in C order at the start of `memory` (c_strides: C-contiguous strides of a's shape).
array_ref c_ordered(const array_ref& a, allocation* memory, const strides_type& c_strides) {
    array_ref r = a;
    r.alloc = memory;
    r.strides = &c_strides;
    r.offset = 0;
    return r;
}
} // namespace

std::shared_ptr<allocation> contiguous_temporary(const array_ref& src, const shape_type& shape) {
    const queue& q = *src.q;
    auto temp = make_temporary_like(q, src.kind, checked_size(shape) * src.elem_size(), src.alloc);
    const strides_type c = contiguous_strides(shape, layout::c);
    strided_copy(array_ref{&q, temp.get(), src.kind, src.type, &shape, &c, 0}, src);
    return temp;
}

void read_c_order(const array_ref& a, void* host) {
    const queue& q = bound_queue(a);
    const std::size_t bytes = checked_size(*a.shape) * a.elem_size();
    if (is_c_contiguous(*a.shape, *a.strides)) {
        a.alloc->read(q, a.offset * a.elem_size(), bytes, host);
        return;
    }
    // Through a C-ordered copy allocated like a (as copy(layout::c) does).
    const std::shared_ptr<allocation> memory = make_allocation_like(q, a.kind, bytes, a.alloc);
    const strides_type c_strides = contiguous_strides(*a.shape, layout::c);
    strided_copy(c_ordered(a, memory.get(), c_strides), a);
    memory->read(q, 0, bytes, host);
}

void write_c_order(const array_ref& a, const void* host) {
    const queue& q = bound_queue(a);
    const std::size_t bytes = checked_size(*a.shape) * a.elem_size();
    if (is_c_contiguous(*a.shape, *a.strides)) {
        a.alloc->write(q, a.offset * a.elem_size(), bytes, host);
        return;
    }
    const std::shared_ptr<allocation> memory = make_allocation_like(q, a.kind, bytes, a.alloc);
    memory->write(q, 0, bytes, host);
    const strides_type c_strides = contiguous_strides(*a.shape, layout::c);
    strided_copy(a, c_ordered(a, memory.get(), c_strides));
}

bool check_host_vector(const array_ref& a, std::size_t count) {
    const std::size_t size = checked_size(*a.shape);
    if (count != size)
        throw shape_error("set: vector of " + std::to_string(count) +
                          " elements for an array of shape " + shape_to_string(*a.shape) + " (" +
                          std::to_string(size) + " elements)");
    (void)bound_queue(a); // unbound: usage_error before alloc (NULL) is touched
    return size != 0;
}

} // namespace clarray::detail
