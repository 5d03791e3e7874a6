#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a run's time went, from its event stream (kwb run --stream, plain or --devices): per
engine part (a plain run, or each GPU's shard), the three phases of its cases and the host's cost
per timed sample, so a plain run and a pool's shards can be set side by side
(docs/SCALE_OUT.md, "Why spec-benchmark stays near 1.6x").

  verify   first case_started .. last case_started: checks, warm-ups, graph captures
  timing   last case_started .. first case_finished: the interleaved rounds
  finish   first .. last case_finished: CUPTI cross-check, clocks, documents
  host/sample  (timing - the samples' own GPU time) / samples: what each sample costs the host,
               plus the samples of references a shard times beside its cases without reporting
               them (a size cut into pieces: each piece pairs its cases with the references)

Usage: scripts/stream-phases.py STREAM.jsonl [STREAM.jsonl ...]
"""
import json
import sys


def phases(path):
    parts = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            e = json.loads(line)
            kind = e.get("event")
            if kind not in ("case_started", "case_finished", "case_failed"):
                continue
            key = (e.get("gpu"), e.get("shard"))
            p = parts.setdefault(key, {"started": [], "finished": [], "gpuS": 0.0, "samples": 0})
            if kind == "case_started":
                p["started"].append(e["elapsedS"])
            else:
                p["finished"].append(e["elapsedS"])
                r = e.get("result") or {}
                s = r.get("samplesMs") or []
                p["gpuS"] += sum(s) * (r.get("launchesPerSample") or 1) / 1000.0
                p["samples"] += len(s)
    return parts


def main(paths):
    if not paths:
        sys.exit(__doc__)
    for path in paths:
        try:
            parts = phases(path)
        except (OSError, ValueError) as e:
            sys.exit(f"stream-phases: {path}: {e}")
        print(f"{path}:")
        print(f"  {'part':<14} {'cases':>5} {'verify s':>9} {'timing s':>9} {'finish s':>9}"
              f" {'GPU s':>7} {'samples':>8} {'host/sample us':>15}")
        total = [0.0, 0.0, 0.0, 0.0, 0]
        for (gpu, shard), p in sorted(parts.items(), key=lambda kv: str(kv[0])):
            if not p["started"] or not p["finished"]:
                continue
            st, fi = p["started"], p["finished"]
            verify, timing, finish = st[-1] - st[0], fi[0] - st[-1], fi[-1] - fi[0]
            per = (timing - p["gpuS"]) / p["samples"] * 1e6 if p["samples"] else 0.0
            name = "plain" if gpu is None else f"gpu {gpu} shard {shard}"
            print(f"  {name:<14} {len(st):>5} {verify:>9.2f} {timing:>9.2f} {finish:>9.2f}"
                  f" {p['gpuS']:>7.2f} {p['samples']:>8} {per:>15.0f}")
            for i, v in enumerate((verify, timing, finish, p["gpuS"], p["samples"])):
                total[i] += v
        if len(parts) > 1:
            per = (total[1] - total[3]) / total[4] * 1e6 if total[4] else 0.0
            print(f"  {'all parts':<14} {'':>5} {total[0]:>9.2f} {total[1]:>9.2f} {total[2]:>9.2f}"
                  f" {total[3]:>7.2f} {total[4]:>8} {per:>15.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
