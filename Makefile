# blkmig — top-level build.
#
# Each part owns a fragment beside its sources (cocci/cocci.mk, analyzer/analyzer.mk,
# shims/shims.mk, samples/samples.mk, tests/*/*.mk).  This file only holds what they
# share: the dependency installer, the build directory, and the test-suite driver.
#
# Test suites: every fragment adds its suite name to CHECK_SUITES and defines a target
# check-NAME that writes PASS/FAIL lines to $(RESULTS)/NAME.log (tests/lib/testlib.sh).
# `make check` runs every suite, even after one fails, and tests/lib/summarize prints
# the closing `N passed, N failed` line.

SHELL        := /bin/bash
TOP          := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
# SANITIZE=1 (analyzer/analyzer.mk: ASan + UBSan) builds into its own directory.
BUILD        := $(TOP)/build$(if $(filter 1,$(SANITIZE)),/asan)
RESULTS      := $(BUILD)/test-results
PREFIX       ?= /usr/local
DESTDIR      ?=
VERSION      := 0.1.0

.DEFAULT_GOAL := all
.PHONY: all deps check demo bench install clean distclean

# ---- Debian packages the project needs ------------------------------------------
# deps installs only what is missing, says what it installs, and is a no-op otherwise.
DEBIAN_PACKAGES := make gcc libc6-dev pkg-config python3 perl coccinelle clang libclang-dev \
	libjansson-dev libcmocka-dev linux-headers-amd64 linux-image-amd64 \
	qemu-system-x86 busybox-static fio cpio kmod libelf-dev bc chromium \
	clang-format cppcheck time bsdutils libssl-dev \
	linux-image-6.12-amd64 linux-headers-6.12-amd64 dkms

deps:
	@$(TOP)/tests/lib/install-deps $(DEBIAN_PACKAGES)

# Fragments append to these; the rules that use them come after the includes because
# make expands prerequisite lists when it reads a rule.
CHECK_SUITES  :=
BENCHES       :=
DEMO_STEPS    :=
INSTALL_STEPS :=

all:

include $(TOP)/cocci/cocci.mk
include $(TOP)/analyzer/analyzer.mk
include $(TOP)/shims/shims.mk
include $(TOP)/samples/samples.mk
include $(TOP)/tests/tests.mk

check: deps all
	@rm -rf $(RESULTS); mkdir -p $(RESULTS)
	@for s in $(CHECK_SUITES); do \
		echo "=== suite $$s"; \
		log=$(RESULTS)/$$s.log; \
		$(MAKE) --no-print-directory check-$$s RESULTS=$(RESULTS) || \
			grep -q '^FAIL ' $$log 2>/dev/null || \
			echo "FAIL suite-$$s (runner exited non-zero without naming a failed test)" >> $$log; \
		grep -qE '^(PASS|FAIL) ' $$log 2>/dev/null || \
			echo "FAIL suite-$$s (ran no test)" >> $$log; \
	done; \
	$(TOP)/tests/lib/summarize $(RESULTS)

demo: deps all $(DEMO_STEPS)

# Installs what needs no kernel (tools, cocci files, man page, shim sources for DKMS);
# the modules are `make modules`.
install: $(INSTALL_STEPS)

bench: deps all
	@rc=0; for b in $(BENCHES); do $(MAKE) --no-print-directory bench-$$b || rc=1; done; exit $$rc

clean:
	rm -rf $(BUILD)
