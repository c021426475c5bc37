# samples/samples.mk — build rules for samples/ (included by the top-level Makefile).
