// SPDX-License-Identifier: BSD-2-Clause
/* Capture files through libpcap: read for replay, written by dump and rxdrop --dump
 * (classic pcap by libpcap's dumper, pcapng by pcapng.c), filters. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "xdplab/atomicfile.h"
#include "xdplab/log.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"
#include "pcapng.h"

void xl_frames_free(struct xl_pcap_frames *f)
{
	free(f->data);
	free(f->off);
	free(f->len);
	free(f->num);
	memset(f, 0, sizeof(*f));
}

static int grow(struct xl_pcap_frames *f, size_t *cap, size_t *dcap, size_t need)
{
	if (f->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		size_t *o = realloc(f->off, nc * sizeof(*o));
		uint32_t *l;
		uint64_t *k;

		if (!o)
			return -ENOMEM;
		f->off = o;
		l = realloc(f->len, nc * sizeof(*l));
		if (!l)
			return -ENOMEM;
		f->len = l;
		k = realloc(f->num, nc * sizeof(*k));
		if (!k)
			return -ENOMEM;
		f->num = k;
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
			struct xl_pcap_frames *out)
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
		out->num[out->n] = out->read;
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

/* Classic pcap goes through libpcap's dumper (@pcap, @dumper); pcapng
 * (@ng) is written by pcapng.c straight into @f. */
struct xl_pcap_writer {
	pcap_t *pcap;
	pcap_dumper_t *dumper;
	FILE *f;		/* a.f */
	struct xl_afile a;	/* written whole or not at all (atomicfile.h) */
	char *buf;
	bool nano;
	bool ng;
	int err;		/* the first failure, logged once */
};

/* Keep and log (once) the first failure, @err or the stream's own. */
static int writer_failed(struct xl_pcap_writer *w, int err)
{
	if (!w->err) {
		w->err = w->a.err ? w->a.err : err;
		xl_err("cannot write %s: %s", w->a.path, strerror(-w->err));
	}
	return w->err;
}

static struct xl_pcap_writer *writer_open(const char *path, uint32_t snaplen, bool nano,
					  size_t buf_bytes, bool ng, const char *const *ifnames,
					  unsigned int n_ifnames)
{
	struct xl_pcap_writer *w = calloc(1, sizeof(*w));
	int fd, err = EIO;

	if (!w)
		return NULL;
	w->nano = nano;
	w->ng = ng;
	w->pcap = ng ? NULL : pcap_open_dead_with_tstamp_precision(DLT_EN10MB, snaplen,
					nano ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO);
	if (!ng && !w->pcap)
		goto out_free;
	if (!strcmp(path, "-")) {
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
		err = fd < 0 ? -errno : xl_afile_open_fd(&w->a, fd, "-");
	} else {
		err = xl_afile_open_user(&w->a, path, 0644);
	}
	if (err) {
		err = -err;
		xl_err("cannot write %s: %s", path, strerror(err));
		goto out_close_pcap;
	}
	w->f = w->a.f;
	w->buf = malloc(buf_bytes ? buf_bytes : 1 << 20);
	if (w->buf)
		setvbuf(w->f, w->buf, _IOFBF, buf_bytes ? buf_bytes : 1 << 20);
	if (ng) {
		xl_pcapng_write_header(w->f, snaplen, nano, ifnames, n_ifnames);
		return w;
	}
	w->dumper = pcap_dump_fopen(w->pcap, w->f);
	if (!w->dumper) {
		xl_err("cannot write %s: %s", path, pcap_geterr(w->pcap));
		xl_afile_abort(&w->a);
		err = EIO; /* errno for the caller: the open above left err 0 */
		goto out_close_pcap;
	}
	return w;
out_close_pcap:
	if (w->pcap)
		pcap_close(w->pcap);
out_free:
	free(w->buf);
	free(w);
	errno = err;
	return NULL;
}

struct xl_pcap_writer *xl_pcap_writer__open(const char *path, uint32_t snaplen, bool nano,
					    size_t buf_bytes)
{
	return writer_open(path, snaplen, nano, buf_bytes, false, NULL, 0);
}

struct xl_pcap_writer *xl_pcap_writer__open_ng(const char *path, uint32_t snaplen, bool nano,
					       size_t buf_bytes, const char *ifname)
{
	return writer_open(path, snaplen, nano, buf_bytes, true, &ifname, ifname ? 1 : 0);
}

struct xl_pcap_writer *xl_pcap_writer__open_ng_ifs(const char *path, uint32_t snaplen, bool nano,
						   size_t buf_bytes, const char *const *ifnames,
						   unsigned int n_ifnames)
{
	return writer_open(path, snaplen, nano, buf_bytes, true, ifnames, n_ifnames);
}

void xl_pcap_writer__write(struct xl_pcap_writer *w, uint64_t ts_ns, const void *data,
			   uint32_t caplen, uint32_t len)
{
	xl_pcap_writer__write_meta(w, ts_ns, data, caplen, len, NULL);
}

void xl_pcap_writer__write_meta(struct xl_pcap_writer *w, uint64_t ts_ns, const void *data,
				uint32_t caplen, uint32_t len, const struct xl_cap_meta *meta)
{
	struct pcap_pkthdr h = { .caplen = caplen, .len = len };

	if (w->ng) {
		xl_pcapng_write_epb(w->f, ts_ns, w->nano, data, caplen, len, meta);
		return;
	}

	h.ts.tv_sec = ts_ns / 1000000000ull;
	/* With nanosecond precision libpcap writes tv_usec as nanoseconds. */
	h.ts.tv_usec = w->nano ? ts_ns % 1000000000ull : ts_ns % 1000000000ull / 1000;
	pcap_dump((u_char *)w->dumper, &h, data);
}

int xl_pcap_writer__flush(struct xl_pcap_writer *w)
{
	if (w->err)
		return w->err;
	if ((w->ng ? fflush(w->f) : pcap_dump_flush(w->dumper)) || ferror(w->f) || w->a.err)
		return writer_failed(w, -EIO);
	return 0;
}

int xl_pcap_writer__close(struct xl_pcap_writer *w)
{
	int err;

	if (!w)
		return 0;
	err = xl_pcap_writer__flush(w);
	/* Not pcap_dump_close(): it would fclose() the stream the xl_afile owns. */
	if (err) {
		xl_afile_abort(&w->a); /* an earlier file of that name stays */
	} else {
		err = xl_afile_commit(&w->a);
		if (err)
			err = writer_failed(w, err);
	}
	if (w->pcap)
		pcap_close(w->pcap);
	free(w->buf);
	free(w);
	return err;
}

void xl_pcap_writer__abort(struct xl_pcap_writer *w)
{
	if (!w)
		return;
	xl_afile_abort(&w->a);
	if (w->pcap)
		pcap_close(w->pcap);
	free(w->buf);
	free(w);
}

struct xl_pcap_filter {
	struct bpf_program prog;
};

struct xl_pcap_filter *xl_pcap_filter__compile(const char *expr, uint32_t snaplen, char *err,
					       size_t errlen)
{
	struct xl_pcap_filter *f = calloc(1, sizeof(*f));
	pcap_t *p;

	if (!f)
		return NULL;
	p = pcap_open_dead(DLT_EN10MB, snaplen);
	if (!p) {
		snprintf(err, errlen, "libpcap cannot open a dead handle");
		goto out_free;
	}
	if (pcap_compile(p, &f->prog, expr, 1, PCAP_NETMASK_UNKNOWN)) {
		snprintf(err, errlen, "%s", pcap_geterr(p));
		pcap_close(p);
		goto out_free;
	}
	pcap_close(p);
	return f;
out_free:
	free(f);
	errno = EINVAL;
	return NULL;
}

bool xl_pcap_filter__match(const struct xl_pcap_filter *f, const void *data, uint32_t caplen,
			   uint32_t len)
{
	struct pcap_pkthdr h = { .caplen = caplen, .len = len };

	return pcap_offline_filter(&f->prog, &h, data) != 0;
}

void xl_pcap_filter__free(struct xl_pcap_filter *f)
{
	if (!f)
		return;
	pcap_freecode(&f->prog);
	free(f);
}
