#!/bin/bash
# tests/realtree/bench.sh — the real Linux 2.6.24 tree in `make bench` (bench-realtree).
#
# On the whole tree unpacked from the corpus (tests/realtree/prepare.sh, cached in build/),
# measures in one run, interleaved (tool order rotates each repetition, so a load spike on
# the shared machine does not hit one tool only):
#   grep        grep -rlE of the legacy names over the tree (the floor)
#   spatch1     spatch with a one-rule patch (end_request -> __blk_end_request), -j N
#   scan        blkmig scan -j N --kernel-tree
#   migrate     blkmig migrate --check -j N --kernel-tree, cold: an empty result cache
#               (it pays for storing its result, as a first run does)
#   warm        the same command again on the unchanged tree: the cached result
#   edit1       the cold command after editing one driver (drivers/block/xd.c: a comment
#               line added) of a tree whose run is cached: spatch's results of the other
#               files come from the cache (issue 24: under 10% of a cold run)
#   cocci       make cocci-convert TREE=<a fresh copy> (our semantic patches alone)
#   migrate4x   the cold migrate on the 4x tree: the whole tree plus three more copies of
#               every folder that holds a legacy call (blkmig-4x/copyN/<folder>), so the
#               files that matter are four times as many (issue 24: memory must not grow
#               with them)
#   cocci4x     make cocci-convert on a fresh copy of the 4x tree
# Wall time, CPU time (user+sys) and peak RSS from /usr/bin/time -v; medians over the
# repetitions; ratios against spatch1 and grep (wall and CPU: on a shared, loaded machine
# the CPU ratio is the steadier one; the load average is recorded). Writes
# build/bench/realtree.json and realtree.txt (the table).
#
# Environment: BENCH_REPS (3), BENCH_JOBS (2), BENCH_TOOLS (all six), BLKMIG.
set -u
TOP=${TOP:?}
BUILD=${BUILD:?}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
REPS=${BENCH_REPS:-3}
JOBS=${BENCH_JOBS:-2}
TOOLS=(${BENCH_TOOLS:-grep spatch1 scan migrate warm edit1 cocci migrate4x cocci4x})
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

# The 4x tree, made once per run (hard links: migrate --check reads it only; cocci4x
# converts a real copy).  Every folder holding a legacy call is copied three more times
# under blkmig-4x/copyN/, keeping the folder's path, so its own includes still resolve.
TREE4=$W/4x/linux-2.6.24
make_4x() {
	[ -d "$TREE4" ] && return 0
	mkdir -p "$W/4x"
	cp -al "$TREE" "$TREE4" || return 1
	local d n
	grep -rlE --include='*.c' "$LEGACY_RE" "$TREE" | sed "s#^$TREE/##" | xargs -n1 dirname |
		sort -u >"$W/4x/folders"
	for n in 1 2 3; do
		while IFS= read -r d; do
			mkdir -p "$TREE4/blkmig-4x/copy$n/$d"
			find "$TREE/$d" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) \
				-exec cp -l {} "$TREE4/blkmig-4x/copy$n/$d/" \;
		done <"$W/4x/folders"
	done
}

# The tree of edit1 (hard links but for the edited file) and its cache, filled once by an
# unmeasured cold run before the edit; each repetition starts from a copy of that cache.
TREE_E=$W/edit/linux-2.6.24
EDITED=drivers/block/xd.c
edit1_run() {
	if [ ! -d "$W/xdg-edit-base" ]; then
		mkdir -p "$W/edit" && cp -al "$TREE" "$TREE_E" || return 1
		(cd "$W/edit" && XDG_CACHE_HOME=$W/xdg-edit-base "$BLKMIG" migrate --check -q \
			-j "$JOBS" --kernel-tree linux-2.6.24 linux-2.6.24) >/dev/null 2>&1
	fi
	rm -rf "$W/xdg-edit"
	cp -a "$W/xdg-edit-base" "$W/xdg-edit"
	cp --remove-destination "$TREE/$EDITED" "$TREE_E/$EDITED"
	echo '/* edited for bench-realtree edit1 */' >>"$TREE_E/$EDITED"
	(cd "$W/edit" && XDG_CACHE_HOME=$W/xdg-edit BLKMIG_STAGE_TIMES=1 $TIME -v "$BLKMIG" \
		migrate --check -q -j "$JOBS" --kernel-tree linux-2.6.24 linux-2.6.24)
}

cocci_convert_copy() { # cocci_convert_copy TREE NAME LOG: make cocci-convert on a fresh copy
	local copy=$W/copy rc
	rm -rf "$copy"
	cp -a "$1" "$copy" && chmod -R u+w "$copy"
	$TIME -v make -s -C "$TOP" cocci-convert TREE="$copy" COCCI_JOBS="$JOBS" \
		>"$W/$2.out" 2>"$3"
	rc=$?
	rm -rf "$copy"
	return $rc
}

run_tool() { # run_tool NAME REP: one measured run, its time -v log in $W/NAME.REP.time
	local name=$1 rep=$2 log=$W/$1.$2.time copy rc
	case $name in
	grep) $TIME -v grep -rlE "$LEGACY_RE" "$TREE" >"$W/$name.out" 2>"$log"; rc=$? ;;
	spatch1) $TIME -v spatch --sp-file "$W/one-rule.cocci" --very-quiet -j "$JOBS" \
		--dir "$TREE" >"$W/$name.out" 2>"$log"; rc=$? ;;
	scan) (cd "$(dirname "$TREE")" && $TIME -v "$BLKMIG" scan -q -j "$JOBS" --format json \
		-o "$W/scan.json" --kernel-tree linux-2.6.24 linux-2.6.24) >"$W/$name.out" 2>"$log"
		rc=$? ;;
	migrate)
		rm -rf "$W/xdg-cold"
		(cd "$(dirname "$TREE")" && XDG_CACHE_HOME=$W/xdg-cold BLKMIG_STAGE_TIMES=1 \
			$TIME -v "$BLKMIG" migrate \
			--check -q -j "$JOBS" --kernel-tree linux-2.6.24 linux-2.6.24) \
			>"$W/$name.out" 2>"$log"
		rc=$?
		[ -d "$W/xdg-warm" ] || cp -a "$W/xdg-cold" "$W/xdg-warm" ;;
	warm)
		[ -d "$W/xdg-warm" ] || (cd "$(dirname "$TREE")" && XDG_CACHE_HOME=$W/xdg-warm \
			"$BLKMIG" migrate --check -q -j "$JOBS" --kernel-tree linux-2.6.24 \
			linux-2.6.24) >/dev/null 2>&1 # not measured: fills the cache
		(cd "$(dirname "$TREE")" && XDG_CACHE_HOME=$W/xdg-warm $TIME -v "$BLKMIG" migrate \
			--check -j "$JOBS" --kernel-tree linux-2.6.24 linux-2.6.24) \
			>"$W/$name.out" 2>"$log"
		rc=$?
		grep -q 'the result of an identical run' "$log" ||
			echo "bench-realtree: warm run did not use the cache" >&2 ;;
	edit1)
		edit1_run >"$W/$name.out" 2>"$log"
		rc=$?
		# every file but the edited one from the cache
		sed -n "s/^blkmig migrate: spatch's result of \([0-9]*\) of \([0-9]*\) .*/\1 \2/p" \
			"$log" | awk '{ exit !($1 + 1 == $2) }' ||
			echo "bench-realtree: edit1 did not take the other files' spatch results" \
				"from the cache" >&2 ;;
	migrate4x)
		make_4x || { echo "bench-realtree: cannot make the 4x tree" >&2; return 1; }
		rm -rf "$W/xdg-cold4"
		(cd "$(dirname "$TREE4")" && XDG_CACHE_HOME=$W/xdg-cold4 BLKMIG_STAGE_TIMES=1 \
			$TIME -v "$BLKMIG" migrate \
			--check -q -j "$JOBS" --kernel-tree linux-2.6.24 linux-2.6.24) \
			>"$W/$name.out" 2>"$log"
		rc=$? ;;
	cocci4x)
		make_4x || { echo "bench-realtree: cannot make the 4x tree" >&2; return 1; }
		cocci_convert_copy "$TREE4" "$name" "$log"; rc=$? ;;
	cocci) cocci_convert_copy "$TREE" "$name" "$log"; rc=$? ;;
	esac
	echo "$name $rep $rc $(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log") $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log") $(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$log") $(cut -d' ' -f1 /proc/loadavg)" >>"$W/runs.txt"
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
loads = []
for line in open(runs_file):
    name, rep, rc, wall, rss, cpu, load = line.split()
    t = tools.setdefault(name, {'runs_s': [], 'cpu_s': [], 'rss_kib': [], 'exit': []})
    t['runs_s'].append(secs(wall)); t['rss_kib'].append(int(rss)); t['exit'].append(int(rc))
    t['cpu_s'].append(float(cpu)); loads.append(float(load))
# a migrate's own account of its stages (BLKMIG_STAGE_TIMES) and of what came from the
# cache ("... N of M file(s) cached"), last repetition of TOOL
def stage_list(tool):
    stages, cached, kept = [], [], [0, 0]
    logs = sorted(f for f in os.listdir(os.path.dirname(runs_file))
                  if f.startswith(tool + '.') and f.endswith('.time'))
    if logs:
        for line in open(os.path.join(os.path.dirname(runs_file), logs[-1])):
            p = line.split()
            if line.startswith('blkmig migrate: stage ') and len(p) >= 10:
                stages.append({'stage': p[3], 'wall_s': float(p[4][:-1]), 'cpu_s': float(p[6][:-1]),
                               'peak_rss_mib_so_far': int(p[9])})
            elif line.startswith('blkmig migrate: ') and line.rstrip().endswith('file(s) cached'):
                cached.append(line[len('blkmig migrate: '):].strip())
            elif line.startswith('blkmig: the parse of ') and 'kept from an earlier run' in line:
                kept[0] += int(p[4]); kept[1] += int(p[6])
    if kept[1]:
        cached.append('the parse of %d of %d file(s) kept (all analyses)' % tuple(kept))
    return stages, cached
stages, _ = stage_list('migrate')
edit_stages, edit_cached = stage_list('edit1')
for t in tools.values():
    t['median_s'] = round(statistics.median(t['runs_s']), 2)
    t['median_cpu_s'] = round(statistics.median(t['cpu_s']), 2)
    t['peak_rss_mib'] = round(max(t['rss_kib']) / 1024, 1)
def ratio(a, b, key='median_s'):
    if a in tools and b in tools and tools[b][key] > 0:
        return round(tools[a][key] / tools[b][key], 2)
ratios, cpu_ratios = {}, {}
for a in ('migrate', 'warm', 'edit1', 'scan', 'cocci', 'migrate4x', 'cocci4x'):
    for b in ('spatch1', 'grep'):
        r = ratio(a, b)
        if r is not None:
            ratios['%s/%s' % (a, b)] = r
        r = ratio(a, b, 'median_cpu_s')
        if r is not None:
            cpu_ratios['%s/%s' % (a, b)] = r
# issue 24's goals: cold migrate CPU <= 1.0x our own patches alone, on both trees; a run
# after editing one file < 0.1x the cold one
for a, b in (('migrate', 'cocci'), ('migrate4x', 'cocci4x'), ('edit1', 'migrate')):
    r = ratio(a, b, 'median_cpu_s')
    if r is not None:
        cpu_ratios['%s/%s' % (a, b)] = r
nfiles = sum(1 for _, _, fs in os.walk(tree) for f in fs if f.endswith(('.c', '.h')))
doc = {'tree': 'linux-2.6.24', 'c_h_files': nfiles, 'repetitions': int(reps),
       'jobs': int(jobs), 'cpus': int(ncpu),
       'load_average': {'min': min(loads), 'max': max(loads)} if loads else None,
       'tools': tools, 'ratios': ratios, 'cpu_ratios': cpu_ratios, 'migrate_stages': stages,
       'edit1_stages': edit_stages, 'edit1_cached': edit_cached,
       'goals': {'cpu migrate/cocci (cold)': 1.0, 'cpu migrate4x/cocci4x (cold)': 1.0,
                 'warm/grep': 5, 'peak_rss_mib migrate': 500, 'peak_rss_mib migrate4x': 600,
                 'cpu edit1/migrate': 0.1}}
json.dump(doc, open(out, 'w'), indent=2)
lines = ['bench-realtree: linux-2.6.24, %d .c/.h files, %s repetitions, -j %s, load average %s'
         % (nfiles, reps, jobs, ('%.1f-%.1f' % (min(loads), max(loads))) if loads else '?'),
         '%-9s %9s %9s %10s %10s %10s %10s %9s' % ('tool', 'wall s', 'cpu s', 'x spatch1',
         'cpu x sp1', 'x grep', 'cpu x grep', 'peak MiB')]
def f(v):
    return '-' if v is None else str(v)
for name in ('grep', 'spatch1', 'scan', 'migrate', 'warm', 'edit1', 'cocci', 'migrate4x', 'cocci4x'):
    if name not in tools:
        continue
    t = tools[name]
    lines.append('%-9s %9.2f %9.2f %10s %10s %10s %10s %9.1f' % (
        name, t['median_s'], t['median_cpu_s'], f(ratio(name, 'spatch1')),
        f(ratio(name, 'spatch1', 'median_cpu_s')), f(ratio(name, 'grep')),
        f(ratio(name, 'grep', 'median_cpu_s')), t['peak_rss_mib']))
lines.append('cpu migrate/cocci %s, migrate4x/cocci4x %s, edit1/migrate %s' % (
    f(cpu_ratios.get('migrate/cocci')), f(cpu_ratios.get('migrate4x/cocci4x')),
    f(cpu_ratios.get('edit1/migrate'))))
lines.append('goals (issue 24): cold CPU <= 1.0x cocci on both trees, warm <= 5x grep, '
             'peak < 500 MiB (tree), < 600 MiB (4x tree), edit1 < 0.1x cold CPU')
for title, st in (('cold migrate', stages), ('edit1', edit_stages)):
    if st:
        lines.append(title + ' by stage: ' + ', '.join('%s %.1fs wall %.1fs cpu (peak %d MiB)' % (
            s['stage'], s['wall_s'], s['cpu_s'], s['peak_rss_mib_so_far']) for s in st))
if edit_cached:
    lines.append('edit1 from the cache: ' + '; '.join(edit_cached))
open(os.path.splitext(out)[0] + '.txt', 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
print('bench-realtree: wrote %s' % out)
PY
