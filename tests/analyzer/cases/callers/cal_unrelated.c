/* Names neither the completion helper nor a legacy call: never parsed. */
#include <linux/kernel.h>

static int cal_unrelated_count;

int cal_unrelated_bump(int by)
{
	cal_unrelated_count += by;
	return cal_unrelated_count;
}
