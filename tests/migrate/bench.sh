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
#
# Environment: BENCH_FILES (20000), BENCH_SEED (1), BENCH_JOBS (2), BLKMIG, GENTREE.
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
	# exactly the spatch command line migrate uses (analyzer/cli/cmd_migrate.c): each patch's
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
