/* The timer's end_request ran without the queue lock (an old race): spatch keeps
 * __blk_end_request, the analysis proves the lock is not held and takes its own
 * blk_end_request, which fixes the race.  The evidence cites lines after a pair the
 * conversion shrank: they must be this file's. */
#include <linux/blkdev.h>
#include <linux/timer.h>

static spinlock_t vr_lock;
static struct request *vr_cur;
static struct timer_list vr_timer;

static void vr_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!end_that_request_first(rq, 1, rq->nr_sectors)) {
			add_disk_randomness(rq->rq_disk);
			blkdev_dequeue_request(rq);
			end_that_request_last(rq, 1);
		}
	}
}

static void vr_times_out(unsigned long data)
{
	end_request(vr_cur, 0);
}

static int vr_init(void)
{
	blk_init_queue(vr_request, &vr_lock);
	setup_timer(&vr_timer, vr_times_out, 0);
	return 0;
}
