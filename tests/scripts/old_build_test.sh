#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/old-build.sh prepare + overlay, in a throwaway repository: the overlaid copy of the
# working tree must be the earlier revision's tree (a changed file as it was, a deleted one back,
# files added since, committed or not, gone), docs as they are now, and a revision that does
# not exist refused by name with exit 2. Usage: old_build_test.sh SCRIPT
set -euo pipefail
script=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

repo=$work/repo
mkdir -p "$repo/scripts" "$repo/sub" "$repo/docs"
cp "$script" "$repo/scripts/old-build.sh"
cd "$repo"
git init -q
git config user.email t@example.com
git config user.name test
printf 'out/\nbuild/\n' >.gitignore
echo "a at rev1" >a.txt
echo "b at rev1" >sub/b.txt
echo "docs at rev1" >docs/x.md
git add -A && git commit -qm rev1
rev1=$(git rev-parse --short HEAD)
echo "a at rev2" >a.txt
git rm -q sub/b.txt
echo "c, added in rev2" >c.txt
echo "docs at rev2" >docs/x.md
git add -A && git commit -qm rev2
echo "a, uncommitted" >a.txt
echo "d, untracked" >d.txt
mkdir -p build && echo "a build output" >build/junk

bash scripts/old-build.sh prepare "$rev1" out/old >"$work/prepare.log"
bash scripts/old-build.sh overlay out/old "$work/src"
src=$work/src
[[ $(cat "$src/a.txt") == "a at rev1" ]] || fail "a.txt is '$(cat "$src/a.txt")', not rev1's"
[[ -f $src/sub/b.txt && $(cat "$src/sub/b.txt") == "b at rev1" ]] || fail "sub/b.txt not restored"
[[ ! -e $src/c.txt ]] || fail "c.txt (added in rev2) is still there"
[[ ! -e $src/d.txt ]] || fail "d.txt (untracked) is still there"
[[ ! -e $src/build/junk ]] || fail "build output copied"
[[ ! -e $src/.git ]] || fail ".git copied"
[[ $(cat "$src/docs/x.md") == "docs at rev2" ]] || fail "docs were overlaid"
[[ $(cat out/old/rev) == "$rev1" ]] || fail "rev file says '$(cat out/old/rev)'"

set +e
bash scripts/old-build.sh prepare no-such-rev out/bad >/dev/null 2>"$work/err"
code=$?
set -e
[[ $code -eq 2 ]] || fail "a bad revision exited $code, not 2"
grep -q "'no-such-rev' is not a revision" "$work/err" || fail "message: $(cat "$work/err")"
echo "old-build: prepare and overlay give the earlier tree; a bad revision is refused"
