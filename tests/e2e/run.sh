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
CORPUS="${XL_CORPUS_DIR:-$ROOT/../shared/corpus/tcpdump}" # extra cases where present
NCPU=$(nproc)

# name|what it checks (the order is the order of a full run)
TESTS=(
	"count-64-1flow|gen --count 100000 --rate 200000, 64 B, 1 flow: drop counts exactly 100000"
	"count-1500-1flow|the same at 1500 B"
	"count-64-16flows|the same at 64 B with 16 flows"
	"count-1500-16flows|the same at 1500 B with 16 flows"
	"count-ipv6-1500-16flows|the same with IPv6/UDP, 1500 B, 16 flows"
	"drop-off-napi-cpu|threaded NAPI pinned to the last CPU: drop's process runs only on the other CPUs and -v says so; its counts stay exact"
	"drop-wakeups|drop's process sleeps between its 1 s samples: at most 8 voluntary context switches in 3 s (it napped 20 times a second before)"
	"bench-actions-exact|pass read-data 1000 B, tx swap-macs 200 B, drop parse-ip 64 B (the lean program), drop --rxq-stats: exact packets, bytes, and the actions xl_bench__read() derives (the action's count, 0 in every other)"
	"bench-driver-counts|drop/pass --count ethtool: the program that counts nothing is attached (no-touch: xdp_bare_*), veth's counters since the attach give exact packets, bytes and actions, the JSON row's counter says so"
	"csum-pass-ipv4-16flows|16 flows into XDP_PASS: the DUT's IPv4/UDP stack takes all 100000, no checksum error"
	"csum-pass-ipv6-16flows|the same with IPv6"
	"pcap-replay|several corpus captures: drop counts exactly the frames and bytes gen sent"
	"pcap-oversize|captures with frames > MTU+14: skipped and counted (checked against our own pcap parser)"
	"pcap-malformed|truncated and runt captures: counts match, runts skipped and counted"
	"pcap-loop|--pcap with --count loops over the capture: exact frames and bytes"
	"gen-count-prompt|--count 1000000 unpaced ends well within one interval, exit 0"
	"gen-count-duration|--count and --duration end at whichever comes first"
	"gen-threads-count|--threads 2: --count is the total, not per thread"
	"gen-delivered-json|gen --count 50000 --json into a drop: sent, refused and delivered labelled and exact; the JSON's row and intervals, the schema"
	"gen-live-stopped|live frames, unpaced --count 5000000, SIGSTOP 200 ms mid-call: exit 0, all sent, drop counts sent minus refused"
	"gen-live-stopped-pinned|the same with --threads 2 --cpu 0: each pinned thread's interrupted call counted from its CPU's count"
	"gen-rate-stall-json|gen --rate 20000 --count 20000 stopped 200 ms: all 20000 delivered; the JSON's pacing (stalls, skipped, depth, largest catch-up) as the pacing line says"
	"gen-no-peer|peer without XDP and GRO off: warning at start, exit 1 after 3 intervals with the reason"
	"gen-peer-gro|peer with GRO on and no XDP: no warning, frames reach the peer's stack"
	"cleanup-drop-exit|drop --duration ends: nothing attached"
	"cleanup-drop-sigint|SIGINT to drop: totals printed, nothing attached"
	"cleanup-drop-sigterm|SIGTERM to drop: nothing attached"
	"cleanup-drop-sigkill|SIGKILL of drop: nothing attached (bpf_link)"
	"cleanup-gen-signals|SIGTERM and SIGKILL of gen: nothing attached on either end"
	"drop-busy|a second drop on the same interface exits 1 naming the holder's program and pid"
	"link-held|drop, tx, xsk rxdrop, latency and run stop with their XDP link pinned elsewhere: exit 0, nothing attached (BPF_LINK_DETACH, not a bare close)"
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
	"frags-mtu9000|MTU 9000: drop/pass/tx without --frags exit 1 saying use --frags; drop --frags counts 2000 frames of 9014 B exactly"
	"gen-peer-gro-unnamed-ns|gen into a veth whose peer has GRO on in a namespace not under /run/netns: no warning, all delivered"
	"dut-mtu9000|lab run --dut D at MTU 9000: the XDP rows load multi-buffer programs (said once) and count 9014-byte frames, counters agreeing; nothing left"
	"drop-json-reps|drop --duration 1.5 --reps 2 --json: 2 repetitions, intervals that add up to the exact totals, a lab row's identity, the schema"
	"prometheus-files|drop and monitor --prometheus FILE: promtool check metrics passes on every file written; drop's counters exact (20000 frames, all XDP_DROP), monitor's file on a quiet --dev byte for byte; the file replaced whole (no temporary left); a path that cannot be written: one line, exit 1, before the run"
	"bad-reps-no-duration|drop --reps 2 without --duration: exit 2, one line"
	"lab-setup-killed|a lab setup SIGKILLed half-way is swept by cleanup; finished manual labs stay; teardown of an unknown TAG names the labs there are (exit 2)"
	"lab-setup-mark-link|a link planted at lab setup's mark /run/xdplab/setup-TAG (TAG known from the pid) is replaced, its target unchanged"
	"link-down|gen and xsk txpush name a link that is down (or whose veth peer is) as the cause, txpush stops, exit 1"
	"xsk-umem-facts|xsk's start line gives the UMEM as registered: frames, chunk size, aligned or unaligned, hugepages"
	"xsk-dump-snaplen|xsk rxdrop --dump --snaplen cuts records (wire length kept); a capture the kernel dropped frames from is INCOMPLETE, exit 1"
	"probe-rxvlan|probe says rx-vlan-offload on and off on the DUT veth with what it means there (veth strips no tag); gen --vlan-id's 1000 tagged 64-byte frames reach drop as 64000 bytes either way"
	"probe-peer-vlan|probe reads the veth peer's tx-vlan-offload and tx-vlan-stag-hw-insert (another namespace) and says when a tag added there is hidden from XDP; a tc vlan push on the generator's end with each offload on and off: drop counts 60000 or 64000 bytes for 1000 60-byte frames"
	"gen-live-size-limit|gen names the live engine's size limit (a page less XDP's headroom, struct xdp_page_head from the kernel's BTF and skb_shared_info): --engine live --size LIMIT+1 refused, exit 2; without --engine it falls back to AF_PACKET saying why and sends every frame"
	"probe-features|probe reads xdp-features over netdev netlink (no attach): native XDP, and ndo_xdp_xmit following the veth peer's NAPI"
	"xsk-drop-warning|xsk's totals warn when the kernel dropped frames for an empty fill ring, with the count and the likely cause"
	"gen-delivered-own-frames|gen counts as delivered only its own frames, not the kernel's sent from that end during the run"
	"lab-run|lab run with 2 rows: table, verdicts, JSON, nothing left behind"
	"lab-run-host|lab run --reps 2 --seconds 1, 2 rows: each repetition carries the host-speed control (> 0), its relative figures, steal and load; the PMU fields null with one line saying so where there is no PMU; the machine's noise facts; the schema"
	"lab-run-progress|lab run's progress lines: row I of N over rows, sizes and --sensitivity, exact off a terminal; on one (script's pty) the time left from the second row on"
	"lab-run-wiring-fallback|lab run when threaded NAPI is refused: a warning, softirq wiring, the rows still measured"
	"redirect-cpu-row-steering|lab run --rows redirect-cpu --json: the row's steering (policy, the one target, share 1, nothing unparsed) valid by the schema, processed within 1% of the row's count"
	"stack-tc-rows|lab run stack-drop and tc-drop at 2 sizes: counts equal veth's exactly, no nft table or tc filter left"
	"watch-perf-row|lab run --with-monitor --with-perf: the redirect+perf row, interleaved, its cost; no perf left"
	"watch-floor-row|lab run --with-monitor-floor: the redirect/b1+mon-floor row, the floor's link alone on xdp_devmap_xmit in every floor slice (the kernel's links counted) while another process holds every link 20 ms at a time (tests/e2e/hold_links.py), its figures in the note and JSON"
	"meter-cost-row|lab run --rows meter-cost in softirq and threaded wiring: the two interleaved rows, the meter_cost part's exact members, each 95% CI bracketing its median, the CPU-time sources per wiring, the note; nothing left"
	"watch-detach-pinned|lab run --with-monitor with a monitor link pinned by someone else: the detach waits 500 ms, the row fails with that reason (exit 1), nothing left once the pin goes"
	"watch-perf-sigkill|SIGKILL of lab run with its perf listener running: perf dies with it"
	"dump-exact|dump: every frame of sub-capacity runs (generated, replayed, corpus) in the pcap byte-exact"
	"dump-overload|dump with a 1 MiB ring under a flood: exit 3, seen = written + ring full = gen sent = kernel"
	"dump-filter-snaplen|dump --filter and --snaplen counted exactly; --count ends the capture"
	"dump-sigkill|SIGKILL of dump: nothing attached"
	"dump-sigkill-temp|SIGKILL of dump -w FILE mid-write: 'xdplab cleanup' removes the temporary .FILE.PID.XXXXXX through the run's record, the earlier FILE intact"
	"dump-hook-entry-exit|dump --hook both on a running drop: exact counts, or the kernel's refusal in one line"
	"dump-hex|dump -x: every frame written on stdout in hex and ASCII, byte-exact the pcap beside it (snaplen 100); -x alone writes no file, the same books"
	"dump-program-names|dump -p (xdpdump's --program-names): all, the full function name and NAME@ID trace drop's xdp_bench_action (or the kernel's refusal names it); its 15-character kernel name, another id, another name: one line naming what is attached, exit 1; -p with --hook own a usage error"
	"dump-list-interfaces|dump -D: the namespace's interfaces and what holds XDP on each (dump's own program, its id and holder pid), none after; -D IFACE a usage error"
	"xsk-txpush-tstamp|xsk txpush -y (xdpsock's --tstamp): 200 frames captured at the generator's end carry the pktgen header at the UDP payload (offset 42, 46 with -V), seq 0..199 in order, CLOCK_MONOTONIC times within the run and never decreasing, a valid UDP checksum, every other byte the unstamped frame's; xdplab latency there counts 1000 of 1000 stamped, none lost, with 2 sockets none lost or duplicated; -y on rxdrop, -V -y at 64 B: usage errors"
	"xsk-txpush-vlan|xsk txpush -V/-J/-K (xdpsock's): 100 frames captured at the generator's end with the tag 8100 a064 (PCP 5, VID 100), and 8100 0001 with -V alone; -J without -V, -V on rxdrop, a VID of 4096: usage errors"
	"dump-bad-inputs|dump usage errors: exit 2, one line, nothing attached"
	"dump-pcap-fallback|dump where the kernel refuses fentry on the attached program (pass): one line, then libpcap captures 1000 UDP frames exactly (the kernel's count too); --hook pcap the same; the frames equal the own hook's capture of the same traffic"
	"dump-direction|dump -Q out|in|inout (tcpdump's): exactly the 25 frames the DUT end sent, the 40 it received, or all 65, byte-exact, epb_flags outbound/inbound/none; -Q out with no --hook goes to libpcap without a warning; two interfaces in one pcapng; -x says @pcap out; XDP_TX frames not at the DUT's TX taps but at the peer's RX; -Q out with an XDP hook or -p: usage errors"
	"dump-several-interfaces|dump IFACE1 IFACE2 -w FILE.pcapng: one pcapng, an Interface Description Block per interface, each frame under its own interface id, exact counts per interface (the kernel's too), frames byte-exact; pcap and --hook entry refused"
	"dump-pcapng|dump -w FILE.pcapng (our writer) and -w FILE.pcap of the same traffic: tcpdump (libpcap) reads the pcapng with every record byte-exact the pcap's, lengths kept; -F pcapng to a stream"
	"dump-stdout|dump -w - through a pipe: 3000 records in the stream, the totals on stderr"
	"dump-timens|dump in a time namespace (monotonic +100000 s): the records dated within 5 s of the wall clock"
	"dut-gen-host|lab run --dut D --gen-host over ssh into the generator's netns (test sshd, key, known_hosts): XDP rows, exact counts, skipped rows say why, nothing left"
	"dut-gen-host-sigkill|SIGKILL of lab run --dut --gen-host: ssh and the remote generator stop"
	"dut-gen-host-unreachable|lab run --dut --gen-host with no sshd there: one line with ssh's reason, exit 1, nothing attached"
	"dut-gen-host-bad-iface|lab run --dut --gen-host whose generator fails there: the row fails at once with the remote's message"
	"dut-external|lab run --dut D with the user's own generator running: rows measured with verdicts, counts agree, nothing left"
	"dut-killed-cleanup|SIGKILL of lab run --dut in tc-drop and in stack-drop: 'xdplab cleanup IFACE' deletes the tc filter, the clsact qdisc the row made and the nftables table it left; after another SIGKILL the next tc-drop row takes the qdisc over and deletes it"
	"dut-killed-user-filter|a user's filter added on the qdisc a killed tc-drop row left: the next tc-drop row and 'xdplab cleanup IFACE' delete their own filters and keep the qdisc and the user's filter"
	"dut-usage|lab run --dut/--gen-host usage errors (exit 2) and a missing interface (exit 1, one line)"
	"latency-exact|gen --stamp into latency, 20000 frames, 16 flows: exact counts, lost 0, reordered 0, duplicates 0"
	"latency-added-delay|latency --busy-wait 500000: min and p50 >= 500 us, min above the run without it (no absolute bound on that one); nothing lost"
	"stamp-csum-ipv4|gen --stamp, 16 flows of 1500 B into XDP_PASS: the DUT's stack takes all 20000, no checksum error"
	"stamp-csum-ipv6|the same with IPv6"
	"latency-lab-rows|lab run --latency: 8 latency rows in the JSON (schema), exact counts on the low rows, buckets hold every frame; --latency-delay 200000: every row's minimum >= 200 us and above the run without (no absolute bound on that one)"
	"latency-roundtrip-tx|tx on the DUT, latency on the generator's end: 10000 stamped frames back once, in order, XDP_TX 10000; --busy-wait 300000 (1000 frames at 1 kpps): every round trip >= 300 us, min above the run without"
	"latency-bad-inputs|gen --stamp and latency usage errors: exit 2, one line"
	"latency-loss-threaded|threaded NAPI under a flood: received + xmit errors = sent, and the gaps in the sequence numbers account for the xmit errors exactly"
	"ndr-bad-inputs|ndr usage errors (a loss target out of range, PDR below NDR, resolution 0, a row with no search, bounds the wrong way): exit 2, one line; the generator too slow for --min and AF_XDP zero-copy on veth: exit 1, one line naming it; the lab gone"
	"ndr-rows|ndr on drop/no-touch and xsk-rxdrop/drv, 0.3 s trials: each pass counted every frame sent, the NDR is the highest rate that passed, its interval within the resolution or limited by the generator; the fixed-rate run at the NDR loses nothing; latency points or why not; under a minute a row; the lab gone; --json valid (schema xdplab.ndr-results/1) and field by field the table's; gen's engine fallback said once"
	"ndr-extra-ns|ndr --extra-ns: out of range and no drop row, one line, exit 2; drop/no-touch with --extra-ns 100: the calibration line (iterations > 0), the search by its rules, --json's ndr_config and row carry the same cost; the lab gone"
	"lab-run-ndr|lab run --ndr: usage errors (--loss without --ndr, no row with a search, --dut, --pdr below --loss) one line, exit 2; drop/no-touch 64 B with --ndr: the lab row, then ndr's table by its rules and its latency points; --json valid with the ndr row field by field the table's; the lab gone"
	"shape-tcp-syn-ipv4|gen --l4 tcp-syn, 16 flows into XDP_PASS: the DUT's TCP takes all 20000 (one RST each), no checksum error"
	"shape-tcp-established-ipv6|gen --l4 tcp-established --ipv6 1500 B: the same"
	"shape-tcp-ext-ipv6|gen --ipv6 --l4 tcp-syn --ipv6-ext dst,rt,frag: the DUT's TCP takes all 20000 (one RST each), no checksum error"
	"shape-ext-ipv6-udp|gen --ipv6-ext hbh,dst,rt,frag, 16 flows into XDP_PASS: the DUT's IPv6 walks the headers (20000 atomic fragments), its UDP takes all 20000, no checksum or header error; the header bytes in a capture; drop parse-ip parses all 20000"
	"shape-vlan-8021q|gen --vlan-id 100 --vlan-prio 5, 16 flows: every frame captured on the DUT with the tag, every checksum right"
	"shape-vlan-qinq|gen --vlan-id 300 --vlan-id 100 --qinq: the same with an 802.1ad outer tag"
	"shape-vlan-ipv6-tcp|gen --vlan-id 100 --ipv6 --l4 tcp-established: the same"
	"shape-fill-ttl|gen --fill, --ttl, --hop-limit (and with --stamp): the bytes as asked in a capture, checksums valid"
	"shape-flows-ipv4|gen --flows 2 --dyn-ports 3 --src-addrs 4: 24 flows, each 1000 times in a capture, all taken by the DUT's UDP with valid checksums"
	"shape-flows-ipv6-packet|the same with IPv6 and the packet engine"
	"gen-imix|gen --imix: 120 frames captured at the DUT are 10 IMIX cycles (70 x 60, 40 x 590, 10 x 1514 bytes, in the cycle's order), 42940 bytes; tagged with --vlan-id the same sizes; its usage errors, --ipv6 among them"
	"shape-bad-inputs|the shape options' usage errors: exit 2, one line"
	"version|xdplab --version: the build's git describe (--always --dirty --abbrev=12) on stdout, exit 0; anything after it is a usage error"
	"verbose-anywhere|-v, -vv, -vvv and --verbose before the command, after it and between lab and setup: lab setup's INFO line with each, none without; -vx an unknown command"
	"no-command-usage|xdplab with no command: a short usage on stderr (synopsis, every command name, 'xdplab help'), exit 2; xdplab help the long one"
	"validate-results-errors|scripts/validate-results.py: a missing file is one line and exit 2 (was a traceback), a non-JSON file one line and exit 1, a committed run valid"
	"xsk-instr-usage|scripts/xsk-instr.sh: SECS and COUNT of 0 in any spelling (00 reached xdplab and xdpsock as no limit), out of range, and an unknown row are usage errors, one line naming the accepted values, exit 2"
	"xsk-instr-ir|scripts/xsk-instr.sh ir: a callgrind file's 10.2 G instructions less libc's 1.0 G exactly (mawk's %d printed 2147483647), a file without totals exit 1, none exit 2; calls: the call arcs into one function from two callers (its name given once, then its number), and into two"
	"dump-hook-no-prog|dump --hook entry/exit/both with no program on the interface: one line naming it, the hook, what to do and the accepted hooks; exit 1, no file"
	"full-disk-outputs|report -o and --json on a full disk (a 64 KiB tmpfs): exit 1, 'cannot write FILE: No space left on device', the earlier file byte-for-byte, no temporary left; report -o an input is a usage error"
	"full-disk-captures|dump -w and xsk rxdrop --dump to /dev/full: written 0, the file named, exit 1; dump -w on a full disk keeps the earlier capture; run --json NODIR/FILE fails before the run"
	"untrusted-text-terminal|an argument, an option value and a results path with ESC, BEL and a newline reach the terminal as \\xNN on one line (unknown command, usage error, report's output line, cleanup's interface)"
	"leftovers|no lab, veth or xdplab process of this run is left"
)

# shellcheck source=tests/e2e/lib.inc
. "$HERE/lib.inc"
# shellcheck source=tests/e2e/foundation.inc
. "$HERE/foundation.inc"
# shellcheck source=tests/e2e/harden.inc
. "$HERE/harden.inc"
# shellcheck source=tests/e2e/baselines.inc
. "$HERE/baselines.inc"
# shellcheck source=tests/e2e/dump.inc
. "$HERE/dump.inc"
# shellcheck source=tests/e2e/latency.inc
. "$HERE/latency.inc"
# shellcheck source=tests/e2e/ndr.inc
. "$HERE/ndr.inc"
# shellcheck source=tests/e2e/shapes.inc
. "$HERE/shapes.inc"

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

# wait_child: wait until $CHILD has ended, through the signals on_signal
# traps (wait returns > 128 when one interrupts it); its exit status in
# CHILD_RC, CHILD emptied.
wait_child() {
	while :; do
		wait "$CHILD"
		CHILD_RC=$?
		kill -0 "$CHILD" 2>/dev/null || break
	done
	CHILD=""
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
	wait_child
	rc=$CHILD_RC
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
	wait_child
	rc=$CHILD_RC
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
