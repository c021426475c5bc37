#!/bin/bash
# tests/harden/bench.sh — `make bench-harden` (part of `make bench`): is the cost of one
# file linear in its sites and its size?  Generates, into build/bench/harden/:
#   sites-N.c   one driver function per site, N sites in one file (BENCH_SITES,
#               default "8000 16000 32000")
#   big.c       a ~20 MB file (BENCH_BIG_MB, default 20) with 3 sites
#   wrappers-N.c  N static wrappers, each with one caller (issue 25 item 9: the
#               wrapper fixpoint), and `migrate --patch` of it (one diff per file)
#   onefunc-N.c N sites in one function (BENCH_SHAPE_SITES, default "2000 8000 32000")
#   fix --patch of the wrappers, and scan of a tree of 10 x N files (tree-M/)
# For the shapes, per quadrupling of N the CPU time and peak RSS ratios: the goal is
# at most 5x for 4x the sites (linear).
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
gen_shape() { # gen_shape wrappers|onefunc N FILE
	python3 - "$1" "$2" "$3" <<'EOT'
import sys
shape, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w") as f:
    # both APIs declared and EIO defined: the converted file parses as well as the
    # original (output_guard.c refuses a rewrite that parses worse)
    f.write("struct request;\nvoid end_request(struct request *rq, int uptodate);\n"
            "int __blk_end_request(struct request *rq, int error, unsigned int nr_bytes);\n"
            "int blk_end_request(struct request *rq, int error, unsigned int nr_bytes);\n"
            "unsigned int blk_rq_cur_bytes(struct request *rq);\n#define EIO 5\n")
    if shape == "wrappers":
        for i in range(n):
            f.write("static void w_%d(struct request *rq, int up)\n{\n\tend_request(rq, up);\n}\n"
                    "void c_%d(struct request *rq, int ok)\n{\n\tw_%d(rq, ok ? 1 : 0);\n}\n"
                    % (i, i, i))
    else:
        f.write("void done(struct request *rq, int ok)\n{\n")
        for i in range(n):
            f.write("\tif (ok == %d)\n\t\tend_request(rq, 1);\n" % i)
        f.write("}\n")
EOT
}
measure_cpu() { # measure_cpu LABEL CMD...: "LABEL CPU s RSS MB exit", CPU/RSS in $OUT/last
	local label=$1 rc
	shift
	$TIME -f '%U %S %M' -o "$OUT/time.txt" "$@" >"$OUT/out.txt" 2>&1; rc=$?
	read -r u s rss < <(tail -n 1 "$OUT/time.txt") # (after "Command exited ...")
	cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
	printf '%-18s %8s s cpu %7d MB  exit %s\n' "$label" "$cpu" "$((rss / 1024))" "$rc"
	echo "$cpu $rss" >"$OUT/last"
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

# A tree of N one-function files without a legacy call, for scan's walk.
gen_tree() { # gen_tree N DIR
	python3 - "$1" "$2" <<'EOT'
import os, sys
n, d = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    sub = os.path.join(d, "d%03d" % (i % 200))
    os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, "f%d.c" % i), "w") as f:
        f.write("int f%d(void)\n{\n\treturn %d;\n}\n" % (i, i))
EOT
}

# The shapes of issue 25 item 9, CPU time (the machine may be loaded) and peak RSS:
# wrappers, one function, migrate --patch and fix --patch of the wrappers, and (files)
# scan of a tree of 10 x N files.
SHAPE_SITES=${BENCH_SHAPE_SITES:-2000 8000 32000}
for shape in wrappers onefunc patch fixpatch files; do
	first=
	for n in $SHAPE_SITES; do
		src=$shape
		case $shape in patch | fixpatch) src=wrappers ;; esac
		f=$OUT/shape-$src-$n.c
		if [ $shape = files ]; then
			f=$OUT/tree-$((10 * n))
			[ -d "$f" ] || gen_tree $((10 * n)) "$f"
		else
			[ -s "$f" ] || gen_shape "$src" "$n" "$f"
		fi
		case $shape in
		patch) measure_cpu "$shape-$n" "$B" migrate -q --no-spatch --no-cache \
			--timeout 3600 --patch "$OUT/shape.patch" "$f" ;;
		fixpatch) measure_cpu "$shape-$n" "$B" fix -q --timeout 3600 \
			--patch "$OUT/shape.patch" "$f" ;;
		files) measure_cpu "$shape-$((10 * n))" "$B" scan -q "$f" ;;
		*) measure_cpu "$shape-$n" "$B" migrate -q --check --no-spatch --no-cache \
			--timeout 3600 "$f" ;;
		esac
		read -r cpu rss <"$OUT/last"
		if [ -z "$first" ]; then
			first="$n $cpu $rss"
		else
			read -r n0 c0 r0 <<<"$first"
			awk -v n0="$n0" -v n="$n" -v c0="$c0" -v c="$cpu" -v r0="$r0" -v r="$rss" \
				'BEGIN { r4 = c0 > 0 ? c / c0 : 0; printf "    x%.0f sites: cpu x%.1f, rss x%.1f (linear: x%.0f)\n", n / n0, r4, r / r0, n / n0 }'
		fi
	done
done
