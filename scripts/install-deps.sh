#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages Kernel Workbench needs to build, test and run its GUI.
# Idempotent: installs only what is missing. Works as root or through sudo.
# clang and libclang-rt-dev (libFuzzer, sanitizer runtimes) build the fuzz targets (scripts/fuzz.sh);
# clang-tidy runs the CI lint step (scripts/tidy.sh).
# openssh-client and openssh-server: the GUI drives remote engines through ssh, and the ssh
# tests start a real sshd on 127.0.0.1 (tests/ssh/; no system service is enabled or used).
# slurm-wlm and munge: kwb slurm's test starts a one-node Slurm on localhost (tests/slurm/; its
# own configuration and key in a temporary folder, no system service is enabled or used).
# The CUDA toolkit (nvcc, cuBLAS, CCCL) is expected under /usr/local/cuda or on PATH.
set -euo pipefail

packages=(
  cmake ninja-build g++ git clang-format clang-tidy
  clang libclang-rt-dev
  libgtest-dev nlohmann-json3-dev libcli11-dev
  qt6-base-dev qt6-svg-dev libqcustomplot-dev
  fonts-dejavu-core xvfb xauth poppler-utils
  python3
  openssh-client openssh-server
  slurm-wlm munge
)
if [[ "${1:-}" == "--no-gui" ]]; then
  packages=(cmake ninja-build g++ git libgtest-dev nlohmann-json3-dev libcli11-dev python3)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages already installed"
else
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  echo "install-deps: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v nvcc >/dev/null && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "install-deps: warning: no CUDA toolkit found (nvcc); install CUDA 13 to build kwb" >&2
fi
