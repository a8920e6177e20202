#include "clarray/array/manipulation.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "clarray/error.hpp"

namespace clarray::detail {

namespace {

// One axis of a block copy: its extent and the strides of the destination and the source.
struct block_axis {
    std::size_t extent;
    std::ptrdiff_t dst_stride, src_stride;
};

// dst(i...) = src(i...) over the axes; more axes than an array may have (tile of a high-rank
// array) become a loop over the outermost ones, one launch per index.
void copy_blocks(const array_ref& dst, const array_ref& src, const block_axis* axes,
                 std::size_t count, std::ptrdiff_t dst_offset, std::ptrdiff_t src_offset) {
    if (count > max_dims) {
        for (std::size_t i = 0; i < axes[0].extent; ++i)
            copy_blocks(dst, src, axes + 1, count - 1,
                        dst_offset + static_cast<std::ptrdiff_t>(i) * axes[0].dst_stride,
                        src_offset + static_cast<std::ptrdiff_t>(i) * axes[0].src_stride);
        return;
    }
    shape_type shape;
    strides_type ds, ss;
    for (std::size_t k = 0; k < count; ++k) {
        shape.push_back(axes[k].extent);
        ds.push_back(axes[k].dst_stride);
        ss.push_back(axes[k].src_stride);
    }
    array_ref d = dst, s = src;
    d.shape = &shape;
    d.strides = &ds;
    d.offset = dst_offset;
    s.shape = &shape;
    s.strides = &ss;
    s.offset = src_offset;
    strided_copy(d, s);
}

} // namespace

std::size_t normalize_axis(std::ptrdiff_t axis, std::size_t rank, const char* what) {
    const auto r = static_cast<std::ptrdiff_t>(rank);
    if (axis < -r || axis >= r)
        throw index_error(std::string(what) + ": axis " + std::to_string(axis) +
                          " is out of bounds for an array of rank " + std::to_string(rank));
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

void slice_axis_view(shape_type& shape, const strides_type& strides, std::ptrdiff_t& offset,
                     std::size_t axis, std::size_t start, std::size_t stop) {
    shape[axis] = stop - start;
    if (stop > start) offset += static_cast<std::ptrdiff_t>(start) * strides[axis];
}

void insert_axis_view(shape_type& shape, strides_type& strides, std::size_t axis) {
    shape.insert(shape.begin() + axis, 1);
    strides.insert(strides.begin() + axis, 0);
}

void flip_view(const shape_type& shape, strides_type& strides, std::ptrdiff_t& offset,
               std::size_t axis) {
    if (shape[axis] > 0) offset += static_cast<std::ptrdiff_t>(shape[axis] - 1) * strides[axis];
    strides[axis] = -strides[axis];
}

void diagonal_view(shape_type& shape, strides_type& strides, std::ptrdiff_t& offset,
                   std::ptrdiff_t k, std::size_t axis1, std::size_t axis2) {
    if (axis1 == axis2)
        throw usage_error("diagonal: axis1 and axis2 are both axis " + std::to_string(axis1));
    const auto n1 = static_cast<std::ptrdiff_t>(shape[axis1]);
    const auto n2 = static_cast<std::ptrdiff_t>(shape[axis2]);
    // Diagonal k holds (i, i + k): rows max(0, -k) .. , columns max(0, k) ...
    const std::ptrdiff_t len =
        std::max<std::ptrdiff_t>(0, k >= 0 ? std::min(n1, n2 - k) : std::min(n1 + k, n2));
    if (len > 0) offset += k >= 0 ? k * strides[axis2] : -k * strides[axis1];
    const std::ptrdiff_t step = strides[axis1] + strides[axis2];
    shape_type s;
    strides_type st;
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (i != axis1 && i != axis2) {
            s.push_back(shape[i]);
            st.push_back(strides[i]);
        }
    s.push_back(static_cast<std::size_t>(len));
    st.push_back(step);
    shape = s;
    strides = st;
}

shape_type concatenated_shape(const shape_type* const* shapes, std::size_t count,
                              std::ptrdiff_t axis, const char* what, std::size_t* norm_axis) {
    if (count == 0) throw usage_error(std::string(what) + ": need at least one array");
    const shape_type& first = *shapes[0];
    if (first.empty())
        throw shape_error(std::string(what) + ": zero-dimensional arrays cannot be joined");
    const std::size_t ax = normalize_axis(axis, first.size(), what);
    shape_type out = first;
    for (std::size_t i = 1; i < count; ++i) {
        const shape_type& s = *shapes[i];
        bool same = s.size() == first.size();
        for (std::size_t k = 0; same && k < s.size(); ++k)
            same = k == ax || s[k] == first[k];
        if (!same)
            throw shape_error(std::string(what) + ": array " + std::to_string(i) + " of shape " +
                              shape_to_string(s) + " does not match array 0 of shape " +
                              shape_to_string(first) + " except along axis " + std::to_string(ax));
        out[ax] += s[ax];
    }
    (void)checked_size(out);
    *norm_axis = ax;
    return out;
}

void check_same_shapes(const shape_type* const* shapes, std::size_t count, const char* what) {
    if (count == 0) throw usage_error(std::string(what) + ": need at least one array");
    for (std::size_t i = 1; i < count; ++i)
        if (*shapes[i] != *shapes[0])
            throw shape_error(std::string(what) + ": array " + std::to_string(i) + " of shape " +
                              shape_to_string(*shapes[i]) + " differs from array 0 of shape " +
                              shape_to_string(*shapes[0]));
}

std::vector<std::pair<std::size_t, std::size_t>>
split_bounds(std::size_t extent, std::size_t sections, bool equal, const char* what) {
    if (sections == 0) throw usage_error(std::string(what) + ": the number of sections is 0");
    if (equal && extent % sections != 0)
        throw shape_error(std::string(what) + ": an axis of extent " + std::to_string(extent) +
                          " does not split into " + std::to_string(sections) + " equal sections");
    // NumPy's array_split: the first extent % sections parts are one longer.
    const std::size_t base = extent / sections, longer = extent % sections;
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i < sections; ++i) {
        const std::size_t stop = start + base + (i < longer ? 1 : 0);
        parts.emplace_back(start, stop);
        start = stop;
    }
    return parts;
}

std::vector<std::pair<std::size_t, std::size_t>>
split_bounds(std::size_t extent, const std::vector<std::ptrdiff_t>& at) {
    const auto n = static_cast<std::ptrdiff_t>(extent);
    auto clamp = [&](std::ptrdiff_t i) {
        if (i < 0) i += n;
        return static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(i, 0, n));
    };
    // Part i is the Python slice a[at[i-1]:at[i]] (from 0, to the end): a stop before its start
    // is an empty part.
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= at.size(); ++i) {
        const std::size_t stop = i < at.size() ? clamp(at[i]) : extent;
        parts.emplace_back(start, std::max(start, stop));
        start = stop;
    }
    return parts;
}

shape_type tiled_shape(const shape_type& shape, const std::vector<std::size_t>& reps) {
    const std::size_t d = std::max(shape.size(), reps.size());
    if (d > max_dims)
        throw shape_error("tile: " + std::to_string(reps.size()) + " repetitions make more than " +
                          std::to_string(max_dims) + " dimensions");
    shape_type out(d, 1);
    for (std::size_t i = 0; i < d; ++i) {
        const std::size_t s = i + shape.size() >= d ? shape[i + shape.size() - d] : 1;
        const std::size_t r = i + reps.size() >= d ? reps[i + reps.size() - d] : 1;
        out[i] = s * r;
        if (s != 0 && out[i] / s != r)
            throw shape_error("tile: the result of tiling shape " + shape_to_string(shape) +
                              " is too large");
    }
    (void)checked_size(out);
    return out;
}

shape_type repeated_shape(const shape_type& shape, const std::vector<std::size_t>& counts,
                          std::size_t axis) {
    if (counts.size() != 1 && counts.size() != shape[axis])
        throw shape_error("repeat: " + std::to_string(counts.size()) + " counts for axis " +
                          std::to_string(axis) + " of extent " + std::to_string(shape[axis]) +
                          " (shape " + shape_to_string(shape) + ")");
    shape_type out = shape;
    if (counts.size() == 1) {
        out[axis] = shape[axis] * counts[0];
        if (shape[axis] != 0 && out[axis] / shape[axis] != counts[0])
            throw shape_error("repeat: the result is too large");
    } else {
        out[axis] = 0;
        for (std::size_t c : counts) {
            out[axis] += c;
            if (out[axis] < c) throw shape_error("repeat: the result is too large");
        }
    }
    (void)checked_size(out);
    return out;
}

shape_type padded_shape(const shape_type& shape, const std::vector<pad_width>& widths) {
    if (widths.size() != 1 && widths.size() != shape.size())
        throw shape_error("pad: " + std::to_string(widths.size()) +
                          " (before, after) pairs for an array of shape " + shape_to_string(shape) +
                          "; give one, or one per axis");
    shape_type out = shape;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const pad_width& w = widths[widths.size() == 1 ? 0 : i];
        out[i] += w.first + w.second;
    }
    (void)checked_size(out);
    return out;
}

std::vector<std::size_t> roll_shifts(const shape_type& shape,
                                     const std::vector<std::ptrdiff_t>& shifts,
                                     const std::vector<std::ptrdiff_t>& axes) {
    if (shifts.size() != axes.size() && shifts.size() != 1)
        throw shape_error("roll: " + std::to_string(shifts.size()) + " shifts for " +
                          std::to_string(axes.size()) + " axes");
    std::vector<std::size_t> out(shape.size(), 0);
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const std::size_t ax = normalize_axis(axes[i], shape.size(), "roll");
        const auto n = static_cast<std::ptrdiff_t>(shape[ax]);
        if (n == 0) continue;
        const std::ptrdiff_t s = shifts[shifts.size() == 1 ? 0 : i] % n;
        out[ax] = static_cast<std::size_t>((static_cast<std::ptrdiff_t>(out[ax]) + s + n) % n);
    }
    return out;
}

void copy_concatenated(const array_ref& out, const array_ref* parts, std::size_t count,
                       std::size_t axis) {
    std::ptrdiff_t offset = out.offset;
    const std::ptrdiff_t stride = (*out.strides)[axis];
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t n = (*parts[i].shape)[axis];
        shape_type s = *out.shape;
        s[axis] = n;
        array_ref dst = out;
        dst.shape = &s;
        dst.offset = offset;
        strided_copy(dst, parts[i]);
        offset += static_cast<std::ptrdiff_t>(n) * stride;
    }
}

void copy_rolled(const array_ref& out, const array_ref& src,
                 const std::vector<std::size_t>& shift) {
    const shape_type& shape = *src.shape;
    const std::size_t rank = shape.size();
    if (checked_size(shape) == 0) {
        (void)strided_copy(out, src); // the checks, no launch
        return;
    }
    // Along an axis rolled by s: out[s:] = src[:n-s] and out[:s] = src[n-s:]; every combination
    // of the two pieces of each rolled axis is one block copy.
    std::vector<std::size_t> rolled;
    for (std::size_t k = 0; k < rank; ++k)
        if (shift[k] != 0) rolled.push_back(k);
    for (std::size_t combo = 0; combo < (std::size_t(1) << rolled.size()); ++combo) {
        shape_type s = shape;
        std::ptrdiff_t doff = out.offset, soff = src.offset;
        for (std::size_t j = 0; j < rolled.size(); ++j) {
            const std::size_t k = rolled[j], n = shape[k], sh = shift[k];
            const bool wrapped = (combo >> j) & 1;
            const std::size_t dst_start = wrapped ? 0 : sh, src_start = wrapped ? n - sh : 0;
            s[k] = wrapped ? sh : n - sh;
            doff += static_cast<std::ptrdiff_t>(dst_start) * (*out.strides)[k];
            soff += static_cast<std::ptrdiff_t>(src_start) * (*src.strides)[k];
        }
        array_ref d = out, r = src;
        d.shape = &s;
        d.offset = doff;
        r.shape = &s;
        r.offset = soff;
        strided_copy(d, r);
    }
}

void copy_tiled(const array_ref& out, const array_ref& src, const std::vector<std::size_t>& reps) {
    const shape_type& os = *out.shape;
    if (checked_size(os) == 0) return;
    const shape_type& shape = *src.shape;
    const std::size_t d = os.size();
    // Each result axis i (extent r * n) as two: the repetition (source stride 0) and the
    // source's axis; axes of one repetition keep only the latter.
    std::vector<block_axis> axes;
    for (std::size_t i = 0; i < d; ++i) {
        const bool has_src = i + shape.size() >= d;
        const std::size_t n = has_src ? shape[i + shape.size() - d] : 1;
        const std::ptrdiff_t ss = has_src ? (*src.strides)[i + shape.size() - d] : 0;
        const std::size_t r = i + reps.size() >= d ? reps[i + reps.size() - d] : 1;
        const std::ptrdiff_t ds = (*out.strides)[i];
        if (r != 1) axes.push_back({r, ds * static_cast<std::ptrdiff_t>(n), 0});
        axes.push_back({n, ds, ss});
    }
    copy_blocks(out, src, axes.data(), axes.size(), out.offset, src.offset);
}

void copy_repeated(const array_ref& out, const array_ref& src,
                   const std::vector<std::size_t>& counts, std::size_t axis) {
    if (checked_size(*out.shape) == 0) return;
    const shape_type& shape = *src.shape;
    std::vector<block_axis> axes;
    for (std::size_t i = 0; i < shape.size(); ++i)
        axes.push_back({shape[i], (*out.strides)[i], (*src.strides)[i]});
    const std::ptrdiff_t ds = (*out.strides)[axis], ss = (*src.strides)[axis];
    if (counts.size() == 1) {
        // The axis (n) as (n, count): the source steps along n and stays along count.
        const auto c = static_cast<std::ptrdiff_t>(counts[0]);
        axes[axis] = {shape[axis], ds * c, ss};
        axes.insert(axes.begin() + static_cast<std::ptrdiff_t>(axis) + 1,
                    block_axis{counts[0], ds, 0});
        copy_blocks(out, src, axes.data(), axes.size(), out.offset, src.offset);
        return;
    }
    // One broadcast copy per source element of the axis.
    std::ptrdiff_t pos = 0;
    for (std::size_t j = 0; j < shape[axis]; ++j) {
        if (counts[j] == 0) continue;
        axes[axis] = {counts[j], ds, 0};
        copy_blocks(out, src, axes.data(), axes.size(), out.offset + pos * ds,
                    src.offset + static_cast<std::ptrdiff_t>(j) * ss);
        pos += static_cast<std::ptrdiff_t>(counts[j]);
    }
}

void copy_padded(const array_ref& out, const array_ref& src, const std::vector<pad_width>& widths,
                 const void* value) {
    strided_fill(out, value);
    std::ptrdiff_t offset = out.offset;
    for (std::size_t i = 0; i < src.shape->size(); ++i)
        offset += static_cast<std::ptrdiff_t>(widths[widths.size() == 1 ? 0 : i].first) *
                  (*out.strides)[i];
    array_ref inner = out;
    inner.shape = src.shape;
    inner.offset = offset;
    strided_copy(inner, src);
}

} // namespace clarray::detail
