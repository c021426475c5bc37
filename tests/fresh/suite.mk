# tests/fresh/suite.mk — `make check-fresh`: the README's first commands on a truly fresh
# Debian 12 root (tests/fresh/run.sh): a minimal bookworm root from deb.debian.org
# (mmdebstrap), a clean clone of HEAD in it, chrooted `apt-get install make`, `make demo`
# (packages, build, QEMU TCG boot) and `make check-analyzer`.  It fails if a value the
# Makefile computes when it is read comes before `make deps` again (the modules went to
# build/kernels/none/).  As root; about 30 min the first time, less once the bootstrap
# tarball and apt's archives are cached in build/fresh/cache/ (README.md, "A fresh machine").
# Not in CHECK_SUITES (it needs root, the network and time): .ci/run runs it after `make check`.
.PHONY: check-fresh
check-fresh:
	@$(TOP)/tests/lib/install-deps mmdebstrap git
	@mkdir -p $(RESULTS)
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) $(TOP)/tests/fresh/run.sh

# The cheap twin (seconds, part of make check): check, demo and bench on a fake machine
# whose deps writes a file the makefiles read (tests/fresh/order.sh, order.mk).
CHECK_SUITES += deps-order
.PHONY: check-deps-order
check-deps-order:
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) $(TOP)/tests/fresh/order.sh
