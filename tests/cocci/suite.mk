# tests/cocci/suite.mk — the cocci suite (golden tests of the semantic patches).
CHECK_SUITES += cocci
.PHONY: check-cocci
# build/blkmig: the real-tree cross-check converts the tree with the analyzer too
check-cocci: $(BUILD)/blkmig
	@RESULTS=$(RESULTS) BLKMIG=$(BUILD)/blkmig COCCI_BUILD=$(BUILD) $(TOP)/tests/cocci/run.sh
