// SPDX-License-Identifier: BSD-2-Clause
/*
 * Reading a results file for comparing (xdplab/compare.h): its rows, its
 * latency rows and the machine it ran on, with jansson, every figure
 * checked and clamped; a file with two rows of one identity refused.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "xdplab/compare.h"

#include "compare_priv.h"

/* ---- reading ---- */

static void copy_str(char *dst, size_t len, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	snprintf(dst, len, "%s", json_is_string(v) ? json_string_value(v) : "");
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
	e->cpus = (int)xl_json_clamped(m, "cpus", 0, 0, INT_MAX);
	e->jit_enable = (int)xl_json_clamped(m, "bpf_jit_enable", -1, INT_MIN, INT_MAX);
	e->jit_harden = (int)xl_json_clamped(m, "bpf_jit_harden", -1, INT_MIN, INT_MAX);
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
	json_t *reps = json_object_get(o, xl_row_fields[XL_ROW_F_REPS].key), *rep, *mpps;
	struct xl_rep_result p;
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
	r->prog_ns = xl_row_field_num(o, XL_ROW_F_PROG_NS);
	/* Absent, or not a time a program run takes (below 0.01 ns its rate, 1e9 / ns, is infinite). */
	if (!(r->prog_ns >= 0.01 && r->prog_ns < 1e9))
		r->prog_ns = 0;
	if (!r->name[0])
		copy_str(r->name, sizeof(r->name), o, "benchmark"); /* older files' name */
	r->size = (unsigned int)xl_json_clamped(o, xl_row_fields[XL_ROW_F_SIZE].key, 0, 0, UINT_MAX);
	/* A repetition counts when it has a rate; its members by the repetition's field table. */
	json_array_foreach(reps, i, rep) {
		if (r->nreps == XL_MAX_REPS ||
		    !json_is_number(json_object_get(rep, xl_rep_fields[XL_REP_F_PPS].key)))
			continue;
		memset(&p, 0, sizeof(p));
		xl_fields_from_json(rep, xl_rep_fields, XL_REP_F__COUNT, &p);
		r->pps[r->nreps] = p.pps;
		r->cpu_ns[r->nreps] = p.cpu_ns_per_pkt;
		r->ctl_ns[r->nreps] = p.ctl_ns;
		r->nreps++;
	}
	for (i = 0; i < (size_t)r->nreps; i++)
		v[i] = r->pps[i] / 1e6;
	r->mpps = xl_summarize(v, r->nreps);
	/*
	 * A summary without repetitions (a single command's total), by hand: a
	 * bound it lacks is its median, not the field table's 0.
	 */
	mpps = json_object_get(o, xl_row_fields[XL_ROW_F_MPPS].key);
	if (!r->nreps && json_is_object(mpps)) {
		r->mpps.median = xl_json_num(mpps, "median", 0);
		r->mpps.min = xl_json_num(mpps, "min", r->mpps.median);
		r->mpps.max = xl_json_num(mpps, "max", r->mpps.median);
	}
}

/*
 * One object of the "latency" array (docs/results.md), by the latency row's
 * field table: counts and ns figures negative or NaN are 0, 2^64 or above
 * UINT64_MAX.
 */
static void load_lat(json_t *o, struct xl_lat_rowrec *r)
{
	memset(r, 0, sizeof(*r));
	xl_fields_from_json(o, xl_lat_row_fields, xl_lat_row_nfields, r);
}

/*
 * Two rows of one identity would pair by their order in the file, which
 * says nothing: refuse the file, naming the first such pair. 0, -EINVAL
 * (@err filled), -ENOMEM.
 */
static int check_dups(const struct xl_cmp_file *f, char *err, size_t errlen)
{
	const struct xl_cmp_rowdata *r;
	const struct xl_lat_rowrec *l;
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
	f->reps = (int)xl_json_clamped(cfg, "reps", 0, 0, INT_MAX);
	f->seconds = xl_json_num(cfg, "seconds", 0);
	f->warmup = xl_json_num(cfg, "warmup", 0);
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
