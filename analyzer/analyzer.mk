# analyzer/analyzer.mk — build rules for analyzer/ (included by the top-level Makefile).
#
# Builds $(BUILD)/blkmig from every analyzer/*.c (files the migrate part adds, such as
# cmd_fix.c, are picked up automatically) against libclang and jansson.  The libclang
# location is found without llvm-config: LLVM_DIR (override on the command line) defaults
# to the newest /usr/lib/llvm-N that has include/clang-c/Index.h.

LLVM_DIR ?= $(lastword $(sort $(patsubst %/include/clang-c/Index.h,%,$(wildcard /usr/lib/llvm-*/include/clang-c/Index.h))))
ANALYZER_CC      ?= cc
ANALYZER_CFLAGS  ?= -std=c11 -Wall -Wextra -O2 -g
ANALYZER_CPPFLAGS = -D_GNU_SOURCE -I$(TOP)/analyzer -I$(BUILD)/analyzer -I$(LLVM_DIR)/include
ANALYZER_LDLIBS   = -L$(LLVM_DIR)/lib -Wl,-rpath,$(LLVM_DIR)/lib -lclang -ljansson

ANALYZER_SRCS := $(wildcard $(TOP)/analyzer/*.c)
ANALYZER_OBJS := $(patsubst $(TOP)/analyzer/%.c,$(BUILD)/analyzer/%.o,$(ANALYZER_SRCS)) \
	$(BUILD)/analyzer/model_blob.o
ANALYZER_HDRS := $(wildcard $(TOP)/analyzer/*.h)
ANALYZER_MODEL := $(sort $(wildcard $(TOP)/analyzer/model/*.h)) $(TOP)/analyzer/model/headers.list

all: $(BUILD)/blkmig

$(BUILD)/blkmig: $(ANALYZER_OBJS)
	$(ANALYZER_CC) $(ANALYZER_CFLAGS) -o $@ $^ $(ANALYZER_LDLIBS)

$(BUILD)/analyzer/%.o: $(TOP)/analyzer/%.c $(ANALYZER_HDRS) | $(BUILD)/analyzer/.dir
	$(ANALYZER_CC) $(ANALYZER_CFLAGS) $(ANALYZER_CPPFLAGS) -c -o $@ $<

# The 2.6.24 block API model is compiled into the binary (no install path to find).
$(BUILD)/analyzer/model_blob.c: $(ANALYZER_MODEL) $(TOP)/analyzer/model/embed.sh | $(BUILD)/analyzer/.dir
	sh $(TOP)/analyzer/model/embed.sh $(ANALYZER_MODEL) > $@

$(BUILD)/analyzer/model_blob.o: $(BUILD)/analyzer/model_blob.c
	$(ANALYZER_CC) $(ANALYZER_CFLAGS) $(ANALYZER_CPPFLAGS) -c -o $@ $<

$(BUILD)/analyzer/.dir:
	mkdir -p $(BUILD)/analyzer && touch $@

.PHONY: analyzer-lint
# cppcheck and clang-format over the analyzer sources (not part of check: advisory).
analyzer-lint:
	cppcheck --quiet --enable=warning,portability --std=c11 -D_GNU_SOURCE --error-exitcode=1 \
		-I$(TOP)/analyzer $(TOP)/analyzer/*.c
	clang-format --style=file:$(TOP)/analyzer/.clang-format --dry-run --Werror $(TOP)/analyzer/*.c $(TOP)/analyzer/*.h
