// SPDX-License-Identifier: BSD-2-Clause
/*
 * A user's own XDP object: open with libbpf, choose the XDP program, load
 * with the verifier log kept for a rejection, fill and pin maps, check the
 * maps it needs, and count its return codes with an fexit program of ours
 * (bpf/prog_count.bpf.c) so the user's code is never changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "prog_count.skel.h"
#include "xdplab/bench.h"
#include "xdplab/log.h"
#include "xdplab/pin_record.h"
#include "xdplab/tmpdir.h"
#include "xdplab/userprog.h"

/* The verifier log kept for a rejected program (log level 1). */
#define LOG_BUF_SIZE (4u << 20)
/* Lines of a rejected program's log printed after the error line. */
#define LOG_TAIL_LINES 6

struct xl_userprog {
	struct bpf_object *obj;
	struct bpf_program *prog;
	char *pin_dir;
	char *log_buf;
	char pin_root[PATH_MAX]; /* the per-run directory of pin-by-name maps, or "" */
	char pin_rec[PATH_MAX];  /* the record of the pins under --pin-maps DIR, or "" */
};

bool xl_userprog_usage_error(int err)
{
	return err == -ENOENT || err == -ENOEXEC || err == -ENOMSG || err == -EINVAL ||
	       err == -EOPNOTSUPP || err == -ENOKEY;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* 0, -ENOENT or -ENOEXEC (not ELF), with the one-line error. */
static int check_file(const char *path)
{
	unsigned char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0) {
		err = -errno;
		xl_err("%s: %s", path, err == -ENOENT ? "no such file" : strerror(-err));
		return err == -ENOENT ? err : -ENOEXEC;
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n != 4 || memcmp(magic, "\177ELF", 4)) {
		xl_err("%s: not an ELF object (build BPF objects with clang -target bpf -c)", path);
		return -ENOEXEC;
	}
	return 0;
}

static bool is_xdp(const struct bpf_program *p)
{
	enum bpf_attach_type t = bpf_program__expected_attach_type(p);

	/* devmap/cpumap entry programs run on a map's entry, not on a device. */
	return bpf_program__type(p) == BPF_PROG_TYPE_XDP && t != BPF_XDP_DEVMAP &&
	       t != BPF_XDP_CPUMAP;
}

/* Choose the XDP program; 0 or -ENOMSG / -EINVAL with the one-line error. */
static int choose(struct xl_userprog *u, const struct xl_userprog_opts *o)
{
	struct bpf_program *p, *pick = NULL;
	char names[512] = "";
	int n = 0, match = 0;

	bpf_object__for_each_program(p, u->obj) {
		if (!is_xdp(p))
			continue;
		n++;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s (sec %s)",
			 n > 1 ? ", " : "", bpf_program__name(p), bpf_program__section_name(p));
		if ((o->sec && strcmp(o->sec, bpf_program__section_name(p))) ||
		    (o->func && strcmp(o->func, bpf_program__name(p))))
			continue;
		match++;
		if (!pick)
			pick = p;
	}
	if (!n) {
		xl_err("%s: no XDP program in it (none in a SEC(\"xdp\") or SEC(\"xdp.frags\") section)",
		       o->path);
		return -ENOMSG;
	}
	if (!match) {
		char want[256];

		snprintf(want, sizeof(want), "%s%s%s%s%s", o->sec ? "--sec " : "",
			 o->sec ? o->sec : "", o->sec && o->func ? " " : "",
			 o->func ? "--func " : "", o->func ? o->func : "");
		xl_err("%s: no XDP program matches %s (accepted: %s)", o->path, want, names);
		return -EINVAL;
	}
	if (match > 1) {
		xl_err("%s: %d XDP programs and no choice: give --sec NAME or --func NAME (accepted: %s)",
		       o->path, match, names);
		return -EINVAL;
	}
	u->prog = pick;
	return 0;
}

/*
 * Write the verifier log to a new file and log its last lines. The name is
 * made unguessable (mkostemps(): a random part, O_EXCL) under $TMPDIR: a
 * name known in advance could be a planted symbolic link.
 */
static void report_rejection(const struct xl_userprog *u, const struct xl_userprog_opts *o,
			     int err)
{
	char path[PATH_MAX], where[PATH_MAX + 8], why[PATH_MAX + 80];
	const char *end, *start;
	size_t len = strnlen(u->log_buf, LOG_BUF_SIZE);
	int lines = 0, fd = -1, plen, e = 0;
	FILE *f = NULL;

	if (o->log_dir)
		snprintf(where, sizeof(where), "%s", o->log_dir);
	else
		xl_tmpdir_named(where, sizeof(where));
	plen = snprintf(path, sizeof(path), "%s/xdplab-verifier-%s-%d.XXXXXX.log",
		     o->log_dir ? o->log_dir : xl_tmpdir(), base_name(o->path), (int)getpid());
	if (plen >= (int)sizeof(path))
		e = ENAMETOOLONG;
	else if ((fd = mkostemps(path, 4, O_CLOEXEC)) < 0)
		e = errno;
	if (fd >= 0) {
		f = fdopen(fd, "w");
		if (!f) {
			e = errno;
			close(fd);
			unlink(path);
		}
	}
	if (f) {
		fwrite(u->log_buf, 1, len, f);
		if (fclose(f)) {
			e = errno;
			f = NULL;
			unlink(path);
		}
	}
	if (!f)
		snprintf(why, sizeof(why), "could not be written in %s: %s", where, strerror(e));
	xl_err("%s: the verifier rejected %s: %s (full log: %s; its last lines follow)", o->path,
	       bpf_program__name(u->prog), strerror(-err), f ? path : why);
	/* The last LOG_TAIL_LINES non-empty lines, the verifier's verdict last. */
	end = u->log_buf + len;
	while (end > u->log_buf && end[-1] == '\n')
		end--;
	start = end;
	while (start > u->log_buf && lines < LOG_TAIL_LINES) {
		start--;
		if (*start == '\n')
			lines++;
	}
	if (*start == '\n')
		start++;
	while (start < end) {
		const char *nl = memchr(start, '\n', end - start);
		int n = nl ? (int)(nl - start) : (int)(end - start);
		char line[512], shown[4 * sizeof(line)];

		/* The log quotes the ELF's source lines: data, escaped. */
		snprintf(line, sizeof(line), "%.*s", n, start);
		fprintf(stderr, "    %s\n", xl_term_esc(shown, sizeof(shown), line, 0));
		start += n + 1;
	}
}

static int fill_maps(struct xl_userprog *u, const struct xl_userprog_opts *o, bool *filled_any)
{
	int i, n;

	for (i = 0; i < o->nfills; i++) {
		const char *eq = strchr(o->fills[i], '=');
		struct bpf_map *m;
		char name[128];

		if (!eq || eq == o->fills[i] || !eq[1] || (size_t)(eq - o->fills[i]) >= sizeof(name)) {
			xl_err("--map '%s': want NAME=FILE", o->fills[i]);
			return -EINVAL;
		}
		memcpy(name, o->fills[i], eq - o->fills[i]);
		name[eq - o->fills[i]] = '\0';
		m = bpf_object__find_map_by_name(u->obj, name);
		if (!m) {
			char maps[512] = "";
			struct bpf_map *x;

			bpf_object__for_each_map(x, u->obj)
				snprintf(maps + strlen(maps), sizeof(maps) - strlen(maps), "%s%s",
					 maps[0] ? ", " : "", bpf_map__name(x));
			xl_err("--map %s: %s has no map of that name (accepted: %s)", o->fills[i],
			       o->path, maps[0] ? maps : "none");
			return -EINVAL;
		}
		n = xl_map_fill_file(bpf_map__fd(m), name, bpf_map__type(m), bpf_map__key_size(m),
				     bpf_map__value_size(m), bpf_map__max_entries(m), eq + 1);
		if (n < 0)
			return n == -ENOENT ? -EINVAL : n;
		xl_info("map %s: %d entries from %s", name, n, eq + 1);
		filled_any[i] = true;
	}
	return 0;
}

/* Whether map @m holds at least one entry. */
static bool map_has_entry(const struct bpf_map *m)
{
	char key[512];

	if (bpf_map__key_size(m) > sizeof(key))
		return true; /* cannot tell: do not complain */
	return !bpf_map_get_next_key(bpf_map__fd(m), NULL, key);
}

/* A hash or LPM trie map left empty that no --map named: -ENOKEY (or warn with pins). */
static int check_needed(struct xl_userprog *u, const struct xl_userprog_opts *o)
{
	char empty[512] = "";
	struct bpf_map *m;
	int i;

	bpf_object__for_each_map(m, u->obj) {
		enum bpf_map_type t = bpf_map__type(m);
		bool named = false;

		if ((t != BPF_MAP_TYPE_HASH && t != BPF_MAP_TYPE_LPM_TRIE) ||
		    (bpf_map__map_flags(m) & BPF_F_RDONLY_PROG))
			continue;
		for (i = 0; i < o->nfills; i++) {
			size_t len = strlen(bpf_map__name(m));

			if (!strncmp(o->fills[i], bpf_map__name(m), len) && o->fills[i][len] == '=')
				named = true;
		}
		if (named || map_has_entry(m))
			continue;
		snprintf(empty + strlen(empty), sizeof(empty) - strlen(empty), "%s%s (%s)",
			 empty[0] ? ", " : "", bpf_map__name(m), libbpf_bpf_map_type_str(t));
	}
	if (!empty[0])
		return 0;
	if (o->pin_dir) {
		xl_warn("%s: map%s %s empty: fill %s through %s", o->path, strchr(empty, ',') ? "s" : "",
			empty, strchr(empty, ',') ? "them" : "it", o->pin_dir);
		return 0;
	}
	xl_err("%s: map %s is empty and not filled: give --map NAME=FILE (an empty file if empty is meant)%s",
	       o->path, empty, o->can_pin ? " or --pin-maps DIR" : "");
	return -ENOKEY;
}

/*
 * Is @dir on a bpffs: the directory itself, or when it does not exist yet
 * its parent (libbpf makes the last level)? Checked before anything is
 * loaded, so a wrong path is one line and leaves no directory behind.
 */
static bool on_bpffs(const char *dir)
{
	char parent[PATH_MAX], *slash;
	struct statfs sf;

	if (!statfs(dir, &sf))
		return sf.f_type == BPF_FS_MAGIC;
	if (errno != ENOENT)
		return false;
	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == parent)
		parent[1] = 0;
	else
		*slash = 0;
	return !statfs(parent, &sf) && sf.f_type == BPF_FS_MAGIC;
}

/*
 * Maps declared pinned by name (LIBBPF_PIN_BY_NAME) are pinned by libbpf at
 * load under /sys/fs/bpf and reused from there by the next load: counters
 * that add up across runs, a stale config, both sides of an A/B sharing
 * one map, a changed size failing with a bare EINVAL. Give them a
 * directory of this object's own instead (XL_USERPROG_PIN_ROOT/
 * xdplab-prog-PID-XXXXXX, removed by xl_userprog__destroy(), a dead run's
 * by `xdplab cleanup`), or --pin-maps DIR where the user asks for one, in
 * which an existing pin is refused rather than reused.
 */
static int pin_by_name(struct xl_userprog *u, const struct xl_userprog_opts *o)
{
	char path[PATH_MAX], first[64] = "";
	const char *root = o->pin_dir;
	struct bpf_map *m;
	int n;

	bpf_object__for_each_map(m, u->obj)
		if (bpf_map__pin_path(m) && !first[0])
			snprintf(first, sizeof(first), "%s", bpf_map__name(m));
	if (!first[0])
		return 0;
	if (!root) {
		if (!on_bpffs(XL_USERPROG_PIN_ROOT)) {
			xl_err("%s: map %s is pinned by name (LIBBPF_PIN_BY_NAME) and /sys/fs/bpf is not a BPF filesystem here: mount one ('mount -t bpf bpf /sys/fs/bpf') or give --pin-maps DIR",
			       o->path, first);
			return -EINVAL;
		}
		if (mkdir(XL_USERPROG_PIN_ROOT, 0700) && errno != EEXIST) {
			n = -errno;
			xl_err("%s: cannot make %s for map %s's pin: %s", o->path, XL_USERPROG_PIN_ROOT,
			       first, strerror(-n));
			return n;
		}
		snprintf(u->pin_root, sizeof(u->pin_root), "%s/%s%d-XXXXXX", XL_USERPROG_PIN_ROOT,
			 XL_USERPROG_PIN_PREFIX, (int)getpid());
		if (!mkdtemp(u->pin_root)) {
			n = -errno;
			xl_err("%s: cannot make a pin directory under %s for map %s: %s", o->path,
			       XL_USERPROG_PIN_ROOT, first, strerror(-n));
			u->pin_root[0] = '\0';
			return n;
		}
		root = u->pin_root;
	}
	bpf_object__for_each_map(m, u->obj) {
		if (!bpf_map__pin_path(m))
			continue;
		if (o->pin_dir) {
			/* Pinned after the load with the others (xl_pin_maps_pin()),
			 * recorded first: libbpf would pin it at load, unrecorded,
			 * and reuse one already there. */
			n = bpf_map__set_pin_path(m, NULL);
			if (n)
				return n;
			continue;
		}
		n = snprintf(path, sizeof(path), "%s/%s", root, bpf_map__name(m));
		if (n < 0 || (size_t)n >= sizeof(path))
			return -ENAMETOOLONG;
		n = bpf_map__set_pin_path(m, path);
		if (n)
			return n;
	}
	return 0;
}

/* Unpin the maps pinned under our per-run directory and remove it. */
static void unpin_by_name(struct xl_userprog *u)
{
	if (!u->pin_root[0])
		return;
	bpf_object__unpin_maps(u->obj, NULL); /* the maps with a pin path */
	rmdir(u->pin_root);
	u->pin_root[0] = '\0';
}

int xl_userprog_pins_sweep(void (*removed)(const char *path, pid_t pid, void *ctx), void *ctx)
{
	int n = xl_pid_records_sweep(XL_USERPROG_PIN_ROOT, XL_USERPROG_PIN_PREFIX, '-', NULL,
				     removed, ctx);

	return n == -ENOENT ? 0 : n;
}

struct xl_userprog *xl_userprog__load(const struct xl_userprog_opts *o)
{
	bool filled[XL_USERPROG_MAX_FILLS] = { false };
	struct xl_userprog *u;
	struct bpf_program *p;
	int err;

	if (o->nfills > XL_USERPROG_MAX_FILLS) {
		xl_err("--map: at most %d maps", XL_USERPROG_MAX_FILLS);
		errno = EINVAL;
		return NULL;
	}
	if (o->pin_dir && strchr(o->pin_dir, '.')) {
		/* libbpf turns every '.' of a pin path into '_' (bpffs names). */
		xl_err("--pin-maps %s: a path with '.' cannot be used (libbpf replaces dots in pin paths); choose another directory",
		       o->pin_dir);
		errno = EINVAL;
		return NULL;
	}
	if (o->pin_dir && !on_bpffs(o->pin_dir)) {
		xl_err("--pin-maps %s: not on a bpffs (accepted: a directory on one, e.g. /sys/fs/bpf/NAME after 'mount -t bpf bpf /sys/fs/bpf')",
		       o->pin_dir);
		errno = EINVAL;
		return NULL;
	}
	err = check_file(o->path);
	if (err) {
		errno = -err;
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->obj = bpf_object__open_file(o->path, NULL);
	if (!u->obj) {
		err = -errno;
		xl_err("%s: libbpf cannot read it as a BPF object: %s", o->path, strerror(-err));
		err = err == -ENOENT ? err : -ENOEXEC;
		goto out_free;
	}
	err = choose(u, o);
	if (err)
		goto out_close;
	err = pin_by_name(u, o);
	if (!err && o->pin_dir)
		err = xl_pin_maps_check(u->obj, o->pin_dir);
	if (err)
		goto out_close;
	u->log_buf = calloc(1, LOG_BUF_SIZE);
	if (!u->log_buf) {
		err = -ENOMEM;
		goto out_close;
	}
	/* Log level 0: libbpf asks for the log (level 1) only on a failed load. */
	bpf_program__set_log_buf(u->prog, u->log_buf, LOG_BUF_SIZE);
	/* Only the chosen XDP program: the object's other XDP programs stay out. */
	bpf_object__for_each_program(p, u->obj)
		if (p != u->prog && is_xdp(p))
			bpf_program__set_autoload(p, false);
	err = bpf_object__load(u->obj);
	if (err) {
		if (u->log_buf[0]) {
			err = -EACCES;
			report_rejection(u, o, err);
		} else {
			xl_err("%s: cannot load %s: %s%s", o->path, bpf_program__name(u->prog),
			       strerror(-err),
			       err == -EPERM ? " (needs root or CAP_BPF+CAP_NET_ADMIN)" : "");
		}
		goto out_close;
	}
	err = fill_maps(u, o, filled);
	if (err)
		goto out_close;
	err = check_needed(u, o);
	if (err)
		goto out_close;
	if (o->pin_dir) {
		err = xl_pin_maps_pin(u->obj, o->pin_dir, u->pin_rec, sizeof(u->pin_rec));
		if (err) {
			err = err == -ENOENT || err == -EINVAL ? -EINVAL : err;
			goto out_close;
		}
		u->pin_dir = strdup(o->pin_dir);
	}
	return u;
out_close:
	unpin_by_name(u);
	bpf_object__close(u->obj);
out_free:
	free(u->log_buf);
	free(u);
	errno = -err;
	return NULL;
}

int xl_userprog__fd(const struct xl_userprog *u)
{
	return bpf_program__fd(u->prog);
}

const char *xl_userprog__name(const struct xl_userprog *u)
{
	return bpf_program__name(u->prog);
}

const char *xl_userprog__sec(const struct xl_userprog *u)
{
	return bpf_program__section_name(u->prog);
}

bool xl_userprog__frags(const struct xl_userprog *u)
{
	return bpf_program__flags(u->prog) & BPF_F_XDP_HAS_FRAGS;
}

void xl_userprog__destroy(struct xl_userprog *u)
{
	if (!u)
		return;
	if (u->pin_dir)
		xl_pin_maps_unpin(u->obj, u->pin_dir, u->pin_rec);
	unpin_by_name(u);
	bpf_object__close(u->obj);
	free(u->pin_dir);
	free(u->log_buf);
	free(u);
}

/* ------------------------------------------------------ fexit counter -- */

/*
 * @recs: what a lookup of the per-CPU count writes, one record per
 * possible CPU (@ncpus of them, however many: sized here, not XL_MAX_CPUS).
 */
struct xl_count {
	struct prog_count *skel;
	int ncpus;
	struct xl_bench_rec *recs;
};

struct xl_count *xl_count__create(const struct xl_userprog *u)
{
	struct xl_count *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return NULL;
	c->ncpus = xl_bench_ncpus();
	c->recs = calloc(c->ncpus, sizeof(*c->recs));
	if (!c->recs) {
		err = -ENOMEM;
		goto out_free;
	}
	c->skel = prog_count__open();
	if (!c->skel) {
		err = -errno;
		goto out_free;
	}
	err = bpf_program__set_attach_target(c->skel->progs.xl_count_ret, xl_userprog__fd(u),
					     xl_userprog__name(u));
	if (!err)
		err = prog_count__load(c->skel);
	if (err) {
		xl_warn("cannot load the fexit counter on %s: %s (the object needs BTF: build it with -g)",
			xl_userprog__name(u), strerror(-err));
		err = -ENOTSUP;
		goto out_destroy;
	}
	err = prog_count__attach(c->skel);
	if (err) {
		xl_warn("cannot attach the fexit counter on %s: %s", xl_userprog__name(u),
			strerror(-err));
		goto out_destroy;
	}
	return c;
out_destroy:
	prog_count__destroy(c->skel);
out_free:
	free(c->recs);
	free(c);
	errno = -err;
	return NULL;
}

int xl_count__read(struct xl_count *c, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	__u32 key = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.count_stats), &key, c->recs))
		return -errno;
	xl_bench_rec_sum(c->recs, c->ncpus, total);
	if (per_cpu)
		memcpy(per_cpu, c->recs, xl_bench_detail_ncpus() * sizeof(c->recs[0]));
	return 0;
}

int xl_count_meter_read(void *c, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	return xl_count__read(c, total, per_cpu);
}

void xl_count__destroy(struct xl_count *c)
{
	if (!c)
		return;
	prog_count__destroy(c->skel);
	free(c->recs);
	free(c);
}
