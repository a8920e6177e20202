// Conformance matrix (test_conformance.cpp): reductions and scans, over all axes and along one.
#include <limits>

#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_REDUCE(NAME, EXPR, ACCEPTS, TOL)                                                      \
    CONF_FUNCTION(NAME, ACCEPTS, TOL) {                                                            \
        const auto a = c.in<T, S>(0);                                                              \
        c.check(0, EXPR);                                                                          \
    }
#define CONF_REDUCE2(NAME, FN, ACCEPTS, TOL)                                                       \
    CONF_REDUCE(NAME, ca::FN(a), ACCEPTS, TOL)                                                     \
    CONF_REDUCE(NAME##_axis1, ca::FN(a, 1), ACCEPTS, TOL)

CONF_REDUCE2(sum, sum, true, reduce_tol)
CONF_REDUCE2(prod, prod, true, reduce_tol)
CONF_REDUCE2(mean, mean, true, reduce_tol)
CONF_REDUCE2(var, var, true, reduce_tol)
CONF_REDUCE2(std, stddev, true, reduce_tol)
CONF_REDUCE2(any, any, true, exact)
CONF_REDUCE2(all, all, true, exact)
CONF_REDUCE2(max, max, true, exact)
CONF_REDUCE2(min, min, true, exact)
CONF_REDUCE2(argmax, argmax, true, exact)
CONF_REDUCE2(argmin, argmin, true, exact)
CONF_REDUCE(sum_axis0_keepdims, ca::sum(a, 0, true), true, reduce_tol)
CONF_REDUCE(var_ddof1_axis0, ca::var(a, 0, false, 1), true, reduce_tol)
CONF_REDUCE(norm, ca::norm(a), true, reduce_tol)
CONF_REDUCE(norm_1, ca::norm(a, 1), true, reduce_tol)
CONF_REDUCE(norm_inf_axis1, ca::norm(a, std::numeric_limits<double>::infinity(), 1), true,
            reduce_tol)
CONF_REDUCE(cumsum, ca::cumsum(a), true, reduce_tol)
CONF_REDUCE(cumsum_axis0, ca::cumsum(a, 0), true, reduce_tol)
CONF_REDUCE(cumprod, ca::cumprod(a), true, reduce_tol)
CONF_REDUCE(cumprod_axis1, ca::cumprod(a, 1), true, reduce_tol)

CONF_FUNCTION(dot, true, reduce_tol) {
    const auto a = c.in<T, S>(0), b = c.in<T, S>(1);
    c.check(0, ca::dot(a, b));
}
CONF_FUNCTION(dot_matrix, true, reduce_tol) {
    const auto a = c.in<T, S>(0), b = c.in<T, S>(1);
    c.check(0, ca::dot(a, b.transpose()));
}
CONF_FUNCTION(vdot, true, reduce_tol) {
    const auto a = c.in<T, S>(0), b = c.in<T, S>(1);
    c.check(0, ca::vdot(a, b));
}
