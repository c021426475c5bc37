/*
 * Issue 21: fnptr_parse_error.c with the names hd.c takes from <linux/hdreg.h>,
 * <linux/major.h> and <linux/init.h> (WIN_READ, HD_IRQ, HD_MAJOR, __setup): the
 * built-in model declares them, so a copy of hd.c parsed without the kernel tree
 * parses whole, the address of fh_read() is followed through fh_out() into
 * fh_handler, and its only caller is the interrupt handler (blk_end_request).
 */
#include <linux/blkdev.h>
#include <linux/hdreg.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/major.h>

static DEFINE_SPINLOCK(fh_lock);
static struct request_queue *fh_q;
static struct request *fh_cur;
static void (*fh_handler)(void);

static void fh_out(int cmd, void (*intr)(void))
{
	fh_handler = intr;
}

static void fh_read(void)
{
	end_request(fh_cur, 1);
}

static void fh_request(struct request_queue *q)
{
	fh_cur = elv_next_request(q);
	if (fh_cur)
		fh_out(WIN_READ, &fh_read);
}

static irqreturn_t fh_irq(int irq, void *d)
{
	if (fh_handler)
		fh_handler();
	return IRQ_HANDLED;
}

static int fh_setup(char *s)
{
	return HD_MAJOR;
}
__setup("fh=", fh_setup);

static int fh_init(void)
{
	fh_q = blk_init_queue(fh_request, &fh_lock);
	return request_irq(HD_IRQ, fh_irq, 0, "fh", NULL);
}

/*
 * check-exit: 0
 * check-brief-start
 * fnptr_hdreg.c:26:2 fh_read end_request auto end_request lock=not_held uptodate=constant new=blk_end_request(fh_cur, 0, blk_rq_cur_bytes(fh_cur))
 * check-brief-end
 * check-text-start
 * fh_irq -> fh_read (interrupt handler registered with request_irq at fnptr_hdreg.c:52)
 * check-text-end
 * check-text-absent-start
 * parse error
 * check-text-absent-end
 */
