// Indexing of the dtypes with their own paths (indexing/indexing.hpp): float16, whose values
// only move (its 16 bits, no cl_khr_fp16 needed), and complex add_at (one atomic add per part).
// Differential against host loops, every storage policy.
#include "support.hpp"

#include <complex>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using test::q;

template <class T, class S> ca::cl_array<T, S> device(const xt::xarray<T>& h) {
    ca::cl_array<T, S> a(q(), ca::shape_type(h.shape().begin(), h.shape().end()));
    if (a.size()) a.set(h);
    return a;
}

// float16 values that a move must keep bit for bit: zeros of both signs, subnormals, the
// largest finite value, infinities and ordinary values (the bits, through from_bits).
xt::xarray<ca::half> half_values(const ca::shape_type& shape, unsigned seed) {
    static const std::uint16_t special[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x7bff, 0xfc00, 0x7c00};
    std::mt19937 rng(seed);
    xt::xarray<ca::half> h = xt::xarray<ca::half>::from_shape(shape);
    std::size_t i = 0;
    for (auto& v : h) {
        std::uint16_t b = i < 7 ? special[(i + seed) % 7] : static_cast<std::uint16_t>(rng());
        if ((b & 0x7c00) == 0x7c00 && (b & 0x03ff)) b &= 0xfc00; // no NaN: compared by bits
        v = ca::half::from_bits(b);
        ++i;
    }
    return h;
}

std::vector<std::uint16_t> bits_of(const xt::xarray<ca::half>& h) {
    std::vector<std::uint16_t> b;
    for (const auto& v : h)
        b.push_back(v.bits());
    return b;
}
template <class S> std::vector<std::uint16_t> bits_of(const ca::cl_array<ca::half, S>& a) {
    if (a.size() == 0) return {};
    return bits_of(xt::xarray<ca::half>(a.get()));
}

} // namespace

TEMPLATE_TEST_CASE("float16 take, put, compress, extract, nonzero and putmask move its 16 bits",
                   "[indexing]", ca::svm_coarse, ca::svm_fine, ca::buffer) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    using H = ca::half;
    const xt::xarray<H> h = half_values({4, 9}, 3);
    const auto a = device<H, S>(h);
    const std::vector<std::uint16_t> hb = bits_of(h);

    // take, flat (wrap mode: negative and large indices) and along axis 1 (raise mode)
    const xt::xarray<std::int64_t> hi{5, -1, 40, 0, 35, 7, -36, 12};
    const auto idx = device<std::int64_t, S>(hi);
    ca::cl_array<H, S> t = ca::take(a, idx, std::nullopt, ca::index_mode::wrap);
    std::vector<std::uint16_t> expect;
    for (std::int64_t k : hi)
        expect.push_back(hb[static_cast<std::size_t>(((k % 36) + 36) % 36)]);
    CHECK(bits_of(t) == expect);
    const xt::xarray<std::int32_t> hj{8, 0, -2, 4, 4};
    ca::cl_array<H, S> t1 = ca::take(a, device<std::int32_t, S>(hj), 1);
    REQUIRE(t1.shape() == ca::shape_type{4, 5});
    expect.clear();
    for (std::size_t r = 0; r < 4; ++r)
        for (std::int32_t k : hj)
            expect.push_back(hb[r * 9 + static_cast<std::size_t>(k < 0 ? k + 9 : k)]);
    CHECK(bits_of(t1) == expect);
    // A gather inside an expression computes in float: take(a, idx) * 2 (exact for these values
    // but the largest, which overflows to infinity as float16's own product).
    ca::cl_array<H, S> t2 = ca::take(a, idx, std::nullopt, ca::index_mode::wrap) * 2.0f;
    const xt::xarray<H> ht2 = t2.get();
    for (std::size_t i = 0; i < hi.size(); ++i) {
        const float x = H::from_bits(hb[static_cast<std::size_t>(((hi(i) % 36) + 36) % 36)]);
        CHECK(static_cast<float>(ht2(i)) == static_cast<float>(H(x * 2.0f)));
    }

    // put: distinct targets, values repeating (3 values for 6 indices), into a strided view
    auto big = device<H, S>(half_values({2, 36}, 5));
    const xt::xarray<H> hbig = big.get();
    auto target = big(1, ca::range(0, 36, 2)); // 18 elements, offset and stride 2
    const xt::xarray<std::int64_t> hp{0, 17, -3, 4, 9, 2};
    const xt::xarray<H> hv = half_values({3}, 7);
    ca::put(target, device<std::int64_t, S>(hp), device<H, S>(hv));
    std::vector<std::uint16_t> want = bits_of(hbig);
    for (std::size_t i = 0; i < hp.size(); ++i) {
        const std::int64_t k = hp(i) < 0 ? hp(i) + 18 : hp(i);
        want[36 + 2 * static_cast<std::size_t>(k)] = hv(i % 3).bits();
    }
    CHECK(bits_of(big) == want);

    // compress (a shorter condition) and extract, from a transposed view
    const auto at = ca::transpose(a); // (9, 4)
    const xt::xarray<H> hat = at.get();
    const std::vector<std::uint16_t> hatb = bits_of(hat);
    xt::xarray<bool> hm = xt::xarray<bool>::from_shape({36});
    for (std::size_t i = 0; i < 36; ++i)
        hm(i) = (i * 7) % 5 < 2;
    const auto m = device<bool, S>(hm);
    expect.clear();
    for (std::size_t i = 0; i < 20; ++i)
        if (hm(i)) expect.push_back(hatb[i]);
    CHECK(bits_of(ca::compress(m(ca::range(0, 20)), at)) == expect);
    expect.clear();
    for (std::size_t i = 0; i < 36; ++i)
        if (hm(i)) expect.push_back(hatb[i]);
    CHECK(bits_of(ca::extract(m.reshape({9, 4}), at)) == expect);

    // nonzero (zeros of both signs are zero) and putmask (values broadcast, converted)
    const auto nz = ca::nonzero(a);
    REQUIRE(nz.size() == 2);
    std::vector<std::int64_t> rows, cols;
    for (std::size_t i = 0; i < 36; ++i)
        if (static_cast<float>(h.data()[i]) != 0.0f) {
            rows.push_back(static_cast<std::int64_t>(i / 9));
            cols.push_back(static_cast<std::int64_t>(i % 9));
        }
    CHECK(test::host_vector(nz[0]) == rows);
    CHECK(test::host_vector(nz[1]) == cols);
    auto pm = device<H, S>(h);
    const xt::xarray<H> hrow = half_values({9}, 11);
    ca::putmask(pm, m.reshape({4, 9}), device<H, S>(hrow));
    want = hb;
    for (std::size_t i = 0; i < 36; ++i)
        if (hm(i)) want[i] = hrow(i % 9).bits();
    CHECK(bits_of(pm) == want);
}

TEMPLATE_TEST_CASE("float16 concatenate, roll, flip and pad equal host loops", "[indexing]",
                   ca::svm_coarse, ca::svm_fine, ca::buffer) {
    using S = TestType;
    if (!test::storage_available<S>()) return;
    using H = ca::half;
    const xt::xarray<H> h = half_values({3, 5}, 13), g = half_values({2, 5}, 17);
    const auto a = device<H, S>(h), b = device<H, S>(g);
    const std::vector<std::uint16_t> hb = bits_of(h), gb = bits_of(g);

    std::vector<std::uint16_t> expect = hb;
    expect.insert(expect.end(), gb.begin(), gb.end());
    CHECK(bits_of(ca::concatenate({a, b}, 0)) == expect);

    expect.clear(); // roll by 2 along axis 1
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t c = 0; c < 5; ++c)
            expect.push_back(hb[r * 5 + (c + 5 - 2) % 5]);
    CHECK(bits_of(ca::roll(a, 2, 1)) == expect);

    expect.assign(hb.rbegin(), hb.rend()); // flip of every axis
    CHECK(bits_of(ca::flip(a)) == expect);

    expect.assign(5 * 7, 0); // pad by 1 with float16 zeros
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t c = 0; c < 5; ++c)
            expect[(r + 1) * 7 + c + 1] = hb[r * 5 + c];
    CHECK(bits_of(ca::pad(a, 1)) == expect);
}

namespace {
template <class C> bool complex_available() {
    if (std::is_same_v<C, std::complex<double>> && !test::ctx().device().has_fp64()) {
        WARN("skipped: device lacks fp64");
        return false;
    }
    return true;
}
// Values that are multiples of 1/8 in [-10, 10] in both parts: every partial sum is exact, so
// the order of the atomic adds cannot change the result and it is compared exactly.
template <class C> xt::xarray<C> eighths(const ca::shape_type& shape, unsigned seed) {
    using R = typename C::value_type;
    std::mt19937 rng(seed);
    xt::xarray<C> h = xt::xarray<C>::from_shape(shape);
    for (auto& v : h)
        v = C(static_cast<R>(static_cast<int>(rng() % 161) - 80) / 8,
              static_cast<R>(static_cast<int>(rng() % 161) - 80) / 8);
    return h;
}
} // namespace

using complex_add_at_types = std::tuple<
    test::cfg<std::complex<float>, ca::svm_coarse>, test::cfg<std::complex<float>, ca::buffer>,
    test::cfg<std::complex<double>, ca::svm_fine>, test::cfg<std::complex<double>, ca::buffer>>;

TEMPLATE_LIST_TEST_CASE("complex add_at accumulates duplicates in both parts (np.add.at)",
                        "[indexing]", complex_add_at_types) {
    using C = typename TestType::value_type;
    using S = typename TestType::storage;
    if (!test::storage_available<S>() || !complex_available<C>()) return;
    // a (7, 3) strided view of a larger array; 5000 rows of values at indices with duplicates
    // and negatives.
    const xt::xarray<C> hbig = eighths<C>({9, 7}, 1);
    auto big = device<C, S>(hbig);
    auto a = big(ca::range(1, 8), ca::range(0, 7, 3)); // (7, 3)
    const std::size_t count = 5000;
    std::mt19937 rng(2);
    xt::xarray<std::int64_t> hi = xt::xarray<std::int64_t>::from_shape({count});
    for (auto& k : hi)
        k = static_cast<std::int64_t>(rng() % 14) - 7;
    const xt::xarray<C> hv = eighths<C>({count, 3}, 3);
    ca::add_at(a, device<std::int64_t, S>(hi), device<C, S>(hv));
    xt::xarray<C> expect = hbig;
    for (std::size_t i = 0; i < count; ++i) {
        const auto r = static_cast<std::size_t>(hi(i) < 0 ? hi(i) + 7 : hi(i));
        for (std::size_t c = 0; c < 3; ++c)
            expect(1 + r, 3 * c) += hv(i, c);
    }
    const xt::xarray<C> got = big.get();
    for (std::size_t k = 0; k < expect.size(); ++k)
        REQUIRE(got.data()[k] == expect.data()[k]);

    // A scalar added at every index of a 1-d array (a value broadcast to every row).
    auto v = device<C, S>(eighths<C>({5}, 4));
    const xt::xarray<C> hv1 = v.get();
    const xt::xarray<std::int32_t> hk{0, 4, 4, -1, 2, 0, 0};
    ca::add_at(v, device<std::int32_t, S>(hk), C(1.5, -0.25));
    xt::xarray<C> e1 = hv1;
    for (std::int32_t k : hk)
        e1(static_cast<std::size_t>(k < 0 ? k + 5 : k)) += C(1.5, -0.25);
    const xt::xarray<C> g1 = v.get();
    for (std::size_t k = 0; k < 5; ++k)
        REQUIRE(g1(k) == e1(k));
}
