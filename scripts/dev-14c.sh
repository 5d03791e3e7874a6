#!/usr/bin/env bash
# Problem families on a GPU (docs/FAMILIES.md): builds, runs the family GPU tests, the GEMM
# plan tests (unchanged behaviour), kwb verify / run for reduce and scan with whatever kernels
# the build registers, a GEMM run to compare with earlier numbers, and compute-sanitizer on
# small 1-D sizes. Logs go to $OUT/dev-14c/, packed into $OUT/dev-14c.tgz.
set -u
OUT=${OUT:-$PWD/out}
LOG=$OUT/dev-14c
mkdir -p "$LOG"
export PATH=/usr/local/cuda/bin:$PATH
step() { echo "=== $*" | tee -a "$LOG/summary.txt"; }
run() {  # run NAME CMD...: output to NAME.log, exit code to the summary
  local name=$1; shift
  local t0=$SECONDS
  "$@" >"$LOG/$name.log" 2>&1
  local rc=$?
  echo "$name: exit $rc ($((SECONDS - t0)) s)" | tee -a "$LOG/summary.txt"
}

step build
run build bash -c 'cmake -S . -B $PWD/build-gpu -G Ninja -DKWB_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a && cmake --build build-gpu -j16'
KWB=$PWD/build-gpu/cli/kwb
[ -x "$KWB" ] || KWB=$(find build-gpu -name kwb -type f -perm -u+x | head -1)
nvidia-smi >"$LOG/nvidia-smi.log" 2>&1

step tests
run test_families timeout 240 ./build-gpu/tests/gpu/test_families
run test_fault_plan timeout 240 ./build-gpu/tests/gpu/test_fault
run test_core timeout 120 ./build-gpu/tests/core/test_core --gtest_filter='Family*:Results*:Exporters*'
run list "$KWB" list

step verify
for fam in reduce scan; do
  run verify-$fam timeout 300 "$KWB" verify --family $fam \
    --sizes 0,1,31,33,1000003,2^20,2^28,2^30 --json "$LOG/verify-$fam.json"
done

step run
for fam in reduce scan; do
  run run-$fam timeout 300 "$KWB" run --suite $fam-benchmark --json "$LOG/run-$fam.json" \
    --csv "$LOG/run-$fam.csv" --md "$LOG/run-$fam.md"
done
run run-gemm timeout 200 "$KWB" run --shapes 1024,2048 --json "$LOG/run-gemm.json"
run compare-reduce "$KWB" compare "$LOG/run-reduce.json" "$LOG/run-reduce.json"

step sanitizer
if command -v compute-sanitizer >/dev/null; then
  for fam in reduce scan; do
    run sanitizer-$fam timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 \
      "$KWB" verify --family $fam --sizes 0,1,31,33,1000,4099
  done
fi

tar -czf "$OUT/dev-14c.tgz" -C "$OUT" dev-14c
echo "packed $OUT/dev-14c.tgz"
