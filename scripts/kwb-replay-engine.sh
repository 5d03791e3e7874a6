#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An engine for kwb-gui that replays recorded runs instead of running kernels: each
# `run --stream ...` it is asked for is answered by `kwb replay` of the next recorded event
# stream (`kwb run --stream` output, recorded on a GPU machine), so the GUI can be driven, and
# shot, where there is no GPU. The streams are real runs; nothing in them is made up here, and
# the arguments of the request are ignored (the GUI takes the recorded plan as the engine's).
# `device` and `list` go to the real kwb.
#
#   KWB_REPLAY_STREAMS  the recorded .jsonl files, separated by ':', in the order to replay them
#                       (after the last, the last is replayed again)
#   KWB_REPLAY_KWB      the kwb that replays them (default: kwb on PATH)
#   KWB_REPLAY_STATE    a file counting the runs answered so far (default: one per kwb-gui
#                       process, $TMPDIR/kwb-replay-engine.<its pid>: each kwb-gui starts over)
#   KWB_REPLAY_SPEED    kwb replay --speed (default 0: no pauses)
#
# Example (docs/BRING_YOUR_OWN.md, "In the GUI"):
#   KWB_REPLAY_STREAMS=byok-before.jsonl:byok-after.jsonl \
#     kwb-gui --engine scripts/kwb-replay-engine.sh --source sgemm_tiled_user.cu \
#             --kernels sgemm.tiled,cublas.sgemm --shapes 1024,2048 --screenshot out.png
set -eu
kwb=${KWB_REPLAY_KWB:-kwb}
if [ "${1:-}" != run ]; then exec "$kwb" "$@"; fi
if [ -z "${KWB_REPLAY_STREAMS:-}" ]; then
  echo "kwb-replay-engine: KWB_REPLAY_STREAMS is not set (the recorded .jsonl files)" >&2
  exit 2
fi
state=${KWB_REPLAY_STATE:-${TMPDIR:-/tmp}/kwb-replay-engine.$PPID}
n=$(cat "$state" 2>/dev/null || echo 0)
echo $((n + 1)) > "$state"
# The (n+1)-th stream, or the last one.
stream=$(printf '%s\n' "$KWB_REPLAY_STREAMS" | tr ':' '\n' | awk -v i=$((n + 1)) \
  'NF { last = $0; if (NR == i) pick = $0 } END { print (pick != "" ? pick : last) }')
if [ ! -r "$stream" ]; then
  echo "kwb-replay-engine: cannot read the recorded stream '$stream'" >&2
  exit 2
fi
echo "kwb-replay-engine: run $((n + 1)) replays $stream (a recorded run)" >&2
exec "$kwb" replay "$stream" --speed "${KWB_REPLAY_SPEED:-0}"
