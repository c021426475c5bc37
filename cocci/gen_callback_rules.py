#!/usr/bin/env python3
"""Prints the SmPL rules that emit blk_end_request_callback callbacks.

SmPL cannot splice a variable number of statements into new code, so
blk_end_request.cocci carries one rule per statement count (1..MAX_CB_STMTS).
This script regenerates that block in place (run it with the path of the
patch after changing the template); the generated text is committed inside
blk_end_request.cocci between the "BEGIN/END generated callback rules"
markers, so users need only the .cocci file.  Keep MAX_CB_STMTS in step
with the constant of the same name in the patch's Python helpers.
"""

MAX_CB_STMTS = 6


def rule(n):
    names = ", ".join("b%d" % i for i in range(1, n + 1))
    body = "".join("+\t%s\n" % ("b%d" % i) for i in range(1, n + 1))
    return f"""@snapcb{n} depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p;
@@
fst@p(...)

@script:python@
fst << snapcb{n}.fst;
p << snapcb{n}.p;
@@
snap(p, fst)

@cbmk{n} depends on has_legacy && (patch)@
identifier fst =~ "^end_that_request_(first|chunk)$";
position p : script:python(fst) {{ cb_count(orig_key(p, fst)) == {n} }};
@@
fst@p(...)

@script:python cbv{n}@
p << cbmk{n}.p;
fst << cbmk{n}.fst;
fn; cb; par; {names.replace(", ", "; ")};
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)
k1 = orig_key(p, fst)
coccinelle.cb = cocci.make_ident(cb_name_k(k1))
coccinelle.par = cocci.make_ident(norm(PAIRS[k1]["R"]))
stmts = PAIRS[k1]["cb"]
""" + "".join(f"coccinelle.b{i} = cocci.make_stmt(stmts[{i - 1}])\n"
              for i in range(1, n + 1)) + f"""
@depends on has_legacy && (patch)@
identifier cbv{n}.fn, cbv{n}.cb, cbv{n}.par;
statement cbv{n}.{names.replace(", ", ", cbv%d." % n)};
@@
+ static int cb(struct request *par)
+ {{
{body}+\treturn 0;
+ }}
+
  fn(...) {{ ... }}

"""


BEGIN = "// BEGIN generated callback rules (cocci/gen_callback_rules.py)\n"
END = "// END generated callback rules\n"


if __name__ == "__main__":
    import sys
    path = sys.argv[1]
    text = open(path).read()
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    gen = "".join(rule(n) for n in range(1, MAX_CB_STMTS + 1))
    new = head + BEGIN + gen + END + tail
    if new != text:
        open(path + ".tmp", "w").write(new)
        import os
        os.replace(path + ".tmp", path)
