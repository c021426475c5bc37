#!/usr/bin/env python3
"""tests/realtree/compile-db.py KBUILD_TREE REL_PATH... > compile_commands.json

A compilation database for the 2.6.24 tree, made from the gcc flags kbuild uses for each
file on x86_64 (compile-check.sh caches them in KBUILD_TREE/.blkmig-flags/REL.flags): one
entry per REL_PATH, in the form `bear` or CMake would write, so that `blkmig scan -p DIR`
is tried on the real tree as a user with a compile_commands.json would run it.
"""
import json
import os
import shlex
import sys

if len(sys.argv) < 3:
    sys.exit(__doc__.strip().splitlines()[0])
tree = os.path.abspath(sys.argv[1])
entries = []
for rel in sys.argv[2:]:
    flags_file = os.path.join(tree, '.blkmig-flags', rel + '.flags')
    try:
        flags = shlex.split(open(flags_file).read())
    except OSError as e:
        sys.exit('compile-db: no kbuild flags for %s (%s): run compile-check.sh first' % (rel, e))
    obj = rel[:-2] + '.o'
    entries.append({'directory': tree, 'file': rel,
                    'arguments': ['gcc'] + flags + ['-c', '-o', obj, rel]})
json.dump(entries, sys.stdout, indent=1)
print()
