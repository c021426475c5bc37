# tests/outoftree/suite.mk — suite `outoftree`: blkmig migrate and plain spatch
# (cocci/blkmig-cocci-convert) on the 13 real out-of-tree drivers of
# ../shared/corpus/outoftree, each checked site by site against a hand-reviewed table
# (tests/outoftree/sites.tsv, sites-spatch.tsv), with verify and byte-for-byte checks.

CHECK_SUITES += outoftree
.PHONY: check-outoftree

check-outoftree: $(BUILD)/blkmig $(COCCI_FILES) $(COCCI_TOOLS)
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) BLKMIG=$(BUILD)/blkmig \
		bash $(TOP)/tests/outoftree/run.sh
