/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat/legacy/disk.h - the 2.6.24 gendisk a legacy driver sees.
 *
 * Owns struct blkcompat_lv_disk and the calls on it: alloc_disk(minors)
 * with no queue yet (the driver sets ->queue itself), add_disk() with no
 * return value, put_disk(), del_gendisk(), set_capacity() and
 * get_capacity().  A 6.x gendisk is allocated together with its blk-mq
 * queue, so the real one is made at add_disk(), from the fields the
 * driver filled in; block_device_operations see the real gendisk, whose
 * private_data is the driver's.
 *
 * Drivers never name this struct: <blkcompat/legacy/view.h> renames their
 * "struct gendisk" to it.
 */
#ifndef _BLKCOMPAT_LEGACY_DISK_H
#define _BLKCOMPAT_LEGACY_DISK_H

#include <linux/blkdev.h>
#include <linux/list.h>

struct blkcompat_lv_queue;

/**
 * struct blkcompat_lv_disk - a gendisk as a 2.6.24 driver sees it
 * @major: the driver's major number
 * @first_minor: its first minor
 * @minors: how many minors (partitions + 1), from alloc_disk()
 * @disk_name: the name, "hda"
 * @fops: the driver's block device operations
 * @queue: the legacy queue the driver set
 * @private_data: the driver's
 * @flags: 2.6.24 GENHD_FL_* flags (none is acted on)
 * @capacity: sectors, until the real disk exists
 * @disk: the real gendisk, from add_disk() on
 * @node: on @queue's list of disks
 */
struct blkcompat_lv_disk {
	int major;
	int first_minor;
	int minors;
	char disk_name[32];
	const struct block_device_operations *fops;
	struct blkcompat_lv_queue *queue;
	void *private_data;
	int flags;
	sector_t capacity;
	struct gendisk *disk;
	struct list_head node;
};

struct blkcompat_lv_disk *blkcompat_lv_alloc_disk(int minors);
void blkcompat_lv_add_disk(struct blkcompat_lv_disk *disk);
void blkcompat_lv_del_gendisk(struct blkcompat_lv_disk *disk);
void blkcompat_lv_put_disk(struct blkcompat_lv_disk *disk);

static inline void blkcompat_lv_set_capacity(struct blkcompat_lv_disk *disk,
					     sector_t size)
{
	disk->capacity = size;
	if (disk->disk)
		set_capacity(disk->disk, size);
}

static inline sector_t blkcompat_lv_get_capacity(struct blkcompat_lv_disk *disk)
{
	return disk->disk ? get_capacity(disk->disk) : disk->capacity;
}

static inline void
blkcompat_lv_add_disk_randomness(struct blkcompat_lv_disk *disk)
{
	if (disk && disk->disk)
		add_disk_randomness(disk->disk);
}

#endif /* _BLKCOMPAT_LEGACY_DISK_H */
