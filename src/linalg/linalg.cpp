#include "clarray/linalg/linalg.hpp"

#include <clblast.h>

#include <algorithm>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/allocation.hpp"
#include "host_blas.hpp"

namespace clarray::detail {

namespace {

using clblast::StatusCode;
using clblast::Transpose;

const char* name_of(product_kind k) {
    switch (k) {
    case product_kind::matmul:
        return "matmul";
    case product_kind::dot:
        return "dot";
    case product_kind::vdot:
        return "vdot";
    case product_kind::inner:
        return "inner";
    case product_kind::outer:
        break;
    }
    return "outer";
}

const char* status_name(StatusCode s) {
    switch (s) {
#define CLARRAY_BLAS_STATUS(x)                                                                     \
    case StatusCode::x:                                                                            \
        return #x;
        CLARRAY_BLAS_STATUS(kSuccess)
        CLARRAY_BLAS_STATUS(kOpenCLCompilerNotAvailable)
        CLARRAY_BLAS_STATUS(kTempBufferAllocFailure)
        CLARRAY_BLAS_STATUS(kOpenCLOutOfResources)
        CLARRAY_BLAS_STATUS(kOpenCLOutOfHostMemory)
        CLARRAY_BLAS_STATUS(kOpenCLBuildProgramFailure)
        CLARRAY_BLAS_STATUS(kInvalidValue)
        CLARRAY_BLAS_STATUS(kInvalidCommandQueue)
        CLARRAY_BLAS_STATUS(kInvalidMemObject)
        CLARRAY_BLAS_STATUS(kInvalidBinary)
        CLARRAY_BLAS_STATUS(kInvalidBuildOptions)
        CLARRAY_BLAS_STATUS(kInvalidProgram)
        CLARRAY_BLAS_STATUS(kInvalidProgramExecutable)
        CLARRAY_BLAS_STATUS(kInvalidKernelName)
        CLARRAY_BLAS_STATUS(kInvalidKernelDefinition)
        CLARRAY_BLAS_STATUS(kInvalidKernel)
        CLARRAY_BLAS_STATUS(kInvalidArgIndex)
        CLARRAY_BLAS_STATUS(kInvalidArgValue)
        CLARRAY_BLAS_STATUS(kInvalidArgSize)
        CLARRAY_BLAS_STATUS(kInvalidKernelArgs)
        CLARRAY_BLAS_STATUS(kInvalidLocalNumDimensions)
        CLARRAY_BLAS_STATUS(kInvalidLocalThreadsTotal)
        CLARRAY_BLAS_STATUS(kInvalidLocalThreadsDim)
        CLARRAY_BLAS_STATUS(kInvalidGlobalOffset)
        CLARRAY_BLAS_STATUS(kInvalidEventWaitList)
        CLARRAY_BLAS_STATUS(kInvalidEvent)
        CLARRAY_BLAS_STATUS(kInvalidOperation)
        CLARRAY_BLAS_STATUS(kInvalidBufferSize)
        CLARRAY_BLAS_STATUS(kInvalidGlobalWorkSize)
        CLARRAY_BLAS_STATUS(kNotImplemented)
        CLARRAY_BLAS_STATUS(kInvalidMatrixA)
        CLARRAY_BLAS_STATUS(kInvalidMatrixB)
        CLARRAY_BLAS_STATUS(kInvalidMatrixC)
        CLARRAY_BLAS_STATUS(kInvalidVectorX)
        CLARRAY_BLAS_STATUS(kInvalidVectorY)
        CLARRAY_BLAS_STATUS(kInvalidDimension)
        CLARRAY_BLAS_STATUS(kInvalidLeadDimA)
        CLARRAY_BLAS_STATUS(kInvalidLeadDimB)
        CLARRAY_BLAS_STATUS(kInvalidLeadDimC)
        CLARRAY_BLAS_STATUS(kInvalidIncrementX)
        CLARRAY_BLAS_STATUS(kInvalidIncrementY)
        CLARRAY_BLAS_STATUS(kInsufficientMemoryA)
        CLARRAY_BLAS_STATUS(kInsufficientMemoryB)
        CLARRAY_BLAS_STATUS(kInsufficientMemoryC)
        CLARRAY_BLAS_STATUS(kInsufficientMemoryX)
        CLARRAY_BLAS_STATUS(kInsufficientMemoryY)
        CLARRAY_BLAS_STATUS(kInsufficientMemoryTemp)
        CLARRAY_BLAS_STATUS(kInvalidBatchCount)
        CLARRAY_BLAS_STATUS(kInvalidOverrideKernel)
        CLARRAY_BLAS_STATUS(kMissingOverrideParameter)
        CLARRAY_BLAS_STATUS(kInvalidLocalMemUsage)
        CLARRAY_BLAS_STATUS(kNoHalfPrecision)
        CLARRAY_BLAS_STATUS(kNoDoublePrecision)
        CLARRAY_BLAS_STATUS(kInvalidVectorScalar)
        CLARRAY_BLAS_STATUS(kInsufficientMemoryScalar)
        CLARRAY_BLAS_STATUS(kDatabaseError)
        CLARRAY_BLAS_STATUS(kUnknownError)
        CLARRAY_BLAS_STATUS(kUnexpectedError)
#undef CLARRAY_BLAS_STATUS
    }
    return nullptr;
}

// An operand with its own copy of the layout, which make_contiguous may replace.
struct operand {
    allocation* alloc;
    storage_kind kind;
    dtype type;
    shape_type shape;
    strides_type strides;
    std::ptrdiff_t offset;
    std::shared_ptr<allocation> temp; // the contiguous copy, when one was needed

    explicit operand(const array_ref& r)
        : alloc(r.alloc), kind(r.kind), type(r.type), shape(*r.shape), strides(*r.strides),
          offset(r.offset) {}

    // Replaces the view by a C-contiguous copy of it in a library temporary, made on q.
    void make_contiguous(const queue& q) {
        temp =
            contiguous_temporary(array_ref{&q, alloc, kind, type, &shape, &strides, offset}, shape);
        alloc = temp.get();
        strides = contiguous_strides(shape, layout::c);
        offset = 0;
    }
    cl_mem mem() const { return alloc->as_buffer(); }
};

// How a product reads an operand as a stack of matrices.
enum class view_as {
    last_two,    // the last two axes; the others are the batch
    row_of_flat, // the elements in C order as one row (1, n)
    col_of_flat, // ... as one column (n, 1)
    lead_rows,   // (product of the leading axes, last axis)
    lead_rows_t  // the transpose of lead_rows
};

// One operand as a matrix of rows x cols with element strides rs, cs, repeated over batch axes.
struct matrix_desc {
    bool ok = true; // false: the view has no such description without a copy
    shape_type batch;
    strides_type bstrides;
    std::size_t rows = 1, cols = 1;
    std::ptrdiff_t rs = 0, cs = 0;
};

// The axes of (shape, strides) as one axis (n, stride), when coalescing allows it.
bool flat(shape_type shape, strides_type strides, std::size_t& n, std::ptrdiff_t& stride) {
    coalesce(shape, {&strides});
    if (shape.size() > 1) return false;
    n = shape.empty() ? 1 : shape[0];
    stride = shape.empty() ? 1 : strides[0];
    return true;
}

matrix_desc describe(const operand& o, view_as how) {
    matrix_desc d;
    const std::size_t r = o.shape.size();
    switch (how) {
    case view_as::last_two:
        d.batch.assign(o.shape.begin(), o.shape.end() - 2);
        d.bstrides.assign(o.strides.begin(), o.strides.end() - 2);
        d.rows = o.shape[r - 2];
        d.cols = o.shape[r - 1];
        d.rs = o.strides[r - 2];
        d.cs = o.strides[r - 1];
        break;
    case view_as::row_of_flat:
        d.ok = flat(o.shape, o.strides, d.cols, d.cs);
        break;
    case view_as::col_of_flat:
        d.ok = flat(o.shape, o.strides, d.rows, d.rs);
        break;
    case view_as::lead_rows:
    case view_as::lead_rows_t: {
        shape_type lead(o.shape.begin(), o.shape.end() - 1);
        strides_type ls(o.strides.begin(), o.strides.end() - 1);
        d.ok = flat(lead, ls, d.rows, d.rs);
        d.cols = o.shape[r - 1];
        d.cs = o.strides[r - 1];
        if (how == view_as::lead_rows_t) {
            std::swap(d.rows, d.cols);
            std::swap(d.rs, d.cs);
        }
        break;
    }
    }
    return d;
}

// A matrix as CLBlast's row-major routines take it: the stored matrix is op^-1 of the view.
struct blas_matrix {
    Transpose t = Transpose::kNo;
    std::size_t ld = 1;
};

// Row-major with unit column stride: as stored (ld = row stride). Unit row stride: the transpose
// of a row-major matrix (ld = column stride). Extent-1 axes take any stride.
bool as_blas(const matrix_desc& d, blas_matrix& m) {
    if (!d.ok) return false;
    const auto at_least = [](std::ptrdiff_t s, std::size_t n) {
        return s >= 1 && static_cast<std::size_t>(s) >= std::max<std::size_t>(n, 1);
    };
    if ((d.cols == 1 || d.cs == 1) && (d.rows == 1 || at_least(d.rs, d.cols))) {
        m = {Transpose::kNo,
             d.rows == 1 ? std::max<std::size_t>(d.cols, 1) : static_cast<std::size_t>(d.rs)};
        return true;
    }
    if ((d.rows == 1 || d.rs == 1) && (d.cols == 1 || at_least(d.cs, d.rows))) {
        m = {Transpose::kYes,
             d.cols == 1 ? std::max<std::size_t>(d.rows, 1) : static_cast<std::size_t>(d.cs)};
        return true;
    }
    return false;
}

// The description of o, after copying it once into a contiguous temporary when the view has no
// description CLBlast takes.
matrix_desc prepare(operand& o, view_as how, const queue& q, blas_matrix& m) {
    matrix_desc d = describe(o, how);
    if (as_blas(d, m)) return d;
    o.make_contiguous(q);
    d = describe(o, how);
    if (!as_blas(d, m)) throw error("linalg: internal error, a contiguous copy has no BLAS layout");
    return d;
}

Transpose flip(Transpose t) {
    return t == Transpose::kNo ? Transpose::kYes : Transpose::kNo;
}

// What a product must wait for: the operands' use records (reads of a and b, a write of out).
wait_list product_dependencies(const char* routine, const queue& q,
                               const std::vector<allocation*>& reads, allocation* out) {
    for (allocation* a : reads)
        a->check_not_mapped(access::read, routine);
    out->check_not_mapped(access::write, routine);
    wait_list deps;
    for (allocation* a : reads)
        a->add_dependencies(q, access::read, deps);
    out->add_dependencies(q, access::write, deps);
    return deps;
}

void record_product(const queue& q, const std::vector<allocation*>& reads, allocation* out,
                    const event& ev) {
    for (allocation* a : reads)
        a->record(q, access::read, ev);
    out->record(q, access::write, ev);
}

// Runs one CLBlast call in the operands' event order: the queue first waits (a barrier) for what
// the operands' use records require, then the routine's event is recorded on every operand.
template <class Call>
void enqueue_blas(const char* routine, const queue& q, const std::vector<allocation*>& reads,
                  allocation* out, Call call) {
    const wait_list deps = product_dependencies(routine, q, reads, out);
    if (deps.size()) q.enqueue_barrier(deps); // CLBlast takes no wait list
    cl_command_queue raw = q.get();
    cl_event done = nullptr;
    const StatusCode s = call(&raw, &done);
    const event ev(done);
    check_blas(static_cast<int>(s), routine);
    if (!ev.get()) throw error(std::string(routine) + ": CLBlast returned no event");
    // On an in-order queue the routine's last event follows all of its commands.
    record_product(q, reads, out, ev);
}

// Runs one host BLAS product (host_blas.hpp) as a native kernel in the operands' event order.
template <class T>
void enqueue_host(const queue& q, const std::vector<allocation*>& reads, allocation* out,
                  const host_product& p) {
    const wait_list deps = product_dependencies("host BLAS product", q, reads, out);
    record_product(q, reads, out, enqueue_host_product<T>(q, p, deps));
}

// The element at `offset` of an SVM allocation, for the host BLAS.
template <class T> T* svm_element(allocation* a, std::ptrdiff_t offset) {
    return static_cast<T*>(a->svm_pointer()) + offset;
}

template <class T> struct blas_names;
#define CLARRAY_BLAS_NAMES(T, NAME)                                                                \
    template <> struct blas_names<T> {                                                             \
        static constexpr const char* dot = "clblast::Dot<" NAME ">";                               \
        static constexpr const char* dotc = "clblast::Dotc<" NAME ">";                             \
        static constexpr const char* gemv = "clblast::Gemv<" NAME ">";                             \
        static constexpr const char* gemm = "clblast::Gemm<" NAME ">";                             \
        static constexpr const char* strided = "clblast::GemmStridedBatched<" NAME ">";            \
    };
CLARRAY_BLAS_NAMES(float, "float")
CLARRAY_BLAS_NAMES(double, "double")
CLARRAY_BLAS_NAMES(std::complex<float>, "complex64")
CLARRAY_BLAS_NAMES(std::complex<double>, "complex128")
#undef CLARRAY_BLAS_NAMES

template <class T> inline constexpr bool is_complex_v = false;
template <class T> inline constexpr bool is_complex_v<std::complex<T>> = true;

// x . y (complex: Dotu, or Dotc with x conjugated when conj_x).
template <class T>
StatusCode dot_call(bool conj_x, std::size_t n, cl_mem r, std::size_t ro, cl_mem x, std::size_t xo,
                    std::size_t xi, cl_mem y, std::size_t yo, std::size_t yi, cl_command_queue* cq,
                    cl_event* ev) {
    if constexpr (is_complex_v<T>) {
        if (conj_x) return clblast::Dotc<T>(n, r, ro, x, xo, xi, y, yo, yi, cq, ev);
        return clblast::Dotu<T>(n, r, ro, x, xo, xi, y, yo, yi, cq, ev);
    } else {
        (void)conj_x;
        return clblast::Dot<T>(n, r, ro, x, xo, xi, y, yo, yi, cq, ev);
    }
}

// One group of a product's batch: the element offsets of the first matrices of a, b and c, and
// the count and strides along the last batch axis.
struct batch_group {
    std::ptrdiff_t a, b, c;
    std::size_t count;
    std::ptrdiff_t stride_a, stride_b, stride_c;
};

// Calls f(group) for each index of the batch axes before the last, in C order, after coalescing
// the batch axes (shape `batch`, element strides sa, sb, sc; first offsets oa, ob, oc).
template <class F>
void for_each_batch_group(shape_type batch, strides_type sa, strides_type sb, strides_type sc,
                          std::ptrdiff_t oa, std::ptrdiff_t ob, std::ptrdiff_t oc, F&& f) {
    coalesce(batch, {&sa, &sb, &sc});
    const std::size_t last = batch.size() - 1, count = checked_size(batch);
    batch_group g{oa, ob, oc, batch[last], sa[last], sb[last], sc[last]};
    std::vector<std::size_t> idx(last, 0);
    for (std::size_t done = 0; done < count; done += g.count) {
        f(static_cast<const batch_group&>(g));
        for (std::size_t k = last; k-- > 0;) { // the next index of the outer axes
            g.a += sa[k], g.b += sb[k], g.c += sc[k];
            if (++idx[k] < batch[k]) break;
            g.a -= sa[k] * static_cast<std::ptrdiff_t>(batch[k]);
            g.b -= sb[k] * static_cast<std::ptrdiff_t>(batch[k]);
            g.c -= sc[k] * static_cast<std::ptrdiff_t>(batch[k]);
            idx[k] = 0;
        }
    }
}

// out (C-contiguous, batch + (M, N)) = A @ B over the broadcast batch axes.
template <class T>
void run_product(const queue& q, const array_ref& out, operand& a, view_as how_a, operand& b,
                 view_as how_b, bool conj_a = false) {
    using names = blas_names<T>;
    blas_matrix la, lb;
    // A K of 0 needs no operand: the products are all 0.
    const std::size_t k = how_a == view_as::col_of_flat   ? 1
                          : how_a == view_as::row_of_flat ? checked_size(a.shape)
                                                          : a.shape.back();
    if (k == 0) {
        const T zero = 0;
        strided_fill(out, &zero);
        return;
    }
    const matrix_desc A = prepare(a, how_a, q, la);
    const matrix_desc B = prepare(b, how_b, q, lb);
    const std::size_t M = A.rows, K = A.cols, N = B.cols;
    shape_type batch = broadcast_shapes(A.batch, B.batch);
    strides_type sa = broadcast_strides(A.batch, A.bstrides, batch);
    strides_type sb = broadcast_strides(B.batch, B.bstrides, batch);
    strides_type sc(batch.size(), 0);
    {
        std::ptrdiff_t step = static_cast<std::ptrdiff_t>(M * N);
        for (std::size_t i = batch.size(); i-- > 0;) {
            sc[i] = step;
            step *= static_cast<std::ptrdiff_t>(batch[i]);
        }
    }
    const std::size_t count = checked_size(batch);
    const std::vector<allocation*> reads{a.alloc, b.alloc};
    const cl_mem ma = a.mem(), mb = b.mem(), mc = out.alloc->as_buffer();
    const std::size_t oa = static_cast<std::size_t>(a.offset),
                      ob = static_cast<std::size_t>(b.offset),
                      oc = static_cast<std::size_t>(out.offset);
    const auto layout = clblast::Layout::kRowMajor;

    if (host_blas_serves(q, {a.kind, b.kind, out.kind})) {
        // One GEMM per batch (gemv's and dot's shapes too, but inner products), on the SVM
        // memory itself; BLAS's beta = 0 never reads C, so C needs no zeroing.
        host_product p;
        p.m = M, p.n = N, p.k = K;
        if (count == 1 && M == 1 && N == 1) {
            p.what = is_complex_v<T> && conj_a ? host_product::kind::dotc : host_product::kind::dot;
            p.inc_a = K == 1 ? 1 : A.cs;
            p.inc_b = K == 1 ? 1 : B.rs;
        }
        p.trans_a = la.t == Transpose::kYes, p.trans_b = lb.t == Transpose::kYes;
        p.lda = la.ld, p.ldb = lb.ld, p.ldc = N;
        if (count == 1) {
            p.a = svm_element<T>(a.alloc, a.offset), p.b = svm_element<T>(b.alloc, b.offset);
            p.c = svm_element<T>(out.alloc, out.offset);
            return enqueue_host<T>(q, reads, out.alloc, p);
        }
        // Batches: one call per group, looping over its matrices (any stride: the pointers step
        // by it).
        for_each_batch_group(batch, sa, sb, sc, a.offset, b.offset, out.offset,
                             [&](const batch_group& g) {
                                 p.a = svm_element<T>(a.alloc, g.a);
                                 p.b = svm_element<T>(b.alloc, g.b);
                                 p.c = svm_element<T>(out.alloc, g.c);
                                 p.count = g.count;
                                 p.stride_a = g.stride_a, p.stride_b = g.stride_b;
                                 p.stride_c = g.stride_c;
                                 enqueue_host<T>(q, reads, out.alloc, p);
                             });
        return;
    }

    if (count == 1 && M == 1 && N == 1) { // an inner product
        const std::size_t ix = K == 1 ? 1 : static_cast<std::size_t>(A.cs);
        const std::size_t iy = K == 1 ? 1 : static_cast<std::size_t>(B.rs);
        const char* routine = is_complex_v<T> && conj_a ? names::dotc : names::dot;
        enqueue_blas(routine, q, reads, out.alloc, [&](cl_command_queue* cq, cl_event* ev) {
            return dot_call<T>(conj_a, K, mc, oc, ma, oa, ix, mb, ob, iy, cq, ev);
        });
        return;
    }
    // CLBlast computes alpha * AB + beta * C and reads C even when beta is 0: a NaN left in a
    // reused block would survive (0 * NaN), so C starts at 0 (Dot writes its result outright).
    {
        const T zero = 0;
        strided_fill(out, &zero);
    }
    if (count == 1 && N == 1) { // matrix . column vector
        const std::size_t ix = K == 1 ? 1 : static_cast<std::size_t>(B.rs);
        const std::size_t m = la.t == Transpose::kNo ? M : K, n = la.t == Transpose::kNo ? K : M;
        enqueue_blas(names::gemv, q, reads, out.alloc, [&](cl_command_queue* cq, cl_event* ev) {
            return clblast::Gemv<T>(layout, la.t, m, n, T(1), ma, oa, la.ld, mb, ob, ix, T(0), mc,
                                    oc, 1, cq, ev);
        });
        return;
    }
    if (count == 1 && M == 1) { // row vector . matrix = the matrix transposed . vector
        const std::size_t ix = K == 1 ? 1 : static_cast<std::size_t>(A.cs);
        const std::size_t m = lb.t == Transpose::kNo ? K : N, n = lb.t == Transpose::kNo ? N : K;
        enqueue_blas(names::gemv, q, reads, out.alloc, [&](cl_command_queue* cq, cl_event* ev) {
            return clblast::Gemv<T>(layout, flip(lb.t), m, n, T(1), mb, ob, lb.ld, ma, oa, ix, T(0),
                                    mc, oc, 1, cq, ev);
        });
        return;
    }
    if (count == 1) {
        enqueue_blas(names::gemm, q, reads, out.alloc, [&](cl_command_queue* cq, cl_event* ev) {
            return clblast::Gemm<T>(layout, la.t, lb.t, M, N, K, T(1), ma, oa, la.ld, mb, ob, lb.ld,
                                    T(0), mc, oc, N, cq, ev);
        });
        return;
    }
    // Batches: GemmStridedBatched over the last batch axis left after coalescing (one call when
    // it is the only one), once per index of the others. Not GemmBatched: it copies its offset
    // lists with blocking writes, which would wait for the queue. A negative stride on the last
    // axis (reversed stacks) takes one Gemm per matrix.
    for_each_batch_group(
        batch, sa, sb, sc, a.offset, b.offset, out.offset, [&](const batch_group& g) {
            const auto at = [](std::ptrdiff_t offset) { return static_cast<std::size_t>(offset); };
            if (g.stride_a >= 0 && g.stride_b >= 0) {
                enqueue_blas(names::strided, q, reads, out.alloc,
                             [&](cl_command_queue* cq, cl_event* ev) {
                                 return clblast::GemmStridedBatched<T>(
                                     layout, la.t, lb.t, M, N, K, T(1), ma, at(g.a), la.ld,
                                     at(g.stride_a), mb, at(g.b), lb.ld, at(g.stride_b), T(0), mc,
                                     at(g.c), N, at(g.stride_c), g.count, cq, ev);
                             });
                return;
            }
            for (std::size_t i = 0; i < g.count; ++i) {
                const auto d = static_cast<std::ptrdiff_t>(i);
                const std::size_t xa = at(g.a + d * g.stride_a), xb = at(g.b + d * g.stride_b),
                                  xc = at(g.c + d * g.stride_c);
                enqueue_blas(
                    names::gemm, q, reads, out.alloc, [&](cl_command_queue* cq, cl_event* ev) {
                        return clblast::Gemm<T>(layout, la.t, lb.t, M, N, K, T(1), ma, xa, la.ld,
                                                mb, xb, lb.ld, T(0), mc, xc, N, cq, ev);
                    });
            }
        });
}

template <class T>
void product_t(product_kind kind, const array_ref& out, const array_ref& ra, const array_ref& rb) {
    const queue& q = *out.q;
    if (checked_size(*out.shape) == 0) return;
    operand a(ra), b(rb);
    const std::size_t rank_a = a.shape.size(), rank_b = b.shape.size();
    switch (kind) {
    case product_kind::matmul:
    case product_kind::dot:
        return run_product<T>(q, out, a, rank_a == 1 ? view_as::row_of_flat : view_as::last_two, b,
                              rank_b == 1 ? view_as::col_of_flat : view_as::last_two);
    case product_kind::vdot:
        return run_product<T>(q, out, a, view_as::row_of_flat, b, view_as::col_of_flat, true);
    case product_kind::inner:
        return run_product<T>(q, out, a, view_as::lead_rows, b, view_as::lead_rows_t);
    case product_kind::outer:
        break;
    }
    // outer: a column of M times a row of N, K = 1.
    return run_product<T>(q, out, a, view_as::col_of_flat, b, view_as::row_of_flat);
}

// Complex products: CLBlast's routines take std::complex. Written so that a build without
// complex dtypes (types/dtype.hpp) still compiles: then it returns false.
template <class C>
bool product_if(product_kind kind, const array_ref& out, const array_ref& a, const array_ref& b) {
    if constexpr (is_dtype_v<C>) {
        if (out.type == dtype_traits<C>::id) {
            product_t<C>(kind, out, a, b);
            return true;
        }
    }
    (void)kind, (void)out, (void)a, (void)b;
    return false;
}

[[noreturn]] void mismatch(product_kind kind, const array_ref& a, const array_ref& b,
                           const std::string& why) {
    throw shape_error(std::string(name_of(kind)) + ": shapes " + shape_to_string(*a.shape) +
                      " and " + shape_to_string(*b.shape) + " " + why);
}

} // namespace

void check_blas(int status, const char* routine) {
    const auto s = static_cast<StatusCode>(status);
    if (s == StatusCode::kSuccess) return;
    const char* name = status_name(s);
    const std::string what =
        std::string(routine) + ": " + (name ? name : "status " + std::to_string(status));
    switch (s) {
    case StatusCode::kNoDoublePrecision:
    case StatusCode::kNoHalfPrecision:
    case StatusCode::kNotImplemented:
    case StatusCode::kOpenCLCompilerNotAvailable:
        throw unsupported(what);
    case StatusCode::kTempBufferAllocFailure:
    case StatusCode::kOpenCLOutOfHostMemory:
    case StatusCode::kOpenCLOutOfResources:
        throw out_of_memory(what);
    default:
        break;
    }
    if (status > -1000) throw cl_error(status, routine); // an OpenCL code
    if (status > -2048 || s == StatusCode::kInvalidLocalMemUsage ||
        s == StatusCode::kInvalidBatchCount || s == StatusCode::kInsufficientMemoryTemp ||
        s == StatusCode::kInvalidVectorScalar || s == StatusCode::kInsufficientMemoryScalar)
        throw usage_error(what); // an argument CLBlast rejects
    throw error(what);
}

shape_type product_shape(product_kind kind, const array_ref& a, const array_ref& b) {
    const char* name = name_of(kind);
    if (!a.q || !b.q)
        throw usage_error(std::string(name) + ": unbound (default-constructed) operand");
    if (a.q->context() != b.q->context())
        throw usage_error(std::string(name) + ": operands from two contexts");
    if (a.q->is_out_of_order())
        throw unsupported(std::string(name) +
                          ": CLBlast needs an in-order queue (its routines enqueue several "
                          "commands without events between them)");
    const char* ext = required_extension(a.type);
    if (ext && std::string(ext) == "cl_khr_fp64" && !a.q->context().device().has_fp64())
        throw unsupported(std::string(name) + ": " + dtype_name(a.type) +
                          " needs cl_khr_fp64, which device '" + a.q->context().device().name() +
                          "' lacks");
    const shape_type& sa = *a.shape;
    const shape_type& sb = *b.shape;
    const std::size_t ra = sa.size(), rb = sb.size();
    switch (kind) {
    case product_kind::vdot:
        if (checked_size(sa) != checked_size(sb))
            mismatch(kind, a, b, "have different element counts");
        return {};
    case product_kind::outer:
        return {checked_size(sa), checked_size(sb)};
    case product_kind::inner: {
        if (ra == 0 || rb == 0) mismatch(kind, a, b, "include a 0-d operand");
        if (sa[ra - 1] != sb[rb - 1]) mismatch(kind, a, b, "differ in the last axis");
        shape_type r(sa.begin(), sa.end() - 1);
        for (std::size_t i = 0; i + 1 < rb; ++i)
            r.push_back(sb[i]);
        return r;
    }
    case product_kind::dot:
        if (ra > 2 || rb > 2)
            mismatch(kind, a, b,
                     "include an operand of rank > 2 (dot takes 1-d and 2-d operands; "
                     "use matmul or inner)");
        break;
    case product_kind::matmul:
        break;
    }
    if (ra == 0 || rb == 0) mismatch(kind, a, b, "include a 0-d operand");
    const std::size_t ka = sa[ra - 1], kb = rb == 1 ? sb[0] : sb[rb - 2];
    if (ka != kb)
        mismatch(kind, a, b,
                 "do not fit: the last axis of the first (" + std::to_string(ka) +
                     ") differs from the " + (rb == 1 ? "only" : "second-to-last") +
                     " axis of the second (" + std::to_string(kb) + ")");
    shape_type batch;
    try {
        batch = broadcast_shapes(ra > 2 ? shape_type(sa.begin(), sa.end() - 2) : shape_type{},
                                 rb > 2 ? shape_type(sb.begin(), sb.end() - 2) : shape_type{});
    } catch (const shape_error&) {
        mismatch(kind, a, b, "have batch axes that do not broadcast");
    }
    if (ra >= 2) batch.push_back(sa[ra - 2]);
    if (rb >= 2) batch.push_back(sb[rb - 1]);
    return batch;
}

void product(product_kind kind, const array_ref& out, const array_ref& a, const array_ref& b) {
    switch (out.type) {
    case dtype::float32:
        return product_t<float>(kind, out, a, b);
    case dtype::float64:
        return product_t<double>(kind, out, a, b);
    default:
        break;
    }
    if (product_if<std::complex<float>>(kind, out, a, b) ||
        product_if<std::complex<double>>(kind, out, a, b))
        return;
    throw dtype_error(std::string(name_of(kind)) + ": no CLBlast routine for dtype " +
                      dtype_name(out.type));
}

namespace {
std::string axes_to_string(const std::vector<std::ptrdiff_t>& axes) {
    std::string s = "[";
    for (std::size_t i = 0; i < axes.size(); ++i)
        s += (i ? ", " : "") + std::to_string(axes[i]);
    return s + "]";
}
} // namespace

tensordot_plan plan_tensordot(const shape_type& a, const shape_type& b,
                              const std::vector<std::ptrdiff_t>& axes_a,
                              const std::vector<std::ptrdiff_t>& axes_b) {
    const std::string where = "tensordot of shapes " + shape_to_string(a) + " and " +
                              shape_to_string(b) + " over axes " + axes_to_string(axes_a) +
                              " and " + axes_to_string(axes_b);
    if (axes_a.size() != axes_b.size())
        throw usage_error(where + ": the two axis lists differ in length");
    // Normalised axes, each used once (NumPy: "repeated axis").
    auto normalise = [&](const std::vector<std::ptrdiff_t>& axes, std::size_t rank) {
        std::vector<std::size_t> out;
        std::vector<bool> used(rank, false);
        for (std::ptrdiff_t ax : axes) {
            const auto r = static_cast<std::ptrdiff_t>(rank);
            if (ax < -r || ax >= r)
                throw index_error(where + ": axis " + std::to_string(ax) +
                                  " is out of bounds for rank " + std::to_string(rank));
            const auto k = static_cast<std::size_t>(ax < 0 ? ax + r : ax);
            if (used[k]) throw usage_error(where + ": repeated axis " + std::to_string(ax));
            used[k] = true;
            out.push_back(k);
        }
        return out;
    };
    const std::vector<std::size_t> sum_a = normalise(axes_a, a.size()),
                                   sum_b = normalise(axes_b, b.size());
    std::size_t summed = 1;
    for (std::size_t i = 0; i < sum_a.size(); ++i) {
        if (a[sum_a[i]] != b[sum_b[i]])
            throw shape_error(where + ": extents " + std::to_string(a[sum_a[i]]) + " and " +
                              std::to_string(b[sum_b[i]]) + " of summed axes differ");
        summed *= a[sum_a[i]];
    }
    tensordot_plan plan;
    std::size_t free_a = 1, free_b = 1;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (std::find(sum_a.begin(), sum_a.end(), k) == sum_a.end()) {
            plan.order_a.push_back(k);
            plan.result.push_back(a[k]);
            free_a *= a[k];
        }
    plan.order_a.insert(plan.order_a.end(), sum_a.begin(), sum_a.end());
    plan.order_b = sum_b;
    for (std::size_t k = 0; k < b.size(); ++k)
        if (std::find(sum_b.begin(), sum_b.end(), k) == sum_b.end()) {
            plan.order_b.push_back(k);
            plan.result.push_back(b[k]);
            free_b *= b[k];
        }
    plan.matrix_a = {free_a, summed};
    plan.matrix_b = {summed, free_b};
    return plan;
}

tensordot_plan plan_tensordot(const shape_type& a, const shape_type& b, std::size_t n) {
    if (n > a.size() || n > b.size())
        throw shape_error("tensordot of shapes " + shape_to_string(a) + " and " +
                          shape_to_string(b) + ": cannot sum over " + std::to_string(n) +
                          " axes of each");
    std::vector<std::ptrdiff_t> axes_a, axes_b;
    for (std::size_t i = 0; i < n; ++i) {
        axes_a.push_back(static_cast<std::ptrdiff_t>(a.size() - n + i));
        axes_b.push_back(static_cast<std::ptrdiff_t>(i));
    }
    return plan_tensordot(a, b, axes_a, axes_b);
}

} // namespace clarray::detail
