#pragma once
// NumPy's polyval on the device (docs/signal.md): p[0] x^(n-1) + ... + p[n-1] by Horner's rule,
// one generated kernel per coefficient (the same kernel each time: the coefficient is a 0-d
// view of p, an operand), in the NumPy promotion of p's and x's dtypes (integers wrap, as
// NumPy's). Nothing blocks.
#include <string>
#include <type_traits>

#include "clarray/array/cl_array.hpp"
#include "clarray/error.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/expr/materialize.hpp"
#include "clarray/expr/operators.hpp"
#include "clarray/expr/promotion.hpp"

namespace clarray {

// NumPy's polyval: the polynomial with the 1-d coefficients p (highest power first) at every
// element of x (x's shape); an empty p gives zeros. p and x are arrays or expressions of one
// storage policy. shape_error for p that is not 1-d.
template <
    class P, class X,
    class = std::enable_if_t<detail::is_array_argument_v<P> && detail::is_array_argument_v<X>>>
auto polyval(const P& p_in, const X& x_in) {
    using R = promote_t<detail::value_type_of<const P&>, detail::value_type_of<const X&>>;
    using S = detail::storage_of_t<X>;
    static_assert(std::is_same_v<S, detail::storage_of_t<P>>,
                  "clarray::polyval: p and x must have one storage policy");
    static_assert(!std::is_same_v<R, bool>, "clarray::polyval: bool polynomials are not supported");
    detail::require_device_argument<P>();
    detail::require_device_argument<X>();
    decltype(auto) p = detail::materialize(p_in);
    decltype(auto) x = detail::materialize(x_in);
    if (p.dimension() != 1)
        throw shape_error("polyval: p must be 1-d, got shape " + shape_to_string(p.shape()));
    cl_array<R, S> y(x.get_queue(), x.shape(), layout::c, x.data().get());
    if (y.size() == 0) return y;
    y.fill(R(0));
    // NumPy's loop: y = y * x + p[k], from zeros (so 0 * inf gives NaN there too).
    for (std::size_t k = 0; k < p.size(); ++k)
        y = astype<R>(y * x + p(static_cast<std::ptrdiff_t>(k)));
    return y;
}

} // namespace clarray
