# lib.sh — helpers of the guest test scripts: verdict lines, module loading, fio runs,
# the EIO probe and the kernel-log checks.  Sourced by check.sh and bench.sh.
#
# Verdicts go to the console as single lines
#	RESULT <name> PASS|FAIL [detail]
# which the host parses (tests/target/results.sh).  A detail must not depend on timing:
# the host compares the legacy and converted results of a sample detail by detail.
# Diagnostics go on lines starting with LOG.

# One image serves every target kernel: each has its own modules under /blkmig/k/V/.
MODS=/blkmig/k/$(uname -r)/modules
KMODS=/blkmig/k/$(uname -r)/kmod
PROBE=/blkmig/bin/eio_probe
# No single fio run or probe may take longer (seconds); a stuck one fails its test.
STEP_TIMEOUT=${STEP_TIMEOUT:-120}

# result NAME PASS|FAIL [DETAIL...]
result() {
	local name=$1 verdict=$2 detail
	shift 2
	detail=$(echo "$*" | tr '\n' ' ' | cut -c1-300 | sed 's/ *$//')
	echo "RESULT $name $verdict${detail:+ $detail}"
}

# log_file PREFIX FILE: show the tail of a diagnostic file on LOG lines.
log_file() {
	tail -n "${3:-12}" "$2" 2>/dev/null | sed "s|^|LOG $1: |"
}

# check NAME CMD...: PASS when CMD exits 0, else FAIL with CMD's last output line.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		result "$name" PASS
	else
		echo "$out" | tail -n 8 | sed "s|^|LOG $name: |"
		result "$name" FAIL "$(echo "$out" | tail -n 1)"
	fi
}

# kernel_module NAME [PARAMS...]: insmod a module of the running kernel and its
# dependencies (recorded by guest-build.sh in NAME.deps).
kernel_module() {
	local name=$1 dep
	shift
	grep -q "^$name " /proc/modules && return 0
	for dep in $(cat "$KMODS/$name.deps" 2>/dev/null); do
		kernel_module "$dep" || return 1
	done
	insmod "$KMODS/$name.ko" "$@"
}

module_loaded() {
	grep -q "^$1 " /proc/modules
}

# wait_for_disk DISK: the node appears when add_disk() runs; allow a moment.
wait_for_disk() {
	local i=0
	while [ ! -b "/dev/$1" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -b "/dev/$1" ]
}

# fio_pattern DEV BYTES [FIO ARGS...]: two jobs, each writing a crc32c-stamped pattern
# over its half of the first BYTES of DEV (random order, 4-64 KiB blocks, libaio,
# O_DIRECT, queue depth 8) and reading it back; extra arguments (--verify_only) follow.
# Output in /tmp/fio.out; the exit status is fio's.
fio_pattern() {
	local dev=$1 bytes=$2
	shift 2
	timeout "$STEP_TIMEOUT" fio --name=pattern --filename="$dev" --ioengine=libaio --direct=1 \
		--iodepth=8 --numjobs=2 --size=$((bytes / 2)) \
		--offset_increment=$((bytes / 2)) --rw=randwrite --bsrange=4k-64k \
		--randseed=20080124 --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--verify_backlog=0 --group_reporting --output=/tmp/fio.out "$@" \
		> /tmp/fio.err 2>&1
	local rc=$?
	cat /tmp/fio.err >> /tmp/fio.out
	return $rc
}

# fio_check NAME DEV BYTES [FIO ARGS...]: a verdict from fio_pattern.
fio_check() {
	local name=$1
	shift
	local rc=0
	fio_pattern "$@" || rc=$?
	if [ $rc -eq 0 ]; then
		result "$name" PASS
	else
		log_file "$name" /tmp/fio.out
		# The detail leaves out pids, times and offsets that differ from run to run.
		if grep -qE 'verify: bad|verify failed|err=84' /tmp/fio.out; then
			result "$name" FAIL "fio exit $rc: data verification failed"
		else
			result "$name" FAIL "fio exit $rc:" "$(grep -m1 -oE 'error=[^:]*' /tmp/fio.out)"
		fi
	fi
}

# expected_probe BS BYTES FAIL_START FAIL_SECTORS: what eio_probe -b BS must print
# over [0, BYTES) when exactly the sectors [FAIL_START, FAIL_START + FAIL_SECTORS) fail:
# one "bad OFF EIO" line per block overlapping them, nothing else.
expected_probe() {
	local bs=$1 bytes=$2 first=$(($3 * 512)) end=$((($3 + $4) * 512))
	local off=0 bad=0
	while [ $off -lt "$bytes" ]; do
		if [ $((off + bs)) -gt $first ] && [ $off -lt $end ]; then
			echo "bad $off EIO"
			bad=$((bad + 1))
		fi
		off=$((off + bs))
	done
	echo "probe blocks=$((bytes / bs)) bad=$bad short=0 corrupt=0"
}

# probe_check NAME EXPECTED_FILE PROBE_ARGS...: run the probe, PASS when its output is
# exactly the expected one.
probe_check() {
	local name=$1 want=$2
	shift 2
	timeout "$STEP_TIMEOUT" "$PROBE" "$@" > /tmp/probe.out 2>&1
	if cmp -s /tmp/probe.out "$want"; then
		result "$name" PASS "$(tr '\n' ' ' < "$want" | cut -c1-200)"
	else
		diff "$want" /tmp/probe.out | head -n 12 | sed "s|^|LOG $name: |"
		result "$name" FAIL "got: $(grep -v '^bad' /tmp/probe.out | tail -n 1)" \
			"$(grep -c '^bad' /tmp/probe.out) bad blocks," \
			"first: $(grep -m1 -E '^(bad|short|corrupt)' /tmp/probe.out)"
	fi
}

# Kernel log lines that mean the kernel is unhappy.
BAD_KERNEL_LOG='BUG:|WARNING:|Oops|[Ll]ockup|LOCKUP|hung task|blocked for more than|Call Trace|general protection|kernel BUG|Kernel panic|list_add corruption|list_del corruption|refcount_t:|UBSAN|KASAN|bad page'

dmesg_mark() {
	dmesg | wc -l
}

# dmesg_check NAME MARK: PASS when the kernel log after line MARK is clean.
dmesg_check() {
	local name=$1 mark=$2
	dmesg | tail -n +$((mark + 1)) > /tmp/dmesg.part
	if grep -qE "$BAD_KERNEL_LOG" /tmp/dmesg.part; then
		grep -E "$BAD_KERNEL_LOG" /tmp/dmesg.part | head -n 5 | sed "s|^|LOG $name: |"
		result "$name" FAIL "$(grep -m1 -E "$BAD_KERNEL_LOG" /tmp/dmesg.part)"
	else
		result "$name" PASS
	fi
}
