#!/bin/bash
# tests/realtree/bench.sh — the real Linux 2.6.24 tree in `make bench` (bench-realtree).
#
# On the whole tree unpacked from the corpus (tests/realtree/prepare.sh, cached in build/),
# measures in one run, interleaved (tool order rotates each repetition, so a load spike on
# the shared machine does not hit one tool only):
#   grep        grep -rlE of the legacy names over the tree (the floor)
#   spatch1     spatch with a one-rule patch (end_request -> __blk_end_request), -j N
#   scan        blkmig scan -j N --kernel-tree
#   migrate     blkmig migrate --check -j N --kernel-tree
#   cocci       make cocci-convert TREE=<a fresh copy> (our semantic patches alone)
# Wall time and peak RSS from /usr/bin/time -v; medians over the repetitions; ratios
# against spatch1 and grep. Writes build/bench/realtree.json and prints a table.
#
# Environment: BENCH_REPS (3), BENCH_JOBS (2), BENCH_TOOLS (all five), BLKMIG.
set -u
TOP=${TOP:?}
BUILD=${BUILD:?}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
REPS=${BENCH_REPS:-3}
JOBS=${BENCH_JOBS:-2}
TOOLS=(${BENCH_TOOLS:-grep spatch1 scan migrate cocci})
OUT=$BUILD/bench
W=$OUT/realtree-work
TIME=/usr/bin/time
LEGACY_RE='end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request'

[ -x $TIME ] || { echo "bench-realtree: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }
command -v spatch >/dev/null || { echo "bench-realtree: spatch is missing (coccinelle)" >&2; exit 2; }
paths=$(nice -n 10 "$TOP/tests/realtree/prepare.sh" "$BUILD") || exit 2
TREE=$(sed -n 1p <<<"$paths")
mkdir -p "$OUT"
rm -rf "$W"
mkdir -p "$W"

cat >"$W/one-rule.cocci" <<'EOC'
// One rule, the cheapest conversion spatch can do: the reference cost of a spatch run.
@@
expression rq, u;
@@
- end_request(rq, u)
+ __blk_end_request(rq, u > 0 ? 0 : -EIO, blk_rq_cur_bytes(rq))
EOC

run_tool() { # run_tool NAME REP: one measured run, its time -v log in $W/NAME.REP.time
	local name=$1 rep=$2 log=$W/$1.$2.time copy
	case $name in
	grep) $TIME -v grep -rlE "$LEGACY_RE" "$TREE" >"$W/$name.out" 2>"$log" ;;
	spatch1) $TIME -v spatch --sp-file "$W/one-rule.cocci" --very-quiet -j "$JOBS" \
		--dir "$TREE" >"$W/$name.out" 2>"$log" ;;
	scan) (cd "$(dirname "$TREE")" && $TIME -v "$BLKMIG" scan -q -j "$JOBS" --format json \
		-o "$W/scan.json" --kernel-tree linux-2.6.24 linux-2.6.24) >"$W/$name.out" 2>"$log" ;;
	migrate) (cd "$(dirname "$TREE")" && $TIME -v "$BLKMIG" migrate --check -q -j "$JOBS" \
		--kernel-tree linux-2.6.24 linux-2.6.24) >"$W/$name.out" 2>"$log" ;;
	cocci)
		copy=$W/copy
		rm -rf "$copy"
		cp -a "$TREE" "$copy" && chmod -R u+w "$copy"
		$TIME -v make -s -C "$TOP" cocci-convert TREE="$copy" COCCI_JOBS="$JOBS" \
			>"$W/$name.out" 2>"$log"
		rm -rf "$copy" ;;
	esac
	echo "$name $rep $? $(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log") $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")" >>"$W/runs.txt"
	tail -n 1 "$W/runs.txt" | sed 's/^/bench-realtree: /'
}

: >"$W/runs.txt"
n=${#TOOLS[@]}
for ((r = 0; r < REPS; r++)); do
	for ((k = 0; k < n; k++)); do
		run_tool "${TOOLS[$(((k + r) % n))]}" "$r"
	done
done

python3 - "$W/runs.txt" "$OUT/realtree.json" "$REPS" "$JOBS" "$TREE" "$(nproc)" <<'PY'
import json, os, statistics, sys
runs_file, out, reps, jobs, tree, ncpu = sys.argv[1:]
def secs(t):
    s = 0.0
    for p in t.split(':'):
        s = s * 60 + float(p)
    return s
tools = {}
for line in open(runs_file):
    name, rep, rc, wall, rss = line.split()
    t = tools.setdefault(name, {'runs_s': [], 'rss_kib': [], 'exit': []})
    t['runs_s'].append(secs(wall)); t['rss_kib'].append(int(rss)); t['exit'].append(int(rc))
for t in tools.values():
    t['median_s'] = round(statistics.median(t['runs_s']), 2)
    t['peak_rss_mib'] = round(max(t['rss_kib']) / 1024, 1)
def ratio(a, b):
    if a in tools and b in tools and tools[b]['median_s'] > 0:
        return round(tools[a]['median_s'] / tools[b]['median_s'], 2)
ratios = {}
for a in ('migrate', 'scan', 'cocci'):
    for b in ('spatch1', 'grep'):
        r = ratio(a, b)
        if r is not None:
            ratios['%s/%s' % (a, b)] = r
nfiles = sum(1 for _, _, fs in os.walk(tree) for f in fs if f.endswith(('.c', '.h')))
doc = {'tree': 'linux-2.6.24', 'c_h_files': nfiles, 'repetitions': int(reps),
       'jobs': int(jobs), 'cpus': int(ncpu), 'load_before': os.getloadavg()[0],
       'tools': tools, 'ratios': ratios,
       'goals': {'migrate/spatch1 (cold)': 1.5, 'peak_rss_mib migrate': 500}}
json.dump(doc, open(out, 'w'), indent=2)
print('bench-realtree: linux-2.6.24, %d .c/.h files, %s repetitions, -j %s' % (nfiles, reps, jobs))
print('%-9s %10s %12s %14s %11s' % ('tool', 'median s', 'x spatch1', 'x grep -rl', 'peak MiB'))
for name in ('grep', 'spatch1', 'scan', 'migrate', 'cocci'):
    if name not in tools:
        continue
    t = tools[name]
    rs, rg = ratio(name, 'spatch1'), ratio(name, 'grep')
    print('%-9s %10.2f %12s %14s %11.1f' % (name, t['median_s'], rs if rs is not None else '-',
          rg if rg is not None else '-', t['peak_rss_mib']))
print('bench-realtree: wrote %s' % out)
PY
