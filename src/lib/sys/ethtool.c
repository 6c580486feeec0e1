// SPDX-License-Identifier: BSD-2-Clause
/*
 * A device's named ethtool counters (SIOCETHTOOL, what `ethtool -S` prints)
 * and the one per-queue summer. The meter reads them every sample, so the
 * names are resolved to indices once per (socket, device, names): the
 * first read asks ETHTOOL_GSSET_INFO and ETHTOOL_GSTRINGS, every later one
 * only ETHTOOL_GSTATS (one ioctl, one RTNL round trip instead of three, no
 * string table copied and searched). Before, every read did all three
 * (issue 12, the meter's own cost).
 *
 * A table that changed under us (a driver whose counters follow its
 * channels) is noticed, never misread: the kernel answers GSTATS with
 * n_stats set to its current count (since 2025 it refuses a different
 * count with n_stats 0 instead, net/ethtool/ioctl.c ethtool_get_stats());
 * either way a count other than ours drops the entry and resolves again.
 * An older kernel copies its whole, larger table whatever count we asked
 * for, so the values buffer ends at a PROT_NONE page: the copy faults
 * (-EFAULT) instead of writing past it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "xdplab/sysstat.h"

static int real_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

xl_ethtool_ioctl_fn xl_ethtool_ioctl = real_ioctl;

/* Most names one read asks for (XL_ETHTOOL_MAX_NAMES). */
#define CACHE_NAMES XL_ETHTOOL_MAX_NAMES
#define CACHE_ENTRIES 32

/*
 * One resolved (socket, device, names): @idx[i] is names[i]'s index in the
 * driver's table (-1: the driver has no such counter); @st is the GSTATS
 * buffer of @cnt values, ending at a guard page (@map/@map_len).
 */
struct cache_entry {
	bool used;
	int fd;
	ino_t ino;
	char ifname[IF_NAMESIZE];
	int n;
	char names[CACHE_NAMES][ETH_GSTRING_LEN];
	int idx[CACHE_NAMES];
	uint32_t cnt;
	struct ethtool_stats *st;
	void *map;
	size_t map_len;
	uint64_t last_use;
};

static struct {
	pthread_mutex_t lock;
	bool off;
	uint64_t clock;
	struct cache_entry e[CACHE_ENTRIES];
} cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* A GSTATS buffer for @cnt values that ends where a PROT_NONE page begins. */
static struct ethtool_stats *guarded_stats(uint32_t cnt, void **map, size_t *map_len)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t need = sizeof(struct ethtool_stats) + (size_t)cnt * sizeof(__u64);
	size_t data = (need + page - 1) / page * page;
	char *m;

	m = mmap(NULL, data + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m + data, page, PROT_NONE)) {
		munmap(m, data + page);
		return NULL;
	}
	*map = m;
	*map_len = data + page;
	/* need is a multiple of 8: the values stay 8-byte aligned. */
	return (struct ethtool_stats *)(m + data - need);
}

/*
 * The index of each of @names (@n) in the device's string set @sset
 * (ETHTOOL_GSSET_INFO + ETHTOOL_GSTRINGS) into @idx (-1: not there); the
 * set's size into *@cnt. Return: 0 or -errno (-EOPNOTSUPP: an empty set,
 * -EAGAIN: the set changed between the two calls).
 */
static int string_indexes(int fd, const char *ifname, uint32_t sset_id, const char *const names[],
			  int n, int idx[], uint32_t *cnt)
{
	struct {
		struct ethtool_sset_info hdr;
		__u32 buf[1];
	} sset = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << sset_id } };
	struct ethtool_gstrings *strs;
	int i, j, err;

	err = xl_ethtool_ioctl(fd, ifname, &sset);
	if (err)
		return err;
	*cnt = sset.hdr.sset_mask ? sset.hdr.data[0] : 0;
	if (!*cnt)
		return -EOPNOTSUPP;
	strs = calloc(1, sizeof(*strs) + (size_t)*cnt * ETH_GSTRING_LEN);
	if (!strs)
		return -ENOMEM;
	strs->cmd = ETHTOOL_GSTRINGS;
	strs->string_set = sset_id;
	strs->len = *cnt;
	err = xl_ethtool_ioctl(fd, ifname, strs);
	if (!err && strs->len != *cnt)
		err = -EAGAIN;
	for (i = 0; !err && i < n; i++) {
		idx[i] = -1;
		for (j = 0; j < (int)*cnt; j++)
			if (!strncmp((char *)strs->data + (size_t)j * ETH_GSTRING_LEN, names[i],
				     ETH_GSTRING_LEN)) {
				idx[i] = j;
				break;
			}
	}
	free(strs);
	return err;
}

/*
 * Resolve @names on the device into @e: its table's size, each name's
 * index, a buffer for the values. Return: 0 or -errno (-EOPNOTSUPP: no
 * statistics).
 */
static int resolve(int fd, const char *ifname, const char *const names[], int n,
		   struct cache_entry *e)
{
	int i, err;
	uint32_t cnt;

	err = string_indexes(fd, ifname, ETH_SS_STATS, names, n, e->idx, &cnt);
	if (err)
		return err;
	/*
	 * With the cache off (the bench's "before"), the read is the old one:
	 * a plain allocation, freed after the read, as every read did.
	 */
	if (cache.off) {
		e->st = calloc(1, sizeof(*e->st) + (size_t)cnt * sizeof(__u64));
		e->map = e->st;
		e->map_len = 0;
	} else {
		e->st = guarded_stats(cnt, &e->map, &e->map_len);
	}
	if (!e->st)
		return -ENOMEM;
	e->cnt = cnt;
	e->fd = fd;
	snprintf(e->ifname, sizeof(e->ifname), "%s", ifname);
	e->n = n;
	for (i = 0; i < n; i++)
		snprintf(e->names[i], ETH_GSTRING_LEN, "%s", names[i]);
	e->used = true;
	return 0;
}

/* GSTATS into @e and the values of its names. Return: names found, or -errno. */
static int read_entry(struct cache_entry *e, uint64_t vals[])
{
	int i, err, found = 0;

	e->st->cmd = ETHTOOL_GSTATS;
	e->st->n_stats = e->cnt;
	err = xl_ethtool_ioctl(e->fd, e->ifname, e->st);
	if (err)
		return err;
	if (e->st->n_stats != e->cnt)
		return -EAGAIN; /* another table now: resolve again */
	for (i = 0; i < e->n; i++) {
		vals[i] = e->idx[i] >= 0 ? e->st->data[e->idx[i]] : UINT64_MAX;
		found += e->idx[i] >= 0;
	}
	return found;
}

/* Free @e's buffer (map_len 0: a plain allocation of the cache-off read). */
static void free_entry_buf(struct cache_entry *e)
{
	if (!e->map_len)
		free(e->map);
	else
		munmap(e->map, e->map_len);
}

static void drop_entry(struct cache_entry *e)
{
	if (e->used)
		free_entry_buf(e);
	e->used = false;
}

bool xl_ethtool_cache_set(bool on)
{
	bool was;
	int i;

	pthread_mutex_lock(&cache.lock);
	was = !cache.off;
	cache.off = !on;
	for (i = 0; !on && i < CACHE_ENTRIES; i++)
		if (cache.e[i].used) {
			free_entry_buf(&cache.e[i]);
			cache.e[i].used = false;
		}
	pthread_mutex_unlock(&cache.lock);
	return was;
}

static struct cache_entry *lookup(int fd, ino_t ino, const char *ifname,
				  const char *const names[], int n)
{
	int i, j;

	for (i = 0; i < CACHE_ENTRIES; i++) {
		struct cache_entry *e = &cache.e[i];

		if (!e->used || e->fd != fd || e->ino != ino || e->n != n ||
		    strncmp(e->ifname, ifname, sizeof(e->ifname)))
			continue;
		for (j = 0; j < n; j++)
			if (strncmp(e->names[j], names[j], ETH_GSTRING_LEN))
				break;
		if (j == n)
			return e;
	}
	return NULL;
}

/* The entry to fill next: a free one, else the least recently used. */
static struct cache_entry *victim(void)
{
	struct cache_entry *v = &cache.e[0];
	int i;

	for (i = 0; i < CACHE_ENTRIES; i++) {
		if (!cache.e[i].used)
			return &cache.e[i];
		if (cache.e[i].last_use < v->last_use)
			v = &cache.e[i];
	}
	drop_entry(v);
	return v;
}

int xl_ethtool_stats(int fd, const char *ifname, const char *const names[], uint64_t vals[],
		     int n)
{
	struct cache_entry *e, once = { 0 };
	struct stat sb;
	int i, err, tries;

	for (i = 0; i < n; i++)
		vals[i] = UINT64_MAX;
	if (n < 0 || n > CACHE_NAMES)
		return -EINVAL; /* the entry's arrays hold CACHE_NAMES */
	pthread_mutex_lock(&cache.lock);
	/*
	 * The socket's inode tells a reused descriptor number from the socket
	 * the entry was resolved on (which may have been in another netns).
	 */
	if (cache.off || fstat(fd, &sb)) {
		e = &once; /* resolved for this read only */
		sb.st_ino = 0;
	} else {
		e = lookup(fd, sb.st_ino, ifname, names, n);
	}
	for (tries = 0; tries < 3; tries++) {
		if (!e || !e->used) {
			if (!e)
				e = victim();
			err = resolve(fd, ifname, names, n, e);
			if (err == -EAGAIN)
				continue;
			if (err)
				break;
			e->ino = sb.st_ino;
		}
		e->last_use = ++cache.clock;
		err = read_entry(e, vals);
		if (err != -EAGAIN && err != -EFAULT)
			break;
		drop_entry(e); /* the table changed: resolve it again */
		for (i = 0; i < n; i++)
			vals[i] = UINT64_MAX;
	}
	if (e == &once || (err < 0 && e))
		drop_entry(e);
	pthread_mutex_unlock(&cache.lock);
	return err;
}

int xl_ethtool_queue_sums(int sock_fd, const char *ifname, const char *dir,
			  const char *const names[], int k, int queues, uint64_t sums[], int *found)
{
	char bufs[XL_ETHTOOL_MAX_NAMES][ETH_GSTRING_LEN];
	const char *full[XL_ETHTOOL_MAX_NAMES];
	uint64_t v[XL_ETHTOOL_MAX_NAMES], s[XL_ETHTOOL_MAX_NAMES] = { 0 };
	int q, j, n = queues > 0 && queues < XL_ETHTOOL_MAX_QUEUES ? queues : XL_ETHTOOL_MAX_QUEUES;
	int have[XL_ETHTOOL_MAX_NAMES] = { 0 }, err;

	if (k < 1 || n * k > XL_ETHTOOL_MAX_NAMES)
		return -EINVAL;
	for (j = 0; j < k; j++)
		for (q = 0; q < n; q++) {
			snprintf(bufs[j * n + q], ETH_GSTRING_LEN, "%s_queue_%d_%s", dir, q,
				 names[j]);
			full[j * n + q] = bufs[j * n + q];
		}
	err = xl_ethtool_stats(sock_fd, ifname, full, v, n * k);
	if (err < 0)
		return err;
	for (j = 0; j < k; j++)
		for (q = 0; q < n; q++) {
			if (v[j * n + q] == UINT64_MAX)
				continue;
			s[j] += v[j * n + q];
			have[j]++;
		}
	for (j = 0; j < k; j++)
		if (!have[j] || (queues > 0 && have[j] != n))
			return -ENOENT;
	for (j = 0; j < k; j++)
		sums[j] = s[j];
	if (found)
		*found = have[0];
	return 0;
}

int xl_ethtool_queue_sum(int sock_fd, const char *ifname, const char *dir, const char *name,
			 int queues, uint64_t *sum, int *found)
{
	const char *names[1] = { name };

	return xl_ethtool_queue_sums(sock_fd, ifname, dir, names, 1, queues, sum, found);
}

int xl_ethtool_features(int fd, const char *ifname, const char *const names[], int n, int on[])
{
	int idx[XL_ETHTOOL_MAX_NAMES], i, err;
	struct ethtool_gfeatures *gf;
	uint32_t cnt, blocks;

	if (n > XL_ETHTOOL_MAX_NAMES)
		return -E2BIG;
	err = string_indexes(fd, ifname, ETH_SS_FEATURES, names, n, idx, &cnt);
	if (err)
		return err;
	blocks = (cnt + 31) / 32;
	gf = calloc(1, sizeof(*gf) + blocks * sizeof(gf->features[0]));
	if (!gf)
		return -ENOMEM;
	gf->cmd = ETHTOOL_GFEATURES;
	gf->size = blocks;
	err = xl_ethtool_ioctl(fd, ifname, gf);
	for (i = 0; !err && i < n; i++)
		on[i] = idx[i] < 0 ? -1 : !!(gf->features[idx[i] / 32].active & (1u << (idx[i] % 32)));
	free(gf);
	return err;
}
