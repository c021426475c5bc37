/* cdrv.h - the cache test's header: which completion branch cdrv.c compiles. */
#define CDRV_STATUS 1
