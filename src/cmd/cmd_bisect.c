// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab bisect-step: one step of `git bisect run` (docs/ci.md "Which
 * commit? git bisect"). It runs `lab run` with the options after "--" (the
 * chosen rows: --rows, --prog FILE.o...) --runs times, each in a process
 * of its own, and compares the rows with the stored runs of a baseline
 * label through compare's library: one run a side over the repetitions
 * (Mann-Whitney U), several runs a side by the permutation test over the
 * runs. Its exit status is git bisect's: 0 good, 1 bad (a row regressed),
 * 125 skip (this commit cannot be tested: its lab run failed, a row was
 * not measured, too few repetitions to tell), and 128 to stop the bisect
 * (what no commit can change: a usage error, the store, the baseline; 2,
 * the usual usage status, would mark the commit bad).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "sig.h"
#include "run_opts.h"
#include "compare_cli.h"
#include "xdplab/compare_runs.h"
#include "xdplab/log.h"
#include "xdplab/store.h"
#include "xdplab/tmpdir.h"

/* git bisect run's statuses (git-bisect(1)): >= 128 stops the bisect. */
enum { BISECT_GOOD = 0, BISECT_BAD = 1, BISECT_SKIP = 125, BISECT_ABORT = 128 };

struct bisect_args {
	const char *db, *label, *rows;
	unsigned int runs;
	struct xl_cmp_opts o;
};

static const struct xl_opt bisect_opts[] = {
	{ "db", 0, "DB", "the store of the baseline: an SQLite file, or postgresql://... (default $XDG_DATA_HOME/xdplab/results.db)", XL_STR(struct bisect_args, db) },
	{ "base-label", 'b', "LABEL", "the baseline: the stored runs of this label (lab run --store --label LABEL at a good commit; required)", XL_STR(struct bisect_args, label) },
	{ "row", 'r', "LIST", "the rows that decide, names comma-separated (prog/xdp_work,drop/no-touch; default every row both sides have)", XL_STR(struct bisect_args, rows) },
	{ "runs", 'n', "N", "lab runs of this commit, {range} (default {default}): with several stored runs, several runs a side", XL_UINT(struct bisect_args, runs, 1, XL_CMP_MAX_RUNS) },
	{ "alpha", 'a', "P", "significance level of compare's test, {range} (default {default})", XL_REAL(struct bisect_args, o.alpha, 0.0001, 0.5) },
	{ "threshold-ns", 't', "NS", "a regression must also exceed this many ns/packet, {range} (default {default}): above the host's drift between runs", XL_REAL(struct bisect_args, o.threshold_ns, 0, 1e6) },
};

static const struct bisect_args bisect_defaults = {
	.runs = 1,
	.o = { .alpha = XL_CMP_ALPHA_DEFAULT },
};

static const struct xl_cmd_spec bisect_spec = {
	"bisect-step", "-- LAB-RUN-OPTIONS...",
	"A step command for git bisect run: lab run with the options after -- (the chosen rows: --rows, --prog FILE.o...), --runs times, compared with the stored runs of --base-label by compare's method (one run a side over the repetitions, several runs a side over the runs). Exit 0: good (no row regressed), 1: bad (a row regressed), 125: skip (this commit cannot be tested: a lab run failed, a row not measured, too few repetitions or runs to tell), 128: stop the bisect (usage, the store, the baseline: what no commit changes).",
	bisect_opts, sizeof(bisect_opts) / sizeof(bisect_opts[0]),
	&bisect_defaults, sizeof(bisect_defaults),
};

/* lab run's options the step sets itself, or that make no run to compare. */
static const char *const not_passed[] = { "--json", "-j", "--store", "--db", "--label", "--aa", NULL };

/* The @n options after "--", @args: lab run's, checked. Return: 0, -EINVAL (one line printed). */
static int check_lab_args(int n, char **args)
{
	int i, k;

	if (!n)
		return xl_usage_error(&bisect_spec, "lab run's options expected after -- (the rows to run: --rows LIST, --prog FILE.o...)");
	for (i = 0; i < n; i++)
		for (k = 0; not_passed[k]; k++) {
			size_t len = strlen(not_passed[k]);

			if (!strncmp(args[i], not_passed[k], len) &&
			    (!args[i][len] || args[i][len] == '=' || (len == 2 && args[i][1] == 'j')))
				return xl_usage_error(&bisect_spec, "%s is not for lab run here: the step writes the runs itself and compares them (store a baseline with lab run --store --label LABEL)",
						      args[i]);
		}
	return 0;
}

/*
 * Run lab run @runs times with @args (@n of them) into @dir/run-I.json and
 * read each into @f[*@nf...]. Return: BISECT_GOOD when all ran, else the
 * step's status (one line printed).
 */
static int lab_runs(const struct bisect_args *a, int n, char **args, const char *dir,
		    struct xl_cmp_file *f, int *nf)
{
	char **v = calloc(n + 6, sizeof(*v)), path[4200], err[1024];
	unsigned int i;
	int rc;

	if (!v) {
		xl_err("bisect-step: out of memory");
		return BISECT_ABORT;
	}
	v[0] = "/proc/self/exe", v[1] = "lab", v[2] = "run";
	memcpy(v + 3, args, n * sizeof(*v));
	v[n + 3] = "--json";
	v[n + 4] = path;
	for (i = 0; i < a->runs; i++) {
		snprintf(path, sizeof(path), "%s/run-%u.json", dir, i + 1);
		fprintf(stderr, "xdplab bisect-step: lab run %u of %u\n", i + 1, a->runs);
		rc = xl_cmd_run_xdplab(v);
		if (xl_stop_requested) {
			xl_err("bisect-step: interrupted in lab run %u of %u: the bisect stops", i + 1,
			       a->runs);
			rc = BISECT_ABORT;
			goto out;
		}
		if (rc < 0) {
			xl_err("bisect-step: cannot start lab run: %s", strerror(-rc));
			rc = BISECT_ABORT;
			goto out;
		}
		if (rc) {
			printf("bisect-step: skip (exit %d): lab run %u of %u exited %d: this commit cannot be tested\n",
			       BISECT_SKIP, i + 1, a->runs, rc);
			rc = BISECT_SKIP;
			goto out;
		}
		if (xl_cmp_load(path, &f[*nf], err, sizeof(err))) {
			printf("bisect-step: skip (exit %d): %s\n", BISECT_SKIP, XL_ESC(err));
			rc = BISECT_SKIP;
			goto out;
		}
		(*nf)++;
	}
	rc = BISECT_GOOD;
out:
	free(v);
	return rc;
}

/*
 * Compare @f[0..@nb) (the baseline) with the @nn runs after them; print
 * each row's outcome and the step's verdict. Return: the step's status.
 */
static int decide(const struct bisect_args *a, struct xl_cmp_file *f, int nb, int nn)
{
	struct xl_cmp_result res = { 0 };
	struct xl_cmp_mresult mres = { 0 };
	struct xl_cmp_tally t;
	char err[1024];
	int ret = BISECT_ABORT;
	bool two = nb == 1 && nn == 1;

	if (!two && xl_cmp_runs_check(f, nb + nn, err, sizeof(err))) {
		printf("bisect-step: skip (exit %d): %s\n", BISECT_SKIP, XL_ESC(err));
		return BISECT_SKIP;
	}
	if (two ? xl_cmp_run(&f[0], &f[1], &a->o, &res) : xl_cmp_runs(f, nb, nn, &a->o, &mres)) {
		xl_err("bisect-step: out of memory");
		return BISECT_ABORT;
	}
	xl_cmp_write_cases(stdout, two ? &res : NULL, &mres, a->o.alpha, &t);
	if (!(two ? res.paired : mres.paired)) {
		printf("bisect-step: skip (exit %d): no row of this commit's runs is in the baseline's\n",
		       BISECT_SKIP);
		ret = BISECT_SKIP;
	} else if (t.fail) {
		printf("bisect-step: bad (exit %d): %d row(s) regressed (the first: %s)\n", BISECT_BAD,
		       t.fail, XL_ESC(t.first_fail));
		ret = BISECT_BAD;
	} else if (t.skip) {
		printf("bisect-step: skip (exit %d): no regression, but %d row(s) could not be judged\n",
		       BISECT_SKIP, t.skip);
		ret = BISECT_SKIP;
	} else {
		printf("bisect-step: good (exit %d): %d row(s) compared, none regressed\n",
		       BISECT_GOOD, t.pass);
		ret = BISECT_GOOD;
	}
	xl_cmp_result_free(&res);
	xl_cmp_mresult_free(&mres);
	return ret;
}

/* The stored baseline into @f; *@nb runs. Return: 0 or BISECT_ABORT (one line printed). */
static int load_base(const struct bisect_args *a, struct xl_cmp_file *f, int *nb)
{
	int ret, i;
	struct xl_store *st = xl_cmd_store_open(&bisect_spec, a->db, false, &ret);

	if (!st)
		return BISECT_ABORT;
	ret = xl_cmp_load_label(&bisect_spec, st, a->label, "--base-label", f, nb);
	xl_store_close(st);
	if (ret)
		return BISECT_ABORT;
	for (i = 0; a->rows && i < *nb; i++)
		if (!xl_cmp_file_keep(&f[i], a->rows)) {
			xl_usage_error(&bisect_spec, "--row: no row named %s in %s", a->rows, f[i].path);
			return BISECT_ABORT;
		}
	return 0;
}

/* Whether @nb stored runs against @a->runs can ever reach p < alpha. */
static int check_design(const struct bisect_args *a, int nb)
{
	size_t need = xl_perm_n_needed(a->o.alpha);

	if ((nb == 1 && a->runs == 1) || xl_perm_min_p(nb, a->runs) < a->o.alpha)
		return 0;
	xl_usage_error(&bisect_spec, "%d stored run(s) of label %s against --runs %u can never reach p < %g (several runs a side: the smallest p is %.3f); store %zu runs of the baseline and give --runs %zu, or one run against --runs 1",
		       nb, a->label, a->runs, a->o.alpha, xl_perm_min_p(nb, a->runs), need, need);
	return BISECT_ABORT;
}

int cmd_bisect_step(int argc, char **argv)
{
	struct bisect_args a;
	struct xl_cmp_file *f = NULL;
	char dir[4096], path[4200];
	int dash, idx, nb = 0, nf, i, ret = BISECT_ABORT;

	dash = xl_cmd_find_dash(argc, argv);
	idx = xl_opts_parse(&bisect_spec, dash < 0 ? argc : dash, argv, NULL, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return BISECT_ABORT;
	if (idx < (dash < 0 ? argc : dash)) {
		xl_usage_error(&bisect_spec, "unexpected '%s': lab run's options go after -- (bisect-step [options] -- LAB-RUN-OPTIONS...)",
			       argv[idx]);
		return BISECT_ABORT;
	}
	if (!a.label) {
		xl_usage_error(&bisect_spec, "--base-label is required (the stored runs of a good commit: lab run --store --label LABEL)");
		return BISECT_ABORT;
	}
	if (a.rows && (!a.rows[0] || strstr(a.rows, ",,") || a.rows[0] == ',' ||
		       a.rows[strlen(a.rows) - 1] == ',')) {
		xl_usage_error(&bisect_spec, "--row: '%s' has an empty item (accepted: a comma-separated list of row names)",
			       a.rows);
		return BISECT_ABORT;
	}
	if (dash < 0 ? check_lab_args(0, NULL) : check_lab_args(argc - dash - 1, argv + dash + 1))
		return BISECT_ABORT;
	f = calloc(2 * XL_CMP_MAX_RUNS, sizeof(*f));
	if (!f) {
		xl_err("bisect-step: out of memory");
		return BISECT_ABORT;
	}
	if (load_base(&a, f, &nb) || check_design(&a, nb))
		goto out;
	i = xl_run_mkdtemp(dir, sizeof(dir), "xdplab-bisect");
	if (i) {
		xl_err("bisect-step: cannot make a directory under %s: %s", xl_tmpdir(), strerror(-i));
		goto out;
	}
	nf = nb;
	ret = lab_runs(&a, argc - dash - 1, argv + dash + 1, dir, f, &nf);
	for (i = 0; i < (int)a.runs; i++) {
		snprintf(path, sizeof(path), "%s/run-%d.json", dir, i + 1);
		unlink(path);
	}
	rmdir(dir);
	if (ret)
		goto out;
	for (i = nb; a.rows && i < nf; i++)
		if (!xl_cmp_file_keep(&f[i], a.rows)) {
			printf("bisect-step: skip (exit %d): no row named %s in this commit's run %d\n",
			       BISECT_SKIP, XL_ESC(a.rows), i - nb + 1);
			ret = BISECT_SKIP;
			goto out;
		}
	printf("bisect-step: %d stored run(s) of label %s against %u run(s) of this commit\n", nb,
	       XL_ESC(a.label), a.runs);
	ret = decide(&a, f, nb, nf - nb);
out:
	for (i = 0; i < 2 * XL_CMP_MAX_RUNS; i++)
		xl_cmp_file_free(&f[i]);
	free(f);
	return ret;
}
