// SPDX-License-Identifier: BSD-2-Clause
/*
 * Comparing two results files (xdplab/compare.h): reading them with
 * jansson, pairing their rows by identity, a verdict per row.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "xdplab/compare.h"
#include "xdplab/stats.h"

#include "compare_priv.h"

/* ---- reading ---- */

static void copy_str(char *dst, size_t len, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	snprintf(dst, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

static double get_num(json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

/*
 * An integer field: @dflt when absent or NaN, else truncated toward zero
 * and clamped to [@lo, @hi], the range of the caller's type (a double
 * outside it has no defined conversion, C11 6.3.1.4). One helper for every
 * range read here, int's to uint64_t's: a long double holds all of them
 * exactly (64 mantissa bits), so the caller's conversion of the result is
 * always defined and a uint64_t field keeps every double below 2^64.
 */
_Static_assert(LDBL_MANT_DIG >= 64, "get_clamped() needs a uint64_t exact in a long double");
static long double get_clamped(json_t *o, const char *key, long double dflt, long double lo,
			       long double hi)
{
	double v = get_num(o, key, (double)dflt);

	if (v != v)
		return dflt;
	if (v <= lo)
		return lo;
	if (v >= hi)
		return hi;
	return truncl(v);
}

static void load_env(json_t *m, struct xl_cmp_file *f)
{
	struct xl_env *e = &f->env;
	json_t *v = json_object_get(m, "vulnerabilities"), *val;
	const char *key;

	memset(e, 0, sizeof(*e));
	copy_str(e->kernel, sizeof(e->kernel), m, "kernel");
	copy_str(e->arch, sizeof(e->arch), m, "arch");
	copy_str(e->host, sizeof(e->host), m, "host");
	copy_str(e->cpu_model, sizeof(e->cpu_model), m, "cpu_model");
	copy_str(e->cmdline_mitigations, sizeof(e->cmdline_mitigations), m,
		 "cmdline_mitigations");
	e->cpus = (int)get_clamped(m, "cpus", 0, 0, INT_MAX);
	e->jit_enable = (int)get_clamped(m, "bpf_jit_enable", -1, INT_MIN, INT_MAX);
	e->jit_harden = (int)get_clamped(m, "bpf_jit_harden", -1, INT_MIN, INT_MAX);
	copy_str(e->governor, sizeof(e->governor), m, "governor");
	copy_str(e->smt, sizeof(e->smt), m, "smt");
	v = json_object_get(m, "boost");
	e->boost = json_is_boolean(v) ? json_is_true(v) : -1;
	v = json_object_get(m, "smt_active");
	e->smt_active = json_is_boolean(v) ? json_is_true(v) : -1;
	copy_str(e->lab_irqs, sizeof(e->lab_irqs), m, "lab_irqs");
	if (json_is_null(json_object_get(m, "lab_irqs")))
		snprintf(e->lab_irqs, sizeof(e->lab_irqs), "none");
	v = json_object_get(m, "vulnerabilities");
	f->have_vulns = json_is_object(v);
	json_object_foreach(v, key, val) {
		if (e->nvulns == XL_ENV_MAX_VULNS || !json_is_string(val))
			continue;
		snprintf(e->vuln_name[e->nvulns], sizeof(e->vuln_name[0]), "%s", key);
		snprintf(e->vuln_state[e->nvulns], sizeof(e->vuln_state[0]), "%s",
			 json_string_value(val));
		e->nvulns++;
	}
}

static void load_row(json_t *o, struct xl_cmp_rowdata *r)
{
	json_t *reps = json_object_get(o, "reps"), *rep, *mpps;
	double v[XL_MAX_REPS];
	size_t i;

	/* The text members compare keeps, by the results row's field table. */
#define TEXT(id, f) { id, offsetof(struct xl_cmp_rowdata, f), sizeof(r->f) }
	static const struct {
		enum xl_row_field_id id;
		size_t off, len;
	} texts[] = { TEXT(XL_ROW_F_NAME, name),	   TEXT(XL_ROW_F_OP, op),
		      TEXT(XL_ROW_F_MODE, mode),	   TEXT(XL_ROW_F_WIRING, wiring),
		      TEXT(XL_ROW_F_ENGINE, engine),	   TEXT(XL_ROW_F_CPU_SOURCE, cpu_source),
		      TEXT(XL_ROW_F_VERDICT, verdict), TEXT(XL_ROW_F_NOTE, note) };
#undef TEXT

	memset(r, 0, sizeof(*r));
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		snprintf((char *)r + texts[i].off, texts[i].len, "%s",
			 xl_row_field_str(o, texts[i].id));
	if (!r->name[0])
		copy_str(r->name, sizeof(r->name), o, "benchmark"); /* older files' name */
	r->size = (unsigned int)get_clamped(o, xl_row_fields[XL_ROW_F_SIZE].key, 0, 0, UINT_MAX);
	json_array_foreach(reps, i, rep) {
		if (r->nreps == XL_MAX_REPS || !json_is_number(json_object_get(rep, "pps")))
			continue;
		r->pps[r->nreps] = get_num(rep, "pps", 0);
		r->cpu_ns[r->nreps] = get_num(rep, "cpu_ns_per_pkt", 0);
		r->ctl_ns[r->nreps] = get_num(rep, "host_ctl_ns", 0);
		r->nreps++;
	}
	for (i = 0; i < (size_t)r->nreps; i++)
		v[i] = r->pps[i] / 1e6;
	r->mpps = xl_summarize(v, r->nreps);
	/* A summary without repetitions (a single command's total). */
	mpps = json_object_get(o, "mpps");
	if (!r->nreps && json_is_object(mpps)) {
		r->mpps.median = get_num(mpps, "median", 0);
		r->mpps.min = get_num(mpps, "min", r->mpps.median);
		r->mpps.max = get_num(mpps, "max", r->mpps.median);
	}
}

/* Counts and ns figures: negative or NaN is 0, 2^64 or above UINT64_MAX. */
static void load_lat_rep(json_t *o, struct xl_lat_rep *r)
{
#define LAT_U64(f) { #f, offsetof(struct xl_lat_rep, f) }
	static const struct {
		const char *key;
		size_t off;
	} u64s[] = { LAT_U64(sent),	LAT_U64(xmit_errors), LAT_U64(received), LAT_U64(lost),
		     LAT_U64(gaps),	LAT_U64(reordered),   LAT_U64(duplicates), LAT_U64(min_ns),
		     LAT_U64(p50_ns),	LAT_U64(p90_ns),      LAT_U64(p99_ns),	   LAT_U64(p999_ns),
		     LAT_U64(max_ns) };
#undef LAT_U64
	size_t i;

	for (i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++)
		*(uint64_t *)((char *)r + u64s[i].off) =
			(uint64_t)get_clamped(o, u64s[i].key, 0, 0, UINT64_MAX);
	r->mean_ns = get_num(o, "mean_ns", 0);
}

/* One object of the "latency" array (docs/results.md). */
static void load_lat(json_t *o, struct xl_cmp_latrow *r)
{
	json_t *reps = json_object_get(o, "reps"), *rep;
	size_t i;

	memset(r, 0, sizeof(*r));
	copy_str(r->name, sizeof(r->name), o, "name");
	copy_str(r->path, sizeof(r->path), o, "path");
	copy_str(r->wiring, sizeof(r->wiring), o, "wiring");
	copy_str(r->note, sizeof(r->note), o, "note");
	r->size = (unsigned int)get_clamped(o, "size", 0, 0, UINT_MAX);
	r->batch = (unsigned int)get_clamped(o, "batch", 0, 0, UINT_MAX);
	r->rate_pps = get_num(o, "rate_pps", 0);
	r->seconds = get_num(o, "seconds", 0);
	r->delay_ns = get_num(o, "delay_ns", 0);
	json_array_foreach(reps, i, rep)
		if (r->nreps < XL_MAX_REPS && json_is_object(rep))
			load_lat_rep(rep, &r->reps[r->nreps++]);
	load_lat_rep(json_object_get(o, "median"), &r->med);
}

int xl_cmp_row_order(const struct xl_cmp_file *af, int i, const struct xl_cmp_file *bf, int j,
		     bool exact)
{
	const struct xl_cmp_rowdata *a = &af->rows[i], *b = &bf->rows[j];
	int d;

	if ((d = strcmp(a->name, b->name)) || (d = strcmp(a->op, b->op)))
		return d;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if ((d = strcmp(a->mode, b->mode)) || !exact)
		return d;
	if ((d = strcmp(a->wiring, b->wiring)))
		return d;
	return strcmp(a->engine, b->engine);
}

/*
 * Two rows of one identity would pair by their order in the file, which
 * says nothing: refuse the file, naming the first such pair. 0, -EINVAL
 * (@err filled), -ENOMEM.
 */
static int check_dups(const struct xl_cmp_file *f, char *err, size_t errlen)
{
	const struct xl_cmp_rowdata *r;
	const struct xl_cmp_latrow *l;
	int a, b, ret;

	ret = xl_cmp_find_dup(f, f->nrows, xl_cmp_row_order, &a, &b);
	if (ret > 0) {
		r = &f->rows[a];
		snprintf(err, errlen, "%s: rows %d and %d are the same row (name %s, packet operation %s, size %u, mode %s, wiring %s, engine %s); each row must appear once",
			 f->path, a + 1, b + 1, r->name, r->op[0] ? r->op : "-", r->size,
			 r->mode[0] ? r->mode : "-", r->wiring[0] ? r->wiring : "-",
			 r->engine[0] ? r->engine : "-");
		return -EINVAL;
	}
	if (!ret)
		ret = xl_cmp_find_dup(f, f->nlat, xl_cmp_lat_order, &a, &b);
	if (ret > 0) {
		l = &f->lat[a];
		snprintf(err, errlen, "%s: latency rows %d and %d are the same row (name %s, size %u, wiring %s); each row must appear once",
			 f->path, a + 1, b + 1, l->name, l->size, l->wiring[0] ? l->wiring : "-");
		return -EINVAL;
	}
	if (ret < 0)
		snprintf(err, errlen, "%s: out of memory", f->path);
	return ret;
}

int xl_cmp_load(const char *path, struct xl_cmp_file *f, char *err, size_t errlen)
{
	return xl_cmp_load_doc(path, f, NULL, err, errlen);
}

int xl_cmp_load_doc(const char *path, struct xl_cmp_file *f, struct json_t **docp, char *err,
		    size_t errlen)
{
	json_error_t je;
	struct stat st;
	json_t *doc;
	FILE *fp;
	int ret;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	fp = fopen(path, "r");
	if (!fp) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(-ret));
		return -ENOENT;
	}
	/* fopen() opens a directory for reading; reading it is what fails. */
	if (!fstat(fileno(fp), &st) && S_ISDIR(st.st_mode)) {
		fclose(fp);
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(EISDIR));
		return -ENOENT;
	}
	doc = json_loadf(fp, 0, &je);
	fclose(fp);
	if (!doc) {
		snprintf(err, errlen, "%s: not JSON (line %d: %s); expected an xdplab results file (lab run --json)",
			 path, je.line, je.text);
		return -EINVAL;
	}
	ret = xl_cmp_from_doc(path, doc, f, err, errlen);
	if (!ret && docp) {
		*docp = doc; /* the caller's now */
		return 0;
	}
	json_decref(doc);
	return ret;
}

int xl_cmp_from_doc(const char *path, struct json_t *doc, struct xl_cmp_file *f, char *err,
		    size_t errlen)
{
	json_t *rows, *cfg, *row, *lat;
	const char *schema, *slash;
	size_t i;
	int ret;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	schema = json_string_value(json_object_get(doc, "schema"));
	rows = json_object_get(doc, "rows");
	slash = schema ? strrchr(schema, '/') : NULL;
	if (!json_is_object(doc) || !schema || strncmp(schema, "xdplab.", 7) || !slash ||
	    !json_is_array(rows)) {
		snprintf(err, errlen, "%s: not an xdplab results file (no \"schema\": \"xdplab.NAME/1\" with a \"rows\" array)",
			 path);
		return -EINVAL;
	}
	if (strcmp(slash, "/1")) {
		snprintf(err, errlen, "%s: schema %s is not supported (accepted: version 1, e.g. %s)",
			 path, schema, XL_RESULTS_SCHEMA);
		return -EPROTO;
	}
	snprintf(f->schema, sizeof(f->schema), "%s", schema);
	copy_str(f->date, sizeof(f->date), doc, "date");
	copy_str(f->git, sizeof(f->git), doc, "git");
	load_env(json_object_get(doc, "machine"), f);
	cfg = json_object_get(doc, "config");
	f->reps = (int)get_clamped(cfg, "reps", 0, 0, INT_MAX);
	f->seconds = get_num(cfg, "seconds", 0);
	f->warmup = get_num(cfg, "warmup", 0);
	copy_str(f->wiring, sizeof(f->wiring), cfg, "wiring");
	f->rows = calloc(json_array_size(rows) + 1, sizeof(*f->rows));
	if (!f->rows) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	json_array_foreach(rows, i, row)
		if (json_is_object(row))
			load_row(row, &f->rows[f->nrows++]);
	lat = json_object_get(doc, "latency");
	if (json_array_size(lat)) {
		f->lat = calloc(json_array_size(lat), sizeof(*f->lat));
		if (!f->lat) {
			snprintf(err, errlen, "%s: out of memory", path);
			xl_cmp_file_free(f);
			return -ENOMEM;
		}
		json_array_foreach(lat, i, row)
			if (json_is_object(row))
				load_lat(row, &f->lat[f->nlat++]);
	}
	ret = check_dups(f, err, errlen);
	if (ret)
		xl_cmp_file_free(f);
	return ret;
}

void xl_cmp_file_free(struct xl_cmp_file *f)
{
	free(f->rows);
	f->rows = NULL;
	f->nrows = 0;
	free(f->lat);
	f->lat = NULL;
	f->nlat = 0;
}

/* ---- comparing ---- */

static double median_of(const double *v, int n)
{
	return xl_summarize(v, n).median;
}

void xl_cmp_row_compare(struct xl_cmp_row *r, const struct xl_cmp_opts *o)
{
	const struct xl_cmp_rowdata *b = r->base, *n = r->new;
	struct xl_cmp_rowdata bc, nc;
	double bv[XL_MAX_REPS], nv[XL_MAX_REPS];
	const double *bs, *ns;
	int i, zb, zn;

	r->verdict = XL_CMP_NONE;
	if (xl_cmp_not_measured(r->reason, sizeof(r->reason), b->nreps, b->note, n->nreps,
				n->note)) {
		r->status = XL_CMP_NOT_MEASURED;
		return;
	}
	r->status = XL_CMP_PAIRED;
	r->corrected = xl_cmp_wants_corrected(o, b, false) && xl_cmp_has_ctl(b) && xl_cmp_has_ctl(n);
	r->ctl_ref_ns = 0;
	if (r->corrected) {
		const struct xl_cmp_rowdata *both[2] = { b, n };

		/* The same figures, each repetition moved to one host speed. */
		r->ctl_ref_ns = xl_cmp_ctl_ref(both, 2);
		xl_cmp_correct(b, r->ctl_ref_ns, &bc);
		xl_cmp_correct(n, r->ctl_ref_ns, &nc);
		b = &bc;
		n = &nc;
	}
	r->delta_mpps = n->mpps.median - b->mpps.median;
	r->delta_pct = b->mpps.median > 0 ? 100 * r->delta_mpps / b->mpps.median : 0;
	r->delta_ns = xl_delta_ns_per_pkt(b->mpps.median * 1e6, n->mpps.median * 1e6);
	r->base_cpu = median_of(b->cpu_ns, b->nreps);
	r->new_cpu = median_of(n->cpu_ns, n->nreps);
	r->delta_cpu_ns = r->new_cpu - r->base_cpu;
	/*
	 * A generator-bound row's rate is the generator's, not the DUT's;
	 * its DUT CPU time per packet is the DUT's cost either way.
	 */
	r->on_cpu = (!strcmp(b->verdict, "generator-bound") ||
		     !strcmp(n->verdict, "generator-bound")) &&
		    xl_cmp_all_positive(b->cpu_ns, b->nreps) && xl_cmp_all_positive(n->cpu_ns, n->nreps);
	if (r->on_cpu) {
		bs = b->cpu_ns;
		ns = n->cpu_ns;
		r->delta = r->delta_cpu_ns;
	} else {
		for (i = 0; i < b->nreps; i++)
			bv[i] = xl_cmp_test_ns(b->pps[i]);
		for (i = 0; i < n->nreps; i++)
			nv[i] = xl_cmp_test_ns(n->pps[i]);
		bs = bv;
		ns = nv;
		r->delta = r->delta_ns;
	}
	/* x = new, y = base: U near n1*n2 means new takes longer. */
	xl_mann_whitney(ns, n->nreps, bs, b->nreps, &r->test);
	r->too_few = xl_mann_whitney_min_p(n->nreps, b->nreps) >= o->alpha;
	r->verdict = r->too_few ? XL_CMP_TOO_FEW : xl_cmp_decide(r->test.p, r->delta, o);
	/*
	 * A rate of 0 is the row broken (or mended), not a statistic: it
	 * would otherwise read as 0 ns/packet and a delta of 0.
	 */
	zb = xl_cmp_zero_rates(b->pps, b->nreps);
	zn = xl_cmp_zero_rates(n->pps, n->nreps);
	if (zn && !zb) {
		r->verdict = XL_CMP_REGRESSION;
		snprintf(r->reason, sizeof(r->reason), "rate fell to 0 pps in %d of %d new repetitions",
			 zn, n->nreps);
	} else if (zb && !zn) {
		r->verdict = XL_CMP_IMPROVEMENT;
		snprintf(r->reason, sizeof(r->reason), "rate rose from 0 pps (0 in %d of %d base repetitions)",
			 zb, b->nreps);
	} else if (zb) {
		snprintf(r->reason, sizeof(r->reason), "rate 0 pps in %d of %d base and %d of %d new repetitions",
			 zb, b->nreps, zn, n->nreps);
	}
}

/* Why two paired rows cannot be compared; "" when they can. */
static void set_up_differs(const struct xl_cmp_file *bf, const struct xl_cmp_file *nf,
			   const struct xl_cmp_rowdata *b, const struct xl_cmp_rowdata *n,
			   char *buf, size_t len)
{
	buf[0] = '\0';
	if (xl_cmp_text_differs(buf, len, "wiring", b->wiring, n->wiring))
		return;
	/* A file from before the field says nothing: not a difference. */
	if (b->cpu_source[0] && n->cpu_source[0] && strcmp(b->cpu_source, n->cpu_source)) {
		snprintf(buf, len, "DUT CPU time source differs: %s vs %s", b->cpu_source,
			 n->cpu_source);
		return;
	}
	if (xl_cmp_text_differs(buf, len, "generator engine", b->engine, n->engine))
		return;
	if (bf->reps != nf->reps)
		snprintf(buf, len, "repetitions differ: %d vs %d per row", bf->reps, nf->reps);
	else if (bf->seconds != nf->seconds)
		snprintf(buf, len, "window differs: %g s vs %g s", bf->seconds, nf->seconds);
	else if (bf->warmup != nf->warmup)
		snprintf(buf, len, "warm-up differs: %g s vs %g s", bf->warmup, nf->warmup);
	else
		xl_cmp_row_reps_differ(buf, len, b->nreps, n->nreps);
}

int xl_cmp_run(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
	       const struct xl_cmp_opts *o, struct xl_cmp_result *out)
{
	struct xl_cmp_pairing *pairs;
	int k, n;

	memset(out, 0, sizeof(*out));
	n = xl_cmp_pair(base, base->nrows, new, new->nrows, xl_cmp_row_order, &pairs);
	if (n < 0)
		return n;
	out->rows = calloc(n + 1, sizeof(*out->rows));
	if (!out->rows) {
		free(pairs);
		return -ENOMEM;
	}
	for (k = 0; k < n; k++) {
		struct xl_cmp_row *r = &out->rows[out->nrows++];

		r->base = pairs[k].base < 0 ? NULL : &base->rows[pairs[k].base];
		r->new = pairs[k].new < 0 ? NULL : &new->rows[pairs[k].new];
		if (!r->base || !r->new) {
			r->status = r->base ? XL_CMP_BASE_ONLY : XL_CMP_NEW_ONLY;
			continue;
		}
		out->paired++;
		set_up_differs(base, new, r->base, r->new, r->reason, sizeof(r->reason));
		if (r->reason[0]) {
			r->status = XL_CMP_NOT_COMPARABLE;
			continue;
		}
		xl_cmp_row_compare(r, o);
		if (r->status != XL_CMP_PAIRED)
			continue;
		out->compared++;
		out->regressions += r->verdict == XL_CMP_REGRESSION;
		out->improvements += r->verdict == XL_CMP_IMPROVEMENT;
		out->too_few += r->verdict == XL_CMP_TOO_FEW;
		if (!strcmp(r->base->name, "gen-ceiling") &&
		    (r->verdict == XL_CMP_REGRESSION || r->verdict == XL_CMP_IMPROVEMENT) &&
		    fabs(r->delta_pct) >= fabs(out->ceiling_pct)) {
			out->ceiling_moved = true;
			out->ceiling_pct = r->delta_pct;
		}
	}
	free(pairs);
	out->cross_machine =
		(base->env.host[0] && new->env.host[0] && strcmp(base->env.host, new->env.host)) ||
		(base->env.cpu_model[0] && new->env.cpu_model[0] &&
		 strcmp(base->env.cpu_model, new->env.cpu_model)) ||
		(base->env.cpus && new->env.cpus && base->env.cpus != new->env.cpus);
	return 0;
}

void xl_cmp_result_free(struct xl_cmp_result *r)
{
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}

/* ---- environments ---- */

static void vuln_summary(const struct xl_cmp_file *f, char *buf, size_t len)
{
	int i, mit = 0, vul = 0, na = 0, other = 0;

	if (!f->have_vulns) {
		snprintf(buf, len, "?");
		return;
	}
	for (i = 0; i < f->env.nvulns; i++) {
		const char *s = f->env.vuln_state[i];

		if (!strncmp(s, "Mitigation", 10))
			mit++;
		else if (!strncmp(s, "Vulnerable", 10))
			vul++;
		else if (!strncmp(s, "Not affected", 12))
			na++;
		else
			other++;
	}
	snprintf(buf, len, "%d mitigated, %d vulnerable, %d not affected", mit, vul, na);
	if (other)
		snprintf(buf + strlen(buf), len - strlen(buf), ", %d other", other);
}

static const char *vuln_state(const struct xl_cmp_file *f, const char *name)
{
	int i;

	for (i = 0; i < f->env.nvulns; i++)
		if (!strcmp(f->env.vuln_name[i], name))
			return f->env.vuln_state[i];
	return NULL;
}

static int add(struct xl_cmp_env_row *rows, int n, int max, const char *field,
	       const char *b, const char *nw)
{
	if (n >= max)
		return n;
	rows[n].field = field;
	snprintf(rows[n].base, sizeof(rows[n].base), "%s", b && *b ? b : "?");
	snprintf(rows[n].new, sizeof(rows[n].new), "%s", nw && *nw ? nw : "?");
	rows[n].differs = strcmp(rows[n].base, "?") && strcmp(rows[n].new, "?") &&
			  strcmp(rows[n].base, rows[n].new);
	return n + 1;
}

static const char *num(char *buf, size_t len, double v, bool known)
{
	if (!known)
		return "?";
	snprintf(buf, len, "%g", v);
	return buf;
}

int xl_cmp_env(const struct xl_cmp_file *base, const struct xl_cmp_file *new,
	       struct xl_cmp_env_row *rows, int max)
{
	const struct xl_env *b = &base->env, *nw = &new->env;
	char x[160], y[160];
	int n = 0, i, pass;

	n = add(rows, n, max, "kernel", b->kernel, nw->kernel);
	n = add(rows, n, max, "arch", b->arch, nw->arch);
	n = add(rows, n, max, "CPU model", b->cpu_model, nw->cpu_model);
	n = add(rows, n, max, "CPUs", num(x, sizeof(x), b->cpus, b->cpus > 0),
		num(y, sizeof(y), nw->cpus, nw->cpus > 0));
	n = add(rows, n, max, "host", b->host, nw->host);
	n = add(rows, n, max, "xdplab commit", base->git, new->git);
	n = add(rows, n, max, "date", base->date, new->date);
	n = add(rows, n, max, "bpf_jit_enable", num(x, sizeof(x), b->jit_enable, b->jit_enable >= 0),
		num(y, sizeof(y), nw->jit_enable, nw->jit_enable >= 0));
	n = add(rows, n, max, "bpf_jit_harden", num(x, sizeof(x), b->jit_harden, b->jit_harden >= 0),
		num(y, sizeof(y), nw->jit_harden, nw->jit_harden >= 0));
	/* An empty mitigations= is the kernel's default; say so when known. */
	n = add(rows, n, max, "mitigations=",
		base->have_vulns ? (b->cmdline_mitigations[0] ? b->cmdline_mitigations : "(default)") : "",
		new->have_vulns ? (nw->cmdline_mitigations[0] ? nw->cmdline_mitigations : "(default)") : "");
	vuln_summary(base, x, sizeof(x));
	vuln_summary(new, y, sizeof(y));
	n = add(rows, n, max, "vulnerabilities", x, y);
	if (base->have_vulns && new->have_vulns) {
		rows[n - 1].differs = false;
		/* Every name either side has, once: base's, then new's own. */
		for (pass = 0; pass < 2; pass++) {
			const struct xl_cmp_file *f = pass ? new : base;

			for (i = 0; i < f->env.nvulns; i++) {
				const char *name = f->env.vuln_name[i];
				const char *sb = vuln_state(base, name), *sn = vuln_state(new, name);

				if (pass && sb)
					continue;
				if (sb && sn && !strcmp(sb, sn))
					continue;
				rows[n - 1].differs = true;
				n = add(rows, n, max, name, sb ? sb : "(absent)", sn ? sn : "(absent)");
			}
		}
	}
	/* What makes noise (issue 19); "?" where a file does not say. */
	n = add(rows, n, max, "cpufreq governor", b->governor, nw->governor);
	n = add(rows, n, max, "boost", b->boost < 0 ? "" : b->boost ? "on" : "off",
		nw->boost < 0 ? "" : nw->boost ? "on" : "off");
	n = add(rows, n, max, "SMT", b->smt, nw->smt);
	n = add(rows, n, max, "SMT active", b->smt_active < 0 ? "" : b->smt_active ? "yes" : "no",
		nw->smt_active < 0 ? "" : nw->smt_active ? "yes" : "no");
	n = add(rows, n, max, "lab IRQs (IRQ:CPUs)", b->lab_irqs, nw->lab_irqs);
	n = add(rows, n, max, "lab wiring", base->wiring, new->wiring);
	n = add(rows, n, max, "repetitions", num(x, sizeof(x), base->reps, base->reps > 0),
		num(y, sizeof(y), new->reps, new->reps > 0));
	n = add(rows, n, max, "window s", num(x, sizeof(x), base->seconds, base->seconds > 0),
		num(y, sizeof(y), new->seconds, new->seconds > 0));
	n = add(rows, n, max, "warm-up s", num(x, sizeof(x), base->warmup, base->reps > 0),
		num(y, sizeof(y), new->warmup, new->reps > 0));
	return n;
}
