// SPDX-License-Identifier: BSD-2-Clause
/* The record of the maps `run --pin-maps DIR` pinned (pin_record.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdplab/atomicfile.h"
#include "xdplab/log.h"
#include "xdplab/pin_record.h"
#include "xdplab/tmpdir.h"

#define PREFIX "pins."
/* A record's entries at most (maps of one object). */
#define XL_PIN_RECORD_MAX 256
/* A record's size at most: XL_PIN_RECORD_MAX entries of "ID\tPATH\0". */
#define RECORD_MAX ((size_t)XL_PIN_RECORD_MAX * (PATH_MAX + 12))

/* One pin of a record: the map's kernel id and its pin path. */
struct xl_pin_entry {
	uint32_t id;
	const char *path;
};

/*
 * Record the @n entries of @e as this process's (a new
 * XL_RUN_STATE_DIR/pins.PID.NNNNNN, by a temporary name renamed into place);
 * its path into @rec (@len bytes), "" on error. Return: 0, -E2BIG, -errno.
 */
static int record_write(const struct xl_pin_entry *e, int n, char *rec, size_t len)
{
	static unsigned int seq; /* one process may record more than one object */
	size_t cap = 0, used = 0;
	char *buf;
	int i, err;

	rec[0] = '\0';
	if (n > XL_PIN_RECORD_MAX)
		return -E2BIG;
	for (i = 0; i < n; i++)
		cap += strlen(e[i].path) + 12;
	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, cap + 1 - used, "%u\t%s", e[i].id, e[i].path) + 1;
	err = xl_run_state_dir();
	if (!err) {
		snprintf(rec, len, "%s/%s%d.%06u", XL_RUN_STATE_DIR, PREFIX, (int)getpid(),
			 __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED) % 1000000);
		/* By a temporary name renamed into place: a link planted there is replaced. */
		err = xl_afile_write(rec, buf, used, 0600);
	}
	free(buf);
	if (err)
		rec[0] = '\0';
	return err;
}

/* Remove the record at @rec ("": nothing); @rec becomes "". */
static void record_clear(char *rec)
{
	if (rec[0])
		unlink(rec);
	rec[0] = '\0';
}

/* The id of the map pinned at @path, or 0 (nothing there, not a map). */
static uint32_t pinned_map_id(const char *path)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int fd = bpf_obj_get(path);
	uint32_t id = 0;

	if (fd < 0)
		return 0;
	memset(&info, 0, sizeof(info));
	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		id = info.id;
	close(fd);
	return id;
}

/* Read the record at @path (not through a link) into a new NUL-ended buffer. */
static char *read_record(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > RECORD_MAX)
		goto out;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		goto out;
	n = read(fd, buf, (size_t)st.st_size);
	if (n != st.st_size) {
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[n] = '\0';
	*len = (size_t)n;
out:
	close(fd);
	return buf;
}

struct sweep {
	void (*unpinned)(const char *path, pid_t pid, void *ctx);
	void (*kept)(const char *path, pid_t pid, void *ctx);
	void *ctx;
};

/* One dead run's record (xl_pid_records_sweep() @take): its pins, then itself. */
static int take_record(const char *path, pid_t pid, void *ctx)
{
	const struct sweep *s = ctx;
	size_t len = 0, off;
	char *buf, *tab, *end;
	unsigned long id;

	buf = read_record(path, &len);
	for (off = 0; buf && off < len; off += strlen(buf + off) + 1) {
		const char *pin;

		errno = 0;
		id = strtoul(buf + off, &tab, 10);
		if (errno || *tab != '\t' || !id || id > UINT32_MAX)
			continue;
		pin = tab + 1;
		end = buf + off + strlen(buf + off);
		if (pin >= end || pin[0] != '/')
			continue;
		if (pinned_map_id(pin) == id) {
			if (!unlink(pin) && s->unpinned)
				s->unpinned(pin, pid, s->ctx);
		} else if (!access(pin, F_OK) && s->kept) {
			s->kept(pin, pid, s->ctx);
		}
	}
	free(buf);
	return unlink(path) ? 1 : 0;
}

int xl_pin_record_sweep(void (*unpinned)(const char *path, pid_t pid, void *ctx),
			void (*kept)(const char *path, pid_t pid, void *ctx), void *ctx)
{
	struct sweep s = { unpinned, kept, ctx };
	int n = xl_pid_records_sweep(XL_RUN_STATE_DIR, PREFIX, '.', take_record, NULL, &s);

	return n == -ENOENT ? 0 : n;
}

/* @dir/NAME of map @m as libbpf pins it (every '.' made '_'). Return: 0 or -ENAMETOOLONG. */
static int pin_path(const char *dir, const struct bpf_map *m, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", dir, bpf_map__name(m));
	char *p;

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	for (p = buf; *p; p++)
		if (*p == '.')
			*p = '_';
	return 0;
}

/* "array, key 4, value 8, 1 entry" into @buf. */
static const char *shape(char *buf, size_t len, unsigned int type, unsigned int key,
			 unsigned int value, unsigned int entries)
{
	const char *t = libbpf_bpf_map_type_str(type);

	snprintf(buf, len, "%s, key %u, value %u, %u entr%s", t ? t : "map", key, value, entries,
		 entries == 1 ? "y" : "ies");
	return buf;
}

/* The one line for @path, taken when @m was to be pinned there. */
static void say_taken(const char *dir, const struct bpf_map *m, const char *path)
{
	struct bpf_map_info info;
	__u32 ilen = sizeof(info);
	char a[96], b[96];
	int fd = bpf_obj_get(path);

	memset(&info, 0, sizeof(info));
	if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &ilen) &&
	    (info.type != bpf_map__type(m) || info.key_size != bpf_map__key_size(m) ||
	     info.value_size != bpf_map__value_size(m) ||
	     info.max_entries != bpf_map__max_entries(m)))
		xl_err("--pin-maps %s: %s exists, a map of another shape than the program's %s (pinned: %s; the program's: %s): remove it or choose another directory; it is not reused",
		       dir, path, bpf_map__name(m),
		       shape(a, sizeof(a), info.type, info.key_size, info.value_size, info.max_entries),
		       shape(b, sizeof(b), bpf_map__type(m), bpf_map__key_size(m),
			     bpf_map__value_size(m), bpf_map__max_entries(m)));
	else
		xl_err("--pin-maps %s: %s exists (a pin an earlier run left?): remove it or choose another directory; it is not reused",
		       dir, path);
	if (fd >= 0)
		close(fd);
}

int xl_pin_maps_check(struct bpf_object *obj, const char *dir)
{
	char path[PATH_MAX];
	struct bpf_map *m;
	int err;

	bpf_object__for_each_map(m, obj) {
		if (!bpf_map__autocreate(m))
			continue;
		err = pin_path(dir, m, path, sizeof(path));
		if (err)
			return err;
		if (!access(path, F_OK) || errno != ENOENT) {
			say_taken(dir, m, path);
			return -EEXIST;
		}
	}
	return 0;
}

void xl_pin_maps_unpin(struct bpf_object *obj, const char *dir, char *rec)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj)
		if (bpf_map__is_pinned(m))
			bpf_map__unpin(m, NULL);
	record_clear(rec);
}

int xl_pin_maps_pin(struct bpf_object *obj, const char *dir, char *rec, size_t len)
{
	static const size_t plen = PATH_MAX;
	struct xl_pin_entry e[XL_PIN_RECORD_MAX];
	char *paths = NULL;
	struct bpf_map *m;
	int n = 0, err = 0;

	rec[0] = '\0';
	bpf_object__for_each_map(m, obj)
		n += bpf_map__autocreate(m) && bpf_map__fd(m) >= 0;
	if (n > XL_PIN_RECORD_MAX) {
		xl_err("--pin-maps %s: %d maps, at most %d can be pinned", dir, n, XL_PIN_RECORD_MAX);
		return -E2BIG;
	}
	paths = calloc(n ? n : 1, plen);
	if (!paths)
		return -ENOMEM;
	n = 0;
	bpf_object__for_each_map(m, obj) {
		struct bpf_map_info info;
		__u32 ilen = sizeof(info);

		if (!bpf_map__autocreate(m) || bpf_map__fd(m) < 0)
			continue;
		memset(&info, 0, sizeof(info));
		err = pin_path(dir, m, paths + n * plen, plen);
		if (!err && bpf_obj_get_info_by_fd(bpf_map__fd(m), &info, &ilen))
			err = -errno;
		if (err)
			goto out;
		e[n].id = info.id;
		e[n].path = paths + n * plen;
		n++;
	}
	/* Recorded first: a SIGKILL between the two leaves a record, not pins without one. */
	err = record_write(e, n, rec, len);
	if (err)
		xl_warn("--pin-maps %s: cannot record the pins in %s: %s ('xdplab cleanup' will not remove them if this run is killed)",
			dir, XL_RUN_STATE_DIR, strerror(-err));
	err = 0;
	bpf_object__for_each_map(m, obj) {
		char path[PATH_MAX];

		if (!bpf_map__autocreate(m) || bpf_map__fd(m) < 0)
			continue;
		err = pin_path(dir, m, path, sizeof(path));
		if (!err)
			err = bpf_map__pin(m, path);
		if (err == -EEXIST) {
			say_taken(dir, m, path);
			break;
		}
		if (err) {
			xl_err("--pin-maps %s: cannot pin map %s: %s (a bpffs directory, e.g. /sys/fs/bpf/NAME)",
			       dir, bpf_map__name(m), strerror(-err));
			break;
		}
	}
	if (err)
		xl_pin_maps_unpin(obj, dir, rec);
out:
	free(paths);
	return err;
}
