// SPDX-License-Identifier: GPL-2.0-only
/// Part of blk_end_request.cocci: patch mode, the conversions (after
/// hoist.cocci and callbacks_gen.cocci): the statements moved into a
/// callback, the housekeeping the new calls do, the lock pair around the
/// final step, end_that_request_last, the leftover shape, the new calls,
/// wrappers, last-only calls and the rename of uptodate variables to error.
//
// Confidence: Moderate
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: not a semantic patch on its own: cocci/assemble.py inlines it
//  into cocci/blk_end_request.cocci; its rules inherit metavariables from
//  collect.cocci and ask decide.cocci.
// Options: --no-includes --include-headers
// Requires: 1.1.1

// ---------------------------------------------------------------------------
// 5. Patch mode: the conversions (continued).
// ---------------------------------------------------------------------------
// Work between the data part and the final step moves into a
// blk_end_request_callback callback: callbacks_gen.cocci (before this part)
// created the callback before the function; the statements go here.

@snapst depends on has_legacy && (patch)@
statement S;
position p : script:python() { in_pair_func(p) };
@@
S@p

@script:python@
p << snapst.p;
@@
snap(p, "#stmt")

@depends on has_legacy && (patch)@
statement S;
position p : script:python() { in_plan(p, "moved", "#stmt") };
@@
- S@p

// Housekeeping the new calls do themselves, the lock pair around the final
// step, and end_that_request_last itself.
@snaphk depends on has_legacy && (patch)@
identifier hk =~ "^(add_disk_randomness|blkdev_dequeue_request|blk_queue_end_tag)$";
position p;
@@
hk@p(...)

@script:python@
hk << snaphk.hk;
p << snaphk.p;
@@
snap(p, hk)

@depends on has_legacy && (patch)@
identifier hk =~ "^(add_disk_randomness|blkdev_dequeue_request|blk_queue_end_tag)$";
position p : script:python(hk) { in_plan(p, "hk", hk) };
@@
- hk@p(...);

@snaplk depends on has_legacy && (patch)@
identifier lk =~ "^spin_(un)?lock(_irq|_irqsave|_irqrestore|_bh)?$";
position p;
@@
lk@p(...)

@script:python@
lk << snaplk.lk;
p << snaplk.p;
@@
snap(p, lk)

@depends on has_legacy && (patch)@
identifier lk =~ "^spin_(un)?lock(_irq|_irqsave|_irqrestore|_bh)?$";
position p : script:python(lk) { in_plan(p, "locks", lk) };
@@
- lk@p(...);

@snaplast depends on has_legacy && (patch)@
position p;
@@
end_that_request_last@p(...)

@script:python@
p << snaplast.p;
@@
snap(p, "end_that_request_last")

@rmlast depends on has_legacy && (patch)@
position p : script:python() { in_plan(p, "lasts", "end_that_request_last") };
@@
- end_that_request_last@p(...);

// (a removed final step no longer counts in the ordinals of the later
// versions: a final step left after it keeps its own key)
@script:python@
p << rmlast.p;
@@
replaced(p, "end_that_request_last", orig_key(p, "end_that_request_last"))

// A flags variable only the removed irqsave/irqrestore pair used goes too.
@snapfl depends on has_legacy && (patch)@
identifier fl;
position p : script:python(fl) { flags_candidate(p, fl) };
@@
fl@p

@script:python@
fl << snapfl.fl;
p << snapfl.p;
@@
snap(p, "#flaguse:" + fl)

@depends on has_legacy && (patch)@
identifier fl;
type T;
position p : script:python(fl) { flags_unused(p, fl) };
@@
- T fl@p;

@depends on has_legacy && (patch)@
identifier fl;
type T;
expression E;
position p : script:python(fl) { flags_unused(p, fl) };
@@
- T fl@p = E;

// The leftover shape (matched again here: positions have moved).
@slt depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier fst2 =~ "^end_that_request_(first|chunk)$";
expression R, U, N, U2, LO, C, L, Q;
identifier fl;
statement S3;
position p : script:python() { leftover_func(p) };
@@
if (fst@p(R, U, N)) {
  ...
  if (C)
    fst2(R, U2, LO);
  else S3
}
add_disk_randomness(R->rq_disk);
spin_lock_irqsave(L, fl);
? if (blk_rq_tagged(R)) blk_queue_end_tag(Q, R);
end_that_request_last(R, U);
spin_unlock_irqrestore(L, fl);

@script:python sltv@
U << slt.U;
U2 << slt.U2;
e1;
e2;
@@
coccinelle.e1 = cocci.make_expr(err_value(U))
coccinelle.e2 = cocci.make_expr(err_value(U2))

@depends on has_legacy && (patch)@
identifier slt.fst, slt.fst2;
expression slt.R, slt.U, slt.N, slt.U2, slt.LO, slt.C, slt.L, slt.Q;
identifier slt.fl;
statement slt.S3;
position slt.p;
expression sltv.e1, sltv.e2;
@@
- if (fst@p(R, U, N)) {
+ if (blk_end_request(R, e1, N)) {
  ...
  if (C)
-   fst2(R, U2, LO);
+   blk_end_request(R, e2, LO);
  else S3
}
- add_disk_randomness(R->rq_disk);
- spin_lock_irqsave(L, fl);
- if (blk_rq_tagged(R)) blk_queue_end_tag(Q, R);
- end_that_request_last(R, U);
- spin_unlock_irqrestore(L, fl);

@depends on has_legacy && (patch)@
identifier slt.fl;
identifier fn;
type T;
@@
fn(...) {
  ... when != fl
- T fl;
  ... when != fl
}

// The data completion becomes the new call.
@snapfst depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapfst.fst;
p << snapfst.p;
@@
snap(p, fst)

@fst1 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, N;
position p : script:python(fst) { converted_shape(orig_key(p, fst)) == "ignored" };
@@
fst@p(R, U, N)

@script:python fst1v@
p << fst1.p;
fst << fst1.fst;
c;
@@
coccinelle.c = cocci.make_expr(new_call(orig_key(p, fst)))
replaced(p, fst, orig_key(p, fst))

@depends on has_legacy && (patch)@
identifier fst1.fst;
expression fst1.R, fst1.U, fst1.N;
position fst1.p;
expression fst1v.c;
@@
- fst@p(R, U, N);
+ c;

// The rule above re-parsed the file: the positions of the data completions
// left are taken again (a function with a whole-request completion and
// another pair would otherwise lose the second one's new call).
@snapfst2 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapfst2.fst;
p << snapfst2.p;
@@
snap(p, fst)

@fst2 depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
expression R, U, N;
position p : script:python(fst) { converted_shape(orig_key(p, fst)) not in (None, "ignored") };
@@
fst@p(R, U, N)

@script:python fst2v@
p << fst2.p;
fst << fst2.fst;
c;
@@
coccinelle.c = cocci.make_expr(new_call(orig_key(p, fst)))

@depends on has_legacy && (patch)@
identifier fst2.fst;
expression fst2.R, fst2.U, fst2.N;
position fst2.p;
expression fst2v.c;
@@
- fst@p(R, U, N)
+ c

// if (!__blk_end_request(...)) {} left by the removals -> a plain call.
@depends on has_legacy && (patch)@
identifier nf =~ "^(__blk_end_request|blk_end_request|blk_end_request_callback)$";
expression list es;
@@
- if (!nf(es)) {}
+ nf(es);

@depends on has_legacy && (patch)@
identifier X;
@@
- if (!X) {}

// "if (__blk_end_request(...)) return;" as the last statement of a function
// returning nothing is just the call.
@depends on has_legacy && (patch)@
identifier nf =~ "^(__blk_end_request|blk_end_request|blk_end_request_callback)$";
identifier f;
expression list es;
@@
void f(...) {
...
- if (nf(es))
-	return;
+ nf(es);
}

// end_request, end_queued_request, end_dequeued_request.
@snapwr depends on has_legacy && (patch)@
identifier w =~ "^(end_request|end_queued_request|end_dequeued_request)$";
position p;
@@
w@p(...)

@script:python@
w << snapwr.w;
p << snapwr.p;
@@
snap(p, w)

// ... whose request argument is a macro expanding to a call (CURRENT): the
// request read once into a local, in a block of its own (once_local()).
@wrb depends on has_legacy && (patch)@
identifier w =~ "^(end_request|end_queued_request|end_dequeued_request)$";
expression R, U;
position p : script:python(w, R) { site_ok(orig_key(p, w)) and once_local(orig_key(p, w), R) is not None };
@@
w@p(R, U);

@script:python wrbv@
p << wrb.p;
w << wrb.w;
R << wrb.R;
U << wrb.U;
e;
b;
nf;
lv;
@@
coccinelle.e = cocci.make_expr(E_of(orig_key(p, w), U))
coccinelle.b = cocci.make_expr(cur_bytes(CURFILE[0], once_local(orig_key(p, w), R)) if w == "end_request" else "blk_rq_bytes(%s)" % once_local(orig_key(p, w), R))
coccinelle.nf = cocci.make_ident(single_newfn(orig_key(p, w)))
coccinelle.lv = cocci.make_ident(once_local(orig_key(p, w), R))
replaced(p, w, orig_key(p, w))

@depends on has_legacy && (patch)@
identifier wrb.w;
expression wrb.R, wrb.U;
position wrb.p;
expression wrbv.e, wrbv.b;
identifier wrbv.nf, wrbv.lv;
@@
- w@p(R, U);
+ {
+ struct request *lv = R;
+
+ nf(lv, e, b);
+ }

@snapwr2 depends on has_legacy && (patch)@
identifier w =~ "^(end_request|end_queued_request|end_dequeued_request)$";
position p;
@@
w@p(...)

@script:python@
w << snapwr2.w;
p << snapwr2.p;
@@
snap(p, w)

@wr depends on has_legacy && (patch)@
identifier w =~ "^(end_request|end_queued_request|end_dequeued_request)$";
expression R, U;
position p : script:python(w) { site_ok(orig_key(p, w)) };
@@
w@p(R, U)

@script:python wrv@
p << wr.p;
w << wr.w;
R << wr.R;
U << wr.U;
e;
b;
nf;
@@
coccinelle.e = cocci.make_expr(E_of(orig_key(p, w), U))
coccinelle.b = cocci.make_expr(cur_bytes(CURFILE[0], R) if w == "end_request" else "blk_rq_bytes(%s)" % norm(R))
coccinelle.nf = cocci.make_ident(single_newfn(orig_key(p, w)))

@depends on has_legacy && (patch)@
identifier wr.w;
expression wr.R, wr.U;
position wr.p;
expression wrv.e, wrv.b;
identifier wrv.nf;
@@
- w@p(R, U)
+ nf(R, e, b)

// end_that_request_last alone (no data completion in its function): the
// housekeeping right before it goes, as the analyzer drops it (the final
// step of the new call adds the randomness and dequeues a request still
// queued itself, under the queue lock; nothing runs in between).  Twice:
// randomness and dequeue may both stand there.
@snapdq depends on has_legacy && (patch)@
position p;
@@
end_that_request_last@p(...)

@script:python@
p << snapdq.p;
@@
snap(p, "end_that_request_last")

@depends on has_legacy && (patch)@
expression R, U;
position p : script:python() { last_only_hk(p) };
@@
(
- blkdev_dequeue_request(R);
|
- add_disk_randomness(R->rq_disk);
)
  end_that_request_last@p(R, U);

@snapdq2 depends on has_legacy && (patch)@
position p;
@@
end_that_request_last@p(...)

@script:python@
p << snapdq2.p;
@@
snap(p, "end_that_request_last")

@depends on has_legacy && (patch)@
expression R, U;
position p : script:python() { last_only_hk(p) };
@@
(
- blkdev_dequeue_request(R);
|
- add_disk_randomness(R->rq_disk);
)
  end_that_request_last@p(R, U);

@snaplo depends on has_legacy && (patch)@
position p;
@@
end_that_request_last@p(...)

@script:python@
p << snaplo.p;
@@
snap(p, "end_that_request_last")

@lo depends on has_legacy && (patch)@
expression R, U;
position p : script:python() { site_ok(orig_key(p, "end_that_request_last")) };
@@
end_that_request_last@p(R, U)

@script:python lov@
p << lo.p;
R << lo.R;
U << lo.U;
e;
b;
nf;
@@
coccinelle.e = cocci.make_expr(E_of(orig_key(p, "end_that_request_last"), U))
coccinelle.b = cocci.make_expr("blk_rq_bytes(%s)" % norm(R))
coccinelle.nf = cocci.make_ident(single_newfn(orig_key(p, "end_that_request_last")))

@depends on has_legacy && (patch)@
expression lo.R, lo.U;
position lo.p;
expression lov.e, lov.b;
identifier lov.nf;
@@
- end_that_request_last@p(R, U)
+ nf(R, e, b)

// A converted uptodate variable now holds an error value: call it error.
@rn1 depends on has_legacy && (patch)@
identifier uv;
type T;
position p : script:python(uv) { renames(p, uv) };
@@
T uv@p;

@script:python rn1v@
uv << rn1.uv;
en;
@@
coccinelle.en = cocci.make_ident("error")

@depends on has_legacy && (patch)@
identifier rn1.uv;
type rn1.T;
position rn1.p;
identifier rn1v.en;
@@
T
- uv@p
+ en
;

@rn2 depends on has_legacy && (patch)@
identifier uv;
type T;
expression E;
position p : script:python(uv) { renames(p, uv) };
@@
T uv@p = E;

@script:python rn2v@
uv << rn2.uv;
en;
@@
coccinelle.en = cocci.make_ident("error")

@depends on has_legacy && (patch)@
identifier rn2.uv;
type rn2.T;
expression rn2.E;
position rn2.p;
identifier rn2v.en;
@@
T
- uv@p
+ en
= E;

@rn3 depends on has_legacy && (patch)@
identifier uv;
position p : script:python(uv) { renames(p, uv) };
@@
uv@p

@script:python rn3v@
uv << rn3.uv;
en;
@@
coccinelle.en = cocci.make_ident("error")

@depends on has_legacy && (patch)@
identifier rn3.uv;
position rn3.p;
identifier rn3v.en;
@@
- uv@p
+ en

// end_io_error(u) was (unlikely((u) <= 0)) and is gone in 2.6.25: spelled
// out where it stands, in a file this patch converts (not in a macro body,
// which spatch does not see: a driver's own definition of it stays).
@depends on has_legacy && (patch)@
expression U;
position p : script:python() { end_io_error_ok(p) };
@@
- end_io_error@p(U)
+ unlikely((U) <= 0)

