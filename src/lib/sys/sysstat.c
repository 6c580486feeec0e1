// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/sys/ owns facts the kernel keeps: /proc and schedstat CPU time
 * (sysstat.c), ethtool counters (ethtool.c) and driver facts (ethxdp.c), netlink link
 * facts (netlink.c), XDP attach through bpf_link and kthreads (attach.c).
 * See docs/architecture.md.
 */
/*
 * Independent counters from /proc. These are the cross-checks behind every
 * lab row: CPU busy share and per-packet CPU cost of the NAPI CPU (the
 * veth's own per-queue XDP counters are in ethtool.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <net/if.h>
#include <zlib.h>

#include "xdplab/log.h"
#include "xdplab/netlink.h"
#include "xdplab/sysstat.h"

/* CPUs whose ksoftirqd pid is kept after the first walk. */
#define XL_KSOFTIRQD_CACHE 1024

/* USER_HZ ticks to ns (sysconf once: it cannot change while we run). */
static double ns_per_tick(void)
{
	static double v;

	if (!v)
		v = 1e9 / sysconf(_SC_CLK_TCK);
	return v;
}

/* xl_cpu_times_parse(); *@ended: a whole line after the per-CPU ones was seen. */
static int parse_stat(const char *buf, size_t len, struct xl_cpu_times *t, bool *ok, int n,
		      bool *ended)
{
	const char *p = buf, *end = buf + len;
	int found = 0, i;

	*ended = false;
	for (i = 0; i < n; i++)
		ok[i] = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		unsigned long long v[10] = {};
		char line[256], *q;
		size_t l;
		long cpu;

		if (!nl)
			break; /* a line cut by the read: not trusted */
		l = nl - p;
		/* The per-CPU lines come first; the first other line ends them. */
		if (l < 4 || strncmp(p, "cpu", 3)) {
			*ended = true;
			break;
		}
		if (p[3] == ' ' || l >= sizeof(line)) {
			p = nl + 1; /* the aggregate "cpu " line */
			continue;
		}
		memcpy(line, p, l);
		line[l] = '\0';
		p = nl + 1;
		cpu = strtol(line + 3, &q, 10);
		if (q == line + 3 || *q != ' ' || cpu < 0 || cpu >= n)
			continue;
		/* user nice system idle iowait irq softirq steal guest guest_nice */
		if (sscanf(q, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) < 4)
			continue;
		/* guest time is already included in user (see proc(5)). */
		t[cpu].busy = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * ns_per_tick();
		t[cpu].softirq = v[6] * ns_per_tick();
		t[cpu].steal = v[7] * ns_per_tick();
		t[cpu].total = t[cpu].busy + (v[3] + v[4]) * ns_per_tick();
		found += !ok[cpu];
		ok[cpu] = true;
	}
	return found;
}

/* The value of the whole line "procs_running N" in @buf (@len bytes), -1 if none. */
static int parse_procs_running(const char *buf, size_t len)
{
	static const char key[] = "\nprocs_running ";
	const char *p = memmem(buf, len, key, sizeof(key) - 1), *end = buf + len;
	long v = 0;

	if (!p)
		return -1;
	for (p += sizeof(key) - 1; p < end && *p >= '0' && *p <= '9'; p++)
		v = v < 1000000 ? v * 10 + (*p - '0') : v;
	return p < end && *p == '\n' && p[-1] != ' ' ? (int)v : -1;
}

int xl_cpu_times_parse_load(const char *buf, size_t len, struct xl_cpu_times *t, bool *ok, int n,
			    int *procs_running)
{
	bool ended;
	int found = parse_stat(buf, len, t, ok, n, &ended);

	if (procs_running)
		*procs_running = parse_procs_running(buf, len);
	return found;
}

int xl_cpu_times_parse(const char *buf, size_t len, struct xl_cpu_times *t, bool *ok, int n)
{
	return xl_cpu_times_parse_load(buf, len, t, ok, n, NULL);
}

/*
 * The one /proc/stat reader: the file is opened once and re-read from
 * offset 0 with one pread() per sample (seq_file regenerates it then), for
 * every CPU at once. Before, every sample opened, read and parsed the file
 * once per CPU (issue 12). The buffer grows until the per-CPU lines fit.
 */
static struct {
	pthread_mutex_t lock;
	char path[256];
	int fd;
	char *buf;
	size_t size;
} proc_stat = { PTHREAD_MUTEX_INITIALIZER, "/proc/stat", -1, NULL, 0 };

void xl_cpu_times_set_source(const char *path)
{
	pthread_mutex_lock(&proc_stat.lock);
	if (proc_stat.fd >= 0)
		close(proc_stat.fd);
	proc_stat.fd = -1;
	snprintf(proc_stat.path, sizeof(proc_stat.path), "%s", path ? path : "/proc/stat");
	pthread_mutex_unlock(&proc_stat.lock);
}

int xl_cpu_times_read_load(struct xl_cpu_times *t, bool *ok, int n, int *procs_running)
{
	bool ended = false;
	ssize_t got;
	int err = 0, found = 0, i;

	for (i = 0; i < n; i++)
		ok[i] = false;
	if (procs_running)
		*procs_running = -1;
	pthread_mutex_lock(&proc_stat.lock);
	if (proc_stat.fd < 0) {
		proc_stat.fd = open(proc_stat.path, O_RDONLY | O_CLOEXEC);
		if (proc_stat.fd < 0) {
			err = -errno;
			goto out;
		}
	}
	for (;;) {
		size_t want = 1024 + (size_t)(n > 0 ? n : 1) * 192;
		char *nb;

		if (proc_stat.size < want) {
			nb = realloc(proc_stat.buf, want);
			if (!nb) {
				err = -ENOMEM;
				goto out;
			}
			proc_stat.buf = nb;
			proc_stat.size = want;
		}
		got = pread(proc_stat.fd, proc_stat.buf, proc_stat.size, 0);
		if (got < 0) {
			err = -errno;
			goto out;
		}
		found = parse_stat(proc_stat.buf, got, t, ok, n, &ended);
		/*
		 * Filled to the end: read more, before the per-CPU lines ended,
		 * and to the file's end when procs_running is asked for (after
		 * the "intr" line, long on a machine with many IRQs; the buffer
		 * keeps its size, so this is the first read's only).
		 */
		if ((ended && !procs_running) || (size_t)got < proc_stat.size ||
		    proc_stat.size > (64u << 20))
			break;
		nb = realloc(proc_stat.buf, proc_stat.size * 2);
		if (!nb) {
			err = -ENOMEM;
			goto out;
		}
		proc_stat.buf = nb;
		proc_stat.size *= 2;
	}
	if (procs_running)
		*procs_running = parse_procs_running(proc_stat.buf, got);
out:
	pthread_mutex_unlock(&proc_stat.lock);
	return err ? err : found;
}

int xl_cpu_times_read_all(struct xl_cpu_times *t, bool *ok, int n)
{
	return xl_cpu_times_read_load(t, ok, n, NULL);
}

int xl_cpu_times_read(int cpu, struct xl_cpu_times *t)
{
	struct xl_cpu_times *all;
	bool *ok;
	int err;

	if (cpu < 0)
		return -ENOENT;
	all = calloc(cpu + 1, sizeof(*all));
	ok = calloc(cpu + 1, sizeof(*ok));
	err = all && ok ? xl_cpu_times_read_all(all, ok, cpu + 1) : -ENOMEM;
	if (err >= 0) {
		err = ok[cpu] ? 0 : -ENOENT;
		if (!err)
			*t = all[cpu];
	}
	free(all);
	free(ok);
	return err;
}

double xl_cpu_busy_share(const struct xl_cpu_times *a,
			 const struct xl_cpu_times *b)
{
	uint64_t total = b->total - a->total;

	return total ? (double)(b->busy - a->busy) / total : 0.0;
}

/*
 * Kept /proc/PID/schedstat files: the meter reads the same few tasks (the
 * NAPI kthread, ksoftirqd, the generator's threads) every sample, so each
 * file is opened once and re-read with one pread(). An open file stays
 * bound to its task: when the task exits its reads fail (and the entry is
 * dropped), never reading a later task that got the same pid.
 */
#define TASK_FILES 32

static struct {
	pthread_mutex_t lock;
	struct {
		bool used;
		int pid, fd;
		uint64_t last_use;
	} e[TASK_FILES];
	uint64_t clock;
} task_files = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Both first fields of /proc/@pid/schedstat through the kept file; *@wait may be NULL. */
static uint64_t task_sched(int pid, uint64_t *wait)
{
	unsigned long long ns = 0, w = 0;
	char path[64], buf[96];
	int i, slot = -1, old = 0;
	ssize_t n;

	if (pid <= 0)
		return 0;
	pthread_mutex_lock(&task_files.lock);
	for (i = 0; i < TASK_FILES; i++) {
		if (task_files.e[i].used && task_files.e[i].pid == pid) {
			slot = i;
			break;
		}
		if (task_files.e[i].last_use < task_files.e[old].last_use)
			old = i;
	}
	if (slot < 0) {
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			goto out;
		slot = old; /* a free slot has last_use 0, so it is the oldest */
		if (task_files.e[slot].used)
			close(task_files.e[slot].fd);
		task_files.e[slot].used = true;
		task_files.e[slot].pid = pid;
		task_files.e[slot].fd = fd;
	}
	task_files.e[slot].last_use = ++task_files.clock;
	n = pread(task_files.e[slot].fd, buf, sizeof(buf) - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		if (sscanf(buf, "%llu %llu", &ns, &w) < 1)
			ns = 0;
	}
	if (n <= 0 || !ns) {
		/* The task is gone: forget its file. */
		close(task_files.e[slot].fd);
		task_files.e[slot].used = false;
		task_files.e[slot].last_use = 0;
	}
out:
	pthread_mutex_unlock(&task_files.lock);
	if (wait)
		*wait = ns ? w : 0;
	return ns;
}

uint64_t xl_task_runtime_ns(int pid)
{
	return task_sched(pid, NULL);
}

uint64_t xl_task_wait_ns(int pid, uint64_t *run_ns)
{
	uint64_t w;

	*run_ns = task_sched(pid, &w);
	return w;
}

int xl_kthread_pid(const char *name)
{
	char path[64], comm[32];
	struct dirent *d;
	size_t n = strlen(name) < 15 ? strlen(name) : 15;
	DIR *proc;
	int best = 0;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	while ((d = readdir(proc))) {
		int p = atoi(d->d_name);
		FILE *fp;

		if (p <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", p);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		if (fgets(comm, sizeof(comm), fp) && !strncmp(comm, name, n) && p > best)
			best = p; /* the newest, if truncation makes names collide */
		fclose(fp);
	}
	closedir(proc);
	return best;
}

int xl_kconfig_has(const char *buf, size_t len, const char *name)
{
	size_t n = strlen(name), i = 0;

	while (i < len) {
		const char *eol = memchr(buf + i, '\n', len - i);
		size_t l = eol ? (size_t)(eol - (buf + i)) : len - i;

		if (l == n + 2 && !memcmp(buf + i, name, n) && !memcmp(buf + i + n, "=y", 2))
			return 1;
		i += l + 1;
	}
	return 0;
}

/* Most bytes of a kernel configuration read (a whole one is ~300 KiB). */
#define KCONFIG_MAX (4u << 20)

int xl_kconfig_file_has(const char *path, const char *name)
{
	size_t cap = 64 * 1024, len = 0;
	char *buf, *nb;
	gzFile f;
	int n, ret = 0;

	f = gzopen(path, "rb");
	if (!f)
		return errno ? -errno : -ENOMEM;
	buf = malloc(cap);
	if (!buf) {
		gzclose(f);
		return -ENOMEM;
	}
	for (;;) {
		if (len == cap) {
			if (cap >= KCONFIG_MAX)
				break;
			nb = realloc(buf, cap * 2);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = gzread(f, buf + len, cap - len);
		if (n < 0) {
			ret = -EIO;
			break;
		}
		if (!n)
			break;
		len += n;
	}
	if (!ret)
		ret = xl_kconfig_has(buf, len, name);
	free(buf);
	gzclose(f);
	return ret;
}

int xl_irq_time_accounting(void)
{
	static int cached = -2;
	char path[128];
	struct utsname u;
	int r = -ENOENT;

	if (cached != -2)
		return cached;
	if (!uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		r = xl_kconfig_file_has(path, "CONFIG_IRQ_TIME_ACCOUNTING");
	}
	if (r < 0)
		r = xl_kconfig_file_has("/proc/config.gz", "CONFIG_IRQ_TIME_ACCOUNTING");
	cached = r < 0 ? -1 : r;
	return cached;
}

/* Whether /proc/@pid/comm is exactly @want (with its newline). */
static bool comm_is(int pid, const char *want)
{
	char path[64], comm[32];
	bool is = false;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	is = fgets(comm, sizeof(comm), fp) && !strcmp(comm, want);
	fclose(fp);
	return is;
}

int xl_ksoftirqd_pid(int cpu)
{
	static int cached[XL_KSOFTIRQD_CACHE];
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	char want[32];
	int pid;

	/* The newline /proc/PID/comm ends with makes the match exact. */
	snprintf(want, sizeof(want), "ksoftirqd/%d\n", cpu);
	if (cpu < 0 || cpu >= XL_KSOFTIRQD_CACHE)
		return xl_kthread_pid(want);
	/* A per-CPU kthread lives as long as its CPU: walk /proc once for it. */
	pthread_mutex_lock(&lock);
	pid = cached[cpu];
	if (!pid || !comm_is(pid, want))
		pid = cached[cpu] = xl_kthread_pid(want);
	pthread_mutex_unlock(&lock);
	return pid;
}

int xl_napi_kthread_pid(const char *ifname)
{
	unsigned int idx = if_nametoindex(ifname);
	char want[32];
	int pid;

	/* The kernel's answer (6.8+) when the device is in this namespace. */
	if (idx) {
		pid = xl_napi_pid_netlink(idx);
		if (pid >= 0)
			return pid;
	}
	snprintf(want, sizeof(want), "napi/%s-", ifname);
	return xl_kthread_pid(want);
}

int xl_task_set_cpu(int pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set) ? -errno : 0;
}

/*
 * One mechanism for "keep off the NAPI CPU" (issue 12): xsk_app's socket
 * threads and the reporting (main) thread of drop/pass/tx, redirect, run
 * and xsk, and redirect-cpu's --stress-mode thread.
 * Here xl_cpus_off_napi() with the calling thread's CPUs @mine given, so
 * that xl_keep_off_napi() asks for them once.
 */
static int cpus_off_napi(int napi_pid, const cpu_set_t *mine, cpu_set_t *away,
			 cpu_set_t *napi_cpus)
{
	cpu_set_t napi, off;
	int c;

	if (napi_pid <= 0)
		return -ESRCH;
	if (sched_getaffinity(napi_pid, sizeof(napi), &napi))
		return -errno;
	CPU_ZERO(&off);
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, mine) && !CPU_ISSET(c, &napi))
			CPU_SET(c, &off);
	if (!CPU_COUNT(&off))
		return -ENOSPC;
	*away = off;
	if (napi_cpus)
		*napi_cpus = napi;
	return CPU_COUNT(&off);
}

int xl_cpus_off_napi(int napi_pid, cpu_set_t *away, cpu_set_t *napi_cpus)
{
	cpu_set_t mine;

	if (sched_getaffinity(0, sizeof(mine), &mine))
		return -errno;
	return cpus_off_napi(napi_pid, &mine, away, napi_cpus);
}

int xl_keep_off_napi(int napi_pid, cpu_set_t *away)
{
	cpu_set_t off, mine;
	int n;

	if (sched_getaffinity(0, sizeof(mine), &mine))
		return -errno;
	n = cpus_off_napi(napi_pid, &mine, &off, NULL);
	if (n < 0)
		return n;
	if (CPU_EQUAL(&off, &mine))
		return 0;
	if (sched_setaffinity(0, sizeof(off), &off))
		return -errno;
	if (away)
		*away = off;
	return n;
}

void xl_cpu_list_text(const cpu_set_t *set, char *buf, size_t len)
{
	int c, first = -1, n = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (c = 0; c <= CPU_SETSIZE && n < (int)len; c++) {
		bool in = c < CPU_SETSIZE && CPU_ISSET(c, set);

		if (in && first < 0)
			first = c;
		if (!in && first >= 0) {
			n += snprintf(buf + n, n < (int)len ? len - n : 0, "%s%d", n ? "," : "", first);
			if (c - 1 > first)
				n += snprintf(buf + n, n < (int)len ? len - n : 0, "-%d", c - 1);
			first = -1;
		}
	}
}

bool xl_keep_off_napi_of(int napi_pid, const char *ifname, cpu_set_t *away)
{
	char cpus[64];
	cpu_set_t set;

	if (xl_keep_off_napi(napi_pid, &set) <= 0)
		return false;
	xl_cpu_list_text(&set, cpus, sizeof(cpus));
	xl_info("this process on CPU %s, off %s's NAPI kthread (pid %d)", cpus, ifname, napi_pid);
	if (away)
		*away = set;
	return true;
}
