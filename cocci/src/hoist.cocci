// SPDX-License-Identifier: GPL-2.0-only
/// Part of blk_end_request.cocci: patch mode, the first rewrites, made while
/// the positions are still those of the original file: reads through the
/// request after the data completion hoisted into a local taken before the
/// new call, and the assignments of uptodate-style variables turned into
/// error values.
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
// 5. Patch mode: the conversions.
// ---------------------------------------------------------------------------
// Item 3: reads through the request after the data completion, which may
// now free it, are hoisted into a local taken before the call.  This is the
// first rewrite, so the positions are still those of the original file.
@hzx depends on has_legacy && (patch) exists@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier R;
expression U, N, E;
statement S;
position p1 : script:python() { hoist_pair(p1) };
position pe;
@@
if (fst@p1(R, U, N)) S
...
E@pe

@script:python hzxv@
p1 << hzx.p1;
E << hzx.E;
v;
@@
n = hoist_name(p1, E)
coccinelle.v = cocci.make_ident(n if n else "blkmig_unused")

@depends on has_legacy && (patch) exists@
identifier hzx.fst, hzx.R;
expression hzx.U, hzx.N, hzx.E;
statement hzx.S;
position hzx.pe;
position p1 : script:python(E, pe) { hoist_pair(p1) and hoist_name(p1, E) is not None and in_hoist_window(p1, pe) };
identifier hzxv.v;
@@
+ typeof(E) v = E;
  if (fst@p1(R, U, N)) S
  ...
- E@pe
+ v

@hzb depends on has_legacy && (patch) exists@
identifier fst =~ "^end_that_request_(first|chunk)$";
identifier R;
expression U, N, E;
position p1 : script:python() { hoist_pair(p1) };
position pe;
@@
if (!fst@p1(R, U, N)) { <+... E@pe ...+> }

@script:python hzbv@
p1 << hzb.p1;
E << hzb.E;
v;
@@
n = hoist_name(p1, E)
coccinelle.v = cocci.make_ident(n if n else "blkmig_unused")

@depends on has_legacy && (patch) exists@
identifier hzb.fst, hzb.R;
expression hzb.U, hzb.N, hzb.E;
position hzb.pe;
position p1 : script:python(E, pe) { hoist_pair(p1) and hoist_name(p1, E) is not None and in_hoist_window(p1, pe) };
identifier hzbv.v;
@@
+ typeof(E) v = E;
  if (!fst@p1(R, U, N)) {
  <...
- E@pe
+ v
  ...>
  }

// uptodate variables: assignments and initialisers take error values (the
// pattern x = E also matches the initialiser of a declaration).
@snapva depends on has_legacy && (patch)@
identifier uv : script:python() { is_var_name(uv) };
expression E;
position p;
@@
uv@p = E

@script:python@
uv << snapva.uv;
p << snapva.p;
@@
snap(p, "#asg:" + uv)

@vfix depends on has_legacy && (patch)@
identifier uv;
expression E;
position p : script:python(uv) { var_site_converts(p, "#asg:" + uv) };
@@
uv@p = E

@script:python vfixv@
E << vfix.E;
e;
@@
coccinelle.e = cocci.make_expr(assign_value(E))

@depends on has_legacy && (patch)@
identifier vfix.uv;
expression vfix.E;
position vfix.p;
expression vfixv.e;
@@
uv@p =
- E
+ e
