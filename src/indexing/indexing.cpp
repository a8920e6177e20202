#include "clarray/indexing/indexing.hpp"

#include <string>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/device_checks.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/allocation.hpp"
#include "clarray/storage/policies.hpp"
#include "clarray/types/shared_struct.hpp"

namespace clarray::detail {

extern const char* const kernel_source_indexing;

namespace {

constexpr std::size_t index_operands = 3;

// The layout of kernels/indexing.cl: the launch's facts, then three strided views (rank,
// offset, shape and strides, max_dims words per operand).
#define CLARRAY_INDEX_LAYOUT_FIELDS(F)                                                             \
    F(cl_ulong, n, 0)                                                                              \
    F(cl_ulong, inner, 0)                                                                          \
    F(cl_long, axis_len, 0)                                                                        \
    F(cl_long, axis_stride, 0)                                                                     \
    F(cl_ulong, flat_target, 0)                                                                    \
    F(cl_ulong, mode, 0)                                                                           \
    F(cl_ulong, cycle, 0)                                                                          \
    F(cl_ulong, count, 0)                                                                          \
    F(cl_ulong, rank, index_operands)                                                              \
    F(cl_long, offset, index_operands)                                                             \
    F(cl_ulong, shape, index_operands* ::clarray::max_dims)                                        \
    F(cl_long, strides, index_operands* ::clarray::max_dims)
CLARRAY_SHARED_STRUCT(index_layout, CLARRAY_INDEX_LAYOUT_FIELDS);

void set_view(index_layout& L, std::size_t j, shape_type shape, strides_type strides,
              std::ptrdiff_t offset, bool merge = true) {
    // Merging axes keeps the C-order position of every element, and spares the kernel divisions.
    if (merge) coalesce(shape, {&strides});
    L.rank[j] = shape.size();
    L.offset[j] = offset;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        L.shape[j * max_dims + k] = shape[k];
        L.strides[j * max_dims + k] = strides[k];
    }
}
void set_view(index_layout& L, std::size_t j, const array_ref& a) {
    set_view(L, j, *a.shape, *a.strides, a.offset);
}

struct index_program_tag {};
struct index_kernel_tag {};

enum class which : unsigned { scatter, compact, nonzero };
const char* kernel_name(which w) {
    return w == which::scatter ? "clarray_scatter"
                               : (w == which::compact ? "clarray_compact" : "clarray_nonzero");
}

// ATOMIC of kernels/indexing.cl: 1 32-bit integer, 2 64-bit integer, 3 float, 4 double,
// 5 complex64, 6 complex128 (one float/double atomic add per part); 7 8- or 16-bit integer,
// 8 bool, 9 float16 (a compare-exchange of the 32-bit word around the element).
unsigned atomic_kind(dtype t) {
    if (t == dtype::bool_) return 8;
    if (t == dtype::float16) return 9;
    if (dtype_size(t) < 4) return 7;
    if (t == dtype::complex64) return 5;
    if (t == dtype::complex128) return 6;
    if (dtype_kind_of(t) == dtype_kind::floating) return dtype_size(t) == 4 ? 3 : 4;
    return dtype_size(t) == 4 ? 1 : 2;
}
// Whether add_at on t needs 64-bit atomics (compare-exchange on 64-bit words).
bool needs_int64_atomics(dtype t) {
    const unsigned k = atomic_kind(t);
    return k == 2 || k == 4 || k == 6;
}
// The kernels' element type: float16 only moves (put, compress), as its 16 bits (a half value
// needs cl_khr_fp16; add_at refuses float16 at compile time).
const char* moved_type_name(dtype t) {
    return is_half_storage(t) ? "ushort" : cl_type_name(t);
}

kernel index_kernel(const context& ctx, which w, dtype t, dtype i, bool add) {
    const std::uint64_t program_sig = static_cast<std::uint64_t>(t) |
                                      static_cast<std::uint64_t>(i) << 8 |
                                      static_cast<std::uint64_t>(add) << 16;
    return cached_kernel(
        ctx, {&type_tag<index_kernel_tag>::id, program_sig << 4 | static_cast<unsigned>(w)},
        kernel_name(w), [&] {
            const std::string what =
                std::string(add ? "add_at" : "indexing") + " on " + dtype_name(t);
            extension_set needs;
            needs.add(t);
            if (add && needs_int64_atomics(t)) needs.add("cl_khr_int64_base_atomics");
            require_extensions(ctx, needs, what);
            return cached_program(ctx, {&type_tag<index_program_tag>::id, program_sig}, [&] {
                std::string source = needs.pragmas();
                source += index_layout::cl_declaration();
                source += kernel_source_indexing;
                std::string options = std::string("-DT=") + moved_type_name(t) +
                                      " -DI=" + cl_type_name(i) + " -DADD=" + (add ? "1" : "0") +
                                      " -DATOMIC=" + std::to_string(add ? atomic_kind(t) : 0) +
                                      " -DMAX_DIMS=" + std::to_string(max_dims) +
                                      " -DPTX_FLOAT_ATOMICS=" +
                                      (ctx.device().quirks().ptx_float_atomics ? "1" : "0");
                return program_source{std::move(source), std::move(options)};
            });
        });
}

launch_arg mem(const array_ref& a, access acc) noexcept {
    return memory_arg(a.kind, a.alloc, acc);
}

event launch_n(const queue& q, const kernel& k, std::size_t n, const launch_arg* args,
               std::size_t count, const char* what) {
    const std::size_t g = elementwise_group_size(q.context().device());
    const ndrange global{round_up(n, g)}, local{g};
    return launch(q, k, global, &local, args, count, {}, what);
}

} // namespace

namespace {
// "take: an index is out of range for axis 0 with size 5 (indices must lie in [-5, 5))".
std::string index_range_message(const device_check_site& site) {
    const std::string n = std::to_string(site.extent);
    return std::string(site.what) + ": an index is out of range for " +
           (site.axis >= 0 ? "axis " + std::to_string(site.axis) + " with size " + n
                           : "an array of size " + n) +
           " (indices must lie in [-" + n + ", " + n + "))";
}
void raise_index_error(const std::string& message) {
    throw index_error(message);
}
} // namespace

const device_check_kind index_range_check = {index_range_message, raise_index_error,
                                             "out-of-range indexing operation"};

void throw_index_range(const char* what, std::size_t extent, std::optional<std::size_t> axis) {
    throw index_error(index_range_message(check_site(what, extent, axis)));
}

namespace {
// Whether the 32-bit words around a's elements lie inside its allocation: the compare-exchange
// of a narrow add_at (kernels/indexing.cl) reads and writes the whole aligned word. The start of
// clarray's own memory is aligned (the driver's allocations); foreign memory may not be, and the
// last word of a block whose size is not a multiple of 4 sticks out.
bool words_inside(const array_ref& a) {
    if (a.alloc->is_foreign()) return false;
    std::ptrdiff_t last = a.offset;
    for (std::size_t d = 0; d < a.shape->size(); ++d)
        if ((*a.strides)[d] > 0)
            last += static_cast<std::ptrdiff_t>((*a.shape)[d] - 1) * (*a.strides)[d];
    const std::size_t last_byte = static_cast<std::size_t>(last + 1) * a.elem_size() - 1;
    return (last_byte | 3) < a.alloc->block_bytes();
}
} // namespace

void scatter(const array_ref& a, const array_ref& idx, const array_ref& values, index_mode mode,
             bool flat, bool add, const char* what) {
    const queue& q = *a.q;
    if (add && a.elem_size() < 4 && checked_size(*a.shape) > 0 && checked_size(*idx.shape) > 0 &&
        !words_inside(a)) {
        // Into a C-ordered copy whose words all lie inside its memory (a size rounded up to a
        // multiple of 4 bytes), then back.
        const std::size_t bytes = round_up(checked_size(*a.shape) * a.elem_size(), 4);
        const std::shared_ptr<allocation> memory = make_allocation_like(q, a.kind, bytes, a.alloc);
        const strides_type c_strides = contiguous_strides(*a.shape, layout::c);
        array_ref t = a;
        t.alloc = memory.get();
        t.strides = &c_strides;
        t.offset = 0;
        strided_copy(t, a);
        scatter(t, idx, values, mode, flat, add, what);
        strided_copy(a, t);
        return;
    }
    index_layout L;
    const std::size_t rows = checked_size(*idx.shape);
    if (flat) {
        L.inner = 1;
        L.flat_target = 1;
        L.axis_len = static_cast<cl_long>(checked_size(*a.shape));
        // values repeat only when shorter than the indices
        const std::size_t nv = checked_size(*values.shape);
        L.cycle = nv < rows ? nv : 0;
        set_view(L, 0, a);
    } else {
        const shape_type rest(a.shape->begin() + 1, a.shape->end());
        const strides_type rest_strides(a.strides->begin() + 1, a.strides->end());
        L.inner = checked_size(rest);
        L.axis_len = static_cast<cl_long>((*a.shape)[0]);
        L.axis_stride = (*a.strides)[0];
        set_view(L, 0, rest, rest_strides, a.offset);
    }
    L.n = rows * L.inner;
    if (L.n == 0) return;
    L.mode = static_cast<cl_ulong>(mode);
    set_view(L, 1, idx);
    set_view(L, 2, values);
    kernel k = index_kernel(q.context(), which::scatter, a.type, idx.type, add);
    // raise: the check's flag word (runtime/device_checks.hpp), given back if the launch fails.
    device_check_reservation check = mode == index_mode::raise
                                         ? device_check_reservation(q.context())
                                         : device_check_reservation();
    const launch_arg args[] = {mem(a, add ? access::read_write : access::write),
                               mem(idx, access::read),
                               mem(values, access::read),
                               launch_arg::layout(&L, sizeof L, true),
                               check.flag_argument(),
                               check.word_argument()};
    const event launched = launch_n(q, k, L.n, args, 6, what);
    const std::size_t extent = static_cast<std::size_t>(L.axis_len);
    check.arm(launched,
              check_site(what, extent, flat ? std::nullopt : std::optional<std::size_t>(0)));
}

void compact(const array_ref& out, const array_ref& a, const array_ref& pos, std::size_t n) {
    const queue& q = *a.q;
    index_layout L;
    L.n = n;
    set_view(L, 0, a);
    kernel k = index_kernel(q.context(), which::compact, a.type, dtype::int64, false);
    const launch_arg args[] = {mem(out, access::write), mem(a, access::read),
                               mem(pos, access::read), launch_arg::layout(&L, sizeof L, true)};
    launch_n(q, k, n, args, 4, "compress");
}

void nonzero_coordinates(const array_ref& out, const shape_type& shape, const array_ref& pos,
                         std::size_t count) {
    const queue& q = *out.q;
    index_layout L;
    L.n = checked_size(shape);
    L.count = count;
    set_view(L, 0, shape, strides_type(shape.size(), 0), 0, false); // the coordinates' axes
    kernel k = index_kernel(q.context(), which::nonzero, dtype::int64, dtype::int64, false);
    const launch_arg args[] = {mem(out, access::write), mem(pos, access::read),
                               launch_arg::layout(&L, sizeof L, true)};
    launch_n(q, k, L.n, args, 3, "nonzero");
}

} // namespace clarray::detail
