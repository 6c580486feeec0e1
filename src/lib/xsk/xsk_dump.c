// SPDX-License-Identifier: BSD-2-Clause
/* rxdrop --dump: frames to a pcap file through libpcap's dumper. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <pcap/pcap.h>

#include "xdplab/log.h"
#include "xsk_dump.h"

struct xl_xsk_dump {
	pthread_mutex_t lock;
	pcap_t *pcap;
	pcap_dumper_t *dumper;
};

struct xl_xsk_dump *xl_xsk_dump__open(const char *path)
{
	struct xl_xsk_dump *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->pcap = pcap_open_dead(DLT_EN10MB, 65535);
	if (!d->pcap)
		goto out_free;
	d->dumper = pcap_dump_open(d->pcap, path);
	if (!d->dumper) {
		xl_err("--dump %s: %s", path, pcap_geterr(d->pcap));
		pcap_close(d->pcap);
		goto out_free;
	}
	pthread_mutex_init(&d->lock, NULL);
	return d;
out_free:
	free(d);
	errno = EIO;
	return NULL;
}

void xl_xsk_dump__frame(struct xl_xsk_dump *d, const uint8_t *data, uint32_t len)
{
	struct pcap_pkthdr h = { .caplen = len, .len = len };
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	h.ts.tv_sec = ts.tv_sec;
	h.ts.tv_usec = ts.tv_nsec / 1000;
	pthread_mutex_lock(&d->lock);
	pcap_dump((u_char *)d->dumper, &h, data);
	pthread_mutex_unlock(&d->lock);
}

void xl_xsk_dump__flush(struct xl_xsk_dump *d)
{
	pthread_mutex_lock(&d->lock);
	pcap_dump_flush(d->dumper);
	pthread_mutex_unlock(&d->lock);
}

void xl_xsk_dump__close(struct xl_xsk_dump *d)
{
	if (!d)
		return;
	pcap_dump_close(d->dumper);
	pcap_close(d->pcap);
	pthread_mutex_destroy(&d->lock);
	free(d);
}
