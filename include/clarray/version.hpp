#pragma once
// clarray's version. CMakeLists.txt checks at configure time that these match its
// project(VERSION), so the two cannot drift apart.
// The major, minor and patch numbers, for #if checks.
#define CLARRAY_VERSION_MAJOR 0
#define CLARRAY_VERSION_MINOR 1
#define CLARRAY_VERSION_PATCH 0
// The version as a string, "major.minor.patch".
#define CLARRAY_VERSION "0.1.0"
