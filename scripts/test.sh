#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up a fresh machine and runs every test: the README's test command, and what CI runs.
# GPU tests skip with a visible reason on machines without a CUDA device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export PATH="/usr/local/cuda/bin:$PATH"
preset=${KWB_PRESET:-ci}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j"$(nproc)"
echo "test.sh: dependencies, configure and build took $SECONDS s"
status=0
ctest --preset "$preset" -j"$(nproc)" || status=$?
# Say why GPU tests skipped, where they did: ctest itself only prints "Skipped".
if ! reason=$(./build/cli/kwb device 2>&1 >/dev/null); then
  echo "GPU tests (label gpu) skipped on this machine: ${reason#kwb: }"
fi
echo "test.sh: done after $SECONDS s"
exit $status
