#!/usr/bin/env bash
# Keep the option lists in docs/*.md equal to the commands' --help, which
# comes from the same option tables as getopt_long (so they cannot drift).
# A block <!-- help:CMD WORDS --> ... <!-- /help --> holds `xdplab CMD WORDS --help`.
# Every command of `xdplab help` must have a block somewhere in docs/, and
# so must a command family (lab, xsk, store: its usage line lists its
# subcommands, `xdplab FAMILY a|b|c ...`) and each of its subcommands.
#   scripts/docs-help.sh          rewrite the blocks
#   scripts/docs-help.sh --check  exit 1 (naming the file) if a block is stale
# Either way, exit 1 naming every command or subcommand without a block.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=./build/xdplab
check=0
[ "${1:-}" = --check ] && check=1
stale=0
for doc in docs/*.md; do
	grep -q '<!-- help:' "$doc" || continue
	tmp=$(mktemp)
	awk -v b="$bin" '
		/<!-- help:.* -->/ {
			print; c = $0; sub(/.*<!-- help:/, "", c); sub(/ -->.*/, "", c)
			print "```"
			cl = b " " c " --help"
			while ((cl | getline line) > 0) print line
			close(cl)
			print "```"
			skip = 1; next
		}
		/<!-- \/help -->/ { skip = 0 }
		!skip { print }
	' "$doc" > "$tmp"
	if ! cmp -s "$doc" "$tmp"; then
		if [ $check = 1 ]; then
			echo "docs-help: $doc is stale: run scripts/docs-help.sh" >&2
			stale=1
			rm -f "$tmp"
		else
			mv "$tmp" "$doc"
			echo "docs-help: updated $doc"
		fi
	else
		rm -f "$tmp"
	fi
done
# Every command and subcommand has a block.
have=$(grep -ho '<!-- help:[^>]* -->' docs/*.md | sed 's/<!-- help://; s/ -->//' | sort -u)
want=()
for c in $("$bin" help | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p'); do
	want+=("$c")
	subs=$("$bin" "$c" --help | sed -n "1s/^Usage: xdplab $c \([a-z0-9-]*\(|[a-z0-9-]*\)\{1,\}\) .*/\1/p")
	for sub in ${subs//|/ }; do
		want+=("$c $sub")
	done
done
[ ${#want[@]} -gt 20 ] || { echo "docs-help: cannot read the commands from '$bin help'" >&2; exit 1; }
for w in "${want[@]}"; do
	if ! grep -qxF "$w" <<<"$have"; then
		echo "docs-help: no help block for 'xdplab $w --help' in docs/*.md (add <!-- help:$w --> and <!-- /help --> to its page, then run scripts/docs-help.sh)" >&2
		stale=1
	fi
done
exit $stale
