#!/usr/bin/env bash
# bench/limits/prog-insns.sh - the instructions of xdplab's drop program
# against xdp-bench's, per packet operation (docs/performance.md, "The drop
# program's instructions"). No traffic: each program is attached in turn to
# the DUT end of a lab made here (xdplab drop -p OP -q, xdp-bench drop -p OP
# -m native), and the attached program is read back: the instructions the
# verifier left (bpftool prog dump xlated, one line per instruction; a
# 64-bit immediate load is one), the JITed image's size and its x86-64
# instructions (bench/limits/jited.py + objdump; prologue and epilogue
# included, on both sides). No timing: counts only.
# BEFORE=PATH: another xdplab binary (e.g. main's) for a "before" column.
# PEERS=DIR: where xdp-tools was built (default /tmp/speed-peers). Root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
X=${XDPLAB:-$here/../../build/xdplab}
XB=${PEERS:-/tmp/speed-peers}/xdp-tools/xdp-bench/xdp-bench
BEFORE=${BEFORE:-}
out=$($X lab setup) || exit 1
LAB=$(awk '$1=="lab"{print $2}' <<<"$out")
DUT=$(awk '$1=="dut"{print $2}' <<<"$out"); DNS=$(awk '$1=="dut"{print $4}' <<<"$out")
trap '$X lab teardown $LAB >/dev/null 2>&1' EXIT
tmp=$(mktemp -d)

# counts CMD...: attach CMD's program, print "xlated jited_bytes x86_insns".
counts() {
	local pid id xl n
	ip netns exec "$DNS" "$@" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 40); do
		id=$(ip netns exec "$DNS" bpftool -j net show dev "$DUT" |
			python3 -c 'import json,sys; x=json.load(sys.stdin)[0]["xdp"]; print(x[0]["id"] if x else "")')
		[ -n "$id" ] && break
		sleep 0.1
	done
	if [ -z "$id" ]; then echo "- - -"; kill -INT $pid; wait $pid; return; fi
	xl=$(bpftool prog dump xlated id "$id" | grep -cE '^ *[0-9]+: \(')
	python3 "$here/jited.py" "$id" "$tmp/j.bin"
	n=$(objdump -D -b binary -mi386:x86-64 "$tmp/j.bin" | grep -cE '^ +[0-9a-f]+:	')
	echo "$xl $(stat -c %s "$tmp/j.bin") $n"
	kill -INT $pid
	wait $pid 2>/dev/null
}

printf '%-10s | %-22s |%s %-22s | %s\n' "operation" "xdp-bench" \
	"${BEFORE:+ $(printf '%-22s |' 'xdplab before')}" "xdplab" "(BPF insns after the verifier / JIT bytes / x86 insns)"
for op in no-touch read-data parse-ip swap-macs; do
	read -r a1 a2 a3 <<<"$(counts "$XB" drop -p "$op" -m native "$DUT")"
	b=""
	if [ -n "$BEFORE" ]; then
		read -r b1 b2 b3 <<<"$(counts "$BEFORE" drop -p "$op" -q "$DUT")"
		b=" $(printf '%-22s |' "$b1 / $b2 / $b3")"
	fi
	read -r c1 c2 c3 <<<"$(counts "$X" drop -p "$op" -q "$DUT")"
	printf '%-10s | %-22s |%s %-22s |\n' "$op" "$a1 / $a2 / $a3" "$b" "$c1 / $c2 / $c3"
done
rm -rf "$tmp"
