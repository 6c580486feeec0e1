// SPDX-License-Identifier: BSD-2-Clause
/*
 * meter_cost - what one meter sample costs, before and after issue 12's
 * changes, side by side in one run (make bench, scripts/bench.sh; root: it
 * makes its own lab, a veth pair in two namespaces, and removes it).
 *
 * "before" is the old way of each read, run through the same library:
 *   /proc/stat  opened, read and closed once per possible CPU
 *               (xl_cpu_times_set_source() drops the kept file each time);
 *   ethtool     GSSET_INFO + GSTRINGS + GSTATS on every read
 *               (xl_ethtool_cache_set(false));
 *   schedstat   /proc/PID/schedstat opened and closed every read;
 *   napi        the /proc walk for "napi/DEV-" every interval;
 *   redirect    the devmap redirect's counters read twice per sample.
 * "after" is what the meter does now: one pread of the kept /proc/stat
 * (to its end since issue 19, for procs_running: the "stat-load" line sets
 * that against issue 12's read of the CPU lines only),
 * one ETHTOOL_GSTATS per device, one pread of each kept schedstat file,
 * no NAPI look-up per interval (the one-time netdev napi-get is timed on
 * its own line), one redirect read.
 *
 * Method: ROUNDS rounds, each timing SAMPLES samples of every variant, the
 * order alternating (before-after, after-before) so the host's drift
 * cancels; ns per sample is each round's mean, the figure the median over
 * rounds with its min..max. No traffic flows: a sample's cost does not
 * depend on it. Prints one line per read and the load average around it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>

#include "xdplab/bench.h"
#include "xdplab/lab.h"
#include "xdplab/netlink.h"
#include "xdplab/redirect.h"
#include "xdplab/sysstat.h"
#include "xdplab/time.h"

#define ROUNDS 15
#define SAMPLES 200

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* What one sample reads, in both ways. */
struct ctx {
	struct xl_lab lab;
	int sock;	   /* in the DUT namespace */
	const char *dut;   /* the DUT veth */
	int ncpus;
	struct xl_cpu_times t[XL_MAX_CPUS];
	bool ok[XL_MAX_CPUS];
	struct xl_redirect *r;
	char napi_name[32];
	int tasks[3], ntasks; /* a chain's tasks: ourselves, each CPU's ksoftirqd */
};

static void stat_before(struct ctx *c)
{
	int i;

	for (i = 0; i < c->ncpus; i++) {
		xl_cpu_times_set_source(NULL); /* closes the kept file: open per CPU */
		xl_cpu_times_read(i, &c->t[i]);
	}
	xl_cpu_times_set_source(NULL);
}

/* What the meter reads now: the CPU lines and procs_running, one pread of the whole file. */
static void stat_after(struct ctx *c)
{
	int running;

	xl_cpu_times_read_load(c->t, c->ok, c->ncpus, &running);
}

/* Issue 12's read, before issue 19 read the file to its end for procs_running. */
static void stat_cpu_lines(struct ctx *c)
{
	xl_cpu_times_read_all(c->t, c->ok, c->ncpus);
}

static void eth_read(struct ctx *c)
{
	uint64_t sum;

	xl_ethtool_queue_sum(c->sock, c->dut, "rx", "xdp_packets", 1, &sum, NULL);
}

static void eth_before(struct ctx *c)
{
	xl_ethtool_cache_set(false);
	eth_read(c);
}

static void eth_after(struct ctx *c)
{
	xl_ethtool_cache_set(true);
	eth_read(c);
}

/* The old xl_task_runtime_ns(): the file opened and closed every read. */
static uint64_t runtime_reopen(int pid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	if (fscanf(fp, "%llu", &ns) != 1)
		ns = 0;
	fclose(fp);
	return ns;
}

static void task_before(struct ctx *c)
{
	int i;

	for (i = 0; i < c->ntasks; i++)
		runtime_reopen(c->tasks[i]);
}

static void task_after(struct ctx *c)
{
	int i;

	for (i = 0; i < c->ntasks; i++)
		xl_task_runtime_ns(c->tasks[i]);
}

static void napi_before(struct ctx *c)
{
	xl_kthread_pid(c->napi_name);
}

static void napi_after(struct ctx *c)
{
	(void)c; /* looked up once before the run, not per interval */
}

static void redir_read(struct ctx *c, int times, bool cache)
{
	struct xl_redirect_stats st;
	int i;

	xl_ethtool_cache_set(cache);
	for (i = 0; i < times; i++)
		xl_redirect__read(c->r, &st, NULL, NULL);
}

static void redir_before(struct ctx *c)
{
	redir_read(c, 2, false);
}

static void redir_after(struct ctx *c)
{
	redir_read(c, 1, true);
}

/* The whole of a drop row's sample (our counters aside: a map read, the same both ways). */
static void sample_before(struct ctx *c)
{
	eth_before(c);
	stat_before(c);
	task_before(c);
	napi_before(c);
}

static void sample_after(struct ctx *c)
{
	eth_after(c);
	stat_after(c);
	task_after(c);
	napi_after(c);
}

struct variant {
	const char *name, *what;
	void (*before)(struct ctx *c), (*after)(struct ctx *c);
	bool need_redirect;
};

static const struct variant variants[] = {
	{ "proc-stat", "every CPU's /proc/stat line", stat_before, stat_after, false },
	{ "stat-load", "issue 19: + steal, procs_running (the CPU lines, then the whole file)",
	  stat_cpu_lines, stat_after, false },
	{ "ethtool", "the DUT's rx_queue_0_xdp_packets", eth_before, eth_after, false },
	{ "schedstat", "run time of 3 tasks (a chain's)", task_before, task_after, false },
	{ "napi-lookup", "the NAPI kthread, per interval", napi_before, napi_after, false },
	{ "redirect", "devmap redirect counters (IN, OUT ethtool)", redir_before, redir_after,
	  true },
	{ "sample", "a row: ethtool + /proc/stat + 3 run times + NAPI look-up", sample_before, sample_after,
	  false },
};

#define NVAR (sizeof(variants) / sizeof(variants[0]))

/* ns per call of @fn, over SAMPLES calls. */
static double time_one(struct ctx *c, void (*fn)(struct ctx *c))
{
	uint64_t t0 = xl_now_ns();
	int i;

	for (i = 0; i < SAMPLES; i++)
		fn(c);
	return (double)(xl_now_ns() - t0) / SAMPLES;
}

static double median(double *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void loadavg(char *buf, size_t len)
{
	FILE *f = fopen("/proc/loadavg", "r");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

int main(void)
{
	static struct ctx c;
	static double b[NVAR][ROUNDS], a[NVAR][ROUNDS];
	struct xl_lab_opts lo = { .queues = 1, .out_pairs = 1 };
	struct xl_redirect_opts ro = { .kind = XL_REDIR_DEVMAP, .mode = XL_MODE_NATIVE };
	char load0[128], load1[128];
	int ret = 1, r, v, ifindex, pid;
	size_t k;
	uint64_t t0;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	c.ncpus = xl_bench_detail_ncpus();
	if (xl_lab__create(&c.lab, &lo)) {
		fprintf(stderr, "meter_cost: cannot make a lab (root needed)\n");
		return 1;
	}
	c.dut = c.lab.ifname[XL_LAB_DUT];
	snprintf(c.napi_name, sizeof(c.napi_name), "napi/%s-", c.dut);
	if (xl_lab__enter(&c.lab, XL_LAB_DUT)) {
		fprintf(stderr, "meter_cost: cannot enter the DUT namespace\n");
		goto out_lab;
	}
	c.sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ro.in = c.dut;
	ro.out[0] = c.lab.out_ifname[0][XL_LAB_DUT];
	ro.nout = 1;
	c.r = xl_redirect__create(&ro);
	if (c.sock < 0 || !c.r) {
		fprintf(stderr, "meter_cost: cannot set up the redirect: %s\n", strerror(errno));
		goto out_leave;
	}
	c.tasks[c.ntasks++] = getpid();
	for (k = 0; k < 2 && (int)k < c.ncpus; k++)
		if ((pid = xl_ksoftirqd_pid(k)) > 0)
			c.tasks[c.ntasks++] = pid;
	/* The one-time look-ups the meter makes now. */
	ifindex = if_nametoindex(c.dut);
	t0 = xl_now_ns();
	pid = xl_napi_pid_netlink(ifindex);
	printf("meter-cost: napi-get once per run: %.1f us (answer %d)\n",
	       (xl_now_ns() - t0) / 1e3, pid);
	loadavg(load0, sizeof(load0));
	for (r = 0; r < ROUNDS && !stop; r++)
		for (k = 0; k < NVAR && !stop; k++) {
			const struct variant *va = &variants[k];

			if (va->need_redirect && !c.r)
				continue;
			if (r % 2) {
				a[k][r] = time_one(&c, va->after);
				b[k][r] = time_one(&c, va->before);
			} else {
				b[k][r] = time_one(&c, va->before);
				a[k][r] = time_one(&c, va->after);
			}
		}
	xl_ethtool_cache_set(true);
	loadavg(load1, sizeof(load1));
	if (stop)
		goto out_redirect;
	printf("meter-cost: %d CPUs, %d rounds x %d samples, alternating; load average %s -> %s\n",
	       c.ncpus, ROUNDS, SAMPLES, load0, load1);
	printf("%-12s %12s %18s %12s %18s %7s  %s\n", "read", "before ns", "(min..max)",
	       "after ns", "(min..max)", "x", "what");
	for (k = 0; k < NVAR; k++) {
		double bmin = b[k][0], bmax = b[k][0], amin = a[k][0], amax = a[k][0], bm, am;
		char br[40], ar[40];

		for (v = 0; v < ROUNDS; v++) {
			bmin = b[k][v] < bmin ? b[k][v] : bmin;
			bmax = b[k][v] > bmax ? b[k][v] : bmax;
			amin = a[k][v] < amin ? a[k][v] : amin;
			amax = a[k][v] > amax ? a[k][v] : amax;
		}
		bm = median(b[k], ROUNDS);
		am = median(a[k], ROUNDS);
		snprintf(br, sizeof(br), "(%.0f..%.0f)", bmin, bmax);
		snprintf(ar, sizeof(ar), "(%.0f..%.0f)", amin, amax);
		/* Nothing left to time (a look-up no longer made): no ratio. */
		if (am < 5)
			printf("%-12s %12.0f %18s %12s %18s %7s  %s\n", variants[k].name, bm, br,
			       "0", "-", "-", variants[k].what);
		else
			printf("%-12s %12.0f %18s %12.0f %18s %7.1f  %s\n", variants[k].name, bm,
			       br, am, ar, bm / am, variants[k].what);
	}
	ret = 0;
out_redirect:
	xl_redirect__destroy(c.r);
out_leave:
	if (c.sock >= 0)
		close(c.sock);
	xl_lab__leave(&c.lab);
out_lab:
	xl_lab__destroy(&c.lab);
	return ret;
}
