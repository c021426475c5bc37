/* xw.h - the driver's shared declarations: the completion wrapper its files call */
#ifndef XW_H
#define XW_H

struct request;

extern struct request *xw_cur;
extern spinlock_t xw_lock;
void xw_end_request(struct request *rq, int uptodate);

#endif
