#!/usr/bin/env bash
# bench/limits/profile.sh - where each CPU's time per packet goes in AF_XDP
# rxdrop or l2fwd, xdpsock and xdplab side by side (docs/performance.md,
# "What limits each target not met").
#
#   bench/limits/profile.sh rxdrop|l2fwd|txpush [OUT]  (OUT default bench/limits/profile-MODE.txt)
#   BUSY=1 adds a variant, xdplab with --busy-poll; POLL=1 one with --poll.
#
# The wiring of scripts/peers.sh's rxdrop and l2fwd rows: one lab, softirq
# NAPI, xdplab gen (live frames, 1 thread) on CPU0, the application pinned
# to CPU1, 64 B; xdpsock with its defaults (-N -c, spinning), xdplab with
# its defaults for --cpu 1. For l2fwd the frames are counted back at the
# generator end (an XDP_DROP program there); txpush runs no generator and
# counts what arrives there (xdpsock -t against xdplab txpush). Each
# repetition runs every variant,
# the order rotating; during each window `perf record -a -g -e cpu-clock
# -c 250000` (software event, every 250 us of each CPU) and
# bench/limits/classify.py sorts every sample into the work it belongs to
# (generator, veth xmit, veth NAPI, the XDP program, the copy into the
# UMEM, xsk_rcv, the TX skb build...) and prints, per CPU, each part's
# share of this lab's samples and its ns per packet. perf.data stays in
# /tmp. Traffic only inside the lab this script makes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
X=${XDPLAB:-$ROOT/build/xdplab}
PEERS=${PEERS:-/tmp/speed-peers}
XS=$PEERS/bpf-examples/AF_XDP-example/xdpsock
MODE=${1:-}
OUTF=${2:-$ROOT/bench/limits/profile-$MODE.txt}
SECS=${SECS:-4}
REPS=${REPS:-2}
PERIOD=250000

die() { echo "profile.sh: $*" >&2; exit 1; }
case $MODE in rxdrop | l2fwd | txpush) ;; *) echo "usage: bench/limits/profile.sh rxdrop|l2fwd|txpush [OUT]" >&2; exit 2 ;; esac
[ -x "$X" ] || die "no $X: run make"
[ -x "$XS" ] || die "no xdpsock at $XS: scripts/peers.sh build, or PEERS=DIR"
command -v perf >/dev/null || die "no perf (scripts/deps.sh installs linux-perf)"

TMP=$(mktemp -d /tmp/xdplab-limits.XXXXXX)
SINKPID=""
# shellcheck source=bench/limits/lab.inc
. "$ROOT/bench/limits/lab.inc"
down() {
	if [ -n "$SINKPID" ]; then kill -INT "$SINKPID" 2>/dev/null || true; wait "$SINKPID" 2>/dev/null || true; fi
	limits_lab_down
	rm -rf "$TMP"
}
trap down EXIT
limits_lab_up

if [ "$MODE" != rxdrop ]; then
	ip netns exec "$GNS" ethtool -K "$GEN" gro on >/dev/null
	ip netns exec "$GNS" "$X" drop -q "$GEN" >/dev/null 2>&1 &
	SINKPID=$!
	sleep 1
	ctr() { ip netns exec "$GNS" ethtool -S "$GEN" | awk '$1=="rx_queue_0_xdp_packets:"{print $2}'; }
	if [ "$MODE" = l2fwd ]; then
		vs=("xdpsock|taskset -c 1 $XS -l -i $DUT -q 0 -N -c"
		    "xdplab|$X xsk l2fwd $DUT --copy --cpu 1 --quiet")
	else # txpush: no generator; what the application sends is counted
		vs=("xdpsock|taskset -c 1 $XS -t -i $DUT -q 0 -N -c"
		    "xdplab|$X xsk txpush $DUT --copy --cpu 1 --quiet")
	fi
else
	ctr() { ip netns exec "$DNS" ethtool -S "$DUT" | awk '$1=="rx_queue_0_xdp_redirect:"{print $2}'; }
	vs=("xdpsock|taskset -c 1 $XS -r -i $DUT -q 0 -N -c"
	    "xdplab|$X xsk rxdrop $DUT --copy --cpu 1 --quiet")
fi
# BUSY=1: also xdplab with --busy-poll, to see where veth's NAPI runs then
[ "${BUSY:-0}" = 1 ] && vs+=("xdplab-busy|$X xsk $MODE $DUT --copy --cpu 1 --busy-poll --quiet")
# POLL=1: also xdplab sleeping in poll() (need_wakeup), to see what its wake-ups cost CPU0
if [ "${POLL:-0}" = 1 ]; then vs+=("xdplab-poll|$X xsk $MODE $DUT --copy --cpu 1 --poll --quiet"); fi

window() { # window NAME REP CMD...
	local name=$1 rep=$2 pid gpid gpids c0 c1 t0 t1
	shift 2
	ip netns exec "$DNS" "$@" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	if [ "$MODE" = txpush ]; then
		ip netns exec "$GNS" sleep $((SECS + 3)) &
	else
		ip netns exec "$GNS" timeout -s INT $((SECS + 3)) "$X" gen "$GEN" --cpu 0 -q >/dev/null 2>&1 &
	fi
	gpid=$!
	sleep 1
	# ip netns exec and taskset exec: $pid is the application; timeout forks the generator
	gpids="$gpid,$(pgrep -d, -P "$gpid" || true)"
	c0=$(ctr); t0=$(date +%s%N)
	perf record -q -a -g -e cpu-clock -c "$PERIOD" -o "$TMP/perf.data" -- sleep "$SECS" >/dev/null 2>&1
	c1=$(ctr); t1=$(date +%s%N)
	wait "$gpid" || true
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	echo "## $MODE rep $rep $name: $(awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) 'BEGIN{printf "%.3f Mpps, %d packets", c / (t / 1e9) / 1e6, c}'), load $(cut -d' ' -f1 /proc/loadavg)"
	perf script -F comm,pid,tid,cpu,ip,sym -i "$TMP/perf.data" 2>/dev/null |
		python3 "$ROOT/bench/limits/classify.py" "$MODE" "$PERIOD" $((c1 - c0)) "$gpids" "$pid"
	rm -f "$TMP/perf.data"
}

{
	echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $REPS x $SECS s, $MODE, gen CPU0, app CPU1, softirq NAPI, perf cpu-clock every $((PERIOD / 1000)) us"
	n=${#vs[@]}
	for rep in $(seq "$REPS"); do
		for i in $(seq 0 $((n - 1))); do
			IFS='|' read -r name cmd <<<"${vs[$(( (i + rep) % n ))]}"
			# shellcheck disable=SC2086
			window "$name" "$rep" $cmd
		done
	done
	echo "# end $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUTF"
