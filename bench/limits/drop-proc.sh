#!/usr/bin/env bash
# bench/limits/drop-proc.sh - what the DUT's user process and the NAPI
# kthread do besides the program, `xdplab drop -q` against `xdp-bench drop
# -m native`, in the threaded wiring of scripts/peers.sh's drop rows (one
# lab, GRO on, threaded NAPI pinned to CPU1, xdplab gen 1 thread on CPU0,
# 64 B). Counts only, no timing (docs/performance.md, "What the DUT's
# process does"): per tool and repetition, over a window of SECS seconds
# (default 5): how each is attached (bpftool net), the process's and its
# threads' voluntary / involuntary context switches (/proc/PID/task/*/status),
# the CPUs they ran on (/proc/PID/task/*/stat field 39, sampled every
# 0.1 s), the NAPI kthread's switches (/proc/NAPI/sched), and in a second
# window of the same length the process's syscalls (strace -c -f). REPS
# repetitions (default 2), tools alternating. Root; traffic only inside the
# lab it makes. PEERS=DIR: where xdp-tools was built; needs strace.
set -u
X=${XDPLAB:-$(cd "$(dirname "$0")/../.." && pwd)/build/xdplab}
XB=${PEERS:-/tmp/speed-peers}/xdp-tools/xdp-bench/xdp-bench
REPS=${REPS:-2}
SECS=${SECS:-5}
command -v strace >/dev/null || { echo "drop-proc.sh: needs strace (apt-get install strace)" >&2; exit 1; }
out=$($X lab setup --out-pairs 1) || exit 1
LAB=$(awk '$1=="lab"{print $2}' <<<"$out")
GEN=$(awk '$1=="gen"{print $2}' <<<"$out"); GNS=$(awk '$1=="gen"{print $4}' <<<"$out")
DUT=$(awk '$1=="dut"{print $2}' <<<"$out"); DNS=$(awk '$1=="dut"{print $4}' <<<"$out")
trap '$X lab teardown $LAB >/dev/null 2>&1' EXIT
ip netns exec "$DNS" ethtool -K "$DUT" gro on >/dev/null
ip netns exec "$DNS" sh -c "echo 1 > /sys/class/net/$DUT/threaded"
sleep 0.2
NAPI=$(ps -eo pid=,comm= | awk -v c="napi/$DUT-" 'index($2, c) == 1 {print $1; exit}')
[ -n "$NAPI" ] || { echo "no NAPI kthread for $DUT" >&2; exit 1; }
taskset -pc 1 "$NAPI" >/dev/null
ip netns exec "$GNS" ethtool -K "$(awk '$1=="out0"{print $6}' <<<"$out")" gro on >/dev/null

# switches PID: "voluntary involuntary" summed over the process's threads
switches() {
	cat /proc/"$1"/task/*/status 2>/dev/null |
		awk '/^voluntary_ctxt/{v+=$2} /^nonvoluntary_ctxt/{n+=$2} END{print v+0, n+0}'
}
napi_sw() {
	awk '$1=="nr_voluntary_switches"{v=$3} $1=="nr_involuntary_switches"{n=$3} END{print v, n}' /proc/"$NAPI"/sched
}
for rep in $(seq 1 "$REPS"); do
	for v in xdplab xdp-bench; do
		if [ $v = xdplab ]; then
			ip netns exec "$DNS" "$X" drop -p no-touch -q "$DUT" >/dev/null 2>&1 &
		else
			ip netns exec "$DNS" "$XB" drop -p no-touch -m native "$DUT" >/dev/null 2>&1 &
		fi
		pid=$!
		sleep 1
		# ip netns exec execs the tool: $pid is the tool itself
		ip netns exec "$GNS" "$X" gen "$GEN" --cpu 0 --duration $((2 * SECS + 4)) >/dev/null 2>&1 &
		gpid=$!
		sleep 1.5
		[ "$rep" = 1 ] && echo "$v attach: $(ip netns exec "$DNS" bpftool net show dev "$DUT" | awk '/^xdp:/{getline; print}')"
		read -r pv0 pn0 <<<"$(switches $pid)"; read -r nv0 nn0 <<<"$(napi_sw)"
		cpus=$(for _ in $(seq $((SECS * 10))); do
			cat /proc/$pid/task/*/stat 2>/dev/null | awk '{print $39}'
			sleep 0.1
		done | sort | uniq -c | awk '{printf "CPU%s x%s ", $2, $1}')
		read -r pv1 pn1 <<<"$(switches $pid)"; read -r nv1 nn1 <<<"$(napi_sw)"
		echo "$v rep $rep: $(ls /proc/$pid/task | wc -l) threads; process switches in ${SECS} s: voluntary $((pv1 - pv0)) involuntary $((pn1 - pn0)); ran on (0.1 s samples): $cpus; NAPI kthread switches: voluntary $((nv1 - nv0)) involuntary $((nn1 - nn0))"
		timeout -s INT "$SECS" strace -c -f -p "$pid" -o /tmp/drop-proc-strace-$v-$rep.txt >/dev/null 2>&1
		echo "$v rep $rep syscalls in ${SECS} s: $(awk '$NF!="total" && $4 ~ /^[0-9]+$/ {printf "%s %s, ", $NF, $4} $NF!="total" && $5 ~ /^[0-9]+$/ && $4 !~ /^[0-9]+$/ {}' /tmp/drop-proc-strace-$v-$rep.txt)"
		wait $gpid
		kill -INT $pid
		wait $pid 2>/dev/null
		sleep 0.5
	done
done
