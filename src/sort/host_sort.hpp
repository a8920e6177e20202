#pragma once
// sort and argsort on CPU devices: a host LSD radix sort in a native kernel of the queue
// (runtime/native_kernel.hpp), on the SVM memory itself. A CPU device's SVM is host memory, and
// the radix kernels' barriers and local memory run there as loops over few cores: one host thread
// sorting keys in place is several times faster (docs/sorting.md). The order is the kernels':
// stable, NumPy's order of the values (NaN last, -0.0 and +0.0 equal).
#include <cstddef>

#include "sort_kernels.hpp"

namespace clarray::detail::sorting {

// Whether a sort or argsort on o (its queue, storage and dtype) of rows of row_len elements runs
// on the host: the device's tuning_t::host_sort (CPU devices), native kernels, SVM storage, a
// real or integer dtype, rows below 2^32 elements.
bool host_sort_serves(const op& o, std::size_t row_len);

// Sorts each row of row_len consecutive elements of the view L of `in` into the view O of
// `result`: the values, or (indices) each element's int64 position within its row. Enqueued
// after the allocations' recorded uses, with its event recorded on them; never blocks.
void host_sort(const op& o, allocation* in, const sort_layout& L, const sort_layout& O,
               std::size_t row_len, bool indices, allocation* result);

} // namespace clarray::detail::sorting
