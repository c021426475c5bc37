/* one.h - included by gc1.c alone */
#define GC_ONE 1
