// searchsorted: a binary search of every value in a 1-d sorted view (kernels/sort.cl,
// sort_search).
#include <string>

#include "clarray/error.hpp"
#include "sort_kernels.hpp"

namespace clarray::detail {
using namespace sorting;

std::shared_ptr<allocation> searchsorted_impl(const array_ref& sorted, const array_ref& values,
                                              side sd) {
    const queue& q = queue_of(values, "searchsorted");
    queue_of(sorted, "searchsorted");
    if (sorted.type != values.type)
        throw dtype_error(std::string("searchsorted: the sorted array is ") +
                          dtype_name(sorted.type) + ", the values " + dtype_name(values.type) +
                          " (convert one: both of one dtype)");
    if (sorted.shape->size() != 1)
        throw shape_error("searchsorted: the sorted array must be 1-d, it has " +
                          std::to_string(sorted.shape->size()) + " dimensions");
    if (sorted.q->context() != q.context())
        throw usage_error("searchsorted: arrays of different contexts");
    const std::size_t n = checked_size(*values.shape);
    if (n == 0) return nullptr;
    const op o{q, values.kind, values.alloc, values.type, values.type, "searchsorted"};
    auto result = o.alloc(n * 8);
    const cl_long s_off = sorted.offset, s_stride = (*sorted.strides)[0];
    const cl_ulong s_n = (*sorted.shape)[0];
    const cl_uint right = sd == side::right;
    // An empty sorted array has no memory; the kernel reads none of it then, but NVIDIA refuses
    // a NULL buffer argument (docs/internals/quirks.md): the values stand in for it.
    allocation* sorted_mem = s_n ? sorted.alloc : values.alloc;
    o.each(sk::search, n,
           {o.mem(sorted_mem, access::read), value_of(s_off), value_of(s_stride), value_of(s_n),
            o.mem(values.alloc, access::read), value_of(layout_of(values)),
            o.mem(result.get(), access::write), value_of(right)});
    return result;
}

} // namespace clarray::detail
