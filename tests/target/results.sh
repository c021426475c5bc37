#!/bin/bash
# tests/target/results.sh — turns a guest's serial log into one verdict per expected test.
#
# usage: results.sh SERIAL_LOG EXPECTED_TESTS
# EXPECTED_TESTS holds one test name per line (plan.sh: plan_all_tests).  Prints, one
# per line, tab-separated:   PASS|FAIL  NAME  DETAIL
# for every expected test in order, then a FAIL for every result nobody expected.
#
# Strict: only lines between BLKMIG-BEGIN and BLKMIG-DMESG-BEGIN (or BLKMIG-END) count;
# an expected test without exactly one well-formed line "RESULT NAME PASS|FAIL [DETAIL]"
# is a FAIL (never a skip), and so is a line that starts like a result but is garbled
# (say, a kernel message printed into the middle of it).
set -u
log=${1:?usage: results.sh SERIAL_LOG EXPECTED_TESTS}
expected=${2:?usage: results.sh SERIAL_LOG EXPECTED_TESTS}
[ -r "$log" ] || { echo "results: cannot read $log" >&2; exit 2; }
[ -r "$expected" ] || { echo "results: cannot read $expected" >&2; exit 2; }

awk -v expected="$expected" '
BEGIN {
	while ((getline name < expected) > 0) {
		if (name == "" || (name in want))
			continue
		want[name] = 1
		order[++n] = name
	}
}
{
	sub(/\r+$/, "")
	gsub(/\033\[[0-9;?]*[A-Za-z]/, "")
}
/^BLKMIG-BEGIN( |$)/ { inside = 1; next }
/^BLKMIG-DMESG-BEGIN$/ || /^BLKMIG-END$/ { inside = 0; next }
!inside || !/^RESULT/ { next }
{
	if (match($0, /^RESULT [^ ]+ (PASS|FAIL)( .*)?$/)) {
		name = $2
		verdict = $3
		detail = $0
		sub(/^RESULT [^ ]+ (PASS|FAIL) ?/, "", detail)
	} else {
		name = ($2 != "") ? $2 : "(unnamed)"
		verdict = "FAIL"
		detail = "garbled result line: " substr($0, 1, 120)
	}
	count[name]++
	if (count[name] == 1) {
		got[name] = verdict
		why[name] = detail
	} else if (got[name] != "FAIL") {
		got[name] = "FAIL"
		why[name] = "reported more than once"
	}
	if (!(name in want) && !(name in extra)) {
		extra[name] = 1
		extras[++m] = name
	}
}
END {
	for (i = 1; i <= n; i++) {
		name = order[i]
		if (!(name in got))
			printf "FAIL\t%s\tno result from the guest\n", name
		else
			printf "%s\t%s\t%s\n", got[name], name, why[name]
	}
	for (i = 1; i <= m; i++)
		printf "FAIL\t%s\tunexpected result (not in the plan): %s %s\n",
			extras[i], got[extras[i]], why[extras[i]]
}' "$log"
