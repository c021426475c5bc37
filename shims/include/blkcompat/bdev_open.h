/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <blkcompat/bdev_open.h> - opening a block device from kernel code.
 *
 * Not part of the legacy API: the shim's kernel self-test (tests/target/kmod/)
 * opens its own disk to drive I/O through it.  Up to 6.4 that is
 * blkdev_get_by_dev(dev, FMODE_*, holder) and blkdev_put(); 6.9 returns an
 * open struct file instead (bdev_file_open_by_dev(), file_bdev(), fput()).
 * The interfaces in between (6.5-6.8) are not supported.
 */
#ifndef _BLKCOMPAT_BDEV_OPEN_H
#define _BLKCOMPAT_BDEV_OPEN_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/file.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)

typedef struct file *blkcompat_bdev_handle_t;

static inline blkcompat_bdev_handle_t blkcompat_bdev_open_rw(dev_t dev)
{
	return bdev_file_open_by_dev(dev, BLK_OPEN_READ | BLK_OPEN_WRITE,
				     NULL, NULL);
}

static inline struct block_device *
blkcompat_bdev_of(blkcompat_bdev_handle_t handle)
{
	return file_bdev(handle);
}

static inline void blkcompat_bdev_close(blkcompat_bdev_handle_t handle)
{
	fput(handle);
}

#elif LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)

typedef struct block_device *blkcompat_bdev_handle_t;

static inline blkcompat_bdev_handle_t blkcompat_bdev_open_rw(dev_t dev)
{
	return blkdev_get_by_dev(dev, FMODE_READ | FMODE_WRITE, NULL);
}

static inline struct block_device *
blkcompat_bdev_of(blkcompat_bdev_handle_t handle)
{
	return handle;
}

static inline void blkcompat_bdev_close(blkcompat_bdev_handle_t handle)
{
	blkdev_put(handle, FMODE_READ | FMODE_WRITE);
}

#else
#error "blkcompat: opening a block device is not mapped for 6.5-6.8"
#endif

#endif /* _BLKCOMPAT_BDEV_OPEN_H */
