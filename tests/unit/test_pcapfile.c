// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_pcapfile.c - unit tests of the pcap writer and the tcpdump-syntax
 * filter (src/lib/pkt/pcapfile.c): records written are read back byte-exact
 * with the loader, truncated records keep their wire length, filters match
 * and reject as libpcap's interpreter does, and bad expressions fail; the
 * pcapng writer's files read by libpcap as the pcap of the same records.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>
#include <pcap/pcap.h>

#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"

#include "test_util.h"

/* The tests' own directory under $TMPDIR (tmp_dir_make()). */
static char dir[256];

static int setup_dir(void **state)
{
	return tmp_dir_make(dir, sizeof(dir), "pcap");
}

static int teardown_dir(void **state)
{
	return tmp_dir_remove(dir);
}

/* @name in the tests' directory, into @buf (320 bytes). */
static char *tmp_path(char *buf, const char *name)
{
	snprintf(buf, 320, "%s/%s", dir, name);
	return buf;
}

static int build(uint16_t sport, uint32_t size, uint8_t *buf)
{
	struct xl_pkt_spec s = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
				 .src_port = sport, .dst_port = 9, .size = size };

	inet_pton(AF_INET, "198.18.0.1", &s.src_ip4);
	inet_pton(AF_INET, "198.18.0.2", &s.dst_ip4);
	return xl_pkt_build(&s, buf, size);
}

static void test_writer_round_trip(void **state)
{
	char path[320];
	uint8_t a[64], b[1500], hdr[24];
	struct xl_pcap_frames f;
	struct xl_pcap_writer *w;
	FILE *fp;

	(void)state;
	tmp_path(path, "round-trip.pcap");
	assert_int_equal(build(1024, sizeof(a), a), 64);
	assert_int_equal(build(1025, sizeof(b), b), 1500);
	w = xl_pcap_writer__open(path, 16384, true, 4096);
	assert_non_null(w);
	xl_pcap_writer__write(w, 1700000000123456789ull, a, 64, 64);
	xl_pcap_writer__write(w, 1700000000123456790ull, b, 1500, 1500);
	xl_pcap_writer__write(w, 1700000000123456791ull, b, 100, 1500); /* snapped */
	assert_int_equal(xl_pcap_writer__close(w), 0);
	/* The nanosecond magic, little-endian, and the snaplen in the header. */
	fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fread(hdr, 1, 24, fp), 24);
	fclose(fp);
	assert_memory_equal(hdr, "\x4d\x3c\xb2\xa1", 4);
	assert_int_equal(hdr[16] | hdr[17] << 8 | hdr[18] << 16, 16384);
	assert_int_equal(xl_frames_load_pcap(path, 1514, &f), 0);
	assert_int_equal(f.n, 3);
	assert_int_equal(f.len[0], 64);
	assert_memory_equal(f.data + f.off[0], a, 64);
	assert_int_equal(f.len[1], 1500);
	assert_memory_equal(f.data + f.off[1], b, 1500);
	assert_int_equal(f.len[2], 100);
	assert_memory_equal(f.data + f.off[2], b, 100);
	assert_int_equal(f.truncated, 1);
	xl_frames_free(&f);
	unlink(path);
}

/*
 * Frames under 14 bytes or over the limit are left out, counted, and the
 * frames kept carry their number in the file: prog-run printed 1, 2, 3
 * for the capture's frames 1, 3, 5.
 */
static void test_frame_numbers(void **state)
{
	char path[320];
	uint8_t a[1500];
	struct xl_pcap_frames f;
	struct xl_pcap_writer *w;

	(void)state;
	tmp_path(path, "frame-numbers.pcap");
	assert_int_equal(build(1025, sizeof(a), a), 1500);
	w = xl_pcap_writer__open(path, 16384, true, 4096);
	assert_non_null(w);
	xl_pcap_writer__write(w, 1, a, 64, 64);
	xl_pcap_writer__write(w, 2, a, 10, 10);     /* a runt */
	xl_pcap_writer__write(w, 3, a, 100, 100);
	xl_pcap_writer__write(w, 4, a, 1500, 1500); /* over 1000 */
	xl_pcap_writer__write(w, 5, a, 64, 64);
	assert_int_equal(xl_pcap_writer__close(w), 0);
	assert_int_equal(xl_frames_load_pcap(path, 1000, &f), 0);
	assert_int_equal(f.n, 3);
	assert_int_equal(f.read, 5);
	assert_int_equal(f.runt, 1);
	assert_int_equal(f.oversize, 1);
	assert_non_null(f.num);
	assert_int_equal(f.num[0], 1);
	assert_int_equal(f.num[1], 3);
	assert_int_equal(f.num[2], 5);
	assert_int_equal(f.len[1], 100);
	xl_frames_free(&f);
	assert_null(f.num);
	unlink(path);
}

/* Host-order 32-bit field at @p. */
static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * pcapng (our own writer, pcapng.c): the same records written as pcap and
 * as pcapng read back by libpcap identical (timestamps to the ns, captured
 * and original lengths, bytes), the file's blocks laid out as the format
 * says (SHB 44 bytes, IDB with if_name and if_tsresol 44, one EPB each
 * with its data padded to 32 bits), and microsecond resolution too.
 */
static void test_pcapng_round_trip(void **state)
{
	static const uint32_t caps[] = { 64, 1500, 100, 61 }, lens[] = { 64, 1500, 1500, 61 };
	char pp[320], pn[320];
	char err[PCAP_ERRBUF_SIZE];
	uint8_t fr[1500], file[8192];
	struct xl_pcap_writer *w;
	size_t n, off, want;
	int i, fd, us;

	(void)state;
	assert_int_equal(build(1025, sizeof(fr), fr), 1500);
	for (us = 0; us < 2; us++) {
		pcap_t *a, *b;

		tmp_path(pp, us ? "same-us.pcap" : "same-ns.pcap");
		tmp_path(pn, us ? "same-us.pcapng" : "same-ns.pcapng");
		w = xl_pcap_writer__open(pp, 16384, !us, 0);
		assert_non_null(w);
		for (i = 0; i < 4; i++)
			xl_pcap_writer__write(w, 1700000000123456789ull + i * 1001, fr, caps[i], lens[i]);
		assert_int_equal(xl_pcap_writer__close(w), 0);
		w = xl_pcap_writer__open_ng(pn, 16384, !us, 0, "veth0");
		assert_non_null(w);
		for (i = 0; i < 4; i++)
			xl_pcap_writer__write(w, 1700000000123456789ull + i * 1001, fr, caps[i], lens[i]);
		assert_int_equal(xl_pcap_writer__close(w), 0);

		a = pcap_open_offline_with_tstamp_precision(pp, PCAP_TSTAMP_PRECISION_NANO, err);
		b = pcap_open_offline_with_tstamp_precision(pn, PCAP_TSTAMP_PRECISION_NANO, err);
		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(pcap_datalink(b), DLT_EN10MB);
		assert_int_equal(pcap_snapshot(b), 16384);
		for (i = 0; i < 4; i++) {
			struct pcap_pkthdr *ha, *hb;
			const u_char *da, *db;

			assert_int_equal(pcap_next_ex(a, &ha, &da), 1);
			assert_int_equal(pcap_next_ex(b, &hb, &db), 1);
			assert_int_equal(hb->ts.tv_sec, 1700000000);
			assert_int_equal(hb->ts.tv_usec, us ? (123456789 + i * 1001) / 1000 * 1000 :
							      123456789 + i * 1001);
			assert_int_equal(hb->ts.tv_usec, ha->ts.tv_usec);
			assert_int_equal(hb->caplen, caps[i]);
			assert_int_equal(hb->len, lens[i]);
			assert_int_equal(ha->caplen, hb->caplen);
			assert_int_equal(ha->len, hb->len);
			assert_memory_equal(da, db, caps[i]);
			assert_memory_equal(db, fr, caps[i]);
		}
		pcap_close(a);
		pcap_close(b);

		/* The blocks themselves. */
		fd = open(pn, O_RDONLY);
		assert_true(fd >= 0);
		n = read(fd, file, sizeof(file));
		close(fd);
		for (want = 44 + 44, i = 0; i < 4; i++)
			want += 32 + (caps[i] + 3) / 4 * 4;
		assert_int_equal(n, want);
		assert_int_equal(u32_at(file), 0x0A0D0D0A);
		assert_int_equal(u32_at(file + 4), 44);
		assert_int_equal(u32_at(file + 8), 0x1A2B3C4D);
		assert_int_equal(u32_at(file + 40), 44);
		assert_int_equal(u32_at(file + 44), 1);	   /* IDB */
		assert_int_equal(u32_at(file + 48), 44);
		assert_int_equal(u32_at(file + 52), 1);	   /* LINKTYPE_ETHERNET, reserved 0 */
		assert_int_equal(u32_at(file + 56), 16384); /* snaplen */
		assert_memory_equal(file + 60, "\x02\x00\x05\x00veth0\0\0\0", 12); /* if_name */
		assert_int_equal(file[72] | file[73] << 8, 9); /* if_tsresol */
		assert_int_equal(file[74] | file[75] << 8, 1);
		assert_int_equal(file[76], us ? 6 : 9);
		assert_int_equal(u32_at(file + 80), 0);	   /* opt_endofopt */
		for (off = 88, i = 0; i < 4; i++) {
			uint64_t ts = 1700000000123456789ull + i * 1001;
			uint32_t total = 32 + (caps[i] + 3) / 4 * 4;

			if (us)
				ts /= 1000;
			assert_int_equal(u32_at(file + off), 6);
			assert_int_equal(u32_at(file + off + 4), total);
			assert_int_equal(u32_at(file + off + 8), 0);
			assert_int_equal(u32_at(file + off + 12), (uint32_t)(ts >> 32));
			assert_int_equal(u32_at(file + off + 16), (uint32_t)ts);
			assert_int_equal(u32_at(file + off + 20), caps[i]);
			assert_int_equal(u32_at(file + off + 24), lens[i]);
			assert_memory_equal(file + off + 28, fr, caps[i]);
			assert_int_equal(u32_at(file + off + total - 4), total);
			off += total;
		}
		unlink(pp);
		unlink(pn);
	}
}

/*
 * The hook's metadata as Enhanced Packet Block options: epb_flags inbound,
 * epb_queue, epb_verdict (type 2, XDP action, 64 bits), opt_comment, each
 * only when set; libpcap still reads the frame right; pcap ignores it.
 */
static void test_pcapng_meta(void **state)
{
	char pn[320], err[PCAP_ERRBUF_SIZE];
	struct xl_cap_meta m1 = { .queue = 3, .xdp_action = 1, .comment = "xdp exit" },
			   m2 = { .queue = -1, .xdp_action = -1, .dir = XL_CAP_OUT },
			   m3 = { .queue = -1, .xdp_action = -1, .dir = XL_CAP_DIR_UNKNOWN };
	uint8_t fr[64], file[1024], *e;
	struct xl_pcap_writer *w;
	struct pcap_pkthdr *h;
	const u_char *d;
	uint64_t act;
	pcap_t *p;
	size_t n;
	int fd, i;

	(void)state;
	assert_int_equal(build(1024, sizeof(fr), fr), 64);
	tmp_path(pn, "meta.pcapng");
	w = xl_pcap_writer__open_ng(pn, 16384, true, 0, NULL);
	assert_non_null(w);
	xl_pcap_writer__write_meta(w, 1000, fr, 64, 64, &m1);
	xl_pcap_writer__write_meta(w, 2000, fr, 64, 64, &m2);
	xl_pcap_writer__write_meta(w, 3000, fr, 64, 64, &m3);
	assert_int_equal(xl_pcap_writer__close(w), 0);
	fd = open(pn, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, file, sizeof(file));
	close(fd);
	/* SHB 44, IDB without if_name 32; EPB 1: 32 + 64 + flags 8 + queue 8 +
	 * verdict 16 + comment 12 + end 4; EPB 2: 32 + 64 + flags 8 + end 4;
	 * EPB 3 (direction not known): 32 + 64 + end 4. */
	assert_int_equal(n, 44 + 32 + 144 + 108 + 100);
	e = file + 76;
	assert_int_equal(u32_at(e + 4), 144);
	assert_int_equal(u32_at(e + 92), 2 | 4 << 16);	 /* epb_flags, 4 bytes */
	assert_int_equal(u32_at(e + 96), 1);		 /* inbound */
	assert_int_equal(u32_at(e + 100), 6 | 4 << 16);	 /* epb_queue */
	assert_int_equal(u32_at(e + 104), 3);
	assert_int_equal(u32_at(e + 108), 7 | 9 << 16);	 /* epb_verdict, 9 bytes */
	assert_int_equal(e[112], 2);			 /* Linux eBPF XDP */
	memcpy(&act, e + 113, 8);
	assert_int_equal(act, 1);
	assert_memory_equal(e + 121, "\0\0\0", 3);	 /* padding */
	assert_int_equal(u32_at(e + 124), 1 | 8 << 16);	 /* opt_comment */
	assert_memory_equal(e + 128, "xdp exit", 8);
	assert_int_equal(u32_at(e + 136), 0);		 /* opt_endofopt */
	assert_int_equal(u32_at(e + 140), 144);
	e += 144;
	assert_int_equal(u32_at(e + 4), 108);
	assert_int_equal(u32_at(e + 92), 2 | 4 << 16);
	assert_int_equal(u32_at(e + 96), 2);		 /* outbound */
	assert_int_equal(u32_at(e + 100), 0);
	assert_int_equal(u32_at(e + 104), 108);
	e += 108;
	assert_int_equal(u32_at(e + 4), 100);
	assert_int_equal(u32_at(e + 92), 0);		 /* opt_endofopt: no epb_flags */
	assert_int_equal(u32_at(e + 96), 100);
	p = pcap_open_offline_with_tstamp_precision(pn, PCAP_TSTAMP_PRECISION_NANO, err);
	assert_non_null(p);
	for (i = 0; i < 3; i++) {
		assert_int_equal(pcap_next_ex(p, &h, &d), 1);
		assert_int_equal(h->caplen, 64);
		assert_int_equal(h->ts.tv_usec, 1000 * (i + 1));
		assert_memory_equal(d, fr, 64);
	}
	assert_int_equal(pcap_next_ex(p, &h, &d), PCAP_ERROR_BREAK);
	pcap_close(p);
	unlink(pn);
}

static void test_writer_bad_path(void **state)
{
	(void)state;
	errno = 0;
	assert_null(xl_pcap_writer__open("/nonexistent-dir/x.pcap", 100, false, 0));
	assert_int_equal(errno, ENOENT);
}

static void test_filter(void **state)
{
	uint8_t a[64], b[64];
	char err[256] = "";
	struct xl_pcap_filter *f;

	(void)state;
	build(1024, sizeof(a), a);
	build(1030, sizeof(b), b);
	f = xl_pcap_filter__compile("udp and src port 1024", 16384, err, sizeof(err));
	assert_non_null(f);
	assert_true(xl_pcap_filter__match(f, a, 64, 64));
	assert_false(xl_pcap_filter__match(f, b, 64, 64));
	/* The port lies at bytes 34-35: a record cut before them is rejected. */
	assert_false(xl_pcap_filter__match(f, a, 30, 64));
	xl_pcap_filter__free(f);
	f = xl_pcap_filter__compile("len > 100", 16384, err, sizeof(err));
	assert_non_null(f);
	assert_false(xl_pcap_filter__match(f, a, 64, 64));
	assert_true(xl_pcap_filter__match(f, a, 64, 1500)); /* the wire length counts */
	xl_pcap_filter__free(f);
	errno = 0;
	assert_null(xl_pcap_filter__compile("udp port", 16384, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err, "can't parse filter expression: syntax error");
	xl_pcap_filter__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_round_trip),
		cmocka_unit_test(test_frame_numbers),
		cmocka_unit_test(test_pcapng_round_trip),
		cmocka_unit_test(test_pcapng_meta),
		cmocka_unit_test(test_writer_bad_path),
		cmocka_unit_test(test_filter),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
