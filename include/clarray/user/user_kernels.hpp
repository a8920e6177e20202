#pragma once
// Kernels from user strings, as PyOpenCL's ElementwiseKernel and ReductionKernel:
//
//   ca::elementwise_kernel axpy(ctx, "global float* z, float a, global const float* x",
//                               "z[i] = a * x[i] + z[i]");
//   axpy(q, z, 2.0f, x);                       // i runs over z.size()
//
//   ca::reduction_kernel<float> dot(ctx, 0.0f, "a + b", "x[i] * y[i]",
//                                   "global const float* x, global const float* y");
//   ca::cl_array<float> r = dot(q, x, y);      // 0-d, nothing blocks
//
// Arrays are bound at their first element and must be C-contiguous; the index range is the size
// of the first array argument. Argument access defaults to read_write (wrap with in()/out() for
// finer dependency tracking). reduce_expr combines `a` and `b` and must be associative and
// commutative; `i` is the element index (ulong).
#include <string>
#include <type_traits>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/array/cl_array.hpp"
#include "clarray/reduce/reducer.hpp"
#include "clarray/runtime/program.hpp"

namespace clarray {

namespace detail {
template <class A> struct user_array : std::false_type { using storage = void; };
template <class T, class S> struct user_array<cl_array<T, S>> : std::true_type {
    using storage = S;
    static const cl_array<T, S>& get(const cl_array<T, S>& a) { return a; }
};
template <class T, class S, access Acc, bool AtView>
struct user_array<array_arg<cl_array<T, S>, Acc, AtView>> : std::true_type {
    using storage = S;
    static const cl_array<T, S>& get(const array_arg<cl_array<T, S>, Acc, AtView>& a) {
        return a.array;
    }
};

// Size of the first array argument; every array argument must be C-contiguous.
template <class... Args> std::size_t user_range(const char* what, const Args&... args) {
    std::size_t n = 0;
    bool found = false;
    auto visit = [&](const auto& a) {
        using U = user_array<std::decay_t<decltype(a)>>;
        if constexpr (U::value) {
            const auto& arr = U::get(a);
            if (!arr.is_c_contiguous())
                throw usage_error(std::string(what) + ": array argument of shape " +
                                  shape_to_string(arr.shape()) +
                                  " is not C-contiguous (pass a copy())");
            if (!found) n = arr.size();
            found = true;
        }
    };
    (visit(args), ...);
    if (!found) throw usage_error(std::string(what) + ": needs at least one array argument");
    return n;
}

std::string elementwise_source(const std::string& name, const std::string& arguments,
                               const std::string& operation, const std::string& preamble);
std::string user_reduction_source(dtype type, const std::string& reduce_expr,
                                  const std::string& map_expr, const std::string& arguments,
                                  const std::string& preamble, bool cooperative);

template <class... T>
using first_user_storage_t =
    typename first_non_void<typename user_array<std::decay_t<T>>::storage...>::type;
} // namespace detail

// A kernel from a user argument list and loop body, one work-item per element (PyOpenCL's
// ElementwiseKernel); `i` is the element index in the body.
class elementwise_kernel {
public:
    // Builds now: a syntax error throws build_error with the compiler's log.
    elementwise_kernel(const context& ctx, const std::string& arguments,
                       const std::string& operation,
                       const std::string& name = "clarray_elementwise",
                       const std::string& preamble = "")
        : kernel_(program(ctx, detail::elementwise_source(name, arguments, operation, preamble))
                      .kernel(name)),
          group_(detail::elementwise_group_size(ctx.device())) {}

    // One work-item per element of the first array argument. Enqueued, returns the event.
    template <class... Args> event operator()(const queue& q, const Args&... args) {
        const std::size_t n = detail::user_range(kernel_.name().c_str(), args...);
        if (n == 0) return event();
        return kernel_.launch(q, {detail::round_up(n, group_)}, {group_}, {}, args...,
                              static_cast<cl_ulong>(n));
    }

private:
    kernel kernel_;
    std::size_t group_;
};

// A map-reduce kernel from user map and reduce expressions over arrays; the result is a 0-d array
// (PyOpenCL's ReductionKernel).
template <class T> class reduction_kernel {
    static_assert(is_dtype_v<T>, "reduction_kernel: unsupported result type");
    static_assert(!std::is_same_v<T, half>, "reduction_kernel: float16 has no OpenCL C value "
                                            "type without cl_khr_fp16 (reduce in float)");

public:
    // Builds now: reduce_expr combines a and b, map_expr maps element i (build_error with the
    // log on a syntax error).
    reduction_kernel(const context& ctx, T neutral, const std::string& reduce_expr,
                     const std::string& map_expr, const std::string& arguments,
                     const std::string& preamble = "")
        : neutral_(static_cast<stored_t<T>>(neutral)), cooperative_(!ctx.device().is_cpu()),
          group_(cooperative_ ? detail::reduction_group_size(ctx.device()) : 1),
          program_(ctx, detail::user_reduction_source(dtype_traits<T>::id, reduce_expr, map_expr,
                                                      arguments, preamble, cooperative_)),
          stage1_(program_.kernel("clarray_user_reduce")),
          stage2_(program_.kernel("clarray_user_reduce_final")) {}

    // A 0-d array on the first array argument's storage policy. Nothing blocks.
    template <class... Args> auto operator()(const queue& q, const Args&... args) {
        using S = detail::first_user_storage_t<Args...>;
        static_assert(!std::is_void_v<S>, "reduction_kernel: needs an array argument");
        const std::size_t n = detail::user_range("reduction_kernel", args...);
        const device& dev = q.context().device();
        const std::size_t cus = std::max<cl_uint>(1, dev.compute_units());
        const std::size_t per_unit = cooperative_ ? group_ * 16 : 4096;
        std::size_t parts =
            std::min<std::size_t>(cooperative_ ? cus * 8 : std::max<std::size_t>(16, cus * 4),
                                  std::max<std::size_t>(1, n / per_unit));
        parts = std::max<std::size_t>(parts, 1);
        const std::size_t chunk = n == 0 ? 0 : (n + parts - 1) / parts;
        cl_array<T, S> result(q, shape_type{});
        cl_array<T, S> partials(q, shape_type{parts});
        const ndrange global{parts * group_}, local{group_};
        const local_memory<stored_t<T>> scratch(group_);
        stage1_.launch(q, global, local, {}, args..., out(partials), static_cast<cl_ulong>(n),
                       static_cast<cl_ulong>(chunk), neutral_, scratch);
        stage2_.launch(q, ndrange{group_}, ndrange{group_}, {}, in(partials), out(result),
                       static_cast<cl_ulong>(parts), neutral_, scratch);
        return result;
    }

private:
    stored_t<T> neutral_;
    bool cooperative_;
    std::size_t group_;
    program program_;
    kernel stage1_, stage2_;
};

} // namespace clarray
