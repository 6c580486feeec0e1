// SPDX-License-Identifier: BSD-2-Clause
/*
 * The A/A calibration (xdplab/calib.h): N runs of the same code compared
 * pair by pair one run a side, and split into balanced sides for the
 * several-runs method; every flag is a false alarm.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "xdplab/atomicfile.h"
#include "xdplab/calib.h"
#include "xdplab/escape.h"
#include "xdplab/compare_runs.h"
#include "xdplab/permtest.h"
#include "xdplab/stats.h"

static bool same_ident(const struct xl_calib_row *c, const struct xl_cmp_rowdata *r)
{
	return !strcmp(c->name, r->name) && !strcmp(c->op, r->op) && c->size == r->size &&
	       !strcmp(c->mode, r->mode) && !strcmp(c->wiring, r->wiring) &&
	       !strcmp(c->engine, r->engine);
}

const struct xl_calib_row *xl_calib_find(const struct xl_calib *c, const struct xl_cmp_rowdata *r)
{
	int i;

	for (i = 0; i < c->nrows; i++)
		if (same_ident(&c->rows[i], r))
			return &c->rows[i];
	return NULL;
}

/* @r's row in @c, added at the end when new (room: the caller's). */
static struct xl_calib_row *row_for(struct xl_calib *c, const struct xl_cmp_rowdata *r)
{
	struct xl_calib_row *cr = (struct xl_calib_row *)xl_calib_find(c, r);

	if (cr)
		return cr;
	cr = &c->rows[c->nrows++];
	memset(cr, 0, sizeof(*cr));
	snprintf(cr->name, sizeof(cr->name), "%s", r->name);
	snprintf(cr->op, sizeof(cr->op), "%s", r->op);
	snprintf(cr->mode, sizeof(cr->mode), "%s", r->mode);
	snprintf(cr->wiring, sizeof(cr->wiring), "%s", r->wiring);
	snprintf(cr->engine, sizeof(cr->engine), "%s", r->engine);
	cr->size = r->size;
	return cr;
}

static bool flagged(enum xl_cmp_verdict v)
{
	return v == XL_CMP_REGRESSION || v == XL_CMP_IMPROVEMENT;
}

/*
 * Every pair of runs, one run a side, on the raw figure (@o->figure
 * XL_CMP_FIG_RAW) or the corrected one (XL_CMP_FIG_CORRECTED: counted where
 * the comparison could use it).
 */
static int pairs(const struct xl_cmp_file *files, int n, const struct xl_cmp_opts *o,
		 struct xl_calib *c)
{
	bool corr = o->figure == XL_CMP_FIG_CORRECTED;
	struct xl_cmp_result res;
	int i, j, k;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (xl_cmp_run(&files[i], &files[j], o, &res))
				return -ENOMEM;
			for (k = 0; k < res.nrows; k++) {
				const struct xl_cmp_row *r = &res.rows[k];
				struct xl_calib_row *cr;

				if (r->status != XL_CMP_PAIRED || (corr && !r->corrected))
					continue;
				cr = row_for(c, r->base);
				if (corr) {
					cr->cpairs++;
					cr->cpair_flags += flagged(r->verdict);
					continue;
				}
				cr->pairs++;
				cr->pair_flags += flagged(r->verdict);
				cr->pair_too_few |= r->too_few;
			}
			xl_cmp_result_free(&res);
		}
	return 0;
}

/* One split: the runs of @mask as base, the others as new. */
static int one_split(const struct xl_cmp_file *files, int n, uint64_t mask,
		     const struct xl_cmp_opts *o, struct xl_cmp_file *tmp, struct xl_calib *c)
{
	struct xl_cmp_mresult res;
	int i, nb = 0, k;

	for (i = 0; i < n; i++)
		if (mask >> i & 1)
			tmp[nb++] = files[i];
	for (i = 0, k = nb; i < n; i++)
		if (!(mask >> i & 1))
			tmp[k++] = files[i];
	if (xl_cmp_runs(tmp, nb, n - nb, o, &res))
		return -ENOMEM;
	for (k = 0; k < res.nrows; k++) {
		const struct xl_cmp_mrow *m = &res.rows[k];
		struct xl_calib_row *cr;

		if (m->status != XL_CMP_PAIRED ||
		    (o->figure == XL_CMP_FIG_CORRECTED && !m->corrected))
			continue;
		cr = row_for(c, m->id);
		if (o->figure == XL_CMP_FIG_CORRECTED) {
			cr->csplits++;
			cr->csplit_flags += flagged(m->verdict);
			continue;
		}
		cr->splits++;
		cr->split_flags += flagged(m->verdict);
		cr->split_too_few |= m->too_few;
	}
	xl_cmp_mresult_free(&res);
	return 0;
}

/*
 * The balanced splits: n/2 runs to base. With n even a split and its
 * mirror are one test (two-sided), so only those with run 0 in base; past
 * XL_CALIB_MAX_SPLITS, that many drawn from a fixed seed.
 */
static int splits(const struct xl_cmp_file *files, int n, const struct xl_cmp_opts *o,
		  struct xl_calib *c)
{
	int nb = n / 2, ret = 0, done = 0;
	double total = xl_choose(n, nb) / (n % 2 ? 1 : 2);
	struct xl_cmp_file *tmp = calloc(n, sizeof(*tmp));
	uint64_t m, seed = 0x19aa19aaULL;

	if (!tmp)
		return -ENOMEM;
	c->split_base = nb;
	c->split_new = n - nb;
	if (total <= XL_CALIB_MAX_SPLITS) {
		for (m = (1ULL << nb) - 1; m < (1ULL << n) && !ret; ) {
			uint64_t lo = m & -m, ripple = m + lo;

			if (n % 2 || (m & 1))
				ret = one_split(files, n, m, o, tmp, c);
			m = (((ripple ^ m) >> 2) / lo) | ripple;
		}
	} else {
		for (done = 0; done < XL_CALIB_MAX_SPLITS && !ret; done++) {
			int idx[2 * XL_CMP_MAX_RUNS], i;

			for (i = 0; i < n; i++)
				idx[i] = i;
			for (m = 0, i = 0; i < nb; i++) {
				int pick = i + (int)(xl_splitmix64(&seed) % (uint64_t)(n - i)), t = idx[i];

				idx[i] = idx[pick];
				idx[pick] = t;
				m |= 1ULL << idx[i];
			}
			ret = one_split(files, n, m, o, tmp, c);
		}
	}
	free(tmp);
	return ret;
}

int xl_calib_compute(const struct xl_cmp_file *files, int n, double alpha, struct xl_calib *out)
{
	struct xl_cmp_opts o = { .alpha = alpha, .no_interval = true, .figure = XL_CMP_FIG_RAW },
			   oc = { .alpha = alpha, .no_interval = true,
				  .figure = XL_CMP_FIG_CORRECTED };
	int i, rows = 0, ret;

	memset(out, 0, sizeof(*out));
	if (n < 2 || n > 2 * XL_CMP_MAX_RUNS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		rows += files[i].nrows;
	out->rows = calloc(rows + 1, sizeof(*out->rows));
	if (!out->rows)
		return -ENOMEM;
	snprintf(out->host, sizeof(out->host), "%s", files[0].env.host);
	snprintf(out->cpu_model, sizeof(out->cpu_model), "%s", files[0].env.cpu_model);
	snprintf(out->kernel, sizeof(out->kernel), "%s", files[0].env.kernel);
	snprintf(out->wiring, sizeof(out->wiring), "%s", files[0].wiring);
	snprintf(out->date, sizeof(out->date), "%s", files[0].date);
	out->cpus = files[0].env.cpus;
	out->reps = files[0].reps;
	out->seconds = files[0].seconds;
	out->warmup = files[0].warmup;
	out->alpha = alpha;
	out->nruns = n;
	ret = pairs(files, n, &o, out);
	if (!ret)
		ret = pairs(files, n, &oc, out);
	if (!ret && n >= XL_CALIB_SPLIT_MIN)
		ret = splits(files, n, &o, out);
	if (!ret && n >= XL_CALIB_SPLIT_MIN)
		ret = splits(files, n, &oc, out);
	if (ret)
		xl_calib_free(out);
	return ret;
}

int xl_calib_save(const struct xl_calib *c, const char *path)
{
	json_t *doc, *rows = json_array();
	char *text;
	int i, ret;

	for (i = 0; i < c->nrows; i++) {
		const struct xl_calib_row *r = &c->rows[i];

		json_array_append_new(rows, json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:i,s:i,s:b,s:i,s:i,s:b,s:{s:i,s:i,s:i,s:i}}",
			"name", r->name, "packet_operation", r->op, "size", r->size, "mode", r->mode,
			"wiring", r->wiring, "gen_engine", r->engine, "pairs", r->pairs,
			"pair_flags", r->pair_flags, "pair_too_few", r->pair_too_few, "splits", r->splits, "split_flags",
			r->split_flags, "split_too_few", r->split_too_few, "corrected", "pairs", r->cpairs,
			"pair_flags", r->cpair_flags, "splits", r->csplits, "split_flags", r->csplit_flags));
	}
	doc = json_pack("{s:s,s:s,s:{s:s,s:s,s:s,s:i},s:{s:i,s:f,s:f,s:s},s:f,s:i,s:i,s:i,s:o}",
			"schema", XL_CALIB_SCHEMA, "date", c->date, "machine", "host", c->host,
			"cpu_model", c->cpu_model, "kernel", c->kernel, "cpus", c->cpus, "config",
			"reps", c->reps, "seconds", c->seconds, "warmup", c->warmup, "wiring",
			c->wiring, "alpha", c->alpha, "runs", c->nruns, "split_base", c->split_base,
			"split_new", c->split_new, "rows", rows);
	if (!doc)
		return -ENOMEM;
	text = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	if (!text)
		return -ENOMEM;
	ret = xl_afile_write(path, text, strlen(text), 0644);
	free(text);
	return ret;
}

static void get_str(char *dst, size_t len, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	snprintf(dst, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

static int get_int(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : 0;

	return d > 0 && d < 1e9 ? (int)d : 0;
}

static double get_real(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

int xl_calib_load(const char *path, struct xl_calib *c, char *err, size_t errlen)
{
	json_t *doc, *m, *cfg, *rows, *r;
	json_error_t je;
	size_t i;

	memset(c, 0, sizeof(*c));
	doc = json_load_file(path, 0, &je);
	if (!doc) {
		snprintf(err, errlen, "%s: cannot read the calibration (line %d: %s)", path, je.line,
			 je.text);
		return je.line < 1 ? -ENOENT : -EINVAL;
	}
	rows = json_object_get(doc, "rows");
	if (!json_is_object(doc) ||
	    !json_is_string(json_object_get(doc, "schema")) ||
	    strcmp(json_string_value(json_object_get(doc, "schema")), XL_CALIB_SCHEMA) ||
	    !json_is_array(rows)) {
		snprintf(err, errlen, "%s: not an A/A calibration (schema %s with a \"rows\" array; lab run --aa writes one)",
			 path, XL_CALIB_SCHEMA);
		json_decref(doc);
		return -EINVAL;
	}
	m = json_object_get(doc, "machine");
	cfg = json_object_get(doc, "config");
	get_str(c->date, sizeof(c->date), doc, "date");
	get_str(c->host, sizeof(c->host), m, "host");
	get_str(c->cpu_model, sizeof(c->cpu_model), m, "cpu_model");
	get_str(c->kernel, sizeof(c->kernel), m, "kernel");
	c->cpus = get_int(m, "cpus");
	c->reps = get_int(cfg, "reps");
	c->seconds = get_real(cfg, "seconds");
	c->warmup = get_real(cfg, "warmup");
	get_str(c->wiring, sizeof(c->wiring), cfg, "wiring");
	c->alpha = get_real(doc, "alpha");
	c->nruns = get_int(doc, "runs");
	c->split_base = get_int(doc, "split_base");
	c->split_new = get_int(doc, "split_new");
	c->rows = calloc(json_array_size(rows) + 1, sizeof(*c->rows));
	if (!c->rows) {
		snprintf(err, errlen, "%s: out of memory", path);
		json_decref(doc);
		return -ENOMEM;
	}
	json_array_foreach(rows, i, r) {
		struct xl_calib_row *cr = &c->rows[c->nrows];

		if (!json_is_object(r))
			continue;
		get_str(cr->name, sizeof(cr->name), r, "name");
		get_str(cr->op, sizeof(cr->op), r, "packet_operation");
		get_str(cr->mode, sizeof(cr->mode), r, "mode");
		get_str(cr->wiring, sizeof(cr->wiring), r, "wiring");
		get_str(cr->engine, sizeof(cr->engine), r, "gen_engine");
		cr->size = get_int(r, "size");
		cr->pairs = get_int(r, "pairs");
		cr->pair_flags = get_int(r, "pair_flags");
		cr->splits = get_int(r, "splits");
		cr->split_flags = get_int(r, "split_flags");
		cr->pair_too_few = json_is_true(json_object_get(r, "pair_too_few"));
		cr->split_too_few = json_is_true(json_object_get(r, "split_too_few"));
		/* Absent in calibrations from before the control: 0 of 0, raw. */
		cr->cpairs = get_int(json_object_get(r, "corrected"), "pairs");
		cr->cpair_flags = get_int(json_object_get(r, "corrected"), "pair_flags");
		cr->csplits = get_int(json_object_get(r, "corrected"), "splits");
		cr->csplit_flags = get_int(json_object_get(r, "corrected"), "split_flags");
		if (cr->pair_flags > cr->pairs || cr->split_flags > cr->splits ||
		    cr->cpair_flags > cr->cpairs || cr->csplit_flags > cr->csplits)
			continue; /* not a rate */
		c->nrows++;
	}
	json_decref(doc);
	return 0;
}

bool xl_calib_matches(const struct xl_calib *c, const struct xl_cmp_file *f, char *why,
		      size_t len)
{
	if (strcmp(c->host, f->env.host))
		snprintf(why, len, "host differs: %s vs %s", c->host, f->env.host);
	else if (strcmp(c->cpu_model, f->env.cpu_model))
		snprintf(why, len, "CPU model differs: %s vs %s", c->cpu_model, f->env.cpu_model);
	else if (c->cpus != f->env.cpus)
		snprintf(why, len, "CPUs differ: %d vs %d", c->cpus, f->env.cpus);
	else if (c->reps != f->reps)
		snprintf(why, len, "repetitions differ: %d vs %d", c->reps, f->reps);
	else if (c->seconds != f->seconds)
		snprintf(why, len, "window differs: %g s vs %g s", c->seconds, f->seconds);
	else if (c->warmup != f->warmup)
		snprintf(why, len, "warm-up differs: %g s vs %g s", c->warmup, f->warmup);
	else if (strcmp(c->wiring, f->wiring))
		snprintf(why, len, "wiring differs: %s vs %s", c->wiring, f->wiring);
	else
		return true;
	return false;
}

/* Whether @cf of @cn flags fewer in proportion than @rf of @rn (both counted). */
static bool fewer(int cf, int cn, int rf, int rn)
{
	return cn > 0 && rn > 0 && (long long)cf * rn < (long long)rf * cn;
}

bool xl_calib_prefers_corrected(const struct xl_calib_row *r, bool runs)
{
	if (runs && r->splits && r->csplits)
		return !r->split_too_few && fewer(r->csplit_flags, r->csplits, r->split_flags, r->splits);
	return !r->pair_too_few && fewer(r->cpair_flags, r->cpairs, r->pair_flags, r->pairs);
}

void xl_calib_free(struct xl_calib *c)
{
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}

void xl_calib_print(FILE *out, const struct xl_calib *c, const char *dir)
{
	int i, pf = 0, pn = 0, sf = 0, sn = 0;
	char rate[2][32];

	fprintf(out, "A/A calibration: %d separate runs of the same code in %s, alpha %g: every flag is a false alarm\n",
	       c->nruns, XL_ESC(dir), c->alpha);
	fprintf(out, "one run a side: every pair of runs compared as two files (Mann-Whitney U over the repetitions); ");
	if (c->split_base)
		fprintf(out, "several runs a side: the balanced splits, %d vs %d, compared by the permutation test over the run labels\n\n",
		       c->split_base, c->split_new);
	else
		fprintf(out, "several runs a side: needs %d runs or more (balanced splits of at least 3 vs 3)\n\n",
		       XL_CALIB_SPLIT_MIN);
	fprintf(out, "%-21s %5s %-7s %-9s %14s %7s %14s %7s\n", "benchmark", "size", "mode", "wiring",
	       "pairs flagged", "rate", "splits flagged", "rate");
	for (i = 0; i < c->nrows; i++) {
		const struct xl_calib_row *r = &c->rows[i];

		snprintf(rate[0], sizeof(rate[0]), !r->pairs ? "-" : r->pair_too_few ? "too few" : "%.1f%%",
			 r->pairs ? 100.0 * r->pair_flags / r->pairs : 0);
		snprintf(rate[1], sizeof(rate[1]), !r->splits ? "-" : r->split_too_few ? "too few" : "%.1f%%",
			 r->splits ? 100.0 * r->split_flags / r->splits : 0);
		fprintf(out, "%-21s %5u %-7s %-9s %8d of %3d %7s %8d of %3d %7s\n", XL_ESC(r->name), r->size,
		       XL_ESC(r->mode), XL_ESC(r->wiring[0] ? r->wiring : "-"), r->pair_flags,
		       r->pairs, rate[0], r->split_flags, r->splits, rate[1]);
		pf += r->pair_flags;
		pn += r->pairs;
		sf += r->split_flags;
		sn += r->splits;
	}
	fprintf(out, "\none run a side: %d of %d row comparisons flagged (%.1f%%)", pf, pn,
	       pn ? 100.0 * pf / pn : 0);
	if (sn)
		fprintf(out, "; several runs a side: %d of %d (%.1f%%)", sf, sn, 100.0 * sf / sn);
	fprintf(out, "\n");
}
