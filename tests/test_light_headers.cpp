// The core array headers on their own: fixed_vector (the shape container) against std::vector,
// and cl_array's device-side and std::vector transfers in a TU that includes no xtensor header.
#include <clarray/array/cl_array.hpp>
#include <clarray/array/factories.hpp>

#if defined(XTENSOR_VERSION_MAJOR)
#error "clarray/array/cl_array.hpp or array/factories.hpp pulled in an xtensor header"
#endif

#include "catch.hpp"

#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace ca = clarray;
using catch_compat::Contains;

namespace {

using small_vector = ca::fixed_vector<int, 16>;

bool same(const small_vector& f, const std::vector<int>& v) {
    return f.size() == v.size() && std::vector<int>(f.begin(), f.end()) == v;
}

std::string what_of(const std::exception& e) {
    return e.what();
}

} // namespace

TEST_CASE("fixed_vector follows std::vector under random edits", "[light_headers]") {
    std::mt19937 rng(7);
    small_vector f;
    std::vector<int> v;
    for (int step = 0; step < 5000; ++step) {
        const int value = static_cast<int>(rng() % 1000);
        const std::size_t op = rng() % 7;
        // Every edit that would exceed the capacity throws shape_error and changes nothing.
        auto grows_past = [&](std::size_t n) { return n > small_vector::capacity(); };
        if (op == 0) {
            if (grows_past(v.size() + 1)) {
                CHECK_THROWS_AS(f.push_back(value), ca::shape_error);
            } else {
                f.push_back(value);
                v.push_back(value);
            }
        } else if (op == 1 && !v.empty()) {
            f.pop_back();
            v.pop_back();
        } else if (op == 2) {
            const std::size_t at = rng() % (v.size() + 1);
            if (grows_past(v.size() + 1)) {
                CHECK_THROWS_AS(f.insert(f.begin() + at, value), ca::shape_error);
            } else {
                const int got = *f.insert(f.begin() + at, value);
                v.insert(v.begin() + static_cast<std::ptrdiff_t>(at), value);
                CHECK(got == value);
            }
        } else if (op == 3 && !v.empty()) {
            const std::size_t first = rng() % v.size();
            const std::size_t last = first + rng() % (v.size() - first + 1);
            f.erase(f.begin() + first, f.begin() + last);
            v.erase(v.begin() + static_cast<std::ptrdiff_t>(first),
                    v.begin() + static_cast<std::ptrdiff_t>(last));
        } else if (op == 4) {
            const std::size_t n = rng() % 20;
            if (grows_past(n)) {
                CHECK_THROWS_AS(f.resize(n, value), ca::shape_error);
            } else {
                f.resize(n, value);
                v.resize(n, value);
            }
        } else if (op == 5) {
            std::vector<int> source(rng() % 20);
            for (auto& x : source)
                x = static_cast<int>(rng() % 1000);
            if (grows_past(source.size())) {
                CHECK_THROWS_AS(f.assign(source.begin(), source.end()), ca::shape_error);
            } else {
                f.assign(source.begin(), source.end());
                v = source;
            }
        } else if (op == 6 && !v.empty()) {
            const small_vector copy = f;
            CHECK(copy == f);
            CHECK(copy == v);
            f.front() = value;
            v.front() = value;
            CHECK((copy != f) == (copy.front() != value));
        }
        REQUIRE(same(f, v));
        if (!v.empty()) {
            REQUIRE(f.front() == v.front());
            REQUIRE(f.back() == v.back());
        }
    }
}

TEST_CASE("a shape longer than max_dims is a shape_error naming its rank", "[light_headers]") {
    const std::size_t too_many = ca::max_dims + 1;
    const std::string rank = std::to_string(too_many) + " dimensions";
    try {
        ca::shape_type s(too_many, 1);
        FAIL("built a shape of " << s.size() << " extents");
    } catch (const ca::shape_error& e) {
        CHECK_THAT(what_of(e), Contains(rank) &&
                                   Contains("at most " + std::to_string(ca::max_dims)));
    }
    ca::shape_type full(ca::max_dims, 2);
    CHECK_THROWS_AS(full.push_back(2), ca::shape_error);
    CHECK(full.size() == ca::max_dims);
    const std::vector<std::size_t> long_shape(too_many, 1);
    CHECK_THROWS_AS(ca::shape_type(long_shape.begin(), long_shape.end()), ca::shape_error);
    CHECK_THROWS_AS((ca::strides_type{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}),
                    ca::shape_error);
}

TEST_CASE("cl_array without xtensor: views, copies, fills and vector transfers",
          "[light_headers]") {
    // Buffer storage: the test is about the headers, and Buffers exist on every device.
    using S = ca::buffer;
    ca::context ctx = ca::context::from_env();
    ca::queue q(ctx);
    const std::size_t rows = 4, cols = 5;
    std::mt19937 rng(11);
    std::vector<float> host(rows * cols);
    for (auto& x : host)
        x = static_cast<float>(rng() % 100) - 50.0f;

    // to_device(std::vector) and reshape; each element read back through a 0-d view.
    ca::cl_array<float, S> a = ca::to_device<S>(q, host).reshape({rows, cols});
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            REQUIRE(a(i, j).item() == host[i * cols + j]);

    // A transposed copy is C-contiguous in the transposed order.
    ca::cl_array<float, S> t = a.transpose().copy();
    REQUIRE(t.shape() == ca::shape_type{cols, rows});
    REQUIRE(t.is_c_contiguous());
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i)
            REQUIRE(t(j, i).item() == host[i * cols + j]);

    // set(std::vector) into a strided view writes in the view's C order.
    std::vector<float> values(rows * cols);
    for (auto& x : values)
        x = static_cast<float>(rng() % 100);
    a.transpose().set(values);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            REQUIRE(a(i, j).item() == values[j * rows + i]);

    // fill on every other column leaves the others alone.
    a(ca::all(), ca::range(0, ca::none, 2)).fill(-1.0f);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            REQUIRE(a(i, j).item() == (j % 2 == 0 ? -1.0f : values[j * rows + i]));

    // bool: std::vector<bool> is packed, the device holds bytes.
    std::vector<bool> flags(13);
    for (std::size_t k = 0; k < flags.size(); ++k)
        flags[k] = rng() % 2 != 0;
    ca::cl_array<bool, S> b = ca::zeros<bool, S>(q, {flags.size()});
    b(ca::range(ca::none, ca::none, -1)).set(flags);
    for (std::size_t k = 0; k < flags.size(); ++k)
        REQUIRE(b(k).item() == flags[flags.size() - 1 - k]);

    CHECK_THROWS_AS(a.set(std::vector<float>(3)), ca::shape_error);
    CHECK_THROWS_AS((ca::cl_array<float, S>().set(std::vector<float>(1))), ca::usage_error);
}
