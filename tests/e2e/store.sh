#!/usr/bin/env bash
# End-to-end tests of the results store (docs/store.md): the committed
# bench/*.json imported and exported byte for byte, history over them, a
# planted step (synthesized results files: 8 plain runs, then 8 with 10 ns
# more per packet, as lab run --extra-ns 10 adds) found at the right run
# and none on the plain runs alone, compare from the store, one small real
# lab run --store (root: it makes a lab), bad input (one line each, the
# right exit status, the store unharmed), and all of it again on a real
# PostgreSQL server started here in a temporary directory (initdb/pg_ctl
# as the postgres user, a unix socket in that directory, no TCP) and
# stopped on every exit path.
#   tests/e2e/store.sh          run all
#   tests/e2e/store.sh -l       list the tests
#   tests/e2e/store.sh -t NAME  run one
# Ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.."
X=${XDPLAB:-./build/xdplab} # XDPLAB=path: test another binary (run.sh)
TMP=$(mktemp -d /tmp/xdplab-e2e.XXXXXX)
PGBIN="" PGDIR="" AS=()
pg_stop() {
	[ -n "$PGDIR" ] && [ -e "$PGDIR/data/postmaster.pid" ] &&
		"${AS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >/dev/null 2>&1
	return 0
}
trap 'pg_stop; rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM HUP

TESTS=("store_bench_files|bench/*.json import, export byte for byte, history prints each row's runs"
       "store_planted_step|a +10 ns/packet step after 8 plain runs found at run 9; none on the plain runs"
       "store_compare|compare --db --base-label --new-label"
       "store_bad_input|corrupt, locked, newer schema, killed mid-write, SQL in labels, usage"
       "store_lab_run|one small real lab run --store (root)"
       "store_postgresql|the same on a PostgreSQL server started here; server down, wrong password")

fail() { echo "$*"; return 1; }
expect_eq() { [ "$2" == "$3" ] || fail "$1: got '$2', want '$3'"; }

# one_line WANT_STATUS WANT_MESSAGE CMD...: the status, empty stdout, exactly the one line on stderr.
one_line() {
	local st=$1 want=$2 rc
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "exit status of '$*'" $rc "$st" || return 1
	[ ! -s "$TMP/out" ] || fail "stdout of '$*' not empty: $(cat "$TMP/out")" || return 1
	expect_eq "lines on stderr of '$*'" "$(wc -l <"$TMP/err")" 1 || return 1
	expect_eq "message of '$*'" "$(cat "$TMP/err")" "$want"
}

# synth FILE DATE NS TAG: a lab results file, one row drop/no-touch 64 B, 5 repetitions
# around NS ns/packet (+-0.3, fixed), verdict valid; TAG as its commit.
synth() {
	python3 - "$@" <<'EOF'
import json, sys
f, date, ns, tag = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
reps = [{"pps": 1e9 / (ns + d), "cpu_ns_per_pkt": ns + d} for d in (-0.3, -0.1, 0.0, 0.1, 0.3)]
doc = {"schema": "xdplab.lab-results/1", "date": date, "git": tag,
       "machine": {"kernel": "6.1", "arch": "x86_64", "cpus": 2, "host": "dut1"},
       "config": {"reps": 5, "seconds": 1.0, "warmup": 0.25}, "lab": "t",
       "rows": [{"name": "drop/no-touch", "packet_operation": "no-touch", "size": 64,
                 "mode": "native", "wiring": "threaded", "gen_engine": "live", "verdict": "valid",
                 "note": "", "reps": reps}]}
json.dump(doc, open(f, "w"), indent=2, sort_keys=True)
EOF
}

# plant DB: 8 plain runs (label plain) then 8 with +10 ns/packet (label extra10), in date order;
# the plain medians wander by a few tenths of a ns, as a quiet host's do.
plant() {
	local db=$1 i ns
	for i in $(seq 1 16); do
		ns=$(awk -v i="$i" 'BEGIN { printf "%.2f", 100 + 0.4 * sin(i * 1.7) + (i > 8 ? 10 : 0) }')
		synth "$TMP/step$i.json" "2026-12-$(printf %02d "$i")T00:00:00Z" "$ns" "c$i" || return 1
		"$X" store import --db "$db" --label "$([ "$i" -gt 8 ] && echo extra10 || echo plain)" \
			"$TMP/step$i.json" >/dev/null || return 1
	done
}

# bench_files DB: the committed runs import, again (not stored twice), export byte for byte.
check_bench_files() {
	local db=$1 f n=0 id out
	for f in bench/*.json; do
		n=$((n + 1))
		out=$("$X" store import --db "$db" "$f") || fail "import $f: $out" || return 1
		expect_eq "import $f" "$out" "$f: stored as run $n in ${2:-$db}" || return 1
	done
	out=$("$X" store import --db "$db" bench/*.json | grep -c 'already stored as run')
	expect_eq "files not stored twice" "$out" "$n" || return 1
	for id in $(seq 1 $n); do
		f=$(ls bench/*.json | sed -n "${id}p")
		"$X" store export --db "$db" "$id" -o "$TMP/export.json" || return 1
		cmp "$f" "$TMP/export.json" || fail "run $id exported differs from $f" || return 1
		# compare reads it as the original: the same comparison, the same exit
		"$X" compare --json "$f" "$f" >"$TMP/c1"
		local r1=$?
		"$X" compare --json "$TMP/export.json" "$f" | sed "s|$TMP/export.json|$f|" >"$TMP/c2"
		expect_eq "compare of run $id's export" "$r1 $(md5sum <"$TMP/c1")" "$r1 $(md5sum <"$TMP/c2")" || return 1
	done
	expect_eq "runs listed" "$("$X" store list --db "$db" | tail -1)" "$n run(s) in ${2:-$db}" || return 1
	# history: drop/no-touch's two sizes, each with the runs that have it (not the latency files)
	"$X" history --db "$db" --row drop/no-touch >"$TMP/hist" || return 1
	expect_eq "series" "$(grep -c '^drop/no-touch ' "$TMP/hist")" 2 || return 1
	expect_eq "runs of drop/no-touch 64 B" \
		"$(awk '/^drop\/no-touch 64 B/ { s = 1; next } s && /^ +[0-9]+ / { printf "%s ", $1 } /^(no|change)/ { s = 0 }' "$TMP/hist")" \
		"1 2 3 4 7 8 " || return 1
	"$X" history --db "$db" >"$TMP/all" || return 1
	expect_eq "every row with repetitions" "$(tail -1 "$TMP/all" | cut -d' ' -f1-2)" \
		"$(python3 -c '
import glob, json
ids = set()
for f in glob.glob("bench/*.json"):
    for r in json.load(open(f))["rows"]:
        if any("pps" in x for x in r.get("reps", [])):
            ids.add((r.get("name"), r.get("packet_operation") or "", r.get("size", 0), r.get("mode", ""), r.get("wiring", ""), r.get("gen_engine", "")))
print(len(ids), "row(s),")')"
}

t_store_bench_files() {
	check_bench_files "$TMP/b.db"
}

check_planted_step() {
	local db=$1 out
	plant "$db" || return 1
	"$X" history --db "$db" --row drop/no-touch >"$TMP/h" || fail "history: $(cat "$TMP/h")" || return 1
	out=$(grep '^change point' "$TMP/h")
	[[ $out == "change point at run 9 (2026-12-09T00:00:00Z, label extra10, commit c9): median "*" -> "*" ns/packet (+"*", p = 0.0050" ]] ||
		fail "change point line: '$out'" || return 1
	expect_eq "change points" "$(tail -1 "$TMP/h" | cut -d' ' -f1-4)" "1 row(s), 1 change" || return 1
	# the trend page: a bar per run, 8 before the change and 8 after, the change's heading
	"$X" history --db "$db" --row drop/no-touch --html "$TMP/h.html" >/dev/null || return 1
	expect_eq "page's runs" "$(grep -o 'data-runs="[0-9]*" data-change-points="[0-9]*"' "$TMP/h.html")" \
		'data-runs="16" data-change-points="1"' || return 1
	expect_eq "bars" "$(grep -o 'class="bar [a-z]*"' "$TMP/h.html" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
		' 8 class="bar level"; 8 class="bar regression";' || return 1
	grep -q '>change point: +10.00 ns (+10.0%), p = 0.0050</text>' "$TMP/h.html" ||
		fail "no change-point heading in the page" || return 1
	"$X" history --db "$db" --label plain >"$TMP/h" || return 1
	expect_eq "change points of the plain runs" "$(grep -c '^change point' "$TMP/h")" 0 || return 1
	expect_eq "plain runs listed" "$(grep -cE '^ +[0-9]+  2026' "$TMP/h")" 8 || return 1
	grep -q '^no change point: the best candidate, at run [0-9]*, has p = .* > alpha 0.01$' "$TMP/h" ||
		fail "no-change line: $(cat "$TMP/h")" || return 1
	# --since: 5 plain runs, then the step: still found at run 9
	"$X" history --db "$db" --since 2026-12-04 >"$TMP/h" || return 1
	expect_eq "runs since 12-04" "$(grep -cE '^ +[0-9]+  2026' "$TMP/h")" 13 || return 1
	grep -q '^change point at run 9 ' "$TMP/h" || fail "since: $(cat "$TMP/h")"
}

t_store_planted_step() {
	check_planted_step "$TMP/s.db"
}

check_compare() {
	local db=$1 name=${2:-$1} rc
	plant "$db" || return 1
	# every run of each label: several runs a side (compare's run-as-unit test)
	"$X" compare --db "$db" --base-label plain --new-label extra10 >"$TMP/c" 2>"$TMP/ce"
	rc=$?
	expect_eq "compare status (a regression)" $rc 1 || return 1
	[ ! -s "$TMP/ce" ] || fail "stderr: $(cat "$TMP/ce")" || return 1
	expect_eq "header" "$(head -1 "$TMP/c")" "xdplab compare: 8 base runs vs 8 new runs" || return 1
	expect_eq "runs named" "$(grep -c 'store run [0-9]* (label \(plain\|extra10\))' "$TMP/c")" 16 || return 1
	grep -qE '^drop/no-touch +64 native +threaded +8/8 .* \[\+9\.[0-9]+, \+10\.[0-9]+\] .* regression$' "$TMP/c" ||
		fail "row: $(cat "$TMP/c")" || return 1
	# one run a side: the two files' comparison
	synth "$TMP/one-a.json" 2026-12-19T00:00:00Z 100 ca || return 1
	"$X" store import --db "$db" --label one-a "$TMP/one-a.json" >/dev/null || return 1
	synth "$TMP/one-b.json" 2026-12-20T00:00:00Z 110 cb || return 1
	"$X" store import --db "$db" --label one-b "$TMP/one-b.json" >/dev/null || return 1
	"$X" compare --db "$db" --base-label one-a --new-label one-b >"$TMP/c" 2>"$TMP/ce"
	head -1 "$TMP/c" | grep -qF "base store run 17 (label one-a) (commit ca, 2026-12-19T00:00:00Z) vs new store run 18 (label one-b) (commit cb" ||
		fail "one a side: $(head -3 "$TMP/c"; cat "$TMP/ce")" || return 1
	one_line 2 "xdplab compare: --base-label 'nope': no stored run has this label in $name (store list shows them)" \
		"$X" compare --db "$db" --base-label nope --new-label plain
}

t_store_compare() {
	check_compare "$TMP/c.db"
}

# sqlite DB SQL: run SQL on DB (python's sqlite3: the tests need no sqlite3 program).
sqlite() {
	python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); r = c.execute(sys.argv[2]).fetchall(); c.commit(); print("\n".join("|".join(map(str, x)) for x in r))' "$@"
}

t_store_bad_input() {
	local db=$TMP/x.db holder rc f=bench/20261201T012124Z-05e6a822a9a7.json
	local evil="x'); DROP TABLE runs; --\"\\<b>"
	"$X" store import --db "$db" --label "$evil" "$f" >/dev/null || return 1
	expect_eq "the label with SQL in it" "$("$X" store list --db "$db" --label "$evil" | grep -c '^ *1  ')" 1 || return 1
	expect_eq "tables" "$(sqlite "$db" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name" | tr '\n' ' ')" \
		"run_env run_reps run_rows runs schema_version " || return 1
	expect_eq "stored label" "$(sqlite "$db" "SELECT label FROM runs")" "$evil" || return 1
	"$X" history --db "$db" --label "$evil" --html "$TMP/evil.html" >/dev/null || return 1
	expect_eq "raw <b> in the page" "$(grep -c '<b>' "$TMP/evil.html")" 0 || return 1
	grep -q '&lt;b&gt;' "$TMP/evil.html" || fail "the label is not in the page, escaped" || return 1
	# a file that is not a results file: usage, nothing stored
	echo 'not json' >"$TMP/text.json"
	one_line 2 "xdplab store import: $TMP/text.json: not JSON (line 1: '[' or '{' expected near 'not'); expected an xdplab results file (lab run --json)" \
		"$X" store import --db "$db" "$TMP/text.json" || return 1
	# killed while writing (after its 3rd row): nothing of it stays, the next import is whole
	XDPLAB_STORE_DIE_AFTER_ROWS=3 "$X" store import --db "$db" bench/20261201T032203Z-afe027a4c0fb.json >/dev/null 2>&1
	expect_eq "killed import's status" $? 137 || return 1
	expect_eq "runs after the kill" "$(sqlite "$db" "SELECT COUNT(*) FROM runs")" 1 || return 1
	expect_eq "rows after the kill" "$(sqlite "$db" "SELECT COUNT(*) FROM run_rows WHERE run_id = 2")" 0 || return 1
	expect_eq "integrity" "$(sqlite "$db" "PRAGMA integrity_check")" ok || return 1
	expect_eq "import after the kill" "$("$X" store import --db "$db" bench/20261201T032203Z-afe027a4c0fb.json)" \
		"bench/20261201T032203Z-afe027a4c0fb.json: stored as run 2 in $db" || return 1
	# locked by another writer: wait XDPLAB_STORE_BUSY_MS, then one line
	python3 -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True); time.sleep(60)' "$db" >"$TMP/holder" &
	holder=$!
	for _ in $(seq 1 100); do grep -q locked "$TMP/holder" && break; sleep 0.05; done
	XDPLAB_STORE_BUSY_MS=100 one_line 1 "xdplab store list: $db: locked by another process (still after waiting 100 ms: XDPLAB_STORE_BUSY_MS)" \
		"$X" store list --db "$db"
	rc=$?
	kill "$holder"; wait "$holder" 2>/dev/null
	[ $rc = 0 ] || return 1
	expect_eq "runs after the lock" "$("$X" store list --db "$db" | tail -1)" "2 run(s) in $db" || return 1
	# a store of a newer schema: refused, untouched
	sqlite "$db" "UPDATE schema_version SET version = 2" >/dev/null
	one_line 1 "xdplab history: $db: store schema version 2 is newer than this xdplab's (1): use a newer xdplab" \
		"$X" history --db "$db" || return 1
	expect_eq "version kept" "$(sqlite "$db" "SELECT version FROM schema_version")" 2 || return 1
	sqlite "$db" "UPDATE schema_version SET version = 1" >/dev/null
	# a corrupt file, a missing one, a directory
	head -c 4096 /dev/urandom >"$TMP/junk.db"
	cp "$TMP/junk.db" "$TMP/junk.orig"
	one_line 1 "xdplab store import: $TMP/junk.db: not an SQLite database, or a damaged one (file is not a database)" \
		"$X" store import --db "$TMP/junk.db" "$f" || return 1
	cmp "$TMP/junk.db" "$TMP/junk.orig" || fail "the corrupt file was changed" || return 1
	one_line 1 "xdplab store list: $TMP/none.db: cannot open: No such file or directory (store import or lab run --store makes a store)" \
		"$X" store list --db "$TMP/none.db" || return 1
	[ ! -e "$TMP/none.db" ] || fail "list made a store" || return 1
	one_line 1 "xdplab store export: $TMP: cannot open: not a regular file" "$X" store export --db "$TMP" 1 || return 1
	one_line 2 "xdplab store export: $db: no run 9 (store list shows the runs)" "$X" store export --db "$db" 9 || return 1
	# usage
	one_line 2 "xdplab history: --since: 'yesterday' is not a date (accepted: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)" \
		"$X" history --db "$db" --since yesterday || return 1
	one_line 2 "xdplab compare: --db needs --base-label and --new-label" "$X" compare --db "$db" --base-label a || return 1
	one_line 2 "xdplab compare: --base-label and --new-label need --db (the store to read)" \
		"$X" compare --base-label a --new-label b || return 1
	one_line 2 "xdplab lab run: --db and --label go with --store" "$X" lab run --label x || return 1
	one_line 2 "xdplab store: unknown subcommand 'drop' (accepted: list, show, export, import)" "$X" store drop || return 1
	# the default store: under XDG_DATA_HOME, its directory made
	XDG_DATA_HOME=$TMP/xdg "$X" store import "$f" >/dev/null || return 1
	expect_eq "default store" "$(XDG_DATA_HOME=$TMP/xdg "$X" store list | tail -1)" "1 run(s) in $TMP/xdg/xdplab/results.db"
}

t_store_lab_run() {
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; return 77; }
	local db=$TMP/l.db out
	plant "$db" || return 1
	"$X" lab run --rows drop/no-touch --sizes 64 --reps 2 --seconds 0.2 --store --db "$db" \
		--label "real 'one'" --json "$TMP/real.json" >"$TMP/lab.out" 2>"$TMP/lab.err" ||
		fail "lab run: $(cat "$TMP/lab.err")" || return 1
	grep -qx "lab run: stored as run 17 in $db" "$TMP/lab.err" || fail "stderr: $(cat "$TMP/lab.err")" || return 1
	"$X" store export --db "$db" 17 | cmp - "$TMP/real.json" || fail "the stored run is not --json's file" || return 1
	out=$("$X" history --db "$db" --label "real 'one'")
	echo "$out" | grep -qE "^ +17  .*  real 'one'  " || fail "history: $out"
}

# ---- PostgreSQL ----

# pg_start: initdb and start a server in $TMP/pg (as postgres when root: the
# server refuses root), its socket there, no TCP; PGURI connects as xl.
pg_start() {
	PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
	[ -x "$PGBIN/initdb" ] || fail "no /usr/lib/postgresql/*/bin/initdb: scripts/deps.sh --test installs postgresql" || return 1
	PGDIR=$TMP/pg
	mkdir -p "$PGDIR"
	echo 'se cr"et' >"$PGDIR/pw"
	AS=()
	if [ "$(id -u)" -eq 0 ]; then
		chmod 711 "$TMP"
		chown -R postgres: "$PGDIR"
		AS=(runuser -u postgres --)
	fi
	"${AS[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -U xl --pwfile="$PGDIR/pw" -A scram-sha-256 \
		-E UTF8 --locale=C >"$PGDIR/initdb.log" 2>&1 || fail "initdb: $(tail -5 "$PGDIR/initdb.log")" || return 1
	"${AS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -t 60 \
		-o "-k $PGDIR -c listen_addresses=''" start >/dev/null 2>&1 ||
		fail "pg_ctl start: $(tail -5 "$PGDIR/log")" || return 1
	PGURI="postgresql://xl:se%20cr%22et@/postgres?host=$PGDIR"
	PGSHOW="postgresql://xl:***@/postgres?host=$PGDIR"
}

t_store_postgresql() {
	local sock
	pg_start || return 1
	check_bench_files "$PGURI" "$PGSHOW" || return 1
	# the same history as SQLite's, but for the store's name
	"$X" store import --db "$TMP/same.db" bench/*.json >/dev/null || return 1
	diff <("$X" history --db "$TMP/same.db" | tail -n +2) <("$X" history --db "$PGURI" | tail -n +2) ||
		fail "history differs between SQLite and PostgreSQL" || return 1
	PGPASSWORD='se cr"et' "$PGBIN/psql" -q -h "$PGDIR" -U xl -d postgres -c "CREATE DATABASE step" -c "CREATE DATABASE cmp" \
		-c "CREATE DATABASE bad" >/dev/null || fail "createdb" || return 1
	check_planted_step "postgresql://xl:se%20cr%22et@/step?host=$PGDIR" || return 1
	check_compare "postgresql://xl:se%20cr%22et@/cmp?host=$PGDIR" "postgresql://xl:***@/cmp?host=$PGDIR" || return 1
	local bad="postgresql://xl:se%20cr%22et@/bad?host=$PGDIR" evil="x'); DROP TABLE runs; --\"\\"
	"$X" store import --db "$bad" --label "$evil" bench/20261201T012124Z-05e6a822a9a7.json >/dev/null || return 1
	expect_eq "the label with SQL in it" "$("$X" store list --db "$bad" --label "$evil" | grep -c '^ *1  ')" 1 || return 1
	# killed mid-write: the server's transaction dies with the connection
	XDPLAB_STORE_DIE_AFTER_ROWS=3 "$X" store import --db "$bad" bench/20261201T032203Z-afe027a4c0fb.json >/dev/null 2>&1
	expect_eq "killed import's status" $? 137 || return 1
	expect_eq "rows after the kill" "$(PGPASSWORD='se cr"et' "$PGBIN/psql" -qtA -h "$PGDIR" -U xl -d bad -c 'SELECT COUNT(*) FROM run_rows WHERE run_id = 2')" 0 || return 1
	expect_eq "import after the kill" "$("$X" store import --db "$bad" bench/20261201T032203Z-afe027a4c0fb.json)" \
		"bench/20261201T032203Z-afe027a4c0fb.json: stored as run 2 in postgresql://xl:***@/bad?host=$PGDIR" || return 1
	# a newer schema
	PGPASSWORD='se cr"et' "$PGBIN/psql" -q -h "$PGDIR" -U xl -d bad -c 'UPDATE schema_version SET version = 2' >/dev/null || return 1
	one_line 1 "xdplab store list: postgresql://xl:***@/bad?host=$PGDIR: store schema version 2 is newer than this xdplab's (1): use a newer xdplab" \
		"$X" store list --db "$bad" || return 1
	# the wrong password: one line, no password in it
	sock="$PGDIR/.s.PGSQL.5432"
	one_line 1 "xdplab store list: postgresql://xl:***@/postgres?host=$PGDIR: connection to server on socket \"$sock\" failed: FATAL: password authentication failed for user \"xl\"" \
		"$X" store list --db "postgresql://xl:wrong@/postgres?host=$PGDIR" || return 1
	# the server down
	pg_stop
	one_line 1 "xdplab history: $PGSHOW: connection to server on socket \"$sock\" failed: No such file or directory Is the server running locally and accepting connections on that socket?" \
		"$X" history --db "$PGURI"
}

# shellcheck source=tests/e2e/suite.inc
. tests/e2e/suite.inc

run_one() {
	"t_$1" >"$TMP/log" 2>&1
	suite_verdict "$1" $? "$(cat "$TMP/log")"
}

suite_prereq() { [ -x "$X" ] || { echo "build/xdplab missing: run make" >&2; return 1; }; }
suite_main 0 "$@"
