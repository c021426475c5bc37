# tests/target/suite.mk — the `target` suite: the samples on real kernels in QEMU.
#
#   make check-target     (part of `make check`) boot each target kernel once, run every test
#   make target-check     the same alone, ending with its own "N passed, N failed"
#   make target-guest     only build the guest initramfs (one image for every kernel)
#   make demo-target      (part of `make demo`) the checks on KVER, then a table per sample
#   make bench-target-fio (part of `make bench`) fio on each target kernel: converted
#                         lrd_simple vs null_blk, brd
#
# KVERS picks the target kernels (default: every installed V with /boot/vmlinuz-V,
# headers and /lib/modules/V; e.g. KVERS=6.1.0-57-amd64); the modules are built for
# each into build/kernels/V/.  KVER is the one kernel of the demo and the mutants
# (default: the newest), KERNEL its image.  Artefacts (serial logs, results, bench
# tables) go to build/target/, per kernel in build/target/V/.

KVER          ?= $(shell $(TOP)/tests/target/kernel-version.sh)
KERNEL        ?= /boot/vmlinuz-$(KVER)
TARGET_KVERS   = $(KVERS_ALL)
TARGET_SRC    := $(TOP)/tests/target
TARGET_OUT    := $(BUILD)/target
TARGET_CPIO   := $(TARGET_OUT)/initramfs.cpio
TARGET_PROBE  := $(TARGET_OUT)/eio_probe
# Our modules per kernel (make modules): blkcompat.ko, legacy/, converted/, test/;
# @KVER@ stands for the version.  A directory without @KVER@ serves every kernel.
TARGET_MODULES ?= $(BUILD)/kernels/@KVER@/modules
# Seconds one check boot may take before it counts as hung (a normal run: ~2-3 min
# on an idle machine; TCG on a loaded one is several times slower).
TARGET_TIMEOUT ?= 1500
# The same for one benchmark boot (a normal run: ~9 min with the defaults).
BENCH_TIMEOUT  ?= 2400

# The real drivers of the 2.6.24 tree (realdrv/): after each kernel's boot of the
# samples, realdrv/run-<name>.sh boots it twice more (the unconverted and the converted
# build; 1 vCPU).  The modules are built by realdrv/realdrv.mk (included by
# shims/shims.mk) with the others (make modules: build/kernels/V/modules/realdrv/
# {legacy,converted}/<name>.ko); blkmig's artefacts (original, converted file,
# migrate report) are in TARGET_REALDRV_DIR.
# TARGET_REALDRV= (empty) leaves them out.
TARGET_REALDRV         ?= hd
TARGET_REALDRV_DIR     ?= $(BUILD)/realdrv
# Seconds one real-driver boot may take before it counts as hung (normal: under a minute).
TARGET_REALDRV_TIMEOUT ?= 600

CHECK_SUITES += target
DEMO_STEPS   += demo-target
BENCHES      += target-fio

.PHONY: target-guest check-target target-check demo-target bench-target-fio

$(TARGET_PROBE): $(TARGET_SRC)/probe/eio_probe.c
	@mkdir -p $(@D)
	gcc -static -O2 -Wall -Wextra -o $@ $<

# guest_image KVERS: the initramfs for those kernels.  Rebuilt every time (a few
# seconds): it must carry the modules of this very build.
define guest_image
	@KVERS="$(1)" PROBE=$(TARGET_PROBE) GUEST_SRC=$(TARGET_SRC)/guest \
		OUR_MODULES=$(TARGET_MODULES) \
		$(TARGET_SRC)/guest-build.sh $(TARGET_CPIO) $(TARGET_OUT)/root
endef

target-guest: $(TARGET_PROBE)
	$(call guest_image,$(TARGET_KVERS))

check-target: modules-kernels $(TARGET_PROBE)
	$(call guest_image,$(TARGET_KVERS))
	@KVERS="$(TARGET_KVERS)" RESULTS=$(RESULTS) BOOT_TIMEOUT=$(TARGET_TIMEOUT) \
		REALDRV_RUN="$(TARGET_REALDRV)" REALDRV=$(TARGET_REALDRV_DIR) \
		OUR_MODULES=$(TARGET_MODULES) REALDRV_TIMEOUT=$(TARGET_REALDRV_TIMEOUT) \
		nice -n 10 $(TARGET_SRC)/run-kernels.sh $(TARGET_CPIO) $(TARGET_OUT)

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
bench-target-fio: modules-kernels $(TARGET_PROBE)
	$(call guest_image,$(TARGET_KVERS))
	@rc=0; for v in $(TARGET_KVERS); do \
		mkdir -p $(TARGET_OUT)/$$v; \
		SMP=1 BOOT_TIMEOUT=$(BENCH_TIMEOUT) \
		APPEND_EXTRA="blkmig.reps=$(BENCH_REPS) blkmig.runtime=$(BENCH_RUNTIME) $(if $(BENCH_SCHED),blkmig.sched=$(BENCH_SCHED))" \
		nice -n 10 $(TARGET_SRC)/guest-boot.sh /boot/vmlinuz-$$v $(TARGET_CPIO) bench \
			$(TARGET_OUT)/$$v/bench-serial.log; \
		$(TARGET_SRC)/bench-report.sh $(TARGET_OUT)/$$v/bench-serial.log \
			$(TARGET_OUT)/$$v/bench.txt $(TARGET_OUT)/$$v/bench.json || rc=1; \
		echo "bench-target-fio: $(TARGET_OUT)/$$v/bench.txt, $(TARGET_OUT)/$$v/bench.json"; \
	done; exit $$rc

# The demo: the checks, then the table (sample, sites converted, legacy, converted).
TARGET_LEGACY_SRC    ?= $(TOP)/samples
TARGET_CONVERTED_SRC ?= $(BUILD)/samples/converted
TARGET_DEMO_REALDRV  := $(TARGET_OUT)/demo-realdrv
demo-target: $(TARGET_PROBE)
	$(call guest_image,$(KVER))
	@rm -rf $(TARGET_OUT)/demo-results $(TARGET_DEMO_REALDRV); mkdir -p $(TARGET_OUT)/demo-results
	@echo "demo-target: booting $(KERNEL) under QEMU TCG and running the checks..."
	@KVER=$(KVER) RESULTS=$(TARGET_OUT)/demo-results BOOT_TIMEOUT=$(TARGET_TIMEOUT) \
		$(TARGET_SRC)/run-check.sh $(KERNEL) $(TARGET_CPIO) $(TARGET_OUT) \
		> $(TARGET_OUT)/demo-check.txt; rc=$$?; \
	tail -n 1 $(TARGET_OUT)/demo-check.txt; \
	for r in $(TARGET_REALDRV); do \
		echo "demo-target: the real driver $$r.c, unconverted and converted (two boots)..."; \
		mkdir -p $(TARGET_DEMO_REALDRV)/$$r/results; \
		KVER=$(KVER) RESULTS=$(TARGET_DEMO_REALDRV)/$$r/results \
			MODULES=$(subst @KVER@,$(KVER),$(TARGET_MODULES)) REALDRV=$(TARGET_REALDRV_DIR) \
			BOOT_TIMEOUT=$(TARGET_REALDRV_TIMEOUT) $(TARGET_SRC)/realdrv/run-$$r.sh \
			$(KERNEL) $(TARGET_CPIO) $(TARGET_DEMO_REALDRV)/$$r \
			> $(TARGET_DEMO_REALDRV)/$$r/run.txt 2>&1 || rc=1; \
		tail -n 1 $(TARGET_DEMO_REALDRV)/$$r/run.txt; \
	done; echo; \
	$(TARGET_SRC)/demo-table.sh $(TARGET_OUT)/check-results.tsv \
		$(TARGET_LEGACY_SRC) $(TARGET_CONVERTED_SRC) \
		$(TARGET_DEMO_REALDRV) $(TARGET_REALDRV_DIR) $(TARGET_REALDRV); \
	echo; echo "details: $(TARGET_OUT)/demo-check.txt, serial log $(TARGET_OUT)/check-serial.log"; \
	for r in $(TARGET_REALDRV); do \
		echo "  $$r.c: $(TARGET_DEMO_REALDRV)/$$r/run.txt, serial logs $(TARGET_DEMO_REALDRV)/$$r/<build>/$$r-serial.log"; \
	done; \
	exit $$rc

# Proof that the tests catch broken samples (not in `make check`: one more boot).
.PHONY: target-mutants target-probe
target-probe: $(TARGET_PROBE)
target-mutants: modules $(TARGET_PROBE)
	@rm -rf $(TARGET_OUT)/mutants-results
	@KVER=$(KVER) KDIR=$(KDIR) SAMPLES_SRC=$(TOP)/samples SHIM_INCLUDE=$(TOP)/shims/include \
		SHIM_SYMVERS=$(BLKCOMPAT_SYMVERS) MODULES=$(MODULES_DIR) \
		PROBE=$(TARGET_PROBE) RESULTS=$(TARGET_OUT)/mutants-results \
		BOOT_TIMEOUT=$(TARGET_TIMEOUT) \
		$(TARGET_SRC)/mutants.sh $(TARGET_OUT)/mutants $(KERNEL)

# The negative control of the real-driver tests (suite realdrv-mutant, part of `make
# check`: one more boot of about 20 s, on KVER only): hd.c converted with blk_rq_cur_bytes()
# where the exact count is hard_cur_sectors << 9 (realdrv.mk's mutant; hd.c counts
# current_nr_sectors down to 0 before it completes) must fail them
# (realdrv/mutant-check.sh).  `make target-realdrv-mutants` runs it alone.
ifneq ($(filter hd,$(TARGET_REALDRV)),)
CHECK_SUITES += realdrv-mutant
endif
.PHONY: check-realdrv-mutant target-realdrv-mutants
check-realdrv-mutant: $(TARGET_PROBE)
	@$(MAKE) --no-print-directory realdrv-mutants KVER=$(KVER) MODULES_LINK=
	$(call guest_image,$(KVER))
	@KVER=$(KVER) MODULES=$(subst @KVER@,$(KVER),$(TARGET_MODULES)) \
		REALDRV=$(TARGET_REALDRV_DIR) RESULTS=$(RESULTS) \
		BOOT_TIMEOUT=$(TARGET_REALDRV_TIMEOUT) nice -n 10 \
		$(TARGET_SRC)/realdrv/mutant-check.sh $(KERNEL) $(TARGET_CPIO) \
		$(TARGET_OUT)/realdrv-mutant
target-realdrv-mutants:
	@$(MAKE) --no-print-directory check-realdrv-mutant RESULTS=$(TARGET_OUT)/realdrv-mutant-results
