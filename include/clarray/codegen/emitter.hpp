#pragma once
// A small writer of OpenCL C text that keeps the indentation (VexCL's source_generator is the
// model): every line is written at the current depth, open() writes a line and indents what
// follows, close() ends the block.
//
//   emitter e;
//   e.open("inline float twice(float x) {");
//   e.line("return 2 * x;");
//   e.close();                              // "}"
//   e.define("LANES", "4");                 // "#define LANES 4"
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace clarray::detail {

class emitter {
public:
    // One line at the current indentation (an empty text gives an empty line). A text holding
    // several lines is written line by line, each at the current indentation (its own leading
    // blanks are dropped).
    emitter& line(const std::string& text);
    // A line (e.g. "for (...) {"), then one more level of indentation.
    emitter& open(const std::string& text);
    // One level less, then the line closing the block.
    emitter& close(const std::string& text = "}");
    // "#define name value" (preprocessor lines are not indented).
    emitter& define(const std::string& name, const std::string& value);
    // "// text" at the current indentation.
    emitter& comment(const std::string& text);
    // Text taken as it is (already complete lines, e.g. a kernel skeleton or helper functions).
    emitter& verbatim(const std::string& text);

    const std::string& str() const noexcept { return text_; }

private:
    std::string text_;
    std::size_t depth_ = 0;
};

// Texts of the generators' hooks: a flag as a #define value ("1" or "0"), a count or index in
// decimal.
inline std::string flag_text(bool on) {
    return on ? "1" : "0";
}
inline std::string count_text(std::size_t v) {
    return std::to_string(v);
}

// `skeleton` (an OpenCL C skeleton of kernels/) with every marked point (@NAME@, NAME of capitals
// and underscores) replaced by its text in `marks` ({"@NAME@", text}); a text of several lines
// goes on at the indentation of the mark's line. An @ not starting a mark (a comment's) stays.
// An unknown mark is a generator bug, thrown as std::logic_error naming `what` rather than left
// to the OpenCL compiler.
std::string splice(const std::string& skeleton,
                   const std::vector<std::pair<std::string, std::string>>& marks, const char* what);

} // namespace clarray::detail
