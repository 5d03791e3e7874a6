#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Holds the tree to its size rule: no source file over 500 lines and no function over 80 lines.

usage: check-sizes.py DIR [DIR ...]

A function is a definition that starts at the left margin (clang-format indents nothing inside a
namespace) and runs to its matching closing brace; member functions defined inside a class body
are counted with the class's own functions only when defined out of line. Prints each offender as
`path:line: function NAME is N lines (at most 80)` or `path: N lines (at most 500)` and exits 1 if
there is any.
"""
import os
import sys

MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80
SOURCE_SUFFIXES = ('.cpp', '.h', '.cu', '.cuh')
NOT_FUNCTIONS = ('namespace', '}', '#', '//', 'struct', 'class', 'enum', 'using', 'template',
                 'extern', 'static_assert', 'constexpr', 'inline constexpr', 'union')


def functions(lines):
    """(first line number, length, signature) of each function defined at the left margin."""
    i = 0
    while i < len(lines):
        head = lines[i]
        if head and not head[0].isspace() and not head.startswith(NOT_FUNCTIONS) and '(' in head:
            j = i  # the signature may span lines up to its opening brace
            while j < len(lines) and j < i + 8 and not lines[j].rstrip().endswith(('{', ';')):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith('{') and '=' not in head.split('(')[0]:
                depth, k = 0, j
                for k in range(j, len(lines)):
                    depth += lines[k].count('{') - lines[k].count('}')
                    if depth <= 0:
                        break
                yield i + 1, k - i + 1, head.strip()
                i = k + 1
                continue
        i += 1


def check(roots):
    problems = []
    for root in roots:
        for folder, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    lines = f.read().split('\n')
                count = len(lines) - (1 if lines and lines[-1] == '' else 0)
                if count > MAX_FILE_LINES:
                    problems.append(f'{path}: {count} lines (at most {MAX_FILE_LINES})')
                for line, length, signature in functions(lines):
                    if length > MAX_FUNCTION_LINES:
                        problems.append(f'{path}:{line}: function {signature[:80]} is {length} '
                                        f'lines (at most {MAX_FUNCTION_LINES})')
    return problems


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    missing = [r for r in sys.argv[1:] if not os.path.isdir(r)]
    if missing:
        print(f'check-sizes: no such folder: {", ".join(missing)}', file=sys.stderr)
        return 2
    problems = check(sys.argv[1:])
    for p in problems:
        print(p)
    print(f'check-sizes: {len(problems)} over the limits in {", ".join(sys.argv[1:])}')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
