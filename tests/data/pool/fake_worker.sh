#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A stand-in for kwb as a host pool's worker (KWB_POOL_WORKER, tests/cli/pool_cli_test.cpp): for
# its --shard I/N it copies $FAKE_POOL_DIR/prepared-I.json to its --json path, logging when it
# starts and ends with its CUDA_VISIBLE_DEVICES. FAKE_POOL_MODE: ok; die-once:I (shard I is
# killed by SIGKILL on its first run); die-always:I; wait (runs until SIGTERM, then writes its
# document and exits 130 as kwb does when interrupted).
shard=""; json=""
while [ $# -gt 0 ]; do
  case "$1" in
    --shard) shard="${2%%/*}"; shift ;;
    --json) json="$2"; shift ;;
  esac
  shift
done
log="$FAKE_POOL_DIR/log"
echo "start gpu=$CUDA_VISIBLE_DEVICES shard=$shard $(date +%s%N)" >> "$log"
echo '{"event":"log","elapsedS":0,"level":"info","message":"fake shard '"$shard"'"}'
finish() {
  cp "$FAKE_POOL_DIR/prepared-$shard.json" "$json"
  echo "end gpu=$CUDA_VISIBLE_DEVICES shard=$shard $(date +%s%N)" >> "$log"
}
case "$FAKE_POOL_MODE" in
  die-once:"$shard")
    if [ ! -e "$FAKE_POOL_DIR/died-$shard" ]; then
      touch "$FAKE_POOL_DIR/died-$shard"
      echo "fake worker: shard $shard crashes" >&2
      echo "end gpu=$CUDA_VISIBLE_DEVICES shard=$shard $(date +%s%N)" >> "$log"
      kill -9 $$
    fi ;;
  die-always:"$shard")
    echo "fake worker: shard $shard always crashes" >&2
    echo "end gpu=$CUDA_VISIBLE_DEVICES shard=$shard $(date +%s%N)" >> "$log"
    kill -9 $$ ;;
  wait)
    trap 'echo "term gpu=$CUDA_VISIBLE_DEVICES shard=$shard" >> "$log"; finish; exit 130' TERM INT
    while :; do sleep 0.05; done ;;
esac
sleep 0.1
finish
