# cocci/cocci.mk — build rules for cocci/ (included by the top-level Makefile).
