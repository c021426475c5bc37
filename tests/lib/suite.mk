# The harness checks itself: a failing test must make summarize fail.
CHECK_SUITES += harness
.PHONY: check-harness
check-harness:
	@RESULTS=$(RESULTS) $(TOP)/tests/lib/selftest.sh
