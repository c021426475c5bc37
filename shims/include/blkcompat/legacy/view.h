/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat/legacy/view.h - the 2.6.24 block driver API, for a driver's
 * unchanged source (force-included: gcc -include blkcompat/legacy/view.h).
 *
 * Owns the names.  First every kernel header a 2.6.24 block driver
 * includes is included here, while "struct request" still means the 6.x
 * request; their include guards make the driver's own #includes no-ops.
 * Then the driver's names are mapped: the types a 2.6.24 driver reaches
 * into (struct request, struct request_queue, struct gendisk, struct
 * timer_list) become the legacy view's (blkcompat/legacy/{request,queue,
 * disk,timer}.h), and each old call becomes the view's function on them.
 * A header included only after this one sees the renamed types: add it
 * to the list below instead.
 *
 * It is for legacy drivers only; the shim itself, the samples and every
 * other module are built without it.  The driver module imports the
 * BLKCOMPAT namespace and is declared GPL here: the 2.6.24 tree's drivers
 * are GPL-2.0 and, built into the kernel, often declared no license.
 */
#ifndef _BLKCOMPAT_LEGACY_VIEW_H
#define _BLKCOMPAT_LEGACY_VIEW_H

/* every header of the kernel a 2.6.24 block driver may include */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/fs.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/bio.h>
#include <linux/blkpg.h>
#include <linux/hdreg.h>
#include <linux/major.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/wait.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/string.h>
#include <linux/ioport.h>
#include <linux/mc146818rtc.h>
#include <linux/highmem.h>
#include <linux/uaccess.h>
#include <linux/io.h>
#include <asm/io.h>
#include <asm/irq.h>

#include <blkcompat/compat.h>
#include <blkcompat/legacy/request.h>
#include <blkcompat/legacy/queue.h>
#include <blkcompat/legacy/disk.h>
#include <blkcompat/legacy/timer.h>
#include <blkcompat/legacy/irq.h>
#include <blkcompat/legacy/hdreg.h>

MODULE_IMPORT_NS(BLKCOMPAT);
MODULE_LICENSE("GPL");

/* the types */
#define request			blkcompat_lv_request
#define request_queue		blkcompat_lv_queue
#define gendisk			blkcompat_lv_disk
#define timer_list		blkcompat_lv_timer
#define request_fn_proc		blkcompat_lv_request_fn

/* the request */
#define REQ_TYPE_FS		BLKCOMPAT_LV_REQ_TYPE_FS
#define REQ_TYPE_BLOCK_PC	BLKCOMPAT_LV_REQ_TYPE_BLOCK_PC
#define REQ_RW			BLKCOMPAT_LV_REQ_RW
#undef rq_data_dir
#define rq_data_dir(rq)		((rq)->cmd_flags & REQ_RW)
#define blk_fs_request(rq)	((rq)->cmd_type == REQ_TYPE_FS)
#define blk_pc_request(rq)	((rq)->cmd_type == REQ_TYPE_BLOCK_PC)
#undef blk_rq_bytes
#define blk_rq_bytes		blkcompat_lv_rq_bytes
#undef blk_rq_cur_bytes
#define blk_rq_cur_bytes	blkcompat_lv_rq_cur_bytes

/* completion, 2.6.24 and 2.6.25 */
#define end_that_request_first	blkcompat_lv_end_that_request_first
#define end_that_request_chunk	blkcompat_lv_end_that_request_chunk
#define end_that_request_last	blkcompat_lv_end_that_request_last
#define end_request		blkcompat_lv_end_request
#define end_queued_request	blkcompat_lv_end_queued_request
#define end_dequeued_request	blkcompat_lv_end_dequeued_request
#define blk_end_request		blkcompat_lv_blk_end_request
#define __blk_end_request	__blkcompat_lv_blk_end_request
#define blk_end_request_callback blkcompat_lv_blk_end_request_callback
#undef add_disk_randomness
#define add_disk_randomness	blkcompat_lv_add_disk_randomness

/* the queue */
#define blk_init_queue		blkcompat_lv_init_queue
#define blk_cleanup_queue	blkcompat_lv_cleanup_queue
#define elv_next_request	blkcompat_lv_elv_next_request
#define blkdev_dequeue_request	blkcompat_lv_dequeue_request
#define blk_stop_queue		blkcompat_lv_stop_queue
#define blk_start_queue		blkcompat_lv_start_queue
#define blk_queue_max_sectors	blkcompat_lv_queue_max_sectors
#define blk_queue_hardsect_size	blkcompat_lv_queue_hardsect_size

/* the disk */
#define alloc_disk		blkcompat_lv_alloc_disk
#undef add_disk
#define add_disk		blkcompat_lv_add_disk
#define del_gendisk		blkcompat_lv_del_gendisk
#define put_disk		blkcompat_lv_put_disk
#undef set_capacity
#define set_capacity		blkcompat_lv_set_capacity
#undef get_capacity
#define get_capacity		blkcompat_lv_get_capacity

/* interrupts */
#undef request_irq
#define request_irq		blkcompat_lv_request_irq
#undef free_irq
#define free_irq		blkcompat_lv_free_irq

/* timers */
#undef init_timer
#define init_timer		blkcompat_lv_init_timer
#undef setup_timer
#define setup_timer		blkcompat_lv_setup_timer
#define add_timer		blkcompat_lv_add_timer
#define mod_timer		blkcompat_lv_mod_timer
#undef del_timer
#define del_timer		blkcompat_lv_del_timer
#undef del_timer_sync
#define del_timer_sync		blkcompat_lv_del_timer_sync
#undef timer_pending
#define timer_pending		blkcompat_lv_timer_pending

#endif /* _BLKCOMPAT_LEGACY_VIEW_H */
