#!/bin/bash
# tests/target/realdrv/fetch.sh TREE_PATH OUT — one file of the 2.6.24 tree, as released.
#
# Copies TREE_PATH (e.g. drivers/ide/legacy/hd.c) to OUT from the unpacked tree the
# realtree suite caches (BUILD/realtree/linux-2.6.24, env BUILD) if it is there, else
# from ../shared/corpus/linux-2.6.24.tar.xz beside the checkout (env CORPUS overrides).
# Exit 2 with a message when neither is there.
set -euo pipefail

# With --probe: only say (exit 0 or 2) whether the file can be had.
probe=false
if [ "${1:-}" = --probe ]; then probe=true; set -- drivers/ide/legacy/hd.c -; fi
[ $# -eq 2 ] || { echo "usage: $0 TREE_PATH OUT | --probe" >&2; exit 2; }
path=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
cached=${BUILD:-$top/build}/realtree/linux-2.6.24/$path
if [ -r "$cached" ]; then
	$probe && exit 0
	install -D -m 644 "$cached" "$out"
	exit 0
fi
corpus=${CORPUS:-$top/../shared/corpus/linux-2.6.24.tar.xz}
if [ -z "${CORPUS:-}" ] && [ ! -r "$corpus" ]; then
	common=$(git -C "$top" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	[ -n "$common" ] && corpus=$(dirname "$common")/../shared/corpus/linux-2.6.24.tar.xz
fi
[ -r "$corpus" ] || { echo "realdrv: the 2.6.24 corpus is not there: $corpus" >&2; exit 2; }
$probe && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$corpus" -C "$tmp" "linux-2.6.24/$path"
install -D -m 644 "$tmp/linux-2.6.24/$path" "$out"
