#!/bin/sh
# bench.sh — the fio benchmark, run in the guest by /init (blkmig.mode=bench, -smp 1).
#
# Three devices of BENCH_MB each: the converted lrd_simple sample on blkcompat, null_blk
# (memory-backed, blk-mq, completing inline in queue_rq as the sample does: irqmode=0)
# and brd (bio-based).  Six jobs: 4k randread, 4k randwrite, 128k sequential write, each
# with libaio (iodepth 16) and psync, one fio job each.  Every job runs REPS times with
# the devices interleaved (A B C A B C ...), so slow phases of the TCG host hit all
# three alike.  One line per run, for the host (tests/target/bench-report.sh):
#	BENCH <job> <engine> <device> <rep> <iops> <KiB/s>
# Kernel command line: blkmig.reps=N, blkmig.runtime=SECONDS override the defaults;
# blkmig.sched=NAME sets the I/O scheduler of the blk-mq devices (default: as they come:
# the shim's single-queue tag set gets mq-deadline, null_blk none).
. /blkmig/lib.sh

BENCH_MB=64
REPS=5
RUNTIME=3
SCHED=
for arg in $(cat /proc/cmdline); do
	case $arg in
	blkmig.reps=*) REPS=${arg#*=} ;;
	blkmig.runtime=*) RUNTIME=${arg#*=} ;;
	blkmig.sched=*) SCHED=${arg#*=} ;;
	esac
done
echo "LOG bench: ${BENCH_MB} MiB devices, $REPS repetitions of ${RUNTIME}s, $(grep -c ^processor /proc/cpuinfo) CPU"

ok=1
insmod $MODS/blkcompat.ko || ok=0
insmod $MODS/converted/lrd_simple.ko size_mb=$BENCH_MB && wait_for_disk lrdsimple || ok=0
kernel_module brd rd_nr=1 rd_size=$((BENCH_MB * 1024)) && wait_for_disk ram0 || ok=0
kernel_module null_blk nr_devices=0 || ok=0
mount -t configfs configfs /sys/kernel/config
d=/sys/kernel/config/nullb/nullb_bench
mkdir $d && echo $BENCH_MB > $d/size && echo 1 > $d/memory_backed &&
	echo 0 > $d/irqmode && echo 1 > $d/power || ok=0
nullb=nullb_bench
[ -e /sys/block/$nullb ] || nullb=nullb$(cat $d/index)
wait_for_disk $nullb || ok=0
if [ $ok = 0 ]; then
	echo "BENCH-ERROR a device did not come up"
	exit 1
fi
DEVICES="sample:/dev/lrdsimple null_blk:/dev/$nullb brd:/dev/ram0"
for dev in $DEVICES; do
	sched=/sys/block/${dev##*/}/queue/scheduler
	# blkmig.sched=NAME puts every blk-mq device on the same I/O scheduler.
	[ -n "$SCHED" ] && grep -q '\[' $sched && echo "$SCHED" > $sched
	# a bio-based device (brd) has no scheduler: 6.1 shows "none", 6.12 nothing
	cur=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $sched 2>/dev/null)
	echo "BENCH-SCHED ${dev%%:*} ${cur:-none}"
done

# Fill every device first: reads then hit allocated memory on all three.
for dev in $DEVICES; do
	fio --name=fill --filename=${dev#*:} --rw=write --bs=1M --direct=1 \
		--ioengine=psync --size=${BENCH_MB}M > /dev/null 2>&1 ||
		echo "BENCH-ERROR fill ${dev%%:*}"
done

# job: name rw bs
JOBS="randread-4k:randread:4k randwrite-4k:randwrite:4k seqwrite-128k:write:128k"
rep=1
while [ $rep -le "$REPS" ]; do
	for job in $JOBS; do
		name=${job%%:*}
		rw=${job#*:}
		bs=${rw#*:}
		rw=${rw%%:*}
		for engine in libaio psync; do
			depth=1
			[ $engine = libaio ] && depth=16
			for dev in $DEVICES; do
				line=$(fio --name=$name --filename=${dev#*:} --rw=$rw --bs=$bs \
					--direct=1 --ioengine=$engine --iodepth=$depth --numjobs=1 \
					--size=${BENCH_MB}M --time_based --runtime=$RUNTIME \
					--ramp_time=1 --randseed=$rep --norandommap \
					--output-format=terse --terse-version=3 2>/tmp/bench.err)
				# terse v3: field 5 the error, 7/8 read KiB/s and IOPS, 48/49 the
				# same for writes
				echo "$line" | awk -F';' -v rw=$rw -v tag="$name $engine ${dev%%:*} $rep" '
					NF > 49 {
						iops = (rw == "randread") ? $8 : $49
						kib = (rw == "randread") ? $7 : $48
						if ($5 == 0 && iops > 0) {
							print "BENCH", tag, iops, kib
							ok = 1
						}
					}
					END { if (!ok) print "BENCH-ERROR", tag }'
				[ -s /tmp/bench.err ] && sed 's/^/LOG bench: /' /tmp/bench.err | head -n 3
			done
		done
	done
	rep=$((rep + 1))
done
exit 0
