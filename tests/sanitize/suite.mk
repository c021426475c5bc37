# tests/sanitize/suite.mk — `make check-sanitize`: the analyzer and migrate suites rerun
# with the ASan+UBSan build (make SANITIZE=1, in build/asan); any sanitizer report fails it.
#
# Not yet part of `make check`: under ASan the two suites cost more than make check's
# budget allows on 2 cores, and the unit binary's run under ASan still ends without its
# closing line (tests/sanitize/README.md).  SANITIZE_SUITES=analyzer limits it.
.PHONY: check-sanitize
check-sanitize:
	@mkdir -p $(RESULTS)
	@TOP=$(TOP) RESULTS=$(RESULTS) MAKE="$(MAKE)" bash $(TOP)/tests/sanitize/run.sh
