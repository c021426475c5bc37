#!/bin/bash
# tests/target/realdrv/run-hd.sh — the real driver hd.c (2.6.24's drivers/ide/legacy/hd.c)
# on one kernel: one boot with the unconverted build, one with blkmig's conversion, on
# QEMU's PIIX IDE with two disks; the host makes the images, checks them byte for
# byte after each boot, judges the shim's lock assertions against blkmig's report
# and compares the two builds.
#
# usage: run-hd.sh KERNEL INITRAMFS OUTDIR
# environment:
#   KVER        the version the guest must report
#   RESULTS     testlib's directory (suite `target`; names hd/<build>/<test>,
#               hd/compare/<test>)
#   MODULES     our modules for this kernel (realdrv/legacy/hd.ko, realdrv/converted/hd.ko)
#   REALDRV     blkmig's hd.c artefacts: hd/legacy/hd.c, hd/converted/hd.c,
#               hd/report/report.json
#   HD_BUILDS   the builds to run (default "legacy converted"; compare needs both)
#   BOOT_TIMEOUT and what guest-boot.sh takes; SMP is 1 here (see below)
# For proving that the tests fail (never set in the suite):
#   HD_INJECT_READ   sectors blkdebug fails on reads instead of the plan's HD_READ_BAD
#   HD_INJECT_WRITE  the sector blkdebug fails on writes instead of HD_WRITE_BAD
#   HD_CORRUPT       a sector of hda the host zeroes after the boot, before the check
#   HD_CORRUPT_BEFORE  a sector of hda the host zeroes before the boot
# Artefacts in OUTDIR/<build>/: hd-serial.log, results.tsv, hda.img/hdb.img (as the
# guest left them), expected-hda.img/expected-hdb.img, lockcheck.txt.
#
# One vCPU: hd.c's interrupt paths run without the queue lock (the driver's old
# bugs), which on an SMP guest races with the request function.  With one vCPU under
# TCG on a loaded host, the kernel's own crypto self-tests at boot kept the vCPU long
# enough for an RCU stall report (21 s, the default) in one of eight boots: the boots
# skip those tests and report a stall only after 300 s (the most the kernel takes);
# a real hang still ends at the boot timeout or in the hung-task report.
HD_APPEND="cryptomgr.notests rcupdate.rcu_cpu_stall_timeout=300"
set -u
here=$(cd "$(dirname "$0")" && pwd)
target=$(cd "$here/.." && pwd)
kernel=${1:?usage: run-hd.sh KERNEL INITRAMFS OUTDIR}
initrd=${2:?}
out=${3:?}
: "${KVER:?}" "${MODULES:?}" "${REALDRV:?}"
SUITE=target
. "$target/../lib/testlib.sh"
HD_PLAN_ONLY=1
. "$target/guest/hd.sh"
builds=${HD_BUILDS:-legacy converted}
img() { python3 "$here/hdimg.py" "$@"; }
mkdir -p "$out"

# expected_images DIR: what hda and hdb must hold after the guest's run.
expected_images() {
	local d=$1 name mode bs off len seed bad_end
	img stamp "$d/expected-hda.img" $HD_BYTES $HD_SEED_A
	while read -r name mode bs off len seed; do
		img apply "$d/expected-hda.img" "$off" "$len" "$seed"
	done <<<"$HD_WRITES"
	img stamp "$d/expected-hdb.img" $HD_BYTES $HD_SEED_B
	img apply "$d/expected-hdb.img" $HD_WRITE_OFF $HD_WRITE_LEN $HD_SEED_W
	# The failed 4 KiB write: written up to the failing sector, the old data from it.
	bad_end=$(((HD_WRITE_BAD * 512 - HD_WRITE_OFF) / 4096 * 4096 + 4096 + HD_WRITE_OFF))
	img apply "$d/expected-hdb.img" $((HD_WRITE_BAD * 512)) \
		$((bad_end - HD_WRITE_BAD * 512)) $HD_SEED_B
}

# qemu_args DIR: the two IDE disks (primary channel, master and slave, 20/16/63 CHS
# as hd.ko is built for), hdb behind blkdebug.
qemu_args() {
	local d=$1 s i=0 inject=
	for s in ${HD_INJECT_READ:-$HD_READ_BAD}; do
		inject="$inject,file.inject-error.$i.event=read_aio,file.inject-error.$i.iotype=read"
		inject="$inject,file.inject-error.$i.errno=5,file.inject-error.$i.sector=$s"
		inject="$inject,file.inject-error.$i.once=off"
		i=$((i + 1))
	done
	s=${HD_INJECT_WRITE:-$HD_WRITE_BAD}
	inject="$inject,file.inject-error.$i.event=write_aio,file.inject-error.$i.iotype=write"
	inject="$inject,file.inject-error.$i.errno=5,file.inject-error.$i.sector=$s"
	inject="$inject,file.inject-error.$i.once=off"
	local dev=cyls=20,heads=16,secs=63,rerror=report,werror=report
	echo "-blockdev driver=raw,node-name=hda,file.driver=file,file.filename=$d/hda.img" \
		"-device ide-hd,drive=hda,bus=ide.0,unit=0,$dev" \
		"-blockdev driver=raw,node-name=hdb,file.driver=blkdebug,file.image.driver=file,file.image.filename=$d/hdb.img$inject" \
		"-device ide-hd,drive=hdb,bus=ide.0,unit=1,$dev"
}

for b in $builds; do
	d=$out/$b
	rm -rf "$d"
	mkdir -p "$d"
	echo "hd: $KVER $b: images..."
	img stamp "$d/hda.img" $HD_BYTES $HD_SEED_A
	img stamp "$d/hdb.img" $HD_BYTES $HD_SEED_B
	for i in hda hdb; do
		img mbr "$d/$i.img" || echo "hd: warning: $i's sector 0 ends in 0x55 0xaa"
	done
	expected_images "$d"
	if [ -n "${HD_CORRUPT_BEFORE:-}" ]; then
		echo "hd: HD_CORRUPT_BEFORE: zeroing sector $HD_CORRUPT_BEFORE of $b's hda"
		dd if=/dev/zero of="$d/hda.img" bs=512 seek="$HD_CORRUPT_BEFORE" count=1 \
			conv=notrunc 2> /dev/null
	fi

	start=$(date +%s)
	if [ ! -f "$MODULES/realdrv/$b/hd.ko" ]; then
		echo "hd: no $MODULES/realdrv/$b/hd.ko (the guest reports every test not run)"
	fi
	SMP=1 QEMU_EXTRA="$(qemu_args "$d")" APPEND_EXTRA="blkmig.hdbuild=$b $HD_APPEND" \
		"$target/guest-boot.sh" "$kernel" "$initrd" hd "$d/hd-serial.log"
	rc=$?
	secs=$(($(date +%s) - start))
	echo "hd: $KVER $b: boot took ${secs}s"
	ended=$(tr -d '\r' < "$d/hd-serial.log" | grep -c '^BLKMIG-END$')
	if [ "$rc" -eq 0 ] && [ "$ended" -eq 1 ]; then
		pass "hd/$b/boot"
	elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		fail "hd/$b/boot" "the guest hung: stopped by the timeout after ${secs}s (log: $d/hd-serial.log)"
	else
		fail "hd/$b/boot" "qemu exit $rc, end marker seen $ended times (log: $d/hd-serial.log):" \
			"$(tr -d '\r' < "$d/hd-serial.log" | grep -E 'Kernel panic|BUG:|Oops|qemu-system' | head -n 1)"
	fi
	running=$(tr -d '\r' < "$d/hd-serial.log" | sed -n 's/^KERNEL \([^ ]*\)$/\1/p' | head -n 1)
	if [ "$running" = "$KVER" ]; then
		pass "hd/$b/kernel"
	else
		fail "hd/$b/kernel" "the guest reports '${running:-nothing}', expected $KVER"
	fi

	# The guest's own verdicts.
	hd_plan_tests | tr ' ' '\n' | sed "/^$/d; s|^|hd/$b/|" > "$d/expected.txt"
	"$target/results.sh" "$d/hd-serial.log" "$d/expected.txt" > "$d/results.tsv"
	record_verdicts "$d/results.tsv"

	# The images, byte for byte.
	if [ -n "${HD_CORRUPT:-}" ]; then
		echo "hd: HD_CORRUPT: zeroing sector $HD_CORRUPT of $b's hda"
		dd if=/dev/zero of="$d/hda.img" bs=512 seek="$HD_CORRUPT" count=1 conv=notrunc 2> /dev/null
	fi
	for i in hda hdb; do
		if res=$(img compare "$d/$i.img" "$d/expected-$i.img"); then
			pass "hd/$b/image-$i"
		else
			fail "hd/$b/image-$i" "$res"
		fi
	done

	# The shim's lock assertions: each must be an old bug the report names.
	src=$REALDRV/hd/$b/hd.c
	orig=()
	[ "$b" = legacy ] || orig=(--original "$REALDRV/hd/legacy/hd.c")
	python3 "$here/lockcheck.py" "$d/hd-serial.log" "$MODULES/realdrv/$b/hd.ko" \
		"$REALDRV/hd/report/report.json" "$src" "${orig[@]}" > "$d/lockcheck.txt" 2>&1
	lrc=$?
	sed 's/^/hd: /' "$d/lockcheck.txt"
	if [ $lrc -eq 0 ]; then
		pass "hd/$b/lock-sites"
	else
		fail "hd/$b/lock-sites" "$(grep -E 'NOT named|missing|Error|error' "$d/lockcheck.txt" |
			head -n 3 | tr '\n' ' ')"
	fi
done

# Legacy and converted: the same guest-visible results and the same final images.
if [ -d "$out/legacy" ] && [ -d "$out/converted" ]; then
	diffs=
	for t in $(hd_plan_tests); do
		l=$(awk -F'\t' -v n="hd/legacy/$t" '$2 == n { print $1 " " $3 }' "$out/legacy/results.tsv")
		c=$(awk -F'\t' -v n="hd/converted/$t" '$2 == n { print $1 " " $3 }' "$out/converted/results.tsv")
		[ "$l" = "$c" ] || diffs="$diffs $t (legacy: ${l:0:80}; converted: ${c:0:80});"
	done
	if [ -z "$diffs" ]; then
		pass hd/compare/results
	else
		n=$(grep -o ');' <<<"$diffs" | wc -l)
		fail hd/compare/results "legacy and converted differ in $n test(s):${diffs:0:700}"
	fi
	for i in hda hdb; do
		if res=$(img compare "$out/converted/$i.img" "$out/legacy/$i.img"); then
			pass "hd/compare/image-$i"
		else
			fail "hd/compare/image-$i" "converted vs legacy: $res"
		fi
	done
fi
finish
