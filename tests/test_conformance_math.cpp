// Conformance matrix (test_conformance.cpp): the one-argument math functions (computed in the
// floating type of their input; complex input too where docs/complex.md defines the function).
#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_MATH(NAME, FN, COMPLEX, TOL)                                                          \
    CONF_FUNCTION(NAME, COMPLEX || !is_cplx<T>, TOL) {                                             \
        const auto a = c.in<T, S>(0);                                                              \
        c.check(0, ca::FN(a));                                                                     \
    }

CONF_MATH(sin, sin, true, math_tol)
CONF_MATH(cos, cos, true, math_tol)
CONF_MATH(tan, tan, true, math_tol)
CONF_MATH(arcsin, asin, true, math_tol)
CONF_MATH(arccos, acos, true, math_tol)
CONF_MATH(arctan, atan, true, math_tol)
CONF_MATH(sinh, sinh, true, math_tol)
CONF_MATH(cosh, cosh, true, math_tol)
CONF_MATH(tanh, tanh, true, math_tol)
CONF_MATH(arcsinh, asinh, true, math_tol)
CONF_MATH(arccosh, acosh, true, math_tol)
CONF_MATH(arctanh, atanh, true, math_tol)
