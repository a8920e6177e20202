#!/usr/bin/env bash
# The host (pocl) side of docs/internals/performance.md's field sections: clarray beside NumPy
# and PyOpenCL on this machine. Builds the bench targets in build-bench (Release), runs
#   bench_suite --ops cmul_add,cabs_sum,add_f16,take,put,hist and py_bench.py --backend pyopencl,
#   bench_sort, bench_linalg (each of GEMM_SIZES), bench_random, bench_fft (when the target exists),
#   py_field.py --backend numpy and --backend pyopencl (random draws and pyvkfft FFT),
# into build-bench/results/field/, copies the CSVs to bench/host-results/field/ and rewrites the
# field sections with scripts/field-report.py (which also reads bench/device-results/field/, the
# GPU machine's `scripts/device-run.sh field` output).
# Environment: REPS (suite, default 11), SIZES (suite, default 1e6,1.6e7), SORT_N (1.6e7),
# GEMM_SIZES (default "1024 2048"), RANDOM_N (1.6e7), FFT_N1 (default 4194304 = 2^22), FFT_N2
# (default 2048), FFT_ARGS (bench_fft's options; default "--n1 FFT_N1 --n2 FFT_N2"), JOBS (build
# jobs, default 1), NO_BUILD=1, REPORT_ONLY=1 (only rewrite the sections from the CSVs).
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
res=build-bench/results/field
dest=bench/host-results/field
sizes=${SIZES:-1e6,1.6e7}
reps=${REPS:-11}
n1=${FFT_N1:-4194304}
n2=${FFT_N2:-2048}
read -r -a gemm_sizes <<< "${GEMM_SIZES:-1024 2048}"
ops=cmul_add,cabs_sum,add_f16,take,put,hist
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} # as run-bench.sh: OpenMP and OpenCL share 2 cores
export GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-30000}

if [[ -z ${REPORT_ONLY:-} ]]; then
  targets=(bench_suite bench_sort bench_linalg bench_random)
  grep -q "bench_fft" bench/CMakeLists.txt && targets+=(bench_fft)
  if [[ -z ${NO_BUILD:-} ]]; then
    cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_BENCH=ON \
      -DCLARRAY_BUILD_TESTS=OFF -DCLARRAY_BUILD_EXAMPLES=OFF > /dev/null
    nice -n 10 cmake --build build-bench -j "${JOBS:-1}" --target "${targets[@]}"
  fi
  rm -rf "$res"; mkdir -p "$res"
  bb=build-bench/bench
  set +e # a failed step is reported and the others still run
  {
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "machine: $(hostname), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
    echo "command: scripts/run-field-bench.sh (SIZES=$sizes REPS=$reps SORT_N=${SORT_N:-1.6e7} GEMM_SIZES='${gemm_sizes[*]}' RANDOM_N=${RANDOM_N:-1.6e7} FFT_N1=$n1 FFT_N2=$n2 OMP_WAIT_POLICY=$OMP_WAIT_POLICY)"
    echo "load_before: $(cut -d' ' -f1-3 /proc/loadavg)"
  } > "$res/info.txt"
  echo "== bench_suite --ops $ops --sizes $sizes --reps $reps"
  "$bb/bench_suite" --reps "$reps" --sizes "$sizes" --ops "$ops" --out "$res/suite.csv" \
    | tee "$res/suite.txt" | grep -E "CHECK|FAILED|N=16000000"
  echo "== py_bench.py --backend pyopencl"
  "$py" bench/py_bench.py --backend pyopencl --reps "$reps" --sizes "$sizes" --ops "$ops" \
    --out "$res/py_pyopencl.csv" > "$res/py_pyopencl.txt" 2>&1
  prc=$?
  if ((prc != 0)); then
    echo "PyOpenCL not measured (exit $prc): $(tail -1 "$res/py_pyopencl.txt")"; rm -f "$res/py_pyopencl.csv"
  else grep -E "CHECK|NOT SUPP|N=16000000" "$res/py_pyopencl.txt"; fi
  echo "== bench_sort --n ${SORT_N:-1.6e7}"
  "$bb/bench_sort" --n "${SORT_N:-1.6e7}" --reps 5 --out "$res/sort.csv" | tee "$res/sort.txt"
  for s in "${gemm_sizes[@]}"; do
    echo "== bench_linalg --size $s"
    "$bb/bench_linalg" --size "$s" --reps 5 --out "$res/linalg_$s.csv" | tee "$res/linalg_$s.txt"
  done
  echo "== bench_random --sizes ${RANDOM_N:-1.6e7}"
  "$bb/bench_random" --sizes "${RANDOM_N:-1.6e7}" --reps 7 --out "$res/random.csv" \
    | tee "$res/random.txt"
  if [[ -x $bb/bench_fft ]]; then
    echo "== bench_fft"
    # shellcheck disable=SC2086 # FFT_ARGS is a list of options
    "$bb/bench_fft" ${FFT_ARGS:---n1 $n1 --n2 $n2} --out "$res/fft.csv" | tee "$res/fft.txt"
  fi
  common=(--reps 5 --sort-n "${SORT_N:-1.6e7}" --random-n "${RANDOM_N:-1.6e7}" --fft-n1 "$n1"
    --fft-n2 "$n2")
  for be in numpy pyopencl; do
    only=sort,gemm,random,fft
    [[ $be == pyopencl ]] && only=random,fft # PyOpenCL has no sort or GEMM of its own
    echo "== py_field.py --backend $be --only $only"
    "$py" bench/py_field.py --backend "$be" "${common[@]}" --only "$only" \
      --gemm-size "${gemm_sizes[0]}" --out "$res/py_field_$be.csv" | grep -vE "^[a-z_]+: "
    if [[ $be == numpy ]]; then
      for s in "${gemm_sizes[@]:1}"; do
        "$py" bench/py_field.py --backend numpy --reps 5 --only gemm --gemm-size "$s" \
          --out "$res/py_field_numpy_gemm$s.csv" | grep -E "^gemm|CHECK"
      done
    fi
  done
  echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$res/info.txt"
  mkdir -p "$dest"
  rm -f "$dest"/*.csv "$dest"/info.txt
  cp "$res"/*.csv "$res"/info.txt "$dest"/
  set -e
fi
"$py" scripts/field-report.py --host "$dest"
