#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up a fresh machine, builds, and starts the workbench. With no GPU it opens the
# bundled sample results recorded on a real GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export PATH="/usr/local/cuda/bin:$PATH"
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)" --target kwb kwb-gui
exec ./build/gui/kwb-gui "$@"
