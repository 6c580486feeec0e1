#!/usr/bin/env bash
# The two demonstrations of docs/compare.md, one command each (root):
#   scripts/compare-demo.sh same    two lab runs of the same code, compared:
#                                   how many rows does compare flag?
#   scripts/compare-demo.sh extra   the drop rows with --extra-ns 10 against
#                                   the same rows without: a regression of
#                                   10 +- 3 CPU ns/packet, p < 0.05, on each?
#                                   Softirq wiring (the DUT's CPU time exact
#                                   from the softirq tracepoints), 12 pairs by
#                                   default. Interleaved: REPS pairs of
#                                   one-repetition runs (0 then 10, then 10
#                                   then 0, ...), merged into one file per
#                                   side, so the host's drift falls on both
#                                   sides alike.
#   scripts/compare-demo.sh sensitivity   lab run --sensitivity on the drop
#                                   rows: the smallest cost compare detects.
#   scripts/compare-demo.sh tpcost  what the softirq tracepoints (the DUT
#                                   CPU source in softirq wiring) cost:
#                                   REPS pairs (default 8) of one-repetition
#                                   drop/no-touch runs in softirq wiring with
#                                   them and with XDPLAB_SOFTIRQ_SOURCE=
#                                   proc-stat, interleaved; the paired median
#                                   differences of 1e9/pps and of the chain's
#                                   CPU ns/packet (schedstat, exact), and the
#                                   frames per softirq run.
# Knobs (environment): REPS (default 5; extra: 12; tpcost: 8), WINDOW (seconds, default
# 1), SIZES (default 64), ROWS (same: the XDP rows; extra: the four drop
# rows), WIRING (threaded or softirq; default lab run's; extra: softirq),
# EXTRA (default 10),
# OUT (directory for the JSON and text, default build/compare-demo).
# The load average before and after is printed: other load moves figures.
# Exit status: compare's (0 no regression, 1 a regression) or 2.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-}
what_reps=5
[ "$what" = tpcost ] && what_reps=8
[ "$what" = extra ] && what_reps=12
reps=${REPS:-$what_reps}
seconds=${WINDOW:-1}
sizes=${SIZES:-64}
extra=${EXTRA:-10}
out=${OUT:-build/compare-demo}
wiring=()
case $what in
extra|tpcost) wiring=(--wiring "${WIRING:-softirq}") ;;
*) [ -n "${WIRING:-}" ] && wiring=(--wiring "$WIRING") ;;
esac
case $what in
same) rows=${ROWS:-gen-ceiling,drop/no-touch,drop/read-data,drop/parse-ip,drop/swap-macs,pass,tx,redirect,redirect-cpu} ;;
extra|sensitivity) rows=${ROWS:-drop/no-touch,drop/read-data,drop/parse-ip,drop/swap-macs} ;;
tpcost) rows=${ROWS:-drop/no-touch} ;;
*) echo "usage: $0 same|extra|sensitivity|tpcost (see the comment at the top)" >&2; exit 2 ;;
esac
mkdir -p "$out"
x=./build/xdplab
run() { # run NAME ARGS...: one lab run into $out/NAME.json and .txt
	local name=$1
	shift
	"$x" lab run --rows "$rows" --sizes "$sizes" --reps "$reps" --seconds "$seconds" \
		"${wiring[@]}" "$@" --json "$out/$name.json" >"$out/$name.txt"
}
run_one() { # run_one NAME EXTRA: one repetition with --extra-ns EXTRA
	"$x" lab run --rows "$rows" --sizes "$sizes" --reps 1 --seconds "$seconds" \
		"${wiring[@]}" --extra-ns "$2" --json "$out/$1.json" >"$out/$1.txt"
}
echo "compare-demo $what: reps $reps x $seconds s, sizes $sizes, rows $rows ${wiring[*]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# merge SIDE: $out/SIDE-*.json (one repetition each) into $out/SIDE.json:
# every row's repetitions together, mpps recomputed from them, a row
# generator-bound if any of its runs was.
merge() {
	jq -s --argjson n "$reps" '
		def med: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		. as $all | $all[0] | .config.reps = $n |
		.rows = [range(0; .rows | length) as $k | $all[0].rows[$k] |
			.reps = [$all[].rows[$k].reps[]] |
			.verdict = (if [$all[].rows[$k].verdict] | index("generator-bound") then "generator-bound" else .verdict end) |
			(.reps | map(.pps / 1e6)) as $m |
			.mpps = { median: ($m | med), min: ($m | min), max: ($m | max) } |
			.ns_per_pkt = 1e3 / .mpps.median |
			.cpu_ns_per_pkt = (.reps | map(.cpu_ns_per_pkt) | med)]' \
		"$out/$1"-*.json >"$out/$1.json"
}
if [ "$what" = tpcost ]; then
	rm -f "$out"/tp-*.json "$out"/ps-*.json
	for i in $(seq 1 "$reps"); do
		for src in $([ $((i % 2)) = 1 ] && echo tp ps || echo ps tp); do
			env XDPLAB_SOFTIRQ_SOURCE="$([ "$src" = ps ] && echo proc-stat)" \
				"$x" lab run --rows "$rows" --sizes "$sizes" --reps 1 --seconds "$seconds" \
				"${wiring[@]}" --json "$out/$src-$i.json" >"$out/$src-$i.txt"
		done
	done
	echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
	for i in $(seq 1 "$reps"); do
		jq -c -s '[.[0].rows[0].reps[0], .[1].rows[0].reps[0]] |
			{ d_ns: (1e9 / .[0].pps - 1e9 / .[1].pps), d_chain: (.[0].chain_ns_per_pkt - .[1].chain_ns_per_pkt),
			  per_run: (if .[0].softirq_runs then .[0].packets / .[0].softirq_runs else null end) }' \
			"$out/tp-$i.json" "$out/ps-$i.json"
	done | tee "$out/tpcost.jsonl" | jq -r -s '
		def med: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		def r: . * 10 | round / 10;
		"tpcost: \(length) pairs, with - without the softirq tracepoints: median \([.[].d_ns] | med | r) ns/packet (1e9/pps), \([.[].d_chain] | med | r) chain CPU ns/packet (pairs \([.[].d_chain] | min | r)..\([.[].d_chain] | max | r)); \([.[].per_run | select(.)] | med | r) frames per softirq run (median)"'
	echo "compare-demo: files in $out (tp-N.json with the tracepoints, ps-N.json without; tpcost.jsonl: each pair's differences)"
	exit 0
fi
if [ "$what" = sensitivity ]; then
	run sensitivity --sensitivity
	echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
	sed -n '/^sensitivity:/,/^benchmark/p' "$out/sensitivity.txt" | sed '$d'
	jq -r '.sensitivity[] | "\(.name) \(.size) B: " + ([.tries[] | "\(.extra_ns) ns p \(.p * 1000 | round / 1000) d \(.delta_ns * 10 | round / 10)"] | join("; "))' \
		"$out/sensitivity.json"
	echo "compare-demo: files in $out"
	exit 0
elif [ "$what" = same ]; then
	run base
	run new
else
	rm -f "$out"/base-*.json "$out"/new-*.json
	for i in $(seq 1 "$reps"); do
		if [ $((i % 2)) = 1 ]; then
			run_one base-$i 0
			run_one new-$i "$extra"
		else
			run_one new-$i "$extra"
			run_one base-$i 0
		fi
	done
	merge base
	merge new
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rc=0
"$x" compare "$out/base.json" "$out/new.json" | tee "$out/compare.txt" || rc=$?
if [ "$what" = extra ]; then
	# What the CPU figure rests on: its source, the loop as calibrated, and
	# the frames per NET_RX softirq run (a run's fixed cost is shared by
	# them: when they differ between the sides, so does the per-packet cost).
	jq -r -s 'def med: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		def ppr: [.reps[] | select(.softirq_runs) | .packets / .softirq_runs] | med;
		.[0].rows as $b | .[1].rows as $n | range(0; $n | length) as $k |
		"\($n[$k].name): cpu_source \($n[$k].cpu_source // "-"); extra set \($n[$k].extra_ns.set // 0 | . * 10 | round / 10) ns (BPF_PROG_RUN check \($n[$k].extra_ns.check // "-") ns); frames per softirq run base \($b[$k] | ppr // "-" | if type == "number" then . * 10 | round / 10 else . end), new \($n[$k] | ppr // "-" | if type == "number" then . * 10 | round / 10 else . end)"' \
		"$out/base.json" "$out/new.json" | tee -a "$out/compare.txt"
fi
echo "compare-demo: JSON in $out/base.json and $out/new.json, compare's output in $out/compare.txt (compare exit status $rc)"
exit $rc
