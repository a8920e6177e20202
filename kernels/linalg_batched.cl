// Stacks of small linear systems (src/linalg/batched.cpp): one work-group per matrix, the matrix
// and its right-hand sides in local memory. T: float or double; NMAX: 8, 16 or 32, at least n and
// k (the local arrays' side: the smaller, the more groups a compute unit holds).
//
// batched_solve: x_m = a_m^-1 b_m for every matrix m of the stack: a (count, n, n), b and x
// (count, n, k), all C-contiguous from offset 0; identity: b is the identity (k = n: inv).
// LU with partial pivoting as LAPACK's getrf (the first row of largest magnitude; a pivot of
// exactly zero is a singular matrix), the eliminations applied to the right-hand sides as they
// go, then back substitution. A matrix or right-hand side with a non-finite value gives NaN (as
// the host path, which does not call LAPACK then). A singular matrix writes nothing; the smallest
// such m is kept in *first_singular (which the host sets to count before). Every step spreads its
// elements over the group's work-items (the trailing update of step j is (n-j-1) x (n-j-1+k)
// multiply-adds): no work-item walks a row or a column alone.
kernel void batched_solve(global const T* a, global const T* b, global T* x, uint n, uint k,
                          uint identity, global int* first_singular) {
    local T A[NMAX * NMAX];
    local T B[NMAX * NMAX];
    local T factor[NMAX];
    local uint pivot;
    local int not_finite;
    const uint l = get_local_id(0), W = get_local_size(0);
    const ulong m = get_group_id(0);
    global const T* am = a + m * n * n;
    global T* xm = x + m * n * k;
    if (l == 0) not_finite = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint e = l; e < n * n; e += W) {
        const T v = am[e];
        A[(e / n) * NMAX + e % n] = v;
        if (!isfinite(v)) not_finite = 1;
    }
    for (uint e = l; e < n * k; e += W) {
        const uint i = e / k, c = e % k;
        const T v = identity ? (T)(i == c ? 1 : 0) : b[m * n * k + e];
        B[i * NMAX + c] = v;
        if (!isfinite(v)) not_finite = 1;
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
            T best = fabs(A[j * NMAX + j]);
            for (uint i = j + 1; i < n; ++i)
                if (fabs(A[i * NMAX + j]) > best) {
                    best = fabs(A[i * NMAX + j]);
                    p = i;
                }
            pivot = p;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint p = pivot;
        if (A[p * NMAX + j] == 0) { // (the same for every work-item)
            if (l == 0) atomic_min(first_singular, (int)m);
            return;
        }
        if (p != j) {
            for (uint c = l; c < n + k; c += W) {
                local T* row_j = c < n ? A + j * NMAX + c : B + j * NMAX + (c - n);
                local T* row_p = c < n ? A + p * NMAX + c : B + p * NMAX + (c - n);
                const T t = *row_j;
                *row_j = *row_p;
                *row_p = t;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        // The multipliers of the rows below j, then the trailing block and the right-hand
        // sides, an element per work-item.
        for (uint i = j + 1 + l; i < n; i += W)
            factor[i] = A[i * NMAX + j] / A[j * NMAX + j];
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint rows = n - j - 1, cols = n - j - 1 + k;
        for (uint e = l; e < rows * cols; e += W) {
            const uint i = j + 1 + e / cols, c = e % cols;
            if (c < n - j - 1)
                A[i * NMAX + j + 1 + c] -= factor[i] * A[j * NMAX + j + 1 + c];
            else
                B[i * NMAX + c - (n - j - 1)] -= factor[i] * B[j * NMAX + c - (n - j - 1)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // Back substitution: row j of every right-hand side, then the rows above it.
    for (uint j = n; j-- > 0;) {
        for (uint c = l; c < k; c += W)
            B[j * NMAX + c] /= A[j * NMAX + j];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint e = l; e < j * k; e += W) {
            const uint i = e / k, c = e % k;
            B[i * NMAX + c] -= A[i * NMAX + j] * B[j * NMAX + c];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint e = l; e < n * k; e += W)
        xm[e] = B[(e / k) * NMAX + e % k];
}
