# tests/realtree/suite.mk — suite `realtree`: blkmig migrate on the real Linux 2.6.24 tree
# (the corpus beside the checkout), checked site by site against a hand-reviewed table,
# with verify, an x86_64 kbuild compile of every converted file and idempotence.
# The unpacked and configured tree is cached in $(BUILD)/realtree (tests/realtree/prepare.sh).
# Also `make bench` -> bench-realtree: migrate/scan/cocci against spatch and grep -rl.

CHECK_SUITES += realtree
BENCHES      += realtree
.PHONY: check-realtree bench-realtree realtree-prepare

realtree-prepare:
	@nice -n 10 $(TOP)/tests/realtree/prepare.sh $(BUILD) >/dev/null

check-realtree: $(BUILD)/blkmig
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) BLKMIG=$(BUILD)/blkmig \
		bash $(TOP)/tests/realtree/run.sh

bench-realtree: $(BUILD)/blkmig
	@TOP=$(TOP) BUILD=$(BUILD) BLKMIG=$(BUILD)/blkmig \
		bash $(TOP)/tests/realtree/bench.sh

# realtree-series (issue 22): migrate --series on the tree, git am of each patch in order
# with the compile check after each step, checkpatch on the added lines (series.sh).
CHECK_SUITES += realtree-series
.PHONY: check-realtree-series
check-realtree-series: $(BUILD)/blkmig
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) BLKMIG=$(BUILD)/blkmig \
		bash $(TOP)/tests/realtree/series.sh
