# tests/model/suite.mk — suite `model`: a userspace model of the 2.6.24 and 2.6.25
# block completion code and property tests of every equivalence rule the converters
# apply, each with its preconditions (tests/model/README.md).  The test binary and four
# deliberately broken builds of the model (MODEL_MUTANT=1..4, which the suite must
# catch) go into $(BUILD)/model/.

CHECK_SUITES += model
.PHONY: check-model

MODEL_CC     ?= gcc
MODEL_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2
MODEL_SRCS   := $(wildcard $(TOP)/tests/model/*.c)
MODEL_HDRS   := $(wildcard $(TOP)/tests/model/*.h)
MODEL_MUTANTS := 1 2 3 4

$(BUILD)/model/props: $(MODEL_SRCS) $(MODEL_HDRS)
	@mkdir -p $(dir $@)
	$(MODEL_CC) $(MODEL_CFLAGS) -o $@ $(MODEL_SRCS)

$(BUILD)/model/props-mutant-%: $(MODEL_SRCS) $(MODEL_HDRS)
	@mkdir -p $(dir $@)
	$(MODEL_CC) $(MODEL_CFLAGS) -DMODEL_MUTANT=$* -o $@ $(MODEL_SRCS)

check-model: $(BUILD)/model/props $(MODEL_MUTANTS:%=$(BUILD)/model/props-mutant-%)
	@TOP=$(TOP) BUILD=$(BUILD) RESULTS=$(RESULTS) MODEL_MUTANTS="$(MODEL_MUTANTS)" \
		bash $(TOP)/tests/model/run.sh
