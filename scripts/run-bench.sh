#!/usr/bin/env bash
# One command for the single-operation benchmark suite: builds bench_suite (Release, -O3) in build-bench,
# runs it (clarray vs raw OpenCL vs OpenMP, interleaved repeats), runs bench/py_bench.py with
# PyOpenCL on the same device (skipped with a message when PyOpenCL cannot be had), then
# bench/report.py writes docs/internals/performance.md and docs/internals/perf_*.png.
# Results of a GPU-machine run (scripts/device-run.sh bench), copied into bench/device-results/,
# are added to the report as a second section when present.
# Then the workload benchmark: bench_workloads (clarray, --preset pocl) and bench/py_workloads.py
# with NumPy on one host thread; report.py adds its table, spelling pairs and plot
# (bench/device-results/workloads_*.csv and py_workloads_*.csv from the GPU machine too).
# Last, scripts/field-report.py adds the field sections (measured by scripts/run-field-bench.sh).
#
# Environment: CLARRAY_DEVICE (device), REPS (default 21), PY_REPS (PyOpenCL, default 11), SIZES (default 1e3,1e5,1e6,1.6e7),
# OPS (comma list, default all), NO_PYTHON=1 (skip PyOpenCL), NO_SETUP=1 (skip package set-up),
# REPORT_ONLY=1 (rewrite docs/internals/performance.md from the CSVs of the last run),
# WL_REPS (workloads: repeats per round, default 5), WL_ROUNDS (alternating clarray / NumPy rounds,
# default 3), NO_WORKLOADS=1 (skip them), NO_SUITE=1 (run only the workloads; the report keeps the
# suite CSVs of the last run),
# OMP_WAIT_POLICY (default passive here), GOMP_SPINCOUNT (default 30000): see docs/internals/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${REPS:-21}
py_reps=${PY_REPS:-11} # PyOpenCL at 1.6e7 takes seconds per call on pocl
sizes=${SIZES:-1e3,1e5,1e6,1.6e7}
ops=${OPS:-}
res=build-bench/results
py=${PYTHON:-python3}

if [[ -z ${NO_SETUP:-} ]]; then
  scripts/setup-deps.sh
  # Python side: numpy + pyopencl (+ mako for its reductions) and matplotlib, from PyPI when
  # missing. Failure only skips that part.
  if ! "$py" -c "import numpy" 2>/dev/null; then # the workload benchmark's NumPy side
    echo "run-bench: installing numpy with pip"
    "$py" -m pip install -q numpy 2>&1 | grep -v -i "warning" || true
  fi
  if ! "$py" -c "import numpy, pyopencl, mako" 2>/dev/null; then
    echo "run-bench: installing numpy, pyopencl, mako with pip"
    "$py" -m pip install -q numpy pyopencl mako 2>&1 | grep -v -i "warning" || true
  fi
  if ! "$py" -c "import matplotlib" 2>/dev/null; then
    echo "run-bench: installing matplotlib with pip"
    "$py" -m pip install -q matplotlib 2>&1 | grep -v -i "warning" || true
  fi
fi

cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLARRAY_BUILD_BENCH=ON \
  -DCLARRAY_BUILD_TESTS=OFF -DCLARRAY_BUILD_EXAMPLES=OFF >/dev/null
nice -n 10 cmake --build build-bench -j2 --target bench_suite bench_workloads

mkdir -p "$res"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
ops_arg=()
[[ -n $ops ]] && ops_arg=(--ops "$ops")
# On a 2-core machine libgomp's spinning threads (and pocl's worker threads) fight for the same
# cores when OpenMP and OpenCL calls alternate: the OpenCL call that follows an OpenMP loop ran
# at half speed at N=1e6. Passive waiting puts OpenMP's threads to sleep after each loop.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-30000}
if [[ -z ${REPORT_ONLY:-} && -z ${NO_SUITE:-} ]]; then
echo "== bench_suite (reps $reps, sizes $sizes)"
./build-bench/bench/bench_suite --reps "$reps" --sizes "$sizes" "${ops_arg[@]}" \
  --out "$res/suite.csv" | tee "$res/suite.txt"

rm -f "$res/py_pyopencl.csv"
if [[ -z ${NO_PYTHON:-} ]]; then
  echo "== PyOpenCL"
  set +e
  "$py" bench/py_bench.py --backend pyopencl --reps "$py_reps" --sizes "$sizes" \
    ${ops:+--ops "$ops"} --out "$res/py_pyopencl.csv" | tee "$res/py_pyopencl.txt"
  prc=${PIPESTATUS[0]}
  set -e
  if ((prc != 0)); then
    echo "run-bench: PyOpenCL skipped (py_bench.py exit $prc: pyopencl not importable or failed)"
    rm -f "$res/py_pyopencl.csv"
  fi
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
printf '%s\n%s\n' "$load_before" "$load_after" > "$res/load.txt"
fi # REPORT_ONLY, NO_SUITE

# Workloads: WL_ROUNDS rounds of (bench_workloads, then NumPy), WL_REPS repeats each, so that the
# load of the machine over the run falls on both sides alike; report.py pools the rounds' samples.
wl_reps=${WL_REPS:-5}
wl_rounds=${WL_ROUNDS:-3}
if [[ -z ${REPORT_ONLY:-} && -z ${NO_WORKLOADS:-} ]]; then
  wl_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  rm -f "$res"/workloads_r*.csv "$res"/py_workloads_numpy_r*.csv
  set +e
  for ((r = 1; r <= wl_rounds; ++r)); do
    echo "== bench_workloads round $r/$wl_rounds (reps $wl_reps, preset pocl)"
    ./build-bench/bench/bench_workloads --preset pocl --reps "$wl_reps" \
      --out "$res/workloads_r$r.csv" | tee "$res/workloads_r$r.txt"
    wrc=${PIPESTATUS[0]}
    ((wrc == 0)) || echo "run-bench: bench_workloads exit $wrc (a failed check: see above)"
    echo "== py_workloads numpy (one thread) round $r/$wl_rounds"
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 "$py" bench/py_workloads.py \
      --backend numpy --preset pocl --reps "$wl_reps" --out "$res/py_workloads_numpy_r$r.csv" \
      | tee "$res/py_workloads_numpy_r$r.txt"
    prc=${PIPESTATUS[0]}
    if ((prc == 3)); then
      echo "run-bench: NumPy side skipped (numpy not importable)"
      rm -f "$res/py_workloads_numpy_r$r.csv"
    elif ((prc != 0)); then
      echo "run-bench: py_workloads.py failed (exit $prc)"
    fi
  done
  set -e
  printf '%s\n%s\n' "$wl_load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" > "$res/workloads_load.txt"
fi
if [[ -n ${REPORT_ONLY:-} || -n ${NO_SUITE:-} ]]; then # the suite's load: from its last run
  load_before="unknown 0 0"; load_after="unknown"
  if [[ -f $res/load.txt ]]; then
    load_before=$(sed -n 1p "$res/load.txt"); load_after=$(sed -n 2p "$res/load.txt")
  fi
fi

notes=()
cores=$(nproc)
notes+=("Which kernel shape clarray picks per device type, the measurements behind each choice, and the status of every performance target: docs/internals/tuning.md. OpenMP rows run with OMP_WAIT_POLICY=${OMP_WAIT_POLICY} (an OpenCL call that followed a spinning OpenMP loop ran at half speed at N=1e6 on 2 cores).")
notes+=("Host: $(nproc) CPUs, load average before the run ${load_before}, after ${load_after} (1/5/15 min).")
if awk -v l="${load_before%% *}" -v c="$cores" 'BEGIN { exit !(l > 0.25 * c) }'; then
  notes+=("This run was taken while other processes were using the CPUs (load average ${load_before} on ${cores} CPUs at the start): absolute numbers are noisy; ratios within one process are more trustworthy than absolutes.")
fi
if ! "$py" -c "import pyopencl" 2>/dev/null || [[ -n ${NO_PYTHON:-} ]]; then
  notes+=("PyOpenCL: not measured in this run (not importable, or NO_PYTHON set).")
fi
if [[ -f bench/device-results/py_cupy.csv ]]; then
  notes+=("CuPy: measured on the GPU machine only (its image ships CuPy); see that section.")
else
  notes+=("CuPy and the H200: not measured yet (no GPU results in bench/device-results/; the device machine's image has CuPy: scripts/device-run.sh bench runs bench/py_bench.py --backend cupy there).")
fi
sections=(--section "This machine: $(hostname), pocl (CPU OpenCL)" "$res/suite.csv" "$res/py_pyopencl.csv")
for f in bench/device-results/suite_*.csv; do
  [[ -f $f ]] || continue
  dev=$(basename "$f" .csv); dev=${dev#suite_}
  sections+=(--section "GPU machine, CLARRAY_DEVICE=$dev (scripts/device-run.sh bench)" "$f")
  for p in bench/device-results/py_*.csv; do
    [[ -f $p && $p != *py_workloads_* ]] && sections+=("$p")
  done
done
wl=()
wl_files=("$res"/workloads_r*.csv "$res"/py_workloads_numpy_r*.csv)
if [[ -f ${wl_files[0]} ]]; then
  wl+=(--workloads "This machine: $(hostname), pocl (CPU OpenCL) vs NumPy (one host thread)" \
    "${wl_files[@]}")
  if [[ -f $res/workloads_load.txt ]]; then
    notes+=("Workload run: load average before $(sed -n 1p "$res/workloads_load.txt"), after $(sed -n 2p "$res/workloads_load.txt") (1/5/15 min).")
  fi
fi
for f in bench/device-results/workloads_*.csv; do
  [[ -f $f ]] || continue
  dev=$(basename "$f" .csv); dev=${dev#workloads_}
  wsec=(--workloads "GPU machine, CLARRAY_DEVICE=$dev (scripts/device-run.sh bench)" "$f")
  for p in bench/device-results/py_workloads_*.csv; do [[ -f $p ]] && wsec+=("$p"); done
  wl+=("${wsec[@]}")
done
args=("${wl[@]}")
for n in "${notes[@]}"; do args+=(--note "$n"); done
# Start-up times (scripts/measure-startup.sh writes this section; it is not rerun here).
[[ -f bench/host-results/startup.md ]] && args+=(--startup bench/host-results/startup.md)
"$py" bench/report.py --out docs/internals/performance.md --plots docs/internals "${sections[@]}" "${args[@]}"
# The sections beside the field's libraries (sort, GEMM, random, FFT, complex, indexing) come from
# bench/host-results/field/ (scripts/run-field-bench.sh) and bench/device-results/field/.
"$py" scripts/field-report.py
