#pragma once
// Stacks of small linear systems in device kernels of clarray's own (kernels/linalg_batched.cl):
// one work-group per matrix, where a GPU would otherwise send every matrix to the host's LAPACK.
#include <cstddef>

#include "clarray/array/copy.hpp"

namespace clarray::detail::batched {

// The largest n (and number of right-hand sides) the kernels take: the matrix and the
// right-hand sides in local memory.
constexpr std::size_t max_n = 32;

// Whether stacks of `count` n x n matrices of dtype t with k right-hand sides take the device
// kernels on q's device: GPUs (not CPU devices, where LAPACK works on the mapped memory itself),
// float32 and float64 (where the device has it), 1 <= n, k <= max_n, fewer than 2^31 matrices
// (the singular index is a 32-bit atomic).
bool applies(const queue& q, dtype t, std::size_t n, std::size_t k, std::size_t count);

// x = a^-1 b for each of the `count` matrices: a (count, n, n), b and x (count, n, k); b null:
// the identity (k = n, inv). a and b are broadcast to those shapes first (any views); x is
// C-contiguous from offset 0. A matrix or right-hand side with a non-finite value gives NaN.
// Returns the index of the first singular matrix (the host waits for the kernels to know it),
// or count when there is none.
std::size_t solve(const array_ref& a, const array_ref* b, const array_ref& x, std::size_t count,
                  std::size_t n, std::size_t k);

} // namespace clarray::detail::batched
