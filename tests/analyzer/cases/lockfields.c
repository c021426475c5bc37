/* Two structs with a field named `lock`: only the one given to blk_init_queue is the queue lock. */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

struct lf_host {
	spinlock_t lock;
	struct request *cur;
};

struct lf_port {
	spinlock_t lock;
	int busy;
};

static struct lf_host lf_h;
static struct lf_port lf_p;

static irqreturn_t lf_irq(int irq, void *data)
{
	struct lf_host *host = &lf_h;
	struct lf_port *port = &lf_p;

	spin_lock(&host->lock);
	end_request(host->cur, 1);
	spin_unlock(&host->lock);

	spin_lock(&port->lock);
	end_request(host->cur, 0);
	spin_unlock(&port->lock);
	return IRQ_HANDLED;
}

/* the lock reached through driver macros (cciss-style) */
#define LF_LOCKP(h) (&(h)->lock)
#define LF_LOCK(h) spin_lock(&(h)->lock)
#define LF_UNLOCK(h) spin_unlock(&(h)->lock)

static irqreturn_t lf_irq2(int irq, void *data)
{
	struct lf_host *host = &lf_h;
	unsigned long flags;

	spin_lock_irqsave(LF_LOCKP(host), flags);
	end_request(host->cur, 1);
	spin_unlock_irqrestore(LF_LOCKP(host), flags);
	LF_LOCK(host);
	end_request(host->cur, 1);
	LF_UNLOCK(host);
	return IRQ_HANDLED;
}

static void lf_request(struct request_queue *q)
{
}

static int lf_init(void)
{
	struct lf_host *host = &lf_h;

	blk_init_queue(lf_request, &host->lock);
	request_irq(8, lf_irq2, 0, "lf2", NULL);
	return request_irq(7, lf_irq, 0, "lf", NULL);
}

/*
 * check-exit: 0
 * check-brief-start
 * lockfields.c:24:2 lf_irq end_request auto end_request lock=held uptodate=constant new=__blk_end_request(host->cur, 0, blk_rq_cur_bytes(host->cur))
 * lockfields.c:28:2 lf_irq end_request auto end_request lock=not_held uptodate=constant new=blk_end_request(host->cur, -EIO, blk_rq_cur_bytes(host->cur))
 * lockfields.c:44:2 lf_irq2 end_request auto end_request lock=held uptodate=constant new=__blk_end_request(host->cur, 0, blk_rq_cur_bytes(host->cur))
 * lockfields.c:47:2 lf_irq2 end_request auto end_request lock=held uptodate=constant new=__blk_end_request(host->cur, 0, blk_rq_cur_bytes(host->cur))
 * check-brief-end
 */
