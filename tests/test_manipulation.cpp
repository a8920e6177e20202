// Joining, splitting, rearranging and creation helpers (array/manipulation.hpp,
// expr/manipulation.hpp), each compared with xtensor's function or a plain loop on the host, over
// the storage policies, input layouts (contiguous, strided, transposed, negative strides),
// sizes including 0 and 1, and their errors.
#include "support.hpp"

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "xtensor_headers.hpp"

// Both sides are copied into xarrays within the declaration: xt::eval of a function that
// returns a container (pad, diff) returns a reference to that temporary.
#define CHECK_ARRAY_EQ_AS_WANT(got, want)                                                          \
    do {                                                                                           \
        using ca_want_t_ = typename std::decay_t<decltype(want)>::value_type;                      \
        const xt::xarray<ca_want_t_> ca_got_ = (got);                                              \
        const xt::xarray<ca_want_t_> ca_want_ = (want);                                            \
        const bool ca_equal_ = (ca_got_ == ca_want_);                                              \
        if (!ca_equal_) UNSCOPED_INFO("got:\n" << ca_got_ << "\nwant:\n" << ca_want_);             \
        CHECK(ca_equal_);                                                                          \
    } while (0)

namespace {

enum class kind { contiguous, strided, transposed, negative };
const kind all_kinds[] = {kind::contiguous, kind::strided, kind::transposed, kind::negative};
const char* kind_name(kind k) {
    switch (k) {
    case kind::contiguous:
        return "contiguous";
    case kind::strided:
        return "strided";
    case kind::transposed:
        return "transposed";
    default:
        return "negative strides";
    }
}

template <class Sh> ca::shape_type as_shape(const Sh& s) {
    return ca::shape_type(s.begin(), s.end());
}
template <class T> xt::xarray<T> host_of(const ca::shape_type& s, unsigned seed) {
    return test::random_array<T>(s, seed);
}

// A device array of shape `shape` laid out as `k`, and its values on the host.
template <class T, class S> struct input {
    ca::cl_array<T, S> dev;
    xt::xarray<T> host;
};
template <class T, class S>
input<T, S> make_input(const ca::shape_type& shape, kind k, unsigned seed = 1) {
    const std::size_t rank = shape.size();
    if (k == kind::contiguous) {
        xt::xarray<T> h = host_of<T>(shape, seed);
        return {ca::to_device<S>(test::q(), h), h};
    }
    if (k == kind::transposed) {
        ca::shape_type rev(shape.rbegin(), shape.rend());
        xt::xarray<T> b = host_of<T>(rev, seed);
        xt::xarray<T> h = xt::transpose(b);
        return {ca::to_device<S>(test::q(), b).transpose(), h};
    }
    if (k == kind::strided) { // every other element of a larger array, starting at index 1
        ca::shape_type big(rank, 0);
        xt::xstrided_slice_vector sv;
        for (std::size_t i = 0; i < rank; ++i) {
            big[i] = 2 * shape[i] + 1;
            sv.push_back(xt::range(1, static_cast<std::ptrdiff_t>(2 * shape[i] + 1), 2));
        }
        xt::xarray<T> b = host_of<T>(big, seed);
        // (xtensor's strided view of an empty array offsets a null pointer)
        xt::xarray<T> h = ca::checked_size(shape) == 0 ? xt::xarray<T>::from_shape(shape)
                                                       : xt::xarray<T>(xt::strided_view(b, sv));
        auto base = ca::to_device<S>(test::q(), b);
        ca::strides_type st = base.strides();
        std::ptrdiff_t off = 0;
        for (std::size_t i = 0; i < rank; ++i) {
            off += st[i];
            st[i] *= 2;
        }
        return {ca::cl_array<T, S>(test::q(), base.data(), shape, st, off), h};
    }
    // negative: every axis reversed over a contiguous array
    xt::xarray<T> b = host_of<T>(shape, seed);
    xt::xarray<T> h = b;
    for (std::size_t i = 0; i < rank; ++i)
        h = xt::eval(xt::flip(h, i));
    auto base = ca::to_device<S>(test::q(), b);
    ca::strides_type st = base.strides();
    std::ptrdiff_t off = 0;
    for (std::size_t i = 0; i < rank; ++i) {
        if (shape[i] > 0) off += static_cast<std::ptrdiff_t>(shape[i] - 1) * st[i];
        st[i] = -st[i];
    }
    return {ca::cl_array<T, S>(test::q(), base.data(), shape, st, off), h};
}

template <class A> auto got(const A& a) {
    return a.get();
}

// NumPy's roll along one axis by a plain loop over its indices (xt::roll fails on empty axes).
template <class T>
xt::xarray<T> ref_roll(const xt::xarray<T>& h, std::ptrdiff_t shift, std::size_t axis) {
    xt::xarray<T> out = h;
    const auto n = static_cast<std::ptrdiff_t>(h.shape()[axis]);
    for (std::ptrdiff_t i = 0; i < n; ++i) {
        xt::xstrided_slice_vector src(h.dimension(), xt::all()), dst(h.dimension(), xt::all());
        src[axis] = i;
        dst[axis] = ((i + shift) % n + n) % n;
        xt::strided_view(out, dst) = xt::strided_view(h, src);
    }
    return out;
}
// NumPy's tile by a plain loop: out[i...] = a[i % shape...] (xt::tile throws on some empty inputs).
template <class T> xt::xarray<T> ref_tile(const xt::xarray<T>& h, std::vector<std::size_t> reps) {
    std::vector<std::size_t> shape(h.shape().begin(), h.shape().end());
    const std::size_t d = std::max(shape.size(), reps.size());
    shape.insert(shape.begin(), d - shape.size(), 1);
    reps.insert(reps.begin(), d - reps.size(), 1);
    xt::xarray<T> src = h;
    src.reshape(shape);
    std::vector<std::size_t> out_shape(d);
    for (std::size_t i = 0; i < d; ++i)
        out_shape[i] = shape[i] * reps[i];
    xt::xarray<T> out = xt::xarray<T>::from_shape(out_shape);
    std::vector<std::size_t> idx(d), sidx(d);
    for (std::size_t flat = 0; flat < out.size(); ++flat) {
        std::size_t rest = flat;
        for (std::size_t i = d; i-- > 0;) {
            idx[i] = rest % out_shape[i];
            rest /= out_shape[i];
            sidx[i] = idx[i] % shape[i];
        }
        out.element(idx.begin(), idx.end()) = src.element(sidx.begin(), sidx.end());
    }
    return out;
}
// NumPy's diagonal k of a matrix by a plain loop.
template <class T> xt::xarray<T> ref_diagonal(const xt::xarray<T>& h, std::ptrdiff_t k) {
    std::vector<T> v;
    for (std::size_t i = 0; i < h.shape()[0]; ++i) {
        const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) + k;
        if (j >= 0 && j < static_cast<std::ptrdiff_t>(h.shape()[1])) v.push_back(h(i, j));
    }
    xt::xarray<T> out = xt::xarray<T>::from_shape({v.size()});
    std::copy(v.begin(), v.end(), out.begin());
    return out;
}
// NumPy's diff: n times a[1:] - a[:-1] along axis (bool: !=), with views.
template <class T> xt::xarray<T> ref_diff(xt::xarray<T> h, std::size_t n, std::ptrdiff_t axis) {
    const std::size_t ax = axis < 0 ? h.dimension() - 1 : static_cast<std::size_t>(axis);
    for (std::size_t t = 0; t < n; ++t) {
        const auto len = static_cast<std::ptrdiff_t>(h.shape()[ax]);
        xt::xstrided_slice_vector hi(h.dimension(), xt::all()), lo(h.dimension(), xt::all());
        hi[ax] = xt::range(std::min<std::ptrdiff_t>(1, len), len);
        lo[ax] = xt::range(0, std::max<std::ptrdiff_t>(len - 1, 0));
        xt::xarray<T> next;
        if (h.size() == 0) { // (xtensor's strided view of an empty array offsets a null pointer)
            auto shape = h.shape();
            shape[ax] = static_cast<std::size_t>(std::max<std::ptrdiff_t>(len - 1, 0));
            next = xt::xarray<T>::from_shape(shape);
        } else if constexpr (std::is_same_v<T, bool>)
            next = xt::not_equal(xt::strided_view(h, hi), xt::strided_view(h, lo));
        else
            next = xt::strided_view(h, hi) - xt::strided_view(h, lo);
        h = next;
    }
    return h;
}
// NumPy's repeat with one count per element by a plain loop (xt::repeat mishandles a leading 0).
template <class T>
xt::xarray<T> ref_repeat(const xt::xarray<T>& h, const std::vector<std::size_t>& counts,
                         std::size_t axis) {
    std::vector<std::size_t> shape(h.shape().begin(), h.shape().end());
    shape[axis] = 0;
    for (std::size_t c : counts)
        shape[axis] += c;
    xt::xarray<T> out = xt::xarray<T>::from_shape(shape);
    std::size_t pos = 0;
    for (std::size_t i = 0; i < counts.size(); ++i)
        for (std::size_t c = 0; c < counts[i]; ++c, ++pos) {
            xt::xstrided_slice_vector src(h.dimension(), xt::all()), dst(h.dimension(), xt::all());
            src[axis] = static_cast<std::ptrdiff_t>(i); // xtensor 0.26: signed slice indices
            dst[axis] = static_cast<std::ptrdiff_t>(pos);
            xt::strided_view(out, dst) = xt::strided_view(h, src);
        }
    return out;
}
template <class T> xt::xarray<T> ref_roll_flat(const xt::xarray<T>& h, std::ptrdiff_t shift) {
    xt::xarray<T> flat = xt::flatten(h);
    xt::xarray<T> r = ref_roll(flat, shift, 0);
    r.reshape(h.shape());
    return r;
}

} // namespace

// ---- joining ----

TEMPLATE_LIST_TEST_CASE("concatenate, stack, hstack, vstack follow xtensor on every layout",
                        "[manipulation]", test::all_policies) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    for (kind ka : all_kinds)
        for (kind kb : all_kinds)
            for (std::size_t m : {0, 1, 3}) {
                INFO(kind_name(ka) << " + " << kind_name(kb) << ", m = " << m);
                auto a = make_input<T, S>({2, 3}, ka, 1);
                auto b = make_input<T, S>({m, 3}, kb, 2);
                auto c = make_input<T, S>({2, m}, kb, 3);
                auto r0 = ca::concatenate({a.dev, b.dev, a.dev}, 0);
                CHECK_ARRAY_EQ_AS_WANT(got(r0),
                               xt::eval(xt::concatenate(xt::xtuple(a.host, b.host, a.host), 0)));
                auto r1 = ca::concatenate({a.dev, c.dev}, -1);
                CHECK_ARRAY_EQ_AS_WANT(got(r1), xt::eval(xt::concatenate(xt::xtuple(a.host, c.host), 1)));
                // stack: one shape, new axis at 0, 1, 2 (and -1)
                auto d = make_input<T, S>({2, 3}, kb, 4);
                for (std::ptrdiff_t ax : {0, 1, 2, -1}) {
                    auto r = ca::stack({a.dev, d.dev}, ax);
                    const std::size_t xa = ax < 0 ? 2 : static_cast<std::size_t>(ax);
                    CHECK_ARRAY_EQ_AS_WANT(got(r), xt::eval(xt::stack(xt::xtuple(a.host, d.host), xa)));
                }
                CHECK_ARRAY_EQ_AS_WANT(got(ca::vstack({a.dev, b.dev})),
                               xt::eval(xt::concatenate(xt::xtuple(a.host, b.host), 0)));
                CHECK_ARRAY_EQ_AS_WANT(got(ca::hstack({a.dev, c.dev})),
                               xt::eval(xt::concatenate(xt::xtuple(a.host, c.host), 1)));
            }
    // 1-d: hstack joins along axis 0, vstack makes rows
    for (kind k : all_kinds)
        for (std::size_t n : {0, 1, 5}) {
            INFO(kind_name(k) << ", n = " << n);
            auto x = make_input<T, S>({n}, k, 5);
            auto y = make_input<T, S>({n}, kind::contiguous, 6);
            auto z = make_input<T, S>({4}, kind::contiguous, 7);
            CHECK_ARRAY_EQ_AS_WANT(got(ca::hstack({x.dev, z.dev, y.dev})),
                           xt::eval(xt::concatenate(xt::xtuple(x.host, z.host, y.host), 0)));
            CHECK_ARRAY_EQ_AS_WANT(got(ca::vstack({x.dev, y.dev})),
                           xt::eval(xt::stack(xt::xtuple(x.host, y.host), 0)));
            CHECK_ARRAY_EQ_AS_WANT(got(ca::stack({x.dev, y.dev}, 1)),
                           xt::eval(xt::stack(xt::xtuple(x.host, y.host), 1)));
        }
    // 3-d along the middle axis, inputs of three layouts
    auto p = make_input<T, S>({2, 3, 4}, kind::transposed, 8);
    auto r = make_input<T, S>({2, 1, 4}, kind::negative, 9);
    auto s = make_input<T, S>({2, 2, 4}, kind::strided, 10);
    CHECK_ARRAY_EQ_AS_WANT(got(ca::concatenate({p.dev, r.dev, s.dev}, 1)),
                   xt::eval(xt::concatenate(xt::xtuple(p.host, r.host, s.host), 1)));
}

TEMPLATE_LIST_TEST_CASE("concatenate and stack of mixed dtypes promote as NumPy", "[manipulation]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto a = make_input<std::int8_t, S>({2, 3}, kind::strided, 1);
    auto b = make_input<std::uint8_t, S>({1, 3}, kind::negative, 2);
    auto c = make_input<float, S>({2, 3}, kind::transposed, 3);
    auto r = ca::concatenate(std::tie(a.dev, b.dev), 0);
    STATIC_REQUIRE(std::is_same_v<decltype(r), ca::cl_array<std::int16_t, S>>);
    xt::xarray<std::int16_t> want = xt::concatenate(
        xt::xtuple(xt::cast<std::int16_t>(a.host), xt::cast<std::int16_t>(b.host)), 0);
    CHECK_ARRAY_EQ_AS_WANT(got(r), want);
    auto r3 = ca::concatenate(std::tie(a.dev, c.dev, b.dev), 0);
    STATIC_REQUIRE(std::is_same_v<decltype(r3), ca::cl_array<float, S>>);
    xt::xarray<float> want3 =
        xt::concatenate(xt::xtuple(xt::cast<float>(a.host), c.host, xt::cast<float>(b.host)), 0);
    CHECK_ARRAY_EQ_AS_WANT(got(r3), want3);
    auto st = ca::stack(std::tie(a.dev, c.dev), 2);
    STATIC_REQUIRE(std::is_same_v<decltype(st), ca::cl_array<float, S>>);
    xt::xarray<float> wants = xt::stack(xt::xtuple(xt::cast<float>(a.host), c.host), 2);
    CHECK_ARRAY_EQ_AS_WANT(got(st), wants);
    // one dtype through the tuple form: a plain copy
    auto same = ca::concatenate(std::tie(c.dev, c.dev), 1);
    CHECK_ARRAY_EQ_AS_WANT(got(same), xt::eval(xt::concatenate(xt::xtuple(c.host, c.host), 1)));
    CHECK_THROWS_AS(ca::concatenate(std::tie(a.dev, c.dev), 2), ca::index_error);
}

// ---- splitting ----

TEMPLATE_LIST_TEST_CASE("split and array_split return views as NumPy's", "[manipulation]",
                        test::all_policies) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    for (kind k : all_kinds)
        for (std::size_t n : {0, 1, 6, 7}) {
            INFO(kind_name(k) << ", n = " << n);
            auto a = make_input<T, S>({3, n}, k, 11);
            // array_split into 3 along axis 1: the first n % 3 parts are one longer
            auto parts = ca::array_split(a.dev, 3, -1);
            REQUIRE(parts.size() == 3);
            std::size_t pos = 0;
            for (std::size_t i = 0; i < 3; ++i) {
                const std::size_t len = n / 3 + (i < n % 3 ? 1 : 0);
                CHECK_ARRAY_EQ_AS_WANT(got(parts[i]),
                               xt::eval(xt::view(a.host, xt::all(), xt::range(pos, pos + len))));
                CHECK(parts[i].data() == a.dev.data()); // a view
                pos += len;
            }
            if (n % 3 == 0) {
                auto eq = ca::split(a.dev, 3, 1);
                for (std::size_t i = 0; i < 3; ++i)
                    CHECK_ARRAY_EQ_AS_WANT(got(eq[i]), got(parts[i]));
            } else {
                CHECK_THROWS_AS(ca::split(a.dev, 3, 1), ca::shape_error);
            }
            // at indices, as Python slices: negative, clamped, backwards
            const std::vector<std::ptrdiff_t> at{2, -1, 10, 1};
            auto cut = ca::split(a.dev, at, 1);
            REQUIRE(cut.size() == 5);
            const auto N = static_cast<std::ptrdiff_t>(n);
            auto norm = [&](std::ptrdiff_t i) {
                if (i < 0) i += N;
                return std::min<std::ptrdiff_t>(std::max<std::ptrdiff_t>(i, 0), N);
            };
            std::ptrdiff_t start = 0;
            for (std::size_t i = 0; i <= at.size(); ++i) {
                const std::ptrdiff_t stop = i < at.size() ? norm(at[i]) : N;
                const std::ptrdiff_t len = std::max<std::ptrdiff_t>(stop - start, 0);
                xt::xarray<T> want = xt::view(a.host, xt::all(), xt::range(start, start + len));
                CHECK_ARRAY_EQ_AS_WANT(got(cut[i]), want);
                start = stop;
            }
            // a braced list is indices, as NumPy's list: {1} cuts at 1
            auto one = ca::split(a.dev, {1}, 1);
            REQUIRE(one.size() == 2);
            CHECK(one[0].shape(1) == std::min<std::size_t>(n, 1));
            CHECK(ca::array_split(a.dev, {-1}, 1).size() == 2);
            // writes through a part reach the parent
            auto rows = ca::split(a.dev, 3, 0);
            rows[1].fill(T(42));
            xt::view(a.host, 1, xt::all()) = T(42);
            CHECK_ARRAY_EQ_AS_WANT(got(a.dev), a.host);
        }
    auto a = make_input<T, S>({4}, kind::contiguous);
    CHECK_THROWS_AS(ca::split(a.dev, 0), ca::usage_error);
    CHECK_THROWS_AS(ca::split(a.dev, 2, 1), ca::index_error);
    CHECK_THROWS_AS(ca::array_split(a.dev, 2, -2), ca::index_error);
}

// ---- rearranging ----

TEMPLATE_LIST_TEST_CASE("flip, roll, repeat, tile and pad follow xtensor on every layout",
                        "[manipulation]", test::all_policies) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::vector<ca::shape_type> shapes{{0}, {1}, {7}, {3, 4}, {1, 5}, {0, 2}, {2, 3, 4}};
    for (const ca::shape_type& sh : shapes)
        for (kind k : all_kinds) {
            INFO(ca::shape_to_string(sh) << " " << kind_name(k));
            auto a = make_input<T, S>(sh, k, 21);
            const auto rank = static_cast<std::ptrdiff_t>(sh.size());
            // flip: views
            auto f = ca::flip(a.dev);
            CHECK(f.data() == a.dev.data());
            xt::xarray<T> wf = a.host;
            for (std::size_t i = 0; i < sh.size(); ++i)
                wf = xt::eval(xt::flip(wf, i));
            CHECK_ARRAY_EQ_AS_WANT(got(f), wf);
            for (std::ptrdiff_t ax = -rank; ax < rank; ++ax) {
                const auto xa = static_cast<std::size_t>(ax < 0 ? ax + rank : ax);
                CHECK_ARRAY_EQ_AS_WANT(got(ca::flip(a.dev, ax)), xt::eval(xt::flip(a.host, xa)));
                for (std::ptrdiff_t shift : {0, 1, -2, 9}) {
                    INFO("roll " << shift << " along " << ax);
                    CHECK_ARRAY_EQ_AS_WANT(got(ca::roll(a.dev, shift, ax)), ref_roll(a.host, shift, xa));
                }
                for (std::size_t rep : {0, 1, 3}) {
                    INFO("repeat " << rep << " along " << ax);
                    CHECK_ARRAY_EQ_AS_WANT(got(ca::repeat(a.dev, rep, ax)),
                                   xt::eval(xt::repeat(a.host, rep, xa)));
                }
                // one count per element
                std::vector<std::size_t> counts(sh[xa]);
                for (std::size_t i = 0; i < counts.size(); ++i)
                    counts[i] = i % 3;
                CHECK_ARRAY_EQ_AS_WANT(got(ca::repeat(a.dev, counts, ax)), ref_repeat(a.host, counts, xa));
            }
            for (std::ptrdiff_t shift : {0, 3, -5}) {
                INFO("flat roll " << shift);
                CHECK_ARRAY_EQ_AS_WANT(got(ca::roll(a.dev, shift)), ref_roll_flat(a.host, shift));
            }
            {
                xt::xarray<T> flat = xt::flatten(a.host);
                CHECK_ARRAY_EQ_AS_WANT(got(ca::repeat(a.dev, 2)), xt::eval(xt::repeat(flat, 2, 0)));
            }
            if (sh.size() >= 2) { // roll along two axes at once = two rolls
                xt::xarray<T> want = ref_roll(ref_roll(a.host, 2, 0), -1, 1);
                CHECK_ARRAY_EQ_AS_WANT(got(ca::roll(a.dev, {2, -1}, {0, 1})), want);
                xt::xarray<T> twice = ref_roll(a.host, 3, sh.size() - 1);
                const auto last = static_cast<std::ptrdiff_t>(sh.size() - 1);
                CHECK_ARRAY_EQ_AS_WANT(got(ca::roll(a.dev, {1, 2}, {-1, last})), twice);
            }
            for (const std::vector<std::size_t>& reps :
                 std::vector<std::vector<std::size_t>>{{2}, {1, 3}, {2, 1, 2}, {0}, {3}}) {
                INFO("tile " << reps.size() << " reps, first " << reps[0]);
                CHECK_ARRAY_EQ_AS_WANT(got(ca::tile(a.dev, reps)), ref_tile(a.host, reps));
            }
            // pad: per-axis widths and one pair for every axis
            std::vector<ca::pad_width> w;
            std::vector<std::vector<std::size_t>> xw;
            for (std::size_t i = 0; i < sh.size(); ++i) {
                w.push_back({i % 2, 2 - i % 3});
                xw.push_back({i % 2, 2 - i % 3});
            }
            CHECK_ARRAY_EQ_AS_WANT(got(ca::pad(a.dev, w, T(7))),
                           xt::eval(xt::pad(a.host, xw, xt::pad_mode::constant, T(7))));
            std::vector<std::vector<std::size_t>> xw1(sh.size(), std::vector<std::size_t>{1, 1});
            CHECK_ARRAY_EQ_AS_WANT(got(ca::pad(a.dev, 1)),
                           xt::eval(xt::pad(a.host, xw1, xt::pad_mode::constant, T(0))));
        }
    // tile of a rank-9 array by nine reps > 1: more block axes than an array may have
    {
        ca::shape_type sh(9, 1);
        sh[8] = 2;
        auto a = make_input<T, S>(sh, kind::negative, 5);
        std::vector<std::size_t> reps(9, 2);
        CHECK_ARRAY_EQ_AS_WANT(got(ca::tile(a.dev, reps)), ref_tile(a.host, reps));
    }
}

TEMPLATE_LIST_TEST_CASE("flip, repeat, tile and roll keep every dtype", "[manipulation]",
                        test::dtype_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto a = make_input<T, S>({3, 4}, kind::negative, 3);
    CHECK_ARRAY_EQ_AS_WANT(got(ca::flip(a.dev, 1)), xt::eval(xt::flip(a.host, 1)));
    CHECK_ARRAY_EQ_AS_WANT(got(ca::roll(a.dev, 1, 0)), ref_roll(a.host, 1, 0));
    CHECK_ARRAY_EQ_AS_WANT(got(ca::repeat(a.dev, 2, 1)), xt::eval(xt::repeat(a.host, 2, 1)));
    CHECK_ARRAY_EQ_AS_WANT(got(ca::tile(a.dev, {2, 1})), xt::eval(xt::tile(a.host, {2, 1})));
    CHECK_ARRAY_EQ_AS_WANT(got(ca::concatenate({a.dev, a.dev}, 1)),
                   xt::eval(xt::concatenate(xt::xtuple(a.host, a.host), 1)));
}

// ---- creation ----

TEMPLATE_LIST_TEST_CASE("eye, identity, diag, diagonal, meshgrid and indices", "[manipulation]",
                        test::all_policies) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto& q = test::q();
    for (std::size_t n : {0, 1, 4})
        for (std::size_t m : {0, 1, 3, 5})
            for (std::ptrdiff_t k : {-6, -2, -1, 0, 1, 3}) {
                INFO(n << " x " << m << ", k = " << k);
                xt::xarray<T> want = xt::zeros<T>({n, m});
                for (std::size_t i = 0; i < n; ++i) {
                    const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) + k;
                    if (j >= 0 && j < static_cast<std::ptrdiff_t>(m)) want(i, j) = T(1);
                }
                CHECK_ARRAY_EQ_AS_WANT(got(ca::eye<T, S>(q, n, m, k)), want);
            }
    CHECK_ARRAY_EQ_AS_WANT(got(ca::identity<T, S>(q, 3)), xt::eval(xt::eye<T>(3)));
    CHECK_ARRAY_EQ_AS_WANT(got(ca::eye<T, S>(q, 4)), xt::eval(xt::eye<T>(4)));

    for (kind kd : all_kinds) {
        INFO(kind_name(kd));
        for (std::size_t n : {0, 1, 4})
            for (std::ptrdiff_t k : {-2, 0, 1}) {
                auto v = make_input<T, S>({n}, kd, 31);
                CHECK_ARRAY_EQ_AS_WANT(got(ca::diag(v.dev, k)),
                               xt::eval(xt::diag(v.host, static_cast<int>(k))));
            }
        for (ca::shape_type sh : {ca::shape_type{3, 5}, ca::shape_type{4, 2}, ca::shape_type{0, 3},
                                  ca::shape_type{1, 1}})
            for (std::ptrdiff_t k : {-4, -1, 0, 2, 6}) {
                INFO(ca::shape_to_string(sh) << " k = " << k);
                auto a = make_input<T, S>(sh, kd, 32);
                auto d = ca::diag(a.dev, k);
                xt::xarray<T> want = ref_diagonal(a.host, k);
                CHECK_ARRAY_EQ_AS_WANT(got(d), want);
                // a writable view: writing it changes the diagonal only
                d.fill(T(-3));
                xt::xarray<T> host = a.host;
                for (std::size_t i = 0; i < sh[0]; ++i) {
                    const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) + k;
                    if (j >= 0 && j < static_cast<std::ptrdiff_t>(sh[1])) host(i, j) = T(-3);
                }
                CHECK_ARRAY_EQ_AS_WANT(got(a.dev), host);
            }
        // diagonal of a 3-d array over axes (2, 0): the diagonal is the last axis
        auto c = make_input<T, S>({3, 2, 4}, kd, 33);
        CHECK_ARRAY_EQ_AS_WANT(got(ca::diagonal(c.dev, 1, 2, 0)), xt::eval(xt::diagonal(c.host, 1, 2, 0)));
    }

    for (kind kd : all_kinds)
        for (std::size_t nx : {0, 1, 3})
            for (std::size_t ny : {1, 4}) {
                INFO(kind_name(kd) << " " << nx << " x " << ny);
                auto x = make_input<T, S>({nx}, kd, 41);
                auto y = make_input<T, S>({ny}, kind::contiguous, 42);
                auto z = make_input<T, S>({2}, kd, 43);
                auto xy = ca::meshgrid({x.dev, y.dev});
                REQUIRE(xy.size() == 2);
                auto [hx, hy] = xt::meshgrid(x.host, y.host); // xtensor's is ij-indexed
                CHECK_ARRAY_EQ_AS_WANT(got(xy[0]), xt::eval(xt::transpose(hx)));
                CHECK_ARRAY_EQ_AS_WANT(got(xy[1]), xt::eval(xt::transpose(hy)));
                auto ij = ca::meshgrid({x.dev, y.dev, z.dev}, ca::indexing::ij);
                auto [mx, my, mz] = xt::meshgrid(x.host, y.host, z.host);
                xt::xarray<T> gx = mx, gy = my, gz = mz;
                CHECK_ARRAY_EQ_AS_WANT(got(ij[0]), xt::eval(gx));
                CHECK_ARRAY_EQ_AS_WANT(got(ij[1]), xt::eval(gy));
                CHECK_ARRAY_EQ_AS_WANT(got(ij[2]), xt::eval(gz));
                // xy with three: the first two axes swapped
                auto xyz = ca::meshgrid({x.dev, y.dev, z.dev});
                CHECK_ARRAY_EQ_AS_WANT(got(xyz[0]), xt::eval(xt::transpose(gx, {1, 0, 2})));
                CHECK_ARRAY_EQ_AS_WANT(got(xyz[2]), xt::eval(xt::transpose(gz, {1, 0, 2})));
            }

    for (ca::shape_type dims :
         {ca::shape_type{2, 3}, ca::shape_type{4}, ca::shape_type{0, 2}, ca::shape_type{2, 1, 3}}) {
        INFO(ca::shape_to_string(dims));
        auto ind = ca::indices<std::int64_t, S>(q, dims);
        ca::shape_type want_shape = dims;
        want_shape.insert(want_shape.begin(), dims.size());
        REQUIRE(ind.shape() == want_shape);
        auto h = got(ind);
        bool ok = true;
        const std::size_t n = ca::checked_size(dims);
        for (std::size_t flat = 0; flat < n; ++flat) {
            std::size_t rest = flat;
            std::vector<std::size_t> idx(dims.size());
            for (std::size_t i = dims.size(); i-- > 0;) {
                idx[i] = rest % dims[i];
                rest /= dims[i];
            }
            for (std::size_t i = 0; i < dims.size(); ++i)
                ok = ok && h.data()[i * n + flat] == static_cast<std::int64_t>(idx[i]);
        }
        CHECK(ok);
    }
    CHECK_ARRAY_EQ_AS_WANT(got(ca::indices<float, S>(q, {2, 2})),
                   (xt::xarray<float>{{{0, 0}, {1, 1}}, {{0, 1}, {0, 1}}}));
}

// ---- expressions: clip, diff, triu, tril, astype ----

TEMPLATE_LIST_TEST_CASE("clip, diff, triu and tril are expressions that follow xtensor",
                        "[manipulation]", test::all_policies) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    for (kind k : all_kinds)
        for (const ca::shape_type& sh : {ca::shape_type{0, 3}, ca::shape_type{1, 1},
                                         ca::shape_type{4, 6}, ca::shape_type{5, 2}}) {
            INFO(kind_name(k) << " " << ca::shape_to_string(sh));
            auto a = make_input<T, S>(sh, k, 51);
            auto lo = make_input<T, S>({sh[1]}, k, 52);
            // scalars, arrays (broadcast), one side only, and inside a larger expression
            ca::cl_array<T, S> c1 = ca::clip(a.dev, -2.5f, 4);
            CHECK_ARRAY_EQ_AS_WANT(got(c1), xt::eval(xt::clip(a.host, T(-2.5), T(4))));
            ca::cl_array<T, S> c2 = ca::clip(a.dev, lo.dev, 3);
            CHECK_ARRAY_EQ_AS_WANT(got(c2), xt::eval(xt::minimum(xt::maximum(a.host, lo.host), T(3))));
            ca::cl_array<T, S> c3 = ca::clip(a.dev * 2, ca::none, lo.dev) + 1;
            CHECK_ARRAY_EQ_AS_WANT(got(c3), xt::eval(xt::minimum(a.host * T(2), lo.host) + T(1)));
            ca::cl_array<T, S> c4 = ca::clip(a.dev, 0, ca::none);
            CHECK_ARRAY_EQ_AS_WANT(got(c4), xt::eval(xt::maximum(a.host, T(0))));

            for (std::ptrdiff_t ax : {0, 1, -1})
                for (std::size_t n : {0, 1, 2, 3}) {
                    INFO("diff n = " << n << " axis " << ax);
                    ca::cl_array<T, S> d = ca::diff(a.dev, n, ax);
                    CHECK_ARRAY_EQ_AS_WANT(got(d), ref_diff(a.host, n, ax));
                }
            for (std::ptrdiff_t kk : {-7, -1, 0, 2, 8}) {
                INFO("k = " << kk);
                ca::cl_array<T, S> u = ca::triu(a.dev, kk);
                CHECK_ARRAY_EQ_AS_WANT(got(u), xt::eval(xt::triu(a.host, static_cast<int>(kk))));
                ca::cl_array<T, S> l = ca::tril(a.dev + 1, kk);
                CHECK_ARRAY_EQ_AS_WANT(got(l),
                               xt::eval(xt::tril(xt::eval(a.host + T(1)), static_cast<int>(kk))));
            }
            // into an output view with negative strides inside a larger array
            auto big = make_input<T, S>({sh[0] + 2, sh[1]}, kind::contiguous, 53);
            auto out = big.dev(ca::range(sh[0], 0, -1), ca::range(ca::none, ca::none, -1));
            if (sh[0] > 0) {
                out = ca::triu(a.dev, 1) - ca::diff(a.dev, 0, 0);
                xt::xarray<T> want = big.host;
                xt::xarray<T> val = xt::triu(a.host, 1) - a.host;
                for (std::size_t i = 0; i < sh[0]; ++i)
                    for (std::size_t j = 0; j < sh[1]; ++j)
                        want(sh[0] - i, sh[1] - 1 - j) = val(i, j);
                CHECK_ARRAY_EQ_AS_WANT(got(big.dev), want);
            }
        }
    // batched triu (last two axes) by a plain loop; a 1-d input is taken as square rows
    auto b = make_input<T, S>({2, 3, 4}, kind::transposed, 54);
    ca::cl_array<T, S> u = ca::triu(b.dev, 1);
    xt::xarray<T> want = b.host;
    for (std::size_t p = 0; p < 2; ++p)
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 4; ++j)
                if (static_cast<std::ptrdiff_t>(j) - static_cast<std::ptrdiff_t>(i) < 1)
                    want(p, i, j) = T(0);
    CHECK_ARRAY_EQ_AS_WANT(got(u), want);
    auto v = make_input<T, S>({3}, kind::negative, 55);
    ca::cl_array<T, S> lv = ca::tril(v.dev);
    xt::xarray<T> wl = xt::zeros<T>({3, 3});
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j <= i; ++j)
            wl(i, j) = v.host(j);
    CHECK_ARRAY_EQ_AS_WANT(got(lv), wl);
}

TEST_CASE("diff, triu and astype keep NumPy's types", "[manipulation]") {
    // bool: diff is not_equal; triu keeps bool
    auto b = make_input<bool, ca::buffer>({3, 5}, kind::strided, 61);
    ca::cl_array<bool, ca::buffer> d = ca::diff(b.dev);
    xt::xarray<bool> want = xt::not_equal(xt::view(b.host, xt::all(), xt::range(1, 5)),
                                          xt::view(b.host, xt::all(), xt::range(0, 4)));
    CHECK_ARRAY_EQ_AS_WANT(got(d), want);
    auto tb = ca::eval(ca::triu(b.dev, 1));
    STATIC_REQUIRE(std::is_same_v<decltype(tb), ca::cl_array<bool, ca::buffer>>);
    CHECK_ARRAY_EQ_AS_WANT(got(tb), xt::eval(xt::triu(b.host, 1)));
    // uint8 wraps
    xt::xarray<std::uint8_t> h{3, 250, 1, 255, 0};
    auto u8 = ca::to_device<ca::buffer>(test::q(), h);
    auto du = ca::eval(ca::diff(u8));
    STATIC_REQUIRE(std::is_same_v<decltype(du), ca::cl_array<std::uint8_t, ca::buffer>>);
    CHECK_ARRAY_EQ_AS_WANT(got(du), xt::eval(xt::diff(h)));
    // astype: a new array of U; the same type is a copy
    auto f = make_input<float, ca::buffer>({4, 3}, kind::negative, 62);
    auto i32 = f.dev.astype<std::int32_t>();
    STATIC_REQUIRE(std::is_same_v<decltype(i32), ca::cl_array<std::int32_t, ca::buffer>>);
    CHECK_ARRAY_EQ_AS_WANT(got(i32), xt::eval(xt::cast<std::int32_t>(f.host)));
    auto bo = f.dev.astype<bool>(ca::layout::f);
    CHECK(bo.is_f_contiguous());
    CHECK_ARRAY_EQ_AS_WANT(got(bo), xt::eval(xt::not_equal(f.host, 0.0f)));
    auto cp = f.dev.astype<float>();
    CHECK(cp.data() != f.dev.data());
    CHECK_ARRAY_EQ_AS_WANT(got(cp), f.host);
    // clip of an int array by a float scalar promotes (weak scalar of a higher kind)
    auto ints = ca::to_device<ca::buffer>(test::q(), xt::xarray<std::int32_t>{-5, 0, 5});
    auto ci = ca::eval(ca::clip(ints, -1.5, 2.5));
    STATIC_REQUIRE(std::is_same_v<decltype(ci), ca::cl_array<double, ca::buffer>>);
    if (test::dtype_available<double>())
        CHECK_ARRAY_EQ_AS_WANT(got(ci), (xt::xarray<double>{-1.5, 0, 2.5}));
}

// ---- errors ----

TEST_CASE("manipulation errors are typed and name what was wrong", "[manipulation][errors]") {
    auto& q = test::q();
    auto a = ca::zeros<float, ca::buffer>(q, {2, 3});
    auto b = ca::zeros<float, ca::buffer>(q, {3, 2});
    auto s = ca::zeros<float, ca::buffer>(q, ca::shape_type{});
    auto what = [](auto&& f) {
        try {
            f();
        } catch (const ca::error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THROWS_AS(ca::concatenate({a, b}, 0), ca::shape_error);
    const std::string m = what([&] { ca::concatenate({a, b}, 0); });
    CHECK(m.find("(3, 2)") != std::string::npos);
    CHECK(m.find("(2, 3)") != std::string::npos);
    CHECK_THROWS_AS(ca::concatenate({a, a}, 2), ca::index_error);
    const std::string ma = what([&] { ca::concatenate({a, a}, -3); });
    CHECK(ma.find("axis -3") != std::string::npos);
    CHECK(ma.find("rank 2") != std::string::npos);
    CHECK_THROWS_AS(ca::concatenate(std::vector<ca::cl_array<float, ca::buffer>>{}),
                    ca::usage_error);
    CHECK_THROWS_AS(ca::stack(std::vector<ca::cl_array<float, ca::buffer>>{}), ca::usage_error);
    CHECK_THROWS_AS(ca::concatenate({s, s}), ca::shape_error);
    CHECK_THROWS_AS(ca::concatenate({a, ca::zeros<float, ca::buffer>(q, {2})}), ca::shape_error);
    CHECK_THROWS_AS(ca::stack({a, b}), ca::shape_error);
    CHECK_THROWS_AS(ca::stack({a, a}, 3), ca::index_error);
    CHECK_THROWS_AS(ca::concatenate({a, ca::cl_array<float, ca::buffer>()}), ca::usage_error);
    CHECK_THROWS_AS(ca::concatenate({ca::cl_array<float, ca::buffer>(), a}), ca::usage_error);
    CHECK_THROWS_AS(ca::split(a, 2, 1), ca::shape_error);
    CHECK(what([&] { ca::split(a, 2, 1); }).find("extent 3") != std::string::npos);
    CHECK_THROWS_AS(ca::flip(a, 2), ca::index_error);
    CHECK_THROWS_AS(ca::flip(s, 0), ca::index_error);
    CHECK_THROWS_AS(ca::fliplr(ca::zeros<float, ca::buffer>(q, {3})), ca::shape_error);
    CHECK_THROWS_AS(ca::roll(a, 1, -3), ca::index_error);
    CHECK_THROWS_AS(ca::roll(a, {1, 2, 3}, {0, 1}), ca::shape_error);
    CHECK_THROWS_AS(ca::repeat(a, {1, 2}, 1), ca::shape_error);
    CHECK_THROWS_AS(ca::repeat(a, 2, 5), ca::index_error);
    CHECK_THROWS_AS(ca::tile(a, std::vector<std::size_t>(17, 1)), ca::shape_error);
    CHECK_THROWS_AS(ca::pad(a, {{1, 1}, {1, 1}, {1, 1}}), ca::shape_error);
    CHECK_THROWS_AS(ca::diag(ca::zeros<float, ca::buffer>(q, {2, 2, 2})), ca::shape_error);
    CHECK_THROWS_AS(ca::diag(s), ca::shape_error);
    CHECK_THROWS_AS(ca::diagonal(a, 0, 1, 1), ca::usage_error);
    CHECK_THROWS_AS(ca::diagonal(a, 0, 0, 2), ca::index_error);
    CHECK_THROWS_AS(ca::diff(s), ca::shape_error);
    CHECK_THROWS_AS(ca::diff(a, 1, 2), ca::index_error);
    CHECK_THROWS_AS(ca::triu(s), ca::shape_error);
    CHECK_THROWS_AS(ca::eval(ca::clip(a, b, 1.0f)), ca::shape_error);
}

TEST_CASE("manipulation results are enqueued without blocking and ordered by events",
          "[manipulation]") {
    ca::context& ctx = test::ctx();
    ca::queue q(ctx);
    ca::kernel writer =
        ca::program(ctx, "kernel void w(global float* a) { a[get_global_id(0)] = 2.0f; }")
            .kernel("w");
    cl_int rc = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(ctx.get(), &rc);
    REQUIRE(rc == CL_SUCCESS);
    auto flat = ca::zeros<float, ca::buffer>(q, {20});
    writer.launch(q, {20}, {}, {ca::event::retain(gate)}, ca::out(flat));
    auto a = flat.reshape({4, 5});
    // Each of these would deadlock if it waited: the writer cannot start before the gate opens.
    auto c = ca::concatenate({a, a}, 1);
    auto r = ca::roll(a, 2, 0);
    auto t = ca::tile(a, {2, 1});
    auto p = ca::pad(a, 1, 5.0f);
    auto parts = ca::split(a, 2);
    ca::cl_array<float, ca::buffer> u = ca::triu(a, 0);
    ca::cl_array<float, ca::buffer> d = ca::diff(a, 2);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    clReleaseEvent(gate);
    xt::xarray<float> two = xt::full_like(xt::xarray<float>::from_shape({4, 5}), 2.0f);
    CHECK_ARRAY_EQ_AS_WANT(got(c), xt::eval(xt::concatenate(xt::xtuple(two, two), 1)));
    CHECK_ARRAY_EQ_AS_WANT(got(r), two);
    CHECK_ARRAY_EQ_AS_WANT(got(t), xt::eval(xt::tile(two, {2, 1})));
    CHECK_ARRAY_EQ_AS_WANT(got(p), xt::eval(xt::pad(two, {{1, 1}, {1, 1}}, xt::pad_mode::constant, 5.0f)));
    CHECK_ARRAY_EQ_AS_WANT(got(parts[1]), xt::eval(xt::view(two, xt::range(2, 4))));
    CHECK_ARRAY_EQ_AS_WANT(got(u), xt::eval(xt::triu(two)));
    CHECK_ARRAY_EQ_AS_WANT(got(d), xt::eval(xt::diff(two, 2)));
}

TEST_CASE("manipulation results come from the input's pool and write into views",
          "[manipulation]") {
    auto& q = test::q();
    ca::buffer_pool pool(test::ctx());
    auto a = ca::zeros<float>(q, {3, 4}, pool);
    xt::xarray<float> h = test::random_array<float>({3, 4}, 81);
    a.set(h);
    const auto& from = a.data()->pool();
    REQUIRE(from);
    CHECK(ca::concatenate({a, a}).data()->pool() == from);
    CHECK(ca::roll(a, 1, 1).data()->pool() == from);
    CHECK(ca::tile(a, 2).data()->pool() == from);
    CHECK(ca::pad(a, 1).data()->pool() == from);
    CHECK(ca::repeat(a, 2, 0).data()->pool() == from);
    CHECK(a.astype<double>().data()->pool() == from);
    // a result assigned into a view of a larger array writes values there (a negative step)
    auto big = ca::zeros<float, ca::buffer>(q, {6, 8});
    auto v = big(ca::range(5, ca::none, -2), ca::range(ca::none, ca::none, 1));
    v = ca::concatenate({a, a}, 1);
    xt::xarray<float> want = xt::zeros<float>({6, 8});
    xt::xarray<float> joined = xt::concatenate(xt::xtuple(h, h), 1);
    for (std::size_t i = 0; i < 3; ++i)
        xt::view(want, 5 - 2 * i, xt::all()) = xt::view(joined, i, xt::all());
    CHECK_ARRAY_EQ_AS_WANT(got(big), want);
}

TEMPLATE_LIST_TEST_CASE("expand_dims, atleast_nd, swapaxes and moveaxis are views as xtensor's",
                        "[manipulation]", test::all_policies) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    const std::vector<ca::shape_type> shapes{{}, {0}, {5}, {3, 4}, {2, 3, 4}, {2, 1, 3, 2}};
    for (const ca::shape_type& sh : shapes)
        for (kind k : all_kinds) {
            INFO(ca::shape_to_string(sh) << " " << kind_name(k));
            auto a = make_input<T, S>(sh, k, 91);
            const auto rank = static_cast<std::ptrdiff_t>(sh.size());
            for (std::ptrdiff_t ax = -rank - 1; ax <= rank; ++ax) {
                auto e = ca::expand_dims(a.dev, ax);
                CHECK(e.data() == a.dev.data());
                const auto xa = static_cast<std::size_t>(ax < 0 ? ax + rank + 1 : ax);
                CHECK_ARRAY_EQ_AS_WANT(got(e), xt::eval(xt::expand_dims(a.host, xa)));
            }
            CHECK_ARRAY_EQ_AS_WANT(got(ca::atleast_1d(a.dev)), xt::eval(xt::atleast_1d(a.host)));
            CHECK_ARRAY_EQ_AS_WANT(got(ca::atleast_2d(a.dev)), xt::eval(xt::atleast_2d(a.host)));
            CHECK_ARRAY_EQ_AS_WANT(got(ca::atleast_3d(a.dev)), xt::eval(xt::atleast_3d(a.host)));
            for (std::ptrdiff_t i = -rank; i < rank; ++i)
                for (std::ptrdiff_t j = -rank; j < rank; ++j) {
                    const auto ui = static_cast<std::size_t>(i < 0 ? i + rank : i);
                    const auto uj = static_cast<std::size_t>(j < 0 ? j + rank : j);
                    // reference permutations built independently: swap, and erase + insert
                    std::vector<std::size_t> sw(sh.size()), mv;
                    for (std::size_t t = 0; t < sh.size(); ++t)
                        sw[t] = t == ui ? uj : (t == uj ? ui : t);
                    for (std::size_t t = 0; t < sh.size(); ++t)
                        if (t != ui) mv.push_back(t);
                    mv.insert(mv.begin() + static_cast<std::ptrdiff_t>(uj), ui);
                    INFO("axes " << i << ", " << j);
                    CHECK_ARRAY_EQ_AS_WANT(got(ca::swapaxes(a.dev, i, j)),
                                   xt::eval(xt::transpose(a.host, sw)));
                    CHECK_ARRAY_EQ_AS_WANT(got(ca::moveaxis(a.dev, i, j)),
                                   xt::eval(xt::transpose(a.host, mv)));
                }
        }
    auto a = make_input<T, S>({2, 3}, kind::contiguous, 92);
    CHECK_THROWS_AS(ca::expand_dims(a.dev, 3), ca::index_error);
    CHECK_THROWS_AS(ca::expand_dims(a.dev, -4), ca::index_error);
    CHECK_THROWS_AS(ca::swapaxes(a.dev, 0, 2), ca::index_error);
    CHECK_THROWS_AS(ca::moveaxis(a.dev, -3, 0), ca::index_error);
    // writes through a moved view reach the parent
    ca::moveaxis(a.dev, 0, 1)(ca::all(), 1).fill(T(9));
    xt::view(a.host, 1, xt::all()) = T(9);
    CHECK_ARRAY_EQ_AS_WANT(got(a.dev), a.host);
}
