// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/lab/ owns the veth lab: namespaces, veths and wiring (lab.c)
 * and removing labs whose owner died (lab_sweep.c). The rows of the lab
 * table are a layer above, in src/lib/rows/ (labrun_xdp.c for XDP,
 * labrun_redirect.c, labrun_xsk.c...). See docs/architecture.md.
 */
/*
 * The veth lab: namespaces and a veth pair made with iproute2, removed on
 * every exit path (explicit destroy, atexit, or the next sweep after a
 * SIGKILL). Threaded-NAPI wiring follows ../shared/notes/lab-facts.md: GRO
 * keeps a persistent NAPI so the kthread and its pinning survive XDP
 * attach/detach.
 */
#include <dirent.h>
#include <ifaddrs.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "xdplab/child.h"
#include "xdplab/env.h"
#include "xdplab/lab.h"
#include "xdplab/log.h"
#include "xdplab/netns.h"
#include "xdplab/pkt.h"
#include "xdplab/sysstat.h"
#include "lab_priv.h"

#define MAX_LABS 8

static struct xl_lab *live_labs[MAX_LABS];
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static int next_letter;

const char *xl_wiring_name(enum xl_wiring w)
{
	return w == XL_WIRING_THREADED ? "threaded" : w == XL_WIRING_DEVICE ? "device" : "softirq";
}

/* Run argv; on failure log "what: stderr line" at ERROR (or INFO if quiet). */
static int run(bool quiet, char *const argv[])
{
	char errline[256];
	int ret = xl_run_cmd(argv, errline, sizeof(errline));

	if (ret == -ENOENT)
		xl_err("cannot run '%s': not installed (run scripts/deps.sh)", argv[0]);
	else if (ret)
		xl_log(quiet ? XL_LOG_INFO : XL_LOG_ERROR, "'%s %s %s %s' failed: %s",
		       argv[0], argv[1], argv[2] ? argv[2] : "",
		       argv[2] && argv[3] ? argv[3] : "", errline[0] ? errline : "(no message)");
	return ret;
}

int xl_lab__exec(const struct xl_lab *lab, enum xl_lab_side side,
		 char *const argv[])
{
	char *full[32] = { "ip", "netns", "exec", (char *)lab->ns[side] };
	int i;

	for (i = 0; argv[i] && i < 27; i++)
		full[4 + i] = argv[i];
	full[4 + i] = NULL;
	return run(true, full);
}

static void registry_add(struct xl_lab *lab)
{
	int i;

	pthread_mutex_lock(&live_lock);
	for (i = 0; i < MAX_LABS; i++)
		if (!live_labs[i]) {
			live_labs[i] = lab;
			break;
		}
	pthread_mutex_unlock(&live_lock);
}

static void registry_del(struct xl_lab *lab)
{
	int i;

	pthread_mutex_lock(&live_lock);
	for (i = 0; i < MAX_LABS; i++)
		if (live_labs[i] == lab)
			live_labs[i] = NULL;
	pthread_mutex_unlock(&live_lock);
}

static void destroy_all_at_exit(void)
{
	int i;

	for (i = 0; i < MAX_LABS; i++)
		if (live_labs[i])
			xl_lab__destroy(live_labs[i]);
}

void xl_lab_del_netns(const char *name)
{
	char *argv[] = { "ip", "netns", "del", (char *)name, NULL };

	run(true, argv);
}

static void fill_addresses(struct xl_lab *lab)
{
	static const uint8_t mac[2][6] = { { 0x02, 0x58, 0x4c, 0, 0, 1 },
					   { 0x02, 0x58, 0x4c, 0, 0, 2 } };

	memcpy(lab->mac, mac, sizeof(mac));
	inet_pton(AF_INET, "198.18.0.1", &lab->ip4[XL_LAB_GEN]);
	inet_pton(AF_INET, "198.18.0.2", &lab->ip4[XL_LAB_DUT]);
	inet_pton(AF_INET6, "2001:2::1", &lab->ip6[XL_LAB_GEN]);
	inet_pton(AF_INET6, "2001:2::2", &lab->ip6[XL_LAB_DUT]);
}

static int open_fds(struct xl_lab *lab)
{
	char path[64];
	int s;

	lab->root_ns_fd = xl_netns_self();
	if (lab->root_ns_fd < 0)
		return lab->root_ns_fd;
	for (s = 0; s < 2; s++) {
		snprintf(path, sizeof(path), NETNS_DIR "/%s", lab->ns[s]);
		lab->ns_fd[s] = open(path, O_RDONLY | O_CLOEXEC);
		if (lab->ns_fd[s] < 0)
			return -errno;
	}
	for (s = 0; s < 2; s++) {
		int err = xl_lab__enter(lab, s), i;

		if (err)
			return err;
		lab->ifindex[s] = if_nametoindex(lab->ifname[s]);
		for (i = 0; i < lab->nout; i++)
			lab->out_ifindex[i][s] = if_nametoindex(lab->out_ifname[i][s]);
		xl_lab__leave(lab);
		if (!lab->ifindex[s])
			return -ENODEV;
		for (i = 0; i < lab->nout; i++)
			if (!lab->out_ifindex[i][s])
				return -ENODEV;
	}
	return 0;
}

/* Out pair @i: DUT end in the DUT netns (quiet: IPv6 off, no address), far
 * end in the generator netns with GRO on so it always has a NAPI. */
static int add_out_pair(struct xl_lab *lab, int i)
{
	char mac[2][18], v6[64];
	char *add[] = { "ip", "link", "add", "name", lab->out_ifname[i][XL_LAB_DUT],
			"netns", lab->ns[XL_LAB_DUT], "address", mac[XL_LAB_DUT], "type", "veth",
			"peer", "name", lab->out_ifname[i][XL_LAB_GEN], "netns",
			lab->ns[XL_LAB_GEN], "address", mac[XL_LAB_GEN], NULL };
	char *quiet[] = { "ip", "netns", "exec", lab->ns[XL_LAB_DUT], "sysctl", "-qw", v6, NULL };
	char *up_d[] = { "ip", "-n", lab->ns[XL_LAB_DUT], "link", "set",
			 lab->out_ifname[i][XL_LAB_DUT], "up", NULL };
	char *up_g[] = { "ip", "-n", lab->ns[XL_LAB_GEN], "link", "set",
			 lab->out_ifname[i][XL_LAB_GEN], "up", NULL };
	char *gro[] = { "ip", "netns", "exec", lab->ns[XL_LAB_GEN], "ethtool", "-K",
			lab->out_ifname[i][XL_LAB_GEN], "gro", "on", NULL };
	int err;

	snprintf(mac[XL_LAB_GEN], sizeof(mac[0]), "02:58:4c:00:1%c:01", '0' + i);
	snprintf(mac[XL_LAB_DUT], sizeof(mac[0]), "02:58:4c:00:1%c:02", '0' + i);
	snprintf(v6, sizeof(v6), "net.ipv6.conf.%s.disable_ipv6=1", lab->out_ifname[i][XL_LAB_DUT]);
	if ((err = run(false, add)) || (err = run(false, quiet)) || (err = run(false, up_d)) ||
	    (err = run(false, up_g)) || (err = run(false, gro)))
		return err;
	return 0;
}

static void set_names(struct xl_lab *lab)
{
	int s;

	snprintf(lab->ns[XL_LAB_GEN], sizeof(lab->ns[0]), "%s-gen", lab->tag);
	snprintf(lab->ns[XL_LAB_DUT], sizeof(lab->ns[0]), "%s-dut", lab->tag);
	snprintf(lab->ifname[XL_LAB_GEN], IF_NAMESIZE, "%sg", lab->tag);
	snprintf(lab->ifname[XL_LAB_DUT], IF_NAMESIZE, "%sd", lab->tag);
	for (s = 0; s < XL_LAB_MAX_OUT; s++) {
		snprintf(lab->out_ifname[s][XL_LAB_DUT], IF_NAMESIZE, "%.11sr%cd", lab->tag, '0' + s);
		snprintf(lab->out_ifname[s][XL_LAB_GEN], IF_NAMESIZE, "%.11sr%cs", lab->tag, '0' + s);
	}
}

int xl_lab__create(struct xl_lab *lab, const struct xl_lab_opts *opts)
{
	char q[8], macs[2][18];
	int queues = opts && opts->queues ? opts->queues : 1;
	int err, s, letter;

	memset(lab, 0, sizeof(*lab));
	lab->ns_fd[0] = lab->ns_fd[1] = lab->root_ns_fd = -1;
	lab->napi_cpu = -1;
	if (queues < 1 || queues > 64) {
		xl_err("lab: --queues %d is out of range (accepted: 1..64)", queues);
		return -EINVAL;
	}
	if (opts && (opts->out_pairs < 0 || opts->out_pairs > XL_LAB_MAX_OUT)) {
		xl_err("lab: %d out pairs is out of range (accepted: 0..%d)", opts->out_pairs,
		       XL_LAB_MAX_OUT);
		return -EINVAL;
	}
	xl_lab_sweep();
	letter = __atomic_fetch_add(&next_letter, 1, __ATOMIC_RELAXED) % 26;
	snprintf(lab->tag, sizeof(lab->tag), "%s%d%c", opts && opts->manual ? "xlm" : "xl",
		 (int)getpid(), 'a' + letter);
	set_names(lab);
	/* Before the first namespace: a set-up killed from here on is swept. */
	if (opts && opts->manual) {
		err = xl_lab_setup_mark(lab->tag, true);
		if (err)
			return err;
	}
	fill_addresses(lab);
	lab->queues = queues;
	snprintf(q, sizeof(q), "%d", queues);
	for (s = 0; s < 2; s++)
		snprintf(macs[s], sizeof(macs[s]), "02:58:4c:00:00:%02x", s + 1);

	{
		char *a1[] = { "ip", "netns", "add", lab->ns[0], NULL };
		char *a2[] = { "ip", "netns", "add", lab->ns[1], NULL };

		err = run(false, a1);
		if (err)
			goto out_err;
		lab->live = true;
		registry_add(lab);
		static bool atexit_done;
		if (!atexit_done) {
			atexit(destroy_all_at_exit);
			atexit_done = true;
		}
		err = run(false, a2);
		if (err)
			goto out_err;
	}
	{
		/* A quiet generator end: no IPv6 on it, so no router
		 * solicitations, MLD or DAD frames mix with the counted ones. */
		char *argv[] = { "ip", "netns", "exec", lab->ns[XL_LAB_GEN], "sysctl", "-qw",
				 "net.ipv6.conf.default.disable_ipv6=1",
				 "net.ipv6.conf.all.disable_ipv6=1", NULL };

		err = run(false, argv);
		if (err)
			goto out_err;
	}
	{
		char *argv[] = { "ip", "link", "add", "name", lab->ifname[0], "netns", lab->ns[0],
				 "address", macs[0], "numtxqueues", q, "numrxqueues", q,
				 "type", "veth", "peer", "name", lab->ifname[1],
				 "netns", lab->ns[1], "address", macs[1],
				 "numtxqueues", q, "numrxqueues", q, NULL };
		/*
		 * TSO off at the generator's end: veth hands a sent skb (gen's
		 * packet engine, AF_PACKET) to the peer's NAPI only when the
		 * sender has no TSO (or the peer forwards UDP GRO), else to the
		 * backlog of the sending CPU (kernel drivers/net/veth.c,
		 * veth_skb_is_eligible_for_gro()): the DUT's NAPI, its CPU and
		 * its counters would see none of them in rows without an XDP
		 * program (stack-drop, tc-drop), which live frames reach. An XDP
		 * program on the DUT end turns it off anyway (veth_fix_features).
		 */
		char *tso[] = { "ip", "netns", "exec", lab->ns[XL_LAB_GEN], "ethtool", "-K",
				lab->ifname[XL_LAB_GEN], "tso", "off", NULL };

		err = run(false, argv);
		if (!err)
			err = run(false, tso);
		if (err)
			goto out_err;
	}
	for (s = 0; s < 2; s++) {
		char ip4[INET_ADDRSTRLEN], ip6[INET6_ADDRSTRLEN];
		char a4[32], a6[64];

		inet_ntop(AF_INET, &lab->ip4[s], ip4, sizeof(ip4));
		inet_ntop(AF_INET6, &lab->ip6[s], ip6, sizeof(ip6));
		snprintf(a4, sizeof(a4), "%s/24", ip4);
		snprintf(a6, sizeof(a6), "%s/64", ip6);
		{
			char *c1[] = { "ip", "-n", lab->ns[s], "addr", "add", a4, "dev", lab->ifname[s], NULL };
			char *c2[] = { "ip", "-n", lab->ns[s], "addr", "add", a6, "dev", lab->ifname[s], "nodad", NULL };
			char *c3[] = { "ip", "-n", lab->ns[s], "link", "set", "lo", "up", NULL };
			char *c4[] = { "ip", "-n", lab->ns[s], "link", "set", lab->ifname[s], "up", NULL };

			if ((err = run(false, c1)) ||
			    (s == XL_LAB_DUT && (err = run(false, c2))) ||
			    (err = run(false, c3)) || (err = run(false, c4)))
				goto out_err;
		}
	}
	for (s = 0; opts && s < opts->out_pairs; s++) {
		err = add_out_pair(lab, s);
		if (err)
			goto out_err;
		lab->nout = s + 1;
	}
	err = open_fds(lab);
	if (err) {
		xl_err("lab %s: cannot open its namespaces: %s", lab->tag, strerror(-err));
		goto out_destroy;
	}
	xl_info("lab %s: %s (%s) <-> %s (%s), %d queue(s)", lab->tag,
		lab->ifname[0], lab->ns[0], lab->ifname[1], lab->ns[1], queues);
	if (opts && opts->manual)
		xl_lab_setup_mark(lab->tag, false); /* set up: it stays until torn down */
	return 0;
out_err:
	if (err > 0)
		err = geteuid() ? -EPERM : -EIO;
out_destroy:
	xl_lab__destroy(lab);
	return err;
}

int xl_lab__open_device(struct xl_lab *lab, const char *ifname)
{
	struct ifaddrs *ifa, *i;
	struct ifreq ifr = { 0 };
	char path[96];
	DIR *d;
	int fd, err = 0;

	memset(lab, 0, sizeof(*lab));
	lab->ns_fd[0] = lab->ns_fd[1] = lab->root_ns_fd = -1;
	lab->wiring = XL_WIRING_DEVICE;
	lab->napi_cpu = -1;
	snprintf(lab->ifname[XL_LAB_DUT], IF_NAMESIZE, "%s", ifname);
	lab->ifindex[XL_LAB_DUT] = if_nametoindex(ifname);
	if (!lab->ifindex[XL_LAB_DUT]) {
		xl_err("interface %s: no such interface in this network namespace", ifname);
		return -ENODEV;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	snprintf(ifr.ifr_name, IF_NAMESIZE, "%s", ifname);
	if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		err = -errno;
	else
		memcpy(lab->mac[XL_LAB_DUT], ifr.ifr_hwaddr.sa_data, 6);
	if (fd >= 0)
		close(fd);
	if (err) {
		xl_err("interface %s: cannot read its MAC address: %s", ifname, strerror(-err));
		return err;
	}
	inet_pton(AF_INET, "198.18.0.2", &lab->ip4[XL_LAB_DUT]);
	if (!getifaddrs(&ifa)) {
		for (i = ifa; i; i = i->ifa_next)
			if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			    !strcmp(i->ifa_name, ifname)) {
				lab->ip4[XL_LAB_DUT] = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
				break;
			}
		freeifaddrs(ifa);
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	d = opendir(path);
	if (d) {
		struct dirent *e;

		while ((e = readdir(d)))
			lab->queues += !strncmp(e->d_name, "rx-", 3);
		closedir(d);
	}
	if (lab->queues < 1)
		lab->queues = 1;
	lab->root_ns_fd = xl_netns_self();
	lab->ns_fd[XL_LAB_GEN] = xl_netns_self();
	lab->ns_fd[XL_LAB_DUT] = xl_netns_self();
	if (lab->root_ns_fd < 0 || lab->ns_fd[0] < 0 || lab->ns_fd[1] < 0) {
		err = lab->root_ns_fd < 0 ? lab->root_ns_fd : lab->ns_fd[0] < 0 ? lab->ns_fd[0] :
									   lab->ns_fd[1];
		xl_lab__destroy(lab);
		return err;
	}
	return 0;
}

void xl_lab__destroy(struct xl_lab *lab)
{
	int s;

	if (!lab)
		return;
	registry_del(lab);
	for (s = 0; s < 2; s++) {
		if (lab->ns_fd[s] >= 0)
			close(lab->ns_fd[s]);
		lab->ns_fd[s] = -1;
	}
	if (lab->root_ns_fd >= 0)
		close(lab->root_ns_fd);
	lab->root_ns_fd = -1;
	if (lab->tag[0] && lab->live) {
		/* Deleting the namespaces deletes the veth pair with them. */
		for (s = 0; s < 2; s++)
			xl_lab_del_netns(lab->ns[s]);
		xl_lab_setup_mark(lab->tag, false);
	}
	lab->live = false;
}

void xl_lab__release(struct xl_lab *lab)
{
	lab->live = false;
	xl_lab__destroy(lab);
}

int xl_lab__enter(const struct xl_lab *lab, enum xl_lab_side side)
{
	return xl_netns_enter_fd(lab->ns_fd[side], NULL);
}

int xl_lab__leave(const struct xl_lab *lab)
{
	/* The lab's own saved namespace: the one it was created in. */
	struct xl_netns_saved root = { .fd = dup(lab->root_ns_fd) };

	return root.fd < 0 ? -errno : xl_netns_restore(&root);
}

void *xl_lab__create_in(const struct xl_lab *lab, enum xl_lab_side side,
			void *(*create)(const void *arg), const void *arg)
{
	void *obj;
	int err = xl_lab__enter(lab, side);

	if (err) {
		errno = -err;
		return NULL;
	}
	obj = create(arg);
	err = errno;
	xl_lab__leave(lab);
	errno = err;
	return obj;
}

int xl_lab__socket(const struct xl_lab *lab, enum xl_lab_side side, int domain,
		   int type)
{
	int fd, err;

	err = xl_lab__enter(lab, side);
	if (err)
		return err;
	fd = socket(domain, type | SOCK_CLOEXEC, 0);
	err = fd < 0 ? -errno : 0;
	xl_lab__leave(lab);
	return fd < 0 ? err : fd;
}

int xl_lab__napi_pid(struct xl_lab *lab)
{
	int pid;

	if (lab->wiring != XL_WIRING_THREADED)
		return 0;
	pid = xl_napi_kthread_pid(lab->ifname[XL_LAB_DUT]);
	if (pid && lab->napi_cpu >= 0) {
		int err = xl_task_set_cpu(pid, lab->napi_cpu);

		/* Not where the row says it is: a wrong placement, no figure. */
		if (err) {
			xl_err("cannot pin the NAPI kthread of %s (pid %d) to CPU %d: %s",
			       lab->ifname[XL_LAB_DUT], pid, lab->napi_cpu, strerror(-err));
			return err;
		}
	}
	return pid;
}

int xl_lab__wire(struct xl_lab *lab, enum xl_wiring wiring, int napi_cpu)
{
	const char *dev = lab->ifname[XL_LAB_DUT];
	char rel[64];
	int err;

	snprintf(rel, sizeof(rel), "class/net/%s/threaded", dev);
	if (wiring == XL_WIRING_THREADED) {
		char *gro[] = { "ethtool", "-K", (char *)dev, "gro", "on", NULL };

		err = xl_lab__exec(lab, XL_LAB_DUT, gro);
		if (!err)
			err = xl_netns_sysfs_write(lab->ns_fd[XL_LAB_DUT], rel, "1");
		if (err) {
			xl_err("lab %s: cannot make the NAPI of %s threaded (ethtool -K gro on, /sys/class/net/%s/threaded)%s%s",
			       lab->tag, dev, dev, err < 0 ? ": " : "", err < 0 ? strerror(-err) : "");
			return err < 0 ? err : -EOPNOTSUPP;
		}
		lab->wiring = wiring;
		lab->napi_cpu = napi_cpu;
		if (xl_lab__napi_pid(lab) <= 0) {
			xl_err("lab %s: no napi/%s kthread after enabling threaded NAPI",
			       lab->tag, dev);
			return -EOPNOTSUPP;
		}
		return 0;
	}
	{
		char *gro[] = { "ethtool", "-K", (char *)dev, "gro", "off", NULL };

		/* Turning threaded off needs a NAPI instance too; ignore ENOTSUP. */
		xl_netns_sysfs_write(lab->ns_fd[XL_LAB_DUT], rel, "0");
		xl_lab__exec(lab, XL_LAB_DUT, gro);
	}
	lab->wiring = XL_WIRING_SOFTIRQ;
	lab->napi_cpu = -1;
	return 0;
}

void xl_lab__print(FILE *out, const struct xl_lab *lab)
{
	char ip[2][INET_ADDRSTRLEN], mac[2][18];
	int s;

	for (s = 0; s < 2; s++) {
		inet_ntop(AF_INET, &lab->ip4[s], ip[s], sizeof(ip[s]));
		xl_mac_format(lab->mac[s], mac[s]);
	}
	fprintf(out, "lab %s\n", lab->tag);
	fprintf(out, "gen %s netns %s %s %s\n", lab->ifname[0], lab->ns[0], ip[0], mac[0]);
	fprintf(out, "dut %s netns %s %s %s\n", lab->ifname[1], lab->ns[1], ip[1], mac[1]);
	for (s = 0; s < lab->nout; s++)
		fprintf(out, "out%d %s netns %s -> %s netns %s\n", s, lab->out_ifname[s][XL_LAB_DUT],
			lab->ns[XL_LAB_DUT], lab->out_ifname[s][XL_LAB_GEN], lab->ns[XL_LAB_GEN]);
}

const char *xl_lab__irqs(const struct xl_lab *lab, bool dut, char *buf, size_t len,
			 const char **note)
{
	if (!dut) {
		*note = "veth has no IRQ: its NAPI runs in a kthread or in softirq (the wiring)";
		return NULL;
	}
	if (xl_irq_affinity(NULL, lab->ifname[XL_LAB_DUT], buf, len) > 0) {
		*note = "the DUT interface's IRQs, IRQ:CPUs each (/proc/irq/N/smp_affinity_list)";
		return buf;
	}
	*note = "the DUT interface has no IRQ of its own in sysfs (a virtual device)";
	return NULL;
}
