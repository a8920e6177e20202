#include "clarray/shape/layout.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/shape/slice.hpp"

namespace clarray {

std::string shape_to_string(const shape_type& shape) {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1) s += ",";
    return s + ")";
}

namespace {
constexpr std::size_t max_extent =
    static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
// Extents arrive as size_t; a negative one from a signed container wraps to a huge value.
void check_extent(const shape_type& shape, std::size_t e) {
    if (e > max_extent)
        throw shape_error("shape " + shape_to_string(shape) + ": extent " + std::to_string(e) +
                          " is negative or too large");
}
} // namespace

std::size_t checked_size(const shape_type& shape) {
    if (shape.size() > max_dims)
        throw shape_error("shape " + shape_to_string(shape) + " has " +
                          std::to_string(shape.size()) + " dimensions; at most " +
                          std::to_string(max_dims) + " are supported");
    std::size_t n = 1;
    for (std::size_t e : shape) {
        check_extent(shape, e);
        if (e != 0 && n > max_extent / e)
            throw shape_error("shape " + shape_to_string(shape) + ": element count overflows");
        n *= e;
    }
    return n;
}

strides_type contiguous_strides(const shape_type& shape, layout l) {
    strides_type st(shape.size());
    std::ptrdiff_t s = 1;
    // Zero extents count as 1, so a zero-size shape's strides can overflow although its element
    // count does not: check every step.
    auto step = [&](std::size_t i) {
        st[i] = s;
        check_extent(shape, shape[i]);
        const std::size_t e = std::max<std::size_t>(shape[i], 1);
        if (__builtin_mul_overflow(s, static_cast<std::ptrdiff_t>(e), &s))
            throw shape_error("shape " + shape_to_string(shape) +
                              ": strides overflow 64-bit element offsets");
    };
    if (l == layout::c)
        for (std::size_t i = shape.size(); i-- > 0;)
            step(i);
    else
        for (std::size_t i = 0; i < shape.size(); ++i)
            step(i);
    return st;
}

namespace {
bool contiguous_in(const shape_type& shape, const strides_type& strides, layout l) {
    std::ptrdiff_t expect = 1;
    auto step = [&](std::size_t i) {
        if (shape[i] == 1) return true; // any stride is fine for a unit axis
        if (strides[i] != expect) return false;
        expect *= static_cast<std::ptrdiff_t>(shape[i]);
        return true;
    };
    for (std::size_t e : shape)
        if (e == 0) return true;
    if (l == layout::c) {
        for (std::size_t i = shape.size(); i-- > 0;)
            if (!step(i)) return false;
    } else {
        for (std::size_t i = 0; i < shape.size(); ++i)
            if (!step(i)) return false;
    }
    return true;
}
} // namespace

bool is_c_contiguous(const shape_type& shape, const strides_type& strides) {
    return contiguous_in(shape, strides, layout::c);
}
bool is_f_contiguous(const shape_type& shape, const strides_type& strides) {
    return contiguous_in(shape, strides, layout::f);
}

std::pair<std::ptrdiff_t, std::ptrdiff_t>
covering_range(const shape_type& shape, const strides_type& strides, std::ptrdiff_t offset) {
    std::ptrdiff_t lo = offset, hi = offset;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) return {offset, offset};
        std::ptrdiff_t span = static_cast<std::ptrdiff_t>(shape[i] - 1) * strides[i];
        if (span < 0)
            lo += span;
        else
            hi += span;
    }
    return {lo, hi + 1};
}

bool ranges_overlap(const shape_type& sa, const strides_type& ta, std::ptrdiff_t oa,
                    const shape_type& sb, const strides_type& tb, std::ptrdiff_t ob) {
    auto [al, ah] = covering_range(sa, ta, oa);
    auto [bl, bh] = covering_range(sb, tb, ob);
    return al < ah && bl < bh && al < bh && bl < ah;
}

bool is_dense(const shape_type& shape, const strides_type& strides) {
    // Sort the non-unit axes by |stride|: dense iff they nest exactly.
    fixed_vector<std::pair<std::ptrdiff_t, std::size_t>, max_dims> axes;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) return true;
        if (shape[i] != 1) axes.push_back({strides[i] < 0 ? -strides[i] : strides[i], shape[i]});
    }
    std::sort(axes.begin(), axes.end());
    std::ptrdiff_t expect = 1;
    for (auto& [st, ext] : axes) {
        if (st != expect) return false;
        expect *= static_cast<std::ptrdiff_t>(ext);
    }
    return true;
}

void coalesce(shape_type& shape, strides_type* const* strides, std::size_t count) {
    shape_type s;
    std::vector<strides_type> st(count); // one per operand: count has no bound
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 1) continue;
        s.push_back(shape[i]);
        for (std::size_t k = 0; k < count; ++k)
            st[k].push_back((*strides[k])[i]);
    }
    // Merge axis i into axis i+1 (C order) when every operand steps through them as one.
    shape_type out_shape;
    std::vector<strides_type> out(count);
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!out_shape.empty()) {
            bool mergeable = true;
            for (std::size_t k = 0; k < st.size(); ++k)
                if (out[k].back() != st[k][i] * static_cast<std::ptrdiff_t>(s[i]))
                    mergeable = false;
            if (mergeable) {
                out_shape.back() *= s[i];
                for (std::size_t k = 0; k < st.size(); ++k)
                    out[k].back() = st[k][i];
                continue;
            }
        }
        out_shape.push_back(s[i]);
        for (std::size_t k = 0; k < st.size(); ++k)
            out[k].push_back(st[k][i]);
    }
    shape = out_shape;
    for (std::size_t k = 0; k < count; ++k)
        *strides[k] = out[k];
}

shape_type broadcast_shapes(const shape_type& a, const shape_type& b) {
    std::size_t n = std::max(a.size(), b.size());
    shape_type out(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t ea = i < n - a.size() ? 1 : a[i - (n - a.size())];
        std::size_t eb = i < n - b.size() ? 1 : b[i - (n - b.size())];
        if (ea != eb && ea != 1 && eb != 1)
            throw shape_error("shapes " + shape_to_string(a) + " and " + shape_to_string(b) +
                              " cannot be broadcast together");
        out[i] = ea == 1 ? eb : ea;
    }
    return out;
}

strides_type broadcast_strides(const shape_type& shape, const strides_type& strides,
                               const shape_type& target) {
    if (shape.size() > target.size())
        throw shape_error("cannot broadcast shape " + shape_to_string(shape) + " to " +
                          shape_to_string(target));
    std::size_t lead = target.size() - shape.size();
    strides_type out(target.size(), 0);
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == target[lead + i])
            out[lead + i] = strides[i];
        else if (shape[i] == 1)
            out[lead + i] = 0;
        else
            throw shape_error("cannot broadcast shape " + shape_to_string(shape) + " to " +
                              shape_to_string(target));
    }
    return out;
}

bool reshape_strides(const shape_type& shape, const strides_type& strides,
                     const shape_type& new_shape, strides_type& out) {
    // NumPy's _attempt_nocopy_reshape (C order): match runs of old axes to runs of new axes with
    // equal element counts; each old run must be contiguous in itself.
    shape_type os = shape;
    strides_type ost = strides;
    detail::squeeze_view(os, ost);
    out.assign(new_shape.size(), 0);
    std::size_t total = 1;
    for (std::size_t e : new_shape)
        total *= e;
    if (total == 0) {
        out = contiguous_strides(new_shape, layout::c);
        return true;
    }
    std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
    const std::size_t on = os.size(), nn = new_shape.size();
    while (ni < nn && oi < on) {
        std::size_t np = new_shape[ni], op = os[oi];
        while (np != op) {
            if (np < op)
                np *= new_shape[nj++];
            else
                op *= os[oj++];
        }
        for (std::size_t k = oi; k + 1 < oj; ++k)
            if (ost[k] != ost[k + 1] * static_cast<std::ptrdiff_t>(os[k + 1])) return false;
        out[nj - 1] = ost[oj - 1];
        for (std::size_t k = nj - 1; k > ni; --k)
            out[k - 1] = out[k] * static_cast<std::ptrdiff_t>(new_shape[k]);
        ni = nj++;
        oi = oj++;
    }
    // Trailing unit axes of the new shape.
    for (std::size_t k = ni; k < nn; ++k)
        out[k] = 1;
    return true;
}

namespace detail {

void throw_rank_exceeded(std::size_t requested, std::size_t capacity) {
    throw shape_error("a shape or strides of " + std::to_string(requested) +
                      " dimensions: at most " + std::to_string(capacity) + " are supported");
}

void apply_slices(shape_type& shape, strides_type& strides, std::ptrdiff_t& offset,
                  const slice_arg* args, std::size_t count) {
    std::size_t consuming = 0, ellipses = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (args[i].kind == slice_arg::ellipsis)
            ++ellipses;
        else if (args[i].kind != slice_arg::newaxis)
            ++consuming;
    }
    if (ellipses > 1) throw index_error("a view may contain at most one ellipsis");
    if (consuming > shape.size())
        throw index_error("too many indices: " + std::to_string(consuming) + " for an array of " +
                          std::to_string(shape.size()) + " dimensions, shape " +
                          shape_to_string(shape));
    const std::size_t newaxes = count - consuming - ellipses;
    if (shape.size() - consuming + newaxes > max_dims)
        throw index_error("view: " + std::to_string(newaxes) + " newaxis on an array of " +
                          std::to_string(shape.size()) + " dimensions gives more than " +
                          std::to_string(max_dims) + " dimensions");
    shape_type ns;
    strides_type nst;
    std::size_t axis = 0;
    auto keep = [&](std::size_t n) {
        for (std::size_t k = 0; k < n; ++k, ++axis) {
            ns.push_back(shape[axis]);
            nst.push_back(strides[axis]);
        }
    };
    for (std::size_t i = 0; i < count; ++i) {
        const slice_arg& a = args[i];
        switch (a.kind) {
        case slice_arg::ellipsis:
            keep(shape.size() - consuming);
            break;
        case slice_arg::newaxis:
            ns.push_back(1);
            nst.push_back(0);
            break;
        case slice_arg::all:
            keep(1);
            break;
        case slice_arg::index: {
            auto n = static_cast<std::ptrdiff_t>(shape[axis]);
            std::ptrdiff_t idx = a.i < 0 ? a.i + n : a.i;
            if (idx < 0 || idx >= n)
                throw index_error("index " + std::to_string(a.i) + " is out of range for axis " +
                                  std::to_string(axis) + " with extent " + std::to_string(n));
            offset += idx * strides[axis];
            ++axis;
            break;
        }
        case slice_arg::range: {
            auto n = static_cast<std::ptrdiff_t>(shape[axis]);
            std::ptrdiff_t step = a.r.step;
            if (step == 0) throw index_error("range step must not be zero");
            auto bad = [&](const char* which, std::ptrdiff_t v) {
                return index_error(std::string("range ") + which + " " + std::to_string(v) +
                                   " is out of range for axis " + std::to_string(axis) +
                                   " with extent " + std::to_string(n));
            };
            std::ptrdiff_t start, stop, len;
            if (step > 0) {
                start = a.r.start.given ? a.r.start.value : 0;
                stop = a.r.stop.given ? a.r.stop.value : n;
                if (start < 0) start += n;
                if (stop < 0) stop += n;
                if (start < 0 || start > n) throw bad("start", a.r.start.value);
                if (stop < 0 || stop > n) throw bad("stop", a.r.stop.value);
                // Not (stop - start + step - 1) / step: that overflows for huge steps.
                len = stop > start ? (stop - start - 1) / step + 1 : 0;
            } else {
                start = a.r.start.given ? a.r.start.value : n - 1;
                stop = a.r.stop.given ? a.r.stop.value : -1; // -1: before the first element
                if (a.r.start.given && start < 0) start += n;
                if (a.r.stop.given && stop < 0) stop += n;
                if (start < -1 || start > n - 1) throw bad("start", a.r.start.value);
                if (stop < -1 || stop > n - 1) throw bad("stop", a.r.stop.value);
                // |step| in unsigned arithmetic: -step overflows for PTRDIFF_MIN.
                const std::size_t abs_step = std::size_t(0) - static_cast<std::size_t>(step);
                len = start > stop ? static_cast<std::ptrdiff_t>(
                                         static_cast<std::size_t>(start - stop - 1) / abs_step + 1)
                                   : 0;
            }
            if (len > 0) offset += start * strides[axis];
            // An axis of extent 0 or 1 never steps, and a huge step would overflow the product.
            std::ptrdiff_t new_stride;
            if (__builtin_mul_overflow(strides[axis], step, &new_stride)) {
                if (len > 1)
                    throw index_error("range step " + std::to_string(step) +
                                      " overflows the stride");
                new_stride = strides[axis];
            }
            ns.push_back(static_cast<std::size_t>(len));
            nst.push_back(new_stride);
            ++axis;
            break;
        }
        }
    }
    keep(shape.size() - axis); // unindexed trailing axes
    shape = ns;
    strides = nst;
}

std::size_t checked_bytes(const shape_type& shape, std::size_t elem_size) {
    const std::size_t n = checked_size(shape);
    // checked_size bounds the element count, not the byte count: n * elem_size would wrap (e.g.
    // 2^62 + 1 floats became a 4-byte allocation behind a huge array).
    if (n > std::numeric_limits<std::size_t>::max() / elem_size)
        throw out_of_memory("cl_array: shape " + shape_to_string(shape) + " of " +
                            std::to_string(n) + " elements of " + std::to_string(elem_size) +
                            " bytes overflows the byte count");
    return n * elem_size;
}

namespace {

std::string strides_to_string(const strides_type& st) {
    std::string s = "(";
    for (std::size_t i = 0; i < st.size(); ++i)
        s += (i ? ", " : "") + std::to_string(st[i]);
    return s + ")";
}
} // namespace

void reshape_view(shape_type& shape, strides_type& strides, shape_type requested) {
    const std::size_t size = checked_size(shape);
    std::size_t known = 1, inferred = requested.size();
    for (std::size_t i = 0; i < requested.size(); ++i) {
        if (requested[i] == infer) {
            if (inferred != requested.size())
                throw shape_error("reshape: more than one extent to infer");
            inferred = i;
        } else {
            known *= requested[i];
        }
    }
    if (inferred != requested.size()) {
        if (known == 0 || size % known != 0)
            throw shape_error("reshape: cannot infer an extent to reshape " +
                              shape_to_string(shape) + " (" + std::to_string(size) + " elements)");
        requested[inferred] = size / known;
    }
    if (checked_size(requested) != size)
        throw shape_error("reshape: cannot reshape an array of shape " + shape_to_string(shape) +
                          " (" + std::to_string(size) + " elements) into shape " +
                          shape_to_string(requested));
    strides_type st;
    if (!reshape_strides(shape, strides, requested, st))
        throw shape_error("reshape: a view of shape " + shape_to_string(shape) + " and strides " +
                          strides_to_string(strides) + " cannot become shape " +
                          shape_to_string(requested) + " without a copy; use copy().reshape(...)");
    shape = requested;
    strides = st;
}

void squeeze_view(shape_type& shape, strides_type& strides) {
    shape_type s;
    strides_type st;
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (shape[i] != 1) {
            s.push_back(shape[i]);
            st.push_back(strides[i]);
        }
    shape = s;
    strides = st;
}

void squeeze_view(shape_type& shape, strides_type& strides, std::size_t axis) {
    if (axis >= shape.size())
        throw index_error("squeeze: axis " + std::to_string(axis) + " out of range for shape " +
                          shape_to_string(shape));
    if (shape[axis] != 1)
        throw shape_error("squeeze: axis " + std::to_string(axis) + " of shape " +
                          shape_to_string(shape) + " has extent " + std::to_string(shape[axis]) +
                          ", not 1");
    shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(axis));
    strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(axis));
}

void transpose_view(shape_type& shape, strides_type& strides) {
    std::reverse(shape.begin(), shape.end());
    std::reverse(strides.begin(), strides.end());
}

void transpose_view(shape_type& shape, strides_type& strides,
                    const std::vector<std::size_t>& axes) {
    std::vector<bool> seen(shape.size(), false);
    bool ok = axes.size() == shape.size();
    for (std::size_t a : axes) {
        if (!ok || a >= shape.size() || seen[a]) {
            ok = false;
            break;
        }
        seen[a] = true;
    }
    if (!ok) {
        std::string txt;
        for (std::size_t a : axes)
            txt += std::to_string(a) + " ";
        throw index_error("transpose: axes [ " + txt + "] are not a permutation of the " +
                          std::to_string(shape.size()) + " axes of shape " +
                          shape_to_string(shape));
    }
    shape_type s;
    strides_type st;
    for (std::size_t a : axes) {
        s.push_back(shape[a]);
        st.push_back(strides[a]);
    }
    shape = s;
    strides = st;
}

} // namespace detail
} // namespace clarray
