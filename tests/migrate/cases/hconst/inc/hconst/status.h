/* hconst/status.h - the driver's status values, in a header found only through -I. */
#ifndef HCONST_STATUS_H
#define HCONST_STATUS_H

#define HCONST_FAIL 0
#define HCONST_OK 1

#endif
