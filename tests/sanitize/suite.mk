# tests/sanitize/suite.mk — suite `sanitize`: the analyzer and migrate suites rerun with
# the ASan+UBSan build (make SANITIZE=1, in build/asan); any sanitizer report fails it.
CHECK_SUITES += sanitize
.PHONY: check-sanitize
check-sanitize:
	@TOP=$(TOP) RESULTS=$(RESULTS) MAKE="$(MAKE)" bash $(TOP)/tests/sanitize/run.sh
