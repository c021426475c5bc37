# tests/fuzz/suite.mk — the libFuzzer target over parse -> classify -> rewrite
# (tests/fuzz/fuzz_pipeline.c), built with Debian's clang (-fsanitize=fuzzer plus ASan
# and UBSan) into build/fuzz.
#
#   make fuzz FUZZ_S=N   fuzz for N seconds (default 60; FUZZ_TARGET=fuzz_text for
#                        the libclang-free target); new inputs go to
#                        build/fuzz/corpus, crashes to build/fuzz/crash-*
#   check-fuzz           (suite `fuzz`) replays every kept crash input
#                        (tests/fuzz/crashes/) and every seed, then fuzzes briefly
#                        (FUZZ_CHECK_S seconds, default 60)

FUZZ_BUILD   := $(BUILD)/fuzz
FUZZ_CC      ?= clang
FUZZ_S       ?= 60
FUZZ_TARGET  ?= fuzz_pipeline
FUZZ_CHECK_S ?= 60
FUZZ_CFLAGS  := -std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
FUZZ_OBJS := $(patsubst $(TOP)/analyzer/%.c,$(FUZZ_BUILD)/analyzer/%.o, \
	$(filter-out $(TOP)/analyzer/cli/main.c,$(ANALYZER_SRCS)))
# seeds: the sample drivers and every C test case of the analyzer, cocci and migrate suites
FUZZ_SEED_DIRS := $(TOP)/samples $(TOP)/tests/analyzer/cases $(TOP)/tests/cocci/cases
.SECONDARY: $(FUZZ_OBJS)

$(FUZZ_BUILD)/analyzer/%.o: $(TOP)/analyzer/%.c $(ANALYZER_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(ANALYZER_CPPFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: $(TOP)/tests/fuzz/fuzz_%.c $(FUZZ_OBJS) \
		$(BUILD)/analyzer/model_blob.o $(ANALYZER_HDRS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(ANALYZER_CPPFLAGS) -o $@ $< $(FUZZ_OBJS) \
		$(BUILD)/analyzer/model_blob.o $(ANALYZER_LDLIBS)

.PHONY: fuzz check-fuzz
fuzz: $(FUZZ_BUILD)/$(FUZZ_TARGET)
	@mkdir -p $(FUZZ_BUILD)/corpus
	cd $(FUZZ_BUILD) && nice -n 10 ./$(FUZZ_TARGET) -max_total_time=$(FUZZ_S) \
		-dict=$(TOP)/tests/fuzz/blkmig.dict -max_len=65536 -timeout=30 -rss_limit_mb=4096 \
		-print_final_stats=1 corpus $(FUZZ_SEED_DIRS)

CHECK_SUITES += fuzz
check-fuzz: $(FUZZ_BUILD)/fuzz_pipeline $(FUZZ_BUILD)/fuzz_text
	@TOP=$(TOP) RESULTS=$(RESULTS) FUZZER=$(FUZZ_BUILD)/fuzz_pipeline FUZZ_CHECK_S=$(FUZZ_CHECK_S) \
		bash $(TOP)/tests/fuzz/run.sh
