#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Renders the screenshots in docs/screenshots/ headless from the bundled samples (no display,
# no GPU): every tab of the H200 spec-benchmark run at 1920x1080 (NAME.png) and 1280x720
# (NAME-1280x720.png), Timing and Baseline with the H200 scaling run as the baseline; the
# memory-bound families' pages (H200 samples) at 1500x950; docs/screenshot.png, the README's Progression of the
# H100 sample at 1500x950. Usage: scripts/render-screenshots.sh [build/gui/kwb-gui]
set -euo pipefail
cd "$(dirname "$0")/.."
gui=${1:-build/gui/kwb-gui}
out=docs/screenshots
s=resources/samples
export QT_QPA_PLATFORM=offscreen
shot() {  # FILE TAB SIZE ARGS...
  local file=$1 tab=$2 size=$3
  shift 3
  "$gui" "$@" --tab "$tab" --size "$size" --screenshot "$out/$file" 2>&1 | grep -v 'propagateSizeHints\|XDG_RUNTIME_DIR' || true
  [[ -s "$out/$file" ]] || { echo "render-screenshots: $out/$file was not written" >&2; exit 1; }
}
spec=(--open "$s/h200/spec-benchmark-h200.json")
base=(--baseline "$s/h200/scaling-h200.json")
for size in 1920x1080 1280x720; do
  suffix=$([[ $size == 1920x1080 ]] && echo "" || echo "-$size")
  for tab in Progression Scaling Roofline Correctness Log; do
    shot "${tab,,}$suffix.png" "$tab" "$size" "${spec[@]}"
  done
  shot "timing$suffix.png" Timing "$size" "${spec[@]}" "${base[@]}"
  shot "baseline$suffix.png" Baseline "$size" "${spec[@]}" "${base[@]}"
done
for family in reduce scan histogram sort; do
  for tab in Progression Scaling Roofline Correctness; do
    shot "$family-${tab,,}.png" "$tab" 1500x950 --open "$s/h200/$family-benchmark-h200.json"
  done
done
# Sweeps: along M (N = K = 2048), and an M x N grid at K = 1024 as a heat map.
shot scaling-sweep-m.png Scaling 1920x1080 --open "$s/h200/sweep-m-h200.json"
shot scaling-heatmap.png Scaling 1920x1080 --open "$s/h200/sweep-mn-h200.json"
# The case dialog with the profile recorded beside the sample by the same build: each Nsight tab.
case=(--open "$s/h200/spec-benchmark-h200.json" --case sgemm.warp_tiled@512)
shot case-profile.png Launches 1920x1080 "${case[@]}"
shot case-profile-1280x720.png Launches 1280x720 "${case[@]}"
for tab in "Launch statistics" "Warp stalls" Memory Roofline; do
  name=${tab// /-}
  shot "case-profile-${name,,}-1280x720.png" "$tab" 1280x720 "${case[@]}"
done
# The README's first picture.
out=docs shot screenshot.png Progression 1500x950 --open "$s/spec-benchmark-h100.json"
echo "render-screenshots: written to docs/screenshots/ and docs/screenshot.png"
