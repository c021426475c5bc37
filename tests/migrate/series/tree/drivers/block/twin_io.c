/*
 * twin_io.c - series test input: the other file of the twin module.  Its
 * completion takes the queue lock around the whole request's completion, with
 * the randomness the 2.6.25 call adds itself.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include "twin.h"

void twin_complete(struct request *rq, int ok)
{
	unsigned long flags;

	spin_lock_irqsave(&twin_lock, flags);
	if (!end_that_request_first(rq, ok, rq->hard_nr_sectors)) {
		add_disk_randomness(rq->rq_disk);
		end_that_request_last(rq, ok);
	}
	spin_unlock_irqrestore(&twin_lock, flags);
}
EXPORT_SYMBOL(twin_complete);
