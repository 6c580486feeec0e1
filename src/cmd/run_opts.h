/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the options shared by the commands that run and
 * report (--interval, --duration, --extended, --netns, --quiet, --reps,
 * --json, --prometheus, --profile, --profile-dir) and by the XDP benchmarks
 * (--packet-operation, --mode, --frags), and by the commands that load a
 * user's BPF object (--sec, --func, --map), each written once, in
 * xl_run_opt_table[]: name, letter, metavar, help, type and range. A
 * command's table takes an entry with XL_LIKE(xl_run_opt_table[XL_RUN_*],
 * its args struct, its field), overriding the letter or help where a peer
 * tool's spelling or the command's meaning asks (xsk's -Q for --quiet).
 */
#ifndef XDPLAB_RUN_OPTS_H
#define XDPLAB_RUN_OPTS_H

#include <stdint.h>

#include "opts.h"

/** Index of an entry in xl_run_opt_table[]. */
enum xl_run_opt {
	XL_RUN_INTERVAL,    /**< uint64_t ns, 0.1..60 s */
	XL_RUN_DURATION,    /**< uint64_t ns, 0..one year; 0: no limit */
	XL_RUN_EXTENDED,    /**< bool; the help is the command's */
	XL_RUN_NETNS,       /**< const char *: a name in /run/netns */
	XL_RUN_QUIET,       /**< bool, -q */
	XL_RUN_PACKET_OP,   /**< enum xl_pkt_op; help's default from the command's defaults */
	XL_RUN_MODE,        /**< enum xl_xdp_mode (drv: native); also --xdp-mode */
	XL_RUN_FRAGS,       /**< bool */
	XL_RUN_REPS,        /**< int, 1..XL_MAX_REPS */
	XL_RUN_JSON,        /**< const char *: the results file */
	XL_RUN_PROMETHEUS,  /**< const char *: the Prometheus textfile (prom_cli.h) */
	XL_RUN_PROFILE,     /**< bool: struct xl_cmd_prof.on */
	XL_RUN_PROFILE_DIR, /**< const char *: struct xl_cmd_prof.dir (implies --profile) */
	XL_RUN_SEC,         /**< const char *: struct xl_userprog_opts.sec */
	XL_RUN_FUNC,        /**< const char *: struct xl_userprog_opts.func */
	XL_RUN_MAP,         /**< code, id XL_OPT_MAP: xl_cmd_userprog_opt() (repeatable) */
	XL_RUN_N,
};

/** The shared entries, indexed by enum xl_run_opt (their @off/@size are the command's). */
extern const struct xl_opt xl_run_opt_table[XL_RUN_N];

/** XL_RUN() - shared option @k into member @f of the args struct @T; overrides after. */
#define XL_RUN(k, T, f, ...) XL_LIKE(xl_run_opt_table[XL_RUN_##k], T, f, __VA_ARGS__)

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
 * xl_cmd_subcommand() - the subcommand of a command family ("xdplab lab",
 * "xdplab xsk"): argv[1]'s index in @subs (NULL-terminated). Without one,
 * or with --help/-h, @usage goes to stderr (exit XL_EXIT_USAGE) or stdout
 * (XL_EXIT_OK); an unknown one is one line, "xdplab FAMILY: unknown WHAT
 * 'X' (accepted: a, b, c)" (XL_EXIT_USAGE). -v/-vv/--verbose between the
 * family and its subcommand ("xdplab lab -v setup") are moved after the
 * subcommand's name in @argv (the words reordered in place), where its
 * option parser counts them as it counts "lab setup -v"; other words there
 * are the unknown subcommand. Return: the index, or -1 with *@exit_status
 * set.
 */
/**
 * xl_cmd_verbose_word() - the levels of verbosity word @w asks for: -v,
 * -vv, -vvv (one a letter) or --verbose (one); 0 when it is none of them
 * (-vx, -x). The one reading of the global -v (main()) and of -v between a
 * family and its subcommand (xl_cmd_subcommand()).
 */
int xl_cmd_verbose_word(const char *w);

int xl_cmd_subcommand(int argc, char **argv, const char *family, const char *what,
		      const char *const *subs, const char *usage, int *exit_status);

#endif /* XDPLAB_RUN_OPTS_H */
