#include "clarray/host/npy.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "clarray/error.hpp"

namespace clarray::detail {

namespace {

constexpr char magic[] = "\x93NUMPY";
constexpr std::size_t magic_size = 6;

bool little_endian_host() {
    const std::uint16_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

char kind_char(dtype_kind k) {
    switch (k) {
    case dtype_kind::boolean:
        return 'b';
    case dtype_kind::signed_integer:
        return 'i';
    case dtype_kind::unsigned_integer:
        return 'u';
    case dtype_kind::floating:
        return 'f';
    case dtype_kind::complex:
        return 'c'; // '<c8' is complex64: the size counts both parts
    }
    return '?';
}

std::string quoted(const std::string& path) {
    return "'" + path + "'";
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw io_error("load_npy: " + quoted(path) + ": " + what);
}

// A parsed dtype string: byte order ('<', '>', '|' or '='), kind and item size.
struct descr_parts {
    char order = '|';
    char kind = 0;
    std::size_t size = 0;
};

bool parse_descr(const std::string& d, descr_parts& out) {
    std::size_t i = 0;
    if (i < d.size() && std::strchr("<>|=", d[i])) out.order = d[i++];
    if (i >= d.size()) return false;
    out.kind = d[i++];
    if (i >= d.size() || d.size() - i > 3) return false;
    out.size = 0;
    for (; i < d.size(); ++i) {
        if (d[i] < '0' || d[i] > '9') return false;
        out.size = out.size * 10 + static_cast<std::size_t>(d[i] - '0');
    }
    return out.size > 0;
}

// The NumPy name of a dtype string, for messages: "float64 ('<f8')", or the string alone.
std::string describe_descr(const std::string& d) {
    descr_parts p;
    if (!parse_descr(d, p)) return quoted(d);
    const char* base = nullptr;
    switch (p.kind) {
    case 'b':
        base = p.size == 1 ? "bool" : nullptr;
        break;
    case 'i':
        base = "int";
        break;
    case 'u':
        base = "uint";
        break;
    case 'f':
        base = "float";
        break;
    case 'c':
        base = "complex";
        break;
    default:
        break;
    }
    if (!base) return quoted(d);
    std::string name = base;
    if (p.kind != 'b') name += std::to_string(p.size * 8);
    return name + " (" + quoted(d) + ")";
}

// The header dictionary, a Python literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// with exactly these three keys in any order.
class header_parser {
public:
    header_parser(const std::string& text, const std::string& path) : s_(text), path_(path) {}

    void parse(npy_header& h) {
        bool have_descr = false, have_order = false, have_shape = false;
        expect('{');
        for (;;) {
            skip_space();
            if (peek() == '}') break;
            const std::string key = string_literal();
            expect(':');
            skip_space();
            if (key == "descr") {
                if (peek() == '[')
                    throw dtype_error("load_npy: " + quoted(path_) +
                                      " holds a structured dtype, which clarray does not support");
                h.descr = string_literal();
                have_descr = true;
            } else if (key == "fortran_order") {
                h.fortran_order = boolean_literal();
                have_order = true;
            } else if (key == "shape") {
                h.shape = shape_literal();
                have_shape = true;
            } else {
                bad("unexpected key '" + key + "' in the header");
            }
            skip_space();
            if (peek() == ',')
                ++pos_;
            else if (peek() != '}')
                bad("expected ',' or '}' after the value of '" + key + "'");
        }
        if (!have_descr || !have_order || !have_shape)
            bad(std::string("the header lacks ") + (!have_descr   ? "'descr'"
                                                    : !have_order ? "'fortran_order'"
                                                                  : "'shape'"));
    }

private:
    [[noreturn]] void bad(const std::string& what) {
        fail(path_, "malformed header: " + what + " (header: " + s_ + ")");
    }
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void skip_space() {
        while (pos_ < s_.size() && std::strchr(" \t\r\n", s_[pos_]))
            ++pos_;
    }
    void expect(char c) {
        skip_space();
        if (peek() != c) bad(std::string("expected '") + c + "'");
        ++pos_;
    }
    std::string string_literal() {
        skip_space();
        const char q = peek();
        if (q != '\'' && q != '"') bad("expected a string");
        const std::size_t end = s_.find(q, pos_ + 1);
        if (end == std::string::npos) bad("unterminated string");
        std::string v = s_.substr(pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        return v;
    }
    bool boolean_literal() {
        if (s_.compare(pos_, 4, "True") == 0) {
            pos_ += 4;
            return true;
        }
        if (s_.compare(pos_, 5, "False") == 0) {
            pos_ += 5;
            return false;
        }
        bad("fortran_order is neither True nor False");
    }
    shape_type shape_literal() {
        expect('(');
        std::vector<std::size_t> extents;
        for (;;) {
            skip_space();
            if (peek() == ')') break;
            if (peek() < '0' || peek() > '9') bad("a shape extent is not a non-negative integer");
            std::size_t v = 0;
            while (peek() >= '0' && peek() <= '9') {
                const std::size_t digit = static_cast<std::size_t>(peek() - '0');
                if (v > (SIZE_MAX - digit) / 10) bad("a shape extent overflows");
                v = v * 10 + digit;
                ++pos_;
            }
            if (peek() == 'L') ++pos_; // Python 2 long
            extents.push_back(v);
            skip_space();
            if (peek() == ',')
                ++pos_;
            else if (peek() != ')')
                bad("expected ',' or ')' in the shape");
        }
        ++pos_;
        if (extents.size() > max_dims)
            throw shape_error("load_npy: " + quoted(path_) + " holds an array of " +
                              std::to_string(extents.size()) + " dimensions; clarray arrays have " +
                              "at most " + std::to_string(max_dims));
        return shape_type(extents.begin(), extents.end());
    }

    const std::string& s_;
    const std::string& path_;
    std::size_t pos_ = 0;
};

// Reverses the bytes of each `item`-byte value (a complex number's parts are two values: its
// real part stays first).
void byte_swap(std::vector<unsigned char>& data, std::size_t item) {
    for (std::size_t i = 0; i + item <= data.size(); i += item)
        std::reverse(data.begin() + static_cast<std::ptrdiff_t>(i),
                     data.begin() + static_cast<std::ptrdiff_t>(i + item));
}

} // namespace

std::string npy_descr(dtype d) {
    const dtype_info& info = dtype_info_of(d);
    const char order = info.size == 1 ? '|' : little_endian_host() ? '<' : '>';
    return std::string(1, order) + kind_char(info.kind) + std::to_string(info.size);
}

npy_header read_npy(const std::string& path, dtype expected, std::vector<unsigned char>& data) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(path, std::string("cannot open: ") + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const auto file_size = static_cast<std::uint64_t>(in.tellg());
    in.seekg(0, std::ios::beg);

    unsigned char prefix[magic_size + 2];
    if (file_size < sizeof prefix || !in.read(reinterpret_cast<char*>(prefix), sizeof prefix) ||
        std::memcmp(prefix, magic, magic_size) != 0)
        fail(path, "not a .npy file (it does not start with \"\\x93NUMPY\")");
    npy_header h;
    h.major = prefix[magic_size];
    h.minor = prefix[magic_size + 1];
    if (h.major < 1 || h.major > 3 || h.minor != 0)
        fail(path, "unsupported .npy format version " + std::to_string(h.major) + "." +
                       std::to_string(h.minor) + " (1.0, 2.0 and 3.0 are read)");
    // Little-endian header length: 2 bytes in version 1.0, 4 from 2.0 on.
    const std::size_t len_bytes = h.major == 1 ? 2 : 4;
    unsigned char len_le[4] = {0, 0, 0, 0};
    if (!in.read(reinterpret_cast<char*>(len_le), static_cast<std::streamsize>(len_bytes)))
        fail(path, "truncated in the header length");
    const std::uint64_t header_len = std::uint64_t(len_le[0]) | std::uint64_t(len_le[1]) << 8 |
                                     std::uint64_t(len_le[2]) << 16 |
                                     std::uint64_t(len_le[3]) << 24;
    const std::uint64_t data_start = sizeof prefix + len_bytes + header_len;
    if (data_start > file_size)
        fail(path, "truncated: the header is " + std::to_string(header_len) + " bytes, the file " +
                       std::to_string(file_size) + " bytes in all");
    std::string text(static_cast<std::size_t>(header_len), '\0');
    in.read(text.data(), static_cast<std::streamsize>(header_len));
    header_parser(text, path).parse(h);

    // The dtype: T's kind and size, in either byte order.
    const dtype_info& want = dtype_info_of(expected);
    descr_parts p;
    const bool parsed = parse_descr(h.descr, p);
    if (!parsed || p.kind != kind_char(want.kind) || p.size != want.size)
        throw dtype_error("load_npy: " + quoted(path) + " holds " + describe_descr(h.descr) +
                          ", expected " + want.name + " (" + quoted(npy_descr(expected)) + ")");
    const bool swap = want.size > 1 && ((p.order == '<' && !little_endian_host()) ||
                                        (p.order == '>' && little_endian_host()));

    std::size_t count = 1;
    for (std::size_t e : h.shape) {
        if (e != 0 && count > SIZE_MAX / want.size / e)
            fail(path, "the shape " + shape_to_string(h.shape) + " is too large");
        count *= e;
    }
    const std::uint64_t bytes = std::uint64_t(count) * want.size;
    if (file_size - data_start < bytes)
        fail(path, "truncated: the shape " + shape_to_string(h.shape) + " of " + want.name +
                       " needs " + std::to_string(bytes) + " bytes of data, the file has " +
                       std::to_string(file_size - data_start));
    data.resize(static_cast<std::size_t>(bytes));
    if (bytes &&
        !in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(bytes)))
        fail(path, "read error in the data");
    if (swap) byte_swap(data, want.kind == dtype_kind::complex ? want.size / 2 : want.size);
    if (want.kind == dtype_kind::boolean)
        for (unsigned char& b : data)
            b = b != 0;
    return h;
}

void write_npy(const std::string& path, dtype type, const shape_type& shape, const void* data,
               std::size_t bytes) {
    std::string dict = "{'descr': '" + npy_descr(type) +
                       "', 'fortran_order': False, 'shape': " + shape_to_string(shape) + ", }";
    // Spaces and a newline pad the header so that the data starts at a multiple of 64 bytes.
    auto padded = [&](std::size_t len_bytes) {
        const std::size_t used = magic_size + 2 + len_bytes + dict.size() + 1;
        return dict + std::string((64 - used % 64) % 64, ' ') + "\n";
    };
    std::string header = padded(2);
    unsigned char version = 1;
    if (header.size() > 65535) {
        header = padded(4);
        version = 2;
    }
    std::string prefix(magic, magic_size);
    prefix += static_cast<char>(version);
    prefix += '\0';
    const std::size_t n = header.size();
    for (std::size_t i = 0; i < (version == 1 ? 2u : 4u); ++i)
        prefix += static_cast<char>((n >> (8 * i)) & 0xff);

    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        throw io_error("save_npy: cannot open " + quoted(path) +
                       " for writing: " + std::strerror(errno));
    out.write(prefix.data(), static_cast<std::streamsize>(prefix.size()));
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    if (bytes) out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    out.flush();
    if (!out)
        throw io_error("save_npy: writing " + quoted(path) + " failed: " + std::strerror(errno));
}

} // namespace clarray::detail
