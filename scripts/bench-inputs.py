#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Costs of large and hostile inputs (issue 33 item 3, docs/RELIABILITY.md "Bounded inputs").

Generates, in a temporary folder:
  - two documents of N cases (default 48,000: 16,000 shapes x 3 kernels), the second with
    every median 1% slower, and times `kwb compare` of them and `kwb-gui --open` of one;
  - a 63 MiB file of '[' and times/measures `kwb export` refusing it (exit 2 wanted);
  - a 4 MiB preset of 333k shapes and times kwb-gui's first paint with it as the only preset;
  - an event stream of 10^6 log events and measures `kwb replay --speed 0`'s peak memory, and
    one whose times span a week and times `kwb replay` of it.
Wall time and peak RSS come from /usr/bin/time -v. Timings stay out of ctest: run this by hand.

    python3 scripts/bench-inputs.py [--kwb build/cli/kwb] [--gui build/gui/kwb-gui] [--cases N]
"""
import argparse
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, env=None):
    """(exit code, wall seconds, peak RSS MB, stderr) of cmd under /usr/bin/time -v."""
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, env=env, capture_output=True, text=True)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", r.stderr)
    secs = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
            if wall else float("nan"))
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
    err = "\n".join(line for line in r.stderr.split("\tCommand being timed")[0].splitlines()
                    if not line.startswith("Command exited with"))
    return r.returncode, secs, int(rss.group(1)) / 1024 if rss else float("nan"), err


def report(name, result, want=None):
    code, secs, mb, err = result
    print(f"{name:44s} exit {code}  {secs:7.2f} s  {mb:8.1f} MB peak"
          + (f"  (want {want})" if want else ""), flush=True)
    if code not in (0, 1) and err:
        print(f"{'':44s} {err.splitlines()[-1][:150]}", flush=True)


def round_floats(x):
    """Floats to 6 significant digits in place: 48k cases stay within the 64 MiB bound."""
    items = x.items() if isinstance(x, dict) else enumerate(x)
    for k, v in list(items):
        if isinstance(v, float):
            x[k] = float(f"{v:.6g}")
        elif isinstance(v, (dict, list)):
            round_floats(v)


def gemm_size(m, n, k):
    """A case's size as schema 7 writes it: the family and its axes."""
    return {"family": "gemm", "axes": [{"kind": "dimension", "name": a, "value": v}
                                       for a, v in (("m", m), ("n", n), ("k", k))]}


def small_case(template, shape, slower):
    c = copy.deepcopy(template)
    c["size"] = shape
    c.pop("shape", None)
    # Optional fields dropped and no verification: 48k cases stay within the 64 MiB bound.
    for key in ("kernels", "uncertainty", "count", "cuptiMedianMs", "elementType", "paired",
                "pctOfFp16Reference", "pctOfFp32Reference", "throttledSamples", "timerNote",
                "timerVsCuptiPct", "warmupSmClockMhz"):
        c.pop(key, None)
    c["verification"] = None
    c["samplesMs"] = c["samplesMs"][:2]
    c["sampleRounds"] = c.get("sampleRounds", [0, 0])[:2]
    round_floats(c)
    if slower:
        s = c["summary"]
        for key in ("median", "mean", "min", "max", "p5", "p25", "p75", "p95"):
            s[key] *= 1.01
        s["ci95"] = [x * 1.01 for x in s["ci95"]]
    return c


def make_documents(cases, kernels=3):
    with open(os.path.join(ROOT, "resources/samples/spec-benchmark-h100.json")) as f:
        sample = json.load(f)
    templates = {}
    for c in sample["cases"]:
        if c.get("summary", {}).get("median", 0) > 0:
            templates.setdefault(c["kernel"], c)
    chosen = list(templates.values())[:kernels]
    docs = []
    for slower in (False, True):
        doc = copy.deepcopy(sample)
        doc.pop("tuning", None)
        doc.pop("conformance", None)
        doc["progression"] = {"checked": False, "violations": []}
        small = [small_case(t, {}, slower) for t in chosen]
        doc["cases"] = []
        for i in range(cases // len(chosen)):
            shape = gemm_size(256 + i, 384 + (i * 7) % 512, 640 + (i * 13) % 1024)
            for t in small:
                c = dict(t)
                c["size"] = shape
                doc["cases"].append(c)
        docs.append(doc)
    return docs


def preset(shapes):
    names = [str(64 + i) for i in range(shapes)]  # cubic shapes: 333k fit the 4 MiB bound
    return {"name": "huge", "description": f"{shapes} shapes", "shapes": names}


def event_stream(path, events, last_elapsed):
    """The bundled sample stream's hello, `events` log lines and its done at last_elapsed."""
    with open(os.path.join(ROOT, "resources/samples/spec-benchmark-h100.jsonl")) as f:
        lines = f.read().splitlines()
    hello, done = json.loads(lines[0]), json.loads(lines[-1])
    done["elapsedS"] = last_elapsed
    with open(path, "w") as f:
        f.write(json.dumps(hello) + "\n")
        for _ in range(events):
            f.write('{"event":"log","elapsedS":0,"level":"info","message":"m"}\n')
        f.write(json.dumps(done) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kwb", default=os.path.join(ROOT, "build/cli/kwb"))
    ap.add_argument("--gui", default=os.path.join(ROOT, "build/gui/kwb-gui"))
    ap.add_argument("--cases", type=int, default=48000)
    ap.add_argument("--shapes", type=int, default=333000)
    ap.add_argument("--events", type=int, default=1000000)
    ap.add_argument("--skip", nargs="*", default=[],
                    help="any of: compare gui nesting preset replay")
    args = ap.parse_args()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    with tempfile.TemporaryDirectory() as tmp:
        p = lambda name: os.path.join(tmp, name)  # noqa: E731
        if "compare" not in args.skip or "gui" not in args.skip:
            base, now = make_documents(args.cases)
            for name, doc in (("base.json", base), ("new.json", now)):
                with open(p(name), "w") as f:
                    json.dump(doc, f, separators=(",", ":"))
            mb = os.path.getsize(p("base.json")) / 2**20
            print(f"documents: {len(base['cases'])} cases, {mb:.1f} MiB each", flush=True)
        if "compare" not in args.skip:
            report(f"kwb compare, {args.cases} cases each",
                   timed([args.kwb, "compare", p("base.json"), p("new.json")]), "<= 2 s")
        if "gui" not in args.skip and os.path.exists(args.gui):
            report(f"kwb-gui --open, {args.cases} cases",
                   timed([args.gui, "--open", p("base.json"), "--screenshot", p("o.png")], env))
        if "nesting" not in args.skip:
            # What any kwb costs before it reads a byte (the CUDA libraries' start-up).
            report("kwb --version (the floor of every command)", timed([args.kwb, "--version"]))
            with open(p("deep.json"), "w") as f:
                f.write("[" * (63 << 20))
            for cmd in ("export", "replay"):
                extra = ["--csv", p("o.csv")] if cmd == "export" else ["--speed", "0"]
                report(f"kwb {cmd} of 63 MiB of '['",
                       timed([args.kwb, cmd, p("deep.json")] + extra), "exit 2, <= 1 s, < 200 MB")
        if "preset" not in args.skip and os.path.exists(args.gui):
            os.makedirs(p("presets"))
            with open(p("presets/huge.json"), "w") as f:
                json.dump(preset(args.shapes), f, separators=(",", ":"))
            mb = os.path.getsize(p("presets/huge.json")) / 2**20
            genv = dict(env, KWB_PRESETS_DIR=p("presets"), XDG_CONFIG_HOME=p("config"))
            report(f"kwb-gui first paint, {args.shapes}-shape preset ({mb:.1f} MiB)",
                   timed([args.gui, "--screenshot", p("p.png")], genv), "<= 2 s")
        if "replay" not in args.skip:
            event_stream(p("many.jsonl"), args.events, 1)
            mb = os.path.getsize(p("many.jsonl")) / 2**20
            out = open(os.devnull, "w")
            r = subprocess.run(["/usr/bin/time", "-v", args.kwb, "replay", "--speed", "0",
                                p("many.jsonl")], stdout=out, stderr=subprocess.PIPE, text=True)
            rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
            print(f"{'kwb replay --speed 0, %d events (%.0f MiB)' % (args.events, mb):44s} "
                  f"exit {r.returncode}  {int(rss.group(1)) / 1024:8.1f} MB peak", flush=True)
            event_stream(p("week.jsonl"), 1, 7 * 24 * 3600)
            report("kwb replay, times spanning a week",
                   timed(["timeout", "60", args.kwb, "replay", p("week.jsonl")]), "<= 1 s a gap")
    return 0


if __name__ == "__main__":
    sys.exit(main())
