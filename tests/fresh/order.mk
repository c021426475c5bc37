# tests/fresh/order.mk — the project's Makefile on a fake machine, for tests/fresh/order.sh.
#
# ORDER_STATE stands for what `make deps` installs: the fake deps step below writes it.
# ORDER_SEEN is read from it when make READS the makefiles, as shims.mk reads the kernel
# version and analyzer.mk the LLVM directory; order-show (a prerequisite of `all`, which
# check, demo and bench build) fails unless the make that builds `all` read it after deps.
include $(dir $(lastword $(MAKEFILE_LIST)))../../Makefile

ORDER_SEEN := $(shell cat $(ORDER_STATE) 2>/dev/null || echo not-installed)
# Nothing real to install: deps runs the fake step only (order.sh makes what `all`
# really builds count as built).
DEBIAN_PACKAGES :=
DEPS_STEPS := order-fake-install
.PHONY: order-fake-install order-show
order-fake-install:
	@echo installed > $(ORDER_STATE)
all: order-show
order-show:
	@echo "order: the make that builds 'all' read: $(ORDER_SEEN)"
	@test "$(ORDER_SEEN)" = installed
