#!/usr/bin/env bash
# Issue 19's acceptance measurements of compare's several-runs method, one
# command (root; a quiet machine: other load moves every figure):
#   A/A    RUNS separate lab runs against RUNS separate lab runs of the same
#          code, alternated (A B A B ...), compared BASE... -- NEW...: at
#          most 5% of the compared rows may be flagged.
#   power  the drop rows with --extra-ns EXTRA in RUNS separate runs against
#          RUNS without, alternated (plain, extra, plain, extra ...): every
#          drop row flagged slower, its estimate within EXTRA +- 3 ns/packet
#          (DUT CPU ns/packet when compare judged the row generator-bound).
# With PROG_TIME=1 (the default) every run is `lab run --prog-time` and
# both checks are made twice: on compare's default figure and on the
# program's own time per run (compare --figure prog: the files *-prog.*);
# the A/A check must pass on both, the power check on either, and the
# summary says which.
# Each run is a separate `xdplab lab run` (its own lab, its own --extra-ns
# calibration), so the host's between-run variation is in the test.
# Knobs (environment): RUNS (runs a side, default 4), REPS and WINDOW (each
# run's repetitions and window in seconds; default lab run's), ROWS and SIZES (default
# lab run's: every default row at 64 and 1500 B; power: the four drop rows
# at SIZES), EXTRA (default 10), PROG_TIME (1 or 0), ONLY (aa or power: one of the two), XDPLAB
# (the binary, default build/xdplab), OUT (default
# bench/aa-power-DATE-COMMIT).
# Writes OUT/aa/{a,b}/run-I.json, OUT/power/{plain,extra}/run-I.json, each
# comparison as .txt and .json, and OUT/summary.txt, whose last line is
# "aa: PASS|FAIL ...; power: PASS|FAIL ...". Exit 0 when every check run
# passed, 1 when one failed, 2 on bad knobs.
set -euo pipefail
cd "$(dirname "$0")/.."
X=${XDPLAB:-./build/xdplab}
runs=${RUNS:-4}
extra=${EXTRA:-10}
only=${ONLY:-}
prog=${PROG_TIME:-1}
case "$prog" in 0|1) ;; *) echo "aa-power: PROG_TIME='$prog' is not accepted (accepted: 0, 1)" >&2; exit 2 ;; esac
case "$runs" in ''|*[!0-9]*) echo "aa-power: RUNS='$runs' is not a whole number (accepted: 2..32)" >&2; exit 2 ;; esac
[ "$runs" -ge 2 ] && [ "$runs" -le 32 ] || { echo "aa-power: RUNS=$runs is out of range (accepted: 2..32)" >&2; exit 2; }
case "$only" in ''|aa|power) ;; *) echo "aa-power: ONLY='$only' is not accepted (accepted: aa, power)" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "aa-power: needs root (lab run makes namespaces and attaches XDP)" >&2; exit 2; }
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
out=${OUT:-bench/aa-power-$(date -u +%Y%m%dT%H%M%SZ)-$commit}
mkdir -p "$out"
summary=$out/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }

common=()
[ -n "${REPS:-}" ] && common+=(--reps "$REPS")
[ -n "${WINDOW:-}" ] && common+=(--seconds "$WINDOW")
[ -n "${SIZES:-}" ] && common+=(--sizes "$SIZES")
[ "$prog" = 1 ] && common+=(--prog-time)
figs=(default)
[ "$prog" = 1 ] && figs+=(prog)

# cmp OUTBASE FIG BASEDIR NEWDIR: compare into OUTBASE.txt/.json (FIG prog: --figure prog).
cmp() {
	local o=$1 fig=$2 rc=0 args=()
	shift 2
	[ "$fig" = prog ] && args+=(--figure prog)
	"$X" compare "${args[@]}" "$1" -- "$2" >"$o.txt" 2>&1 || rc=$?
	"$X" compare "${args[@]}" --json "$1" -- "$2" >"$o.json" 2>/dev/null || true
	[ "$rc" -le 2 ] && [ -s "$o.json" ] || { say "compare failed (exit $rc): $(tail -2 "$o.txt")"; exit 1; }
}

# run DIR I ARGS...: one separate lab run into DIR/run-I.json (its table in DIR/run-I.txt).
run() {
	local dir=$1 i=$2
	shift 2
	mkdir -p "$dir"
	echo "aa-power: $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg): $X lab run ${common[*]} $* --json $dir/run-$i.json" >&2
	"$X" lab run "${common[@]}" "$@" --json "$dir/run-$i.json" >"$dir/run-$i.txt" 2>&1 ||
		{ echo "aa-power: lab run failed (exit $?): $(tail -3 "$dir/run-$i.txt")" >&2; return 1; }
}

say "aa-power: commit $commit, $runs runs a side, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%Y-%m-%dT%H:%M:%SZ); lab run ${common[*]:-(defaults)}"
aa_ok= power_ok=
if [ "$only" != power ]; then
	rows=()
	[ -n "${ROWS:-}" ] && rows=(--rows "$ROWS")
	for i in $(seq 1 "$runs"); do
		run "$out/aa/a" "$i" "${rows[@]}"
		run "$out/aa/b" "$i" "${rows[@]}"
	done
	aa_ok=PASS
	for fig in "${figs[@]}"; do
		sfx=; [ "$fig" = prog ] && sfx=-prog
		cmp "$out/aa/compare$sfx" "$fig" "$out/aa/a" "$out/aa/b"
		read -r compared flagged toofew < <(jq -r '.summary | "\(.compared) \(.regressions + .improvements) \(.too_few)"' "$out/aa/compare$sfx.json")
		nprog=$(jq -r '[.rows[] | select(.figure == "prog")] | length' "$out/aa/compare$sfx.json")
		jq -r '.rows[] | select(.verdict == "regression" or .verdict == "improvement") |
			def r2: if . == null then "none" else (. * 100 | round / 100 | tostring) end;
			"  flagged: \(.name) \(.size) \(.mode) \(.wiring): \(.verdict), \(.estimate | r2) \(if .metric == "prog_ns_per_run" then "ns per program run" else "ns/packet" end) (\(.metric)), p \(.p | r2)"' \
			"$out/aa/compare$sfx.json" | tee -a "$summary"
		# At most 5%: flagged * 20 <= compared; none decidable is no pass.
		if [ "$compared" -gt "$toofew" ] && [ $((flagged * 20)) -le "$compared" ]; then ok=PASS; else ok=FAIL aa_ok=FAIL; fi
		what=; [ "$fig" = prog ] && what=", $nprog rows on the program's own time"
		say "aa ($fig figure$what): $ok: $flagged of $compared compared rows flagged (at most 5% allowed), $toofew too few runs"
	done
fi
if [ "$only" != aa ]; then
	drops=drop/no-touch,drop/read-data,drop/parse-ip,drop/swap-macs
	for i in $(seq 1 "$runs"); do
		run "$out/power/plain" "$i" --rows "$drops" --extra-ns 0
		run "$out/power/extra" "$i" --rows "$drops" --extra-ns "$extra"
	done
	power_ok=FAIL
	for fig in "${figs[@]}"; do
		sfx=; [ "$fig" = prog ] && sfx=-prog
		f=$out/power/compare$sfx.json
		cmp "$out/power/compare$sfx" "$fig" "$out/power/plain" "$out/power/extra"
		bad=$(jq -r --argjson x "$extra" '[.rows[] | select(.name | startswith("drop/")) |
			select(.verdict != "regression" or .estimate < $x - 3 or .estimate > $x + 3)] | length' "$f")
		slower=$(jq -r '[.rows[] | select(.name | startswith("drop/")) | select(.verdict == "regression")] | length' "$f")
		n=$(jq -r '[.rows[] | select(.name | startswith("drop/"))] | length' "$f")
		jq -r '.rows[] | select(.name | startswith("drop/")) |
			def r2: if . == null then "none" else (. * 1000 | round / 1000 | tostring) end;
			"  \(.name) \(.size): \(.verdict), estimate \(.estimate | r2) \(if .metric == "prog_ns_per_run" then "ns per program run" else "ns/packet" end) (\(.metric)), 95% CI \(.ci_lo | r2)..\(.ci_hi | r2), p \(.p | r2)"' \
			"$f" | tee -a "$summary"
		if [ "$n" -gt 0 ] && [ "$bad" = 0 ]; then ok=PASS power_ok=PASS; else ok=FAIL; fi
		say "power ($fig figure): $ok: $((n - bad)) of $n drop rows flagged slower within $extra +- 3 ns/packet ($slower of $n flagged slower)"
	done
fi
say "load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%Y-%m-%dT%H:%M:%SZ); aa: ${aa_ok:-not run}; power: ${power_ok:-not run}"
[ "$aa_ok" != FAIL ] && [ "$power_ok" != FAIL ]
