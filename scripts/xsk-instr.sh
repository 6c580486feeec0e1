#!/usr/bin/env bash
# scripts/xsk-instr.sh - the AF_XDP applications' own work in the veth lab,
# xdplab against xdpsock: user-space instructions per frame under
# valgrind --tool=callgrind (docs/performance.md, issue 20 item 4).
#
#   scripts/xsk-instr.sh [l2fwd] [txpush]      (root; default both)
#   scripts/xsk-instr.sh ir FILE.cg             (a saved callgrind file's
#                                                instructions less libc's)
#
# Instructions, not time: a count the machine's load does not move, so one
# run a side compares. Each application is pinned to the last CPU under
# callgrind, collecting only inside its per-iteration function (xdplab
# xl_xsk_l2fwd_step / xl_xsk_txpush_step, xdpsock l2fwd / tx_only and
# complete_tx_only_all, each with the completions it reaps); the
# instructions of the libc syscall wrappers called from there (sendto,
# recvfrom, poll) are taken out, the kernel's are never in. Frames are the
# DUT veth's tx_packets over the application's life.
#   l2fwd: XDP_DRV copy, 64 B from `xdplab gen` unpaced on CPU0 for the
#          whole run: under callgrind the application is slower than the
#          generator, so its RX ring is full at every look (no empty polls:
#          the per-frame figure is the loop's, for both tools). Each line
#          says whether that held: "saturated" at 16 frames or more per
#          call of the loop's function; on a loaded machine, where the
#          generator gets less CPU, it may not hold, and then the count
#          has empty polls in it and the ratio is not comparable (said).
#   txpush: XDP_DRV copy, 64 B, COUNT frames (default 1000000).
# Environment: XDPSOCK (an xdpsock binary, default the one scripts/peers.sh
# builds; built with -fno-inline-functions-called-once its per-iteration
# functions keep their names: `scripts/xsk-instr.sh build-xdpsock` makes
# one beside it), XDPLAB (default build/xdplab), SECS (l2fwd's run, default
# 8), COUNT, OUT (default bench/xsk-instr-DATE-COMMIT). Writes OUT/ROW-TOOL.cg
# (callgrind's files), OUT/summary.txt: per row and tool the frames, the
# instructions per frame; then xdplab / xdpsock.
# Exit 0, 1 on a failed run, 2 on usage.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
X=${XDPLAB:-$ROOT/build/xdplab}
PEERS=${PEERS:-/tmp/xdplab-peers}
XDPSOCK=${XDPSOCK:-$PEERS/bpf-examples/AF_XDP-cg/xdpsock}
SECS=${SECS:-8}
COUNT=${COUNT:-1000000}
LAST=$(($(nproc) - 1))

usage() { echo "xsk-instr: $*" >&2; exit 2; }
die() { echo "xsk-instr: $*" >&2; exit 1; }

if [ "${1:-}" = build-xdpsock ]; then
	src=$PEERS/bpf-examples/AF_XDP-example
	[ -d "$src" ] || die "no $src: run 'scripts/peers.sh build' first"
	rm -rf "$PEERS/bpf-examples/AF_XDP-cg"
	cp -r "$src" "$PEERS/bpf-examples/AF_XDP-cg"
	make -s -C "$PEERS/bpf-examples/AF_XDP-cg" clean >/dev/null 2>&1 || true
	CFLAGS="-include stdbool.h -O2 -g -Wno-error -fno-inline-functions-called-once" \
		BPF_CFLAGS="-include stdbool.h" EXTRA_CFLAGS=-Wno-error FORCE_SUBDIR_LIBBPF=1 \
		make -s -C "$PEERS/bpf-examples/AF_XDP-cg"
	ls -l "$PEERS/bpf-examples/AF_XDP-cg/xdpsock"
	exit 0
fi
# ir CG: the instructions callgrind counted in CG (inside the collected
# functions) less those of libc's functions called from there (exclusive
# counts: the syscall wrappers). %.0f: mawk's %d stops at 2^31 - 1, and a
# run of 10.2 G instructions printed 2147483647 (17.4 per frame, not 74.3).
ir() {
	callgrind_annotate --inclusive=no --auto=no "$1" 2>/dev/null | awk '
		/PROGRAM TOTALS/ { gsub(",", "", $1); tot = $1 }
		/libc\.so/ { c = $1; gsub(",", "", c); libc += c }
		END { if (tot == "") exit 1; printf "%.0f\n", tot - libc }'
}
# calls FILE.cg FN[,FN]: how many times the FNs were called (the call arcs'
# counts; callgrind records them whatever collection is on).
calls() {
	awk -v fns="$2" '
		BEGIN { n = split(fns, a, ","); for (i = 1; i <= n; i++) want[a[i]] = 1 }
		/^c?fn=\(/ {
			match($0, /\([0-9]+\)/); id = substr($0, RSTART, RLENGTH)
			rest = substr($0, RSTART + RLENGTH); sub(/^ /, "", rest)
			if (rest != "") name[id] = rest
			if ($0 ~ /^cfn=/) pend = (id in name) && (name[id] in want)
			next
		}
		/^calls=/ { if (pend) { split(substr($0, 7), c, " "); total += c[1] } pend = 0; next }
		END { printf "%.0f\n", total }' "$1"
}
if [ "${1:-}" = calls ]; then
	[ $# -eq 3 ] && [ -f "$2" ] || usage "calls takes one callgrind file and the functions (accepted: scripts/xsk-instr.sh calls FILE.cg FN[,FN])"
	calls "$2" "$3"
	exit 0
fi
if [ "${1:-}" = ir ]; then
	[ $# -eq 2 ] && [ -f "$2" ] || usage "ir takes one callgrind file (accepted: scripts/xsk-instr.sh ir FILE.cg)"
	ir "$2" || die "$2: callgrind_annotate found no totals in it"
	exit 0
fi
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(l2fwd txpush)
for r in "${rows[@]}"; do case $r in l2fwd|txpush) ;; *) usage "row '$r' is not known (accepted: l2fwd, txpush, build-xdpsock, ir FILE.cg, calls FILE.cg FN)" ;; esac; done
# Whole numbers of 1 or more, written without leading zeros ("00" would
# reach xdplab and xdpsock as -d 00: no time limit, a run without end).
case "$SECS" in [1-9]|[1-9]*[0-9]) case "$SECS" in *[!0-9]*) usage "SECS='$SECS' is not a whole number (accepted: seconds, 1..3600)" ;; esac ;;
	*) usage "SECS='$SECS' is not a whole number (accepted: seconds, 1..3600)" ;; esac
[ ${#SECS} -le 4 ] && [ "$SECS" -le 3600 ] || usage "SECS='$SECS' is out of range (accepted: seconds, 1..3600)"
case "$COUNT" in [1-9]|[1-9]*[0-9]) case "$COUNT" in *[!0-9]*) usage "COUNT='$COUNT' is not a whole number (accepted: frames, 1..1000000000)" ;; esac ;;
	*) usage "COUNT='$COUNT' is not a whole number (accepted: frames, 1..1000000000)" ;; esac
[ ${#COUNT} -le 10 ] && [ "$COUNT" -le 1000000000 ] || usage "COUNT='$COUNT' is out of range (accepted: frames, 1..1000000000)"
[ "$(id -u)" -eq 0 ] || die "needs root (a veth lab and XDP)"
command -v valgrind >/dev/null || die "no valgrind (scripts/deps.sh --test installs it)"
[ -x "$X" ] || die "no $X: run make"
have_peer=1
[ -x "$XDPSOCK" ] || { have_peer=0; echo "xsk-instr: no $XDPSOCK: xdplab alone (scripts/peers.sh build, then scripts/xsk-instr.sh build-xdpsock)" >&2; }
commit=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
out=${OUT:-$ROOT/bench/xsk-instr-$(date -u +%Y%m%dT%H%M%SZ)-$commit}
mkdir -p "$out"

LAB="" GNS="" DNS="" GEN="" DUT="" GPID=""
cleanup() {
	[ -z "$GPID" ] || kill -INT "$GPID" 2>/dev/null || true
	[ -z "$LAB" ] || "$X" lab teardown "$LAB" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
lab=$("$X" lab setup --out-pairs 1) || die "lab setup failed"
LAB=$(awk '$1=="lab"{print $2}' <<<"$lab")
GEN=$(awk '$1=="gen"{print $2}' <<<"$lab"); GNS=$(awk '$1=="gen"{print $4}' <<<"$lab")
DUT=$(awk '$1=="dut"{print $2}' <<<"$lab"); DNS=$(awk '$1=="dut"{print $4}' <<<"$lab")
txp() { ip netns exec "$DNS" cat "/sys/class/net/$DUT/statistics/tx_packets"; }

# measure ROW TOOL FN[,FN] CMD...: CMD in the DUT namespace on the last CPU
# under callgrind collecting in the FNs; prints "frames Ir calls" (calls: of
# the FNs).
measure() {
	local row=$1 tool=$2 fns=$3 fn f0 f1 cg i tog=()
	IFS=, read -ra fn <<<"$fns"
	for f in "${fn[@]}"; do tog+=(--toggle-collect="$f"); done
	shift 3
	cg=$out/$row-$tool.cg
	f0=$(txp)
	ip netns exec "$DNS" taskset -c "$LAST" valgrind --tool=callgrind -q \
		"${tog[@]}" --callgrind-out-file="$cg" "$@" >"$out/$row-$tool.log" 2>&1 ||
		die "$row $tool failed: $(tail -1 "$out/$row-$tool.log")"
	f1=$(txp)
	i=$(ir "$cg") || die "$row $tool: callgrind_annotate found no totals in $cg"
	echo "$((f1 - f0)) $i $(calls "$cg" "$fns")"
}

say() { echo "$*" | tee -a "$out/summary.txt"; }
: >"$out/summary.txt"
say "# xsk-instr: commit $commit, $("$X" --version 2>/dev/null || echo "$X: no --version"), $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ); xdpsock: $XDPSOCK"
for row in "${rows[@]}"; do
	declare -A per=()
	for tool in xdplab xdpsock; do
		[ "$tool" = xdpsock ] && [ $have_peer = 0 ] && continue
		if [ "$row" = l2fwd ]; then
			ip netns exec "$GNS" "$X" gen "$GEN" --cpu 0 -q >/dev/null 2>&1 &
			GPID=$!
			sleep 1
			if [ "$tool" = xdplab ]; then
				r=$(measure l2fwd xdplab xl_xsk_l2fwd_step "$X" xsk l2fwd "$DUT" --copy --quiet -d "$SECS")
			else
				r=$(measure l2fwd xdpsock l2fwd "$XDPSOCK" -l -i "$DUT" -q 0 -N -c -d "$SECS")
			fi
			kill -INT "$GPID" 2>/dev/null || true
			wait "$GPID" 2>/dev/null || true
			GPID=""
		else
			if [ "$tool" = xdplab ]; then
				r=$(measure txpush xdplab xl_xsk_txpush_step "$X" xsk txpush "$DUT" --copy --quiet --count "$COUNT")
			else
				r=$(measure txpush xdpsock tx_only,complete_tx_only_all "$XDPSOCK" -t -i "$DUT" -q 0 -N -c -C "$COUNT")
			fi
		fi
		read -r fr ir ncalls <<<"$r"
		[ "$fr" -gt 0 ] || die "$row $tool: no frame left the DUT"
		per[$tool]=$(awk -v i="$ir" -v f="$fr" 'BEGIN{printf "%.1f", i / f}')
		sat=""
		if [ "$row" = l2fwd ]; then
			# Saturated: at least 16 frames per call of the loop's
			# function (a quarter of the batch of 64; 32 and 63 in the
			# quiet lab, 0.03-0.23 on a loaded one), so RX was full at
			# the looks and empty polls are not what was counted.
			sat=$(awk -v f="$fr" -v c="$ncalls" 'BEGIN{ p = c ? f / c : 0
				if (p >= 16) printf ", saturated (%.1f frames per call)", p
				else printf ", NOT saturated (%.2f frames per call: empty polls are in the count, not the loop alone)", p }')
			case $sat in *"NOT saturated"*) unsat=1 ;; esac
		fi
		say "$row $tool: $fr frames, ${per[$tool]} instructions per frame (user space, libc wrappers out)$sat"
	done
	if [ -n "${per[xdpsock]:-}" ]; then
		say "$row xdplab / xdpsock: $(awk -v a="${per[xdplab]}" -v b="${per[xdpsock]}" 'BEGIN{printf "%.2f", a / b}') (goal at most 0.90)${unsat:+; a run was NOT saturated: not comparable}"
	fi
	unset unsat
	unset per
done
