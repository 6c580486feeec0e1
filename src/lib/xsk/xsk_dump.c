// SPDX-License-Identifier: BSD-2-Clause
/* rxdrop --dump: frames to a pcap file through the shared libpcap writer (pkt/pcapfile.c),
 * or to pcapng through its pcapng writer (pkt/pcapng.c). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "xdplab/pcapfile.h"
#include "xsk_dump.h"

struct xl_xsk_dump {
	pthread_mutex_t lock;
	struct xl_pcap_writer *w;
	uint32_t snaplen;
};

struct xl_xsk_dump *xl_xsk_dump__open(const char *path, uint32_t snaplen, bool pcapng,
				      const char *ifname)
{
	struct xl_xsk_dump *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->snaplen = snaplen ? snaplen : 65535;
	/* pcap: microsecond timestamps, the classic format every reader
	 * takes; pcapng states its resolution, so nanoseconds. */
	d->w = pcapng ? xl_pcap_writer__open_ng(path, d->snaplen, true, 0, ifname) :
			xl_pcap_writer__open(path, d->snaplen, false, 0);
	if (!d->w) {
		free(d);
		errno = EIO;
		return NULL;
	}
	pthread_mutex_init(&d->lock, NULL);
	return d;
}

void xl_xsk_dump__frame(struct xl_xsk_dump *d, const uint8_t *data, uint32_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	pthread_mutex_lock(&d->lock);
	xl_pcap_writer__write(d->w, ts.tv_sec * 1000000000ull + ts.tv_nsec, data,
			      len < d->snaplen ? len : d->snaplen, len);
	pthread_mutex_unlock(&d->lock);
}

void xl_xsk_dump__flush(struct xl_xsk_dump *d)
{
	pthread_mutex_lock(&d->lock);
	xl_pcap_writer__flush(d->w);
	pthread_mutex_unlock(&d->lock);
}

int xl_xsk_dump__close(struct xl_xsk_dump *d)
{
	int err;

	if (!d)
		return 0;
	err = xl_pcap_writer__close(d->w);
	pthread_mutex_destroy(&d->lock);
	free(d);
	return err;
}

void xl_xsk_dump__abort(struct xl_xsk_dump *d)
{
	if (!d)
		return;
	xl_pcap_writer__abort(d->w);
	pthread_mutex_destroy(&d->lock);
	free(d);
}
