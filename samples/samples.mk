# samples/samples.mk — build rules for samples/ (included by the top-level Makefile).
#
# `make modules` builds, against KDIR (see shims/shims.mk), into
# build/kernels/<version>/modules/ (build/modules links to it):
#   blkcompat.ko                 the shim
#   legacy/lrd_<name>.ko         the samples as written
#   converted/lrd_<name>.ko      the samples after `make cocci-convert`
#   test/blkcompat_selftest.ko   the shim's kernel self-test
# The same sources build for every supported kernel (6.1, 6.12).
# Converted sources are produced in build/samples/converted/ by our tools only,
# never edited by hand.  Until cocci/ provides the cocci-convert target, only the
# legacy samples are built.

SAMPLES             := lrd_simple lrd_defer lrd_chunk lrd_cb
SAMPLES_DIR         := $(TOP)/samples
SAMPLE_SOURCES      := $(SAMPLES_DIR)/Kbuild $(wildcard $(SAMPLES_DIR)/*.[ch])
SAMPLES_CONVERTED   := $(BUILD)/samples/converted
SAMPLES_KBUILD_ARGS := BLKCOMPAT_INCLUDE=$(SHIM_INCLUDE) \
		       KBUILD_EXTRA_SYMBOLS=$(BLKCOMPAT_SYMVERS)
LEGACY_KOS          := $(SAMPLES:%=$(MODULES_DIR)/legacy/%.ko)
CONVERTED_KOS       := $(SAMPLES:%=$(MODULES_DIR)/converted/%.ko)
LEGACY_STAMP        := $(KBUILD_DIR)/samples-legacy/.built
CONVERTED_STAMP     := $(KBUILD_DIR)/samples-converted/.built
COCCI_CONVERT_READY := $(shell grep -qs '^cocci-convert:' $(TOP)/cocci/cocci.mk && echo yes)

.PHONY: modules legacy-modules converted-modules
all: modules
modules: shim-modules legacy-modules selftest-module \
	$(if $(COCCI_CONVERT_READY),converted-modules)
	@$(if $(MODULES_LINK),[ -L $(MODULES_LINK) ] || rm -rf $(MODULES_LINK); \
		ln -sfn $(patsubst $(BUILD)/%,%,$(MODULES_DIR)) $(MODULES_LINK))
legacy-modules: $(LEGACY_KOS)
converted-modules: $(CONVERTED_KOS)

$(LEGACY_KOS): $(LEGACY_STAMP)
$(CONVERTED_KOS): $(CONVERTED_STAMP)

# build_samples KBUILD-DIR SOURCE-DIR OUT-DIR [lenient]
define build_samples
	@rm -rf $(1) && mkdir -p $(1) $(3)
	@cp $(2)/Kbuild $(2)/*.[ch] $(1)/
	$(call kbuild_module,$(1),$(4))
	cp $(SAMPLES:%=$(1)/%.ko) $(3)/
	@touch $(1)/.built
endef

$(LEGACY_STAMP): private KBUILD_ARGS = $(SAMPLES_KBUILD_ARGS)
$(LEGACY_STAMP): $(SAMPLE_SOURCES) $(BLKCOMPAT_KO)
	$(call build_samples,$(dir $@),$(SAMPLES_DIR),$(MODULES_DIR)/legacy)

$(SAMPLES_CONVERTED)/.converted: $(SAMPLE_SOURCES) $(wildcard $(TOP)/cocci/*.cocci)
	@rm -rf $(SAMPLES_CONVERTED) && mkdir -p $(SAMPLES_CONVERTED)
	@cp $(SAMPLE_SOURCES) $(SAMPLES_CONVERTED)/
	$(MAKE) --no-print-directory cocci-convert TREE=$(SAMPLES_CONVERTED)
	@touch $@

$(CONVERTED_STAMP): private KBUILD_ARGS = $(SAMPLES_KBUILD_ARGS)
$(CONVERTED_STAMP): $(SAMPLES_CONVERTED)/.converted $(BLKCOMPAT_KO)
	$(call build_samples,$(dir $@),$(SAMPLES_CONVERTED),$(MODULES_DIR)/converted,lenient)

# ---- the converted samples as the DKMS package blkcompat-samples (make dkms-install)
.PHONY: dkms-samples-src install-samples-src
SAMPLES_DIST_FILES = $(SAMPLES_DIR)/dkms.conf $(SAMPLES_DIR)/dkms-build.sh \
	$(SAMPLES_DIR)/Kbuild $(SAMPLES_CONVERTED)/lrd_disk.h $(SAMPLES:%=$(SAMPLES_CONVERTED)/%.c)
dkms-samples-src: $(SAMPLES_CONVERTED)/.converted
install-samples-src: dkms-samples-src
	install -d $(DESTDIR)$(USRSRC)/blkcompat-samples-$(VERSION)
	install -m 644 $(SAMPLES_DIST_FILES) $(DESTDIR)$(USRSRC)/blkcompat-samples-$(VERSION)/
