// .npy files: files built byte by byte here from the format's rules are read, files written are
// checked byte by byte against those rules and read back, on every dtype, storage and view.
#include "support.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

#include "xtensor_headers.hpp"

namespace fs = std::filesystem;

namespace {

using bytes = std::string;

// A fresh directory for one test case's files, removed afterwards.
struct temp_dir {
    static int& counter() {
        static int n = 0;
        return n;
    }
    fs::path path;
    explicit temp_dir(const std::string& name)
        : path(fs::temp_directory_path() /
               ("clarray_npy_" + name + "_" + std::to_string(::getpid()) + "_" +
                std::to_string(counter()++))) {
        fs::create_directories(path);
    }
    ~temp_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

bytes read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
void write_all(const std::string& path, const bytes& b) {
    std::ofstream out(path, std::ios::binary);
    out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

// The format: "\x93NUMPY", major, minor, the header length (2 bytes little-endian in 1.0, 4 in
// 2.0 and 3.0), the header (a Python dict literal, padded with spaces, ending in '\n'), the data.
bytes npy_file(int major, const std::string& dict, const bytes& data) {
    bytes b = "\x93NUMPY";
    b += static_cast<char>(major);
    b += '\0';
    const std::size_t len_bytes = major == 1 ? 2 : 4;
    std::string header = dict;
    while ((10 + len_bytes - 2 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    for (std::size_t i = 0; i < len_bytes; ++i)
        b += static_cast<char>((header.size() >> (8 * i)) & 0xff);
    return b + header + data;
}

template <class T> bytes little_endian(const std::vector<T>& values) {
    bytes b;
    for (T v : values) {
        std::uint64_t u = 0;
        std::memcpy(&u, &v, sizeof(T));
        for (std::size_t i = 0; i < sizeof(T); ++i)
            b += static_cast<char>((u >> (8 * i)) & 0xff);
    }
    return b;
}
template <class T> bytes big_endian(const std::vector<T>& values) {
    bytes b;
    for (T v : values) {
        std::uint64_t u = 0;
        std::memcpy(&u, &v, sizeof(T));
        for (std::size_t i = sizeof(T); i-- > 0;)
            b += static_cast<char>((u >> (8 * i)) & 0xff);
    }
    return b;
}

// The .npy dtype string, from the format's rules: byte order, kind, bytes.
template <class T> std::string descr() {
    const char kind = std::is_same_v<T, bool>       ? 'b'
                      : std::is_floating_point_v<T> ? 'f'
                      : std::is_signed_v<T>         ? 'i'
                                                    : 'u';
    return std::string(sizeof(T) == 1 ? "|" : "<") + kind + std::to_string(sizeof(T));
}

std::string what_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ca::error& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEMPLATE_LIST_TEST_CASE("npy: any view is written in C order by the format's rules and reads back",
                        "[npy]", test::dtype_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto& q = test::q();
    temp_dir dir("roundtrip");
    const xt::xarray<T> h = test::random_array<T>({4, 6}, 21);
    const auto a = ca::to_device<S>(q, h);
    using xt::placeholders::_;
    auto scalar = [](T v) {
        xt::xarray<T> s = xt::xarray<T>::from_shape({});
        s() = v;
        return s;
    };
    struct layout_case {
        ca::cl_array<T, S> view;
        xt::xarray<T> host;
    } cases[] = {
        {a, h},
        {a(ca::range(1, ca::none, 2), ca::range(ca::none, ca::none, -2)),
         xt::view(h, xt::range(1, _, 2), xt::range(_, _, -2))},
        {a.transpose(), xt::transpose(h)},
        {a(ca::all(), 3), xt::view(h, xt::all(), 3)},
        {a(2, 5), scalar(h(2, 5))},
        {a(ca::range(1, 1)), xt::view(h, xt::range(1, 1))},
    };
    for (std::size_t c = 0; c < std::size(cases); ++c) {
        INFO("case " << c);
        const auto& v = cases[c].view;
        const xt::xarray<T>& ref = cases[c].host; // C order
        const std::string path = dir.file("a" + std::to_string(c) + ".npy");
        ca::save_npy(path, v);

        const bytes file = read_all(path);
        REQUIRE(file.size() >= 10);
        CHECK(file.substr(0, 8) == bytes("\x93NUMPY\x01\x00", 8));
        const std::size_t header_len =
            static_cast<unsigned char>(file[8]) | static_cast<unsigned char>(file[9]) << 8;
        const std::size_t data_start = 10 + header_len;
        CHECK(data_start % 64 == 0);
        REQUIRE(file.size() >= data_start);
        const std::string header = file.substr(10, header_len);
        CHECK(header.back() == '\n');
        std::string shape = "(";
        for (std::size_t i = 0; i < ref.dimension(); ++i)
            shape += std::to_string(ref.shape()[i]) + (ref.dimension() == 1 ? "," : "") +
                     (i + 1 < ref.dimension() ? ", " : "");
        shape += ")";
        CHECK(header.rfind("{'descr': '" + descr<T>() +
                               "', 'fortran_order': False, 'shape': " + shape + ", }",
                           0) == 0);
        // The data: the view's elements in C order, this host's byte order (little-endian).
        std::vector<T> values(ref.begin(), ref.end());
        CHECK(file.substr(data_start) == little_endian(values));

        const auto back = ca::load_npy<T, S>(q, path);
        CHECK(back.shape() == v.shape());
        CHECK(back.is_c_contiguous());
        CHECK((back.get() == ref));
    }
    // An expression is evaluated, then written.
    const std::string path = dir.file("expr.npy");
    ca::save_npy(path, ca::astype<T>(a(ca::all(), ca::range(0, 2))));
    CHECK((ca::load_npy<T, S>(q, path).get() ==
           xt::xarray<T>(xt::view(h, xt::all(), xt::range(0, 2)))));
}

TEMPLATE_LIST_TEST_CASE("npy: files built byte by byte from the format are read", "[npy]",
                        test::all_policies) {
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto& q = test::q();
    temp_dir dir("bytes");
    const std::string p = dir.file("x.npy");

    // int32, C order, 2 x 3: element (i, j) is 10 i + j.
    std::vector<std::int32_t> c_values;
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            c_values.push_back(10 * i + j);
    write_all(p, npy_file(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
                          little_endian(c_values)));
    auto a = ca::load_npy<std::int32_t, S>(q, p);
    REQUIRE(a.shape() == ca::shape_type{2, 3});
    xt::xarray<std::int32_t> got = a.get();
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            CHECK(got(i, j) == 10 * i + j);

    // float64 in Fortran order: the first axis varies fastest in the file. Keys in another
    // order, double quotes, version 2.0.
    std::vector<double> f_values;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 2; ++i)
            f_values.push_back(i + 0.5 * j);
    if (test::dtype_available<double>()) {
        write_all(p, npy_file(2, "{\"shape\": (2, 3), \"fortran_order\": True, \"descr\": \"<f8\"}",
                              little_endian(f_values)));
        auto f = ca::load_npy<double, S>(q, p);
        REQUIRE(f.shape() == ca::shape_type{2, 3});
        CHECK(f.is_f_contiguous());
        xt::xarray<double> fg = f.get();
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                CHECK(fg(i, j) == i + 0.5 * j);
    }

    // Big-endian data is swapped; version 3.0 (utf-8 header) reads as 2.0.
    std::vector<std::uint16_t> u16{1, 258, 65535, 4660};
    write_all(p, npy_file(3, "{'descr': '>u2', 'fortran_order': False, 'shape': (4,), }",
                          big_endian(u16)));
    xt::xarray<std::uint16_t> ug = ca::load_npy<std::uint16_t, S>(q, p).get();
    REQUIRE(ug.size() == 4);
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(ug(i) == u16[i]);

    // bool: any non-zero byte is true; a 0-d array; an empty array; 'L' suffixes of Python 2.
    write_all(p, npy_file(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3L,), }",
                          bytes("\x00\x01\x02", 3)));
    auto b = ca::load_npy<bool, S>(q, p);
    xt::xarray<std::uint8_t> as_bytes = xt::cast<std::uint8_t>(b.get());
    CHECK((as_bytes == xt::xarray<std::uint8_t>{0, 1, 1}));
    write_all(p, npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
                          little_endian(std::vector<float>{2.5f})));
    auto s = ca::load_npy<float, S>(q, p);
    CHECK(s.dimension() == 0);
    CHECK(s.item() == 2.5f);
    write_all(p, npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", ""));
    CHECK(ca::load_npy<float, S>(q, p).shape() == ca::shape_type{0, 5});
}

// A complex number is two values: in a big-endian file each part is swapped on its own and the
// real part stays first.
using complex_configs = std::tuple<
    test::cfg<std::complex<float>, ca::svm_coarse>, test::cfg<std::complex<float>, ca::buffer>,
    test::cfg<std::complex<double>, ca::svm_fine>, test::cfg<std::complex<double>, ca::buffer>>;
TEMPLATE_LIST_TEST_CASE("npy: big-endian complex files keep their real and imaginary parts",
                        "[npy]", complex_configs) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    using R = typename T::value_type;
    CLARRAY_REQUIRE_CFG(TestType);
    if (!test::dtype_available<R>()) return;
    auto& q = test::q();
    temp_dir dir("complex");
    const std::string p = dir.file("z.npy");
    const std::vector<T> values{{1.5, -2.25}, {-0.0, 3.0}, {1e30, -1e-30}, {0.1, 7.0}};
    std::vector<R> parts; // the file's order: real, imaginary, real, ...
    for (const T& z : values) {
        parts.push_back(z.real());
        parts.push_back(z.imag());
    }
    const std::string d = std::string(">c") + std::to_string(sizeof(T));
    write_all(p, npy_file(1, "{'descr': '" + d + "', 'fortran_order': False, 'shape': (2, 2), }",
                          big_endian(parts)));
    xt::xarray<T> got = ca::load_npy<T, S>(q, p).get();
    REQUIRE(got.shape() == std::vector<std::size_t>{2, 2});
    for (std::size_t i = 0; i < values.size(); ++i) {
        CHECK(got.flat(i).real() == values[i].real());
        CHECK(got.flat(i).imag() == values[i].imag());
        CHECK(std::signbit(got.flat(i).real()) == std::signbit(values[i].real()));
    }
    // The same values little-endian read the same.
    write_all(p, npy_file(1,
                          "{'descr': '<c" + std::to_string(sizeof(T)) +
                              "', 'fortran_order': False, 'shape': (4,), }",
                          little_endian(parts)));
    xt::xarray<T> le = ca::load_npy<T, S>(q, p).get();
    for (std::size_t i = 0; i < values.size(); ++i)
        CHECK(le(i) == values[i]);
}

TEST_CASE("npy: wrong dtype, bad and truncated files are typed errors naming the file",
          "[npy][errors]") {
    auto& q = test::q();
    temp_dir dir("errors");
    const std::string p = dir.file("bad.npy");
    const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }";
    const bytes good = npy_file(1, dict, little_endian(std::vector<double>{1.0, 2.0}));
    auto load_float = [&] { ca::load_npy<float, ca::buffer>(q, p); };

    write_all(p, good);
    CHECK_THROWS_AS(load_float(), ca::dtype_error);
    std::string w = what_of(load_float);
    CHECK(w.find(p) != std::string::npos);
    CHECK(w.find("float64") != std::string::npos); // found
    CHECK(w.find("'<f8'") != std::string::npos);
    CHECK(w.find("expected float32") != std::string::npos);
    CHECK_THROWS_AS(ca::load_npy<std::int64_t>(q, p), ca::dtype_error); // same size, other kind

    auto expect_io = [&](const bytes& content, const std::string& text) {
        write_all(p, content);
        INFO(text);
        CHECK_THROWS_AS(load_float(), ca::io_error);
        const std::string m = what_of(load_float);
        CHECK(m.find(p) != std::string::npos);
        CHECK(m.find(text) != std::string::npos);
    };
    const bytes f_ok = npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                                little_endian(std::vector<float>{1, 2}));
    expect_io("", "not a .npy file");
    expect_io("PK\x03\x04 a zip file, not npy", "not a .npy file");
    expect_io(f_ok.substr(0, 9), "truncated");               // in the header length
    expect_io(f_ok.substr(0, 40), "truncated");              // in the header
    expect_io(f_ok.substr(0, f_ok.size() - 1), "truncated"); // in the data
    expect_io(bytes("\x93NUMPY\x04\x00", 8) + f_ok.substr(8), "version 4.0");
    expect_io(
        npy_file(1, "{'descr': '<f4', 'shape': (2,), }", little_endian(std::vector<float>{1, 2})),
        "lacks 'fortran_order'");
    expect_io(npy_file(1, "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }", ""),
              "neither True nor False");
    expect_io(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }", ""),
              "not a non-negative integer");
    expect_io(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", ""),
              "unexpected key 'x'");
    CHECK_THROWS_AS(ca::load_npy<float>(q, dir.file("missing.npy")), ca::io_error);
    CHECK(what_of([&] { ca::load_npy<float>(q, dir.file("missing.npy")); }).find("missing.npy") !=
          std::string::npos);
    // Structured dtypes and more dimensions than clarray has.
    write_all(p, npy_file(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                          little_endian(std::vector<float>{1})));
    CHECK_THROWS_AS(load_float(), ca::dtype_error);
    write_all(p, npy_file(1,
                          "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, "
                          "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), }",
                          little_endian(std::vector<float>{1})));
    CHECK_THROWS_AS(load_float(), ca::shape_error);

    // Writing: an unbound array, a directory that does not exist.
    ca::cl_array<float> unbound;
    CHECK_THROWS_AS(ca::save_npy(dir.file("u.npy"), unbound), ca::usage_error);
    auto a = ca::ones<float, ca::buffer>(q, {3});
    CHECK_THROWS_AS(ca::save_npy(dir.file("no/such/dir/a.npy"), a), ca::io_error);
    // After all that, the good file still reads.
    write_all(p, f_ok);
    CHECK((ca::load_npy<float, ca::buffer>(q, p).get() == xt::xarray<float>{1, 2}));
}

// Run by the optional ctest npy_numpy_interop (tests/npy_numpy_check.py), which writes files with
// NumPy into CLARRAY_NPY_DIR and checks with NumPy what this writes back; hidden otherwise.
TEST_CASE("npy: files of NumPy (run by npy_numpy_check.py)", "[.npy_numpy]") {
    const char* dir_env = std::getenv("CLARRAY_NPY_DIR");
    REQUIRE(dir_env);
    const fs::path dir(dir_env);
    auto& q = test::q();
    auto pass = [&](auto tag, const std::string& name) {
        using T = decltype(tag);
        // Buffer storage: every device has it (the check also runs with SVM disabled).
        auto a = ca::load_npy<T, ca::buffer>(q, (dir / (name + ".npy")).string());
        ca::save_npy((dir / (name + ".back.npy")).string(), a);
        if (a.dimension() >= 2) // a strided view, written in C order
            ca::save_npy(
                (dir / (name + ".view.npy")).string(),
                a(ca::range(ca::none, ca::none, -1), ca::range(0, ca::none, 2)).transpose());
    };
    pass(float(), "f4");
    pass(double(), "f8_fortran");
    pass(bool(), "b1");
    pass(std::int64_t(), "i8_3d");
    pass(std::int32_t(), "i4_big_endian");
    pass(std::uint8_t(), "u1_0d");
    pass(std::int16_t(), "i2_empty");
}
