# analyzer/migrate.mk — build rules for the migrate side of blkmig: the edit applier,
# unified-diff and atomic writers, fix/migrate, the HTML report, and their test drivers.
# Included from tests/migrate/suite.mk (the top-level Makefile auto-includes suites).
#
# analyzer/analyzer.mk builds every analyzer source into build/blkmig, so the sources here
# (edit_apply.c, udiff.c, atomic_write.c, html_report.c, cmd_fix.c, cmd_migrate.c ...)
# need no rule of their own.

MIGRATE_CORE_SRCS := $(TOP)/analyzer/convert/edit_apply.c $(TOP)/analyzer/convert/udiff.c \
	$(TOP)/analyzer/convert/atomic_write.c $(TOP)/analyzer/report/html_report.c

MIGRATE_TBUILD := $(BUILD)/migrate
MIGRATE_CFLAGS := -std=c11 -O2 -g -Wall -Wextra $(SANITIZE_CFLAGS) $(addprefix -I,$(ANALYZER_INCDIRS))

# atomic_write.c registers its temporary file with cleanup.c (signals)
MIGRATE_CLEANUP_SRCS := $(TOP)/analyzer/cleanup.c $(TOP)/analyzer/util.c $(TOP)/analyzer/vec.c

$(MIGRATE_TBUILD)/unit_edits: $(TOP)/tests/migrate/unit_edits.c $(TOP)/tests/migrate/unit_check.h $(TOP)/analyzer/convert/edit_apply.c \
		$(TOP)/analyzer/convert/atomic_write.c $(MIGRATE_CLEANUP_SRCS) $(ANALYZER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MIGRATE_CFLAGS) -o $@ $(filter %.c,$^)

$(MIGRATE_TBUILD)/udiff_driver: $(TOP)/tests/migrate/udiff_driver.c $(TOP)/analyzer/convert/udiff.c \
		$(TOP)/analyzer/convert/atomic_write.c $(MIGRATE_CLEANUP_SRCS) $(ANALYZER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MIGRATE_CFLAGS) -o $@ $(filter %.c,$^)

MIGRATE_TEST_BINS := $(MIGRATE_TBUILD)/unit_edits $(MIGRATE_TBUILD)/udiff_driver

# ---- tree generator and benchmark (make bench -> bench-tree) -------------------------
$(MIGRATE_TBUILD)/gentree: $(TOP)/tests/migrate/gen/gentree.c $(wildcard $(TOP)/tests/migrate/gen/*.h)
	@mkdir -p $(@D)
	$(CC) $(MIGRATE_CFLAGS) -o $@ $<

BENCHES += tree
.PHONY: bench-tree
bench-tree: $(MIGRATE_TBUILD)/gentree
	@TOP=$(TOP) BUILD=$(BUILD) GENTREE=$(MIGRATE_TBUILD)/gentree bash $(TOP)/tests/migrate/bench.sh

$(MIGRATE_TBUILD)/html_driver: $(TOP)/tests/migrate/html_driver.c $(TOP)/analyzer/report/html_report.c \
		$(TOP)/analyzer/report/report_paths.c $(TOP)/analyzer/report/names.c \
		$(TOP)/analyzer/report/json_text.c $(TOP)/analyzer/convert/udiff.c \
		$(TOP)/analyzer/convert/indent_fix.c \
		$(TOP)/analyzer/util.c $(TOP)/analyzer/vec.c \
		$(TOP)/analyzer/report/html_report.h $(TOP)/analyzer/report/report_paths.h \
		$(TOP)/analyzer/report/json_text.h $(TOP)/analyzer/convert/udiff.h
	@mkdir -p $(@D)
	$(CC) $(MIGRATE_CFLAGS) -D_GNU_SOURCE -o $@ $(filter %.c,$^) -ljansson

MIGRATE_TEST_BINS += $(MIGRATE_TBUILD)/html_driver

# ---- install: blkmig and its man page (the cocci part installs the semantic patches
# under $(PREFIX)/share/blkmig/cocci, where blkmig looks for them; shims/ its sources
# for DKMS) ----
INSTALL_STEPS += install-blkmig
.PHONY: install-blkmig
install-blkmig: $(BUILD)/blkmig
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/blkmig $(DESTDIR)$(PREFIX)/bin/blkmig
	install -m 644 $(TOP)/analyzer/blkmig.1 $(DESTDIR)$(PREFIX)/share/man/man1/blkmig.1
	install -D -m 644 $(TOP)/analyzer/REPORT.md $(DESTDIR)$(PREFIX)/share/doc/blkmig/REPORT.md

$(MIGRATE_TBUILD)/unit_plan: $(TOP)/tests/migrate/unit_plan.c $(TOP)/tests/migrate/unit_check.h $(TOP)/analyzer/convert/rewrite_plan.c \
		$(TOP)/analyzer/convert/line_endings.c $(TOP)/analyzer/convert/rewrite_output.c $(TOP)/analyzer/convert/edit_apply.c \
		$(TOP)/analyzer/convert/atomic_write.c $(TOP)/analyzer/convert/udiff.c $(TOP)/analyzer/util.c \
		$(TOP)/analyzer/convert/output_guard.c $(TOP)/analyzer/convert/indent_fix.c \
		$(TOP)/analyzer/vec.c $(TOP)/analyzer/cleanup.c \
		$(TOP)/analyzer/cli/run.c $(ANALYZER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MIGRATE_CFLAGS) -D_GNU_SOURCE -o $@ $(filter %.c,$^)

MIGRATE_TEST_BINS += $(MIGRATE_TBUILD)/unit_plan

$(MIGRATE_TBUILD)/unit_combine: $(TOP)/tests/migrate/unit_combine.c $(TOP)/tests/migrate/unit_check.h $(TOP)/analyzer/cli/migrate_combine.c \
		$(TOP)/analyzer/convert/udiff.c $(TOP)/analyzer/util.c $(TOP)/analyzer/vec.c $(ANALYZER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(MIGRATE_CFLAGS) -D_GNU_SOURCE -o $@ $(filter %.c,$^)

MIGRATE_TEST_BINS += $(MIGRATE_TBUILD)/unit_combine
