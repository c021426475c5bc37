#!/bin/bash
# tests/fresh/order.sh — suite `deps-order` (make check-deps-order, part of make check): the
# cheap twin of check-fresh.  For each of `make demo`, `make bench` and `make check`, on a
# fake machine (tests/fresh/order.mk: deps "installs" by writing a file that the makefiles
# read when make reads them), the make that builds `all` must have read the file after
# deps wrote it.  Everything real is left out: --old-file for what `all` builds, no demo steps,
# no benches, the harness suite only.  catches-the-bug: the same on a copy of the top
# Makefile with the ordering of before the fix must fail all three.  ORDER_MK overrides
# the test makefile.
set -euo pipefail
: "${TOP:?}" "${BUILD:?}" "${RESULTS:?}"
SUITE=deps-order
. "$TOP/tests/lib/testlib.sh"
mk=${ORDER_MK:-$TOP/tests/fresh/order.mk}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_goal TOP MK GOAL: the goal on the fake machine; prints what `all` read
run_goal() {
	local old="--old-file=$tmp/build/blkmig --old-file=modules"
	rm -rf "$tmp/state" "$tmp/results"
	# --old-file: `all`'s real prerequisites count as built, also in every sub-make
	# (MAKE on the command line: make passes no --old-file on by itself).  Not the
	# caller's MAKEFLAGS nor NO_DEPS: `make check` runs its suites with NO_DEPS=1.
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u NO_DEPS \
	make -C "$1" -f "$2" --no-print-directory $old MAKE="make $old" \
		ORDER_STATE="$tmp/state" BUILD="$tmp/build" RESULTS="$tmp/results" \
		DEMO_STEPS= BENCHES= CHECK_SUITES=harness REALDRV_HAVE_CORPUS=yes "$3" 2>&1
}

for goal in demo bench check; do
	if out=$(run_goal "$TOP" "$mk" "$goal") &&
	   grep -qx "order: the make that builds 'all' read: installed" <<<"$out"; then
		pass "$goal"
	else
		fail "$goal" "$(grep -E '^order:|rror' <<<"$out" | head -n 5)"
	fi
done

# The test can fail: the same on a copy of the top Makefile with the ordering of
# before the fix (check/demo/bench: deps all ..., one make) must see not-installed.
bug=$tmp/bug
mkdir -p "$bug/tests"
for d in "$TOP"/*/; do [ "$(basename "$d")" = tests ] || ln -s "$d" "$bug/"; done
for d in "$TOP"/tests/*/; do [ "$(basename "$d")" = fresh ] || ln -s "$d" "$bug/tests/"; done
cp "$TOP/tests/tests.mk" "$bug/tests/"
cp -r "$TOP/tests/fresh" "$bug/tests/"
sed -e 's/^ifneq (\$(NO_DEPS),1)$/ifeq (bug,back)/' -e 's/^check: all$/check: deps all/' \
	-e 's/^demo: all /demo: deps all /' -e 's/^bench: all$/bench: deps all/' \
	"$TOP/Makefile" > "$bug/Makefile"
if [ "$(diff "$TOP/Makefile" "$bug/Makefile" | grep -c '^>')" -ne 4 ]; then
	fail catches-the-bug "could not put the old ordering back in a copy of the Makefile"
else
	seen=0
	for goal in demo bench check; do
		out=$(run_goal "$bug" "$bug/tests/fresh/order.mk" "$goal") || true
		grep -qx "order: the make that builds 'all' read: not-installed" <<<"$out" &&
			seen=$((seen + 1))
	done
	if [ "$seen" -eq 3 ]; then
		pass catches-the-bug
	else
		fail catches-the-bug "with the old ordering only $seen of 3 goals read not-installed"
	fi
fi
finish
