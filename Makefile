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
#
# deps before reading: the fragments look at what the machine has installed.  Read when
# make reads them (:= and target names): the kernel version of shims.mk
# (BLKCOMPAT_KVER_FOUND, from /boot and /usr/src), hence KERNEL_BUILD_DIR, KBUILD_DIR,
# MODULES_DIR and every module's path (samples.mk, kmod.mk, realdrv.mk); realdrv.mk's
# REALDRV_HAVE_CORPUS (an ifeq).  Looked up at each use instead ($(shell), $(wildcard),
# whose directories make caches): tests/target/suite.mk KVER and KERNEL, shims.mk
# KVERS_ALL, KDIR and KERNEL_DOC, analyzer.mk LLVM_DIR.  With deps in the same make, on a
# fresh machine the first kind was read before the kernels were installed and the second
# after: the modules went to build/kernels/none/ and the demo booted 6.12 without them.
# So `make check`, `make demo` and `make bench` run `deps` in one make and the rest in a
# new make (NO_DEPS=1), which reads the Makefile again with the packages there; variables
# given on the command line pass through MAKEFLAGS.  NO_DEPS=1 on the command line skips
# deps.  Every other target (all, modules, check-NAME, target-check, ...) installs nothing
# and reads the machine as it is.  Suite deps-order (tests/fresh/order.sh) checks this.
# `make check-fresh` proves the first command on a fresh Debian 12 root (tests/fresh/).

SHELL        := /bin/bash
TOP          := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
# SANITIZE=1 (analyzer/analyzer.mk: ASan + UBSan) builds into its own directory.
BUILD        := $(TOP)/build$(if $(filter 1,$(SANITIZE)),/asan)
RESULTS      := $(BUILD)/test-results
PREFIX       ?= /usr/local
DESTDIR      ?=
VERSION      := 0.1.0

.DEFAULT_GOAL := all
.PHONY: all deps check demo bench install uninstall clean distclean

# ---- Debian packages the project needs ------------------------------------------
# deps installs only what is missing, says what it installs, and is a no-op otherwise.
# A minimal Debian lacks some tools the tests call: git (migrate, harden), xz-utils (the
# 2.6.24 corpus), procps (harden's pgrep), libpython3-dev (spatch's Python scripting loads
# libpython3.X.so, which only the -dev package links); make check-fresh starts from such a root.
DEBIAN_PACKAGES := make gcc libc6-dev pkg-config python3 perl coccinelle clang libclang-dev \
	libjansson-dev libcmocka-dev linux-headers-amd64 linux-image-amd64 \
	qemu-system-x86 busybox-static fio cpio kmod libelf-dev bc chromium \
	clang-format cppcheck time bsdutils libssl-dev \
	linux-image-6.12-amd64 linux-headers-6.12-amd64 dkms git xz-utils procps libpython3-dev linux-source-6.1

# deps: the packages, then (in a new make, which sees them) what fragments add to
# DEPS_STEPS (e.g. tools fetched with a package's own client, like npm).
deps:
	@$(TOP)/tests/lib/install-deps $(DEBIAN_PACKAGES)
	@$(if $(strip $(DEPS_STEPS)),$(MAKE) -f $(firstword $(MAKEFILE_LIST)) --no-print-directory NO_DEPS=1 $(DEPS_STEPS))

# Fragments append to these; the rules that use them come after the includes because
# make expands prerequisite lists when it reads a rule.
CHECK_SUITES  :=
BENCHES       :=
DEPS_STEPS    :=
DEMO_STEPS    :=
INSTALL_STEPS :=

all:

include $(TOP)/cocci/cocci.mk
include $(TOP)/analyzer/analyzer.mk
include $(TOP)/shims/shims.mk
include $(TOP)/samples/samples.mk
include $(TOP)/tests/tests.mk

ifneq ($(NO_DEPS),1)
# The first make: deps, then the same goal in a new make that reads the Makefile again.
check demo bench:
	@$(MAKE) -f $(firstword $(MAKEFILE_LIST)) --no-print-directory deps
	@$(MAKE) -f $(firstword $(MAKEFILE_LIST)) --no-print-directory NO_DEPS=1 $@
else
check: all
	@rm -rf $(RESULTS); mkdir -p $(RESULTS)
	@for s in $(CHECK_SUITES); do \
		echo "=== suite $$s"; \
		log=$(RESULTS)/$$s.log; \
		t0=$$(date +%s); \
		$(MAKE) --no-print-directory check-$$s RESULTS=$(RESULTS) || \
			grep -q '^FAIL ' $$log 2>/dev/null || \
			echo "FAIL suite-$$s (runner exited non-zero without naming a failed test)" >> $$log; \
		echo "$$s $$(( $$(date +%s) - t0 ))" >> $(RESULTS)/durations; \
		grep -qE '^(PASS|FAIL) ' $$log 2>/dev/null || \
			echo "FAIL suite-$$s (ran no test)" >> $$log; \
	done; \
	$(TOP)/tests/lib/summarize $(RESULTS)

# Without the 2.6.24 corpus beside the checkout (../shared/corpus, REALDRV_HAVE_CORPUS;
# REALDRV_CORPUS= points elsewhere)
# the real drivers (REALDRVS) are not built: the demo says so and boots only the samples
# (TARGET_REALDRV= unless given); `make check` still counts their tests as failed.
demo: all $(DEMO_STEPS)
ifneq ($(REALDRV_HAVE_CORPUS),yes)
	@echo "demo: the real drivers of the 2.6.24 tree ($(REALDRVS)) were NOT built nor booted:" \
		"$(REALDRV_NOT_BUILT_WHY); the table above says so in their row"
demo: TARGET_REALDRV :=
endif

bench: all
	@rc=0; for b in $(BENCHES); do $(MAKE) --no-print-directory bench-$$b || rc=1; done; exit $$rc
endif

# Installs what needs no kernel (tools, cocci files, man page, shim sources for DKMS);
# the modules are `make modules`.  blkmig-cocci-convert goes on the PATH as a relative
# link to the installed script, which finds the semantic patches beside itself.
INSTALL_STEPS += install-bin-links
.PHONY: install-bin-links
install-bin-links:
	install -d $(DESTDIR)$(PREFIX)/bin
	ln -sfn ../share/blkmig/cocci/blkmig-cocci-convert $(DESTDIR)$(PREFIX)/bin/blkmig-cocci-convert

install: $(INSTALL_STEPS)

# uninstall (same PREFIX, DESTDIR, USRSRC as install): every file the install steps put
# there, then those of our directories (share/blkmig, share/doc/blkmig,
# USRSRC/blkcompat-VERSION) left empty; nothing else, so files that are not ours stay.
# tests/install/ checks that install then uninstall leaves nothing.  After `make
# dkms-install`, run `make dkms-remove` first (DKMS still points at the shim's sources).
UNINSTALL_FILES = $(PREFIX)/bin/blkmig $(PREFIX)/bin/blkmig-cocci-convert \
	$(PREFIX)/share/man/man1/blkmig.1 $(PREFIX)/share/doc/blkmig/REPORT.md \
	$(addprefix $(PREFIX)/share/blkmig/cocci/,$(notdir $(COCCI_FILES) $(COCCI_TOOLS))) \
	$(addprefix $(USRSRC)/blkcompat-$(VERSION)/,$(notdir $(SHIM_DIST_FILES)) $(SHIM_DIST_HEADERS))
UNINSTALL_DIRS  = $(PREFIX)/share/blkmig $(PREFIX)/share/doc/blkmig $(USRSRC)/blkcompat-$(VERSION)
uninstall:
	rm -f $(addprefix $(DESTDIR),$(UNINSTALL_FILES))
	@for d in $(addprefix $(DESTDIR),$(UNINSTALL_DIRS)); do \
		[ ! -d "$$d" ] || find "$$d" -depth -type d -empty -delete || exit 1; \
	done

clean:
	rm -rf $(BUILD)
