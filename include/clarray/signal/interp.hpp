#pragma once
// NumPy's interp on the device (docs/signal.md): piecewise-linear interpolation of the points
// (xp, fp) at x.
//
//   auto y = clarray::interp(x, xp, fp);                  // fp[0] left of xp, fp[-1] right
//   auto z = clarray::interp(x, xp, fp, 0.0, 1.0);        // left and right values
//   auto w = clarray::interp(angle, xp, fp, {}, {}, 360.0); // periodic
//
// One searchsorted of x in xp (the sort layer's kernel), two gathers of the neighbours and one
// generated kernel applying NumPy's formula (its NaN fallbacks included); complex fp: one such
// kernel per part, writing the real and imaginary parts of the result. Periodic input is
// reduced and xp sorted first, as NumPy does (a sort, two gathers and two small
// concatenations). Nothing blocks. float64 throughout, as NumPy's (the device needs fp64).
#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/indexing/indexing.hpp"
#include "clarray/sort/sort.hpp"

namespace clarray {

// The element type of interp's result for fp of type T: complex128 for complex fp, else
// float64 (NumPy's).
template <class T>
using interp_t = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;

namespace detail {

template <class S> cl_array<double, S> interp_scalar(const queue& q, double v) {
    cl_array<double, S> a(q, shape_type{});
    a.fill(v);
    return a;
}

// NumPy's compiled interp over increasing xp (n >= 1) into out (x's shape) for each real part
// p of fp: parts[p] of xp's length, with the values left and right of xp as 0-d arrays.
// One searchsorted and two gathers (xp and the parts stacked as rows) serve every part; the
// formula is one kernel per part.
template <class S>
void interp_sorted(const std::vector<cl_array<double, S>>& out, const cl_array<double, S>& x,
                   const cl_array<double, S>& xp, const std::vector<cl_array<double, S>>& parts,
                   const std::vector<cl_array<double, S>>& left,
                   const std::vector<cl_array<double, S>>& right) {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(xp.size());
    const cl_array<std::int64_t, S> pos = searchsorted(xp, x, side::right);
    // x lies in [xp[j], xp[j + 1]) for j = pos - 1: both clipped into xp (the cases outside
    // take other branches below).
    std::vector<cl_array<double, S>> rows{xp};
    rows.insert(rows.end(), parts.begin(), parts.end());
    const cl_array<double, S> table = stack(rows);
    const cl_array<double, S> below = eval(take(table, pos - std::int64_t(1), 1, index_mode::clip));
    const cl_array<double, S> above = eval(take(table, pos, 1, index_mode::clip));
    const cl_array<double, S> x0 = below(std::ptrdiff_t(0)), x1 = above(std::ptrdiff_t(0));
    const cl_array<double, S> first = xp(std::ptrdiff_t(0)), last = xp(n - 1);
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const std::ptrdiff_t r = static_cast<std::ptrdiff_t>(p + 1);
        const cl_array<double, S> y0 = below(r), y1 = above(r), flast = parts[p](n - 1);
        const auto slope = (y1 - y0) / (x1 - x0);
        const auto v = slope * (x - x0) + y0;
        // NumPy's fallbacks: from the right neighbour where that gives NaN, then the common
        // value of equal neighbours.
        const auto v2 = where(isnan(v), slope * (x - x1) + y1, v);
        const auto v3 = where(isnan(v2) & (y0 == y1), y0, v2);
        const auto inner = where(x0 == x, y0, v3);
        cl_array<double, S> dst = out[p];
        dst = where(
            isnan(x), x,
            where(x < first, left[p], where(x > last, right[p], where(x == last, flast, inner))));
    }
}

// The real parts of a 1-d array of F (double: itself; complex: its real and imaginary parts).
template <class F, class S> std::vector<cl_array<double, S>> real_parts(const cl_array<F, S>& a) {
    if constexpr (is_complex_v<F>)
        return {cl_array<double, S>(eval(real(a))), cl_array<double, S>(eval(imag(a)))};
    else
        return {a};
}
// The parts of one value (left or right): given, or the 0-d views of fp's parts at i.
template <class F, class S>
std::vector<cl_array<double, S>> value_parts(const queue& q, const std::optional<F>& v,
                                             const std::vector<cl_array<double, S>>& parts,
                                             std::ptrdiff_t i) {
    std::vector<cl_array<double, S>> r;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        if (!v) {
            r.push_back(parts[p](i));
        } else if constexpr (is_complex_v<F>) {
            r.push_back(interp_scalar<S>(q, p == 0 ? v->real() : v->imag()));
        } else {
            r.push_back(interp_scalar<S>(q, *v));
        }
    }
    return r;
}

} // namespace detail

// NumPy's interp: the piecewise-linear interpolant of (xp, fp) at x, of x's shape, in
// interp_t (float64; complex128 for complex fp, whose real and imaginary parts are interpolated
// separately, as NumPy's). xp must be increasing (not checked, as NumPy); left and right
// (default fp[0] and fp[-1]) are the values below xp[0] and above xp[-1]; NaN in x gives NaN.
// With a period, x and xp are taken modulo it (xp need not be sorted, left and right are
// ignored); usage_error for a period of 0. shape_error for xp or fp that are not 1-d, differ in
// length or are empty. x, xp and fp are arrays or expressions of any dtype (x and xp real).
template <
    class X, class XP, class FP,
    class = std::enable_if_t<detail::is_array_argument_v<X> && detail::is_array_argument_v<XP> &&
                             detail::is_array_argument_v<FP>>>
auto interp(const X& x, const XP& xp, const FP& fp,
            std::optional<interp_t<detail::value_type_of<const FP&>>> left = std::nullopt,
            std::optional<interp_t<detail::value_type_of<const FP&>>> right = std::nullopt,
            std::optional<double> period = std::nullopt) {
    using S = detail::storage_of_t<X>;
    using F = interp_t<detail::value_type_of<const FP&>>;
    static_assert(std::is_same_v<S, detail::storage_of_t<XP>> &&
                      std::is_same_v<S, detail::storage_of_t<FP>>,
                  "clarray::interp: x, xp and fp must have one storage policy");
    static_assert(!is_complex_v<detail::value_type_of<const X&>> &&
                      !is_complex_v<detail::value_type_of<const XP&>>,
                  "clarray::interp: x and xp must be real");
    detail::require_device_argument<X>();
    detail::require_device_argument<XP>();
    detail::require_device_argument<FP>();
    const shape_type sxp = detail::shape_of(xp), sfp = detail::shape_of(fp);
    if (sxp.size() != 1 || sfp.size() != 1)
        throw shape_error("interp: xp and fp must be 1-d, got shapes " + shape_to_string(sxp) +
                          " and " + shape_to_string(sfp));
    if (sxp != sfp)
        throw shape_error("interp: fp and xp are not of the same length (" +
                          std::to_string(sfp[0]) + " and " + std::to_string(sxp[0]) + ")");
    if (sxp[0] == 0) throw shape_error("interp: the sample points xp are empty");
    // Handles: these may share the caller's memory, so they are never assigned to below.
    const cl_array<double, S> xd = detail::materialize_as<double>(x);
    const cl_array<double, S> xpd = detail::materialize_as<double>(xp);
    const cl_array<F, S> fpd = detail::materialize_as<F>(fp);
    const queue& q = detail::queue_of(xd, "interp");
    cl_array<F, S> result(q, xd.shape(), layout::c, xd.data().get());
    if (xd.size() == 0) return result;
    // The result's real parts as double arrays over its memory (complex: every other double).
    std::vector<cl_array<double, S>> out;
    if constexpr (is_complex_v<F>) {
        strides_type st = result.strides();
        for (auto& v : st)
            v *= 2;
        out.emplace_back(q, result.data(), result.shape(), st, 0);
        out.emplace_back(q, result.data(), result.shape(), st, 1);
    } else {
        out.push_back(result);
    }
    if (period) {
        if (*period == 0) throw usage_error("interp: period must be a non-zero value");
        const double p = std::abs(*period);
        // NumPy's: x and xp modulo p, xp sorted, and one point added at either end from the
        // other end shifted by the period.
        const cl_array<double, S> xm = eval(mod(xd, p));
        const cl_array<double, S> xpm = eval(mod(xpd, p));
        const cl_array<std::int64_t, S> order = argsort(xpm);
        const cl_array<double, S> xs = eval(take(xpm, order));
        const cl_array<F, S> fs = eval(take(fpd, order));
        const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(xs.size());
        const cl_array<double, S> lo = eval(xs(range(n - 1, n)) - p);
        const cl_array<double, S> hi = eval(xs(range(0, 1)) + p);
        const cl_array<double, S> xpp = concatenate({lo, xs, hi});
        const cl_array<F, S> fpp = concatenate({fs(range(n - 1, n)), fs, fs(range(0, 1))});
        const auto parts = detail::real_parts(fpp);
        detail::interp_sorted(out, xm, xpp, parts,
                              detail::value_parts<F, S>(q, std::nullopt, parts, 0),
                              detail::value_parts<F, S>(q, std::nullopt, parts, n + 1));
        return result;
    }
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(xpd.size());
    const auto parts = detail::real_parts(fpd);
    detail::interp_sorted(out, xd, xpd, parts, detail::value_parts<F, S>(q, left, parts, 0),
                          detail::value_parts<F, S>(q, right, parts, n - 1));
    return result;
}

} // namespace clarray
