#pragma once
// The gather operand kind: take(a, idx, axis) read inside an expression, so that
// `c = x * take(b, idx) + 1` is one kernel. The public take() (with its index check) is in
// indexing/indexing.hpp; this file is the operand itself.
//
// The result has shape a.shape[:axis] + idx.shape + a.shape[axis+1:]. Both arrays become
// ordinary strided operands over that shape: idx with stride 0 on a's axes, a with stride 0 on
// idx's axes and without `axis`. An element is then a[o_a + k * stride(axis)] with k = idx[o_idx]
// made an index by the mode; the mode, the axis extent and its stride are scalar arguments. So the
// plan (broadcasting, coalescing, layouts) sees nothing new, and the source only needs an indexed
// access (source_builder::array_input_at).
#include <cstdint>
#include <string>
#include <type_traits>

#include "clarray/error.hpp"
#include "clarray/expr/expression.hpp"

namespace clarray {

// How indices outside [-n, n) are treated (NumPy's `mode`): raise throws index_error (negative
// indices count from the end), wrap takes them modulo n, clip clamps them to [0, n - 1]
// (negative ones become 0, as NumPy's clip).
enum class index_mode : unsigned char { raise, wrap, clip };

namespace detail {

template <class I>
inline constexpr bool is_index_type_v =
    std::is_same_v<I, std::int32_t> || std::is_same_v<I, std::int64_t>;

// The gathered array's operand: a view shaped like the result (stride 0 on idx's axes) whose
// reads reach along `axis` too, so alias analysis must see all of the array (read_region).
template <class T, class S> class gather_source : public expression<gather_source<T, S>> {
public:
    using value_type = canonical_t<T>;
    gather_source(cl_array<T, S> view, cl_array<T, S> whole)
        : view_(std::move(view)), whole_(std::move(whole)) {}
    template <class F> void for_each_terminal(F&& f) const { f(*this); }
    template <class U> static constexpr bool lanewise_as = false;
    static constexpr bool calls_function = false;
    static constexpr bool is_array = true;
    const cl_array<T, S>& array() const noexcept { return view_; }
    // What the kernel may read: the gathered array as given (expr/assign.hpp's alias analysis).
    const shape_type& read_shape() const noexcept { return whole_.shape(); }
    const strides_type& read_strides() const noexcept { return whole_.strides(); }
    launch_arg kernel_argument() const noexcept {
        return memory_arg<S>(view_.data().get(), access::read);
    }

private:
    cl_array<T, S> view_, whole_;
};

template <class T, class S, class I, class IS>
class gather_node : public expression<gather_node<T, S, I, IS>> {
    static_assert(is_index_type_v<I>, "take: index arrays must be int32 or int64");

public:
    using value_type = canonical_t<T>;

    // a: the gathered array; idx: the indices; axis < a.dimension(); a's extent along axis is
    // not 0 unless idx is empty (the caller checks the indices against it).
    gather_node(const cl_array<T, S>& a, const cl_array<I, IS>& idx, std::size_t axis,
                index_mode mode)
        : mode_(static_cast<std::int64_t>(mode)), len_(static_cast<cl_long>(a.shape()[axis])),
          stride_(static_cast<cl_long>(a.strides()[axis])), idx_(index_view(a, idx, axis)),
          src_(source_view(a, idx, axis), a) {}

    static std::string emit(source_builder& b) {
        // Visit order: the indices, the mode, the extent, the stride, the gathered array.
        const std::string k = b.array_input(dtype_of<I>());
        const std::string mode = b.scalar_input(dtype::int64);
        const std::string n = b.scalar_input(dtype::int64);
        const std::string st = b.scalar_input(dtype::int64);
        b.note_type(dtype_of<value_type>());
        // The mode is an argument (one kernel for all three). raise: the indices were checked
        // before the launch; the clamp keeps an index changed since in bounds.
        b.helper("clarray_take_index", "long clarray_take_index(long k, long n, long mode) {\n"
                                       "    if (mode == " +
                                           std::to_string(static_cast<int>(index_mode::wrap)) +
                                           ") { const long r = k % n; return r < 0 ? r + n : r; }\n"
                                           "    if (mode == " +
                                           std::to_string(static_cast<int>(index_mode::raise)) +
                                           " && k < 0) k += n;\n"
                                           "    return k < 0 ? 0 : (k >= n ? n - 1 : k);\n}");
        return b.array_input_at(dtype_of<value_type>(), "clarray_take_index((long)" + k + ", " + n +
                                                            ", " + mode + ") * " + st);
    }
    template <class F> void for_each_terminal(F&& f) const {
        f(idx_);
        f(mode_);
        f(len_);
        f(stride_);
        f(src_);
    }
    template <class U> static constexpr bool lanewise_as = false;
    static constexpr bool calls_function = false;

private:
    static shape_type result_shape(const cl_array<T, S>& a, const cl_array<I, IS>& idx,
                                   std::size_t axis) {
        const std::size_t rank = a.dimension() - 1 + idx.dimension();
        if (rank > max_dims)
            throw shape_error("take: the result would have " + std::to_string(rank) +
                              " dimensions, more than " + std::to_string(max_dims));
        shape_type s;
        for (std::size_t d = 0; d < axis; ++d)
            s.push_back(a.shape()[d]);
        for (std::size_t e : idx.shape())
            s.push_back(e);
        for (std::size_t d = axis + 1; d < a.dimension(); ++d)
            s.push_back(a.shape()[d]);
        return s;
    }
    static cl_array<I, IS> index_view(const cl_array<T, S>& a, const cl_array<I, IS>& idx,
                                      std::size_t axis) {
        strides_type st;
        for (std::size_t d = 0; d < axis; ++d)
            st.push_back(0);
        for (std::ptrdiff_t x : idx.strides())
            st.push_back(x);
        for (std::size_t d = axis + 1; d < a.dimension(); ++d)
            st.push_back(0);
        return cl_array<I, IS>(idx.get_queue(), idx.data(), result_shape(a, idx, axis), st,
                               idx.offset());
    }
    static cl_array<T, S> source_view(const cl_array<T, S>& a, const cl_array<I, IS>& idx,
                                      std::size_t axis) {
        strides_type st;
        for (std::size_t d = 0; d < axis; ++d)
            st.push_back(a.strides()[d]);
        for (std::size_t d = 0; d < idx.dimension(); ++d)
            st.push_back(0);
        for (std::size_t d = axis + 1; d < a.dimension(); ++d)
            st.push_back(a.strides()[d]);
        return cl_array<T, S>(a.get_queue(), a.data(), result_shape(a, idx, axis), st, a.offset());
    }

    scalar_terminal<std::int64_t> mode_, len_, stride_;
    array_terminal<cl_array<I, IS>> idx_;
    gather_source<T, S> src_;
};

template <class T, class S> struct first_storage<gather_source<T, S>> { using type = S; };
template <class T, class S, class I, class IS> struct first_storage<gather_node<T, S, I, IS>> {
    using type = S;
};

} // namespace detail
} // namespace clarray
