// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_view_irq.c - interrupt handlers of the legacy view.
 *
 * Owns request_irq() and free_irq() for drivers built with
 * <blkcompat/legacy/view.h>.  2.6.24's handle_IRQ_event() disabled
 * interrupts after every handler, so a handler could enable them (hd.c
 * does, to let the timer in while it transfers a sector) and return with
 * them on.  6.x expects a handler to return as it was called and warns
 * otherwise.  The view registers the driver's handler behind one of its
 * own, which calls it and disables interrupts again, as 2.6.24 did.
 */
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include "legacy_view.h"

/**
 * struct blkcompat_lv_irq - a driver's handler, registered through the view
 * @node: on blkcompat_lv_irqs
 * @irq: the interrupt line
 * @handler: the driver's handler
 * @dev_id: the driver's cookie, passed to @handler and to free_irq()
 */
struct blkcompat_lv_irq {
	struct list_head node;
	unsigned int irq;
	irq_handler_t handler;
	void *dev_id;
};

static LIST_HEAD(blkcompat_lv_irqs);
static DEFINE_MUTEX(blkcompat_lv_irqs_lock);

static irqreturn_t blkcompat_lv_irq_handler(int irq, void *data)
{
	struct blkcompat_lv_irq *li = data;
	irqreturn_t ret = li->handler(irq, li->dev_id);

	local_irq_disable();
	return ret;
}

/**
 * blkcompat_lv_request_irq - register an interrupt handler (2.6.24 request_irq)
 * @irq: the interrupt line
 * @handler: the driver's handler; it may enable interrupts
 * @flags: IRQF_* flags (IRQF_DISABLED is 0 in the view)
 * @name: the name in /proc/interrupts
 * @dev_id: the driver's cookie (may be %NULL unless the line is shared)
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int blkcompat_lv_request_irq(unsigned int irq, irq_handler_t handler,
			     unsigned long flags, const char *name, void *dev_id)
{
	struct blkcompat_lv_irq *li = kzalloc(sizeof(*li), GFP_KERNEL);
	int err;

	if (!li)
		return -ENOMEM;
	li->irq = irq;
	li->handler = handler;
	li->dev_id = dev_id;
	mutex_lock(&blkcompat_lv_irqs_lock);
	err = request_irq(irq, blkcompat_lv_irq_handler, flags, name, li);
	if (err)
		kfree(li);
	else
		list_add(&li->node, &blkcompat_lv_irqs);
	mutex_unlock(&blkcompat_lv_irqs_lock);
	return err;
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_request_irq, BLKCOMPAT);

/**
 * blkcompat_lv_free_irq - unregister a handler (2.6.24 free_irq)
 * @irq: the interrupt line
 * @dev_id: the cookie given to request_irq()
 *
 * Context: process context, may sleep.
 */
void blkcompat_lv_free_irq(unsigned int irq, void *dev_id)
{
	struct blkcompat_lv_irq *li, *found = NULL;

	mutex_lock(&blkcompat_lv_irqs_lock);
	list_for_each_entry(li, &blkcompat_lv_irqs, node) {
		if (li->irq == irq && li->dev_id == dev_id) {
			found = li;
			list_del(&li->node);
			break;
		}
	}
	mutex_unlock(&blkcompat_lv_irqs_lock);
	if (WARN(!found, "blkcompat: free_irq(%u) of a handler not registered\n",
		 irq))
		return;
	free_irq(irq, found);
	kfree(found);
}
EXPORT_SYMBOL_NS_GPL(blkcompat_lv_free_irq, BLKCOMPAT);
