/*
 * plain.c - migrate golden input: no block completion at all. The comment
 * mentions end_request() and a look-alike function exists; nothing changes.
 */
#include <linux/module.h>

struct plain_dev {
	int state;
};

static void plain_end_request(struct plain_dev *d, int ok)
{
	d->state = ok ? 0 : -5;
}

static const char *plain_name = "end_request";

int plain_done(struct plain_dev *d)
{
	plain_end_request(d, 1);
	return plain_name[0];
}
