/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <blkcompat/namespace.h> - the symbol namespace of blkcompat's exports.
 *
 * blkcompat exports generic old names (end_request(), blk_init_queue(),
 * ...), so it exports them in the namespace BLKCOMPAT, written
 * EXPORT_SYMBOL_NS_GPL(sym, BLKCOMPAT), and a module using them must
 * import it.  6.1 and 6.12 take the namespace as a bare identifier and
 * stringify it; from 6.13 on EXPORT_SYMBOL_NS_GPL() and MODULE_IMPORT_NS()
 * take a string literal, so there BLKCOMPAT is defined as that string.
 * The spelling in the sources stays the same on every kernel.
 */
#ifndef _BLKCOMPAT_NAMESPACE_H
#define _BLKCOMPAT_NAMESPACE_H

#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define BLKCOMPAT "BLKCOMPAT"
#endif

#endif /* _BLKCOMPAT_NAMESPACE_H */
