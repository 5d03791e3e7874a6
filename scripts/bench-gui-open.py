#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times kwb-gui opening documents of many distinct shapes (headless).

Builds documents of N distinct shapes from the bundled spec-benchmark sample (its cases are
copied to new shapes, samples trimmed) and times `kwb-gui --open doc --screenshot` for each N.
Opening time must grow about linearly with the number of shapes.

    python3 scripts/bench-gui-open.py [--gui build/gui/kwb-gui] [--kernels 3] 600 1200 2460
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_document(sample, shapes, kernels):
    doc = copy.deepcopy(sample)
    templates = {}
    for c in sample["cases"]:
        templates.setdefault(c["kernel"], c)
    chosen = list(templates.values())[:kernels]
    doc["cases"] = []
    for i in range(shapes):
        shape = {"m": 256 + i, "n": 384 + (i * 7) % 512, "k": 640 + (i * 13) % 1024}
        for t in chosen:
            c = copy.deepcopy(t)
            c["shape"] = shape
            c["samplesMs"] = c["samplesMs"][:50]
            if c.get("sampleRounds"):  # schema 5: one round per sample
                c["sampleRounds"] = c["sampleRounds"][:50]
            if c.get("verification"):
                for key in ("compare", "alphaBeta"):
                    if c["verification"].get(key):
                        c["verification"][key].pop("errorGrid", None)
            doc["cases"].append(c)
    doc["progression"] = {"checked": False, "violations": []}
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gui", default=os.path.join(ROOT, "build/gui/kwb-gui"))
    ap.add_argument("--kernels", type=int, default=3)
    ap.add_argument("--tab", default="Correctness")
    ap.add_argument("shapes", type=int, nargs="*", default=[120, 300, 600, 1200, 2460])
    args = ap.parse_args()
    with open(os.path.join(ROOT, "resources/samples/spec-benchmark-h100.json")) as f:
        sample = json.load(f)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.shapes:
            path = os.path.join(tmp, f"shapes-{n}.json")
            with open(path, "w") as f:
                json.dump(make_document(sample, n, args.kernels), f)
            start = time.monotonic()
            r = subprocess.run([args.gui, "--open", path, "--screenshot",
                                os.path.join(tmp, "x.png"), "--tab", args.tab],
                               env=env, capture_output=True, text=True)
            elapsed = time.monotonic() - start
            if r.returncode != 0:
                sys.exit(f"kwb-gui failed on {n} shapes: {r.stderr}")
            print(f"{n:6d} shapes x {args.kernels} kernels: {elapsed:6.2f} s", flush=True)


if __name__ == "__main__":
    main()
