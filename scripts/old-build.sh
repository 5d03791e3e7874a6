#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A kwb built from an earlier revision, for `kwb ab --against-kwb OLD KERNEL ...` (the
# interleaved A/B of one kernel across two builds, docs/MEASUREMENT.md), on a machine that has
# the working tree but not the repository's history (the GPU machine is sent the working tree,
# not .git). Three steps:
#
#   scripts/old-build.sh prepare REV [DIR]     here, in the repository: every tracked file that
#       differs between REV and the working tree, as it was at REV, under DIR/files/, the files
#       REV did not have in DIR/added, and REV's short hash in DIR/rev. DIR defaults to out/old
#       (out/ is ignored: name it in the device tool's carry).
#   scripts/old-build.sh overlay DIR SRC       the working tree copied to SRC with DIR laid over
#       it: SRC is then REV's tree (build outputs, out/ and .git are not copied).
#   scripts/old-build.sh build DIR [BUILD]     on the GPU machine: overlay into BUILD/src, then
#       configure (Release, no GUI, KWB_ARCH or 90a, REV as the revision) and build target kwb
#       in BUILD/b (default /tmp/kwb-old). The last line printed is the kwb's path.
#
# Docs, screenshots and recorded samples are left out of the overlay: they do not change a build.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

prepare() {
  local rev=${1:-} dir=${2:-}
  [[ -n $rev ]] || usage
  git rev-parse --verify --quiet "$rev^{commit}" >/dev/null ||
    { echo "old-build: '$rev' is not a revision of this repository" >&2; exit 2; }
  local short
  short=$(git rev-parse --short "$rev")
  dir=${dir:-out/old}
  rm -rf "$dir"
  mkdir -p "$dir/files"
  : >"$dir/added"
  local status path
  # Tracked changes since REV (committed or not) and untracked files git does not ignore.
  while IFS=$'\t' read -r status path; do
    case $status in
      A) echo "$path" >>"$dir/added" ;;
      *) mkdir -p "$dir/files/$(dirname "$path")"
         git show "$rev:$path" >"$dir/files/$path" ;;
    esac
  done < <(git diff --no-renames --name-status "$rev" -- . ':!docs' ':!resources/samples' ':!*.png')
  git ls-files --others --exclude-standard -- . ':!docs' ':!resources/samples' ':!*.png' >>"$dir/added"
  echo "$short" >"$dir/rev"
  echo "old-build: $(find "$dir/files" -type f | wc -l) files as at $short, $(wc -l <"$dir/added") to remove, in $dir"
}

overlay() {
  local dir=${1:-} src=${2:-}
  [[ -n $dir && -n $src ]] || usage
  [[ -f $dir/rev && -f $dir/added && -d $dir/files ]] ||
    { echo "old-build: '$dir' is not an overlay written by 'old-build.sh prepare'" >&2; exit 2; }
  rm -rf "$src"
  mkdir -p "$src"
  tar -cf - --exclude=./.git --exclude='./build*' --exclude=./out . | tar -xf - -C "$src"
  cp -r "$dir/files/." "$src/"
  local path
  while IFS= read -r path; do
    [[ -n $path ]] && rm -f "$src/$path"
  done <"$dir/added"
}

build() {
  local dir=${1:-} root=${2:-/tmp/kwb-old}
  [[ -n $dir ]] || usage
  overlay "$dir" "$root/src"
  export PATH="/usr/local/cuda/bin:$PATH"
  cmake -S "$root/src" -B "$root/b" -G Ninja -DKWB_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${KWB_ARCH:-90a}" -DKWB_GIT_REVISION="$(cat "$dir/rev")" \
    >"$root/configure.log" 2>&1 || { tail -20 "$root/configure.log" >&2; exit 1; }
  cmake --build "$root/b" -j"$(nproc)" --target kwb >"$root/build.log" 2>&1 ||
    { grep -E "error|Error" "$root/build.log" | head -20 >&2; exit 1; }
  echo "$root/b/cli/kwb"
}

case ${1:-} in
  prepare) shift; prepare "$@" ;;
  overlay) shift; overlay "$@" ;;
  build) shift; build "$@" ;;
  *) usage ;;
esac
