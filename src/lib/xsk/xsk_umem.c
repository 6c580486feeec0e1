// SPDX-License-Identifier: BSD-2-Clause
/*
 * UMEM: memory (normal pages or hugepages), RLIMIT_MEMLOCK and
 * registration through libxdp's xsk_umem__create().
 *
 * The kernel charges UMEM pages to RLIMIT_MEMLOCK unless the process holds
 * CAP_IPC_LOCK (xdp_umem_account_pages() in net/xdp/xdp_umem.c). So the
 * limit is raised only when it is too low, and failing to raise it is fatal
 * only when CAP_IPC_LOCK is missing too: a root process without
 * CAP_SYS_RESOURCE (as in containers and this lab) cannot raise the hard
 * limit but can register any UMEM.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "xdplab/log.h"
#include "xsk_priv.h"

#define CAP_IPC_LOCK_BIT 14
#define HUGE_PAGE (2u << 20)

static bool hugepages_warned;

bool xl_has_cap_ipc_lock(void)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff & (1ull << CAP_IPC_LOCK_BIT);
}

static void fmt_limit(rlim_t v, char *buf, size_t len)
{
	if (v == RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)v >> 10);
}

int xl_memlock_ensure(uint64_t bytes)
{
	struct rlimit rl, want;
	char cur[32], max[32];

	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		return 0; /* the kernel will say */
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= bytes)
		return 0;
	want.rlim_max = rl.rlim_max;
	want.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= bytes ? bytes :
									       rl.rlim_max;
	if (want.rlim_cur >= bytes && !setrlimit(RLIMIT_MEMLOCK, &want)) {
		xl_info("RLIMIT_MEMLOCK raised to %llu KiB for the UMEM",
			(unsigned long long)bytes >> 10);
		return 0;
	}
	/* Above the hard limit: only CAP_SYS_RESOURCE may raise it. */
	want.rlim_cur = want.rlim_max = RLIM_INFINITY;
	if (!setrlimit(RLIMIT_MEMLOCK, &want)) {
		xl_info("RLIMIT_MEMLOCK raised to unlimited for the UMEM");
		return 0;
	}
	fmt_limit(rl.rlim_cur, cur, sizeof(cur));
	fmt_limit(rl.rlim_max, max, sizeof(max));
	if (xl_has_cap_ipc_lock()) {
		xl_info("RLIMIT_MEMLOCK %s (hard %s) is below the UMEM's %llu KiB and cannot be raised (%s), but CAP_IPC_LOCK is held: the kernel does not charge it",
			cur, max, (unsigned long long)bytes >> 10, strerror(errno));
		return 0;
	}
	xl_err("the UMEM needs %llu KiB of locked memory but RLIMIT_MEMLOCK is %s (hard %s), it cannot be raised (%s) and CAP_IPC_LOCK is not held: use fewer --frames or a smaller --frame-size, or raise the limit (ulimit -l)",
	       (unsigned long long)bytes >> 10, cur, max, strerror(errno));
	return -ENOBUFS;
}

static void *map_area(uint64_t size, bool huge)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | (huge ? MAP_HUGETLB : 0);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int xl_umem__create(struct xl_umem *u, const struct xl_xsk_config *c,
		    uint32_t nframes)
{
	struct xsk_umem_config uc = {
		.fill_size = c->fill_size, .comp_size = c->comp_size,
		.frame_size = c->frame_size, .frame_headroom = c->headroom,
		.flags = c->unaligned ? XDP_UMEM_UNALIGNED_CHUNK_FLAG : 0,
	};
	long page = sysconf(_SC_PAGESIZE);
	struct rlimit rl = { 0, 0 };
	char lim[32];
	int err;

	memset(u, 0, sizeof(*u));
	u->nframes = nframes;
	u->frame_size = c->frame_size;
	u->size = (uint64_t)nframes * c->frame_size;
	if (c->hugepages) {
		uint64_t hsize = (u->size + HUGE_PAGE - 1) & ~(uint64_t)(HUGE_PAGE - 1);

		u->area = map_area(hsize, true);
		if (u->area) {
			u->size = hsize;
			u->huge = true;
		} else if (!hugepages_warned) {
			/* Once: a zero-copy fallback or a retry maps again. */
			hugepages_warned = true;
			xl_warn("--hugepages: none available (%s; reserve some with echo N > /proc/sys/vm/nr_hugepages); using normal pages",
				strerror(errno));
		}
	}
	if (!u->area) {
		u->size = (u->size + page - 1) & ~(uint64_t)(page - 1);
		u->area = map_area(u->size, false);
		if (!u->area) {
			err = -errno;
			xl_err("cannot map a UMEM of %llu KiB: %s", (unsigned long long)u->size >> 10,
			       strerror(-err));
			return err;
		}
	}
	err = xsk_umem__create(&u->umem, u->area, u->size, &u->fill, &u->comp, &uc);
	/* What was registered, as xl_xsk_app__umem_facts() reports it. */
	u->unaligned = !err && (uc.flags & XDP_UMEM_UNALIGNED_CHUNK_FLAG);
	u->frame_size = uc.frame_size;
	if (err) {
		getrlimit(RLIMIT_MEMLOCK, &rl);
		fmt_limit(rl.rlim_cur, lim, sizeof(lim));
		xl_err("cannot register the UMEM (%llu KiB = %u frames x %u bytes%s): %s; RLIMIT_MEMLOCK is %s, CAP_IPC_LOCK %s",
		       (unsigned long long)u->size >> 10, nframes, c->frame_size,
		       c->unaligned ? ", unaligned" : "", strerror(-err), lim,
		       xl_has_cap_ipc_lock() ? "held" : "not held");
		munmap(u->area, u->size);
		u->area = NULL;
		u->umem = NULL;
		return err;
	}
	return 0;
}

void xl_umem__destroy(struct xl_umem *u)
{
	if (u->umem)
		xsk_umem__delete(u->umem);
	if (u->area)
		munmap(u->area, u->size);
	memset(u, 0, sizeof(*u));
}

void xl_xsk_driver(const char *ifname, char *buf, size_t len)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(buf, len, "unknown");
	if (fd < 0)
		return;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&info;
	if (!ioctl(fd, SIOCETHTOOL, &ifr))
		snprintf(buf, len, "%s", info.driver);
	close(fd);
}
