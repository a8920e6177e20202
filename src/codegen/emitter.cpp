#include "clarray/codegen/emitter.hpp"

#include <algorithm>
#include <stdexcept>

namespace clarray::detail {

emitter& emitter::line(const std::string& text) {
    std::size_t pos = 0;
    for (;;) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        const std::size_t first = text.find_first_not_of(' ', pos);
        if (first < end) text_.append(4 * depth_, ' ').append(text, first, end - first);
        text_ += '\n';
        pos = end + 1;
        if (pos >= text.size()) break;
    }
    return *this;
}

emitter& emitter::open(const std::string& text) {
    line(text);
    ++depth_;
    return *this;
}

emitter& emitter::close(const std::string& text) {
    if (depth_ > 0) --depth_;
    return line(text);
}

emitter& emitter::define(const std::string& name, const std::string& value) {
    text_ += "#define " + name;
    if (!value.empty()) text_ += " " + value;
    text_ += '\n';
    return *this;
}

emitter& emitter::comment(const std::string& text) {
    return line("// " + text);
}

emitter& emitter::verbatim(const std::string& text) {
    text_ += text;
    if (!text.empty() && text.back() != '\n') text_ += '\n';
    return *this;
}

std::string splice(const std::string& skeleton,
                   const std::vector<std::pair<std::string, std::string>>& marks,
                   const char* what) {
    std::string out;
    out.reserve(skeleton.size() + 256);
    std::size_t pos = 0;
    for (std::size_t at; (at = skeleton.find('@', pos)) != std::string::npos;) {
        const std::size_t end = skeleton.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_", at + 1);
        if (end == std::string::npos || end == at + 1 || skeleton[end] != '@') {
            out.append(skeleton, pos, at + 1 - pos); // an @ of a comment
            pos = at + 1;
            continue;
        }
        const std::string mark = skeleton.substr(at, end + 1 - at);
        const std::string* text = nullptr;
        for (const auto& [name, value] : marks)
            if (name == mark) text = &value;
        if (!text) throw std::logic_error(std::string(what) + ": unknown mark " + mark);
        // The blanks opening the mark's line indent the text's further lines.
        const std::size_t line_start = skeleton.rfind('\n', at) + 1; // npos + 1 == 0
        const std::size_t blanks = skeleton.find_first_not_of(' ', line_start) - line_start;
        const std::string indent = "\n" + std::string(std::min(blanks, at - line_start), ' ');
        out.append(skeleton, pos, at - pos);
        for (std::size_t from = 0;;) {
            const std::size_t newline = text->find('\n', from);
            out.append(*text, from, newline - from);
            if (newline == std::string::npos || newline + 1 == text->size()) break;
            out += indent;
            from = newline + 1;
        }
        pos = end + 1;
    }
    out.append(skeleton, pos, std::string::npos);
    return out;
}

} // namespace clarray::detail
