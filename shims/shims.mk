# shims/shims.mk — build rules for shims/ (included by the top-level Makefile).
#
# Builds blkcompat.ko with kbuild against KDIR, per kernel version V into
# build/kernels/V/modules/ (objects in build/kernels/V/kbuild/); build/modules is
# a link to the directory of the last plain `make modules`.  KDIR defaults to the
# installed kernel headers for KVER when the target harness (or the command line)
# sets it, otherwise for the newest version V with both /boot/vmlinuz-V and
# /usr/src/linux-headers-V (the kernel the QEMU guest boots).  Override with KDIR=,
# e.g. KDIR=/lib/modules/$(uname -r)/build for the machine's running kernel.
# Kbuild writes objects beside its sources, so each module is built from a copy.
# One source serves every kernel: what differs is in shims/include/blkcompat/.

KERNEL_HEADERS_PREFIX ?= /usr/src/linux-headers-
BLKCOMPAT_KVER_FOUND  := $(lastword $(foreach v,$(patsubst /boot/vmlinuz-%,%,\
			 $(wildcard /boot/vmlinuz-*)),\
			 $(if $(wildcard $(KERNEL_HEADERS_PREFIX)$(v)/Makefile),$(v))))
BLKCOMPAT_KVER         = $(or $(KVER),$(BLKCOMPAT_KVER_FOUND))
KDIR                  ?= $(KERNEL_HEADERS_PREFIX)$(BLKCOMPAT_KVER)

KERNEL_BUILD_DIR  := $(BUILD)/kernels/$(or $(BLKCOMPAT_KVER),none)
KBUILD_DIR        := $(KERNEL_BUILD_DIR)/kbuild
MODULES_DIR       := $(KERNEL_BUILD_DIR)/modules
# build/modules points to the modules of the last plain `make modules`;
# the per-kernel builds of the target suite pass MODULES_LINK= to leave it.
MODULES_LINK      := $(BUILD)/modules
SHIM_DIR          := $(TOP)/shims
SHIM_INCLUDE      := $(SHIM_DIR)/include
SHIM_KBUILD       := $(KBUILD_DIR)/shims
BLKCOMPAT_KO      := $(MODULES_DIR)/blkcompat.ko
BLKCOMPAT_SYMVERS := $(SHIM_KBUILD)/Module.symvers
SHIM_FILES        := $(SHIM_DIR)/Kbuild $(wildcard $(SHIM_DIR)/*.[ch])
SHIM_HEADERS      := $(wildcard $(SHIM_INCLUDE)/*/*.h $(SHIM_INCLUDE)/*/*/*.h)
SHIM_SOURCES      := $(SHIM_FILES) $(SHIM_HEADERS)

# kbuild_module DIR[,lenient]: build the modules in DIR, log in DIR/build.log.
# A compiler warning fails the build, except with "lenient" (the converted
# samples: our tools' output, whose warnings the shim suite reports as a failed
# test instead of stopping every other part's build).  Extra kbuild variables go
# in KBUILD_ARGS.
define kbuild_module
	@test -f $(KDIR)/Makefile || { echo "no kernel build tree at KDIR=$(KDIR):" \
		"install linux-headers-amd64 (make deps) or pass KDIR=" >&2; exit 1; }
	+@set -o pipefail; $(MAKE) --no-print-directory -C $(KDIR) M=$(1) \
		$(KBUILD_ARGS) modules 2>&1 | tee $(1)/build.log
	@! grep -v '^make\[[0-9]*\]: ' $(1)/build.log | grep -E 'warning:|WARNING:' $(if $(2),|| \
		echo "$(1): the build has warnings (see build.log)" >&2)
endef

$(BLKCOMPAT_KO): $(SHIM_SOURCES)
	@rm -rf $(SHIM_KBUILD) && mkdir -p $(SHIM_KBUILD) $(MODULES_DIR)
	@cp $(SHIM_FILES) $(SHIM_KBUILD)/ && cp -r $(SHIM_INCLUDE) $(SHIM_KBUILD)/
	$(call kbuild_module,$(SHIM_KBUILD))
	cp $(SHIM_KBUILD)/blkcompat.ko $@

$(BLKCOMPAT_SYMVERS): $(BLKCOMPAT_KO)

.PHONY: shim-modules kernel-doc-shims modules-kernels
shim-modules: $(BLKCOMPAT_KO)

# Every target kernel (KVERS=, default: each installed one with image, headers and
# modules; tests/target/kernel-version.sh), each into build/kernels/<version>/.
KVERS_ALL = $(or $(KVERS),$(shell $(TOP)/tests/target/kernel-version.sh --all))
modules-kernels:
	@for v in $(KVERS_ALL); do \
		$(MAKE) --no-print-directory modules KVER=$$v \
			KDIR=$(KERNEL_HEADERS_PREFIX)$$v MODULES_LINK= || exit 1; \
	done

# kernel-doc must be clean for every shim source.
KERNEL_DOC ?= $(firstword $(wildcard $(KDIR)/scripts/kernel-doc \
		$(KERNEL_HEADERS_PREFIX)*/scripts/kernel-doc))
kernel-doc-shims:
	@out=$$(perl $(KERNEL_DOC) -none $(filter %.c %.h,$(SHIM_SOURCES)) 2>&1); \
		[ -z "$$out" ] || { echo "$$out"; exit 1; }

# The kernel self-test module for the shim lives with the target tests.
include $(TOP)/tests/target/kmod/kmod.mk
# Real drivers of the 2.6.24 tree on the legacy view, also with the target tests.
include $(TOP)/tests/target/realdrv/realdrv.mk

# The shim's own test suite: static checks on every target kernel, `make install`
# without a kernel, `dkms build` of both packages for every kernel, one QEMU TCG boot.
CHECK_SUITES += shim
.PHONY: check-shim
check-shim: modules-kernels
	@KVERS="$(KVERS_ALL)" VERSION=$(VERSION) \
		$(TOP)/tests/target/kmod/check-shim.sh $(TOP) $(BUILD)

# ---- install: the shim's sources where DKMS looks for them (no kernel needed) ----
# /usr/src/blkcompat-VERSION for PREFIX /usr or /usr/local (dkms's source tree),
# PREFIX/src/blkcompat-VERSION otherwise; USRSRC= overrides.  `make install` builds
# no module: that is `make modules`, or DKMS on the target machine.
USRSRC           ?= $(if $(filter /usr /usr/local,$(PREFIX)),/usr/src,$(PREFIX)/src)
SHIM_DIST_FILES  := $(SHIM_DIR)/dkms.conf $(SHIM_FILES)
SHIM_DIST_HEADERS = $(patsubst $(SHIM_DIR)/%,%,$(SHIM_HEADERS))
INSTALL_STEPS    += install-shim-src
.PHONY: install-shim-src dkms-install dkms-remove
install-shim-src:
	install -d $(DESTDIR)$(USRSRC)/blkcompat-$(VERSION)
	install -m 644 $(SHIM_DIST_FILES) $(DESTDIR)$(USRSRC)/blkcompat-$(VERSION)/
	cd $(SHIM_DIR) && for h in $(SHIM_DIST_HEADERS); do \
		install -D -m 644 $$h $(DESTDIR)$(USRSRC)/blkcompat-$(VERSION)/$$h || exit 1; \
	done

# ---- DKMS: both packages (blkcompat, blkcompat-samples) for every kernel that has
# headers (KVERS=, as for the modules); as root.  DKMS_ARGS passes options to every
# dkms call (e.g. --dkmstree DIR --sourcetree DIR for a private tree). ----
DKMS          ?= dkms
DKMS_SRC      ?= /usr/src
DKMS_ARGS     ?=
DKMS_PACKAGES := blkcompat blkcompat-samples
dkms-install: dkms-samples-src
	@command -v $(DKMS) > /dev/null || { echo "no dkms: make deps (Debian package dkms)" >&2; exit 2; }
	$(MAKE) --no-print-directory install-shim-src DESTDIR= USRSRC=$(DKMS_SRC)
	$(MAKE) --no-print-directory install-samples-src DESTDIR= USRSRC=$(DKMS_SRC)
	@for p in $(DKMS_PACKAGES); do \
		$(DKMS) status $(DKMS_ARGS) -m $$p -v $(VERSION) | grep -q . || \
			$(DKMS) add $(DKMS_ARGS) -m $$p -v $(VERSION) || exit 1; \
		for v in $(KVERS_ALL); do \
			$(DKMS) install $(DKMS_ARGS) -m $$p -v $(VERSION) -k $$v || exit 1; \
		done; \
	done

dkms-remove:
	@command -v $(DKMS) > /dev/null || { echo "no dkms: make deps (Debian package dkms)" >&2; exit 2; }
	@for p in blkcompat-samples blkcompat; do \
		if $(DKMS) status $(DKMS_ARGS) -m $$p -v $(VERSION) | grep -q .; then \
			$(DKMS) remove $(DKMS_ARGS) -m $$p -v $(VERSION) --all || exit 1; \
		fi; \
		rm -rf $(DKMS_SRC)/$$p-$(VERSION); \
	done
