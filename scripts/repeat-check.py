#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How repeatable are several `kwb run --json` results documents of one build?

Usage: repeat-check.py [--kwb PATH] [--json OUT] [--require] run1.json run2.json [run3.json ...]

Prints five figures, each with its target, then one summary line:
  1. coverage: over every ordered pair of runs (i, j) and every case timed in both, the share
     whose run-j median lies inside run i's 95% CI (target >= 95%);
  2. CI half-width: (ci95 high - low) / 2 / median over every timed case of every run: the
     median (target <= 1%), the 90th percentile and the worst;
  3. own-precision "% of reference": per non-reference case (kernel not cublas.* or cub.*),
     pctOfFp16Reference, else pctOfFp32Reference, else figures.pct_of_reference; its spread
     (max - min) / mean across the runs; the share within 1% (target >= 90%) and the worst 5;
  4. median spread (max - min) / min across the runs: the share within 1% and the worst;
  5. with --kwb, `kwb compare A B` for every unordered pair of runs: the FASTER and SLOWER
     verdicts, of all case verdicts (target: at most 1 in all).
Figures 3 and 4 use the cases timed in every run. --json writes the figures as JSON.
Exit 0: it reports. With --require, exit 1 when a target is missed (or has no data) or
`kwb compare` failed; exit 2 on bad arguments or unreadable documents.
"""
import argparse
import itertools
import json
import re
import subprocess
import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from kwb_cases import case_key, label  # noqa: E402


def own_reference_pct(c):
    """The case's '% of reference' at its own precision, or None."""
    if c.get("pctOfFp16Reference") is not None:
        return c["pctOfFp16Reference"]
    if c.get("pctOfFp32Reference") is not None:
        return c["pctOfFp32Reference"]
    return (c.get("figures") or {}).get("pct_of_reference")


def read_run(path):
    """The timed cases of one document: key -> (median, ci95 low, ci95 high, own % of reference)."""
    with open(path) as f:
        doc = json.load(f)
    timed = {}
    for c in doc.get("cases", []):
        summary = c.get("summary") or {}
        if not c.get("samplesMs") or not summary.get("median"):
            continue
        low, high = summary.get("ci95") or (None, None)
        timed[case_key(c)] = (summary["median"], low, high, own_reference_pct(c))
    return timed


def percentile(values, q):
    """Linear interpolation between the closest ranks; values sorted."""
    pos = (len(values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def pct(part, whole):
    return 100.0 * part / whole if whole else None


def show(x, digits=1):
    return "n/a" if x is None else f"{x:.{digits}f}"


def run_compares(kwb, paths):
    """`kwb compare` over every unordered pair: per pair, FASTER + SLOWER and all verdicts."""
    pairs = []
    for a, b in itertools.combinations(range(len(paths)), 2):
        try:
            p = subprocess.run([kwb, "compare", paths[a], paths[b]], capture_output=True, text=True)
        except OSError as e:  # no such binary, not executable
            p = subprocess.CompletedProcess([], 127, "", str(e))
        m = re.search(r"^(\d+) faster, (\d+) slower, (\d+) same, (\d+) uncertain$", p.stdout, re.M)
        name = f"run {a + 1} vs run {b + 1}"
        if p.returncode not in (0, 1) or not m:
            err = (p.stderr.strip() or p.stdout.strip()).splitlines()[-1:] or ["no output"]
            print(f"  {name}: ERROR (exit {p.returncode}): {err[0]}")
            pairs.append({"pair": [a + 1, b + 1], "error": f"exit {p.returncode}"})
            continue
        faster, slower, same, uncertain = map(int, m.groups())
        print(f"  {name}: {faster} faster, {slower} slower, {same} same, {uncertain} uncertain")
        for line in p.stdout.splitlines():  # the table rows whose verdict is FASTER or SLOWER
            if re.search(r"\b(FASTER|SLOWER)\s*$", line):
                print("    " + line.strip())
        pairs.append({"pair": [a + 1, b + 1], "fasterOrSlower": faster + slower,
                      "verdicts": faster + slower + same + uncertain})
    return pairs


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="results documents (two or more) of one build")
    ap.add_argument("--kwb", help="kwb binary: also run `kwb compare` over every pair of runs")
    ap.add_argument("--json", metavar="OUT", help="also write the figures to this JSON file")
    ap.add_argument("--require", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args()
    if len(args.runs) < 2:
        ap.error("give two or more results documents")
    try:
        runs = [read_run(p) for p in args.runs]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"repeat-check: cannot read the documents: {e}", file=sys.stderr)
        return 2
    n = len(runs)
    every = [k for k in runs[0] if all(k in r for r in runs)]
    some = sorted(label(k) for k in {k for r in runs for k in r} - set(every))
    print(f"{n} runs; {len(every)} cases timed in every run"
          + (f", {len(some)} in only some: " + ", ".join(some[:5]) if some else ""))
    out = {"runs": args.runs, "casesInEveryRun": len(every), "casesInSomeRuns": some}

    # 1. Coverage: does run j's median fall inside run i's 95% CI?
    inside = total = 0
    for i, j in itertools.permutations(range(n), 2):
        for k, (_, low, high, _) in runs[i].items():
            if k in runs[j] and low is not None:
                total += 1
                inside += low <= runs[j][k][0] <= high
    coverage = pct(inside, total)
    print(f"1. coverage: {inside}/{total} medians inside the other run's 95% CI "
          f"({show(coverage)}%; target >= 95%)")
    out["coverage"] = {"inside": inside, "total": total, "pct": coverage}

    # 2. CI half-width relative to the median, over every timed case of every run.
    widths = sorted((100.0 * (high - low) / 2 / med, r + 1, label(k)) for r, run in enumerate(runs)
                    for k, (med, low, high, _) in run.items() if low is not None)
    values = [w for w, _, _ in widths]
    half = percentile(values, 0.5) if widths else None
    half_p90 = percentile(values, 0.9) if widths else None
    print(f"2. CI half-width: median {show(half, 2)}% (target <= 1%), "
          f"90th percentile {show(half_p90, 2)}%"
          + (", worst {:.2f}% (run {}, {})".format(*widths[-1]) if widths else ""))
    out["ciHalfWidthPct"] = {"median": half, "p90": half_p90, "worst": widths[-1:]}

    # 3. Own-precision "% of reference" across the runs, for the cases that are not references.
    ref = []
    for k in every:
        values = [r[k][3] for r in runs]
        if not k[0].startswith(("cublas.", "cub.")) and None not in values and sum(values) > 0:
            ref.append((100.0 * (max(values) - min(values)) / (sum(values) / n), label(k), values))
    ref.sort(reverse=True)
    ref_ok = sum(s <= 1.0 for s, _, _ in ref)
    ref_share = pct(ref_ok, len(ref))
    print(f"3. own-precision % of reference within 1% across runs: {ref_ok}/{len(ref)} "
          f"({show(ref_share)}%; target >= 90%); worst (spread, then each run's %):")
    for s, name, values in ref[:5]:
        print(f"     {name:40} {s:6.2f}%   " + "  ".join(f"{v:7.2f}" for v in values))
    out["referenceWithin1Pct"] = {"within": ref_ok, "total": len(ref), "pct": ref_share,
                                  "worst": ref[:5]}

    # 4. Spread of each case's median across the runs.
    spreads = sorted((100.0 * (max(m) - min(m)) / min(m), label(k))
                     for k in every for m in [[r[k][0] for r in runs]])
    med_ok = sum(s <= 1.0 for s, _ in spreads)
    print(f"4. medians within 1% across runs: {med_ok}/{len(spreads)} "
          f"({show(pct(med_ok, len(spreads)))}%)"
          + ("; worst {:.2f}% ({})".format(*spreads[-1]) if spreads else ""))
    out["medianWithin1Pct"] = {"within": med_ok, "total": len(spreads),
                               "pct": pct(med_ok, len(spreads)), "worst": spreads[-1:]}

    # 5. kwb compare over every pair of runs.
    compare = "not run"
    flagged, failed = 0, False
    if args.kwb:
        print("5. kwb compare, every pair of runs:")
        pairs = run_compares(args.kwb, args.runs)
        failed = any("error" in p for p in pairs)
        flagged = sum(p.get("fasterOrSlower", 0) for p in pairs)
        verdicts = sum(p.get("verdicts", 0) for p in pairs)
        compare = f"{flagged} FASTER/SLOWER of {verdicts}" + (", a compare FAILED" if failed else "")
        print(f"   total: {compare} (target <= 1)")
        out["compare"] = {"pairs": pairs, "fasterOrSlower": flagged, "verdicts": verdicts}

    print(f"repeat-check: coverage {show(coverage)}% (target 95), median CI half-width "
          f"{show(half, 2)}% (target 1), ref within 1%: {show(ref_share)}% (target 90), "
          f"compare: {compare} (target <= 1)")
    out["missed"] = [name for name, ok in [
        ("coverage", coverage is not None and coverage >= 95),
        ("ciHalfWidth", half is not None and half <= 1),
        ("referenceWithin1Pct", ref_share is not None and ref_share >= 90),
        ("compare", not failed and flagged <= 1)] if not ok]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
    if args.require and out["missed"]:
        print("repeat-check: missed " + ", ".join(out["missed"]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
