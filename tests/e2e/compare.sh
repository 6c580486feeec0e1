#!/usr/bin/env bash
# End-to-end tests of 'xdplab compare': bad input (exit 2, one line), a
# regression (exit 1), the formats, the committed bench/*.json runs and
# their latency rows (these five need no root), two real short lab runs compared, and --extra-ns /
# --sensitivity (compare_lab_runs, extra_ns_lab_row, extra_ns_single_json,
# sensitivity_too_few, sensitivity_search, softirq_cpu_source and
# softirq_tp_scoped run labs or attach XDP: root;
# without it each says "SKIP: needs root"; extra_ns_bad needs none).
#   tests/e2e/compare.sh          run all
#   tests/e2e/compare.sh -l       list the tests
#   tests/e2e/compare.sh -t NAME  run one
# Ends with "N passed, N failed, N skipped". No timing assertions: verdicts
# asserted are those the data decides (files written here, committed runs,
# or 3 vs 3 repetitions, which can never reach p < 0.05).
set -u
cd "$(dirname "$0")/../.."
X=${XDPLAB:-./build/xdplab} # XDPLAB=path: test another binary (run.sh)
TMP=$(mktemp -d /tmp/xdplab-e2e.XXXXXX)
trap 'ip netns del xlcmp$$ 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM HUP

TESTS=(compare_bad_inputs compare_regression_exit compare_formats compare_bench_files compare_latency_bench
       compare_zero_rate compare_duplicates
       compare_lab_runs extra_ns_bad extra_ns_lab_row prog_time_lab_row extra_ns_single_json sensitivity_too_few
       sensitivity_search softirq_cpu_source softirq_tp_scoped compare_long_name
       compare_untrusted_text compare_runs compare_runs_bad compare_runs_dirs lab_aa_bad lab_aa
       compare_junit compare_junit_runs compare_junit_untrusted compare_markdown_pr compare_figure
       compare_figure_prog
       compare_geomean_csv)

fail() { echo "$*"; return 1; }
expect_eq() { [ "$2" == "$3" ] || fail "$1: got '$2', want '$3'"; }

# doc FILE SCHEMA REPS ROW...: a results file; ROW is "name size wiring verdict pps,pps.. cpu,cpu.."
doc() {
	local f=$1 schema=$2 reps=$3 first=1 name size wiring verdict pps cpu r
	shift 3
	{
		printf '{"schema": "%s", "date": "2026-12-01T00:00:00Z", "git": "t", "machine": {"kernel": "k", "arch": "x86_64", "cpus": 2},' "$schema"
		printf ' "config": {"reps": %d, "seconds": 1, "warmup": 0.25}, "lab": "t", "rows": [' "$reps"
		for r in "$@"; do
			read -r name size wiring verdict pps cpu <<<"$r"
			[ $first = 1 ] || printf ', '
			first=0
			printf '{"name": "%s", "packet_operation": "no-touch", "size": %d, "mode": "native", "wiring": "%s", "gen_engine": "live", "verdict": "%s", "note": "", "reps": [' \
				"$name" "$size" "$wiring" "$verdict"
			paste -d' ' <(tr , '\n' <<<"$pps") <(tr , '\n' <<<"$cpu") |
				awk '{ printf "%s{\"pps\": %s, \"cpu_ns_per_pkt\": %s}", (NR > 1 ? ", " : ""), $1, $2 }'
			printf ']}'
		done
		printf ']}\n'
	} >"$f"
}

# bad ARGS... -- WANT (SEP=++: ARGS... ++ WANT): exit 2, empty stdout, exactly the one line WANT on stderr.
bad() {
	local args=() want sep=${SEP:---}
	while [ "$1" != "$sep" ]; do args+=("$1"); shift; done
	want=$2
	"$X" compare "${args[@]}" >"$TMP/out" 2>"$TMP/err"
	expect_eq "exit status of 'compare ${args[*]}'" "$?" 2 || return 1
	[ ! -s "$TMP/out" ] || fail "stdout not empty: $(cat "$TMP/out")" || return 1
	expect_eq "lines on stderr of 'compare ${args[*]}'" "$(wc -l <"$TMP/err")" 1 || return 1
	expect_eq "message" "$(cat "$TMP/err")" "$want"
}

t_compare_bad_inputs() {
	local A=$TMP/a.json B=$TMP/b.json
	doc "$A" xdplab.lab-results/1 3 "drop/no-touch 64 threaded valid 1e6,1e6,1e6 1,1,1"
	doc "$B" xdplab.lab-results/1 3 "pass 64 threaded valid 1e6,1e6,1e6 1,1,1"
	doc "$TMP/v2.json" xdplab.lab-results/2 3 "pass 64 threaded valid 1e6,1e6,1e6 1,1,1"
	echo '{"schema": "other/1", "rows": []}' >"$TMP/other.json"
	echo 'not json' >"$TMP/text.json"
	bad "$A" "$TMP/missing.json" -- \
		"xdplab compare: $TMP/missing.json: cannot open: No such file or directory" || return 1
	# A directory is a side's runs: every *.json in it; none is an error.
	mkdir "$TMP/empty"
	bad "$TMP/empty" "$A" -- "xdplab compare: $TMP/empty: no results file (*.json) in the directory" || return 1
	bad "$TMP/text.json" "$A" -- \
		"xdplab compare: $TMP/text.json: not JSON (line 1: '[' or '{' expected near 'not'); expected an xdplab results file (lab run --json)" || return 1
	bad "$A" "$TMP/other.json" -- \
		"xdplab compare: $TMP/other.json: not an xdplab results file (no \"schema\": \"xdplab.NAME/1\" with a \"rows\" array)" || return 1
	bad "$TMP/v2.json" "$A" -- \
		"xdplab compare: $TMP/v2.json: schema xdplab.lab-results/2 is not supported (accepted: version 1, e.g. xdplab.lab-results/1)" || return 1
	bad "$A" "$B" -- \
		"xdplab compare: $A and $B have no row in common (1 and 1 rows; rows pair by name, packet operation, size and mode)" || return 1
	bad "$A" -- "xdplab compare: two files expected: BASE.json NEW.json (got 1)" || return 1
	bad "$A" "$A" "$A" -- "xdplab compare: 3 files: put -- between the BASE runs and the NEW runs (BASE.json... -- NEW.json...)" || return 1
	bad --alpha 0 "$A" "$A" -- "xdplab compare: --alpha: '0' is out of range (accepted: 0.0001..0.5)" || return 1
	bad --alpha x "$A" "$A" -- "xdplab compare: --alpha: 'x' is not a number (accepted: 0.0001..0.5)" || return 1
	bad --threshold-ns -1 "$A" "$A" -- "xdplab compare: --threshold-ns: '-1' is out of range (accepted: 0..1000000)" || return 1
	# Decimal only: strtod() also took hex floats, "-0", "+", blanks.
	bad --threshold-ns 0x10 "$A" "$A" -- "xdplab compare: --threshold-ns: '0x10' is not a number (accepted: 0..1000000)" || return 1
	bad --threshold-ns -0 "$A" "$A" -- "xdplab compare: --threshold-ns: '-0' is out of range (accepted: 0..1000000)" || return 1
	bad --alpha 0x1p-4 "$A" "$A" -- "xdplab compare: --alpha: '0x1p-4' is not a number (accepted: 0.0001..0.5)" || return 1
	bad --alpha -0 "$A" "$A" -- "xdplab compare: --alpha: '-0' is out of range (accepted: 0.0001..0.5)" || return 1
	bad --alpha ' 0.1' "$A" "$A" -- "xdplab compare: --alpha: ' 0.1' is not a number (accepted: 0.0001..0.5)" || return 1
	bad --format html "$A" "$A" -- "xdplab compare: --format: 'html' is not accepted (accepted: text, markdown, junit, csv)" || return 1
	bad --json --format text "$A" "$A" -- "xdplab compare: --json and --format exclude each other (choose one output)" || return 1
}

# 5 vs 5 repetitions: drop 10 -> 9 Mpps (+11.1 ns/packet), pass faster, tx the same.
two_runs() {
	doc "$TMP/base.json" xdplab.lab-results/1 5 \
		"drop/no-touch 64 threaded valid 10e6,10.1e6,9.9e6,10.05e6,9.95e6 50,50,50,50,50" \
		"pass 64 threaded valid 1e6,1e6,1e6,1e6,1e6 900,900,900,900,900" \
		"tx 64 threaded generator-bound 3e6,3e6,3e6,3e6,3e6 300,301,299,300,300"
	doc "$TMP/new.json" xdplab.lab-results/1 5 \
		"drop/no-touch 64 threaded valid 9e6,9.1e6,8.9e6,9.05e6,8.95e6 55,55,55,55,55" \
		"pass 64 threaded valid 1.1e6,1.2e6,1.15e6,1.12e6,1.13e6 800,800,800,800,800" \
		"tx 64 threaded generator-bound 2.5e6,2.6e6,2.4e6,2.5e6,2.5e6 300,301,299,300,300"
}

t_compare_regression_exit() {
	two_runs
	"$X" compare "$TMP/base.json" "$TMP/new.json" >"$TMP/out" 2>"$TMP/err"
	expect_eq "exit status with a regression" "$?" 1 || return 1
	[ ! -s "$TMP/err" ] || fail "stderr not empty: $(cat "$TMP/err")" || return 1
	grep -Eq '^drop/no-touch +64 native +threaded .* \+11\.11 .* 5/5  0\.008  regression$' "$TMP/out" ||
		fail "no drop regression line: $(cat "$TMP/out")" || return 1
	grep -Eq '^pass +64 .* 0\.008  improvement$' "$TMP/out" || fail "no pass improvement: $(cat "$TMP/out")" || return 1
	# tx: the rate fell but the generator set it; the DUT's CPU did not move.
	grep -Eq '^tx +64 .* \+66\.67 .* 1\.000  ~ \(generator-bound: on DUT CPU ns/packet\)$' "$TMP/out" ||
		fail "tx is not '~' on CPU ns/packet: $(cat "$TMP/out")" || return 1
	grep -q '^3 rows in base, 3 in new: 3 paired, 3 compared; 1 regression(s), 1 improvement(s), 1 ~, 0 not comparable or not measured, 0 in one file only$' "$TMP/out" ||
		fail "summary line: $(tail -1 "$TMP/out")" || return 1
	# Beyond a threshold above the change: no regression, exit 0.
	"$X" compare --threshold-ns 12 "$TMP/base.json" "$TMP/new.json" >"$TMP/out" 2>&1
	expect_eq "exit status with --threshold-ns 12" "$?" 0 || return 1
	# The same file against itself: every row "~", exit 0.
	"$X" compare "$TMP/base.json" "$TMP/base.json" >"$TMP/out" 2>&1
	expect_eq "exit status, a file against itself" "$?" 0 || return 1
	expect_eq "'~' rows against itself" "$(grep -Ec ' 1\.000  ~( |$)' "$TMP/out")" 3
}

t_compare_formats() {
	two_runs
	"$X" compare --json "$TMP/base.json" "$TMP/new.json" >"$TMP/out.json" 2>"$TMP/err"
	expect_eq "exit status with --json" "$?" 1 || return 1
	expect_eq "JSON verdicts" "$(jq -r '[.rows[].verdict] | join(",")' "$TMP/out.json")" "regression,improvement,~" || return 1
	expect_eq "JSON metrics" "$(jq -r '[.rows[].metric] | join(",")' "$TMP/out.json")" "ns_per_pkt,ns_per_pkt,cpu_ns_per_pkt" || return 1
	expect_eq "JSON drop delta ns" "$(jq -r '.rows[0].delta_ns_per_pkt * 100 | round' "$TMP/out.json")" 1111 || return 1
	expect_eq "JSON drop p" "$(jq -r '.rows[0].p * 252 | round' "$TMP/out.json")" 2 || return 1
	expect_eq "JSON summary" "$(jq -c '.summary' "$TMP/out.json")" \
		'{"base_rows":3,"new_rows":3,"paired":3,"compared":3,"regressions":1,"improvements":1}' || return 1
	"$X" compare --format markdown "$TMP/base.json" "$TMP/new.json" >"$TMP/out.md" 2>&1
	expect_eq "exit status with --format markdown" "$?" 1 || return 1
	grep -q '^| benchmark | size | mode | wiring |' "$TMP/out.md" || fail "no markdown header: $(cat "$TMP/out.md")" || return 1
	# The title is bold on its own line: ** opens and closes on that line.
	grep -Eq '^\*\*xdplab compare: base .*\*\*$' "$TMP/out.md" || fail "title not bold: $(head -2 "$TMP/out.md")" || return 1
	grep -Eq '^\| drop/no-touch \| 64 \| native \| threaded \| .* \| \+11\.11 \| .* \| 5/5 \| 0\.008 \| regression \|$' "$TMP/out.md" ||
		fail "no markdown drop row: $(cat "$TMP/out.md")"
}

# benchstat's geomean row and -format csv: two_runs' medians are 10, 1, 3
# Mpps against 9, 1.13, 2.5 (CPU 50, 900, 300 ns against 55, 800, 300): the
# geometric means 30^(1/3) = 3.107 and 25.425^(1/3) = 2.940 Mpps, -5.4%;
# CPU 238.110 and 236.333 ns (awk gives the same). One row alone has no geomean; CSV quotes a name
# with a comma and puts a ' before a leading '='; several runs a side are
# refused in CSV.
t_compare_geomean_csv() {
	local want
	two_runs
	"$X" compare "$TMP/base.json" "$TMP/new.json" >"$TMP/out" 2>&1
	expect_eq "exit status" "$?" 1 || return 1
	expect_eq "geomean line" "$(grep '^geomean ' "$TMP/out" | tr -s ' ')" \
		"geomean 3.107 2.940 -0.167 (-5.4%) +18.25 238.1 236.3 -1.78 geometric mean of 3 rows" || return 1
	expect_eq "geomean right after the last row" "$(grep -A1 '^tx ' "$TMP/out" | tail -1 | cut -c1-8)" "geomean " || return 1
	"$X" compare --format markdown "$TMP/base.json" "$TMP/new.json" >"$TMP/out.md" 2>&1
	expect_eq "markdown geomean row" "$(grep '^| geomean ' "$TMP/out.md")" \
		"| geomean | | | | 3.107 | 2.940 | -0.167 (-5.4%) | +18.25 | 238.1 | 236.3 | -1.78 | | | geometric mean of 3 rows |" || return 1
	"$X" compare --format csv "$TMP/base.json" "$TMP/new.json" >"$TMP/out.csv" 2>"$TMP/err"
	expect_eq "csv: exit status" "$?" 1 || return 1
	expect_eq "csv: stderr" "$(cat "$TMP/err")" "" || return 1
	want="benchmark,size,mode,wiring,base_mpps,base_min_mpps,base_max_mpps,new_mpps,new_min_mpps,new_max_mpps,delta_mpps,delta_pct,delta_ns_per_packet,base_cpu_ns_per_packet,new_cpu_ns_per_packet,delta_cpu_ns_per_packet,base_reps,new_reps,p,verdict
drop/no-touch,64,native,threaded,10.000000,9.900000,10.100000,9.000000,8.900000,9.100000,-1.000000,-10.000,+11.111,50.000,55.000,+5.000,5,5,0.0079,regression
pass,64,native,threaded,1.000000,1.000000,1.000000,1.130000,1.100000,1.200000,+0.130000,+13.000,-115.044,900.000,800.000,-100.000,5,5,0.0079,improvement
tx,64,native,threaded,3.000000,3.000000,3.000000,2.500000,2.400000,2.600000,-0.500000,-16.667,+66.667,300.000,300.000,+0.000,5,5,1.0000,~
geomean,,,,3.107233,,,2.940494,,,-0.166738,-5.366,+18.249,238.110,236.333,-1.777,,,,geometric mean of 3 rows"
	expect_eq "csv" "$(cat "$TMP/out.csv")" "$want" || return 1
	doc "$TMP/one-a.json" xdplab.lab-results/1 3 "=cmd,x 64 threaded valid 1e6,1e6,1e6 1,1,1"
	doc "$TMP/one-b.json" xdplab.lab-results/1 3 "=cmd,x 64 threaded valid 1e6,1e6,1e6 1,1,1"
	"$X" compare "$TMP/one-a.json" "$TMP/one-b.json" >"$TMP/out" 2>&1
	expect_eq "one row: no geomean" "$(grep -c "^geomean" "$TMP/out")" 0 || return 1
	"$X" compare -f csv "$TMP/one-a.json" "$TMP/one-b.json" >"$TMP/out.csv" 2>&1
	expect_eq "one row: csv" "$(tail -n +2 "$TMP/out.csv")" \
		"\"'=cmd,x\",64,native,threaded,1.000000,1.000000,1.000000,1.000000,1.000000,1.000000,+0.000000,+0.000,+0.000,1.000,1.000,+0.000,3,3,1.0000,too few reps" || return 1
	cp "$TMP/one-a.json" "$TMP/one-c.json"
	"$X" compare -f csv "$TMP/one-a.json" "$TMP/one-c.json" -- "$TMP/one-b.json" >"$TMP/out" 2>"$TMP/err"
	expect_eq "csv, several runs a side: exit status" "$?" 2 || return 1
	expect_eq "csv, several runs a side: stderr" "$(cat "$TMP/err")" \
		"xdplab compare: --format csv is for one run a side (several runs a side: text, markdown, junit or --json)"
}

# A rate that fell to 0 pps read as 0 ns/packet and a delta of 0: '~',
# exit 0. It is a regression (exit 1), also with 3 vs 3; from 0 an improvement.
t_compare_zero_rate() {
	doc "$TMP/base.json" xdplab.lab-results/1 3 \
		"drop/no-touch 64 threaded valid 10e6,10.1e6,9.9e6 50,50,50" \
		"pass 64 threaded valid 0,0,0 0,0,0"
	doc "$TMP/new.json" xdplab.lab-results/1 3 \
		"drop/no-touch 64 threaded valid 0,0,0 0,0,0" \
		"pass 64 threaded valid 1e6,1e6,1e6 900,900,900"
	"$X" compare "$TMP/base.json" "$TMP/new.json" >"$TMP/out" 2>"$TMP/err"
	expect_eq "exit status, a rate fallen to 0" "$?" 1 || return 1
	grep -Eq '^drop/no-touch +64 native +threaded .* 3/3 +0\.100  regression: rate fell to 0 pps in 3 of 3 new repetitions$' "$TMP/out" ||
		fail "no drop regression line: $(cat "$TMP/out")" || return 1
	grep -Eq '^pass +64 native +threaded .* 3/3 +0\.100  improvement: rate rose from 0 pps \(0 in 3 of 3 base repetitions\)$' "$TMP/out" ||
		fail "no pass improvement line: $(cat "$TMP/out")" || return 1
	expect_eq "summary" "$(tail -1 "$TMP/out")" \
		"2 rows in base, 2 in new: 2 paired, 2 compared; 1 regression(s), 1 improvement(s), 0 ~, 0 not comparable or not measured, 0 in one file only" || return 1
	"$X" compare --json "$TMP/base.json" "$TMP/new.json" >"$TMP/out.json" 2>&1
	expect_eq "exit status with --json" "$?" 1 || return 1
	expect_eq "JSON verdicts and reasons" "$(jq -c '[.rows[] | [.verdict, .reason]]' "$TMP/out.json")" \
		'[["regression","rate fell to 0 pps in 3 of 3 new repetitions"],["improvement","rate rose from 0 pps (0 in 3 of 3 base repetitions)"]]' || return 1
	# The other way round: drop rose from 0, pass fell to 0: exit 1 still.
	"$X" compare "$TMP/new.json" "$TMP/base.json" >"$TMP/out" 2>&1
	expect_eq "exit status, rates risen from 0 and fallen to 0" "$?" 1 || return 1
}

# A row twice in one file paired by its place in the file: refused, exit 2.
t_compare_duplicates() {
	local A=$TMP/a.json B=$TMP/b.json
	doc "$A" xdplab.lab-results/1 3 "drop/no-touch 64 threaded valid 1e6,1e6,1e6 1,1,1" \
		"pass 64 threaded valid 1e6,1e6,1e6 1,1,1" "drop/no-touch 64 threaded valid 2e6,2e6,2e6 1,1,1"
	doc "$B" xdplab.lab-results/1 3 "drop/no-touch 64 threaded valid 1e6,1e6,1e6 1,1,1"
	bad "$B" "$A" -- \
		"xdplab compare: $A: rows 1 and 3 are the same row (name drop/no-touch, packet operation no-touch, size 64, mode native, wiring threaded, engine live); each row must appear once" || return 1
	bad --json "$A" "$B" -- \
		"xdplab compare: $A: rows 1 and 3 are the same row (name drop/no-touch, packet operation no-touch, size 64, mode native, wiring threaded, engine live); each row must appear once"
}

# runs FIRST N NS0 STEP: N files $TMP/FIRST-1.json.. of drop/no-touch and
# tx (generator-bound) at 5 repetitions; run i's drop reps around NS0 +
# i * STEP ns/packet.
runs() {
	local pre=$1 n=$2 ns0=$3 step=$4 i ns p
	for i in $(seq 1 "$n"); do
		ns=$((ns0 + i * step))
		p=$(awk -v ns="$ns" 'BEGIN { printf "%.6g,%.6g,%.6g,%.6g,%.6g", 1e9/ns, 1e9/(ns+1), 1e9/(ns-1), 1e9/(ns+2), 1e9/(ns-2) }')
		doc "$TMP/$pre-$i.json" xdplab.lab-results/1 5 \
			"drop/no-touch 64 threaded valid $p 50,50,50,50,50" \
			"tx 64 threaded generator-bound 3e6,3e6,3e6,3e6,3e6 300,301,299,300,$((300 + i))"
	done
}

# 4 runs a side, drop 10 ns/packet slower in every new run: a regression at
# the smallest p 4 vs 4 can give (2/70), tx on CPU unchanged; 3 vs 3 of the
# same data cannot tell (exit 2).
t_compare_runs() {
	runs a 4 100 1
	runs b 4 110 1
	"$X" compare "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out" 2>"$TMP/err"
	expect_eq "exit status, 4 vs 4 runs with a regression" "$?" 1 || return 1
	[ ! -s "$TMP/err" ] || fail "stderr not empty: $(cat "$TMP/err")" || return 1
	grep -q '^xdplab compare: 4 base runs vs 4 new runs$' "$TMP/out" || fail "no title: $(head -1 "$TMP/out")" || return 1
	grep -q '^runs a side: 4 base, 4 new: the smallest p they can give is 0.029$' "$TMP/out" ||
		fail "no runs line: $(cat "$TMP/out")" || return 1
	grep -q 'exact: all C(8, 4) = 70 relabelings' "$TMP/out" || fail "no relabelings: $(cat "$TMP/out")" || return 1
	grep -Eq '^drop/no-touch +64 native +threaded +4/4 .* \+10\.00 +\[\+[0-9.]+, \+[0-9.]+\] .* 0\.029  regression$' "$TMP/out" ||
		fail "no drop regression: $(cat "$TMP/out")" || return 1
	grep -Eq '^tx +64 native +threaded +4/4 .* 1\.000  ~ \(generator-bound: on DUT CPU ns/packet\)$' "$TMP/out" ||
		fail "tx not ~ on CPU: $(cat "$TMP/out")" || return 1
	expect_eq "summary" "$(tail -1 "$TMP/out")" \
		"2 rows: 2 in both sides, 2 compared; 1 regression(s), 0 improvement(s), 1 ~, 0 too few runs, 0 not measured, 0 in one side only" || return 1
	"$X" compare --json "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out.json" 2>&1
	expect_eq "exit status with --json" "$?" 1 || return 1
	expect_eq "JSON schema, method" "$(jq -r '[.schema, .method.test, .method.runs_base, .method.relabelings] | join(",")' "$TMP/out.json")" \
		"xdplab.compare/2,permutation,4,70" || return 1
	expect_eq "JSON drop row" "$(jq -c '.rows[0] | [.method, .metric, .runs_base, .runs_new, (.estimate * 100 | round), (.p * 70 | round), .verdict, (.base.run_medians | length)]' "$TMP/out.json")" \
		'["permutation-runs","ns_per_pkt",4,4,1000,2,"regression",4]' || return 1
	"$X" compare "$TMP"/a-{1,2,3}.json -- "$TMP"/b-{1,2,3}.json >"$TMP/out" 2>&1
	expect_eq "exit status, 3 vs 3 runs" "$?" 2 || return 1
	grep -Eq '^drop/no-touch .* 3/3 .* none .* 0\.100  too few runs$' "$TMP/out" || fail "no too few runs: $(cat "$TMP/out")" || return 1
	grep -q "^note: 3 vs 3 runs can never reach p < 0.05 (the smallest two-sided p of the permutation test is 0.100): 'too few runs' there means 'cannot tell', not 'no change'; $" "$TMP/out" ||
		fail "no too-few note: $(cat "$TMP/out")" || return 1
	# Two files: as always, and the note that one run a side cannot decide.
	"$X" compare "$TMP/a-1.json" "$TMP/b-1.json" >"$TMP/out" 2>&1
	expect_eq "exit status, two files" "$?" 1 || return 1
	expect_eq "one-run note" "$(grep -c '^note: one run a side cannot separate the patch from the host: ' "$TMP/out")" 1 || return 1
	"$X" compare "$TMP/a-1.json" -- "$TMP/b-1.json" >"$TMP/out2" 2>&1
	cmp -s "$TMP/out" "$TMP/out2" || fail "A -- B differs from A B: $(diff "$TMP/out" "$TMP/out2")"
}

# ctl PRE N NS: each repetition of runs PRE-1..N gets the host-speed control NS.
# progt PRE N NS: the first row of PRE-1..N gets prog_ns_per_run NS, NS + 0.25...
progt() {
	local i
	for i in $(seq 1 "$2"); do
		jq --argjson p "$(awk -v i="$i" -v ns="$3" 'BEGIN { print ns + (i - 1) / 4 }')" \
			'.rows[0].prog_ns_per_run = $p' "$TMP/$1-$i.json" >"$TMP/p.tmp" &&
			mv "$TMP/p.tmp" "$TMP/$1-$i.json" || return 1
	done
}
ctl() {
	local i
	for i in $(seq 1 "$2"); do
		jq --argjson c "$3" '.rows |= map(.reps |= map(. + {host_ctl_ns: $c}))' "$TMP/$1-$i.json" >"$TMP/ctl.tmp" &&
			mv "$TMP/ctl.tmp" "$TMP/$1-$i.json" || return 1
	done
}

# The corrected figure (issue 19 item 2): NEW's runs 10 ns/packet slower,
# but its host-speed control 10% slower too (660 against 600 ns per run):
# raw a regression, corrected no change beyond 1 ns (--threshold-ns 1);
# auto takes it where an A/A calibration of this host flagged fewer on it.
t_compare_figure() {
	runs a 4 100 1
	runs b 4 110 1
	ctl a 4 600 && ctl b 4 660 || return 1
	"$X" compare --threshold-ns 1 "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out" 2>&1
	expect_eq "exit status, raw (auto without a calibration)" "$?" 1 || return 1
	! grep -q '^figure:' "$TMP/out" || fail "a figure line without a choice: $(cat "$TMP/out")" || return 1
	"$X" compare --threshold-ns 1 --figure corrected "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out" 2>&1
	expect_eq "exit status, --figure corrected" "$?" 0 || return 1
	grep -q '^figure: 2 of 2 compared rows tested on the figure corrected by the host-speed control (each repetition.s ns/packet times the median control of the row over its own, docs/compare.md) as asked (--figure corrected); the rest raw:$' "$TMP/out" ||
		fail "no figure line: $(cat "$TMP/out")" || return 1
	grep -Eq '^drop/no-touch +64 native +threaded +4/4 .*  ~$' "$TMP/out" || fail "drop not ~: $(cat "$TMP/out")" || return 1
	"$X" compare --json --figure corrected "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out.json" 2>/dev/null
	expect_eq "JSON figure" "$(jq -c '[.figure, .rows[0].figure, .rows[0].ctl_ref_ns]' "$TMP/out.json")" '["corrected","corrected",630]' || return 1
	# Two files: the same choice.
	"$X" compare --json --figure corrected "$TMP/a-1.json" "$TMP/b-1.json" >"$TMP/out.json" 2>/dev/null
	expect_eq "JSON figure, two files" "$(jq -c '[.figure, .rows[0].figure, .rows[0].ctl_ref_ns, .rows[0].metric]' "$TMP/out.json")" '["corrected","corrected",630,"ns_per_pkt"]' || return 1
	"$X" compare --json --figure raw "$TMP/a-1.json" "$TMP/b-1.json" >"$TMP/out.json" 2>/dev/null
	expect_eq "JSON figure raw" "$(jq -c '[.figure, .rows[0].figure, .rows[0].ctl_ref_ns]' "$TMP/out.json")" '["raw","raw",null]' || return 1
	# An A/A calibration of this host that flagged drop less on the corrected figure.
	cat >"$TMP/calib.json" <<'EOF'
{"schema": "xdplab.calibration/1", "date": "2026-12-01T00:00:00Z",
 "machine": {"host": "", "cpu_model": "", "kernel": "k", "cpus": 2},
 "config": {"reps": 5, "seconds": 1, "warmup": 0.25, "wiring": ""}, "alpha": 0.05, "runs": 8,
 "split_base": 0, "split_new": 0,
 "rows": [{"name": "drop/no-touch", "packet_operation": "no-touch", "size": 64, "mode": "native",
           "wiring": "threaded", "gen_engine": "live", "pairs": 28, "pair_flags": 5, "pair_too_few": false,
           "splits": 0, "split_flags": 0, "split_too_few": false,
           "corrected": {"pairs": 28, "pair_flags": 0, "splits": 0, "split_flags": 0}}]}
EOF
	"$X" compare --threshold-ns 1 --calibration "$TMP/calib.json" "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out" 2>&1
	expect_eq "exit status, auto with the calibration" "$?" 0 || return 1
	grep -q "^figure: 1 of 2 compared rows tested on the figure corrected by the host-speed control (.*), where this host's A/A calibration flagged fewer on it; the rest raw:$" "$TMP/out" ||
		fail "no auto figure line: $(cat "$TMP/out")" || return 1
	expect_eq "the row and why" "$(grep -A1 '^figure:' "$TMP/out" | tail -1)" \
		"  drop/no-touch 64 native threaded: corrected (A/A: 0 of 28 pairs flagged on it, 5 of 28 raw)" || return 1
	# --figure raw wins over the calibration.
	"$X" compare --threshold-ns 1 --figure raw --calibration "$TMP/calib.json" "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out" 2>&1
	expect_eq "exit status, --figure raw" "$?" 1 || return 1
	# No control in the runs: corrected cannot be used, and says so.
	runs c 4 100 1
	"$X" compare --figure corrected "$TMP"/c-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out" 2>&1
	expect_eq "exit status, no controls" "$?" 1 || return 1
	grep -q '^figure: raw for every row: no compared row has the host-speed control on every repetition of its runs (runs from before it, AF_XDP and watch-cost rows)$' "$TMP/out" ||
		fail "no raw line: $(cat "$TMP/out")" || return 1
	bad --figure fast "$TMP/a-1.json" "$TMP/b-1.json" -- \
		"xdplab compare: --figure: 'fast' is not accepted (accepted: auto, raw, corrected, prog)"
}

# badr ARGS... ++ WANT: as bad(), for ARGS with a -- of their own.
badr() { SEP=++ bad "$@"; }

t_compare_runs_bad() {
	runs a 3 100 1
	runs b 3 110 1
	badr "$TMP/a-1.json" "$TMP/a-2.json" -- ++ "xdplab compare: no NEW runs after -- (BASE.json... -- NEW.json...: files or directories of them)" || return 1
	badr -- "$TMP/b-1.json" ++ "xdplab compare: no BASE runs before -- (BASE.json... -- NEW.json...: files or directories of them)" || return 1
	badr "$TMP/a-1.json" "$TMP/a-2.json" "$TMP/b-1.json" ++ \
		"xdplab compare: 3 files: put -- between the BASE runs and the NEW runs (BASE.json... -- NEW.json...)" || return 1
	doc "$TMP/v2.json" xdplab.lab-results/2 5 "pass 64 threaded valid 1e6,1e6,1e6,1e6,1e6 1,1,1,1,1"
	badr "$TMP/a-1.json" "$TMP/a-2.json" -- "$TMP/v2.json" "$TMP/b-1.json" ++ \
		"xdplab compare: $TMP/v2.json: schema xdplab.lab-results/2 is not supported (accepted: version 1, e.g. xdplab.lab-results/1)" || return 1
	doc "$TMP/empty.json" xdplab.lab-results/1 5
	badr "$TMP/a-1.json" "$TMP/a-2.json" -- "$TMP/empty.json" "$TMP/b-1.json" ++ \
		"xdplab compare: $TMP/empty.json: a run with no rows (lab run --json writes one per benchmark; every run needs its rows)" || return 1
	sed 's/"seconds": 1,/"seconds": 3,/' "$TMP/b-2.json" >"$TMP/b-3s.json"
	badr "$TMP/a-1.json" "$TMP/a-2.json" -- "$TMP/b-1.json" "$TMP/b-3s.json" ++ \
		"xdplab compare: $TMP/a-1.json and $TMP/b-3s.json: window differs between runs: 1 s vs 3 s; every run on both sides needs the same set-up" || return 1
	sed 's/"reps": 5,/"reps": 4,/' "$TMP/b-2.json" >"$TMP/b-4r.json"
	badr "$TMP/a-1.json" "$TMP/a-2.json" -- "$TMP/b-1.json" "$TMP/b-4r.json" ++ \
		"xdplab compare: $TMP/a-1.json and $TMP/b-4r.json: repetitions per row differ between runs: 5 vs 4; every run on both sides needs the same set-up" || return 1
	sed 's/"warmup": 0.25/"warmup": 0.5/' "$TMP/b-2.json" >"$TMP/b-wu.json"
	badr "$TMP/a-1.json" "$TMP/a-2.json" -- "$TMP/b-1.json" "$TMP/b-wu.json" ++ \
		"xdplab compare: $TMP/a-1.json and $TMP/b-wu.json: warm-up differs between runs: 0.25 s vs 0.5 s; every run on both sides needs the same set-up" || return 1
	sed 's/"wiring": "threaded"/"wiring": "softirq"/' "$TMP/b-2.json" >"$TMP/b-sq.json"
	badr "$TMP/a-1.json" "$TMP/a-2.json" -- "$TMP/b-1.json" "$TMP/b-sq.json" ++ \
		"xdplab compare: $TMP/b-sq.json and $TMP/a-1.json: row drop/no-touch 64 B native: wiring differs between runs: softirq vs threaded; every run on both sides needs the same set-up" || return 1
	sed 's/"verdict": "valid",/"verdict": "valid", "cpu_source": "proc-stat",/' "$TMP/b-1.json" >"$TMP/b-ps.json"
	sed 's/"verdict": "valid",/"verdict": "valid", "cpu_source": "softirq-tracepoint",/' "$TMP/b-2.json" >"$TMP/b-tp.json"
	badr "$TMP/a-1.json" "$TMP/a-2.json" -- "$TMP/b-ps.json" "$TMP/b-tp.json" ++ \
		"xdplab compare: $TMP/b-ps.json and $TMP/b-tp.json: row drop/no-touch 64 B native: DUT CPU time source differs between runs: proc-stat vs softirq-tracepoint; every run on both sides needs the same set-up"
}

# Directories: every *.json in them (calibration.json aside) is a run.
t_compare_runs_dirs() {
	runs a 4 100 0
	runs b 4 100 0
	mkdir -p "$TMP/A" "$TMP/B"
	mv "$TMP"/a-*.json "$TMP/A"
	mv "$TMP"/b-*.json "$TMP/B"
	echo '{"schema": "xdplab.calibration/1", "rows": []}' >"$TMP/A/calibration.json"
	"$X" compare "$TMP/A" "$TMP/B" >"$TMP/out" 2>"$TMP/err"
	expect_eq "exit status, two directories of 4 runs of the same data" "$?" 0 || return 1
	grep -q '^xdplab compare: 4 base runs vs 4 new runs$' "$TMP/out" || fail "no title: $(head -1 "$TMP/out")" || return 1
	expect_eq "summary" "$(tail -1 "$TMP/out")" \
		"2 rows: 2 in both sides, 2 compared; 0 regression(s), 0 improvement(s), 2 ~, 0 too few runs, 0 not measured, 0 in one side only" || return 1
	"$X" compare "$TMP/A" -- "$TMP/B/b-1.json" "$TMP/B/b-2.json" "$TMP/B/b-3.json" "$TMP/B/b-4.json" >"$TMP/out2" 2>&1
	expect_eq "exit status, a directory and files" "$?" 0
}

t_lab_aa_bad() {
	bad_cmd lab run --aa 2 -- "xdplab lab run: --aa writes its runs and calibration.json into a directory: name it with --json DIR" || return 1
	bad_cmd lab run --aa 1 --json "$TMP/aa" -- "xdplab lab run: --aa: '1' is out of range (accepted: 2..32)" || return 1
	bad_cmd compare --calibration "$TMP/none.json" "$TMP/x.json" "$TMP/y.json" -- \
		"xdplab compare: $TMP/x.json: cannot open: No such file or directory"
}

# Three separate short runs of one row: three files, a calibration with
# every pair (3) compared one run a side, and compare showing its rate.
t_lab_aa() {
	local d=$TMP/aa
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	"$X" lab run --aa 3 --rows pass --sizes 64 --reps 4 --seconds 0.2 --json "$d" >"$TMP/out" 2>"$TMP/err" ||
		fail "lab run --aa failed: $(cat "$TMP/out" "$TMP/err")" || return 1
	expect_eq "files" "$(cd "$d" && ls | paste -sd' ')" "calibration.json run-1.json run-2.json run-3.json" || return 1
	expect_eq "runs started" "$(grep -c '^xdplab: lab run --aa 3: run [123] of 3, a lab run of its own -> ' "$TMP/err")" 3 || return 1
	expect_eq "calibration" "$(jq -c '[.schema, .runs, .alpha, .config.reps, .split_base, (.rows | length), .rows[0].name, .rows[0].pairs, .rows[0].splits, .rows[0].pair_too_few]' "$d/calibration.json")" \
		'["xdplab.calibration/1",3,0.05,4,0,1,"pass",3,0,false]' || return 1
	grep -Eq '^pass +64 native +threaded +[0-3] of +3 +[0-9.]+% +0 of +0 +-$' "$TMP/out" || fail "no calibration row: $(cat "$TMP/out")" || return 1
	"$X" compare "$d/run-1.json" "$d/run-2.json" -c "$d/calibration.json" >"$TMP/out" 2>&1
	grep -Eq '^  pass 64 native threaded: [0-3] of 3 pairs \([0-9.]+%\)$' "$TMP/out" || fail "no rate in compare: $(cat "$TMP/out")" || return 1
	# A directory of runs brings its calibration along.
	"$X" compare --json "$d" -- "$d" >"$TMP/out.json" 2>&1
	expect_eq "calibration found in the directory" "$(jq -c '.calibration | [.path, .runs, .matches]' "$TMP/out.json")" "[\"$d/calibration.json\",3,true]"
}

# A row name longer than 19 characters (the lab's redirect/b1+mon-floor):
# the name column widens for every line, so the columns stay aligned.
t_compare_long_name() {
	local r f
	for f in base new; do
		doc "$TMP/$f.json" xdplab.lab-results/1 5 \
			"drop/no-touch 64 threaded valid 5e6,5e6,5e6,5e6,5e6 100,100,100,100,100" \
			"redirect/b1+mon-floor 64 softirq valid 1e6,1e6,1e6,1e6,1e6 900,900,900,900,900"
	done
	"$X" compare "$TMP/base.json" "$TMP/new.json" >"$TMP/out" 2>"$TMP/err"
	expect_eq "exit status" "$?" 0 || return 1
	for r in "benchmark size mode wiring" "drop/no-touch 64 native threaded" \
		 "redirect/b1+mon-floor 64 native softirq"; do
		set -- $r
		grep -qF -- "$(printf '%-21s %5s %-7s %-9s ' "$@")" "$TMP/out" ||
			fail "no line starting '$(printf '%-21s %5s %-7s %-9s ' "$@")': $(cat "$TMP/out")" || return 1
	done
}

# A results file's text is data: ESC, BEL and a newline in the host and a
# row name reach the terminal as \xNN, a '|' cannot forge a markdown column,
# nor < > & [ markup (HTML, an entity, a link) in a rendered PR comment, and
# --json keeps them as JSON escapes (jansson's \uXXXX).
t_compare_untrusted_text() {
	local f name='x\u001b[2Jy\nz|w' shown='x\x1b[2Jy\x0az|w' host='h\x1b]0;t\x07<img src=x>&amp;[l](u)'
	local mdhost='h\x1b]0;t\x07\<img src=x\>\&amp;\[l](u)'
	for f in base new; do
		doc "$TMP/$f.json" xdplab.lab-results/1 5 "$name 64 threaded valid 1e6,1e6,1e6,1e6,1e6 10,10,10,10,10"
		sed -i 's/"kernel": "k",/"kernel": "k", "host": "h\\u001b]0;t\\u0007<img src=x>\&amp;[l](u)",/' "$TMP/$f.json"
	done
	"$X" compare "$TMP/base.json" "$TMP/new.json" >"$TMP/out" 2>"$TMP/err"
	expect_eq "exit status" "$?" 0 || return 1
	[ ! -s "$TMP/err" ] || fail "stderr not empty: $(cat "$TMP/err")" || return 1
	expect_eq "control bytes on stdout" "$(tr -d '\n' <"$TMP/out" | tr -d '[:print:]' | wc -c)" 0 || return 1
	grep -qxF -- "$(printf '  %-22s %-36s %s' host "$host" "$host")" "$TMP/out" ||
		fail "no escaped host line: $(cat -v "$TMP/out")" || return 1
	grep -qF -- "$(printf '%-19s %5s %-7s %-9s ' "$shown" 64 native threaded)" "$TMP/out" ||
		fail "no escaped row line: $(cat -v "$TMP/out")" || return 1
	"$X" compare --format markdown "$TMP/base.json" "$TMP/new.json" >"$TMP/out.md" 2>&1
	expect_eq "markdown exit status" "$?" 0 || return 1
	grep -qxF -- "| host | $mdhost | $mdhost |" "$TMP/out.md" ||
		fail "no escaped markdown host row: $(cat -v "$TMP/out.md")" || return 1
	grep -qF -- '| x\x1b\[2Jy\x0az\|w | 64 | native | threaded | ' "$TMP/out.md" ||
		fail "no escaped markdown row: $(cat -v "$TMP/out.md")" || return 1
	expect_eq "markdown row cells" "$(grep -F '| x\x1b' "$TMP/out.md" | sed 's/\\|//g' | tr -cd '|' | wc -c)" 15 || return 1
	"$X" compare --json "$TMP/base.json" "$TMP/new.json" >"$TMP/out.json" 2>&1
	expect_eq "JSON row name" "$(jq -r '.rows[0].name' "$TMP/out.json" | od -An -c | tr -s ' ')" \
		"$(printf 'x\033[2Jy\nz|w\n' | od -An -c | tr -s ' ')" || return 1
	expect_eq "control bytes in the JSON" "$(tr -d '\n' <"$TMP/out.json" | tr -d '[:print:]' | wc -c)" 0
}

# junit_valid FILE: FILE is the JUnit shape (tests/e2e/junit.xsd), per xmllint.
junit_valid() {
	xmllint --noout --schema tests/e2e/junit.xsd "$1" 2>"$TMP/xmllint" ||
		fail "$1 is not JUnit XML: $(cat "$TMP/xmllint")"
}

# --format junit of two files, byte for byte: the regression a failure,
# the improvement and the generator-bound '~' passed with their figures, the
# exit status as for text (1: a regression).
t_compare_junit() {
	two_runs
	"$X" compare --format junit "$TMP/base.json" "$TMP/new.json" >"$TMP/out.xml" 2>"$TMP/err"
	expect_eq "exit status with --format junit" "$?" 1 || return 1
	[ ! -s "$TMP/err" ] || fail "stderr not empty: $(cat "$TMP/err")" || return 1
	junit_valid "$TMP/out.xml" || return 1
	cat >"$TMP/want.xml" <<-EOF
	<?xml version="1.0" encoding="UTF-8"?>
	<testsuites name="xdplab compare" tests="3" failures="1" errors="0" skipped="0">
	  <testsuite name="$TMP/base.json vs $TMP/new.json" tests="3" failures="1" errors="0" skipped="0">
	    <properties>
	      <property name="base" value="$TMP/base.json"/>
	      <property name="base_commit" value="t"/>
	      <property name="base_date" value="2026-12-01T00:00:00Z"/>
	      <property name="new" value="$TMP/new.json"/>
	      <property name="new_commit" value="t"/>
	      <property name="new_date" value="2026-12-01T00:00:00Z"/>
	      <property name="method" value="mann-whitney-reps"/>
	      <property name="alpha" value="0.05"/>
	      <property name="threshold_ns" value="0"/>
	    </properties>
	    <testcase classname="xdplab.compare" name="drop/no-touch 64 native threaded">
	      <failure type="regression" message="regression: +11.11 ns/packet (10.000 -&gt; 9.000 Mpps, -10.0%), p = 0.008, 5 vs 5 repetitions (Mann-Whitney U)">regression: +11.11 ns/packet (10.000 -&gt; 9.000 Mpps, -10.0%), p = 0.008, 5 vs 5 repetitions (Mann-Whitney U)</failure>
	    </testcase>
	    <testcase classname="xdplab.compare" name="pass 64 native threaded">
	      <system-out>improvement: -115.04 ns/packet (1.000 -&gt; 1.130 Mpps, +13.0%), p = 0.008, 5 vs 5 repetitions (Mann-Whitney U)</system-out>
	    </testcase>
	    <testcase classname="xdplab.compare" name="tx 64 native threaded">
	      <system-out>~: +0.00 DUT CPU ns/packet (generator-bound) (3.000 -&gt; 2.500 Mpps, -16.7%), p = 1.000, 5 vs 5 repetitions (Mann-Whitney U)</system-out>
	    </testcase>
	  </testsuite>
	</testsuites>
	EOF
	diff "$TMP/want.xml" "$TMP/out.xml" >"$TMP/diff" || fail "junit output differs: $(cat "$TMP/diff")" || return 1
	# Against itself: no failure, exit 0; 3 vs 3 repetitions: skipped, exit 2.
	"$X" compare --format junit "$TMP/base.json" "$TMP/base.json" >"$TMP/out.xml" 2>&1
	expect_eq "exit status against itself" "$?" 0 || return 1
	junit_valid "$TMP/out.xml" || return 1
	expect_eq "counts against itself" "$(sed -n 2p "$TMP/out.xml")" \
		'<testsuites name="xdplab compare" tests="3" failures="0" errors="0" skipped="0">' || return 1
	doc "$TMP/b3.json" xdplab.lab-results/1 3 "drop/no-touch 64 threaded valid 10e6,10.1e6,9.9e6 50,50,50" \
		"pass 64 threaded valid 1e6,1e6,1e6 900,900,900"
	doc "$TMP/n3.json" xdplab.lab-results/1 3 "drop/no-touch 64 threaded valid 9e6,9.1e6,8.9e6 55,55,55" \
		"tx 64 threaded valid 1e6,1e6,1e6 900,900,900"
	"$X" compare --format junit "$TMP/b3.json" "$TMP/n3.json" >"$TMP/out.xml" 2>&1
	expect_eq "exit status with too few reps" "$?" 2 || return 1
	junit_valid "$TMP/out.xml" || return 1
	expect_eq "too few, one file only" "$(grep -A1 '<testcase' "$TMP/out.xml" | grep -v '^--')" \
		'    <testcase classname="xdplab.compare" name="drop/no-touch 64 native threaded">
      <skipped message="too few reps: 3 vs 3 repetitions can never reach p &lt; 0.05 (the smallest p they can give is 0.100)"/>
    <testcase classname="xdplab.compare" name="pass 64 native threaded">
      <skipped message="only in base"/>
    <testcase classname="xdplab.compare" name="tx 64 native threaded">
      <skipped message="only in new"/>' || return 1
	expect_eq "counts with skips" "$(sed -n 2p "$TMP/out.xml")" \
		'<testsuites name="xdplab compare" tests="3" failures="0" errors="0" skipped="3">'
}

# Several runs a side as JUnit: 4 vs 4 runs, drop 10 ns/packet slower in
# every new run: the permutation test's failure; pass the same.
# --figure prog on hand-made runs: its unit in JUnit (it said 'DUT CPU ns/packet
# (generator-bound)'), and one run a side says more runs, not more reps, would decide.
t_compare_figure_prog() {
	runs a 4 100 0
	runs b 4 100 0
	progt a 4 26 && progt b 4 36 || return 1
	"$X" compare --figure prog "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out" 2>&1
	expect_eq "exit status, 4 vs 4" "$?" 1 || return 1
	grep -Eq '^drop/no-touch +64 native +threaded +4/4 .* 26\.38 +36\.38 +\+10\.00 .*  regression \(on the program.s own time per run\)$' "$TMP/out" ||
		fail "no prog regression: $(cat "$TMP/out")" || return 1
	grep -q '; all in ns/packet (ns per program run on the rows the figure lines list as prog), positive = slower$' "$TMP/out" ||
		fail "no unit line: $(cat "$TMP/out")" || return 1
	expect_eq "figure lines" "$(sed -n '/^figure:/,/^$/p' "$TMP/out" | tail -n +2)" \
		"$(printf '  drop/no-touch 64 native threaded: prog\n  tx 64 native threaded: raw (a run of it has no prog_ns_per_run)\n')" || return 1
	# An A/A calibration measures the raw figure: beside prog verdicts it says so.
	cat >"$TMP/calib.json" <<'EOF'
{"schema": "xdplab.calibration/1", "date": "2026-12-01T00:00:00Z",
 "machine": {"host": "", "cpu_model": "", "kernel": "k", "cpus": 2},
 "config": {"reps": 5, "seconds": 1, "warmup": 0.25, "wiring": ""}, "alpha": 0.05, "runs": 8,
 "split_base": 4, "split_new": 4,
 "rows": [{"name": "drop/no-touch", "packet_operation": "no-touch", "size": 64, "mode": "native",
           "wiring": "threaded", "gen_engine": "live", "pairs": 28, "pair_flags": 5, "pair_too_few": false,
           "splits": 35, "split_flags": 3, "split_too_few": false}]}
EOF
	"$X" compare --figure prog --calibration "$TMP/calib.json" "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out" 2>&1
	expect_eq "exit status, with a calibration" "$?" 1 || return 1
	expect_eq "calibration lines" "$(grep -A1 "^this host's measured false-alarm rate" "$TMP/out")" \
		"this host's measured false-alarm rate (A/A calibration $TMP/calib.json: 8 runs of the same code, 2026-12-01T00:00:00Z, alpha 0.05), several runs a side (its balanced splits, 4 vs 4), on the raw figure (the calibration has none of the program's own time):
  drop/no-touch 64 native threaded: 3 of 35 splits (8.6%)" || return 1
	grep -q "^method: permutation test over the run labels (the run is the unit: each run's median of its repetitions' ns/packet, 1e9/pps, or DUT CPU ns/packet for generator-bound rows, or on the rows the figure lines list as prog the program's own time per run, is one value;" "$TMP/out" ||
		fail "method line does not name the prog figure: $(grep '^method' "$TMP/out")" || return 1
	# A run without the field (an older or hand-edited file), or with a time no program run
	# takes (1e-300 ns: a rate of 1e309 pps, infinite): that row raw, and said so.
	for v in del 1e-300; do
		if [ $v = del ]; then
			jq 'del(.rows[0].prog_ns_per_run)' "$TMP/b-3.json" >"$TMP/b-x.json" || return 1
		else
			jq '.rows[0].prog_ns_per_run = 1e-300' "$TMP/b-3.json" >"$TMP/b-x.json" || return 1
		fi
		"$X" compare --figure prog "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,x,4}.json >"$TMP/out" 2>&1
		expect_eq "exit status, a run without it ($v)" "$?" 0 || return 1
		grep -q '^figure: raw for every row: no compared row has the program.s own time in every run (lab run --prog-time)$' "$TMP/out" ||
			fail "no raw figure line ($v): $(cat "$TMP/out")" || return 1
	done
	"$X" compare --figure prog --format junit "$TMP"/a-{1,2,3,4}.json -- "$TMP"/b-{1,2,3,4}.json >"$TMP/out.xml" 2>/dev/null
	grep -q 'message="regression: +10.00 ns per program run (the program.s own time) (26.38 -&gt; 36.38), 95% CI \[+9.25, +10.75\], p = 0.029, 4 vs 4 runs (permutation test over the runs)"' "$TMP/out.xml" ||
		fail "JUnit message: $(grep message "$TMP/out.xml")" || return 1
	# One run a side: shown, not decided, and the way out is more runs.
	"$X" compare --figure prog "$TMP/a-1.json" "$TMP/b-1.json" >"$TMP/out" 2>&1
	expect_eq "exit status, two files" "$?" 2 || return 1
	grep -Eq "^drop/no-touch .* too few reps \(on the program's own time per run\): one run a side: the program's own time is one value a run; several runs a side decide on it \(BASE\.json\.\.\. -- NEW\.json\.\.\.\)$" "$TMP/out" ||
		fail "no one-run reason: $(cat "$TMP/out")" || return 1
	! grep -q '1 vs 1 repetitions' "$TMP/out" || fail "a --reps note for a prog row: $(cat "$TMP/out")" || return 1
	grep -q '^d ns/p = 1e9/new - 1e9/base of the median rates; d CPU = new - base median DUT CPU ns/packet (base CPU, new CPU and d CPU: ns per program run on the rows the figure lines list as prog); positive = slower$' "$TMP/out" ||
		fail "no unit line, two files: $(cat "$TMP/out")" || return 1
	"$X" compare --figure prog --format junit "$TMP/a-1.json" "$TMP/b-1.json" >"$TMP/out.xml" 2>/dev/null
	junit_valid "$TMP/out.xml" || return 1
	grep -q "<skipped message=\"too few reps: one run a side: the program.s own time is one value a run; several runs a side decide on it (BASE.json... -- NEW.json...)\"/>" "$TMP/out.xml" ||
		fail "JUnit two files: $(grep skipped "$TMP/out.xml")" || return 1
}
t_compare_junit_runs() {
	local i
	for i in 1 2 3 4; do
		doc "$TMP/b$i.json" xdplab.lab-results/1 3 \
			"drop/no-touch 64 threaded valid 10e6,10e6,10e6 50,50,50" "pass 64 threaded valid 1e6,1e6,1e6 900,900,900"
		doc "$TMP/n$i.json" xdplab.lab-results/1 3 \
			"drop/no-touch 64 threaded valid 9e6,9e6,9e6 50,50,50" "pass 64 threaded valid 1e6,1e6,1e6 900,900,900"
	done
	"$X" compare --format junit "$TMP"/b?.json -- "$TMP"/n?.json >"$TMP/out.xml" 2>"$TMP/err"
	expect_eq "exit status" "$?" 1 || return 1
	[ ! -s "$TMP/err" ] || fail "stderr not empty: $(cat "$TMP/err")" || return 1
	junit_valid "$TMP/out.xml" || return 1
	cat >"$TMP/want.xml" <<-EOF
	<?xml version="1.0" encoding="UTF-8"?>
	<testsuites name="xdplab compare" tests="2" failures="1" errors="0" skipped="0">
	  <testsuite name="4 base runs vs 4 new runs" tests="2" failures="1" errors="0" skipped="0">
	    <properties>
	      <property name="base_runs" value="4"/>
	      <property name="new_runs" value="4"/>
	      <property name="method" value="permutation-runs"/>
	      <property name="alpha" value="0.05"/>
	      <property name="threshold_ns" value="0"/>
	      <property name="base" value="$TMP/b1.json"/>
	      <property name="base" value="$TMP/b2.json"/>
	      <property name="base" value="$TMP/b3.json"/>
	      <property name="base" value="$TMP/b4.json"/>
	      <property name="new" value="$TMP/n1.json"/>
	      <property name="new" value="$TMP/n2.json"/>
	      <property name="new" value="$TMP/n3.json"/>
	      <property name="new" value="$TMP/n4.json"/>
	    </properties>
	    <testcase classname="xdplab.compare" name="drop/no-touch 64 native threaded">
	      <failure type="regression" message="regression: +11.11 ns/packet (100.00 -&gt; 111.11), 95% CI [+11.11, +11.11], p = 0.029, 4 vs 4 runs (permutation test over the runs)">regression: +11.11 ns/packet (100.00 -&gt; 111.11), 95% CI [+11.11, +11.11], p = 0.029, 4 vs 4 runs (permutation test over the runs)</failure>
	    </testcase>
	    <testcase classname="xdplab.compare" name="pass 64 native threaded">
	      <system-out>~: +0.00 ns/packet (1000.00 -&gt; 1000.00), 95% CI [-0.00, +0.00], p = 1.000, 4 vs 4 runs (permutation test over the runs)</system-out>
	    </testcase>
	  </testsuite>
	</testsuites>
	EOF
	diff "$TMP/want.xml" "$TMP/out.xml" >"$TMP/diff" || fail "junit output differs: $(cat "$TMP/diff")"
}

# Markdown for a pull request's comment: the outcome first, under the
# title (the regressed rows named, escaped), the environment folded into
# <details>, the notes as paragraphs; two files and several runs a side.
t_compare_markdown_pr() {
	local i
	two_runs
	"$X" compare --format markdown "$TMP/base.json" "$TMP/new.json" >"$TMP/out.md" 2>&1
	expect_eq "exit status" "$?" 1 || return 1
	expect_eq "head" "$(sed -n '2,5p' "$TMP/out.md")" "
**Result: 1 regression(s)**: drop/no-touch 64 native threaded; 1 improvement(s), 1 ~, 0 too few reps, 0 not compared

<details><summary>environment: 0 field(s) differ</summary>" || return 1
	expect_eq "details closed before the notes" "$(sed -n '29,33p' "$TMP/out.md")" "
</details>

Mann-Whitney U, two-sided, exact, over the repetitions' ns/packet (1e9/pps; DUT CPU ns/packet for generator-bound rows); alpha 0.05, threshold 0 ns/packet" || return 1
	expect_eq "blank lines between the notes" "$(sed -n '34,37p' "$TMP/out.md" | cut -c1-20)" "note: one run a side

d ns/p = 1e9/new - 1" || return 1
	# No regression: said so; a '|' in a regressed row's name escaped.
	"$X" compare --format markdown "$TMP/base.json" "$TMP/base.json" >"$TMP/out.md" 2>&1
	expect_eq "headline without a regression" "$(sed -n 3p "$TMP/out.md")" \
		"**Result: no regression**; 0 improvement(s), 3 ~, 0 too few reps, 0 not compared" || return 1
	for i in 1 2 3 4; do
		doc "$TMP/b$i.json" xdplab.lab-results/1 3 "a|b<i> 64 threaded valid 10e6,10e6,10e6 50,50,50"
		doc "$TMP/n$i.json" xdplab.lab-results/1 3 "a|b<i> 64 threaded valid 9e6,9e6,9e6 50,50,50"
	done
	"$X" compare --format markdown "$TMP"/b?.json -- "$TMP"/n?.json >"$TMP/out.md" 2>&1
	expect_eq "exit status, runs" "$?" 1 || return 1
	expect_eq "runs head" "$(sed -n '1,4p' "$TMP/out.md")" "**xdplab compare: 4 base runs vs 4 new runs**

**Result: 1 regression(s)**: a\|b\<i\> 64 native threaded; 0 improvement(s), 0 ~, 0 too few runs, 0 not compared"
}

# Text from the files in JUnit XML: markup as entities, controls left out,
# a name cut inside a UTF-8 character (name fields hold 47 bytes) as
# U+FFFD: the file stays well-formed and valid.
t_compare_junit_untrusted() {
	local f cut
	cut=$(printf 'x%.0s' $(seq 1 46))
	mkdir -p "$TMP/a&b"
	for f in base new; do
		doc "$TMP/a&b/$f.json" xdplab.lab-results/1 5 \
			"a<b>&\\\"c\\u001b 64 threaded valid 1e6,1e6,1e6,1e6,1e6 10,10,10,10,10" \
			"$cut\u20ac 64 threaded valid 1e6,1e6,1e6,1e6,1e6 10,10,10,10,10"
	done
	"$X" compare --format junit "$TMP/a&b/base.json" "$TMP/a&b/new.json" >"$TMP/out.xml" 2>"$TMP/err"
	expect_eq "exit status" "$?" 0 || return 1
	junit_valid "$TMP/out.xml" || return 1
	expect_eq "control bytes" "$(tr -d '\n' <"$TMP/out.xml" | LC_ALL=C tr -d '[:print:]\200-\377' | wc -c)" 0 || return 1
	expect_eq "escaped names" "$(grep '<testcase' "$TMP/out.xml")" \
		"$(printf '    <testcase classname="xdplab.compare" name="%s">\n    <testcase classname="xdplab.compare" name="%s">' \
			'a&lt;b&gt;&amp;&quot;c 64 native threaded' "$cut"$'\xef\xbf\xbd'' 64 native threaded')" || return 1
	grep -qxF "      <property name=\"base\" value=\"$TMP/a&amp;b/base.json\"/>" "$TMP/out.xml" ||
		fail "path not escaped: $(grep base.json "$TMP/out.xml")"
}

t_compare_bench_files() {
	local a=bench/20261201T012124Z-05e6a822a9a7.json b=bench/20261201T032203Z-afe027a4c0fb.json
	[ -f "$a" ] && [ -f "$b" ] || fail "committed runs $a, $b missing" || return 1
	"$X" compare "$a" "$a" >"$TMP/out" 2>&1
	expect_eq "a committed run against itself" "$?" 0 || return 1
	grep -q ' 0 regression(s), 0 improvement(s), ' "$TMP/out" || fail "against itself: $(tail -1 "$TMP/out")" || return 1
	"$X" compare "$a" "$b" >"$TMP/out" 2>&1
	# Committed data: the verdicts are fixed. Two runs two hours apart, in
	# which the generator alone got 26% slower.
	expect_eq "exit status comparing the committed runs" "$?" 1 || return 1
	expect_eq "summary" "$(tail -1 "$TMP/out")" \
		"36 rows in base, 42 in new: 36 paired, 30 compared; 8 regression(s), 0 improvement(s), 22 ~, 6 not comparable or not measured, 6 in one file only" || return 1
	expect_eq "rows flagged" "$(awk '/ regression( |$)/ { print $1 "/" $2 "/" $3 }' "$TMP/out" | paste -sd' ')" \
		"gen-ceiling/64/native redirect-cpu/64/native xsk-rxdrop/64/skb xsk-l2fwd/64/skb xsk-l2fwd/64/native drop/read-data/1500/native xsk-rxdrop/1500/skb xsk-txpush/1500/native" || return 1
	grep -q '^WARNING: the generator ceiling (gen-ceiling: the generator alone, nothing under test) moved -26.2% between the runs' "$TMP/out" ||
		fail "no ceiling warning: $(head -3 "$TMP/out")" || return 1
	expect_eq "only-in-new rows" "$(grep -c ' only in new$' "$TMP/out")" 6 || return 1
	grep -q '^\* xdplab commit ' "$TMP/out" || fail "commits not marked as differing: $(head -20 "$TMP/out")"
}

t_compare_latency_bench() {
	local a=bench/20261201T120747Z-038ff656d37a-latency-softirq.json b=bench/20261201T120747Z-038ff656d37a-latency-threaded.json
	[ -f "$a" ] && [ -f "$b" ] || fail "committed runs $a, $b missing" || return 1
	"$X" compare "$a" "$b" >"$TMP/out" 2>&1
	# Committed data, 3 reps a row: nothing can be significant, and
	# compare says it cannot tell (exit 2, not 0: that read "no change");
	# the threaded run's losses are reported against softirq's zeros.
	expect_eq "exit status" "$?" 2 || return 1
	expect_eq "latency summary" "$(tail -1 "$TMP/out")" \
		"latency: 16 rows in base, 16 in new: 16 paired, 4 compared; 0 regression(s), 0 improvement(s), 0 ~, 4 too few reps, 12 not comparable or not measured, 0 in one file only; 12 with a count risen from 0" || return 1
	expect_eq "compared rows" "$(awk '/^lat\// && / too few reps$/ { print $1 "/" $2 }' "$TMP/out" | paste -sd' ')" \
		"lat/rt-l2fwd/low/64 lat/rt-l2fwd/load/64 lat/rt-l2fwd/low/1500 lat/rt-l2fwd/load/1500" || return 1
	grep -qx 'note: lat/rt-tx/low 64 B: lost rose from 0 (8252 in 3 of 3 new repetitions, 0 in 3 base ones); gaps rose from 0 (7536 in 3 of 3 new repetitions, 0 in 3 base ones)' "$TMP/out" ||
		fail "no rt-tx/low loss note: $(grep 'rt-tx/low 64' "$TMP/out")" || return 1
	"$X" compare --json "$a" "$b" >"$TMP/out.json" 2>&1
	expect_eq "JSON latency_summary" "$(jq -c '.latency_summary' "$TMP/out.json")" \
		'{"base_rows":16,"new_rows":16,"paired":16,"compared":4,"regressions":0,"improvements":0,"rose_from_zero":12,"too_few":4}' || return 1
	expect_eq "JSON compared verdicts" "$(jq -r '[.latency[] | select(.status == "compared") | .verdict] | unique | join(",")' "$TMP/out.json")" \
		too-few-reps || return 1
	expect_eq "JSON rt-l2fwd/low 1500 p50 p" "$(jq -r '.latency[] | select(.name == "lat/rt-l2fwd/low" and .size == 1500) | .tests.p50.p' "$TMP/out.json")" 0.1 || return 1
	"$X" compare "$a" "$a" >"$TMP/out" 2>&1
	expect_eq "a latency run against itself" "$(tail -1 "$TMP/out")" \
		"latency: 16 rows in base, 16 in new: 16 paired, 16 compared; 0 regression(s), 0 improvement(s), 0 ~, 16 too few reps, 0 not comparable or not measured, 0 in one file only; 0 with a count risen from 0"
}

t_compare_lab_runs() {
	local i
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	for i in 1 2; do
		"$X" lab run --rows drop/no-touch --sizes 64 --reps 3 --seconds 0.3 --json "$TMP/run$i.json" \
			>"$TMP/run$i.out" 2>&1 || fail "lab run $i failed: $(cat "$TMP/run$i.out")" || return 1
	done
	"$X" compare "$TMP/run1.json" "$TMP/run2.json" >"$TMP/out" 2>&1
	# 3 vs 3 can never reach p < 0.05: "too few reps" whatever the host
	# did, exit 2 (cannot tell is no pass).
	expect_eq "exit status comparing two lab runs" "$?" 2 || return 1
	# A generator-bound row says so after its verdict (the host decides which).
	grep -Eq '^drop/no-touch +64 native +(threaded|softirq) .* 3/3 +[01]\.[0-9]{3}  too few reps( \(generator-bound: on DUT CPU ns/packet\))?$' "$TMP/out" ||
		fail "no 'too few reps' drop/no-touch row: $(cat "$TMP/out")" || return 1
	grep -q '^note: 3 vs 3 repetitions can never reach p < 0.05 (the smallest two-sided p they can give is 0.100)' "$TMP/out" ||
		fail "no too-few note: $(cat "$TMP/out")" || return 1
	grep -q 'it needs at least 4 vs 4 (lab run --reps 4)' "$TMP/out" || fail "no n needed: $(cat "$TMP/out")" || return 1
	grep -Eq '^  lab wiring +(threaded +threaded|softirq +softirq)$' "$TMP/out" || fail "no lab wiring line: $(cat "$TMP/out")" || return 1
	grep -Eq '^  bpf_jit_enable +[0-9]+ +[0-9]+$' "$TMP/out" || fail "no JIT line: $(cat "$TMP/out")"
}

# bad_cmd CMD... -- WANT: exit 2, empty stdout, the one line WANT on stderr.
bad_cmd() {
	local args=() want
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	want=$2
	"$X" "${args[@]}" >"$TMP/out" 2>"$TMP/err"
	expect_eq "exit status of '${args[*]}'" "$?" 2 || return 1
	[ ! -s "$TMP/out" ] || fail "stdout not empty: $(cat "$TMP/out")" || return 1
	expect_eq "lines on stderr of '${args[*]}'" "$(wc -l <"$TMP/err")" 1 || return 1
	expect_eq "message" "$(cat "$TMP/err")" "$want"
}

t_extra_ns_bad() {
	bad_cmd drop --extra-ns 1001 lo -- "xdplab drop: --extra-ns: '1001' is out of range (accepted: 0..1000)" || return 1
	bad_cmd tx --extra-ns x lo -- "xdplab tx: --extra-ns: 'x' is not a whole number (accepted: 0..1000)" || return 1
	bad_cmd lab run --extra-ns 10 --rows pass -- \
		"xdplab lab run: --extra-ns applies to the drop rows: add one to --rows (drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs)" || return 1
	bad_cmd lab run --sensitivity --rows tx -- \
		"xdplab lab run: --sensitivity applies to the drop rows: add one to --rows (drop/no-touch, drop/read-data, drop/parse-ip, drop/swap-macs)" || return 1
	bad_cmd lab run --sensitivity --dut lo -- \
		"xdplab lab run: --sensitivity switches the veth lab's generator and the DUT's cost between windows: not with --dut" || return 1
	bad_cmd lab run --sensitivity --extra-ns 5 -- \
		"xdplab lab run: --extra-ns and --sensitivity exclude each other (--sensitivity sets the extra cost itself)"
}

# A drop row with the calibrated loop: the JSON says what was set, and no frame is lost to it.
t_extra_ns_lab_row() {
	local j=$TMP/x.json
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	"$X" lab run --rows drop/no-touch,pass --sizes 64 --reps 1 --seconds 0.3 --extra-ns 10 --json "$j" \
		>"$TMP/out" 2>&1 || fail "lab run failed: $(cat "$TMP/out")" || return 1
	./scripts/validate-results.py "$j" >"$TMP/v" 2>&1 || fail "schema: $(cat "$TMP/v")" || return 1
	expect_eq "config.extra_ns" "$(jq -r '.config.extra_ns' "$j")" 10 || return 1
	expect_eq "pass row has no loop" "$(jq -r '.rows[1].extra_ns' "$j")" null || return 1
	# The iterations are the count whose BPF_PROG_RUN check came nearest
	# 10 ns: within 0.5 ns of it (3% of 10 is less), or the nearest of 4 checks.
	jq -e '.rows[0].extra_ns | .target == 10 and .iters > 0 and .steps >= 1 and .steps <= 4 and
		(.set - .iters * .ns_per_iter | fabs) < 1e-9 and ((.check - 10 | fabs) <= 0.5 or .steps == 4)' "$j" >/dev/null ||
		fail "drop row extra_ns: $(jq -c '.rows[0].extra_ns' "$j")" || return 1
	expect_eq "drop row count check" "$(jq -r '.rows[0].counter_mismatch' "$j")" false || return 1
	grep -Eq '^drop/no-touch +64 .*; extra 10 ns: [0-9]+ iterations, check [+-][0-9]+\.[0-9] ns$' "$TMP/out" ||
		fail "no extra note in the table: $(cat "$TMP/out")"
}

# lab run --prog-time: each XDP row's program's own time per run, from an
# extra repetition not among its reps; a 100 ns busy loop shows in it (by
# more than 30 ns: its cost in place varies with the host; the plain
# program runs in about 26 ns); a
# run without the option has none; two files on --figure prog: too few.
t_prog_time_lab_row() {
	local j=$TMP/p.json k=$TMP/k.json
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	# tc-drop: the tc baseline's program has its time too (it had none: its XDP program's fd)
	"$X" lab run --rows drop/no-touch,drop/parse-ip,tc-drop --sizes 64 --reps 2 --seconds 0.3 --prog-time \
		--json "$j" >"$TMP/out" 2>&1 || fail "lab run --prog-time failed: $(cat "$TMP/out")" || return 1
	./scripts/validate-results.py "$j" >"$TMP/v" 2>&1 || fail "schema: $(cat "$TMP/v")" || return 1
	expect_eq "rows" "$(jq -r '[.rows[].name] | join(",")' "$j")" drop/no-touch,drop/parse-ip,tc-drop || return 1
	expect_eq "repetitions kept" "$(jq -r '[.rows[].reps | length] | map(tostring) | join(",")' "$j")" 2,2,2 || return 1
	jq -e '[.rows[].prog_ns_per_run | . > 0 and . < 1000] | all' "$j" >/dev/null ||
		fail "prog_ns_per_run: $(jq -c '[.rows[].prog_ns_per_run]' "$j")" || return 1
	! grep -q 'no run time' "$TMP/out" || fail "a row without its time: $(cat "$TMP/out")" || return 1
	grep -Eq '^  tc-drop +64B +[0-9]+\.[0-9] ns$' "$TMP/out" || fail "no tc-drop line: $(cat "$TMP/out")" || return 1
	grep -q "^program time per run (the kernel's run_time_ns / run_cnt in an extra repetition with BPF stats on; not among the figures above):$" "$TMP/out" ||
		fail "no heading: $(cat "$TMP/out")" || return 1
	grep -Eq '^  drop/parse-ip +64B +[0-9]+\.[0-9] ns$' "$TMP/out" || fail "no parse-ip line: $(cat "$TMP/out")" || return 1
	"$X" lab run --rows drop/parse-ip --sizes 64 --reps 2 --seconds 0.3 --prog-time --extra-ns 100 \
		--json "$k" >"$TMP/out2" 2>&1 || fail "lab run --extra-ns 100 failed: $(cat "$TMP/out2")" || return 1
	jq -en --slurpfile a "$j" --slurpfile b "$k" '$b[0].rows[0].prog_ns_per_run - $a[0].rows[1].prog_ns_per_run > 30' >/dev/null ||
		fail "a 100 ns loop not in the program's time: $(jq '.rows[1].prog_ns_per_run' "$j") -> $(jq '.rows[0].prog_ns_per_run' "$k")" || return 1
	"$X" compare --figure prog --json "$j" "$k" >"$TMP/c.json" 2>/dev/null
	expect_eq "figure prog, one run a side" "$(jq -r '.rows[] | select(.name == "drop/parse-ip") | "\(.figure) \(.metric) \(.verdict)"' "$TMP/c.json")" \
		"prog prog_ns_per_run too-few-reps" || return 1
	# The program's time under its own name, never under cpu_ns_per_pkt
	# (it was there, the row's metric alone saying what it was).
	expect_eq "prog row's keys" "$(jq --slurpfile a "$j" --slurpfile b "$k" -c '.rows[] | select(.name == "drop/parse-ip") |
		[.base.cpu_ns_per_pkt, .new.cpu_ns_per_pkt, .delta_cpu_ns_per_pkt,
		 .base.prog_ns_per_run == $a[0].rows[1].prog_ns_per_run, .new.prog_ns_per_run == $b[0].rows[0].prog_ns_per_run,
		 ((.delta_prog_ns_per_run - (.new.prog_ns_per_run - .base.prog_ns_per_run)) | fabs) < 1e-6]' "$TMP/c.json")" \
		"[null,null,null,true,true,true]" || return 1
	"$X" lab run --rows drop/no-touch --sizes 64 --reps 1 --seconds 0.3 --json "$k" >"$TMP/out3" 2>&1 ||
		fail "lab run failed: $(cat "$TMP/out3")" || return 1
	expect_eq "no --prog-time: no figure" "$(jq -r '.rows[0].prog_ns_per_run' "$k")" null
}

# drop --extra-ns --json on the loopback of a namespace of our own (no
# traffic needed): the row records the loop as set.
t_extra_ns_single_json() {
	local ns=xlcmp$$ j=$TMP/d.json rc
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	ip netns add "$ns" || fail "cannot create namespace $ns" || return 1
	ip -n "$ns" link set lo up
	"$X" drop --netns "$ns" --mode skb --extra-ns 20 --duration 0.3 -q --json "$j" lo >"$TMP/out" 2>"$TMP/err"
	rc=$?
	ip netns del "$ns"
	expect_eq "exit status of drop --extra-ns 20" "$rc" 0 || { cat "$TMP/err"; return 1; }
	grep -Eq '^xdplab: --extra-ns 20: [0-9]+ busy-loop iterations, BPF_PROG_RUN check [+-][0-9]+\.[0-9] ns per packet over the program.s [0-9]+ ns \([1-4] checks?; a long loop.s slope [0-9.]+ ns each, rounds [0-9.]+\.\.[0-9.]+: [0-9.]+ ns\)$' "$TMP/err" ||
		fail "no calibration line: $(cat "$TMP/err")" || return 1
	# The calibration stops when its check is within 0.5 ns or 3% of the
	# target, or after 4 checks (keeping the nearest), or at a bound.
	jq -e '.rows[0].extra_ns | .target == 20 and .iters > 0 and .steps >= 1 and .steps <= 4
		and ((.set - .iters * .ns_per_iter) | fabs) < 1e-6
		and ((.check - 20 | fabs) <= 0.6 or .steps == 4)' "$j" >/dev/null ||
		fail "row extra_ns: $(jq -c '.rows[0].extra_ns' "$j")"
}

t_sensitivity_too_few() {
	local j=$TMP/s.json
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	"$X" lab run --rows drop/no-touch --sizes 64 --reps 3 --seconds 0.2 --sensitivity --json "$j" \
		>"$TMP/out" 2>&1 || fail "lab run failed: $(cat "$TMP/out")" || return 1
	grep -q '^  drop/no-touch at 64 B with 3 reps: 3 vs 3 repetitions can never reach p < 0.05 (smallest p 0.100): no cost is detectable; use --reps 4 or more$' "$TMP/out" ||
		fail "no too-few line in the header: $(cat "$TMP/out")" || return 1
	expect_eq "detected_ns" "$(jq -r '.sensitivity[0].detected_ns' "$j")" null || return 1
	expect_eq "tries" "$(jq -r '.sensitivity[0].tries | length' "$j")" 0
}

# A real search (4 reps of 0.2 s a side): the costs tried go up the ladder
# and the search stops at the first one flagged, whatever the host did.
t_sensitivity_search() {
	local j=$TMP/s.json
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	"$X" lab run --rows drop/no-touch --sizes 64 --reps 4 --seconds 0.2 --sensitivity --json "$j" \
		>"$TMP/out" 2>&1 || fail "lab run failed: $(cat "$TMP/out")" || return 1
	./scripts/validate-results.py "$j" >"$TMP/v" 2>&1 || fail "schema: $(cat "$TMP/v")" || return 1
	# Costs in ladder order, each tried once, or twice when the first try
	# was flagged (the second confirms); detected = the first confirmed.
	jq -e '.sensitivity[0] as $s | $s.tries as $t |
		([$t[].extra_ns] | unique) as $x |
		$x == [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 1000][0:($x | length)] and
		([range(0; $t | length) as $i | $t[$i] |
			if .confirmation then $i > 0 and $t[$i - 1].regression and ($t[$i - 1].confirmation | not) and
				$t[$i - 1].extra_ns == .extra_ns
			else true end] | all) and
		([$t[:-1][] | select(.confirmation and .regression)] | length == 0) and
		(if $s.detected_ns == null then ([$t[] | select(.confirmation and .regression)] | length == 0)
		 else $t[-1].regression and $t[-1].confirmation and $t[-1].extra_ns == $s.detected_ns end)' "$j" >/dev/null ||
		fail "sensitivity search: $(jq -c '.sensitivity' "$j")" || return 1
	# Each cost's loop is sized by its own BPF_PROG_RUN check, whose figure
	# is the mean of three integer-ns differences: a whole number of thirds
	# (it was iterations x slope, sized from a calibration for 0 ns).
	jq -e '[.sensitivity[0].tries[] | (.set_ns * 3 - (.set_ns * 3 | round) | fabs) < 1e-9] | all' "$j" >/dev/null ||
		fail "a try's set_ns is not its check: $(jq -c '[.sensitivity[0].tries[] | [.extra_ns, .set_ns]]' "$j")" || return 1
	grep -Eq '^  (this lab detects >= [0-9]+ ns/packet on drop/no-touch at 64 B with 4 reps|drop/no-touch at 64 B with 4 reps: no cost up to 1000 ns/packet was detected)$' "$TMP/out" ||
		fail "no sensitivity line in the header: $(cat "$TMP/out")"
}

# The DUT CPU time's source, recorded per row: the softirq tracepoints in
# softirq wiring (/proc/stat when turned off), the NAPI kthread's schedstat
# in threaded wiring. The tracepoint time of the judged CPU over a window
# is more than 0 and at most the window (one CPU cannot spend more).
t_softirq_cpu_source() {
	local j=$TMP/sq.json j0
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	"$X" lab run --rows gen-ceiling,drop/no-touch --sizes 64 --reps 2 --seconds 0.3 --wiring softirq --json "$j" \
		>"$TMP/out" 2>&1 || fail "lab run failed: $(cat "$TMP/out")" || return 1
	./scripts/validate-results.py "$j" >"$TMP/v" 2>&1 || fail "schema: $(cat "$TMP/v")" || return 1
	# The ceiling's CPU figure is the generator CPU's /proc/stat busy time.
	expect_eq "cpu_source (gen-ceiling)" "$(jq -r '.rows[0] | "\(.name) \(.cpu_source) \([.reps[].softirq_runs] | map(select(.)) | length)"' "$j")" \
		"gen-ceiling proc-stat 0" || return 1
	j0=$j
	jq '.rows |= [.[1]]' "$j0" >"$TMP/sq1.json" && j=$TMP/sq1.json
	expect_eq "cpu_source (softirq)" "$(jq -r '.rows[0].cpu_source' "$j")" softirq-tracepoint || return 1
	# Live frames arrive in bulks: fewer NET_RX runs than frames. AF_PACKET's
	# (ENGINE=packet: the host refuses live frames) each run the NAPI as
	# their send returns: one run per frame, plus the runs of other traffic
	# on that CPU (up to 1% here: 398,210 runs for 398,092 frames).
	local slack=0
	[ "$ENGINE" == packet ] && slack=0.01
	jq -e --argjson s "$slack" '[.rows[0].reps[] | .softirq_runs > 0 and .softirq_runs <= .packets * (1 + $s)] | length == 2 and all' "$j" >/dev/null ||
		fail "softirq_runs: $(jq -c '[.rows[0].reps[] | {packets, softirq_runs}]' "$j")" || return 1
	jq -e '[.rows[0].reps[] | (.cpu_ns_per_pkt * .packets) as $cpu | $cpu > 0 and $cpu <= .ns * 1.01] |
		length == 2 and all' "$j" >/dev/null ||
		fail "softirq time outside (0, window]: $(jq -c '[.rows[0].reps[] | {ns, packets, cpu_ns_per_pkt}]' "$j")" || return 1
	j=$TMP/sq.json
	XDPLAB_SOFTIRQ_SOURCE=proc-stat "$X" lab run --rows drop/no-touch --sizes 64 --reps 1 --seconds 0.3 \
		--wiring softirq --json "$j" >"$TMP/out" 2>&1 || fail "lab run (proc-stat) failed: $(cat "$TMP/out")" || return 1
	expect_eq "cpu_source (turned off)" "$(jq -r '.rows[0].cpu_source' "$j")" proc-stat || return 1
	[ "$(nproc)" -ge 2 ] || return 0 # threaded wiring needs a CPU of its own
	"$X" lab run --rows drop/no-touch --sizes 64 --reps 1 --seconds 0.3 --wiring threaded --json "$j" \
		>"$TMP/out" 2>&1 || fail "lab run (threaded) failed: $(cat "$TMP/out")" || return 1
	expect_eq "cpu_source (threaded)" "$(jq -r '.rows[0].cpu_source' "$j")" napi-kthread-schedstat
}

# The softirq tracepoints run on every softirq of the machine: never loaded
# for the generator ceiling (its CPU figure is /proc/stat's), loaded while an
# XDP row in softirq wiring reads them, gone while the AF_XDP row after it
# runs (they stayed for the rest of the process, a cost on the AF_XDP rows).
# Counted in the lab run's own file descriptors (its raw-tracepoint links on
# softirq_entry/exit, /proc/PID/fdinfo), so another xdplab on the machine
# does not count. At the end no meter still holds them (lab run warns).
t_softirq_tp_scoped() {
	local pid i seen=0 ceiling=0 during c
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	n_sirq() { grep -ls '^tp_name:[[:space:]]*softirq_e' /proc/"$1"/fdinfo/* 2>/dev/null | wc -l; }
	: >"$TMP/scoped.err"
	"$X" lab run --rows gen-ceiling,drop/no-touch,xsk-rxdrop/drv --sizes 64 --reps 2 --seconds 1 \
		--wiring softirq >"$TMP/scoped.out" 2>"$TMP/scoped.err" &
	pid=$!
	for i in $(seq 1 400); do # the ceiling row: none
		grep -q 'measuring drop/no-touch' "$TMP/scoped.err" && break
		kill -0 $pid 2>/dev/null || break
		c=$(n_sirq $pid)
		[ "$c" -gt "$ceiling" ] && ceiling=$c
		sleep 0.05
	done
	for i in $(seq 1 200); do # the drop row: both programs appear
		[ "$(n_sirq $pid)" -ge 2 ] && { seen=1; break; }
		grep -q 'measuring xsk-rxdrop' "$TMP/scoped.err" && break
		sleep 0.05
	done
	for i in $(seq 1 200); do # then the AF_XDP row starts
		grep -q 'measuring xsk-rxdrop' "$TMP/scoped.err" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	sleep 0.5
	kill -0 $pid 2>/dev/null || fail "lab run ended before its AF_XDP row was watched: $(cat "$TMP/scoped.err")" || return 1
	during=$(n_sirq $pid)
	wait $pid || fail "lab run failed: $(cat "$TMP/scoped.err")" || return 1
	expect_eq "softirq programs during the generator ceiling" $ceiling 0 || return 1
	expect_eq "softirq programs seen during the drop row" $seen 1 || return 1
	expect_eq "softirq programs during the AF_XDP row" "$during" 0 || return 1
	expect_eq "meters still holding them at the end" "$(grep -c 'still held' "$TMP/scoped.err")" 0
}

# shellcheck source=tests/e2e/suite.inc
. tests/e2e/suite.inc

# Root is needed only by the tests that make labs; they say so themselves.
# Each test in a folder of its own: files one test leaves (x.json, a-*.json)
# changed what a later one read when the whole suite ran.
run_one() {
	local top=$TMP rc
	TMP=$top/$1
	mkdir -p "$TMP"
	"t_$1" >"$TMP/log" 2>&1
	rc=$?
	suite_verdict "$1" $rc "$(cat "$TMP/log")"
	TMP=$top
}

suite_prereq() { [ -x "$X" ] || { echo "build/xdplab missing: run make" >&2; return 1; }; }
suite_main 0 "$@"
