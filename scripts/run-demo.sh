#!/usr/bin/env bash
# Set-up (Debian packages), build, and run the demos. Non-zero exit on any mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_TESTS=OFF >/dev/null
cmake --build build --target examples_all
for demo in build/examples/svm build/examples/demo_array_svm build/examples/monte_carlo_pi; do
  [[ -x $demo ]] || continue
  echo "== $demo"
  "$demo"
done
