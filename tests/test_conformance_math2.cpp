// Conformance matrix (test_conformance.cpp): exponentials, logarithms, roots and special
// functions (computed in the floating type of their input; on complex input exp and log);
// trigonometric and hyperbolic functions: test_conformance_math.cpp.
#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_MATH(NAME, FN, COMPLEX, TOL)                                                          \
    CONF_FUNCTION(NAME, COMPLEX || !is_cplx<T>, TOL) {                                             \
        const auto a = c.in<T, S>(0);                                                              \
        c.check(0, ca::FN(a));                                                                     \
    }

CONF_MATH(exp, exp, true, math_tol)
CONF_MATH(exp2, exp2, false, math_tol)
CONF_MATH(exp10, exp10, false, math_tol)
CONF_MATH(expm1, expm1, true, math_tol)
CONF_MATH(log, log, true, math_tol)
CONF_MATH(log2, log2, true, math_tol)
CONF_MATH(log10, log10, true, math_tol)
CONF_MATH(log1p, log1p, true, math_tol)
CONF_MATH(rsqrt, rsqrt, false, math_tol)
CONF_MATH(cbrt, cbrt, false, math_tol)
CONF_MATH(erf, erf, false, special_tol)
CONF_MATH(erfc, erfc, false, special_tol)
CONF_MATH(tgamma, tgamma, false, special_tol)
// lgamma: OpenCL gives no bound; near its zeros (1, 2) the error is absolute.
CONF_MATH(lgamma, lgamma, false, (tolerance{16, 4}))
CONF_MATH(sinpi, sinpi, false, math_tol)
CONF_MATH(cospi, cospi, false, math_tol)
CONF_MATH(tanpi, tanpi, false, math_tol)
