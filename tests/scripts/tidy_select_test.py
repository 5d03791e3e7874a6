#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/tidy-select.py in a throwaway repository: with a base, only the sources a change can
affect are checked (a changed header selects the source that includes it, not its neighbour);
the whole tree when the checks changed or the base is not in the clone; the precompiled header
is gone from the database clang-tidy reads. Usage: tidy_select_test.py SCRIPT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.realpath(sys.argv.pop(1))


def sh(cwd, *args):
    return subprocess.run(args, cwd=cwd, check=True, capture_output=True, text=True).stdout


class TidySelect(unittest.TestCase):
    def setUp(self):
        self.repo = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.repo)
        self.write(".gitignore", "build/\n")
        self.write(".clang-tidy", "Checks: '-*'\n")
        self.write("core/a.cpp", '#include "a.h"\n')
        self.write("core/a.h", "int a();\n")
        self.write("core/b.cpp", "int b() { return 1; }\n")
        self.write("cli/c.cpp", '#include "../core/a.h"\n')
        self.write("tests/t.cpp", "int t;\n")
        sh(self.repo, "git", "init", "-q")
        sh(self.repo, "git", "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "base",
           "--allow-empty")
        sh(self.repo, "git", "add", "-A")
        sh(self.repo, "git", "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "one")
        self.base = sh(self.repo, "git", "rev-parse", "HEAD").strip()
        self.build = os.path.join(self.repo, "build")
        os.makedirs(self.build)
        pch = " -Winvalid-pch -include /x/build/core/CMakeFiles/lib.dir/cmake_pch.hxx"
        db = [{"directory": self.build, "file": os.path.join(self.repo, f),
               "command": f"g++ -Icore{pch} -c {f}"} for f in
              ("core/a.cpp", "core/b.cpp", "cli/c.cpp", "tests/t.cpp")]
        with open(os.path.join(self.build, "compile_commands.json"), "w") as f:
            json.dump(db, f)
        # What `ninja -t deps` would print; the test puts a fake ninja first on PATH.
        deps = "".join(f"{o}: #deps 3, deps mtime 1 (VALID)\n    {self.repo}/{s}\n"
                       f"    /usr/include/stdio.h\n" + "".join(f"    {self.repo}/{h}\n" for h in hs) + "\n"
                       for o, s, hs in (("core/a.o", "core/a.cpp", ["core/a.h"]),
                                        ("core/b.o", "core/b.cpp", []),
                                        ("cli/c.o", "cli/c.cpp", ["core/a.h"]),
                                        ("tests/t.o", "tests/t.cpp", [])))
        self.bin = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.bin)
        self.write_exec(os.path.join(self.bin, "ninja"), f"#!/bin/sh\ncat <<'EOF'\n{deps}EOF\n")

    def write(self, rel, text):
        path = os.path.join(self.repo, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def write_exec(self, path, text):
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)

    def run_select(self, since=""):
        env = dict(os.environ, PATH=self.bin + os.pathsep + os.environ["PATH"])
        p = subprocess.run([sys.executable, SCRIPT, self.build, self.repo, "core cli", since],
                           capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.split(), p.stderr

    def test_without_a_base_every_source_of_the_directories(self):
        picked, why = self.run_select()
        self.assertEqual(picked, ["cli/c.cpp", "core/a.cpp", "core/b.cpp"])
        self.assertIn("the whole tree", why)

    def test_a_changed_header_selects_its_includers_only(self):
        self.write("core/a.h", "int a(int);\n")
        picked, why = self.run_select(self.base)
        self.assertEqual(picked, ["cli/c.cpp", "core/a.cpp"])
        self.assertIn("2 of 3", why)

    def test_a_changed_source_selects_itself_only(self):
        self.write("core/b.cpp", "int b() { return 2; }\n")
        picked, _ = self.run_select(self.base)
        self.assertEqual(picked, ["core/b.cpp"])

    def test_nothing_changed_nothing_checked(self):
        picked, why = self.run_select(self.base)
        self.assertEqual(picked, [])
        self.assertIn("0 of 3", why)

    def test_a_directory_cmakelists_selects_its_sources(self):
        self.write("cli/CMakeLists.txt", "add_library(x c.cpp)\n")
        picked, _ = self.run_select(self.base)
        self.assertEqual(picked, ["cli/c.cpp"])

    def test_changed_checks_select_everything(self):
        self.write(".clang-tidy", "Checks: 'bugprone-*'\n")
        picked, why = self.run_select(self.base)
        self.assertEqual(len(picked), 3)
        self.assertIn(".clang-tidy changed", why)

    def test_a_changed_configure_template_selects_everything(self):
        self.write("core/version.h.in", "#define V @V@\n")
        picked, why = self.run_select(self.base)
        self.assertEqual(len(picked), 3)
        self.assertIn("core/version.h.in changed", why)

    def test_a_base_not_in_the_clone_selects_everything(self):
        picked, why = self.run_select("0123456789abcdef0123456789abcdef01234567")
        self.assertEqual(len(picked), 3)
        self.assertIn("not a commit of this clone", why)

    def test_the_database_for_clang_tidy_has_no_precompiled_header(self):
        self.run_select()
        with open(os.path.join(self.build, "tidy", "compile_commands.json")) as f:
            commands = [e["command"] for e in json.load(f)]
        self.assertEqual(len(commands), 4)
        for c in commands:
            self.assertNotIn("cmake_pch", c)
            self.assertNotIn("invalid-pch", c)
            self.assertIn("-Icore", c)


if __name__ == "__main__":
    unittest.main()
