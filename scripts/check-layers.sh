#!/usr/bin/env bash
# No upward include: the library's folders are layers (LAYERS, lowest
# first, the data path's order of docs/architecture.md), and a file of
# src/lib/FOLDER/ or a public header that FOLDER owns includes the public
# headers (include/xdplab/) of its own folder and of the layers below only.
# Folders on one line are peers: neither includes the other.
# A public header belongs to the folder whose .c file has its name
# (xdplab/gen.h: src/lib/gen/gen.c), else to the one OWNER says; the BPF <->
# user-space layouts (include/xdplab/abi/) are below every folder. Private
# headers stay in their folder: no include names a path with "../".
#   scripts/check-layers.sh   exit 1, naming each file, include and rule broken
set -euo pipefail
cd "$(dirname "$0")/.."

LAYERS=(
	"abi"
	"core"
	"sys pkt"
	"xdp gen xsk"
	"profile"
	"measure"
	"store"
	"html lab"
	"rows"
	"cmd"
)
# Public headers without a .c file of their name.
declare -A OWNER=(
	[htmlreport.h]=html
	[profile.h]=profile
	[xsk.h]=xsk
)

declare -A RANK
order=""
for i in "${!LAYERS[@]}"; do
	for f in ${LAYERS[$i]}; do
		RANK[$f]=$i
	done
	order+="${order:+ < }${LAYERS[$i]// /|}"
done

bad=0
fail() {
	echo "check-layers: $*" >&2
	bad=$((bad + 1))
}

# Each public header's folder: the one holding the .c file of its name.
declare -A HOME_OF
for c in src/lib/*/*.c; do
	d=${c#src/lib/}
	d=${d%%/*}
	h=${c##*/}
	h=${h%.c}.h
	[ -f "include/xdplab/$h" ] || continue
	if [ -n "${HOME_OF[$h]:-}" ]; then
		HOME_OF[$h]="?"
	else
		HOME_OF[$h]=$d
	fi
done
for h in "${!OWNER[@]}"; do
	HOME_OF[$h]=${OWNER[$h]}
done
for f in include/xdplab/*.h; do
	h=${f#include/xdplab/}
	case ${HOME_OF[$h]:-?} in
	"?") fail "$f: no one folder owns it (add it to OWNER in scripts/check-layers.sh)" ;;
	esac
done
for f in include/xdplab/abi/*.h; do
	HOME_OF[${f#include/xdplab/}]=abi
done
for d in src/lib/*/; do
	d=${d%/}
	d=${d##*/}
	[ -n "${RANK[$d]:-}" ] || fail "src/lib/$d/: not in LAYERS of scripts/check-layers.sh"
done

# Every include of the library's files, the commands' and the public headers.
nfiles=0 last=""
while IFS=: read -r file n inc; do
	[ "$file" != "$last" ] && nfiles=$((nfiles + 1)) && last=$file
	case $file in
	include/xdplab/*) from=${HOME_OF[${file#include/xdplab/}]:-?} ;;
	src/lib/*) from=${file#src/lib/} from=${from%%/*} ;;
	src/cmd/*) from=cmd ;;
	esac
	[ -n "${RANK[$from]:-}" ] || continue
	inc=${inc#*include*[\"<]}
	inc=${inc%%[\">]*}
	case $inc in
	*../*)
		fail "$file:$n: includes $inc: a folder's private headers stay in it (no ../)"
		continue ;;
	xdplab/*) ;;
	*) continue ;;
	esac
	to=${HOME_OF[${inc#xdplab/}]:-?}
	[ "$to" = "?" ] || [ "$to" = "$from" ] && continue
	if [ "${RANK[$to]}" -eq "${RANK[$from]}" ]; then
		fail "$file:$n: includes $inc ($to), a peer of $from: peers include none of each other (order: $order)"
	elif [ "${RANK[$to]}" -gt "${RANK[$from]}" ]; then
		fail "$file:$n: includes $inc ($to), a layer above $from (order: $order)"
	fi
done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' \
	src/lib/*/*.[ch] src/cmd/*.[ch] include/xdplab/*.h include/xdplab/abi/*.h)
if [ $bad -gt 0 ]; then
	echo "check-layers: $bad broken in $nfiles files" >&2
	exit 1
fi
