/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <blkcompat/compat.h> - every kernel-version difference of blkcompat.
 *
 * Owns nothing itself: it pulls in one header per concern, each of which
 * hides one interface that changed between the kernels blkcompat supports
 * (Debian 12's 6.1 and 6.12) behind a blkcompat_*() helper or macro keyed
 * on LINUX_VERSION_CODE, as the kernel's backports project does.  The
 * rest of the shim and every driver using it are written once, without
 * version checks; a new kernel that changes one more interface gets one
 * more file here.
 */
#ifndef _BLKCOMPAT_COMPAT_H
#define _BLKCOMPAT_COMPAT_H

#include <linux/version.h>

#include <blkcompat/version.h>
#include <blkcompat/namespace.h>
#include <blkcompat/queue_alloc.h>
#include <blkcompat/queue_limits.h>
#include <blkcompat/add_random.h>
#include <blkcompat/bdev_open.h>

#endif /* _BLKCOMPAT_COMPAT_H */
