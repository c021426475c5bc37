/*
 * legacy_parts.h - templates of a generated legacy (2.6.24) block driver.
 *
 * "@P" becomes the driver's prefix. The head always holds a request_fn completing with
 * end_request (registered by the tail with blk_init_queue); each file adds a few of the
 * patterns below, one per catalogue shape, in the ways our samples and tests use them.
 */
static const char legacy_head[] =
	"/*\n"
	" * @P.c - generated legacy block driver for the blkmig tree benchmark.\n"
	" */\n"
	"#include <linux/module.h>\n"
	"#include <linux/blkdev.h>\n"
	"#include <linux/spinlock.h>\n"
	"#include <linux/interrupt.h>\n"
	"#include <linux/genhd.h>\n"
	"#include <linux/errno.h>\n"
	"\n"
	"static DEFINE_SPINLOCK(@P_lock);\n"
	"static struct request_queue *@P_queue;\n"
	"static int @P_pending;\n"
	"\n"
	"static int @P_transfer(struct request *rq)\n"
	"{\n"
	"\tif (rq->sector + rq->current_nr_sectors > 2048)\n"
	"\t\treturn 0;\n"
	"\t@P_pending++;\n"
	"\treturn 1;\n"
	"}\n"
	"\n"
	"/* the queue lock is held here: blk_init_queue registered it */\n"
	"static void @P_request(struct request_queue *q)\n"
	"{\n"
	"\tstruct request *rq;\n"
	"\n"
	"\twhile ((rq = elv_next_request(q)) != NULL) {\n"
	"\t\tif (!blk_fs_request(rq)) {\n"
	"\t\t\tend_request(rq, 0);\n"
	"\t\t\tcontinue;\n"
	"\t\t}\n"
	"\t\tend_request(rq, @P_transfer(rq));\n"
	"\t}\n"
	"}\n"
	"\n";

static const char legacy_tail[] =
	"static int __init @P_init(void)\n"
	"{\n"
	"\t@P_queue = blk_init_queue(@P_request, &@P_lock);\n"
	"\tif (!@P_queue)\n"
	"\t\treturn -ENOMEM;\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"static void __exit @P_exit(void)\n"
	"{\n"
	"\tblk_cleanup_queue(@P_queue);\n"
	"}\n"
	"\n"
	"module_init(@P_init);\n"
	"module_exit(@P_exit);\n"
	"MODULE_LICENSE(\"GPL\");\n";

static const char *const legacy_patterns[] = {
	/* first/last with the lock held (interrupt handler takes it) */
	"static irqreturn_t @P_irq(int irq, void *dev_id)\n"
	"{\n"
	"\tstruct request *rq = dev_id;\n"
	"\tunsigned long flags;\n"
	"\n"
	"\tspin_lock_irqsave(&@P_lock, flags);\n"
	"\tif (!end_that_request_first(rq, 1, rq->current_nr_sectors)) {\n"
	"\t\tadd_disk_randomness(rq->rq_disk);\n"
	"\t\tblkdev_dequeue_request(rq);\n"
	"\t\tend_that_request_last(rq, 1);\n"
	"\t}\n"
	"\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"\treturn IRQ_HANDLED;\n"
	"}\n\n",

	/* lock taken only around dequeue/last */
	"static void @P_work_done(unsigned long data)\n"
	"{\n"
	"\tstruct request *rq = (struct request *)data;\n"
	"\tunsigned long flags;\n"
	"\tint err = @P_pending ? 0 : -EIO;\n"
	"\n"
	"\tif (!end_that_request_first(rq, err == 0, rq->hard_nr_sectors)) {\n"
	"\t\tspin_lock_irqsave(&@P_lock, flags);\n"
	"\t\tblkdev_dequeue_request(rq);\n"
	"\t\tend_that_request_last(rq, err == 0);\n"
	"\t\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"\t}\n"
	"}\n\n",

	/* chunked completion, failing the rest in a loop */
	"static void @P_fail_rest(unsigned long data)\n"
	"{\n"
	"\tstruct request *rq = (struct request *)data;\n"
	"\tunsigned long flags;\n"
	"\n"
	"\tspin_lock_irqsave(&@P_lock, flags);\n"
	"\twhile (end_that_request_chunk(rq, 0, 512))\n"
	"\t\t;\n"
	"\tblkdev_dequeue_request(rq);\n"
	"\tend_that_request_last(rq, 0);\n"
	"\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"}\n\n",

	/* early return */
	"static void @P_finish(unsigned long data)\n"
	"{\n"
	"\tstruct request *rq = (struct request *)data;\n"
	"\tunsigned long flags;\n"
	"\n"
	"\tspin_lock_irqsave(&@P_lock, flags);\n"
	"\tif (end_that_request_first(rq, 1, rq->nr_sectors)) {\n"
	"\t\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tblkdev_dequeue_request(rq);\n"
	"\tend_that_request_last(rq, 1);\n"
	"\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"}\n\n",

	/* whole request, result ignored */
	"static void @P_whole(unsigned long data)\n"
	"{\n"
	"\tstruct request *rq = (struct request *)data;\n"
	"\tunsigned long flags;\n"
	"\n"
	"\tspin_lock_irqsave(&@P_lock, flags);\n"
	"\tblkdev_dequeue_request(rq);\n"
	"\tend_that_request_first(rq, 0, rq->hard_nr_sectors);\n"
	"\tend_that_request_last(rq, 0);\n"
	"\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"}\n\n",

	/* a wrapper whose parameter is the uptodate value */
	"static void @P_end_io(struct request *rq, int uptodate)\n"
	"{\n"
	"\tif (!uptodate)\n"
	"\t\tprintk(KERN_ERR \"@P: I/O error\\n\");\n"
	"\tif (!end_that_request_first(rq, uptodate, rq->hard_cur_sectors)) {\n"
	"\t\tblkdev_dequeue_request(rq);\n"
	"\t\tend_that_request_last(rq, uptodate);\n"
	"\t}\n"
	"}\n"
	"\n"
	"static void @P_timeout(unsigned long data)\n"
	"{\n"
	"\tstruct request *rq = (struct request *)data;\n"
	"\tunsigned long flags;\n"
	"\n"
	"\tspin_lock_irqsave(&@P_lock, flags);\n"
	"\t@P_end_io(rq, 0);\n"
	"\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"}\n\n",

	/* whole request already dequeued, from a timer */
	"static void @P_abort(unsigned long data)\n"
	"{\n"
	"\tstruct request *rq = (struct request *)data;\n"
	"\tunsigned long flags;\n"
	"\n"
	"\tspin_lock_irqsave(&@P_lock, flags);\n"
	"\tend_dequeued_request(rq, 0);\n"
	"\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"}\n\n",

	/* work between first and last that only uses rq and globals */
	"static void @P_cb_done(unsigned long data)\n"
	"{\n"
	"\tstruct request *rq = (struct request *)data;\n"
	"\tunsigned long flags;\n"
	"\n"
	"\tif (end_that_request_first(rq, 1, rq->nr_sectors))\n"
	"\t\treturn;\n"
	"\t@P_pending--;\n"
	"\tspin_lock_irqsave(&@P_lock, flags);\n"
	"\tend_that_request_last(rq, 1);\n"
	"\tspin_unlock_irqrestore(&@P_lock, flags);\n"
	"}\n\n",
};
#define NLEGACY_PATTERNS (sizeof(legacy_patterns) / sizeof(legacy_patterns[0]))
