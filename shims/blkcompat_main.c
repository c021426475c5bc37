// SPDX-License-Identifier: GPL-2.0
/*
 * blkcompat_main.c - module identity of the blkcompat shim.
 *
 * The shim keeps no global state: every legacy queue carries its own
 * (struct blkcompat_queue), so loading needs no setup and unloading is
 * refused by the module loader while any driver using it is loaded.
 */
#include <linux/module.h>
#include <blkcompat/version.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("2.6.24/2.6.25 block API, request_fn queues on blk-mq");
MODULE_AUTHOR("blkmig");
MODULE_VERSION(BLKCOMPAT_VERSION);
