/*
 * A packet-command bridge whose interrupt handler moves data over several
 * interrupts: each interrupt completes what it moved (the result unused,
 * the request goes on), the DMA path completes everything at once and jumps
 * to the common end, and the end takes the queue lock itself around the
 * final step.  The data completions become blk_end_request_callback with a
 * callback that keeps the request from ending; the final step stays a
 * last-only call.  A second handler completes data under the queue lock and
 * ends the request elsewhere: no 2.6.25 call does that, left.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(pkb_lock);

struct pkb_port {
	struct request *active;
	int dma;
	unsigned int fifo;
	int (*handler)(struct pkb_port *);
};

static unsigned int pkb_fifo_count(struct pkb_port *p)
{
	return p->fifo;
}

static void pkb_pio(struct pkb_port *p, char *buf, unsigned int n)
{
	p->fifo -= n;
}

/* blk_end_request_callback: complete the data only, the request ends later */
static int pkb_intr_data_only_cb(struct request *rq)
{
	return 1;
}

/* one interrupt of a packet command */
static int pkb_intr(struct pkb_port *p)
{
	struct request *rq = p->active;
	unsigned long flags;
	unsigned int avail;

	if (p->dma) {
		blk_end_request_callback(rq, 0, rq->data_len,
					 pkb_intr_data_only_cb);
		rq->data_len = 0;
		goto finish;
	}
	avail = pkb_fifo_count(p);
	if (!avail)
		goto finish;
	while (avail > 0) {
		unsigned int n = rq->data_len;
		char *buf = rq->data;

		if (rq->bio) {
			buf = bio_data(rq->bio);
			n = rq->bio->bi_io_vec[rq->bio->bi_idx].bv_len;
		}
		if (n > avail)
			n = avail;
		pkb_pio(p, buf, n);
		avail -= n;
		rq->data_len -= n;
		if (rq->bio)
			blk_end_request_callback(rq, 0, n,
						 pkb_intr_data_only_cb);
		else
			rq->data += n;
	}
	p->handler = pkb_intr;
	return 1;

finish:
	spin_lock_irqsave(&pkb_lock, flags);
	__blk_end_request(rq, 0, blk_rq_bytes(rq));
	p->active = NULL;
	spin_unlock_irqrestore(&pkb_lock, flags);
	return 0;
}

static struct pkb_port pkb;

static void pkb_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	if (rq && !pkb.active) {
		pkb.active = rq;
		pkb.handler = pkb_intr;
	}
}

static irqreturn_t pkb_irq(int irq, void *dev_id)
{
	struct pkb_port *p = dev_id;

	if (p->handler)
		p->handler(p);
	return IRQ_HANDLED;
}

/* the second bridge completes data under the queue lock */
static void pkc_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);

	if (rq)
		end_that_request_chunk(rq, 1, rq->data_len);
}

static int pkb_init(void)
{
	blk_init_queue(pkb_request, &pkb_lock);
	blk_init_queue(pkc_request, &pkb_lock);
	return request_irq(14, pkb_irq, 0, "pkb", &pkb);
}

/*
 * check-exit: 1
 * check-brief-start
 * pio_dataonly.c:41:3 pkb_intr end_that_request_chunk auto callback lock=not_held uptodate=constant new=blk_end_request_callback(rq, 0, rq->data_len, pkb_intr_data_only_cb)
 * pio_dataonly.c:62:4 pkb_intr end_that_request_chunk auto callback lock=not_held uptodate=constant new=blk_end_request_callback(rq, 0, n, pkb_intr_data_only_cb)
 * pio_dataonly.c:72:2 pkb_intr end_that_request_last auto last_only lock=held uptodate=constant new=__blk_end_request(rq, 0, blk_rq_bytes(rq))
 * pio_dataonly.c:105:3 pkc_request end_that_request_chunk manual chunk lock=held uptodate=constant reason=shape
 * check-brief-end
 */
