# shims/shims.mk — build rules for shims/ (included by the top-level Makefile).
#
# Builds build/modules/blkcompat.ko with kbuild against KDIR.  KDIR defaults to
# the installed kernel headers for KVER when the target harness (or the command
# line) sets it, otherwise for the newest version V with both /boot/vmlinuz-V and
# /usr/src/linux-headers-V (the kernel the QEMU guest boots).  Override with KDIR=,
# e.g. KDIR=/lib/modules/$(uname -r)/build for the machine's running kernel.
# Kbuild writes objects beside its sources, so each module is built from a copy
# under build/kbuild/.

KERNEL_HEADERS_PREFIX ?= /usr/src/linux-headers-
BLKCOMPAT_KVER_FOUND  := $(lastword $(foreach v,$(patsubst /boot/vmlinuz-%,%,\
			 $(wildcard /boot/vmlinuz-*)),\
			 $(if $(wildcard $(KERNEL_HEADERS_PREFIX)$(v)/Makefile),$(v))))
BLKCOMPAT_KVER         = $(or $(KVER),$(BLKCOMPAT_KVER_FOUND))
KDIR                  ?= $(KERNEL_HEADERS_PREFIX)$(BLKCOMPAT_KVER)
SHIM_KIMAGE           ?= /boot/vmlinuz-$(BLKCOMPAT_KVER)

KBUILD_DIR        := $(BUILD)/kbuild
MODULES_DIR       := $(BUILD)/modules
SHIM_DIR          := $(TOP)/shims
SHIM_INCLUDE      := $(SHIM_DIR)/include
SHIM_KBUILD       := $(KBUILD_DIR)/shims
BLKCOMPAT_KO      := $(MODULES_DIR)/blkcompat.ko
BLKCOMPAT_SYMVERS := $(SHIM_KBUILD)/Module.symvers
SHIM_FILES        := $(SHIM_DIR)/Kbuild $(wildcard $(SHIM_DIR)/*.[ch])
SHIM_SOURCES      := $(SHIM_FILES) $(wildcard $(SHIM_INCLUDE)/linux/*.h)

# kbuild_module DIR[,lenient]: build the modules in DIR, log in DIR/build.log.
# A compiler warning fails the build, except with "lenient" (the converted
# samples: our tools' output, whose warnings the shim suite reports as a failed
# test instead of stopping every other part's build).  Extra kbuild variables go
# in KBUILD_ARGS.
define kbuild_module
	@test -f $(KDIR)/Makefile || { echo "no kernel build tree at KDIR=$(KDIR):" \
		"install linux-headers-amd64 (make deps) or pass KDIR=" >&2; exit 1; }
	@set -o pipefail; $(MAKE) --no-print-directory -C $(KDIR) M=$(1) \
		$(KBUILD_ARGS) modules 2>&1 | tee $(1)/build.log
	@! grep -E 'warning:|WARNING:' $(1)/build.log $(if $(2),|| \
		echo "$(1): the build has warnings (see build.log)" >&2)
endef

$(BLKCOMPAT_KO): $(SHIM_SOURCES)
	@rm -rf $(SHIM_KBUILD) && mkdir -p $(SHIM_KBUILD) $(MODULES_DIR)
	@cp $(SHIM_FILES) $(SHIM_KBUILD)/ && cp -r $(SHIM_INCLUDE) $(SHIM_KBUILD)/
	$(call kbuild_module,$(SHIM_KBUILD))
	cp $(SHIM_KBUILD)/blkcompat.ko $@

$(BLKCOMPAT_SYMVERS): $(BLKCOMPAT_KO)

.PHONY: shim-modules kernel-doc-shims
shim-modules: $(BLKCOMPAT_KO)

# kernel-doc must be clean for every shim source.
KERNEL_DOC ?= $(firstword $(wildcard $(KDIR)/scripts/kernel-doc \
		$(KERNEL_HEADERS_PREFIX)*-common/scripts/kernel-doc))
kernel-doc-shims:
	@out=$$(perl $(KERNEL_DOC) -none $(filter %.c %.h,$(SHIM_SOURCES)) 2>&1); \
		[ -z "$$out" ] || { echo "$$out"; exit 1; }

# The kernel self-test module for the shim lives with the target tests.
include $(TOP)/tests/target/kmod/kmod.mk

# The shim's own test suite: static checks plus one QEMU TCG boot (~30 s).
CHECK_SUITES += shim
.PHONY: check-shim
check-shim: modules
	@$(TOP)/tests/target/kmod/check-shim.sh $(TOP) $(BUILD) $(KDIR) $(SHIM_KIMAGE)
