/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the subcommands' entry points and what they share
 * (signal flag, verbosity). Each returns an exit status: XL_EXIT_OK,
 * XL_EXIT_RUNTIME or XL_EXIT_USAGE.
 */
#ifndef XDPLAB_CMD_H
#define XDPLAB_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "xdplab/atomicfile.h"
#include "xdplab/attach.h"
#include "xdplab/bench.h"
#include "xdplab/meter.h"
#include "xdplab/report.h"
#include "xdplab/time.h"
#include "opts.h"

/** Set by SIGINT/SIGTERM/SIGHUP: loops end and clean up normally. */
extern volatile sig_atomic_t xl_stop_requested;
/** SIGQUITs received: an odd count flips --extended in xl_cmd_report_loop(). */
extern volatile sig_atomic_t xl_extended_toggles;

/**
 * An eventfd the stop handler writes after setting xl_stop_requested, or -1
 * (no xl_sig_install(), or eventfd failed): readable from the first stop on,
 * never drained. A wait that polls it wakes at once whichever thread took
 * the signal and however late in the wait's set-up it came (the self-pipe
 * trick: D. J. Bernstein's; the kernel's eventfd(2) as the pipe).
 */
extern int xl_stop_fd;

/** Install the stop handlers (no SA_RESTART, so sleeps wake up) and xl_stop_fd. */
void xl_sig_install(void);

/** Sleep @ns or until a stop is requested. Return: 1 if stopped. */
#define xl_cmd_sleep_ns(ns) xl_sleep_ns((ns), &xl_stop_requested)

/**
 * xl_cmd_parse_none() - xl_opts_parse() for a command that takes no
 * argument after its options (lab setup, lab run).
 * Return: 0, XL_OPTS_HELP (help printed: exit XL_EXIT_OK), or -EINVAL (one
 * line printed: exit XL_EXIT_USAGE).
 */
int xl_cmd_parse_none(const struct xl_cmd_spec *spec, int argc, char **argv,
		      xl_opt_handler handler, void *ctx);

/**
 * xl_cmd_parse_iface() - xl_opts_parse() for a command that takes exactly
 * one IFACE after its options; *@ifname is set to it.
 * Return: 0, XL_OPTS_HELP (help printed: exit XL_EXIT_OK), or -EINVAL (one
 * line printed: exit XL_EXIT_USAGE).
 */
int xl_cmd_parse_iface(const struct xl_cmd_spec *spec, int argc, char **argv,
		       xl_opt_handler handler, void *ctx, const char **ifname);

/**
 * xl_cmd_find_dash() - the index of the first bare "--" in @argv[1..@argc),
 * or -1: where a command's own options end (getopt would move it) and its
 * second list begins (compare's NEW runs, bisect-step's lab run options).
 */
int xl_cmd_find_dash(int argc, char **argv);

/**
 * xl_cmd_check_reps() - --reps N above 1 needs --duration (each repetition
 * is one window of it). Return: 0, or -EINVAL (one line printed).
 */
int xl_cmd_check_reps(const struct xl_cmd_spec *spec, int reps, uint64_t duration_ns);

/*
 * --map NAME=FILE of the commands that load a user's BPF object (run, ab,
 * prog-run, lab run): its id in run_opts' shared entry, the one code of
 * that table (a list), handed to xl_cmd_userprog_opt().
 */
enum { XL_OPT_MAP = 950 };

struct xl_userprog_opts;

/**
 * xl_cmd_userprog_opt() - handle --map NAME=FILE (repeatable) into @uo:
 * the argument is stored in @maps[@uo->nfills++] (an array of
 * XL_USERPROG_MAX_FILLS owned by the caller, who points @uo->fills at it).
 * Return: 0 handled, -EINVAL (more than XL_USERPROG_MAX_FILLS maps; one
 * line printed), 1 when @id is not XL_OPT_MAP.
 */
int xl_cmd_userprog_opt(const struct xl_cmd_spec *spec, int id, const char *arg,
			struct xl_userprog_opts *uo, const char **maps);

/**
 * xl_cmd_enter_netns() - move the calling process's main thread (and the
 * threads it starts later) into /run/netns/@name, for --netns.
 * Return: XL_EXIT_OK, XL_EXIT_USAGE (no such namespace; one line printed
 * naming @spec's command), or XL_EXIT_RUNTIME (setns failed, logged).
 */
int xl_cmd_enter_netns(const struct xl_cmd_spec *spec, const char *name);

/**
 * xl_cmd_print_cpus() - the --extended lines: for each CPU that counted
 * packets or errors between samples @a and @b (@ns apart), its rx/s, err/s
 * and busy share.
 */
void xl_cmd_print_cpus(const struct xl_meter_sample *a, const struct xl_meter_sample *b,
		       uint64_t ns);

/**
 * struct xl_cmd_records - the interval records of a run, for --json:
 * @v/@n/@cap: a growing array (free @v).
 */
struct xl_cmd_records {
	struct xl_interval_rec *v;
	int n, cap;
};

/**
 * xl_cmd_records_add() - append the interval record @r, @t s into the run,
 * of repetition @rep. Out of memory: the record is left out.
 */
void xl_cmd_records_add(struct xl_cmd_records *rec, double t, int rep,
			const struct xl_rep_result *r);

/**
 * struct xl_cmd_loop - the report loop of the commands that watch an XDP
 * program (drop/pass/tx, redirect*), on the one sampler
 * (xdplab/sampler.h): a meter sample every @interval_ns, a line per
 * interval, until @duration_ns (0: none) or Ctrl-C, @reps times.
 * @m: the meter, its napi_pid set by the caller (once, after the attach
 *     that makes the NAPI; 0: softirq wiring). @ifname: the DUT.
 * @reps: windows of @duration_ns back to back (0 or 1: one).
 * @quiet/@extended: no interval lines / also the per-CPU lines.
 * @alive: called every 100 ms between samples: XL_EXIT_OK to go on, else
 *     the exit status to stop with (it printed why).
 * @sampled: called after every meter sample (reads the command's own
 *     counters): 0 or -errno; NULL: none.
 * @print: one interval's line from the window @w, @t s into the run.
 * @ctx: passed to the callbacks.
 * @row: out, NULL: none: one repetition per complete window of
 *     @duration_ns, then xl_cmd_row_finish(); the caller sets the identity
 *     (name, kind, action, op, mode, wiring, engine, judged) before.
 * @rec: out, NULL: none: every interval's record.
 * @extra_json: NULL, or the text of a JSON object whose members are added
 *     to the --json document's top level (struct xl_report_meta.extra_json:
 *     gen's and txpush's "pacing").
 */
struct xl_cmd_loop {
	struct xl_meter *m;
	const char *ifname;
	uint64_t interval_ns, duration_ns;
	int reps;
	bool quiet, extended;
	int (*alive)(void *ctx);
	int (*sampled)(void *ctx);
	void (*print)(void *ctx, const struct xl_meter_window *w, double t);
	void *ctx;
	struct xl_row_result *row;
	struct xl_cmd_records *rec;
	const char *extra_json;
	/*
	 * Optional: --prometheus FILE: @prom replaced after every interval
	 * with the counters since the start and the interval's rates
	 * (prom_cli.h), labelled with the command @cmd and @ifname.
	 */
	const char *prom, *cmd;
	/*
	 * Optional: the sampler's @poll_ns (0: its 100 ms) and a @wait for the
	 * time between samples instead of xl_sleep_ns()'s 50 ms naps, called
	 * with @ctx (struct xl_sampler.wait). A command whose liveness check
	 * is cheap and rare sets both, so it wakes once per interval.
	 */
	uint64_t poll_ns;
	int (*wait)(void *ctx, uint64_t ns);
	/*
	 * Optional: the "...; Ctrl-C to stop" line, printed on stderr (a
	 * newline added) once the first sample is taken, so that traffic
	 * started on seeing it is in the totals. Printed before that sample,
	 * frames sent between the two were counted by the kernel's check but
	 * not by the run (and a --profile start, which can take 100s of ms,
	 * came in between).
	 */
	const char *start_line;
};

/**
 * xl_cmd_report_loop() - run @l and sum every window into @total (the
 * windows tile the run: first sample to last). Return: XL_EXIT_OK, or the
 * exit status that stopped it (XL_EXIT_RUNTIME when a sample failed);
 * @total->ns is 0 when nothing was measured.
 */
int xl_cmd_report_loop(const struct xl_cmd_loop *l, struct xl_meter_window *total);

/**
 * xl_cmd_row_init() - a single command's summary row with the identity of
 * a lab row (docs/results.md): name @name, or "@name/@suffix" (the lab's
 * "drop/no-touch"), @kind, @action, @op, @mode, @wiring; the generator is
 * not ours ("external", gen_cpu -1) and the DUT's CPU is judged. The
 * strings must outlive the row.
 */
void xl_cmd_row_init(struct xl_row_result *row, const char *name, const char *suffix,
		     const char *kind, const char *action, const char *op, const char *mode,
		     const char *wiring);

/**
 * xl_cmd_row_finish() - a single command's summary row: the frame size (our
 * bytes / packets, rounded; 0 without packets) and the judged CPU from
 * @total, then xl_row_finish() over the repetitions.
 */
void xl_cmd_row_finish(struct xl_row_result *row, const struct xl_meter_window *total);

/**
 * xl_cmd_print_verdict() - the line "verdict: valid (cpuN busy X%, median of
 * N); median M Mpps (min-max), CPU C ns/packet" for a single command's row.
 */
void xl_cmd_print_verdict(const struct xl_row_result *row);

/**
 * xl_cmd_write_json() - write @row and @l's interval records to @path
 * (schema XL_RUN_RESULTS_SCHEMA, docs/results.md), through the output file
 * xl_cmd_out_open() opened for it before the run (opened now if not).
 * Return: XL_EXIT_OK or XL_EXIT_RUNTIME (logged: "cannot write PATH: CAUSE").
 */
int xl_cmd_write_json(const char *path, const char *command, const struct xl_cmd_loop *l,
		      const struct xl_row_result *row);

/**
 * xl_cmd_out_open() - open the output file @path (--json, -o) before the
 * work that fills it: its temporary file is made now (xl_afile_open()), so
 * that a missing or unwritable directory fails at once. Opening a path
 * already open returns that one. The command's output files are
 * remembered until committed or aborted; main.c aborts the rest when the
 * command returns.
 * Return: the file (write to ->f), or NULL after the line "cannot write
 * PATH: CAUSE".
 */
struct xl_afile *xl_cmd_out_open(const char *path);

/** xl_cmd_out_find() - the output file open for @path, or NULL. */
struct xl_afile *xl_cmd_out_find(const char *path);

/**
 * xl_cmd_out_commit() - xl_afile_commit() @a and free it; on failure the
 * line "cannot write PATH: CAUSE" (a full disk: "No space left on
 * device") and the earlier file at PATH is untouched.
 * Return: 0 or the negative errno.
 */
int xl_cmd_out_commit(struct xl_afile *a);

/** xl_cmd_out_abort() - xl_afile_abort() @a and free it (NULL: nothing). */
void xl_cmd_out_abort(struct xl_afile *a);

/**
 * xl_cmd_report_json() - xl_report_json_write() to the output file of
 * @path (the one xl_cmd_out_open() opened before the run, else opened
 * now) and commit it.
 * Return: 0, or a negative errno after the line "cannot write PATH: CAUSE".
 */
int xl_cmd_report_json(const char *path, const struct xl_report_meta *meta,
		       const struct xl_row_result *rows, int n);

/** xl_cmd_outs_abort() - abort every output file not committed (main.c). */
void xl_cmd_outs_abort(void);

struct xl_pkt_spec;
struct xl_link_info;
/**
 * xl_cmd_pkt_macs() - the MACs of the frames a sender builds on @ifname
 * (gen, xsk txpush): source the interface's, destination its veth peer's
 * (another namespace too), else broadcast; each replaced by @src_mac /
 * @dst_mac (the --src-mac/--dst-mac text, NULL: not given).
 * @s: the frame spec whose src_mac/dst_mac are set. @li: out, NULL: not
 * wanted: the interface's facts.
 * Return: 0, -ENODEV (no such interface; nothing printed), or -EINVAL (a
 * MAC that does not parse; one line printed naming @spec's command).
 */
int xl_cmd_pkt_macs(const struct xl_cmd_spec *spec, const char *ifname, const char *src_mac,
		    const char *dst_mac, struct xl_pkt_spec *s, struct xl_link_info *li);

/**
 * xl_cmd_print_check() - the line "check: kernel rx_queue_0[..N]_xdp_packets
 * K (disagreement D%)" of window @w over @queues RX queues; nothing when
 * the kernel's count was not read.
 */
void xl_cmd_print_check(const struct xl_meter_window *w, int queues);

/**
 * xl_cmd_json_finish() - the end of a run with --json: write @row and
 * @l's records to @path (NULL: no --json) and free the records.
 * Return: @ret, or XL_EXIT_RUNTIME when @ret was XL_EXIT_OK and the write
 * failed.
 */
int xl_cmd_json_finish(const char *path, const char *command, const struct xl_cmd_loop *l,
		       const struct xl_row_result *row, int ret);

/**
 * xl_cmd_profiled_finish() - the end of a profiled single-row run (bench,
 * redirect): when a profile was taken (@pr->folded set; 0 samples too, an
 * incomplete one too) its top XL_PROF_TOP
 * lines per CPU go to stdout and @row gets a copy of @pr as its profile
 * part for --json (@pr stays the caller's); then
 * xl_cmd_json_finish(@path, @command, @l, @row, @ret), and @row's parts
 * (its steering too) are freed.
 * Return: as xl_cmd_json_finish().
 */
int xl_cmd_profiled_finish(const char *path, const char *command, const struct xl_cmd_loop *l,
			   struct xl_row_result *row, struct xl_profile *pr, int ret);

/**
 * xl_cmd_git_commit() - the commit this binary was built from, stamped by
 * the Makefile (build/xl_commit.h): 12 hex digits, "-dirty" appended when
 * the tree had uncommitted changes, "unknown" when built outside a git
 * checkout. Not the working directory's: a run from another directory
 * reports the code that ran.
 */
const char *xl_cmd_git_commit(void);

/**
 * xl_cmd_version() - `xdplab --version`'s version: what `git describe
 * --always --dirty --abbrev=12` said when the binary was built (the
 * Makefile, build/xl_commit.h): "TAG-N-gCOMMIT", or the 12-digit commit
 * while the repository has no tag, "-dirty" appended for uncommitted
 * changes; "unknown" when built outside a git checkout.
 */
const char *xl_cmd_version(void);

/**
 * xl_cmd_print_extra() - one stderr line on an --extra-ns calibration:
 * iterations, ns per iteration (median and range), the cost set and the
 * BPF_PROG_RUN check.
 */
void xl_cmd_print_extra(const struct xl_extra_cal *cal);

int cmd_gen(int argc, char **argv);
int cmd_bench(int argc, char **argv); /* drop, pass, tx: argv[0] says which */
int cmd_lab(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_xsk(int argc, char **argv); /* xsk rxdrop|txpush|l2fwd|selftest */
int cmd_xsk_selftest(int argc, char **argv); /* xsk selftest, argv[0] "selftest" */
int cmd_cleanup(int argc, char **argv);
int cmd_redirect(int argc, char **argv); /* redirect, redirect-cpu, redirect-multi */
int cmd_monitor(int argc, char **argv);
int cmd_compare(int argc, char **argv); /* compare BASE.json NEW.json */
int cmd_dump(int argc, char **argv);
int cmd_report(int argc, char **argv);  /* report RUN.json [BASE.json] -o FILE */
int cmd_latency(int argc, char **argv);
int cmd_progrun(int argc, char **argv); /* prog-run */
int cmd_run(int argc, char **argv);     /* run IFACE --prog FILE.o */
int cmd_ab(int argc, char **argv);      /* ab IFACE --a A --b B */
int cmd_store(int argc, char **argv);   /* store list|show|export|import */
int cmd_history(int argc, char **argv); /* history [--row R] */
int cmd_ndr(int argc, char **argv);     /* ndr: zero-loss throughput */
int cmd_bisect_step(int argc, char **argv); /* bisect-step --base-label L -- LAB RUN OPTIONS */

/**
 * xl_cmd_run_xdplab() - run @v (NULL-ended; "/proc/self/exe" first: this
 * xdplab) as a child process of its own and wait for it, its stdout and
 * stderr on our stderr; a stop request (Ctrl-C) is passed on as SIGINT and
 * the child given 30 s to tear its lab down. lab run --aa's runs and
 * bisect-step's. Return: its exit status, 128 + the signal that ended it,
 * or -errno when it cannot be started.
 */
int xl_cmd_run_xdplab(char **v);

struct xl_store;

/**
 * xl_cmd_store_open() - open the store @db for @spec's command (--db; NULL:
 * the default, xl_store_default_path(), its directory made when @create).
 * @create: an SQLite file that does not exist is made (writers), else it
 * is an error (readers). On failure one line "xdplab CMD: DB: cause" and
 * *@exit_status is the command's exit status (XL_EXIT_RUNTIME; no default
 * path: XL_EXIT_USAGE), else XL_EXIT_OK. Return: the store
 * (xl_store_close()), or NULL.
 */
struct xl_store *xl_cmd_store_open(const struct xl_cmd_spec *spec, const char *db, bool create,
				   int *exit_status);

/**
 * xl_cmd_store_text() - store the results document @text (@len bytes)
 * under @label ("" or NULL: none) with @source (a file's path, "lab run")
 * and say so on @say: "SOURCE: stored as run N in DB", or "already
 * stored as run N" for the same bytes stored before. Return: XL_EXIT_OK,
 * XL_EXIT_USAGE (not a results document), XL_EXIT_RUNTIME (the store
 * failed; one line on stderr each).
 */
int xl_cmd_store_text(const struct xl_cmd_spec *spec, struct xl_store *s, const char *text,
		      size_t len, const char *label, const char *source, FILE *say);

/**
 * struct xl_command - one entry of the command table (commands.c).
 * @fn: entry point; argv[0] is the command name. Return: exit status.
 */
struct xl_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};
/** The command table in the order of `xdplab --help`, and its length. */
extern const struct xl_command xl_commands[];
extern const size_t xl_n_commands;

/**
 * xl_cmd_attached_prog_id() - the id of the XDP program attached to
 * @ifindex (current netns) in @mode, 0 for none or when the query fails; a
 * run compares it with its own to notice a detach ('xdplab cleanup IFACE'
 * cuts the link of a live holder), as the counters would read 0 pps forever.
 */
unsigned int xl_cmd_attached_prog_id(int ifindex, enum xl_xdp_mode mode);

/**
 * xl_cmd_keep_off_napi() - move the calling thread off the CPUs @ifname's
 * NAPI kthread @napi_pid may run on (xl_keep_off_napi(); 0 or less: softirq
 * wiring, nothing to do) and say where it went at -v; other threads: move
 * them to *@away (may be NULL). Called once after the attach by the main
 * thread of drop/pass/tx, redirect, run and xsk, before they start other
 * threads, so that their wake-ups do not preempt the work measured. A
 * failure only leaves the thread where it was. Return: true when it moved (then *@away is where).
 */
bool xl_cmd_keep_off_napi(int napi_pid, const char *ifname, cpu_set_t *away);

/**
 * xl_cmd_subcommand() - the subcommand of a command family ("xdplab lab",
 * "xdplab xsk"): argv[1]'s index in @subs (NULL-terminated). Without one,
 * or with --help/-h, @usage goes to stderr (exit XL_EXIT_USAGE) or stdout
 * (XL_EXIT_OK); an unknown one is one line, "xdplab FAMILY: unknown WHAT
 * 'X' (accepted: a, b, c)" (XL_EXIT_USAGE). Return: the index, or -1 with
 * *@exit_status set.
 */
int xl_cmd_subcommand(int argc, char **argv, const char *family, const char *what,
		      const char *const *subs, const char *usage, int *exit_status);

/** Liveness checks once a second (struct xl_cmd_loop.poll_ns) with xl_cmd_wait(). */
#define XL_CMD_POLL_NS 1000000000ull

/**
 * xl_cmd_wait() - a struct xl_cmd_loop.wait: the @ns between samples in one
 * ppoll() on xl_stop_fd (a stop ends it at once: also one that came just
 * before the ppoll, or that another thread took), not xl_sleep_ns()'s 50 ms
 * naps; a plain nanosleep when there is no xl_stop_fd.
 * With a cheap liveness check polled every XL_CMD_POLL_NS the process wakes
 * about once per interval, as xdp-bench's. @ctx unused. Return: 0.
 */
int xl_cmd_wait(void *ctx, uint64_t ns);

/**
 * xl_cmd_xdp_alive() - a report loop's liveness check for a program on
 * @ifindex (@ifname in messages): the interface still exists and, with
 * @prog_id not 0, @prog_id is still what is attached in @mode. Logs one
 * line when not. Return: XL_EXIT_OK, or XL_EXIT_RUNTIME.
 */
int xl_cmd_xdp_alive(int ifindex, const char *ifname, enum xl_xdp_mode mode,
		     unsigned int prog_id);

/**
 * xl_cmd_link_alive() - xl_cmd_xdp_alive() behind the cheap check of the
 * command's own link: @link_err is that check's result (0: attached, as
 * xl_xdp_link_alive() says; -ENOLINK: detached; other: no link of its own,
 * e.g. tc). Only when it is not 0 the netlink check runs, to name what
 * went; a detached link on a device that still has the program's id
 * attached otherwise is said as detached by someone else.
 * Return: XL_EXIT_OK, or XL_EXIT_RUNTIME.
 */
int xl_cmd_link_alive(int link_err, int ifindex, const char *ifname, enum xl_xdp_mode mode,
		      unsigned int prog_id);

/**
 * xl_cmd_cpu_cell() - the interval line's CPU cell into @buf (@len bytes,
 * 64 are enough): "cpuN busy X%  cpu-ns/packet Y", or dashes when the
 * window had no packets or no NAPI CPU.
 */
void xl_cmd_cpu_cell(char *buf, size_t len, const struct xl_meter_window *w);

/**
 * xl_cmd_dut_queues() - how many of @ifindex's RX queues (current netns)
 * the ethtool counts sum: its real RX queues, at most XL_ETHTOOL_MAX_QUEUES
 * (the kernel counts XDP per RX queue); 1 when the link cannot be read.
 */
int xl_cmd_dut_queues(int ifindex);

#endif /* XDPLAB_CMD_H */
