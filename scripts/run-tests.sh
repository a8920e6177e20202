#!/usr/bin/env bash
# Set-up (packages, scripts/setup-deps.sh), build, and run the whole test suite through ctest.
# Environment: BUILD_DIR (default build-tests; relative to the source tree, or an absolute path
# outside it), CMAKE_ARGS (extra configure arguments, e.g. -DCLARRAY_SANITIZE=address,undefined),
# CTEST_ARGS (extra ctest arguments), CLARRAY_SKIP_DEPS=1 (no package set-up).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
build=${BUILD_DIR:-build-tests}
[[ $build == /* ]] || build=$PWD/$build
# shellcheck disable=SC2086 # CMAKE_ARGS and CTEST_ARGS are lists of arguments
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build"
# pocl's kernel cache: private to the build so runs do not depend on the user's home (clarray's
# own program cache is set to $build/clarray-cache by the tests' ctest entries).
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$build/pocl-cache}
# pocl compiles the suite's kernels without LLVM's optimisations (-cl-opt-disable through pocl's
# POCL_EXTRA_BUILD_FLAGS): most of a cold run is pocl compiling some 4000 programs, and this
# takes 40% off each while the small test arrays run as fast. The behaviour tested is OpenCL's
# either way; the optimised kernels run in the tests of sorting, statistics and sets (their
# radix loops run 5-10x slower unoptimised: tests/CMakeLists.txt), in the no-svm configuration of
# run-all-checks.sh, in
# the benchmarks and on other drivers, which ignore the variable. Set it (empty included) to
# choose otherwise.
export POCL_EXTRA_BUILD_FLAGS=${POCL_EXTRA_BUILD_FLAGS--cl-opt-disable}
# shellcheck disable=SC2086
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" ${CTEST_ARGS:-}
