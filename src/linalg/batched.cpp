#include "batched.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/error.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/shape/layout.hpp"
#include "clarray/storage/allocation.hpp"
#include "clarray/storage/policies.hpp"

namespace clarray::detail {

extern const char* const kernel_source_linalg_batched;

namespace batched {

namespace {

struct program_tag {};
struct kernel_tag {}; // (a key of its own: the kernel's build takes the program's entry)

// The kernel for dtype t with local arrays of side nmax (8, 16 or 32).
kernel solve_kernel(const context& ctx, dtype t, std::size_t nmax) {
    const std::uint64_t sig = static_cast<std::uint64_t>(t) | std::uint64_t(nmax) << 8;
    return cached_kernel(ctx, {&type_tag<kernel_tag>::id, sig}, "batched_solve", [&] {
        return cached_program(ctx, {&type_tag<program_tag>::id, sig}, [&] {
            const char* ext = required_extension(t);
            std::string src =
                ext ? std::string("#pragma OPENCL EXTENSION ") + ext + " : enable\n" : "";
            src += kernel_source_linalg_batched;
            return program_source{std::move(src), std::string("-DT=") + cl_type_name(t) +
                                                      " -DNMAX=" + std::to_string(nmax)};
        });
    });
}

// `from` broadcast to `shape` in a C-contiguous library temporary; null where `from` already is
// that (its own allocation serves).
std::shared_ptr<allocation> contiguous(const array_ref& from, const shape_type& shape) {
    if (*from.shape == shape && from.offset == 0 && is_c_contiguous(shape, *from.strides))
        return nullptr;
    return contiguous_temporary(from, shape);
}

} // namespace

bool applies(const queue& q, dtype t, std::size_t n, std::size_t k, std::size_t count) {
    if (count >= (std::size_t(1) << 31)) return false;
    const device& dev = q.context().device();
    if (dev.is_cpu()) return false;
    if (t != dtype::float32 && !(t == dtype::float64 && dev.has_fp64())) return false;
    return n >= 1 && n <= max_n && k >= 1 && k <= max_n;
}

std::size_t solve(const array_ref& a, const array_ref* b, const array_ref& x, std::size_t count,
                  std::size_t n, std::size_t k) {
    const queue& q = *x.q;
    const context& ctx = q.context();
    // The broadcast operands as whole stacks (x's shape: (batch..., n, k), or (batch..., n)
    // for a vector right-hand side, whose layout is the same as k = 1).
    shape_type a_shape = *x.shape;
    if (k == 1 && b && b->shape->size() == 1) a_shape.push_back(n);
    a_shape[a_shape.size() - 2] = n;
    a_shape.back() = n;
    const auto ta = contiguous(a, a_shape);
    std::shared_ptr<allocation> tb;
    if (b) tb = contiguous(*b, *x.shape);
    allocation* a_alloc = ta ? ta.get() : a.alloc;
    allocation* b_alloc = !b ? a_alloc : tb ? tb.get() : b->alloc; // (unread for the identity)
    const cl_int none = static_cast<cl_int>(count);
    auto first = make_temporary_like(q, x.kind, sizeof(cl_int), x.alloc);
    const shape_type one{1};
    const strides_type unit{1};
    const array_ref first_ref{&q, first.get(), x.kind, dtype::int32, &one, &unit, 0};
    strided_fill(first_ref, &none);

    const std::size_t side = std::max(n, k), nmax = side <= 8 ? 8 : side <= 16 ? 16 : 32;
    const kernel kern = solve_kernel(ctx, x.type, nmax);
    const cl_uint un = static_cast<cl_uint>(n), uk = static_cast<cl_uint>(k), identity = b ? 0 : 1;
    // A group per matrix, of more work-items the larger the systems: the trailing update of a
    // 32 x 32 system with 32 right-hand sides is up to 31 x 63 elements a step, and a compute
    // unit holds few groups of 16 KiB of local memory (float64, side 32).
    const std::size_t group = std::min<std::size_t>(nmax == 32   ? 128
                                                    : nmax == 16 ? 64
                                                                 : 32,
                                                    ctx.device().max_work_group_size());
    const launch_arg args[7] = {memory_arg(x.kind, a_alloc, access::read),
                                memory_arg(x.kind, b_alloc, access::read),
                                memory_arg(x.kind, x.alloc, access::write),
                                launch_arg::value(&un, sizeof un),
                                launch_arg::value(&uk, sizeof uk),
                                launch_arg::value(&identity, sizeof identity),
                                memory_arg(x.kind, first.get(), access::read_write)};
    const ndrange global{count * group}, local{group};
    launch(q, kern, global, &local, args, 7, {}, b ? "batched solve" : "batched inv");
    cl_int found = none;
    read_c_order(first_ref, &found);
    return found >= 0 && static_cast<std::size_t>(found) < count ? static_cast<std::size_t>(found)
                                                                 : count;
}

} // namespace batched
} // namespace clarray::detail
