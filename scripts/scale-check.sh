#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# GPU check of verification at scale (docs/VALIDATION.md "On the device", docs/MEASUREMENT.md
# "Bounded cases"): wall time and host peak RSS of the four-kernel run at large shapes, the
# budget skip, Ctrl-C, compute-sanitizer on ragged shapes, the GPU tests and the spec suites.
# Logs go to $LOG (default /tmp/kwb-scale), packed into $TGZ (default $LOG/scale.tgz). Usage:
#   scripts/scale-check.sh [build] [scale] [naive] [sigint] [sanitizer] [tests] [suites] [before]
# (no argument: all but `before`). `before` builds $BEFORE_REV (default c84e2f2, the tree before
# this work; needs the .git folder) in $PWD/build-before and times the same four-kernel runs. A step that would start after $BUDGET_S seconds (default 480)
# is skipped with a note, so one call stays within the device tool's 10 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${LOG:-/tmp/kwb-scale}
TGZ=${TGZ:-$OUT/scale.tgz}
BUDGET_S=${BUDGET_S:-480}
mkdir -p "$OUT"
B=${KWB_GPU_BUILD:-$PWD/build-gpu}
export PATH="/usr/local/cuda/bin:$PATH"
KWB=$B/cli/kwb
steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(build scale naive sigint sanitizer tests suites)
has() {
  [[ " ${steps[*]} " == *" $1 "* ]] || return 1
  if ((SECONDS > BUDGET_S)); then echo "=== $1: skipped, ${SECONDS} s used of ${BUDGET_S}"; return 1; fi
}
section() { echo; echo "=== $* ($(date +%T))"; }
FOUR=sgemm.warp_tiled,cublas.sgemm,sgemm.wgmma,cublas.hgemm_f32acc
# Wall seconds and peak RSS of one kwb command (the document in $OUT/NAME.json, the event
# stream in NAME.jsonl), then per case: status, samples, seconds from start to finish.
timed() {  # name, timeout, kwb args...
  local name=$1 limit=$2; shift 2
  /usr/bin/time -f "$name: wall %e s, peak RSS %M KB, exit %x" -o "$OUT/$name.time" \
    timeout "$limit" "$KWB" "$@" --json "$OUT/$name.json" --stream >"$OUT/$name.jsonl" 2>"$OUT/$name.err"
  cat "$OUT/$name.time"; grep -E "known-answer|warn|error" "$OUT/$name.err" | head -5
  python3 - "$OUT/$name.jsonl" <<'PY'
import json, sys
start = {}
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except Exception:
        continue
    if e["event"] == "case_started":
        start[e["index"]] = e["elapsedS"]
    elif e["event"] in ("case_finished", "case_failed"):
        r = e["result"]
        took = e["elapsedS"] - start.get(e["index"], e["elapsedS"])
        med = r.get("summary", {}).get("median", 0)
        print(f'  {r["kernel"]:22s} {r["shape"] if isinstance(r["shape"], str) else r["shape"]!s:18s} '
              f'{r["status"]:8s} samples={len(r.get("samplesMs", [])):3d} median={med:.3f} ms '
              f'case={took:6.2f} s  {r.get("message", "")[:150]}')
    elif e["event"] == "done":
        print(f'  done at {e["elapsedS"]:.2f} s, exit {e["exitCode"]}')
PY
}

if has before; then
  section "before: the four-kernel run at ${BEFORE_REV:=c84e2f2}"
  if git rev-parse --verify -q "$BEFORE_REV^{commit}" >/dev/null; then
    rm -rf /tmp/kwb-before-src && mkdir -p /tmp/kwb-before-src
    git archive "$BEFORE_REV" | tar -x -C /tmp/kwb-before-src
    [[ -d .deps ]] && cp -r .deps /tmp/kwb-before-src/
    cmake -S /tmp/kwb-before-src -B "$PWD/build-before" -G Ninja -DKWB_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES=${KWB_ARCH:-90a} >"$OUT/before-configure.log" 2>&1 &&
      cmake --build "$PWD/build-before" -j16 --target kwb >"$OUT/before-build.log" 2>&1 || echo "before: build failed"
    KWB_NOW=$KWB; KWB=$PWD/build-before/cli/kwb
    timed before-8192 90 run --kernels $FOUR --shapes 8192
    timed before-16384 150 run --kernels $FOUR --shapes 16384
    KWB=$KWB_NOW
  else
    echo "before: no git history here; the issue's figures (H100): 8192^3 21 s 1.5 GB, 16384^3 103 s 4.6 GB"
  fi
fi
if has build; then
  section build
  cmake -S . -B "$B" -G Ninja -DKWB_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=${KWB_ARCH:-90a} >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  cmake --build "$B" -j16 >"$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  echo built
fi
if has scale; then
  # Before (issue 13, H100): 8192^3 21 s 1.5 GB; 16384^3 103 s 4.6 GB; 24576x24576x8192 166 s 9.9 GB.
  # Wanted: 16384^3 <= 12 s, 24576x24576x8192 <= 20 s, peak RSS <= 1.5 GB, all pass, n >= 10.
  section "four kernels at scale"
  timed four-8192 90 run --kernels $FOUR --shapes 8192
  timed four-16384 100 run --kernels $FOUR --shapes 16384
  timed four-24576 120 run --kernels $FOUR --shapes 24576x24576x8192
fi
if has naive; then
  section "sgemm.naive 32768^3: must end < 5 s with a skip reason"
  timed naive-32768 60 run --kernels sgemm.naive --shapes 32768
fi
if has sigint; then
  section "Ctrl-C: ends within 1 s, exit 130, finished cases kept"
  # The second case (naive 8192^3, about a second a launch) is inside a launch or its warm-up
  # when the signal comes: the watchdog path. The first case must be in the outputs.
  "$KWB" run --kernels sgemm.naive --shapes 512,8192 --max-case-seconds 0 --max-time 30 \
    --json "$OUT/sigint.json" --stream >"$OUT/sigint.jsonl" 2>"$OUT/sigint.err" &
  pid=$!
  for _ in $(seq 600); do grep -q "^\[1/" "$OUT/sigint.err" && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  sleep 2  # inside the second case's sampling
  t0=$(date +%s.%N); kill -INT $pid; wait $pid; rc=$?; t1=$(date +%s.%N)
  echo "exit $rc (want 130) after $(python3 -c "print(round($t1 - $t0, 2))") s (want < 1)"
  python3 -c "import json;d=json.load(open('$OUT/sigint.json'));print([(c['kernel'],c['shape'],c['status'],c.get('message','')) for c in d['cases']])"
  tail -2 "$OUT/sigint.jsonl" | cut -c1-200
  tail -3 "$OUT/sigint.err"
fi
if has sanitizer; then
  section "compute-sanitizer memcheck: kwb verify on ragged shapes"
  timeout 200 compute-sanitizer --tool memcheck --print-limit 20 "$KWB" verify --shapes 129x65x33,17x31x47 \
    >"$OUT/memcheck.log" 2>&1
  echo "exit $?"; grep -E "ERROR SUMMARY|Invalid|cases pass|FAIL" "$OUT/memcheck.log" | tail -8
fi
if has tests; then
  section "ctest -L gpu"
  timeout 300 ctest --test-dir "$B" -L gpu --output-on-failure -j1 --timeout 150 >"$OUT/ctest-gpu.log" 2>&1
  grep -E "tests passed|tests failed|Failed|\*\*\*|Skipped" "$OUT/ctest-gpu.log" | tail -25
fi
if has suites; then
  section "spec-correctness and spec-benchmark"
  /usr/bin/time -f "spec-correctness: wall %e s, peak RSS %M KB" timeout 200 "$KWB" verify --suite spec-correctness \
    --json "$OUT/verify.json" >"$OUT/verify.txt" 2>&1; tail -4 "$OUT/verify.txt"
  timed spec-benchmark 240 run --suite spec-benchmark
fi
tar czf "$TGZ.tmp" -C "$OUT" --exclude '*.tgz*' . 2>/dev/null && mv "$TGZ.tmp" "$TGZ"
echo "logs: $TGZ"
