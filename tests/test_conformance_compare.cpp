// Conformance matrix (test_conformance.cpp): element-wise comparisons, extremes,
// two-argument float functions and logic (arithmetic: test_conformance_binary.cpp).
#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_BINARY(NAME, EXPR, ACCEPTS, TOL)                                                      \
    CONF_FUNCTION(NAME, ACCEPTS, TOL) {                                                            \
        const auto a = c.in<T, S>(0);                                                              \
        const auto b = c.in<T, S>(1);                                                              \
        c.check(0, EXPR);                                                                          \
    }

CONF_BINARY(equal, a == b, true, exact)
CONF_BINARY(not_equal, a != b, true, exact)
CONF_BINARY(less, a < b, !is_cplx<T>, exact)
CONF_BINARY(less_equal, a <= b, !is_cplx<T>, exact)
CONF_BINARY(greater, a > b, !is_cplx<T>, exact)
CONF_BINARY(greater_equal, a >= b, !is_cplx<T>, exact)
CONF_BINARY(maximum, ca::maximum(a, b), true, exact)
CONF_BINARY(minimum, ca::minimum(a, b), true, exact)
CONF_BINARY(fmax, ca::fmax(a, b), true, exact)
CONF_BINARY(fmin, ca::fmin(a, b), true, exact)
CONF_BINARY(arctan2, ca::atan2(a, b), !is_cplx<T>, math_tol)
CONF_BINARY(hypot, ca::hypot(a, b), !is_cplx<T>, math_tol)
CONF_BINARY(copysign, ca::copysign(a, b), !is_cplx<T>, exact)
CONF_BINARY(fmod, ca::fmod(a, b), !is_cplx<T>, exact)
CONF_BINARY(nextafter, ca::nextafter(a, b), !is_cplx<T>, exact)
CONF_BINARY(logical_and, ca::logical_and(a, b), true, exact)
CONF_BINARY(logical_or, ca::logical_or(a, b), true, exact)
CONF_BINARY(logical_xor, ca::logical_xor(a, b), true, exact)
