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
// Where the field's type is known (2.6.24's struct request and struct
// gendisk: HOIST_TYPES) the local is declared with the function's other
// declarations, as the analyzer does (void *saved_private_data; ...
// saved_private_data = req->rq_disk->private_data;): no declaration among
// the statements.  spatch reads no kernel header (--no-includes): a read of
// a field not in HOIST_TYPES is not hoisted (decide.cocci leaves the site,
// "hoist that read before the call by hand"), as the analyzer leaves one
// whose type clang cannot spell.
@initialize:python@
@@
# field -> type, for reads R->field (struct request) and R->rq_disk->field
# (struct gendisk) of Linux 2.6.24
HOIST_TYPES = {
    "request": {"rq_disk": "struct gendisk *", "q": "struct request_queue *",
                "special": "void *", "end_io_data": "void *", "sense": "void *",
                "buffer": "char *", "data": "void *", "errors": "int",
                "bio": "struct bio *", "completion_data": "void *",
                "sector": "sector_t", "hard_sector": "sector_t",
                "nr_sectors": "unsigned long", "hard_nr_sectors": "unsigned long",
                "current_nr_sectors": "unsigned int",
                "hard_cur_sectors": "unsigned int", "data_len": "unsigned int",
                "cmd_flags": "unsigned int", "tag": "int",
                "start_time": "unsigned long"},
    "gendisk": {"private_data": "void *", "queue": "struct request_queue *",
                "major": "int", "first_minor": "int", "minors": "int"},
}


def hoist_type(e):
    """The declared type of the hoisted read e, or None (unknown)."""
    parts = re.split(r"->", norm(e))
    if len(parts) == 2:
        return HOIST_TYPES["request"].get(parts[1])
    if len(parts) == 3 and parts[1] == "rq_disk":
        return HOIST_TYPES["gendisk"].get(parts[2])
    return None


HOISTED = {}     # (file, function, local) -> its type, for the declaration


def hoist_typed(p1, e):
    t = hoist_type(e)
    if t is not None:
        HOISTED[(CURFILE[0], PAIRS[key(p1)]["func"], hoist_name(p1, e))] = t
    return t is not None


def hoisted_local(fn, v):
    return not failed() and (CURFILE[0], str(fn), str(v)) in HOISTED

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
position p1 : script:python(E, pe) { hoist_pair(p1) and hoist_name(p1, E) is not None and in_hoist_window(p1, pe) and hoist_typed(p1, E) };
identifier hzxv.v;
@@
+ v = E;
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
position p1 : script:python(E, pe) { hoist_pair(p1) and hoist_name(p1, E) is not None and in_hoist_window(p1, pe) and hoist_typed(p1, E) };
identifier hzbv.v;
@@
+ v = E;
  if (!fst@p1(R, U, N)) {
  <...
- E@pe
+ v
  ...>
  }

// The declarations of the typed hoisted locals, first in the function.
@hzd depends on has_legacy && (patch)@
identifier fn;
identifier v;
position p : script:python(v) { hoisted_local(p[0].current_element, v) };
@@
fn(...) {
<+... v@p ...+>
}

@script:python hzdv@
fn << hzd.fn;
v << hzd.v;
t;
@@
coccinelle.t = cocci.make_type(HOISTED[(CURFILE[0], str(fn), str(v))])

@depends on has_legacy && (patch)@
identifier hzd.fn, hzd.v;
type hzdv.t;
@@
fn(...) {
+ t v;
...
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
