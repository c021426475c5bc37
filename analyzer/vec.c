/*
 * vec.c - checked growable arrays (see vec.h): the growth policy and its checks.
 */
#include "vec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void vec_bug(const char *what)
{
	fprintf(stderr, "blkmig: internal error: growable array: %s\n", what);
	abort();
}

void *vec_reserve_(void *arr, const size_t *len, size_t *cap, size_t extra, size_t elem_size)
{
	size_t need, ncap;

	if ((const void *)len == (const void *)cap)
		vec_bug("length and capacity are the same variable");
	if (*len > *cap || (*cap && !arr))
		vec_bug("length beyond capacity");
	if (extra > SIZE_MAX - *len)
		vec_bug("size overflow");
	need = *len + extra;
	if (need <= *cap)
		return arr;
	ncap = *cap ? *cap : 8;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	if (ncap > SIZE_MAX / elem_size)
		vec_bug("size overflow");
	arr = xrealloc(arr, ncap * elem_size);
	*cap = ncap;
	return arr;
}

void *vec_zero_(void *elem, size_t elem_size)
{
	return memset(elem, 0, elem_size);
}
