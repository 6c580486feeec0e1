#!/usr/bin/env bash
# bench/limits/busypoll.sh - does busy polling move veth's NAPI work onto
# the AF_XDP application's CPU on this kernel? (docs/performance.md, "What
# limits each target not met"; issue 12's rxdrop target).
#
#   bench/limits/busypoll.sh [OUT]      (OUT default bench/limits/busypoll.txt)
#
# One lab (xdplab lab setup), softirq wiring: xdplab gen (live frames, one
# thread) on CPU0, the application pinned to CPU1, 64 B. Variants, each
# REPS times in rotating order, windows of SECS s:
#   probe-spin   bench/limits/xsk_napi_probe spinning on its RX ring
#   probe-busy   the same with SO_PREFER_BUSY_POLL + SO_BUSY_POLL 20 us +
#                SO_BUSY_POLL_BUDGET 64 and a recvfrom() per pass
#   probe-busy-defer  probe-busy with napi_defer_hard_irqs 2 and
#                gro_flush_timeout 200000 ns on the DUT veth (sysfs)
#   xdplab-busy-defer xdplab xsk rxdrop --busy-poll, the same sysfs knobs
#   xdplab-spin  xdplab xsk rxdrop --spin
#   xdpsock-busy xdpsock -B (its busy-poll mode), the same sysfs knobs, if PEERS has it
# and then a control: bench/limits/udp_busy.py, a UDP socket on the same
# veth, plain and busy polling (BusyPollRxPackets must move for it).
# Per window: the rate (the DUT veth's rx_queue_0_xdp_redirect), each
# CPU's softirq and system time per packet (/proc/stat, 10 ms ticks),
# NET_RX softirq runs per CPU (/proc/softirqs), and BusyPollRxPackets
# (/proc/net/netstat in the DUT namespace: frames that a busy-polling
# syscall's NAPI run received). The probe also prints the NAPI ids netdev
# netlink reports and the socket's SO_INCOMING_NAPI_ID. Shares and
# per-packet costs measured side by side stay valid under load; the rates
# do not. Traffic only inside the lab this script makes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
X=${XDPLAB:-$ROOT/build/xdplab}
PEERS=${PEERS:-/tmp/speed-peers}
XS=$PEERS/bpf-examples/AF_XDP-example/xdpsock
OUTF=${1:-$ROOT/bench/limits/busypoll.txt}
SECS=${SECS:-4}
REPS=${REPS:-3}
PROBE=$(mktemp /tmp/xsk_napi_probe.XXXXXX)

die() { echo "busypoll.sh: $*" >&2; exit 1; }
[ -x "$X" ] || die "no $X: run make"
cc -O2 -o "$PROBE" "$ROOT/bench/limits/xsk_napi_probe.c" -lxdp -lbpf -lmnl || die "cannot build the probe"

# shellcheck source=bench/limits/lab.inc
. "$ROOT/bench/limits/lab.inc"
down() {
	limits_lab_down
	rm -f "$PROBE"
}
trap down EXIT
limits_lab_up

ctr() { ip netns exec "$DNS" ethtool -S "$DUT" | awk '$1=="rx_queue_0_xdp_redirect:"{print $2}'; }
# "user sys softirq" ticks of CPU N
ticks() { awk -v c="cpu$1" '$1==c{print $2 + $3, $4, $8}' /proc/stat; }
netrx() { awk -v i=$(($1 + 2)) '$1=="NET_RX:"{print $i}' /proc/softirqs; }
bpkts() {
	ip netns exec "$DNS" awk '$1=="TcpExt:" && !h {for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next}
		$1=="TcpExt:" {for (i = 2; i <= NF; i++) if (n[i] == "BusyPollRxPackets") print $i}' /proc/net/netstat
}
knobs() { # knobs DEFER TIMEOUT_NS
	ip netns exec "$DNS" sh -c "echo $1 > /sys/class/net/$DUT/napi_defer_hard_irqs; echo $2 > /sys/class/net/$DUT/gro_flush_timeout"
}

# window NAME KNOBS(0|1) CMD...: one window; prints one result line
window() {
	local name=$1 k=$2 pid gpid c0 c1 t0 t1 a0 a1 b0 b1 r00 r01 r10 r11 p0 p1 log
	shift 2
	[ "$k" = 1 ] && knobs 2 200000 || knobs 0 0
	log=$(mktemp)
	ip netns exec "$DNS" taskset -c 1 "$@" >"$log" 2>&1 &
	pid=$!
	sleep 1
	ip netns exec "$GNS" timeout -s INT $((SECS + 2)) "$X" gen "$GEN" --cpu 0 -q >/dev/null 2>&1 &
	gpid=$!
	sleep 1
	c0=$(ctr); a0=$(ticks 0); b0=$(ticks 1); r00=$(netrx 0); r10=$(netrx 1); p0=$(bpkts); t0=$(date +%s%N)
	sleep "$SECS"
	c1=$(ctr); a1=$(ticks 0); b1=$(ticks 1); r01=$(netrx 0); r11=$(netrx 1); p1=$(bpkts); t1=$(date +%s%N)
	wait "$gpid" || true
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	knobs 0 0
	# ns per packet = ticks x 10 ms / packets
	awk -v n="$name" -v c=$((c1 - c0)) -v t=$((t1 - t0)) -v a0="$a0" -v a1="$a1" -v b0="$b0" -v b1="$b1" \
		-v r0=$((r01 - r00)) -v r1=$((r11 - r10)) -v p=$((p1 - p0)) 'BEGIN {
		split(a0, x); split(a1, y); split(b0, u); split(b1, v); k = c ? 1e7 / c : 0
		printf "%-18s %6.3f Mpps  cpu0 usr %5.1f sys %5.1f si %5.1f  cpu1 usr %5.1f sys %5.1f si %5.1f ns/pkt  net_rx runs cpu0 %d cpu1 %d  busypoll_rx %d (%.1f%%)\n",
			n, c / (t / 1e9) / 1e6, (y[1]-x[1])*k, (y[2]-x[2])*k, (y[3]-x[3])*k,
			(v[1]-u[1])*k, (v[2]-u[2])*k, (v[3]-u[3])*k, r0, r1, p, c ? 100 * p / c : 0 }'
	if [ "${name#probe}" != "$name" ] && [ ! -e "$OUTF.probe-$name" ]; then
		cp "$log" "$OUTF.probe-$name"
	fi
	rm -f "$log"
}

vs=("probe-spin|0|$PROBE $DUT $((SECS + 2))"
    "probe-busy|0|$PROBE $DUT $((SECS + 2)) busy"
    "probe-busy-defer|1|$PROBE $DUT $((SECS + 2)) busy"
    "xdplab-busy-defer|1|$X xsk rxdrop $DUT --copy --busy-poll --quiet"
    "xdplab-spin|0|$X xsk rxdrop $DUT --copy --spin --quiet")
[ -x "$XS" ] && vs+=("xdpsock-busy|1|$XS -r -i $DUT -q 0 -N -c -B")
{
	echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $REPS x $SECS s, gen CPU0, app CPU1, softirq NAPI"
	echo "# kernel knobs: busy_poll $(cat /proc/sys/net/core/busy_poll) busy_read $(cat /proc/sys/net/core/busy_read)"
	n=${#vs[@]}
	for rep in $(seq "$REPS"); do
		for i in $(seq 0 $((n - 1))); do
			IFS='|' read -r name k cmd <<<"${vs[$(( (i + rep) % n ))]}"
			# shellcheck disable=SC2086
			window "$name" "$k" $cmd
		done
	done
	echo "# end $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUTF"
# The control: a UDP socket on the same veth, fed by the same generator
# (port 9). It learns the NAPI id from the skbs that veth's NAPI hands to
# GRO, so BusyPollRxPackets must move when it busy-polls: the counter and
# the mechanism work on veth, and what the AF_XDP socket lacks is the id.
ip netns exec "$DNS" ethtool -K "$DUT" gro on >/dev/null
control() { # control plain|busy
	local m=$1 pid p0 p1 log
	log=$(mktemp)
	ip netns exec "$DNS" taskset -c 1 python3 "$ROOT/bench/limits/udp_busy.py" $((SECS + 1)) "$m" >"$log" 2>&1 &
	pid=$!
	sleep 0.5
	p0=$(bpkts)
	ip netns exec "$GNS" timeout -s INT "$SECS" "$X" gen "$GEN" --cpu 0 -q >/dev/null 2>&1 || true
	p1=$(bpkts)
	wait "$pid" || true
	echo "udp-$m: busypoll_rx $((p1 - p0)); $(tail -1 "$log")"
	rm -f "$log"
}
{
	echo "# control, UDP socket on port 9 of the same veth (GRO on), $REPS x $SECS s"
	for rep in $(seq "$REPS"); do control plain; control busy; done
} | tee -a "$OUTF"
for f in "$OUTF".probe-*; do
	echo "## $(basename "$f")"; cat "$f"
done >>"$OUTF"
rm -f "$OUTF".probe-*
