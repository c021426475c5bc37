# tests/target/suite.mk — the `target` suite: the samples on a real kernel in QEMU.
#
#   make check-target     (part of `make check`) boot the guest once, run every test
#   make target-check     the same alone, ending with its own "N passed, N failed"
#   make target-guest     only build the guest initramfs
#   make demo-target      (part of `make demo`) the checks, then a table per sample
#   make bench-target-fio (part of `make bench`) fio: converted lrd_simple vs null_blk, brd
#
# KVER picks the kernel (default: the newest /boot/vmlinuz-V with headers for V), KERNEL
# the image to boot.  Artefacts (serial logs, results, bench tables) go to build/target/.

KVER          ?= $(shell $(TOP)/tests/target/kernel-version.sh)
KERNEL        ?= /boot/vmlinuz-$(KVER)
TARGET_SRC    := $(TOP)/tests/target
TARGET_OUT    := $(BUILD)/target
TARGET_CPIO   := $(TARGET_OUT)/initramfs.cpio
TARGET_PROBE  := $(TARGET_OUT)/eio_probe
# The kernel engineer's modules (make modules): blkcompat.ko, legacy/, converted/.
TARGET_MODULES ?= $(BUILD)/modules
# Seconds the check boot may take before it counts as hung (a normal run: ~2 min).
TARGET_TIMEOUT ?= 600
# The same for the benchmark boot (a normal run: ~9 min with the defaults).
BENCH_TIMEOUT  ?= 1800

CHECK_SUITES += target
DEMO_STEPS   += demo-target
BENCHES      += target-fio

.PHONY: target-guest check-target target-check demo-target bench-target-fio

$(TARGET_PROBE): $(TARGET_SRC)/probe/eio_probe.c
	@mkdir -p $(@D)
	gcc -static -O2 -Wall -Wextra -o $@ $<

# Rebuilt every time (two seconds): it must carry the modules of this very build.
target-guest: $(TARGET_PROBE)
	@KVER=$(KVER) PROBE=$(TARGET_PROBE) GUEST_SRC=$(TARGET_SRC)/guest \
		OUR_MODULES=$(TARGET_MODULES) \
		$(TARGET_SRC)/guest-build.sh $(TARGET_CPIO) $(TARGET_OUT)/root

check-target: target-guest
	@KVER=$(KVER) RESULTS=$(RESULTS) BOOT_TIMEOUT=$(TARGET_TIMEOUT) \
		$(TARGET_SRC)/run-check.sh $(KERNEL) $(TARGET_CPIO) $(TARGET_OUT)

target-check: all
	@rm -rf $(TARGET_OUT)/results; mkdir -p $(TARGET_OUT)/results
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory check-target RESULTS=$(TARGET_OUT)/results; \
	echo "target-check: $$(( $$(date +%s) - start ))s"; \
	$(TOP)/tests/lib/summarize $(TARGET_OUT)/results

# The benchmark: one boot with one CPU; medians and ratios in build/target/bench.{txt,json}.
BENCH_REPS    ?= 5
BENCH_RUNTIME ?= 3
# Empty: each device keeps the scheduler it comes with; e.g. none: all blk-mq the same.
BENCH_SCHED   ?=
bench-target-fio: target-guest
	@SMP=1 BOOT_TIMEOUT=$(BENCH_TIMEOUT) \
		APPEND_EXTRA="blkmig.reps=$(BENCH_REPS) blkmig.runtime=$(BENCH_RUNTIME) $(if $(BENCH_SCHED),blkmig.sched=$(BENCH_SCHED))" \
		$(TARGET_SRC)/guest-boot.sh $(KERNEL) $(TARGET_CPIO) bench $(TARGET_OUT)/bench-serial.log
	@$(TARGET_SRC)/bench-report.sh $(TARGET_OUT)/bench-serial.log \
		$(TARGET_OUT)/bench.txt $(TARGET_OUT)/bench.json
	@echo "bench-target-fio: $(TARGET_OUT)/bench.txt, $(TARGET_OUT)/bench.json"

# The demo: the checks, then the table (sample, sites converted, legacy, converted).
TARGET_LEGACY_SRC    ?= $(TOP)/samples
TARGET_CONVERTED_SRC ?= $(BUILD)/samples/converted
demo-target: target-guest
	@rm -rf $(TARGET_OUT)/demo-results; mkdir -p $(TARGET_OUT)/demo-results
	@echo "demo-target: booting $(KERNEL) under QEMU TCG and running the checks..."
	@KVER=$(KVER) RESULTS=$(TARGET_OUT)/demo-results BOOT_TIMEOUT=$(TARGET_TIMEOUT) \
		$(TARGET_SRC)/run-check.sh $(KERNEL) $(TARGET_CPIO) $(TARGET_OUT) \
		> $(TARGET_OUT)/demo-check.txt; rc=$$?; \
	tail -n 1 $(TARGET_OUT)/demo-check.txt; echo; \
	$(TARGET_SRC)/demo-table.sh $(TARGET_OUT)/check-results.tsv \
		$(TARGET_LEGACY_SRC) $(TARGET_CONVERTED_SRC); \
	echo; echo "details: $(TARGET_OUT)/demo-check.txt, serial log $(TARGET_OUT)/check-serial.log"; \
	exit $$rc

# Proof that the tests catch broken samples (not in `make check`: one more boot).
.PHONY: target-mutants target-probe
target-probe: $(TARGET_PROBE)
target-mutants: modules $(TARGET_PROBE)
	@rm -rf $(TARGET_OUT)/mutants-results
	@KVER=$(KVER) KDIR=$(KDIR) SAMPLES_SRC=$(TOP)/samples SHIM_INCLUDE=$(TOP)/shims/include \
		SHIM_SYMVERS=$(BUILD)/kbuild/shims/Module.symvers MODULES=$(TARGET_MODULES) \
		PROBE=$(TARGET_PROBE) RESULTS=$(TARGET_OUT)/mutants-results \
		BOOT_TIMEOUT=$(TARGET_TIMEOUT) \
		$(TARGET_SRC)/mutants.sh $(TARGET_OUT)/mutants $(KERNEL)
