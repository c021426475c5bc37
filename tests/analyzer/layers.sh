#!/bin/bash
# tests/analyzer/layers.sh — the analyzer's stages use only the stages below them
# (issue 24): shared files (analyzer/*.c) < parse/ < facts/ < convert/ < report/ < cli/.
# An edge is a global symbol one object file uses and another defines (nm on the objects
# of the current sources, so a stale object of a moved file counts for nothing), or an
# #include of a header that lives in a higher stage.  Prints one line per upward edge
# and exits 1 if there is any.
# Usage: layers.sh TOP BUILD
set -u
TOP=$1 BUILD=$2
rank() {
	case $1 in
	.) echo 0 ;; parse) echo 1 ;; facts) echo 2 ;; convert) echo 3 ;;
	report) echo 4 ;; cli) echo 5 ;; *) echo 9 ;;
	esac
}
stage_of() { # analyzer-relative path -> stage folder ("." for the shared files)
	case $1 in */*) echo "${1%%/*}" ;; *) echo . ;; esac
}
# open(): parse/open_guard.c's definition replaces the C library's for the whole
# program (libLLVM binds to it); outside a parse it is the plain system call, so a
# shared file calling open() depends on the C library, not on parse/.
exempt=" open "
cd "$TOP/analyzer" || exit 2
srcs=$(ls *.c */*.c)
defs=$(mktemp) uses=$(mktemp)
trap 'rm -f "$defs" "$uses"' EXIT
for s in $srcs; do
	o=$BUILD/analyzer/${s%.c}.o
	[ -f "$o" ] || { echo "layers: no object $o for $s (build first)"; exit 2; }
	nm --defined-only -g "$o" | awk -v s="$s" 'NF == 3 { print $3, s }' >>"$defs"
	nm -u "$o" | awk -v s="$s" '{ print $2, s }' >>"$uses"
done
bad=0
while read -r sym user def; do
	case $exempt in *" $sym "*) continue ;; esac
	su=$(stage_of "$user") sd=$(stage_of "$def")
	if [ "$(rank "$sd")" -gt "$(rank "$su")" ]; then
		echo "upward: $user ($su) uses $sym of $def ($sd)"
		bad=1
	fi
done < <(join <(sort "$uses") <(sort "$defs"))
for s in $(ls *.[ch] */*.[ch]); do
	su=$(stage_of "$s")
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$s"); do
		loc=$(ls "$h" */"$h" 2>/dev/null | head -1)
		[ -n "$loc" ] || continue # generated (build/analyzer) or a model header
		sd=$(stage_of "$loc")
		if [ "$(rank "$sd")" -gt "$(rank "$su")" ]; then
			echo "upward: $s ($su) includes $loc ($sd)"
			bad=1
		fi
	done
done
exit $bad
