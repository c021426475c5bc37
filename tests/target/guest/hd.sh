#!/bin/sh
# hd.sh — a real driver of the 2.6.24 tree, drivers/ide/legacy/hd.c, on QEMU's PIIX IDE
# (blkmig.mode=hd; blkmig.hdbuild=legacy|converted picks the build of hd.ko).
#
# The host (tests/target/realdrv/run-hd.sh) boots once per build with two IDE disks
# of 20/16/63 CHS (20160 sectors): hda, stamped with seed HD_SEED_A (every 8-byte
# word holds its byte offset xor the seed's mask: eio_probe's stamp), and hdb, stamped
# with HD_SEED_B and behind QEMU's blkdebug, which fails reads of the sectors
# HD_READ_BAD and writes of HD_WRITE_BAD with EIO, every time.  Here: load the shim and
# hd.ko, read hda (O_DIRECT in 4 KiB and 64 KiB blocks, buffered), write the regions
# of HD_WRITES (O_DIRECT in 512-byte, 4 KiB and 64 KiB blocks, buffered through the
# page cache with fsync) and read them back both ways, read hdb block by block and
# see exactly the failing blocks fail, write across the failing sector, then the
# kernel log.  The host then checks both images byte for byte.
#
# Sourced by the host with HD_PLAN_ONLY=1: only the plan (variables, test names).

# ---- the plan (shared with the host) ----
HD_SECTORS=20160
HD_BYTES=$((HD_SECTORS * 512))
HD_SEED_A=1
HD_SEED_B=7
# Writes to hda, one per line: NAME MODE BLOCK_SIZE OFFSET LENGTH SEED (bytes).
# direct-512 starts in the middle of a 4 KiB block; buffered neither starts nor ends
# on a page (read-modify-write in the page cache).
HD_WRITES="direct-4k direct 4096 1048576 262144 2
direct-64k direct 65536 2097152 524288 3
direct-512 direct 512 6320640 32768 4
buffered buffered 512 4195840 512000 5"
# hdb: sectors whose reads fail (a block's first sector, two sectors across a 4 KiB
# boundary, a block's last sector); none in the first or last 64 sectors, which the
# partition scan reads.
HD_READ_BAD="5000 6007 6008 9215"
# hdb: a sector whose writes fail, inside the region written with seed HD_SEED_W.
HD_WRITE_BAD=12003
HD_WRITE_OFF=6144000
HD_WRITE_LEN=65536
HD_SEED_W=8
# hdb is read in 4 KiB and in 64 KiB blocks over [0, HD_READ_LEN).
HD_READ_LEN=$((HD_BYTES / 65536 * 65536))

hd_plan_tests() {
	echo no-libata shim-load load
	echo read-direct-4k read-direct-64k read-buffered
	echo write-direct-4k write-direct-64k write-direct-512 write-buffered
	echo readback-direct readback-buffered
	echo hdb-read-4k hdb-read-64k hdb-write hdb-readback
	echo dmesg-clean
}

[ -n "${HD_PLAN_ONLY:-}" ] && return 0

. /blkmig/lib.sh

build=
for arg in $(cat /proc/cmdline); do
	case $arg in
	blkmig.hdbuild=*) build=${arg#blkmig.hdbuild=} ;;
	esac
done
P=hd/${build:-none}

# expect_bad BS LENGTH SECTORS...: what eio_probe -c -b BS over [0, LENGTH) prints
# when exactly SECTORS fail: a "bad OFF EIO" line per block holding one of them.
expect_bad() {
	local bs=$1 len=$2 off=0 bad=0 s hit
	shift 2
	while [ $off -lt "$len" ]; do
		hit=
		for s in "$@"; do
			[ $((s * 512)) -ge $off ] && [ $((s * 512)) -lt $((off + bs)) ] && hit=1
		done
		if [ -n "$hit" ]; then
			echo "bad $off EIO"
			bad=$((bad + 1))
		fi
		off=$((off + bs))
	done
	echo "probe blocks=$((len / bs)) bad=$bad short=0 corrupt=0"
}

# clean BS LENGTH: eio_probe's output for LENGTH bytes in BS blocks, all good.
clean() {
	echo "probe blocks=$(($2 / $1)) bad=0 short=0 corrupt=0"
}

# probe_test NAME WANT_TEXT PROBE_ARGS...
probe_test() {
	local name=$1
	printf '%s\n' "$2" > /tmp/want
	shift 2
	probe_check "$name" /tmp/want "$@"
}

# not_run REASON TESTS...
not_run() {
	local why=$1 t
	shift
	for t in "$@"; do
		result "$P/$t" FAIL "not run: $why"
	done
}

# no_libata: neither libata nor a driver of it (ata_piix, pata_*) is in the kernel.
no_libata() {
	local m found=
	for m in libata ata_piix ata_generic pata_legacy; do
		[ -e "/sys/module/$m" ] && found="$found $m"
	done
	[ -z "$found" ] || { echo "loaded:$found"; return 1; }
}

# kernel_log_check NAME: PASS when the whole kernel log is clean (lib.sh's list of bad
# lines); the detail leaves out timestamps and pids, which differ between boots.
kernel_log_check() {
	local name=$1
	if dmesg | grep -qE "$BAD_KERNEL_LOG"; then
		dmesg | grep -E "$BAD_KERNEL_LOG" | head -n 5 | sed "s|^|LOG $name: |"
		result "$name" FAIL "$(dmesg | grep -m1 -E "$BAD_KERNEL_LOG" |
			sed -E 's/^\[ *[0-9.]+\] //; s/PID: [0-9]+/PID: _/')"
	else
		result "$name" PASS
	fi
}

# buffered_cmp NAME DEV REF: the whole of DEV read through the page cache (dropped
# first, so the driver reads it) equals REF.
buffered_cmp() {
	local name=$1 dev=$2 ref=$3 out
	blockdev --flushbufs "$dev"
	echo 3 > /proc/sys/vm/drop_caches
	if out=$(timeout "$STEP_TIMEOUT" cmp "$dev" "$ref" 2>&1); then
		result "$name" PASS "$HD_BYTES bytes equal"
	else
		echo "LOG $name: $out"
		local at
		at=$(echo "$out" | sed -n 's/.* char \([0-9]*\).*/\1/p')
		result "$name" FAIL "differs${at:+ from sector $(((at - 1) / 512))}: $(echo "$out" | head -n 1 | cut -c1-80)"
	fi
}

# Report a hung task in the log long before the host's timeout ends the boot.
echo 30 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
echo "LOG ==== $P at $(cut -d" " -f1 /proc/uptime)s"
# libata at the start (anything the kernel loaded by itself) and at the end.
libata_start=$(no_libata) || libata_start="at the start: $libata_start"
libata_check() {
	local end
	end=$(no_libata) || end="at the end: $end"
	[ -z "$libata_start$end" ] || { echo "$libata_start $end"; return 1; }
}
if [ -z "$build" ] || [ ! -e "$MODS/realdrv/$build/hd.ko" ]; then
	check "$P/no-libata" libata_check
	not_run "no $MODS/realdrv/${build:-?}/hd.ko in the image" \
		$(hd_plan_tests | tr ' ' '\n' | grep -vxE 'no-libata|dmesg-clean')
	kernel_log_check "$P/dmesg-clean"
	exit 0
fi

# The reference: brd holds what hda must hold, written by the same probe.
if ! kernel_module brd rd_nr=1 rd_size=$((HD_BYTES / 1024)) || ! wait_for_disk ram0 ||
   ! "$PROBE" -w -s $HD_SEED_A -b 65536 /dev/ram0 0 $((HD_BYTES / 65536 * 65536)) > /tmp/ref.out ||
   ! "$PROBE" -w -s $HD_SEED_A -b 4096 /dev/ram0 $((HD_BYTES / 65536 * 65536)) \
	$((HD_BYTES % 65536)) >> /tmp/ref.out; then
	echo "LOG $P: no brd reference"
	REF=
else
	REF=/dev/ram0
fi

if insmod "$MODS/blkcompat.ko"; then
	result "$P/shim-load" PASS
else
	result "$P/shim-load" FAIL "insmod blkcompat.ko failed"
fi
loaded=
if ! out=$(insmod "$MODS/realdrv/$build/hd.ko" 2>&1); then
	result "$P/load" FAIL "insmod hd.ko: $(echo "$out" | tail -n 1)"
elif ! wait_for_disk hda || ! wait_for_disk hdb; then
	result "$P/load" FAIL "no /dev/hda or /dev/hdb after insmod"
elif [ "$(cat /sys/block/hda/size)" != $HD_SECTORS ] ||
     [ "$(cat /sys/block/hdb/size)" != $HD_SECTORS ]; then
	result "$P/load" FAIL "sizes $(cat /sys/block/hda/size) $(cat /sys/block/hdb/size)," \
		"want $HD_SECTORS"
else
	result "$P/load" PASS "hda hdb, $HD_SECTORS sectors each"
	loaded=1
fi
dmesg | grep -E '^(\[[ 0-9.]*\] )?hd[ab:]' | head -n 4 | sed "s|^|LOG $P: |"

if [ -z "$loaded" ]; then
	not_run "hd.ko did not load" read-direct-4k read-direct-64k read-buffered \
		write-direct-4k write-direct-64k write-direct-512 write-buffered \
		readback-direct readback-buffered hdb-read-4k hdb-read-64k hdb-write hdb-readback
else
	# ---- hda: the pattern, read three ways ----
	echo "LOG ==== $P/read at $(cut -d" " -f1 /proc/uptime)s"
	probe_test "$P/read-direct-4k" "$(clean 4096 $HD_BYTES)" \
		-c -s $HD_SEED_A -b 4096 /dev/hda 0 $HD_BYTES
	probe_test "$P/read-direct-64k" "$(clean 65536 $HD_READ_LEN)" \
		-c -s $HD_SEED_A -b 65536 /dev/hda 0 $HD_READ_LEN
	if [ -n "$REF" ]; then
		buffered_cmp "$P/read-buffered" /dev/hda $REF
	else
		result "$P/read-buffered" FAIL "no brd reference"
	fi

	# ---- hda: writes; the reference takes the same ones ----
	echo "LOG ==== $P/write at $(cut -d" " -f1 /proc/uptime)s"
	echo "$HD_WRITES" | while read -r name mode bs off len seed; do
		[ -n "$REF" ] && "$PROBE" -w -s "$seed" -b "$bs" $REF "$off" "$len" > /dev/null
		if [ "$mode" = direct ]; then
			probe_test "$P/write-$name" "$(clean "$bs" "$len")" \
				-w -s "$seed" -b "$bs" /dev/hda "$off" "$len"
		elif [ -z "$REF" ]; then
			result "$P/write-$name" FAIL "no brd reference"
		elif out=$(timeout "$STEP_TIMEOUT" dd if=$REF of=/dev/hda bs="$bs" \
				skip=$((off / bs)) seek=$((off / bs)) count=$((len / bs)) \
				conv=notrunc,fsync 2>&1); then
			result "$P/write-$name" PASS "dd bs=$bs count=$((len / bs)) conv=fsync"
		else
			echo "$out" | sed "s|^|LOG $P/write-$name: |"
			result "$P/write-$name" FAIL "dd: $(echo "$out" | head -n 1)"
		fi
	done
	sync

	echo "LOG ==== $P/readback at $(cut -d" " -f1 /proc/uptime)s"
	# Each region with its own seed and block size, then the whole disk.
	echo "$HD_WRITES" | while read -r name mode bs off len seed; do
		"$PROBE" -c -s "$seed" -b "$bs" /dev/hda "$off" "$len" 2>&1 | sed "s|^|$name |"
	done > /tmp/readback.out
	echo "$HD_WRITES" | while read -r name mode bs off len seed; do
		echo "$name $(clean "$bs" "$len")"
	done > /tmp/readback.want
	if cmp -s /tmp/readback.out /tmp/readback.want; then
		result "$P/readback-direct" PASS "$(wc -l < /tmp/readback.want) regions intact"
	else
		diff /tmp/readback.want /tmp/readback.out | head -n 12 | sed "s|^|LOG $P/readback-direct: |"
		result "$P/readback-direct" FAIL "$(diff /tmp/readback.want /tmp/readback.out |
			grep '^+' | grep -v '^+++' | head -n 2 | tr '\n' ' ')"
	fi
	if [ -n "$REF" ]; then
		buffered_cmp "$P/readback-buffered" /dev/hda $REF
	else
		result "$P/readback-buffered" FAIL "no brd reference"
	fi

	# ---- hdb: injected errors ----
	echo "LOG ==== $P/hdb at $(cut -d" " -f1 /proc/uptime)s"
	# shellcheck disable=SC2086
	probe_test "$P/hdb-read-4k" "$(expect_bad 4096 $HD_READ_LEN $HD_READ_BAD)" \
		-c -s $HD_SEED_B -b 4096 /dev/hdb 0 $HD_READ_LEN
	# shellcheck disable=SC2086
	probe_test "$P/hdb-read-64k" "$(expect_bad 65536 $HD_READ_LEN $HD_READ_BAD)" \
		-c -s $HD_SEED_B -b 65536 /dev/hdb 0 $HD_READ_LEN
	# Write 4 KiB blocks across the failing sector: that block fails, no other.
	probe_test "$P/hdb-write" "$(expect_bad 4096 $HD_WRITE_LEN \
			$((HD_WRITE_BAD - HD_WRITE_OFF / 512)) |
			awk -v o=$HD_WRITE_OFF '$1 == "bad" { $2 += o } { print }')" \
		-w -s $HD_SEED_W -b 4096 /dev/hdb $HD_WRITE_OFF $HD_WRITE_LEN
	# Read them back: every block holds the new stamp but the failed one, which holds
	# the new stamp before the failing sector and the old one from it (hd.c writes
	# sector by sector and ends the segment when the retries run out).
	blk=$(((HD_WRITE_BAD * 512 - HD_WRITE_OFF) / 4096 * 4096 + HD_WRITE_OFF))
	probe_test "$P/hdb-readback" "corrupt $blk
probe blocks=$((HD_WRITE_LEN / 4096)) bad=0 short=0 corrupt=1" \
		-c -s $HD_SEED_W -b 4096 /dev/hdb $HD_WRITE_OFF $HD_WRITE_LEN
fi

echo "LOG ==== $P/end at $(cut -d" " -f1 /proc/uptime)s"
check "$P/no-libata" libata_check
# The lock assertion's lines are the host's to judge (run-hd.sh reads the dump).
dmesg | grep -E 'blkcompat: (lock|note):' | sed "s|^|LOG $P/lock: |"
kernel_log_check "$P/dmesg-clean"
sync
exit 0
