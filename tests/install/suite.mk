# tests/install/suite.mk — suite `install`: what `make install` puts where, and that
# `make uninstall` takes exactly that away again (tests/install/run.sh); the man page's
# FILES section against an installed tree; blkmig-cocci-convert run from the PATH;
# the kernels shims/dkms.conf builds for; the demo's real-driver row without the corpus.
# Seconds, once build/blkmig is built (it installs into mktemp directories only).

CHECK_SUITES += install
.PHONY: check-install
check-install: $(BUILD)/blkmig
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) VERSION=$(VERSION) \
		KVERS="$(KVERS_ALL)" bash $(TOP)/tests/install/run.sh
