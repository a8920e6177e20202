#!/usr/bin/env bash
# Runs on the lent GPU machine (Ubuntu 24.04, NVIDIA OpenCL): unpacks the header-only Debian
# packages carried in .device/debs, registers the NVIDIA ICD, builds, and runs what is asked.
# Usage: scripts/device-run.sh [examples|tests|suite|compare|check|bench|field|all] ; results go to $OUT when set.
# suite: the whole ctest suite spread over calls (SUITE_CONFIG, SUITE_S, SUITE_JOBS; see below).
# check: one bounded pass for a short lease: builds clarray_tests and bench_expr, runs the whole
#   conformance matrix, CHECK_FUZZ_S seconds of expression fuzz and half that of breadth fuzz
#   (seed CHECK_SEED), bench_expr's divide/sqrt with and without CLARRAY_FP32_DIVIDE_SQRT=fast, then
#   ctest until CHECK_CTEST_S seconds have passed (the tests not reached are listed as not run).
# bench: env REPS, SIZES, OPS (comma list), PY_BACKENDS (default "cupy pyopencl"), BENCH_DEVICES (default NVIDIA), BENCH_EXPR=1 (also bench_expr);
#   then the workload benchmark (bench_workloads --preset gpu, py_workloads.py with CuPy and with
#   NumPy on one host thread): WL_REPS (default 11), WL_NUMPY_REPS (default 5; 0 skips NumPy),
#   NO_SUITE=1 (workloads only).
# programs: the composed programs of bench_workloads against CuPy, ROUNDS (default 2) rounds
#   alternating the two, WL_REPS (default 7) repeats each; OPS (comma list) picks programs;
#   PROFILE_OPS (comma list): those programs once more with CLARRAY_PROFILE=1 (kernel times).
# focus: builds clarray_tests and runs the Catch2 test specs of FOCUS, entries separated by ';',
#   each "spec" or "VAR=value,VAR=value:spec" (a setting for that run).
# conformance: builds clarray_tests and runs the whole conformance matrix (CLARRAY_CONFORMANCE=full)
#   as CONF_SHARDS (default 8) processes at once (CLARRAY_CONFORMANCE_SHARD: the driver compiles
#   on the CPU, one process a core), each bounded by CONF_S seconds (default 420); FOCUS as in
#   focus runs after it when set.
# buildtime: scripts/measure-build-time.sh of .device/baseline against this tree, 8 cores each.
# field: the figures beside the field's libraries, into $OUT/field/ (copy that folder to
#   bench/device-results/field/; scripts/field-report.py turns it into docs/internals/performance.md's
#   field sections): bench_suite --ops cmul_add,cabs_sum,add_f16,take,put,hist --sizes 1e6,1.6e7 and
#   py_bench.py --backend cupy on the same ops; bench_sort (N 1.6e7), bench_linalg --size 4096
#   (sgemm, dgemm), bench_random, bench_fft (when the target exists: 1-d 2^24, 2-d 4096 x 4096),
#   py_field.py --backend cupy (cupy.sort, cuBLAS, cuRAND, cuFFT), then scripts/measure-startup.sh
#   (demo_array_svm, softmax). Each step is bounded by FIELD_STEP_S seconds (default 150).
#   Env: REPS (suite, default 21), SORT_N (1.6e7), GEMM_SIZE (4096), FFT_ARGS (default
#   "--n1 16777216 --n2 4096"), PY_FIELD_BACKENDS (default "cupy"; add numpy for the host CPU),
#   STARTUP_REPS (default 3), NO_STARTUP=1, FIELD_SIZES (suite sizes, default 1e6,1.6e7),
#   FIELD_TARGETS (benchmarks to build and run, default all), SORT_HOST_REPS (host sorts' repeats,
#   default 7), SORT_ENV (extra bench_sort runs, default CLARRAY_SORT_RANK=split; one
#   per space-separated VAR=value,VAR=value setting),
#   PY_FIELD_ARGS (more py_field.py options).
# .device/debs (carried): apt-get download libxtensor-dev libxsimd-dev xtl-dev opencl-c-headers
#   opencl-clhpp-headers ocl-icd-opencl-dev ocl-icd-libopencl1 libbenchmark-dev libbenchmark1debian
#   catch2 libclblast-dev libclblast1 librandom123-dev libvkfft-dev
#   (catch2: Debian 12's Catch2 2.13; without it the tests build with the image's Catch2 3)
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
prefix=$PWD/.device/prefix
for d in .device/debs/*.deb; do dpkg -x "$d" "$prefix"; done
mkdir -p .device/icd
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > .device/icd/nvidia.icd
cp /etc/OpenCL/vendors/*.icd .device/icd/ 2>/dev/null || true # pocl, for CPU comparisons
export OCL_ICD_VENDORS=$PWD/.device/icd
# The carried packages' pkg-config files (xtensor.pc: install_and_find_package reads clarray.pc).
export PKG_CONFIG_PATH=$prefix/usr/share/pkgconfig:$prefix/usr/lib/x86_64-linux-gnu/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export CLARRAY_DEVICE=${CLARRAY_DEVICE:-NVIDIA}
out=${OUT:-/tmp/out}; mkdir -p "$out"
rc=0
configure_bench() {
  cmake -S . -B build-device-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_TESTS=OFF \
    -DCLARRAY_BUILD_EXAMPLES=OFF -DCLARRAY_BUILD_BENCH=ON -DCMAKE_PREFIX_PATH="$prefix/usr" \
    -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" \
    -DCMAKE_EXE_LINKER_FLAGS="-L$prefix/usr/lib/x86_64-linux-gnu -Wl,-rpath,$prefix/usr/lib/x86_64-linux-gnu"
}
if [[ $what == programs ]]; then
  { configure_bench && cmake --build build-device-bench -j 16 --target bench_workloads; } \
    > "$out/build-bench.log" 2>&1 || { tail -20 "$out/build-bench.log"; exit 1; }
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
  ops=${OPS:-mlp,fftconv,topk,unique,gather_norm,montecarlo,spectrum,histogram,kmeans_iter}
  for r in $(seq "${ROUNDS:-2}"); do
    ./build-device-bench/bench/bench_workloads --preset gpu --ops $ops --reps "${WL_REPS:-7}" \
      --out "$out/programs_clarray_$r.csv" > "$out/programs_clarray_$r.txt" 2>&1 || rc=1
    grep -E "CHECK FAILED|FAILED|us/step" "$out/programs_clarray_$r.txt"
    PYTHONUNBUFFERED=1 python3 bench/py_workloads.py --backend cupy --preset gpu --ops $ops \
      --reps "${WL_REPS:-7}" --out "$out/programs_cupy_$r.csv" > "$out/programs_cupy_$r.txt" 2>&1 || rc=1
    grep -E "CHECK FAILED|us/step|not measured" "$out/programs_cupy_$r.txt"
  done
  if [[ -n ${PROFILE_OPS:-} ]]; then # where the device time of these programs goes
    CLARRAY_PROFILE=1 ./build-device-bench/bench/bench_workloads --preset gpu --ops "$PROFILE_OPS" \
      --reps 3 --out "$out/programs_profile.csv" > "$out/programs_profile.txt" 2>&1 || rc=1
    grep -A14 -E "clarray profile" "$out/programs_profile.txt"
  fi
  exit $rc
fi
if [[ $what == focus || $what == conformance ]]; then
  # conformance: every pair of the matrix compiled (the default build compiles a sample).
  full=0; [[ $what == conformance ]] && full=1
  CLARRAY_TEST_FULL=$full cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_EXAMPLES=OFF \
    -DCMAKE_PREFIX_PATH="$prefix/usr" -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" \
    > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
  cmake --build build-device -j 16 --target clarray_tests > "$out/build-tests.log" 2>&1 ||
    { grep -E 'error' "$out/build-tests.log" | head -30; exit 1; }
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
  if [[ $what == conformance ]]; then
    shards=${CONF_SHARDS:-8}
    for ((s = 0; s < shards; ++s)); do
      CLARRAY_CONFORMANCE=full CLARRAY_CONFORMANCE_SHARD=$s/$shards timeout "${CONF_S:-420}" \
        build-device/tests/clarray_tests "[conformance]" > "$out/conformance_$s.log" 2>&1 &
    done
    for ((s = 0; s < shards; ++s)); do wait -n || rc=1; done
    for ((s = 0; s < shards; ++s)); do
      echo "shard $s: $(grep -E '^conformance \(' "$out/conformance_$s.log" | head -1) $(grep -E 'test cases' "$out/conformance_$s.log" | tail -1)"
      grep -E "^  FAIL " "$out/conformance_$s.log" | head -20
    done
    [[ -n ${FOCUS:-} ]] || exit $rc
  fi
  IFS=';' read -ra entries <<< "${FOCUS:-[sort]}"
  i=0
  for entry in "${entries[@]}"; do
    i=$((i + 1)); settings=(); spec=$entry
    if [[ $entry == *=*:* ]]; then IFS=',' read -ra settings <<< "${entry%%:*}"; spec=${entry#*:}; fi
    env "${settings[@]}" build-device/tests/clarray_tests "$spec" > "$out/focus_$i.log" 2>&1 || rc=1
    echo "${settings[*]} $spec: $(grep -E "test cases|All tests passed" "$out/focus_$i.log" | tail -1)"
    grep -E "FAILED|failed|with expansion" -A3 "$out/focus_$i.log" | head -20
  done
  exit $rc
fi
if [[ $what == buildtime ]]; then
  # CMake takes the prefix from these variables at configure time.
  CORES_EACH=8 WORK=/tmp CMAKE_PREFIX_PATH=$prefix/usr CXXFLAGS="-isystem $prefix/usr/include" \
    LDFLAGS="-L$prefix/usr/lib/x86_64-linux-gnu -Wl,-rpath,$prefix/usr/lib/x86_64-linux-gnu" \
    scripts/measure-build-time.sh before=.device/baseline after=. 2>&1 | tee "$out/buildtime.txt"
  exit "${PIPESTATUS[0]}"
fi
if [[ $what != bench && $what != field && $what != check && $what != suite && $what != compare ]]; then
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix/usr" -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" \
    > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
  cmake --build build-device -j 16 --target examples_all > "$out/build.log" 2>&1 || { grep -E 'error' "$out/build.log" | head -30; exit 1; }
fi
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
  # GPUs take the scalar kernels; the vector kernels (CPU default) are checked on this driver too.
  CLARRAY_VECTOR_WIDTH=4 build-device/tests/clarray_tests "[vector],[math]" > "$out/vector4.log" 2>&1 || rc=1
  echo "CLARRAY_VECTOR_WIDTH=4: $(tail -2 "$out/vector4.log" | head -1)"
  # float16 takes 4 elements per work-item by default; its one-element kernels are checked too.
  CLARRAY_HALF_VECTOR_WIDTH=1 build-device/tests/clarray_tests "[half]" > "$out/half1.log" 2>&1 || rc=1
  echo "CLARRAY_HALF_VECTOR_WIDTH=1: $(tail -2 "$out/half1.log" | head -1)"
  # The radix sort's ranking by 4-bit splits (the default here ranks by warps, PTX match.any).
  CLARRAY_SORT_RANK=split build-device/tests/clarray_tests "[sort]" > "$out/sort_split.log" 2>&1 || rc=1
  echo "CLARRAY_SORT_RANK=split: $(tail -2 "$out/sort_split.log" | head -1)"
  grep -E "^\s+[0-9]+ - " "$out/ctest.log" | head -40
  echo "skips:"; grep -hE "skipped:" "$out/ctest.log" | sort | uniq -c | head
fi
if [[ $what == suite ]]; then
  # The whole suite over several calls of a short lease: each call builds what is missing, then
  # runs the ctest entries of configuration SUITE_CONFIG (default, or an environment setting such
  # as CLARRAY_DISABLE_SVM=1) not yet run on this machine, until SUITE_S seconds have passed
  # (ctest --stop-time). Results accumulate in build-device/suite-<config>.log; $OUT gets it.
  t0=$SECONDS
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix/usr" -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" \
    > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
  cmake --build build-device -j 16 > "$out/build-tests.log" 2>&1 || { grep -E 'error' "$out/build-tests.log" | head -30; exit 1; }
  echo "suite: built in $((SECONDS - t0)) s"
  config=${SUITE_CONFIG:-default}
  done_log=build-device/suite-${config//[^A-Za-z0-9_]/_}.log
  touch "$done_log"
  all=$(cd build-device && ctest -N | sed -nE 's/^ *Test +#([0-9]+):.*/\1/p')
  ran=$(sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#([0-9]+):.*(Passed|Failed|Exception|Timeout|SEGFAULT|Subprocess).*/\1/p' "$done_log" | sort -u)
  todo=$(comm -23 <(sort -u <<< "$all") <(echo "$ran") | sort -n | paste -sd, -)
  echo "suite ($config): $(wc -w <<< "$ran") of $(wc -w <<< "$all") entries run before this call"
  if [[ -n $todo ]]; then
    stop=$(date -d "+$(( ${SUITE_S:-400} - (SECONDS - t0) )) sec" +%H:%M:%S)
    env_args=(); [[ $config != default ]] && env_args=("$config")
    (cd build-device && env "${env_args[@]}" ctest -j "${SUITE_JOBS:-12}" --timeout 300 --stop-time "$stop" \
      --output-on-failure -I "0,0,0,$todo" > "$out/suite-call.log" 2>&1) || rc=1
    cat "$out/suite-call.log" >> "$done_log"
    grep -E "tests passed|tests failed" "$out/suite-call.log"
  fi
  cp "$done_log" "$out/"
  echo "suite ($config) so far: $(grep -cE ' Passed ' "$done_log") passed, $(grep -E 'Test +#' "$done_log" | grep -cvE ' Passed |Not Run') failed"
  grep -E "Test +#" "$done_log" | grep -vE " Passed |Not Run" | head -20
fi
if [[ $what == compare ]]; then
  # Before/after on this GPU: scripts/bench-compare.sh with the source tree in COMPARE_BASE
  # (default .device/baseline, carried), the GPU preset of the workloads, and COMPARE_ENV (e.g.
  # CLARRAY_INDEX32=0) as a third state; the CSVs and the summary go to $OUT/compare.
  lib=$prefix/usr/lib/x86_64-linux-gnu # no spaces inside an argument: bench-compare.sh splits them
  CMAKE_ARGS="-DCMAKE_PREFIX_PATH=$prefix/usr -DCMAKE_CXX_FLAGS=-isystem$prefix/usr/include -DCMAKE_EXE_LINKER_FLAGS=-Wl,--library-path=$lib,-rpath=$lib" \
    PRESET=gpu JOBS=16 EXTRA_ENV="${COMPARE_ENV:-}" ROUNDS="${ROUNDS:-2}" BUILD_ROOT=build-compare \
    scripts/bench-compare.sh "${COMPARE_BASE:-.device/baseline}" "$out/compare" > "$out/compare.txt" 2>&1 || rc=1
  grep -vE "^\|" "$out/compare.txt" | tail -12
fi
if [[ $what == check ]]; then
  t0=$SECONDS
  { configure_bench >/dev/null &&
    CLARRAY_TEST_FULL=1 cmake -S . -B build-device-bench -DCLARRAY_BUILD_TESTS=ON >/dev/null &&
    cmake --build build-device-bench -j 16 --target clarray_tests bench_expr; } > "$out/build-check.log" 2>&1 \
    || { grep -E 'error' "$out/build-check.log" | head -30; exit 1; }
  echo "check: built in $((SECONDS - t0)) s"
  tb=build-device-bench/tests/clarray_tests
  CLARRAY_CONFORMANCE=full timeout 120 "$tb" "[conformance]" > "$out/conformance.log" 2>&1 || rc=1
  echo "conformance (full): $(grep -E 'conformance:|passed|failed' "$out/conformance.log" | tail -3 | tr '\n' ' ')"
  fs=${CHECK_FUZZ_S:-60}; seed=${CHECK_SEED:-$RANDOM$RANDOM}
  CLARRAY_FUZZ_SEED=$seed CLARRAY_FUZZ_SECONDS=$fs timeout $((fs + 60)) "$tb" "[fuzz]~[fuzz_breadth]~[!mayfail]" > "$out/fuzz.log" 2>&1 || rc=1
  CLARRAY_FUZZ_SEED=$seed CLARRAY_FUZZ_SECONDS=$((fs / 2)) timeout $((fs + 60)) "$tb" "[fuzz_breadth]" > "$out/fuzz_breadth.log" 2>&1 || rc=1
  echo "fuzz seed $seed: $(grep -hE 'fuzz.*cases|passed|failed' "$out/fuzz.log" "$out/fuzz_breadth.log" | tr '\n' ' ')"
  for setting in CLARRAY_CHECK=default CLARRAY_FP32_DIVIDE_SQRT=fast; do
    env "$setting" timeout 60 build-device-bench/bench/bench_expr \
      --benchmark_filter='BM_divide_sqrt|BM_fused' --benchmark_min_time=0.2 2>&1 | grep BM_ | sed "s/^/$setting: /"
  done
  left=$(( ${CHECK_CTEST_S:-300} - (SECONDS - t0) ))
  (cd build-device-bench && timeout "$left" ctest -j 8 --timeout 120 --output-on-failure > "$out/ctest.log" 2>&1) || rc=1
  echo "ctest ($left s allowed): $(grep -cE 'Passed' "$out/ctest.log") passed; $(grep -E 'tests passed|tests failed' "$out/ctest.log")"
  grep -E "\*\*\*|Failed|SEGFAULT" "$out/ctest.log" | head -20
fi
if [[ $what == bench || $what == all ]]; then
  # The single-operation suite (bench_suite, CSV per device), the CuPy / PyOpenCL side when importable,
  # and bench_expr when Google Benchmark is in .device/debs. Copy $OUT's suite_*.csv and py_*.csv
  # into bench/device-results/ here; scripts/run-bench.sh then adds them to docs/internals/performance.md.
  { configure_bench && cmake --build build-device-bench -j 16; } > "$out/build-bench.log" 2>&1 \
    || { tail -20 "$out/build-bench.log"; rc=1; }
  nvidia-smi --query-gpu=name,driver_version,clocks.max.memory,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
  for dev in ${BENCH_DEVICES:-NVIDIA}; do
    [[ -x build-device-bench/bench/bench_suite && -z ${NO_SUITE:-} ]] || break
    echo "== bench_suite on $dev"
    CLARRAY_DEVICE=$dev ./build-device-bench/bench/bench_suite --reps "${REPS:-21}" \
      --sizes "${SIZES:-1e3,1e5,1e6,1.6e7}" ${OPS:+--ops "$OPS"} --out "$out/suite_$dev.csv" \
      > "$out/suite_$dev.txt" 2>&1 || rc=1
    grep -E "^(device|driver|date|  CHECK|  FAILED)|^(add|add_f16|fused|copy|sum|dot|colsum|rowsum|strided|transpose_add|iadd|axpy) .*N=16000000" "$out/suite_$dev.txt"
    if [[ -x build-device-bench/bench/bench_expr && -n ${BENCH_EXPR:-} ]]; then
      CLARRAY_DEVICE=$dev ./build-device-bench/bench/bench_expr --benchmark_min_time=0.2 2>&1 \
        | grep BM_ > "$out/bench_expr_$dev.txt"
    fi
  done
  for be in ${PY_BACKENDS:-cupy pyopencl}; do
    [[ -z ${NO_SUITE:-} ]] || break
    echo "== py_bench $be"
    PYTHONUNBUFFERED=1 python3 bench/py_bench.py --backend $be --reps "${REPS:-21}" \
      --sizes "${SIZES:-1e3,1e5,1e6,1.6e7}" ${OPS:+--ops "$OPS"} --out "$out/py_$be.csv" \
      > "$out/py_$be.txt" 2>&1
    prc=$?
    if ((prc == 3)); then echo "$be: not measured ($(tail -1 "$out/py_$be.txt"))"; rm -f "$out/py_$be.csv" "$out/py_$be.txt"
    elif ((prc != 0)); then tail -5 "$out/py_$be.txt"; rc=1
    else grep -E "N=16000000" "$out/py_$be.txt"; fi
  done
  # Random draws vs a fill of the same array (docs/random.md quotes the medians).
  for dev in ${BENCH_DEVICES:-NVIDIA}; do
    [[ -x build-device-bench/bench/bench_random ]] || break
    echo "== bench_random on $dev"
    CLARRAY_DEVICE=$dev ./build-device-bench/bench/bench_random --out "$out/random_$dev.csv" 2>&1 \
      | tee "$out/random_$dev.txt" || rc=1
  done
  # Fourier transforms (complex64 fft 2^24, fft2 4096^2) vs a copy of the same array (docs/fft.md).
  for dev in ${BENCH_DEVICES:-NVIDIA}; do
    [[ -x build-device-bench/bench/bench_fft ]] || break
    echo "== bench_fft on $dev"
    CLARRAY_DEVICE=$dev ./build-device-bench/bench/bench_fft --out "$out/fft_$dev.csv" 2>&1 \
      | tee "$out/fft_$dev.txt" || rc=1
  done
  # The workload benchmark: copy workloads_*.csv and py_workloads_*.csv into bench/device-results/.
  for dev in ${BENCH_DEVICES:-NVIDIA}; do
    [[ -x build-device-bench/bench/bench_workloads ]] || break
    echo "== bench_workloads on $dev"
    CLARRAY_DEVICE=$dev ./build-device-bench/bench/bench_workloads --preset gpu \
      --reps "${WL_REPS:-11}" --out "$out/workloads_$dev.csv" > "$out/workloads_$dev.txt" 2>&1 || rc=1
    grep -E "^(device|driver|  CHECK FAILED|  FAILED|PAIR)|us/step" "$out/workloads_$dev.txt"
  done
  wl_backends=(cupy)
  [[ ${WL_NUMPY_REPS:-5} != 0 ]] && wl_backends+=(numpy)
  for be in "${wl_backends[@]}"; do
    echo "== py_workloads $be"
    wreps=${WL_REPS:-11}
    [[ $be == numpy ]] && wreps=${WL_NUMPY_REPS:-5}
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONUNBUFFERED=1 \
      python3 bench/py_workloads.py --backend $be --preset gpu --reps "$wreps" \
      --out "$out/py_workloads_$be.csv" > "$out/py_workloads_$be.txt" 2>&1
    prc=$?
    if ((prc == 3)); then echo "$be: not measured ($(tail -1 "$out/py_workloads_$be.txt"))"; rm -f "$out/py_workloads_$be.csv" "$out/py_workloads_$be.txt"
    elif ((prc != 0)); then tail -5 "$out/py_workloads_$be.txt"; rc=1
    else grep -E "CHECK FAILED|us/step" "$out/py_workloads_$be.txt"; fi
  done
fi
if [[ $what == field || $what == all ]]; then
  # Figures beside the field's libraries; every step bounded (the machine's call has a time limit).
  fo=$out/field; mkdir -p "$fo"
  step_s=${FIELD_STEP_S:-150}
  t_field=$SECONDS
  # FIELD_TARGETS: the benchmarks to build and run (default all; e.g. "bench_suite bench_sort")
  # shellcheck disable=SC2206 # a list of target names
  targets=(${FIELD_TARGETS:-bench_suite bench_sort bench_linalg bench_random})
  [[ -z ${FIELD_TARGETS:-} ]] && grep -q "bench_fft" bench/CMakeLists.txt && targets+=(bench_fft)
  # -k 0: a target that fails to build (its error is shown) does not keep the others from running
  { configure_bench && cmake --build build-device-bench -j 16 --target "${targets[@]}" -- -k 0; } \
    > "$fo/build-bench.log" 2>&1 || { grep -E "FAILED:|error:" "$fo/build-bench.log" | head -20; rc=1; }
  echo "field: built ${targets[*]} in $((SECONDS - t_field)) s"
  gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.memory,memory.total --format=csv,noheader 2>/dev/null | head -1)
  echo "gpu: $gpu"
  { # scripts/field-report.py labels this machine's rows with the GPU's name
    echo "label: $(cut -d, -f1 <<< "${gpu:-GPU}" | sed 's/^NVIDIA //')"
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "machine: $(nproc) CPUs; gpu: ${gpu:-unknown}"
    echo "command: scripts/device-run.sh field (REPS=${REPS:-21} FIELD_SIZES=${FIELD_SIZES:-1e6,1.6e7} SORT_N=${SORT_N:-1.6e7} GEMM_SIZE=${GEMM_SIZE:-4096} FFT_ARGS='${FFT_ARGS:---n1 16777216 --n2 4096}')"
    echo "load_before: $(cut -d' ' -f1-3 /proc/loadavg)"
  } > "$fo/info.txt"
  bb=build-device-bench/bench
  # step NAME CMD...: runs CMD with the step limit, its output to $fo/NAME.txt; says how it went.
  step() {
    local name=$1 t0=$SECONDS src; shift
    timeout "$step_s" "$@" > "$fo/$name.txt" 2>&1
    src=$?
    if ((src == 124)); then echo "== $name: TIMED OUT after ${step_s} s"; rc=1
    elif ((src == 3)); then echo "== $name: not measured ($(tail -1 "$fo/$name.txt"))"
    elif ((src != 0)); then echo "== $name: exit $src"; tail -5 "$fo/$name.txt"; rc=1
    else echo "== $name ($((SECONDS - t0)) s)"; fi
    return $src
  }
  field_ops=cmul_add,cabs_sum,add_f16,take,put,hist
  if [[ -x $bb/bench_suite ]]; then
    step suite "$bb/bench_suite" --reps "${REPS:-21}" --sizes "${FIELD_SIZES:-1e6,1.6e7}" --ops "$field_ops" \
      --out "$fo/suite.csv"
    grep -E "CHECK|FAILED|N=16000000" "$fo/suite.txt" | head -20
    # Raise mode with the index checks' reads landing in heap memory (default: pinned), beside.
    echo "== take/put, CLARRAY_INDEX_CHECK_STAGING=heap"
    CLARRAY_INDEX_CHECK_STAGING=heap timeout 60 "$bb/bench_suite" --reps 11 --sizes 1.6e7 \
      --ops take,put 2>&1 | grep -E "clarray "
  fi
  PYTHONUNBUFFERED=1 step py_cupy python3 bench/py_bench.py --backend cupy --reps "${REPS:-21}" \
    --sizes "${FIELD_SIZES:-1e6,1.6e7}" --ops "$field_ops" --out "$fo/py_cupy.csv"
  (($? == 3)) && rm -f "$fo/py_cupy.csv"
  grep -E "CHECK|NOT SUPP|N=16000000" "$fo/py_cupy.txt" 2>/dev/null | head -12
  if [[ -x $bb/bench_sort ]]; then
    step sort "$bb/bench_sort" --n "${SORT_N:-1.6e7}" --reps 7 --host-reps "${SORT_HOST_REPS:-7}" \
      --out "$fo/sort.csv"
    grep -vE "^device" "$fo/sort.txt" | head -12
    for setting in ${SORT_ENV-CLARRAY_SORT_RANK=split}; do # tuning variants, beside the default run
      echo "== bench_sort with ${setting//,/ }"
      env ${setting//,/ } timeout 60 "$bb/bench_sort" --n "${SORT_N:-1.6e7}" --reps 5 --host-reps 0 2>&1 | grep -E "clarray"
    done
  fi
  if [[ -x $bb/bench_linalg ]]; then
    step linalg "$bb/bench_linalg" --size "${GEMM_SIZE:-4096}" --reps 7 \
      --out "$fo/linalg_${GEMM_SIZE:-4096}.csv"
    grep -E "gemm|error" "$fo/linalg.txt" | head -8
  fi
  if [[ -x $bb/bench_random ]]; then
    step random "$bb/bench_random" --sizes 1.6e7 --out "$fo/random.csv"
    tail -n +2 "$fo/random.txt" | head -12
  fi
  if [[ -x $bb/bench_fft ]]; then
    # shellcheck disable=SC2086 # FFT_ARGS is a list of options
    step fft "$bb/bench_fft" ${FFT_ARGS:---n1 16777216 --n2 4096} --out "$fo/fft.csv"
    tail -8 "$fo/fft.txt"
  else
    echo "== fft: bench_fft is not a target in this tree (not measured)"
  fi
  for be in ${PY_FIELD_BACKENDS:-cupy}; do
    # shellcheck disable=SC2086 # PY_FIELD_ARGS is a list of options
    PYTHONUNBUFFERED=1 step "py_field_$be" python3 bench/py_field.py --backend "$be" --reps 7 \
      --sort-n "${SORT_N:-1.6e7}" --gemm-size "${GEMM_SIZE:-4096}" ${PY_FIELD_ARGS:-} \
      --out "$fo/py_field_$be.csv"
    (($? == 3)) && rm -f "$fo/py_field_$be.csv"
    grep -E "^(sort|gemm|random|fft) |CHECK|NOT MEASURED" "$fo/py_field_$be.txt" 2>/dev/null | head -14
  done
  if [[ -z ${NO_STARTUP:-} ]]; then
    # Cold and warm start of the demos on the GPU (pocl's cache setting does not apply there:
    # one mode). The examples build in build-device, as the examples mode builds them.
    # (the examples mode's configuration, so that a later tests run reuses the directory as is)
    if cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix/usr" -DCMAKE_CXX_FLAGS="-isystem $prefix/usr/include" \
      > "$fo/configure-examples.log" 2>&1; then
      cmake --build build-device -j 16 --target demo_array_svm softmax > "$fo/build-examples.log" 2>&1 \
        || { tail -20 "$fo/build-examples.log"; rc=1; }
    else
      tail -20 "$fo/configure-examples.log"; rc=1
    fi
    BUILD_DIR=build-device REPS=${STARTUP_REPS:-3} POCL_MODES=1 OUT=$fo/startup_NVIDIA.md \
      step startup scripts/measure-startup.sh demo_array_svm softmax
    grep -E "^\| (demo|softmax)" "$fo/startup_NVIDIA.md" 2>/dev/null
  fi
  echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$fo/info.txt"
  # The machine returns only a few files per call: the results travel as one archive.
  tar -czf "$out/field.tar.gz" -C "$out" field && rm -rf "$out/field"
  echo "field: $((SECONDS - t_field)) s in all; unpack field.tar.gz and copy field/ to bench/device-results/field/"
fi
exit $rc
