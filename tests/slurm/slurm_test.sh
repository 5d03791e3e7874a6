#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# kwb slurm against a real Slurm on this machine (docs/SCALE_OUT.md, ctest label slurm): writes a
# one-node slurm.conf (localhost, this machine's CPUs, no GPUs) and a munge key in a temporary
# folder, starts munged, slurmctld and slurmd, then
#   1. kwb slurm submit of a 3-shard array without a GPU request: every task ends with kwb's
#      no-device exit, writes a failure record, and the merge job still runs and records each
#      shard's failure and reason in merged.json;
#   2. kwb slurm status (and --json) names each shard's failure;
#   3. kwb slurm resume resubmits only the shards without a document;
#   4. scancel of a running array: each task's engine is sent SIGTERM and ends, its partial
#      document is moved aside and a failure record says "interrupted"; no shard document, half
#      written or whole, and no temporary file is left, and the merge job runs;
#   5. given the GUI's test program as a second argument, kwb-gui's Slurm target against it.
# Skips (exit 77) with the reason where Slurm cannot start: not root, not installed, a daemon
# that does not come up. Every wait is bounded; the daemons are stopped at the end.
set -uo pipefail
kwb=$(realpath "${1:?usage: slurm_test.sh KWB}")
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; show_logs; exit 1; }
[[ $(id -u) -eq 0 ]] || skip "not root: slurmd must run as root to start jobs"
for c in munged mungekey slurmctld slurmd sbatch squeue scancel; do
  command -v "$c" >/dev/null ||
    skip "$c not found (scripts/install-deps.sh installs slurm-wlm and munge)"
done

work=$(mktemp -d /tmp/kwb-slurm-test.XXXXXX)
chmod 755 "$work"
pids=()
stop() {
  scancel --quiet --full -u root 2>/dev/null
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$work"
}
trap stop EXIT
show_logs() { tail -n 20 "$work"/*.log 2>/dev/null; }

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local limit=$1; shift
  local end=$((SECONDS + limit))
  until "$@"; do
    ((SECONDS < end)) || return 1
    sleep 0.3
  done
}

# munge: its own key, socket and logs in $work (never the system's).
mkdir -p "$work/munge" && chmod 700 "$work/munge"
mungekey --create --keyfile="$work/munge/munge.key" >/dev/null 2>&1 ||
  dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" \
  --seed-file="$work/munge/munged.seed" || skip "munged did not start: $(tail -n 3 "$work/munged.log")"
wait_for 10 test -S "$work/munge/munge.socket" || skip "munged made no socket"
pids+=("$(cat "$work/munge/munged.pid")")

port=$((20000 + RANDOM % 20000))
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=kwbtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
KillWait=5
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$work/state" "$work/spool"
slurmctld -c -f "$SLURM_CONF" || skip "slurmctld did not start: $(tail -n 3 "$work/slurmctld.log")"
wait_for 10 test -s "$work/slurmctld.pid" || skip "slurmctld wrote no pid"
pids+=("$(cat "$work/slurmctld.pid")")
slurmd -f "$SLURM_CONF" -N localhost || skip "slurmd did not start: $(tail -n 3 "$work/slurmd.log")"
wait_for 10 test -s "$work/slurmd.pid" || skip "slurmd wrote no pid"
pids+=("$(cat "$work/slurmd.pid")")
idle() { sinfo -h -n localhost -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; }
wait_for 30 idle || skip "the node did not come up: $(sinfo -h 2>&1 | head -n 1)"
echo "slurm up: slurmctld on port $port, node localhost with $(nproc) CPUs"

job_done() { [[ -z $(squeue -h -j "$1" -t PD,R,CG,CF 2>/dev/null) ]]; }
merge_id() { sed -n 's/^merge job \([0-9]*\).*/\1/p' <<<"$1"; }
array_id() { sed -n 's/^array job \([0-9]*\).*/\1/p' <<<"$1"; }

# 1. Submit: three shards, no GPU on this node, so every task ends with kwb's exit 3.
dir="$work/job"
out=$("$kwb" slurm submit --shapes 64,128,256 --shards 3 --gpus-per-task 0 --time 5 \
  --output-dir "$dir") || fail "submit failed: $out"
echo "$out"
merge=$(merge_id "$out")
[[ -n $merge ]] || fail "submit printed no merge job id"
grep -q '^#SBATCH --array=1-3$' "$dir/kwb-array.sbatch" || fail "no array line"
grep -q 'gres=gpu' "$dir/kwb-array.sbatch" && fail "a GPU request with --gpus-per-task 0"
wait_for 60 job_done "$merge" || fail "the merge job did not end within 60 s"
wait_for 10 test -s "$dir/merged.json" || fail "the merge job wrote no merged.json: $(cat "$dir/logs/merge.out")"
for i in 1 2 3; do
  f="$dir/shard-$i-of-3.failure.json"
  [[ -s $f ]] || fail "shard $i wrote no failure record"
  grep -q '"exitStatus": 3' "$f" || fail "shard $i's record is not kwb's no-device exit: $(cat "$f")"
  [[ -e $dir/shard-$i-of-3.json ]] && fail "shard $i left a document"
done
[[ $(grep -c '"state": "failed"' "$dir/merged.json") -eq 3 ]] || fail "merged.json does not list 3 failed shards"
grep -q 'exit 3 (no CUDA device)' "$dir/merged.json" || fail "merged.json lacks the reason"
grep -q 'shard 1/3: failed: exit 3 (no CUDA device)' "$dir/logs/merge.out" || fail "merge log lacks the failure"

# 2. Status names each shard's failure.
status=$("$kwb" slurm status "$dir")
echo "$status"
[[ $(grep -c 'failed: exit 3 (no CUDA device)' <<<"$status") -eq 3 ]] || fail "status: $status"
[[ $(grep -c 'FAILED (job ' <<<"$status") -eq 3 ]] || fail "status lacks Slurm's state: $status"
# The same as JSON (what kwb-gui's Slurm target polls): each shard failed, Slurm's state, merged.json.
json=$("$kwb" slurm status "$dir" --json)
echo "$json"
[[ $(grep -o '"result":"failed"' <<<"$json" | wc -l) -eq 3 ]] || fail "status --json: $json"
[[ $(grep -o '"slurm":"FAILED"' <<<"$json" | wc -l) -eq 3 ]] || fail "status --json lacks Slurm's state: $json"
grep -q '"merged":"[^"]*merged.json"' <<<"$json" || fail "status --json lacks merged.json: $json"

# 3. Resume: shard 2 now has a document, so only 1 and 3 go again.
echo '{}' >"$dir/shard-2-of-3.json"
out=$("$kwb" slurm resume "$dir") || fail "resume failed: $out"
echo "$out"
grep -q 'shards 1,3 of 3' <<<"$out" || fail "resume did not resubmit exactly 1 and 3: $out"
merge=$(merge_id "$out")
wait_for 60 job_done "$merge" || fail "the resumed merge job did not end within 60 s"
[[ -s $dir/shard-1-of-3.failure.json && -s $dir/shard-3-of-3.failure.json ]] ||
  fail "the resumed shards wrote no failure records"
[[ $(grep -c '"arrayJob"' "$dir/kwb-slurm.json") -eq 2 ]] || fail "the manifest lacks the resubmission"
out=$("$kwb" slurm resume "$dir" 2>&1) || true

# 4. Cancel mid-run: an engine that runs until SIGTERM, then writes what it finished and exits
# 130 as kwb does (cli/interrupt.cpp); shard-failure and merge are the real kwb's.
fake="$work/slow-kwb"
cat >"$fake" <<FAKE
#!/bin/bash
if [[ \$1 == run ]]; then
  while [[ \$# -gt 0 && \$1 != --json ]]; do shift; done
  json=\$2
  trap 'printf "{\"interrupted\": true}\n" >"\$json.tmp" && mv "\$json.tmp" "\$json"; echo "kwb: interrupted" >&2; exit 130' TERM
  touch "\$(dirname "\$json")/started-\$SLURM_ARRAY_TASK_ID"
  sleep 120 & wait \$!
  exit 0
fi
exec "$kwb" "\$@"
FAKE
chmod +x "$fake"
cdir="$work/cancel"
out=$("$kwb" slurm submit --shapes 64,128 --shards 2 --gpus-per-task 0 --kwb "$fake" \
  --output-dir "$cdir") || fail "submit (cancel) failed: $out"
array=$(array_id "$out")
merge=$(merge_id "$out")
started() { [[ -e $cdir/started-1 && -e $cdir/started-2 ]]; }
wait_for 30 started || fail "the tasks did not start within 30 s: $(squeue 2>&1)"
# Status by job id: Slurm knows the running array's script, whose folder holds the manifest.
st=$("$kwb" slurm status "$array" 2>&1); grep -q "RUNNING (job " <<<"$st" || fail "status by job id: $st"
scancel "$array"
wait_for 60 job_done "$merge" || fail "the merge job did not run after scancel"
for i in 1 2; do
  [[ -e $cdir/shard-$i-of-2.json ]] && fail "scancel left a shard document for shard $i"
  grep -q '"exitStatus": 130' "$cdir/shard-$i-of-2.failure.json" ||
    fail "shard $i: no failure record of the interruption"
  [[ -s $cdir/shard-$i-of-2.partial.json ]] || fail "shard $i: its finished part was not kept aside"
done
ls -a "$cdir" | grep -q '\.tmp' && fail "a temporary file was left: $(ls -a "$cdir")"
grep -q 'exit 130 (interrupted)' "$cdir/merged.json" || fail "merged.json lacks the interruption"
# 5. kwb-gui's Slurm target against this Slurm (tests/gui/slurm_run_test.cpp, SlurmGuiReal), when
# the GUI's tests are built: submit over a stand-in ssh, every shard's failure shown.
if [[ -n ${2:-} ]]; then
  KWB_TEST_REAL_SLURM=1 QT_QPA_PLATFORM=offscreen timeout 150 "$2" \
    --gtest_filter='SlurmGuiReal.*' || fail "the GUI's Slurm target on a real Slurm"
fi
echo "PASS: submit, status, resume and scancel on a real Slurm"
