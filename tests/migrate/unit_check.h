/*
 * unit_check.h - the result convention of the migrate suite's C unit drivers
 * (unit_edits, unit_plan, unit_combine): CHECK(name, cond) prints PASS/FAIL
 * lines as tests/lib/testlib.sh does and counts them in passed/failed.
 */
#ifndef BLKMIG_UNIT_CHECK_H
#define BLKMIG_UNIT_CHECK_H

#include <stdio.h>

static int passed, failed;

#define CHECK(name, cond)                                                              \
	do {                                                                           \
		if (cond) {                                                            \
			passed++;                                                      \
			printf("PASS %s\n", name);                                     \
		} else {                                                               \
			failed++;                                                      \
			printf("FAIL %s (%s:%d: %s)\n", name, __FILE__, __LINE__, #cond); \
		}                                                                      \
	} while (0)

#endif
