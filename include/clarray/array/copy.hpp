#pragma once
// The library's copies, fills, generators and host transfers of arrays, without the element
// type: cl_array<T, S> and the factories forward here with an array_ref, so that each (T, S)
// instantiation compiles only the forward, and the shape logic (broadcasting, coalescing,
// overlap, kernel choice, launch sizes) is compiled once in src/array/copy.cpp.
#include <cstddef>
#include <memory>

#include "clarray/runtime/device_memory.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/types/dtype.hpp"

namespace clarray {

class allocation;
class queue;

namespace detail {

// One array operand described by its storage, element type and layout. It refers to the
// array's queue, shape and strides, which must outlive the call it is passed to.
struct array_ref {
    const queue* q = nullptr;    // null: an unbound (default-constructed) array
    allocation* alloc = nullptr; // null: no storage (a zero-size or unbound array)
    storage_kind kind = storage_kind::svm_coarse;
    dtype type = dtype::float32;
    const shape_type* shape = nullptr;
    const strides_type* strides = nullptr;
    std::ptrdiff_t offset = 0; // in elements

    std::size_t elem_size() const noexcept { return dtype_size(type); }
};

// dst = src elementwise, src broadcast to dst's shape (both of one dtype and storage kind; dst
// bound). Overlapping views of one allocation with different layouts go through a temporary, so
// the result is as if src was read first. Returns the last command's event (none when nothing
// was enqueued).
event strided_copy(const array_ref& dst, const array_ref& src);
// src broadcast to `shape` in a C-contiguous library temporary (make_temporary_like) from offset
// 0, copied on src's queue.
std::shared_ptr<allocation> contiguous_temporary(const array_ref& src, const shape_type& shape);
// Every element of dst (bound) = *value, one stored element of dst.type.
event strided_fill(const array_ref& dst, const void* value);

// The generators of a contiguous 1-d array a (bound, not empty); start, step and stop point to
// one kernel value of a.type each (kernel_value_t: a float for float16).
// arange: a[i] = start + i * step. linspace: a[i] = start + i * step, the last element stop
// exactly when endpoint (and more than one element).
event fill_arange(const array_ref& a, const void* start, const void* step);
event fill_linspace(const array_ref& a, const void* start, const void* step, const void* stop,
                    bool endpoint);

// Blocking host transfers of a's elements in C order (a bound, not empty); host holds
// size * a.elem_size() bytes.
void read_c_order(const array_ref& a, void* host);
void write_c_order(const array_ref& a, const void* host);
// The checks of cl_array::set(std::vector) for a vector of `count` elements: shape_error when
// the counts differ, usage_error when a is unbound. Returns whether there is anything to write.
bool check_host_vector(const array_ref& a, std::size_t count);

} // namespace detail
} // namespace clarray
