// Conformance matrix (test_conformance.cpp): manipulation (views, joins, copies), clip, diff,
// triu/tril and where.
#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_MANIP(NAME, EXPR)                                                                     \
    CONF_FUNCTION(NAME, true, exact) {                                                             \
        const auto a = c.in<T, S>(0);                                                              \
        c.check(0, EXPR);                                                                          \
    }
#define CONF_JOIN(NAME, EXPR)                                                                      \
    CONF_FUNCTION(NAME, true, exact) {                                                             \
        const auto a = c.in<T, S>(0), b = c.in<T, S>(1);                                           \
        c.check(0, EXPR);                                                                          \
    }

CONF_MANIP(transpose, ca::transpose(a))
CONF_MANIP(swapaxes, ca::swapaxes(a, 0, 1))
CONF_MANIP(moveaxis, ca::moveaxis(ca::expand_dims(a, 0), 0, 2))
CONF_MANIP(expand_dims, ca::expand_dims(a, 1))
CONF_MANIP(atleast_3d, ca::atleast_3d(a))
CONF_JOIN(concatenate, ca::concatenate({a, b}, 0))
CONF_JOIN(concatenate_axis1, ca::concatenate({a, b}, 1))
CONF_JOIN(stack, ca::stack({a, b}, 1))
CONF_JOIN(hstack, ca::hstack({a, b}))
CONF_JOIN(vstack, ca::vstack({a, b}))
CONF_MANIP(flip, ca::flip(a))
CONF_MANIP(fliplr, ca::fliplr(a))
CONF_MANIP(flipud, ca::flipud(a))
CONF_MANIP(roll, ca::roll(a, 3, 1))
CONF_MANIP(roll_flat, ca::roll(a, -5))
CONF_MANIP(repeat, ca::repeat(a, 2, 0))
CONF_MANIP(tile, ca::tile(a, std::vector<std::size_t>{2, 1}))
CONF_MANIP(pad, ca::pad(a, 1))
CONF_MANIP(diagonal, ca::diagonal(a, 1))
CONF_MANIP(diag, ca::diag(a, -1))
CONF_MANIP(diff, ca::diff(a))
CONF_MANIP(diff_2_axis0, ca::diff(a, 2, 0))
CONF_MANIP(triu, ca::triu(a))
CONF_MANIP(tril, ca::tril(a, -1))

CONF_FUNCTION(array_split, true, exact) {
    const auto parts = ca::array_split(c.in<T, S>(0), 2, 0);
    REQUIRE(parts.size() == 2);
    c.check(0, parts[0]);
    c.check(1, parts[1]);
}

CONF_FUNCTION(clip, true, exact) {
    const auto a = c.in<T, S>(0);
    if constexpr (is_bool<T>)
        c.check(0, ca::clip(a, false, true));
    else if constexpr (ca::is_unsigned_integer_v<T>)
        c.check(0, ca::clip(a, 2, 50));
    else if constexpr (is_int<T>)
        c.check(0, ca::clip(a, -20, 30));
    else
        c.check(0, ca::clip(a, -1.5, 3.25));
}

CONF_FUNCTION(where, true, exact) {
    const auto m = c.in<bool, S>(0);
    const auto a = c.in<T, S>(1), b = c.in<T, S>(2);
    c.check(0, ca::where(m, a, b));
}
