#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The host pool's speedup on a machine with several GPUs (docs/SCALE_OUT.md, "Every GPU of a
# host"): the wall time of each workload on one GPU (a plain run on device 0) against
# `--devices all`, and the ratio, with the issue's goal for the GPU count (1.8x on 2, 3.5x on 4).
# Also checks that a pool worker measures the device once: its second shard reuses the first's
# copy roof and launch overhead. Usage:
#   scripts/pool-speedup.sh [KWB] [OUTDIR]     (default: build/cli/kwb, /tmp/kwb-pool-speedup)
# Each workload runs REPEAT times (default 1) per side; the best wall time counts. XL=1 and XXL=1
# add the long sweeps; SMALL=0 runs only those.
set -uo pipefail
KWB=${1:-build/cli/kwb}
OUT=${2:-/tmp/kwb-pool-speedup}
REPEAT=${REPEAT:-1}
mkdir -p "$OUT"
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
[[ $gpus -ge 1 ]] || { echo "pool-speedup: no GPU (nvidia-smi -L lists none)"; exit 3; }
nvidia-smi -L
case $gpus in 1) goal=1.0 ;; 2) goal=1.8 ;; 3) goal=2.6 ;; *) goal=$(python3 -c "print(3.5*$gpus/4)") ;; esac

now() { date +%s.%N; }
# best_wall NAME ARGS...: runs kwb ARGS REPEAT times, prints the best wall seconds.
best_wall() {
  local name=$1 best="" t0 t1 rc
  shift
  for i in $(seq "$REPEAT"); do
    t0=$(now)
    "$KWB" "$@" >"$OUT/$name.$i.out" 2>"$OUT/$name.$i.err"
    rc=$?
    t1=$(now)
    # Exit 1: the run finished but some case failed its checks: timed all the same, and said.
    [[ $rc -eq 1 ]] && echo "$name: exit 1 (a case failed its checks); see $OUT/$name.$i.out" >&2
    if [[ $rc -gt 1 ]]; then
      echo "$name: exit $rc; see $OUT/$name.$i.err" >&2; tail -3 "$OUT/$name.$i.err" >&2
      echo "failed"; return
    fi
    best=$(python3 -c "a='$best'; b=$t1-$t0; print(b if not a else min(float(a), b))")
  done
  echo "$best"
}

printf '%-52s %9s %9s %8s %s\n' workload "1 GPU s" "all s" speedup "goal ${goal}x on $gpus GPU(s)"
row() {
  local name=$1 one=$2 all=$3
  if [[ $one == failed || $all == failed ]]; then printf '%-52s %s\n' "$name" "a run failed (above)"; return; fi
  python3 -c "
one, all, goal = $one, $all, $goal
r = one / all
print(f'%-52s %9.2f %9.2f %7.2fx %s' % ('$name', one, all, r, 'met' if r >= goal else 'NOT met'))"
}

ONE=0
run_pair() {
  local name=$1
  shift
  local all
  ONE=$(best_wall "$name-one" "$@" --device 0 --json "$OUT/$name-one.json")
  all=$(best_wall "$name-all" "$@" --devices all --json "$OUT/$name-all.json")
  row "$*" "$ONE" "$all"
}
# timelines: where each pool's time went (each GPU's shards, est against actual, its worker's exit).
timelines() {
  for f in "$OUT"/*-all.1.err "$OUT"/*-hints.1.err; do
    [[ -f $f ]] && { echo "$(basename "$f" .1.err):"; grep -E "^kwb: GPU |^wall time" "$f"; }
  done
}
# SMALL=0: only the long sweeps (XL, XXL) and their timelines, none of the short workloads below.
if [[ ${SMALL:-1} == 1 ]]; then
run_pair spec run --suite spec-benchmark
plain=$ONE
run_pair scaling run --suite scaling
scaling1=$ONE
# The pool cut by an earlier run's measured case times (--cost-hints) instead of the cost model:
# HINTS_DIR holds <suite>-*.json documents of that suite (e.g. resources/samples/h200).
if [[ -n ${HINTS_DIR:-} ]]; then
  for suite in spec-benchmark scaling; do
    hints=$(ls "$HINTS_DIR/$suite"-*.json 2>/dev/null | head -1)
    [[ -n $hints ]] || continue
    one=$plain
    [[ $suite == scaling ]] && one=$scaling1
    all=$(best_wall "$suite-hints" run --suite "$suite" --devices all --cost-hints "$hints" \
      --json "$OUT/$suite-hints.json")
    row "run --suite $suite --cost-hints $(basename "$hints")" "$one" "$all"
  done
fi
run_pair tune tune --kernel sgemm.warp_tiled --shapes 512,1024,2048,4096
run_pair tune-wide tune --kernel sgemm.warp_tiled \
  --shapes 256,512,768,1024,1536,2048,3072,4096,1000,511x513x1025
# A sweep of hundreds of configurations: every sgemm.wgmma tile and split on 14 shapes (sm_90a
# builds; elsewhere the row says the kernel is missing).
run_pair tune-large tune --kernel sgemm.wgmma \
  --shapes 256,512,768,1024,1536,2048,3072,4096,6144,8192,1000,511x513x1025,256x384x640,1000x1001x1000
fi
# XL=1: a sweep long enough for four GPUs to pay (about 38 s on one H200; docs/SCALE_OUT.md: each
# engine's own start bounds a shorter one), 868 configurations over 31 shapes.
if [[ ${XL:-0} == 1 ]]; then
  run_pair tune-xl tune --kernel sgemm.wgmma --shapes \
    256,384,512,640,768,896,1024,1280,1536,1792,2048,2560,3072,3584,4096,5120,6144,7168,8192,1000,2000,3000,5000,6000,1000x1001x1000,511x513x1025,256x384x640,4096x1024x4096,1024x4096x1024,3000x1000x3000,777x1555x999
fi
# XXL=1: twice as many shapes (62, about 1740 configurations): a sweep of the size the pool is for.
if [[ ${XXL:-0} == 1 ]]; then
  run_pair tune-xxl tune --kernel sgemm.wgmma --shapes \
    256,384,512,640,768,896,1024,1280,1536,1792,2048,2560,3072,3584,4096,5120,6144,7168,8192,1000,2000,3000,5000,6000,1000x1001x1000,511x513x1025,256x384x640,4096x1024x4096,1024x4096x1024,3000x1000x3000,777x1555x999,320,448,576,704,832,960,1152,1408,1664,1920,2304,2816,3328,3840,4608,5632,6656,1500,2500,3500,4500,1200x800x1600,2048x512x2056,512x2048x520,8192x1024x1032,1024x8192x1040,1024x1024x8200,600x700x800,1800x1200x900,4000x2000x1008,2000x3000x1016
fi
[[ ${SMALL:-1} == 1 ]] || { timelines; exit 0; }
# On a host of 4 or more GPUs, the same workloads on two of them: the 2-GPU figure of one host.
if [[ $gpus -ge 4 ]]; then
  for name in spec scaling; do
    args=(run --suite spec-benchmark) one=$plain
    [[ $name == scaling ]] && args=(run --suite scaling) one=$scaling1
    two=$(best_wall "$name-two" "${args[@]}" --devices 0,1 --json "$OUT/$name-two.json")
    goal=1.8 row "${args[*]} on GPUs 0,1" "$one" "$two"
  done
fi
# The pool on one GPU against the plain run: what the shards and the worker cost on their own
# (below 1x: the overhead).
pool0=$(best_wall spec-pool0 run --suite spec-benchmark --devices 0 --json "$OUT/spec-pool0.json")
row "spec-benchmark: plain run vs --devices 0" "$plain" "$pool0"
# Where the pool's time went (each GPU's shards, est against actual, and its worker's exit), and
# how long the plain run took past its own document's wall time (its start and its exit).
timelines
python3 - "$OUT" "$plain" <<'PY'
import json, sys
d = json.load(open(f"{sys.argv[1]}/spec-one.json"))
print(f"plain spec-benchmark run: {d['wallSeconds']:.2f} s in its document, "
      f"{float(sys.argv[2]) - d['wallSeconds']:.2f} s more to start and exit")
PY
# The same cases timed by a pool's worker, shard after shard, and by a plain run: a worker must
# measure as a plain run does (no FASTER or SLOWER; a few UNCERTAIN are the interval's width).
for other in spec-pool0 spec-all; do
  echo "kwb compare spec-one $other: $("$KWB" compare "$OUT/spec-one.json" "$OUT/$other.json" 2>&1 | tail -1)"
done

# Where the cases' time went, a plain run's against the pool's shards (verify, timed rounds,
# finish, and the host's cost per timed sample): scripts/stream-phases.py on both streams.
"$KWB" run --suite spec-benchmark --device 0 --stream >"$OUT/spec-one.jsonl" 2>/dev/null
"$KWB" run --suite spec-benchmark --devices all --stream >"$OUT/spec-all.jsonl" 2>/dev/null
python3 "$(dirname "$0")/stream-phases.py" "$OUT/spec-one.jsonl" "$OUT/spec-all.jsonl"

# A worker measures the device once: two shards through one `--pool-serve` worker, of a memory
# family's suite (a GEMM-only plan measures no copy roof).
req() { printf '{"op":"shard","shard":"%s","json":"%s"}\n' "$1" "$2"; }
{ req 1/2 "$OUT/serve-1.json"; req 2/2 "$OUT/serve-2.json"; } |
  CUDA_VISIBLE_DEVICES=0 "$KWB" run --suite reduce-benchmark --pool-serve --device 0 --stream \
    >"$OUT/serve.jsonl" 2>"$OUT/serve.err"
echo "pool-serve worker, two shards: exit $?; shard_end lines: $(grep -c shard_end "$OUT/serve.jsonl")"
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
if not all(os.path.exists(f"{out}/serve-{i}.json") for i in (1, 2)):
    sys.exit(f"the worker wrote no shard documents; see {out}/serve.err")
a, b = (json.load(open(f"{out}/serve-{i}.json")) for i in (1, 2))
same = lambda k: (a.get(k), b.get(k))
lo = same("launchOverhead")
dev = lambda d: (d.get("devices") or [d.get("device") or {}])[0]
cp = (dev(a).get("copyBandwidthGBs"), dev(b).get("copyBandwidthGBs"))
print("second shard reuses the launch overhead:", lo[0] == lo[1] and lo[0] is not None, lo)
print("second shard reuses the copy roof:", cp[0] == cp[1] and (cp[0] or 0) > 0, cp)
print("cases:", len(a["cases"]), "+", len(b["cases"]), "; known answer:", a["knownAnswer"]["passed"], b["knownAnswer"]["passed"])
PY
