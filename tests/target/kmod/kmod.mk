# tests/target/kmod/kmod.mk — builds the kernel self-test module of the shim
# (included from shims/shims.mk): build/modules/test/blkcompat_selftest.ko.

KMOD_DIR         := $(TOP)/tests/target/kmod
KMOD_SOURCES     := $(KMOD_DIR)/Kbuild $(wildcard $(KMOD_DIR)/*.[ch])
KMOD_KBUILD      := $(KBUILD_DIR)/selftest
SELFTEST_KO      := $(MODULES_DIR)/test/blkcompat_selftest.ko

.PHONY: selftest-module
selftest-module: $(SELFTEST_KO)

$(SELFTEST_KO): private KBUILD_ARGS = BLKCOMPAT_INCLUDE=$(SHIM_INCLUDE) \
			      KBUILD_EXTRA_SYMBOLS=$(BLKCOMPAT_SYMVERS)
$(SELFTEST_KO): $(KMOD_SOURCES) $(BLKCOMPAT_KO)
	@rm -rf $(KMOD_KBUILD) && mkdir -p $(KMOD_KBUILD) $(dir $@)
	@cp $(KMOD_SOURCES) $(KMOD_KBUILD)/
	$(call kbuild_module,$(KMOD_KBUILD))
	cp $(KMOD_KBUILD)/blkcompat_selftest.ko $@
