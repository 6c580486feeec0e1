#!/usr/bin/env bash
# End-to-end tests of xdplab on veth labs in network namespaces (root).
#
#   tests/e2e/run.sh           run every test below, then every other
#                              executable tests/e2e/*.sh suite, and add up
#   tests/e2e/run.sh -l        list the test names (ours, then the suites')
#   tests/e2e/run.sh -t NAME   run one test (ours, or the suite that lists it)
#
# Each test gets a lab of its own ('xdplab lab setup': unique names) and runs
# in a subshell whose EXIT trap stops every xdplab process it started and
# tears its lab down, whatever the way out (failure, Ctrl-C, SIGTERM).
# Counts are exact: the lab's generator end has IPv6 off, so no stray frame.
# Closing line: "e2e: N passed, N failed, N skipped"; exit 1 if any failed.
# Needs bash, iproute2, ethtool and jq (scripts/deps.sh installs them).
set -u

# Tests that fail because of a known bug outside the files this suite may
# fix; each is run, reported as "KNOWN" and counted as skipped, so the suite
# stays green. A known failure that passes is reported so it can be removed.
declare -A KNOWN_FAILURES=(
)

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/tests/e2e"
X="${XDPLAB:-$ROOT/build/xdplab}" # XDPLAB=path: test another binary
CORPUS="$ROOT/../shared/corpus/tcpdump"
NCPU=$(nproc)

# name|what it checks (the order is the order of a full run)
TESTS=(
	"count-64-1flow|gen --count 100000 --rate 200000, 64 B, 1 flow: drop counts exactly 100000"
	"count-1500-1flow|the same at 1500 B"
	"count-64-16flows|the same at 64 B with 16 flows"
	"count-1500-16flows|the same at 1500 B with 16 flows"
	"count-ipv6-1500-16flows|the same with IPv6/UDP, 1500 B, 16 flows"
	"csum-pass-ipv4-16flows|16 flows into XDP_PASS: the DUT's IPv4/UDP stack takes all 100000, no checksum error"
	"csum-pass-ipv6-16flows|the same with IPv6"
	"pcap-replay|several corpus captures: drop counts exactly the frames and bytes gen sent"
	"pcap-oversize|captures with frames > MTU+14: skipped and counted (checked against our own pcap parser)"
	"pcap-malformed|truncated and runt captures: counts match, runts skipped and counted"
	"pcap-loop|--pcap with --count loops over the capture: exact frames and bytes"
	"gen-count-prompt|--count 1000000 unpaced ends well within one interval, exit 0"
	"gen-count-duration|--count and --duration end at whichever comes first"
	"gen-threads-count|--threads 2: --count is the total, not per thread"
	"gen-no-peer|peer without XDP and GRO off: warning at start, exit 1 after 3 intervals with the reason"
	"gen-peer-gro|peer with GRO on and no XDP: no warning, frames reach the peer's stack"
	"cleanup-drop-exit|drop --duration ends: nothing attached"
	"cleanup-drop-sigint|SIGINT to drop: totals printed, nothing attached"
	"cleanup-drop-sigterm|SIGTERM to drop: nothing attached"
	"cleanup-drop-sigkill|SIGKILL of drop: nothing attached (bpf_link)"
	"cleanup-gen-signals|SIGTERM and SIGKILL of gen: nothing attached on either end"
	"drop-busy|a second drop on the same interface exits 1 naming the holder's program and pid"
	"cleanup-foreign|xdplab cleanup IFACE detaches a program held by another live process"
	"lab-run-sigkill|SIGKILL of 'xdplab lab run': the next lab creation removes its namespaces"
	"bad-iface|unknown interface: exit 2, one line"
	"bad-size-low|--size 59: exit 2, names the range"
	"bad-size-high|--size MTU+15: exit 2, names the range"
	"bad-rate-negative|--rate -1: exit 2"
	"bad-rate-nan|--rate abc: exit 2"
	"bad-count-negative|--count -5: exit 2"
	"bad-packet-op|--packet-operation bogus: exit 2, lists the accepted ones"
	"bad-threads|--threads above the CPU count: exit 2"
	"bad-pcap-missing|--pcap of a missing file: exit 2"
	"bad-pcap-notpcap|--pcap of a text file: exit 2"
	"bad-pcap-linktype|--pcap of a LINKTYPE_RAW capture: exit 2"
	"bad-pcap-threads|--pcap with --threads 2: exit 2"
	"bad-unknown-option|unknown option: exit 2"
	"bad-abbreviation|--cou 5 (abbreviated --count): exit 2"
	"bad-option-twice|--count given twice: exit 2"
	"lab-run|lab run with 2 rows: table, verdicts, JSON, nothing left behind"
	"leftovers|no lab, veth or xdplab process of this run is left"
)

# ---------------------------------------------------------------- helpers --

# Run inside a test's subshell. LABS: tags to tear down; PIDS: processes;
# RUN_PIDS: pids of 'xdplab lab run' whose xl<pid>* namespaces must go too.
LABS=()
PIDS=()
RUN_PIDS=()
TMP=""

note() { echo "    $*"; }
fail() {
	echo "    FAIL: $*"
	exit 1
}
skip() {
	echo "    SKIP: $*"
	exit 3
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" == "$3" ] || fail "$1: got '$2', want '$3'"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# bg OUT ERR CMD...: start CMD in the background; its pid in BG.
bg() {
	local out=$1 err=$2
	shift 2
	"$@" >"$out" 2>"$err" &
	BG=$!
	PIDS+=("$BG")
	echo "$BG" >>"$STATE/pids"
}

# wait_exit PID SECONDS: wait for PID to end; RC = its exit status.
# If it is still running after SECONDS (whole): SIGINT, then SIGKILL;
# RC=timeout. (stderr off: bash's "Killed" notice for a job we SIGKILLed.)
wait_exit() {
	wait_exit_ "$@" 2>/dev/null
}
wait_exit_() {
	local pid=$1 deadline=$(($(now_ms) + $2 * 1000))
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$(now_ms)" -ge "$deadline" ]; then
			kill -INT "$pid" 2>/dev/null
			sleep 1
			kill -KILL "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			RC=timeout
			return 1
		fi
		sleep 0.02
	done
	wait "$pid"
	RC=$?
	return 0
}

# run SECONDS OUT ERR CMD...: run CMD with a deadline; RC, MS (elapsed ms).
run() {
	local secs=$1 t0
	shift
	t0=$(now_ms)
	bg "$@"
	wait_exit "$BG" "$secs"
	MS=$(($(now_ms) - t0))
}

cleanup_test() {
	local p i t
	trap - EXIT INT TERM HUP
	for p in "${PIDS[@]}"; do
		kill -INT "$p" 2>/dev/null
	done
	for p in "${PIDS[@]}"; do
		for i in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for t in "${LABS[@]}"; do
		"$X" lab teardown "$t" >/dev/null 2>&1 ||
			{ ip netns del "$t-gen" 2>/dev/null; ip netns del "$t-dut" 2>/dev/null; }
	done
	for p in "${RUN_PIDS[@]}"; do
		for t in $(ip netns list | grep -oE "^xl${p}[a-z]-(gen|dut)"); do
			ip netns del "$t" 2>/dev/null
		done
	done
	[ -n "$TMP" ] && rm -rf "$TMP"
}

# lab_new [SETUP ARGS]: a lab of this test. Sets LAB, G (gen iface), GNS,
# D (dut iface), DNS, GMAC, DMAC, GIP, DIP.
lab_new() {
	local out l
	out=$("$X" lab setup "$@" 2>&1) || fail "xdplab lab setup $* failed: $out"
	while read -r l; do
		set -- $l
		case "$1" in
		lab) LAB=$2 ;;
		gen) G=$2 GNS=$4 GIP=$5 GMAC=$6 ;;
		dut) D=$2 DNS=$4 DIP=$5 DMAC=$6 ;;
		esac
	done <<<"$out"
	[ -n "${LAB:-}" ] && [ -n "${G:-}" ] && [ -n "${D:-}" ] ||
		fail "cannot read the lab from: $out"
	LABS+=("$LAB")
	echo "$LAB" >>"$STATE/labs"
	ip netns exec "$DNS" ethtool -K "$D" gro off 2>/dev/null
}

# eth_sum NS IFACE REGEX: sum of the 'ethtool -S' counters whose name
# matches REGEX (anchored), e.g. 'tx_queue_[0-9]+_xdp_xmit'.
eth_sum() {
	ip netns exec "$1" ethtool -S "$2" | awk -v re="^$3:\$" '$1 ~ re { s += $2 } END { print s + 0 }'
}

# tx_packets NS IFACE: the interface's TX packets counter (for veth it
# includes the frames its peer's NAPI took from ndo_xdp_xmit).
tx_packets() {
	ip -n "$1" -s -j link show dev "$2" | jq '.[0].stats64.tx.packets'
}

# mtu14 : MTU of the generator's veth plus 14, the largest frame gen sends.
mtu14() { echo $(($(ip -n "$GNS" -o link show dev "$G" | sed -E 's/.* mtu ([0-9]+) .*/\1/') + 14)); }

# xdp_on NS IFACE: true if an XDP program is attached (any mode).
xdp_on() {
	ip -n "$1" -o link show dev "$2" 2>/dev/null | grep -Eq 'prog/xdp|[ ]xdp(generic|drv|offload)?[ ]'
}

# no_xdp_anywhere: neither lab end has an XDP program (waits up to 2 s for
# a killed process's link to be released).
no_xdp_anywhere() {
	local i
	for i in $(seq 20); do
		xdp_on "$GNS" "$G" || xdp_on "$DNS" "$D" || return 0
		sleep 0.1
	done
	fail "an XDP program is still attached: $(ip -n "$GNS" -o link show dev "$G") / $(ip -n "$DNS" -o link show dev "$D")"
}

# bench_start ACTION [ARGS...]: start drop|pass|tx on the DUT end and wait
# until its program is attached. BENCH = pid.
bench_start() {
	local action=$1 i
	shift
	bg "$TMP/bench.out" "$TMP/bench.err" "$X" "$action" --netns "$DNS" "$@" "$D"
	BENCH=$BG
	for i in $(seq 100); do
		xdp_on "$DNS" "$D" && grep -q 'Ctrl-C to stop' "$TMP/bench.err" && break
		kill -0 "$BENCH" 2>/dev/null ||
			fail "xdplab $action exited early: $(cat "$TMP/bench.err")"
		sleep 0.05
	done
	xdp_on "$DNS" "$D" || fail "xdplab $action did not attach within 5 s"
	sleep 0.1 # its first counter sample follows the attach
}

# bench_stop: SIGINT the benchmark; sets BRC, BPKTS, BBYTES, BERRS,
# BKERNEL (its check line: the veth's rx_queue_N_xdp_packets summed) and
# BACT_DROP/PASS/ABORTED.
bench_stop() {
	local tot chk
	sleep 0.1
	kill -INT "$BENCH" 2>/dev/null
	wait_exit "$BENCH" 5 || fail "xdplab bench did not stop within 5 s of SIGINT"
	BRC=$RC
	tot=$(grep '^totals:' "$TMP/bench.out")
	chk=$(grep -E '^check: kernel rx_queue_0(\.\.[0-9]+)?_xdp_packets' "$TMP/bench.out")
	[ -n "$tot" ] || fail "no totals line from the benchmark (rc $BRC): $(cat "$TMP/bench.out" "$TMP/bench.err")"
	[ -n "$chk" ] || fail "no kernel check line from the benchmark: $(cat "$TMP/bench.out")"
	BPKTS=$(sed -E 's/^totals: ([0-9]+) packets.*/\1/' <<<"$tot")
	BBYTES=$(sed -E 's/^totals: [0-9]+ packets, ([0-9]+) bytes.*/\1/' <<<"$tot")
	BERRS=$(sed -E 's/.* bytes, ([0-9]+) errors.*/\1/' <<<"$tot")
	BACT_DROP=$(sed -nE 's/.* XDP_DROP ([0-9]+).*/\1/p' <<<"$tot")
	BACT_PASS=$(sed -nE 's/.* XDP_PASS ([0-9]+).*/\1/p' <<<"$tot")
	BACT_ABORTED=$(sed -nE 's/.* XDP_ABORTED ([0-9]+).*/\1/p' <<<"$tot")
	BKERNEL=$(sed -E 's/^check: kernel rx_queue_0[.0-9]*_xdp_packets ([0-9]+).*/\1/' <<<"$chk")
	expect_eq "benchmark exit status" "$BRC" 0
}

# gen_run SECONDS ARGS...: run gen on the generator end; GRC, MS, and from
# its summary SENT, SBYTES, XERR (+ PCAP_READ/BIG/RUNT/SHORT for pcap).
gen_run() {
	local secs=$1 sum p
	shift
	run "$secs" "$TMP/gen.out" "$TMP/gen.err" "$X" gen --netns "$GNS" "$@" "$G"
	GRC=$RC
	sum=$(grep -E '^sent [0-9]+ frames' "$TMP/gen.out" | tail -1)
	SENT=$(sed -nE 's/^sent ([0-9]+) frames.*/\1/p' <<<"$sum")
	SBYTES=$(sed -nE 's/^sent [0-9]+ frames, ([0-9]+) bytes.*/\1/p' <<<"$sum")
	XERR=$(sed -nE 's/.*xmit errors ([0-9]+)$/\1/p' <<<"$sum")
	p=$(grep -E '^pcap: ' "$TMP/gen.out" | tail -1)
	PCAP_READ=$(sed -nE 's/^pcap: ([0-9]+) frames read.*/\1/p' <<<"$p")
	PCAP_BIG=$(sed -nE 's/.* ([0-9]+) skipped larger than MTU\+14.*/\1/p' <<<"$p")
	PCAP_RUNT=$(sed -nE 's/.* ([0-9]+) skipped shorter than 14 bytes.*/\1/p' <<<"$p")
	PCAP_SHORT=$(sed -nE 's/.* ([0-9]+) sent shorter than 60 bytes.*/\1/p' <<<"$p")
}

gen_ok() {
	[ "$GRC" == 0 ] || fail "gen exited $GRC: $(cat "$TMP/gen.err") $(tail -2 "$TMP/gen.out")"
	[ -n "$SENT" ] || fail "gen printed no 'sent N frames' summary: $(cat "$TMP/gen.out")"
}

# pcap_facts FILE MAXLEN: our own reading of a classic pcap's record
# headers (independent of libpcap). Sets PF_FRAMES (records), PF_BIG
# (caplen > MAXLEN), PF_RUNT (< 14), PF_SHORT (14..59), PF_SENDABLE and
# PF_SIZES (caplens of the sendable frames, in order, space-separated).
pcap_facts() {
	local r
	r=$(od -An -v -t u1 "$1" | awk -v max="$2" '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function u32(o) {
		if (le)
			return b[o] + 256 * b[o+1] + 65536 * b[o+2] + 16777216 * b[o+3]
		return b[o+3] + 256 * b[o+2] + 65536 * b[o+1] + 16777216 * b[o]
	}
	END {
		if (n < 24) { print "bad"; exit }
		if (b[2] == 178 && b[3] == 161 && (b[0] == 212 && b[1] == 195 || b[0] == 77 && b[1] == 60)) le = 1
		else if (b[0] == 161 && b[1] == 178) le = 0
		else { print "bad"; exit }
		o = 24
		while (o + 16 <= n) {
			cap = u32(o + 8); o += 16
			if (o + cap > n) break
			fr++
			if (cap > max) big++
			else if (cap < 14) runt++
			else { if (cap < 60) short++; sizes = sizes " " cap }
			o += cap
		}
		printf "%d %d %d %d%s\n", fr, big, runt, short, sizes
	}')
	[ "$r" != bad ] || fail "$1: not a classic pcap (our parser)"
	read -r PF_FRAMES PF_BIG PF_RUNT PF_SHORT PF_SIZES <<<"$r"
	PF_SENDABLE=$((PF_FRAMES - PF_BIG - PF_RUNT))
}

# sum_cyclic N SIZES...: bytes of N frames sent cycling through SIZES.
sum_cyclic() {
	local n=$1
	shift
	echo "$@" | awk -v n="$n" '{ for (i = 0; i < n; i++) s += $(i % NF + 1); print s + 0 }'
}

need_corpus() {
	[ -d "$CORPUS" ] || skip "no capture corpus at $CORPUS (shared/ must be a sibling of the clone)"
}

# snmp NS PROTO FIELD: a counter of /proc/net/snmp (Ip, Udp...) or, for
# PROTO=6, of /proc/net/snmp6 (FIELD like Udp6NoPorts), in namespace NS.
snmp() {
	if [ "$2" == 6 ]; then
		ip netns exec "$1" cat /proc/net/snmp6 | awk -v f="$3" '$1 == f { print $2 }'
	else
		ip netns exec "$1" cat /proc/net/snmp | awk -v p="$2:" -v f="$3" '
			$1 == p && !h { for (i = 2; i <= NF; i++) if ($i == f) c = i; h = 1; next }
			$1 == p && h { print $c }'
	fi
}

# bad_input CMD EXPECTED_STDERR ARGS...: exit 2, nothing on stdout, exactly
# the one expected line on stderr, and nothing attached afterwards.
bad_input() {
	local cmd=$1 want=$2 ns=$DNS
	shift 2
	[ "$cmd" == gen ] && ns=$GNS
	run 10 "$TMP/bad.out" "$TMP/bad.err" "$X" "$cmd" --netns "$ns" "$@"
	expect_eq "exit status of 'xdplab $cmd $*'" "$RC" 2
	[ ! -s "$TMP/bad.out" ] || fail "stdout not empty: $(cat "$TMP/bad.out")"
	expect_eq "lines on stderr" "$(wc -l <"$TMP/bad.err")" 1
	expect_eq "message" "$(cat "$TMP/bad.err")" "$want"
	no_xdp_anywhere
}

# ------------------------------------------------------------------ tests --

# count_test SIZE FLOWS [--ipv6]: 100000 frames at 200 kpps into drop.
count_test() {
	local size=$1 flows=$2
	shift 2
	local tx0 tx1
	lab_new
	bench_start drop
	tx0=$(tx_packets "$GNS" "$G")
	gen_run 20 --count 100000 --rate 200000 --size "$size" --flows "$flows" "$@"
	gen_ok
	expect_eq "gen sent" "$SENT" 100000
	expect_eq "gen bytes" "$SBYTES" $((100000 * size))
	expect_eq "gen xmit errors" "$XERR" 0
	bench_stop
	tx1=$(tx_packets "$GNS" "$G")
	expect_eq "TX packets of the generator's veth" $((tx1 - tx0)) 100000
	expect_eq "drop packets" "$BPKTS" 100000
	expect_eq "drop bytes" "$BBYTES" $((100000 * size))
	expect_eq "drop XDP_DROP" "$BACT_DROP" 100000
	expect_eq "drop errors" "$BERRS" 0
	expect_eq "drop's kernel check (veth rx_queue_0_xdp_packets)" "$BKERNEL" 100000
	no_xdp_anywhere
}

t_count_64_1flow() { count_test 64 1; }
t_count_1500_1flow() { count_test 1500 1; }
t_count_64_16flows() { count_test 64 16; }
t_count_1500_16flows() { count_test 1500 16; }
t_count_ipv6_1500_16flows() { count_test 1500 16 --ipv6; }

# csum_test 4|6: 16 flows of 1500 B into XDP_PASS to a closed UDP port; the
# DUT's kernel verifies every IP header and UDP checksum (the 16-flow source
# port and checksum rewrite happens in the generator's XDP program).
csum_test() {
	local v=$1 no0 cs0 hd0 no1 cs1 hd1 args=()
	lab_new
	# No ARP for the ICMP errors the DUT sends back: nothing else arrives.
	ip -n "$DNS" neigh replace "$GIP" lladdr "$GMAC" dev "$D" nud permanent ||
		fail "cannot add a neighbour entry on $D"
	if [ "$v" == 6 ]; then
		args=(--ipv6)
		no0=$(snmp "$DNS" 6 Udp6NoPorts) cs0=$(snmp "$DNS" 6 Udp6InCsumErrors)
		hd0=$(snmp "$DNS" 6 Ip6InHdrErrors)
	else
		no0=$(snmp "$DNS" Udp NoPorts) cs0=$(snmp "$DNS" Udp InCsumErrors)
		hd0=$(snmp "$DNS" Ip InHdrErrors)
	fi
	bench_start pass
	gen_run 20 --count 100000 --rate 200000 --size 1500 --flows 16 "${args[@]}"
	gen_ok
	expect_eq "gen sent" "$SENT" 100000
	bench_stop
	expect_eq "XDP_PASS" "$BACT_PASS" 100000
	if [ "$v" == 6 ]; then
		no1=$(snmp "$DNS" 6 Udp6NoPorts) cs1=$(snmp "$DNS" 6 Udp6InCsumErrors)
		hd1=$(snmp "$DNS" 6 Ip6InHdrErrors)
	else
		no1=$(snmp "$DNS" Udp NoPorts) cs1=$(snmp "$DNS" Udp InCsumErrors)
		hd1=$(snmp "$DNS" Ip InHdrErrors)
	fi
	expect_eq "UDP checksum errors on the DUT" $((cs1 - cs0)) 0
	expect_eq "IP header errors on the DUT" $((hd1 - hd0)) 0
	expect_eq "UDP datagrams to the closed port (NoPorts)" $((no1 - no0)) 100000
}

t_csum_pass_ipv4_16flows() { csum_test 4; }
t_csum_pass_ipv6_16flows() { csum_test 6; }

# pcap_case FILE [GEN ARGS...]: replay FILE into drop; every count checked
# against pcap_facts.
pcap_case() {
	local f="$CORPUS/$1"
	shift
	[ -f "$f" ] || fail "missing capture $f"
	pcap_facts "$f" "$(mtu14)"
	bench_start drop
	gen_run 20 --pcap "$f" "$@"
	gen_ok
	expect_eq "$(basename "$f"): pcap frames read" "$PCAP_READ" "$PF_FRAMES"
	expect_eq "$(basename "$f"): skipped larger than MTU+14" "$PCAP_BIG" "$PF_BIG"
	expect_eq "$(basename "$f"): skipped shorter than 14" "$PCAP_RUNT" "$PF_RUNT"
	expect_eq "$(basename "$f"): sent shorter than 60" "$PCAP_SHORT" "$PF_SHORT"
	bench_stop
	expect_eq "$(basename "$f"): drop packets = gen sent" "$BPKTS" "$SENT"
	expect_eq "$(basename "$f"): drop bytes = gen bytes" "$BBYTES" "$SBYTES"
	expect_eq "$(basename "$f"): veth rx_queue_0_xdp_packets" "$BKERNEL" "$SENT"
	expect_eq "$(basename "$f"): xmit errors" "$XERR" 0
	note "$(basename "$f"): $PF_FRAMES frames, $PF_BIG oversize, $PF_RUNT runts, $PF_SHORT short; sent $SENT"
}

# pcap_once FILE: replayed once, exactly the sendable frames and bytes.
pcap_once() {
	pcap_case "$1"
	expect_eq "$1: gen sent" "$SENT" "$PF_SENDABLE"
	expect_eq "$1: gen bytes" "$SBYTES" "$(sum_cyclic "$PF_SENDABLE" $PF_SIZES)"
}

t_pcap_replay() {
	need_corpus
	lab_new
	pcap_once afs.pcap
	pcap_once arp-oobr.pcap
	pcap_once DECnet_Phone.pcap
	pcap_once 802.1w_rapid_STP.pcap
}

t_pcap_oversize() {
	need_corpus
	lab_new
	pcap_once pim-packet-assortment.pcap
	[ "$PF_BIG" -gt 0 ] || fail "pim-packet-assortment.pcap: expected frames > 1514 B"
	pcap_once huge-tipc-messages.pcap
	[ "$PF_BIG" -gt 0 ] || fail "huge-tipc-messages.pcap: expected frames > 1514 B"
	# Every frame too large: nothing can be sent, said so, exit 2.
	gen_run 10 --pcap "$CORPUS/bigtcp-ipv4.pcap"
	expect_eq "bigtcp-ipv4.pcap (only oversize frames): exit status" "$GRC" 2
	expect_eq "bigtcp-ipv4.pcap: message" "$(cat "$TMP/gen.err")" \
		"xdplab: --pcap $CORPUS/bigtcp-ipv4.pcap: no frame can be sent (1 read, 1 longer than MTU+14=1514, 0 shorter than 14 bytes)"
}

t_pcap_malformed() {
	need_corpus
	lab_new
	pcap_once tcp_rst_data-trunc.pcap
	pcap_once ipv6-srh-tlv-pad1-padn-5-trunc.pcap
	pcap_once bgp_vpn_rt-oobr.pcap
	[ "$PF_RUNT" -gt 0 ] || fail "bgp_vpn_rt-oobr.pcap: expected frames shorter than 14 B"
}

t_pcap_loop() {
	need_corpus
	lab_new
	pcap_case afs.pcap --count 5000
	expect_eq "afs.pcap --count 5000: gen sent" "$SENT" 5000
	expect_eq "afs.pcap --count 5000: gen bytes (frames in order, looping)" "$SBYTES" \
		"$(sum_cyclic 5000 $PF_SIZES)"
}

t_gen_count_prompt() {
	lab_new
	bench_start drop
	# --interval 5: a generator that waits for the next report would take 5 s.
	gen_run 20 --count 1000000 --interval 5
	gen_ok
	expect_eq "gen sent" "$SENT" 1000000
	[ "$MS" -lt 2500 ] || fail "gen --count 1000000 --interval 5 took $MS ms (want < 2500)"
	bench_stop
	expect_eq "drop packets + gen xmit errors" $((BPKTS + XERR)) 1000000
	expect_eq "veth rx_queue_0_xdp_packets" "$BKERNEL" "$BPKTS"
	note "1000000 frames in $MS ms, $XERR xmit errors"
}

t_gen_count_duration() {
	lab_new
	bench_start drop
	# The duration comes first.
	gen_run 20 --count 1000000000000 --duration 1.5 --interval 5
	gen_ok
	[ "$MS" -ge 1400 ] && [ "$MS" -lt 3000 ] ||
		fail "--count 10^12 --duration 1.5 took $MS ms (want 1400..3000)"
	[ "$SENT" -gt 0 ] && [ "$SENT" -lt 1000000000000 ] || fail "sent $SENT (want 0 < sent < 10^12)"
	local first=$SENT
	# The count comes first.
	gen_run 20 --count 50000 --duration 10 --interval 5
	gen_ok
	expect_eq "--count 50000 --duration 10: gen sent" "$SENT" 50000
	[ "$MS" -lt 2500 ] || fail "--count 50000 --duration 10 took $MS ms (want < 2500)"
	bench_stop
	expect_eq "drop packets + gen xmit errors" $((BPKTS + XERR)) $((first + 50000))
	note "duration run sent $first frames"
}

# Two threads on a 2-queue lab: veth picks the peer's RX queue by CPU, so
# each CPU has a queue (and its counters) of its own. (On one queue, two
# CPUs update the same queue's xmit counters without a lock and the kernel
# loses increments: the sums would be off by a bulk of 16 now and then.)
t_gen_threads_count() {
	local x0 e0 x1 e1 k0 k1
	lab_new --queues 2
	bench_start drop
	x0=$(eth_sum "$GNS" "$G" 'tx_queue_[0-9]+_xdp_xmit')
	e0=$(eth_sum "$GNS" "$G" 'tx_queue_[0-9]+_xdp_xmit_errors')
	k0=$(eth_sum "$DNS" "$D" 'rx_queue_[0-9]+_xdp_packets')
	gen_run 20 --threads 2 --count 1000001
	gen_ok
	expect_eq "--threads 2 --count 1000001: gen sent" "$SENT" 1000001
	gen_run 20 --threads 2 --count 100001 --rate 200000
	gen_ok
	expect_eq "--threads 2 --count 100001 --rate 200000: gen sent" "$SENT" 100001
	x1=$(eth_sum "$GNS" "$G" 'tx_queue_[0-9]+_xdp_xmit')
	e1=$(eth_sum "$GNS" "$G" 'tx_queue_[0-9]+_xdp_xmit_errors')
	bench_stop
	k1=$(eth_sum "$DNS" "$D" 'rx_queue_[0-9]+_xdp_packets')
	expect_eq "veth xmit + xmit errors over both queues" $((x1 - x0 + e1 - e0)) 1100002
	expect_eq "drop packets = veth xmit" "$BPKTS" $((x1 - x0))
	expect_eq "drop packets = veth rx_queue_*_xdp_packets" "$BPKTS" $((k1 - k0))
	expect_eq "drop's kernel check (all queues)" "$BKERNEL" "$BPKTS"
	note "$((e1 - e0)) frames refused by full veth rings"
}

t_gen_no_peer() {
	lab_new
	ip netns exec "$DNS" ethtool -K "$D" gro off || fail "cannot turn GRO off on $D"
	xdp_on "$DNS" "$D" && fail "$D has an XDP program before the test"
	gen_run 10 --interval 0.2
	expect_eq "exit status" "$GRC" 1
	[ "$MS" -ge 550 ] && [ "$MS" -lt 3000 ] || fail "gen stopped after $MS ms (want about 3 intervals of 0.2 s)"
	expect_eq "first stderr line (the pre-flight warning)" "$(head -1 "$TMP/gen.err")" \
		"xdplab: the veth peer of $G ($D) has no XDP program and GRO off: frames redirected into a veth are dropped unless the peer has a NAPI (attach one, e.g. 'xdplab drop $D', or 'ethtool -K $D gro on')"
	grep -Eq "^xdplab: nothing left $G for 3 intervals \([0-9]+ sent, [0-9]+ xmit errors\): the device drops what is redirected to it \(veth: its peer needs an XDP program or GRO on\)$" "$TMP/gen.err" ||
		fail "no 'nothing left ... for 3 intervals' reason on stderr: $(cat "$TMP/gen.err")"
	[ -n "$SENT" ] || fail "no summary after the stop: $(cat "$TMP/gen.out")"
}

t_gen_peer_gro() {
	lab_new
	ip netns exec "$DNS" ethtool -K "$D" gro on || fail "cannot turn GRO on on $D"
	ip -n "$DNS" neigh replace "$GIP" lladdr "$GMAC" dev "$D" nud permanent
	local no0 no1
	no0=$(snmp "$DNS" Udp NoPorts)
	gen_run 20 --count 100000 --rate 200000
	no1=$(snmp "$DNS" Udp NoPorts)
	gen_ok
	expect_eq "gen sent" "$SENT" 100000
	expect_eq "UDP datagrams the GRO peer's stack received (NoPorts)" $((no1 - no0)) 100000
	[ ! -s "$TMP/gen.err" ] || fail "gen warned although the peer has GRO on: $(cat "$TMP/gen.err")"
}

# drop, then SIG (or --duration end if SIG is 'exit'): nothing attached.
drop_end_test() {
	local sig=$1
	lab_new
	if [ "$sig" == exit ]; then
		bench_start drop --duration 1
		wait_exit "$BENCH" 5 || fail "drop --duration 1 still running after 5 s"
		expect_eq "drop --duration 1: exit status" "$RC" 0
		grep -q '^totals: 0 packets' "$TMP/bench.out" || fail "no totals: $(cat "$TMP/bench.out")"
	else
		bench_start drop
		kill -"$sig" "$BENCH"
		wait_exit "$BENCH" 5 || fail "drop still running 5 s after SIG$sig"
		if [ "$sig" == KILL ]; then
			expect_eq "exit status after SIGKILL" "$RC" 137
		else
			expect_eq "exit status after SIG$sig" "$RC" 0
			grep -q '^totals: 0 packets' "$TMP/bench.out" || fail "no totals after SIG$sig: $(cat "$TMP/bench.out")"
		fi
	fi
	no_xdp_anywhere
	# The interface is free again: a new drop attaches.
	bench_start drop
	bench_stop
	no_xdp_anywhere
}

t_cleanup_drop_exit() { drop_end_test exit; }
t_cleanup_drop_sigint() { drop_end_test INT; }
t_cleanup_drop_sigterm() { drop_end_test TERM; }
t_cleanup_drop_sigkill() { drop_end_test KILL; }

t_cleanup_gen_signals() {
	local sig gp
	lab_new
	bench_start drop
	for sig in TERM KILL; do
		bg "$TMP/gen.out" "$TMP/gen.err" "$X" gen --netns "$GNS" --rate 200000 "$G"
		gp=$BG
		sleep 1
		kill -0 "$gp" 2>/dev/null || fail "gen exited early: $(cat "$TMP/gen.err")"
		kill -"$sig" "$gp"
		wait_exit "$gp" 5 || fail "gen still running 5 s after SIG$sig"
		if [ "$sig" == KILL ]; then
			expect_eq "gen exit status after SIGKILL" "$RC" 137
		else
			expect_eq "gen exit status after SIGTERM" "$RC" 0
			grep -Eq '^sent [0-9]+ frames' "$TMP/gen.out" || fail "no summary after SIGTERM: $(cat "$TMP/gen.out")"
		fi
		xdp_on "$GNS" "$G" && fail "an XDP program is attached on the generator end after SIG$sig"
	done
	bench_stop
	[ "$BPKTS" -gt 100000 ] || fail "drop counted only $BPKTS packets from two 1 s runs at 200 kpps"
	no_xdp_anywhere
}

t_drop_busy() {
	local holder
	lab_new
	bench_start drop
	holder=$BENCH
	run 10 "$TMP/d2.out" "$TMP/d2.err" "$X" drop --netns "$DNS" "$D"
	expect_eq "second drop: exit status" "$RC" 1
	grep -Eq "^xdplab: cannot attach XDP \(native mode\) on $D: Device or resource busy \(program xdp_bench[a-z_]* \(id [0-9]+, native, link [0-9]+ held by pid $holder xdplab\) is attached; stop its owner or run 'xdplab cleanup $D'\)$" "$TMP/d2.err" ||
		fail "the message does not name the holder (pid $holder): $(cat "$TMP/d2.err")"
	# The first one still holds the interface and counts.
	gen_run 20 --count 1000 --rate 100000
	gen_ok
	bench_stop
	expect_eq "first drop's packets" "$BPKTS" 1000
	no_xdp_anywhere
}

t_cleanup_foreign() {
	local holder
	lab_new
	bench_start drop
	holder=$BENCH
	run 10 "$TMP/c.out" "$TMP/c.err" ip netns exec "$DNS" "$X" cleanup "$D"
	expect_eq "cleanup exit status" "$RC" 0
	grep -Eq "^$D: detached program xdp_bench[a-z_]* \(id [0-9]+, native, link [0-9]+ held by pid $holder xdplab\)$" "$TMP/c.out" ||
		fail "cleanup did not say what it detached: $(cat "$TMP/c.out" "$TMP/c.err")"
	xdp_on "$DNS" "$D" && fail "still attached after cleanup"
	# The holder notices and stops with the reason.
	wait_exit "$holder" 3 || fail "drop kept running after its program was detached"
	expect_eq "holder's exit status" "$RC" 1
	grep -q "was detached" "$TMP/bench.err" || fail "the holder did not say why it stopped: $(cat "$TMP/bench.err")"
	run 10 "$TMP/c.out" "$TMP/c.err" ip netns exec "$DNS" "$X" cleanup "$D"
	expect_eq "second cleanup exit status" "$RC" 0
	expect_eq "second cleanup" "$(cat "$TMP/c.out")" "$D: no XDP program attached"
	no_xdp_anywhere
}

t_lab_run_sigkill() {
	local lp i left
	bg "$TMP/lr.out" "$TMP/lr.err" "$X" lab run --reps 1 --seconds 2 --sizes 64 --rows drop/no-touch
	lp=$BG
	RUN_PIDS+=("$lp")
	for i in $(seq 100); do
		ip netns list | grep -Eq "^xl${lp}[a-z]-dut" && break
		kill -0 "$lp" 2>/dev/null || fail "lab run ended early: $(cat "$TMP/lr.err")"
		sleep 0.05
	done
	ip netns list | grep -Eq "^xl${lp}[a-z]-(gen|dut)" || fail "lab run made no xl$lp* namespace in 5 s"
	sleep 1.5
	kill -0 "$lp" 2>/dev/null || fail "lab run ended before the SIGKILL"
	kill -KILL "$lp"
	wait_exit "$lp" 5
	left=$(ip netns list | grep -Ec "^xl${lp}[a-z]-(gen|dut)")
	[ "$left" -gt 0 ] || fail "SIGKILL left no namespace: nothing to test"
	# The next lab creation sweeps the namespaces of dead processes.
	lab_new
	left=$(ip netns list | grep -E "^xl${lp}[a-z]-(gen|dut)" | tr '\n' ' ')
	[ -z "$left" ] || fail "after the next lab creation these are left: $left"
	[ -z "$(ip -o link show type veth | grep "xl$lp")" ] || fail "veths of xl$lp left in the root namespace"
}

t_bad_iface() {
	lab_new
	bad_input gen "xdplab gen: interface 'nosuch0': no such interface" nosuch0
	bad_input drop "xdplab drop: interface 'nosuch0': no such interface" nosuch0
}

t_bad_size_low() {
	lab_new
	bad_input gen "xdplab gen: --size: '59' is out of range (accepted: 60..$(mtu14))" --size 59 "$G"
}

t_bad_size_high() {
	lab_new
	local m
	m=$(mtu14)
	bad_input gen "xdplab gen: --size: '$((m + 1))' is out of range (accepted: 60..$m)" --size $((m + 1)) "$G"
	bad_input gen "xdplab gen: --size (IPv6): '$((m + 1))' is out of range (accepted: 62..$m)" --ipv6 --size $((m + 1)) "$G"
}

t_bad_rate_negative() {
	lab_new
	bad_input gen "xdplab gen: --rate: '-1' is not a whole number (accepted: 0..1000000000)" --rate -1 "$G"
}

t_bad_rate_nan() {
	lab_new
	bad_input gen "xdplab gen: --rate: 'abc' is not a whole number (accepted: 0..1000000000)" --rate abc "$G"
}

t_bad_count_negative() {
	lab_new
	bad_input gen "xdplab gen: --count: '-5' is not a whole number (accepted: 0..9223372036854775807)" --count -5 "$G"
}

t_bad_packet_op() {
	lab_new
	bad_input drop "xdplab drop: --packet-operation: 'bogus' is not accepted (accepted: no-touch, read-data, parse-ip, swap-macs)" \
		--packet-operation bogus "$D"
}

t_bad_threads() {
	lab_new
	bad_input gen "xdplab gen: --threads: '$((NCPU + 1))' is out of range (accepted: 1..$NCPU)" --threads $((NCPU + 1)) "$G"
}

t_bad_pcap_missing() {
	lab_new
	bad_input gen "xdplab: --pcap $TMP/missing.pcap: No such file or directory" --pcap "$TMP/missing.pcap" "$G"
}

t_bad_pcap_notpcap() {
	lab_new
	echo "this is not a capture" >"$TMP/text.pcap"
	bad_input gen "xdplab: --pcap $TMP/text.pcap: not a pcap or pcapng file (unknown file format)" --pcap "$TMP/text.pcap" "$G"
}

t_bad_pcap_linktype() {
	lab_new
	# A pcap global header (LE, v2.4, snaplen 65535) with LINKTYPE_RAW (101)
	# and one 28-byte IPv4 record.
	printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x65\x00\x00\x00' >"$TMP/raw.pcap"
	printf '\x00\x00\x00\x00\x00\x00\x00\x00\x1c\x00\x00\x00\x1c\x00\x00\x00' >>"$TMP/raw.pcap"
	printf '\x45\x00\x00\x1c\x00\x00\x00\x00\x40\x11\x00\x00\xc6\x12\x00\x01\xc6\x12\x00\x02\x04\x00\x00\x09\x00\x08\x00\x00' >>"$TMP/raw.pcap"
	bad_input gen "xdplab: --pcap $TMP/raw.pcap: link type RAW, not Ethernet (only LINKTYPE_ETHERNET can be replayed)" --pcap "$TMP/raw.pcap" "$G"
}

t_bad_pcap_threads() {
	need_corpus
	lab_new
	bad_input gen "xdplab gen: --threads: '2' is out of range with --pcap (accepted: 1; an in-order replay is one thread)" \
		--pcap "$CORPUS/afs.pcap" --threads 2 "$G"
}

t_bad_unknown_option() {
	lab_new
	bad_input gen "xdplab gen: unknown option '--bogus' (see 'xdplab gen --help')" --bogus "$G"
	bad_input drop "xdplab drop: unknown option '--bogus' (see 'xdplab drop --help')" --bogus "$D"
}

t_bad_abbreviation() {
	lab_new
	bad_input gen "xdplab gen: unknown option '--cou' (did you mean --count?)" --cou 5 "$G"
	bad_input gen "xdplab gen: unknown option '--cou=5' (did you mean --count?)" --cou=5 "$G"
	bad_input drop "xdplab drop: unknown option '--packet' (did you mean --packet-operation?)" --packet drop "$D"
}

t_bad_option_twice() {
	lab_new
	bad_input gen "xdplab gen: option --count given twice" --count 5 --count 6 "$G"
	bad_input gen "xdplab gen: option --count given twice" -n 5 --count 6 "$G"
}

t_lab_run() {
	local lp json="$TMP/lab.json" row
	local t0=$(now_ms)
	bg "$TMP/lr.out" "$TMP/lr.err" "$X" lab run --reps 1 --seconds 0.5 --sizes 64 \
		--rows gen-ceiling,drop/no-touch --json "$json"
	lp=$BG
	RUN_PIDS+=("$lp")
	wait_exit "$lp" 120
	note "lab run took $(($(now_ms) - t0)) ms"
	expect_eq "lab run exit status" "$RC" 0
	grep -Eq '^benchmark +size +mode' "$TMP/lr.out" || fail "no table header: $(cat "$TMP/lr.out")"
	for row in gen-ceiling drop/no-touch; do
		grep -Eq "^$row +64 .* (valid|generator-bound|ceiling)(,.*)?$" "$TMP/lr.out" ||
			fail "no '$row' row with a verdict: $(cat "$TMP/lr.out")"
	done
	expect_eq "table rows" "$(grep -Ec '^(gen-ceiling|drop/)' "$TMP/lr.out")" 2
	jq -e . "$json" >/dev/null || fail "the JSON does not parse: $(head -c 300 "$json")"
	expect_eq "JSON row names" "$(jq -r '[.rows[].name] | join(",")' "$json")" "gen-ceiling,drop/no-touch"
	jq -e '[.rows[] | (.mpps.median | type == "number" and . > 0) and .size == 64 and
		(.reps | length == 1) and (.verdict | type == "string")] | all' "$json" >/dev/null ||
		fail "a JSON row lacks a numeric mpps.median > 0, size 64, 1 rep or a verdict: $(jq -c '.rows[] | {name, mpps, size, verdict}' "$json")"
	note "$(jq -r '.rows[] | "\(.name): \(.mpps.median * 1000 | round / 1000) Mpps, \(.verdict)"' "$json" | paste -sd ';' | sed 's/;/; /g')"
	# Nothing left behind.
	[ -z "$(ip netns list | grep -E "^xl${lp}[a-z]-")" ] || fail "namespaces left: $(ip netns list | grep "^xl$lp")"
	[ -z "$(ip -o link show type veth | grep "xl$lp")" ] || fail "veths left: $(ip -o link show type veth | grep "xl$lp")"
	kill -0 "$lp" 2>/dev/null && fail "lab run still running"
	return 0
}

# Runs last: nothing this run made is left.
t_leftovers() {
	local t p left=""
	if [ -s "$STATE/labs" ]; then
		while read -r t; do
			ip netns list | grep -Eq "^$t-(gen|dut)( |$)" && left+=" namespace $t-*"
			ip -o link show type veth | grep -q "$t" && left+=" veth of $t"
		done <"$STATE/labs"
	fi
	if [ -s "$STATE/pids" ]; then
		while read -r p; do
			[ -r "/proc/$p/cmdline" ] && tr '\0' ' ' <"/proc/$p/cmdline" | grep -q xdplab &&
				left+=" process $p ($(tr '\0' ' ' <"/proc/$p/cmdline"))"
		done <"$STATE/pids"
	fi
	[ -z "$left" ] || fail "left behind:$left"
	note "$(wc -l <"$STATE/labs" 2>/dev/null || echo 0) labs made and removed"
}

# ----------------------------------------------------------------- runner --

PASS=0 FAIL=0 SKIP=0
FAILED=()
CHILD=""
INTERRUPTED=0

on_signal() {
	INTERRUPTED=1
	[ -n "$CHILD" ] && kill -TERM "$CHILD" 2>/dev/null
}

test_exists() {
	local e
	for e in "${TESTS[@]}"; do
		[ "${e%%|*}" == "$1" ] && return 0
	done
	return 1
}

run_one() {
	local name=$1 fn="t_${1//-/_}" rc t0 ms
	t0=$(now_ms)
	(
		trap cleanup_test EXIT
		trap 'exit 130' INT TERM HUP
		TMP=$(mktemp -d /tmp/xdplab-e2e.XXXXXX)
		"$fn"
	) &
	CHILD=$!
	while :; do
		wait "$CHILD"
		rc=$?
		# wait returns > 128 when a trapped signal interrupts it.
		kill -0 "$CHILD" 2>/dev/null || break
	done
	CHILD=""
	ms=$(($(now_ms) - t0))
	local secs
	secs=$(printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)))
	if [ -n "${KNOWN_FAILURES[$name]:-}" ]; then
		if [ "$rc" -eq 1 ]; then
			echo "KNOWN $name ($secs s): known failure: ${KNOWN_FAILURES[$name]}"
			SKIP=$((SKIP + 1))
			return
		elif [ "$rc" -eq 0 ]; then
			echo "PASS $name ($secs s) (listed in KNOWN_FAILURES but passes now: remove it)"
			PASS=$((PASS + 1))
			return
		fi
	fi
	if [ "$INTERRUPTED" -eq 1 ] && [ "$rc" -ne 0 ]; then
		echo "INTR $name ($secs s): interrupted, cleaned up"
		return
	fi
	case $rc in
	0) echo "PASS $name ($secs s)"; PASS=$((PASS + 1)) ;;
	3) echo "SKIP $name"; SKIP=$((SKIP + 1)) ;;
	*) echo "FAIL $name ($secs s, status $rc)"; FAIL=$((FAIL + 1)); FAILED+=("$name") ;;
	esac
}

# run_suite FILE [ARGS]: another tests/e2e/*.sh; add its closing counts.
run_suite() {
	local suite=$1 out rc line
	shift
	echo "== $(basename "$suite") $*"
	out=$(mktemp)
	# In the background so that a SIGTERM to us reaches it (on_signal);
	# its output is streamed as it comes.
	"$suite" "$@" >"$out" 2>&1 &
	CHILD=$!
	tail -n +1 -s 0.1 -f --pid="$CHILD" "$out" &
	local tailpid=$!
	while :; do
		wait "$CHILD"
		rc=$?
		kill -0 "$CHILD" 2>/dev/null || break
	done
	CHILD=""
	while kill -0 "$tailpid" 2>/dev/null; do
		wait "$tailpid"
	done
	line=$(grep -E '([a-zA-Z0-9_-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$out" | tail -1)
	rm -f "$out"
	if [ -z "$line" ]; then
		echo "FAIL $(basename "$suite"): no 'N passed, N failed, N skipped' line (status $rc)"
		FAIL=$((FAIL + 1)); FAILED+=("$(basename "$suite")")
		return
	fi
	local p f s
	p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+')
	f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+')
	s=$(grep -oE '[0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+')
	PASS=$((PASS + p))
	FAIL=$((FAIL + f)); SKIP=$((SKIP + ${s:-0}))
	[ "$f" -gt 0 ] && FAILED+=("$(basename "$suite") ($f)")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $(basename "$suite"): exited $rc with no failed test"
		FAIL=$((FAIL + 1)); FAILED+=("$(basename "$suite") (status $rc)")
	fi
}

other_suites() {
	local s
	for s in "${E2E_SUITES_DIR:-$HERE}"/*.sh; do
		[ "$(basename "$s")" == run.sh ] && continue
		[ -x "$s" ] && echo "$s"
	done
}

finish() {
	[ ${#FAILED[@]} -gt 0 ] && echo "failed: ${FAILED[*]}"
	[ "$INTERRUPTED" -eq 1 ] && echo "interrupted"
	echo "e2e: $PASS passed, $FAIL failed, $SKIP skipped"
	[ "$INTERRUPTED" -eq 0 ] && [ "$FAIL" -eq 0 ]
	exit $?
}

usage() {
	echo "usage: $0 [-l | -t NAME]" >&2
	exit 2
}

MODE=all ONE=""
while getopts "lt:h" o; do
	case $o in
	l) MODE=list ;;
	t) MODE=one ONE=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage

if [ "$MODE" == list ]; then
	for e in "${TESTS[@]}"; do echo "${e%%|*}"; done
	for s in $(other_suites); do "$s" -l; done
	exit 0
fi

# Why our own tests cannot run here, if they cannot.
why_not=""
if [ "$(id -u)" -ne 0 ]; then
	why_not="not root (network namespaces, veth and XDP need root)"
elif [ ! -x "$X" ]; then
	why_not="no build at $X (run make)"
else
	for tool in ip ethtool jq od awk; do
		command -v "$tool" >/dev/null || why_not="$tool is not installed (scripts/deps.sh)"
	done
fi

STATE=$(mktemp -d /tmp/xdplab-e2e-state.XXXXXX)
trap 'rm -rf "$STATE"' EXIT
trap on_signal INT TERM HUP
: >"$STATE/labs"
: >"$STATE/pids"

if [ "$MODE" == one ]; then
	if test_exists "$ONE"; then
		if [ -n "$why_not" ]; then
			echo "SKIP $ONE: $why_not"
			SKIP=1
		else
			run_one "$ONE"
		fi
	else
		found=""
		for s in $(other_suites); do
			if "$s" -l 2>/dev/null | grep -qxF -- "$ONE"; then
				run_suite "$s" -t "$ONE"
				found=1
				break
			fi
		done
		[ -n "$found" ] || { echo "no test named '$ONE' (see -l)" >&2; exit 2; }
	fi
	finish
fi

if [ -n "$why_not" ]; then
	echo "SKIP all ${#TESTS[@]} tests of run.sh: $why_not"
	SKIP=${#TESTS[@]}
else
	for e in "${TESTS[@]}"; do
		[ "$INTERRUPTED" -eq 1 ] && break
		run_one "${e%%|*}"
	done
fi
for s in $(other_suites); do
	[ "$INTERRUPTED" -eq 1 ] && break
	run_suite "$s"
done
finish
