// Conformance matrix (test_conformance.cpp): the one-argument math functions (computed in the
// floating type of their input; on complex input exp, log, sqrt, sin, cos and tanh).
#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_MATH(NAME, FN, COMPLEX, TOL)                                                          \
    CONF_FUNCTION(NAME, COMPLEX || !is_cplx<T>, TOL) {                                             \
        const auto a = c.in<T, S>(0);                                                              \
        c.check(0, ca::FN(a));                                                                     \
    }

CONF_MATH(sin, sin, true, math_tol)
CONF_MATH(cos, cos, true, math_tol)
CONF_MATH(tan, tan, false, math_tol)
CONF_MATH(arcsin, asin, false, math_tol)
CONF_MATH(arccos, acos, false, math_tol)
CONF_MATH(arctan, atan, false, math_tol)
CONF_MATH(sinh, sinh, false, math_tol)
CONF_MATH(cosh, cosh, false, math_tol)
CONF_MATH(tanh, tanh, true, math_tol)
CONF_MATH(arcsinh, asinh, false, math_tol)
CONF_MATH(arccosh, acosh, false, math_tol)
CONF_MATH(arctanh, atanh, false, math_tol)
