// SPDX-License-Identifier: BSD-2-Clause
/*
 * The store's PostgreSQL backend (store_priv.h), through libpq: the "?"
 * parameters of store.c's statements numbered $1, $2... here, every value
 * sent and read as text (the server casts to the column's type), the
 * server's notices demoted to debug lines. A connection lost mid-write
 * aborts the server's transaction: nothing of the run stays.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "xdplab/log.h"

#include "store_priv.h"

static void notice(void *arg, const char *msg)
{
	xl_dbg("postgresql: %s", msg);
}

/* The sqlstate's class, as -errno; s->err gets the server's message. */
static int pg_errno(struct xl_store *s, PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	xl_store_one_line(s->err, sizeof(s->err),
			  res && *PQresultErrorMessage(res) ? PQresultErrorMessage(res) :
							       PQerrorMessage(s->h));
	if (PQstatus(s->h) == CONNECTION_BAD)
		return -ECONNRESET;
	if (!state)
		return -EIO;
	if (!strcmp(state, "23505"))
		return -EEXIST;
	if (!strncmp(state, "23", 2) || !strncmp(state, "22", 2) || !strncmp(state, "42", 2))
		return -EINVAL;
	if (!strcmp(state, "55P03") || !strcmp(state, "40P01") || !strcmp(state, "40001"))
		return -EBUSY;
	if (!strcmp(state, "53200"))
		return -ENOMEM;
	if (!strcmp(state, "53100"))
		return -ENOSPC;
	return -EIO;
}

/* @sql with its "?" numbered: "$1", "$2"... (our statements have no "?" in a literal). */
static char *numbered(const char *sql)
{
	size_t len = strlen(sql), q = 0, o = 0;
	const char *p;
	char *out;
	int k = 0;

	for (p = sql; *p; p++)
		q += *p == '?';
	out = malloc(len + q * 4 + 1);
	if (!out)
		return NULL;
	for (p = sql; *p; p++)
		if (*p == '?')
			o += sprintf(out + o, "$%d", ++k);
		else
			out[o++] = *p;
	out[o] = 0;
	return out;
}

static int pg_exec(struct xl_store *s, const char *sql, const char *const *params, int np,
		   xl_store_row_fn fn, void *ctx)
{
	const char *vals[64];
	char *text = numbered(sql);
	PGresult *res;
	int r, c, nc, ret = 0;

	if (!text) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		return -ENOMEM;
	}
	res = PQexecParams(s->h, text, np, NULL, params, NULL, NULL, 0);
	free(text);
	if (!res) {
		xl_store_one_line(s->err, sizeof(s->err), PQerrorMessage(s->h));
		return PQstatus(s->h) == CONNECTION_BAD ? -ECONNRESET : -ENOMEM;
	}
	switch (PQresultStatus(res)) {
	case PGRES_COMMAND_OK:
		break;
	case PGRES_TUPLES_OK:
		nc = PQnfields(res);
		if (nc > 64)
			nc = 64;
		for (r = 0; r < PQntuples(res) && fn && !ret; r++) {
			for (c = 0; c < nc; c++)
				vals[c] = PQgetisnull(res, r, c) ? NULL : PQgetvalue(res, r, c);
			ret = fn(ctx, nc, vals);
		}
		break;
	default:
		ret = pg_errno(s, res);
	}
	PQclear(res);
	return ret;
}

static int pg_begin_write(struct xl_store *s)
{
	int err = pg_exec(s, "BEGIN", NULL, 0, NULL, NULL);

	/* Readers go on; another writer waits for our commit. */
	return err ? err : pg_exec(s, "LOCK TABLE runs IN EXCLUSIVE MODE", NULL, 0, NULL, NULL);
}

static int found(void *ctx, int ncols, const char *const *vals)
{
	*(int *)ctx = 1;
	return 0;
}

static int pg_has_table(struct xl_store *s, const char *name)
{
	const char *p[] = { name };
	int yes = 0, err;

	err = pg_exec(s, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
		      p, 1, found, &yes);
	return err ? err : yes;
}

static void pg_close(struct xl_store *s)
{
	PQfinish(s->h);
	s->h = NULL;
}

static const struct xl_store_ops pg_ops = {
	.exec = pg_exec,
	.begin_write = pg_begin_write,
	.has_table = pg_has_table,
	.close = pg_close,
};

int xl_store_pg_open(struct xl_store *s, const char *uri)
{
	/* A timeout unless the URI says otherwise (later keywords win: the URI's come after). */
	const char *keys[] = { "connect_timeout", "dbname", NULL };
	const char *vals[] = { "10", uri, NULL };
	PGconn *c;

	s->ops = &pg_ops;
	c = PQconnectdbParams(keys, vals, 1);
	s->h = c;
	if (!c) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		return -ENOMEM;
	}
	if (PQstatus(c) != CONNECTION_OK) {
		xl_store_one_line(s->err, sizeof(s->err), PQerrorMessage(c));
		pg_close(s);
		return -ECONNREFUSED;
	}
	PQsetNoticeProcessor(c, notice, NULL);
	return pg_exec(s, "SET client_min_messages = warning", NULL, 0, NULL, NULL);
}
