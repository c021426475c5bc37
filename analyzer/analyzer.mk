# analyzer/analyzer.mk — build rules for analyzer/ (included by the top-level Makefile).
