/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/genhd.h> of 2.6.24 for legacy drivers: 5.18 folded it into
 * <linux/blkdev.h>; the legacy view (blkcompat/legacy/disk.h) has the
 * gendisk such a driver sees.
 */
#include <linux/blkdev.h>
