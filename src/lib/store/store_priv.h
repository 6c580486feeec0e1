/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/lib/store: the thin backend layer under store.c. store.c
 * holds the one schema and the one set of SQL statements, written with "?"
 * parameters; a backend runs them (PostgreSQL's numbers them $1, $2...),
 * every parameter and every result value as text (NULL for SQL NULL), and
 * says what failed in one line.
 */
#ifndef XDPLAB_STORE_PRIV_H
#define XDPLAB_STORE_PRIV_H

#include <stdbool.h>
#include <stddef.h>

struct xl_store;

/*
 * Called for each result row of a query: @vals[0..@ncols) as text, NULL
 * for SQL NULL, valid during the call only. Return 0 to go on, or -errno
 * to stop the query with that error.
 */
typedef int (*xl_store_row_fn)(void *ctx, int ncols, const char *const *vals);

struct xl_store_ops {
	/*
	 * Run @sql with @np text parameters @params (NULL entries: SQL NULL);
	 * each result row goes to @fn (NULL: none expected). Return 0 or
	 * -errno with s->err set: -EBUSY (locked past the timeout), -EINVAL
	 * (not a database of ours, a constraint), -EEXIST (a unique key
	 * taken), -EIO, -ENOMEM.
	 */
	int (*exec)(struct xl_store *s, const char *sql, const char *const *params, int np,
		    xl_store_row_fn fn, void *ctx);
	/*
	 * Start the transaction of a writer, serialised against other
	 * writers (SQLite: BEGIN IMMEDIATE; PostgreSQL: BEGIN and a lock on
	 * the runs table), so the next run id is ours. Return 0 or -errno.
	 */
	int (*begin_write)(struct xl_store *s);
	/* Does table @name exist? 1 yes, 0 no, -errno. */
	int (*has_table)(struct xl_store *s, const char *name);
	void (*close)(struct xl_store *s);
};

/* A store: the backend's ops and handle, its name for messages, the last error. */
struct xl_store {
	const struct xl_store_ops *ops;
	void *h;
	char name[512];
	char err[512];
};

/*
 * The backends' open: fill @s (ops, h) for @db; on error s->err has the
 * cause (without the store's name) and -errno is returned.
 */
int xl_store_sqlite_open(struct xl_store *s, const char *path, bool create);
int xl_store_pg_open(struct xl_store *s, const char *uri);

/* One line: newlines and runs of blanks in a library's message as one space, trimmed. */
void xl_store_one_line(char *dst, size_t len, const char *msg);

#endif /* XDPLAB_STORE_PRIV_H */
