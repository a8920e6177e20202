// Conformance matrix (test_conformance.cpp): indexing and the sorting, searching and counting
// family.
#include "conformance/conformance.hpp"

using namespace conf;

CONF_FUNCTION(take, true, exact) {
    c.check(0, ca::take(c.in<T, S>(0), c.in<std::int64_t, S>(1)));
}
CONF_FUNCTION(take_axis1, true, exact) {
    c.check(0, ca::take(c.in<T, S>(0), c.in<std::int64_t, S>(1), 1));
}
CONF_FUNCTION(put, true, exact) {
    const auto a = c.in<T, S>(0);
    ca::put(a, c.in<std::int64_t, S>(1), c.in<T, S>(2));
    c.check(0, a);
}
CONF_FUNCTION(add_at, true, reduce_tol) {
    const auto a = c.in<T, S>(0);
    ca::add_at(a, c.in<std::int64_t, S>(1), c.in<T, S>(2));
    c.check(0, a);
}
CONF_FUNCTION(compress, true, exact) {
    const auto m = c.in<bool, S>(0);
    c.check(0, ca::compress(m(ca::range(0, 10)), c.in<T, S>(1)));
}
CONF_FUNCTION(extract, true, exact) {
    c.check(0, ca::extract(c.in<bool, S>(0), c.in<T, S>(1)));
}
CONF_FUNCTION(nonzero, true, exact) {
    const auto nz = ca::nonzero(c.in<T, S>(0));
    REQUIRE(nz.size() == 2);
    c.check(0, nz[0]);
    c.check(1, nz[1]);
}
CONF_FUNCTION(count_nonzero, true, exact) {
    const std::int64_t n = ca::count_nonzero(c.in<T, S>(0));
    auto r = ca::zeros<std::int64_t, S>(test::q(), ca::shape_type{});
    r.fill(n);
    c.check(0, r);
}
CONF_FUNCTION(putmask, true, exact) {
    const auto a = c.in<T, S>(0);
    ca::putmask(a, c.in<bool, S>(1), c.in<T, S>(2));
    c.check(0, a);
}

CONF_FUNCTION(sort, true, exact) {
    c.check(0, ca::sort(c.in<T, S>(0)));
}
CONF_FUNCTION(sort_axis0, true, exact) {
    c.check(0, ca::sort(c.in<T, S>(0), 0));
}
CONF_FUNCTION(argsort, true, exact) {
    c.check(0, ca::argsort(c.in<T, S>(0)));
}
CONF_FUNCTION(searchsorted, !ca::is_complex_v<T>, exact) {
    c.check(0, ca::searchsorted(c.in<T, S>(0), c.in<T, S>(1)));
}
CONF_FUNCTION(searchsorted_right, !ca::is_complex_v<T>, exact) {
    c.check(0, ca::searchsorted(c.in<T, S>(0), c.in<T, S>(1), ca::side::right));
}
CONF_FUNCTION(unique, true, exact) {
    c.check(0, ca::unique(c.in<T, S>(0)));
}
CONF_FUNCTION(unique_counts, true, exact) {
    const auto u = ca::unique_counts(c.in<T, S>(0));
    c.check(0, u.values);
    c.check(1, u.counts);
}
CONF_FUNCTION(bincount, !ca::is_complex_v<T>, exact) {
    c.check(0, ca::bincount(c.in<T, S>(0)));
}
CONF_FUNCTION(bincount_weights, !ca::is_complex_v<T>, reduce_tol) {
    c.check(0, ca::bincount(c.in<std::int64_t, S>(0), c.in<T, S>(1)));
}
CONF_FUNCTION(histogram, !ca::is_complex_v<T>, reduce_tol) {
    const auto h = ca::histogram(c.in<T, S>(0), 5);
    c.check(0, h.counts);
    c.check(1, h.edges);
}
