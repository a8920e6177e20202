#!/usr/bin/env bash
# Installs what clarray needs, only what is missing: nothing happens when every dependency is
# found (on the PATH, by the C++ compiler, by the linker), however it was installed.
# Usage: scripts/setup-deps.sh [--bench]
# Environment: CLARRAY_SKIP_DEPS=1 skips this script altogether (dependencies from elsewhere);
#   CXX, CPPFLAGS (e.g. -I/opt/xtensor/include) are used for the header and library probes.
# Packages: Debian 12, Debian 13 and Ubuntu 24.04 use the same names; Debian 12 has Catch2 2,
# the others Catch2 3 (the tests build with either) and xtensor 0.24 to 0.26 (ditto).
# Random123 (random/'s kernels embed its headers), CLBlast (linalg/'s products) and VkFFT
# (fft/'s transforms; libvkfft-dev on Debian 12, Debian 13 and Ubuntu 24.04) are required.
set -euo pipefail
if [[ -n ${CLARRAY_SKIP_DEPS:-} && ${CLARRAY_SKIP_DEPS} != 0 ]]; then
  echo "setup-deps: skipped (CLARRAY_SKIP_DEPS=$CLARRAY_SKIP_DEPS)"
  exit 0
fi
bench=0
[[ "${1:-}" == "--bench" ]] && bench=1
cxx=${CXX:-c++}

# What is missing, as the packages that provide it: "package|kind" per line (kind: required or
# optional). Tools by the PATH, headers by __has_include, libOpenCL by a link.
missing=()
need() { missing+=("$1|$2"); }
command -v cmake >/dev/null || need cmake required
command -v ninja >/dev/null || need ninja-build required
command -v pkg-config >/dev/null || need pkg-config required
command -v clinfo >/dev/null || need clinfo required
# Universal Ctags lists the public declarations for the api_doc_check test.
ctags --version 2>/dev/null | grep -q "Universal Ctags" || need universal-ctags required
# Doxygen, with python3 for its comment filter, checks that every public member is documented
# (the docs_check test, scripts/build-docs.sh; skipped without them).
command -v doxygen >/dev/null || need doxygen optional
command -v python3 >/dev/null || need python3 optional
if ! command -v "$cxx" >/dev/null; then
  need g++ required
  cxx=""
fi
# OpenBLAS: products of SVM arrays on CPU devices run through it (without it, through CLBlast).
{ command -v pkg-config >/dev/null && pkg-config --exists openblas; } || need libopenblas-dev optional
# LAPACKE: linalg's decompositions and solvers (without it they throw clarray::unsupported).
{ command -v pkg-config >/dev/null && pkg-config --exists lapacke; } || need liblapacke-dev optional
# MPI: sharded arrays over MPI ranks (clarray::mpi, multi/mpi.hpp) and their mpirun tests (without
# it they are not built and the tests are skipped).
command -v mpicxx >/dev/null || need libopenmpi-dev optional
command -v mpirun >/dev/null || need openmpi-bin optional
# One OpenCL driver at least (tests run on pocl when there is no other).
if ! compgen -G "${OCL_ICD_VENDORS:-/etc/OpenCL/vendors}/*.icd" >/dev/null; then
  need pocl-opencl-icd required
fi
# header (alternatives separated by spaces) -> package, kind
headers=(
  "CL/cl.h|opencl-headers|required"
  "xtl/xtl_config.hpp|xtl-dev|required"
  "xtensor/xarray.hpp xtensor/containers/xarray.hpp|libxtensor-dev|required"
  "xsimd/xsimd.hpp|libxsimd-dev|required"
  "catch2/catch.hpp catch2/catch_all.hpp|catch2|required"
  "clblast.h|libclblast-dev|required"
  "Random123/philox.h|librandom123-dev|required"
  "vkFFT.h|libvkfft-dev|required"
)
((bench)) && headers+=("benchmark/benchmark.h|libbenchmark-dev|required")
if [[ -n $cxx ]]; then
  probe=""
  for h in "${headers[@]}"; do
    IFS='|' read -r files pkg kind <<<"$h"
    cond=""
    for f in $files; do cond+="${cond:+ || }__has_include(<$f>)"; done
    probe+=$'#if !('"$cond"$')\n#error clarray-missing '"$pkg|$kind"$'\n#endif\n'
  done
  # shellcheck disable=SC2086 # CPPFLAGS is a list of flags
  errors=$(printf '%s' "$probe" |
    "$cxx" -x c++ -std=c++17 ${CPPFLAGS:-} -E - -o /dev/null 2>&1 || true)
  while read -r entry; do [[ -n $entry ]] && missing+=("$entry"); done \
    < <(sed -n 's/.*#error clarray-missing \([^ ]*\).*/\1/p' <<<"$errors")
  # shellcheck disable=SC2086
  if ! printf 'int main() { return 0; }\n' |
      "$cxx" -x c++ ${CPPFLAGS:-} - -lOpenCL -o /dev/null 2>/dev/null; then
    need ocl-icd-opencl-dev required
  fi
else
  for h in "${headers[@]}"; do
    IFS='|' read -r _ pkg kind <<<"$h"
    need "$pkg" "$kind"
  done
  need ocl-icd-opencl-dev required
fi
((bench)) && ! python3 -c "import matplotlib" 2>/dev/null && need python3-matplotlib required

if ((${#missing[@]} == 0)); then
  exit 0
fi
required=()
optional=()
for m in "${missing[@]}"; do
  IFS='|' read -r pkg kind <<<"$m"
  if [[ $kind == required ]]; then required+=("$pkg"); else optional+=("$pkg"); fi
done
if ! command -v apt-get >/dev/null; then
  # Not a Debian-like system: say what to install, and fail only for what the build needs.
  echo "setup-deps: not found: ${required[*]:-} ${optional[*]:-} (Debian/Ubuntu package names);" \
    "install them, or set CLARRAY_SKIP_DEPS=1" >&2
  if ((${#required[@]})); then exit 1; fi
  exit 0
fi
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO=sudo
# The package lists are refreshed only for required packages: a missing optional one that the
# distribution lacks must not cost an update on every run.
((${#required[@]})) && $SUDO apt-get update -qq
# Optional packages the distribution lacks are reported and left out.
available=()
for p in "${optional[@]}"; do
  policy=$(apt-cache policy "$p" 2>/dev/null || true)
  if [[ $policy == *"Candidate: "[0-9]* ]]; then
    available+=("$p")
  else
    echo "setup-deps: $p is not available here; the code that needs it is not built" >&2
  fi
done
pkgs=("${required[@]}" "${available[@]}")
if ((${#pkgs[@]})); then
  echo "setup-deps: installing ${pkgs[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
fi
