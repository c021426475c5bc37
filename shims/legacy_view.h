/* SPDX-License-Identifier: GPL-2.0 */
/*
 * legacy_view.h - state shared by the legacy view's sources.
 *
 * Owns the way from a legacy request or queue to what is behind it (the
 * blk-mq request whose payload it is, the shim's legacy queue), the data
 * part and final step of a completion on a legacy request (with the
 * 2.6.24 field bookkeeping) and the lock checks, which name the call
 * site.
 */
#ifndef _BLKCOMPAT_LEGACY_VIEW_INTERNAL_H
#define _BLKCOMPAT_LEGACY_VIEW_INTERNAL_H

#include <blkcompat/legacy/request.h>
#include <blkcompat/legacy/queue.h>
#include <blkcompat/legacy/disk.h>
#include <blkcompat/legacy/irq.h>
#include "blkcompat_internal.h"

static inline struct request *blkcompat_lv_mq_rq(struct blkcompat_lv_request *lrq)
{
	return blk_mq_rq_from_pdu(lrq);
}

static inline struct blkcompat_lv_request *blkcompat_lv_rq(struct request *rq)
{
	return blk_mq_rq_to_pdu(rq);
}

/* legacy_view_request.c */
bool blkcompat_lv_prep(struct request *rq);
bool blkcompat_lv_update(struct blkcompat_lv_request *lrq, int error,
			 unsigned int nr_bytes);
void blkcompat_lv_finish(struct blkcompat_lv_request *lrq, int error);

/* legacy_view_lock.c */
void blkcompat_lv_need_lock(struct blkcompat_lv_queue *q, const char *call,
			    unsigned long caller);
void blkcompat_lv_note_lock(struct blkcompat_lv_queue *q, const char *call,
			    unsigned long caller);
bool blkcompat_lv_must_not_hold(struct blkcompat_lv_queue *q, const char *call,
				unsigned long caller);

#endif /* _BLKCOMPAT_LEGACY_VIEW_INTERNAL_H */
