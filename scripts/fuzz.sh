#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets of tests/fuzz (clang, AddressSanitizer + UndefinedBehaviorSanitizer)
# and runs each for SECONDS (default 60), as many at once as there are cores (KWB_FUZZ_PARALLEL),
# from seed corpora made out of resources/ and tests/data/ (scripts/fuzz-corpus.py).
#   scripts/fuzz.sh [SECONDS]
# Exits 1 when any target crashed, hung, leaked or reported undefined behaviour; the input that
# did it is kept in build-fuzz/artifacts/ and the log in build-fuzz/<target>.log.
# KWB_FUZZ_TARGETS picks targets (default: all five); KWB_FUZZ_JOBS the build's parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=${KWB_FUZZ_TARGETS:-"fuzz_results fuzz_events fuzz_preset fuzz_shape fuzz_json"}
build=build-fuzz

cmake -S tests/fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" -j"${KWB_FUZZ_JOBS:-$(nproc)}"
rm -rf "$build/seeds"
python3 scripts/fuzz-corpus.py "$build/seeds"
mkdir -p "$build/artifacts"

# One target's run: its log, then 0 when it ended clean. Each libFuzzer process uses one core,
# so up to KWB_FUZZ_PARALLEL targets (default: the cores) run at once, each for the full time.
run_target() {
  local t=$1
  mkdir -p "$build/corpus/$t"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: 2 GiB is a memory blow-up.
  "$build/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" \
    "$build/corpus/$t" "$build/seeds/$t" >"$build/$t.log" 2>&1 || return 1
  # A sanitizer report that did not end the run (there should be none) fails it too.
  ! grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:" "$build/$t.log"
}

parallel=${KWB_FUZZ_PARALLEL:-$(nproc)}
declare -A pids=()
failed=()
# Waits for one running target (the oldest) and reports it.
reap() {
  local t=$1
  if wait "${pids[$t]}"; then
    echo "== $t: ${seconds} s"
    grep -E "^(Done|stat::number_of_executed_units)" "$build/$t.log" || true
  else
    failed+=("$t")
    echo "== $t FAILED (crash, hang, leak or sanitizer report); the end of $build/$t.log:"
    tail -n 40 "$build/$t.log"
  fi
  unset "pids[$t]"
}
running=()
for t in $targets; do
  if ((${#running[@]} >= parallel)); then
    reap "${running[0]}"
    running=("${running[@]:1}")
  fi
  run_target "$t" &
  pids[$t]=$!
  running+=("$t")
done
for t in "${running[@]}"; do reap "$t"; done
if ((${#failed[@]})); then
  echo "fuzz: failed: ${failed[*]}"
  exit 1
fi
echo "fuzz: every target ran ${seconds} s with no crash and no sanitizer report"
