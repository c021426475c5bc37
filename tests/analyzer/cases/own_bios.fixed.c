/*
 * A controller driver (2007-style RAID HBA) that ends the bios of a finished
 * command itself, adds the sectors to the disk's statistics, and then calls
 * only end_that_request_last.  When its loop ends every bio of the chain
 * whole with the final step's error, the loop's call and the accounting go
 * and one 2.6.25 call for blk_rq_bytes() does all three; otherwise a human
 * decides.
 */
#include <linux/blkdev.h>
#include <linux/genhd.h>
#include <linux/interrupt.h>

#define HBA_DBG(s) do { } while (0)

struct hba_cmd {
	struct request *rq;
	int status;
};

static DEFINE_SPINLOCK(hba_lock);
static struct request_queue *hba_q;
static int hba_free_cmds;

static inline void hba_end_bios(struct bio *bio, int status)
{
	while (bio) {
		struct bio *xbh = bio->bi_next;

		bio->bi_next = NULL;
		bio_endio(bio, status ? 0 : -EIO);
		bio = xbh;
	}
}

/* the same loop, spelled with the next pointer declared first */
static inline void hba_end_bios2(struct bio *bio, int ok)
{
	struct bio *next;

	while (bio) {
		next = bio->bi_next;
		bio->bi_next = NULL;
		bio_endio(bio, ok ? 0 : -EIO);
		bio = next;
	}
}

/* ends only the first bio: not the whole request */
static inline void hba_end_first(struct bio *bio, int ok)
{
	if (bio)
		bio_endio(bio, ok ? 0 : -EIO);
}

static void hba_note(struct hba_cmd *cmd);

/* softirq completion: the final step under the queue lock */
static void hba_softirq_done(struct request *rq)
{
	struct hba_cmd *cmd = rq->completion_data;
	unsigned long flags;

	add_disk_randomness(rq->rq_disk);
	spin_lock_irqsave(&hba_lock, flags);
	__blk_end_request(rq, rq->errors == 0 ? 0 : -EIO, blk_rq_bytes(rq));
	hba_free_cmds++;
	spin_unlock_irqrestore(&hba_lock, flags);
	cmd->rq = NULL;
}

/* called from the interrupt handler with the queue lock held */
static void hba_complete(struct hba_cmd *cmd, int timeout)
{
	struct request *rq = cmd->rq;
	int ok = 1;

	if (cmd->status || timeout)
		ok = 0;

	add_disk_randomness(rq->rq_disk);

	HBA_DBG(printk("done %p\n", rq););
	hba_note(cmd);
	__blk_end_request(rq, ok ? 0 : -EIO, blk_rq_bytes(rq));
}

/* the bios get the status, the request always ends well: one error cannot say both */
static void hba_complete_split(struct hba_cmd *cmd)
{
	struct request *rq = cmd->rq;
	int ok = cmd->status == 0;

	hba_end_bios2(rq->bio, ok);
	end_that_request_last(rq, 1);
}

/* a call between the loop and the final step may change rq->errors */
static void hba_complete_retry(struct hba_cmd *cmd)
{
	struct request *rq = cmd->rq;

	hba_end_bios(rq->bio, rq->errors == 0);
	hba_note(cmd);
	end_that_request_last(rq, rq->errors == 0);
}

/* only the first bio is ended */
static void hba_complete_first(struct hba_cmd *cmd)
{
	struct request *rq = cmd->rq;

	hba_end_first(rq->bio, 1);
	end_that_request_last(rq, 1);
}

static irqreturn_t hba_irq(int irq, void *data)
{
	struct hba_cmd *cmd = data;
	unsigned long flags;

	spin_lock_irqsave(&hba_lock, flags);
	hba_complete(cmd, 0);
	hba_complete_split(cmd);
	hba_complete_retry(cmd);
	hba_complete_first(cmd);
	spin_unlock_irqrestore(&hba_lock, flags);
	return IRQ_HANDLED;
}

static void hba_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL)
		blkdev_dequeue_request(rq);
}

static int hba_init(void)
{
	hba_q = blk_init_queue(hba_request, &hba_lock);
	blk_queue_softirq_done(hba_q, hba_softirq_done);
	return request_irq(5, hba_irq, 0, "hba", NULL);
}
module_init(hba_init);

/*
 * check-exit: 1
 * check-brief-start
 * own_bios.c:73:2 hba_softirq_done end_that_request_last auto last_only lock=held uptodate=boolean new=__blk_end_request(rq, rq->errors == 0 ? 0 : -EIO, blk_rq_bytes(rq))
 * own_bios.c:99:2 hba_complete end_that_request_last auto last_only lock=held uptodate=boolean new=__blk_end_request(rq, ok ? 0 : -EIO, blk_rq_bytes(rq))
 * own_bios.c:109:2 hba_complete_split end_that_request_last manual last_only lock=held uptodate=constant reason=last_may_have_data
 * own_bios.c:119:2 hba_complete_retry end_that_request_last manual last_only lock=held uptodate=boolean reason=last_may_have_data
 * own_bios.c:128:2 hba_complete_first end_that_request_last manual last_only lock=held uptodate=constant reason=last_may_have_data
 * check-brief-end
 */
