// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_pkt.c - unit tests of the packet module: checksums against known
 * vectors and an independent naive implementation, the builder byte-exact,
 * the parser on built, hand-edited, truncated and captured (pcap) frames.
 *
 * Run from the repository root. The capture test parses the project's own
 * captures (build/test-pcaps, made by `make unit`) always, and
 * the corpus where it exists: ../shared/corpus/tcpdump, or XL_CORPUS_DIR, a
 * directory of pcap files, which must exist and hold captures (a mistyped
 * one fails the test). It never skips.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pcap/pcap.h>

#include "xdplab/pkt.h"
#include "xdplab/abi/latency.h"

#define ETH_IP4 0x0800
#define ETH_IP6 0x86dd
#define ETH_ARP 0x0806
#define IP4_HDRS (XL_ETH_HLEN + 20 + 8) /* Ethernet + IPv4 + UDP, bytes */
#define IP6_HDRS (XL_ETH_HLEN + 40 + 8) /* Ethernet + IPv6 + UDP, bytes */
#define DEFAULT_CORPUS "../shared/corpus/tcpdump"
#define OWN_PCAPS "build/test-pcaps"

/* Deterministic pseudo-random numbers (xorshift32, fixed seed per test). */
static uint32_t rng_state;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void rng_fill(uint8_t *p, size_t len)
{
	while (len--)
		*p++ = rng() & 0xff;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * Reference L4 checksum, written separately and as plainly as possible:
 * lay the pseudo-header out as bytes, then add every byte as the high or
 * low half of a big-endian 16-bit word into a 32-bit sum. Host order result;
 * a computed 0 is returned as 0xffff (RFC 768).
 */
static uint16_t naive_l4_csum(const uint8_t *saddr, const uint8_t *daddr,
			      size_t alen, uint8_t proto, const uint8_t *data,
			      size_t len)
{
	uint8_t ph[40];
	size_t phlen = 0, i;
	uint64_t sum = 0;

	memcpy(ph, saddr, alen);
	memcpy(ph + alen, daddr, alen);
	phlen = 2 * alen;
	if (alen == 4) {
		ph[phlen++] = 0;
		ph[phlen++] = proto;
		ph[phlen++] = (len >> 8) & 0xff;
		ph[phlen++] = len & 0xff;
	} else {
		ph[phlen++] = (len >> 24) & 0xff;
		ph[phlen++] = (len >> 16) & 0xff;
		ph[phlen++] = (len >> 8) & 0xff;
		ph[phlen++] = len & 0xff;
		ph[phlen++] = 0;
		ph[phlen++] = 0;
		ph[phlen++] = 0;
		ph[phlen++] = proto;
	}
	for (i = 0; i < phlen; i++)
		sum += (i % 2 == 0) ? (uint64_t)ph[i] << 8 : ph[i];
	for (i = 0; i < len; i++)
		sum += (i % 2 == 0) ? (uint64_t)data[i] << 8 : data[i];
	while (sum > 0xffff)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	return sum ? sum : 0xffff;
}

/*
 * Parse @len bytes copied to the very end of a heap block of exactly that
 * size, so that valgrind reports any read past @len.
 */
static int parse_exact(const void *data, size_t len, struct xl_pkt_info *info)
{
	size_t alloc = len ? len : 1;
	uint8_t *block = malloc(alloc);
	int ret;

	assert_non_null(block);
	memcpy(block + alloc - len, data, len);
	ret = xl_pkt_parse(block + alloc - len, len, info);
	free(block);
	return ret;
}

static void fill_spec(struct xl_pkt_spec *s, bool ipv6, uint32_t size)
{
	static const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 0x01 };
	static const uint8_t dst[6] = { 0x02, 0, 0, 0, 0, 0x02 };

	memset(s, 0, sizeof(*s));
	memcpy(s->src_mac, src, 6);
	memcpy(s->dst_mac, dst, 6);
	s->ipv6 = ipv6;
	assert_int_equal(inet_pton(AF_INET, "10.0.0.1", &s->src_ip4), 1);
	assert_int_equal(inet_pton(AF_INET, "10.0.0.2", &s->dst_ip4), 1);
	assert_int_equal(inet_pton(AF_INET6, "fd00::1", &s->src_ip6), 1);
	assert_int_equal(inet_pton(AF_INET6, "fd00::2", &s->dst_ip6), 1);
	s->src_port = 1234;
	s->dst_port = 5678;
	s->size = size;
}

/* ---- checksums ---------------------------------------------------------- */

static void test_csum_rfc1071(void **state)
{
	/* RFC 1071 section 3 example: the sum is 0xddf2 in network order. */
	static const uint8_t v[8] = { 0x00, 0x01, 0xf2, 0x03,
				      0xf4, 0xf5, 0xf6, 0xf7 };
	uint8_t unaligned[9 + 1];
	uint16_t part;

	assert_int_equal(ntohs(xl_csum_partial(v, sizeof(v), 0)), 0xddf2);

	/* Same at an odd address. */
	memcpy(unaligned + 1, v, sizeof(v));
	assert_int_equal(ntohs(xl_csum_partial(unaligned + 1, sizeof(v), 0)),
			 0xddf2);

	/* Chained over an even split. */
	part = xl_csum_partial(v, 4, 0);
	assert_int_equal(ntohs(xl_csum_partial(v + 4, 4, part)), 0xddf2);

	/* An odd trailing byte counts as the high byte of a padded word. */
	assert_int_equal(ntohs(xl_csum_partial(v, 7, 0)), 0xddf2 - 0x00f7);
	assert_int_equal(ntohs(xl_csum_partial(v + 2, 1, 0)), 0xf200);
	assert_int_equal(xl_csum_partial(v, 0, 0), 0);
}

static void test_csum_ipv4_vector(void **state)
{
	uint8_t iph[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40,
			    0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8,
			    0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
	uint16_t csum = xl_csum_ipv4(iph, sizeof(iph));

	assert_int_equal(ntohs(csum), 0xb861);
	memcpy(iph + 10, &csum, 2);
	assert_int_equal(iph[10], 0xb8);
	assert_int_equal(iph[11], 0x61);
	/* With the checksum stored, the header sums to 0xffff. */
	assert_int_equal(xl_csum_partial(iph, sizeof(iph), 0), 0xffff);
	assert_int_equal(xl_csum_ipv4(iph, sizeof(iph)), 0);
}

/* Random IPv4 and IPv6 source and destination addresses, as bytes (for
 * naive_l4_csum()) and as the checksum functions take them. */
struct rand_addrs {
	uint8_t s4[4], d4[4], s6[16], d6[16];
	uint32_t a4, b4;
	struct in6_addr a6, b6;
};

static void rand_addrs(struct rand_addrs *x)
{
	rng_fill(x->s4, 4);
	rng_fill(x->d4, 4);
	rng_fill(x->s6, 16);
	rng_fill(x->d6, 16);
	memcpy(&x->a4, x->s4, 4);
	memcpy(&x->b4, x->d4, 4);
	memcpy(&x->a6, x->s6, 16);
	memcpy(&x->b6, x->d6, 16);
}

static void test_csum_udp_vs_naive(void **state)
{
	/* One spare byte in front to test odd addresses too. */
	static uint8_t buf[1 + 2048];
	struct rand_addrs x;
	int i, odd = 0, even = 0;

	rng_state = 0x12345678;
	for (i = 0; i < 2000; i++) {
		size_t len = rng() % 2001;
		uint8_t *udp = buf + (rng() & 1);

		rng_fill(udp, len);
		if (len >= 8)
			udp[6] = udp[7] = 0;
		rand_addrs(&x);

		assert_int_equal(ntohs(xl_csum_udp4(x.a4, x.b4, udp, len)),
				 naive_l4_csum(x.s4, x.d4, 4, 17, udp, len));
		assert_int_equal(ntohs(xl_csum_udp6(&x.a6, &x.b6, udp, len)),
				 naive_l4_csum(x.s6, x.d6, 16, 17, udp, len));
		if (len % 2)
			odd++;
		else
			even++;
	}
	assert_true(odd > 500 && even > 500);
}

static void test_csum_udp_zero_and_jumbo(void **state)
{
	static uint8_t big[70001];
	struct rand_addrs x;
	uint8_t udp[64];
	uint16_t c;
	int i;

	rng_state = 0xfeedbeef;
	for (i = 0; i < 50; i++) {
		rand_addrs(&x);

		/*
		 * Make the sum come to 0xffff, so the checksum computes to 0:
		 * put the would-be checksum into the last (even) word.
		 */
		rng_fill(udp, sizeof(udp));
		udp[6] = udp[7] = 0;
		udp[62] = udp[63] = 0;
		c = naive_l4_csum(x.s4, x.d4, 4, 17, udp, sizeof(udp));
		wr16(udp + 62, c);
		assert_int_equal(ntohs(xl_csum_udp4(x.a4, x.b4, udp, sizeof(udp))),
				 0xffff);

		udp[62] = udp[63] = 0;
		c = naive_l4_csum(x.s6, x.d6, 16, 17, udp, sizeof(udp));
		wr16(udp + 62, c);
		c = xl_csum_udp6(&x.a6, &x.b6, udp, sizeof(udp));
		assert_int_equal(ntohs(c), 0xffff);
	}

	/* IPv6 pseudo-header length is 32 bits (RFC 8200 8.1). */
	rng_fill(big, sizeof(big));
	assert_int_equal(ntohs(xl_csum_udp6(&x.a6, &x.b6, big, sizeof(big))),
			 naive_l4_csum(x.s6, x.d6, 16, 17, big, sizeof(big)));
	assert_int_equal(ntohs(xl_csum_udp6(&x.a6, &x.b6, big, 65536)),
			 naive_l4_csum(x.s6, x.d6, 16, 17, big, 65536));
}

/* ---- builder ------------------------------------------------------------ */

/* Check a built UDP frame field by field, its checksums and its parse. */
static void check_built(const uint8_t *f, const struct xl_pkt_spec *s)
{
	size_t l3_off = XL_ETH_HLEN, l4_off, udp_len, i;
	const uint8_t *ip = f + l3_off, *udp;
	struct xl_pkt_info info;

	assert_memory_equal(f, s->dst_mac, 6);
	assert_memory_equal(f + 6, s->src_mac, 6);
	if (s->ipv6) {
		l4_off = l3_off + 40;
		udp_len = s->size - l4_off;
		assert_int_equal(rd16(f + 12), ETH_IP6);
		assert_int_equal(ip[0], 0x60);
		assert_int_equal(ip[1] | ip[2] | ip[3], 0);
		assert_int_equal(rd16(ip + 4), udp_len);
		assert_int_equal(ip[6], 17);
		assert_int_equal(ip[7], s->ttl ? s->ttl : 64);
		assert_memory_equal(ip + 8, &s->src_ip6, 16);
		assert_memory_equal(ip + 24, &s->dst_ip6, 16);
	} else {
		l4_off = l3_off + 20;
		udp_len = s->size - l4_off;
		assert_int_equal(rd16(f + 12), ETH_IP4);
		assert_int_equal(ip[0], 0x45);
		assert_int_equal(ip[1], 0);
		assert_int_equal(rd16(ip + 2), s->size - XL_ETH_HLEN);
		assert_int_equal(rd16(ip + 4), 0);
		assert_int_equal(rd16(ip + 6), 0);
		assert_int_equal(ip[8], s->ttl ? s->ttl : 64);
		assert_int_equal(ip[9], 17);
		assert_memory_equal(ip + 12, &s->src_ip4, 4);
		assert_memory_equal(ip + 16, &s->dst_ip4, 4);
		assert_int_equal(xl_csum_partial(ip, 20, 0), 0xffff);
	}
	udp = f + l4_off;
	assert_int_equal(rd16(udp), s->src_port);
	assert_int_equal(rd16(udp + 2), s->dst_port);
	assert_int_equal(rd16(udp + 4), udp_len);
	for (i = 8; i < udp_len; i++)
		assert_int_equal(udp[i], (i - 8) & 0xff);

	/* Verify the UDP checksum: the whole sum must come to 0xffff. */
	if (s->ipv6) {
		uint32_t acc = xl_csum_partial(ip + 8, 32, 0);
		uint8_t tail[8] = { 0, 0, udp_len >> 8, udp_len & 0xff,
				    0, 0, 0, 17 };

		acc = xl_csum_partial(tail, sizeof(tail), acc);
		assert_int_equal(xl_csum_partial(udp, udp_len, acc), 0xffff);
		assert_int_not_equal(rd16(udp + 6), 0);
	} else {
		uint32_t acc = xl_csum_partial(ip + 12, 8, 0);
		uint8_t tail[4] = { 0, 17, udp_len >> 8, udp_len & 0xff };

		acc = xl_csum_partial(tail, sizeof(tail), acc);
		assert_int_equal(xl_csum_partial(udp, udp_len, acc), 0xffff);
	}
	/* Same against the naive implementation (checksum field zeroed). */
	{
		uint8_t copy[XL_PKT_MAX_SIZE];

		memcpy(copy, udp, udp_len);
		copy[6] = copy[7] = 0;
		if (s->ipv6)
			assert_int_equal(rd16(udp + 6),
					 naive_l4_csum(ip + 8, ip + 24, 16, 17,
						       copy, udp_len));
		else
			assert_int_equal(rd16(udp + 6),
					 naive_l4_csum(ip + 12, ip + 16, 4, 17,
						       copy, udp_len));
	}

	/* Round trip through the parser. */
	assert_int_equal(parse_exact(f, s->size, &info), 0);
	assert_int_equal(info.l3_proto, s->ipv6 ? ETH_IP6 : ETH_IP4);
	assert_int_equal(info.vlans, 0);
	assert_int_equal(info.l3_off, l3_off);
	assert_int_equal(info.l4_off, l4_off);
	assert_int_equal(info.l4_proto, 17);
	assert_int_equal(info.src_port, s->src_port);
	assert_int_equal(info.dst_port, s->dst_port);
	assert_true(info.ip_csum_ok);
	assert_true(info.l4_csum_ok);
}

static void test_build_sizes(void **state)
{
	static const uint32_t v4_sizes[] = { 60, 61, 64, 1500, 1514,
					     XL_PKT_MAX_SIZE };
	static const uint32_t v6_sizes[] = { 62, 63, 64, 1500, 1514,
					     XL_PKT_MAX_SIZE };
	static uint8_t buf[XL_PKT_MAX_SIZE + 64];
	struct xl_pkt_spec s;
	size_t i;

	for (i = 0; i < sizeof(v4_sizes) / sizeof(v4_sizes[0]); i++) {
		fill_spec(&s, false, v4_sizes[i]);
		memset(buf, 0xee, sizeof(buf));
		assert_int_equal(xl_pkt_build(&s, buf, s.size), s.size);
		assert_int_equal(buf[s.size], 0xee); /* nothing written past */
		check_built(buf, &s);
	}
	for (i = 0; i < sizeof(v6_sizes) / sizeof(v6_sizes[0]); i++) {
		fill_spec(&s, true, v6_sizes[i]);
		memset(buf, 0xee, sizeof(buf));
		assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)), s.size);
		assert_int_equal(buf[s.size], 0xee);
		check_built(buf, &s);
	}

	/* Random sizes, ports, addresses and TTLs, both families. */
	rng_state = 0xc0ffee;
	for (i = 0; i < 300; i++) {
		fill_spec(&s, i & 1, 62 + rng() % (XL_PKT_MAX_SIZE - 61));
		s.src_port = rng() & 0xffff;
		s.dst_port = rng() & 0xffff;
		s.ttl = rng() & 0xff;
		rng_fill((uint8_t *)&s.src_ip4, 4);
		rng_fill((uint8_t *)&s.dst_ip6, 16);
		assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)), s.size);
		check_built(buf, &s);
	}
}

static void test_build_invalid(void **state)
{
	static const uint32_t bad[] = { 0, 1, 59, XL_PKT_MAX_SIZE + 1,
					UINT32_MAX };
	static uint8_t buf[XL_PKT_MAX_SIZE + 64];
	struct xl_pkt_spec s;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fill_spec(&s, false, bad[i]);
		assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)), -EINVAL);
		fill_spec(&s, true, bad[i]);
		assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)), -EINVAL);
	}
	/* IPv6 headers need 62 bytes. */
	fill_spec(&s, true, 60);
	assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)), -EINVAL);
	fill_spec(&s, true, 61);
	assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)), -EINVAL);
	fill_spec(&s, true, 62);
	assert_int_equal(xl_pkt_build(&s, buf, 62), 62);

	/* Buffer too small. */
	fill_spec(&s, false, 64);
	assert_int_equal(xl_pkt_build(&s, buf, 63), -ENOSPC);
	assert_int_equal(xl_pkt_build(&s, buf, 0), -ENOSPC);
	assert_int_equal(xl_pkt_build(&s, buf, 64), 64);
	fill_spec(&s, true, 1514);
	assert_int_equal(xl_pkt_build(&s, buf, 1513), -ENOSPC);
}

/*
 * Expected frames, computed outside the library with an independent script
 * (python3 struct/socket, RFC 1071 sum over 16-bit big-endian words):
 * 02:00:00:00:00:01 -> 02:00:00:00:00:02, UDP 1234 -> 5678, TTL 64.
 */
static const uint8_t expect_ip4_64[64] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, /* dst, src MAC */
	0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45, 0x00, /* type, ver/ihl */
	0x00, 0x32, 0x00, 0x00, 0x00, 0x00, 0x40, 0x11, /* len 50, ttl */
	0x66, 0xb9, 0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, /* csum, 10.0.0.1 */
	0x00, 0x02, 0x04, 0xd2, 0x16, 0x2e, 0x00, 0x1e, /* 10.0.0.2, udp */
	0x62, 0x36, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, /* csum, payload */
	0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
	0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
};

/* fd00::1 -> fd00::2, 66 bytes (4 bytes of payload). */
static const uint8_t expect_ip6_66[66] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00,
	0x00, 0x00, 0x00, 0x01, 0x86, 0xdd, 0x60, 0x00,
	0x00, 0x00, 0x00, 0x0c, 0x11, 0x40, 0xfd, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xfd, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x04, 0xd2,
	0x16, 0x2e, 0x00, 0x0c, 0xe8, 0xcd, 0x00, 0x01,
	0x02, 0x03,
};

static void test_build_bytes(void **state)
{
	uint8_t buf[128];
	struct xl_pkt_spec s;

	fill_spec(&s, false, sizeof(expect_ip4_64));
	assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)), 64);
	assert_memory_equal(buf, expect_ip4_64, sizeof(expect_ip4_64));

	fill_spec(&s, true, sizeof(expect_ip6_66));
	assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)), 66);
	assert_memory_equal(buf, expect_ip6_66, sizeof(expect_ip6_66));
}

/*
 * xl_stamp_put(): the 20 bytes at the UDP payload, field by field, and the
 * UDP checksum still valid after the incremental update, both from the
 * frame's own bytes (xsk txpush) twice in a row and from a template (gen);
 * the smallest sizes that hold the stamp.
 */
static void test_stamp_put(void **state)
{
	static const uint8_t want[XL_STAMP_LEN] = {
		0xbe, 0x9b, 0xe9, 0x55, 0x00, 0x00, 0x01, 0x02, /* magic, seq 258 */
		0x00, 0x00, 0x00, 0x07, 0x00, 0x01, 0xe2, 0x40, /* 7 s, 123456 us */
		0x03, 0x15, 0x00, 0x00,				/* 789 ns, 0 */
	};
	uint8_t buf[128], tmpl[128];
	struct xl_pkt_spec s;
	struct xl_pkt_layout lo;
	struct xl_pkt_info info;
	uint16_t csum;
	int i;

	fill_spec(&s, false, 64);
	assert_int_equal(xl_pkt_build(&s, tmpl, sizeof(tmpl)), 64);
	xl_pkt_layout(&s, &lo);
	assert_int_equal(lo.payload_off, 42);
	memcpy(buf, tmpl, sizeof(buf));
	for (i = 0; i < 2; i++) {
		memcpy(&csum, buf + lo.l4_csum_off, 2);
		xl_stamp_put(buf, lo.payload_off, lo.l4_csum_off, csum,
			     (uint16_t)~xl_csum_partial(buf + lo.payload_off, XL_STAMP_LEN, 0), 258 + i,
			     7123456789ull + i * 1000000001ull);
		assert_int_equal(xl_pkt_parse(buf, 64, &info), 0);
		assert_true(info.l4_csum_ok);
	}
	/* The second: seq 259, 8 s 123456 us 790 ns. */
	assert_int_equal(buf[42 + 7], 0x03);
	assert_int_equal(buf[42 + 11], 0x08);
	assert_int_equal(buf[42 + 15], 0x40);
	assert_int_equal(buf[42 + 17], 0x16);
	/* From the template: the bytes of the first, exactly. */
	memcpy(&csum, tmpl + lo.l4_csum_off, 2);
	memcpy(buf, tmpl, sizeof(buf));
	xl_stamp_put(buf, lo.payload_off, lo.l4_csum_off, csum,
		     (uint16_t)~xl_csum_partial(tmpl + lo.payload_off, XL_STAMP_LEN, 0), 258,
		     7123456789ull);
	assert_memory_equal(buf + 42, want, sizeof(want));
	assert_memory_equal(buf, tmpl, 40); /* all before the checksum unchanged */
	assert_memory_equal(buf + 62, tmpl + 62, 2);
	assert_int_equal(xl_pkt_parse(buf, 64, &info), 0);
	assert_true(info.l4_csum_ok);
	assert_int_equal(xl_stamp_min_size(&s), 62);
	fill_spec(&s, true, 100);
	assert_int_equal(xl_stamp_min_size(&s), 82);
	fill_spec(&s, false, 64);
	s.nvlans = 1;
	assert_int_equal(xl_stamp_min_size(&s), 66);
}

/* ---- parser ------------------------------------------------------------- */

static void test_parse_truncated(void **state)
{
	static const uint32_t sizes[] = { 60, 61, 64, 127, 1514 };
	uint8_t buf[1520];
	struct xl_pkt_spec s;
	struct xl_pkt_info info;
	size_t i, len;
	int v6;

	for (v6 = 0; v6 < 2; v6++) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			fill_spec(&s, v6, sizes[i] + (v6 ? 2 : 0));
			assert_int_equal(xl_pkt_build(&s, buf, sizeof(buf)),
					 s.size);
			/* Every strict prefix is a truncated IP packet. */
			for (len = 0; len < s.size; len++) {
				assert_int_equal(parse_exact(buf, len, &info),
						 -EBADMSG);
				assert_int_equal(info.l3_proto,
						 len < XL_ETH_HLEN ? 0 :
						 v6 ? ETH_IP6 : ETH_IP4);
				assert_true(info.l3_off <= len);
				assert_true(info.l4_off <= len);
			}
			assert_int_equal(parse_exact(buf, len, &info), 0);
		}
	}
	assert_int_equal(xl_pkt_parse(NULL, 0, &info), -EBADMSG);
}

/* Insert @n bytes of @ins at @at in a frame of *@len bytes. */
static void insert_bytes(uint8_t *f, size_t *len, size_t at,
			 const uint8_t *ins, size_t n)
{
	memmove(f + at + n, f + at, *len - at);
	memcpy(f + at, ins, n);
	*len += n;
}

static void test_parse_vlan(void **state)
{
	static const uint8_t ctag[4] = { 0x81, 0x00, 0x00, 0x64 }; /* VID 100 */
	static const uint8_t stag[4] = { 0x88, 0xa8, 0x20, 0xc8 }; /* VID 200 */
	uint8_t f[256];
	struct xl_pkt_spec s;
	struct xl_pkt_info info;
	size_t len, cut;
	int v6, tags;

	for (v6 = 0; v6 < 2; v6++) {
		for (tags = 1; tags <= 3; tags++) {
			fill_spec(&s, v6, 100);
			len = xl_pkt_build(&s, f, sizeof(f));
			/* Tags go where the Ethertype is; outermost last. */
			insert_bytes(f, &len, 12, ctag, 4);
			if (tags >= 2)
				insert_bytes(f, &len, 12, stag, 4);
			if (tags >= 3)
				insert_bytes(f, &len, 12, stag, 4);
			assert_int_equal(len, 100 + 4 * tags);

			if (tags == 3) {
				/* Only two are parsed. */
				assert_int_equal(parse_exact(f, len, &info),
						 -EPROTONOSUPPORT);
				assert_int_equal(info.vlans, 2);
				assert_int_equal(info.l3_proto, 0x8100);
				continue;
			}
			assert_int_equal(parse_exact(f, len, &info), 0);
			assert_int_equal(info.vlans, tags);
			assert_int_equal(info.l3_proto, v6 ? ETH_IP6 : ETH_IP4);
			assert_int_equal(info.l3_off, 14 + 4 * tags);
			assert_int_equal(info.l4_off,
					 14 + 4 * tags + (v6 ? 40 : 20));
			assert_int_equal(info.l4_proto, 17);
			assert_int_equal(info.src_port, 1234);
			assert_int_equal(info.dst_port, 5678);
			assert_true(info.ip_csum_ok);
			assert_true(info.l4_csum_ok);
			for (cut = 0; cut < len; cut++)
				assert_int_equal(parse_exact(f, cut, &info),
						 -EBADMSG);
		}
	}
}

/* Build an IPv6/UDP frame and put @ext (chain ending in UDP) after the
 * IPv6 header; @first is the type of the first extension header. */
static size_t build_ip6_ext(uint8_t *f, size_t cap, uint8_t first,
			    const uint8_t *ext, size_t ext_len)
{
	struct xl_pkt_spec s;
	size_t len;

	fill_spec(&s, true, 90);
	assert_int_equal(xl_pkt_build(&s, f, cap), 90);
	len = 90;
	insert_bytes(f, &len, XL_ETH_HLEN + 40, ext, ext_len);
	f[XL_ETH_HLEN + 6] = first;
	wr16(f + XL_ETH_HLEN + 4, rd16(f + XL_ETH_HLEN + 4) + ext_len);
	return len;
}

/* xl_pkt_parse() of build_ip6_ext()'s frame (@first, @ext of @ext_len bytes) into @info. */
static int parse_ip6_ext(uint8_t first, const uint8_t *ext, size_t ext_len,
			 struct xl_pkt_info *info)
{
	uint8_t f[256];

	return parse_exact(f, build_ip6_ext(f, sizeof(f), first, ext, ext_len), info);
}

static void test_parse_ipv6_ext(void **state)
{
	/* Hop-by-hop (next: fragment, PadN 4) + fragment (atomic, next UDP). */
	static const uint8_t hbh_frag[16] = {
		44, 0, 0x01, 0x04, 0, 0, 0, 0,
		17, 0, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78,
	};
	/* Routing (type 4, 0 segments left, 16-byte) + dest-opts (PadN). */
	static const uint8_t rt_dst[32] = {
		60, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		17, 1, 0x01, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	uint8_t f[256], ext[32];
	struct xl_pkt_info info;
	size_t len, cut;

	len = build_ip6_ext(f, sizeof(f), 0, hbh_frag, sizeof(hbh_frag));
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_int_equal(info.l3_off, 14);
	assert_int_equal(info.l4_off, 14 + 40 + 16);
	assert_int_equal(info.l4_proto, 17);
	assert_int_equal(info.src_port, 1234);
	assert_int_equal(info.dst_port, 5678);
	assert_true(info.l4_csum_ok); /* pseudo-header uses the UDP length */
	for (cut = 0; cut < len; cut++)
		assert_int_equal(parse_exact(f, cut, &info), -EBADMSG);

	assert_int_equal(parse_ip6_ext(43, rt_dst, sizeof(rt_dst), &info), 0);
	assert_int_equal(info.l4_off, 14 + 40 + 32);
	assert_int_equal(info.dst_port, 5678);
	assert_true(info.l4_csum_ok);

	/* Segments left: the final destination is not in the IPv6 header,
	 * so the checksum cannot be verified against it. */
	memcpy(ext, rt_dst, sizeof(rt_dst));
	ext[3] = 1;
	assert_int_equal(parse_ip6_ext(43, ext, sizeof(rt_dst), &info), 0);
	assert_int_equal(info.dst_port, 5678);
	assert_false(info.l4_csum_ok);

	/* The fragment header is 8 bytes whatever its reserved byte says. */
	memcpy(ext, hbh_frag, 16);
	ext[9] = 3;
	assert_int_equal(parse_ip6_ext(0, ext, 16, &info), 0);
	assert_int_equal(info.l4_off, 70);
	assert_true(info.l4_csum_ok);

	/* First fragment of several (M = 1): ports, checksum not checked. */
	memcpy(ext, hbh_frag, 16);
	ext[11] = 0x01;
	assert_int_equal(parse_ip6_ext(0, ext, 16, &info), 0);
	assert_int_equal(info.l4_off, 70);
	assert_int_equal(info.src_port, 1234);
	assert_false(info.l4_csum_ok);

	/* A later fragment (offset 8 units, then 1 unit): no L4 header. */
	ext[10] = 0x00;
	ext[11] = 0x40;
	assert_int_equal(parse_ip6_ext(0, ext, 16, &info), 0);
	assert_int_equal(info.l4_proto, 17);
	assert_int_equal(info.l4_off, 0);
	assert_int_equal(info.src_port, 0);
	ext[11] = 0x08;
	assert_int_equal(parse_ip6_ext(0, ext, 16, &info), 0);
	assert_int_equal(info.l4_off, 0);

	/* Wrong version under Ethertype IPv6. */
	len = build_ip6_ext(f, sizeof(f), 17, ext, 0);
	assert_int_equal(parse_exact(f, len, &info), 0);
	f[XL_ETH_HLEN] = 0x40;
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);

	/* Hop-by-hop after another extension header is malformed. */
	memcpy(ext, hbh_frag, 16);
	ext[0] = 0; /* hop-by-hop -> hop-by-hop */
	assert_int_equal(parse_ip6_ext(0, ext, 16, &info), -EBADMSG);

	/* Extension header longer than the payload. */
	memcpy(ext, hbh_frag, 16);
	ext[1] = 200;
	assert_int_equal(parse_ip6_ext(0, ext, 16, &info), -EBADMSG);

	/* No next header: nothing to parse, not an error. */
	assert_int_equal(parse_ip6_ext(59, ext, 0, &info), 0);
	assert_int_equal(info.l4_proto, 59);
	assert_int_equal(info.l4_off, 0);
}

static void refresh_ip4_csum(uint8_t *ip)
{
	uint16_t csum;

	ip[10] = ip[11] = 0;
	csum = xl_csum_ipv4(ip, (ip[0] & 0xf) * 4);
	memcpy(ip + 10, &csum, 2);
}

static void test_parse_ipv4_edge(void **state)
{
	/* IPv4 options: NOP, NOP, NOP, EOL. */
	static const uint8_t opts[4] = { 0x01, 0x01, 0x01, 0x00 };
	uint8_t f[256], *ip = f + XL_ETH_HLEN;
	struct xl_pkt_spec s;
	struct xl_pkt_info info;
	size_t len, cut;

	/* IHL 6: four bytes of options. */
	fill_spec(&s, false, 80);
	len = xl_pkt_build(&s, f, sizeof(f));
	insert_bytes(f, &len, XL_ETH_HLEN + 20, opts, 4);
	ip[0] = 0x46;
	wr16(ip + 2, len - XL_ETH_HLEN);
	refresh_ip4_csum(ip);
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_int_equal(info.l4_off, 14 + 24);
	assert_int_equal(info.src_port, 1234);
	assert_true(info.ip_csum_ok);
	assert_true(info.l4_csum_ok);
	for (cut = 0; cut < len; cut++)
		assert_int_equal(parse_exact(f, cut, &info), -EBADMSG);

	/* IHL below 5, and IHL beyond the frame. */
	ip[0] = 0x44;
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);
	ip[9] = 1; /* ICMP: no L4 length check to catch it later */
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);
	ip[0] = 0x40;
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);
	ip[0] = 0x4f;
	assert_int_equal(parse_exact(f, 40, &info), -EBADMSG);

	/* Wrong version under Ethertype IPv4. */
	fill_spec(&s, false, 64);
	len = xl_pkt_build(&s, f, sizeof(f));
	ip[0] = 0x65;
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);

	/* Ethernet padding after the IP packet is fine. */
	len = xl_pkt_build(&s, f, sizeof(f));
	memset(f + len, 0, 16);
	assert_int_equal(parse_exact(f, len + 16, &info), 0);
	assert_true(info.l4_csum_ok);

	/* Total length below the header, or past the frame. */
	wr16(ip + 2, 19);
	refresh_ip4_csum(ip);
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);
	wr16(ip + 2, len - XL_ETH_HLEN + 1);
	refresh_ip4_csum(ip);
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);

	/* Bad header checksum: still parsed, flagged. */
	len = xl_pkt_build(&s, f, sizeof(f));
	ip[10] ^= 0x01;
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_false(info.ip_csum_ok);
	assert_true(info.l4_csum_ok);

	/* Bad UDP checksum, then no UDP checksum (valid over IPv4). */
	len = xl_pkt_build(&s, f, sizeof(f));
	f[len - 1] ^= 0x80;
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_true(info.ip_csum_ok);
	assert_false(info.l4_csum_ok);
	f[40] = f[41] = 0;
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_true(info.l4_csum_ok);

	/* UDP length field larger than the IP payload, or below 8. */
	len = xl_pkt_build(&s, f, sizeof(f));
	wr16(f + 38, rd16(f + 38) + 1);
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);
	wr16(f + 38, 7);
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);

	/* Non-first fragment: no L4 header; first fragment: ports. */
	len = xl_pkt_build(&s, f, sizeof(f));
	wr16(ip + 6, 0x0010);
	refresh_ip4_csum(ip);
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_int_equal(info.l4_proto, 17);
	assert_int_equal(info.l4_off, 0);
	assert_int_equal(info.dst_port, 0);
	wr16(ip + 6, 0x1000); /* highest offset bit */
	refresh_ip4_csum(ip);
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_int_equal(info.l4_off, 0);
	wr16(ip + 6, 0x2000);
	refresh_ip4_csum(ip);
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_int_equal(info.l4_off, 34);
	assert_int_equal(info.dst_port, 5678);
	assert_false(info.l4_csum_ok);

	/* Other L4 protocols: found, no ports. */
	len = xl_pkt_build(&s, f, sizeof(f));
	ip[9] = 1; /* ICMP */
	refresh_ip4_csum(ip);
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_int_equal(info.l4_proto, 1);
	assert_int_equal(info.l4_off, 34);
	assert_int_equal(info.src_port, 0);
	assert_false(info.l4_csum_ok);
}

static void test_parse_ipv6_zero_udp_csum(void **state)
{
	uint8_t f[128];
	struct xl_pkt_spec s;
	struct xl_pkt_info info;
	int len;

	fill_spec(&s, true, 80);
	len = xl_pkt_build(&s, f, sizeof(f));
	f[60] = f[61] = 0; /* RFC 8200: a zero UDP checksum is invalid */
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_false(info.l4_csum_ok);
}

static void test_parse_tcp(void **state)
{
	uint8_t f[128], *ip = f + XL_ETH_HLEN, *tcp = ip + 20;
	struct xl_pkt_spec s;
	struct xl_pkt_info info;
	size_t len, seg, cut;
	uint16_t csum;

	/* Turn a built UDP frame into TCP: 20-byte header, 30 bytes data. */
	fill_spec(&s, false, 84);
	len = xl_pkt_build(&s, f, sizeof(f));
	seg = len - 34;
	ip[9] = 6;
	refresh_ip4_csum(ip);
	memset(tcp, 0, 20);
	wr16(tcp, 443);
	wr16(tcp + 2, 50000);
	tcp[12] = 5 << 4;
	tcp[13] = 0x18; /* PSH, ACK */
	wr16(tcp + 14, 65535);
	csum = naive_l4_csum(ip + 12, ip + 16, 4, 6, tcp, seg);
	wr16(tcp + 16, csum);

	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_int_equal(info.l4_proto, 6);
	assert_int_equal(info.l4_off, 34);
	assert_int_equal(info.src_port, 443);
	assert_int_equal(info.dst_port, 50000);
	assert_true(info.l4_csum_ok);
	for (cut = 0; cut < len; cut++)
		assert_int_equal(parse_exact(f, cut, &info), -EBADMSG);

	tcp[20] ^= 0xff;
	assert_int_equal(parse_exact(f, len, &info), 0);
	assert_false(info.l4_csum_ok);

	/* Data offset below 5 words, or past the segment. */
	tcp[12] = 4 << 4;
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);
	tcp[12] = 15 << 4;
	assert_int_equal(parse_exact(f, len, &info), -EBADMSG);
}

static void test_parse_non_ip(void **state)
{
	/* ARP request 10.0.0.1 asks for 10.0.0.2, padded to 60 bytes. */
	uint8_t f[60] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 0x01,
		0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01,
		0x02, 0, 0, 0, 0, 0x01, 10, 0, 0, 1,
		0, 0, 0, 0, 0, 0, 10, 0, 0, 2,
	};
	struct xl_pkt_info info;

	assert_int_equal(parse_exact(f, sizeof(f), &info), -EPROTONOSUPPORT);
	assert_int_equal(info.l3_proto, ETH_ARP);
	assert_int_equal(info.l3_off, 14);
	assert_int_equal(info.vlans, 0);
	assert_int_equal(info.l4_off, 0);
	assert_int_equal(info.l4_proto, 0);

	/* 802.3 length field (LLC follows): not IP either. */
	wr16(f + 12, 46);
	assert_int_equal(parse_exact(f, sizeof(f), &info), -EPROTONOSUPPORT);
	assert_int_equal(info.l3_proto, 46);

	/* Bare Ethernet header of ARP: well formed as far as we look. */
	wr16(f + 12, ETH_ARP);
	assert_int_equal(parse_exact(f, 14, &info), -EPROTONOSUPPORT);
	assert_int_equal(parse_exact(f, 13, &info), -EBADMSG);
	assert_int_equal(info.l3_proto, 0);
}

/* Check what xl_pkt_parse() said about a captured frame of @len bytes. */
static bool corpus_frame_ok(int ret, const struct xl_pkt_info *in, size_t len)
{
	if (ret != 0 && ret != -EPROTONOSUPPORT && ret != -EBADMSG)
		return false;
	if (in->l3_off > len || in->l4_off > len || in->vlans > 2)
		return false;
	if (in->l4_off && in->l4_off < in->l3_off + 20)
		return false;
	if (ret == 0 && in->l3_proto != ETH_IP4 && in->l3_proto != ETH_IP6)
		return false;
	if ((in->src_port || in->dst_port) && in->l4_proto != 6 &&
	    in->l4_proto != 17)
		return false;
	return true;
}

/* Every frame of every capture in @dir_name (and its first 80 cuts). */
/* Parse every capture in @dir_name; 0, or -errno when it cannot be opened. */
static int parse_capture_dir(const char *dir_name, unsigned long *files, unsigned long *frames,
			     unsigned long *found)
{
	char errbuf[PCAP_ERRBUF_SIZE], path[4096];
	struct pcap_pkthdr *hdr;
	const u_char *data;
	struct dirent *de;
	DIR *dir;

	dir = opendir(dir_name);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		struct stat st;
		pcap_t *pc;

		snprintf(path, sizeof(path), "%s/%s", dir_name, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		pc = pcap_open_offline(path, errbuf);
		if (!pc)
			continue; /* not a capture libpcap can read */
		(*files)++;
		if (pcap_datalink(pc) != DLT_EN10MB) {
			pcap_close(pc);
			continue;
		}
		while (pcap_next_ex(pc, &hdr, &data) == 1) {
			size_t len = hdr->caplen, cut;
			struct xl_pkt_info info;
			int ret;

			ret = parse_exact(data, len, &info);
			if (!corpus_frame_ok(ret, &info, len)) {
				print_error("%s #%lu: ret %d l3 %u l4 %u\n",
					    path, *frames, ret,
					    info.l3_off, info.l4_off);
				fail();
			}
			(*frames)++;
			*found += ret == 0;
			/* Headers live in the first bytes: cut there too. */
			for (cut = 0; cut < len && cut < 80; cut++) {
				ret = parse_exact(data, cut, &info);
				if (!corpus_frame_ok(ret, &info, cut)) {
					print_error("%s #%lu cut %zu: %d\n",
						    path, *frames, cut, ret);
					fail();
				}
			}
		}
		pcap_close(pc);
	}
	closedir(dir);
	return 0;
}

/*
 * The project's own captures (build/test-pcaps, made by `make unit` with
 * scripts/make-test-pcaps.py) always; the corpus ../shared/corpus/tcpdump as
 * well where it exists; XL_CORPUS_DIR instead of it, which must exist and
 * hold at least one capture. Nothing is skipped on a fresh clone.
 */
static void test_parse_corpus(void **state)
{
	const char *dir_name = getenv("XL_CORPUS_DIR");
	unsigned long frames = 0, found = 0, files = 0, own;

	parse_capture_dir(OWN_PCAPS, &files, &frames, &found);
	/* 7 files; 14 + 5 + 1 + 4 + 4 + 3 + 3 records libpcap reads whole. */
	if (files != 7 || frames < 30)
		print_error("%s: %lu files, %lu frames (run 'make unit' from the repository root)\n",
			    OWN_PCAPS, files, frames);
	assert_int_equal(files, 7);
	assert_true(frames >= 30);
	own = frames;
	if (dir_name && *dir_name) {
		/* Named: it must be there and hold captures (a typo fails, loudly). */
		unsigned long before = files;
		int err = parse_capture_dir(dir_name, &files, &frames, &found);

		if (err)
			print_error("XL_CORPUS_DIR=%s: %s\n", dir_name, strerror(-err));
		else if (files == before)
			print_error("XL_CORPUS_DIR=%s: no capture libpcap can read\n", dir_name);
		assert_int_equal(err, 0);
		assert_true(files > before);
	} else {
		parse_capture_dir(DEFAULT_CORPUS, &files, &frames, &found); /* where it exists */
	}
	print_message("captures: %lu files, %lu Ethernet frames (%lu of our own), %lu with L4\n",
		      files, frames, own, found);
	assert_true(found > 0);
}

/* ---- MAC addresses ------------------------------------------------------ */

static void test_mac(void **state)
{
	static const char *const bad[] = {
		"00:11:22:33:44",	 "zz:11:22:33:44:55",
		"00:11:22:33:44:55:66", "",
		"0:11:22:33:44:55",	 "00-11-22-33-44-55",
		"00:11:22:33:44:55 ",	 "00:11:22:33:44:5",
		"00:11:22:33:44:5g",	 "00:11:22:33:44:",
		"001122334455",		 ":00:11:22:33:44:55",
	};
	static const uint8_t want[6] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint8_t mac[6], keep[6];
	char out[18];
	size_t i;

	assert_int_equal(xl_mac_parse("00:11:22:33:44:55", mac), 0);
	assert_memory_equal(mac, want, 6);
	assert_int_equal(xl_mac_parse("AA:bB:cc:DD:ee:FF", mac), 0);
	xl_mac_format(mac, out);
	assert_string_equal(out, "aa:bb:cc:dd:ee:ff");

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(keep, mac, 6);
		if (xl_mac_parse(bad[i], mac) != -EINVAL) {
			print_error("accepted \"%s\"\n", bad[i]);
			fail();
		}
		assert_memory_equal(mac, keep, 6); /* untouched on error */
	}
	assert_int_equal(xl_mac_parse(NULL, mac), -EINVAL);

	/* Format then parse round trip. */
	rng_state = 42;
	for (i = 0; i < 100; i++) {
		uint8_t m[6], back[6];

		rng_fill(m, 6);
		xl_mac_format(m, out);
		assert_int_equal(strlen(out), 17);
		assert_int_equal(xl_mac_parse(out, back), 0);
		assert_memory_equal(m, back, 6);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csum_rfc1071),
		cmocka_unit_test(test_csum_ipv4_vector),
		cmocka_unit_test(test_csum_udp_vs_naive),
		cmocka_unit_test(test_csum_udp_zero_and_jumbo),
		cmocka_unit_test(test_build_sizes),
		cmocka_unit_test(test_build_invalid),
		cmocka_unit_test(test_build_bytes),
		cmocka_unit_test(test_stamp_put),
		cmocka_unit_test(test_parse_truncated),
		cmocka_unit_test(test_parse_vlan),
		cmocka_unit_test(test_parse_ipv6_ext),
		cmocka_unit_test(test_parse_ipv4_edge),
		cmocka_unit_test(test_parse_ipv6_zero_udp_csum),
		cmocka_unit_test(test_parse_tcp),
		cmocka_unit_test(test_parse_non_ip),
		cmocka_unit_test(test_parse_corpus),
		cmocka_unit_test(test_mac),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
