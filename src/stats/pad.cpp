#include "clarray/stats/pad.hpp"

namespace clarray::detail {

const char* pad_mode_name(pad_mode mode) {
    switch (mode) {
    case pad_mode::constant:
        return "constant";
    case pad_mode::edge:
        return "edge";
    case pad_mode::wrap:
        return "wrap";
    case pad_mode::reflect:
        return "reflect";
    case pad_mode::symmetric:
        return "symmetric";
    case pad_mode::linear_ramp:
        return "linear_ramp";
    case pad_mode::maximum:
        return "maximum";
    case pad_mode::minimum:
        return "minimum";
    case pad_mode::mean:
        return "mean";
    default:
        return "median";
    }
}

std::vector<std::int64_t> pad_source_positions(pad_mode mode, std::size_t n, std::size_t before,
                                               std::size_t after) {
    const auto len = static_cast<std::int64_t>(n);
    std::vector<std::int64_t> pos(before + n + after);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const std::int64_t j = static_cast<std::int64_t>(i) - static_cast<std::int64_t>(before);
        std::int64_t p;
        // Python's modulo: non-negative for a positive divisor.
        auto wrap = [](std::int64_t x, std::int64_t m) { return ((x % m) + m) % m; };
        switch (mode) {
        case pad_mode::edge:
            p = j < 0 ? 0 : j >= len ? len - 1 : j;
            break;
        case pad_mode::wrap:
            p = wrap(j, len);
            break;
        case pad_mode::reflect: // period 2 (n - 1): 0 1 .. n-1 n-2 .. 1
            if (len == 1) {
                p = 0;
            } else {
                p = wrap(j, 2 * (len - 1));
                if (p >= len) p = 2 * (len - 1) - p;
            }
            break;
        default: // symmetric, period 2 n: 0 1 .. n-1 n-1 .. 0
            p = wrap(j, 2 * len);
            if (p >= len) p = 2 * len - 1 - p;
            break;
        }
        pos[i] = p;
    }
    return pos;
}

} // namespace clarray::detail
