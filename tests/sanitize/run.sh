#!/bin/bash
# tests/sanitize/run.sh — the sanitize suite.
#
# Builds blkmig and the migrate test drivers with AddressSanitizer + UBSan
# (make SANITIZE=1, into $BUILD/asan: build/asan, or under the caller's BUILD=),
# reruns the analyzer, migrate and cocci suites' runners with those binaries, and
# fails on any sanitizer report.  Reports go to files (log_path), so one from a parse
# child or from a run whose exit status a test expects to be non-zero is still caught.
# Of the cocci suite only the real tree's part reruns: its cross-check runs blkmig
# migrate on the whole 2.6.24 tree.  SANITIZE_RUN=1 tells the runners to skip what only
# re-measures the same thing (README.md).
#
# Each rerun test is reported as sanitize/SUITE/NAME; sanitize/canary proves that the
# report files are really written (a deliberate overflow built with the same flags).
set -u
here=$(cd "$(dirname "$0")" && pwd)
TOP=${TOP:-$(cd "$here/../.." && pwd)}
SUITE=sanitize
. "$TOP/tests/lib/testlib.sh"
MAKE=${MAKE:-make}
BUILD=${BUILD:-$TOP/build}
ABUILD=$BUILD/asan # given on each make's command line: a BUILD= of the caller's must not win
RESULTS=$(cd "$RESULTS" && pwd) # the suites rerun below change directory
SUITES=${SANITIZE_SUITES:-analyzer migrate cocci}
work=$RESULTS/sanitize-work
reports=$work/reports
rm -rf "$work"
mkdir -p "$reports" "$work/results"

asan_opts() { # asan_opts DIR
	echo "log_path=$1/asan:exitcode=99:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
}
ubsan_opts() {
	echo "log_path=$1/ubsan:halt_on_error=1:print_stacktrace=1"
}

# ---- canary: a report must land in the report directory ---------------------------
mkdir -p "$work/canary"
cat >"$work/canary/overflow.c" <<'EOT'
#include <stdlib.h>
int main(int argc, char **argv)
{
	int *v = malloc(4 * sizeof(int));
	(void)argv;
	v[argc + 3] = 1; /* one past the end */
	free(v);
	return 0;
}
EOT
if cc -g -fsanitize=address,undefined -fno-sanitize-recover=all -o "$work/canary/overflow" \
	"$work/canary/overflow.c" 2>"$work/canary/cc.err"; then
	ASAN_OPTIONS=$(asan_opts "$work/canary") UBSAN_OPTIONS=$(ubsan_opts "$work/canary") \
		"$work/canary/overflow" 2>/dev/null
	if grep -qs 'heap-buffer-overflow' "$work"/canary/asan.*; then
		pass canary
	else
		fail canary "a deliberate overflow left no report file"
	fi
else
	fail canary "cannot build with -fsanitize: $(head -c 300 "$work/canary/cc.err")"
fi

# ---- the sanitizer build ------------------------------------------------------------
if ! (cd "$TOP" && nice -n 10 $MAKE --no-print-directory SANITIZE=1 BUILD="$ABUILD" "$ABUILD/blkmig") \
	>"$work/build.log" 2>&1; then
	fail build "$(tail -n 15 "$work/build.log")"
	finish
	exit
fi
if nm "$ABUILD/blkmig" | grep -q '__asan_init' &&
	nm "$ABUILD/blkmig" | grep -q '__ubsan_handle'; then
	pass build-instrumented
else
	fail build-instrumented "$ABUILD/blkmig lacks ASan or UBSan"
fi

# ---- rerun each suite ---------------------------------------------------------------
export ASAN_OPTIONS UBSAN_OPTIONS SANITIZE_RUN=1 # the runners skip what re-measures the same
ASAN_OPTIONS=$(asan_opts "$reports")
UBSAN_OPTIONS=$(ubsan_opts "$reports")
for s in $SUITES; do
	# cocci: the tree's conversion by spatch alone, from the plain run when it is current
	(cd "$TOP" && COCCI_REUSE_FROM=$BUILD/cocci-realtree nice -n 10 $MAKE --no-print-directory \
		SANITIZE=1 BUILD="$ABUILD" "check-$s" RESULTS="$work/results") >"$work/$s.out" 2>&1
	if ! grep -qE '^(PASS|FAIL) ' "$work/results/$s.log" 2>/dev/null; then
		fail "$s" "suite ran no test: $(tail -n 10 "$work/$s.out")"
		continue
	fi
	while read -r verdict name rest; do
		name=${name%:}
		case $verdict in
		PASS) pass "$name" ;;
		FAIL) fail "$name" "$rest" ;;
		esac
	done < <(grep -E '^(PASS|FAIL) ' "$work/results/$s.log")
done

# ---- any report fails the suite -------------------------------------------------------
n=0
for r in "$reports"/*; do
	[ -e "$r" ] || continue
	n=$((n + 1))
	fail "report/$(basename "$r")" "$(grep -m1 -E 'ERROR|runtime error|SUMMARY' "$r")"
done
[ "$n" -eq 0 ] && pass no-sanitizer-report
finish
