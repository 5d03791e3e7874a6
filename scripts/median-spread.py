#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Spread of each case's median across repeated runs of the same suite.

Usage: median-spread.py run1.json run2.json [run3.json ...]
Prints, per case timed in every run, the medians (us) and their spread (max / min - 1), then
how many cases agree within 1% and whether any is beyond 3%. Exit 0 always: it reports.
"""
import json
import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from kwb_cases import size_label  # noqa: E402


def medians(path):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for c in doc["cases"]:
        if c.get("samplesMs"):
            out[(c["kernel"], size_label(c))] = (
                c["summary"]["median"] * 1e3, c.get("warmupSmClockMhz", 0),
                c["summary"].get("cv", 0))
    return doc["settings"].get("timer", "host-events"), out


def main(paths):
    if len(paths) < 2:
        sys.exit("usage: median-spread.py run1.json run2.json [...]")
    runs = [medians(p) for p in paths]
    timers = {t for t, _ in runs}
    keys = [k for k in runs[0][1] if all(k in r for _, r in runs)]
    print(f"timer(s): {', '.join(sorted(timers))}; {len(keys)} cases timed in all {len(runs)} runs")
    print(f'{"kernel":24} {"shape":14} ' + " ".join(f"{'run' + str(i + 1):>10}" for i in range(len(runs))) + "   spread")
    spreads = []
    for k in keys:
        ms = [r[k][0] for _, r in runs]
        spread = max(ms) / min(ms) - 1
        spreads.append(spread)
        clocks = " ".join(f"{r[k][1]:.0f}" for _, r in runs) if spread > 0.01 else ""
        print(f"{k[0]:24} {k[1]:14} " + " ".join(f"{m:10.3f}" for m in ms) +
              f"   {100 * spread:6.2f}%  {clocks and 'SM MHz after warm-up: ' + clocks}")
    if not spreads:
        return
    for i, (timer, r) in enumerate(runs):
        long = [(v[2], k) for k, v in r.items() if v[0] >= 5.0]
        over = [x for x in long if x[0] > 0.005]
        worst = max(long) if long else (0, ("-", "-"))
        print(f"run {i + 1}: CV above 0.5% on {len(over)} of {len(long)} cases of 5 us or more; "
              f"worst {100 * worst[0]:.2f}% ({worst[1][0]} {worst[1][1]})")
    within1 = sum(s <= 0.01 for s in spreads)
    beyond3 = sum(s > 0.03 for s in spreads)
    print(f"within 1%: {within1}/{len(spreads)} ({100 * within1 / len(spreads):.0f}%); "
          f"beyond 3%: {beyond3}; worst {100 * max(spreads):.2f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
