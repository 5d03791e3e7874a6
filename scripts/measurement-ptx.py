#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A measurement build's sgemm.wgmma kernels must be the release build's.

Usage: measurement-ptx.py NVCC SOURCE_ROOT [--measurement-define NAME ...]

Measurement builds (-DKWB_PERF_EXPERIMENT) add environment switches to the launchers and extra
kernel instances, and their A/B runs stand for the release kernels only while every kernel both
builds have compiles to the same code. This compiles sgemm.wgmma's sm_90a sources to PTX twice,
as a release build and as a measurement build (plus any --measurement-define, e.g. a flag that
does change a kernel, to see the check fail), and compares each kernel entry the two have in
common, branch labels numbered apart. No GPU: nvcc only.
Exit 0 when they agree, 1 naming the kernels that differ, 2 when a compile fails or no kernel is
shared.
"""
import os
import re
import subprocess
import sys
import tempfile

SOURCES = ["kernels/sgemm_wgmma.cu", "kernels/sgemm_wgmma_cluster_split.cu"]
ENTRY = re.compile(r"^(?:\.visible )?\.entry (\S+)\(", re.M)
LABEL = re.compile(r"\$L__BB\d+_")
ANONYMOUS = re.compile(r"(\d+)_GLOBAL__N_")


def unhashed(text):
    """The text with each anonymous namespace's mangled name (its length, then _GLOBAL__N_ and a
    hash of the compile) written as 'anon': the hash differs between the two builds."""
    out, at = [], 0
    for m in ANONYMOUS.finditer(text):
        if m.start() < at:
            continue
        out.append(text[at:m.start()])
        out.append("4anon")
        at = m.end(1) + int(m.group(1))
    out.append(text[at:])
    return "".join(out)


def includes(root):
    core = os.path.join(root, "core")
    dirs = [os.path.join(root, "kernels")]
    dirs += sorted(os.path.join(core, d, "include") for d in os.listdir(core)
                   if os.path.isdir(os.path.join(core, d, "include")))
    return [f"-I{d}" for d in dirs]


def kernels(nvcc, root, source, defines, out):
    cmd = [nvcc, "-std=c++20", "-O3", "--generate-code=arch=compute_90a,code=[compute_90a]",
           "-ptx", *includes(root), *[f"-D{d}" for d in defines],
           os.path.join(root, source), "-o", out]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"measurement-ptx: {source} did not compile ({' '.join(defines) or 'release'}):\n"
                 + p.stderr[-2000:])
    text = unhashed(open(out).read())
    found = {}
    for m in ENTRY.finditer(text):
        end = text.find("\n}\n", m.start())
        found[m.group(1)] = LABEL.sub("L_", text[m.start():end])
    return found


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    nvcc, root = argv[1], os.path.realpath(argv[2])
    extra = []
    rest = argv[3:]
    while rest:
        if rest[0] != "--measurement-define" or len(rest) < 2:
            sys.exit(f"measurement-ptx: unknown argument {rest[0]!r}\n{__doc__}")
        extra.append(rest[1])
        rest = rest[2:]
    shared, differ = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for i, source in enumerate(SOURCES):
            release = kernels(nvcc, root, source, [], os.path.join(tmp, f"r{i}.ptx"))
            measured = kernels(nvcc, root, source, ["KWB_PERF_EXPERIMENT", *extra],
                               os.path.join(tmp, f"m{i}.ptx"))
            for name in sorted(release.keys() & measured.keys()):
                shared += 1
                if release[name] != measured[name]:
                    differ.append(f"{source}: {name}")
    if shared == 0:
        print("measurement-ptx: the two builds share no kernel: nothing was compared")
        return 2
    if differ:
        print(f"measurement-ptx: {len(differ)} of {shared} kernels differ between the release "
              "and the measurement build:")
        print("\n".join("  " + d for d in differ))
        return 1
    print(f"measurement-ptx: all {shared} kernels the two builds share are the same code")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
