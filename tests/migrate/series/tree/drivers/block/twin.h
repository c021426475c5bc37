/*
 * twin.h - series test input: the header the two files of the twin module share
 * (it has no legacy call: it goes with the module's patch unchanged).
 */
#ifndef TWIN_H
#define TWIN_H

#include <linux/blkdev.h>

#define TWIN_SECTORS	4096

extern spinlock_t twin_lock;
extern struct request_queue *twin_queue;

#endif
