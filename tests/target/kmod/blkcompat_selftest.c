// SPDX-License-Identifier: GPL-2.0
/*
 * blkcompat_selftest.c - kernel self-test of the blkcompat shim.
 *
 * A 10 MiB RAM disk /dev/bcselftest on a blk_init_queue() queue.  How a
 * request is completed depends on the 2 MiB region it falls in:
 *
 *   sectors     0-4095   in request_fn, __blk_end_request() per segment
 *   sectors  4096-8191   later, blk_end_request() per segment, from a work
 *                        item or (every second 32 KiB) from an hrtimer in
 *                        hard interrupt context
 *   sectors  8192-12287  from the work item with blk_end_request_callback()
 *                        for the whole request; the callback keeps every
 *                        second request, which a delayed work item ends
 *                        later with blk_end_request(rq, 0, 0)
 *   sectors 12288-16383  fails in request_fn, with an error that depends on
 *                        the 4 KiB block (see selftest_error_of())
 *   sectors 16384-20479  in request_fn with the 2.6.24 wrappers on the still
 *                        queued request: end_request() per segment, or
 *                        end_queued_request() for the whole request
 *                        (alternating every 32 KiB)
 *
 * Every return value is checked against what the 2.6.25 API promises
 * (1 while bytes remain, 0 once the request ended) and counted.  On load the
 * module drives I/O through all regions itself and prints
 * "blkcompat_selftest: N passed, M failed"; failures are named in
 * "blkcompat_selftest: FAIL ..." lines.  The counters stay readable as
 * read-only module parameters, and I/O from user space to the disk keeps
 * being checked the same way.
 */
#include <linux/module.h>
#include <linux/blkcompat.h>
#include <linux/bio.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <linux/wait.h>
#include <linux/hrtimer.h>

#define SELFTEST_NAME		"bcselftest"
#define SELFTEST_SECTORS	20480
#define REGION_SECTORS		4096
#define REGION_SYNC		0
#define REGION_LATER		1
#define REGION_CALLBACK		2
#define REGION_ERROR		3
#define REGION_OLD		4
#define SELFTEST_PAGES		4	/* pages per bio the module sends */

static int checks_passed;
module_param(checks_passed, int, 0444);
MODULE_PARM_DESC(checks_passed, "checks that held");
static int checks_failed;
module_param(checks_failed, int, 0444);
MODULE_PARM_DESC(checks_failed, "checks that failed");
static int cb_calls;
module_param(cb_calls, int, 0444);
MODULE_PARM_DESC(cb_calls, "blk_end_request_callback() callbacks run");
static int cb_kept;
module_param(cb_kept, int, 0444);
MODULE_PARM_DESC(cb_kept, "callbacks that returned non-zero (request kept)");
static int late_finished;
module_param(late_finished, int, 0444);
MODULE_PARM_DESC(late_finished, "kept requests ended later, with 0 bytes");

static DEFINE_SPINLOCK(selftest_lock);		/* the queue lock */
static DEFINE_SPINLOCK(selftest_count_lock);	/* the counters above */
static DECLARE_WAIT_QUEUE_HEAD(selftest_counted);
static LIST_HEAD(selftest_later);	/* for the work item; selftest_lock */
static LIST_HEAD(selftest_kept);	/* kept by the callback; same lock */
static LIST_HEAD(selftest_irq);		/* for the hrtimer; same lock */
static struct hrtimer selftest_irq_timer;
static struct request_queue *selftest_queue;
static struct gendisk *selftest_disk;
static int selftest_major;
static u8 *selftest_store;

static void selftest_work_fn(struct work_struct *work);
static DECLARE_WORK(selftest_work, selftest_work_fn);
static void selftest_late_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(selftest_late_work, selftest_late_fn);

static void selftest_count(int *counter)
{
	unsigned long flags;

	spin_lock_irqsave(&selftest_count_lock, flags);
	(*counter)++;
	spin_unlock_irqrestore(&selftest_count_lock, flags);
	wake_up_all(&selftest_counted);
}

static int selftest_read_count(int *counter)
{
	unsigned long flags;
	int value;

	spin_lock_irqsave(&selftest_count_lock, flags);
	value = *counter;
	spin_unlock_irqrestore(&selftest_count_lock, flags);
	return value;
}

#define selftest_check(cond, fmt, ...)					\
	do {								\
		if (cond) {						\
			selftest_count(&checks_passed);			\
		} else {						\
			selftest_count(&checks_failed);			\
			pr_err("blkcompat_selftest: FAIL " fmt "\n",	\
			       ##__VA_ARGS__);				\
		}							\
	} while (0)

static int selftest_region(struct request *rq)
{
	return blk_rq_pos(rq) / REGION_SECTORS;
}

/* Copy the current segment between the request and the store. */
static void selftest_copy_segment(struct request *rq)
{
	u8 *store = selftest_store + (blk_rq_pos(rq) << SECTOR_SHIFT);

	if (rq_data_dir(rq) == WRITE)
		memcpy(store, bio_data(rq->bio), blk_rq_cur_bytes(rq));
	else
		memcpy(bio_data(rq->bio), store, blk_rq_cur_bytes(rq));
}

/* Copy every segment without completing anything. */
static void selftest_copy_request(struct request *rq)
{
	u8 *store = selftest_store + (blk_rq_pos(rq) << SECTOR_SHIFT);
	struct req_iterator iter;
	struct bio_vec bvec;
	void *buf;

	rq_for_each_segment(bvec, rq, iter) {
		buf = bvec_kmap_local(&bvec);
		if (rq_data_dir(rq) == WRITE)
			memcpy(store, buf, bvec.bv_len);
		else
			memcpy(buf, store, bvec.bv_len);
		kunmap_local(buf);
		store += bvec.bv_len;
	}
}

/*
 * End @rq segment by segment with @end_fn, checking every return value.
 * Zero bytes must not end a request that still has data, nor fail it.
 */
static void selftest_end_by_segment(struct request *rq,
				    int (*end_fn)(struct request *, int,
						  unsigned int),
				    const char *name)
{
	unsigned int left = blk_rq_bytes(rq);
	unsigned int bytes;
	int ret;

	/* completes nothing: must neither end rq nor fail its first bio */
	ret = end_fn(rq, -EIO, 0);
	selftest_check(ret == 1,
		       "%s(rq, -EIO, 0) with %u bytes left returned %d",
		       name, left, ret);
	while (left) {
		bytes = blk_rq_cur_bytes(rq);
		selftest_copy_segment(rq);
		left -= bytes;
		ret = end_fn(rq, 0, bytes);
		selftest_check(ret == !!left,
			       "%s with %u bytes left after it returned %d",
			       name, left, ret);
	}
}

/* The error each 4 KiB block of the error region completes with. */
static int selftest_error_of(sector_t pos)
{
	switch ((pos >> 3) & 3) {
	case 0:
		return -EIO;
	case 1:
		return -ENOSPC;
	case 2:
		return 0;	/* 2.6.24 uptodate 0: means -EIO */
	default:
		return -ENODATA;	/* via end_dequeued_request() */
	}
}

/* Error region, lock held: the whole request fails. */
static void selftest_fail(struct request *rq)
{
	int error = selftest_error_of(blk_rq_pos(rq));
	int ret;

	if (error == -ENODATA) {
		end_dequeued_request(rq, error);
		return;
	}
	if (!error) {
		/* through the 2.6.24 API: uptodate 0 is an I/O error */
		ret = end_that_request_first(rq, error, blk_rq_sectors(rq));
		selftest_check(ret == 0, "end_that_request_first returned %d",
			       ret);
		if (!ret)
			end_that_request_last(rq, error);
		return;
	}
	ret = __blk_end_request(rq, error, blk_rq_bytes(rq));
	selftest_check(ret == 0, "__blk_end_request(rq, %d, all) returned %d",
		       error, ret);
}

/* Old region, lock held, @rq still queued: the 2.6.24 wrappers end it. */
static void selftest_old(struct request *rq)
{
	bool last;

	if ((blk_rq_pos(rq) >> 6) & 1) {
		selftest_copy_request(rq);
		end_queued_request(rq, 1);
		return;
	}
	do {
		last = blk_rq_cur_bytes(rq) == blk_rq_bytes(rq);
		selftest_copy_segment(rq);
		end_request(rq, 1);
	} while (!last);
}

static void selftest_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(rq) ||
		    blk_rq_pos(rq) + blk_rq_sectors(rq) > SELFTEST_SECTORS) {
			end_queued_request(rq, -EIO);
			continue;
		}
		if (selftest_region(rq) == REGION_OLD) {
			selftest_old(rq);
			continue;
		}
		blkdev_dequeue_request(rq);
		switch (selftest_region(rq)) {
		case REGION_SYNC:
			selftest_end_by_segment(rq, __blk_end_request,
						"__blk_end_request");
			break;
		case REGION_ERROR:
			selftest_fail(rq);
			break;
		case REGION_LATER:
			if ((blk_rq_pos(rq) >> 6) & 1) {
				list_add_tail(&rq->queuelist, &selftest_irq);
				hrtimer_start(&selftest_irq_timer,
					      ns_to_ktime(100 * NSEC_PER_USEC),
					      HRTIMER_MODE_REL_HARD);
				break;
			}
			fallthrough;
		default:
			list_add_tail(&rq->queuelist, &selftest_later);
			schedule_work(&selftest_work);
		}
	}
}

/* The callback: runs without the queue lock, after all data completed. */
static int selftest_cb(struct request *rq)
{
	int keep;

	/* called from a work item: not atomic unless the lock is held */
	selftest_check(preemptible(), "callback runs with the queue lock held");
	selftest_check(!rq->bio && !blk_rq_bytes(rq),
		       "callback runs with %u bytes not completed",
		       blk_rq_bytes(rq));
	selftest_count(&cb_calls);
	keep = selftest_read_count(&cb_calls) % 2 == 0;
	if (keep)
		selftest_count(&cb_kept);
	return keep;
}

static void selftest_callback_request(struct request *rq)
{
	unsigned long flags;
	int ret, kept_before = selftest_read_count(&cb_kept);

	selftest_copy_request(rq);
	ret = blk_end_request_callback(rq, 0, blk_rq_bytes(rq), selftest_cb);
	if (selftest_read_count(&cb_kept) != kept_before) {
		selftest_check(ret == 1,
			       "kept request: callback path returned %d", ret);
		spin_lock_irqsave(&selftest_lock, flags);
		list_add_tail(&rq->queuelist, &selftest_kept);
		spin_unlock_irqrestore(&selftest_lock, flags);
		schedule_delayed_work(&selftest_late_work, HZ / 50);
	} else {
		selftest_check(ret == 0, "callback path returned %d", ret);
	}
}

static void selftest_work_fn(struct work_struct *work)
{
	struct request *rq;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&selftest_lock, flags);
		rq = list_first_entry_or_null(&selftest_later, struct request,
					      queuelist);
		if (rq)
			list_del_init(&rq->queuelist);
		spin_unlock_irqrestore(&selftest_lock, flags);
		if (!rq)
			break;
		if (selftest_region(rq) == REGION_LATER)
			selftest_end_by_segment(rq, blk_end_request,
						"blk_end_request");
		else
			selftest_callback_request(rq);
	}
}

/* Hard interrupt context: end the queued requests with blk_end_request(). */
static enum hrtimer_restart selftest_irq_fn(struct hrtimer *timer)
{
	struct request *rq;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&selftest_lock, flags);
		rq = list_first_entry_or_null(&selftest_irq, struct request,
					      queuelist);
		if (rq)
			list_del_init(&rq->queuelist);
		spin_unlock_irqrestore(&selftest_lock, flags);
		if (!rq)
			break;
		selftest_check(in_hardirq(), "hrtimer completion not in hardirq");
		selftest_end_by_segment(rq, blk_end_request,
					"blk_end_request in hardirq");
	}
	return HRTIMER_NORESTART;
}

/* End the requests the callback kept: no data left, so 0 bytes end them. */
static void selftest_late_fn(struct work_struct *work)
{
	struct request *rq;
	unsigned long flags;
	int ret;

	for (;;) {
		spin_lock_irqsave(&selftest_lock, flags);
		rq = list_first_entry_or_null(&selftest_kept, struct request,
					      queuelist);
		if (rq)
			list_del_init(&rq->queuelist);
		spin_unlock_irqrestore(&selftest_lock, flags);
		if (!rq)
			break;
		ret = blk_end_request(rq, 0, 0);
		selftest_check(ret == 0,
			       "blk_end_request(rq, 0, 0) on a kept request returned %d",
			       ret);
		selftest_count(&late_finished);
	}
}

/* Send one bio of SELFTEST_PAGES pages; returns its errno. */
static int selftest_io(struct block_device *bdev, enum req_op op,
		       sector_t sector, struct page **pages)
{
	struct bio *bio;
	int i, err;

	bio = bio_alloc(bdev, SELFTEST_PAGES, op, GFP_KERNEL);
	bio->bi_iter.bi_sector = sector;
	for (i = 0; i < SELFTEST_PAGES; i++)
		__bio_add_page(bio, pages[i], PAGE_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* Write a pattern at @sector, read it back, compare. */
static void selftest_round_trip(struct block_device *bdev, sector_t sector,
				struct page **out, struct page **in)
{
	int i, err;

	for (i = 0; i < SELFTEST_PAGES; i++) {
		memset(page_address(out[i]), (int)(sector + i + 1), PAGE_SIZE);
		memset(page_address(in[i]), 0, PAGE_SIZE);
	}
	err = selftest_io(bdev, REQ_OP_WRITE, sector, out);
	selftest_check(!err, "write at sector %llu: %d",
		       (unsigned long long)sector, err);
	err = selftest_io(bdev, REQ_OP_READ, sector, in);
	selftest_check(!err, "read at sector %llu: %d",
		       (unsigned long long)sector, err);
	for (i = 0; i < SELFTEST_PAGES; i++)
		selftest_check(!memcmp(page_address(out[i]),
				       page_address(in[i]), PAGE_SIZE),
			       "data differs at sector %llu page %d",
			       (unsigned long long)sector, i);
}

/* Each 4 KiB block of the error region gives exactly its own error. */
static void selftest_errors(struct block_device *bdev, struct page **pages)
{
	sector_t sector = REGION_ERROR * REGION_SECTORS;
	struct bio *bio;
	int i, err, want;

	for (i = 0; i < 4; i++, sector += 8) {
		want = selftest_error_of(sector) ?: -EIO;
		bio = bio_alloc(bdev, 1, REQ_OP_READ, GFP_KERNEL);
		bio->bi_iter.bi_sector = sector;
		__bio_add_page(bio, pages[0], PAGE_SIZE, 0);
		err = submit_bio_wait(bio);
		bio_put(bio);
		selftest_check(err == want, "error block %d: got %d, want %d",
			       i, err, want);
	}
}

static void selftest_drive(void)
{
	struct page *out[SELFTEST_PAGES], *in[SELFTEST_PAGES];
	blkcompat_bdev_handle_t handle;
	struct block_device *bdev;
	int i, round, calls;

	for (i = 0; i < SELFTEST_PAGES; i++) {
		out[i] = alloc_page(GFP_KERNEL);
		in[i] = alloc_page(GFP_KERNEL);
		if (!out[i] || !in[i]) {
			selftest_check(false, "no memory for test pages");
			goto free;
		}
	}
	handle = blkcompat_bdev_open_rw(disk_devt(selftest_disk));
	if (IS_ERR(handle)) {
		selftest_check(false, "open: %ld", PTR_ERR(handle));
		goto free;
	}
	bdev = blkcompat_bdev_of(handle);

	for (round = 0; round < 4; round++) {
		selftest_round_trip(bdev, REGION_SYNC * REGION_SECTORS +
				    round * 64, out, in);
		selftest_round_trip(bdev, REGION_LATER * REGION_SECTORS +
				    round * 64, out, in);
		selftest_round_trip(bdev, REGION_CALLBACK * REGION_SECTORS +
				    round * 64, out, in);
		selftest_round_trip(bdev, REGION_OLD * REGION_SECTORS +
				    round * 64, out, in);
	}
	selftest_errors(bdev, out);

	/* kept requests end from the delayed work; wait for all of them */
	calls = selftest_read_count(&cb_calls);
	selftest_check(calls >= 8, "only %d callbacks for 8 requests", calls);
	wait_event_timeout(selftest_counted,
			   selftest_read_count(&late_finished) ==
			   selftest_read_count(&cb_kept), 5 * HZ);
	selftest_check(selftest_read_count(&cb_kept) > 0,
		       "no callback kept a request");
	selftest_check(selftest_read_count(&late_finished) ==
		       selftest_read_count(&cb_kept),
		       "%d kept requests but %d ended later",
		       selftest_read_count(&cb_kept),
		       selftest_read_count(&late_finished));
	blkcompat_bdev_close(handle);
free:
	for (i = 0; i < SELFTEST_PAGES; i++) {
		if (out[i])
			__free_page(out[i]);
		if (in[i])
			__free_page(in[i]);
	}
}

static const struct block_device_operations selftest_fops = {
	.owner = THIS_MODULE,
};

static int __init selftest_init(void)
{
	int err = -ENOMEM;

	hrtimer_init(&selftest_irq_timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_HARD);
	selftest_irq_timer.function = selftest_irq_fn;
	selftest_store = vzalloc(SELFTEST_SECTORS << SECTOR_SHIFT);
	if (!selftest_store)
		return -ENOMEM;
	selftest_major = register_blkdev(0, SELFTEST_NAME);
	if (selftest_major < 0) {
		err = selftest_major;
		goto free_store;
	}
	selftest_queue = blk_init_queue(selftest_request, &selftest_lock);
	if (!selftest_queue)
		goto unregister;
	selftest_disk = blkcompat_alloc_disk(selftest_queue, 1);
	if (!selftest_disk)
		goto cleanup_queue;
	selftest_disk->major = selftest_major;
	selftest_disk->first_minor = 0;
	selftest_disk->fops = &selftest_fops;
	strscpy(selftest_disk->disk_name, SELFTEST_NAME,
		sizeof(selftest_disk->disk_name));
	set_capacity(selftest_disk, SELFTEST_SECTORS);
	err = add_disk(selftest_disk);
	if (err)
		goto put_disk;

	selftest_drive();
	pr_info("blkcompat_selftest: %d passed, %d failed\n",
		selftest_read_count(&checks_passed),
		selftest_read_count(&checks_failed));
	return 0;

put_disk:
	put_disk(selftest_disk);
cleanup_queue:
	blk_cleanup_queue(selftest_queue);
unregister:
	unregister_blkdev(selftest_major, SELFTEST_NAME);
free_store:
	vfree(selftest_store);
	return err;
}

static void __exit selftest_exit(void)
{
	del_gendisk(selftest_disk);
	put_disk(selftest_disk);
	cancel_work_sync(&selftest_work);
	cancel_delayed_work_sync(&selftest_late_work);
	hrtimer_cancel(&selftest_irq_timer);
	blk_cleanup_queue(selftest_queue);
	unregister_blkdev(selftest_major, SELFTEST_NAME);
	vfree(selftest_store);
}

module_init(selftest_init);
module_exit(selftest_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("self-test of the blkcompat shim");
