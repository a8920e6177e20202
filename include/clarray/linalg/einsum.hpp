#pragma once
// NumPy's einsum on device arrays, lowered as NumPy's optimize=True and opt_einsum do:
//
//   auto c = clarray::einsum("ij,jk->ik", a, b);          // one GEMM
//   auto t = clarray::einsum("ii", m);                    // trace: a diagonal view, one sum
//   auto d = clarray::einsum("ii->i", m);                 // the diagonal: a view, no kernel
//   auto y = clarray::einsum("...ij,...jk->...ik", x, w); // batched GEMM, batch axes broadcast
//   auto s = clarray::einsum("i,ij,j->", u, A, v);        // pairwise, in a greedy order
//   auto p = clarray::einsum_path("ij,jk,kl->il", a.shape(), b.shape(), c.shape());
//
// The plan (linalg/einsum_plan.hpp) works on shapes alone. Running it: each operand becomes a
// view walking its repeated indices once (strides summed), the indices only it has are summed
// (clarray::sum), then pairs are contracted, each as one matrix product (CLBlast, through the
// products of linalg.hpp: operands viewed as matrices, copied only when their strides do not
// allow a view) or, without a summed index, as one element-wise product kernel. Integer and bool
// contractions run as one fused multiply-and-sum reduction kernel instead of a matrix product.
// Everything is enqueued; nothing blocks. docs/linalg.md has the details.
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "clarray/expr/promotion.hpp"
#include "clarray/linalg/einsum_plan.hpp"
#include "clarray/linalg/linalg.hpp"
#include "clarray/reduce/reduce.hpp"

namespace clarray {

namespace detail {

// The element types whose contractions run as matrix products (CLBlast; half in float32).
template <class T>
inline constexpr bool einsum_blas_type_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>> ||
    std::is_same_v<T, half>;

// x's prepared view: each group of axes walked together (a diagonal: strides summed); axes in
// no group (broadcast, extent 1) dropped. Shares x's memory.
template <class T, class S>
cl_array<T, S> einsum_view(const cl_array<T, S>& x, const einsum_prepare& prep) {
    strides_type strides;
    for (const std::vector<std::size_t>& group : prep.axis_groups) {
        std::ptrdiff_t stride = 0;
        for (std::size_t axis : group)
            stride += x.strides()[axis];
        strides.push_back(stride);
    }
    return cl_array<T, S>(x.get_queue(), x.data(), prep.view_shape, strides, x.offset());
}

// x on the axes of a contraction's space: axis place[i] of x on axis i, extent 1 (stride 0)
// where place[i] is -1, so that expressions broadcast it. Shares x's memory.
template <class T, class S>
cl_array<T, S> einsum_broadcast(const cl_array<T, S>& x, const std::vector<std::ptrdiff_t>& place) {
    shape_type shape;
    strides_type strides;
    for (std::ptrdiff_t axis : place) {
        const bool present = axis >= 0;
        shape.push_back(present ? x.shape()[static_cast<std::size_t>(axis)] : 1);
        strides.push_back(present ? x.strides()[static_cast<std::size_t>(axis)] : 0);
    }
    return cl_array<T, S>(x.get_queue(), x.data(), shape, strides, x.offset());
}

// The sum of e over `axes`, in e's element type T (sums of integers accumulate in 64 bits and
// wrap to T as NumPy's einsum does; bool sums become "any").
template <class T, class S, class E>
cl_array<T, S> einsum_sum(const E& e, const std::vector<std::ptrdiff_t>& axes) {
    auto summed = clarray::sum(e, reduce_axes(axes));
    if constexpr (std::is_same_v<typename decltype(summed)::value_type, T>)
        return summed;
    else
        return summed.template astype<T>();
}

// One pairwise contraction of the plan: the terms a and b into a new array of step.result.
template <class T, class S>
cl_array<T, S> einsum_contract(const cl_array<T, S>& a, const cl_array<T, S>& b,
                               const einsum_contraction& step) {
    if (step.summed.empty()) { // element-wise broadcast product: one kernel
        cl_array<T, S> out(a.get_queue(), step.space, layout::c, a.data().get());
        out = einsum_broadcast(a, step.place_a) * einsum_broadcast(b, step.place_b);
        return out;
    }
    if constexpr (einsum_blas_type_v<T>) {
        return product_of(product_kind::matmul, as_matrix(a, step.order_a, step.matrix_a),
                          as_matrix(b, step.order_b, step.matrix_b))
            .reshape(step.result);
    } else { // no BLAS for integers: one fused multiply-and-sum reduction over the space
        return einsum_sum<T, S>(einsum_broadcast(a, step.place_a) *
                                    einsum_broadcast(b, step.place_b),
                                step.space_sum_axes);
    }
}

// The product of all prepared terms, each broadcast onto the output's axes: one kernel.
template <class T, class S, std::size_t... I>
cl_array<T, S> einsum_fused_product(const einsum_plan& plan,
                                    const std::vector<std::unique_ptr<cl_array<T, S>>>& terms,
                                    std::index_sequence<I...>) {
    const cl_array<T, S>& first = *terms.front();
    cl_array<T, S> out(first.get_queue(), plan.output_shape, layout::c, first.data().get());
    out = (einsum_broadcast(*terms[I], plan.operands[I].output_place) * ...);
    return out;
}

// Runs `plan` on its Count operands, of one element type and storage policy.
template <std::size_t Count, class T, class S>
cl_array<T, S> einsum_run(const einsum_plan& plan, const std::vector<cl_array<T, S>>& operands) {
    // Terms live behind pointers: erasing from a vector of arrays would move-assign arrays, and
    // assigning to an array that shares an operand's memory writes into the operand.
    std::vector<std::unique_ptr<cl_array<T, S>>> terms;
    for (std::size_t k = 0; k < operands.size(); ++k) {
        const einsum_prepare& prep = plan.operands[k];
        cl_array<T, S> view = einsum_view(operands[k], prep);
        if (prep.sum_axes.empty())
            terms.push_back(std::make_unique<cl_array<T, S>>(std::move(view)));
        else
            terms.push_back(
                std::make_unique<cl_array<T, S>>(einsum_sum<T, S>(view, prep.sum_axes)));
    }
    if constexpr (Count >= 3)
        if (plan.fused_product)
            return einsum_fused_product(plan, terms, std::make_index_sequence<Count>{});
    for (const einsum_contraction& step : plan.contractions) {
        auto result = std::make_unique<cl_array<T, S>>(
            einsum_contract(*terms[step.first], *terms[step.second], step));
        terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(step.second));
        terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(step.first));
        terms.push_back(std::move(result));
    }
    return terms.front()->transpose(plan.output_order);
}

// An operand as an array of the common element type T: itself (a handle, no kernel) when it has
// that type, else converted (one kernel). Refuses unbound arrays and arrays of another context.
template <class T, class U, class S>
cl_array<T, S> einsum_operand(const cl_array<U, S>& x, std::size_t index, const context* ctx) {
    if (!x.bound())
        throw usage_error("einsum: operand " + std::to_string(index) +
                          " is an unbound (default-constructed) array");
    if (ctx && x.get_context() != *ctx)
        throw usage_error("einsum: operand " + std::to_string(index) +
                          " is on another context than operand 0");
    if constexpr (std::is_same_v<T, U>)
        return x;
    else
        return x.template astype<T>();
}

template <class X> using einsum_array_t = std::decay_t<decltype(materialize(std::declval<X>()))>;

// An operand's shape for einsum_path: a shape_type as given, else an array's or expression's.
template <class X> shape_type einsum_shape_of(const X& x) {
    if constexpr (std::is_same_v<X, shape_type>)
        return x;
    else
        return shape_of(x);
}

} // namespace detail

namespace linalg {

// NumPy's einsum: the sum of products of the operands' elements over the indices the subscripts
// name ("ij,jk->ik", implicit "ij,jk", "...ij,...jk->...ik", "ii->i", "i,i->"). Operands are
// arrays or expressions (evaluated first) of one storage policy; their element types promote as
// NumPy's (each operand of another type is converted once). The result is a new array on the
// first operand's queue, except for one operand without a sum ("ij->ji", "ii->i"): a view of
// it. Enqueued; nothing blocks. Throws usage_error for malformed subscripts or a wrong operand
// count, shape_error for extents that disagree.
template <class... Operands>
auto einsum(const std::string& subscripts, const Operands&... operands) {
    static_assert(sizeof...(Operands) > 0, "einsum: give at least one operand");
    (clarray::detail::require_device_argument<Operands>(), ...);
    using first_array =
        std::tuple_element_t<0, std::tuple<clarray::detail::einsum_array_t<Operands>...>>;
    using S = typename first_array::storage_policy;
    static_assert(
        (std::is_same_v<typename clarray::detail::einsum_array_t<Operands>::storage_policy, S> &&
         ...),
        "einsum: operands must have one storage policy (copy the others with "
        "clarray::asarray or assign them into arrays of the first one's policy)");
    using T = clarray::detail::promote_all_t<
        typename clarray::detail::einsum_array_t<Operands>::value_type...>;
    std::vector<cl_array<T, S>> arrays;
    arrays.reserve(sizeof...(Operands));
    const context* ctx = nullptr;
    std::size_t index = 0;
    auto add = [&](const auto& array) {
        arrays.push_back(clarray::detail::einsum_operand<T>(array, index++, ctx));
        if (!ctx) ctx = &arrays.front().get_context();
    };
    (add(clarray::detail::materialize(operands)), ...);
    std::vector<shape_type> shapes;
    for (const cl_array<T, S>& array : arrays)
        shapes.push_back(array.shape());
    return clarray::detail::einsum_run<sizeof...(Operands)>(
        clarray::detail::plan_einsum(subscripts, shapes), arrays);
}

// einsum_path with each operand's shape given as a shape_type, an array or an expression (not
// evaluated): einsum_path("ij,jk,kl", a.shape(), b.shape(), c.shape()).
template <class... Shapes, class = std::enable_if_t<(sizeof...(Shapes) > 0)>>
einsum_path_info einsum_path(const std::string& subscripts, const Shapes&... shapes) {
    return einsum_path(subscripts,
                       std::vector<shape_type>{clarray::detail::einsum_shape_of(shapes)...});
}

} // namespace linalg

// einsum and einsum_path are clarray's as well.
using linalg::einsum;
using linalg::einsum_path;

} // namespace clarray
