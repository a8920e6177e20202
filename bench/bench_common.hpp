#pragma once
// Helpers shared by the benchmark programs: medians, wall-clock timing, option lists.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace bench_common {

// The median of the samples (the upper one of an even count; 0 for none).
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// Wall-clock seconds of one call of f.
template <class F> double seconds(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// "1e6,1.6e7" -> {1000000, 16000000}.
inline std::vector<std::size_t> parse_sizes(const std::string& s) {
    std::vector<std::size_t> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ','))
        out.push_back(static_cast<std::size_t>(std::llround(std::stod(item))));
    return out;
}

} // namespace bench_common
