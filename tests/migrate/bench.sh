#!/bin/bash
# tests/migrate/bench.sh — the tree benchmark (`make bench-tree`, part of `make bench`).
#
# Generates a deterministic drivers/-shaped tree (gen/gentree.c) and measures, in one run:
#   migrate   blkmig migrate --check -j N over the tree
#   grep      grep -rlE over the legacy tokens (the floor)
#   spatch    spatch with our cocci files alone, in their order, -j N, on a copy
#   analyzer  blkmig scan -j 1 over the files it parses (the legacy ones), per file
#   clang     clang -fsyntax-only with the same flags over the same files, per file
# Wall time and peak RSS come from /usr/bin/time -v. Prints a table with ratios and
# writes build/bench/tree.json.
# Then scaling: the same legacy files in a tree 1x, 2x and 4x as large (BENCH_SCALE_FILES
# files, default 5000, plus 1 and 3 more generated trees of as many files without legacy
# drivers, beside them), `migrate --check --no-cache` on each, interleaved, medians of
# BENCH_SCALE_REPS (3): build/bench/scaling.json and scaling.txt (goal: 4x costs <= 1.5x).
#
# Environment: BENCH_FILES (20000), BENCH_SEED (1), BENCH_JOBS (2), BENCH_SCALE_FILES,
# BENCH_SCALE_REPS, BENCH_SCALE=0 (skip scaling), BLKMIG, GENTREE.
set -u
TOP=${TOP:?}
BUILD=${BUILD:?}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
GENTREE=${GENTREE:-$BUILD/migrate/gentree}
FILES=${BENCH_FILES:-20000}
SEED=${BENCH_SEED:-1}
JOBS=${BENCH_JOBS:-2}
OUT=$BUILD/bench
W=$OUT/work
TIME=/usr/bin/time
LEGACY_RE='end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request'

if [ ! -x $TIME ]; then
	echo "bench-tree: /usr/bin/time is missing (Debian package 'time'); run make deps" >&2
	exit 2
fi
mkdir -p "$OUT"
rm -rf "$W"
mkdir -p "$W"
echo "bench-tree: generating $FILES files (seed $SEED) ..."
"$GENTREE" "$W/tree" "$FILES" "$SEED" > "$W/gen.out" || exit 2
LEGACY=$(sed -n 's/.*legacy=//p' "$W/gen.out")

# measure NAME CMD...: run CMD under time -v; sets WALL_NAME and RSS_NAME (KiB); never fails
declare -A WALL RSS STATUS
measure() {
	local name=$1 log=$W/$1.time
	shift
	$TIME -v "$@" > "$W/$name.stdout" 2> "$log"
	STATUS[$name]=$?
	local e
	e=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log")
	WALL[$name]=$(awk -v t="$e" 'BEGIN { n = split(t, p, ":"); s = 0;
		for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s }')
	RSS[$name]=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
}

# -- grep: the floor
measure grep grep -rlE "$LEGACY_RE" "$W/tree"
GREP_HITS=$(wc -l < "$W/grep.stdout")

# -- spatch alone with our cocci files, on a copy (in place, as `make cocci-convert` does)
mapfile -t COCCI < <(ls "$TOP"/cocci/*.cocci 2>/dev/null | sort)
if [ -f "$TOP/cocci/ORDER" ]; then
	mapfile -t COCCI < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|^|$TOP/cocci/|" "$TOP/cocci/ORDER")
fi
if [ ${#COCCI[@]} -gt 0 ] && command -v spatch > /dev/null; then
	cp -a "$W/tree" "$W/spatch-tree"
	# exactly the spatch command line migrate uses (analyzer/cli/migrate_spatch.c): each patch's
	# "// Options:", the macro file beside the patches, -D patch, in place, -j N
	MACRO=$(ls "$TOP"/cocci/*.h 2> /dev/null | sort | head -1)
	{
		echo '#!/bin/bash'
		for c in "${COCCI[@]}"; do
			opts=$(sed -n 's|^// Options:[[:space:]]*||p' "$c" | head -1)
			echo "spatch --sp-file '$c' $opts ${MACRO:+--macro-file '$MACRO'} -D patch" \
				"--in-place --very-quiet --timeout 120 -j $JOBS --dir '$W/spatch-tree'" \
				"> /dev/null || exit 1"
		done
	} > "$W/spatch-all.sh"
	measure spatch bash "$W/spatch-all.sh"
	SPATCH_CHANGED=$(diff -rq "$W/tree" "$W/spatch-tree" | wc -l)
	rm -rf "$W/spatch-tree"
else
	echo "bench-tree: no cocci/*.cocci or no spatch: spatch column skipped" >&2
	SPATCH_CHANGED=0
fi

# -- blkmig migrate --check over the tree (exit 1 = something would change: expected)
if [ -x "$BLKMIG" ] && "$BLKMIG" migrate --help > /dev/null 2>&1; then
	measure migrate "$BLKMIG" migrate --check -j "$JOBS" "$W/tree"
else
	echo "bench-tree: $BLKMIG has no migrate command: migrate column skipped" >&2
fi

# -- analyzer vs clang -fsyntax-only, per parsed file, one job each
PARSED=$(sed "s|^|$W/tree/|" "$W/tree/LEGACY-FILES")
NPARSED=$(wc -l < "$W/tree/LEGACY-FILES")
if [ -x "$BLKMIG" ] && [ "$NPARSED" -gt 0 ]; then
	# The same flags as the analyzer's model mode (analyzer/parse/parse.c): its 2.6.24 model
	# header, every kernel header name it stands in for, -nostdinc -D__KERNEL__.
	mkdir -p "$W/model/linux"
	cp "$TOP/analyzer/parse/model/blkmig_model.h" "$W/model/"
	for h in $(cat "$TOP/analyzer/parse/model/headers.list"); do
		mkdir -p "$W/model/$(dirname "$h")"
		printf '#include <blkmig_model.h>\n' > "$W/model/$h"
	done
	CFLAGS=(-x c -std=gnu89 -ferror-limit=0 -nostdinc -D__KERNEL__ -I"$W/model")
	# shellcheck disable=SC2086
	measure analyzer "$BLKMIG" scan -j 1 --format json -o "$W/scan.json" $PARSED
	# shellcheck disable=SC2086
	measure clang clang -fsyntax-only -w "${CFLAGS[@]}" $PARSED
fi

num() { [ -n "${1:-}" ] && echo "$1" || echo null; }
ratio() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "null"; else printf "%.2f", a / b }'; }
perfile() { awk -v a="${1:-}" -v n="$NPARSED" 'BEGIN { if (a == "" || n == 0) print "null"; else printf "%.4f", a / n }'; }

{
	printf '\nblkmig tree benchmark: %s files (%s legacy, seed %s), -j %s\n\n' "$FILES" "$LEGACY" "$SEED" "$JOBS"
	printf '%-34s %10s %12s %10s\n' "run" "wall (s)" "peak RSS MiB" "exit"
	for k in grep spatch migrate analyzer clang; do
		[ -n "${WALL[$k]:-}" ] || continue
		printf '%-34s %10s %12s %10s\n' "$k" "${WALL[$k]}" \
			"$(awk -v r="${RSS[$k]}" 'BEGIN { printf "%.1f", r / 1024 }')" "${STATUS[$k]}"
	done
	printf '\nratios\n'
	printf '  migrate / spatch alone          %s   (goal <= 3)\n' "$(ratio "${WALL[migrate]:-}" "${WALL[spatch]:-}")"
	printf '  migrate / grep floor            %s\n' "$(ratio "${WALL[migrate]:-}" "${WALL[grep]:-}")"
	printf '  spatch / grep floor             %s\n' "$(ratio "${WALL[spatch]:-}" "${WALL[grep]:-}")"
	printf '  analyzer / clang per parsed file %s   (goal <= 1.5; %s files, %s s vs %s s per file)\n' \
		"$(ratio "${WALL[analyzer]:-}" "${WALL[clang]:-}")" "$NPARSED" \
		"$(perfile "${WALL[analyzer]:-}")" "$(perfile "${WALL[clang]:-}")"
	printf '  grep hits %s files; spatch changed %s files\n' "$GREP_HITS" "$SPATCH_CHANGED"
} | tee "$OUT/tree.txt"

cat > "$OUT/tree.json" <<EOJ
{
  "files": $FILES, "legacy_files": $LEGACY, "seed": $SEED, "jobs": $JOBS,
  "grep_hit_files": $GREP_HITS, "parsed_files": $NPARSED,
  "wall_s": { "grep": $(num "${WALL[grep]:-}"), "spatch": $(num "${WALL[spatch]:-}"),
              "migrate": $(num "${WALL[migrate]:-}"), "analyzer": $(num "${WALL[analyzer]:-}"),
              "clang": $(num "${WALL[clang]:-}") },
  "peak_rss_kib": { "grep": $(num "${RSS[grep]:-}"), "spatch": $(num "${RSS[spatch]:-}"),
                    "migrate": $(num "${RSS[migrate]:-}"), "analyzer": $(num "${RSS[analyzer]:-}"),
                    "clang": $(num "${RSS[clang]:-}") },
  "exit": { "spatch": $(num "${STATUS[spatch]:-}"), "migrate": $(num "${STATUS[migrate]:-}"),
            "analyzer": $(num "${STATUS[analyzer]:-}"), "clang": $(num "${STATUS[clang]:-}") },
  "ratios": { "migrate_over_spatch": $(ratio "${WALL[migrate]:-}" "${WALL[spatch]:-}"),
              "migrate_over_grep": $(ratio "${WALL[migrate]:-}" "${WALL[grep]:-}"),
              "analyzer_over_clang_per_file": $(ratio "${WALL[analyzer]:-}" "${WALL[clang]:-}") }
}
EOJ
echo "bench-tree: wrote $OUT/tree.json"
rm -rf "$W/tree"

# -- scaling: the same legacy files, 1x / 2x / 4x the other files
if [ "${BENCH_SCALE:-1}" != 0 ] && [ -x "$BLKMIG" ]; then
	SF=${BENCH_SCALE_FILES:-5000}
	SREPS=${BENCH_SCALE_REPS:-3}
	S=$W/scale
	rm -rf "$S"
	mkdir -p "$S"
	"$GENTREE" "$S/x1" "$SF" "$SEED" > "$S/gen.out" || exit 2
	for k in 1 2 3; do
		"$GENTREE" "$S/other$k" "$SF" $((SEED + 100 + k)) 0 > /dev/null || exit 2
	done
	mkdir -p "$S/x2" "$S/x4"
	cp -al "$S/x1/." "$S/x2/" && cp -al "$S/other1" "$S/x2/other1"
	cp -al "$S/x2/." "$S/x4/" && cp -al "$S/other2" "$S/x4/other2" && cp -al "$S/other3" "$S/x4/other3"
	: > "$S/runs.txt"
	sizes=(1 2 4)
	for ((r = 0; r < SREPS; r++)); do
		for ((k = 0; k < 3; k++)); do
			x=${sizes[$(((k + r) % 3))]}
			$TIME -v "$BLKMIG" migrate --check --no-cache -q -j "$JOBS" "$S/x$x" \
				> /dev/null 2> "$S/x$x.$r.time"
			echo "$x $? $(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$S/x$x.$r.time") $(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$S/x$x.$r.time") $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$S/x$x.$r.time") $(cut -d' ' -f1 /proc/loadavg)" >> "$S/runs.txt"
		done
	done
	python3 - "$S" "$OUT" "$SF" "$SREPS" "$JOBS" <<'PY'
import json, os, statistics, sys
S, out, sf, reps, jobs = sys.argv[1:]
def secs(t):
    s = 0.0
    for p in t.split(':'):
        s = s * 60 + float(p)
    return s
runs = {}
loads = []
for line in open(os.path.join(S, 'runs.txt')):
    x, rc, wall, cpu, rss, load = line.split()
    r = runs.setdefault(x, {'wall_s': [], 'cpu_s': [], 'rss_kib': [], 'exit': []})
    r['wall_s'].append(secs(wall)); r['cpu_s'].append(float(cpu))
    r['rss_kib'].append(int(rss)); r['exit'].append(int(rc)); loads.append(float(load))
nfiles = {x: sum(1 for _, _, fs in os.walk(os.path.join(S, 'x' + x)) for f in fs if f.endswith('.c'))
          for x in runs}
legacy = sum(1 for _ in open(os.path.join(S, 'x1', 'LEGACY-FILES')))
for x, r in runs.items():
    r['median_wall_s'] = round(statistics.median(r['wall_s']), 2)
    r['median_cpu_s'] = round(statistics.median(r['cpu_s']), 2)
    r['peak_rss_mib'] = round(max(r['rss_kib']) / 1024, 1)
    r['c_files'] = nfiles[x]
def ratio(x, key):
    return round(runs[x][key] / runs['1'][key], 2) if '1' in runs and runs['1'][key] else None
doc = {'legacy_files': legacy, 'repetitions': int(reps), 'jobs': int(jobs),
       'load_average': {'min': min(loads), 'max': max(loads)},
       'sizes': runs,
       'ratios_wall': {x + 'x/1x': ratio(x, 'median_wall_s') for x in runs},
       'ratios_cpu': {x + 'x/1x': ratio(x, 'median_cpu_s') for x in runs},
       'goal': '4x/1x <= 1.5'}
json.dump(doc, open(os.path.join(out, 'scaling.json'), 'w'), indent=2)
lines = ['bench-tree scaling: %d legacy files, %s repetitions, -j %s, load average %.1f-%.1f'
         % (legacy, reps, jobs, min(loads), max(loads)),
         '%-5s %8s %9s %9s %9s %9s %9s' % ('size', '.c files', 'wall s', 'cpu s', 'wall x1',
                                           'cpu x1', 'peak MiB')]
for x in sorted(runs, key=int):
    r = runs[x]
    lines.append('%-5s %8d %9.2f %9.2f %9s %9s %9.1f' % (x + 'x', r['c_files'], r['median_wall_s'],
                 r['median_cpu_s'], ratio(x, 'median_wall_s'), ratio(x, 'median_cpu_s'),
                 r['peak_rss_mib']))
lines.append('goal: 4x costs <= 1.5x')
open(os.path.join(out, 'scaling.txt'), 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY
	rm -rf "$S"
fi
