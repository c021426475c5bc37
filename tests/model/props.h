/*
 * props.h - the property tests' shared types: one generated case (a world
 * plus the arguments the old code passes), the generator, the rules with
 * their preconditions.
 */
#ifndef PROPS_H
#define PROPS_H

#include <stdint.h>

#include "model.h"

/* the housekeeping the old code does before end_that_request_last */
enum m_hk { HK_NONE, HK_DEQUEUE, HK_END_TAG };

struct m_case {
	struct m_world w;
	int u;		   /* the old uptodate value */
	int n;		   /* a sector count the old code passes */
	int b;		   /* a byte count the old code passes */
	enum m_hk hk;	   /* housekeeping the old code does */
	bool noretry;	   /* scsi-style: the request may not be retried */
	bool strict;	   /* scsi-style: the kill-the-rest test also tests !uptodate */
	bool zero_datalen; /* ide-cd: the driver writes rq->data_len = 0 after the data part */
	int field;	   /* which field a statement between data part and final step reads */
};

/* the fields such a statement may read (c->field) */
enum { F_DISK, F_DATA_LEN, F_ERRORS, F_SECTOR, F_CUR, F_NFIELDS };

struct m_rng {
	uint64_t s;
};

uint64_t m_rand(struct m_rng *r);
unsigned int m_below(struct m_rng *r, unsigned int n); /* 0..n-1 */
void m_generate(struct m_rng *r, struct m_case *c);

struct m_pre {
	const char *name;
	bool (*ok)(const struct m_case *c);
};

#define M_MAX_PRE 8

struct m_rule {
	const char *name;
	const char *old_text, *new_text;
	int (*old_code)(struct m_case *c); /* runs on c->w, returns the compared value */
	int (*new_code)(struct m_case *c);
	int cmp_flags;			     /* M_CMP_*: what is not compared, and why */
	const struct m_pre *pre[M_MAX_PRE];  /* each needed: dropping it finds a counterexample */
	const struct m_pre *free[M_MAX_PRE]; /* what a converter may check but is not needed */
};

/* facts.c: the model against known kernel behaviour; returns the failures */
int run_facts(void);

extern const struct m_rule m_rules[];
extern const int m_nrules;

#endif
