/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to src/cmd: the subcommands' entry points, the command table and
 * the store helpers. Each command returns an exit status: XL_EXIT_OK,
 * XL_EXIT_RUNTIME or XL_EXIT_USAGE. What they share is in a header per
 * concern: sig.h (stop requests), opts.h and run_opts.h (options),
 * report_cli.h (the report loop), json_cli.h (output files), pkt_cli.h
 * (a sender's MACs), dut_cli.h (the single-DUT set-up); the NAPI pinning,
 * the attached program's id and the link's MACs and queues are the
 * library's (xdplab/sysstat.h, attach.h, netlink.h).
 */
#ifndef XDPLAB_CMD_H
#define XDPLAB_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "opts.h"

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

#endif /* XDPLAB_CMD_H */
