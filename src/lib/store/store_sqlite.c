// SPDX-License-Identifier: BSD-2-Clause
/*
 * The store's SQLite backend (store_priv.h): one file, a rollback journal
 * (a writer killed mid-transaction leaves a hot journal the next open rolls
 * back), a busy timeout for another process's lock, foreign keys on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "xdplab/log.h"

#include "store_priv.h"

#define BUSY_MS_DEFAULT 5000
/* The busy timeout, ms: XDPLAB_STORE_BUSY_MS as the last open read it. */
static long busy_ms = BUSY_MS_DEFAULT;

static int sqlite_errno(struct xl_store *s, int rc, const char *what)
{
	sqlite3 *db = s->h;
	int e = rc & 0xff;

	snprintf(s->err, sizeof(s->err), "%s: %s", what,
		 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	switch (e) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		snprintf(s->err, sizeof(s->err),
			 "locked by another process (still after waiting %ld ms: XDPLAB_STORE_BUSY_MS)",
			 busy_ms);
		return -EBUSY;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		snprintf(s->err, sizeof(s->err), "not an SQLite database, or a damaged one (%s)",
			 sqlite3_errstr(rc));
		return -EINVAL;
	case SQLITE_CONSTRAINT:
		return (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY) ?
			       -EEXIST : -EINVAL;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_FULL:
		return -ENOSPC;
	}
	return -EIO;
}

static int sqlite_exec(struct xl_store *s, const char *sql, const char *const *params, int np,
		       xl_store_row_fn fn, void *ctx)
{
	const char *vals[64];
	char num[64][32];
	sqlite3_stmt *st;
	int rc, i, n, ret = 0;

	rc = sqlite3_prepare_v2(s->h, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(s, rc, "prepare");
	for (i = 0; i < np; i++) {
		rc = params[i] ? sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_STATIC) :
				 sqlite3_bind_null(st, i + 1);
		if (rc != SQLITE_OK) {
			ret = sqlite_errno(s, rc, "bind");
			goto out;
		}
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n = sqlite3_column_count(st);
		if (n > 64)
			n = 64;
		for (i = 0; i < n; i++) {
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_NULL:
				vals[i] = NULL;
				break;
			case SQLITE_FLOAT: /* SQLite's own text has 15 digits: ours round-trips */
				snprintf(num[i], sizeof(num[i]), "%.17g", sqlite3_column_double(st, i));
				vals[i] = num[i];
				break;
			default:
				vals[i] = (const char *)sqlite3_column_text(st, i);
				if (!vals[i]) {
					ret = -ENOMEM;
					snprintf(s->err, sizeof(s->err), "out of memory");
					goto out;
				}
			}
		}
		if (fn && (ret = fn(ctx, n, vals)))
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = sqlite_errno(s, rc, "step");
out:
	sqlite3_finalize(st);
	return ret;
}

static int sqlite_begin_write(struct xl_store *s)
{
	return sqlite_exec(s, "BEGIN IMMEDIATE", NULL, 0, NULL, NULL);
}

static int found(void *ctx, int ncols, const char *const *vals)
{
	*(int *)ctx = 1;
	return 0;
}

static int sqlite_has_table(struct xl_store *s, const char *name)
{
	const char *p[] = { name };
	int yes = 0, err;

	err = sqlite_exec(s, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?",
			  p, 1, found, &yes);
	return err ? err : yes;
}

static void sqlite_close(struct xl_store *s)
{
	sqlite3_close(s->h);
	s->h = NULL;
}

static const struct xl_store_ops sqlite_ops = {
	.exec = sqlite_exec,
	.begin_write = sqlite_begin_write,
	.has_table = sqlite_has_table,
	.close = sqlite_close,
};

int xl_store_sqlite_open(struct xl_store *s, const char *path, bool create)
{
	const char *ms = getenv("XDPLAB_STORE_BUSY_MS");
	long busy = BUSY_MS_DEFAULT;
	struct stat st;
	sqlite3 *db = NULL;
	char *end;
	int rc;

	if (ms && *ms) {
		busy = strtol(ms, &end, 10);
		if (*end || busy < 0 || busy > 3600000) {
			snprintf(s->err, sizeof(s->err), "XDPLAB_STORE_BUSY_MS '%s' is not 0..3600000 ms", ms);
			return -EINVAL;
		}
	}
	if (stat(path, &st)) {
		if (errno != ENOENT || !create) {
			snprintf(s->err, sizeof(s->err), "cannot open: %s%s", strerror(errno),
				 errno == ENOENT ? " (store import or lab run --store makes a store)" : "");
			return -errno;
		}
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(s->err, sizeof(s->err), "cannot open: not a regular file");
		return -EINVAL;
	}
	s->ops = &sqlite_ops;
	rc = sqlite3_open_v2(path, &db,
			     SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) |
				     SQLITE_OPEN_NOFOLLOW,
			     NULL);
	s->h = db;
	if (rc != SQLITE_OK) {
		rc = sqlite_errno(s, rc, "cannot open");
		sqlite_close(s);
		return rc;
	}
	busy_ms = busy;
	sqlite3_busy_timeout(db, (int)busy);
	rc = sqlite_exec(s, "PRAGMA foreign_keys = ON", NULL, 0, NULL, NULL);
	if (rc)
		sqlite_close(s);
	return rc;
}
