/*
 * Issue 22 point 1, one evaluation per call: a request argument that is a
 * macro of the file expanding to a call (CURRENT, as in amiflop, ataflop and
 * legacy/hd) would be evaluated twice by the new call (as the request and in
 * its byte count).  A call standing on its own line in a block becomes a C90
 * block that reads the request once into a local, the first of three names
 * that is no word of the file (here the first is a member's declaration,
 * so the second).  A plain request argument (the parameter r) stays as it
 * is, and so does a call that is the body of an if without braces.
 */
#include <linux/blkdev.h>

static struct request_queue *once_queue;
#define CURRENT elv_next_request(once_queue)

struct once_cmd {
	struct request *req;
	int errors;
};

static void once_fail(struct request *r)
{
	end_request(r, 0);
}

static void once_done(struct once_cmd *c)
{
	if (c->errors) {
		c->req = NULL;
		end_request(CURRENT, 0);
		return;
	}
	CURRENT->sector++;
#ifdef ONCE_DEBUG
	c->errors = 0;
#endif
	end_request(CURRENT, 1);
	if (!c->errors)
		end_request(CURRENT, 1);
}

static void once_request(struct request_queue *q)
{
	struct once_cmd c = { NULL, 0 };

	once_done(&c);
	once_fail(elv_next_request(q));
}
