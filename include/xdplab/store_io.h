/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file store_io.h
 * The results store's runs in and out (docs/store.md): a stored run read
 * as compare's records (struct xl_cmp_file), the runs of a label as one
 * side of a comparison (compare --db, bisect-step), a results file read
 * to be stored, and the listings of `store list` and `store show` written
 * to a FILE *. Above xdplab/store.h (the store itself) and compare's
 * reader; never exits, writes only to the FILE * it is given.
 * Errors: one line naming the file or store and the cause into @err
 * (@errlen bytes), and -errno.
 */
#ifndef XDPLAB_STORE_IO_H
#define XDPLAB_STORE_IO_H

#include <stddef.h>
#include <stdio.h>

#include "xdplab/compare.h"
#include "xdplab/store.h"

/**
 * xl_store_read_run() - stored run @id as compare reads a results file:
 * its document (xl_store_doc()) parsed into @f (xl_cmp_from_doc(); the
 * caller frees it with xl_cmp_file_free()) under the name @name (messages
 * and @f->path say it: "store run 12"); its listing in @run when not NULL.
 * Return: 0; -EBADMSG when the stored document is not a results file (not
 * JSON, or compare's reader refuses it: @err says why); else
 * xl_store_doc()'s -ENOENT (no such run) or -errno of the store; -ENOMEM.
 */
int xl_store_read_run(struct xl_store *s, long long id, const char *name, struct xl_cmp_file *f,
		      struct xl_store_run *run, char *err, size_t errlen);

/**
 * xl_store_read_label() - the stored runs of @label as one side of a
 * comparison: the newest @max of them (all when there are no more), by
 * date then id, read with xl_store_read_run() into @f[*@nf ...], each named
 * "store run N (label L)"; *@nf is incremented for each one read (the
 * files read before a failure stay in @f for the caller to free).
 * *@nstored: how many runs the store has of @label (0: none, nothing read;
 * more than @max: the oldest were left out), set before any is read.
 * Return: 0, -EBADMSG (a stored document is not a results file), or
 * -errno of the store.
 */
int xl_store_read_label(struct xl_store *s, const char *label, int max, struct xl_cmp_file *f,
			int *nf, int *nstored, char *err, size_t errlen);

/**
 * xl_store_read_file() - the whole text of the results file @path, to be
 * stored (xl_store_add()): *@text (allocated, NUL-terminated: free()),
 * *@len bytes. Only a regular file of at most XL_STORE_MAX_DOC bytes.
 * Return: 0; -EIO (a short read) or -ENOMEM; else what refuses the file:
 * open()'s -errno, -EISDIR, -EINVAL (not a regular file), -EFBIG (too large).
 */
int xl_store_read_file(const char *path, char **text, size_t *len, char *err, size_t errlen);

/**
 * xl_store_write_list() - @n stored runs as `store list` shows them on
 * @out: a header, one line per run (id, date, label, commit, host, kernel,
 * rows, source; text from the runs escaped for a terminal), then "N run(s)
 * in STORE" with @store_name (xl_store_name()).
 * Return: 0, or -EIO when @out reports an error.
 */
int xl_store_write_list(FILE *out, const struct xl_store_run *runs, int n, const char *store_name);

/**
 * xl_store_write_run() - one stored run as `store show` shows it on @out:
 * @run's id, label, when and from where it was stored; @f's environment
 * (xl_cmp_env()); its rows (name, size, mode, wiring, repetitions, median
 * Mpps, median DUT CPU ns/packet, verdict), text escaped for a terminal.
 * Return: 0, or -EIO when @out reports an error.
 */
int xl_store_write_run(FILE *out, const struct xl_store_run *run, const struct xl_cmp_file *f);

#endif /* XDPLAB_STORE_IO_H */
