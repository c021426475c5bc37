# shims/shims.mk — build rules for shims/ (included by the top-level Makefile).
