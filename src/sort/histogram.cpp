// bincount, histogram, histogram2d and digitize: counts (and weighted sums) by 64-bit atomics in
// local sub-histograms or global memory (kernels/sort.cl), after an exact min/max pre-pass over
// the input's keys where the range comes from the data. Explicit edges are read back (they are
// few), checked and uploaded in the type the values are compared in; each histogram is then one
// pass over the input (a binary search over the edges per element).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/sort/histogram.hpp"
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

namespace {

// NumPy's _get_outer_edges: the range's ends (checked), or the data's extremes (read back:
// blocks), or (0, 1) for no data; an empty range widened by 0.5 each side.
std::pair<double, double> outer_edges(const op& o, const array_ref& a, const double* range,
                                      const std::string& what) {
    double lo = 0, hi = 1;
    if (range) {
        lo = range[0];
        hi = range[1];
        if (lo > hi)
            throw usage_error(what + ": max must be larger than min in range, got (" + text(lo) +
                              ", " + text(hi) + ")");
        if (!std::isfinite(lo) || !std::isfinite(hi))
            throw usage_error(what + ": range (" + text(lo) + ", " + text(hi) + ") is not finite");
    } else if (checked_size(*a.shape)) {
        const extremes e = minmax(o, a);
        lo = e.lo.d;
        hi = e.hi.d;
        if (e.nan || !std::isfinite(lo) || !std::isfinite(hi))
            throw usage_error(what + ": autodetected range of [" + e.lo.text() + ", " +
                              (e.nan ? std::string("nan") : e.hi.text()) + "] is not finite");
    }
    if (lo == hi) {
        lo -= 0.5;
        hi += 0.5;
    }
    return {lo, hi};
}

// Equal-width edges made on the device (sort_edges; o's E is the edge type) and the kernel
// arguments lo, hi and hi - lo in it.
struct uniform_edges {
    double lo = 0, hi = 1;
    std::shared_ptr<allocation> edges;
    unsigned char bounds[3 * 8] = {};
    std::size_t esize = 8;
    launch_arg bound(int k) const { return launch_arg::value(bounds + k * esize, esize); }
};
uniform_edges make_uniform_edges(const op& o, const array_ref& a, std::size_t bins,
                                 const double* range, dtype edge_type, const std::string& what) {
    uniform_edges u;
    if (bins == 0) throw usage_error(what + ": bins must be at least 1");
    std::tie(u.lo, u.hi) = outer_edges(o, a, range, what);
    const double lo = u.lo, hi = u.hi;
    // NumPy's linspace(lo, hi, bins + 1), in float64 where the device has it, as the edge type.
    const bool single = edge_type == dtype::float32;
    u.esize = single ? 4 : 8;
    u.edges = o.alloc((bins + 1) * u.esize);
    const cl_ulong nbins = bins;
    const double step = (hi - lo) / static_cast<double>(bins);
    if (o.q.context().device().has_fp64()) {
        o.each(sk::edges, bins + 1,
               {o.mem(u.edges.get(), access::write), value_of(lo), value_of(hi), value_of(step),
                value_of(nbins)});
    } else {
        const float flo = static_cast<float>(lo), fhi = static_cast<float>(hi),
                    fstep = static_cast<float>(step);
        o.each(sk::edges, bins + 1,
               {o.mem(u.edges.get(), access::write), value_of(flo), value_of(fhi), value_of(fstep),
                value_of(nbins)});
    }
    // The comparisons and the bin arithmetic in the edge type, as NumPy's.
    const double denom = hi - lo;
    if (single) {
        const float v[3] = {static_cast<float>(lo), static_cast<float>(hi),
                            static_cast<float>(denom)};
        std::memcpy(u.bounds, v, sizeof v);
    } else {
        const double v[3] = {lo, hi, denom};
        std::memcpy(u.bounds, v, sizeof v);
    }
    return u;
}

// The widths of the equal-width bins as NumPy's density divides by them: the difference of
// neighbouring edges in the edge type (the edges as sort_edges makes them on an fp64 device).
std::vector<double> uniform_widths(double lo, double hi, std::size_t bins, dtype edge_type) {
    const double step = (hi - lo) / static_cast<double>(bins);
    std::vector<double> w(bins);
    const auto edge = [&](std::size_t i) {
        return i == bins ? hi : static_cast<double>(i) * step + lo;
    };
    for (std::size_t i = 0; i < bins; ++i)
        w[i] =
            edge_type == dtype::float32
                ? static_cast<double>(static_cast<float>(edge(i + 1)) - static_cast<float>(edge(i)))
                : edge(i + 1) - edge(i);
    return w;
}

// ---- Explicit edges: read back (they are few), checked, and uploaded in the comparison type.

template <class I> number integer_number(const unsigned char* p) {
    I v;
    std::memcpy(&v, p, sizeof v);
    number r;
    r.integer = true;
    if constexpr (std::is_signed_v<I>) {
        r.negative = v < 0;
        const std::uint64_t u = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
        r.mag = r.negative ? std::uint64_t(0) - u : u;
    } else {
        r.mag = v;
    }
    r.d = r.negative ? -static_cast<double>(r.mag) : static_cast<double>(r.mag);
    return r;
}
template <class F> number float_number(const unsigned char* p) {
    F v;
    std::memcpy(&v, p, sizeof v);
    number r;
    r.d = static_cast<double>(v);
    return r;
}

// Element p (of dtype t, real) as an exact number.
number load_number(dtype t, const unsigned char* p) {
    switch (t) {
    case dtype::bool_:
    case dtype::uint8:
        return integer_number<std::uint8_t>(p);
    case dtype::int8:
        return integer_number<std::int8_t>(p);
    case dtype::int16:
        return integer_number<std::int16_t>(p);
    case dtype::uint16:
        return integer_number<std::uint16_t>(p);
    case dtype::int32:
        return integer_number<std::int32_t>(p);
    case dtype::uint32:
        return integer_number<std::uint32_t>(p);
    case dtype::int64:
        return integer_number<std::int64_t>(p);
    case dtype::uint64:
        return integer_number<std::uint64_t>(p);
    case dtype::float16: {
        std::uint16_t b;
        std::memcpy(&b, p, 2);
        number r;
        r.d = static_cast<float>(half::from_bits(b));
        return r;
    }
    case dtype::float32:
        return float_number<float>(p);
    case dtype::float64:
        return float_number<double>(p);
    default:
        throw dtype_error(std::string("histogram: no real value of dtype ") + dtype_name(t));
    }
}

template <class V> void put(V v, unsigned char* p) {
    std::memcpy(p, &v, sizeof v);
}
// v stored as dtype t, a type that holds it (NumPy's promotion of its dtype), or rounded to the
// nearest for float types.
void store_number(dtype t, const number& v, unsigned char* p) {
    const std::int64_t s =
        static_cast<std::int64_t>(v.negative ? std::uint64_t(0) - v.mag : v.mag); // integers
    switch (t) {
    case dtype::int8:
        return put(static_cast<std::int8_t>(s), p);
    case dtype::bool_:
    case dtype::uint8:
        return put(static_cast<std::uint8_t>(s), p);
    case dtype::int16:
        return put(static_cast<std::int16_t>(s), p);
    case dtype::uint16:
        return put(static_cast<std::uint16_t>(s), p);
    case dtype::int32:
        return put(static_cast<std::int32_t>(s), p);
    case dtype::uint32:
        return put(static_cast<std::uint32_t>(s), p);
    case dtype::int64:
        return put(s, p);
    case dtype::uint64:
        return put(v.mag, p);
    case dtype::float32:
        return put(static_cast<float>(v.d), p);
    case dtype::float64:
        return put(v.d, p);
    default:
        throw dtype_error(std::string("histogram: no comparison in dtype ") + dtype_name(t));
    }
}

// a < b for numbers of one dtype.
bool number_less(const number& a, const number& b) {
    if (!a.integer) return a.d < b.d;
    if (a.negative != b.negative) return a.negative;
    return a.negative ? a.mag > b.mag : a.mag < b.mag;
}
bool is_nan(const number& v) {
    return !v.integer && std::isnan(v.d);
}

// The elements of the 1-d real view e (the bins of `what`), read back: blocks. raw: their bytes.
std::vector<number> read_edges(const queue& q, const array_ref& e, const std::string& what,
                               const std::string& name, std::vector<unsigned char>& raw) {
    queue_of(e, what.c_str());
    if (e.q->context() != q.context()) throw usage_error(what + ": arrays of different contexts");
    const dtype_kind kind = dtype_kind_of(e.type);
    if (kind == dtype_kind::complex)
        throw dtype_error(what + ": " + name + " is complex (" + dtype_name(e.type) +
                          "); edges must be real");
    if (e.shape->size() != 1)
        throw shape_error(what + ": " + name + " must be 1-d, it has " +
                          std::to_string(e.shape->size()) + " dimensions");
    const std::size_t n = (*e.shape)[0], size = dtype_size(e.type);
    std::vector<number> v(n);
    raw.resize(n * size);
    if (n == 0) return v;
    read_c_order(e, raw.data());
    for (std::size_t i = 0; i < n; ++i)
        v[i] = load_number(e.type, raw.data() + i * size);
    return v;
}

// Reads and checks the explicit edges of a histogram (NumPy: ValueError where they decrease;
// here also where one is NaN, which NumPy lets through into meaningless bins).
std::vector<number> histogram_edges(const queue& q, const array_ref& e, const std::string& what,
                                    const std::string& name, std::vector<unsigned char>& raw) {
    if (e.type == dtype::bool_)
        throw dtype_error(what + ": bool " + name + " (convert them to a numeric dtype)");
    std::vector<number> v = read_edges(q, e, what, name, raw);
    if (v.empty())
        throw usage_error(what + ": " + name +
                          " is empty; an array of bins holds the edges, at least one");
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (is_nan(v[i]))
            throw usage_error(what + ": " + name + "[" + std::to_string(i) + "] is NaN");
        if (i && number_less(v[i], v[i - 1]))
            throw usage_error(what + ": " + name + " must increase monotonically, when an array: " +
                              name + "[" + std::to_string(i - 1) + "] = " + v[i - 1].text() +
                              " > " + name + "[" + std::to_string(i) + "] = " + v[i].text());
    }
    return v;
}

// v in dtype t on the device (a temporary; the write does not block), in reverse when asked.
std::shared_ptr<allocation> upload_numbers(const op& o, dtype t, const std::vector<number>& v,
                                           bool reverse = false) {
    const std::size_t size = dtype_size(t);
    std::vector<unsigned char> host(v.size() * size);
    for (std::size_t i = 0; i < v.size(); ++i)
        store_number(t, v[reverse ? v.size() - 1 - i : i], host.data() + i * size);
    auto mem = o.temp(std::max<std::size_t>(host.size(), 1));
    if (!host.empty()) mem->write_staged(o.q, 0, host.size(), host.data());
    return mem;
}
std::shared_ptr<allocation> upload_bytes(const op& o, const void* bytes, std::size_t n,
                                         bool temporary) {
    auto mem = temporary ? o.temp(n) : o.alloc(n);
    mem->write_staged(o.q, 0, n, bytes);
    return mem;
}

// NumPy's density divides by np.diff(edges) in the edges' dtype, as float64: differences of
// integers exact here (NumPy's wrap in narrow integer types is not reproduced), of float16 and
// float32 edges rounded to that type.
std::vector<double> edge_widths(const std::vector<number>& e, dtype t) {
    std::vector<double> w(e.empty() ? 0 : e.size() - 1);
    for (std::size_t i = 0; i < w.size(); ++i) {
        const number &a = e[i], &b = e[i + 1];
        if (a.integer) {
            if (a.negative == b.negative)
                w[i] = static_cast<double>(a.negative ? a.mag - b.mag : b.mag - a.mag);
            else
                w[i] = static_cast<double>(a.mag + b.mag); // a < 0 <= b
        } else if (t == dtype::float32) {
            w[i] = static_cast<double>(static_cast<float>(b.d) - static_cast<float>(a.d));
        } else if (t == dtype::float16) {
            w[i] = static_cast<float>(half(b.d - a.d));
        } else {
            w[i] = b.d - a.d;
        }
    }
    return w;
}

// Weights of `what`: a's shape, one context, and the float64 sums need fp64.
void check_weights(const queue& q, const array_ref& a, const array_ref& w,
                   const std::string& what) {
    queue_of(w, what.c_str());
    if (w.q->context() != q.context()) throw usage_error(what + ": arrays of different contexts");
    if (dtype_kind_of(w.type) == dtype_kind::complex)
        throw dtype_error(what + ": complex weights (" + std::string(dtype_name(w.type)) +
                          ") are not supported");
    if (*w.shape != *a.shape)
        throw shape_error(what + ": weights should have the same shape as the values (" +
                          std::to_string(checked_size(*w.shape)) + " weights for " +
                          std::to_string(checked_size(*a.shape)) + " values, or another shape)");
}
void check_fp64(const queue& q, const std::string& what) {
    if (!q.context().device().has_fp64())
        throw unsupported(what + ": weighted counts and densities are float64; the device lacks "
                                 "fp64");
}

std::shared_ptr<allocation> zeros(const op& o, std::size_t n) {
    if (n == 0) return nullptr;
    auto mem = o.alloc(n * 8);
    const std::uint64_t zero = 0;
    mem->fill(o.q, &zero, 8, 0, n * 8);
    return mem;
}

// NumPy's density of the bins' counts (int64) or sums (float64): n / wx / wy / sum(n), bins =
// wx.size() * wy.size() (row-major).
std::shared_ptr<allocation> density_of(const op& o, const std::shared_ptr<allocation>& n, bool sums,
                                       const std::vector<double>& wx,
                                       const std::vector<double>& wy) {
    const std::size_t bins = wx.size() * wy.size();
    if (bins == 0) return nullptr;
    auto out = o.alloc(bins * 8);
    auto dx = upload_bytes(o, wx.data(), wx.size() * 8, true);
    auto dy = upload_bytes(o, wy.data(), wy.size() * 8, true);
    const cl_uint from_sums = sums;
    const cl_ulong ny = wy.size(), nb = bins;
    o.grouped(sk::density, 1,
              {o.mem(n.get(), access::read), o.mem(n.get(), access::read), value_of(from_sums),
               o.mem(dx.get(), access::read), o.mem(dy.get(), access::read), value_of(ny),
               o.mem(out.get(), access::write), value_of(nb)});
    return out;
}

} // namespace

void histogram_impl(const array_ref& a, std::size_t bins, const double* range, dtype edge_type,
                    std::shared_ptr<allocation>& counts, std::shared_ptr<allocation>& edges) {
    const queue& q = queue_of(a, "histogram");
    if (bins == 0) throw usage_error("histogram: bins must be at least 1");
    if (a.type == dtype::bool_)
        throw dtype_error("histogram: bool input (convert it to an integer dtype)");
    check_atomics(q, "histogram");
    const op o{q, a.kind, a.alloc, a.type, edge_type, "histogram"};
    const std::size_t n = checked_size(*a.shape);
    const uniform_edges u = make_uniform_edges(o, a, bins, range, edge_type, "histogram");
    edges = u.edges;
    counts = zeros(o, bins);
    if (n == 0) return;
    if (bins <= local_bins) {
        const partition p = partition_of(q.context().device(), n);
        const cl_ulong chunk = p.chunk;
        const cl_uint nb = static_cast<cl_uint>(bins), copies = local_copies(bins);
        o.grouped(sk::histogram_local, p.groups,
                  {o.mem(a.alloc, access::read), value_of(layout_of(a)),
                   o.mem(counts.get(), access::read_write), o.mem(edges.get(), access::read),
                   u.bound(0), u.bound(1), u.bound(2), value_of(nb), value_of(copies),
                   value_of(chunk)});
        return;
    }
    const cl_long nb = static_cast<cl_long>(bins);
    o.each(sk::histogram, n,
           {o.mem(a.alloc, access::read), value_of(layout_of(a)),
            o.mem(counts.get(), access::read_write), o.mem(edges.get(), access::read), u.bound(0),
            u.bound(1), u.bound(2), value_of(nb)});
}

histogram_parts histogram_general_impl(const array_ref& a, const histogram_args& h) {
    const std::string what = "histogram";
    const queue& q = queue_of(a, "histogram");
    if (a.type == dtype::bool_)
        throw dtype_error("histogram: bool input (convert it to an integer dtype)");
    if (dtype_kind_of(a.type) == dtype_kind::complex)
        throw dtype_error("histogram: complex input (take its real part or magnitude)");
    check_atomics(q, "histogram");
    if (h.weights) check_weights(q, a, *h.weights, what);
    if (h.weights || h.density) check_fp64(q, what);
    const std::size_t n = checked_size(*a.shape);
    const dtype wt = h.weights ? h.weights->type : a.type;
    histogram_parts r;
    std::vector<double> widths; // density's divisors
    std::shared_ptr<allocation> kernel_edges;
    cl_uint uniform = 0;
    uniform_edges u;
    const dtype e_type = h.edges ? h.compare : h.edge_type;
    const op o{q,      a.kind, a.alloc,
               a.type, wt,     "histogram",
               false,  false,  more_types{e_type, a.type, e_type}};
    if (h.edges) {
        std::vector<unsigned char> raw;
        const std::vector<number> e = histogram_edges(q, *h.edges, what, "bins", raw);
        r.bins = e.size() - 1; // one edge: no bins, as NumPy
        r.edges = upload_bytes(o, raw.data(), raw.size(), false);
        u.esize = dtype_size(h.compare); // the kernels' unused lo, hi, denom: zeros of type E
        if (h.density) widths = edge_widths(e, h.edges->type);
        if (n && r.bins) kernel_edges = upload_numbers(o, h.compare, e);
    } else {
        r.bins = h.bins;
        u = make_uniform_edges(o, a, h.bins, h.range, h.edge_type, what);
        r.edges = kernel_edges = u.edges;
        uniform = 1;
        if (h.density) widths = uniform_widths(u.lo, u.hi, h.bins, h.edge_type);
    }
    std::shared_ptr<allocation> counts = zeros(o, r.bins);
    if (n && r.bins) {
        const cl_ulong ne = r.bins + 1;
        const partition p = partition_of(q.context().device(), n);
        const cl_ulong chunk = p.chunk;
        // (launch_arg keeps pointers: the layouts live in variables)
        const sort_layout la = layout_of(a);
        const launch_arg in = o.mem(a.alloc, access::read), L = value_of(la),
                         out = o.mem(counts.get(), access::read_write),
                         edges = o.mem(kernel_edges.get(), access::read);
        if (h.weights) {
            // Equal-width bins through histogram_bin (its bounds in the edge type), explicit ones
            // through the search; lo, hi and denom are unused then.
            const sort_layout lw = layout_of(*h.weights);
            const launch_arg w = o.mem(h.weights->alloc, access::read), LW = value_of(lw);
            if (r.bins <= local_sums)
                o.grouped(sk::histogram_weighted_local, p.groups,
                          {in, L, w, LW, out, edges, value_of(ne), u.bound(0), u.bound(1),
                           u.bound(2), value_of(uniform), value_of(chunk)});
            else
                o.each(sk::histogram_weighted, n,
                       {in, L, w, LW, out, edges, value_of(ne), u.bound(0), u.bound(1), u.bound(2),
                        value_of(uniform)});
        } else if (uniform && r.bins <= local_bins) {
            const cl_uint nb = static_cast<cl_uint>(r.bins), copies = local_copies(r.bins);
            o.grouped(sk::histogram_local, p.groups,
                      {in, L, out, edges, u.bound(0), u.bound(1), u.bound(2), value_of(nb),
                       value_of(copies), value_of(chunk)});
        } else if (uniform) {
            const cl_long nb = static_cast<cl_long>(r.bins);
            o.each(sk::histogram, n,
                   {in, L, out, edges, u.bound(0), u.bound(1), u.bound(2), value_of(nb)});
        } else if (r.bins <= local_bins) {
            const cl_uint nb = static_cast<cl_uint>(r.bins), copies = local_copies(r.bins);
            o.grouped(
                sk::histogram_search_local, p.groups,
                {in, L, out, edges, value_of(ne), value_of(nb), value_of(copies), value_of(chunk)});
        } else {
            o.each(sk::histogram_search, n, {in, L, out, edges, value_of(ne)});
        }
    }
    r.counts = h.density ? density_of(o, counts, h.weights != nullptr, widths, {1.0}) : counts;
    return r;
}

histogram2d_parts histogram2d_impl(const array_ref& x, const array_ref& y, const histogram_args& ax,
                                   const histogram_args& ay, const array_ref* weights,
                                   bool density) {
    const std::string what = "histogram2d";
    const queue& q = queue_of(x, "histogram2d");
    queue_of(y, "histogram2d");
    for (const array_ref* v : {&x, &y})
        if (v->type == dtype::bool_)
            throw dtype_error("histogram2d: bool input (convert it to an integer dtype)");
    if (y.q->context() != q.context()) throw usage_error(what + ": arrays of different contexts");
    if (*x.shape != *y.shape)
        throw shape_error("histogram2d: x and y must have one shape (" +
                          std::to_string(checked_size(*x.shape)) + " and " +
                          std::to_string(checked_size(*y.shape)) + " elements, or other shapes)");
    check_atomics(q, "histogram2d");
    check_fp64(q, what); // the counts are float64, as NumPy's
    if (weights) check_weights(q, x, *weights, what);
    const std::size_t n = checked_size(*x.shape);
    const op o{q,
               x.kind,
               x.alloc,
               x.type,
               weights ? weights->type : x.type,
               "histogram2d",
               false,
               false,
               more_types{ax.compare, y.type, ay.compare}};
    // Each axis's edges on the host (explicit ones read back and checked; equal-width ones as
    // NumPy's linspace), the result's copy in the edges' dtype, the kernel's in the comparison
    // type, and the widths.
    struct axis {
        std::vector<number> e;
        std::shared_ptr<allocation> edges, kernel_edges;
        std::vector<double> widths;
    } axes[2];
    const array_ref* values[2] = {&x, &y};
    const histogram_args* args[2] = {&ax, &ay};
    for (int k = 0; k < 2; ++k) {
        const histogram_args& h = *args[k];
        axis& A = axes[k];
        const std::string name = k ? "ybins" : "xbins";
        dtype t = h.edge_type;
        std::vector<unsigned char> raw;
        if (h.edges) {
            A.e = histogram_edges(q, *h.edges, what, name, raw);
            t = h.edges->type;
        } else {
            if (h.bins == 0) throw usage_error(what + ": " + name + " must be at least 1");
            // The extremes of this axis's values (an op of their type).
            const op ok{q,
                        values[k]->kind,
                        values[k]->alloc,
                        values[k]->type,
                        values[k]->type,
                        "histogram2d"};
            const auto [lo0, hi0] = outer_edges(ok, *values[k], h.range, what);
            // NumPy's linspace(lo, hi, bins + 1) in the edge type: float32 arithmetic for
            // float32 edges.
            const std::size_t nb = h.bins;
            A.e.resize(nb + 1);
            raw.resize((nb + 1) * dtype_size(t));
            for (std::size_t i = 0; i <= nb; ++i) {
                double v;
                if (t == dtype::float32) {
                    const float flo = static_cast<float>(lo0), fhi = static_cast<float>(hi0);
                    const float delta = fhi - flo, step = delta / static_cast<float>(nb);
                    const float fi = static_cast<float>(i);
                    v = i == nb     ? fhi
                        : step == 0 ? fi / static_cast<float>(nb) * delta + flo
                                    : fi * step + flo;
                } else {
                    const double delta = hi0 - lo0, step = delta / static_cast<double>(nb);
                    const double di = static_cast<double>(i);
                    v = i == nb     ? hi0
                        : step == 0 ? di / static_cast<double>(nb) * delta + lo0
                                    : di * step + lo0;
                }
                A.e[i].d = v;
                store_number(t, A.e[i], raw.data() + i * dtype_size(t));
            }
        }
        A.edges = upload_bytes(o, raw.data(), raw.size(), false);
        if (density) A.widths = edge_widths(A.e, t);
        if (n && A.e.size() > 1) A.kernel_edges = upload_numbers(o, h.compare, A.e);
    }
    histogram2d_parts r;
    r.nx = axes[0].e.size() - 1;
    r.ny = axes[1].e.size() - 1;
    r.xedges = axes[0].edges;
    r.yedges = axes[1].edges;
    const std::size_t bins = r.nx * r.ny;
    std::shared_ptr<allocation> counts = zeros(o, bins);
    if (n && bins) {
        const cl_ulong nex = r.nx + 1, ney = r.ny + 1;
        const partition p = partition_of(q.context().device(), n);
        const cl_ulong chunk = p.chunk;
        const sort_layout lx = layout_of(x), ly = layout_of(y);
        const launch_arg X = o.mem(x.alloc, access::read), LX = value_of(lx),
                         Y = o.mem(y.alloc, access::read), LY = value_of(ly),
                         out = o.mem(counts.get(), access::read_write),
                         ex = o.mem(axes[0].kernel_edges.get(), access::read),
                         ey = o.mem(axes[1].kernel_edges.get(), access::read);
        const cl_uint nb = static_cast<cl_uint>(std::min(bins, local_bins));
        if (weights) {
            const sort_layout lw = layout_of(*weights);
            const launch_arg w = o.mem(weights->alloc, access::read), LW = value_of(lw);
            if (bins <= local_sums)
                o.grouped(sk::histogram2d_weighted_local, p.groups,
                          {X, LX, Y, LY, w, LW, out, ex, value_of(nex), ey, value_of(ney),
                           value_of(nb), value_of(chunk)});
            else
                o.each(sk::histogram2d_weighted, n,
                       {X, LX, Y, LY, w, LW, out, ex, value_of(nex), ey, value_of(ney)});
        } else if (bins <= local_bins) {
            const cl_uint copies = local_copies(bins);
            o.grouped(sk::histogram2d_local, p.groups,
                      {X, LX, Y, LY, out, ex, value_of(nex), ey, value_of(ney), value_of(nb),
                       value_of(copies), value_of(chunk)});
        } else {
            o.each(sk::histogram2d, n, {X, LX, Y, LY, out, ex, value_of(nex), ey, value_of(ney)});
        }
    }
    r.sums = weights != nullptr || density;
    r.counts = density ? density_of(o, counts, weights != nullptr, axes[0].widths, axes[1].widths)
                       : counts;
    return r;
}

std::shared_ptr<allocation> digitize_impl(const array_ref& x, const array_ref& bins, dtype compare,
                                          bool right) {
    const std::string what = "digitize";
    const queue& q = queue_of(x, "digitize");
    if (dtype_kind_of(x.type) == dtype_kind::complex)
        throw dtype_error("digitize: x may not be complex");
    std::vector<unsigned char> raw;
    const std::vector<number> e = read_edges(q, bins, what, "bins", raw);
    // NumPy's _monotonicity, on the edges as float64: leading equal edges skipped, then
    // increasing or decreasing throughout (ties allowed); a NaN where the direction is decided
    // makes it neither.
    int mono = 1;
    std::size_t i = 1;
    while (i < e.size() && e[i].d == e[0].d)
        ++i;
    if (i < e.size()) {
        const double first = e[0].d, next = e[i].d;
        mono = first < next ? 1 : first > next ? -1 : 0;
        for (++i; mono && i < e.size(); ++i)
            if (mono > 0 ? e[i - 1].d > e[i].d : e[i - 1].d < e[i].d) mono = 0;
    }
    if (mono == 0)
        throw usage_error("digitize: bins must be monotonically increasing or decreasing");
    // NumPy searches them in its order, NaN last: a NaN before a number leaves them unsorted (a
    // meaningless result in NumPy), an error here.
    for (std::size_t k = 0; k < e.size(); ++k)
        if (is_nan(e[k]) && (mono < 0 || (k + 1 < e.size() && !is_nan(e[k + 1]))))
            throw usage_error("digitize: bins[" + std::to_string(k) +
                              "] is NaN; NaN bins may only end increasing bins");
    const std::size_t n = checked_size(*x.shape);
    if (n == 0) return nullptr;
    const op o{q,      x.kind, x.alloc,
               x.type, x.type, "digitize",
               false,  false,  more_types{compare, x.type, compare}};
    auto result = o.alloc(n * 8);
    // The edges in search order (increasing): decreasing bins reversed.
    auto edges = upload_numbers(o, compare, e, mono < 0);
    const cl_ulong ne = e.size();
    const cl_uint r = right, decreasing = mono < 0;
    o.each(sk::digitize, n,
           {o.mem(x.alloc, access::read), value_of(layout_of(x)), o.mem(edges.get(), access::read),
            value_of(ne), o.mem(result.get(), access::write), value_of(r), value_of(decreasing)});
    return result;
}

} // namespace clarray::detail
