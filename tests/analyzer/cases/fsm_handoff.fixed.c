/*
 * A memory-card bridge run by a state machine from a tasklet and its
 * interrupt handler, both under the queue lock: one state moves the data
 * and completes each segment, the next state ends the request.  Nothing
 * else in the file touches the kept request, so the single 2.6.25 call in
 * the transfer state is exact (the final state's housekeeping and
 * end_that_request_last go).  A second bridge has a watchdog that reads the
 * request while the machine may be between the two states: left.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

enum { CFX_IDLE, CFX_SETUP, CFX_MOVE, CFX_FINISH };

struct cfx_host {
	spinlock_t lock;
	struct request_queue *q;
	struct request *cur;
	unsigned int phase;
	int more;
	char *buf;
	unsigned int left;
	struct tasklet_struct tl;
};

static void cfx_pio(struct cfx_host *h)
{
	h->left--;
}

static void cfx_step(struct cfx_host *h)
{
	struct request *rq;
	int secs;

	switch (h->phase) {
	case CFX_IDLE:
		rq = elv_next_request(h->q);
		if (!rq) {
			h->more = 0;
			break;
		}
		h->cur = rq;
		h->phase = CFX_SETUP;
		break;
	case CFX_SETUP:
		h->buf = h->cur->buffer;
		h->left = h->cur->current_nr_sectors;
		h->phase = CFX_MOVE;
		break;
	case CFX_MOVE:
		cfx_pio(h);
		if (h->left) {
			h->more = 0;
			break;
		}
		secs = h->cur->current_nr_sectors;
		if (__blk_end_request(h->cur, 0, secs << 9)) {
			h->buf = h->cur->buffer;
			h->left = h->cur->current_nr_sectors;
			break;
		}
		h->phase = CFX_FINISH;
		break;
	case CFX_FINISH:
		h->cur = NULL;
		h->phase = CFX_IDLE;
		break;
	}
}

static void cfx_run(unsigned long data)
{
	struct cfx_host *h = (struct cfx_host *)data;
	unsigned long flags;

	spin_lock_irqsave(&h->lock, flags);
	h->more = 1;
	while (h->more)
		cfx_step(h);
	spin_unlock_irqrestore(&h->lock, flags);
}

static irqreturn_t cfx_irq(int irq, void *dev_id)
{
	struct cfx_host *h = dev_id;

	spin_lock(&h->lock);
	h->more = 1;
	while (h->more)
		cfx_step(h);
	spin_unlock(&h->lock);
	return IRQ_HANDLED;
}

static void cfx_request(struct request_queue *q)
{
	struct cfx_host *h = q->queuedata;

	if (!h->cur)
		tasklet_schedule(&h->tl);
}

static int cfx_probe(struct cfx_host *h)
{
	h->q = blk_init_queue(cfx_request, &h->lock);
	tasklet_init(&h->tl, cfx_run, (unsigned long)h);
	return request_irq(5, cfx_irq, 0, "cfx", h);
}

/* the second bridge: its watchdog reads the request between the states */
struct cfy_host {
	spinlock_t lock;
	struct request *cur;
	int phase;
	unsigned long stalls;
};

static void cfy_step(struct cfy_host *h)
{
	switch (h->phase) {
	case 1:
		if (end_that_request_first(h->cur, 1, h->cur->current_nr_sectors))
			break;
		h->phase = 2;
		break;
	case 2:
		blkdev_dequeue_request(h->cur);
		end_that_request_last(h->cur, 1);
		h->cur = NULL;
		h->phase = 0;
		break;
	}
}

static void cfy_watchdog(unsigned long data)
{
	struct cfy_host *h = (struct cfy_host *)data;

	spin_lock(&h->lock);
	if (h->cur && h->cur->errors)
		h->stalls++;
	cfy_step(h);
	spin_unlock(&h->lock);
}

static void cfy_request(struct request_queue *q)
{
	cfy_step(q->queuedata);
}

static int cfy_probe(struct cfy_host *h, struct timer_list *t)
{
	setup_timer(t, cfy_watchdog, (unsigned long)h);
	return blk_init_queue(cfy_request, &h->lock) != NULL;
}

/*
 * check-exit: 1
 * check-brief-start
 * fsm_handoff.c:58:7 cfx_step end_that_request_first auto early_return lock=held uptodate=constant new=__blk_end_request(h->cur, 0, secs << 9)
 * fsm_handoff.c:68:3 cfx_step end_that_request_last auto early_return lock=held uptodate=constant
 * fsm_handoff.c:126:7 cfy_step end_that_request_first manual first_last_held lock=held uptodate=constant reason=shape
 * fsm_handoff.c:132:3 cfy_step end_that_request_last manual first_last_held lock=held uptodate=constant reason=shape
 * check-brief-end
 */
