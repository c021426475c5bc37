# tests/harden/suite.mk — suite `harden`: interruption (SIGINT/SIGTERM/SIGKILL at many
# moments of migrate --in-place), faults (read-only bind mount, chattr +i, a full
# tmpfs, a file changed during the run, a dying spatch, two runs at once) and hostile
# inputs (FIFO, symlink out of the tree), with real mechanisms: run as root.
CHECK_SUITES += harden
.PHONY: check-harden
check-harden: $(BUILD)/blkmig $(BUILD)/migrate/gentree
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) GENTREE=$(BUILD)/migrate/gentree \
		bash $(TOP)/tests/harden/run.sh
