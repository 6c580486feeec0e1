#!/usr/bin/env bash
# bench/limits/drop-gap.sh - where the DUT's NAPI CPU goes in the drop rows,
# xdplab drop against xdp-bench drop side by side (docs/performance.md,
# "What limits each target not met"): the wiring of scripts/peers.sh's drop
# rows (one lab, threaded NAPI pinned to CPU1, xdplab gen 1 thread on CPU0,
# 64 B), REPS repetitions of both (default 3); in each window the NAPI
# kthread's ns per packet (schedstat / rx_queue_0_xdp_packets over 3 s)
# while `perf record -C 1 -e cpu-clock` samples CPU1 every 250 us, then the
# top kernel symbols of each window. perf.data stays in /tmp. Root; traffic
# only inside the lab it makes. PEERS=DIR: where xdp-tools was built.
set -u
X=${XDPLAB:-$(cd "$(dirname "$0")/../.." && pwd)/build/xdplab}
XB=${PEERS:-/tmp/speed-peers}/xdp-tools/xdp-bench/xdp-bench
REPS=${REPS:-3}
out=$($X lab setup --out-pairs 1) || exit 1
LAB=$(awk '$1=="lab"{print $2}' <<<"$out")
GEN=$(awk '$1=="gen"{print $2}' <<<"$out"); GNS=$(awk '$1=="gen"{print $4}' <<<"$out")
DUT=$(awk '$1=="dut"{print $2}' <<<"$out"); DNS=$(awk '$1=="dut"{print $4}' <<<"$out")
trap '$X lab teardown $LAB >/dev/null 2>&1' EXIT
ip netns exec $DNS ethtool -K $DUT gro on >/dev/null
ip netns exec $DNS sh -c "echo 1 > /sys/class/net/$DUT/threaded"
sleep 0.2
NAPI=$(ps -eo pid=,comm= | awk -v c="napi/$DUT-" 'index($2, c) == 1 {print $1; exit}')
taskset -pc 1 $NAPI >/dev/null
for rep in $(seq 1 "$REPS"); do
for v in xdplab xdp-bench; do
	if [ $v = xdplab ]; then ip netns exec $DNS $X drop -p no-touch -q $DUT >/dev/null 2>&1 & else ip netns exec $DNS $XB drop -p no-touch -m native $DUT >/dev/null 2>&1 & fi
	pid=$!
	sleep 1
	ip netns exec $GNS $X gen $GEN --cpu 0 --duration 6 >/dev/null 2>&1 &
	gpid=$!
	sleep 1.5
	n0=$(awk '{print $1}' /proc/$NAPI/schedstat); c0=$(ip netns exec $DNS ethtool -S $DUT | awk '$1=="rx_queue_0_xdp_packets:"{print $2}')
	u0=$(awk '{print $14+$15}' /proc/$pid/stat)
	perf record -q -C 1 -e cpu-clock -c 250000 -o /tmp/drop-gap-$v-$rep.data -- sleep 3 >/dev/null 2>&1
	n1=$(awk '{print $1}' /proc/$NAPI/schedstat); c1=$(ip netns exec $DNS ethtool -S $DUT | awk '$1=="rx_queue_0_xdp_packets:"{print $2}')
	u1=$(awk '{print $14+$15}' /proc/$pid/stat)
	echo "$v rep $rep: $(( (c1-c0)/3 )) pps, NAPI $(( (n1-n0)/(c1-c0) )) ns/pkt, DUT process $(( (u1-u0) )) ticks in 3 s"
	wait $gpid; kill -INT $pid; wait $pid 2>/dev/null
	sleep 0.5
done
done
for f in /tmp/drop-gap-*.data; do
	echo "== ${f#/tmp/drop-gap-}: CPU1's samples by symbol"
	perf report -i "$f" --no-children --sort sym -q 2>/dev/null | head -14
done
