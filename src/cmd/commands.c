// SPDX-License-Identifier: BSD-2-Clause
/*
 * The command table: every command's name, entry point and summary. Apart
 * from main.c so that unit tests can walk every command (test_cmd_tables.c
 * runs each one's --help, which checks its option table).
 */
#include "cmd.h"

const struct xl_command xl_commands[] = {
	{ "lab", cmd_lab, "veth lab: setup, teardown, run (the lab table)" },
	{ "gen", cmd_gen, "traffic generator (live frames or AF_PACKET, pcap replay)" },
	{ "drop", cmd_bench, "XDP_DROP benchmark with a packet operation" },
	{ "pass", cmd_bench, "XDP_PASS benchmark with a packet operation" },
	{ "tx", cmd_bench, "XDP_TX benchmark with a packet operation" },
	{ "redirect", cmd_redirect, "XDP_REDIRECT IN -> OUT through a devmap" },
	{ "redirect-map", cmd_redirect, "the same as redirect (xdp-bench's name of the devmap redirect)" },
	{ "redirect-ifindex", cmd_redirect, "XDP_REDIRECT IN -> OUT with bpf_redirect() by ifindex (no map)" },
	{ "redirect-cpu", cmd_redirect, "XDP_REDIRECT into a cpumap, program on the target CPU" },
	{ "redirect-multi", cmd_redirect, "XDP_REDIRECT broadcast IN -> OUT... (devmap_hash)" },
	{ "monitor", cmd_monitor, "count xdp tracepoint events: errors (default) or all" },
	{ "dump", cmd_dump, "write the frames an XDP hook sees to a pcap file, with exact drop counts" },
	{ "ndr", cmd_ndr, "zero-loss throughput (RFC 2544 style): NDR and PDR of lab rows by binary search, latency below them" },
	{ "latency", cmd_latency, "receive gen --stamp frames: one-way latency percentiles, loss, reordering" },
	{ "xsk", cmd_xsk, "AF_XDP applications: rxdrop, txpush, l2fwd; the AF_XDP selftest" },
	{ "compare", cmd_compare, "compare two results files: deltas, Mann-Whitney U, verdicts" },
	{ "store", cmd_store, "the results store: list, show, export, import runs (SQLite or PostgreSQL)" },
	{ "history", cmd_history, "a row's stored runs over time and where it changed (E-divisive means)" },
	{ "bisect-step", cmd_bisect_step, "a step of git bisect run: lab run of this commit against a stored baseline; 0 good, 1 bad, 125 skip" },
	{ "report", cmd_report, "one self-contained HTML page of a run (charts, table, flame graphs)" },
	{ "run", cmd_run, "attach your own XDP program (--prog FILE.o): rx/s, rate per action, CPU ns/packet" },
	{ "ab", cmd_ab, "two XDP programs on one interface, interleaved: rate, CPU ns/packet, verdict" },
	{ "prog-run", cmd_progrun, "BPF_PROG_RUN of your XDP program over frames: ns, action per frame and class" },
	{ "probe", cmd_probe, "pre-flight facts about an interface and this kernel" },
	{ "cleanup", cmd_cleanup, "remove xdplab programs from an interface, and stale labs" },
};
const size_t xl_n_commands = sizeof(xl_commands) / sizeof(xl_commands[0]);
