#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Adds the SPDX licence line to every source file that lacks it, or (with --check) lists them.

usage: add-spdx.py [--check]

Sources are git's tracked files ending in .h .cpp .cu .cuh .cmake .py .sh plus CMakeLists.txt;
the line is `// SPDX-License-Identifier: Apache-2.0` (or `#` for CMake, Python and shell), put
after a shebang line where there is one. Planted test fixtures under tests/data are left alone.
Exits 1 with --check when a file lacks it.
"""
import os
import subprocess
import sys

TAG = 'SPDX-License-Identifier: Apache-2.0'
SLASH = ('.h', '.cpp', '.cu', '.cuh')
HASH = ('.cmake', '.py', '.sh')


def tracked():
    """git's tracked files; where there is no git checkout (a tree copied to a GPU machine),
    every file outside build folders."""
    try:
        return subprocess.run(['git', 'ls-files'], capture_output=True, text=True,
                              check=True).stdout.split('\n')
    except (OSError, subprocess.CalledProcessError):
        out = []
        for folder, dirs, files in os.walk('.'):
            dirs[:] = [d for d in dirs if not d.startswith(('build', '.'))]
            out += [os.path.relpath(os.path.join(folder, f)) for f in files]
        return out


def sources():
    files = tracked()
    for f in files:
        if not f or f.startswith('tests/data/'):
            continue
        if f.endswith(SLASH + HASH) or f.endswith('CMakeLists.txt'):
            yield f


def main():
    args = sys.argv[1:]
    if args and (args[0] in ('-h', '--help') or args != ['--check']):
        print(__doc__, file=sys.stderr if args[0] not in ('-h', '--help') else sys.stdout)
        return 0 if args[0] in ('-h', '--help') else 2
    check = args == ['--check']
    missing = []
    for path in sources():
        with open(path, encoding='utf-8') as f:
            text = f.read()
        if any(TAG in line for line in text.split('\n')[:3]):
            continue
        missing.append(path)
        if check:
            continue
        line = ('// ' if path.endswith(SLASH) else '# ') + TAG + '\n'
        if text.startswith('#!'):
            first, _, rest = text.partition('\n')
            text = first + '\n' + line + rest
        else:
            text = line + text
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
    for m in missing:
        print(('lacks the SPDX line: ' if check else 'added: ') + m)
    return 1 if check and missing else 0


if __name__ == '__main__':
    sys.exit(main())
