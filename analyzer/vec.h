/*
 * vec.h - checked growable arrays, the one way the analyzer grows an array.
 *
 * An array is three lvalues: its pointer, its length (elements in use) and its capacity
 * (elements allocated), the last two distinct size_t variables.  vec_push() makes room
 * for one more element and returns a pointer to it (zeroed), counting it in the length;
 * vec_reserve() makes room for EXTRA more without changing the length.  Both check, at
 * run time, that length and capacity are two different variables and that the length
 * never exceeds the capacity, and they refuse a byte size that overflows: confusing the
 * two (one variable used as both) aborts at its first use instead of writing past the
 * end.  The element size comes from the pointer's type, never from the caller.
 */
#ifndef BLKMIG_VEC_H
#define BLKMIG_VEC_H

#include <stddef.h>

/* &(x), accepted only when x is a size_t (a compile error otherwise). */
#ifndef VEC_SIZE_PTR
#define VEC_SIZE_PTR(x) _Generic(&(x), size_t * : &(x))
#endif

#define vec_reserve(arr, len, cap, extra)                                                          \
	((arr) = vec_reserve_((arr), VEC_SIZE_PTR(len), VEC_SIZE_PTR(cap), (extra), sizeof(*(arr))))

#define vec_push(arr, len, cap)                                                                    \
	(vec_reserve(arr, len, cap, 1), vec_zero_(&(arr)[(len)++], sizeof(*(arr))))

/* Append VALUE (which must not read LEN: it is evaluated after the length counts it). */
#define vec_append(arr, len, cap, value)                                                           \
	(vec_reserve(arr, len, cap, 1), (void)((arr)[(len)++] = (value)))

void *vec_reserve_(void *arr, const size_t *len, size_t *cap, size_t extra, size_t elem_size);
void *vec_zero_(void *elem, size_t elem_size);

#endif
