// einsum and einsum_path against a host einsum that loops over every assignment of the indices.
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using cdouble = std::complex<double>;

template <class T> cdouble to_cdouble(const T& v) {
    if constexpr (ca::is_complex_v<T>)
        return cdouble(v.real(), v.imag());
    else if constexpr (std::is_same_v<T, ca::half>)
        return cdouble(static_cast<float>(v), 0);
    else
        return cdouble(static_cast<double>(v), 0);
}

// Random host values: reals in [-2, 2] (both parts for complex), small integers, random bools.
template <class T> xt::xarray<T> random_host(const ca::shape_type& shape, unsigned seed) {
    std::mt19937_64 rng(seed * 7919u + 17u);
    std::uniform_real_distribution<double> real(-2, 2);
    xt::xarray<T> a =
        xt::xarray<T>::from_shape(std::vector<std::size_t>(shape.begin(), shape.end()));
    for (auto& v : a) {
        if constexpr (ca::is_complex_v<T>)
            v = T(static_cast<typename T::value_type>(real(rng)),
                  static_cast<typename T::value_type>(real(rng)));
        else if constexpr (std::is_same_v<T, ca::half>)
            v = ca::half(static_cast<float>(real(rng)));
        else if constexpr (std::is_same_v<T, bool>)
            v = (rng() & 1) != 0;
        else if constexpr (std::is_floating_point_v<T>)
            v = static_cast<T>(real(rng));
        else
            v = static_cast<T>(static_cast<int>(rng() % 19) - (std::is_signed_v<T> ? 9 : 0));
    }
    return a;
}

template <class T, class S> ca::cl_array<T, S> to_device(const xt::xarray<T>& h) {
    ca::shape_type shape;
    for (std::size_t e : h.shape())
        shape.push_back(e);
    ca::cl_array<T, S> a(test::q(), shape);
    if (a.size() != 0) a.set(h);
    return a;
}

// The host reference. `spec` is explicit ("ab,bc->ac"), letters only; an axis of extent 1
// broadcasts against the index's extent elsewhere (what "..." does). Returns the result in
// complex double (C order, shape `out_shape`) and, per element, the sum of |products| (the scale
// of rounding errors).
struct host_result {
    std::vector<std::size_t> shape;
    std::vector<cdouble> value;
    std::vector<double> magnitude;
};
template <class T>
host_result host_einsum(const std::string& spec, const std::vector<xt::xarray<T>>& ops) {
    const std::size_t arrow = spec.find("->");
    REQUIRE(arrow != std::string::npos);
    std::vector<std::string> terms;
    std::string current;
    for (char c : spec.substr(0, arrow)) {
        if (c == ',') {
            terms.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    terms.push_back(current);
    const std::string out = spec.substr(arrow + 2);
    REQUIRE(terms.size() == ops.size());
    std::map<char, std::size_t> extent;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        REQUIRE(terms[k].size() == ops[k].dimension());
        for (std::size_t d = 0; d < terms[k].size(); ++d) {
            const std::size_t e = ops[k].shape()[d];
            auto [it, fresh] = extent.emplace(terms[k][d], e);
            if (!fresh && it->second == 1) it->second = e;
        }
    }
    std::string all = out;
    for (const auto& [label, e] : extent)
        if (out.find(label) == std::string::npos) all += label;
    host_result r;
    std::size_t out_count = 1, total = 1;
    for (char c : out) {
        r.shape.push_back(extent[c]);
        out_count *= extent[c];
    }
    for (char c : all)
        total *= extent[c];
    r.value.assign(out_count, 0);
    r.magnitude.assign(out_count, 0);
    std::map<char, std::size_t> at;
    std::vector<std::size_t> index;
    for (std::size_t flat = 0; flat < total; ++flat) {
        std::size_t rest = flat;
        for (std::size_t i = all.size(); i-- > 0;) {
            at[all[i]] = rest % extent[all[i]];
            rest /= extent[all[i]];
        }
        cdouble product = 1;
        for (std::size_t k = 0; k < ops.size(); ++k) {
            index.assign(terms[k].size(), 0);
            for (std::size_t d = 0; d < terms[k].size(); ++d)
                index[d] = ops[k].shape()[d] == 1 ? 0 : at[terms[k][d]];
            product *= to_cdouble(ops[k].element(index.begin(), index.end()));
        }
        std::size_t o = 0;
        for (char c : out)
            o = o * extent[c] + at[c];
        r.value[o] += product;
        r.magnitude[o] += std::abs(product);
    }
    return r;
}

template <class T> double tolerance() {
    if constexpr (std::is_same_v<T, ca::half>) return 4e-3;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>) return 1e-5;
    return 1e-12;
}

// device == reference: exactly for integers (wrapped to T as NumPy does), within rounding for
// floats.
template <class T> void check_against(const xt::xarray<T>& device, const host_result& ref) {
    const std::vector<std::size_t> shape(device.shape().begin(), device.shape().end());
    REQUIRE(shape == ref.shape);
    std::size_t i = 0;
    for (const T& v : device) {
        if constexpr (std::is_same_v<T, bool>) {
            CHECK(v == (ref.value[i].real() != 0));
        } else if constexpr (std::is_integral_v<T>) {
            const auto wrapped = static_cast<T>(static_cast<long long>(ref.value[i].real()));
            CHECK(v == wrapped);
        } else {
            const double err = std::abs(to_cdouble(v) - ref.value[i]);
            const double bound = tolerance<T>() * (ref.magnitude[i] + 1) * 8;
            if (!(err <= bound)) {
                FAIL_CHECK("element " << i << ": device " << to_cdouble(v).real() << "+"
                                      << to_cdouble(v).imag() << "i, host " << ref.value[i].real()
                                      << "+" << ref.value[i].imag() << "i, bound " << bound);
            }
        }
        ++i;
    }
}

template <class T, class S>
void check_case(const std::string& spec, const std::string& reference,
                const std::vector<ca::shape_type>& shapes, unsigned seed) {
    INFO("einsum \"" << spec << "\" (reference \"" << reference << "\")");
    std::vector<xt::xarray<T>> host;
    std::vector<ca::cl_array<T, S>> dev;
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        host.push_back(random_host<T>(shapes[k], seed + static_cast<unsigned>(k)));
        dev.push_back(to_device<T, S>(host.back()));
    }
    const host_result ref = host_einsum(reference, host);
    ca::cl_array<T, S> result;
    switch (dev.size()) {
    case 1:
        result = ca::einsum(spec, dev[0]);
        break;
    case 2:
        result = ca::einsum(spec, dev[0], dev[1]);
        break;
    case 3:
        result = ca::einsum(spec, dev[0], dev[1], dev[2]);
        break;
    case 4:
        result = ca::einsum(spec, dev[0], dev[1], dev[2], dev[3]);
        break;
    default:
        FAIL("test: too many operands");
    }
    if (result.size() == 0) {
        const std::vector<std::size_t> shape(result.shape().begin(), result.shape().end());
        CHECK(shape == ref.shape);
        return;
    }
    check_against<T>(result.get(), ref);
}

struct einsum_case {
    std::string spec, reference;
    std::vector<ca::shape_type> shapes;
};

// The cases every storage policy runs (float).
const std::vector<einsum_case>& broad_cases() {
    static const std::vector<einsum_case> cases = {
        {"ij,jk->ik", "ij,jk->ik", {{5, 7}, {7, 3}}},
        {"ij,jk", "ij,jk->ik", {{4, 6}, {6, 5}}},     // implicit output
        {"ij,kj", "ij,kj->ik", {{4, 6}, {5, 6}}},     // b transposed
        {"ba,ac", "ba,ac->bc", {{4, 6}, {6, 5}}},     // implicit: sorted
        {"ij,jk->ki", "ij,jk->ki", {{3, 4}, {4, 5}}}, // transposed result
        {"bij,bjk->bik", "bij,bjk->bik", {{3, 4, 5}, {3, 5, 2}}},
        {"...ij,...jk->...ik", "abij,bjk->abik", {{2, 1, 3, 4}, {5, 4, 2}}},
        {"...ij,...jk", "abij,abjk->abik", {{2, 3, 3, 4}, {1, 3, 4, 2}}},
        {"ijk,jkl->il", "ijk,jkl->il", {{3, 4, 5}, {4, 5, 2}}}, // two summed indices
        {"ii", "ii->", {{6, 6}}},                               // trace
        {"ii->i", "ii->i", {{5, 5}}},                           // diagonal (a view)
        {"iij->j", "iij->j", {{4, 4, 3}}},
        {"iji->ij", "iji->ij", {{3, 2, 3}}},
        {"ij->ji", "ij->ji", {{3, 5}}}, // transpose (a view)
        {"ij", "ij->ij", {{3, 5}}},
        {"ij->i", "ij->i", {{4, 7}}},
        {"ij->", "ij->", {{4, 7}}},
        {"...i->...", "abi->ab", {{2, 3, 4}}},
        {"i,j->ij", "i,j->ij", {{4}, {5}}}, // outer
        {"i,j", "i,j->ij", {{4}, {5}}},
        {"ij,ij->ij", "ij,ij->ij", {{3, 4}, {3, 4}}}, // element-wise
        {"i,i->i", "i,i->i", {{6}, {6}}},
        {"i,i", "i,i->", {{9}, {9}}},                 // inner product, 0-d
        {"i,ij,j->", "i,ij,j->", {{5}, {5, 6}, {6}}}, // bilinear form
        {"ij,jk,kl->il", "ij,jk,kl->il", {{3, 8}, {8, 2}, {2, 6}}},
        {"ab,bc,cd,de->ae", "ab,bc,cd,de->ae", {{2, 7}, {7, 3}, {3, 9}, {9, 4}}},
        {"ii,i->i", "ii,i->i", {{4, 4}, {4}}},
        {"ij,ij,ij->ij", "ij,ij,ij->ij", {{3, 4}, {3, 4}, {3, 4}}}, // one fused product
        {"i,j,k->kji", "i,j,k->kji", {{2}, {3}, {4}}},
        {"...j,ij,jk,j->...ikj", "abj,ij,jk,j->abikj", {{2, 1, 3}, {2, 3}, {3, 2}, {3}}},
        {"ijj,i,k->ik", "ijj,i,k->ik", {{2, 3, 3}, {2}, {3}}}, // sum, then fused
        {"ij,j,k->ik", "ij,j,k->ik", {{3, 4}, {4}, {2}}},      // sum then outer
        {"ij,kl->", "ij,kl->", {{2, 3}, {4, 5}}},              // both operands summed alone
        {",i->i", ",i->i", {{}, {5}}},                         // 0-d operand
        {"->", "->", {{}}},
        {"ij,jk->ik", "ij,jk->ik", {{0, 3}, {3, 4}}}, // size-0 axes
        {"ij,jk->ik", "ij,jk->ik", {{2, 0}, {0, 4}}}, // sum over an empty axis: 0s
        {"ij->", "ij->", {{0, 3}}},
        {"bij,bjk->bik", "bij,bjk->bik", {{0, 2, 3}, {0, 3, 2}}},
    };
    return cases;
}

// The cases every dtype runs.
const std::vector<einsum_case>& dtype_cases() {
    static const std::vector<einsum_case> cases = {
        {"ij,jk->ik", "ij,jk->ik", {{5, 7}, {7, 3}}},
        {"...ij,...jk->...ik", "abij,bjk->abik", {{2, 1, 3, 4}, {5, 4, 2}}},
        {"ii", "ii->", {{6, 6}}},
        {"iij->ji", "iij->ji", {{4, 4, 3}}},
        {"i,ij,j->", "i,ij,j->", {{5}, {5, 6}, {6}}},
        {"ij,jk,kl->il", "ij,jk,kl->il", {{3, 8}, {8, 2}, {2, 6}}},
        {"ij,ij->ij", "ij,ij->ij", {{3, 4}, {3, 4}}},
        {"ij,j,i->ji", "ij,j,i->ji", {{3, 4}, {4}, {3}}},
        {"ij,i->j", "ij,i->j", {{0, 4}, {0}}},
    };
    return cases;
}

std::string thrown_message(const std::function<void()>& f) {
    try {
        f();
    } catch (const ca::error& e) {
        return e.what();
    }
    return "(nothing thrown)";
}

} // namespace

TEMPLATE_LIST_TEST_CASE("einsum: the cases on every storage policy", "[einsum]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    unsigned seed = 1;
    for (const einsum_case& c : broad_cases())
        check_case<float, S>(c.spec, c.reference, c.shapes, seed += 10);
}

using einsum_dtypes =
    std::tuple<test::cfg<double, ca::svm_coarse>, test::cfg<std::complex<float>, ca::buffer>,
               test::cfg<std::complex<double>, ca::svm_coarse>, test::cfg<ca::half, ca::buffer>,
               test::cfg<std::int32_t, ca::svm_coarse>, test::cfg<std::uint8_t, ca::buffer>,
               test::cfg<std::int64_t, ca::buffer>, test::cfg<bool, ca::svm_coarse>>;

TEMPLATE_LIST_TEST_CASE("einsum: element types", "[einsum]", einsum_dtypes) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    if constexpr (std::is_same_v<T, std::complex<double>>)
        if (!test::ctx().device().has_fp64()) return;
    unsigned seed = 100;
    for (const einsum_case& c : dtype_cases())
        check_case<T, S>(c.spec, c.reference, c.shapes, seed += 10);
}

TEST_CASE("einsum: views as operands", "[einsum]") {
    const xt::xarray<float> big = random_host<float>({6, 7}, 3), vec = random_host<float>({9}, 4);
    const auto dbig = to_device<float, ca::buffer>(big);
    const auto dvec = to_device<float, ca::buffer>(vec);
    // Transposed, offset and negative-step views, on the device and the same views on the host.
    const auto a = dbig.transpose();                                         // (7, 6)
    const auto b = dbig(ca::range(1, 5), ca::range(ca::none, ca::none, -2)); // (4, 4)
    const auto v = dvec(ca::range(8, 2, -1));                                // (6,)
    const xt::xarray<float> ha = xt::transpose(big);
    const xt::xarray<float> hb = xt::view(big, xt::range(1, 5), xt::range(6, -8, -2));
    xt::xarray<float> hv = xt::zeros<float>({6});
    for (std::size_t i = 0; i < 6; ++i)
        hv(i) = vec(8 - i);
    REQUIRE(hb.shape()[1] == 4);

    check_against<float>(ca::einsum("ij,j->i", a, v).get(),
                         host_einsum<float>("ij,j->i", {ha, hv}));
    check_against<float>(ca::einsum("ij,jk->ik", b, b).get(),
                         host_einsum<float>("ij,jk->ik", {hb, hb}));
    check_against<float>(ca::einsum("ii->i", b).get(), host_einsum<float>("ii->i", {hb}));
    check_against<float>(
        ca::einsum("ij,kj->ik", b, a(ca::range(0, 3), ca::range(2, 6))).get(),
        host_einsum<float>(
            "ij,kj->ik", {hb, xt::xarray<float>(xt::view(ha, xt::range(0, 3), xt::range(2, 6)))}));
    check_against<float>(ca::einsum("ij,ij->ij", b, b.transpose()).get(),
                         host_einsum<float>("ij,ji->ij", {hb, hb}));
}

TEST_CASE("einsum: permutations and diagonals of one operand are views", "[einsum]") {
    const xt::xarray<float> h = random_host<float>({4, 4, 3}, 9);
    const auto a = to_device<float, ca::buffer>(h);
    const auto t = ca::einsum("ijk->kji", a);
    CHECK(t.data() == a.data());
    check_against<float>(t.get(), host_einsum<float>("ijk->kji", {h}));
    const auto d = ca::einsum("iik->ki", a);
    CHECK(d.data() == a.data());
    check_against<float>(d.get(), host_einsum<float>("iik->ki", {h}));
    // Writing through the diagonal view writes the operand's diagonal.
    auto writable = d;
    writable.fill(5.0f);
    const xt::xarray<float> after = a.get();
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t k = 0; k < 3; ++k)
            CHECK(after(i, i, k) == 5.0f);
    // A sum makes a new array.
    CHECK(ca::einsum("ijk->k", a).data() != a.data());
}

TEST_CASE("einsum: expression operands and mixed dtypes", "[einsum]") {
    const xt::xarray<float> ha = random_host<float>({4, 5}, 21), hx = random_host<float>({5}, 22);
    const auto a = to_device<float, ca::buffer>(ha);
    const auto x = to_device<float, ca::buffer>(hx);
    const xt::xarray<float> ha2 = ha * 2.0f, hx1 = hx + 1.0f;
    check_against<float>(ca::einsum("ij,j", a * 2.0f, x).get(),
                         host_einsum<float>("ij,j->i", {ha2, hx}));
    check_against<float>(ca::einsum("ij,j->i", a, x + 1.0f).get(),
                         host_einsum<float>("ij,j->i", {ha, hx1}));
    check_against<float>(ca::einsum("ij->j", a * 2.0f).get(), host_einsum<float>("ij->j", {ha2}));

    // float with int32 promotes to float64 (NumPy), with float16 to float32.
    if (test::ctx().device().has_fp64()) {
        const xt::xarray<std::int32_t> hi = random_host<std::int32_t>({5, 3}, 23);
        const auto i = to_device<std::int32_t, ca::buffer>(hi);
        const auto r = ca::einsum("ij,jk->ik", a, i);
        STATIC_REQUIRE(std::is_same_v<decltype(r), const ca::cl_array<double, ca::buffer>>);
        const xt::xarray<double> ha_d = xt::cast<double>(ha), hi_d = xt::cast<double>(hi);
        check_against<double>(r.get(), host_einsum<double>("ij,jk->ik", {ha_d, hi_d}));
    }
    const xt::xarray<ca::half> hh = random_host<ca::half>({5}, 24);
    const auto h = to_device<ca::half, ca::buffer>(hh);
    const auto r = ca::einsum("ij,j->i", a, h);
    STATIC_REQUIRE(std::is_same_v<decltype(r), const ca::cl_array<float, ca::buffer>>);
    xt::xarray<float> hh_f = xt::zeros<float>({5});
    for (std::size_t k = 0; k < 5; ++k)
        hh_f(k) = static_cast<float>(hh(k));
    check_against<float>(r.get(), host_einsum<float>("ij,j->i", {ha, hh_f}));
    // linalg::einsum is the same function.
    check_against<float>(ca::linalg::einsum("ij,j", a, x).get(),
                         host_einsum<float>("ij,j->i", {ha, hx}));
}

TEMPLATE_LIST_TEST_CASE("einsum: does not block the host", "[einsum]", test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    ca::context& ctx = test::ctx();
    ca::queue q(ctx);
    ca::kernel writer =
        ca::program(ctx, "kernel void w(global float* a) { a[get_global_id(0)] = 2.0f; }")
            .kernel("w");
    test::host_wait_gate gate(ctx);
    auto a = ca::empty<float, S>(q, {4, 4});
    writer.launch(q, {a.size()}, {}, {gate.event()}, ca::out(a));
    // A matrix product, a sum of one operand, an element-wise product and a three-operand chain.
    const auto product = ca::einsum("ij,jk->ik", a, a);
    const auto trace = ca::einsum("ii", a);
    const auto elementwise = ca::einsum("ij,ji->ij", a, a);
    const auto chain = ca::einsum("ij,jk,k->i", a, a, a(0));
    CHECK(gate.release());
    const auto all_equal = [](const xt::xarray<float>& x, float v) {
        return std::all_of(x.begin(), x.end(), [v](float e) { return e == v; });
    };
    CHECK(all_equal(product.get(), 16.0f));
    CHECK(trace.item() == 8.0f);
    CHECK(all_equal(elementwise.get(), 4.0f));
    CHECK(all_equal(chain.get(), 128.0f));
}

TEST_CASE("einsum: errors", "[einsum][errors]") {
    auto& q = test::q();
    const auto a = ca::zeros<float, ca::buffer>(q, {3, 4});
    const auto b = ca::zeros<float, ca::buffer>(q, {5, 6});
    const auto sq = ca::zeros<float, ca::buffer>(q, {3, 3});
    using catch_compat::Contains;

    // Malformed subscripts: usage_error naming the subscripts and the position.
    CHECK_THROWS_AS(ca::einsum("ij-jk", a), ca::usage_error);
    CHECK_THROWS_WITH(ca::einsum("ij-jk", a),
                      Contains("\"ij-jk\"") && Contains("position 2") && Contains("'-'"));
    CHECK_THROWS_WITH(ca::einsum("i2", a), Contains("position 1") && Contains("'2'"));
    CHECK_THROWS_WITH(ca::einsum("i.j", a), Contains("position 1") && Contains("ellipsis"));
    CHECK_THROWS_WITH(ca::einsum("...i...", a), Contains("position 4") && Contains("second"));
    CHECK_THROWS_WITH(ca::einsum("ij->i->j", a), Contains("position 5") && Contains("second"));
    CHECK_THROWS_WITH(ca::einsum("ij>i", a), Contains("position 2"));
    CHECK_THROWS_WITH(ca::einsum("ij->i,j", a), Contains("position 5"));
    CHECK_THROWS_AS(ca::einsum("ij->i,j", a), ca::usage_error);

    // Operand count.
    CHECK_THROWS_AS(ca::einsum("ij,jk->ik", a), ca::usage_error);
    CHECK_THROWS_WITH(ca::einsum("ij->ij", a, a), Contains("1 operand") && Contains("2 were"));

    // Extents that disagree: shape_error naming the index, the operands and the extents.
    CHECK_THROWS_AS(ca::einsum("ij,jk->ik", a, b), ca::shape_error);
    CHECK_THROWS_WITH(ca::einsum("ij,jk->ik", a, b), Contains("'j'") && Contains("operand 0") &&
                                                         Contains("operand 1") &&
                                                         Contains("extent 4") && Contains("but 5"));
    CHECK_THROWS_WITH(ca::einsum("ii", a), Contains("'i'") && Contains("repeats"));
    CHECK_THROWS_AS(ca::einsum("ijk", a), ca::shape_error);    // rank mismatch
    CHECK_THROWS_AS(ca::einsum("...ijk", a), ca::shape_error); // too few axes for the letters
    CHECK_THROWS_WITH(ca::einsum("...i,...i", ca::zeros<float, ca::buffer>(q, {2, 3}),
                                 ca::zeros<float, ca::buffer>(q, {4, 3})),
                      Contains("broadcast"));

    // Output indices.
    CHECK_THROWS_AS(ca::einsum("ij->ik", a), ca::usage_error);
    CHECK_THROWS_WITH(ca::einsum("ij->ik", a), Contains("'k'") && Contains("no input"));
    CHECK_THROWS_AS(ca::einsum("ii->ii", sq), ca::usage_error);
    CHECK_THROWS_WITH(ca::einsum("ij->ii", a), Contains("'i'") && Contains("more than once"));
    CHECK_THROWS_WITH(ca::einsum("...j->j", a), Contains("\"...\""));

    // Unbound operands.
    const ca::cl_array<float, ca::buffer> unbound{};
    CHECK_THROWS_WITH(ca::einsum("ij,jk", a, unbound),
                      Contains("operand 1") && Contains("unbound"));

    // An operand of another context.
    ca::context other = ca::context::from_env();
    ca::queue other_queue(other);
    const ca::cl_array<float, ca::buffer> foreign(other_queue, ca::shape_type{4, 2});
    CHECK_THROWS_AS(ca::einsum("ij,jk", a, foreign), ca::usage_error);
    CHECK_THROWS_WITH(ca::einsum("ij,jk", a, foreign), Contains("another context"));

    // The planner alone throws the same.
    CHECK_THROWS_AS(ca::einsum_path("ij,jk", ca::shape_type{2, 3}, ca::shape_type{4, 5}),
                    ca::shape_error);
    CHECK(thrown_message([&] {
              ca::einsum_path("ij,jk", ca::shape_type{2, 3});
          }).find("2 operand") != std::string::npos);
}

// ---- the planner, without a device ----

TEST_CASE("einsum plan: parsing and preparation", "[einsum][plan]") {
    using ca::shape_type;
    {
        // A repeated index is a diagonal view; an index of one operand alone is summed first.
        const auto plan =
            ca::detail::plan_einsum("iij,jk->k", {shape_type{3, 3, 4}, shape_type{4, 5}});
        REQUIRE(plan.operands.size() == 2);
        CHECK(plan.operands[0].axis_groups == std::vector<std::vector<std::size_t>>{{0, 1}, {2}});
        CHECK(plan.operands[0].view_shape == shape_type{3, 4});
        CHECK(plan.operands[0].sum_axes == std::vector<std::ptrdiff_t>{0});
        CHECK(plan.operands[0].labels == "j");
        CHECK(plan.operands[1].labels == "jk");
        REQUIRE(plan.contractions.size() == 1);
        CHECK(plan.contractions[0].summed == "j");
        CHECK(plan.output_shape == shape_type{5});
    }
    {
        // Implicit output: the letters that appear once, in ASCII order (upper case first).
        const auto plan = ca::detail::plan_einsum(
            "bA,ca,ab", {shape_type{2, 3}, shape_type{4, 5}, shape_type{5, 2}});
        CHECK(plan.output_labels == "Ac");
        CHECK(plan.output_shape == shape_type{3, 4});
    }
    {
        // "..." takes letters no term uses; a broadcast extent-1 axis is dropped from the view.
        const auto plan =
            ca::detail::plan_einsum("...ij,...jk", {shape_type{2, 1, 3, 4}, shape_type{5, 4, 6}});
        CHECK(plan.output_shape == shape_type{2, 5, 3, 6});
        CHECK(plan.operands[0].view_shape == shape_type{2, 3, 4});
        CHECK(plan.operands[0].axis_groups == std::vector<std::vector<std::size_t>>{{0}, {2}, {3}});
        REQUIRE(plan.contractions.size() == 1);
        CHECK(plan.contractions[0].summed == "j");
    }
    {
        // Spaces are ignored; a pure permutation is a transpose of the operand.
        const auto plan = ca::detail::plan_einsum(" ij -> ji ", {shape_type{2, 3}});
        CHECK(plan.contractions.empty());
        CHECK(plan.operands[0].sum_axes.empty());
        CHECK(plan.output_order == std::vector<std::size_t>{1, 0});
    }
    {
        // Three or more operands without a summed index: one fused product, no pairs.
        const auto plan = ca::detail::plan_einsum(
            "ij,j,ik->kij", {shape_type{2, 3}, shape_type{3}, shape_type{2, 4}});
        CHECK(plan.fused_product);
        CHECK(plan.contractions.empty());
        CHECK(plan.path.pairs.empty());
        CHECK(plan.operands[1].output_place == std::vector<std::ptrdiff_t>{-1, -1, 0});
        CHECK(plan.operands[2].output_place == std::vector<std::ptrdiff_t>{1, 0, -1});
        // A summed index anywhere: pairwise.
        CHECK_FALSE(ca::detail::plan_einsum("ij,j,ik->k",
                                            {shape_type{2, 3}, shape_type{3}, shape_type{2, 4}})
                        .fused_product);
    }
    {
        // Without a summed index the contraction is an element-wise product.
        const auto plan =
            ca::detail::plan_einsum("ij,jk->ijk", {shape_type{2, 3}, shape_type{3, 4}});
        REQUIRE(plan.contractions.size() == 1);
        CHECK(plan.contractions[0].summed.empty());
        CHECK(plan.output_shape == shape_type{2, 3, 4});
    }
}

namespace {
// The size of the intermediate of terms i and j of `terms` (letters; every extent `extent[c]`).
std::size_t intermediate_size(const std::vector<std::string>& terms, std::size_t i, std::size_t j,
                              const std::string& output, std::map<char, std::size_t>& extent) {
    std::size_t size = 1;
    std::string seen;
    for (char c : terms[i] + terms[j]) {
        if (seen.find(c) != std::string::npos) continue;
        seen += c;
        bool kept = output.find(c) != std::string::npos;
        for (std::size_t t = 0; t < terms.size(); ++t)
            kept = kept || (t != i && t != j && terms[t].find(c) != std::string::npos);
        if (kept) size *= extent[c];
    }
    return size;
}
} // namespace

TEST_CASE("einsum plan: the greedy path follows the shapes", "[einsum][plan]") {
    using ca::shape_type;
    // A chain whose best order depends on the extents: with a wide middle, (1, 2) first.
    const auto wide = ca::einsum_path("ij,jk,kl->il", shape_type{1000, 2}, shape_type{2, 1000},
                                      shape_type{1000, 3});
    REQUIRE(wide.pairs.size() == 2);
    CHECK(wide.pairs[0] == std::pair<std::size_t, std::size_t>{1, 2});
    const auto narrow = ca::einsum_path("ij,jk,kl->il", shape_type{2, 1000}, shape_type{1000, 2},
                                        shape_type{2, 1000});
    CHECK(narrow.pairs[0] == std::pair<std::size_t, std::size_t>{0, 1});
    CHECK(narrow.description.find("step 2") != std::string::npos);
    CHECK(narrow.description.find("matrix product") != std::string::npos);

    // Random chains and stars: each step takes a pair whose intermediate is the smallest among the
    // pairs that share an index (this test's own count).
    std::mt19937 rng(5);
    for (int round = 0; round < 40; ++round) {
        const std::string letters = "abcdefg";
        std::map<char, std::size_t> extent;
        for (char c : letters)
            extent[c] = 1 + rng() % 9;
        const std::size_t count = 3 + rng() % 3;
        std::vector<std::string> terms(count);
        std::vector<shape_type> shapes(count);
        for (std::size_t k = 0; k < count; ++k) {
            // Each term: two or three distinct letters.
            std::string pool = letters;
            std::shuffle(pool.begin(), pool.end(), rng);
            terms[k] = pool.substr(0, 2 + rng() % 2);
            for (char c : terms[k])
                shapes[k].push_back(extent[c]);
        }
        std::string spec;
        for (std::size_t k = 0; k < count; ++k)
            spec += (k ? "," : "") + terms[k];
        spec += "->a";
        bool has_a = false;
        for (const auto& t : terms)
            has_a = has_a || t.find('a') != std::string::npos;
        if (!has_a) continue;
        INFO(spec);
        const auto path = ca::einsum_path(spec, shapes);
        // Replay: the output "a"; indices of one term alone were summed before the contractions.
        std::vector<std::string> current;
        for (std::size_t k = 0; k < count; ++k) {
            std::string kept;
            for (char c : terms[k]) {
                bool needed = c == 'a';
                for (std::size_t o = 0; o < count; ++o)
                    needed = needed || (o != k && terms[o].find(c) != std::string::npos);
                if (needed && kept.find(c) == std::string::npos) kept += c;
            }
            current.push_back(kept);
        }
        // Nothing left to sum but "a": one fused product, no pairs.
        const bool fused = std::all_of(current.begin(), current.end(), [](const std::string& t) {
            return t.find_first_not_of('a') == std::string::npos;
        });
        REQUIRE(path.pairs.size() == (fused ? 0 : count - 1));
        for (const auto& [i, j] : path.pairs) {
            REQUIRE(i < j);
            REQUIRE(j < current.size());
            bool any_shared = false;
            for (std::size_t x = 0; x < current.size(); ++x)
                for (std::size_t y = x + 1; y < current.size(); ++y)
                    any_shared =
                        any_shared || current[x].find_first_of(current[y]) != std::string::npos;
            const std::size_t chosen = intermediate_size(current, i, j, "a", extent);
            for (std::size_t x = 0; x < current.size(); ++x)
                for (std::size_t y = x + 1; y < current.size(); ++y) {
                    if (any_shared && current[x].find_first_of(current[y]) == std::string::npos)
                        continue;
                    CHECK(chosen <= intermediate_size(current, x, y, "a", extent));
                }
            std::string merged;
            for (char c : current[i] + current[j]) {
                if (merged.find(c) != std::string::npos) continue;
                bool kept = c == 'a';
                for (std::size_t t = 0; t < current.size(); ++t)
                    kept = kept || (t != i && t != j && current[t].find(c) != std::string::npos);
                if (kept) merged += c;
            }
            current.erase(current.begin() + static_cast<std::ptrdiff_t>(j));
            current.erase(current.begin() + static_cast<std::ptrdiff_t>(i));
            current.push_back(merged);
        }
    }
}
