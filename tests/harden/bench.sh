#!/bin/bash
# tests/harden/bench.sh — `make bench-harden` (part of `make bench`): is the cost of one
# file linear in its sites and its size?  Generates, into build/bench/harden/:
#   sites-N.c   one driver function per site, N sites in one file (BENCH_SITES,
#               default "8000 16000 32000")
#   big.c       a ~20 MB file (BENCH_BIG_MB, default 20) with 3 sites
# and measures `blkmig scan` and `blkmig migrate --check` on each (wall time and peak
# RSS from /usr/bin/time).  Prints one line per run, and per doubling of the sites the
# time ratio (2.0 is linear, 4.0 quadratic).  Numbers only; nothing here fails on speed.
set -u
TOP=${TOP:?}
BUILD=${BUILD:?}
B=${BLKMIG:-$BUILD/blkmig}
OUT=$BUILD/bench/harden
TIME=/usr/bin/time
SITES=${BENCH_SITES:-8000 16000 32000}
BIG_MB=${BENCH_BIG_MB:-20}
CMDS=${BENCH_CMDS:-scan migrate}
export BLKMIG_COCCI_DIR=${BLKMIG_COCCI_DIR:-$TOP/cocci}
mkdir -p "$OUT"

gen_sites() { # gen_sites N FILE
	python3 - "$1" "$2" <<'EOT'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as f:
    f.write("struct request;\nvoid end_request(struct request *rq, int uptodate);\n")
    for i in range(n):
        f.write("void done_%d(struct request *rq, int ok)\n{\n\tif (ok)\n"
                "\t\tend_request(rq, 1);\n}\n" % i)
EOT
}
gen_big() { # gen_big MB FILE: 3 sites, the rest ordinary code
	python3 - "$1" "$2" <<'EOT'
import sys
mb, path = int(sys.argv[1]), sys.argv[2]
body = "".join("static int helper_%d(int a)\n{\n\treturn a * %d + 1;\n}\n" % (i, i) for i in range(2000))
with open(path, "w") as f:
    f.write("struct request;\nvoid end_request(struct request *rq, int uptodate);\n")
    k = 0
    while f.tell() < mb * 1024 * 1024:
        f.write(body.replace("helper_", "helper_%d_" % k))
        if k < 3:
            f.write("void done_%d(struct request *rq)\n{\n\tend_request(rq, 1);\n}\n" % k)
        k += 1
EOT
}
measure() { # measure LABEL CMD...: one line "LABEL  CMD  WALL s  RSS MB  exit"
	local label=$1 rc
	shift
	$TIME -f '%e %M' -o "$OUT/time.txt" "$@" >"$OUT/out.txt" 2>&1; rc=$?
	read -r wall rss <"$OUT/time.txt"
	printf '%-14s %-8s %8.1f s %7d MB  exit %s\n' "$label" "$2" "$wall" "$((rss / 1024))" "$rc"
	echo "$wall" >"$OUT/last-wall"
}

for cmd in $CMDS; do
	prev=
	for n in $SITES; do
		f=$OUT/sites-$n.c
		[ -s "$f" ] || gen_sites "$n" "$f"
		case $cmd in
		scan) measure "sites-$n" "$B" scan -q --timeout 3600 --format brief "$f" ;;
		migrate) measure "sites-$n" "$B" migrate -q --check --timeout 3600 "$f" ;;
		esac
		w=$(cat "$OUT/last-wall")
		[ -n "$prev" ] && awk -v a="$prev" -v b="$w" 'BEGIN { if (a > 0) printf "    x2 sites: time x%.1f\n", b / a }'
		prev=$w
	done
	f=$OUT/big.c
	[ -s "$f" ] || gen_big "$BIG_MB" "$f"
	case $cmd in
	scan) measure "big-${BIG_MB}MB" "$B" scan -q --timeout 3600 --format brief "$f" ;;
	migrate) measure "big-${BIG_MB}MB" "$B" migrate -q --check --timeout 3600 "$f" ;;
	esac
done
