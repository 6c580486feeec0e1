// SPDX-License-Identifier: BSD-2-Clause
/*
 * The output files of a command (--json FILE, report -o FILE): opened
 * before the work, so that a bad path fails first, written whole or not at
 * all (xdplab/atomicfile.h), and the temporaries of the ones not committed
 * removed when the command returns (main.c: a usage error, a failed run).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "xdplab/log.h"

/* A command writes at most 3 (ab: FILE, FILE.a.json, FILE.b.json). */
#define XL_CMD_OUTS 8

static struct xl_afile *outs[XL_CMD_OUTS];

struct xl_afile *xl_cmd_out_open(const char *path)
{
	struct xl_afile *a;
	int i, err;

	if ((a = xl_cmd_out_find(path)))
		return a;
	for (i = 0; i < XL_CMD_OUTS && outs[i]; i++)
		;
	a = i < XL_CMD_OUTS ? malloc(sizeof(*a)) : NULL;
	if (!a) {
		xl_err("cannot write %s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	err = xl_afile_open_user(a, path, 0644);
	if (err) {
		xl_err("cannot write %s: %s", path, strerror(-err));
		free(a);
		return NULL;
	}
	outs[i] = a;
	return a;
}

struct xl_afile *xl_cmd_out_find(const char *path)
{
	int i;

	for (i = 0; i < XL_CMD_OUTS; i++)
		if (outs[i] && !strcmp(outs[i]->path, path))
			return outs[i];
	return NULL;
}

/* Forget @a (it is closed) and free it. */
static void out_drop(struct xl_afile *a)
{
	int i;

	for (i = 0; i < XL_CMD_OUTS; i++)
		if (outs[i] == a)
			outs[i] = NULL;
	free(a);
}

int xl_cmd_out_commit(struct xl_afile *a)
{
	int err = xl_afile_commit(a);

	if (err)
		xl_err("cannot write %s: %s", a->path, strerror(-err));
	out_drop(a);
	return err;
}

void xl_cmd_out_abort(struct xl_afile *a)
{
	if (!a)
		return;
	xl_afile_abort(a);
	out_drop(a);
}

void xl_cmd_outs_abort(void)
{
	int i;

	for (i = 0; i < XL_CMD_OUTS; i++)
		xl_cmd_out_abort(outs[i]);
}

int xl_cmd_report_json(const char *path, const struct xl_report_meta *meta,
		       const struct xl_row_result *rows, int n)
{
	struct xl_afile *out = xl_cmd_out_open(path);
	int err;

	if (!out)
		return -EIO;
	err = xl_report_json_write(out->f, meta, rows, n);
	if (err && !out->err) { /* not a write's error: the document's */
		xl_err("cannot write %s: %s", path, strerror(-err));
		xl_cmd_out_abort(out);
		return err;
	}
	return xl_cmd_out_commit(out);
}
