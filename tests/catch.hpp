#pragma once
// Catch2 2 or 3 behind one include: CMake defines CLARRAY_CATCH2_MAJOR to the version it found
// (Debian 12 ships Catch2 2, Ubuntu 24.04 and Debian 13 Catch2 3). The few names that differ
// between the two are in namespace catch_compat.
#include <string>

#if CLARRAY_CATCH2_MAJOR == 3 || (!defined(CLARRAY_CATCH2_MAJOR) && __has_include(<catch2/catch_all.hpp>))
#include <catch2/catch_all.hpp>
#define CLARRAY_CATCH2_3 1
#else
#include <catch2/catch.hpp>
#endif

namespace catch_compat {
#ifdef CLARRAY_CATCH2_3
template <class T> using MatcherBase = Catch::Matchers::MatcherBase<T>;
// Catch2 3's Contains matches elements of a range; the substring matcher was renamed.
inline Catch::Matchers::StringContainsMatcher Contains(const std::string& s) {
    return Catch::Matchers::ContainsSubstring(s);
}
#else
template <class T> using MatcherBase = Catch::MatcherBase<T>;
inline Catch::Matchers::StdString::ContainsMatcher Contains(const std::string& s) {
    return Catch::Matchers::Contains(s);
}
#endif
} // namespace catch_compat

#ifdef CLARRAY_CATCH2_3
using Catch::Approx; // Catch2 2 declares Approx at global scope
#endif
