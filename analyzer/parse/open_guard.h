/*
 * open_guard.h - a parse reads regular files only (open_guard.c); a parse child's
 * memory is bounded (parse.c, --parse-memory).
 */
#ifndef BLKMIG_OPEN_GUARD_H
#define BLKMIG_OPEN_GUARD_H

#include <stdbool.h>

/* While ON, open(2) for reading refuses what is not a regular file or a directory
 * (ENODEV), without blocking on a FIFO. */
void open_guard_parse(bool on);
/* How many opens were refused since the guard was last turned on. */
unsigned open_guard_refused(void);

#endif
