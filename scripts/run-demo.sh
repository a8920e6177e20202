#!/usr/bin/env bash
# Set-up (packages, scripts/setup-deps.sh), build, and run the demos. Non-zero exit on any mismatch.
# Environment: BUILD_DIR (default build; relative to the source tree, or an absolute path outside
# it), CMAKE_ARGS (extra configure arguments), CLARRAY_SKIP_DEPS=1 (no package set-up).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
build=${BUILD_DIR:-build}
[[ $build == /* ]] || build=$PWD/$build
# shellcheck disable=SC2086 # CMAKE_ARGS is a list of arguments
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_TESTS=OFF \
  ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" --target examples_all
for demo in "$build"/examples/tour "$build"/examples/svm "$build"/examples/demo_array_svm \
  "$build"/examples/monte_carlo_pi "$build"/examples/softmax "$build"/examples/least_squares \
  "$build"/examples/kmeans "$build"/examples/spectrum; do
  [[ -x $demo ]] || continue
  echo "== $demo"
  "$demo"
done
