#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kwb's timers against Nsight Compute's gpu__time_duration, case by case.

Usage: ncu-compare.py KWB OUTDIR kernel:shape [kernel:shape ...]
       (a reduce or scan kernel takes a count instead of a shape: cub.reduce_sum:2^28, float)
       ncu-compare.py --spin TIMER_PROBE   (how ncu reads kernels of known length)
For each case:
  * ncu profiles `kwb run --timer host --samples 10` limited to the NVTX range of the timed
    samples (the host timer never holds the stream, so ncu's serialised launches cannot wait
    on it); the blocking kernel's clock probe is left out; the case's kernel time is the sum
    over its kernels of median duration x instances per launch;
  * kwb runs the case without ncu with each timer: back-to-back, isolated, cupti.
Prints each timer's median and its difference from ncu, and whether it is within 3% (or
0.5 us, whichever is larger). ncu runs with --clock-control none --cache-control none.
"""
import csv
import io
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict

TIMERS = ["back-to-back", "isolated", "cupti"]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def selection(kernel, size):
    """kwb's selection arguments: a GEMM shape, or a 1-D family's size (float elements)."""
    for family, prefixes in (("reduce", ("reduce.", "cub.reduce")), ("scan", ("scan.", "cub.inclusive"))):
        if kernel.startswith(prefixes):
            return ["--family", family, "--kernels", kernel, "--sizes", size, "--types", "f32"]
    return ["--kernels", kernel, "--shapes", size]


def case_of(path):
    with open(path) as f:
        return json.load(f)["cases"][0]


def ncu_us(kwb, kernel, shape, outdir):
    js = os.path.join(outdir, "ncu-case.json")
    cmd = ["ncu", "--clock-control", "none", "--cache-control", "none", "--metrics",
           "gpu__time_duration.sum", "--csv", "--nvtx", "--nvtx-include", "kwb_samples/",
           kwb, "run"] + selection(kernel, shape) + ["--timer", "host",
           "--samples", "10", "--no-cupti-check", "--json", js]
    p = run(cmd)
    text = p.stdout[p.stdout.find('"ID"'):] if '"ID"' in p.stdout else ""
    durations = defaultdict(list)
    probes = 0
    for row in csv.DictReader(io.StringIO(text)):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        name = row["Kernel Name"]
        value = float(row["Metric Value"].replace(",", ""))
        unit = row.get("Metric Unit", "ns")
        us = value / 1e3 if unit in ("ns", "nsecond") else value * 1e3 if unit in ("ms", "msecond") else value
        if "blockingKernel" in name:
            probes += 1
        else:
            durations[name].append(us)
    if not durations or probes == 0:
        return None, p.stderr[-2000:] + p.stdout[-2000:]
    launches = probes * case_of(js)["launchesPerSample"]
    total = sum(statistics.median(v) * len(v) / launches for v in durations.values())
    names = ", ".join(f"{n[:60]} x{len(v) / launches:g}" for n, v in durations.items())
    return total, names


def kwb_us(kwb, kernel, shape, timer, outdir):
    js = os.path.join(outdir, "kwb-case.json")
    p = run([kwb, "run"] + selection(kernel, shape) + ["--timer", timer, "--json", js])
    if not os.path.exists(js):
        return None, None, ""
    c = case_of(js)
    os.remove(js)
    cupti = c.get("cuptiMedianMs")
    return c["summary"]["median"] * 1e3, (cupti * 1e3 if cupti else None), throttled(c)


def throttled(case):
    """'' where the case's samples ran unthrottled, else its SM clock range and throttle reasons.

    ncu serialises launches, so its board rests between kernels; a kwb run of one large case keeps
    the board busy and can meet its power cap (an H200 at 4096^3: +13-16% against ncu, while the
    same case interleaved with others in one run read within 1%). Such a difference is the
    board's state, not the timer's."""
    clocks = case.get("clocks") or {}
    reasons = clocks.get("throttleReasons") or []
    lo, hi = clocks.get("smClockMhzMin"), clocks.get("smClockMhzMax")
    if not reasons and (lo is None or lo == hi):
        return ""
    return f"{lo:g}-{hi:g} MHz" + (f" ({', '.join(reasons)})" if reasons else "")


def ncu_rows(cmd):
    p = run(["ncu", "--clock-control", "none", "--cache-control", "none", "--metrics",
             "gpu__time_duration.sum", "--csv"] + cmd)
    text = p.stdout[p.stdout.find('"ID"'):] if '"ID"' in p.stdout else ""
    rows = []
    for row in csv.DictReader(io.StringIO(text)):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        value = float(row["Metric Value"].replace(",", ""))
        unit = row.get("Metric Unit", "ns")
        us = value / 1e3 if unit in ("ns", "nsecond") else value * 1e3 if unit in ("ms", "msecond") else value
        rows.append((row["Kernel Name"], us))
    return rows, p


def spin(probe, launches=50, lengths=(3, 10, 30, 100, 300)):
    rows, p = ncu_rows([probe, str(launches)] + [str(x) for x in lengths])
    if len(rows) != launches * (len(lengths) + 1):
        sys.exit(f"ncu gave {len(rows)} rows, expected {launches * (len(lengths) + 1)}:\n{p.stderr[-2000:]}")
    empty = statistics.median(us for _, us in rows[:launches])
    print(f"ncu gpu__time_duration of kernels of known length ({launches} plain launches each)")
    print(f"  empty kernel: {empty:.3f} us")
    for i, t in enumerate(lengths):
        chunk = [us for _, us in rows[launches * (i + 1):launches * (i + 2)]]
        med = statistics.median(chunk)
        print(f"  spin {t:6.1f} us: ncu {med:9.3f} us, excess {med - t:+.3f} us")


def main(argv):
    if len(argv) == 2 and argv[0] == "--spin":
        spin(argv[1])
        return
    if len(argv) < 3:
        sys.exit(__doc__)
    kwb, outdir, cases = argv[0], argv[1], argv[2:]
    os.makedirs(outdir, exist_ok=True)
    print(f'{"case":36} {"ncu us":>9} ' + " ".join(f"{t:>22}" for t in TIMERS) + "  (cupti check of default)")
    for spec in cases:
        kernel, shape = spec.split(":")
        ref, detail = ncu_us(kwb, kernel, shape, outdir)
        if ref is None:
            print(f"{spec:36} ncu gave nothing: {detail}")
            continue
        cells, check, states = [], "", []
        for t in TIMERS:
            us, cupti, state = kwb_us(kwb, kernel, shape, t, outdir)
            if us is None:
                cells.append(f'{"failed":>22}')
                continue
            diff = us - ref
            ok = abs(diff) <= max(0.03 * ref, 0.5)
            # OFF*: outside the bound while the board throttled (its clocks, below the row)
            verdict = "ok " if ok else "OFF*" if state else "OFF"
            cells.append(f"{us:9.3f} {100 * diff / ref:+6.1f}% {verdict}")
            if state:
                states.append(f"{t}: {state}")
            if t == TIMERS[0] and cupti:
                check = f"cupti {cupti:.3f} us {100 * (cupti - ref) / ref:+.1f}%"
        print(f"{spec:36} {ref:9.3f} " + " ".join(cells) + "  " + check)
        if states:
            print(f'{"":37}throttled: ' + "; ".join(states))
        print(f"{'':36} kernels: {detail}")


if __name__ == "__main__":
    main(sys.argv[1:])
