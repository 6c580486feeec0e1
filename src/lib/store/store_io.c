// SPDX-License-Identifier: BSD-2-Clause
/*
 * The store's runs in and out (xdplab/store_io.h): a stored run as
 * compare's records, a label's runs as a side of a comparison, a results
 * file read to be stored, `store list` and `store show` written out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "xdplab/escape.h"
#include "xdplab/stats.h"
#include "xdplab/store_io.h"

int xl_store_read_run(struct xl_store *s, long long id, const char *name, struct xl_cmp_file *f,
		      struct xl_store_run *run, char *err, size_t errlen)
{
	json_t *doc;
	size_t len;
	char *text;
	int ret;

	ret = xl_store_doc(s, id, &text, &len, run, err, errlen);
	if (ret)
		return ret;
	doc = json_loadb(text, len, 0, NULL);
	if (!doc) {
		snprintf(err, errlen, "stored document is not JSON");
		ret = -EBADMSG;
	} else {
		ret = xl_cmp_from_doc(name, doc, f, err, errlen);
		if (ret && ret != -ENOMEM)
			ret = -EBADMSG;
	}
	json_decref(doc);
	free(text);
	return ret;
}

int xl_store_read_label(struct xl_store *s, const char *label, int max, struct xl_cmp_file *f,
			int *nf, int *nstored, char *err, size_t errlen)
{
	struct xl_store_run *runs;
	char name[320];
	int n, k, ret = 0;

	*nstored = 0;
	ret = xl_store_list(s, label, &runs, &n, err, errlen);
	if (ret)
		return ret;
	*nstored = n;
	for (k = n > max ? n - max : 0; k < n && !ret; k++) {
		snprintf(name, sizeof(name), "store run %lld (label %s)", runs[k].id, label);
		ret = xl_store_read_run(s, runs[k].id, name, &f[*nf], NULL, err, errlen);
		if (!ret)
			(*nf)++;
	}
	free(runs);
	return ret;
}

int xl_store_read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	size_t got = 0;
	ssize_t r;
	char *buf;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > XL_STORE_MAX_DOC) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : !S_ISREG(st.st_mode) ? -EINVAL : -EFBIG;
		snprintf(err, errlen, "%s: %s", path, ret == -EISDIR ? strerror(EISDIR) :
			 ret == -EINVAL ? "not a regular file" : "larger than 64 MiB");
		close(fd);
		return ret;
	}
	buf = malloc(st.st_size + 1);
	while (buf && got < (size_t)st.st_size && (r = read(fd, buf + got, st.st_size - got)) > 0)
		got += r;
	close(fd);
	if (!buf || got != (size_t)st.st_size) {
		snprintf(err, errlen, "%s: cannot read: %s", path, buf ? "short read" : strerror(ENOMEM));
		ret = buf ? -EIO : -ENOMEM;
		free(buf);
		return ret;
	}
	buf[got] = 0;
	*text = buf;
	*len = got;
	return 0;
}

int xl_store_write_list(FILE *out, const struct xl_store_run *runs, int n, const char *store_name)
{
	int i;

	fprintf(out, "%6s  %-20s  %-24s  %-12s  %-16s  %-24s  %4s  %s\n", "id", "date", "label",
		"commit", "host", "kernel", "rows", "source");
	for (i = 0; i < n; i++)
		fprintf(out, "%6lld  %-20s  %-24s  %-12s  %-16s  %-24s  %4d  %s\n", runs[i].id,
			XL_ESC(runs[i].date), XL_ESC(runs[i].label[0] ? runs[i].label : "-"),
			XL_ESC(runs[i].git), XL_ESC(runs[i].host[0] ? runs[i].host : "?"),
			XL_ESC(runs[i].kernel), runs[i].nrows, XL_ESC(runs[i].source));
	fprintf(out, "%d run(s) in %s\n", n, XL_ESC(store_name));
	return ferror(out) ? -EIO : 0;
}

int xl_store_write_run(FILE *out, const struct xl_store_run *run, const struct xl_cmp_file *f)
{
	struct xl_cmp_env_row e[64];
	int i, k, ne;

	fprintf(out, "run %lld: label %s, stored %s from %s\n", run->id,
		XL_ESC(run->label[0] ? run->label : "-"), XL_ESC(run->stored), XL_ESC(run->source));
	ne = xl_cmp_env(f, f, e, 64);
	for (i = 0; i < ne; i++)
		fprintf(out, "  %-22s %s\n", XL_ESC(e[i].field), XL_ESC(e[i].base));
	fprintf(out, "\n%-24s %5s %-7s %-9s %5s %10s %10s  %s\n", "row", "size", "mode", "wiring",
		"reps", "Mpps", "CPU ns/p", "verdict");
	for (i = 0; i < f->nrows; i++) {
		const struct xl_cmp_rowdata *r = &f->rows[i];
		double cpu[XL_MAX_REPS];

		for (k = 0; k < r->nreps; k++)
			cpu[k] = r->cpu_ns[k];
		fprintf(out, "%-24s %5u %-7s %-9s %5d %10.3f %10.1f  %s\n", XL_ESC(r->name), r->size,
			XL_ESC(r->mode), XL_ESC(r->wiring[0] ? r->wiring : "-"), r->nreps,
			r->mpps.median, r->nreps ? xl_summarize(cpu, r->nreps).median : 0,
			XL_ESC(r->verdict));
	}
	return ferror(out) ? -EIO : 0;
}
