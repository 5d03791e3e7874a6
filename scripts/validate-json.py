#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Validates every JSON file under resources/ against the schema its kind requires.

Presets (resources/presets/*.json), results documents (resources/samples/*.json) and
Nsight Compute profiles (resources/samples/*.profile.json, written by `kwb profile --json`: a
case's "size" of any family, or a GEMM "shape" alone as written before "size") are
checked field by field; event streams (*.jsonl) line by line. Exits 1 naming each problem.
Only the standard library is used, so CI needs nothing extra.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHAPE = re.compile(r"^[1-9][0-9]*(x[1-9][0-9]*x[1-9][0-9]*)?$")
COUNT = re.compile(r"^(0|[1-9][0-9]*|2\^[0-9]+)$")  # a 1-D family's size: 1000003 or 2^28
FAMILIES = {"gemm", "reduce", "scan"}
ELEMENT_TYPES = {"f32", "i32"}
STATUSES = {"pass", "fail", "fallback", "invalid", "error", "crashed", "skipped"}
EVENTS = {"hello", "device", "plan", "case_started", "case_finished", "case_failed", "log", "done"}
problems = []


def need(cond, where, what):
    if not cond:
        problems.append(f"{where}: {what}")
    return cond


def check_shape_obj(s, where):
    if need(isinstance(s, dict), where, "shape must be an object {m,n,k}"):
        for d in "mnk":
            need(isinstance(s.get(d), int) and s[d] >= 1, where, f"shape.{d} must be an integer >= 1")


def check_preset(path, j):
    w = str(path.relative_to(ROOT))
    if not need(isinstance(j, dict), w, "preset must be an object"):
        return
    need(isinstance(j.get("name"), str) and j["name"], w, "'name' must be a non-empty string")
    need(j.get("name") == path.stem, w, f"'name' must equal the file name '{path.stem}'")
    need(isinstance(j.get("description"), str), w, "'description' must be a string")
    family = j.get("family", "gemm")
    # Any family's folder under kernels/ may bring presets; its axes are the engine's to check
    # (kwb run --suite reads them): here, a family id and the count that leads every size.
    need(isinstance(family, str) and re.fullmatch(r"[a-z][a-z0-9_]*", family or ""), w,
         f"'family' {family!r} is not a family id")
    if family == "gemm":
        shapes = j.get("shapes")
        if need(isinstance(shapes, list) and shapes, w, "'shapes' must be a non-empty list"):
            for s in shapes:
                need(isinstance(s, str) and SHAPE.match(s), w, f"bad shape {s!r}")
    else:
        sizes = j.get("sizes")
        if need(isinstance(sizes, list) and sizes, w, "'sizes' must be a non-empty list"):
            for s in sizes:
                need(isinstance(s, str) and s.split() and COUNT.match(s.split()[0]), w,
                     f"bad size {s!r}")
        if family in FAMILIES and family != "gemm":  # reduce and scan: their two element types
            types = j.get("types", ["f32", "i32"])
            need(isinstance(types, list) and types and set(types) <= ELEMENT_TYPES, w,
                 "'types' must be a non-empty list of f32, i32")
        axes = j.get("axes", {})
        need(isinstance(axes, dict) and all(isinstance(v, list) and v for v in axes.values()), w,
             "'axes' must map axis names to non-empty lists of values")
    k = j.get("kernels", "all")
    need(isinstance(k, str) or (isinstance(k, list) and all(isinstance(x, str) for x in k)),
         w, "'kernels' must be a string or a list of kernel ids")


AXIS_KINDS = {"dimension", "count", "word"}


def check_size(s, families, w):
    """Schema 6: a case's size, {"family", "axes": [{"name", "kind", "value", "unit"?}]}."""
    if not need(isinstance(s, dict), w, "case.size must be an object"):
        return
    need(s.get("family") in families, w, f"case.size.family {s.get('family')!r} is not in 'families'")
    axes = s.get("axes")
    if not need(isinstance(axes, list) and axes, w, "case.size.axes must be a non-empty list"):
        return
    for a in axes:
        if not need(isinstance(a, dict) and isinstance(a.get("name"), str), w,
                    "a size axis needs a name"):
            continue
        kind = a.get("kind")
        need(kind in AXIS_KINDS, w, f"axis {a['name']}: kind {kind!r} unknown")
        if kind == "word":
            need(isinstance(a.get("value"), str) and a["value"], w, f"axis {a['name']}: a word")
        else:
            need(isinstance(a.get("value"), int) and a["value"] >= 0, w,
                 f"axis {a['name']}: an integer >= 0")


def check_families(fams, w):
    """Schema 6: the families the cases are of, each with its axes, headline and reference."""
    if not need(isinstance(fams, list), w, "'families' must be a list"):
        return set()
    ids = set()
    for f in fams:
        if not need(isinstance(f, dict) and isinstance(f.get("id"), str), w, "a family needs an id"):
            continue
        need(f.get("headline") in ("gflops", "gbps"), w, f"family {f['id']}: headline gflops|gbps")
        need(isinstance(f.get("axes"), list) and f["axes"], w, f"family {f['id']}: axes")
        need(isinstance(f.get("reference"), str), w, f"family {f['id']}: reference")
        ids.add(f["id"])
    return ids


def check_case(c, w, families=None):
    for key in ("kernel", "status", "precision", "ranKernel", "message"):
        need(isinstance(c.get(key), str), w, f"case.{key} must be a string")
    need(c.get("status") in STATUSES, w, f"case.status {c.get('status')!r} unknown")
    if families is not None:  # schema 6
        check_size(c.get("size"), families, w)
        need(isinstance(c.get("figures"), dict), w, "case.figures must be an object")
        need(isinstance(c.get("samplesMs"), list), w, "case.samplesMs must be a list")
        need(isinstance(c.get("summary"), dict), w, "case.summary must be an object")
        return
    problem = c.get("problem", "gemm")
    need(problem in FAMILIES, w, f"case.problem {problem!r} unknown")
    if problem == "gemm":
        check_shape_obj(c.get("shape"), w)
    else:  # 1-D families: a count and an element type; the shape is {0,0,0}
        need(isinstance(c.get("count"), int) and c["count"] >= 0, w,
             "case.count must be an integer >= 0")
        need(c.get("elementType") in ELEMENT_TYPES, w, "case.elementType must be f32 or i32")
        need(isinstance(c.get("figures"), dict), w, "case.figures must be an object")
    need(isinstance(c.get("samplesMs"), list), w, "case.samplesMs must be a list")
    need(isinstance(c.get("summary"), dict), w, "case.summary must be an object")
    need(isinstance(c.get("gflops"), (int, float)), w, "case.gflops must be a number")


def check_kernels(kernels, cases, w):
    """The document's "kernels" list (absent in documents written before it existed)."""
    if not need(isinstance(kernels, list), w, "'kernels' must be a list"):
        return
    ids = set()
    for i, k in enumerate(kernels):
        kw = f"{w} kernel {i}"
        if not need(isinstance(k, dict), kw, "kernel entry must be an object"):
            continue
        for key in ("id", "name", "family", "precision", "description"):
            need(isinstance(k.get(key), str), kw, f"kernel.{key} must be a string")
        need(isinstance(k.get("stage"), int) and k["stage"] >= 0, kw, "kernel.stage must be >= 0")
        for key in ("reference", "tunable"):
            need(isinstance(k.get(key), bool), kw, f"kernel.{key} must be true or false")
        ids.add(k.get("id"))
    for c in cases:
        kid = str(c.get("kernel", "")).split("[")[0]
        need(kid in ids, w, f"case kernel {kid!r} is not in 'kernels'")


def check_devices(j, w):
    """Schema 7: every device the cases ran on, and each case's index into that list."""
    devices = j.get("devices")
    if not need(isinstance(devices, list), w, "schema 7: 'devices' must be a list"):
        return
    for i, d in enumerate(devices):
        need(isinstance(d, dict) and isinstance(d.get("name"), str), f"{w} device {i}",
             "a device must have a name")
    for i, c in enumerate(j.get("cases", [])):
        d = c.get("device")
        need(d is None or (isinstance(d, int) and 0 <= d < max(len(devices), 1)), f"{w} case {i}",
             "schema 7: a case's device must be null or an index into 'devices'")


def check_results(path, j):
    w = str(path.relative_to(ROOT))
    if not need(isinstance(j, dict), w, "results must be an object"):
        return
    need(j.get("schemaVersion") in (1, 2, 3, 4, 5, 6, 7), w, "schemaVersion must be 1 to 7")
    if j.get("schemaVersion") in (5, 6, 7):
        for i, c in enumerate(j.get("cases", [])):
            if c.get("samplesMs"):
                need(len(c.get("sampleRounds", [])) == len(c["samplesMs"]), f"{w} case {i}",
                     "schema 5: sampleRounds must give each sample's round")
                need(isinstance(c.get("uncertainty"), dict), f"{w} case {i}",
                     "schema 5: a timed case records its uncertainty")
    if j.get("schemaVersion") in (2, 3, 4, 5, 6, 7):
        need(j.get("settings", {}).get("timer") in ("isolated", "back-to-back", "cupti", "host"),
             w, "settings.timer must name the timer")
    for key in ("tool", "timestamp", "host", "settings", "knownAnswer", "cases", "progression"):
        need(key in j, w, f"missing '{key}'")
    dev = j.get("device")
    need(isinstance(dev, dict) and isinstance(dev.get("name"), str), w,
         "samples must carry the device they were recorded on")
    need(isinstance(j.get("timestamp"), str) and re.match(r"^\d{4}-\d\d-\d\dT", j["timestamp"]),
         w, "timestamp must be ISO 8601")
    if j.get("schemaVersion") == 7:
        check_devices(j, w)
    families = check_families(j.get("families"), w) if j.get("schemaVersion") in (6, 7) else None
    for i, c in enumerate(j.get("cases", [])):
        check_case(c, f"{w} case {i}", families)
    if "kernels" in j:
        check_kernels(j["kernels"], j.get("cases", []), w)


def check_stream(path):
    w = str(path.relative_to(ROOT))
    lines = path.read_text().splitlines()
    need(lines, w, "empty event stream")
    for n, line in enumerate(lines, 1):
        try:
            e = json.loads(line)
        except json.JSONDecodeError as ex:
            problems.append(f"{w}:{n}: not JSON ({ex})")
            continue
        need(e.get("event") in EVENTS, f"{w}:{n}", f"unknown event {e.get('event')!r}")
        need(isinstance(e.get("elapsedS"), (int, float)), f"{w}:{n}", "missing elapsedS")
    if lines:
        need(json.loads(lines[0]).get("event") == "hello", w, "first event must be hello")
        need(json.loads(lines[-1]).get("event") == "done", w, "last event must be done")


def check_profile(path, j):
    w = str(path.relative_to(ROOT))
    need(isinstance(j.get("kernel"), str), w, "profile.kernel must be a string")
    # "size" as a results case carries it (any family); a GEMM profile also writes its "shape",
    # which a profile written before "size" carries alone.
    size, shape = j.get("size"), j.get("shape")
    need(size is not None or shape is not None, w, "a profile needs 'size' (or 'shape')")
    if shape is not None:
        need(isinstance(shape, str) and SHAPE.match(shape), w, "profile.shape must be a shape")
    if size is not None:
        family = size.get("family") if isinstance(size, dict) else None
        known = {family} if isinstance(family, str) and re.fullmatch(r"[a-z][a-z0-9_]*", family) else set()
        check_size(size, known, f"{w} size")
        need(shape is None or family == "gemm", w, "only a gemm profile carries a 'shape'")
    kernels = j.get("kernels")
    need(isinstance(kernels, list) and kernels, w, "profile.kernels must be a non-empty list")
    for i, k in enumerate(kernels if isinstance(kernels, list) else []):
        kw = f"{w} kernel {i}"
        need(isinstance(k.get("name"), str) and k["name"], kw, "name must be a string")
        for f in ("durationUs", "smThroughputPct", "memoryThroughputPct", "achievedOccupancyPct",
                  "dramBytes"):
            need(isinstance(k.get(f), (int, float)) and k[f] >= 0, kw, f"{f} must be a number >= 0")


def main():
    files = sorted(p for p in (ROOT / "resources").rglob("*") if p.suffix in (".json", ".jsonl"))
    for p in files:
        if p.suffix == ".jsonl":
            check_stream(p)
            continue
        try:
            j = json.loads(p.read_text())
        except json.JSONDecodeError as ex:
            problems.append(f"{p.relative_to(ROOT)}: not valid JSON ({ex})")
            continue
        if "presets" in p.parts:
            check_preset(p, j)
        elif "samples" in p.parts and p.name.endswith(".profile.json"):
            check_profile(p, j)
        elif "samples" in p.parts:
            check_results(p, j)
        else:
            problems.append(f"{p.relative_to(ROOT)}: no schema known for this location")
    for line in problems:
        print("validate-json:", line, file=sys.stderr)
    print(f"validate-json: {len(files)} files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
