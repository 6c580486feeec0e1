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

#endif /* XDPLAB_RUN_OPTS_H */
