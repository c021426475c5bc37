#!/bin/bash
# tests/target/bench-report.sh — medians and ratios from a bench boot's serial log.
#
# usage: bench-report.sh SERIAL_LOG TABLE.txt RESULT.json
# Reads the guest's "BENCH <job> <engine> <device> <rep> <iops> <KiB/s>" lines
# (guest/bench.sh), takes the median of each job/engine/device over the repetitions
# and writes the table (also printed) and a JSON file with the medians, every single
# run, and the ratios sample/null_blk and sample/brd.  The goal, sample >= 0.9x
# null_blk on every figure, is reported, never asserted.  Exit 1 only when the log
# holds no complete set of figures.  Besides the ratio of the medians, the "paired"
# column is the median of the per-repetition ratios sample/null_blk: the two runs of
# one repetition are adjacent in time, so a slow phase of a loaded TCG host hits both.
set -u
log=${1:?usage: bench-report.sh SERIAL_LOG TABLE.txt RESULT.json}
table=${2:?}
json=${3:?}
kernel=$(tr -d '\r' < "$log" | sed -n 's/^KERNEL //p' | head -n 1)
errors=$(tr -d '\r' < "$log" | grep -c '^BENCH-ERROR')
sched=$(tr -d '\r' < "$log" | awk '$1 == "BENCH-SCHED" { printf "%s%s=%s", n++ ? " " : "", $2, $3 }')

tr -d '\r' < "$log" | awk -v table="$table" -v json="$json" -v kernel="$kernel" \
	-v errors="$errors" -v sched="$sched" '
function median(key,   n, i, j, v, a) {
	n = runs[key]
	for (i = 1; i <= n; i++)
		a[i] = val[key, i]
	for (i = 2; i <= n; i++) {
		v = a[i]
		for (j = i - 1; j >= 1 && a[j] > v; j--)
			a[j + 1] = a[j]
		a[j + 1] = v
	}
	if (n == 0)
		return 0
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function list(key, what,   i, s) {
	s = ""
	for (i = 1; i <= runs[key]; i++)
		s = s (i > 1 ? ", " : "") (what == "iops" ? val[key, i] : kib[key, i])
	return "[" s "]"
}
$1 == "BENCH" && NF == 7 {
	key = $2 SUBSEP $3 SUBSEP $4
	if (!(($2 SUBSEP $3) in seen)) {
		seen[$2 SUBSEP $3] = 1
		order[++n] = $2 SUBSEP $3
	}
	runs[key]++
	val[key, runs[key]] = $6 + 0
	kib[key, runs[key]] = $7 + 0
	byrep[key, $5 + 0] = $6 + 0
	if ($5 + 0 > reps)
		reps = $5 + 0
}
END {
	if (n == 0) {
		print "bench-report: no BENCH lines in the log" > "/dev/stderr"
		exit 1
	}
	devs = "sample null_blk brd"
	split(devs, dev, " ")
	hdr = sprintf("%-14s %-7s %10s %10s %10s %9s %9s %9s  %s", "job", "engine",
		"sample", "null_blk", "brd", "s/null", "paired", "s/brd", ">=0.9x null_blk")
	print "fio medians (IOPS) over " reps " runs each, devices interleaved; kernel " kernel > table
	print "I/O schedulers: " sched > table
	print hdr > table
	printf "{\n  \"kernel\": \"%s\",\n  \"schedulers\": \"%s\",\n  \"repetitions\": %d,\n  \"unit\": \"IOPS (KiB/s alongside)\",\n  \"goal\": \"sample >= 0.9 x null_blk on every figure\",\n  \"errors\": %d,\n  \"figures\": [\n", kernel, sched, reps, errors > json
	all = 1
	incomplete = 0
	for (i = 1; i <= n; i++) {
		split(order[i], jk, SUBSEP)
		for (d = 1; d <= 3; d++) {
			key = order[i] SUBSEP dev[d]
			med[d] = median(key)
			if (runs[key] == 0)
				incomplete = 1
		}
		r1 = med[2] > 0 ? med[1] / med[2] : 0
		r2 = med[3] > 0 ? med[1] / med[3] : 0
		rp = paired(order[i])
		met = (r1 >= 0.9)
		if (!met)
			all = 0
		printf "%-14s %-7s %10d %10d %10d %8.2fx %8.2fx %8.2fx  %s\n", jk[1], jk[2],
			med[1], med[2], med[3], r1, rp, r2, met ? "yes" : "NO" > table
		printf "    {\"job\": \"%s\", \"engine\": \"%s\",", jk[1], jk[2] > json
		for (d = 1; d <= 3; d++) {
			key = order[i] SUBSEP dev[d]
			printf " \"%s\": {\"iops_median\": %d, \"kib_s_median\": %d, \"iops_runs\": %s, \"kib_s_runs\": %s},",
				dev[d], med[d], median_kib(key), list(key, "iops"), list(key, "kib") > json
		}
		printf " \"ratio_sample_null_blk\": %.3f, \"paired_ratio_sample_null_blk\": %.3f, \"ratio_sample_brd\": %.3f, \"goal_met\": %s}%s\n",
			r1, rp, r2, met ? "true" : "false", i < n ? "," : "" > json
	}
	printf "  ],\n  \"goal_met_everywhere\": %s\n}\n", all ? "true" : "false" > json
	print "goal (sample >= 0.9x null_blk on every figure): " (all ? "met" : "NOT met") > table
	if (errors > 0)
		print "warning: " errors " BENCH-ERROR lines in the log" > table
	exit incomplete
}
# the median over the repetitions of sample/null_blk within one repetition
function paired(jobkey,   r, n, i, j, v, a, s, nb) {
	n = 0
	for (r = 1; r <= reps; r++) {
		s = byrep[jobkey SUBSEP "sample", r]
		nb = byrep[jobkey SUBSEP "null_blk", r]
		if (s > 0 && nb > 0)
			a[++n] = s / nb
	}
	for (i = 2; i <= n; i++) {
		v = a[i]
		for (j = i - 1; j >= 1 && a[j] > v; j--)
			a[j + 1] = a[j]
		a[j + 1] = v
	}
	if (n == 0)
		return 0
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function median_kib(key,   n, i, j, v, a) {
	n = runs[key]
	for (i = 1; i <= n; i++)
		a[i] = kib[key, i]
	for (i = 2; i <= n; i++) {
		v = a[i]
		for (j = i - 1; j >= 1 && a[j] > v; j--)
			a[j + 1] = a[j]
		a[j + 1] = v
	}
	if (n == 0)
		return 0
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'
rc=$?
[ -s "$table" ] && cat "$table"
exit $rc
