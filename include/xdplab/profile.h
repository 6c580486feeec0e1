/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file profile.h
 * Where the time goes: perf samples of the judged CPUs during a measured
 * window, folded into stacks (the stackcollapse format of Brendan Gregg's
 * FlameGraph tools: `frame;frame;frame count`, root first), an SVG flame
 * graph drawn by xdplab, and the top symbols by self share (the view of
 * `perf report --no-children --sort comm,dso,sym`). docs/profile.md.
 */
#ifndef XDPLAB_PROFILE_H
#define XDPLAB_PROFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Most CPUs one profile labels; most top symbols kept per CPU. */
#define XL_PROF_MAX_CPUS 4
#define XL_PROF_TOP 12

/**
 * struct xl_prof_cpu - a CPU to record and what it does in the row.
 * @cpu: CPU number. @role: "dut", "gen", "xsk-app", "dut+gen"... The root
 * frame of its stacks is "cpuN <role>" (xl_prof_cpu_label()).
 */
struct xl_prof_cpu {
	int cpu;
	char role[24];
};

/** xl_prof_cpu_label() - "cpuN role" into @buf (@len bytes); returns @buf. */
char *xl_prof_cpu_label(const struct xl_prof_cpu *c, char *buf, size_t len);

/**
 * struct xl_top_sym - one line of the top-symbols table.
 * @share: self samples / all samples of @label's CPU, 0..1.
 * @samples: self samples. @label: "cpuN role". @comm: task. @dso: object
 * ("[kernel.kallsyms]", a BPF program's own name, a library path).
 * @sym: symbol ("[unknown]" when perf could not name it).
 */
struct xl_top_sym {
	double share;
	uint64_t samples;
	char label[32], comm[32], dso[96], sym[128];
};

/** struct xl_folded - a multiset of stacks with sample counts (opaque). */
struct xl_folded;

/** xl_folded__new() - an empty set. Return: NULL with errno ENOMEM. */
struct xl_folded *xl_folded__new(void);

/** xl_folded__free() - free @f (NULL is fine). */
void xl_folded__free(struct xl_folded *f);

/**
 * xl_folded__add() - add @count samples of @stack ("root;...;leaf"); the
 * leaf's self count goes to (@label, @comm, @dso, leaf) in the top table
 * when @label is not NULL. Return: 0 or -ENOMEM, -EINVAL (empty stack).
 */
int xl_folded__add(struct xl_folded *f, const char *stack, uint64_t count,
		   const char *label, const char *comm, const char *dso);

/**
 * struct xl_perf_script_stats - what xl_folded__parse_perf_script() read.
 * @lines: lines read. @unparsed: lines that were neither a sample's header
 * nor one of its frames (skipped; one inside a kept sample is the frame
 * "[unparsed]", so its stack keeps its depth). @first_unparsed: the line
 * number (from 1) of the first of them, 0 when none.
 */
struct xl_perf_script_stats {
	unsigned long lines, unparsed, first_unparsed;
};

/**
 * xl_folded__parse_perf_script() - fold the text of
 * `perf script -F comm,tid,cpu,period,ip,sym,dso` (a header line
 * "comm tid [cpu] period" per sample, then one "ip sym (dso)" line per
 * frame, leaf first, a blank line after) from @in. The header is read from
 * the right, so a comm may hold spaces and brackets or begin with a space;
 * the dso is the parenthesis that balances the line's last one (a path
 * may hold spaces and parentheses); a "+0x..." offset after a symbol is
 * cut, so a function is one frame. Samples on CPUs not in @cpus[0..@n)
 * are skipped; @n == 0 keeps every CPU with role "". The stack is
 * "cpuN role;comm;outermost;...;leaf"; one sample counts 1. Lines of
 * neither shape are skipped and counted in *@st (may be NULL).
 * Return: 0 or -ENOMEM.
 */
int xl_folded__parse_perf_script(struct xl_folded *f, FILE *in, const struct xl_prof_cpu *cpus,
				 int n, struct xl_perf_script_stats *st);

/**
 * xl_folded__read() - add the folded stacks of @in, the text
 * xl_folded__write() writes ("root;...;leaf COUNT" per line, COUNT in
 * decimal; blank lines skipped). The top table is not filled (the text
 * has no dso). Return: 0, -EBADMSG (a line without a count, an empty
 * stack, a NUL, or counts whose total passes 2^63; *@bad_line is set when
 * not NULL), -ENOMEM.
 */
int xl_folded__read(struct xl_folded *f, FILE *in, unsigned long *bad_line);

/**
 * xl_folded__finish() - sort the stacks (byte order, as stackcollapse
 * does) and merge equal ones; called by the readers below, cheap when
 * nothing was added since.
 */
void xl_folded__finish(struct xl_folded *f);

/** xl_folded__samples() - all samples, or those whose root frame is @label (NULL: all). */
uint64_t xl_folded__samples(struct xl_folded *f, const char *label);

/** xl_folded__nstacks() - distinct stacks after merging. */
size_t xl_folded__nstacks(struct xl_folded *f);

/** xl_folded__stack() - the @i-th stack in order and its count in *@count. */
const char *xl_folded__stack(struct xl_folded *f, size_t i, uint64_t *count);

/** xl_folded__write() - the folded text to @out. Return: 0 or -EIO. */
int xl_folded__write(struct xl_folded *f, FILE *out);

/**
 * xl_folded__top() - up to @max symbols of @label's CPU by self samples,
 * most first (ties by name), into @out. Return: how many.
 */
int xl_folded__top(struct xl_folded *f, const char *label, struct xl_top_sym *out, int max);

/**
 * struct xl_flame_rect - one frame of a flame graph layout.
 * @x/@w: start and width in px; @depth: 0 for the root frames; @samples:
 * inclusive samples; @name: the frame (points into the layout).
 */
struct xl_flame_rect {
	double x, w;
	int depth;
	uint64_t samples;
	const char *name;
};

/**
 * struct xl_flame - a flame graph's frames (xl_flame_layout()), owning the
 * names; free with xl_flame_free(). @rects/@n: the frames, parents after
 * their children; @total: samples; @width: px; @depth: levels.
 */
struct xl_flame {
	struct xl_flame_rect *rects;
	size_t n;
	uint64_t total;
	double width;
	int depth;
};

/**
 * xl_flame_layout() - lay @f's stacks out on @width px: a frame is as wide
 * as its share of all samples, children left to right in stack order
 * within their parent (Brendan Gregg's flame graph; "The Flame Graph",
 * CACM 59(6), 2016). Return: 0 or -ENOMEM.
 */
int xl_flame_layout(struct xl_folded *f, double width, struct xl_flame *out);

/** xl_flame_free() - free what xl_flame_layout() allocated. */
void xl_flame_free(struct xl_flame *fl);

/**
 * xl_flame_svg() - write @f as a standalone SVG flame graph (@title on
 * top) to @out: hovering a frame shows its name, samples and share,
 * clicking zooms into it (an inline script; no network), frames narrower
 * than 0.5 px are left out, and the graph is as deep as the stacks of
 * 0.25% of the samples (deeper frames are cut, and the title says so). @width in px. Return: 0, -ENOMEM or -EIO.
 */
int xl_flame_svg(struct xl_folded *f, FILE *out, const char *title, double width);

/**
 * struct xl_profile - the profile of one row or run.
 * @folded/@svg: the files written. @samples: samples kept. @event: perf's
 * event ("cycles" or "cpu-clock"). @extra: set by the caller when the
 * recording was an extra repetition, not one of those behind the figures.
 * @cpus/@ncpus: what was recorded. @top/@ntop: the top symbols of each
 * CPU in turn (XL_PROF_TOP at most per CPU).
 * @have_window/@pps/@cpu_ns_per_pkt: the rate (frames/s) and judged CPU
 * ns/packet of the recorded window, set by the caller when it measured
 * them: against the unrecorded repetitions, what perf itself costs.
 * @incomplete: "" when perf recorded the whole window and perf script
 * read it all, else why not ("perf record killed by signal 9", "perf
 * script exited 1"): the samples are those perf wrote before.
 * @unparsed: lines of perf script's output that were not understood
 * (skipped, struct xl_perf_script_stats).
 */
struct xl_profile {
	char folded[PATH_MAX], svg[PATH_MAX];
	char incomplete[96];
	unsigned long unparsed;
	uint64_t samples;
	char event[16];
	bool extra, have_window;
	double pps, cpu_ns_per_pkt;
	struct xl_prof_cpu cpus[XL_PROF_MAX_CPUS];
	int ncpus;
	struct xl_top_sym top[XL_PROF_MAX_CPUS * XL_PROF_TOP];
	int ntop;
};

/** struct xl_profiler - a perf session (opaque); one recording at a time. */
struct xl_profiler;

/**
 * xl_profiler__open() - check that profiling can work and prepare it:
 * perf is installed and may record CPU-wide (perf_event_paranoid, or
 * CAP_PERFMON/CAP_SYS_ADMIN), kernel symbols are visible (kptr_restrict),
 * @dir exists or is made (0755); sets net.core.bpf_jit_kallsyms to 1 so
 * JIT-ed programs are named bpf_prog_<tag>_<name> (restored by
 * xl_profiler__close()). @perf: the perf binary (NULL: "perf" on PATH).
 * perf's files (perf.data, its log) go to a directory of the session,
 * xl_tmpdir()/xdplab-perf.PID.XXXXXX (tmpdir.h), removed by
 * xl_profiler__close(); perf is run from argv vectors (child.c), so @dir
 * is never seen by a shell.
 * Return: the session, or NULL with errno set and a one-line message that
 * names the fix in @why (@len bytes).
 */
struct xl_profiler *xl_profiler__open(const char *dir, const char *perf, char *why, size_t len);

/**
 * xl_profiler__close() - stop a recording still running (its process is
 * killed and reaped), restore bpf_jit_kallsyms, free @p (NULL is fine).
 */
void xl_profiler__close(struct xl_profiler *p);

/**
 * xl_profiler__start() - start `perf record -e EVENT -g` on @cpus (EVENT:
 * cycles where a hardware cycle counter opens, else cpu-clock; the
 * events enabled through perf's control pipe only once perf acknowledged,
 * so the samples cover the window from here to xl_profiler__stop()).
 * perf ends by itself if the calling thread dies (PR_SET_PDEATHSIG), so
 * call it from a thread that outlives the recording.
 * @name: file stem under the session's directory ("drop-no-touch-64").
 * Return: 0 or -errno (logged).
 */
int xl_profiler__start(struct xl_profiler *p, const struct xl_prof_cpu *cpus, int n,
		       const char *name);

/**
 * xl_profiler__set_role() - name the role of @cpu in the running recording
 * (a command that learns which CPU was the DUT's only from its counters).
 * Return: 0, or -ENOENT when @cpu is not recorded.
 */
int xl_profiler__set_role(struct xl_profiler *p, int cpu, const char *role);

/**
 * xl_profiler__stop() - disable the events, end perf, fold `perf script`
 * into DIR/NAME.folded, draw DIR/NAME.svg (each written by a temporary
 * name renamed into place: atomicfile.h), and fill @out with the paths
 * and the top symbols. The perf.data file is removed; what perf wrote on
 * stderr, if anything, is kept as DIR/NAME.perf.log. A perf record that
 * ended other than by our SIGINT (it died during the window, or failed
 * writing its file) or a perf script that did not exit 0 still gives the
 * profile of what was read, with @out->incomplete saying why (logged as a
 * warning, as are lines not parsed). Return: 0 or -errno (logged).
 */
int xl_profiler__stop(struct xl_profiler *p, struct xl_profile *out);

/**
 * xl_profile_print() - @pr's summary on @out (src/lib/profile/summary.c):
 * its samples, folded stacks and flame graph files, its event when not
 * cpu-clock, why it is incomplete, the perf script lines not parsed, and
 * the top-symbols table of each CPU (share, command, DSO, symbol; at most
 * @max lines per CPU); each line prefixed by @indent. Names (commands,
 * DSOs, symbols, paths) are escaped for a terminal.
 */
void xl_profile_print(FILE *out, const struct xl_profile *pr, const char *indent, int max);

#endif /* XDPLAB_PROFILE_H */
