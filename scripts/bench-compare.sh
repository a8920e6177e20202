#!/usr/bin/env bash
# Before/after comparison of the single-operation suite: builds bench_suite (Release) from another
# source tree (BASE, e.g. a `git worktree` or `git archive` of the commit to compare with) and from
# this one, then runs them alternately ROUNDS times on the same device, so machine drift hits both.
# Prints each run and a summary of medians per (op, N, impl): before, after, after/before.
# Usage: scripts/bench-compare.sh BASE_DIR
# Environment: SIZES (default 1e3,1.6e7), OPS (default all), IMPLS (default raw,clarray), REPS (per
# run, default 11), ROUNDS (default 3), CMAKE_ARGS (extra configure arguments for both builds),
# JOBS (build parallelism, default 2). Output: build-bench-compare/{before,after}_*.txt.
set -euo pipefail
base=$(cd "${1:?usage: scripts/bench-compare.sh BASE_DIR}" && pwd)
cd "$(dirname "$0")/.."
out=$PWD/build-bench-compare
mkdir -p "$out"
for side in before after; do
  src=$PWD
  [[ $side == before ]] && src=$base
  cmake -S "$src" -B "$out/build-$side" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_BENCH=ON \
    -DCLARRAY_BUILD_TESTS=OFF -DCLARRAY_BUILD_EXAMPLES=OFF ${CMAKE_ARGS:-} > "$out/configure-$side.log"
  cmake --build "$out/build-$side" -j "${JOBS:-2}" --target bench_suite > "$out/build-$side.log"
done
args=(--reps "${REPS:-11}" --sizes "${SIZES:-1e3,1.6e7}" --impls "${IMPLS:-raw,clarray}")
[[ -n ${OPS:-} ]] && args+=(--ops "$OPS")
for ((r = 1; r <= ${ROUNDS:-3}; ++r)); do
  for side in before after; do
    echo "== round $r: $side"
    "$out/build-$side/bench/bench_suite" "${args[@]}" > "$out/${side}_$r.txt" 2>&1
    grep -E " us " "$out/${side}_$r.txt" || { tail -5 "$out/${side}_$r.txt"; exit 1; }
  done
done
# Medians over the rounds of each side's per-run medians.
awk '
  FNR == 1 { side = (FILENAME ~ /before_/) ? "before" : "after" }
  / us / {
    for (i = 1; i <= NF; ++i) if ($i == "us") { t = $(i - 1); break }
    key = $1 " " $2 " " $3
    n = ++count[side, key]; v[side, key, n] = t; keys[key] = 1
  }
  function median(side, key,   n, i, j, a, tmp) {
    n = count[side, key]
    for (i = 1; i <= n; ++i) a[i] = v[side, key, i]
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) { tmp = a[i]; a[i] = a[j]; a[j] = tmp }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    printf "%-14s %-12s %-10s %12s %12s %8s\n", "op", "N", "impl", "before us", "after us", "ratio"
    for (key in keys) {
      b = median("before", key); a = median("after", key)
      split(key, k, " ")
      printf "%-14s %-12s %-10s %12.2f %12.2f %8.3f\n", k[1], k[2], k[3], b, a, a / b
    }
  }' "$out"/before_*.txt "$out"/after_*.txt | sort
