#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0): save_npy writes any array or view, its
// elements in C order; load_npy<T> reads a file whose dtype is T's into a new array.
//
//  * A file in Fortran order (fortran_order: True) loads as an F-contiguous array of the file's
//    shape, as numpy.load gives it; a file of the other byte order is byte-swapped on load.
//  * A file of another dtype is a dtype_error naming the file, the dtype expected and the one
//    found; an unreadable, malformed or truncated file is an io_error naming the file.
//  * Both block: save_npy until the elements are on the host (it waits for the array's pending
//    writers only), load_npy until they are on the device.
// docs/io.md has the details.
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"
#include "clarray/expr/assign.hpp"

namespace clarray {

namespace detail {

// What a .npy header says.
struct npy_header {
    unsigned char major = 1, minor = 0; // format version
    std::string descr;                  // the dtype as written, e.g. "<f4"
    bool fortran_order = false;
    shape_type shape;
};

// The .npy dtype string of d on this host ("<f4", "|b1").
std::string npy_descr(dtype d);

// Reads the .npy file at `path`, which must hold elements of `expected`: returns its header and
// puts its elements, in file order, into `data` (in this host's byte order; bools as 0 and 1).
npy_header read_npy(const std::string& path, dtype expected, std::vector<unsigned char>& data);

// Writes a .npy file of `shape` elements of `type` in C order, from `bytes` bytes at `data`:
// version 1.0, or 2.0 when the header needs more than 65535 bytes.
void write_npy(const std::string& path, dtype type, const shape_type& shape, const void* data,
               std::size_t bytes);

} // namespace detail

// Writes a's elements (any view; C order) to the .npy file `path`, replacing it.
template <class T, class S> void save_npy(const std::string& path, const cl_array<T, S>& a) {
    (void)a.get_queue(); // usage_error for an unbound array
    std::vector<unsigned char> host(a.nbytes());
    if (a.size() != 0) detail::read_c_order(detail::array_ref_of(a), host.data());
    detail::write_npy(path, dtype_traits<T>::id, a.shape(), host.data(), host.size());
}
// An expression is evaluated first (one kernel).
template <class E, std::enable_if_t<detail::is_expression_node_v<E>, int> = 0>
void save_npy(const std::string& path, const E& e) {
    save_npy(path, eval(e));
}

namespace detail {
// load_npy into a new array that make(shape) allocates.
template <class T, class Make> auto load_npy_into(const std::string& path, Make make) {
    std::vector<unsigned char> data;
    const npy_header h = read_npy(path, dtype_traits<T>::id, data);
    // Fortran order: the elements are those of the transpose in C order.
    const shape_type shape =
        h.fortran_order ? shape_type(h.shape.rbegin(), h.shape.rend()) : h.shape;
    auto a = make(shape);
    if (a.size() != 0) write_c_order(array_ref_of(a), data.data());
    return h.fortran_order ? a.transpose() : a;
}
} // namespace detail

// A new array (on q, storage S) with the contents of the .npy file `path`, which must hold T.
template <class T, class S = svm_coarse>
cl_array<T, S> load_npy(const queue& q, const std::string& path) {
    return detail::load_npy_into<T>(path,
                                    [&](const shape_type& s) { return cl_array<T, S>(q, s); });
}
// load_npy with memory from a memory pool (svm_pool of S or buffer_pool; the storage policy is the
// pool's unless named).
template <class T, class S = detail::storage_of_pool, class Pool, detail::if_pool_t<Pool> = 0>
cl_array<T, detail::pooled_storage_t<S, Pool>> load_npy(const queue& q, const std::string& path,
                                                        const Pool& pool) {
    return detail::load_npy_into<T>(path, [&](const shape_type& s) {
        return cl_array<T, detail::pooled_storage_t<S, Pool>>(q, s, pool);
    });
}

} // namespace clarray
