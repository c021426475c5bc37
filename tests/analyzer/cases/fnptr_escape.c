/*
 * Issue 21: a function pointer that escapes keeps its callers unseen.  fe_read()'s
 * address goes to the static fe_handler, but fe_handler is also stored in a struct
 * member; fe_write()'s goes to fe_other, which is handed to a function of another
 * file; fe_seek()'s to fe_third, whose own address is taken; fe_stop()'s to fe_fourth,
 * whose address a file-scope initializer takes through a macro (no function body has
 * it, and the text names it only in the macro).  Anyone may call them,
 * with or without the queue lock: the 2.6.24 contract stands (__blk_end_request).
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

struct fe_ops {
	void (*done)(void);
};

static DEFINE_SPINLOCK(fe_lock);
static struct request_queue *fe_q;
static struct request *fe_cur;
static struct fe_ops fe_ops;
static void (*fe_handler)(void);
static void (*fe_other)(void);
static void (*fe_third)(void);
static void (**fe_where)(void);
static void (*fe_fourth)(void);
#define FE_FOURTH fe_fourth
static void (**fe_saved)(void) = &FE_FOURTH;
extern void fe_register(void (*fn)(void));

static void fe_read(void)
{
	end_request(fe_cur, 1);
}

static void fe_write(void)
{
	end_request(fe_cur, 1);
}

static void fe_seek(void)
{
	end_request(fe_cur, 1);
}

static void fe_stop(void)
{
	end_request(fe_cur, 0);
}

static void fe_request(struct request_queue *q)
{
	fe_cur = elv_next_request(q);
	fe_handler = fe_read;
	fe_ops.done = fe_handler;
	fe_other = &fe_write;
	fe_register(fe_other);
	fe_third = fe_seek;
	fe_where = &fe_third;
	fe_fourth = fe_stop;
}

static irqreturn_t fe_irq(int irq, void *d)
{
	if (fe_handler)
		fe_handler();
	if (fe_other)
		fe_other();
	if (fe_third)
		fe_third();
	if (fe_fourth)
		fe_fourth();
	return IRQ_HANDLED;
}

static int fe_init(void)
{
	fe_q = blk_init_queue(fe_request, &fe_lock);
	return request_irq(14, fe_irq, 0, "fe", NULL);
}

/*
 * check-exit: 0
 * check-brief-start
 * fnptr_escape.c:32:2 fe_read end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(fe_cur, 0, blk_rq_cur_bytes(fe_cur))
 * fnptr_escape.c:37:2 fe_write end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(fe_cur, 0, blk_rq_cur_bytes(fe_cur))
 * fnptr_escape.c:42:2 fe_seek end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(fe_cur, 0, blk_rq_cur_bytes(fe_cur))
 * fnptr_escape.c:47:2 fe_stop end_request auto end_request lock=unknown uptodate=constant new=__blk_end_request(fe_cur, -EIO, blk_rq_cur_bytes(fe_cur))
 * check-brief-end
 * check-text-start
 * fe_read has callers blkmig cannot see: used as a value at fnptr_escape.c:53
 * fe_write has callers blkmig cannot see: used as a value at fnptr_escape.c:55
 * fe_seek has callers blkmig cannot see: used as a value at fnptr_escape.c:57
 * fe_stop has callers blkmig cannot see: used as a value at fnptr_escape.c:59
 * check-text-end
 * check-text-absent-start
 * old_lock_bug_fixed
 * check-text-absent-end
 */
