# tests/analyzer/suite.mk — the analyzer's test suite (`make check-analyzer`).
#
# Unit tests (unit.c, a plain harness) link the analyzer objects; edits_tool applies the
# analyzer's edits for the golden rewrite tests; run.sh drives everything else.

CHECK_SUITES += analyzer
.PHONY: check-analyzer

ANALYZER_LIB_OBJS = $(filter-out $(BUILD)/analyzer/cli/main.o,$(ANALYZER_OBJS))

$(BUILD)/analyzer-tests/edits_tool: $(TOP)/tests/analyzer/edits_tool.c $(ANALYZER_LIB_OBJS) $(ANALYZER_HDRS)
	@mkdir -p $(dir $@)
	$(ANALYZER_CC) $(ANALYZER_CFLAGS) $(ANALYZER_CPPFLAGS) -o $@ $< $(ANALYZER_LIB_OBJS) $(ANALYZER_LDLIBS)

$(BUILD)/analyzer-tests/unit: $(TOP)/tests/analyzer/unit.c $(ANALYZER_LIB_OBJS) $(ANALYZER_HDRS)
	@mkdir -p $(dir $@)
	$(ANALYZER_CC) $(ANALYZER_CFLAGS) $(ANALYZER_CPPFLAGS) -o $@ $< $(ANALYZER_LIB_OBJS) $(ANALYZER_LDLIBS)

check-analyzer: $(BUILD)/blkmig $(BUILD)/analyzer-tests/edits_tool $(BUILD)/analyzer-tests/unit
	@RESULTS=$(RESULTS) BUILD=$(BUILD) TOP=$(TOP) $(TOP)/tests/analyzer/run.sh
