/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkcompat/legacy/irq.h - interrupt names of 2.6.24 that 6.x dropped.
 *
 * IRQF_DISABLED asked to run the handler with interrupts off; since
 * 2.6.35 every handler runs so and the flag is gone, so it is 0 here.
 *
 * request_irq() and free_irq() of the view register the driver's handler
 * behind one of the shim's (shims/legacy_view_irq.c), which disables
 * interrupts again when the handler returns, as 2.6.24's
 * handle_IRQ_event() did after every handler: drivers of the time
 * (hd.c) enabled them inside their handlers, which 6.x warns about.
 */
#ifndef _BLKCOMPAT_LEGACY_IRQ_H
#define _BLKCOMPAT_LEGACY_IRQ_H

#include <linux/interrupt.h>

#ifndef IRQF_DISABLED
#define IRQF_DISABLED	0
#endif

int blkcompat_lv_request_irq(unsigned int irq, irq_handler_t handler,
			     unsigned long flags, const char *name, void *dev_id);
void blkcompat_lv_free_irq(unsigned int irq, void *dev_id);

#endif /* _BLKCOMPAT_LEGACY_IRQ_H */
