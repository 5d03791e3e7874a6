#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Records, on a GPU machine, the event streams that drive the GUI's bring-your-own-kernel
# screenshot (docs/BRING_YOUR_OWN.md, "In the GUI"): the example kernel run before and after
# an edit, with exactly the engine command line kwb-gui uses for that request, and the stderr
# of a failed compile. Usage: scripts/record-byok-streams.sh KWB OUTDIR
#   OUTDIR/byok-before.jsonl      resources/examples/sgemm_tiled_user.cu as it is
#   OUTDIR/byok-after.jsonl       the same file (same name, so the case is the same
#                                 user.sgemm_tiled_user) with TM = 8 (8x4 micro-tiles, 128 threads)
#   OUTDIR/byok-after-bk16.jsonl  the same file with BK = 16 (a second edit, if the first fails)
#   OUTDIR/byok-compile-error.txt a planted undefined identifier: stderr and exit code
# Then, where Qt is (no GPU needed):
#   KWB_REPLAY_KWB=build/cli/kwb KWB_REPLAY_STREAMS=OUTDIR/byok-before.jsonl:OUTDIR/byok-after.jsonl \
#     build/gui/kwb-gui --engine scripts/kwb-replay-engine.sh --source COPY/sgemm_tiled_user.cu \
#     --kernels sgemm.tiled,cublas.sgemm --shapes 1024,2048 --screenshot docs/screenshots/byok-recompile.png
set -u
K=${1:?usage: record-byok-streams.sh KWB OUTDIR}
O=${2:?usage: record-byok-streams.sh KWB OUTDIR}
mkdir -p "$O"
EX=resources/examples/sgemm_tiled_user.cu
T=$(mktemp -d)
# What kwb-gui runs for kernels sgemm.tiled, cublas.sgemm, user.sgemm_tiled_user on 1024 and 2048
# (RunRequest::toArguments: the user case comes from --source, not --kernels).
args=(run --stream --kernels sgemm.tiled,cublas.sgemm --shapes 1024x1024x1024,2048x2048x2048)
record() {  # name file
  "$K" "${args[@]}" --source "$2" > "$O/$1.jsonl" 2> "$O/$1.stderr"
  echo "$1: exit $?; $(grep -c case_finished "$O/$1.jsonl") finished, $(grep -c case_failed "$O/$1.jsonl") failed"
  grep -E "user\.sgemm_tiled_user" "$O/$1.stderr" | grep -E "pass|fail|error|GFLOP" | head -4
}
mkdir -p "$T/before" "$T/after" "$T/bk16" "$T/broken"
cp "$EX" "$T/before/"
record byok-before "$T/before/sgemm_tiled_user.cu"
sed -e 's/block=256x1/block=128x1/' -e 's/TM = 4, TN = 4/TM = 8, TN = 4/' "$EX" \
  > "$T/after/sgemm_tiled_user.cu"
diff "$EX" "$T/after/sgemm_tiled_user.cu" > "$O/byok-after.diff"
record byok-after "$T/after/sgemm_tiled_user.cu"
sed -e 's/BK = 32/BK = 16/' "$EX" > "$T/bk16/sgemm_tiled_user.cu"
diff "$EX" "$T/bk16/sgemm_tiled_user.cu" > "$O/byok-after-bk16.diff"
record byok-after-bk16 "$T/bk16/sgemm_tiled_user.cu"
sed -e 's/const int tid = int(threadIdx.x);/const int tid = int(threadIdx.x) + undefined_thing;/' "$EX" \
  > "$T/broken/sgemm_tiled_user.cu"
"$K" "${args[@]}" --source "$T/broken/sgemm_tiled_user.cu" > "$O/byok-compile-error.stdout" \
  2> "$O/byok-compile-error.txt"
echo "exit $?" >> "$O/byok-compile-error.txt"
echo "compile error: $(tail -1 "$O/byok-compile-error.txt"), stdout $(wc -c < "$O/byok-compile-error.stdout") bytes"
head -3 "$O/byok-compile-error.txt"
rm -rf "$T"
