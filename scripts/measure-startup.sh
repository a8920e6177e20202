#!/usr/bin/env bash
# Cold and warm start of the demos with and without clarray's on-disk program cache: the wall
# time of whole processes, median of REPS runs (default 5), as a Markdown section written to
# bench/host-results/startup.md (or $OUT), which scripts/run-bench.sh adds to
# docs/internals/performance.md.
#   cold: empty cache directories before the run (every program is compiled)
#   warm: a second run over the directories the cold run filled
# Each program runs with pocl's own kernel cache off (POCL_KERNEL_CACHE=0: clarray's cache is
# then used on pocl too) and on (pocl's default: clarray's cache stays out of pocl's way, so "on"
# should match "off"); POCL_MODES="0" or "1" runs one of them.
# Usage: scripts/measure-startup.sh [demo ...]   (default: demo_array_svm softmax)
# Environment: BUILD_DIR (default build, as scripts/run-demo.sh builds it), REPS, POCL_MODES, OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
[[ $build == /* ]] || build=$PWD/$build
reps=${REPS:-5}
demos=("$@")
((${#demos[@]})) || demos=(demo_array_svm softmax)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

export POCL_CACHE_DIR=$tmp/pocl

# Seconds of one run of $1 with CLARRAY_CACHE_DIR=$2; a failing run stops the script.
run_once() {
  local t0 t1
  t0=$(date +%s%N)
  CLARRAY_CACHE_DIR=$2 "$build/examples/$1" >/dev/null
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rows=()
for pocl in ${POCL_MODES:-0 1}; do
  export POCL_KERNEL_CACHE=$pocl
  for d in "${demos[@]}"; do
    [[ -x $build/examples/$d ]] || { echo "measure-startup: $build/examples/$d is not built" >&2; exit 1; }
    for mode in off on; do
      cold=()
      warm=()
      for ((r = 0; r < reps; ++r)); do
        rm -rf "$tmp/clarray" "$tmp/pocl"
        dir=off
        [[ $mode == on ]] && dir=$tmp/clarray
        cold+=("$(run_once "$d" "$dir")")
        warm+=("$(run_once "$d" "$dir")")
      done
      rows+=("$(printf '| %s | %s | %s | %s | %s |' "$d" "$([[ $pocl == 0 ]] && echo off || echo on)" \
        "$mode" "$(printf '%s\n' "${cold[@]}" | median)" "$(printf '%s\n' "${warm[@]}" | median)")")
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
out=${OUT:-bench/host-results/startup.md}
{
  echo "# Start-up and the program cache"
  echo
  echo "Wall time of whole processes of the demos (\`scripts/measure-startup.sh\`, $(date -u +%Y-%m-%d)," \
    "$(hostname), $(nproc) CPUs, load average $load_before before and $load_after after), median" \
    "of $reps runs. **cold**: empty cache directories (every program is compiled, and with" \
    "clarray's cache on also written); **warm**: a second run over the directories the cold run" \
    "filled. With pocl's kernel cache off (\`POCL_KERNEL_CACHE=0\`) clarray's cache is the only" \
    "one (its cold runs pay for pocl compiling every kernel of a program once more when the" \
    "binary is read); with it on (pocl's default) clarray's cache stays out of the way on pocl" \
    "(docs/internals/quirks.md), so its rows should match."
  echo
  echo "| program | pocl cache | clarray cache | cold start (s) | warm start (s) |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} > "$out"
cat "$out"
