/*
 * run_state.h - a run's results to JSON and back (run_state.c), for the cache.
 */
#ifndef BLKMIG_RUN_STATE_H
#define BLKMIG_RUN_STATE_H

#include <jansson.h>

#include "site.h"

json_t *run_state_save(const struct bm_run *run);
/* Fill RUN (initialised, empty) from J; -1 when J is not a saved run. */
int run_state_load(json_t *j, struct bm_run *run);
/* N bytes as a JSON string, or {"hex": ...} when they are not UTF-8; and back
 * (malloc'd, NUL-terminated; NULL when J is neither). */
json_t *run_state_bytes(const char *s, size_t n);
char *run_state_get_bytes(json_t *j, size_t *len);
/* S as a string that lives until the process ends (NULL for NULL). */
const char *run_state_intern(const char *s);

#endif
