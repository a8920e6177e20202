#!/usr/bin/env bash
# Runs on the lent GPU machine (Ubuntu 24.04, NVIDIA OpenCL): unpacks the header-only Debian
# packages carried in .device/debs, registers the NVIDIA ICD, builds, and runs what is asked.
# Usage: scripts/device-run.sh [examples|tests|all] ; results go to $OUT when set.
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
prefix=$PWD/.device/prefix
for d in .device/debs/*.deb; do dpkg -x "$d" "$prefix"; done
mkdir -p .device/icd
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > .device/icd/nvidia.icd
cp /etc/OpenCL/vendors/*.icd .device/icd/ 2>/dev/null || true # pocl, for CPU comparisons
export OCL_ICD_VENDORS=$PWD/.device/icd
export CLARRAY_DEVICE=${CLARRAY_DEVICE:-NVIDIA}
out=${OUT:-/tmp/out}; mkdir -p "$out"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix/usr" -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" \
  > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
rc=0
cmake --build build-device -j 16 --target examples_all > "$out/build.log" 2>&1 || { grep -E 'error' "$out/build.log" | head -30; exit 1; }
if [[ $what == examples || $what == all ]]; then
  for ex in build-device/examples/*; do
    [[ -x $ex && -f $ex ]] || continue
    echo "== $ex"; "$ex" 2>&1 | tee "$out/$(basename "$ex").log" || rc=1
  done
fi
if [[ $what == tests || $what == all ]]; then
  cmake --build build-device -j 16 > "$out/build-tests.log" 2>&1 || { grep -E 'error' "$out/build-tests.log" | head -30; exit 1; }
  (cd build-device && ctest -j 8 --timeout 300 --output-on-failure > "$out/ctest.log" 2>&1) || rc=1
  grep -E "tests passed|tests failed" "$out/ctest.log"
  grep -E "^\s+[0-9]+ - " "$out/ctest.log" | head -40
  echo "skips:"; grep -hE "skipped:" "$out/ctest.log" | sort | uniq -c | head
fi
if [[ $what == bench || $what == all ]]; then
  cmake -S . -B build-device-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_TESTS=OFF \
    -DCLARRAY_BUILD_BENCH=ON -DCMAKE_PREFIX_PATH="$prefix/usr" \
    -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" \
    -DCMAKE_EXE_LINKER_FLAGS="-L$prefix/usr/lib/x86_64-linux-gnu -Wl,-rpath,$prefix/usr/lib/x86_64-linux-gnu" \
    > "$out/configure-bench.log" 2>&1 && cmake --build build-device-bench -j 16 > "$out/build-bench.log" 2>&1 \
    || { tail -20 "$out/configure-bench.log"; grep error "$out/build-bench.log" | head; rc=1; }
  for dev in ${BENCH_DEVICES:-NVIDIA}; do
    echo "== bench on $dev"
    CLARRAY_DEVICE=$dev ./build-device-bench/bench/bench_expr --benchmark_min_time=0.2 \
      --benchmark_out="$out/bench_expr_$dev.json" --benchmark_out_format=json 2>&1 | grep BM_ | tee "$out/bench_expr_$dev.txt"
  done
fi
exit $rc
