// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xdplab lab run --aa N`: N separate runs of the same code, each a whole
 * `lab run` in a process of its own (its own lab, calibration and host
 * state), then the A/A calibration of the N files (xdplab/calib.h):
 * every flag between them is a false alarm. docs/compare.md "A/A
 * calibration".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "sig.h"
#include "lab_cli.h"
#include "xdplab/calib.h"
#include "xdplab/child.h"
#include "xdplab/compare_runs.h"
#include "xdplab/log.h"

/* The child's argv: ours without --aa and --json, with --json @path. */
static char **child_argv(int argc, char **argv, const char *path)
{
	char **v = calloc(argc + 6, sizeof(*v));
	int i, n = 0;

	if (!v)
		return NULL;
	v[n++] = "/proc/self/exe";
	v[n++] = "lab";
	v[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--aa") || !strcmp(argv[i], "--json") ||
		    !strcmp(argv[i], "-j")) {
			i++; /* and its value */
			continue;
		}
		if (!strncmp(argv[i], "--aa=", 5) || !strncmp(argv[i], "--json=", 7) ||
		    !strncmp(argv[i], "-j", 2))
			continue;
		v[n++] = argv[i];
	}
	v[n++] = "--json";
	v[n++] = (char *)path;
	return v;
}

int xl_cmd_run_xdplab(char **v)
{
	struct xl_child_opts o = { .err_fd = STDERR_FILENO, .out_to_err = true };
	struct xl_child c;
	int err = xl_child_spawn_opts(&c, v, &o);

	if (err)
		return err;
	while (!xl_child_exited(&c))
		if (xl_cmd_sleep_ns(100000000ull))
			return xl_child_stop(&c, SIGINT, 30000); /* the child tears its lab down */
	return WIFEXITED(c.status) ? WEXITSTATUS(c.status) : 128 + WTERMSIG(c.status);
}

static void print_calib(const struct xl_calib *c, const char *dir)
{
	int i, pf = 0, pn = 0, sf = 0, sn = 0;
	char rate[2][32];

	printf("A/A calibration: %d separate runs of the same code in %s, alpha %g: every flag is a false alarm\n",
	       c->nruns, XL_ESC(dir), c->alpha);
	printf("one run a side: every pair of runs compared as two files (Mann-Whitney U over the repetitions); ");
	if (c->split_base)
		printf("several runs a side: the balanced splits, %d vs %d, compared by the permutation test over the run labels\n\n",
		       c->split_base, c->split_new);
	else
		printf("several runs a side: needs %d runs or more (balanced splits of at least 3 vs 3)\n\n",
		       XL_CALIB_SPLIT_MIN);
	printf("%-21s %5s %-7s %-9s %14s %7s %14s %7s\n", "benchmark", "size", "mode", "wiring",
	       "pairs flagged", "rate", "splits flagged", "rate");
	for (i = 0; i < c->nrows; i++) {
		const struct xl_calib_row *r = &c->rows[i];

		snprintf(rate[0], sizeof(rate[0]), !r->pairs ? "-" : r->pair_too_few ? "too few" : "%.1f%%",
			 r->pairs ? 100.0 * r->pair_flags / r->pairs : 0);
		snprintf(rate[1], sizeof(rate[1]), !r->splits ? "-" : r->split_too_few ? "too few" : "%.1f%%",
			 r->splits ? 100.0 * r->split_flags / r->splits : 0);
		printf("%-21s %5u %-7s %-9s %8d of %3d %7s %8d of %3d %7s\n", XL_ESC(r->name), r->size,
		       XL_ESC(r->mode), XL_ESC(r->wiring[0] ? r->wiring : "-"), r->pair_flags,
		       r->pairs, rate[0], r->split_flags, r->splits, rate[1]);
		pf += r->pair_flags;
		pn += r->pairs;
		sf += r->split_flags;
		sn += r->splits;
	}
	printf("\none run a side: %d of %d row comparisons flagged (%.1f%%)", pf, pn,
	       pn ? 100.0 * pf / pn : 0);
	if (sn)
		printf("; several runs a side: %d of %d (%.1f%%)", sf, sn, 100.0 * sf / sn);
	printf("\n");
}

int xl_cmd_lab_aa(int argc, char **argv, const struct run_args *a)
{
	struct xl_cmp_file *files;
	struct xl_calib c;
	char path[4096], err[1024];
	struct stat st;
	int i, n = 0, rc, ret = XL_EXIT_RUNTIME;

	if (mkdir(a->json, 0755) && errno != EEXIST) {
		xl_err("--aa: cannot create the directory %s: %s", a->json, strerror(errno));
		return XL_EXIT_RUNTIME;
	}
	if (stat(a->json, &st) || !S_ISDIR(st.st_mode)) {
		xl_err("--aa: %s is not a directory (--json names the runs' directory with --aa)",
		       a->json);
		return XL_EXIT_USAGE;
	}
	files = calloc(a->aa, sizeof(*files));
	if (!files) {
		xl_err("--aa: out of memory");
		return XL_EXIT_RUNTIME;
	}
	for (i = 0; i < a->aa; i++) {
		char **v;

		snprintf(path, sizeof(path), "%s/run-%d.json", a->json, i + 1);
		v = child_argv(argc, argv, path);
		if (!v) {
			xl_err("--aa: out of memory");
			goto out;
		}
		fprintf(stderr, "xdplab: lab run --aa %d: run %d of %d, a lab run of its own -> %s\n",
			a->aa, i + 1, a->aa, XL_ESC(path));
		rc = xl_cmd_run_xdplab(v);
		free(v);
		if (rc < 0) {
			xl_err("--aa: cannot start run %d: %s", i + 1, strerror(-rc));
			goto out;
		}
		if (xl_stop_requested) {
			xl_err("--aa: interrupted in run %d of %d; no calibration", i + 1, a->aa);
			goto out;
		}
		if (rc)
			xl_warn("--aa: run %d exited %d (its file keeps what it measured)", i + 1, rc);
		if (xl_cmp_load(path, &files[n], err, sizeof(err))) {
			xl_err("--aa: run %d: %s", i + 1, err);
			goto out;
		}
		n++;
	}
	rc = xl_cmp_runs_check(files, n, err, sizeof(err));
	if (rc) {
		xl_err("--aa: %s", err);
		goto out;
	}
	if (xl_calib_compute(files, n, XL_CMP_ALPHA_DEFAULT, &c)) {
		xl_err("--aa: out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/calibration.json", a->json);
	rc = xl_calib_save(&c, path);
	if (rc) {
		xl_err("--aa: cannot write %s: %s", path, strerror(-rc));
	} else {
		print_calib(&c, a->json);
		printf("written: %s (compare --calibration %s, or a directory of runs holding it)\n",
		       XL_ESC(path), XL_ESC(path));
		ret = XL_EXIT_OK;
	}
	xl_calib_free(&c);
out:
	for (i = 0; i < n; i++)
		xl_cmp_file_free(&files[i]);
	free(files);
	return ret;
}
