/*
 * A 2008 vendor driver, one file and no headers beside it, that makes its
 * interrupt handlers with macros.  Each completion helper is called only from
 * a handler a macro makes, under the queue lock, so its lock context rests on
 * finding that handler.  mdrv_irq_read's name is the macro's argument, spelled
 * in this file; mdrv_dma_irq's is pasted together, so nothing in the file spells
 * it: blkmig visits the whole file for it (parse/func_index.c).
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static spinlock_t mdrv_lock;
static struct request_queue *mdrv_queue;
static struct request *mdrv_cur;

static void mdrv_finish_read(struct request *rq)
{
	__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));
}

static void mdrv_finish_dma(struct request *rq)
{
	__blk_end_request(rq, 0, blk_rq_bytes(rq));
}

/* a handler for the read channel, named by the caller of the macro */
#define MDRV_READ_IRQ(name)						\
static irqreturn_t name(int irq, void *dev_id)				\
{									\
	unsigned long flags;						\
									\
	spin_lock_irqsave(&mdrv_lock, flags);				\
	if (mdrv_cur)							\
		mdrv_finish_read(mdrv_cur);				\
	mdrv_cur = NULL;						\
	spin_unlock_irqrestore(&mdrv_lock, flags);			\
	return IRQ_HANDLED;						\
}

/* mdrv_<chan>_irq, completing through mdrv_finish_<chan> */
#define MDRV_CHANNEL_IRQ(chan)						\
static irqreturn_t mdrv_##chan##_irq(int irq, void *dev_id)		\
{									\
	unsigned long flags;						\
									\
	spin_lock_irqsave(&mdrv_lock, flags);				\
	if (mdrv_cur)							\
		mdrv_finish_##chan(mdrv_cur);				\
	mdrv_cur = NULL;						\
	spin_unlock_irqrestore(&mdrv_lock, flags);			\
	return IRQ_HANDLED;						\
}

MDRV_READ_IRQ(mdrv_irq_read)
MDRV_CHANNEL_IRQ(dma)

static void mdrv_request(struct request_queue *q)
{
	mdrv_cur = elv_next_request(q);
	if (mdrv_cur)
		blkdev_dequeue_request(mdrv_cur);
}

static int __init mdrv_init(void)
{
	int err;

	spin_lock_init(&mdrv_lock);
	mdrv_queue = blk_init_queue(mdrv_request, &mdrv_lock);
	if (!mdrv_queue)
		return -ENOMEM;
	err = request_irq(10, mdrv_irq_read, 0, "mdrv", NULL);
	if (!err)
		err = request_irq(11, mdrv_dma_irq, 0, "mdrv-dma", NULL);
	return err;
}
module_init(mdrv_init);

/*
 * check-exit: 0
 * check-brief-start
 * macro_made.c:19:2 mdrv_finish_read end_request auto end_request lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_cur_bytes(rq))
 * macro_made.c:24:7 mdrv_finish_dma end_that_request_first auto first_last_held lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * macro_made.c:25:3 mdrv_finish_dma end_that_request_last auto first_last_held lock=held uptodate=constant
 * check-brief-end
 */
