#!/usr/bin/env bash
# Set-up (Debian packages), build, and run the whole test suite through ctest.
# Environment: BUILD_DIR (default build-tests), CTEST_ARGS (extra ctest arguments),
# CMAKE_ARGS (extra configure arguments, e.g. -DCLARRAY_SANITIZE=address,undefined).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
build=${BUILD_DIR:-build-tests}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build"
# pocl's kernel cache: private to the build so runs do not depend on the user's home.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/$build/pocl-cache}
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" ${CTEST_ARGS:-}
