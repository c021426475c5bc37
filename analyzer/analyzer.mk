# analyzer/analyzer.mk — build rules for analyzer/ (included by the top-level Makefile).
#
# Builds $(BUILD)/blkmig from every .c of analyzer/ and of its stage folders (cli/
# command line, parse/ reading C, facts/ tree facts and data flow, convert/ deciding and
# rewriting, report/ writers) against libclang and jansson.  Headers are found by name
# across the stage folders (-I each), so a file moving between stages changes no #include.  The libclang
# location is found without llvm-config: LLVM_DIR (override on the command line) defaults
# to the newest /usr/lib/llvm-N that has include/clang-c/Index.h.

LLVM_DIR ?= $(lastword $(sort $(patsubst %/include/clang-c/Index.h,%,$(wildcard /usr/lib/llvm-*/include/clang-c/Index.h))))
ANALYZER_CC      ?= cc
ANALYZER_CFLAGS  ?= -std=c11 -Wall -Wextra -O2 -g
# SANITIZE=1: AddressSanitizer + UndefinedBehaviorSanitizer (any report aborts; the
# top-level Makefile then builds into build/asan).  The sanitize suite runs the analyzer
# and migrate suites with this binary (tests/sanitize/).
SANITIZE_ON_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SANITIZE_CFLAGS := $(if $(filter 1,$(SANITIZE)),$(SANITIZE_ON_CFLAGS))
ANALYZER_CFLAGS += $(SANITIZE_CFLAGS)
ANALYZER_STAGES  := cli parse facts convert report
ANALYZER_INCDIRS := $(TOP)/analyzer $(addprefix $(TOP)/analyzer/,$(ANALYZER_STAGES))
ANALYZER_CPPFLAGS = -D_GNU_SOURCE $(addprefix -I,$(ANALYZER_INCDIRS)) -I$(BUILD)/analyzer \
	-I$(LLVM_DIR)/include
ANALYZER_LDLIBS   = -L$(LLVM_DIR)/lib -Wl,-rpath,$(LLVM_DIR)/lib -lclang -ljansson -lcrypto

ANALYZER_SRCS := $(wildcard $(addsuffix /*.c,$(ANALYZER_INCDIRS)))
ANALYZER_OBJS := $(patsubst $(TOP)/analyzer/%.c,$(BUILD)/analyzer/%.o,$(ANALYZER_SRCS)) \
	$(BUILD)/analyzer/model_blob.o
ANALYZER_HDRS := $(wildcard $(addsuffix /*.h,$(ANALYZER_INCDIRS)))
ANALYZER_MODEL := $(sort $(wildcard $(TOP)/analyzer/parse/model/*.h)) \
	$(TOP)/analyzer/parse/model/headers.list

all: $(BUILD)/blkmig

$(BUILD)/blkmig: $(ANALYZER_OBJS)
	$(ANALYZER_CC) $(ANALYZER_CFLAGS) -o $@ $^ $(ANALYZER_LDLIBS)

$(BUILD)/analyzer/%.o: $(TOP)/analyzer/%.c $(ANALYZER_HDRS) | $(BUILD)/analyzer/.dir
	@mkdir -p $(@D)
	$(ANALYZER_CC) $(ANALYZER_CFLAGS) $(ANALYZER_CPPFLAGS) -c -o $@ $<

# The 2.6.24 block API model is compiled into the binary (no install path to find).
$(BUILD)/analyzer/model_blob.c: $(ANALYZER_MODEL) $(TOP)/analyzer/parse/model/embed.sh | $(BUILD)/analyzer/.dir
	sh $(TOP)/analyzer/parse/model/embed.sh $(ANALYZER_MODEL) > $@

$(BUILD)/analyzer/model_blob.o: $(BUILD)/analyzer/model_blob.c
	$(ANALYZER_CC) $(ANALYZER_CFLAGS) $(ANALYZER_CPPFLAGS) -c -o $@ $<

$(BUILD)/analyzer/.dir:
	mkdir -p $(BUILD)/analyzer && touch $@

.PHONY: analyzer-lint
# cppcheck and clang-format over the analyzer sources (not part of check: advisory).
analyzer-lint:
	cppcheck --quiet --enable=warning,portability --std=c11 -D_GNU_SOURCE --error-exitcode=1 \
		--include=$(TOP)/tests/analyzer/cppcheck-defs.h $(addprefix -I,$(ANALYZER_INCDIRS)) $(ANALYZER_SRCS)
	clang-format --style=file:$(TOP)/analyzer/.clang-format --dry-run --Werror $(ANALYZER_SRCS) $(ANALYZER_HDRS)
