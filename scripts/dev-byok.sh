#!/usr/bin/env bash
# GPU check of "bring your own kernel" (docs/BRING_YOUR_OWN.md): builds, runs the user-kernel
# tests, compares the user copy of sgemm.tiled with the built-in at 4096^3, runs both examples
# at 1024^3 and times "save to verified and timed result" with a cold and a warm NVRTC cache.
# Logs go to $OUT/byok/, tarred into $OUT/byok.tgz. Run from the repository root.
set -u
OUT=${OUT:-$PWD/out}
L=$OUT/byok
mkdir -p "$L"
finish() { tar -C "$OUT" -czf "$OUT/byok.tgz" byok; echo "logs: $OUT/byok.tgz"; }
trap finish EXIT
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi > "$L/nvidia-smi.txt" 2>&1
if ! { cmake -S . -B "$PWD/build-gpu" -G Ninja -DKWB_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_CUDA_ARCHITECTURES=90a && cmake --build build-gpu -j16; } > "$L/build.log" 2>&1; then
  tail -60 "$L/build.log"
  exit 1
fi
K=build-gpu/cli/kwb
EX=resources/examples
say() { echo "== $*" | tee -a "$L/summary.txt"; }

say "tests: user kernels (GPU) and kwb compile (CLI)"
ctest --test-dir build-gpu -R "UserKernel|CompileCli" --output-on-failure > "$L/tests.log" 2>&1
echo "ctest rc=$?" | tee -a "$L/summary.txt"
grep -E "tests passed|Passed|Failed|Skipped" "$L/tests.log" | tee -a "$L/summary.txt"

say "user copy of sgemm.tiled vs built-in at 4096^3"
$K run --source $EX/sgemm_tiled_user.cu --kernels sgemm.tiled,cublas.sgemm --shapes 4096 \
  --json "$L/tiled4096.json" > "$L/tiled4096.txt" 2> "$L/tiled4096.err"
echo "rc=$?" | tee -a "$L/summary.txt"
cat "$L/tiled4096.txt" | tee -a "$L/summary.txt"
python3 - "$L/tiled4096.json" <<'PY' | tee -a "$L/summary.txt"
import json, sys
d = json.load(open(sys.argv[1]))
med = {c["kernel"]: (sorted(c["samplesMs"])[len(c["samplesMs"]) // 2] if c["samplesMs"] else None, c["status"], c.get("sourceHash")) for c in d["cases"]}
print({k: v for k, v in med.items()})
u, b = med["user.sgemm_tiled_user"][0], med["sgemm.tiled"][0]
if u and b:
    diff = 100 * (u - b) / b
    print("user vs built-in median: %+.2f%% -> %s" % (diff, "WITHIN 3%" if abs(diff) <= 3 else "OUTSIDE 3%"))
PY

say "both examples at 1024^3"
$K run --source $EX/sgemm_tiled_user.cu --kernels sgemm.tiled,cublas.sgemm --shapes 1024 \
  > "$L/tiled1024.txt" 2>&1; echo "sgemm_tiled_user rc=$?" | tee -a "$L/summary.txt"
$K run --source $EX/hgemm_simple.cu --kernels cublas.hgemm_f32acc,cublas.sgemm --shapes 1024 \
  > "$L/hgemm1024.txt" 2>&1; echo "hgemm_simple rc=$?" | tee -a "$L/summary.txt"
grep -E "user\.|sgemm.tiled|cublas" "$L/tiled1024.txt" "$L/hgemm1024.txt" | tee -a "$L/summary.txt"

say "save to verified and timed result at 1024^3 (one kwb run, wall time)"
CACHE=$(mktemp -d)
TIMEFORMAT=%R
for pass in cold warm warm; do
  t=$( { time XDG_CACHE_HOME=$CACHE $K run --source $EX/sgemm_tiled_user.cu --kernels sgemm.tiled \
      --shapes 1024 > "$L/save-$pass.txt" 2>&1; } 2>&1 )
  echo "$pass NVRTC cache: ${t} s (rc in log)" | tee -a "$L/summary.txt"
  grep -E "compiled|wall time" "$L/save-$pass.txt" | tee -a "$L/summary.txt"
done
t=$( { time CUDA_CACHE_DISABLE=1 XDG_CACHE_HOME=$(mktemp -d) $K run --source \
    $EX/sgemm_tiled_user.cu --kernels sgemm.tiled --shapes 1024 > "$L/save-nocache.txt" 2>&1; } 2>&1 )
echo "cold NVRTC cache and no driver JIT cache: ${t} s" | tee -a "$L/summary.txt"
grep -E "compiled|wall time" "$L/save-nocache.txt" | tee -a "$L/summary.txt"

say "a compile error through kwb run exits 2"
$K run --source tests/data/byok/syntax_error.cu --shapes 256 > "$L/syntax.txt" 2>&1
echo "rc=$? (want 2)" | tee -a "$L/summary.txt"
head -3 "$L/syntax.txt" | tee -a "$L/summary.txt"

say "a kernel writing past C: its case fails, the next runs"
$K run --source tests/data/byok/writes_past_c.cu --kernels sgemm.naive --shapes 70x48x32 \
  > "$L/oob.txt" 2>&1
echo "rc=$? (want 1)" | tee -a "$L/summary.txt"
grep -E "writes_past_c|sgemm.naive" "$L/oob.txt" | tee -a "$L/summary.txt"
