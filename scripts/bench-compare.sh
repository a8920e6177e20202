#!/usr/bin/env bash
# Before/after figures of a change: builds the single-operation suite (bench_suite) and the
# workload benchmark (bench_workloads) from BASE_SRC (a source tree of the earlier state, e.g.
# `git worktree add /tmp/base <commit>`) and from this tree, runs them alternately ROUNDS times
# in one process tree (so both see the same machine state), and prints the median of each
# clarray row per state with the ratio new/base (scripts/bench-compare.py).
# Usage: scripts/bench-compare.sh BASE_SRC [OUT_DIR]
# Env: ROUNDS (default 3), REPS (suite repeats per round, default 11), SIZES (suite sizes,
# default 1e5,1e6,1.6e7), OPS (suite ops, default all), PRESET (workloads preset: pocl, or gpu
# on the GPU machine; default pocl), WL_REPS (default 5), JOBS (build jobs, default nproc),
# CMAKE_ARGS (more configure arguments for both builds), EXTRA_ENV (space-separated VAR=value
# settings: the new tree runs once more per round with them, labelled "new+env"), BUILD_ROOT
# (where the two builds go; default OUT_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
base_src=$(cd "$1" && pwd)
out=${2:-build-compare}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=${JOBS:-$(nproc)}
build() { # src dir, build dir
  # shellcheck disable=SC2086 # CMAKE_ARGS is a list of arguments
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_BENCH=ON \
    -DCLARRAY_BUILD_TESTS=OFF -DCLARRAY_BUILD_EXAMPLES=OFF ${CMAKE_ARGS:-} > "$2.configure.log" 2>&1
  cmake --build "$2" -j "$jobs" --target bench_suite bench_workloads > "$2.build.log" 2>&1 ||
    { tail -20 "$2.build.log"; exit 1; }
}
builds=${BUILD_ROOT:-$out}
mkdir -p "$builds"
build "$base_src" "$builds/build-base"
build "$PWD" "$builds/build-new"
sizes=${SIZES:-1e5,1e6,1.6e7}
ops_arg=()
[[ -n ${OPS:-} ]] && ops_arg=(--ops "$OPS")
run_state() { # label, build dir, env settings...
  local label=$1 dir=$2 r=$3
  shift 3
  env "$@" "$dir/bench/bench_suite" --reps "${REPS:-11}" --sizes "$sizes" "${ops_arg[@]}" \
    --out "$out/suite_${label}_$r.csv" > "$out/suite_${label}_$r.txt" 2>&1
  env "$@" "$dir/bench/bench_workloads" --preset "${PRESET:-pocl}" --reps "${WL_REPS:-5}" \
    --out "$out/workloads_${label}_$r.csv" > "$out/workloads_${label}_$r.txt" 2>&1
}
# shellcheck disable=SC2206 # EXTRA_ENV is a list of settings
extra=(${EXTRA_ENV:-})
for ((r = 0; r < ${ROUNDS:-3}; ++r)); do
  run_state base "$builds/build-base" "$r"
  run_state new "$builds/build-new" "$r"
  ((${#extra[@]})) && run_state new+env "$builds/build-new" "$r" "${extra[@]}"
  echo "bench-compare: round $((r + 1)) of ${ROUNDS:-3} done"
done
python3 scripts/bench-compare.py "$out"
