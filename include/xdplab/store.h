/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file store.h
 * The results store (docs/store.md): every run kept with its environment,
 * kernel, xdplab commit, host, date and a label the user gives, its rows
 * and each repetition's figures; in one SQLite file (the default) or a
 * shared PostgreSQL database ("postgresql://..."), one schema and one set
 * of SQL statements for both (parameters only, never text built from
 * data), versioned: a schema_version table, migrations applied on open,
 * a store of a newer schema refused. A run is written in one transaction:
 * a process killed while writing stores nothing of it.
 * The stored document is the results file's own text, so a run exported is
 * byte for byte the file imported (or the --json lab run wrote).
 * Errors: every function that can fail writes one line naming the store
 * and the cause into @err (@errlen bytes) and returns -errno.
 */
#ifndef XDPLAB_STORE_H
#define XDPLAB_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "xdplab/report.h"

/** The store schema this xdplab writes and reads (schema_version). */
#define XL_STORE_SCHEMA_VERSION 1
/** The largest results document stored or imported, bytes. */
#define XL_STORE_MAX_DOC (64u << 20)

struct xl_store;

/** Flags of xl_store_open(). */
enum {
	XL_STORE_CREATE = 1 << 0, /**< SQLite: make the file (not its directory) when missing */
};

/**
 * xl_store_default_path() - the default store, $XDG_DATA_HOME/xdplab/results.db,
 * or ~/.local/share/xdplab/results.db when XDG_DATA_HOME is unset or empty
 * (the XDG Base Directory specification), into @buf (@len bytes).
 * Return: 0, -ENOENT (no HOME either), -ENAMETOOLONG.
 */
int xl_store_default_path(char *buf, size_t len);

/**
 * xl_store_make_dir() - make the directory of @path (and its parents, mode
 * 0700 as the XDG specification asks) if missing: for the default store.
 * Return: 0 or -errno (@err set).
 */
int xl_store_make_dir(const char *path, char *err, size_t errlen);

/**
 * xl_store_open() - open the store @db: a PostgreSQL connection URI
 * ("postgresql://" or "postgres://", libpq's; a password in it is never
 * printed) or an SQLite file path. A new (empty) store gets the schema; an
 * older one is migrated in one transaction; a newer one is refused.
 * SQLite waits up to XDPLAB_STORE_BUSY_MS ms (default 5000) for a lock
 * another process holds. The caller owns *@sp (xl_store_close()).
 * Return: 0; -ENOENT (no such SQLite file without XL_STORE_CREATE),
 * -EINVAL (not an SQLite database, or a database that is not an xdplab
 * store), -EPROTO (a store of a newer schema), -EBUSY (locked past the
 * timeout), -ECONNREFUSED (PostgreSQL: cannot connect or authenticate),
 * -EIO, -ENOMEM.
 */
int xl_store_open(const char *db, unsigned int flags, struct xl_store **sp, char *err,
		  size_t errlen);

/** xl_store_close() - close @s (NULL is a no-op). */
void xl_store_close(struct xl_store *s);

/**
 * xl_store_name() - how messages name @s: the SQLite path, or the
 * PostgreSQL URI with any password shown as "***".
 */
const char *xl_store_name(const struct xl_store *s);

/**
 * xl_store_add() - store one results document: @text (@len bytes, the
 * file's text, kept as is), @label (the user's, "" none; any text: it goes
 * in as a parameter), @source (where it came from: the imported file's
 * path, or "lab run"). The document is read with compare's reader
 * (xl_cmp_from_doc(), named @source in messages): what it refuses is
 * refused here. Runs, their environment (the "machine" and "config"
 * fields), rows and repetitions go in one transaction.
 * *@id: the run's id; *@dup: true when the same document (byte for byte)
 * was stored before, as run *@id, and nothing was added.
 * Test hook: XDPLAB_STORE_DIE_AFTER_ROWS=N raises SIGKILL after the N-th
 * row is written, inside the transaction (e2e store_killed_mid_write).
 * Return: 0, -EINVAL/-EPROTO (the document: @err says why), -EFBIG (above
 * XL_STORE_MAX_DOC), -EBUSY, -EIO, -ENOMEM.
 */
int xl_store_add(struct xl_store *s, const char *text, size_t len, const char *label,
		 const char *source, long long *id, bool *dup, char *err, size_t errlen);

/**
 * struct xl_store_run - one stored run as listed. @id; @date (the run's,
 * "YYYY-MM-DDTHH:MM:SSZ"), @stored (when it was stored, same form),
 * @label, @git (xdplab commit), @host, @kernel, @schema, @source, @nrows.
 */
struct xl_store_run {
	long long id;
	char date[32], stored[32], label[256], git[48], host[65], kernel[65], schema[64];
	char source[256];
	int nrows;
};

/**
 * xl_store_list() - the runs, by date then id, of label @label ("" or
 * NULL: all) into *@runs (allocated: free()), *@n of them.
 * Return: 0 or -errno.
 */
int xl_store_list(struct xl_store *s, const char *label, struct xl_store_run **runs, int *n,
		  char *err, size_t errlen);

/**
 * xl_store_doc() - run @id's document: *@text (allocated, NUL-terminated:
 * free()), *@len bytes; its listing in @run when not NULL.
 * Return: 0, -ENOENT (no such run), -errno.
 */
int xl_store_doc(struct xl_store *s, long long id, char **text, size_t *len,
		 struct xl_store_run *run, char *err, size_t errlen);

/**
 * struct xl_store_point - one run of a row's history: the run (@run: id,
 * date, label, git, host), the row's @verdict and its repetitions' @pps
 * (frames/s) and @cpu_ns (DUT CPU ns/packet, 0 unmeasured), @nreps.
 */
struct xl_store_point {
	struct xl_store_run run;
	char verdict[24];
	int nreps;
	double pps[XL_MAX_REPS], cpu_ns[XL_MAX_REPS];
};

/**
 * struct xl_store_series - one row's runs. Identity as compare pairs rows:
 * @name, @op, @size, @mode, @wiring, @engine. @pts/@npts: its runs by
 * date then id (allocated; xl_store_series_free()).
 */
struct xl_store_series {
	char name[48], op[24], mode[16], wiring[16], engine[16];
	unsigned int size;
	struct xl_store_point *pts;
	int npts;
};

/**
 * xl_store_history() - the rows named @row ("" or NULL: every row) of the
 * runs labelled @label ("" or NULL: all) dated @since or later ("" or NULL:
 * all; compared as text with the runs' "YYYY-MM-DDTHH:MM:SSZ" dates), one
 * series per row identity, in the order the rows first appear; rows
 * without repetitions are left out. *@series (allocated), *@n.
 * Return: 0 or -errno.
 */
int xl_store_history(struct xl_store *s, const char *row, const char *label, const char *since,
		     struct xl_store_series **series, int *n, char *err, size_t errlen);

/** xl_store_series_free() - free @n series and the array. */
void xl_store_series_free(struct xl_store_series *series, int n);

#endif /* XDPLAB_STORE_H */
