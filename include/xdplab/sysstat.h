/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file sysstat.h
 * Independent measurements from the kernel: CPU time per CPU (/proc/stat),
 * a task's run time (/proc/PID/schedstat), the threaded-NAPI kthread of a
 * device, and a device's ethtool statistics (SIOCETHTOOL, as `ethtool -S`).
 */
#ifndef XDPLAB_SYSSTAT_H
#define XDPLAB_SYSSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <sched.h>
#include <stdint.h>

/**
 * struct xl_cpu_times - one CPU's cumulative times from /proc/stat, in ns
 * (converted from USER_HZ ticks, so resolution is 1e9/USER_HZ ns).
 * @busy: user+nice+system+irq+softirq+steal+guest.
 * @softirq: the softirq share (where softirq-mode NAPI runs).
 * @steal: the steal share (in @busy): time the hypervisor ran something
 *   else while this virtual CPU wanted to run (0 on bare metal).
 * @total: busy + idle + iowait.
 */
struct xl_cpu_times {
	uint64_t busy;
	uint64_t softirq;
	uint64_t steal;
	uint64_t total;
};

/**
 * xl_cpu_times_read() - read CPU @cpu's line of /proc/stat (through
 * xl_cpu_times_read_all()). Return: 0, -ENOENT if that CPU has no line
 * (offline or out of range), or -errno from reading /proc/stat.
 */
int xl_cpu_times_read(int cpu, struct xl_cpu_times *t);

/**
 * xl_cpu_times_read_all() - every CPU's line of /proc/stat in one read:
 * the file is opened once per process and re-read with one pread() at
 * offset 0 per call (the meter's one read per sample). Thread-safe.
 * @t/@ok: @n entries; @ok[i] says whether CPU i had a line (an offline CPU
 *   has none), @t[i] is set only then.
 * Return: the CPUs found (0..@n), or -errno (opening or reading the file).
 */
int xl_cpu_times_read_all(struct xl_cpu_times *t, bool *ok, int n);

/**
 * xl_cpu_times_read_load() - xl_cpu_times_read_all(), and from the same
 * one read of the whole file the machine's runnable tasks at that moment:
 * *@procs_running, /proc/stat's "procs_running" line (the reader's own
 * thread included), -1 when the file has none. No syscall more than
 * xl_cpu_times_read_all(): the kernel formats the whole file for every
 * read from offset 0 (fs/proc/stat.c, single_open_size()), so reading it
 * to its end only copies more bytes. Return: as xl_cpu_times_read_all().
 */
int xl_cpu_times_read_load(struct xl_cpu_times *t, bool *ok, int n, int *procs_running);

/**
 * xl_cpu_times_parse_load() - xl_cpu_times_parse(), and *@procs_running
 * from the "procs_running N" line of @buf after the CPU lines (-1 when no
 * whole such line is in @buf). Return: as xl_cpu_times_parse().
 */
int xl_cpu_times_parse_load(const char *buf, size_t len, struct xl_cpu_times *t, bool *ok, int n,
			    int *procs_running);

/**
 * xl_cpu_times_parse() - the /proc/stat parser behind xl_cpu_times_read_all():
 * the "cpuN user nice system idle iowait irq softirq steal ..." lines of
 * @buf (@len bytes, not NUL-terminated) up to the first line that is not a
 * CPU line; a line the buffer cuts is ignored, the aggregate "cpu" line
 * and CPUs >= @n are skipped. Times in USER_HZ ticks become ns.
 * Return: the CPUs found; @ok/@t as in xl_cpu_times_read_all().
 */
int xl_cpu_times_parse(const char *buf, size_t len, struct xl_cpu_times *t, bool *ok, int n);

/**
 * xl_cpu_times_set_source() - read @path instead of /proc/stat from now on
 * (NULL: /proc/stat again); closes the kept file. A seam for unit tests
 * (a crafted file) and the meter-cost bench (a reopen per read).
 */
void xl_cpu_times_set_source(const char *path);

/**
 * xl_cpu_busy_share() - busy share of a CPU between two samples, 0.0..1.0
 * (0 when no time passed).
 */
double xl_cpu_busy_share(const struct xl_cpu_times *a,
			 const struct xl_cpu_times *b);

/**
 * xl_task_runtime_ns() - total CPU time of task @pid in ns (first field of
 * /proc/PID/schedstat: ns resolution). The file is kept open per pid (up
 * to 32, least recently used closed first) and re-read with one pread();
 * it stays bound to its task, so after the task exits this returns 0
 * rather than a later task's time under the same pid. Thread-safe.
 * Return: ns, or 0 if unreadable (no such task, or it exited).
 */
uint64_t xl_task_runtime_ns(int pid);

/**
 * xl_task_wait_ns() - the time task @pid has spent runnable but waiting for
 * a CPU, ns (the scheduler's run delay: second field of
 * /proc/PID/schedstat), its CPU time into *@run_ns; read as
 * xl_task_runtime_ns() reads (the same kept file, one pread()).
 * A busy-polling thread on a CPU shared with other runnable tasks waits
 * here for whole time slices (milliseconds), and what it polls waits too.
 * Return: ns (0 also when unreadable: then *@run_ns is 0).
 */
uint64_t xl_task_wait_ns(int pid, uint64_t *run_ns);

/**
 * xl_irq_time_accounting() - whether the running kernel was built with
 * CONFIG_IRQ_TIME_ACCOUNTING, from /boot/config-RELEASE or, without it,
 * /proc/config.gz (CONFIG_IKCONFIG_PROC): then softirq work done inline in
 * a task is not in that task's schedstat run time, it is in the CPU's
 * softirq time of /proc/stat, accounted at each softirq's entry and exit
 * (kernel/sched/cputime.c, irqtime_account_irq()) instead of sampled by
 * the tick. The build option, not whether the kernel kept it on (x86 turns
 * it off at boot with an unstable TSC). Return: 1 yes, 0 no, -1 unknown
 * (neither file readable). Read once, then cached.
 */
int xl_irq_time_accounting(void);

/**
 * xl_kconfig_has() - whether kernel configuration text @buf (@len bytes,
 * the lines of a .config, not NUL-terminated) sets @name (e.g.
 * "CONFIG_IRQ_TIME_ACCOUNTING") to y: a whole line "@name=y".
 * Return: 1 set to y; 0 not (unset, "# @name is not set", =m, another
 * name with @name as its prefix).
 */
int xl_kconfig_has(const char *buf, size_t len, const char *name);

/**
 * xl_kconfig_file_has() - xl_kconfig_has() over the file @path, plain or
 * gzip-compressed (/proc/config.gz: zlib's gzread() reads both). At most
 * 4 MiB are read. Return: 1, 0, or -errno (-ENOENT: no such file; -EIO: a
 * read or decompression error).
 */
int xl_kconfig_file_has(const char *path, const char *name);

/**
 * xl_ksoftirqd_pid() - pid of "ksoftirqd/@cpu", the kthread that runs the
 * softirq work of @cpu that could not run inline. /proc is walked once per
 * CPU; later calls check the kept pid's comm (one small read). Thread-safe.
 * Return: pid, or 0.
 */
int xl_ksoftirqd_pid(int cpu);

/**
 * xl_kthread_pid() - pid of the newest task whose name starts with @name,
 * compared as far as the kernel's 15-byte comm keeps it (kthreads such as
 * "napi/DEV-ID" or "cpumap/CPU/map:ID"). Return: pid, or 0 if none.
 */
int xl_kthread_pid(const char *name);

/**
 * xl_napi_kthread_pid() - pid of the threaded-NAPI kthread "napi/IFNAME-ID"
 * of @ifname (the name is matched as far as the kernel's 15-byte comm keeps
 * it). Return: pid, or 0 when the device has no NAPI kthread.
 */
int xl_napi_kthread_pid(const char *ifname);

/** xl_task_set_cpu() - pin task @pid (0: the caller's thread) to @cpu. Return 0 or -errno. */
int xl_task_set_cpu(int pid, int cpu);

/**
 * xl_cpus_off_napi() - the CPUs a task may keep off a threaded NAPI: those
 * the calling thread may run on (its sched_getaffinity()) that the NAPI
 * kthread @napi_pid may not. A wake-up of a reporting process or a socket
 * thread on the NAPI's CPU preempts the work measured (issue 12: xdplab
 * drop sat there in 38-49 of 50 samples; bench/limits/drop-proc.sh).
 * @away: out, those CPUs (untouched on error).
 * @napi_cpus: out, the kthread's allowed CPUs; may be NULL.
 * Return: number of CPUs in @away (>= 1), or negative errno: -ESRCH when
 * there is no kthread (@napi_pid <= 0: softirq wiring, the NAPI runs on the
 * sender's CPU) or it is gone, -ENOSPC when it may run on every CPU the
 * caller may (none left), else sched_getaffinity()'s.
 */
int xl_cpus_off_napi(int napi_pid, cpu_set_t *away, cpu_set_t *napi_cpus);

/**
 * xl_keep_off_napi() - restrict the calling thread (and the threads it
 * creates afterwards) to xl_cpus_off_napi()'s CPUs; xdplab's reporting
 * processes (drop/pass/tx, redirect, run) call it once after attaching.
 * @away: out, where the thread now may run (untouched on error); may be NULL.
 * Return: number of CPUs in @away (>= 1) when the thread was moved, 0 when
 * it was already off the kthread's CPUs (nothing changed), or negative errno
 * as xl_cpus_off_napi() and sched_setaffinity().
 */
int xl_keep_off_napi(int napi_pid, cpu_set_t *away);

/**
 * xl_keep_off_napi_of() - xl_keep_off_napi() for @ifname's NAPI kthread
 * @napi_pid (0 or less: softirq wiring, nothing to do), saying where the
 * thread went at -v (info). Called once after the attach by the main thread
 * of drop/pass/tx, redirect, run and xsk, before they start other threads,
 * so that their wake-ups do not preempt the work measured; a failure only
 * leaves the thread where it was. @away: out, may be NULL.
 * Return: true when the thread moved (then *@away is where).
 */
bool xl_keep_off_napi_of(int napi_pid, const char *ifname, cpu_set_t *away);

/**
 * xl_cpu_list_text() - @set as a CPU list as /proc's Cpus_allowed_list
 * writes it ("0", "1-3,5") into @buf of @len bytes (always terminated;
 * cut short when too small).
 */
void xl_cpu_list_text(const cpu_set_t *set, char *buf, size_t len);

/** Most ethtool statistics names asked for at once. */
#define XL_ETHTOOL_MAX_NAMES 96
/** Most queues the per-queue summers look at (queues 0..15). */
#define XL_ETHTOOL_MAX_QUEUES 16

/**
 * xl_ethtool_stats() - read named counters of @ifname through SIOCETHTOOL
 * ETHTOOL_GSTRINGS/ETHTOOL_GSTATS, the source `ethtool -S` prints.
 * The names' indices are resolved once per (socket, device, names) and
 * kept (src/lib/sys/ethtool.c): a later read of the same issues one
 * ETHTOOL_GSTATS. A table that changed size is resolved again. Thread-safe.
 * @sock_fd: any socket in the device's netns (ioctl is resolved there).
 * @names: @n counter names, 0..XL_ETHTOOL_MAX_NAMES (more: -EINVAL).
 * @vals: out, @n values; a name the driver does not have reads as UINT64_MAX.
 * Return: number of names found, or -errno (-ENODEV: no such device,
 * -EOPNOTSUPP: the driver has no statistics, -EINVAL: @n out of range).
 */
int xl_ethtool_stats(int sock_fd, const char *ifname, const char *const names[],
		     uint64_t vals[], int n);

/**
 * xl_ethtool_queue_sum() - the one per-queue summer: the counter
 * "@dir_queue_N_@name" (veth: rx_queue_0_xdp_packets, tx_queue_1_xdp_xmit)
 * summed over queues, in one xl_ethtool_stats() read.
 * @sock_fd/@ifname: as xl_ethtool_stats().
 * @dir: "rx" or "tx". @name: the counter after the queue number.
 * @queues: 1..XL_ETHTOOL_MAX_QUEUES: exactly queues 0..@queues-1, each must
 *   have the counter; 0: every queue 0..XL_ETHTOOL_MAX_QUEUES-1 that has it.
 * @sum: out, the sum. @found: out (NULL: not wanted), queues that had it.
 * Return: 0, -ENOENT (no queue had it, or with @queues > 0 one lacked it),
 * or -errno of the read.
 */
int xl_ethtool_queue_sum(int sock_fd, const char *ifname, const char *dir, const char *name,
			 int queues, uint64_t *sum, int *found);

/**
 * xl_ethtool_queue_sums() - xl_ethtool_queue_sum() of @k counters of one
 * device in the same single read (redirect's OUT: xdp_xmit and
 * xdp_xmit_errors). @names: @k counters after the queue number; @sums: out,
 * @k sums, written only when every counter was found (each in at least one
 * queue; with @queues > 0 in each of them). @found: queues that had
 * @names[0]. @k x the queues looked at must not pass XL_ETHTOOL_MAX_NAMES.
 * Return: 0, -ENOENT, -EINVAL (@k out of range), or -errno of the read.
 */
int xl_ethtool_queue_sums(int sock_fd, const char *ifname, const char *dir,
			  const char *const names[], int k, int queues, uint64_t sums[], int *found);

/**
 * xl_ethtool_features() - whether each of @n features (@names as `ethtool
 * -k` lists them under their kernel names: "tx-vlan-hw-insert" is its
 * tx-vlan-offload, "rx-vlan-hw-parse" its rx-vlan-offload,
 * "rx-vlan-stag-hw-parse", "tx-vlan-stag-hw-insert") is active on @ifname
 * (ETHTOOL_GSTRINGS of ETH_SS_FEATURES, ETHTOOL_GFEATURES), through socket
 * @fd (its netns). @on: out, @n values: 1 on, 0 off, -1 no such feature.
 * Return: 0 or -errno (-E2BIG: @n above XL_ETHTOOL_MAX_NAMES).
 */
int xl_ethtool_features(int fd, const char *ifname, const char *const names[], int n, int on[]);

/**
 * xl_ethtool_ioctl_fn / xl_ethtool_ioctl - how xl_ethtool_stats() issues
 * one SIOCETHTOOL command (@cmd: the struct ethtool_* it points at) on
 * @ifname through socket @fd; returns 0 or -errno. A seam: unit tests put
 * a fake device here (and count its commands); the default is ioctl(2).
 */
typedef int (*xl_ethtool_ioctl_fn)(int fd, const char *ifname, void *cmd);
extern xl_ethtool_ioctl_fn xl_ethtool_ioctl;

/**
 * xl_ethtool_cache_set() - keep resolved names (@on, the default) or
 * resolve them on every read as before (off: GSSET_INFO, GSTRINGS and
 * GSTATS each time; for the meter-cost bench's "before" and for tests).
 * Turning it off forgets every entry. Return: whether it was on.
 */
bool xl_ethtool_cache_set(bool on);

#endif /* XDPLAB_SYSSTAT_H */
