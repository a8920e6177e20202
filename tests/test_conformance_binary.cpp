// Conformance matrix (test_conformance.cpp): element-wise binary operators and functions.
#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_BINARY(NAME, EXPR, ACCEPTS, TOL)                                                      \
    CONF_FUNCTION(NAME, ACCEPTS, TOL) {                                                            \
        const auto a = c.in<T, S>(0);                                                              \
        const auto b = c.in<T, S>(1);                                                              \
        c.check(0, EXPR);                                                                          \
    }

CONF_BINARY(add, a + b, true, exact)
CONF_BINARY(subtract, a - b, !is_bool<T>, exact)
CONF_BINARY(multiply, a* b, true, exact)
CONF_BINARY(divide, a / b, true, exact)
CONF_BINARY(remainder, a % b, !is_bool<T> && !is_cplx<T>, exact)
CONF_BINARY(floor_divide, ca::floor_divide(a, b), !is_bool<T> && !is_cplx<T>, exact)
CONF_BINARY(bitwise_and, a& b, !ca::is_inexact_v<T>, exact)
CONF_BINARY(bitwise_or, a | b, !ca::is_inexact_v<T>, exact)
CONF_BINARY(bitwise_xor, a ^ b, !ca::is_inexact_v<T>, exact)
CONF_BINARY(left_shift, a << b, is_int<T>, exact)
CONF_BINARY(right_shift, a >> b, is_int<T>, exact)
CONF_BINARY(power, ca::pow(a, b), true, special_tol)
CONF_BINARY(power_negative, ca::pow(a, b), true, special_tol)
