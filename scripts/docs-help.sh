#!/usr/bin/env bash
# Keep the option lists in docs/*.md equal to the commands' --help, which
# comes from the same option tables as getopt_long (so they cannot drift).
# A block <!-- help:CMD WORDS --> ... <!-- /help --> holds `xdplab CMD WORDS --help`.
#   scripts/docs-help.sh          rewrite the blocks
#   scripts/docs-help.sh --check  exit 1 (naming the file) if a block is stale
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
exit $stale
