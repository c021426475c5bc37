// SPDX-License-Identifier: GPL-2.0-only
/// Part of blk_end_request.cocci: patch mode, the rewrites of the wrapper
/// groups wrappers.cocci decided (after convert.cocci, whose new calls
/// already take `error`): each caller's argument converted, the tests on
/// the parameter flipped, the parameter renamed to error.
//
// Confidence: Moderate
// Copyright: (C) 2026 the blkmig authors.  GPLv2.
// URL: see cocci/README.md of blkmig
// Comments: not a semantic patch on its own: cocci/assemble.py inlines it
//  into cocci/blk_end_request.cocci.
// Options: --no-includes --include-headers
// Requires: 1.1.1

// Every caller's argument (a caller's own parameter of the group is
// renamed with it below).
@wrc depends on has_legacy && (patch)@
identifier g : script:python() { wr_callee(g) };
expression list es;
expression A;
position p : script:python(g, es, A) { wr_new_arg(p[0].current_element, g, wr_nargs(es), A) is not None };
@@
g(es, A@p, ...)

@script:python wrcv@
g << wrc.g;
es << wrc.es;
A << wrc.A;
p << wrc.p;
v;
@@
coccinelle.v = cocci.make_expr(wr_new_arg(p[0].current_element, g, wr_nargs(es), str(A)))

@depends on has_legacy && (patch)@
identifier wrc.g;
expression list wrc.es;
expression wrc.A;
position wrc.p;
expression wrcv.v;
@@
g(es,
- A@p
+ v
, ...)

// if (!uptodate) -> if (error) (wrappers.cocci allows ! only there)
@depends on has_legacy && (patch)@
identifier uv;
position p : script:python(uv) { wr_param(p[0].current_element, uv) };
statement S1, S2;
@@
(
if (
- !uv@p
+ error
 ) S1 else S2
|
if (
- !uv@p
+ error
 ) S1
|
while (
- !uv@p
+ error
 ) S1
)

// if (uptodate), while (uptodate) -> !error (a test in c ? a : b is left
// to the exact mapping: wrappers.cocci does not convert such a group)
@depends on has_legacy && (patch)@
identifier uv;
position p : script:python(uv) { wr_param(p[0].current_element, uv) };
statement S1, S2;
@@
(
if (
- uv@p
+ !error
 ) S1 else S2
|
if (
- uv@p
+ !error
 ) S1
|
while (
- uv@p
+ !error
 ) S1
)

// passed on to another wrapper of the group
@depends on has_legacy && (patch)@
identifier uv;
position p : script:python(uv) { wr_param(p[0].current_element, uv) };
@@
- uv@p
+ error

// the parameter itself
@depends on has_legacy && (patch)@
identifier fn;
identifier uv : script:python(fn) { wr_param(fn, uv) };
type T;
@@
fn(...,
 T
- uv
+ error
 , ...) { ... }
