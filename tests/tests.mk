# tests/tests.mk — pulls in each test suite's own fragment (tests/*/suite.mk) and the
# suite that checks the test harness itself.

include $(wildcard $(TOP)/tests/*/suite.mk)
