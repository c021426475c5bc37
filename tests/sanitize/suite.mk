# tests/sanitize/suite.mk — suite `sanitize` (part of `make check`): the analyzer and
# migrate suites rerun with the ASan+UBSan build (make SANITIZE=1, in $(BUILD)/asan); any
# sanitizer report fails it.  The rerun skips what re-measures the same thing under a
# sanitizer (SANITIZE_RUN=1: lint, Chromium rendering, make install, the spatch-vs-fix
# cross-check); of the cocci suite only the real tree's cross-check reruns, on the tree's
# conversion by spatch that the plain run made (tests/sanitize/README.md).
# SANITIZE_SUITES=analyzer limits it.
CHECK_SUITES += sanitize
.PHONY: check-sanitize
check-sanitize:
	@mkdir -p $(RESULTS)
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) MAKE="$(MAKE)" bash $(TOP)/tests/sanitize/run.sh
