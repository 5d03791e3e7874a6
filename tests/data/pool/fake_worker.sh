#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A stand-in for kwb as a host pool's long-lived worker (KWB_POOL_WORKER,
# tests/cli/pool_cli_test.cpp): started with --pool-serve, it reads one shard request per line on
# its standard input ({"json":PATH,"op":"shard","shard":"I/N"}) and for each (after the lines of
# $FAKE_POOL_DIR/events.jsonl, if there is one) copies
# $FAKE_POOL_DIR/prepared-I.json to PATH, then writes the shard_end line; at the end of its input
# it exits 0. It logs when it starts (spawn, shard 0) and when each shard starts and ends, with
# its CUDA_VISIBLE_DEVICES. FAKE_POOL_MODE: ok; die-once:I (the worker is killed by SIGKILL in
# shard I's first run); die-always:I; wait (each shard runs until SIGTERM, then the document is
# written and the worker exits 130 as kwb does when interrupted); fail:I (shard I ends with exit
# 3 and the worker with it, as kwb without a device); end-once (the first shard any worker runs
# ends with its document and shard_end, then that worker exits 0 on its own, as kwb does once its
# CUDA context was lost).
log="$FAKE_POOL_DIR/log"
echo "spawn gpu=$CUDA_VISIBLE_DEVICES shard=0 $(date +%s%N)" >> "$log"
serve=""
for a in "$@"; do [ "$a" = "--pool-serve" ] && serve=1; done
[ -n "$serve" ] || { echo "fake worker: started without --pool-serve" >&2; exit 2; }
# Its CUDA start: FAKE_POOL_READY_DELAY seconds, then the worker_ready line (none with
# FAKE_POOL_READY=never, as a worker that hangs in its start).
[ -n "$FAKE_POOL_READY_DELAY" ] && sleep "$FAKE_POOL_READY_DELAY"
[ "$FAKE_POOL_READY" = never ] || echo '{"event":"worker_ready"}'
finish() {
  cp "$FAKE_POOL_DIR/prepared-$shard.json" "$json"
  echo "end gpu=$CUDA_VISIBLE_DEVICES shard=$shard $(date +%s%N)" >> "$log"
}
while IFS= read -r request; do
  shard=$(printf '%s' "$request" | sed -n 's/.*"shard":"\([0-9]*\)\/.*/\1/p')
  json=$(printf '%s' "$request" | sed -n 's/.*"json":"\([^"]*\)".*/\1/p')
  echo "start gpu=$CUDA_VISIBLE_DEVICES shard=$shard $(date +%s%N)" >> "$log"
  echo '{"event":"log","elapsedS":0,"level":"info","message":"fake shard '"$shard"'"}'
  # Every shard reports the events of $FAKE_POOL_DIR/events.jsonl, as a reference's copies would.
  [ -e "$FAKE_POOL_DIR/events.jsonl" ] && cat "$FAKE_POOL_DIR/events.jsonl"
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
    fail:"$shard")
      echo "kwb: no CUDA device: fake" >&2
      echo "end gpu=$CUDA_VISIBLE_DEVICES shard=$shard $(date +%s%N)" >> "$log"
      echo '{"event":"shard_end","exitCode":3,"shard":'"$shard"'}'
      exit 3 ;;
    wait)
      trap 'echo "term gpu=$CUDA_VISIBLE_DEVICES shard=$shard" >> "$log"; finish; exit 130' TERM INT
      while :; do sleep 0.05; done ;;
  esac
  sleep 0.1
  finish
  if [ "$FAKE_POOL_MODE" = end-once ] && [ ! -e "$FAKE_POOL_DIR/ended" ]; then
    touch "$FAKE_POOL_DIR/ended"
    echo "kwb: this pool worker's CUDA context was lost in shard $shard (fake)" >&2
    echo '{"event":"shard_end","exitCode":0,"shard":'"$shard"',"workerEnds":true}'
    sleep 0.2  # the pool must not send it another shard meanwhile
    exit 0
  fi
  echo '{"event":"shard_end","exitCode":0,"shard":'"$shard"'}'
done
exit 0
