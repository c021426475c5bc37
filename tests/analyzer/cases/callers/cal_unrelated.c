/* Names cal_finish only here, in a comment, and in a string below: neither is a
 * caller, so the tree pass does not parse this file. */
#include <linux/kernel.h>

static int cal_unrelated_count;

int cal_unrelated_bump(int by)
{
	cal_unrelated_count += by;
	printk(KERN_DEBUG "cal_finish is elsewhere: %d\n", cal_unrelated_count);
	return cal_unrelated_count;
}
