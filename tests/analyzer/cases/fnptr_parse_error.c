/*
 * Issue 21: a use of a function's address in a body that did not parse whole.
 * fpe_read()'s address goes to fpe_out()'s parameter, then to the static fpe_handler
 * that only the interrupt handler calls, as in fnptr_irq.c; but the call passing it
 * names an identifier no header declares (hd.c's WIN_READ without <linux/hdreg.h>),
 * so clang keeps only the pieces of that call, and blkmig cannot tell where the value
 * goes: fpe_read keeps its unseen callers (the 2.6.24 contract, __blk_end_request).
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(fpe_lock);
static struct request_queue *fpe_q;
static struct request *fpe_cur;
static void (*fpe_handler)(void);

static void fpe_out(int cmd, void (*intr)(void))
{
	fpe_handler = intr;
}

static void fpe_read(void)
{
	end_request(fpe_cur, 1);
}

static void fpe_request(struct request_queue *q)
{
	fpe_cur = elv_next_request(q);
	if (fpe_cur)
		fpe_out(FPE_UNDECLARED_CMD, &fpe_read);
}

static irqreturn_t fpe_irq(int irq, void *d)
{
	if (fpe_handler)
		fpe_handler();
	return IRQ_HANDLED;
}

static int fpe_init(void)
{
	fpe_q = blk_init_queue(fpe_request, &fpe_lock);
	return request_irq(14, fpe_irq, 0, "fpe", NULL);
}

/*
 * check-exit: 0
 * check-brief-start
 * fnptr_parse_error.c:24:2 fpe_read end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(fpe_cur, 0, fpe_cur->hard_cur_sectors << 9)
 * check-brief-end
 * check-text-start
 * fpe_read has callers blkmig cannot see: used as a value at fnptr_parse_error.c:31
 * check-text-end
 * check-text-absent-start
 * old_lock_bug_fixed
 * check-text-absent-end
 */
