#!/usr/bin/env bash
# scripts/peers.sh - xdplab and its peers side by side in one veth lab
# (docs/performance.md).
#
#   scripts/peers.sh build [DIR]   clone and build xdp-tools (xdp-bench,
#                                  xdp-monitor, xdp-trafficgen) and
#                                  bpf-examples (xdpsock) in DIR
#                                  (default /tmp/xdplab-peers); never in the tree
#                                  (sources: build() below)
#   scripts/peers.sh run ROW...    measure ROWs, peer and xdplab alternating
#
# Rows: drop-floor (no peer: xdplab drop no-touch counted by the driver and
# by its program against the bare XDP_DROP program, differences in DUT CPU
# ns/packet), drop-no-touch drop-read-data drop-parse-ip drop-swap-macs (DUT CPU
# ns/packet and rate, threaded NAPI pinned to the last CPU; xdplab counted
# by the driver, --count ethtool), rxdrop (xdpsock's defaults against
# xdplab's), rxdrop-modes (xdplab spin / poll / busy-poll against xdpsock),
# rxdrop-rings (xdplab pinned with its rings (2048), with xdpsock's fill
# ring of 4096, that and 8192 frames, and the deep rings, against xdpsock),
# l2fwd (xdpsock -l against xdplab's l2fwd, frames counted back at the
# generator end; l2fwd-rings adds xdplab pinned with the deep rings), txpush (xdpsock -t against xdplab txpush, the frames
# counted at the generator end, no generator running), gen-1 / gen-2 (xdp-trafficgen against xdplab gen, 1
# thread with the DUT's NAPI threaded on the other CPU, 2 threads in
# softirq wiring; gen-1-softirq and gen-2-threaded the other two wirings), monitor-all (DUT CPU ns/packet added to a devmap
# redirect by `xdp-monitor -s` and by `xdplab monitor --all`).
# Environment: PEERS=DIR (built peers), PAIRS=5 (repetitions), SECS=5
# (window seconds), XDPLAB=build/xdplab. Rates come from the DUT veth's own
# counters (ethtool -S), CPU time from the NAPI kthread's schedstat. Every
# repetition runs each variant once, the order rotating, so the host's drift
# falls on all of them; the summary is the median of the per-repetition
# ratios with their range. Traffic only inside the lab this script makes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
X=${XDPLAB:-$ROOT/build/xdplab}
PEERS=${PEERS:-/tmp/xdplab-peers}
PAIRS=${PAIRS:-5}
SECS=${SECS:-5}
NCPU=$(nproc)
LAST=$((NCPU - 1))

die() { echo "peers.sh: $*" >&2; exit 1; }
# need PATH...: every peer binary a row runs, built by `build` under $PEERS.
need() {
	local b
	for b in "$@"; do
		[ -x "$b" ] || die "no peer binary $b: run 'scripts/peers.sh build $PEERS' or set PEERS=DIR (a directory that build filled, e.g. PEERS=/tmp/speed-peers)"
	done
}

# submodules REPO NAME=URL...: REPO's submodules at the commits it records,
# submodule NAME (as .gitmodules names it) cloned from URL.
submodules() {
	local r=$1 kv
	shift
	git -C "$r" submodule -q init
	for kv in "$@"; do git -C "$r" config "submodule.${kv%%=*}.url" "${kv#*=}"; done
	git -C "$r" -c protocol.file.allow=always submodule -q update
}

build() {
	local d=${1:-$PEERS}
	mkdir -p "$d"
	# bpf-examples needs libcap-dev and libmnl-dev; xdp-tools needs m4.
	apt-get install -y -qq --no-install-recommends libcap-dev libmnl-dev m4 >/dev/null
	# Sources: GitHub, or local copies (a host without the network:
	# XDP_TOOLS_GIT, BPF_EXAMPLES_GIT and LIBBPF_GIT name git repositories,
	# e.g. the fetch tool's /work/.mirror/OWNER+NAME/repo). The submodules
	# (libbpf, and bpf-examples' xdp-tools) at the commits each repository
	# records, from the same places.
	local xt=${XDP_TOOLS_GIT:-https://github.com/xdp-project/xdp-tools}
	local be=${BPF_EXAMPLES_GIT:-https://github.com/xdp-project/bpf-examples}
	local lb=${LIBBPF_GIT:-https://github.com/libbpf/libbpf}
	[ -d "$d/xdp-tools" ] || { git clone -q "$xt" "$d/xdp-tools" &&
		submodules "$d/xdp-tools" libbpf="$lb"; }
	[ -d "$d/bpf-examples" ] || { git clone -q "$be" "$d/bpf-examples" &&
		submodules "$d/bpf-examples" lib/libbpf="$lb" lib/xdp-tools="$xt" &&
		submodules "$d/bpf-examples/lib/xdp-tools" libbpf="$lb"; }
	# Debian's libbpf 1.1 is too old: the bundled one (FORCE_SUBDIR_LIBBPF);
	# some of their sources use bool without stdbool.h with this clang, and
	# their -Werror meets gcc 12's sign-compare and missing-initializer
	# warnings in libbpf (EXTRA_CFLAGS comes last on its command line).
	export CFLAGS="-include stdbool.h -O2 -g -Wno-error" BPF_CFLAGS="-include stdbool.h" \
		EXTRA_CFLAGS=-Wno-error FORCE_SUBDIR_LIBBPF=1
	(cd "$d/xdp-tools" && ./configure >/dev/null &&
		for t in xdp-bench xdp-monitor xdp-trafficgen; do make -s -C "$t"; done)
	# xdpsock exits when setrlimit(RLIMIT_MEMLOCK) fails with EPERM (no
	# CAP_SYS_RESOURCE; UMEM registration works with CAP_IPC_LOCK): a warning.
	sed -i '/ERROR: setrlimit(RLIMIT_MEMLOCK)/,/exit(EXIT_FAILURE);/s/exit(EXIT_FAILURE);/;/' \
		"$d/bpf-examples/AF_XDP-example/xdpsock.c"
	(cd "$d/bpf-examples" && ./configure >/dev/null && make -s -C AF_XDP-example)
	ls -l "$d/xdp-tools/xdp-bench/xdp-bench" "$d/xdp-tools/xdp-monitor/xdp-monitor" \
		"$d/bpf-examples/AF_XDP-example/xdpsock"
}

# ---- the lab ----
LAB="" GNS="" DNS="" GEN="" DUT="" OUT="" SINK="" NAPI=""
lab_up() { # lab_up threaded|softirq
	local out
	out=$("$X" lab setup --out-pairs 1) || die "lab setup failed"
	LAB=$(awk '$1=="lab"{print $2}' <<<"$out")
	GEN=$(awk '$1=="gen"{print $2}' <<<"$out"); GNS=$(awk '$1=="gen"{print $4}' <<<"$out")
	DUT=$(awk '$1=="dut"{print $2}' <<<"$out"); DNS=$(awk '$1=="dut"{print $4}' <<<"$out")
	OUT=$(awk '$1=="out0"{print $2}' <<<"$out"); SINK=$(awk '$1=="out0"{print $6}' <<<"$out")
	NAPI=""
	if [ "$1" = threaded ]; then
		ip netns exec "$DNS" ethtool -K "$DUT" gro on >/dev/null
		ip netns exec "$DNS" sh -c "echo 1 > /sys/class/net/$DUT/threaded"
		sleep 0.2
		NAPI=$(ps -eo pid=,comm= | awk -v c="napi/$DUT-" 'index($2, c) == 1 {print $1; exit}')
		[ -n "$NAPI" ] || die "no NAPI kthread for $DUT"
		taskset -pc "$LAST" "$NAPI" >/dev/null
	fi
	ip netns exec "$GNS" ethtool -K "$SINK" gro on >/dev/null # the sink needs a NAPI
}
lab_down() { [ -z "$LAB" ] || "$X" lab teardown "$LAB" >/dev/null 2>&1 || true; LAB=""; }
trap 'sink_down; lab_down; stats_off' EXIT

# ctr NAME: the DUT veth's ethtool -S counter NAME; gen:NAME the generator end's.
ctr() {
	case $1 in
	gen:*) ip netns exec "$GNS" ethtool -S "$GEN" | awk -v k="${1#gen:}:" '$1==k{print $2}' ;;
	*) ip netns exec "$DNS" ethtool -S "$DUT" | awk -v k="$1:" '$1==k{print $2}' ;;
	esac
}
napi_ns() { [ -n "$NAPI" ] && awk '{print $1}' "/proc/$NAPI/schedstat" || echo 0; }
now() { date +%s%N; }

# window COUNTER CMD...: run CMD (the DUT side) in the DUT namespace, the
# generator ($GENCMD in the generator's namespace, default xdplab gen, one
# thread on CPU0) for SECS + 2 s, and print "pps ns_per_pkt" over SECS s.
GENCMD=""
window() {
	local counter=$1 pid gpid c0 c1 t0 t1 n0 n1 p0 p1
	shift
	ip netns exec "$DNS" "$@" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	# shellcheck disable=SC2086
	ip netns exec "$GNS" timeout -s INT $((SECS + 2)) \
		${GENCMD:-$X gen $GEN --cpu 0 -q} >/dev/null 2>&1 &
	gpid=$!
	sleep 1
	c0=$(ctr "$counter"); n0=$(napi_ns); p0=$(prog_stats); t0=$(now)
	sleep "$SECS"
	c1=$(ctr "$counter"); n1=$(napi_ns); p1=$(prog_stats); t1=$(now)
	wait "$gpid" || true
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	sleep 0.5
	awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) -v n=$((n1 - n0)) -v p0="$p0" -v p1="$p1" -v ps="$PROGSTATS" \
		'BEGIN{printf "%.0f %.1f", c / (t / 1e9), c ? n / c : 0
		       split(p0, a); split(p1, b)
		       if (ps && a[3] != "" && a[3] == b[3] && b[2] > a[2]) printf " %.2f", (b[1] - a[1]) / (b[2] - a[2])
		       printf "\n"}'
}

# With PROGSTATS=1 (the drop rows): the program's own time per run from the
# kernel's BPF statistics of the XDP program attached to the DUT (with
# kernel.bpf_stats_enabled, set for the row and restored after): prints
# "run_time_ns run_cnt id", or nothing. The rest of the path (veth, the
# generator, the stack) is the same for both tools in a drop row, so the
# difference in DUT CPU ns/packet between them is their programs'; the
# program's own time measures that difference without the path's noise.
PROGSTATS=""
BPF_STATS0=""
prog_stats() {
	local id
	[ -n "$PROGSTATS" ] || return 0
	id=$(ip -n "$DNS" -d -j link show "$DUT" 2>/dev/null |
		python3 -c 'import json,sys; l=json.load(sys.stdin)[0]; print(l.get("xdp",{}).get("prog",{}).get("id",""))' 2>/dev/null)
	[ -n "$id" ] || return 0
	bpftool -j prog show id "$id" 2>/dev/null |
		python3 -c 'import json,sys; p=json.load(sys.stdin); print(p.get("run_time_ns", 0), p.get("run_cnt", 0), p["id"])' 2>/dev/null || true
}
stats_on() { BPF_STATS0=$(sysctl -n kernel.bpf_stats_enabled); sysctl -qw kernel.bpf_stats_enabled=1; PROGSTATS=1; }
stats_off() { [ -z "$BPF_STATS0" ] || sysctl -qw kernel.bpf_stats_enabled="$BPF_STATS0"; BPF_STATS0=""; PROGSTATS=""; }

# A background watcher (the monitors) around a redirect window.
with_bg() { # with_bg "WATCHER..." COUNTER CMD...
	local w=$1 wpid r
	shift
	if [ -n "$w" ]; then
		$w >/dev/null 2>&1 &
		wpid=$!
		sleep 1.5
	fi
	r=$(window "$@")
	if [ -n "$w" ]; then
		kill -INT "$wpid" 2>/dev/null || true
		wait "$wpid" 2>/dev/null || true
	fi
	echo "$r"
}

median() { sort -g | awk '{a[NR]=$1} END{if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
range() { sort -g | awk 'NR==1{lo=$1} {hi=$1} END{print lo ".." hi}'; }

# run_variants ROW FIELD "name|counter|watcher|cmd" ...: PAIRS repetitions,
# each variant once per repetition in rotating order; prints every window
# and keeps "name rep pps ns [prog_ns]" lines in $RES.
RES=""
run_variants() {
	local row=$1 n=$(( $# - 1 )) rep i j v name counter watcher cmd r
	shift
	local vs=("$@")
	RES=$(mktemp)
	for rep in $(seq "$PAIRS"); do
		for i in $(seq 0 $((n - 1))); do
			j=$(( (i + rep) % n ))
			v=${vs[$j]}
			IFS='|' read -r name counter watcher cmd GENCMD <<<"$v"
			# shellcheck disable=SC2086
			r=$(with_bg "$watcher" "$counter" $cmd)
			echo "$row rep $rep $name: $(awk '{printf "%.3f Mpps, DUT %s ns/packet", $1/1e6, $2; if (NF > 2) printf ", program %s ns/run", $3}' <<<"$r")  (load $(cut -d' ' -f1 /proc/loadavg))"
			echo "$name $rep $r" >>"$RES"
		done
	done
}

# summary A B FIELD(3 pps | 4 ns): the median of B/A per repetition, with range.
summary() {
	local a=$1 b=$2 f=$3 what=$4
	join <(awk -v n="$a" -v f="$f" '$1==n{print $2, $f}' "$RES" | sort) \
	     <(awk -v n="$b" -v f="$f" '$1==n{print $2, $f}' "$RES" | sort) |
		awk '$2 > 0 {print $3 / $2}' >"$RES.r"
	echo "$what: $b / $a = $(median <"$RES.r") (range $(range <"$RES.r")); medians $a $(awk -v n="$a" -v f="$f" '$1==n{print $f}' "$RES" | median), $b $(awk -v n="$b" -v f="$f" '$1==n{print $f}' "$RES" | median)"
}

# diff A B FIELD(3 pps | 4 ns) WHAT: the median of B - A per repetition, with range.
diff_summary() {
	local a=$1 b=$2 f=$3 what=$4
	join <(awk -v n="$a" -v f="$f" '$1==n{print $2, $f}' "$RES" | sort) \
	     <(awk -v n="$b" -v f="$f" '$1==n{print $2, $f}' "$RES" | sort) |
		awk '{print $3 - $2}' >"$RES.d"
	echo "$what: $b - $a = $(median <"$RES.d") (range $(range <"$RES.d")) over $(wc -l <"$RES.d") repetition(s)"
}

# drop-floor: no peer needed. xdplab drop no-touch counted by the driver
# (--count ethtool: the bare program), counted by its program (--count
# program, before issue 20) and the bare XDP_DROP program as your own
# program (run --prog, the floor), alternating.
row_drop_floor() {
	lab_up threaded
	run_variants drop-floor \
		"bare|rx_queue_0_xdp_packets||$X run --prog $ROOT/build/bench.bpf.o --func xdp_bare_drop --count ethtool -q $DUT" \
		"xdplab|rx_queue_0_xdp_packets||$X drop -p no-touch --count ethtool -q $DUT" \
		"xdplab-program|rx_queue_0_xdp_packets||$X drop -p no-touch --count program -q $DUT"
	diff_summary bare xdplab 4 "drop no-touch DUT CPU ns/packet above the bare XDP_DROP floor (--count ethtool)"
	diff_summary bare xdplab-program 4 "drop no-touch DUT CPU ns/packet above the bare XDP_DROP floor (--count program)"
	lab_down
}

row_drop() { # row_drop OP
	local op=$1 xb=$PEERS/xdp-tools/xdp-bench/xdp-bench
	need "$xb"
	lab_up threaded
	stats_on
	run_variants "drop-$op" \
		"xdp-bench|rx_queue_0_xdp_packets||$xb drop -p $op -m native $DUT" \
		"xdplab|rx_queue_0_xdp_packets||$X drop -p $op --count ethtool -q $DUT"
	stats_off
	summary xdp-bench xdplab 3 "drop $op rate (higher is better)"
	summary xdp-bench xdplab 4 "drop $op DUT CPU ns/packet (lower is better)"
	summary xdp-bench xdplab 5 "drop $op program ns/run (lower is better)"
	lab_down
}

row_rxdrop() { # row_rxdrop [xdplab wait options...]: softirq NAPI with the generator, app on the last CPU
	local xs=$PEERS/bpf-examples/AF_XDP-example/xdpsock vs=() m
	need "$xs"
	lab_up softirq
	vs+=("xdpsock|rx_queue_0_xdp_redirect||taskset -c $LAST $xs -r -i $DUT -q 0 -N -c")
	if [ $# -eq 0 ]; then
		vs+=("xdplab|rx_queue_0_xdp_redirect||$X xsk rxdrop $DUT --copy --cpu $LAST --quiet")
	fi
	for m in "$@"; do # a variant's name is its options without blanks
		vs+=("xdplab${m// /}|rx_queue_0_xdp_redirect||$X xsk rxdrop $DUT --copy --cpu $LAST --quiet $m")
	done
	run_variants rxdrop "${vs[@]}"
	if [ $# -eq 0 ]; then
		summary xdpsock xdplab 3 "AF_XDP rxdrop XDP_DRV copy, defaults (higher is better)"
	fi
	for m in "$@"; do
		summary xdpsock "xdplab${m// /}" 3 "AF_XDP rxdrop XDP_DRV copy, xdplab $m (higher is better)"
	done
	lab_down
}

# The counting end of l2fwd and txpush, and the redirect's sink in
# monitor-all: an XDP_DROP on the generator's veth (its
# rx_queue_0_xdp_packets counts) or on the sink. xdp-bench drop, not xdplab
# drop: xdplab's meter attaches raw tracepoints on softirq_entry/exit in
# softirq wiring, which run for every softirq on the machine, and these
# rows' receiving NAPI runs in softirq on the application's CPU.
SINKPID=""
sink_up() { # sink_up [DEV in the generator's namespace, default $GEN]
	local dev=${1:-$GEN}
	need "$PEERS/xdp-tools/xdp-bench/xdp-bench"
	ip netns exec "$GNS" ethtool -K "$dev" gro on >/dev/null
	ip netns exec "$GNS" "$PEERS/xdp-tools/xdp-bench/xdp-bench" drop -m native "$dev" >/dev/null 2>&1 &
	SINKPID=$!
	sleep 1
}
sink_down() {
	[ -n "$SINKPID" ] || return 0
	kill -INT "$SINKPID" 2>/dev/null || true
	wait "$SINKPID" 2>/dev/null || true
	SINKPID=""
}

row_l2fwd() { # softirq NAPI with the generator, app on the last CPU; frames back at the generator end
	local xs=$PEERS/bpf-examples/AF_XDP-example/xdpsock vs=()
	need "$xs"
	lab_up softirq
	sink_up
	vs+=("xdpsock|gen:rx_queue_0_xdp_packets||taskset -c $LAST $xs -l -i $DUT -q 0 -N -c")
	vs+=("xdplab|gen:rx_queue_0_xdp_packets||$X xsk l2fwd $DUT --copy --cpu $LAST --quiet")
	# l2fwd-rings: also the unpinned default's deep rings, pinned (which ring depth is faster)
	[ "${1:-}" = rings ] &&
		vs+=("xdplab-deep|gen:rx_queue_0_xdp_packets||$X xsk l2fwd $DUT --copy --cpu $LAST --quiet --rx-size 8192 --fill-size 8192 --frames 20480")
	run_variants l2fwd "${vs[@]}"
	sink_down
	summary xdpsock xdplab 3 "AF_XDP l2fwd XDP_DRV copy, defaults (higher is better)"
	if [ "${1:-}" = rings ]; then
		summary xdpsock xdplab-deep 3 "AF_XDP l2fwd XDP_DRV copy, rings 8192 / 20480 frames (higher is better)"
		summary xdplab-deep xdplab 3 "AF_XDP l2fwd pinned: rings 2048 / 8192 frames against 8192 / 20480 (higher is better)"
	fi
	lab_down
}

row_txpush() { # xdpsock -t against xdplab txpush, 64 B; frames counted at the generator end (XDP_DROP there), no generator
	local xs=$PEERS/bpf-examples/AF_XDP-example/xdpsock
	need "$xs"
	lab_up softirq
	sink_up
	run_variants txpush \
		"xdpsock|gen:rx_queue_0_xdp_packets||taskset -c $LAST $xs -t -i $DUT -q 0 -N -c|sleep 1000" \
		"xdplab|gen:rx_queue_0_xdp_packets||$X xsk txpush $DUT --copy --cpu $LAST --quiet|sleep 1000"
	sink_down
	summary xdpsock xdplab 3 "AF_XDP txpush XDP_DRV copy, defaults (higher is better)"
	lab_down
}

row_gen() { # row_gen THREADS [WIRING]: the generators into an XDP_DROP DUT (xdp-trafficgen udp sends IPv6 only: 2001:2::/48)
	local t=$1 tg=$PEERS/xdp-tools/xdp-trafficgen/xdp-trafficgen wiring=softirq pin=""
	need "$tg"
	[ "$t" = 1 ] && wiring=threaded
	wiring=${2:-$wiring}
	[ "$t" = 1 ] && pin="taskset -c 0"
	lab_up $wiring
	# The DUT without the softirq tracepoints (XDPLAB_SOFTIRQ_SOURCE=proc-stat):
	# in softirq wiring they run on every softirq, and two generators whose
	# batches differ make different numbers of NET_RX runs per packet.
	local vs=("xdp-trafficgen|rx_queue_0_xdp_packets||env XDPLAB_SOFTIRQ_SOURCE=proc-stat $X drop -q $DUT|$pin $tg udp -t $t -m 02:58:4c:00:00:02 -M 02:58:4c:00:00:01 -a 2001:2::2 -A 2001:2::1 $GEN"
		  "xdplab|rx_queue_0_xdp_packets||env XDPLAB_SOFTIRQ_SOURCE=proc-stat $X drop -q $DUT|$X gen $GEN -t $t --cpu 0 -q")
	# xdp-trafficgen's threads are not pinned with -t 2: xdplab's both ways
	[ "$t" -gt 1 ] &&
		vs+=("xdplab-unpinned|rx_queue_0_xdp_packets||env XDPLAB_SOFTIRQ_SOURCE=proc-stat $X drop -q $DUT|$X gen $GEN -t $t -q")
	run_variants "gen-$t-$wiring" "${vs[@]}"
	summary xdp-trafficgen xdplab 3 "generator, $t thread(s), $wiring wiring, xdplab pinned --cpu 0 (higher is better)"
	[ "$t" -gt 1 ] &&
		summary xdp-trafficgen xdplab-unpinned 3 "generator, $t thread(s), $wiring wiring, both unpinned (higher is better)"
	lab_down
}

row_monitor() {
	local xm=$PEERS/xdp-tools/xdp-monitor/xdp-monitor
	need "$xm"
	lab_up threaded
	sink_up "$SINK"
	run_variants monitor-all \
		"none|rx_queue_0_xdp_redirect||$X redirect -q $DUT $OUT" \
		"xdp-monitor-s|rx_queue_0_xdp_redirect|$xm -s -i 1|$X redirect -q $DUT $OUT" \
		"xdplab-all|rx_queue_0_xdp_redirect|$X monitor --all -q|$X redirect -q $DUT $OUT"
	sink_down
	for v in xdp-monitor-s xdplab-all; do
		join <(awk '$1=="none"{print $2, $4}' "$RES" | sort) <(awk -v n=$v '$1==n{print $2, $4}' "$RES" | sort) |
			awk '{print $3 - $2}' >"$RES.$v"
		echo "monitor cost on a devmap redirect, $v: +$(median <"$RES.$v") DUT CPU ns/packet (range $(range <"$RES.$v"))"
	done
	paste -d' ' "$RES.xdp-monitor-s" "$RES.xdplab-all" | awk '$1 > 0 {print $2 / $1}' >"$RES.r"
	if [ -s "$RES.r" ]; then
		echo "monitor cost: xdplab --all / xdp-monitor -s = $(median <"$RES.r") (range $(range <"$RES.r")) over $(wc -l <"$RES.r") pair(s) (lower is better)"
	else # a ratio needs xdp-monitor's cost above zero in some pair
		echo "monitor cost: xdplab --all / xdp-monitor -s: no ratio (xdp-monitor -s added no positive cost in any pair; read the two medians above)"
	fi
	lab_down
}

case "${1:-}" in
build) shift; build "$@" ;;
run)
	shift
	ROWS="drop-floor drop-no-touch drop-read-data drop-parse-ip drop-swap-macs rxdrop rxdrop-modes rxdrop-rings l2fwd l2fwd-rings txpush gen-1 gen-2 gen-1-softirq gen-2-threaded monitor-all"
	[ $# -gt 0 ] || { echo "peers.sh: run: name rows ($ROWS)" >&2; exit 2; }
	for row in "$@"; do # a usage error before any lab is made
		[[ " $ROWS " == *" $row "* ]] || { echo "peers.sh: unknown row '$row' (accepted: $ROWS)" >&2; exit 2; }
	done
	[ -x "$X" ] || die "no $X: run make"
	echo "# $(date -u +%FT%TZ) $(uname -r), $NCPU CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $PAIRS x $SECS s"
	for row in "$@"; do
		case $row in
		drop-floor) row_drop_floor ;;
		drop-no-touch | drop-read-data | drop-parse-ip | drop-swap-macs) row_drop "${row#drop-}" ;;
		rxdrop) row_rxdrop ;;
		rxdrop-modes) row_rxdrop --spin --poll --busy-poll ;;
		rxdrop-rings) row_rxdrop "--rx-size 2048" "--fill-size 4096" "--fill-size 4096 --frames 8192" "--rx-size 8192 --fill-size 8192 --frames 16384" ;;
		monitor-all) row_monitor ;;
		l2fwd) row_l2fwd ;;
		l2fwd-rings) row_l2fwd rings ;;
		txpush) row_txpush ;;
		gen-1) row_gen 1 ;;
		gen-2) row_gen 2 ;;
		gen-1-softirq) row_gen 1 softirq ;;
		gen-2-threaded) row_gen 2 threaded ;;
		esac
	done
	echo "# end $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
	;;
*) echo "usage: scripts/peers.sh build [DIR] | run ROW..." >&2; exit 2 ;;
esac
