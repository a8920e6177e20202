#!/usr/bin/env bash
# Installs the Debian packages clarray needs, only those missing (no-op when all are present).
# Usage: scripts/setup-deps.sh [--bench]
set -euo pipefail
pkgs=(cmake ninja-build g++ pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
      libxtensor-dev libxsimd-dev xtl-dev catch2 clinfo librandom123-dev)
if [[ "${1:-}" == "--bench" ]]; then pkgs+=(libbenchmark-dev python3-matplotlib); fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup-deps: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
