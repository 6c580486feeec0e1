// SPDX-License-Identifier: BSD-2-Clause
/*
 * The results store (xdplab/store.h): the one schema, its migrations,
 * opening a store and the statements that write a run, run by the SQLite
 * or the PostgreSQL backend (store_priv.h); the reading statements are
 * store_read.c's. Every value from a results file or the user goes in as
 * a parameter; SQL text is never built from data.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "xdplab/compare.h"
#include "xdplab/log.h"
#include "xdplab/store.h"

#include "store_priv.h"

/*
 * The schema, as migrations: MIGRATIONS[v] takes a store from version v to
 * v + 1, its last statement setting schema_version (the first INSERTs it,
 * a later one will "UPDATE schema_version SET version = 2"); they run in
 * one transaction on open. Types both engines take alike: INTEGER (PostgreSQL int4; ids and
 * counts), DOUBLE PRECISION (SQLite: REAL affinity), TEXT. Run ids are
 * given by store.c (the next after the largest, under the writer's lock),
 * not by an engine's own sequence, so the statements are the same.
 */
static const char *const MIGRATION_1[] = {
	"CREATE TABLE schema_version (version INTEGER NOT NULL)",
	"CREATE TABLE runs (id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE,"
	" stored_at TEXT NOT NULL, date TEXT NOT NULL, label TEXT NOT NULL, git TEXT NOT NULL,"
	" host TEXT NOT NULL, kernel TEXT NOT NULL, arch TEXT NOT NULL, cpus INTEGER NOT NULL,"
	" cpu_model TEXT NOT NULL, schema_name TEXT NOT NULL, command TEXT NOT NULL,"
	" lab TEXT NOT NULL, reps INTEGER NOT NULL, seconds DOUBLE PRECISION NOT NULL,"
	" warmup DOUBLE PRECISION NOT NULL, wiring TEXT NOT NULL, source TEXT NOT NULL,"
	" doc TEXT NOT NULL)",
	"CREATE INDEX runs_label ON runs (label, date)",
	"CREATE TABLE run_env (run_id INTEGER NOT NULL REFERENCES runs (id), key TEXT NOT NULL,"
	" value TEXT NOT NULL, PRIMARY KEY (run_id, key))",
	"CREATE TABLE run_rows (run_id INTEGER NOT NULL REFERENCES runs (id), idx INTEGER NOT NULL,"
	" name TEXT NOT NULL, op TEXT NOT NULL, size INTEGER NOT NULL, mode TEXT NOT NULL,"
	" wiring TEXT NOT NULL, engine TEXT NOT NULL, verdict TEXT NOT NULL,"
	" cpu_source TEXT NOT NULL, note TEXT NOT NULL, nreps INTEGER NOT NULL,"
	" PRIMARY KEY (run_id, idx))",
	"CREATE INDEX run_rows_name ON run_rows (name)",
	"CREATE TABLE run_reps (run_id INTEGER NOT NULL, row_idx INTEGER NOT NULL,"
	" rep INTEGER NOT NULL, pps DOUBLE PRECISION NOT NULL,"
	" cpu_ns_per_pkt DOUBLE PRECISION NOT NULL, PRIMARY KEY (run_id, row_idx, rep),"
	" FOREIGN KEY (run_id, row_idx) REFERENCES run_rows (run_id, idx))",
	"INSERT INTO schema_version (version) VALUES (1)",
	NULL,
};
static const char *const *const MIGRATIONS[XL_STORE_SCHEMA_VERSION] = { MIGRATION_1 };

void xl_store_one_line(char *dst, size_t len, const char *msg)
{
	size_t o = 0;
	bool blank = false;

	if (!len)
		return;
	for (; msg && *msg && o + 1 < len; msg++) {
		if (*msg == '\n' || *msg == '\r' || *msg == '\t' || *msg == ' ') {
			blank = o > 0;
			continue;
		}
		if (blank && o + 2 < len)
			dst[o++] = ' ';
		blank = false;
		dst[o++] = *msg;
	}
	dst[o] = 0;
}

int xl_store_default_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (x && *x)
		n = snprintf(buf, len, "%s/xdplab/results.db", x);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/xdplab/results.db", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int xl_store_make_dir(const char *path, char *err, size_t errlen)
{
	char d[PATH_MAX], *p;

	if (snprintf(d, sizeof(d), "%s", path) >= (int)sizeof(d)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	p = strrchr(d, '/');
	if (!p || p == d)
		return 0;
	*p = 0;
	for (p = d + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;

		*p = 0;
		if (mkdir(d, 0700) && errno != EEXIST) {
			int e = errno;

			snprintf(err, errlen, "cannot make %s: %s", d, strerror(e));
			return -e;
		}
		if (!c)
			return 0;
		*p = c;
	}
}

static bool is_pg(const char *db)
{
	return !strncmp(db, "postgresql://", 13) || !strncmp(db, "postgres://", 11);
}

/* The URI with the password of "user:password@" as "***". */
static void masked(char *dst, size_t len, const char *uri)
{
	const char *s = strstr(uri, "://"), *at, *colon;

	s = s ? s + 3 : uri;
	at = strchr(s, '@');
	colon = at ? memchr(s, ':', at - s) : NULL;
	if (!colon || strpbrk(s, "/?") < at) {
		snprintf(dst, len, "%s", uri);
		return;
	}
	snprintf(dst, len, "%.*s***%s", (int)(colon + 1 - uri), uri, at);
}

const char *xl_store_name(const struct xl_store *s)
{
	return s->name;
}

/* Rollback after a failure; its own error is not the one to report. */
static void rollback(struct xl_store *s)
{
	char keep[sizeof(s->err)];

	memcpy(keep, s->err, sizeof(keep));
	s->ops->exec(s, "ROLLBACK", NULL, 0, NULL, NULL);
	memcpy(s->err, keep, sizeof(keep));
}

static int get_int(void *ctx, int ncols, const char *const *vals)
{
	*(long long *)ctx = vals[0] ? strtoll(vals[0], NULL, 10) : 0;
	return 0;
}

/* Give the store the current schema; refuse a newer one. */
static int schema(struct xl_store *s)
{
	long long v = 0;
	int err, i;

	err = s->ops->has_table(s, "schema_version");
	if (err < 0)
		return err;
	if (err) {
		err = s->ops->exec(s, "SELECT MAX(version) FROM schema_version", NULL, 0, get_int,
				   &v);
		if (err)
			return err;
		if (v > XL_STORE_SCHEMA_VERSION) {
			snprintf(s->err, sizeof(s->err),
				 "store schema version %lld is newer than this xdplab's (%d): use a newer xdplab",
				 v, XL_STORE_SCHEMA_VERSION);
			return -EPROTO;
		}
		if (v == XL_STORE_SCHEMA_VERSION)
			return 0;
	} else if ((err = s->ops->has_table(s, "runs")) != 0) {
		if (err > 0)
			snprintf(s->err, sizeof(s->err),
				 "has a table 'runs' but no schema_version: not an xdplab store");
		return err > 0 ? -EINVAL : err;
	}
	err = s->ops->exec(s, "BEGIN", NULL, 0, NULL, NULL);
	for (; !err && v < XL_STORE_SCHEMA_VERSION; v++)
		for (i = 0; !err && MIGRATIONS[v][i]; i++)
			err = s->ops->exec(s, MIGRATIONS[v][i], NULL, 0, NULL, NULL);
	if (err) {
		rollback(s);
		return err;
	}
	return s->ops->exec(s, "COMMIT", NULL, 0, NULL, NULL);
}

int xl_store_open(const char *db, unsigned int flags, struct xl_store **sp, char *err,
		  size_t errlen)
{
	struct xl_store *s = calloc(1, sizeof(*s));
	int ret;

	if (!s) {
		snprintf(err, errlen, "%s: out of memory", db);
		return -ENOMEM;
	}
	if (is_pg(db)) {
		masked(s->name, sizeof(s->name), db);
		ret = xl_store_pg_open(s, db);
	} else {
		snprintf(s->name, sizeof(s->name), "%s", db);
		ret = xl_store_sqlite_open(s, db, flags & XL_STORE_CREATE);
	}
	if (!ret)
		ret = schema(s);
	if (ret) {
		snprintf(err, errlen, "%s: %s", s->name, s->err);
		xl_store_close(s);
		return ret;
	}
	*sp = s;
	return 0;
}

void xl_store_close(struct xl_store *s)
{
	if (!s)
		return;
	if (s->ops && s->h)
		s->ops->close(s);
	free(s);
}

/* ---- writing a run ---- */

/* FNV-1a, 64 bits, in hex: the document's identity (the same bytes stored twice). */
static void digest(char out[17], const char *text, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)text[i];
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 17, "%016" PRIx64, h);
}

static const char *jstr(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

/* A field's value as the env table keeps it: strings as they are, the rest as JSON. */
static int put_env(struct xl_store *s, const char *id, const char *key, json_t *v)
{
	char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	const char *p[] = { id, key, json_is_string(v) ? json_string_value(v) : text };
	int err;

	if (!p[2]) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		return -ENOMEM;
	}
	err = s->ops->exec(s, "INSERT INTO run_env (run_id, key, value) VALUES (?, ?, ?)", p, 3,
			   NULL, NULL);
	free(text);
	return err;
}

/* The "machine" object's fields (one level of objects as "vulnerabilities.NAME") and the "config"'s as "config.KEY". */
static int put_envs(struct xl_store *s, const char *id, json_t *doc)
{
	json_t *m = json_object_get(doc, "machine"), *v, *v2;
	const char *k, *k2;
	char key[256];
	int err = 0;

	json_object_foreach(m, k, v) {
		if (json_is_object(v)) {
			json_object_foreach(v, k2, v2) {
				snprintf(key, sizeof(key), "%s.%s", k, k2);
				if ((err = put_env(s, id, key, v2)))
					return err;
			}
		} else if ((err = put_env(s, id, k, v))) {
			return err;
		}
	}
	json_object_foreach(json_object_get(doc, "config"), k, v) {
		snprintf(key, sizeof(key), "config.%s", k);
		if ((err = put_env(s, id, key, v)))
			return err;
	}
	return 0;
}

static int die_after_rows(void)
{
	const char *v = getenv("XDPLAB_STORE_DIE_AFTER_ROWS");

	return v && *v ? atoi(v) : -1;
}

static int put_rows(struct xl_store *s, const char *id, const struct xl_cmp_file *f)
{
	char idx[16], size[16], nreps[16], rep[16], pps[32], cpu[32];
	int i, k, err, die = die_after_rows();

	for (i = 0; i < f->nrows; i++) {
		const struct xl_cmp_rowdata *r = &f->rows[i];
		const char *p[] = { id, idx, r->name, r->op, size, r->mode, r->wiring, r->engine,
				    r->verdict, r->cpu_source, r->note, nreps };

		snprintf(idx, sizeof(idx), "%d", i);
		snprintf(size, sizeof(size), "%u", r->size);
		snprintf(nreps, sizeof(nreps), "%d", r->nreps);
		err = s->ops->exec(s, "INSERT INTO run_rows (run_id, idx, name, op, size, mode, wiring,"
				      " engine, verdict, cpu_source, note, nreps)"
				      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				   p, 12, NULL, NULL);
		for (k = 0; !err && k < r->nreps; k++) {
			const char *q[] = { id, idx, rep, pps, cpu };

			snprintf(rep, sizeof(rep), "%d", k);
			snprintf(pps, sizeof(pps), "%.17g", r->pps[k]);
			snprintf(cpu, sizeof(cpu), "%.17g", r->cpu_ns[k]);
			err = s->ops->exec(s, "INSERT INTO run_reps (run_id, row_idx, rep, pps,"
					      " cpu_ns_per_pkt) VALUES (?, ?, ?, ?, ?)",
					   q, 5, NULL, NULL);
		}
		if (err)
			return err;
		if (i + 1 == die) /* the test hook: killed inside the transaction */
			raise(SIGKILL);
	}
	return 0;
}

static int put_run(struct xl_store *s, const char *text, json_t *doc, const struct xl_cmp_file *f,
		   const char *label, const char *source, const char *dg, long long *id)
{
	char sid[24], cpus[16], reps[16], secs[32], warm[32], stored[32];
	json_t *m = json_object_get(doc, "machine");
	time_t now = time(NULL);
	int err;

	err = s->ops->exec(s, "SELECT COALESCE(MAX(id), 0) + 1 FROM runs", NULL, 0, get_int, id);
	if (err)
		return err;
	snprintf(sid, sizeof(sid), "%lld", *id);
	snprintf(cpus, sizeof(cpus), "%d", f->env.cpus);
	snprintf(reps, sizeof(reps), "%d", f->reps);
	snprintf(secs, sizeof(secs), "%.17g", f->seconds);
	snprintf(warm, sizeof(warm), "%.17g", f->warmup);
	strftime(stored, sizeof(stored), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	{
		const char *p[] = { sid, dg, stored, f->date, label, f->git, f->env.host,
				    f->env.kernel, jstr(m, "arch"), cpus, f->env.cpu_model,
				    f->schema, jstr(doc, "command"), jstr(doc, "lab"), reps, secs,
				    warm, f->wiring, source, text };

		err = s->ops->exec(s, "INSERT INTO runs (id, digest, stored_at, date, label, git, host,"
				      " kernel, arch, cpus, cpu_model, schema_name, command, lab, reps,"
				      " seconds, warmup, wiring, source, doc)"
				      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
				   p, 20, NULL, NULL);
	}
	if (!err)
		err = put_envs(s, sid, doc);
	if (!err)
		err = put_rows(s, sid, f);
	return err;
}

int xl_store_add(struct xl_store *s, const char *text, size_t len, const char *label,
		 const char *source, long long *id, bool *dup, char *err, size_t errlen)
{
	struct xl_cmp_file f;
	const char *p[1];
	char dg[17];
	json_error_t je;
	json_t *doc;
	int ret;

	*dup = false;
	if (len > XL_STORE_MAX_DOC) {
		snprintf(err, errlen, "%s: larger than %u MiB", source, XL_STORE_MAX_DOC >> 20);
		return -EFBIG;
	}
	if (memchr(text, 0, len)) {
		snprintf(err, errlen, "%s: not JSON (a NUL byte); expected an xdplab results file (lab run --json)",
			 source);
		return -EINVAL;
	}
	doc = json_loadb(text, len, 0, &je);
	if (!doc) {
		snprintf(err, errlen, "%s: not JSON (line %d: %s); expected an xdplab results file (lab run --json)",
			 source, je.line, je.text);
		return -EINVAL;
	}
	ret = xl_cmp_from_doc(source, doc, &f, err, errlen);
	if (ret)
		goto out_doc;
	digest(dg, text, len);
	p[0] = dg;
	ret = s->ops->begin_write(s);
	if (ret)
		goto out_err;
	*id = 0;
	ret = s->ops->exec(s, "SELECT id FROM runs WHERE digest = ?", p, 1, get_int, id);
	if (!ret && *id) {
		*dup = true;
		ret = s->ops->exec(s, "COMMIT", NULL, 0, NULL, NULL);
		goto out_err;
	}
	if (!ret)
		ret = put_run(s, text, doc, &f, label ? label : "", source, dg, id);
	if (ret) {
		rollback(s);
		goto out_err;
	}
	ret = s->ops->exec(s, "COMMIT", NULL, 0, NULL, NULL);
out_err:
	if (ret)
		snprintf(err, errlen, "%s: cannot store %s: %s", s->name, source, s->err);
	xl_cmp_file_free(&f);
out_doc:
	json_decref(doc);
	return ret;
}
