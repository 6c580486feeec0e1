#!/usr/bin/env bash
# bench/limits/cmd-proc.sh - what the process of `xdplab redirect -q` and
# `xdplab run -q` (the example filter) does while idle on a lab (no
# traffic: the process's own wake-ups, not the work measured): voluntary
# context switches in 5 s (/proc/PID/task/*/status) and, in a second window
# of 5 s, its syscalls (strace -c -f). Counts only, no timing
# (docs/performance.md, "What the DUT's process does"). Root; makes and
# removes its own lab. XDPLAB=path of the binary (default build/xdplab).
set -u
R=$(cd "$(dirname "$0")/../.." && pwd)
X=${XDPLAB:-$R/build/xdplab}
command -v strace >/dev/null || { echo "cmd-proc.sh: needs strace (apt-get install strace)" >&2; exit 1; }
out=$($X lab setup --out-pairs 1) || exit 1
LAB=$(awk '$1=="lab"{print $2}' <<<"$out")
DUT=$(awk '$1=="dut"{print $2}' <<<"$out"); DNS=$(awk '$1=="dut"{print $4}' <<<"$out")
OUT=$(awk '$1=="out0"{print $2}' <<<"$out")
T=$(mktemp -d)
trap '$X lab teardown $LAB >/dev/null 2>&1; rm -rf "$T"' EXIT
sw() { cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt/{v+=$2} END{print v}'; }
one() {
	local name=$1 p v0 v1
	shift
	"$@" >/dev/null 2>&1 &
	p=$!
	sleep 1.5
	v0=$(sw $p); sleep 5; v1=$(sw $p)
	timeout 5 strace -c -f -p $p -o $T/$name.strace 2>/dev/null
	kill -INT $p; wait $p
	echo "$name: voluntary switches in 5 s: $((v1 - v0)); syscalls in 5 s: $(awk '/^100.00|total/{print $4}' $T/$name.strace)"
	grep -E "^ +[0-9]" $T/$name.strace | awk '{print $NF, $4}' | sort -k2 -nr | head -6 | tr '\n' ' '; echo
}
one redirect $X redirect -q --netns "$DNS" "$DUT" "$OUT"
one run $X run -q --netns "$DNS" "$DUT" --prog $R/build/examples/ddos_filter.o --map blocked_src=$R/examples/blocked_src.txt --map blocked_sport=$R/examples/blocked_sport.txt
