/*
 * Issue 21: calls through a file's own function pointer (drivers/ide/legacy/hd.c's
 * shape).  fp_read() and fp_recal() are never called by name: their addresses go to
 * the static pointer fp_handler, directly through a macro (FP_SET) and through the
 * parameter of fp_out(), and the interrupt handler calls a local copy of it.  Every
 * use is followed (stored, tested, copied, called), so their only caller is the
 * interrupt handler: no queue lock, and the old end_request there raced.
 * blk_end_request ends the race (old_lock_bug_fixed), the path named.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(fp_lock);
static struct request_queue *fp_q;
static struct request *fp_cur;
static void (*fp_handler)(void) = NULL;

#define FP_SET(x)                                                                                  \
	if ((fp_handler = (x)) != NULL)                                                            \
		fp_cur->errors = 0

static void fp_out(int cmd, void (*intr)(void))
{
	FP_SET(intr);
}

static void fp_read(void)
{
	end_request(fp_cur, 1);
	if (fp_cur->errors)
		FP_SET(&fp_read);
}

static void fp_recal(void)
{
	end_request(fp_cur, 0);
}

static void fp_nothing(void)
{
}

static void fp_request(struct request_queue *q)
{
	if (fp_handler)
		return;
	fp_cur = elv_next_request(q);
	if (fp_cur && fp_cur->errors)
		fp_out(1, &fp_recal);
	else if (fp_cur)
		fp_out(2, fp_read);
}

static irqreturn_t fp_irq(int irq, void *d)
{
	void (*handler)(void) = fp_handler;

	fp_handler = NULL;
	if (!handler)
		handler = fp_nothing;
	handler();
	return IRQ_HANDLED;
}

static int fp_init(void)
{
	fp_q = blk_init_queue(fp_request, &fp_lock);
	return request_irq(14, fp_irq, 0, "fp", NULL);
}

/*
 * check-exit: 0
 * check-brief-start
 * fnptr_irq.c:29:2 fp_read end_request auto end_request lock=not_held uptodate=constant new=blk_end_request(fp_cur, 0, blk_rq_cur_bytes(fp_cur))
 * fnptr_irq.c:36:2 fp_recal end_request auto end_request lock=not_held uptodate=constant new=blk_end_request(fp_cur, -EIO, blk_rq_cur_bytes(fp_cur))
 * check-brief-end
 * check-text-start
 * fp_irq -> fp_read (interrupt handler registered with request_irq at fnptr_irq.c:68)
 * fp_irq -> fp_recal (interrupt handler registered with request_irq at fnptr_irq.c:68)
 * old_lock_bug_fixed: end_request in fp_read() ran without the queue lock
 * fp_read's address goes only to function pointers of the file that blkmig follows (fp_read at fnptr_irq.c:31 into fp_handler, fp_read at fnptr_irq.c:51 into intr)
 * check-text-end
 * check-text-absent-start
 * callers blkmig cannot see
 * check-text-absent-end
 */
