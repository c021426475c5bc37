# tests/target/realdrv/realdrv.mk — real drivers of the 2.6.24 tree, legacy and converted,
# built against the shim's legacy view (included from shims/shims.mk; part of `make modules`).
#
# For each driver D of REALDRVS, its file of the tree (REALDRV_SRC_D) is fetched as released
# (fetch.sh: the realtree suite's unpacked tree, or the corpus beside the checkout) into
# build/realdrv/D/legacy/, converted by `blkmig migrate --in-place` alone into
# build/realdrv/D/converted/ (its report in build/realdrv/D/report/), and each copy is
# built per kernel with <blkcompat/legacy/view.h> force-included (shims/include/legacy/
# holds the 2.6.24 headers 6.x lacks) into build/kernels/V/modules/realdrv/{legacy,converted}/.
# The file is never edited by hand; REALDRV_CFLAGS_D are build-time knobs the driver itself
# offers.  Without the corpus (REALDRV_CORPUS=FILE points elsewhere; default: fetch.sh's
# ../shared/corpus/linux-2.6.24.tar.xz) nothing is built: the build says "not built (no
# corpus at FILE)", REALDRV_NOT_BUILT and REALDRV_NOT_BUILT_WHY tell the recipes (the
# demo table's row says "not built"), and `make check` counts the drivers' tests as failed.
#
# To add a driver: append its name to REALDRVS, set REALDRV_SRC_name and REALDRV_CFLAGS_name,
# and give the target suite a way to run it (tests/target/realdrv/README.md).

REALDRVS            := hd
# hd.c: the ST-506/IDE driver; two drives of 20 cylinders, 16 heads, 63 sectors (its HD_TYPE:
# head, sect, cyl, wpcom, lzone, ctl), what the target suite gives QEMU's PIIX IDE.
REALDRV_SRC_hd      := drivers/ide/legacy/hd.c
REALDRV_CFLAGS_hd   := "-DHD_TYPE={16,63,20,0,0,8},{16,63,20,0,0,8}"

REALDRV_SRC_DIR     := $(TOP)/tests/target/realdrv
REALDRV_OUT         := $(BUILD)/realdrv
REALDRV_MODULES     := $(MODULES_DIR)/realdrv
REALDRV_KOS         := $(foreach d,$(REALDRVS),$(REALDRV_MODULES)/legacy/$(d).ko \
			 $(REALDRV_MODULES)/converted/$(d).ko)
REALDRV_CORPUS      ?=
REALDRV_FETCH_ENV   := BUILD=$(BUILD) $(if $(REALDRV_CORPUS),CORPUS=$(REALDRV_CORPUS))
# "yes", or fetch.sh's reason: "realdrv: the 2.6.24 corpus is not there: FILE"
REALDRV_PROBE       := $(shell $(REALDRV_FETCH_ENV) $(REALDRV_SRC_DIR)/fetch.sh --probe 2>&1 && echo yes)
REALDRV_HAVE_CORPUS := $(if $(filter yes,$(lastword $(REALDRV_PROBE))),yes)

.PHONY: realdrv-modules realdrv-sources
modules: realdrv-modules
ifeq ($(REALDRV_HAVE_CORPUS),yes)
realdrv-modules: $(REALDRV_KOS)
else
export REALDRV_NOT_BUILT     := $(REALDRVS)
export REALDRV_NOT_BUILT_WHY := no corpus at $(abspath $(lastword $(REALDRV_PROBE)))
realdrv-modules:
	@for d in $(REALDRVS); do \
		echo "real driver $$d: not built ($(REALDRV_NOT_BUILT_WHY))" >&2; \
	done
endif
realdrv-sources: $(foreach d,$(REALDRVS),$(REALDRV_OUT)/$(d)/converted/$(notdir $(REALDRV_SRC_$(d))))

# realdrv_rules D: the rules of one driver
define realdrv_rules
$(REALDRV_OUT)/$(1)/legacy/$(notdir $(REALDRV_SRC_$(1))):
	@$(REALDRV_FETCH_ENV) $(REALDRV_SRC_DIR)/fetch.sh $(REALDRV_SRC_$(1)) $$@

# blkmig exits 1 when it leaves sites to a human: that is a result, not a failure.
$(REALDRV_OUT)/$(1)/converted/$(notdir $(REALDRV_SRC_$(1))): \
		$(REALDRV_OUT)/$(1)/legacy/$(notdir $(REALDRV_SRC_$(1))) $(BUILD)/blkmig \
		$(wildcard $(TOP)/cocci/*.cocci)
	@rm -rf $(REALDRV_OUT)/$(1)/converted $(REALDRV_OUT)/$(1)/report
	@mkdir -p $(REALDRV_OUT)/$(1)/converted
	@cp $$< $$@.tmp && mv $$@.tmp $$@
	@cd $(REALDRV_OUT)/$(1)/converted && { $(BUILD)/blkmig migrate --in-place --cocci-dir $(TOP)/cocci \
		--report $(REALDRV_OUT)/$(1)/report $(notdir $$@) \
		> $(REALDRV_OUT)/$(1)/migrate.txt 2>&1; rc=$$$$?; \
		[ $$$$rc -le 1 ] || { cat $(REALDRV_OUT)/$(1)/migrate.txt >&2; rm -f $$@; exit 1; }; }
	@echo "realdrv: $(1): $$$$(tail -n 2 $(REALDRV_OUT)/$(1)/migrate.txt | head -n 1)"

$(REALDRV_MODULES)/%/$(1).ko: $(REALDRV_OUT)/$(1)/%/$(notdir $(REALDRV_SRC_$(1))) $(BLKCOMPAT_KO)
	@rm -rf $(KBUILD_DIR)/realdrv-$$*-$(1) && mkdir -p $(KBUILD_DIR)/realdrv-$$*-$(1) $$(@D)
	@cp $$< $(KBUILD_DIR)/realdrv-$$*-$(1)/
	@printf '%s\n' 'obj-m := $(1).o' \
		'ccflags-y := -I$(SHIM_INCLUDE)/legacy -I$(SHIM_INCLUDE) -include blkcompat/legacy/view.h $(REALDRV_CFLAGS_$(1))' \
		> $(KBUILD_DIR)/realdrv-$$*-$(1)/Kbuild
	$$(call kbuild_module,$(KBUILD_DIR)/realdrv-$$*-$(1),lenient)
	cp $(KBUILD_DIR)/realdrv-$$*-$(1)/$(1).ko $$@
endef
$(foreach d,$(REALDRVS),$(eval $(call realdrv_rules,$(d))))
$(REALDRV_KOS): private KBUILD_ARGS = KBUILD_EXTRA_SYMBOLS=$(BLKCOMPAT_SYMVERS)

# The mutant (not in `make modules`: `make realdrv-mutants`, for target-realdrv-mutants): the
# converted file with each exact byte count `X->hard_cur_sectors << 9` of end_request replaced
# by blk_rq_cur_bytes(X), the helper a conversion that ignores the driver's cursor writes;
# hd.c counts current_nr_sectors down to 0 before it completes, so this one must fail.
REALDRV_MUTANT_KOS := $(foreach d,$(REALDRVS),$(REALDRV_MODULES)/mutant/$(d).ko)
.PHONY: realdrv-mutants
realdrv-mutants: $(REALDRV_MUTANT_KOS)
.SECONDARY: $(foreach d,$(REALDRVS),$(REALDRV_OUT)/$(d)/mutant/$(notdir $(REALDRV_SRC_$(d))))
$(REALDRV_MUTANT_KOS): private KBUILD_ARGS = KBUILD_EXTRA_SYMBOLS=$(BLKCOMPAT_SYMVERS)
$(REALDRV_OUT)/%/mutant/hd.c: $(REALDRV_OUT)/%/converted/hd.c
	@mkdir -p $(@D)
	sed -E 's/([A-Za-z_][A-Za-z_0-9]*)->hard_cur_sectors << 9/blk_rq_cur_bytes(\1)/g' $< > $@.tmp
	@! cmp -s $< $@.tmp || { echo "realdrv: the mutant changes nothing" >&2; rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@
