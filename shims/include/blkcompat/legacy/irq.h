/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat/legacy/irq.h - interrupt names of 2.6.24 that 6.x dropped.
 *
 * IRQF_DISABLED asked to run the handler with interrupts off; since
 * 2.6.35 every handler runs so and the flag is gone, so it is 0 here.
 */
#ifndef _BLKCOMPAT_LEGACY_IRQ_H
#define _BLKCOMPAT_LEGACY_IRQ_H

#include <linux/interrupt.h>

#ifndef IRQF_DISABLED
#define IRQF_DISABLED	0
#endif

#endif /* _BLKCOMPAT_LEGACY_IRQ_H */
