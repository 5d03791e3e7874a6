#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clang-tidy 14 with the checks of .clang-tidy over the host .cpp files of core/, cli/, gui/
# and kernels/ (not the .cu files), in parallel. Any warning fails; silent when clean.
# Usage: scripts/tidy.sh [build dir, default build]. Reads <build>/compile_commands.json, which
# every configure writes (CMAKE_EXPORT_COMPILE_COMMANDS), so run it after `cmake --preset ci`;
# gui/ is checked when the build has the GUI. KWB_TIDY_JOBS sets the parallelism (nproc);
# KWB_TIDY_DIRS the top-level directories (default "core cli gui kernels"; CI's gate).
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

# The .cpp files of those directories that the compile database knows, each once.
dirs=${KWB_TIDY_DIRS:-core cli gui kernels}
mapfile -t files < <(python3 - "$db" "$PWD" "$dirs" <<'PY'
import json, os, sys
db, root, dirs = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3].split()
seen = set()
for e in json.load(open(db)):
    f = os.path.realpath(os.path.join(e["directory"], e["file"]))
    rel = os.path.relpath(f, root)
    if rel.endswith(".cpp") and rel.split(os.sep)[0] in dirs:
        seen.add(rel)
print("\n".join(sorted(seen)))
PY
)
if ((${#files[@]} == 0)); then
  echo "tidy: no .cpp file of $dirs in $db" >&2
  exit 2
fi

# -w: compiler warnings are the build's business (GCC, -Werror); clang would add its own.
# A file's output is shown only when it has a diagnostic.
export KWB_TIDY=$tidy KWB_TIDY_BUILD=$build
printf '%s\n' "${files[@]}" | xargs -P"${KWB_TIDY_JOBS:-$(nproc)}" -I{} bash -c '
  out=$("$KWB_TIDY" -p "$KWB_TIDY_BUILD" --quiet --warnings-as-errors="*" --extra-arg=-w "$1" 2>&1) ||
    { printf "%s\n" "$out" | grep -v "warnings\? generated\.$" >&2; exit 1; }' _ {} || {
  echo "tidy: clang-tidy found warnings (above); fix them or, with a reason, NOLINT(check)" >&2
  exit 1
}
