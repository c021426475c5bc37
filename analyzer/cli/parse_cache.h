/*
 * parse_cache.h - a parse child's result kept between runs (parse_cache.c).
 */
#ifndef BLKMIG_PARSE_CACHE_H
#define BLKMIG_PARSE_CACHE_H

#include <stdbool.h>

/* Keep and take parse results (bm_parse_cache) from now on, or (false) no more; whether
 * they were kept until now.  BLKMIG_NO_PARSE_CACHE=1 keeps none (the reference the
 * tests compare with). */
bool parse_cache_enable(bool on);

#endif
