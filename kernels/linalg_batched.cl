// Stacks of small linear systems (src/linalg/batched.cpp): one work-group per matrix, the matrix
// and its right-hand sides in local memory. T: float or double.
//
// batched_solve: x_m = a_m^-1 b_m for every matrix m of the stack: a (count, n, n), b and x
// (count, n, k), all C-contiguous from offset 0; identity: b is the identity (k = n: inv).
// LU with partial pivoting as LAPACK's getrf (the first row of largest magnitude; a pivot of
// exactly zero is a singular matrix), then forward elimination of the right-hand sides and back
// substitution. A matrix or right-hand side with a non-finite value gives NaN (as the host path,
// which does not call LAPACK then). A singular matrix writes nothing; the smallest such m is kept
// in *first_singular (which the host sets to count before).
#define NMAX 32

kernel void batched_solve(global const T* a, global const T* b, global T* x, uint n, uint k,
                          uint identity, global int* first_singular) {
    local T A[NMAX * NMAX];
    local T B[NMAX * NMAX];
    local uint pivot;
    local int not_finite;
    const uint l = get_local_id(0), W = get_local_size(0);
    const ulong m = get_group_id(0);
    global const T* am = a + m * n * n;
    global T* xm = x + m * n * k;
    if (l == 0) not_finite = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint e = l; e < n * n; e += W) {
        A[e] = am[e];
        if (!isfinite(A[e])) not_finite = 1;
    }
    for (uint e = l; e < n * k; e += W) {
        B[e] = identity ? (T)(e / k == e % k ? 1 : 0) : b[m * n * k + e];
        if (!isfinite(B[e])) not_finite = 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (not_finite) { // (every work-item reads the same word)
        for (uint e = l; e < n * k; e += W)
            xm[e] = (T)NAN;
        return;
    }
    for (uint j = 0; j < n; ++j) {
        if (l == 0) {
            uint p = j;
            T best = fabs(A[j * n + j]);
            for (uint i = j + 1; i < n; ++i)
                if (fabs(A[i * n + j]) > best) {
                    best = fabs(A[i * n + j]);
                    p = i;
                }
            pivot = p;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint p = pivot;
        if (A[p * n + j] == 0) { // (the same for every work-item)
            if (l == 0) atomic_min(first_singular, (int)m);
            return;
        }
        if (p != j) {
            for (uint c = l; c < n; c += W) {
                const T t = A[j * n + c];
                A[j * n + c] = A[p * n + c];
                A[p * n + c] = t;
            }
            for (uint c = l; c < k; c += W) {
                const T t = B[j * k + c];
                B[j * k + c] = B[p * k + c];
                B[p * k + c] = t;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // Rows below j, one work-item each: subtract the multiple of row j that clears column j.
        for (uint i = j + 1 + l; i < n; i += W) {
            const T f = A[i * n + j] / A[j * n + j];
            for (uint c = j + 1; c < n; ++c)
                A[i * n + c] -= f * A[j * n + c];
            for (uint c = 0; c < k; ++c)
                B[i * k + c] -= f * B[j * k + c];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // Back substitution, one right-hand side per work-item.
    for (uint c = l; c < k; c += W)
        for (uint j = n; j-- > 0;) {
            const T v = B[j * k + c] / A[j * n + j];
            B[j * k + c] = v;
            for (uint i = 0; i < j; ++i)
                B[i * k + c] -= A[i * n + j] * v;
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint e = l; e < n * k; e += W)
        xm[e] = B[e];
}
