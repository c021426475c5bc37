// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_view_lock.c - the queue lock checks of the legacy view.
 *
 * A 2.6.24 call that needed the queue lock, made without it, was a race
 * that rarely showed; blkmig reports such old bugs it finds.  So that a
 * test can hold the two against each other, each check names the call and
 * its call site (%pB: function+offset/length [module]), once per site:
 *
 *   blkcompat: lock: CALL without the queue lock, called from SITE
 *	a completion call that needs the lock (end_request,
 *	end_that_request_last, __blk_end_request, ...);
 *   blkcompat: note: CALL without the queue lock, called from SITE
 *	a queue call that needs it (elv_next_request, ...): an old bug too,
 *	but not a completion call, which is all blkmig converts;
 *   blkcompat: deadlock: CALL with the queue lock held, called from SITE
 *	a call that takes the lock itself (blk_end_request): on 2.6.25 the
 *	CPU would spin forever.  The call then goes on without taking it, so
 *	that the test fails instead of hanging.
 *
 * spin_is_locked() cannot tell who holds the lock: on one CPU the checks
 * are exact, with more a holder on another CPU hides a missing lock.
 */
#include <linux/spinlock.h>
#include <linux/printk.h>
#include "legacy_view.h"

/* call sites already named; more than this many are named every time */
#define BLKCOMPAT_LV_SITES	64

static unsigned long blkcompat_lv_sites[BLKCOMPAT_LV_SITES];
static unsigned int blkcompat_lv_nr_sites;
static DEFINE_SPINLOCK(blkcompat_lv_sites_lock);

static bool blkcompat_lv_first_at(unsigned long caller)
{
	unsigned long flags;
	bool first = true;
	unsigned int i;

	spin_lock_irqsave(&blkcompat_lv_sites_lock, flags);
	for (i = 0; i < blkcompat_lv_nr_sites; i++) {
		if (blkcompat_lv_sites[i] == caller) {
			first = false;
			break;
		}
	}
	if (first && blkcompat_lv_nr_sites < BLKCOMPAT_LV_SITES)
		blkcompat_lv_sites[blkcompat_lv_nr_sites++] = caller;
	spin_unlock_irqrestore(&blkcompat_lv_sites_lock, flags);
	return first;
}

void blkcompat_lv_need_lock(struct blkcompat_lv_queue *q, const char *call,
			    unsigned long caller)
{
	if (!spin_is_locked(q->queue_lock) && blkcompat_lv_first_at(caller))
		pr_warn("blkcompat: lock: %s without the queue lock, called from %pB\n",
			call, (void *)caller);
}

void blkcompat_lv_note_lock(struct blkcompat_lv_queue *q, const char *call,
			    unsigned long caller)
{
	if (!spin_is_locked(q->queue_lock) && blkcompat_lv_first_at(caller))
		pr_info("blkcompat: note: %s without the queue lock, called from %pB\n",
			call, (void *)caller);
}

bool blkcompat_lv_must_not_hold(struct blkcompat_lv_queue *q, const char *call,
				unsigned long caller)
{
	if (!spin_is_locked(q->queue_lock))
		return true;
	if (blkcompat_lv_first_at(caller))
		pr_err("blkcompat: deadlock: %s with the queue lock held, called from %pB\n",
		       call, (void *)caller);
	return false;
}
