#!/bin/bash
# tests/migrate/crosscheck.sh OUTDIR CASE.c... — the issue-4 cross-check: run spatch with
# cocci/ and `blkmig fix` over each input, and print a line
#   DIFFER CASE FUNCTION FINGERPRINT
# for every function both tools converted (no legacy call left in it in either output)
# but converted differently (FINGERPRINT: a hash of both normalized texts, so a reviewed
# difference is recognised only as long as neither output changes), then the diff;
# "OK CASE" when the case agrees. Texts are compared with
# white space removed and parentheses around a lone identifier dropped, so layout and
# redundant parentheses do not count; a different lock variant, error value or byte
# count does.  Exit 0 when all agree, 1 otherwise.
set -u
OUT=$1
shift
TOP=${TOP:?}
BLKMIG=${BLKMIG:-$TOP/build/blkmig}
SP=$TOP/cocci/blk_end_request.cocci
LEGACY='(^|[^A-Za-z0-9_])(end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request)[[:space:]]*\('
mkdir -p "$OUT"
rc=0

# body NAME FILE: the definition of function NAME (kernel style: ends at "^}")
body() {
	awk -v n="$1" '
		!inside && $0 ~ "(^|[^A-Za-z0-9_])" n "[[:space:]]*\\(" && $0 !~ /;[[:space:]]*$/ &&
			$0 ~ /^[A-Za-z_]/ { inside = 1 }
		inside { print }
		inside && /^}/ { exit }' "$2"
}
# layout, parentheses around a lone identifier, and a final "if (x) return;" (the same
# as "x;" at the end of a function) do not count as differences
normalize() {
	tr -d ' \t\n' | sed -e ':a' -e 's/(\([A-Za-z_][A-Za-z0-9_]*\))/\1/g' -e 'ta' \
		-e 's/^\(.*\)if(\(.*\))return;}$/\1\2;}/'
}

for c in "$@"; do
	name=$(basename "$c" .c)
	s=$OUT/$name.spatch.c
	x=$OUT/$name.fix.c
	if ! spatch --sp-file "$SP" -D patch --macro-file "$TOP/cocci/blkmig.h" --no-includes \
		--include-headers --very-quiet "$c" -o "$s" > "$OUT/$name.spatch.log" 2>&1; then
		cp "$c" "$s"	# spatch -o writes nothing when it changes nothing
	fi
	[ -s "$s" ] || cp "$c" "$s"
	cp "$c" "$x"
	"$BLKMIG" fix -q --in-place "$x" > "$OUT/$name.fix.log" 2>&1
	case_ok=1
	# the functions that hold a legacy call in the input
	for fn in $("$BLKMIG" scan --format json "$c" 2> /dev/null |
		sed -n 's/^ *"function": "\([A-Za-z_0-9]*\)".*/\1/p' | sort -u); do
		bs=$(body "$fn" "$s")
		bx=$(body "$fn" "$x")
		[ -n "$bs" ] && [ -n "$bx" ] || continue
		# both converted it?
		printf '%s\n' "$bs" | grep -qE "$LEGACY" && continue
		printf '%s\n' "$bx" | grep -qE "$LEGACY" && continue
		ns=$(printf '%s' "$bs" | normalize)
		nx=$(printf '%s' "$bx" | normalize)
		if [ "$ns" != "$nx" ]; then
			echo "DIFFER $name $fn $(printf '%s\n%s\n' "$ns" "$nx" | md5sum | cut -c1-12)"
			diff <(printf '%s\n' "$bs") <(printf '%s\n' "$bx") | sed 's/^/    /'
			case_ok=0
			rc=1
		fi
	done
	[ $case_ok = 1 ] && echo "OK $name"
done
exit $rc
