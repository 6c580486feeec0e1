#!/usr/bin/env bash
# Two files stay as they were: for every ordered pair of the committed
# results files under bench/ (and a file against itself), `xdplab compare`
# of this tree and of an older binary must give the same exit status, the
# same stderr, text and markdown that differ only by the one note line that
# one run a side cannot separate the patch from the host, and JSON that
# differs only by the rows' "method" field.
#   scripts/compare-two-files-check.sh OLD_XDPLAB [NEW_XDPLAB]
# Ends with "N pairs: N same, N differ"; exit 1 when one differs.
set -u
cd "$(dirname "$0")/.."
OLD=${1:?usage: $0 OLD_XDPLAB [NEW_XDPLAB]}
NEW=${2:-./build/xdplab}
TMP=$(mktemp -d /tmp/xdplab-twofiles.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
NOTE="note: one run a side cannot separate the patch from the host"
mapfile -t FILES < <(find bench -name '*.json' | sort)
same=0 differ=0
for a in "${FILES[@]}"; do
	for b in "${FILES[@]}"; do
		ok=1
		for fmt in text markdown json; do
			case $fmt in
			json) args=(--json) ;;
			*) args=(--format "$fmt") ;;
			esac
			"$OLD" compare "${args[@]}" "$a" "$b" >"$TMP/old" 2>"$TMP/old.err"
			ro=$?
			"$NEW" compare "${args[@]}" "$a" "$b" >"$TMP/new" 2>"$TMP/new.err"
			rn=$?
			if [ "$ro" != "$rn" ] || ! cmp -s "$TMP/old.err" "$TMP/new.err"; then
				echo "DIFFER $fmt $a $b: exit $ro vs $rn, stderr: $(cat "$TMP/new.err")"
				ok=0
				continue
			fi
			if [ $fmt = json ]; then
				[ -s "$TMP/old" ] || continue
				jq -S . "$TMP/old" >"$TMP/o"
				jq -S 'del(.rows[].method)' "$TMP/new" >"$TMP/n"
			else
				[ -s "$TMP/old" ] || continue
				cp "$TMP/old" "$TMP/o"
				# Exactly one line more, the note, and nothing else.
				[ "$(grep -c "^$NOTE" "$TMP/new")" = 1 ] || { echo "DIFFER $fmt $a $b: note lines: $(grep -c "^$NOTE" "$TMP/new")"; ok=0; continue; }
				grep -v "^$NOTE" "$TMP/new" >"$TMP/n"
			fi
			cmp -s "$TMP/o" "$TMP/n" || { echo "DIFFER $fmt $a $b:"; diff "$TMP/o" "$TMP/n" | head -5; ok=0; }
		done
		if [ $ok = 1 ]; then same=$((same + 1)); else differ=$((differ + 1)); fi
	done
done
echo "$((same + differ)) pairs: $same same, $differ differ"
[ $differ = 0 ]
