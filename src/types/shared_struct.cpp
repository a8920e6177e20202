#include "clarray/types/shared_struct.hpp"

#include <cstring>

#include "clarray/runtime/cl.hpp"

namespace clarray::detail {

std::string cl_struct_declaration(const char* name, const cl_struct_member* members,
                                  std::size_t count) {
    std::string s = "typedef struct {\n";
    for (std::size_t i = 0; i < count; ++i) {
        const cl_struct_member& m = members[i];
        const bool joins = i > 0 && m.rows == 0 && members[i - 1].rows == 0 &&
                           std::strcmp(m.type, members[i - 1].type) == 0;
        if (joins) {
            s.resize(s.size() - 2); // the previous ";\n"
            s += std::string(", ") + m.name + ";\n";
            continue;
        }
        s += std::string("    ") + m.type + " " + m.name;
        if (m.rows) s += "[" + std::to_string(m.rows) + "]";
        if (m.cols) s += "[" + std::to_string(m.cols) + "]";
        s += ";\n";
    }
    return s + "} " + name + ";\n";
}

std::string word_struct::declaration() const {
    cl_struct_member members[max_fields];
    for (std::size_t f = 0; f < count_; ++f)
        members[f] = cl_struct_member{fields_[f].is_signed ? dtype_traits<cl_long>::cl_name
                                                           : dtype_traits<cl_ulong>::cl_name,
                                      fields_[f].name, fields_[f].rows, fields_[f].cols};
    return cl_struct_declaration(type_, members, count_);
}

std::string word_struct::parameter(bool in_buffer) const {
    return in_buffer ? std::string("constant ") + type_ + "* Lp" : std::string(type_) + " L";
}
std::string word_struct::open(bool in_buffer) {
    return in_buffer ? "#define L (*Lp)\n" : "";
}
std::string word_struct::close(bool in_buffer) {
    return in_buffer ? "#undef L\n" : "";
}

std::string word_struct::ref(field_id f) const {
    assert(f < count_ && fields_[f].rows == 0);
    return std::string("L.") + fields_[f].name;
}
std::string word_struct::ref(field_id f, const std::string& i) const {
    assert(f < count_ && fields_[f].rows != 0 && fields_[f].cols == 0);
    return std::string("L.") + fields_[f].name + "[" + i + "]";
}
std::string word_struct::ref(field_id f, const std::string& i, const std::string& k) const {
    assert(f < count_ && fields_[f].cols != 0);
    return std::string("L.") + fields_[f].name + "[" + i + "][" + k + "]";
}

} // namespace clarray::detail
