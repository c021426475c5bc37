#!/bin/sh
# check.sh — the functional tests, run in the guest by /init (blkmig.mode=check).
#
# One boot runs everything in plan.sh: the reference devices (brd, null_blk) that prove
# the harness itself (fio verify catches a corrupted block, the probe sees exactly the
# bad blocks of a null_blk with badblocks), then blkcompat and each sample in its legacy
# and converted build, then the unload of the shim and the kernel log and taint checks.
. /blkmig/lib.sh
. /blkmig/plan.sh

SIZE_MB=16
BYTES=$((SIZE_MB << 20))
# The injected failure: 16 sectors (8 KiB, two 4 KiB blocks) across a 64 KiB boundary,
# so a 64 KiB read fails in two neighbouring blocks and a chunked driver has to fail
# the rest of a request from the middle.
FAIL_START=8312
FAIL_SECTORS=16
expected_probe 4096 $BYTES $FAIL_START $FAIL_SECTORS > /tmp/want.4k
expected_probe 65536 $BYTES $FAIL_START $FAIL_SECTORS > /tmp/want.64k

# Report a hung task in the log long before the host's timeout ends the boot.
echo 30 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null

ref_brd() {
	if ! kernel_module brd rd_nr=1 rd_size=$((SIZE_MB * 1024)) ||
	   ! wait_for_disk ram0; then
		for t in ref/brd/fio-verify ref/brd/fio-reverify harness/verify-detects-corruption; do
			result $t FAIL "brd did not load"
		done
		return
	fi
	fio_check ref/brd/fio-verify /dev/ram0 $BYTES
	fio_check ref/brd/fio-reverify /dev/ram0 $BYTES --verify_only
	# Overwrite one 4 KiB block of the pattern: fio's verify has to notice.
	$PROBE -w /dev/ram0 $((BYTES / 2 + 12288)) 4096 > /dev/null
	if fio_pattern /dev/ram0 $BYTES --verify_only; then
		result harness/verify-detects-corruption FAIL "fio verify accepted a corrupted block"
	elif grep -qiE 'verify.*(bad|fail)|crc32c' /tmp/fio.out; then
		result harness/verify-detects-corruption PASS
	else
		log_file harness/verify-detects-corruption /tmp/fio.out
		result harness/verify-detects-corruption FAIL "fio failed without a verify error"
	fi
	rmmod brd
}

# null_blk_dev NAME [ATTR=VALUE...]: a memory-backed null_blk of SIZE_MB made through
# configfs; prints its disk name.
null_blk_dev() {
	local name=$1 d=/sys/kernel/config/nullb/$1 kv
	shift
	mkdir "$d" || return 1
	echo $SIZE_MB > "$d/size"
	echo 1 > "$d/memory_backed"
	for kv in "$@"; do
		echo "${kv#*=}" > "$d/${kv%%=*}" || return 1
	done
	echo 1 > "$d/power" || return 1
	# 6.1 names the disk after the configfs directory, older kernels nullb<index>.
	if [ -e "/sys/block/$name" ]; then
		echo "$name"
	else
		echo "nullb$(cat "$d/index")"
	fi
}

ref_null_blk() {
	local good bad
	if ! kernel_module null_blk nr_devices=0; then
		result ref/null_blk/fio-verify FAIL "null_blk did not load"
		result harness/probe-detects-eio FAIL "null_blk did not load"
		return
	fi
	grep -q " /sys/kernel/config " /proc/mounts || mount -t configfs configfs /sys/kernel/config
	if good=$(null_blk_dev nullb_good) && wait_for_disk "$good"; then
		fio_check ref/null_blk/fio-verify /dev/$good $BYTES
	else
		result ref/null_blk/fio-verify FAIL "no configfs null_blk device"
	fi
	# The probe's control: null_blk fails exactly its bad blocks, the probe must say so.
	if bad=$(null_blk_dev nullb_bad "badblocks=+$FAIL_START-$((FAIL_START + FAIL_SECTORS - 1))") &&
	   wait_for_disk "$bad"; then
		probe_check harness/probe-detects-eio /tmp/want.4k -w /dev/$bad 0 $BYTES
	else
		result harness/probe-detects-eio FAIL "no null_blk device with badblocks"
	fi
	for d in nullb_good nullb_bad; do
		echo 0 > /sys/kernel/config/nullb/$d/power 2>/dev/null
		rmdir /sys/kernel/config/nullb/$d 2>/dev/null
	done
	rmmod null_blk
}

# load_sample SAMPLE BUILD DISK [PARAMS...]: insmod and wait for the disk of the
# expected size.
load_sample() {
	local s=$1 b=$2 disk=$3 size
	shift 3
	if ! insmod "$MODS/$b/$s.ko" "$@"; then
		echo "insmod $s.ko $* failed"
		return 1
	fi
	if ! wait_for_disk "$disk"; then
		echo "no /dev/$disk after insmod"
		return 1
	fi
	size=$(cat "/sys/block/$disk/size")
	if [ "$size" != $((SIZE_MB * 2048)) ]; then
		echo "/dev/$disk has $size sectors, want $((SIZE_MB * 2048))"
		return 1
	fi
}

# rmmod_busy SAMPLE DISK: rmmod refused with the disk open, done after close.
rmmod_busy() {
	local s=$1 disk=$2 pid
	sleep 600 < "/dev/$disk" &
	pid=$!
	sleep 0.3
	if ! ls -l /proc/$pid/fd/0 2>/dev/null | grep -q "/dev/$disk"; then
		kill $pid
		echo "could not hold /dev/$disk open"
		return 1
	fi
	if rmmod "$s" 2>/dev/null; then
		kill $pid
		echo "rmmod $s succeeded with /dev/$disk open"
		return 1
	fi
	if ! module_loaded "$s" || [ ! -b "/dev/$disk" ]; then
		kill $pid
		echo "refused rmmod still removed $s or its disk"
		return 1
	fi
	kill $pid
	wait $pid 2>/dev/null
	if ! rmmod "$s"; then
		echo "rmmod $s refused after the disk was closed"
		return 1
	fi
	if module_loaded "$s" || [ -b "/dev/$disk" ]; then
		echo "$s or /dev/$disk still there after rmmod"
		return 1
	fi
}

shim_rmmod_refused() {
	if rmmod blkcompat 2>/dev/null; then
		echo "rmmod blkcompat succeeded while $1 was loaded"
		return 1
	fi
	module_loaded blkcompat || { echo "blkcompat gone"; return 1; }
}

cb_count() {
	cat /sys/module/lrd_cb/parameters/cb_count 2>/dev/null || echo -1
}

# unload SAMPLE DISK
unload() {
	rmmod "$1" || return 1
	! module_loaded "$1" && [ ! -b "/dev/$2" ]
}

# sample_tests SAMPLE BUILD: every test of plan_sample_tests for one build.
sample_tests() {
	local s=$1 b=$2 p=$1/$2 disk dev mark out c0 c1 c2 t
	local base="size_mb=$SIZE_MB" extra=
	local fail="fail_start=$FAIL_START fail_sectors=$FAIL_SECTORS"
	disk=$(echo "$s" | tr -d _)
	dev=/dev/$disk
	[ "$s" = lrd_chunk ] && extra="chunk_bytes=512"
	mark=$(dmesg_mark)
	echo "LOG ==== $p at $(cut -d" " -f1 /proc/uptime)s"

	if ! out=$(load_sample "$s" "$b" "$disk" $base $extra 2>&1); then
		result "$p/load" FAIL "$(echo "$out" | tail -n 1)"
		for t in $(plan_sample_tests "$s"); do
			[ "$t" = load ] || [ "$t" = dmesg-clean ] ||
				result "$p/$t" FAIL "not run: the module did not load"
		done
		module_loaded "$s" && rmmod "$s"
		dmesg_check "$p/dmesg-clean" "$mark"
		return
	fi
	result "$p/load" PASS
	check "$p/shim-rmmod-refused" shim_rmmod_refused "$s"

	c0=$(cb_count)
	fio_check "$p/fio-verify" "$dev" $BYTES
	fio_check "$p/fio-reverify" "$dev" $BYTES --verify_only
	if [ "$s" = lrd_cb ]; then
		# 32 single-block O_DIRECT reads are 32 one-segment requests, and nothing
		# else uses the disk: the work between data and cleanup runs once for each.
		c1=$(cb_count)
		$PROBE "$dev" 0 $((32 * 4096)) > /dev/null
		c2=$(cb_count)
		echo "LOG $p/cb-count: $c0 before fio, $c1 after, $c2 after 32 reads"
		if [ "$c1" -gt "$c0" ] && [ $((c2 - c1)) -eq 32 ]; then
			result "$p/cb-count" PASS "grows with fio, by exactly 32 for 32 requests"
		else
			result "$p/cb-count" FAIL "cb_count $c0 -> $c1 (fio) -> $c2 (32 reads)"
		fi
	fi
	check "$p/rmmod-busy" rmmod_busy "$s" "$disk"
	module_loaded "$s" && rmmod "$s"

	if [ "$s" = lrd_chunk ]; then
		# Chunks that do not divide a 4 KiB page: completion crosses segments.
		if out=$(load_sample "$s" "$b" "$disk" $base chunk_bytes=1536 2>&1); then
			fio_check "$p/chunk-1536" "$dev" $BYTES
		else
			result "$p/chunk-1536" FAIL "$(echo "$out" | tail -n 1)"
		fi
		module_loaded "$s" && rmmod "$s"
	fi

	if out=$(load_sample "$s" "$b" "$disk" $base $extra $fail 2>&1); then
		result "$p/eio-load" PASS
		probe_check "$p/eio-write" /tmp/want.4k -w "$dev" 0 $BYTES
		probe_check "$p/eio-read" /tmp/want.4k -c "$dev" 0 $BYTES
		probe_check "$p/eio-span" /tmp/want.64k -c -b 65536 "$dev" 0 $BYTES
		check "$p/unload" unload "$s" "$disk"
	else
		result "$p/eio-load" FAIL "$(echo "$out" | tail -n 1)"
		for t in eio-write eio-read eio-span unload; do
			result "$p/$t" FAIL "not run: the module did not load with $fail"
		done
		module_loaded "$s" && rmmod "$s"
	fi
	dmesg_check "$p/dmesg-clean" "$mark"
}

st_param() {
	cat "/sys/module/blkcompat_selftest/parameters/$1" 2>/dev/null || echo -1
}

# The kernel engineer's self-test module (tests/target/kmod/blkcompat_selftest.c):
# checks every return value of the 2.6.25 API itself on load, and keeps checking
# I/O from user space.  Its disk has five 2 MiB regions: completed in request_fn,
# later from a work item, through blk_end_request_callback() with every second
# request kept by the callback and ended later (the skip-cleanup path), failing
# with an error per 4 KiB block (EIO, ENOSPC, uptodate 0 = EIO, ENODATA), and
# completed with the 2.6.24 wrappers end_request/end_queued_request.
selftest() {
	local mark t cb0 i
	local all="selftest/verdict selftest/fio-verify selftest/skip-cleanup selftest/errno"
	all="$all selftest/fio-verify-wrappers selftest/checks-after-io selftest/unload"
	mark=$(dmesg_mark)
	echo "LOG ==== selftest at $(cut -d" " -f1 /proc/uptime)s"
	if ! insmod $MODS/test/blkcompat_selftest.ko || ! wait_for_disk bcselftest; then
		result selftest/load FAIL "insmod blkcompat_selftest.ko failed"
		for t in $all; do
			result $t FAIL "not run: the self-test module did not load"
		done
		module_loaded blkcompat_selftest && rmmod blkcompat_selftest
		return
	fi
	result selftest/load PASS
	dmesg | tail -n +$((mark + 1)) | grep 'blkcompat_selftest' | sed 's/^/LOG selftest: /'
	if dmesg | tail -n +$((mark + 1)) |
	   grep -qE 'blkcompat_selftest: [1-9][0-9]* passed, 0 failed' &&
	   [ "$(st_param checks_failed)" = 0 ]; then
		result selftest/verdict PASS
	else
		result selftest/verdict FAIL "$(dmesg | grep -m1 'blkcompat_selftest: .*FAIL') " \
			"checks_failed=$(st_param checks_failed)"
	fi
	# User-space I/O through the three completing regions (0-6 MiB).
	cb0=$(st_param cb_calls)
	fio_check selftest/fio-verify /dev/bcselftest $((6 << 20))
	# Kept requests end from a delayed work item: give them a moment.
	i=0
	while [ "$(st_param late_finished)" != "$(st_param cb_kept)" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo "LOG selftest/skip-cleanup: cb_calls $cb0 -> $(st_param cb_calls)," \
		"kept $(st_param cb_kept), ended later $(st_param late_finished)," \
		"checks failed $(st_param checks_failed)"
	if [ "$(st_param cb_calls)" -gt "$cb0" ] && [ "$(st_param cb_kept)" -gt 0 ] &&
	   [ "$(st_param late_finished)" = "$(st_param cb_kept)" ] &&
	   [ "$(st_param checks_failed)" = 0 ]; then
		result selftest/skip-cleanup PASS
	else
		result selftest/skip-cleanup FAIL "cb_calls $cb0 -> $(st_param cb_calls)," \
			"kept $(st_param cb_kept), ended later $(st_param late_finished)," \
			"checks failed $(st_param checks_failed)"
	fi
	# The error region, 6-8 MiB: each block's own errno reaches user space.
	i=$((6 << 20))
	while [ $i -lt $((8 << 20)) ]; do
		case $((i / 4096 % 4)) in
		0 | 2) echo "bad $i EIO" ;;
		1) echo "bad $i ENOSPC" ;;
		3) echo "bad $i ENODATA" ;;
		esac
		i=$((i + 4096))
	done > /tmp/want.selftest
	echo "probe blocks=$((2 << 20 >> 12)) bad=$((2 << 20 >> 12)) short=0 corrupt=0" \
		>> /tmp/want.selftest
	probe_check selftest/errno /tmp/want.selftest /dev/bcselftest $((6 << 20)) $((2 << 20))
	# The 2.6.24 wrappers region, 8-10 MiB: end_request per segment and
	# end_queued_request, alternating every 32 KiB.
	fio_check selftest/fio-verify-wrappers /dev/bcselftest $((2 << 20)) --offset=8M
	# The module checked every return value of all that user-space I/O too.
	if [ "$(st_param checks_failed)" = 0 ] && [ "$(st_param checks_passed)" -gt 0 ]; then
		result selftest/checks-after-io PASS
	else
		dmesg | grep 'blkcompat_selftest: FAIL' | head -n 5 | sed 's/^/LOG selftest: /'
		result selftest/checks-after-io FAIL "checks_failed=$(st_param checks_failed)" \
			"$(dmesg | grep -m1 'blkcompat_selftest: FAIL')"
	fi
	check selftest/unload rmmod blkcompat_selftest
}

taint_clean() {
	# D (oops) 7, W (warning) 9, L (soft lockup) 14, B (bad page) 5, M (machine check) 4
	local t
	t=$(cat /proc/sys/kernel/tainted)
	echo "LOG kernel/taint-clean: tainted=$t"
	[ $((t & ((1 << 4) | (1 << 5) | (1 << 7) | (1 << 9) | (1 << 14)))) -eq 0 ]
}

echo "LOG ==== references at $(cut -d" " -f1 /proc/uptime)s"
ref_brd
ref_null_blk

if insmod $MODS/blkcompat.ko; then
	result shim/load PASS
else
	result shim/load FAIL "insmod blkcompat.ko failed"
fi
selftest
for s in $PLAN_SAMPLES; do
	for b in $PLAN_BUILDS; do
		sample_tests "$s" "$b"
	done
done
if ! module_loaded blkcompat; then
	result shim/unload FAIL "blkcompat was not loaded"
else
	check shim/unload rmmod blkcompat
fi
dmesg_check kernel/dmesg-clean 0
check kernel/taint-clean taint_clean
exit 0
