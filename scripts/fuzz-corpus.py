#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpora of the fuzz targets (tests/fuzz) into DIR/<target>/.

Seeds come from resources/ and tests/data/. The recorded documents and streams are megabytes;
libFuzzer mutates small inputs far faster, so each is cut down to a few cases with a few
samples each, keeping every kind of field. Only the standard library is used.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def small_case(c):
    c = dict(c)
    c["samplesMs"] = c.get("samplesMs", [])[:4]
    return c


def small_document(doc):
    doc = dict(doc)
    cases = doc.get("cases", [])
    # Keep a case of each status, and one with an error grid, so every branch has a seed.
    kept, statuses = [], set()
    for c in cases:
        grid = (c.get("verification") or {}).get("compare", {}).get("errorGrid")
        if c.get("status") not in statuses or (grid and len(kept) < 6):
            statuses.add(c.get("status"))
            kept.append(small_case(c))
    doc["cases"] = kept[:8]
    return doc


def write(directory, name, text):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text(text)


def main(out):
    out = pathlib.Path(out)
    samples = sorted((ROOT / "resources" / "samples").glob("*.json")) + sorted(
        (ROOT / "tests" / "data").glob("*.json"))
    for path in samples:
        doc = json.loads(path.read_text())
        write(out / "fuzz_results", path.name, json.dumps(small_document(doc), separators=(",", ":")))
    streams = sorted((ROOT / "resources" / "samples").glob("*.jsonl")) + sorted(
        (ROOT / "tests" / "data").glob("*.jsonl"))
    for path in streams:
        lines = path.read_text().splitlines()
        kept, kinds = [], {}
        for line in lines:
            event = json.loads(line)
            kind = event.get("event")
            if kinds.get(kind, 0) >= 2:
                continue
            kinds[kind] = kinds.get(kind, 0) + 1
            if event.get("result"):
                event["result"] = small_case(event["result"])
            if kind == "plan":
                event["cases"] = event.get("cases", [])[:6]
            kept.append(json.dumps(event))
        write(out / "fuzz_events", path.stem + ".jsonl", "\n".join(kept) + "\n")
        # Each kind of event alone, too.
        for i, line in enumerate(kept):
            write(out / "fuzz_events", f"{path.stem}-{i}.jsonl", line + "\n")
    # The parser alone: documents, events and presets, and nesting and duplicate keys.
    for target in ("fuzz_results", "fuzz_events", "fuzz_preset"):
        for seed in sorted((out / target).glob("*"))[:20]:
            write(out / "fuzz_json", f"{target}-{seed.name}", seed.read_text())
    for i, text in enumerate(['{"a":1,"a":2}', "[" * 64 + "]" * 64, "[" * 65 + "]" * 65,
                              '{"k":"[[[["}', '{"a":{"a":{"a":[]}}}', "1e400", '"x"']):
        write(out / "fuzz_json", f"edge-{i}", text)
    shapes = set()
    for path in sorted((ROOT / "resources" / "presets").glob("*.json")):
        text = path.read_text()
        write(out / "fuzz_preset", path.name, text)
        shapes.update(json.loads(text).get("shapes", []))
    shapes.update(["512", "256x384x640", "17X19x23", "2147483647x1x1", "64\u00d764\u00d764",
                   " 128 , 1x2x3"])
    for i, s in enumerate(sorted(shapes)):
        write(out / "fuzz_shape", f"shape-{i}", s)
    write(out / "fuzz_shape", "list", ",".join(sorted(shapes)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build-fuzz/seeds")
