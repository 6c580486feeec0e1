#!/usr/bin/env bash
# make bench: the lab table with more repetitions, saved under bench/ as
# JSON and text, named by date and git commit, then the meter's own cost.
# Compare runs with the JSON's ns_per_pkt and mpps min..max
# (docs/results.md). No timing assertions here.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${BENCH_REPS:-5}
seconds=${BENCH_SECONDS:-3}
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo nogit)
dirty=$(git diff --quiet 2>/dev/null || echo -dirty)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p bench
base="bench/${stamp}-${commit}${dirty}"
./build/xdplab lab run --with-monitor --reps "$reps" --seconds "$seconds" --json "$base.json" | tee "$base.txt"
./scripts/validate-results.py "$base.json"
# The meter's own cost: one sample's reads before and after issue 12, side
# by side (tests/bench/meter_cost.c, ~10 s, its own lab; docs/performance.md).
./build/bench/meter_cost | tee "$base-metercost.txt"
# redirect-cpu's round-robin turn alone, old (shared atomic) against new
# (per-CPU), with BPF_PROG_RUN (~3 s).
./build/xdplab prog-run --a build/bench/rr_turn_shared.bpf.o --b build/bench/rr_turn_percpu.bpf.o \
	--rounds 15 | tee -a "$base-metercost.txt"
# The AF_XDP hot loop alone (l2fwd and txpush steps on fake rings, no
# socket; tests/bench/xsk_loop.c, ~2 s): ns/packet of the application's own work.
./build/bench/xsk_loop | tee -a "$base-metercost.txt"
echo "bench: saved $base.json, $base.txt and $base-metercost.txt"
