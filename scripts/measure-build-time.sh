#!/usr/bin/env bash
# Times a from-scratch build of the test suite (library + clarray_tests, 2 jobs) for several
# source trees or configurations side by side, each pinned to 2 cores of its own, so that the
# figures compare on one machine at one time (a shared machine's load skews builds run one after
# the other). Needs as many free cores as 2 x configurations.
# Usage: scripts/measure-build-time.sh NAME=SOURCE_DIR[=CMAKE_ARGS] ...
#   e.g. scripts/measure-build-time.sh before=/tmp/old after=. "after-O0=.=-DCLARRAY_TEST_OPTIMIZATION=-O0"
# Environment: EXTRA_CMAKE_ARGS (given to every configuration), WORK (build dirs; default /tmp),
# CORES_EACH (cores and build jobs per configuration, default 2; CPU seconds do not depend on it).
# Prints, per configuration: wall seconds, CPU seconds (user + sys of the compiler processes) and
# the three slowest translation units.
set -euo pipefail
work=${WORK:-/tmp}
cores=$(nproc)
slot=0
names=()
for spec in "$@"; do
  name=${spec%%=*}; rest=${spec#*=}
  src=${rest%%=*}; args=""
  [[ $rest == *=* ]] && args=${rest#*=}
  dir=$work/build-time-$name
  rm -rf "$dir"
  # shellcheck disable=SC2086
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLARRAY_BUILD_EXAMPLES=OFF \
    ${EXTRA_CMAKE_ARGS:-} $args > "$dir.configure.log" 2>&1 || { tail -20 "$dir.configure.log"; exit 1; }
  each=${CORES_EACH:-2}
  first=$((each * slot)); last=$((first + each - 1))
  ((last < cores)) || { echo "not enough cores for $# configurations"; exit 1; }
  ( /usr/bin/time -f "%e %U %S" -o "$dir.time" taskset -c "$first-$last" \
      cmake --build "$dir" -j "$each" --target clarray_tests > "$dir.build.log" 2>&1 ) &
  names+=("$name")
  slot=$((slot + 1))
done
wait
for name in "${names[@]}"; do
  dir=$work/build-time-$name
  read -r wall user sys < "$dir.time"
  printf '%-12s wall %6.0f s   cpu %6.0f s\n' "$name" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
  awk 'NR > 1 { printf "      %6.1f s %s\n", ($2 - $1) / 1000, $4 }' "$dir/.ninja_log" | sort -rn | head -3
  grep -qE "FAILED:|error:" "$dir.build.log" && { echo "  build errors:"; grep -m5 -E "FAILED:|error:" "$dir.build.log"; }
done
