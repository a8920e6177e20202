#include "clarray/codegen/emitter.hpp"

#include <algorithm>

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

} // namespace clarray::detail
