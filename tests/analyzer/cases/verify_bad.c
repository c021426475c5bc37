/* Converted code with the wrong lock variants and a legacy call left. */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(vb_lock);
static struct request *vb_cur;

static void vb_finish(struct request *rq)
{
	blk_end_request(rq, 0, blk_rq_bytes(rq));
}

static void vb_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		vb_finish(rq);
		end_request(rq, 1);
	}
}

static irqreturn_t vb_irq(int irq, void *data)
{
	__blk_end_request(vb_cur, 0, blk_rq_bytes(vb_cur));
	return IRQ_HANDLED;
}

static int vb_init(void)
{
	blk_init_queue(vb_request, &vb_lock);
	return request_irq(1, vb_irq, 0, "vb", NULL);
}
module_init(vb_init);

/*
 * check-command: verify
 * check-exit: 1
 * check-brief-start
 * verify_bad.c:10:2 vb_finish unlocked_variant_with_lock_held
 * verify_bad.c:19:3 vb_request legacy_call
 * verify_bad.c:25:2 vb_irq locked_variant_without_lock
 * check-brief-end
 */
