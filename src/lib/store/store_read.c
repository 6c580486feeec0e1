// SPDX-License-Identifier: BSD-2-Clause
/*
 * The results store's reading statements (xdplab/store.h): the runs of a
 * label, one run's results document, and history's series of a row over
 * the stored runs, each with its parameters only, run by the backend of
 * store_priv.h. The schema and the writing statements are store.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/store.h"

#include "store_priv.h"

/* ---- reading ---- */

#define RUN_COLS                                                                           \
	"r.id, r.date, r.stored_at, r.label, r.git, r.host, r.kernel, r.schema_name, r.source," \
	" (SELECT COUNT(*) FROM run_rows w WHERE w.run_id = r.id)"
#define NRUN_COLS 10

/* A failed query's one line into @err: "STORE: why" (ENOMEM said as such). */
static void exec_err(struct xl_store *s, int ret, char *err, size_t errlen)
{
	if (ret == -ENOMEM)
		snprintf(s->err, sizeof(s->err), "out of memory");
	snprintf(err, errlen, "%s: %s", s->name, s->err);
}

static void cpy(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v ? v : "");
}

static void run_of(struct xl_store_run *r, const char *const *v)
{
	memset(r, 0, sizeof(*r));
	r->id = v[0] ? strtoll(v[0], NULL, 10) : 0;
	cpy(r->date, sizeof(r->date), v[1]);
	cpy(r->stored, sizeof(r->stored), v[2]);
	cpy(r->label, sizeof(r->label), v[3]);
	cpy(r->git, sizeof(r->git), v[4]);
	cpy(r->host, sizeof(r->host), v[5]);
	cpy(r->kernel, sizeof(r->kernel), v[6]);
	cpy(r->schema, sizeof(r->schema), v[7]);
	cpy(r->source, sizeof(r->source), v[8]);
	r->nrows = v[9] ? atoi(v[9]) : 0;
}

struct list_ctx {
	struct xl_store_run *runs;
	int n, cap;
};

static int list_row(void *ctx, int ncols, const char *const *v)
{
	struct list_ctx *c = ctx;

	if (ncols < NRUN_COLS)
		return -EIO;
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 16;
		struct xl_store_run *r = realloc(c->runs, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		c->runs = r;
		c->cap = cap;
	}
	run_of(&c->runs[c->n++], v);
	return 0;
}

int xl_store_list(struct xl_store *s, const char *label, struct xl_store_run **runs, int *n,
		  char *err, size_t errlen)
{
	const char *l = label ? label : "", *p[] = { l, l };
	struct list_ctx c = { 0 };
	int ret;

	ret = s->ops->exec(s, "SELECT " RUN_COLS " FROM runs r WHERE (? = '' OR r.label = ?)"
			      " ORDER BY r.date, r.id",
			   p, 2, list_row, &c);
	if (ret) {
		exec_err(s, ret, err, errlen);
		free(c.runs);
		return ret;
	}
	*runs = c.runs;
	*n = c.n;
	return 0;
}

struct doc_ctx {
	char *text;
	size_t len;
	struct xl_store_run run;
};

static int doc_row(void *ctx, int ncols, const char *const *v)
{
	struct doc_ctx *c = ctx;

	if (ncols < NRUN_COLS + 1 || !v[NRUN_COLS])
		return -EIO;
	run_of(&c->run, v);
	c->len = strlen(v[NRUN_COLS]);
	c->text = strdup(v[NRUN_COLS]);
	return c->text ? 0 : -ENOMEM;
}

int xl_store_doc(struct xl_store *s, long long id, char **text, size_t *len,
		 struct xl_store_run *run, char *err, size_t errlen)
{
	struct doc_ctx c = { 0 };
	char sid[24];
	const char *p[] = { sid };
	int ret;

	snprintf(sid, sizeof(sid), "%lld", id);
	ret = s->ops->exec(s, "SELECT " RUN_COLS ", r.doc FROM runs r WHERE r.id = ?", p, 1, doc_row,
			   &c);
	if (!ret && !c.text) {
		snprintf(err, errlen, "%s: no run %lld (store list shows the runs)", s->name, id);
		return -ENOENT;
	}
	if (ret) {
		free(c.text);
		exec_err(s, ret, err, errlen);
		return ret;
	}
	*text = c.text;
	*len = c.len;
	if (run)
		*run = c.run;
	return 0;
}

/* ---- history ---- */

struct hist_ctx {
	struct xl_store_series *ser;
	int n, cap;
};

static int hist_find(struct hist_ctx *c, const char *const *v)
{
	unsigned int size = v[12] ? strtoul(v[12], NULL, 10) : 0;
	struct xl_store_series *x;
	int i;

	for (i = 0; i < c->n; i++) {
		x = &c->ser[i];
		if (x->size == size && !strcmp(x->name, v[10] ? v[10] : "") &&
		    !strcmp(x->op, v[11] ? v[11] : "") && !strcmp(x->mode, v[13] ? v[13] : "") &&
		    !strcmp(x->wiring, v[14] ? v[14] : "") && !strcmp(x->engine, v[15] ? v[15] : ""))
			return i;
	}
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 16;

		x = realloc(c->ser, cap * sizeof(*x));
		if (!x)
			return -ENOMEM;
		c->ser = x;
		c->cap = cap;
	}
	x = &c->ser[c->n];
	memset(x, 0, sizeof(*x));
	cpy(x->name, sizeof(x->name), v[10]);
	cpy(x->op, sizeof(x->op), v[11]);
	x->size = size;
	cpy(x->mode, sizeof(x->mode), v[13]);
	cpy(x->wiring, sizeof(x->wiring), v[14]);
	cpy(x->engine, sizeof(x->engine), v[15]);
	return c->n++;
}

/* Columns: the run's (NRUN_COLS), name, op, size, mode, wiring, engine, verdict, rep, pps, cpu. */
static int hist_row(void *ctx, int ncols, const char *const *v)
{
	struct hist_ctx *c = ctx;
	struct xl_store_series *x;
	struct xl_store_point *pt;
	long long id;
	int i;

	if (ncols < 21)
		return -EIO;
	i = hist_find(c, v);
	if (i < 0)
		return i;
	x = &c->ser[i];
	id = v[0] ? strtoll(v[0], NULL, 10) : 0;
	if (!x->npts || x->pts[x->npts - 1].run.id != id) {
		pt = realloc(x->pts, (x->npts + 1) * sizeof(*pt));
		if (!pt)
			return -ENOMEM;
		x->pts = pt;
		pt = &x->pts[x->npts++];
		memset(pt, 0, sizeof(*pt));
		run_of(&pt->run, v);
		cpy(pt->verdict, sizeof(pt->verdict), v[16]);
	}
	pt = &x->pts[x->npts - 1];
	if (v[18] && pt->nreps < XL_MAX_REPS) {
		pt->pps[pt->nreps] = strtod(v[18], NULL);
		pt->cpu_ns[pt->nreps] = v[19] ? strtod(v[19], NULL) : 0;
		pt->nreps++;
	}
	return 0;
}

int xl_store_history(struct xl_store *s, const char *row, const char *label, const char *since,
		     struct xl_store_series **series, int *n, char *err, size_t errlen)
{
	const char *w = row ? row : "", *l = label ? label : "", *t = since ? since : "";
	const char *p[] = { w, w, l, l, t };
	struct hist_ctx c = { 0 };
	int ret;

	ret = s->ops->exec(s, "SELECT " RUN_COLS ", w.name, w.op, w.size, w.mode, w.wiring, w.engine,"
			      " w.verdict, p.rep, p.pps, p.cpu_ns_per_pkt, w.idx"
			      " FROM runs r JOIN run_rows w ON w.run_id = r.id"
			      " JOIN run_reps p ON p.run_id = w.run_id AND p.row_idx = w.idx"
			      " WHERE (? = '' OR w.name = ?) AND (? = '' OR r.label = ?) AND r.date >= ?"
			      " ORDER BY r.date, r.id, w.idx, p.rep",
			   p, 5, hist_row, &c);
	if (ret) {
		exec_err(s, ret, err, errlen);
		xl_store_series_free(c.ser, c.n);
		return ret;
	}
	*series = c.ser;
	*n = c.n;
	return 0;
}

void xl_store_series_free(struct xl_store_series *series, int n)
{
	int i;

	for (i = 0; series && i < n; i++)
		free(series[i].pts);
	free(series);
}
