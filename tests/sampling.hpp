#pragma once
// Sampling of the big test matrices. The default run takes a fixed subset: a configuration runs
// every `every`-th case from an offset of its own, so the configurations of a matrix together
// run every case once when `every` is at most their number (a part of the cases otherwise). CLARRAY_TEST_FULL=1 (scripts/run-all-checks.sh full) runs every case
// in every configuration.
#include <cstddef>
#include <cstdlib>
#include <string>
#include <tuple>

namespace test {

inline bool full_matrix() {
    static const bool full = [] {
        const char* v = std::getenv("CLARRAY_TEST_FULL");
        return v != nullptr && *v != '\0' && std::string(v) != "0";
    }();
    return full;
}

// Whether case `case_index` of a configuration at `offset` runs.
inline bool sampled(std::size_t case_index, std::size_t offset, std::size_t every) {
    return full_matrix() || every <= 1 || case_index % every == offset % every;
}

// Position of C in the type list List (a std::tuple): a configuration's sampling offset.
template <class C, class List> struct index_in;
template <class C, class... Ts> struct index_in<C, std::tuple<C, Ts...>> {
    static constexpr std::size_t value = 0;
};
template <class C, class T, class... Ts> struct index_in<C, std::tuple<T, Ts...>> {
    static constexpr std::size_t value = 1 + index_in<C, std::tuple<Ts...>>::value;
};
template <class C, class List> constexpr std::size_t index_in_v = index_in<C, List>::value;

} // namespace test
