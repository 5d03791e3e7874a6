#!/usr/bin/env bash
# On a GPU machine: the GUI's remote path with a real engine, no Qt needed.
#  1. kwb run --stream ends within seconds when its stdout's reader closes mid-case (a case of
#     a million samples, 2 s into it), without ssh.
#  2. Where an OpenSSH server can be started here: sshd on 127.0.0.1 with throw-away keys, and
#     one real spec-benchmark case streamed through `ssh` with the engine driver's exact command
#     line (gui/ssh_command.cpp); the stream is checked with `kwb replay` and python; then a
#     cancel through ssh (the ssh client killed mid-case) must leave no kwb running.
# Logs go to $OUT (default out/dev-remote) and into ONE file, $OUT/remote-gpu.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out/dev-remote}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }
finish() {
  [[ -n "${SSHD_PID:-}" ]] && kill "$SSHD_PID" 2>/dev/null
  [[ -n "${T:-}" ]] && rm -rf "$T"
  tar -C "$OUT" -czf "$OUT/remote-gpu.tgz" --exclude remote-gpu.tgz . 2>/dev/null
  exit "${1:-0}"
}
: > "$OUT/summary.txt"

if [[ ! -x build-gpu/cli/kwb ]] || [[ "${KWB_REBUILD:-1}" == 1 ]]; then
  log "build (engine only)"
  cmake -S . -B "$PWD/build-gpu" -G Ninja -DKWB_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90a > "$OUT/build.log" 2>&1 &&
    cmake --build build-gpu -j16 --target kwb >> "$OUT/build.log" 2>&1 ||
    { log "FAIL: build, see build.log"; tail -30 "$OUT/build.log"; finish 1; }
fi
KWB=$PWD/build-gpu/cli/kwb
"$KWB" device > "$OUT/device.txt" 2>&1 || { log "FAIL: no CUDA device"; cat "$OUT/device.txt"; finish 1; }
log "device: $(head -1 "$OUT/device.txt")"
status=0

# 1. The reader goes away mid-case: it reads up to case_started, waits 2 s into the case, leaves.
log "1. kwb's stdout closed mid-case (a case of a million samples, minutes, unless the engine notices)"
( "$KWB" run --stream --kernels cublas.sgemm --shapes 1024 --samples 1000000 \
    2> "$OUT/closed-stdout.stderr"; echo $? > "$OUT/closed-stdout.rc"; date +%s.%N > "$OUT/closed-stdout.end" ) |
  python3 -c '
import sys, time
for line in sys.stdin:
    sys.stdout.write(line)
    if "case_started" in line:
        time.sleep(2)
        break
sys.stdout.flush()
open(sys.argv[1], "w").write(repr(time.time()))
' "$OUT/closed-stdout.left" > "$OUT/closed-stdout.jsonl"
wait
secs=$(python3 -c "print(f'{float(open(\"$OUT/closed-stdout.end\").read()) - float(open(\"$OUT/closed-stdout.left\").read()):.1f}')")
log "   kwb ended ${secs} s after its reader left mid-case, exit $(cat "$OUT/closed-stdout.rc"); $(grep -c case_started "$OUT/closed-stdout.jsonl") case_started seen; stderr: $(grep -c 'reader is gone' "$OUT/closed-stdout.stderr") 'reader is gone' line(s)"
if python3 -c "import sys; sys.exit(0 if $secs < 10 else 1)"; then log "   PASS: ended long before its million-sample case could"
else log "   FAIL: kwb ran on for ${secs} s after its reader left"; status=1; fi

# 2. Through a real sshd on 127.0.0.1.
SSHD=$(command -v sshd || ls /usr/sbin/sshd 2>/dev/null || true)
if [[ -z "$SSHD" ]] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
  log "2. SKIPPED: no OpenSSH server/client here (sshd: ${SSHD:-absent}, ssh: $(command -v ssh || echo absent));"
  log "   this machine has no internet to install one. CI runs the same through a real sshd: ctest -L ssh."
  finish $status
fi
T=$(mktemp -d "$PWD/out/ssh-XXXXXX")
chmod 700 "$T"
[[ $(id -u) == 0 ]] && mkdir -p /run/sshd
for k in host_key user_key; do ssh-keygen -q -t ed25519 -N "" -f "$T/$k" -C "kwb-dev $k"; done
cp "$T/user_key.pub" "$T/authorized_keys"; chmod 600 "$T/authorized_keys"
PORT=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])")
USER_NAME=$(id -un)
cat > "$T/sshd_config" <<CFG
ListenAddress 127.0.0.1
Port $PORT
HostKey $T/host_key
PidFile none
AuthorizedKeysFile $T/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $USER_NAME
CFG
cat > "$T/ssh_config" <<CFG
Host localhost
  HostName 127.0.0.1
  Port $PORT
  User $USER_NAME
  IdentityFile $T/user_key
  IdentitiesOnly yes
  IdentityAgent none
  HostKeyAlias kwb-dev
  UserKnownHostsFile $T/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
CFG
echo "kwb-dev $(cat "$T/host_key.pub")" > "$T/known_hosts"
"$SSHD" -D -e -f "$T/sshd_config" 2> "$OUT/sshd.log" &
SSHD_PID=$!
for _ in $(seq 50); do grep -q "Server listening" "$OUT/sshd.log" && break; sleep 0.1; done
if ! grep -q "Server listening" "$OUT/sshd.log"; then
  log "2. SKIPPED: sshd ($SSHD) did not start: $(tail -3 "$OUT/sshd.log" | tr '\n' ' ')"
  log "   CI runs the same through a real sshd: ctest -L ssh."
  finish $status
fi
log "2. sshd listening on 127.0.0.1:$PORT as $USER_NAME"
# A unique path for the remote engine, so its processes can be found afterwards.
ln -sf "$KWB" "$T/kwb-remote-marker"
# The engine driver's command line (gui/ssh_command.cpp), plus -F for the throw-away config.
SSH=(ssh -T -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=5 -o ServerAliveCountMax=3 -F "$T/ssh_config" -- localhost)
printf '%q ' "${SSH[@]}" "'$T/kwb-remote-marker' run --stream --kernels sgemm.tiled --shapes 1024" > "$OUT/ssh-command.txt"
"${SSH[@]}" "'$T/kwb-remote-marker' run --stream --kernels sgemm.tiled --shapes 1024" \
  > "$OUT/remote.jsonl" 2> "$OUT/remote.stderr"
rc=$?
log "   one spec-benchmark case (sgemm.tiled at 1024^3) through ssh: exit $rc, $(wc -l < "$OUT/remote.jsonl") events"
if "$KWB" replay --speed 0 "$OUT/remote.jsonl" > /dev/null 2> "$OUT/replay.stderr"; then replay=0; else replay=$?; fi
python3 - "$OUT/remote.jsonl" > "$OUT/stream-check.txt" <<'PY'
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
cat "$OUT/stream-check.txt" | tee -a "$OUT/summary.txt"
if [[ $rc -le 1 && $replay -le 1 && $check == 0 ]]; then log "   PASS: the stream through ssh is complete and kwb replay reads it (replay exit $replay)"
else log "   FAIL: ssh exit $rc, replay exit $replay, stream check $check"; status=1; fi

# Cancel through ssh: kill the ssh client while a case of a million samples runs; the remote kwb must go.
"${SSH[@]}" "'$T/kwb-remote-marker' run --stream --kernels cublas.sgemm --shapes 2048 --samples 1000000" \
  > "$OUT/cancel.jsonl" 2> "$OUT/cancel.stderr" &
SSH_PID=$!
for _ in $(seq 300); do grep -q case_started "$OUT/cancel.jsonl" 2>/dev/null && break; sleep 0.1; done
before=$(pgrep -fc "$T/kwb-remote-marker run" || true)
kill -TERM "$SSH_PID"; wait "$SSH_PID" 2>/dev/null
start=$(date +%s.%N); gone=no
for _ in $(seq 150); do pgrep -f "$T/kwb-remote-marker run" >/dev/null || { gone=yes; break; }; sleep 0.1; done
secs=$(python3 -c "import time; print(f'{time.time() - $start:.1f}')")
log "   cancel: $before remote kwb before, gone=$gone ${secs} s after the ssh client ended"
if [[ $before -ge 1 && $gone == yes ]]; then log "   PASS: no kwb left on the server after cancel"
else log "   FAIL: remote kwb still running (or never started)"; status=1
  pkill -f "$T/kwb-remote-marker run" 2>/dev/null; fi
finish $status
