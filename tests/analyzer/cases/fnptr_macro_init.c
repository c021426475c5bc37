/*
 * Issue 24: the references outside every function body that fnptr.c follows
 * come from the parse child as plain data (parse/func_index.c), not from a
 * visit of the whole saved unit.  fx_stop()'s address goes to the static
 * fx_handler, which is only called; but a file-scope initializer names
 * fx_stop too, through a macro (the text names it only in the #define), so
 * anyone may call it: the 2.6.24 contract stands (__blk_end_request).
 * fx_read() has no such reference: its callers are fx_irq's call through
 * fx_handler, without the queue lock (blk_end_request).
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(fx_lock);
static struct request_queue *fx_q;
static struct request *fx_cur;
static void (*fx_handler)(void);
static void (*fx_other)(void);

static void fx_read(void)
{
	end_request(fx_cur, 1);
}

static void fx_stop(void)
{
	end_request(fx_cur, 0);
}

#define FX_LAST fx_stop
static void (*fx_saved)(void) = FX_LAST;

static void fx_request(struct request_queue *q)
{
	fx_cur = elv_next_request(q);
	fx_handler = fx_read;
	fx_other = fx_stop;
}

static irqreturn_t fx_irq(int irq, void *d)
{
	if (fx_handler)
		fx_handler();
	if (fx_other)
		fx_other();
	return IRQ_HANDLED;
}

static int fx_init(void)
{
	fx_q = blk_init_queue(fx_request, &fx_lock);
	return request_irq(14, fx_irq, 0, "fx", NULL);
}

/*
 * check-exit: 0
 * check-brief-start
 * fnptr_macro_init.c:22:2 fx_read end_request auto end_request lock=not_held uptodate=constant new=blk_end_request(fx_cur, 0, blk_rq_cur_bytes(fx_cur))
 * fnptr_macro_init.c:27:2 fx_stop end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(fx_cur, -EIO, blk_rq_cur_bytes(fx_cur))
 * check-brief-end
 * check-text-start
 * fx_stop has callers blkmig cannot see: used as a value at fnptr_macro_init.c:30
 * fx_read's address goes only to function pointers of the file that blkmig follows
 * check-text-end
 * check-text-absent-start
 * fx_stop's address goes only
 * check-text-absent-end
 */
