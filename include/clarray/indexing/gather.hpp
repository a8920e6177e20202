#pragma once
// The gather operand kind: take(a, idx, axis) read inside an expression, so that
// `c = x * take(b, idx) + 1` is one kernel. The public take() (with its index check) is in
// indexing/indexing.hpp; this file is the operand itself.
//
// The result has shape a.shape[:axis] + idx.shape + a.shape[axis+1:]. Both arrays become
// ordinary strided operands over that shape: idx with stride 0 on a's axes, a with stride 0 on
// idx's axes and without `axis`. An element is then a[o_a + k * stride(axis)] with k = idx[o_idx]
// made an index by the mode; the axis extent and its stride are scalar arguments, the mode selects
// the kernel (a kernel variant). So the plan (broadcasting, coalescing, layouts) sees nothing new,
// and the source only needs an indexed access (source_builder::array_input_at).
//
// The indices may be an expression (of int32 or int64): its text is the index, and each of its
// array terminals is viewed over the result shape with extent-1 axes after its own for a's axes
// after `axis` (restrided_terminal); broadcasting adds the leading ones, as for an index array.
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/expr/device_check.hpp"
#include "clarray/expr/expression.hpp"

namespace clarray {

// How indices outside [-n, n) are treated (NumPy's `mode`): raise throws index_error (negative
// indices count from the end), wrap takes them modulo n, clip clamps them to [0, n - 1]
// (negative ones become 0, as NumPy's clip).
enum class index_mode : unsigned char { raise, wrap, clip };

namespace detail {

// The raise-mode index check's kind (runtime/device_checks.hpp): an index_error "take: an index
// is out of range for axis 0 with size 5 (indices must lie in [-5, 5))".
extern const device_check_kind index_range_check;

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
    // The gathered array as given (restrided_terminal keeps it).
    const cl_array<T, S>& whole() const noexcept { return whole_; }
    launch_arg kernel_argument() const noexcept {
        return memory_arg<S>(view_.data().get(), access::read);
    }

private:
    cl_array<T, S> view_, whole_;
};

// The array terminals of an index expression seen over the gather's result shape
// a.shape[:axis] + idx.shape + a.shape[axis+1:]: each terminal's view gets `trailing` extent-1
// axes (stride 0) after its own, so that broadcasting (which adds leading axes) puts its axes
// on idx's. The restrided terminal of a terminal type U:
template <class U> struct restrided_terminal {
    static_assert(sizeof(U) == 0, "take: unsupported operand kind in an index expression");
};
template <class A> struct restrided_terminal<array_terminal<A>> {
    using array_type = std::decay_t<A>;
    using type = array_terminal<array_type>;
    static array_type view(const array_type& v, std::size_t trailing) {
        shape_type s = v.shape();
        strides_type st = v.strides();
        for (std::size_t d = 0; d < trailing; ++d) {
            s.push_back(1);
            st.push_back(0);
        }
        return array_type(v.get_queue(), v.data(), std::move(s), std::move(st), v.offset());
    }
    static type make(const array_terminal<A>& t, std::size_t trailing) {
        return type(view(t.array(), trailing));
    }
};
template <class T, class S> struct restrided_terminal<gather_source<T, S>> {
    using type = gather_source<T, S>;
    static type make(const gather_source<T, S>& t, std::size_t trailing) {
        return type(restrided_terminal<array_terminal<cl_array<T, S>>>::view(t.array(), trailing),
                    t.whole());
    }
};

// take(a, idx, axis) as an operand. X is the index operand's node: an array
// (array_terminal<cl_array<I, IS>>) or an expression of type int32 or int64, read in the
// gather's kernel (`take(a, idx + 1)` is one kernel).
template <class T, class S, class X> class gather_node : public expression<gather_node<T, S, X>> {
    using I = typename X::value_type;
    static_assert(is_index_type_v<I>,
                  "take: indices must be int32 or int64 (an index array or an expression of "
                  "that type)");

public:
    using value_type = canonical_t<T>;

    // a: the gathered array; idx: the indices, of shape idx_shape; axis < a.dimension(); a's
    // extent along axis is not 0 unless idx is empty (the caller checks that). raise mode: an
    // index outside [-n, n) sets a flag that the next host wait reports as index_error naming
    // `site`.
    gather_node(const cl_array<T, S>& a, X idx, const shape_type& idx_shape, std::size_t axis,
                index_mode mode, const device_check_site& site)
        : mode_{static_cast<std::uint32_t>(mode)}, len_(static_cast<cl_long>(a.shape()[axis])),
          stride_(static_cast<cl_long>(a.strides()[axis])),
          check_(a.get_context(), site, mode == index_mode::raise), idx_(std::move(idx)),
          src_(source_view(a, idx_shape, axis), a) {
        const std::size_t trailing = a.dimension() - 1 - axis;
        idx_.for_each_terminal([&](const auto& t) {
            using U = std::decay_t<decltype(t)>;
            if constexpr (U::is_array)
                terminals_.push_back(std::make_shared<const typename restrided_terminal<U>::type>(
                    restrided_terminal<U>::make(t, trailing)));
        });
    }

    static std::string emit(source_builder& b) {
        // Visit order: the indices, the mode (a kernel variant: each mode has its own kernel,
        // with no branch on it), the extent, the stride, the check's flag words and word, the
        // gathered array.
        const std::string k = "(" + X::emit(b) + ")";
        const auto mode = static_cast<index_mode>(b.variant_input());
        const std::string n = b.scalar_input(dtype::int64);
        const std::string st = b.scalar_input(dtype::int64);
        const std::string flag = b.flag_input();
        const std::string word = b.scalar_input(dtype::uint32);
        b.note_type(dtype_of<value_type>());
        std::string index;
        if (mode == index_mode::raise) {
            // A bad index sets the flag word and reads the clamped position (memory stays safe;
            // the host reports it). wrap and clip bind no flag words and never touch them.
            b.helper("clarray_take_raise",
                     "long clarray_take_raise(long k, long n, global uint* f, uint w) {\n"
                     "    if (k < 0) k += n;\n"
                     "    if (k < 0 || k >= n) f[w] = 1u;\n"
                     "    return k < 0 ? 0 : (k >= n ? n - 1 : k);\n}");
            index = "clarray_take_raise((long)" + k + ", " + n + ", " + flag + ", " + word + ")";
        } else if (mode == index_mode::wrap) {
            // In range: no division (the modulo is for the rest).
            b.helper("clarray_take_wrap", "long clarray_take_wrap(long k, long n) {\n"
                                          "    if (k >= 0 && k < n) return k;\n"
                                          "    const long r = k % n;\n"
                                          "    return r < 0 ? r + n : r;\n}");
            index = "clarray_take_wrap((long)" + k + ", " + n + ")";
        } else {
            b.helper("clarray_take_clip", "long clarray_take_clip(long k, long n) {\n"
                                          "    return k < 0 ? 0 : (k >= n ? n - 1 : k);\n}");
            index = "clarray_take_clip((long)" + k + ", " + n + ")";
        }
        return b.array_input_at(dtype_of<value_type>(), index + " * " + st);
    }
    template <class F> void for_each_terminal(F&& f) const {
        // The index operand's terminals, its arrays as viewed over the result shape.
        std::size_t i = 0;
        idx_.for_each_terminal([&](const auto& t) {
            using U = std::decay_t<decltype(t)>;
            if constexpr (U::is_array)
                f(*static_cast<const typename restrided_terminal<U>::type*>(terminals_[i++].get()));
            else
                f(t);
        });
        f(mode_);
        f(len_);
        f(stride_);
        f(check_.flag_terminal());
        f(check_.word_terminal());
        f(src_);
    }
    template <class U> static constexpr bool lanewise_as = false;
    static constexpr bool calls_function = false;

    // The result's shape: a.shape[:axis] + idx_shape + a.shape[axis+1:].
    static shape_type result_shape(const cl_array<T, S>& a, const shape_type& idx_shape,
                                   std::size_t axis) {
        const std::size_t rank = a.dimension() - 1 + idx_shape.size();
        if (rank > max_dims)
            throw shape_error("take: the result would have " + std::to_string(rank) +
                              " dimensions, more than " + std::to_string(max_dims));
        shape_type s;
        for (std::size_t d = 0; d < axis; ++d)
            s.push_back(a.shape()[d]);
        for (std::size_t e : idx_shape)
            s.push_back(e);
        for (std::size_t d = axis + 1; d < a.dimension(); ++d)
            s.push_back(a.shape()[d]);
        return s;
    }

private:
    static cl_array<T, S> source_view(const cl_array<T, S>& a, const shape_type& idx_shape,
                                      std::size_t axis) {
        strides_type st;
        for (std::size_t d = 0; d < axis; ++d)
            st.push_back(a.strides()[d]);
        for (std::size_t d = 0; d < idx_shape.size(); ++d)
            st.push_back(0);
        for (std::size_t d = axis + 1; d < a.dimension(); ++d)
            st.push_back(a.strides()[d]);
        return cl_array<T, S>(a.get_queue(), a.data(), result_shape(a, idx_shape, axis), st,
                              a.offset());
    }

    variant_terminal<2> mode_;
    scalar_terminal<std::int64_t> len_, stride_;
    device_check check_;
    X idx_;
    // idx_'s array terminals restrided (restrided_terminal), in visit order; shared by copies.
    std::vector<std::shared_ptr<const void>> terminals_;
    gather_source<T, S> src_;
};

template <class T, class S> struct first_storage<gather_source<T, S>> { using type = S; };
template <class T, class S, class X> struct first_storage<gather_node<T, S, X>> { using type = S; };

} // namespace detail
} // namespace clarray
