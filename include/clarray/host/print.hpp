#pragma once
// Printing arrays and expressions, and describe(): a repr-like summary of an array.
//
//  * `std::cout << a` copies a's elements to the host (only them: a view reads just its elements)
//    and prints them with xtensor's printer, so the output is exactly that of the xt::xarray
//    a.get() would return: xtensor's format, precision and summarisation of large arrays with
//    `...`, bools as true/false. xtensor's print options apply (xt::print_options::precision(3)
//    before the array, or xt::print_options::set_threshold(...) for all).
//  * `std::cout << (a + b)` evaluates the expression into a new array first (one kernel).
//  * Printing waits only for the commands the array's read must follow (its recorded writers, on
//    any queue) and, as every command on an in-order queue does, for what was enqueued before on
//    the array's own queue; it never waits for other queues' unrelated work.
//  * describe(a): "cl_array(shape=(3, 4), dtype=float32, storage=svm_coarse, device=...)", with
//    the strides and offset of a view that is not a C-contiguous array; never touches the data.
// docs/io.md has the details.
#include <ostream>
#include <string>

#include "clarray/host/xtensor.hpp"
#if CLARRAY_XTENSOR_SUBFOLDERS
#include <xtensor/io/xio.hpp>
#else
#include <xtensor/xio.hpp>
#endif

#include "clarray/array/cl_array.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/host/conversions.hpp"

namespace clarray {

namespace detail {
// The text of describe() from the array's metadata (q: null for an unbound array).
std::string describe_array(const queue* q, dtype type, const char* storage, const shape_type& shape,
                           const strides_type& strides, std::ptrdiff_t offset);
} // namespace detail

// A repr-like line: shape, dtype, storage policy and device.
template <class T, class S> std::string describe(const cl_array<T, S>& a) {
    return detail::describe_array(a.bound() ? &a.get_queue() : nullptr, dtype_traits<T>::id,
                                  S::name, a.shape(), a.strides(), a.offset());
}

// An unbound array has no elements to print: it prints its description.
template <class T, class S> std::ostream& operator<<(std::ostream& out, const cl_array<T, S>& a) {
    if (!a.bound()) return out << describe(a);
    return out << a.get();
}

// Prints an expression after evaluating it into a temporary array.
template <class E, std::enable_if_t<detail::is_expression_node_v<E>, int> = 0>
std::ostream& operator<<(std::ostream& out, const E& e) {
    return out << eval(e);
}

} // namespace clarray
