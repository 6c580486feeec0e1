// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_pcapfile.c - unit tests of the pcap writer and the tcpdump-syntax
 * filter (src/lib/pkt/pcapfile.c): records written are read back byte-exact
 * with the loader, truncated records keep their wire length, filters match
 * and reject as libpcap's interpreter does, and bad expressions fail.
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
#include <unistd.h>
#include <cmocka.h>

#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"

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
	char path[] = "/tmp/xl-test-pcap.XXXXXX";
	uint8_t a[64], b[1500], hdr[24];
	struct xl_pcap_frames f;
	struct xl_pcap_writer *w;
	FILE *fp;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
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
		cmocka_unit_test(test_writer_bad_path),
		cmocka_unit_test(test_filter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
