#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clang-tidy 14 with the checks of .clang-tidy over the host .cpp files of core/, cli/, gui/
# and kernels/ (not the .cu files), in parallel. Any warning fails; silent when clean.
# Usage: scripts/tidy.sh [build dir, default build]. Reads <build>/compile_commands.json, which
# every configure writes (CMAKE_EXPORT_COMPILE_COMMANDS), so run it after `cmake --preset ci`;
# gui/ is checked when the build has the GUI. KWB_TIDY_JOBS sets the parallelism (nproc);
# KWB_TIDY_DIRS the top-level directories (default "core cli gui kernels"; CI's gate);
# KWB_TIDY_SINCE a commit at which the whole tree was clean, to check only what changed since
# (CI passes .ci/tidy-base; scripts/tidy-select.py falls back to everything when it must).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
db=$build/compile_commands.json
if [[ ! -f $db ]]; then
  echo "tidy: $db not found: configure first (cmake --preset ci)" >&2
  exit 2
fi
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
if [[ -z $tidy ]]; then
  echo "tidy: clang-tidy 14 is not installed (scripts/install-deps.sh installs it)" >&2
  exit 2
fi

# The .cpp files of those directories that the compile database knows, each once; with
# KWB_TIDY_SINCE=<commit>, only those a change since that commit can affect (scripts/tidy-select.py
# says which and why). It also writes $build/tidy/compile_commands.json, the database without the
# precompiled-header flags that clang cannot read.
dirs=${KWB_TIDY_DIRS:-core cli gui kernels}
selected=$(python3 scripts/tidy-select.py "$build" "$PWD" "$dirs" "${KWB_TIDY_SINCE:-}")
mapfile -t files <<<"$selected"
if ((${#files[@]} == 0)) || [[ -z ${files[0]} ]]; then
  if [[ -n ${KWB_TIDY_SINCE:-} ]]; then
    exit 0  # nothing the change can affect; tidy-select.py said so
  fi
  echo "tidy: no .cpp file of $dirs in $db" >&2
  exit 2
fi

# -w: compiler warnings are the build's business (GCC, -Werror); clang would add its own.
# A file's output is shown only when it has a diagnostic.
export KWB_TIDY=$tidy KWB_TIDY_BUILD=$build/tidy
printf '%s\n' "${files[@]}" | xargs -P"${KWB_TIDY_JOBS:-$(nproc)}" -I{} bash -c '
  out=$("$KWB_TIDY" -p "$KWB_TIDY_BUILD" --quiet --warnings-as-errors="*" --extra-arg=-w "$1" 2>&1) ||
    { printf "%s\n" "$out" | grep -v "warnings\? generated\.$" >&2; exit 1; }' _ {} || {
  echo "tidy: clang-tidy found warnings (above); fix them or, with a reason, NOLINT(check)" >&2
  exit 1
}
