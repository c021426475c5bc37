/*
 * props.c - the property tests: for every rule of rules.c, run the old and
 * the new code on two identical copies of many generated states that meet
 * all its preconditions and compare every observable (PASS RULE); for each
 * precondition, look for a state meeting all the others on which old and new
 * differ (PASS RULE/needs/PRE: the precondition is needed); for each
 * condition listed as free, check that enough of the states the rule passed
 * on violate it (PASS RULE/not-needed/PRE).  R1 checks E(u) itself; the M- tests
 * (facts.c) check the model against known kernel behaviour.
 *
 * MODEL_SEED=N sets the seed (printed first), MODEL_STATES=N the number of
 * states per test.  Lines starting with PASS/FAIL are the verdicts; the
 * indented lines after a FAIL are the seed and the counterexample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "props.h"

static uint64_t seed = 20261204;
static long nstates = 40000;
static int failures;

static uint64_t seed_for(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *p = a; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	for (const char *p = b; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return seed ^ h;
}

static void pass(const char *name, const char *what, long k)
{
	printf("PASS %s (%ld %s)\n", name, k, what);
}

static void fail_head(const char *name, const char *why)
{
	failures++;
	printf("FAIL %s: %s\n", name, why);
}

static bool meets(const struct m_rule *r, const struct m_case *c, int except)
{
	for (int i = 0; i < M_MAX_PRE && r->pre[i]; i++)
		if (i != except && !r->pre[i]->ok(c))
			return false;
	return true;
}

/* runs old and new on copies of c; 1 and the difference if they disagree */
static int differ(const struct m_rule *r, const struct m_case *c, struct m_case *a,
		  struct m_case *b, char *why, size_t n)
{
	int ra, rb;

	*a = *c;
	*b = *c;
	ra = r->old_code(a);
	rb = r->new_code(b);
	return m_compare(&a->w, ra, &b->w, rb, r->cmp_flags, why, n);
}

static void show(const struct m_rule *r, const struct m_case *c, const struct m_case *a,
		 const struct m_case *b, const char *test, long k)
{
	printf("  seed %llu (MODEL_SEED=%llu), test %s, state #%ld\n", (unsigned long long)seed,
	       (unsigned long long)seed, test, k);
	printf("  old: %s\n  new: %s\n", r->old_text, r->new_text);
	printf("  arguments: u %d, n %d, b %d, housekeeping %d, noretry %d, strict %d\n", c->u,
	       c->n, c->b, c->hk, c->noretry, c->strict);
	m_print_world(&c->w, "before");
	m_print_world(&a->w, "after old");
	m_print_world(&b->w, "after new");
}

static void run_rule(const struct m_rule *r)
{
	struct m_rng rng = {seed_for(r->name, "")};
	struct m_case c, a, b;
	long accepted = 0, tries = 0, unfree[M_MAX_PRE] = {0};
	char why[256], msg[512];

	while (accepted < nstates && tries < nstates * 400) {
		tries++;
		m_generate(&rng, &c);
		if (!meets(r, &c, -1))
			continue;
		accepted++;
		for (int i = 0; i < M_MAX_PRE && r->free[i]; i++)
			unfree[i] += !r->free[i]->ok(&c);
		if (differ(r, &c, &a, &b, why, sizeof(why))) {
			snprintf(msg, sizeof(msg), "old and new differ: %s", why);
			fail_head(r->name, msg);
			show(r, &c, &a, &b, r->name, accepted);
			return;
		}
	}
	if (accepted < nstates / 4) {
		snprintf(msg, sizeof(msg), "only %ld of %ld states met the preconditions", accepted,
			 tries);
		fail_head(r->name, msg);
		return;
	}
	pass(r->name, "states agree", accepted);
	for (int i = 0; i < M_MAX_PRE && r->free[i]; i++) {
		char name[256];

		snprintf(name, sizeof(name), "%s/not-needed/%s", r->name, r->free[i]->name);
		if (unfree[i] >= 100) {
			pass(name, "agreeing states violate it", unfree[i]);
		} else {
			snprintf(msg, sizeof(msg), "only %ld agreeing states violate it",
				 unfree[i]);
			fail_head(name, msg);
		}
	}
}

static void run_drop(const struct m_rule *r, int i)
{
	struct m_rng rng = {seed_for(r->name, r->pre[i]->name)};
	struct m_case c, a, b;
	long seen = 0, tries = 0;
	char name[256], why[256], msg[512];

	snprintf(name, sizeof(name), "%s/needs/%s", r->name, r->pre[i]->name);
	while (seen < nstates && tries < nstates * 400) {
		tries++;
		m_generate(&rng, &c);
		if (!meets(r, &c, i) || r->pre[i]->ok(&c))
			continue;
		seen++;
		if (differ(r, &c, &a, &b, why, sizeof(why))) {
			printf("PASS %s (counterexample at state %ld: %s)\n", name, seen, why);
			return;
		}
	}
	snprintf(msg, sizeof(msg),
		 "no counterexample in %ld states without it: the precondition is not needed",
		 seen);
	fail_head(name, msg);
	printf("  seed %llu (MODEL_SEED=%llu)\n", (unsigned long long)seed,
	       (unsigned long long)seed);
}

/* E(u), and what an end_io sees through each kernel's final step */
static void run_r1(void)
{
	static const int set[] = {1, 2, 0, -M_EIO, -M_ENOMEM, -M_EOPNOTSUPP};
	bool lossy_differs = false;
	char msg[256];

	for (int i = 0; i < 6; i++) {
		int u = set[i];
		struct m_world o, n;

		memset(&o, 0, sizeof(o));
		o.rq.type = M_SPECIAL;
		o.rq.bio = -1;
		o.rq.tag = -1;
		o.rq.list = M_ON_QUEUE;
		o.rq.has_end_io = true;
		o.lock_held = true;
		n = o;
		m_dequeue(&o);
		end_that_request_last(&o, u);
		__blk_end_request(&n, m_E(u), 0);
		if (m_error_of_uptodate(u) != m_E(u) || o.o.end_io_error != n.o.end_io_error ||
		    o.o.end_io_error != m_E(u)) {
			snprintf(msg, sizeof(msg),
				 "u %d: 2.6.24 end_io error %d, 2.6.25 %d, E(u) %d", u,
				 o.o.end_io_error, n.o.end_io_error, m_E(u));
			fail_head("R1-E(u)", msg);
			return;
		}
		/* the lossy spelling u ? 0 : -EIO */
		lossy_differs |= (u ? 0 : -M_EIO) != o.o.end_io_error;
	}
	pass("R1-E(u)", "uptodate values", 6);
	if (lossy_differs)
		pass("R1-E(u)/needs/negative-u-kept", "u where u ? 0 : -EIO differs, at least", 1);
	else
		fail_head("R1-E(u)/needs/negative-u-kept", "u ? 0 : -EIO agreed on every u");
}

int main(void)
{
	const char *s = getenv("MODEL_SEED"), *n = getenv("MODEL_STATES");

	if (s && *s)
		seed = strtoull(s, NULL, 0);
	if (n && *n)
		nstates = strtol(n, NULL, 0);
	if (nstates < 100)
		nstates = 100;
	printf("model: seed %llu, %ld states per test\n", (unsigned long long)seed, nstates);
	failures += run_facts();
	run_r1();
	for (int i = 0; i < m_nrules; i++) {
		run_rule(&m_rules[i]);
		for (int p = 0; p < M_MAX_PRE && m_rules[i].pre[p]; p++)
			run_drop(&m_rules[i], p);
	}
	printf("model: %d failure(s)\n", failures);
	return failures ? 1 : 0;
}
