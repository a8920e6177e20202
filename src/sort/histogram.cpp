// bincount and histogram: counts (and weighted sums) by 64-bit atomics in local sub-histograms
// or global memory (kernels/sort.cl), after an exact min/max pre-pass over the input's keys
// where the range comes from the data.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "clarray/error.hpp"
#include "sort_kernels.hpp"

namespace clarray::detail {
using namespace sorting;

namespace {

// A value of the input's dtype, exactly: integers as their sign and magnitude (every int64 and
// uint64 value), floats as a double.
struct number {
    bool integer = false;
    bool negative = false; // integer < 0
    std::uint64_t mag = 0; // integer: |value|
    double d = 0;          // the value as a double (rounded for integers beyond 2^53)
    std::string text() const {
        if (!integer) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.17g", d);
            return buf;
        }
        return (negative ? "-" : "") + std::to_string(mag);
    }
};

// The smallest and largest element of a (n > 0) as sort keys, turned back into values.
struct extremes {
    number lo, hi;
    bool nan = false;
};

// The value of an ordered key k (kernels/sort.cl, ordered(to_key(v))) of dtype t: to_key's
// inverse. Signed integers: the key is the value with its sign bit flipped, as an unsigned number
// of the dtype's width; floats: the sign bit of non-negatives flipped, every bit of negatives;
// float16 keys are 16 bits wide (in a 32-bit word).
number key_value(dtype t, std::uint64_t k) {
    number r;
    const unsigned bits = key_bits(t);
    const std::uint64_t sign = std::uint64_t(1) << (bits - 1);
    const std::uint64_t all = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    switch (dtype_kind_of(t)) {
    case dtype_kind::floating: {
        const std::uint64_t b = (k & sign) ? (k ^ sign) : (~k & all);
        if (bits == 64) {
            std::memcpy(&r.d, &b, 8);
        } else if (bits == 32) {
            const std::uint32_t b32 = static_cast<std::uint32_t>(b);
            float f;
            std::memcpy(&f, &b32, 4);
            r.d = f;
        } else {
            r.d = half::from_bits(static_cast<std::uint16_t>(b));
        }
        return r;
    }
    case dtype_kind::signed_integer:
        // k >= sign: the value k - sign >= 0; else the value is -(sign - k).
        r.integer = true;
        r.negative = k < sign;
        r.mag = r.negative ? sign - k : k - sign;
        break;
    default:
        r.integer = true;
        r.mag = k;
        break;
    }
    r.d = r.negative ? -static_cast<double>(r.mag) : static_cast<double>(r.mag);
    return r;
}

extremes minmax(const op& o, const array_ref& a) {
    const key_extremes k = extremes_of(o, a);
    const std::uint64_t lo = k.lo, hi = k.hi;
    const unsigned bits = key_bits(a.type);
    const std::uint64_t all = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    extremes e{key_value(a.type, lo), key_value(a.type, hi)};
    e.nan = dtype_kind_of(a.type) == dtype_kind::floating && hi == all; // ordered: NaN's key
    return e;
}

// Sub-histograms of privatised counts of `bins` bins: as many as fit local_bins, at most 8.
cl_uint local_copies(std::size_t bins) {
    return static_cast<cl_uint>(std::clamp<std::size_t>(local_bins / bins, 1, 8));
}

std::string text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

} // namespace

std::shared_ptr<allocation> bincount_impl(const array_ref& x, const array_ref* weights,
                                          std::size_t minlength, std::size_t& length) {
    const queue& q = queue_of(x, "bincount");
    const dtype_kind kind = dtype_kind_of(x.type);
    if (kind == dtype_kind::floating)
        throw dtype_error(std::string("bincount: the values must be integers or bool, got ") +
                          dtype_name(x.type));
    if (x.shape->size() != 1)
        throw shape_error("bincount: the values must be 1-d, they have " +
                          std::to_string(x.shape->size()) + " dimensions");
    if (weights) {
        queue_of(*weights, "bincount");
        if (*weights->shape != *x.shape)
            throw shape_error(
                "bincount: weights of " + std::to_string(checked_size(*weights->shape)) +
                " elements (or another shape) for " + std::to_string((*x.shape)[0]) + " values");
        if (weights->q->context() != q.context())
            throw usage_error("bincount: arrays of different contexts");
        if (!q.context().device().has_fp64())
            throw unsupported("bincount: weighted counts are float64; the device lacks fp64");
    }
    check_atomics(q, "bincount");
    const op o{q, x.kind, x.alloc, x.type, weights ? weights->type : x.type, "bincount"};
    const std::size_t n = (*x.shape)[0];
    std::size_t top = 0;
    if (n) {
        const extremes e = minmax(o, x);
        if (e.lo.negative)
            throw usage_error("bincount: negative value " + e.lo.text() + " in the input");
        if (e.hi.mag >= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw out_of_memory("bincount: largest value " + e.hi.text() + " needs too many bins");
        top = static_cast<std::size_t>(e.hi.mag) + 1;
    }
    length = std::max(top, minlength);
    if (length == 0) return nullptr;
    auto result = o.alloc(checked_size({length}) * 8);
    const std::uint64_t zero = 0;
    result->fill(q, &zero, 8, 0, length * 8);
    if (n == 0) return result;
    const sort_layout L = layout_of(x);
    const partition p = partition_of(q.context().device(), n);
    const cl_ulong chunk = p.chunk;
    const cl_uint bins = static_cast<cl_uint>(std::min(length, local_bins));
    if (!weights && length <= local_bins) {
        const cl_uint copies = local_copies(length);
        o.grouped(sk::bincount_local, p.groups,
                  {o.mem(x.alloc, access::read), value_of(L),
                   o.mem(result.get(), access::read_write), value_of(bins), value_of(copies),
                   value_of(chunk)});
    } else if (!weights) {
        o.each(
            sk::bincount, n,
            {o.mem(x.alloc, access::read), value_of(L), o.mem(result.get(), access::read_write)});
    } else if (length <= local_sums) {
        o.grouped(sk::bincount_weighted_local, p.groups,
                  {o.mem(x.alloc, access::read), value_of(L), o.mem(weights->alloc, access::read),
                   value_of(layout_of(*weights)), o.mem(result.get(), access::read_write),
                   value_of(bins), value_of(chunk)});
    } else {
        o.each(sk::bincount_weighted, n,
               {o.mem(x.alloc, access::read), value_of(L), o.mem(weights->alloc, access::read),
                value_of(layout_of(*weights)), o.mem(result.get(), access::read_write)});
    }
    return result;
}

void histogram_impl(const array_ref& a, std::size_t bins, const double* range, dtype edge_type,
                    std::shared_ptr<allocation>& counts, std::shared_ptr<allocation>& edges) {
    const queue& q = queue_of(a, "histogram");
    if (bins == 0) throw usage_error("histogram: bins must be at least 1");
    if (a.type == dtype::bool_)
        throw dtype_error("histogram: bool input (convert it to an integer dtype)");
    check_atomics(q, "histogram");
    const op o{q, a.kind, a.alloc, a.type, edge_type, "histogram"};
    const std::size_t n = checked_size(*a.shape);
    double lo = 0, hi = 1;
    if (range) {
        lo = range[0];
        hi = range[1];
        if (lo > hi)
            throw usage_error("histogram: max must be larger than min in range, got (" + text(lo) +
                              ", " + text(hi) + ")");
        if (!std::isfinite(lo) || !std::isfinite(hi))
            throw usage_error("histogram: range (" + text(lo) + ", " + text(hi) +
                              ") is not finite");
    } else if (n) {
        const extremes e = minmax(o, a);
        lo = e.lo.d;
        hi = e.hi.d;
        if (e.nan || !std::isfinite(lo) || !std::isfinite(hi))
            throw usage_error("histogram: autodetected range of [" + e.lo.text() + ", " +
                              (e.nan ? std::string("nan") : e.hi.text()) + "] is not finite");
    }
    if (lo == hi) {
        lo -= 0.5;
        hi += 0.5;
    }
    // NumPy's linspace(lo, hi, bins + 1), in float64 where the device has it, as the edge type.
    const bool single = edge_type == dtype::float32;
    const std::size_t esize = single ? 4 : 8;
    edges = o.alloc((bins + 1) * esize);
    const cl_ulong nbins = bins;
    const double step = (hi - lo) / static_cast<double>(bins);
    if (q.context().device().has_fp64()) {
        o.each(sk::edges, bins + 1,
               {o.mem(edges.get(), access::write), value_of(lo), value_of(hi), value_of(step),
                value_of(nbins)});
    } else {
        const float flo = static_cast<float>(lo), fhi = static_cast<float>(hi),
                    fstep = static_cast<float>(step);
        o.each(sk::edges, bins + 1,
               {o.mem(edges.get(), access::write), value_of(flo), value_of(fhi), value_of(fstep),
                value_of(nbins)});
    }
    counts = o.alloc(bins * 8);
    const std::uint64_t zero = 0;
    counts->fill(q, &zero, 8, 0, bins * 8);
    if (n == 0) return;
    // The comparisons and the bin arithmetic in the edge type, as NumPy's.
    unsigned char bounds[3 * 8];
    const double denom = hi - lo;
    if (single) {
        const float v[3] = {static_cast<float>(lo), static_cast<float>(hi),
                            static_cast<float>(denom)};
        std::memcpy(bounds, v, sizeof v);
    } else {
        const double v[3] = {lo, hi, denom};
        std::memcpy(bounds, v, sizeof v);
    }
    if (bins <= local_bins) {
        const partition p = partition_of(q.context().device(), n);
        const cl_ulong chunk = p.chunk;
        const cl_uint nb = static_cast<cl_uint>(bins), copies = local_copies(bins);
        o.grouped(sk::histogram_local, p.groups,
                  {o.mem(a.alloc, access::read), value_of(layout_of(a)),
                   o.mem(counts.get(), access::read_write), o.mem(edges.get(), access::read),
                   launch_arg::value(bounds, esize), launch_arg::value(bounds + esize, esize),
                   launch_arg::value(bounds + 2 * esize, esize), value_of(nb), value_of(copies),
                   value_of(chunk)});
        return;
    }
    const cl_long nb = static_cast<cl_long>(bins);
    o.each(sk::histogram, n,
           {o.mem(a.alloc, access::read), value_of(layout_of(a)),
            o.mem(counts.get(), access::read_write), o.mem(edges.get(), access::read),
            launch_arg::value(bounds, esize), launch_arg::value(bounds + esize, esize),
            launch_arg::value(bounds + 2 * esize, esize), value_of(nb)});
}

} // namespace clarray::detail
