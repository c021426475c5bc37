/* The only caller of cal_finish, an interrupt handler: no queue lock. */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

void cal_finish(struct request *rq);

static struct request *cal_cur;

static irqreturn_t cal_irq(int irq, void *data)
{
	cal_finish(cal_cur);
	return IRQ_HANDLED;
}

int cal_setup(void)
{
	return request_irq(11, cal_irq, 0, "cal", NULL);
}
