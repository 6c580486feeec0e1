// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab store list|show|export|import: the results store (docs/store.md),
 * and xl_cmd_store_open(), the one --db of every command that reads or
 * writes it (store, history, compare --db, lab run --store).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "run_opts.h"
#include "json_cli.h"
#include "xdplab/compare.h"
#include "xdplab/log.h"
#include "xdplab/store_io.h"

struct xl_store *xl_cmd_store_open(const struct xl_cmd_spec *spec, const char *db, bool create,
				   int *exit_status)
{
	char path[PATH_MAX], err[1024];
	struct xl_store *s;
	int ret;

	*exit_status = XL_EXIT_RUNTIME;
	if (!db) {
		if (xl_store_default_path(path, sizeof(path))) {
			xl_usage_error(spec, "no --db and no default store: set XDG_DATA_HOME or HOME");
			*exit_status = XL_EXIT_USAGE;
			return NULL;
		}
		if (create && xl_store_make_dir(path, err, sizeof(err))) {
			xl_usage_error(spec, "%s", err);
			return NULL;
		}
		db = path;
	}
	ret = xl_store_open(db, create ? XL_STORE_CREATE : 0, &s, err, sizeof(err));
	if (ret) {
		xl_usage_error(spec, "%s", err);
		return NULL;
	}
	*exit_status = XL_EXIT_OK;
	return s;
}

int xl_cmd_store_text(const struct xl_cmd_spec *spec, struct xl_store *s, const char *text,
		      size_t len, const char *label, const char *source, FILE *say)
{
	char err[1024];
	long long id;
	bool dup;
	int ret;

	ret = xl_store_add(s, text, len, label, source, &id, &dup, err, sizeof(err));
	if (ret) {
		xl_usage_error(spec, "%s", err);
		return ret == -EINVAL || ret == -EPROTO || ret == -EFBIG ? XL_EXIT_USAGE :
									   XL_EXIT_RUNTIME;
	}
	if (dup)
		fprintf(say, "%s: already stored as run %lld in %s (not stored again)\n",
			XL_ESC(source), id, XL_ESC(xl_store_name(s)));
	else
		fprintf(say, "%s: stored as run %lld in %s\n", XL_ESC(source), id,
			XL_ESC(xl_store_name(s)));
	return XL_EXIT_OK;
}

/* ---- the subcommands ---- */

struct store_args {
	const char *db, *label, *output;
};

#define OPT_DB { "db", 0, "DB", "the store: an SQLite file, or postgresql://... (default $XDG_DATA_HOME/xdplab/results.db)", XL_STR(struct store_args, db) }

static const struct xl_opt import_opts[] = {
	OPT_DB,
	{ "label", 'l', "LABEL", "the runs' label, e.g. the kernel's 'git describe' (default none)", XL_STR(struct store_args, label) },
};
static const struct xl_opt list_opts[] = {
	OPT_DB,
	{ "label", 'l', "LABEL", "only the runs of this label", XL_STR(struct store_args, label) },
};
static const struct xl_opt show_opts[] = { OPT_DB };
static const struct xl_opt export_opts[] = {
	OPT_DB,
	{ "output", 'o', "FILE", "write the results file here (default: standard output)", XL_STR(struct store_args, output) },
};

#define SPEC(n, args, sum, t) { "store " n, args, sum, t, sizeof(t) / sizeof(t[0]) }
static const struct xl_cmd_spec import_spec = SPEC("import", "FILE...",
	"Store results files (lab run --json, and the single commands' --json; the committed bench/*.json) in the store, each in one transaction. A file stored before (the same bytes) is not stored again. Exit 0: all stored, 1: the store failed, 2: usage or a file that is not a results file (the files before it stay stored).",
	import_opts);
static const struct xl_cmd_spec list_spec = SPEC("list", "",
	"The stored runs by date: id, date, label, xdplab commit, host, kernel, rows, where each came from.",
	list_opts);
static const struct xl_cmd_spec show_spec = SPEC("show", "ID",
	"One stored run: its environment and its rows (median Mpps, DUT CPU ns/packet, verdict).",
	show_opts);
static const struct xl_cmd_spec export_spec = SPEC("export", "ID",
	"Write a stored run back as its results file, byte for byte the file stored (compare and report read it).",
	export_opts);

/* Parse; *@idx: the first positional. Return -1 to go on, else the exit status. */
static int parse(const struct xl_cmd_spec *spec, int argc, char **argv, struct store_args *a,
		 int min, int max, int *idx)
{
	*idx = xl_opts_parse(spec, argc, argv, NULL, a);
	if (*idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (*idx < 0)
		return XL_EXIT_USAGE;
	if (argc - *idx < min || argc - *idx > max) {
		xl_usage_error(spec, "%s expected (got %d arguments)", spec->args[0] ? spec->args : "no argument",
			       argc - *idx);
		return XL_EXIT_USAGE;
	}
	return -1;
}

static int store_import(int argc, char **argv)
{
	struct store_args a = { 0 };
	struct xl_store *s;
	char err[1024], *text;
	int idx, ret, i;
	size_t len;

	ret = parse(&import_spec, argc, argv, &a, 1, INT_MAX, &idx);
	if (ret >= 0)
		return ret;
	s = xl_cmd_store_open(&import_spec, a.db, true, &ret);
	if (!s)
		return ret;
	ret = XL_EXIT_OK;
	for (i = idx; i < argc && ret == XL_EXIT_OK; i++) {
		ret = xl_store_read_file(argv[i], &text, &len, err, sizeof(err));
		if (ret) {
			xl_usage_error(&import_spec, "%s", err);
			ret = ret == -EIO || ret == -ENOMEM ? XL_EXIT_RUNTIME : XL_EXIT_USAGE;
			break;
		}
		ret = xl_cmd_store_text(&import_spec, s, text, len, a.label, argv[i], stdout);
		free(text);
	}
	xl_store_close(s);
	return ret;
}

static int store_list(int argc, char **argv)
{
	struct store_args a = { 0 };
	struct xl_store_run *runs;
	struct xl_store *s;
	char err[1024];
	int idx, ret, n;

	ret = parse(&list_spec, argc, argv, &a, 0, 0, &idx);
	if (ret >= 0)
		return ret;
	s = xl_cmd_store_open(&list_spec, a.db, false, &ret);
	if (!s)
		return ret;
	if (xl_store_list(s, a.label, &runs, &n, err, sizeof(err))) {
		xl_usage_error(&list_spec, "%s", err);
		xl_store_close(s);
		return XL_EXIT_RUNTIME;
	}
	ret = XL_EXIT_OK;
	if (xl_store_write_list(stdout, runs, n, xl_store_name(s)))
		ret = (xl_usage_error(&list_spec, "cannot write standard output"), XL_EXIT_RUNTIME);
	free(runs);
	xl_store_close(s);
	return ret;
}

/* ID as a run id: 0, or the exit status after one line. */
static int run_id(const struct xl_cmd_spec *spec, const char *arg, long long *id)
{
	uint64_t v;

	if (xl_parse_u64(spec, "ID", arg, 1, INT_MAX, &v))
		return XL_EXIT_USAGE;
	*id = (long long)v;
	return 0;
}

/* The stored document of @arg's run: 0, or the exit status (one line printed). */
static int get_doc(const struct xl_cmd_spec *spec, struct xl_store *s, const char *arg,
		   char **text, size_t *len, struct xl_store_run *run)
{
	char err[1024];
	long long id;
	int ret;

	if ((ret = run_id(spec, arg, &id)))
		return ret;
	ret = xl_store_doc(s, id, text, len, run, err, sizeof(err));
	if (ret)
		xl_usage_error(spec, "%s", err);
	return !ret ? 0 : ret == -ENOENT ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
}

static int store_show(int argc, char **argv)
{
	struct store_args a = { 0 };
	struct xl_store_run run;
	struct xl_cmp_file f = { 0 };
	struct xl_store *s;
	char err[1024], name[64];
	int idx, ret;
	long long id;

	ret = parse(&show_spec, argc, argv, &a, 1, 1, &idx);
	if (ret >= 0)
		return ret;
	s = xl_cmd_store_open(&show_spec, a.db, false, &ret);
	if (!s)
		return ret;
	if ((ret = run_id(&show_spec, argv[idx], &id)))
		goto out;
	snprintf(name, sizeof(name), "store run %lld", id);
	ret = xl_store_read_run(s, id, name, &f, &run, err, sizeof(err));
	if (ret == -EBADMSG)
		xl_usage_error(&show_spec, "%s: stored document unreadable", name);
	else if (ret)
		xl_usage_error(&show_spec, "%s", err);
	if (ret)
		ret = ret == -ENOENT ? XL_EXIT_USAGE : XL_EXIT_RUNTIME;
	if (!ret && xl_store_write_run(stdout, &run, &f))
		ret = (xl_usage_error(&show_spec, "cannot write standard output"), XL_EXIT_RUNTIME);
out:
	xl_cmp_file_free(&f);
	xl_store_close(s);
	return ret;
}

static int store_export(int argc, char **argv)
{
	struct store_args a = { 0 };
	struct xl_afile *out;
	struct xl_store *s;
	size_t len;
	char *text;
	int idx, ret;

	ret = parse(&export_spec, argc, argv, &a, 1, 1, &idx);
	if (ret >= 0)
		return ret;
	s = xl_cmd_store_open(&export_spec, a.db, false, &ret);
	if (!s)
		return ret;
	ret = get_doc(&export_spec, s, argv[idx], &text, &len, NULL);
	xl_store_close(s);
	if (ret)
		return ret;
	if (!a.output) {
		ret = fwrite(text, 1, len, stdout) == len && !fflush(stdout) ? XL_EXIT_OK :
									XL_EXIT_RUNTIME;
		if (ret)
			xl_usage_error(&export_spec, "cannot write standard output: %s", strerror(errno));
	} else {
		out = xl_cmd_out_open(a.output);
		ret = XL_EXIT_RUNTIME;
		/* A failed write is kept by the file and reported by the commit. */
		if (out && (fwrite(text, 1, len, out->f), !xl_cmd_out_commit(out)))
			ret = XL_EXIT_OK;
	}
	free(text);
	return ret;
}

int cmd_store(int argc, char **argv)
{
	static const char *const subs[] = { "list", "show", "export", "import", NULL };
	int ret, sub = xl_cmd_subcommand(argc, argv, "store", "subcommand", subs,
		"Usage: xdplab store list|show|export|import [options]\n"
		"  list       the stored runs by date\n"
		"  show       one run: its environment and rows\n"
		"  export     one run back as its results file\n"
		"  import     store results files (lab run --json, bench/*.json)\n"
		"'xdplab store SUB --help' for options; docs/store.md.\n", &ret);

	if (sub == 0)
		return store_list(argc - 1, argv + 1);
	if (sub == 1)
		return store_show(argc - 1, argv + 1);
	if (sub == 2)
		return store_export(argc - 1, argv + 1);
	if (sub == 3)
		return store_import(argc - 1, argv + 1);
	return ret;
}
