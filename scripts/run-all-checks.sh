#!/usr/bin/env bash
# The heavier test configurations (CI runs only the default one). Each prints its ctest summary.
#   default         pocl, all policies                  (= scripts/run-tests.sh)
#   emulate-coarse  coarse-SVM host views through staging copies, mapped-state checker active
#   no-svm          SVM reported absent: SVM tests skip, the Buffer fallback is exercised
#   asan            AddressSanitizer + UndefinedBehaviorSanitizer build of library and tests
#   tsan            ThreadSanitizer build, multi-queue / multi-thread tests
#   valgrind        memcheck leak check of the release-ordering and error tests
#   fuzz            long differential fuzz (tests/test_fuzz.cpp) with a new random seed, printed
#                   first (CLARRAY_FUZZ_SEED=<seed> replays it; CLARRAY_FUZZ_SECONDS, default 600,
#                   bounds the fuzz: two thirds for the expression fuzz, one third for the breadth
#                   functions' fuzz; then 60 s of the multi-thread stress); not in the default set
#   full            the default suite with every sampled matrix whole (CLARRAY_TEST_FULL=1: the
#                   reduction dtype matrix, the onesweep sort entries; CLARRAY_CONFORMANCE=full:
#                   the whole conformance matrix), in build-full; not in the default set
#   conformance     the whole dtype x function conformance matrix against NumPy's reference data
#                   (CLARRAY_CONFORMANCE=full: every pair, thousands of kernels, a fresh pocl cache
#                   costs minutes); the default run of the tests runs a fixed sample of it; not in
#                   the default set
# Usage: scripts/run-all-checks.sh [config ...]   (default: all of them)
# Builds use cmake's default parallelism; on a shared machine limit it, e.g.
#   nice -n 15 env CMAKE_BUILD_PARALLEL_LEVEL=2 scripts/run-all-checks.sh asan
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
configs=("$@")
((${#configs[@]})) || configs=(default emulate-coarse no-svm asan tsan valgrind)
supp=$PWD/scripts/sanitizer-suppressions
status=0
run() { echo "=== $1"; shift; "$@" || status=1; }
for c in "${configs[@]}"; do
  case $c in
    default) run default scripts/run-tests.sh ;;
    emulate-coarse) run emulate-coarse env CLARRAY_EMULATE_COARSE=1 scripts/run-tests.sh ;;
    # pocl's optimised kernels (the default configurations compile them with -cl-opt-disable).
    no-svm) run no-svm env CLARRAY_DISABLE_SVM=1 POCL_EXTRA_BUILD_FLAGS= scripts/run-tests.sh ;;
    full) run full env BUILD_DIR=build-full CLARRAY_TEST_FULL=1 CLARRAY_CONFORMANCE=full \
      scripts/run-tests.sh ;;
    asan)
      # pocl's JIT and LLVM leak by design at exit; leaks of clarray's own objects are
      # checked by the allocation/event counters in the tests. protect_shadow_gap=0: NVIDIA's
      # OpenCL driver maps memory inside the range ASan reserves, so with it protected the
      # NVIDIA platform fails to load and is missing from the platform list.
      # use_sigaltstack=0: pocl's LLVM gives threads that compile kernels (user threads building
      # FFT plans at once) an alternate signal stack of its own, which ASan then fails to unmap
      # when the thread exits ("unable to unmap", a CHECK failure in ASan's runtime).
      run asan env BUILD_DIR=build-asan CMAKE_ARGS="-DCLARRAY_SANITIZE=address,undefined" \
        ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:protect_shadow_gap=0:use_sigaltstack=0 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp \
        CTEST_ARGS="-E install_and_find_package" scripts/run-tests.sh ;;
    tsan)
      # Only the test files holding those tests are built (CLARRAY_TEST_FILES), and the tests
      # are picked by name (an entry per test case).
      run tsan env BUILD_DIR=build-tsan \
        CMAKE_ARGS="-DCLARRAY_SANITIZE=thread -DCLARRAY_TEST_ENTRIES=case -DCLARRAY_TEST_FILES=test_release.cpp;test_expr.cpp;test_launch.cpp" \
        TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=1" \
        CTEST_ARGS="-R release|concurrent|dependencies|threads|kernel.cache" scripts/run-tests.sh ;;
    valgrind)
      cmake -S . -B build-tests -G Ninja >/dev/null && cmake --build build-tests --target clarray_tests &&
      run valgrind env POCL_CACHE_DIR=$PWD/build-tests/pocl-cache valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
        --suppressions=$supp/valgrind.supp --gen-suppressions=no -q \
        build-tests/tests/clarray_tests "[release],[errors]" ;;
    fuzz)
      seed=${CLARRAY_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
      secs=${CLARRAY_FUZZ_SECONDS:-600}
      echo "fuzz: CLARRAY_FUZZ_SEED=$seed, $secs s"
      # CLARRAY_TEST_FULL=1: every dtype combination of the fuzz compiled (the default build
      # compiles a sample of them).
      CLARRAY_TEST_FULL=1 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCLARRAY_TEST_FILES=test_fuzz.cpp >/dev/null &&
      cmake --build build-fuzz --target clarray_tests &&
      run fuzz env POCL_CACHE_DIR=$PWD/build-fuzz/pocl-cache CLARRAY_FUZZ_SEED=$seed \
        CLARRAY_FUZZ_SECONDS=$((secs * 2 / 3)) build-fuzz/tests/clarray_tests \
        "[fuzz]~[fuzz_breadth]~[!mayfail]" &&
      run fuzz-breadth env POCL_CACHE_DIR=$PWD/build-fuzz/pocl-cache CLARRAY_FUZZ_SEED=$seed \
        CLARRAY_FUZZ_SECONDS=$((secs - secs * 2 / 3)) build-fuzz/tests/clarray_tests \
        "[fuzz_breadth]" &&
      run fuzz-stress env POCL_CACHE_DIR=$PWD/build-fuzz/pocl-cache CLARRAY_FUZZ_SEED=$seed \
        CLARRAY_FUZZ_SECONDS=60 build-fuzz/tests/clarray_tests "[fuzz_stress]"
      echo "fuzz: CLARRAY_FUZZ_SEED=$seed" ;;
    conformance)
      # Every pair instantiated (CLARRAY_TEST_FULL=1; the default build compiles a sample), in a
      # build of the conformance files only.
      conf_files=$(cd tests && ls test_conformance*.cpp | paste -sd';')
      CLARRAY_TEST_FULL=1 cmake -S . -B build-conformance -G Ninja \
        "-DCLARRAY_TEST_FILES=$conf_files" >/dev/null &&
      cmake --build build-conformance --target clarray_tests &&
      run conformance env POCL_CACHE_DIR=$PWD/build-conformance/pocl-cache CLARRAY_CONFORMANCE=full \
        build-conformance/tests/clarray_tests "[conformance]" ;;
    *) echo "unknown config $c"; status=1 ;;
  esac
done
exit $status
