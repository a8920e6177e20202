#pragma once
// Structs that host code fills and OpenCL C kernels read, each described once.
//
// Fixed structs (copy descriptors; later RNG states, gather descriptors): an X-macro lists the
// fields as F(type, name, extent), extent 0 for a scalar, and CLARRAY_SHARED_STRUCT(name, FIELDS)
// makes from it both the C++ struct and its OpenCL C declaration (name::cl_declaration(), under
// that name or another OpenCL C name, e.g. one per element type of a struct in a template). A
// static_assert proves the C++ layout is the one OpenCL C gives that declaration: OpenCL C aligns
// every scalar to its size (long and ulong to 8 bytes even where a host ABI aligns int64_t to 4)
// and pads the struct to its largest alignment.
//
// Word structs (the layout argument of generated kernels, whose shapes, offsets and strides have
// extents fixed per kernel variant): word_struct lists 8-byte fields with run-time extents. The
// host writes the word at word(field, i, k), the generator emits declaration() and reads
// ref(field, i, k), so both take every position from one field list.
#include <cassert>
#include <cstddef>
#include <string>
#include <type_traits>

#include "clarray/types/dtype.hpp"

namespace clarray::detail {

// One member of an OpenCL C struct declaration: `type name[rows][cols]`, rows 0 for a scalar,
// cols 0 for a 1-d array.
struct cl_struct_member {
    const char* type;
    const char* name;
    std::size_t rows, cols;
};
// "typedef struct {\n    ulong n, rank;\n    long st[4];\n} name;\n": consecutive scalars of one
// type share a line.
std::string cl_struct_declaration(const char* name, const cl_struct_member* members,
                                  std::size_t count);

// ---- fixed structs ----

// The C++ type of a shared field: T, or T[Extent] for Extent > 0.
template <class T, std::size_t Extent> struct shared_field { using type = T[Extent]; };
template <class T> struct shared_field<T, 0> { using type = T; };

// Field types both sides spell alike: a stored dtype (not bool) whose host alignment is its size,
// which is OpenCL C's alignment of every scalar type.
template <class T> constexpr bool is_shared_scalar() {
    if constexpr (is_dtype_v<T>)
        return std::is_same_v<stored_t<T>, T> && alignof(T) == sizeof(T);
    else
        return false;
}

// Size of one scalar and count of scalars (extent, 0 for a scalar field) of a field.
struct shared_field_shape {
    std::size_t size, extent;
};
// Whether `offsets` and `size` are where OpenCL C puts the fields and the end of a struct of
// `fields`: every field at the next multiple of its scalar size, the struct padded to the largest.
constexpr bool cl_layout_matches(const shared_field_shape* fields, const std::size_t* offsets,
                                 std::size_t count, std::size_t size) {
    std::size_t offset = 0, align = 1;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t a = fields[i].size;
        offset = (offset + a - 1) / a * a;
        if (offsets[i] != offset) return false;
        offset += a * (fields[i].extent ? fields[i].extent : 1);
        align = a > align ? a : align;
    }
    return size == (offset + align - 1) / align * align;
}

#define CLARRAY_SHARED_STRUCT_MEMBER(T, NAME, EXTENT)                                              \
    typename ::clarray::detail::shared_field<T, EXTENT>::type NAME = {};
#define CLARRAY_SHARED_STRUCT_TEXT(T, NAME, EXTENT)                                                \
    ::clarray::detail::cl_struct_member{::clarray::dtype_traits<T>::cl_name, #NAME, EXTENT, 0},
#define CLARRAY_SHARED_STRUCT_SHAPE(T, NAME, EXTENT)                                               \
    ::clarray::detail::shared_field_shape{sizeof(T), EXTENT},
#define CLARRAY_SHARED_STRUCT_OFFSET(T, NAME, EXTENT) offsetof(shared_struct_self, NAME),
#define CLARRAY_SHARED_STRUCT_TYPE_CHECK(T, NAME, EXTENT)                                          \
    static_assert(::clarray::detail::is_shared_scalar<T>(),                                        \
                  "field " #NAME ": an OpenCL C scalar type aligned to its size on the host");

// struct NAME with the fields of FIELDS (an X-macro taking F(type, name, extent)) and its OpenCL
// C declaration NAME::cl_declaration(); NAME##_cl_layout holds the proof that both lay the
// fields out alike (a separate struct: NAME may be nested in a class still being defined).
#define CLARRAY_SHARED_STRUCT(NAME, FIELDS)                                                        \
    struct NAME {                                                                                  \
        FIELDS(CLARRAY_SHARED_STRUCT_MEMBER)                                                       \
        /* "typedef struct {...} NAME;\n" (or cl_name) before the kernels that take it. */         \
        static std::string cl_declaration(const char* cl_name = #NAME) {                           \
            static const ::clarray::detail::cl_struct_member members[] = {                         \
                FIELDS(CLARRAY_SHARED_STRUCT_TEXT)};                                               \
            return ::clarray::detail::cl_struct_declaration(cl_name, members,                      \
                                                            sizeof(members) / sizeof(members[0])); \
        }                                                                                          \
    };                                                                                             \
    struct NAME##_cl_layout {                                                                      \
        using shared_struct_self = NAME;                                                           \
        FIELDS(CLARRAY_SHARED_STRUCT_TYPE_CHECK)                                                   \
        static constexpr ::clarray::detail::shared_field_shape shapes[] = {                        \
            FIELDS(CLARRAY_SHARED_STRUCT_SHAPE)};                                                  \
        static constexpr std::size_t offsets[] = {FIELDS(CLARRAY_SHARED_STRUCT_OFFSET)};           \
        static_assert(::clarray::detail::cl_layout_matches(shapes, offsets,                        \
                                                           sizeof(offsets) / sizeof(offsets[0]),   \
                                                           sizeof(NAME)),                          \
                      #NAME ": the C++ layout differs from OpenCL C's");                           \
    }

// ---- word structs ----

// A struct of 8-byte words (ulong or long fields: no padding on either side) whose extents are
// known at run time, built field by field in declaration order. The kernel names it through a
// variable L: a by-value parameter, or a `constant` pointer Lp behind `#define L (*Lp)` when it
// exceeds the device's parameter space. Holds no heap memory (it is built on every launch).
class word_struct {
public:
    using field_id = std::size_t;
    static constexpr field_id no_field = static_cast<field_id>(-1);

    explicit word_struct(const char* type_name) noexcept : type_(type_name) {}

    field_id scalar(const char* name, bool is_signed) noexcept {
        return add(name, is_signed, 0, 0);
    }
    field_id array(const char* name, bool is_signed, std::size_t n) noexcept {
        return add(name, is_signed, n, 0);
    }
    field_id matrix(const char* name, bool is_signed, std::size_t rows, std::size_t cols) noexcept {
        return add(name, is_signed, rows, cols);
    }

    // Index of word [i][k] of field f.
    std::size_t word(field_id f, std::size_t i = 0, std::size_t k = 0) const noexcept {
        assert(f < count_);
        const field& d = fields_[f];
        assert((d.rows == 0 && i == 0) || i < d.rows);
        assert((d.cols == 0 && k == 0) || k < d.cols);
        return d.first + i * (d.cols ? d.cols : 1) + k;
    }
    std::size_t words() const noexcept { return words_; }

    // OpenCL C: "typedef struct {...} <type>;\n".
    std::string declaration() const;
    // The kernel parameter: "<type> L" or, in a buffer, "constant <type>* Lp".
    std::string parameter(bool in_buffer) const;
    // Lines opening and closing the kernel body that let it say L in both cases.
    static std::string open(bool in_buffer);
    static std::string close(bool in_buffer);
    // Field f as the kernel reads it: "L.n", "L.off[i]", "L.st[i][k]" (indices are OpenCL C).
    std::string ref(field_id f) const;
    std::string ref(field_id f, const std::string& i) const;
    std::string ref(field_id f, const std::string& i, const std::string& k) const;

private:
    static constexpr std::size_t max_fields = 12;
    struct field {
        const char* name;
        bool is_signed;
        std::size_t rows, cols, first;
    };
    field_id add(const char* name, bool is_signed, std::size_t rows, std::size_t cols) noexcept {
        // A field named L would be rewritten by `#define L (*Lp)` too.
        assert(count_ < max_fields && !(name[0] == 'L' && name[1] == '\0'));
        fields_[count_] = field{name, is_signed, rows, cols, words_};
        words_ += (rows ? rows : 1) * (cols ? cols : 1);
        return count_++;
    }

    const char* type_;
    field fields_[max_fields] = {};
    std::size_t count_ = 0, words_ = 0;
};

} // namespace clarray::detail
