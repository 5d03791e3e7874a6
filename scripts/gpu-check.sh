#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The full GPU check in one call (docs/VALIDATION.md): build the engine and tests (no Qt),
# run the gpu-labelled tests, and the checks and benchmarks named by the arguments.
# Writes logs and results under $RES (default /tmp/kwb-out). Usage:
#   scripts/gpu-check.sh [build] [tests] [verify] [sanitizer] [ncu] [bench] [stream] [scaling]
#                        [repeat] [ncu-timer] [conformance] [families] [ratios] [tune] [perf]
#                        [ab] [profile] [kat] [kwbab] [profilers] [byok] [remote] [suites] [shards] [pool]
#                        [wgmma-splitk] [tensor-table]
# (no argument: build tests verify bench). byok: bring your own kernel (docs/BRING_YOUR_OWN.md):
# the user copy of sgemm.tiled against the built-in, both examples, save-to-result time with a
# cold and a warm NVRTC cache, a compile error and a write past C. remote: the GUI's remote path
# with a real engine, no Qt: kwb's stream reader leaving mid-case, and where an OpenSSH server
# can start here, a case and a cancel through ssh on 127.0.0.1 (CI does it without a GPU: ctest -L ssh).
# KWB_REVISION: the commit of the tree, given by the machine that sent it (the GPU machine's
# copy of .git may name an older commit). KWB_CUDA_FLAGS adds CUDA flags to the build:
# -DKWB_PERF_EXPERIMENT for `ab` (its environment switches exist only in such a build).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${RES:-/tmp/kwb-out}  # logs; pack them into the device tool's $OUT (it returns at most 8 files)
mkdir -p "$OUT"
B=${KWB_GPU_BUILD:-/tmp/kwb-build}
export PATH="/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH"
KWB=$B/cli/kwb
steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(build tests verify bench)
has() { [[ " ${steps[*]} " == *" $1 "* ]]; }
section() { echo; echo "=== $* ($(date +%T))"; }

if has build; then
  section build
  cmake -S . -B "$B" -G Ninja -DKWB_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=${KWB_ARCH:-90a} -DKWB_GIT_REVISION="${KWB_REVISION:-}" \
    -DCMAKE_CUDA_FLAGS="${KWB_CUDA_FLAGS:-}" >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  cmake --build "$B" -j16 >"$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  echo "built"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
  $KWB device | tee "$OUT/device.txt"
fi
if has tests; then
  section "ctest -L gpu"
  ctest --test-dir "$B" -L gpu --output-on-failure -j1 --timeout 150 >"$OUT/ctest-gpu.log" 2>&1
  grep -E "tests passed|tests failed|Failed|\*\*\*|Skipped" "$OUT/ctest-gpu.log" | tail -25
  section "ctest cpu+cli"
  ctest --test-dir "$B" -L "cpu|cli" -j8 2>&1 | tail -3
fi
if has verify; then
  section "kwb verify --suite spec-correctness"
  $KWB verify --suite spec-correctness --json "$OUT/verify.json" 2>&1 | tee "$OUT/verify.txt" | tail -80
fi
if has sanitizer; then
  section "ctest -L sanitizer (memcheck, racecheck, initcheck over every kernel; the planted read)"
  /usr/bin/time -f "wall %e s" ctest --test-dir "$B" -L sanitizer --output-on-failure -j1 >"$OUT/ctest-sanitizer.log" 2>&1
  grep -E "tests passed|tests failed|Failed|Passed|Skipped|wall|first report|=========" "$OUT/ctest-sanitizer.log" | head -40
  section "compute-sanitizer memcheck over kwb verify --suite spec-correctness"
  timeout 400 compute-sanitizer --tool memcheck --print-limit 20 $KWB verify --suite spec-correctness >"$OUT/memcheck.log" 2>&1
  echo "exit $?"; grep -E "ERROR SUMMARY|Invalid|error|cases pass" "$OUT/memcheck.log" | tail -8
  section "compute-sanitizer racecheck over the pipelined stages"
  timeout 150 compute-sanitizer --tool racecheck --print-limit 20 $KWB verify \
    --kernels sgemm.double_buffer,sgemm.register_blocked,sgemm.warp_tiled,sgemm.mma_multistage,sgemm.wgmma \
    --shapes 511x513x1025,256x384x640,512,17x19x23,2048x2048x64 >"$OUT/racecheck.log" 2>&1
  echo "exit $?"; grep -E "ERROR SUMMARY|hazard|cases pass" "$OUT/racecheck.log" | tail -8
  # wgmma's 2-CTA clusters start at 8 tiles per SM (33 x 32 tiles here); the slow stages would
  # be skipped under racecheck at this size.
  timeout 300 compute-sanitizer --tool racecheck --print-limit 20 $KWB verify --kernels sgemm.wgmma \
    --shapes 4224x8192x80 >"$OUT/racecheck-clusters.log" 2>&1
  echo "exit $?"; grep -E "ERROR SUMMARY|hazard|cases pass" "$OUT/racecheck-clusters.log" | tail -4
fi
if has ncu; then
  section "ncu shared-memory bank conflicts (1024^3)"
  for pair in sgemm.tiled:sgemmTiledKernel sgemm.bank_free:sgemmBankFreeKernel sgemm.double_buffer:sgemmDoubleBufferKernel; do
    k=${pair%%:*}; fn=${pair#*:}
    ncu -k regex:$fn --launch-count 1 \
      --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum \
      $KWB verify --kernels $k --shapes 1024 >"$OUT/ncu-$k.log" 2>&1
    echo "$k:"; grep -E "bank_conflicts|shared_ld|$fn" "$OUT/ncu-$k.log" | head -6
  done
fi
if has bench; then
  section "kwb run --suite spec-benchmark"
  /usr/bin/time -f "wall %e s" $KWB run --suite spec-benchmark --json "$OUT/spec-benchmark.json" \
    --csv "$OUT/spec-benchmark.csv" --md "$OUT/spec-benchmark.md" 2>"$OUT/bench.err" | tee "$OUT/bench.txt"
  tail -3 "$OUT/bench.err"
fi
if has families; then
  section "reduce and scan: suites, every size verified (boundary, prime, 2^30), memcheck at small sizes"
  $KWB list >"$OUT/list.txt" 2>&1; echo "kwb list: exit $?"; grep "^family" "$OUT/list.txt"
  for fam in reduce scan; do
    /usr/bin/time -f "wall %e s" $KWB run --suite $fam-benchmark --json "$OUT/$fam-benchmark.json" \
      --csv "$OUT/$fam-benchmark.csv" --md "$OUT/$fam-benchmark.md" 2>"$OUT/$fam.err" | tee "$OUT/$fam-benchmark.txt"
    tail -2 "$OUT/$fam.err"
    timeout 400 $KWB verify --family $fam --sizes 0,1,31,33,1000003,2^20,2^28,2^30 \
      --json "$OUT/verify-$fam.json" >"$OUT/verify-$fam.txt" 2>&1
    echo "verify $fam: exit $?"; tail -4 "$OUT/verify-$fam.txt"
    timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
      $KWB verify --family $fam --sizes 0,1,31,33,1000,4099 >"$OUT/memcheck-$fam.log" 2>&1
    echo "memcheck $fam (9: errors): exit $?"; grep -E "ERROR SUMMARY|Invalid|cases pass" "$OUT/memcheck-$fam.log" | tail -4
  done
  # A 1-D document against itself: every case SAME.
  $KWB compare "$OUT/reduce-benchmark.json" "$OUT/reduce-benchmark.json" >"$OUT/compare-reduce.txt" 2>&1
  echo "kwb compare reduce against itself: exit $?"; tail -4 "$OUT/compare-reduce.txt"
fi
if has suites; then
  section "every other family's benchmark suite (resources/presets/<family>-benchmark.json)"
  $KWB list >"$OUT/list.txt" 2>&1
  for fam in $(grep "^family" "$OUT/list.txt" | sed 's/^family \([a-z0-9_]*\):.*/\1/'); do
    [[ $fam == gemm || $fam == reduce || $fam == scan ]] && continue
    [[ -f resources/presets/$fam-benchmark.json ]] || { echo "$fam: no preset"; continue; }
    /usr/bin/time -f "$fam wall %e s" timeout 400 $KWB run --suite $fam-benchmark --json "$OUT/$fam-benchmark.json" \
      --md "$OUT/$fam-benchmark.md" 2>"$OUT/$fam.err" >"$OUT/$fam-benchmark.txt"
    echo "$fam-benchmark: exit $?"; tail -2 "$OUT/$fam.err"
    grep -E "progression|violation|explained|pass|fail|error" "$OUT/$fam-benchmark.txt" | grep -vE " pass$" | head -12
  done
fi
if has shards; then
  section "spec-benchmark as 4 shards on one GPU, merged, against one whole run"
  for i in 1 2 3 4; do
    $KWB run --suite spec-benchmark --shard $i/4 --json "$OUT/shard$i.json" >/dev/null 2>"$OUT/shard$i.err"
    echo "shard $i/4: exit $?"
  done
  $KWB merge "$OUT"/shard{1,2,3,4}.json -o "$OUT/merged.json" 2>&1 | tail -3; echo "merge: exit ${PIPESTATUS[0]}"
  $KWB run --suite spec-benchmark --json "$OUT/single.json" >/dev/null 2>"$OUT/single.err"
  $KWB compare "$OUT/single.json" "$OUT/merged.json" >"$OUT/compare-shards.txt" 2>&1
  echo "compare single vs merged: exit $?"; tail -3 "$OUT/compare-shards.txt"
fi
if has pool; then
  section "host pool: every GPU of this host (kwb run|tune --devices)"
  nvidia-smi -L
  for suite in spec-benchmark scaling; do
    for d in 0 all; do
      /usr/bin/time -f "$suite --devices $d: wall %e s" -o "$OUT/pool-$suite-$d.time" \
        $KWB run --suite $suite --devices $d --json "$OUT/pool-$suite-$d.json" >"$OUT/pool-$suite-$d.txt" 2>&1
      echo "$suite --devices $d: exit $? $(cat "$OUT/pool-$suite-$d.time")"
    done
    $KWB compare "$OUT/pool-$suite-0.json" "$OUT/pool-$suite-all.json" >"$OUT/pool-$suite-compare.txt" 2>&1
    echo "compare one GPU vs all: $(tail -1 "$OUT/pool-$suite-compare.txt")"
  done
  for d in 0 all; do
    /usr/bin/time -f "tune --devices $d: wall %e s" -o "$OUT/pool-tune-$d.time" $KWB tune --kernel sgemm.warp_tiled \
      --shapes 512,1024,2048,4096 --devices $d --json "$OUT/pool-tune-$d.json" >"$OUT/pool-tune-$d.txt" 2>&1
    echo "tune --devices $d: exit $? $(cat "$OUT/pool-tune-$d.time")"
  done
  python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
for name in ("spec-benchmark", "scaling"):
    d = json.load(open(f"{out}/pool-{name}-all.json"))
    devs = d.get("devices", [])
    used = sorted({c.get("device") for c in d["cases"]})
    print(f"{name} --devices all: {len(d['cases'])} cases on devices {used} of {[x.get('name') for x in devs]}")
PY
  # Two engines side by side must not slow each other: each size alone on GPU 0, then both sizes
  # at once on GPUs 0 and 1.
  $KWB run --shapes 2048,4096 --kernels sgemm.warp_tiled,cublas.sgemm --devices 0 --pool-shards 1 \
    --json "$OUT/pool-solo.json" >/dev/null 2>&1; echo "solo: exit $?"
  $KWB run --shapes 2048,4096 --kernels sgemm.warp_tiled,cublas.sgemm --devices all --pool-shards 2 \
    --json "$OUT/pool-pair.json" >/dev/null 2>&1; echo "pair: exit $?"
  $KWB compare "$OUT/pool-solo.json" "$OUT/pool-pair.json" >"$OUT/pool-interference.txt" 2>&1; tail -6 "$OUT/pool-interference.txt"
  # A worker killed mid-run: reported with its GPU, its shard rerun, the run still whole.
  $KWB run --suite scaling --devices all --json "$OUT/pool-kill.json" >"$OUT/pool-kill.txt" 2>&1 &
  pool=$!
  for _ in $(seq 100); do pgrep -f -- "--pool-serve" >/dev/null && break; sleep 0.1; done
  sleep 1; victim=$(pgrep -f -- "--pool-serve" | head -1); kill -9 "$victim" 2>/dev/null
  wait $pool; echo "killed worker $victim: pool exit $?"; grep -iE "died|again|gpu [0-9].*(killed|signal)" "$OUT/pool-kill.txt" | head -4
  python3 -c "import json;d=json.load(open('$OUT/pool-kill.json'));print(len(d['cases']),'cases,',sum(1 for c in d['cases'] if c['status']=='pass'),'pass')"
fi
if has ratios; then
  section "best stages against cuBLAS, one run (512^3 .. 8192^3, 511x513x1025)"
  $KWB run --kernels sgemm.warp_tiled,sgemm.wgmma,cublas.sgemm,cublas.hgemm_f32acc \
    --shapes 512,1024,2048,4096,8192,511x513x1025 --json "$OUT/ratios.json" 2>"$OUT/ratios.err" | tee "$OUT/ratios.txt"
fi
if has stream; then
  section "recorded stream of spec-benchmark"
  $KWB run --suite spec-benchmark --stream --json "$OUT/stream-doc.json" >"$OUT/spec-benchmark.jsonl" 2>"$OUT/stream.err"
  echo "exit $? lines $(wc -l <"$OUT/spec-benchmark.jsonl")"
fi
if has scaling; then
  section "kwb run --suite scaling"
  $KWB run --suite scaling --json "$OUT/scaling.json" 2>"$OUT/scaling.err" | tee "$OUT/scaling.txt" | tail -70
  tail -2 "$OUT/scaling.err"
fi
if has repeat; then
  section "spec-benchmark three times back to back: spread of medians, CI coverage, kwb compare"
  for i in 1 2 3; do
    /usr/bin/time -f "run $i: wall %e s" $KWB run --suite spec-benchmark --json "$OUT/repeat$i.json" >/dev/null 2>"$OUT/repeat$i.err"
    tail -1 "$OUT/repeat$i.err"
  done
  python3 scripts/median-spread.py "$OUT"/repeat{1,2,3}.json | tee "$OUT/repeat.txt" | tail -3
  # Reports the repeatability targets (docstring of repeat-check.py); it does not fail the step.
  python3 scripts/repeat-check.py --kwb $KWB "$OUT"/repeat{1,2,3}.json --json "$OUT/repeat-check.json" \
    | tee "$OUT/repeat-check.txt"
fi
if has ncu-timer; then
  section "kwb's timers against Nsight Compute gpu__time_duration"
  cases=${KWB_NCU_CASES:-"cublas.sgemm:512 cublas.hgemm_f32acc:512 sgemm.wgmma:512 sgemm.warp_tiled:512 cublas.sgemm:1024 cublas.hgemm_f32acc:1024 sgemm.wgmma:1024 sgemm.warp_tiled:1024 cublas.sgemm:4096 sgemm.wgmma:4096"}
  python3 scripts/ncu-compare.py $KWB "$OUT/ncu" $cases | tee "$OUT/ncu-timer.txt"
fi
if has perf; then
  section "performance stages at 4096^3, 1024^3, 511x513x1025"
  $KWB run --kernels sgemm.bank_free,sgemm.double_buffer,sgemm.tensor_core,sgemm.register_blocked,sgemm.warp_tiled,sgemm.mma_multistage,sgemm.wgmma,cublas.sgemm,cublas.hgemm_f32acc \
    --shapes 4096,8192,1024,512,511x513x1025 --json "$OUT/perf.json" 2>/dev/null | tee "$OUT/perf.txt"
  section "SASS of the stages"
  for f in "$B"/kernels/CMakeFiles/kwb_kernels.dir/*.cu.o; do
    [[ -e $f ]] || continue
    echo "$(basename $f): LDS.128=$(cuobjdump -sass $f | grep -c 'LDS.128') LDS=$(cuobjdump -sass $f | grep -cE 'LDS[ .]') HMMA=$(cuobjdump -sass $f | grep -c HMMA) LDSM=$(cuobjdump -sass $f | grep -c LDSM) LDGSTS=$(cuobjdump -sass $f | grep -c LDGSTS)"
  done
fi
if has tune; then
  section "tuning sweeps at 512^3, 1024^3, 4096^3: a choice per shape bucket"
  for k in warp_tiled mma_multistage; do
    $KWB tune --kernel sgemm.$k --shapes 512,1024,4096 --json "$OUT/tune-$k.json" >"$OUT/tune-$k.txt" 2>&1
    echo "tune sgemm.$k: exit $?"; sed -n '/^choice/,$p' "$OUT/tune-$k.txt" | head -12
  done
  section "kwb run --tuning: each shape runs its bucket's choice"
  $KWB run --kernels sgemm.warp_tiled,cublas.sgemm --shapes 512,768,1024,2048,4096,511x513x1025 \
    --tuning "$OUT/tune-warp_tiled.json" --json "$OUT/tuned-run.json" 2>"$OUT/tuned-run.err" | tee "$OUT/tuned-run.txt"
fi
if has wgmma-splitk; then
  section "sgemm.wgmma split-K: forced splits verified, every (tile width, splits) timed, the default against cuBLAS"
  "$B"/tests/gpu/test_sgemm --gtest_filter='*WgmmaSplitK*:*WgmmaEveryShape*' >"$OUT/wgmma-splitk-tests.txt" 2>&1
  echo "test_sgemm *WgmmaSplitK*: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/wgmma-splitk-tests.txt" | head -12
  W=512,768,1024,1000,256x384x640,511x513x1025,2048
  $KWB tune --kernel sgemm.wgmma --shapes $W --json "$OUT/tune-wgmma.json" >"$OUT/tune-wgmma.txt" 2>&1
  echo "tune sgemm.wgmma: exit $?"; sed -n '/^choice/,$p' "$OUT/tune-wgmma.txt" | head -12
  $KWB run --kernels sgemm.wgmma,cublas.hgemm_f32acc --shapes $W --json "$OUT/wgmma-default.json" \
    2>"$OUT/wgmma-default.err" | tee "$OUT/wgmma-default.txt"
fi
if has tensor-table; then
  section "the tensor-core table: the best stages of each precision against its cuBLAS, one run"
  $KWB run --kernels sgemm.warp_tiled,sgemm.mma_multistage,sgemm.wgmma,sgemm.wgmma_bf16,cublas.sgemm,cublas.hgemm_f32acc,cublas.bgemm_f32acc \
    --shapes 256,512,768,1024,1000,2048,4096,8192,511x513x1025,256x384x640,1000x1001x1000,800,3000 \
    --json "$OUT/tensor-table.json" 2>"$OUT/tensor-table.err" | tee "$OUT/tensor-table.txt"
fi
if has conformance; then
  section "kwb conformance"
  $KWB conformance --json "$OUT/conformance.json" 2>&1 | tee "$OUT/conformance.txt" | tail -60
fi
if has ab; then
  section "A/B (KWB_PERF_EXPERIMENT build): wgmma clusters, epilogue and tile-group height; warp_tiled tiles (KWB_AB_WT)"
  W="--kernels sgemm.wgmma,cublas.hgemm_f32acc --shapes 2048,4096,8192 --no-cupti-check"
  ab() {  # label, then environment assignments
    local label=$1; shift
    echo "-- sgemm.wgmma $label"
    env "$@" timeout 300 $KWB run $W 2>/dev/null | tee -a "$OUT/ab-wgmma.txt" | grep -E "wgmma|hgemm"
  }
  for rep in 1 2; do
    ab "cluster 2, TMA epilogue (round $rep)" KWB_WGMMA_CLUSTER=2
    ab "no cluster, TMA epilogue (round $rep)" KWB_WGMMA_CLUSTER=1
  done
  ab "no cluster, register epilogue" KWB_WGMMA_CLUSTER=1 KWB_WGMMA_EPILOGUE=direct
  ab "cluster 2, 4 units per group" KWB_WGMMA_CLUSTER=2 KWB_WGMMA_GROUP=4
  ab "no cluster, 16 tiles per group" KWB_WGMMA_CLUSTER=1 KWB_WGMMA_GROUP=16
  F="--kernels sgemm.warp_tiled,cublas.sgemm --shapes 4096,8192 --no-cupti-check"
  for cfg in ${KWB_AB_WT:-}; do
    echo "-- sgemm.warp_tiled $cfg"
    KWB_WT_CFG=$cfg timeout 300 $KWB run $F 2>/dev/null | tee -a "$OUT/ab-wt-$cfg.txt" | grep -E "warp_tiled|cublas"
  done
fi
if has profile; then
  section "ncu sections of the timed samples (clocks uncontrolled)"
  for c in ${KWB_PROFILE_CASES:-sgemm.warp_tiled:4096 cublas.sgemm:4096 sgemm.wgmma:4096 cublas.hgemm_f32acc:4096}; do
    k=${c%%:*}; shape=${c#*:}
    ncu --clock-control none --nvtx --nvtx-include kwb_samples/ -k regex:"gemm|Gemm|nvjet|xmma" --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
      --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section LaunchStats \
      $KWB run --kernels $k --shapes $shape --timer host --samples 1 --no-cupti-check >"$OUT/profile-$k-$shape${KWB_PROFILE_TAG:-}.txt" 2>&1
    echo "== $k $shape ${KWB_PROFILE_TAG:-}: exit $?"
    grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|SM Frequency|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|Active Warps Per Scheduler|Eligible Warps|Warp Cycles Per Issued|Registers Per|Achieved Occupancy|L2 Hit Rate|Memory Throughput|Executed Ipc A|L2 Cache Throughput|DRAM Throughput|Cluster Size|Grid Size|Waves Per SM" "$OUT/profile-$k-$shape${KWB_PROFILE_TAG:-}.txt" | head -24
  done
fi
if has kat; then
  section "verdict known answers (spin 100/100 and 100/103 us, 20 repetitions) and the timer's"
  $B/tests/gpu/test_verdict_kat 2>&1 | tee "$OUT/verdict-kat.txt" | grep -E "OK|FAILED|against itself|Failure|Expected|SAME in|SLOWER in" | head -20
  $B/tests/gpu/test_timer --gtest_filter='Timer.KnownAnswer*:Timer.Cupti*' 2>&1 | tee "$OUT/timer-kat.txt" | grep -E "spin|OK|FAILED|Failure|Expected|Which is|actual" | head -30
fi
if has kwbab; then
  section "kwb ab: a kernel against itself, two stages, two versions of a user kernel"
  $KWB ab sgemm.tiled sgemm.tiled --shapes 512 2>&1 | tail -8
  $KWB ab sgemm.tiled sgemm.bank_free --shapes 512,1024 --json "$OUT/ab.json" 2>&1 | tail -8
  $KWB ab cub.reduce_sum reduce.vectorized --family reduce --sizes 2^24 --types f32 2>&1 | tail -6
  src=resources/examples/sgemm_tiled_user.cu
  if [[ -f $src ]]; then
    $KWB ab --against $src --source $src --shapes 1024 2>&1 | tail -6
  fi
  # Two builds of kwb: this kwb is its own other build here (SAME), then a slower stage there.
  $KWB ab sgemm.tiled --against-kwb "$KWB" --shapes 512,2048 --json "$OUT/ab-builds.json" 2>&1 | tail -8
  $KWB ab sgemm.naive sgemm.tiled --against-kwb "$KWB" --shapes 1024 2>&1 | tail -5
fi
if has profilers; then
  section "kwb under Nsight Compute and Nsight Systems"
  ncu --target-processes all env 2>/dev/null | grep -iE "inject|nsight|nsys|ncu" | head -5
  /usr/bin/time -f "ncu wall %e s" timeout 400 ncu --clock-control none $KWB run --shapes 512 \
    --json "$OUT/ncu-run.json" >"$OUT/ncu-run.log" 2>&1
  echo "ncu --clock-control none kwb run --shapes 512: exit $?"
  grep -E "running under|\[warn\]|\[error\]|kwb:|wall" "$OUT/ncu-run.log" | head -8
  NSYS=$(command -v nsys || ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys /usr/local/cuda/bin/nsys 2>/dev/null | head -1)
  if [[ -n $NSYS ]]; then
    /usr/bin/time -f "nsys wall %e s" timeout 300 $NSYS profile -o /tmp/kwb-nsys --force-overwrite true \
      $KWB run --shapes 512 --json "$OUT/nsys-run.json" >"$OUT/nsys-run.log" 2>&1
    echo "nsys profile kwb run --shapes 512 ($NSYS): exit $?"
    grep -E "running under|\[warn\]|\[error\]|kwb:|wall|exit|rror" "$OUT/nsys-run.log" | head -8
    python3 -c "import json;d=json.load(open('$OUT/nsys-run.json'));print('nsys document: profiler', repr(d['settings']['profiler']), 'timer', d['settings']['timer'], sum(1 for c in d['cases'] if c['samplesMs']), 'timed cases')"
  else
    echo "no nsys on this machine"
  fi
  python3 -c "import json;d=json.load(open('$OUT/ncu-run.json'));print('ncu document: profiler', repr(d['settings']['profiler']), 'timer', d['settings']['timer'], sum(1 for c in d['cases'] if c['samplesMs']), 'timed cases')"
fi
if has byok; then
  EX=resources/examples
  section "bring your own kernel: the user copy of sgemm.tiled against the built-in at 4096^3 (within 3%)"
  $KWB run --source $EX/sgemm_tiled_user.cu --kernels sgemm.tiled,cublas.sgemm --shapes 4096 \
    --json "$OUT/byok-tiled4096.json" 2>"$OUT/byok-tiled4096.err" | tee "$OUT/byok-tiled4096.txt"
  echo "exit ${PIPESTATUS[0]}"
  python3 - "$OUT/byok-tiled4096.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
med = {c["kernel"]: (sorted(c["samplesMs"])[len(c["samplesMs"]) // 2] if c["samplesMs"] else None,
                     c["status"], c.get("sourceHash")) for c in d["cases"]}
print(med)
u, b = med.get("user.sgemm_tiled_user", (None,))[0], med.get("sgemm.tiled", (None,))[0]
if u and b:
    diff = 100 * (u - b) / b
    print("user vs built-in median: %+.2f%% -> %s" % (diff, "WITHIN 3%" if abs(diff) <= 3 else "OUTSIDE 3%"))
else:
    print("user vs built-in median: not both timed")
PY
  section "bring your own kernel: both examples at 1024^3"
  $KWB run --source $EX/sgemm_tiled_user.cu --kernels sgemm.tiled,cublas.sgemm --shapes 1024 \
    >"$OUT/byok-tiled1024.txt" 2>&1
  echo "sgemm_tiled_user: exit $?"
  $KWB run --source $EX/hgemm_simple.cu --kernels cublas.hgemm_f32acc,cublas.sgemm --shapes 1024 \
    >"$OUT/byok-hgemm1024.txt" 2>&1
  echo "hgemm_simple: exit $?"
  grep -E "user\.|sgemm.tiled|cublas" "$OUT/byok-tiled1024.txt" "$OUT/byok-hgemm1024.txt"
  section "bring your own kernel: save to verified and timed result at 1024^3 (one kwb run, wall time)"
  cache=$(mktemp -d); nocache=$(mktemp -d)
  for pass in cold warm warm-again; do
    XDG_CACHE_HOME=$cache /usr/bin/time -f "$pass NVRTC cache: wall %e s, exit %x" -o "$OUT/byok-save-$pass.time" \
      $KWB run --source $EX/sgemm_tiled_user.cu --kernels sgemm.tiled --shapes 1024 >"$OUT/byok-save-$pass.txt" 2>&1
    cat "$OUT/byok-save-$pass.time"; grep -E "compiled|wall time" "$OUT/byok-save-$pass.txt"
  done
  CUDA_CACHE_DISABLE=1 XDG_CACHE_HOME=$nocache /usr/bin/time \
    -f "cold NVRTC cache and no driver JIT cache: wall %e s, exit %x" -o "$OUT/byok-save-nocache.time" \
    $KWB run --source $EX/sgemm_tiled_user.cu --kernels sgemm.tiled --shapes 1024 >"$OUT/byok-save-nocache.txt" 2>&1
  cat "$OUT/byok-save-nocache.time"; grep -E "compiled|wall time" "$OUT/byok-save-nocache.txt"
  rm -rf "$cache" "$nocache"
  section "bring your own kernel: a compile error exits 2; a kernel writing past C fails its case, the next runs"
  $KWB run --source tests/data/byok/syntax_error.cu --shapes 256 >"$OUT/byok-syntax.txt" 2>&1
  echo "compile error: exit $? (want 2)"; head -3 "$OUT/byok-syntax.txt"
  $KWB run --source tests/data/byok/writes_past_c.cu --kernels sgemm.naive --shapes 70x48x32 >"$OUT/byok-oob.txt" 2>&1
  echo "write past C: exit $? (want 1)"; grep -E "writes_past_c|sgemm.naive" "$OUT/byok-oob.txt"
fi
if has remote; then
  # The GUI's remote path with a real engine, no Qt. Summary lines also in $OUT/remote.txt.
  say() { echo "$*" | tee -a "$OUT/remote.txt"; }
  : >"$OUT/remote.txt"
  section "remote 1: kwb's stdout closed mid-case (a case of a million samples, minutes, unless the engine notices)"
  # The reader reads up to case_started, waits 2 s into the case, and leaves.
  ( timeout 300 $KWB run --stream --kernels cublas.sgemm --shapes 1024 --samples 1000000 \
      2>"$OUT/remote-closed-stdout.stderr"; echo $? >"$OUT/remote-closed-stdout.rc"
    date +%s.%N >"$OUT/remote-closed-stdout.end" ) |
    python3 -c '
import sys, time
for line in sys.stdin:
    sys.stdout.write(line)
    if "case_started" in line:
        time.sleep(2)
        break
sys.stdout.flush()
open(sys.argv[1], "w").write(repr(time.time()))
' "$OUT/remote-closed-stdout.left" >"$OUT/remote-closed-stdout.jsonl"
  secs=$(python3 -c "print(f'{float(open(\"$OUT/remote-closed-stdout.end\").read()) - float(open(\"$OUT/remote-closed-stdout.left\").read()):.1f}')")
  say "kwb ended ${secs} s after its reader left mid-case, exit $(cat "$OUT/remote-closed-stdout.rc");" \
    "$(grep -c case_started "$OUT/remote-closed-stdout.jsonl") case_started seen;" \
    "stderr: $(grep -c 'reader is gone' "$OUT/remote-closed-stdout.stderr") 'reader is gone' line(s)"
  if ! grep -q case_started "$OUT/remote-closed-stdout.jsonl"; then say "FAIL: no case started (remote-closed-stdout.stderr)"
  elif python3 -c "import sys; sys.exit(0 if $secs < 10 else 1)"; then say "PASS: ended long before its million-sample case could"
  else say "FAIL: kwb ran on for ${secs} s after its reader left"; fi

  section "remote 2: a spec-benchmark case and a cancel through ssh to an sshd on 127.0.0.1"
  remote_sshd_pid='' remote_tmp=''
  remote_cleanup() {
    [[ -n $remote_sshd_pid ]] && kill "$remote_sshd_pid" 2>/dev/null
    [[ -n $remote_tmp ]] && rm -rf "$remote_tmp"
    remote_sshd_pid='' remote_tmp=''
  }
  trap remote_cleanup EXIT
  remote_ssh() {
    local sshd t port user rc replay check before gone start secs ssh_pid
    sshd=$(command -v sshd || ls /usr/sbin/sshd 2>/dev/null || true)
    if [[ -z $sshd ]] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
      say "SKIPPED: no OpenSSH server/client here (sshd: ${sshd:-absent}, ssh: $(command -v ssh || echo absent));"
      say "this machine has no internet to install one. CI runs the same through a real sshd: ctest -L ssh."
      return
    fi
    t=$(mktemp -d /tmp/kwb-ssh-XXXXXX); remote_tmp=$t
    chmod 700 "$t"
    [[ $(id -u) == 0 ]] && mkdir -p /run/sshd
    for k in host_key user_key; do ssh-keygen -q -t ed25519 -N "" -f "$t/$k" -C "kwb-gpu-check $k"; done
    cp "$t/user_key.pub" "$t/authorized_keys"; chmod 600 "$t/authorized_keys"
    port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
    user=$(id -un)
    cat >"$t/sshd_config" <<CFG
ListenAddress 127.0.0.1
Port $port
HostKey $t/host_key
PidFile none
AuthorizedKeysFile $t/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $user
CFG
    cat >"$t/ssh_config" <<CFG
Host localhost
  HostName 127.0.0.1
  Port $port
  User $user
  IdentityFile $t/user_key
  IdentitiesOnly yes
  IdentityAgent none
  HostKeyAlias kwb-gpu-check
  UserKnownHostsFile $t/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
CFG
    echo "kwb-gpu-check $(cat "$t/host_key.pub")" >"$t/known_hosts"
    "$sshd" -D -e -f "$t/sshd_config" 2>"$OUT/remote-sshd.log" &
    remote_sshd_pid=$!
    for _ in $(seq 50); do grep -q "Server listening" "$OUT/remote-sshd.log" && break; sleep 0.1; done
    if ! grep -q "Server listening" "$OUT/remote-sshd.log"; then
      say "SKIPPED: sshd ($sshd) did not start: $(tail -3 "$OUT/remote-sshd.log" | tr '\n' ' ')"
      say "CI runs the same through a real sshd: ctest -L ssh."
      return
    fi
    say "sshd listening on 127.0.0.1:$port as $user"
    # A unique path for the remote engine, so its processes can be found afterwards.
    ln -sf "$KWB" "$t/kwb-remote-marker"
    # The engine driver's command line (gui/engine/ssh_command.cpp), plus -F for the throw-away config.
    local -a ssh_cmd=(ssh -T -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=5
                      -o ServerAliveCountMax=3 -F "$t/ssh_config" -- localhost)
    printf '%q ' "${ssh_cmd[@]}" "'$t/kwb-remote-marker' run --stream --kernels sgemm.tiled --shapes 1024" \
      >"$OUT/remote-ssh-command.txt"
    timeout 300 "${ssh_cmd[@]}" "'$t/kwb-remote-marker' run --stream --kernels sgemm.tiled --shapes 1024" \
      >"$OUT/remote.jsonl" 2>"$OUT/remote.stderr"
    rc=$?
    say "one spec-benchmark case (sgemm.tiled at 1024^3) through ssh: exit $rc, $(wc -l <"$OUT/remote.jsonl") events"
    if $KWB replay --speed 0 "$OUT/remote.jsonl" >/dev/null 2>"$OUT/remote-replay.stderr"; then replay=0; else replay=$?; fi
    python3 - "$OUT/remote.jsonl" >"$OUT/remote-stream-check.txt" 2>&1 <<'PY'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1])]
kinds = [e["event"] for e in events]
assert kinds[0] == "hello" and kinds[-1] == "done", kinds
assert "device" in kinds and "plan" in kinds, kinds
finished = [e for e in events if e["event"] in ("case_finished", "case_failed")]
assert len(finished) == 1, finished
r = finished[0]["result"]
print(f'protocol {events[0]["protocolVersion"]}, device {next(e for e in events if e["event"]=="device")["device"]["name"]}')
print(f'{r["kernel"]} {r["shape"]}: {r["status"]}, median {r.get("summary", {}).get("median")} ms, {r.get("gflops")} GFLOP/s')
PY
    check=$?
    tail -3 "$OUT/remote-stream-check.txt" | tee -a "$OUT/remote.txt"
    if [[ $rc -le 1 && $replay -le 1 && $check == 0 ]]; then
      say "PASS: the stream through ssh is complete and kwb replay reads it (replay exit $replay)"
    else say "FAIL: ssh exit $rc, replay exit $replay, stream check $check"; fi

    # Cancel through ssh: the ssh client killed while a case of a million samples runs; the remote kwb must go.
    "${ssh_cmd[@]}" "'$t/kwb-remote-marker' run --stream --kernels cublas.sgemm --shapes 2048 --samples 1000000" \
      >"$OUT/remote-cancel.jsonl" 2>"$OUT/remote-cancel.stderr" &
    ssh_pid=$!
    for _ in $(seq 300); do grep -q case_started "$OUT/remote-cancel.jsonl" 2>/dev/null && break; sleep 0.1; done
    before=$(pgrep -fc "$t/kwb-remote-marker run" || true)
    kill -TERM "$ssh_pid" 2>/dev/null; wait "$ssh_pid" 2>/dev/null
    start=$(date +%s.%N); gone=no
    for _ in $(seq 150); do pgrep -f "$t/kwb-remote-marker run" >/dev/null || { gone=yes; break; }; sleep 0.1; done
    secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
    say "cancel: $before remote kwb before, gone=$gone ${secs} s after the ssh client ended"
    if [[ $before -ge 1 && $gone == yes ]]; then say "PASS: no kwb left on the server after cancel"
    else
      say "FAIL: remote kwb still running (or never started)"
      pkill -f "$t/kwb-remote-marker run" 2>/dev/null
    fi
  }
  remote_ssh
  remote_cleanup
  trap - EXIT
fi
