// Conformance matrix (test_conformance.cpp): element-wise unary operators, classification,
// complex parts and the rounding functions.
#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_UNARY(NAME, EXPR, ACCEPTS, TOL)                                                       \
    CONF_FUNCTION(NAME, ACCEPTS, TOL) {                                                            \
        const auto a = c.in<T, S>(0);                                                              \
        c.check(0, EXPR);                                                                          \
    }

CONF_UNARY(negative, -a, !is_bool<T>, exact)
CONF_UNARY(invert, ~a, !ca::is_inexact_v<T>, exact)
CONF_UNARY(logical_not, !a, true, exact)
CONF_UNARY(absolute, ca::abs(a), true, math_tol)
CONF_UNARY(isnan, ca::isnan(a), true, exact)
CONF_UNARY(isinf, ca::isinf(a), true, exact)
CONF_UNARY(isfinite, ca::isfinite(a), true, exact)
CONF_UNARY(real, ca::real(a), true, exact)
CONF_UNARY(imag, ca::imag(a), true, exact)
CONF_UNARY(conj, ca::conj(a), true, exact)
CONF_UNARY(angle, ca::angle(a), true, math_tol)
CONF_UNARY(ceil, ca::ceil(a), !is_cplx<T>, exact)
CONF_UNARY(floor, ca::floor(a), !is_cplx<T>, exact)
CONF_UNARY(trunc, ca::trunc(a), !is_cplx<T>, exact)
CONF_UNARY(round, ca::round(a), !is_cplx<T>, exact)
CONF_UNARY(rint, ca::rint(a), !is_cplx<T>, exact)
CONF_UNARY(fabs, ca::fabs(a), !is_cplx<T>, exact)
CONF_UNARY(logb, ca::logb(a), !is_cplx<T>, exact)
CONF_UNARY(sqrt, ca::sqrt(a), true, exact)
