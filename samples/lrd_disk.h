/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lrd_disk.h - what the four lrd sample drivers share and what is not
 * under test: the module parameters of the sample contract (size_mb,
 * fail_start, fail_sectors), the RAM store, failure injection, and
 * registering/removing the gendisk.  Each sample creates its own queue
 * with blk_init_queue() and completes requests its own way.
 */
#ifndef _LRD_DISK_H
#define _LRD_DISK_H

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/blkdev.h>
#include <linux/blkcompat.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

static unsigned int size_mb = 16;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "capacity in MiB (default 16)");

static unsigned long fail_start;
module_param(fail_start, ulong, 0444);
MODULE_PARM_DESC(fail_start, "first 512-byte sector that fails I/O");

static unsigned int fail_sectors;
module_param(fail_sectors, uint, 0444);
MODULE_PARM_DESC(fail_sectors, "number of failing sectors (default 0: none)");

/* One legacy RAM disk: the driver's own lock, queue, disk and store. */
struct lrd_disk {
	spinlock_t lock;
	struct request_queue *queue;
	struct gendisk *gd;
	int major;
	const char *name;
	u8 *data;
	sector_t sectors;
};

static const struct block_device_operations lrd_disk_fops = {
	.owner = THIS_MODULE,
};

/* Does I/O to [pos, pos + nr_sectors) fail (injected, or past the end)? */
static inline bool lrd_disk_fails(struct lrd_disk *lrd, sector_t pos,
				  unsigned int nr_sectors)
{
	if (pos + nr_sectors > lrd->sectors)
		return true;
	return fail_sectors && pos < fail_start + fail_sectors &&
	       pos + nr_sectors > fail_start;
}

/* Copy @bytes between @buf and the store at sector @pos. */
static inline void lrd_disk_transfer(struct lrd_disk *lrd, sector_t pos,
				     unsigned int bytes, void *buf, int write)
{
	u8 *store = lrd->data + (pos << SECTOR_SHIFT);

	if (write)
		memcpy(store, buf, bytes);
	else
		memcpy(buf, store, bytes);
}

/* Allocate the store and the major number; before blk_init_queue(). */
static inline int lrd_disk_alloc(struct lrd_disk *lrd, const char *name)
{
	if (!size_mb)
		return -EINVAL;
	lrd->name = name;
	lrd->sectors = (sector_t)size_mb << (20 - SECTOR_SHIFT);
	lrd->data = vzalloc((size_t)size_mb << 20);
	if (!lrd->data)
		return -ENOMEM;
	lrd->major = register_blkdev(0, name);
	if (lrd->major < 0) {
		vfree(lrd->data);
		return lrd->major;
	}
	spin_lock_init(&lrd->lock);
	return 0;
}

static inline void lrd_disk_free(struct lrd_disk *lrd)
{
	unregister_blkdev(lrd->major, lrd->name);
	vfree(lrd->data);
}

/* Make the disk for lrd->queue and announce it as /dev/<name>. */
static inline int lrd_disk_add(struct lrd_disk *lrd)
{
	int err;

	blk_queue_hardsect_size(lrd->queue, 512);
	lrd->queue->queuedata = lrd;
	lrd->gd = blkcompat_alloc_disk(lrd->queue, 1);
	if (!lrd->gd)
		return -ENOMEM;
	lrd->gd->major = lrd->major;
	lrd->gd->first_minor = 0;
	lrd->gd->fops = &lrd_disk_fops;
	lrd->gd->private_data = lrd;
	strscpy(lrd->gd->disk_name, lrd->name, sizeof(lrd->gd->disk_name));
	set_capacity(lrd->gd, lrd->sectors);
	err = add_disk(lrd->gd);
	if (err) {
		put_disk(lrd->gd);
		lrd->gd = NULL;
	}
	return err;
}

/* Old teardown order; del_gendisk() waits for requests in flight. */
static inline void lrd_disk_remove(struct lrd_disk *lrd)
{
	del_gendisk(lrd->gd);
	put_disk(lrd->gd);
}

#endif /* _LRD_DISK_H */
