// SPDX-License-Identifier: BSD-2-Clause
/*
 * pcaplive.c - a libpcap live capture of one interface (pcaplive.h): the
 * capture `xdplab dump` uses where it has no XDP hook (docs/dump.md).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#define PCAP_DONT_INCLUDE_PCAP_BPF_H
#include <pcap/pcap.h>

#include "xdplab/log.h"
#include "xdplab/pcaplive.h"

struct xl_pcap_live {
	pcap_t *p;
	xl_live_frame_fn fn;
	void *ctx;
	uint64_t dropped; /* ps_drop at the last read */
};

/* libpcap's callback: the stamp is in ns (nano precision asked for). */
static void on_frame(u_char *user, const struct pcap_pkthdr *ph, const u_char *bytes)
{
	struct xl_pcap_live *l = (struct xl_pcap_live *)user;

	l->fn(l->ctx, (uint64_t)ph->ts.tv_sec * 1000000000ull + (uint64_t)ph->ts.tv_usec, ph->len,
	      ph->caplen, bytes);
}

struct xl_pcap_live *xl_pcap_live__open(const char *ifname, uint32_t snaplen, enum xl_live_dir dir,
					xl_live_frame_fn fn, void *ctx)
{
	static const pcap_direction_t dirs[] = { PCAP_D_IN, PCAP_D_OUT, PCAP_D_INOUT };
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct xl_pcap_live *l = calloc(1, sizeof(*l));
	int err = EIO, rc;

	if (!l)
		return NULL;
	l->fn = fn;
	l->ctx = ctx;
	l->p = pcap_create(ifname, ebuf);
	if (!l->p) {
		xl_err("%s: cannot open a libpcap capture: %s", ifname, ebuf);
		err = ENODEV;
		goto out_free;
	}
	pcap_set_snaplen(l->p, (int)snaplen);
	pcap_set_immediate_mode(l->p, 1);
	pcap_set_tstamp_precision(l->p, PCAP_TSTAMP_PRECISION_NANO);
	pcap_set_buffer_size(l->p, 8 << 20);
	rc = pcap_activate(l->p);
	if (rc < 0) {
		xl_err("%s: cannot start the libpcap capture: %s", ifname, pcap_geterr(l->p));
		err = rc == PCAP_ERROR_PERM_DENIED ? EPERM : rc == PCAP_ERROR_NO_SUCH_DEVICE ? ENODEV : EIO;
		goto out_close;
	}
	if (pcap_setdirection(l->p, dirs[dir <= XL_LIVE_INOUT ? dir : XL_LIVE_IN]) || pcap_setnonblock(l->p, 1, ebuf)) {
		xl_err("%s: cannot set up the libpcap capture: %s", ifname, pcap_geterr(l->p));
		goto out_close;
	}
	return l;
out_close:
	pcap_close(l->p);
out_free:
	free(l);
	errno = err;
	return NULL;
}

int xl_pcap_live__drain(struct xl_pcap_live *l, int timeout_ms)
{
	struct pollfd pfd = { .fd = pcap_get_selectable_fd(l->p), .events = POLLIN };
	int n, total = 0;

	if (timeout_ms > 0 && poll(&pfd, 1, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	while ((n = pcap_dispatch(l->p, -1, on_frame, (u_char *)l)) > 0)
		total += n;
	if (n < 0) {
		xl_err("the libpcap capture failed: %s", pcap_geterr(l->p));
		return -EIO;
	}
	return total;
}

int xl_pcap_live__fd(struct xl_pcap_live *l)
{
	return pcap_get_selectable_fd(l->p);
}

uint64_t xl_pcap_live__dropped(struct xl_pcap_live *l)
{
	struct pcap_stat ps;

	if (!pcap_stats(l->p, &ps))
		l->dropped = ps.ps_drop;
	return l->dropped;
}

void xl_pcap_live__close(struct xl_pcap_live *l)
{
	if (!l)
		return;
	pcap_close(l->p);
	free(l);
}
