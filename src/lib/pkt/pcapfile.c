// SPDX-License-Identifier: BSD-2-Clause
/* Capture files for replay, read with libpcap. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pcap/pcap.h>

#include "xdplab/log.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"

void xl_frames_free(struct xl_frames *f)
{
	free(f->data);
	free(f->off);
	free(f->len);
	memset(f, 0, sizeof(*f));
}

static int grow(struct xl_frames *f, size_t *cap, size_t *dcap, size_t need)
{
	if (f->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		size_t *o = realloc(f->off, nc * sizeof(*o));
		uint32_t *l;

		if (!o)
			return -ENOMEM;
		f->off = o;
		l = realloc(f->len, nc * sizeof(*l));
		if (!l)
			return -ENOMEM;
		f->len = l;
		*cap = nc;
	}
	if (need > *dcap) {
		size_t nd = *dcap ? *dcap : 65536;
		uint8_t *d;

		while (nd < need)
			nd *= 2;
		d = realloc(f->data, nd);
		if (!d)
			return -ENOMEM;
		f->data = d;
		*dcap = nd;
	}
	return 0;
}

int xl_frames_load_pcap(const char *path, uint32_t max_len,
			struct xl_frames *out)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	size_t cap = 0, dcap = 0, used = 0;
	struct pcap_pkthdr *hdr;
	const u_char *pkt;
	struct stat st;
	pcap_t *p;
	int ret, err = 0;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st)) {
		xl_err("--pcap %s: %s", path, strerror(errno));
		return -ENOENT;
	}
	p = pcap_open_offline(path, errbuf);
	if (!p) {
		xl_err("--pcap %s: not a pcap or pcapng file (%s)", path, errbuf);
		return -EBADF;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		xl_err("--pcap %s: link type %s, not Ethernet (only LINKTYPE_ETHERNET can be replayed)",
		       path, pcap_datalink_val_to_name(pcap_datalink(p)) ?: "unknown");
		pcap_close(p);
		return -EPROTO;
	}
	while ((ret = pcap_next_ex(p, &hdr, &pkt)) == 1) {
		out->read++;
		if (hdr->caplen > max_len) {
			out->oversize++;
			continue;
		}
		if (hdr->caplen < XL_ETH_HLEN) {
			out->runt++;
			continue;
		}
		if (hdr->caplen < hdr->len)
			out->truncated++;
		if (hdr->caplen < XL_PKT_MIN_SIZE)
			out->short_frames++;
		if (used + hdr->caplen > XL_PCAP_MAX_BYTES) {
			xl_err("--pcap %s: more than %u MiB of frames", path,
			       XL_PCAP_MAX_BYTES >> 20);
			err = -EFBIG;
			break;
		}
		err = grow(out, &cap, &dcap, used + hdr->caplen);
		if (err)
			break;
		memcpy(out->data + used, pkt, hdr->caplen);
		out->off[out->n] = used;
		out->len[out->n] = hdr->caplen;
		out->n++;
		used += hdr->caplen;
	}
	if (!err && ret == PCAP_ERROR)
		xl_warn("--pcap %s: read error after %llu frames: %s (replaying those)",
			path, (unsigned long long)out->read, pcap_geterr(p));
	pcap_close(p);
	if (err)
		xl_frames_free(out);
	return err;
}
