# samples/samples.mk — build rules for samples/ (included by the top-level Makefile).
#
# `make modules` builds, against KDIR (see shims/shims.mk):
#   build/modules/blkcompat.ko                 the shim
#   build/modules/legacy/lrd_<name>.ko         the samples as written
#   build/modules/converted/lrd_<name>.ko      the samples after `make cocci-convert`
#   build/modules/test/blkcompat_selftest.ko   the shim's kernel self-test
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
