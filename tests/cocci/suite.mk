# tests/cocci/suite.mk — the cocci suite (golden tests of the semantic patches).
CHECK_SUITES += cocci
.PHONY: check-cocci
check-cocci:
	@RESULTS=$(RESULTS) $(TOP)/tests/cocci/run.sh
