# tests/sanitize/suite.mk — suite `sanitize` (part of `make check`): the analyzer and
# migrate suites rerun with the ASan+UBSan build (make SANITIZE=1, in $(BUILD)/asan); any
# sanitizer report fails it.  The rerun skips what re-measures the same thing under a
# sanitizer (SANITIZE_RUN=1: lint, Chromium rendering, make install, the spatch-vs-fix
# cross-check); the cocci suite runs no blkmig code and is not rerun
# (tests/sanitize/README.md).  SANITIZE_SUITES=analyzer limits it.
CHECK_SUITES += sanitize
.PHONY: check-sanitize
check-sanitize:
	@mkdir -p $(RESULTS)
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) MAKE="$(MAKE)" bash $(TOP)/tests/sanitize/run.sh
