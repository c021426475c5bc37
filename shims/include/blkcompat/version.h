/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <blkcompat/version.h> - the blkcompat release, one place for all of it.
 *
 * MODULE_VERSION() of blkcompat.ko, the DKMS package version (shims/dkms.conf)
 * and the project's VERSION (top-level Makefile) must agree; the shim test
 * suite checks that they do.
 */
#ifndef _BLKCOMPAT_VERSION_H
#define _BLKCOMPAT_VERSION_H

#define BLKCOMPAT_VERSION "0.1.0"

#endif /* _BLKCOMPAT_VERSION_H */
