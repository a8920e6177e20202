// Vector kernels (kernels/assign_vector.cl): contiguous lanewise expressions that call
// math functions run W elements per work-item on CPU devices. Sizes around W exercise the
// scalar tail, offset views the unaligned vload/vstore, and the mixes that must stay scalar
// (other dtypes, NaN-propagating helpers, strides) are checked against the same host references.
#include "support.hpp"

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <tuple>

#include "xtensor_headers.hpp"

namespace {

using vector_cfgs = std::tuple<test::cfg<float, ca::svm_coarse>, test::cfg<float, ca::svm_fine>,
                               test::cfg<float, ca::buffer>, test::cfg<double, ca::svm_coarse>,
                               test::cfg<double, ca::buffer>>;

template <class T> double rel_tol() {
    return std::is_same_v<T, float> ? 2e-5 : 1e-12;
}

// Elementwise |got - want| <= tol * (1 + |want|); reports the first bad index.
template <class T, class U>
void check_near(const std::string& what, const xt::xarray<T>& got, const xt::xarray<U>& want) {
    REQUIRE(got.shape() == want.shape());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double g = static_cast<double>(got.flat(i)), w = static_cast<double>(want.flat(i));
        if (!(std::abs(g - w) <= rel_tol<T>() * (1 + std::abs(w)))) {
            std::ostringstream os;
            os << what << ": element " << i << " of " << got.size() << " is " << g << ", want "
               << w;
            FAIL(os.str());
        }
    }
}

template <class T> xt::xarray<T> host_values(std::size_t n, unsigned seed, double lo, double hi) {
    xt::xarray<T> a = test::random_array<T>({n}, seed); // in [-10, 10]
    return lo + (a + T(10)) * T((hi - lo) / 20);
}

} // namespace

TEMPLATE_LIST_TEST_CASE("vector kernels: sizes around the vector width, offset views, scalars",
                        "[expr][vector]", vector_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    for (std::size_t n : {1u, 7u, 8u, 9u, 17u, 1000003u}) {
        CAPTURE(n);
        // Three leading elements make the views start off any vector alignment.
        const std::size_t m = n + 3;
        const xt::xarray<T> ha = host_values<T>(m, 1, -10, 10), hb = host_values<T>(m, 2, -10, 10),
                            hc = host_values<T>(m, 3, 0.5, 4), he = host_values<T>(m, 4, -3, 3);
        auto a = ca::to_device<S>(q, ha), b = ca::to_device<S>(q, hb), c = ca::to_device<S>(q, hc),
             e = ca::to_device<S>(q, he);
        auto av = a(ca::range(3, ca::none)), bv = b(ca::range(3, ca::none)),
             cv = c(ca::range(3, ca::none)), ev = e(ca::range(3, ca::none));
        auto tail = [](const xt::xarray<T>& h) {
            return xt::xarray<T>(xt::view(h, xt::range(3, xt::placeholders::_)));
        };
        const xt::xarray<T> ta = tail(ha), tb = tail(hb), tc = tail(hc), te = tail(he);

        ca::cl_array<T, S> fused = a * b + c * ca::sin(e);
        check_near("a*b + c*sin(e)", fused.get(), xt::xarray<T>(ha * hb + hc * xt::sin(he)));

        const T s = T(0.25), k = T(-1.5);
        ca::cl_array<T, S> scalars = s * ca::exp(av * k) - bv / cv + ca::pow(cv, T(1.5));
        check_near("s*exp(a*k) - b/c + pow(c, 1.5)", scalars.get(),
                   xt::xarray<T>(s * xt::exp(ta * k) - tb / tc + xt::pow(tc, T(1.5))));

        ca::cl_array<T, S> mixed = ca::fmax(ca::cos(ev), -av) + ca::abs(bv) * ca::sqrt(cv) +
                                   ca::atan2(av, cv) + ca::astype<T>(ca::hypot(bv, ev));
        check_near("fmax(cos(e), -a) + |b| sqrt(c) + atan2(a, c) + hypot(b, e)", mixed.get(),
                   xt::xarray<T>(xt::fmax(xt::cos(te), -ta) + xt::abs(tb) * xt::sqrt(tc) +
                                 xt::atan2(ta, tc) + xt::hypot(tb, te)));

        // Two outputs in one vector kernel, one of them a view written at an offset.
        auto x = ca::zeros<T, S>(q, {n}), y = ca::zeros<T, S>(q, {m});
        auto yv = y(ca::range(3, ca::none));
        ca::tie(x, yv) = std::make_tuple(ca::sin(av), ca::log(cv) * bv);
        check_near("tie: sin(a)", x.get(), xt::xarray<T>(xt::sin(ta)));
        xt::xarray<T> want_y = xt::zeros<T>({m});
        xt::view(want_y, xt::range(3, xt::placeholders::_)) = xt::log(tc) * tb;
        check_near("tie: log(c) * b into a view", y.get(), want_y);

        // In place: a = sin(a) * b reads each element before writing it.
        a = ca::sin(a) * b;
        check_near("a = sin(a) * b", a.get(), xt::xarray<T>(xt::sin(ha) * hb));
    }
}

TEMPLATE_LIST_TEST_CASE("expressions that are not lanewise keep the scalar kernel",
                        "[expr][vector]", vector_cfgs) {
    CLARRAY_REQUIRE_CFG(TestType);
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    ca::queue& q = test::q();
    const std::size_t n = 1003;
    const xt::xarray<T> ha = host_values<T>(2 * n, 5, -3, 3), hb = host_values<T>(n, 6, -3, 3);
    const xt::xarray<int> hi = test::random_array<int>({n}, 7);
    auto a = ca::to_device<S>(q, ha), b = ca::to_device<S>(q, hb);
    auto i = ca::to_device<S>(q, hi);

    // Mixed dtypes: sin(b) + int promotes per element in the scalar kernel.
    ca::cl_array<T, S> with_int = ca::sin(b) + i;
    check_near("sin(b) + int", with_int.get(), xt::xarray<T>(xt::sin(hb) + hi));
    // maximum propagates NaN through a scalar helper.
    ca::cl_array<T, S> maxed = ca::maximum(ca::sin(b), b);
    check_near("maximum(sin(b), b)", maxed.get(), xt::xarray<T>(xt::maximum(xt::sin(hb), hb)));
    // A float output of a double expression (or the reverse) converts per element.
    ca::cl_array<float, S> narrowed = ca::exp(b);
    check_near("float <- exp(b)", narrowed.get(), xt::xarray<float>(xt::exp(hb)));
    // Strided operands take the strided kernel.
    auto strided = a(ca::range(0, ca::none, 2));
    ca::cl_array<T, S> from_strided = ca::sin(strided) * b;
    check_near("sin(a[::2]) * b", from_strided.get(),
               xt::xarray<T>(xt::sin(xt::view(ha, xt::range(0, xt::placeholders::_, 2))) * hb));
}

TEST_CASE("vector width per device type", "[expr][vector]") {
    const ca::device& dev = test::ctx().device();
    const std::size_t w = dev.tuning().function_vector_width;
    if (std::getenv("CLARRAY_VECTOR_WIDTH") == nullptr) CHECK(w == (dev.is_cpu() ? 8u : 1u));
    CHECK((w == 1 || w == 2 || w == 4 || w == 8 || w == 16));
}
