# plan.sh — the list of tests the guest runs, sourced by the guest (to run them) and by
# the host (to expect them: a test without a RESULT line is a failure).
#
# Names: <sample>/<build>/<test> for each sample and build; ref/<dev>/<test> and
# harness/<test> for the reference devices and the harness's own controls; shim/<test>
# and kernel/<test> for the rest.

# The sample contract (samples/README.md).
PLAN_SAMPLES="lrd_simple lrd_defer lrd_chunk lrd_cb"
PLAN_BUILDS="legacy converted"

# Tests every sample runs, in both builds, then the sample's own.
plan_sample_tests() {
	echo load shim-rmmod-refused fio-verify fio-reverify
	case $1 in
	lrd_cb) echo cb-count ;;
	lrd_chunk) echo chunk-1536 ;;
	esac
	echo rmmod-busy eio-load eio-write eio-read eio-span unload dmesg-clean
}

plan_global_tests() {
	echo ref/brd/fio-verify ref/brd/fio-reverify harness/verify-detects-corruption
	echo ref/null_blk/fio-verify harness/probe-detects-eio
	echo shim/load
	echo selftest/load selftest/verdict selftest/fio-verify selftest/skip-cleanup
	echo selftest/errno selftest/fio-verify-wrappers selftest/checks-after-io
	echo selftest/unload
	echo shim/unload kernel/dmesg-clean kernel/taint-clean
}

# Every expected test name, one per line.
plan_all_tests() {
	local s b t
	plan_global_tests | tr ' ' '\n'
	for s in $PLAN_SAMPLES; do
		for b in $PLAN_BUILDS; do
			for t in $(plan_sample_tests "$s"); do
				echo "$s/$b/$t"
			done
		done
	done
}
