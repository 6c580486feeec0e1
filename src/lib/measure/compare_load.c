// SPDX-License-Identifier: BSD-2-Clause
/*
 * One side of a comparison read from the command line's paths
 * (xdplab/compare_runs.h, xl_cmp_load_side()): results files, or
 * directories of them (every *.json by name, an A/A calibration aside).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "xdplab/compare_runs.h"

/* Where xl_cmp_load_side() puts what it reads. */
struct side {
	struct xl_cmp_file *f;
	int cap, *nf;
	char *calib;
	size_t calib_len;
	char *err;
	size_t errlen;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* An A/A calibration (lab run --aa) in a directory of runs is not a run. */
static bool is_calibration(const char *path)
{
	const char *b = strrchr(path, '/');

	return !strcmp(b ? b + 1 : path, "calibration.json");
}

/* Load @path into the next slot. */
static int load_one(struct side *s, const char *path)
{
	int ret;

	if (*s->nf == s->cap) {
		snprintf(s->err, s->errlen, "%s: more than %d runs a side", path, XL_CMP_MAX_RUNS);
		return -E2BIG;
	}
	ret = xl_cmp_load(path, &s->f[*s->nf], s->err, s->errlen);
	if (!ret)
		(*s->nf)++;
	return ret;
}

/* Every *.json in directory @dir (but calibration.json), by name. */
static int load_dir(struct side *s, const char *dir)
{
	struct dirent *de;
	char **names = NULL, path[4096];
	int n = 0, i, ret = 0;
	size_t len;
	DIR *d = opendir(dir);

	if (!d) {
		ret = -errno;
		snprintf(s->err, s->errlen, "%s: cannot open: %s", dir, strerror(errno));
		return ret;
	}
	while ((de = readdir(d))) {
		char **nn;

		len = strlen(de->d_name);
		if (is_calibration(de->d_name) && s->calib && !s->calib[0])
			snprintf(s->calib, s->calib_len, "%s/%s", dir, de->d_name);
		if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json") ||
		    is_calibration(de->d_name))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn || !(nn[n] = strdup(de->d_name))) {
			names = nn ? nn : names;
			snprintf(s->err, s->errlen, "%s: out of memory", dir);
			ret = -ENOMEM;
			goto out;
		}
		names = nn;
		n++;
	}
	if (!n) {
		snprintf(s->err, s->errlen, "%s: no results file (*.json) in the directory", dir);
		ret = -ENODATA;
		goto out;
	}
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ret = load_one(s, path);
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return ret;
}

int xl_cmp_load_side(char *const *paths, int n, struct xl_cmp_file *f, int cap, int *nf,
		     char *calib, size_t calib_len, char *err, size_t errlen)
{
	struct side s = { f, cap, nf, calib, calib_len, err, errlen };
	struct stat st;
	int i, ret;

	for (i = 0; i < n; i++) {
		if (!stat(paths[i], &st) && S_ISDIR(st.st_mode))
			ret = load_dir(&s, paths[i]);
		else
			ret = load_one(&s, paths[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Whether @name is one of the comma-separated names of @list. */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list, *e;

	for (; p; p = e ? e + 1 : NULL) {
		e = strchr(p, ',');
		if ((e ? (size_t)(e - p) : strlen(p)) == n && !strncmp(p, name, n))
			return true;
	}
	return false;
}

int xl_cmp_file_keep(struct xl_cmp_file *f, const char *names)
{
	int i, k = 0;

	for (i = 0; i < f->nrows; i++)
		if (in_list(names, f->rows[i].name))
			f->rows[k++] = f->rows[i];
	f->nrows = k;
	for (i = 0, k = 0; i < f->nlat; i++)
		if (in_list(names, f->lat[i].name))
			f->lat[k++] = f->lat[i];
	f->nlat = k;
	return f->nrows + f->nlat;
}
