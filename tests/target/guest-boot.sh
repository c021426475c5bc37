#!/bin/bash
# tests/target/guest-boot.sh — boots the test guest once, bounded by a timeout.
#
# usage: guest-boot.sh KERNEL INITRAMFS MODE SERIAL_LOG
# environment: BOOT_TIMEOUT (seconds, default 600), SMP (default 2), MEM (default 1G),
#              APPEND_EXTRA (more kernel command line, e.g. blkmig.reps=3),
#              QEMU_EXTRA (more QEMU arguments, split at blanks: e.g. the IDE disks
#              of realdrv/run-hd.sh; no blanks inside one argument),
#              ACCEL (default tcg,thread=single), QEMU (default qemu-system-x86_64)
#
# The serial console is the only channel back: everything the guest prints lands in
# SERIAL_LOG.  Exit status: qemu's, or 124 when the timeout had to stop a hung guest.
set -u
kernel=${1:?usage: guest-boot.sh KERNEL INITRAMFS MODE SERIAL_LOG}
initrd=${2:?}
mode=${3:?}
log=${4:?}
qemu=${QEMU:-qemu-system-x86_64}
[ -r "$kernel" ] || { echo "guest-boot: cannot read kernel $kernel" >&2; exit 2; }
[ -r "$initrd" ] || { echo "guest-boot: cannot read $initrd" >&2; exit 2; }
command -v "$qemu" > /dev/null || { echo "guest-boot: no $qemu (apt-get install qemu-system-x86)" >&2; exit 2; }

# panic=-1 reboots at once on a panic and -no-reboot turns that into an exit;
# loglevel=4 keeps routine kernel chatter off the console (the guest dumps the whole
# log between markers at the end) while errors and oopses still show up live.
# Single-threaded TCG still runs both vCPUs, in turns.  Multi-threaded TCG (the
# default of -accel tcg) let a vCPU run kernel text another vCPU had just patched
# (static keys, text_poke_bp): the guest died now and then on an int3 oops outside
# our code (sched_clock_cpu, urandom_read_iter), about once in a dozen boots on a
# loaded CI machine.  ACCEL=tcg brings the parallel mode back.
append="console=ttyS0 panic=-1 loglevel=4 blkmig.mode=$mode ${APPEND_EXTRA:-}"
extra=()
[ -n "${QEMU_EXTRA:-}" ] && read -r -a extra <<< "$QEMU_EXTRA"
start=$(date +%s)
timeout --kill-after=10 "${BOOT_TIMEOUT:-600}" "$qemu" \
	-accel "${ACCEL:-tcg,thread=single}" -cpu max -smp "${SMP:-2}" -m "${MEM:-1G}" \
	-nographic -no-reboot -vga none -nic none \
	-kernel "$kernel" -initrd "$initrd" -append "$append" "${extra[@]}" \
	< /dev/null > "$log" 2>&1
rc=$?
echo "guest-boot: mode=$mode smp=${SMP:-2} rc=$rc $(($(date +%s) - start))s log=$log"
exit $rc
