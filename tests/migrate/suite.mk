# tests/migrate/suite.mk — suite `migrate`: fix/migrate, writers, HTML report, install;
# also the tree benchmark (bench-tree). Pulls in analyzer/migrate.mk for the build rules.

include $(TOP)/analyzer/migrate.mk

CHECK_SUITES += migrate
.PHONY: check-migrate
check-migrate: $(MIGRATE_TEST_BINS) $(MIGRATE_TBUILD)/gentree
	@TOP=$(TOP) BUILD=$(BUILD) MIGRATE_TBUILD=$(MIGRATE_TBUILD) RESULTS=$(RESULTS) \
		bash $(TOP)/tests/migrate/run.sh

# migrate-series (issue 22): migrate --series on our own test drivers (tests/migrate/series/).
CHECK_SUITES += migrate-series
.PHONY: check-migrate-series
check-migrate-series: $(BUILD)/blkmig
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) BLKMIG=$(BUILD)/blkmig \
		bash $(TOP)/tests/migrate/series/run.sh
