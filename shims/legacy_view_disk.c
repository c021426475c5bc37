// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_view_disk.c - the 2.6.24 gendisk of the legacy view.
 *
 * Owns alloc_disk(), add_disk(), del_gendisk() and put_disk() on struct
 * blkcompat_lv_disk.  A 2.6.24 driver allocated a disk, filled it in,
 * pointed ->queue at a queue it may share with its other disks, and
 * added it.  On 6.x a blk-mq queue serves one disk, so add_disk() makes
 * the real gendisk on the legacy queue's first blk-mq queue, or on a new
 * one of the same tag set for every further disk: all of them feed the
 * one pending list and request_fn, under the driver's one lock, as
 * before.  The blk-mq queue's queuedata is the legacy disk, which is how
 * a request finds its rq_disk.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "legacy_view.h"

/**
 * blkcompat_lv_alloc_disk - allocate a disk (2.6.24 alloc_disk)
 * @minors: how many minors it has (partitions + 1)
 *
 * Context: process context, may sleep.
 * Return: the disk, or %NULL.  Release it with put_disk().
 */
struct blkcompat_lv_disk *blkcompat_lv_alloc_disk(int minors)
{
	struct blkcompat_lv_disk *disk = kzalloc(sizeof(*disk), GFP_KERNEL);

	if (!disk)
		return NULL;
	disk->minors = minors;
	INIT_LIST_HEAD(&disk->node);
	return disk;
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_alloc_disk, BLKCOMPAT);

/* the blk-mq queue for one more disk of @lq */
static struct request_queue *blkcompat_lv_disk_queue(struct blkcompat_lv_queue *lq)
{
	struct blkcompat_queue *bq = lq->bq;
	struct blkcompat_lv_disk *other;

	list_for_each_entry(other, &lq->disks, node)
		if (other->disk->queue == bq->q)
			return blkcompat_mq_alloc_queue(&bq->set);
	return bq->q;
}

static void blkcompat_lv_put_queue(struct blkcompat_lv_queue *lq,
				   struct request_queue *q)
{
	if (q == lq->bq->q)
		return;
	blk_mq_destroy_queue(q);
	blk_put_queue(q);
}

/**
 * blkcompat_lv_add_disk - make a disk live (2.6.24 add_disk)
 * @ldisk: the disk, its major, first_minor, disk_name, fops, queue,
 *	   private_data and capacity set
 *
 * The old call could not fail; a failure here is logged and leaves the
 * disk unadded (put_disk() still releases it).
 *
 * Context: process context, may sleep.
 */
void blkcompat_lv_add_disk(struct blkcompat_lv_disk *ldisk)
{
	static struct lock_class_key blkcompat_lv_disk_key;
	struct blkcompat_lv_queue *lq = ldisk->queue;
	struct request_queue *q;
	struct gendisk *disk;
	int err;

	if (WARN_ON(!lq || ldisk->disk))
		return;
	q = blkcompat_lv_disk_queue(lq);
	if (IS_ERR(q)) {
		pr_err("blkcompat: %s: no queue: %ld\n", ldisk->disk_name,
		       PTR_ERR(q));
		return;
	}
	blkcompat_set_logical_block_size(q, lq->hardsect_size ?: 512);
	if (lq->max_sectors)
		blkcompat_set_max_hw_sectors(q, lq->max_sectors);
	q->queuedata = ldisk;

	disk = blk_mq_alloc_disk_for_queue(q, &blkcompat_lv_disk_key);
	if (!disk) {
		pr_err("blkcompat: %s: no gendisk\n", ldisk->disk_name);
		blkcompat_lv_put_queue(lq, q);
		return;
	}
	disk->major = ldisk->major;
	disk->first_minor = ldisk->first_minor;
	disk->minors = ldisk->minors;
	disk->fops = ldisk->fops;
	disk->private_data = ldisk->private_data;
	strscpy(disk->disk_name, ldisk->disk_name, sizeof(disk->disk_name));
	set_capacity(disk, ldisk->capacity);

	err = add_disk(disk);
	if (err) {
		pr_err("blkcompat: %s: add_disk failed: %d\n", ldisk->disk_name,
		       err);
		put_disk(disk);
		blkcompat_lv_put_queue(lq, q);
		return;
	}
	ldisk->disk = disk;
	list_add_tail(&ldisk->node, &lq->disks);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_add_disk, BLKCOMPAT);

/**
 * blkcompat_lv_del_gendisk - take a disk out of use (2.6.24 del_gendisk)
 * @ldisk: the disk; waits for its requests in flight
 *
 * Context: process context, may sleep.
 */
void blkcompat_lv_del_gendisk(struct blkcompat_lv_disk *ldisk)
{
	if (ldisk->disk)
		del_gendisk(ldisk->disk);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_del_gendisk, BLKCOMPAT);

/**
 * blkcompat_lv_put_disk - release a disk (2.6.24 put_disk)
 * @ldisk: the disk, deleted already if it was added
 *
 * Context: process context, may sleep.
 */
void blkcompat_lv_put_disk(struct blkcompat_lv_disk *ldisk)
{
	struct request_queue *q;

	if (!ldisk)
		return;
	if (ldisk->disk) {
		q = ldisk->disk->queue;
		list_del(&ldisk->node);
		put_disk(ldisk->disk);
		blkcompat_lv_put_queue(ldisk->queue, q);
	}
	kfree(ldisk);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_put_disk, BLKCOMPAT);
