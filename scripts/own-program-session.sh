#!/bin/bash
# The walk-through of docs/own-program.md, steps 2-6, on a lab of its own:
# each command's output to OUTDIR (default bench/own-program-DATE), with a
# header naming the date, commit and load. Root; removes its lab on exit.
#   scripts/own-program-session.sh [OUTDIR]
# PARTS (default "walk prog-run live") chooses the groups: walk = steps
# 3-6, prog-run = the per-class figures, live = the run, ab and lab run
# sections.
set -u
cd "$(dirname "$0")/.." || exit 2
X=./build/xdplab
O=${1:-bench/own-program-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$O" || exit 1
M=(--map blocked_src=examples/blocked_src.txt --map blocked_sport=examples/blocked_sport.txt)
out=$($X lab setup) || exit 1
L=$(awk '/^lab/{print $2}' <<<"$out")
trap '$X lab teardown $L >/dev/null' EXIT
{
	echo "# scripts/own-program-session.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD), $(uname -r), $(nproc) CPUs"
	echo "# load at start: $(cut -d' ' -f1-3 /proc/loadavg); lab $L"
} >>"$O/README.txt"
PARTS=${PARTS:-walk prog-run live}
has() { [[ " $PARTS " == *" $1 "* ]]; }
if has walk; then
# step 3: what one packet costs, generated frames
$X prog-run build/examples/ddos_filter.o "${M[@]}" --packets v4,src=198.18.1.7 \
	--packets v4,sport=123 --packets v6 >"$O/3-prog-run.txt" 2>&1
# steps 4-5: traffic from a blocked prefix, the filter on it for 3 s
$X gen --netns "$L-gen" "${L}g" --src-ip 198.18.1.7 --flows 16 -d 25 -q >"$O/4-gen.txt" 2>&1 &
G=$!
sleep 1
$X run --netns "$L-dut" "${L}d" --prog build/examples/ddos_filter.o "${M[@]}" -d 3 -q >"$O/5-run.txt" 2>&1
# step 6: the filter against its variant, interleaved
$X ab --netns "$L-dut" "${L}d" "${M[@]}" --a build/examples/ddos_filter.o \
	--b build/examples/ddos_filter_extra.o -q >"$O/6-ab.txt" 2>&1
kill -INT $G 2>/dev/null; wait $G
# step 6, traffic that reaches the extra lookup (from NTP's port), 20 repetitions
$X gen --netns "$L-gen" "${L}g" --src-port 123 -d 25 -q >"$O/6-gen-sport123.txt" 2>&1 &
G=$!
sleep 1
$X ab --netns "$L-dut" "${L}d" "${M[@]}" --a build/examples/ddos_filter.o \
	--b build/examples/ddos_filter_extra.o --reps 20 -q >"$O/6-ab-sport123.txt" 2>&1
kill -INT $G 2>/dev/null; wait $G
fi
if has prog-run; then
# "What one packet costs": the project's own capture (one frame per case of
# the filter), then the filter against its variant per class
python3 tests/e2e/prog/mkpcap.py "$O/own.pcap" >/dev/null || exit 1
$X prog-run build/examples/ddos_filter.o "${M[@]}" --pcap "$O/own.pcap" -r 100000 \
	>"$O/prog-run-own.txt" 2>&1
$X prog-run "${M[@]}" --a build/examples/ddos_filter.o --b build/examples/ddos_filter_extra.o \
	--pcap "$O/own.pcap" -r 20000 --rounds 15 >"$O/prog-run-ab.txt" 2>&1
fi
if has live; then
# "On live traffic": the filter on a blocked prefix, with its interval lines
$X gen --netns "$L-gen" "${L}g" --src-ip 198.18.1.7 -d 8 -q >/dev/null 2>&1 &
G=$!
sleep 1
$X run --netns "$L-dut" "${L}d" --prog build/examples/ddos_filter.o "${M[@]}" -d 3 >"$O/run-live.txt" 2>&1
kill -INT $G 2>/dev/null; wait $G
# "Two programs, one run": the e2e loop objects, the built-in pair, the
# filter against its variant on the lab's default traffic (passed to the stack)
T=$(mktemp -d)
for n in 0 200; do
	clang -O2 -g -target bpf -DLOOP=$n -I/usr/include/"$(gcc -print-multiarch)" \
		-c tests/e2e/prog/loop.bpf.c -o "$T/loop$n.o" || exit 1
done
$X gen --netns "$L-gen" "${L}g" -d 40 -q >/dev/null 2>&1 &
G=$!
sleep 1
$X ab --netns "$L-dut" "${L}d" --a "$T/loop0.o" --b "$T/loop200.o" -q >"$O/ab-loop0-loop200.txt" 2>&1
$X ab --netns "$L-dut" "${L}d" --a "$T/loop0.o" --b "$T/loop0.o" -q >"$O/ab-loop0-loop0.txt" 2>&1
$X ab --netns "$L-dut" "${L}d" --a drop:no-touch --b drop:read-data -q >"$O/ab-no-touch-read-data.txt" 2>&1
$X ab --netns "$L-dut" "${L}d" "${M[@]}" --a build/examples/ddos_filter.o \
	--b build/examples/ddos_filter_extra.o --reps 16 -q >"$O/ab-filter-pass.txt" 2>&1
kill -INT $G 2>/dev/null; wait $G
# "Next to the built-in rows": lab run --prog (the drop path) and --ab
$X lab run --rows drop/no-touch --sizes 64 --prog build/examples/ddos_filter.o \
	--map blocked_src=examples/blocked_lab.txt --map blocked_sport=examples/blocked_sport.txt \
	>"$O/lab-run-prog.txt" 2>&1
$X lab run --rows drop/no-touch --sizes 64 --reps 6 --seconds 0.3 --warmup 0.1 \
	--ab "$T/loop0.o,$T/loop200.o" >"$O/lab-run-ab.txt" 2>&1
rm -rf "$T"
fi
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$O/README.txt"
echo "$O"
