#!/usr/bin/env bash
# End-to-end tests of 'xdplab bisect-step', the step command of `git bisect
# run` (docs/ci.md): a git repository made here under $TMPDIR of an XDP
# program (tests/e2e/bisect/work.bpf.c) whose history has a slowdown planted
# at one commit (3000 multiply-adds a packet, ~3 us on this host where the
# program takes ~0.5 us), a baseline stored from its first commit, and
# `git bisect run` with the step, which must name the planted commit
# (root: lab runs). Bad input (no root): one line each and exit 128, which
# stops a bisect; a commit whose lab run fails is skipped (125).
#   tests/e2e/bisect.sh          run all
#   tests/e2e/bisect.sh -l       list the tests
#   tests/e2e/bisect.sh -t NAME  run one
# Ends with "N passed, N failed, N skipped". On a loaded 2-CPU host: the
# planted step is ~5x the program's cost, a regression must exceed 1000
# ns/packet (--threshold-ns; runs of the same code differ by ~200 here),
# and each run has 5 repetitions (5 vs 5: p 0.008 when they separate).
set -u
cd "$(dirname "$0")/../.."
X=${XDPLAB:-./build/xdplab} # XDPLAB=path: test another binary (run.sh)
X=$(realpath "$X")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xdplab-e2e.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM HUP

TESTS=("bisect_finds_commit|git bisect run with the step names the commit that planted 3000 multiply-adds (root)"
       "bisect_bad_input|usage, store and baseline errors: one line, exit 128; a failed lab run: skip, 125")

fail() { echo "$*"; return 1; }
expect_eq() { [ "$2" == "$3" ] || fail "$1: got '$2', want '$3'"; }

# lab run's options of every step: one cheap built-in row, the program's row at 64 B.
LAB=(--rows gen-ceiling --sizes 64 --reps 5 --seconds 0.3 --warmup 0.1)

# commit REPO WORK MESSAGE [LINE]: work.bpf.c with WORK (and LINE appended to
# its comment, so each commit changes it), committed.
commit() {
	sed "s/^#define WORK 0$/#define WORK $2/; s|^ \\*/$| * ${4:-}\\n */|" tests/e2e/bisect/work.bpf.c >"$1/work.bpf.c"
	git -C "$1" add work.bpf.c && git -C "$1" commit -qm "$3" || return 1
	git -C "$1" rev-parse HEAD
}

t_bisect_finds_commit() {
	local repo=$TMP/repo i planted out rc
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; return 77; }
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
	git init -q "$repo" || return 1
	commit "$repo" 0 "work: first" >"$TMP/c1" || return 1
	for i in 2 3 4; do commit "$repo" 0 "work: change $i" "change $i" >/dev/null || return 1; done
	planted=$(commit "$repo" 3000 "work: planted slowdown" "planted") || return 1
	for i in 6 7 8; do
		commit "$repo" 3000 "work: change $i" "change $i" >/dev/null || return 1
	done
	# The step: build this commit's program (a build that fails is skipped),
	# then the step command against the baseline.
	cat >"$TMP/step.sh" <<-EOF
	#!/bin/sh
	clang -O2 -g -target bpf -I/usr/include/$(gcc -print-multiarch) -c work.bpf.c -o "$TMP/work.o" 2>/dev/null || exit 125
	exec "$X" bisect-step --db "$TMP/s.db" --base-label good --row prog/xdp_work --threshold-ns 1000 -- \\
		${LAB[*]} --prog "$TMP/work.o"
	EOF
	chmod +x "$TMP/step.sh"
	# The baseline: the first commit's program, stored as label good.
	git -C "$repo" checkout -q "$(cat "$TMP/c1")" || return 1
	(cd "$repo" && clang -O2 -g -target bpf -I/usr/include/"$(gcc -print-multiarch)" -c work.bpf.c -o "$TMP/work.o") || return 1
	"$X" lab run "${LAB[@]}" --prog "$TMP/work.o" --store --db "$TMP/s.db" --label good >/dev/null 2>"$TMP/lab.err" ||
		fail "baseline lab run: $(cat "$TMP/lab.err")" || return 1
	git -C "$repo" checkout -q master 2>/dev/null || git -C "$repo" checkout -q main || return 1
	git -C "$repo" bisect start HEAD "$(cat "$TMP/c1")" >/dev/null || return 1
	out=$(cd "$repo" && git bisect run "$TMP/step.sh" 2>"$TMP/bisect.err")
	rc=$?
	git -C "$repo" bisect reset -q 2>/dev/null
	expect_eq "git bisect run's status" $rc 0 || { echo "$out"; return 1; }
	grep -qx "$planted is the first bad commit" <<<"$out" ||
		fail "the planted commit $planted not named: $out" || return 1
	# Every step said good or bad, none skipped: the figures decided.
	expect_eq "steps that were skipped" "$(grep -c '^bisect-step: skip' <<<"$out")" 0 || return 1
	expect_eq "bad steps' lines" "$(grep '^bisect-step: bad' <<<"$out" | sort -u)" \
		"bisect-step: bad (exit 1): 1 row(s) regressed (the first: prog/xdp_work 64 native threaded)"
}

# synth FILE LABEL: a stored run of one row, drop/no-touch 64 B, 5 repetitions.
synth() {
	printf '{"schema": "xdplab.lab-results/1", "date": "2026-12-0%sT00:00:00Z", "git": "t", "machine": {"kernel": "k", "arch": "x86_64", "cpus": 2},' "$3"
	printf ' "config": {"reps": 5, "seconds": 1, "warmup": 0.25}, "lab": "t", "rows": [{"name": "drop/no-touch", "packet_operation": "no-touch",'
	printf ' "size": 64, "mode": "native", "wiring": "threaded", "gen_engine": "live", "verdict": "valid", "note": "", "reps": ['
	printf '{"pps": 1e6, "cpu_ns_per_pkt": 50}, {"pps": 1e6, "cpu_ns_per_pkt": 50}, {"pps": 1e6, "cpu_ns_per_pkt": 50}, {"pps": 1e6, "cpu_ns_per_pkt": 50}, {"pps": 1e6, "cpu_ns_per_pkt": 50}]}]}\n'
}

# bad WANT_STATUS WANT_LINE ARGS...: the status, exactly the one line on stderr, nothing on stdout.
bad() {
	local st=$1 want=$2 rc
	shift 2
	"$X" bisect-step "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "exit status of 'bisect-step $*'" $rc "$st" || return 1
	[ ! -s "$TMP/out" ] || fail "stdout of 'bisect-step $*' not empty: $(cat "$TMP/out")" || return 1
	expect_eq "message of 'bisect-step $*'" "$(cat "$TMP/err")" "$want"
}

t_bisect_bad_input() {
	local db=$TMP/b.db i
	for i in 1 2; do
		synth "$TMP/r$i.json" two $i >"$TMP/r$i.json"
		"$X" store import --db "$db" --label two "$TMP/r$i.json" >/dev/null || return 1
	done
	synth x x 3 >"$TMP/r3.json"
	"$X" store import --db "$db" --label "it's one" "$TMP/r3.json" >/dev/null || return 1
	bad 128 "xdplab bisect-step: --base-label is required (the stored runs of a good commit: lab run --store --label LABEL)" \
		--db "$db" -- --rows drop/no-touch || return 1
	bad 128 "xdplab bisect-step: lab run's options expected after -- (the rows to run: --rows LIST, --prog FILE.o...)" \
		--db "$db" -b two || return 1
	bad 128 "xdplab bisect-step: unexpected 'x.o': lab run's options go after -- (bisect-step [options] -- LAB-RUN-OPTIONS...)" \
		--db "$db" -b two x.o -- --rows drop/no-touch || return 1
	bad 128 "xdplab bisect-step: --json is not for lab run here: the step writes the runs itself and compares them (store a baseline with lab run --store --label LABEL)" \
		--db "$db" -b two -- --rows drop/no-touch --json y.json || return 1
	bad 128 "xdplab bisect-step: --store is not for lab run here: the step writes the runs itself and compares them (store a baseline with lab run --store --label LABEL)" \
		--db "$db" -b two -- --store || return 1
	bad 128 "xdplab bisect-step: --runs: '33' is out of range (accepted: 1..32)" --runs 33 -b two -- --rows x || return 1
	bad 128 "xdplab bisect-step: --row: 'a,,b' has an empty item (accepted: a comma-separated list of row names)" \
		--row a,,b -b two -- --rows x || return 1
	bad 128 "xdplab bisect-step: $TMP/none.db: cannot open: No such file or directory (store import or lab run --store makes a store)" \
		--db "$TMP/none.db" -b two -- --rows drop/no-touch || return 1
	bad 128 "xdplab bisect-step: --base-label 'nine': no stored run has this label in $db (store list shows them)" \
		--db "$db" -b nine -- --rows drop/no-touch || return 1
	bad 128 "xdplab bisect-step: --row: no row named prog/x in store run 1 (label two)" \
		--db "$db" -b two --row prog/x -- --rows drop/no-touch || return 1
	# 2 stored runs against 2 can never reach p < 0.05 (smallest p 1/3): said at once.
	bad 128 "xdplab bisect-step: 2 stored run(s) of label two against --runs 2 can never reach p < 0.05 (several runs a side: the smallest p is 0.333); store 4 runs of the baseline and give --runs 4, or one run against --runs 1" \
		--db "$db" -b two --runs 2 -- --rows drop/no-touch || return 1
	# A commit whose lab run fails (here its program is missing: a build
	# that failed) is skipped: 125, the reason on stdout.
	mkdir "$TMP/t"
	TMPDIR=$TMP/t "$X" bisect-step --db "$db" -b "it's one" -- --rows drop/no-touch --prog "$TMP/none.o" >"$TMP/out" 2>"$TMP/err"
	expect_eq "a failed lab run: status" $? 125 || return 1
	expect_eq "a failed lab run: stdout" "$(cat "$TMP/out")" \
		"bisect-step: skip (exit 125): lab run 1 of 1 exited 2: this commit cannot be tested" || return 1
	expect_eq "a failed lab run: its message on stderr" "$(tail -1 "$TMP/err")" "xdplab: $TMP/none.o: no such file" || return 1
	expect_eq "the runs' directory removed" "$(ls -A "$TMP/t")" ""
}

# shellcheck source=tests/e2e/suite.inc
. tests/e2e/suite.inc

run_one() {
	"t_$1" >"$TMP/log" 2>&1
	suite_verdict "$1" $? "$(cat "$TMP/log")"
}

suite_prereq() { [ -x "$X" ] || { echo "build/xdplab missing: run make" >&2; return 1; }; }
suite_main 0 "$@"
