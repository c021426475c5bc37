# tests/harden/suite.mk — suite `harden`: interruption (SIGINT/SIGTERM/SIGKILL at many
# moments of migrate --in-place), faults (read-only bind mount, chattr +i, a full
# tmpfs holding the tree, a full TMPDIR, a file changed during the run or inside the
# write window, a dying spatch, two runs at once, fix --in-place
# on a read-only file) and hostile inputs (FIFO, symlink out of the tree, a NUL byte
# across scan/fix/migrate/blkmig-leftovers/cocci-convert, CRLF files, odd bytes in file
# names and git apply, 10,000 nested parentheses against --timeout), with real
# mechanisms: run as root.  HARDEN_QUICK=1 skips the cocci-convert case (~40 s).
CHECK_SUITES += harden
.PHONY: check-harden
check-harden: $(BUILD)/blkmig $(BUILD)/migrate/gentree
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) GENTREE=$(BUILD)/migrate/gentree \
		bash $(TOP)/tests/harden/run.sh

# `make bench` -> bench-harden: cost of one file against its sites (8k/16k/32k) and its
# size (20 MB, 3 sites), scan and migrate --check; numbers only (tests/harden/bench.sh).
BENCHES += harden
.PHONY: bench-harden
bench-harden: $(BUILD)/blkmig
	@TOP=$(TOP) BUILD=$(BUILD) bash $(TOP)/tests/harden/bench.sh
