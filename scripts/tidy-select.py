#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Which .cpp files scripts/tidy.sh checks, and a compile database clang-tidy can read.

  tidy-select.py BUILD ROOT DIRS [SINCE]

Prints the selected sources, one per line relative to ROOT, and says on stderr how many and
why. Writes BUILD/tidy/compile_commands.json: BUILD's database without the precompiled-header
flags CMake adds for GCC (clang cannot read GCC's .gch, and a source must include what it uses
anyway).

Without SINCE: every .cpp of the top-level directories DIRS in the database. With SINCE (a
commit at which the whole tree was checked clean, .ci/tidy-base), only the sources a change
since then can affect:
  - a source that changed, or whose object depends on a file that changed (the headers each
    object read, from `ninja -t deps` in BUILD: a changed header selects every source that
    includes it, so its diagnostics are seen);
  - every source under a directory whose CMakeLists.txt changed (its flags may have);
  - every source, when the checks or how they run changed (.clang-tidy, this script,
    scripts/tidy.sh, CMakePresets.json, the top-level CMakeLists.txt, cmake/), when a
    configure_file template (*.in) changed (the header it makes lies in BUILD, where the
    recorded dependencies do not name the template), when SINCE is not a commit of this clone
    (a shallow clone), or when an object has no recorded dependencies (not built yet).
The working tree counts as changed where it differs from SINCE, committed or not.
"""
import json
import os
import re
import subprocess
import sys

# A change to one of these can change every file's result.
GLOBAL_INPUTS = {".clang-tidy", "scripts/tidy.sh", "scripts/tidy-select.py", "CMakePresets.json",
                 "CMakeLists.txt"}
PCH_FLAGS = re.compile(r"\s-Winvalid-pch\b|\s-include\s+\S*cmake_pch\.hxx\b")


def database_sources(db, root, dirs):
    """The .cpp files of DIRS that the database compiles, relative to ROOT."""
    found = set()
    for entry in db:
        path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        rel = os.path.relpath(path, root)
        if rel.endswith(".cpp") and rel.split(os.sep)[0] in dirs:
            found.add(rel)
    return found


def ninja_deps(text, root):
    """{relative source: set of relative project files it read} from `ninja -t deps` output.

    The first dependency GCC records for an object is its source; files outside ROOT (system
    headers) are dropped, they do not change between commits.
    """
    deps, current = {}, None
    for line in text.splitlines():
        if not line.startswith(" "):
            current = None if not line.strip() else []
            continue
        if current is None:
            continue
        rel = os.path.relpath(os.path.realpath(line.strip()), root)
        if rel.startswith(".."):
            continue
        if not current:
            deps.setdefault(rel, set())
            current.append(rel)
        deps[current[0]].add(rel)
    return deps


def select(sources, deps, changed):
    """(selected sources, reason) for the set of changed files; None for `changed` means all."""
    everything = sorted(sources)
    if changed is None:
        return everything, "the whole tree"
    touched_global = sorted(changed & GLOBAL_INPUTS |
                            {c for c in changed if c.startswith("cmake/") or c.endswith(".in")})
    if touched_global:
        return everything, f"the whole tree: {', '.join(touched_global)} changed"
    unbuilt = [s for s in everything if s not in deps]
    if unbuilt:
        return everything, f"the whole tree: no recorded dependencies for {unbuilt[0]} (not built?)"
    cmake_dirs = [os.path.dirname(c) + "/" for c in changed if os.path.basename(c) == "CMakeLists.txt"]
    picked = [s for s in everything
              if s in changed or deps[s] & changed or any(s.startswith(d) for d in cmake_dirs)]
    return picked, f"{len(picked)} of {len(everything)} sources a change since the base can affect"


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)


def changed_since(root, since):
    """Files that differ between SINCE and the working tree (untracked ones too); None when
    SINCE is not a commit of this clone."""
    if git(root, "cat-file", "-e", f"{since}^{{commit}}").returncode != 0:
        return None
    diff = git(root, "diff", "--name-only", since)
    untracked = git(root, "ls-files", "--others", "--exclude-standard")
    if diff.returncode != 0 or untracked.returncode != 0:
        return None
    return set(diff.stdout.split()) | set(untracked.stdout.split())


def write_database(db, build):
    """Writes BUILD/tidy/compile_commands.json: DB without the precompiled-header flags."""
    out_dir = os.path.join(build, "tidy")
    os.makedirs(out_dir, exist_ok=True)
    stripped = [dict(e, command=PCH_FLAGS.sub("", e["command"])) if "command" in e else e for e in db]
    with open(os.path.join(out_dir, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(stripped, f, indent=1)


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    build, root, dirs = argv[1], os.path.realpath(argv[2]), argv[3].split()
    since = argv[4] if len(argv) == 5 and argv[4] else None
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        db = json.load(f)
    sources = database_sources(db, root, dirs)
    write_database(db, build)
    if since is None:
        picked, why = select(sources, {}, None)
    else:
        changed = changed_since(root, since)
        if changed is None:
            picked, why = select(sources, {}, None)
            why += f" (base {since} is not a commit of this clone)"
        else:
            ninja = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True)
            deps = ninja_deps(ninja.stdout, root) if ninja.returncode == 0 else {}
            picked, why = select(sources, deps, changed)
            why += f" (base {since[:12]})"
    print(f"tidy: {why}", file=sys.stderr)
    print("\n".join(picked))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
