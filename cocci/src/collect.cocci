// SPDX-License-Identifier: GPL-2.0-only
/// Part of blk_end_request.cocci: the facts of one file, collected in
/// every mode before anything changes: the token prefilter every rule depends
/// on, request functions and queue locks, calls and the lock state at each,
/// the legacy calls, pairs and the real shapes, the statements between a data
/// part and its final step, uptodate-style locals, and one decision per file.
//
// Confidence: Moderate
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: not a semantic patch on its own: cocci/assemble.py inlines it
//  into cocci/blk_end_request.cocci; its rules use the Python helpers of
//  decide.cocci.
// Options: --no-includes --include-headers
// Requires: 1.1.1

// ---------------------------------------------------------------------------
// 0. Token prefilter: every other rule depends on this one, so a file
//    without a legacy call is skipped and never touched.
// ---------------------------------------------------------------------------
@has_legacy@
position p;
@@
(
end_that_request_first@p(...)
|
end_that_request_chunk@p(...)
|
end_that_request_last@p(...)
|
end_request@p(...)
|
end_queued_request@p(...)
|
end_dequeued_request@p(...)
)

@script:python@
p << has_legacy.p;
@@
reset_for(p[0].file)

// ---------------------------------------------------------------------------
// 1. Facts about the file: request_fns, queue locks, calls, lock state.
// ---------------------------------------------------------------------------
@rf depends on has_legacy@
identifier fn;
expression L;
position p;
@@
(
blk_init_queue@p(fn, L)
|
blk_init_queue_node@p(fn, L, ...)
)

@script:python@
fn << rf.fn;
L << rf.L;
p << rf.p;
@@
RQFN.setdefault(p[0].file, set()).add(fn)
QLOCK.setdefault(p[0].file, set()).add(norm(L))

// The identity of a lock field: the struct type it lives in and its name.
// Two spellings with the same identity are the same lock when the driver
// keeps one such struct per queue (the lock given to blk_init_queue).
@lid1 depends on has_legacy@
type T;
T *E;
identifier fld;
position p;
@@
E@p->fld

@script:python@
T << lid1.T;
E << lid1.E;
fld << lid1.fld;
@@
if str(T).startswith("struct "):
    LOCKID[norm("&%s->%s" % (E, fld))] = (norm(T), str(fld))

@lid2 depends on has_legacy@
type T;
T E;
identifier fld;
position p;
@@
E@p.fld

@script:python@
T << lid2.T;
E << lid2.E;
fld << lid2.fld;
@@
if str(T).startswith("struct "):
    LOCKID[norm("&%s.%s" % (E, fld))] = (norm(T), str(fld))

// A local pointer copied from the queue lock is the queue lock too.
@qa depends on has_legacy@
identifier X;
expression E;
position p;
@@
X@p = E->queue_lock

@script:python@
X << qa.X;
p << qa.p;
@@
QLOCK.setdefault(p[0].file, set()).add(norm(X))

@calls depends on has_legacy@
identifier fn;
position p;
@@
fn@p(...)

@script:python@
fn << calls.fn;
p << calls.p;
@@
FUNC_OF[key(p)] = p[0].current_element
CALLEE[key(p)] = fn
FUNCS_SEEN.add((p[0].file, p[0].current_element))
CALLS.setdefault((p[0].file, fn), []).append(key(p))
INTEREST_CACHE.clear()

// Calls reachable from the function entry without taking the queue lock.
@eu depends on has_legacy exists@
identifier f;
identifier fn : script:python() { interesting(fn) };
identifier lk =~ "^spin_lock(_irq|_irqsave|_bh)?$";
expression L : script:python() { is_qlock(L) };
position p;
@@
f(...) {
... when != lk(L, ...)
    when any
fn@p(...)
... when any
}

@script:python@
p << eu.p;
@@
EU.add(key(p))

// Calls reachable from the function entry without taking or releasing the
// queue lock: their lock state is the entry's (guards.cocci, issue 20 item 2).
@eu0 depends on has_legacy exists@
identifier f;
identifier fn : script:python() { interesting(fn) };
identifier lk =~ "^spin_(un)?lock(_irq|_irqsave|_irqrestore|_bh)?$";
expression L : script:python() { is_qlock(L) };
position p;
@@
f(...) {
... when != lk(L, ...)
    when any
fn@p(...)
... when any
}

@script:python@
p << eu0.p;
@@
EU0.add(key(p))

// Calls reachable from an unlock of the queue lock without a relock.
@au depends on has_legacy exists@
identifier fn : script:python() { interesting(fn) };
identifier lk =~ "^spin_lock(_irq|_irqsave|_bh)?$";
identifier ulk =~ "^spin_unlock(_irq|_irqrestore|_bh)?$";
expression L : script:python() { is_qlock(L) };
position p;
@@
ulk(L, ...);
... when != lk(L, ...)
    when any
fn@p(...)

@script:python@
p << au.p;
@@
AU.add(key(p))

// Calls reachable from a lock of the queue lock without an unlock.
@al depends on has_legacy exists@
identifier fn : script:python() { interesting(fn) };
identifier lk =~ "^spin_lock(_irq|_irqsave|_bh)?$";
identifier ulk =~ "^spin_unlock(_irq|_irqrestore|_bh)?$";
expression L : script:python() { is_qlock(L) };
position p;
@@
lk(L, ...);
... when != ulk(L, ...)
    when any
fn@p(...)

@script:python@
p << al.p;
@@
AL.add(key(p))

// Functions used other than by a direct call (function pointers, exports):
// their callers are unknown, so their entry lock state is unknown.
@ref depends on has_legacy@
identifier fn : script:python() { interesting(fn) };
position p;
@@
fn@p

@script:python@
fn << ref.fn;
p << ref.p;
@@
if key(p) not in FUNC_OF or norm(p[0].current_element) == "":
    NONCALL.add((p[0].file, fn))
elif key(p) not in CALL_KEYS():
    NONCALL.add((p[0].file, fn))

// Functions the kernel calls without the queue lock: interrupt handlers,
// timers, tasklets (a legacy call there that needs the lock is an old bug).
@async depends on has_legacy@
identifier fn;
expression E;
position p;
@@
(
request_irq(E, fn@p, ...)
|
setup_timer(E, fn@p, ...)
|
E.function = fn@p
|
E->function = fn@p
|
tasklet_init(E, fn@p, ...)
)

@script:python@
fn << async.fn;
p << async.p;
@@
ASYNC[(p[0].file, fn)] = "an interrupt handler (request_irq)" \
    if "request_irq" in open(p[0].file, errors="replace").read().splitlines()[int(p[0].line) - 1] \
    else "a timer or tasklet function"

// Parameters and locals of every function.
@prm depends on has_legacy@
identifier f, x;
type T;
position p;
@@
f@p(..., T x, ...) { ... }

@script:python@
f << prm.f;
x << prm.x;
p << prm.p;
@@
LOCALS.setdefault((p[0].file, f), set()).add(x)
PARAMS.add((p[0].file, f, x))

@lcl depends on has_legacy@
identifier x;
type T;
position p;
@@
(
T x@p;
|
T x@p = ...;
)

@script:python@
x << lcl.x;
p << lcl.p;
@@
LOCALS.setdefault((p[0].file, p[0].current_element), set()).add(x)

// ---------------------------------------------------------------------------
// 2. The legacy calls.
// ---------------------------------------------------------------------------
@lg3 depends on has_legacy@
identifier ln =~ "^end_that_request_(first|chunk)$";
expression R, U, N;
position p, pu;
@@
ln@p(R, U@pu, N)

@script:python@
ln << lg3.ln;
R << lg3.R;
U << lg3.U;
N << lg3.N;
p << lg3.p;
pu << lg3.pu;
@@
record_legacy(p, ln, R, U, N, pu)

@lg2 depends on has_legacy@
identifier ln =~ "^(end_that_request_last|end_request|end_queued_request|end_dequeued_request)$";
expression R, U;
position p, pu;
@@
ln@p(R, U@pu)

@script:python@
ln << lg2.ln;
R << lg2.R;
U << lg2.U;
p << lg2.p;
pu << lg2.pu;
@@
record_legacy(p, ln, R, U, None, pu)

// ---------------------------------------------------------------------------
// 3. Pairs: a data completion whose "all done" path reaches
//    end_that_request_last of the same request in the same function.
// ---------------------------------------------------------------------------
// if (!end_that_request_first(rq, u, n)) { ...; end_that_request_last(rq, u); ... }
// rq->data_len is the whole request (blk_rq_bytes) when rq is not a
// filesystem request (ide-cd: the else branch of if (blk_fs_request(rq))).
@nonfs depends on has_legacy@
expression R, U;
statement S;
position p;
@@
if (blk_fs_request(R)) S else { <... end_that_request_chunk@p(R, U, R->data_len) ...> }

@script:python@
p << nonfs.p;
@@
NONFS.add(key(p))

@s1 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N;
position p1, p2;
@@
if (!fst@p1(R, U, N)) {
  ...
  end_that_request_last@p2(R, U2);
  ...
}

@script:python@
p1 << s1.p1;
p2 << s1.p2;
U2 << s1.U2;
@@
record_pair(p1, p2, U2, "block", endkey(p1))

// if (end_that_request_first(rq, u, n)) return; ...; end_that_request_last(rq, u);
@s2 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N;
statement S;
position p1, p2, pw;
@@
if (fst@p1(R, U, N)) S@pw
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s2.p1;
p2 << s2.p2;
pw << s2.pw;
S << s2.S;
U2 << s2.U2;
@@
if is_exit(S):
    record_pair(p1, p2, U2, "exit", endkey(pw))

// while (end_that_request_chunk(rq, u, n)); ...; end_that_request_last(rq, u);
@s3 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N;
statement S;
position p1, p2, pw;
@@
while (fst@p1(R, U, N)) S@pw
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s3.p1;
p2 << s3.p2;
pw << s3.pw;
S << s3.S;
U2 << s3.U2;
@@
if norm(S) in (";", "{}"):
    record_pair(p1, p2, U2, "loop", endkey(pw))

// ret = end_that_request_first(...); ... if (!ret) { ... end_that_request_last(...); ... }
@s4a depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N, X;
position p1, p2;
@@
X = fst@p1(R, U, N);
... when != X
if (!X) {
  ...
  end_that_request_last@p2(R, U2);
  ...
}

@script:python@
p1 << s4a.p1;
p2 << s4a.p2;
U2 << s4a.U2;
@@
record_pair(p1, p2, U2, "var-block", endkey(p1))

// ret = end_that_request_first(...); if (ret) return; ... end_that_request_last(...);
@s4b depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N, X;
statement S;
position p1, p2, pw;
@@
X = fst@p1(R, U, N);
... when != X
if (X) S@pw
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s4b.p1;
p2 << s4b.p2;
pw << s4b.pw;
S << s4b.S;
U2 << s4b.U2;
@@
if is_exit(S):
    record_pair(p1, p2, U2, "var-exit", endkey(pw))

// while (ret) ret = end_that_request_chunk(...); ... end_that_request_last(...);
@s5 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N, X;
position p1, p2;
@@
while (X)
(
  X = fst@p1(R, U, N);
|
  { X = fst@p1(R, U, N); }
)
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s5.p1;
p2 << s5.p2;
U2 << s5.U2;
@@
record_pair(p1, p2, U2, "var-loop", endkey(p1))

// Part of the data, then a loop that ends the request (mmc):
// X = chunk(rq, 1, good_bytes); ... while (X) X = chunk(rq, 0, ...); ... last(rq, 0);
@s5p depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier fst2 =~ "^end_that_request_(first|chunk)$";
expression R, U, N, X, U3, N3;
position p0, p1;
@@
X = fst@p0(R, U, N);
...
while (X)
(
  X = fst2@p1(R, U3, N3);
|
  { X = fst2@p1(R, U3, N3); }
)

@script:python@
p0 << s5p.p0;
p1 << s5p.p1;
@@
if key(p0) != key(p1):
    PARTIAL.setdefault(key(p0), key(p1))
    DECISION.clear()
    PLAN.clear()

// Whole request with the result ignored or kept:
// [ret =] end_that_request_first(rq, u, rq->hard_nr_sectors); ... end_that_request_last(rq, u);
@s6 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N;
position p1, p2;
@@
fst@p1(R, U, N);
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s6.p1;
p2 << s6.p2;
U2 << s6.U2;
R << s6.R;
N << s6.N;
@@
if whole_request(LEGACY[key(p1)]["name"], N, R) or key(p1) in NONFS:
    record_pair(p1, p2, U2, "ignored", endkey(p1))

@s6b depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, U2, N, X;
position p1, p2;
@@
X = fst@p1(R, U, N);
...
end_that_request_last@p2(R, U2);

@script:python@
p1 << s6b.p1;
p2 << s6b.p2;
U2 << s6b.U2;
R << s6b.R;
N << s6b.N;
@@
if whole_request(LEGACY[key(p1)]["name"], N, R) or key(p1) in NONFS:
    record_pair(p1, p2, U2, "var-whole", endkey(p1))

// The queue lock taken only around end_that_request_last of a pair.
@ar depends on has_legacy@
identifier lk =~ "^spin_lock(_irq|_irqsave|_bh)?$";
identifier ulk =~ "^spin_unlock(_irq|_irqrestore|_bh)?$";
expression L : script:python() { is_qlock(L) };
expression R, U;
position pl, pu, p2;
@@
lk@pl(L, ...);
...
end_that_request_last@p2(R, U);
ulk@pu(L, ...);

@script:python@
lk << ar.lk;
ulk << ar.ulk;
pl << ar.pl;
pu << ar.pu;
p2 << ar.p2;
@@
if key(p2) in P2 and lock_pair_matches(lk, ulk) and \
        before(PAIRS[P2[key(p2)]]["wstart"], key(pl)):
    AROUND[key(p2)] = {"lock": key(pl), "lock_end": endkey(pl), "unlock": key(pu)}

// Statements, declarations, parameters and locals of functions with pairs.
@st depends on has_legacy@
statement S;
position ps : script:python() { in_pair_func(ps) };
@@
S@ps

@script:python@
S << st.S;
ps << st.ps;
@@
record_stmt(ps, S, False)

@dc depends on has_legacy@
declaration D;
position pd : script:python() { in_pair_func(pd) };
@@
D@pd

@script:python@
D << dc.D;
pd << dc.pd;
@@
record_stmt(pd, D, True)

// ---------------------------------------------------------------------------
// 4. uptodate-style local variables that only feed the completion calls.
// ---------------------------------------------------------------------------
@vuse depends on has_legacy@
identifier uv : script:python() { is_var_name(uv) };
position p;
@@
uv@p

@script:python@
uv << vuse.uv;
p << vuse.p;
@@
var_event(p, uv, "use", None)

@vasg depends on has_legacy@
identifier uv : script:python() { is_var_name(uv) };
expression E;
position p;
@@
uv@p = E

@script:python@
uv << vasg.uv;
E << vasg.E;
p << vasg.p;
@@
var_event(p, uv, "assign", E)

// Writes other than `=` (their values are unknown): then the variable's
// values are not only those assigned to it (value ranges, decide.cocci).
@vmod depends on has_legacy@
identifier uv : script:python() { is_var_name(uv) };
expression E;
position p;
@@
(
uv@p++
|
uv@p--
|
 ++uv@p
|
 --uv@p
|
 &uv@p
|
uv@p += E
|
uv@p -= E
|
uv@p *= E
|
uv@p /= E
|
uv@p %= E
|
uv@p |= E
|
uv@p &= E
|
uv@p ^= E
|
uv@p <<= E
|
uv@p >>= E
)

@script:python@
uv << vmod.uv;
p << vmod.p;
@@
var_event(p, uv, "mod", None)

// Functions that already use the name error (no rename there).
@errid depends on has_legacy@
identifier e =~ "^error$";
position p;
@@
e@p

@script:python@
p << errid.p;
@@
ERROR_USED.add(p[0].current_element)

// All decisions, once per file, before anything changes.
// The scsi_end_request shape: data part with leftover and requeue, the
// final step under a lock taken around it.
@sl depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier fst2 =~ "^end_that_request_(first|chunk)$";
expression R, U, N, U2, LO, C, L, Q;
identifier fl;
statement S3;
position p1, p2, p3;
@@
if (fst@p1(R, U, N)) {
  ...
  if (C)
    fst2@p2(R, U2, LO);
  else S3
}
add_disk_randomness(R->rq_disk);
spin_lock_irqsave(L, fl);
? if (blk_rq_tagged(R)) blk_queue_end_tag(Q, R);
end_that_request_last@p3(R, U);
spin_unlock_irqrestore(L, fl);

@script:python@
p1 << sl.p1;
p2 << sl.p2;
p3 << sl.p3;
U2 << sl.U2;
C << sl.C;
S3 << sl.S3;
L << sl.L;
@@
LEFTOVER[key(p1)] = {"k2": key(p2), "k3": key(p3), "U2": str(U2),
                     "C": str(C), "S3": str(S3), "L": str(L)}
DECISION.clear()
PLAN.clear()

// The same without the branch that keeps the leftover (i2o_block).
@sl2 depends on has_legacy@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier fst2 =~ "^end_that_request_(first|chunk)$";
expression R, U, N, U2, LO, C;
position p1, p2, p3;
@@
if (fst@p1(R, U, N)) {
  ...
  if (C)
    fst2@p2(R, U2, LO);
}
...
end_that_request_last@p3(R, U);

@script:python@
p1 << sl2.p1;
p2 << sl2.p2;
p3 << sl2.p3;
U2 << sl2.U2;
C << sl2.C;
@@
LEFTOVER.setdefault(key(p1), {"k2": key(p2), "k3": key(p3), "U2": str(U2),
                              "C": str(C), "S3": "", "L": ""})
DECISION.clear()
PLAN.clear()

// The fields fact (decide.cocci, fields_scan), part (c): a call that passes
// an expression spatch knows to be a struct request * (the file's text scan
// knows only names declared so and the requests of the legacy calls).
@rqarg depends on has_legacy@
expression F;
expression list es;
struct request *R;
position p;
@@
F@p(es, R, ...)

@script:python@
F << rqarg.F;
es << rqarg.es;
R << rqarg.R;
p << rqarg.p;
@@
# after a string literal (a format): the variadic part of a printk-style call
RQARGS.setdefault(p[0].file, []).append(
    (int(p[0].line), str(F), str(R), chr(34) in str(es)))

@fin depends on has_legacy@
position p;
@@
(
end_that_request_first@p(...)
|
end_that_request_chunk@p(...)
|
end_that_request_last@p(...)
|
end_request@p(...)
|
end_queued_request@p(...)
|
end_dequeued_request@p(...)
)

@script:python@
p << fin.p;
@@
finalize(CURFILE[0])

