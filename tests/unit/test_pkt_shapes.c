// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_pkt_shapes.c - the builder's frame shapes (issue 13 part 4): IPv4
 * and IPv6 x UDP, TCP SYN, TCP established x 0, 1, 2 VLAN tags (802.1Q, or
 * 802.1ad outside) x pattern or fill payload x TTL: the user-space parser
 * finds what was asked (tags, L4 offset and protocol, ports) with valid IP
 * and L4 checksums, xl_pkt_layout() agrees with it, the tag bytes and TCP
 * flags are exact, and sizes below the shape's minimum are refused; IPv6
 * extension headers (Hop-by-Hop, Destination Options, Routing, Fragment)
 * before L4.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "xdplab/gen.h"
#include "xdplab/pkt.h"
#include "xdplab/abi/parse.h"

static struct xl_pkt_spec base(bool ipv6)
{
	struct xl_pkt_spec s = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
				 .ipv6 = ipv6, .src_port = 1024, .dst_port = 9 };

	inet_pton(AF_INET, "198.18.0.1", &s.src_ip4);
	inet_pton(AF_INET, "198.18.0.2", &s.dst_ip4);
	inet_pton(AF_INET6, "2001:2::1", &s.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", &s.dst_ip6);
	return s;
}

static void test_shapes(void **state)
{
	static const uint32_t sizes[] = { 0 /* the minimum */, 100, 1514 };
	uint8_t f[1514];
	int v6, l4, nv, fill, si, cases = 0;

	(void)state;
	for (v6 = 0; v6 < 2; v6++)
		for (l4 = 0; l4 < 3; l4++)
			for (nv = 0; nv < 4; nv++) /* 3: two tags with 802.1ad outside */
				for (fill = 0; fill < 2; fill++)
					for (si = 0; si < 3; si++) {
		struct xl_pkt_spec s = base(v6);
		struct xl_pkt_layout lo;
		struct xl_pkt_info info;
		uint32_t i;

		s.l4 = l4;
		s.nvlans = nv > 2 ? 2 : nv;
		s.qinq = nv == 3;
		s.vlan_id[0] = 300;
		s.vlan_id[1] = 100;
		s.vlan_prio[0] = 5;
		s.vlan_prio[1] = 7;
		s.fill_set = fill;
		s.fill = 0xab;
		s.ttl = 7;
		xl_pkt_layout(&s, &lo);
		s.size = sizes[si] ? sizes[si] : lo.min_size;
		if (s.size < lo.min_size)
			continue;
		assert_int_equal(xl_pkt_build(&s, f, sizeof(f)), (int)s.size);
		assert_int_equal(xl_pkt_parse(f, s.size, &info), 0);
		assert_int_equal(info.vlans, s.nvlans);
		assert_int_equal(info.l3_off, lo.l3_off);
		assert_int_equal(info.l4_off, lo.l4_off);
		assert_int_equal(info.l4_proto, l4 ? 6 : 17);
		assert_int_equal(info.src_port, 1024);
		assert_int_equal(info.dst_port, 9);
		if (!v6)
			assert_true(info.ip_csum_ok);
		assert_true(info.l4_csum_ok);
		assert_int_equal(f[lo.l3_off + (v6 ? 7 : 8)], 7); /* TTL / hop limit */
		if (s.nvlans) {
			uint16_t tpid = f[12] << 8 | f[13], tci = f[14] << 8 | f[15];

			assert_int_equal(tpid, nv == 3 ? 0x88a8 : 0x8100);
			assert_int_equal(tci, 5 << 13 | 300);
		}
		if (s.nvlans == 2)
			assert_int_equal(f[16] << 8 | f[17], 0x8100);
		if (l4)
			assert_int_equal(f[lo.l4_off + 13], l4 == XL_L4_TCP_SYN ? 0x02 : 0x18);
		for (i = lo.payload_off; i < s.size; i++)
			assert_int_equal(f[i], fill ? 0xab : (i - lo.payload_off) & 0xff);
		/* A checksum error is seen: flip a payload byte or a port byte. */
		f[lo.l4_off] ^= 1;
		assert_int_equal(xl_pkt_parse(f, s.size, &info), 0);
		assert_false(info.l4_csum_ok);
		cases++;
					}
	assert_true(cases > 100);
}

static void test_shape_minimums(void **state)
{
	struct xl_pkt_spec s = base(true);
	struct xl_pkt_layout lo;
	uint8_t f[128];

	(void)state;
	s.l4 = XL_L4_TCP_SYN;
	s.nvlans = 2;
	xl_pkt_layout(&s, &lo);
	assert_int_equal(lo.min_size, 14 + 8 + 40 + 20);
	s.size = lo.min_size - 1;
	assert_int_equal(xl_pkt_build(&s, f, sizeof(f)), -EINVAL);
	s.size = lo.min_size;
	assert_int_equal(xl_pkt_build(&s, f, sizeof(f)), (int)lo.min_size);
	s.nvlans = 3;
	assert_int_equal(xl_pkt_build(&s, f, sizeof(f)), -EINVAL);
	s.nvlans = 1;
	s.vlan_id[0] = 4096;
	assert_int_equal(xl_pkt_build(&s, f, sizeof(f)), -EINVAL);
	/* IPv4/UDP keeps the Ethernet minimum. */
	s = base(false);
	xl_pkt_layout(&s, &lo);
	assert_int_equal(lo.min_size, 60);
	assert_int_equal(lo.l4_csum_off, 40);
}

/*
 * IPv6 extension headers (gen --ipv6-ext): every list x UDP/TCP x 0..2 tags
 * parses back through the one parser (abi/parse.h) to the L4 header the
 * layout names, with a valid L4 checksum (the pseudo-header length without
 * the headers), the payload length counting them, and the bytes of each
 * header as documented.
 */
static void test_ipv6_ext(void **state)
{
	static const char *const lists[] = { "hbh", "dst", "rt", "frag", "hbh,dst,rt,frag",
					     "dst,rt,frag,dst", "frag,dst" };
	uint8_t f[1514];
	size_t li;
	int l4, nv, cases = 0;

	(void)state;
	for (li = 0; li < sizeof(lists) / sizeof(lists[0]); li++)
		for (l4 = 0; l4 < 3; l4++)
			for (nv = 0; nv < 3; nv++) {
		struct xl_pkt_spec s = base(true);
		struct xl_pkt_layout lo;
		struct xl_pkt_info info;
		struct xl_l3_info l3;
		int n = xl_pkt_ext_parse(lists[li], s.ip6_ext), i;
		uint32_t x;

		assert_true(n >= 1);
		s.n_ext = n;
		s.l4 = l4;
		s.nvlans = nv;
		s.vlan_id[0] = s.vlan_id[1] = 5;
		xl_pkt_layout(&s, &lo);
		assert_int_equal(lo.l4_off, 14 + 4 * nv + 40 + 8 * n);
		s.size = lo.min_size;
		assert_int_equal(xl_pkt_build(&s, f, sizeof(f)), (int)s.size);
		assert_int_equal(xl_parse_l3(f, f + s.size, &l3), XL_PARSE_OK);
		assert_int_equal(l3.ext, n);
		assert_int_equal(l3.fragment, 0);
		assert_int_equal(l3.daddr_unknown, 0);
		assert_int_equal(xl_pkt_parse(f, s.size, &info), 0);
		assert_int_equal(info.l4_off, lo.l4_off);
		assert_int_equal(info.l4_proto, l4 ? 6 : 17);
		assert_int_equal(info.src_port, 1024);
		assert_true(info.l4_csum_ok);
		/* Payload length: everything after the IPv6 header. */
		assert_int_equal(f[lo.l3_off + 4] << 8 | f[lo.l3_off + 5], s.size - lo.l3_off - 40);
		assert_int_equal(f[lo.l3_off + 6], s.ip6_ext[0]);
		for (i = 0, x = lo.l3_off + 40; i < n; i++, x += 8) {
			static const uint8_t pad[8] = { 0, 0, 1, 4 }, rt[8] = { 0, 0, 253, 0 },
					     frag[8] = { 0, 0, 0, 0, 0x78, 0x6c, 0, 1 };
			const uint8_t *want = s.ip6_ext[i] == XL_IP6_EXT_RT ? rt :
					      s.ip6_ext[i] == XL_IP6_EXT_FRAG ? frag : pad;

			assert_int_equal(f[x], i + 1 < n ? s.ip6_ext[i + 1] : (l4 ? 6 : 17));
			assert_memory_equal(f + x + 1, want + 1, 7);
		}
		f[lo.l4_off + 1] ^= 1;
		assert_int_equal(xl_pkt_parse(f, s.size, &info), 0);
		assert_false(info.l4_csum_ok);
		cases++;
			}
	assert_int_equal(cases, 7 * 3 * 3);
}

/* The list syntax and RFC 8200 4.1's order rules; IPv4 takes none. */
static void test_ipv6_ext_parse(void **state)
{
	struct xl_pkt_spec s = base(false);
	uint8_t e[XL_PKT_MAX_EXT], f[200];

	(void)state;
	assert_int_equal(xl_pkt_ext_parse("hbh,dst,rt,frag", e), 4);
	assert_memory_equal(e, ((uint8_t[]){ 0, 60, 43, 44 }), 4);
	assert_int_equal(xl_pkt_ext_parse("dst,rt,dst", e), 3);
	assert_int_equal(xl_pkt_ext_parse("dst,hbh", e), -EINVAL);   /* hbh not first */
	assert_int_equal(xl_pkt_ext_parse("rt,rt", e), -EINVAL);     /* twice */
	assert_int_equal(xl_pkt_ext_parse("dst,dst,dst", e), -EINVAL);
	assert_int_equal(xl_pkt_ext_parse("frag,", e), -EINVAL);     /* empty item */
	assert_int_equal(xl_pkt_ext_parse("", e), -EINVAL);
	assert_int_equal(xl_pkt_ext_parse("ah", e), -EINVAL);
	assert_int_equal(xl_pkt_ext_parse("hbh,dst,rt,frag,dst", e), -E2BIG);
	assert_string_equal(xl_pkt_ext_name(44), "frag");
	assert_string_equal(xl_pkt_ext_name(51), "?");
	s.n_ext = 1;
	s.size = 100;
	assert_int_equal(xl_pkt_build(&s, f, sizeof(f)), -EINVAL); /* IPv4 */
	s = base(true);
	s.ip6_ext[0] = XL_IP6_EXT_DST;
	s.ip6_ext[1] = XL_IP6_EXT_HBH;
	s.n_ext = 2;
	s.size = 100;
	assert_int_equal(xl_pkt_build(&s, f, sizeof(f)), -EINVAL);
}

/* xl_gen_flow_make(): the fields and checksums of the frame built with them. */
static void test_flow_make(void **state)
{
	int v6, l4;

	(void)state;
	for (v6 = 0; v6 < 2; v6++)
		for (l4 = 0; l4 < 3; l4++) {
			struct xl_pkt_spec s = base(v6), t;
			struct xl_pkt_layout lo;
			struct xl_gen_flow f;
			uint8_t want[200];

			s.l4 = l4;
			s.nvlans = 1;
			s.vlan_id[0] = 7;
			s.size = 150;
			if (v6) /* and the L4 header behind extension headers */
				s.n_ext = xl_pkt_ext_parse("hbh,rt", s.ip6_ext);
			assert_int_equal(xl_gen_flow_make(&s, 5, 2, 3, &f), 0);
			t = s;
			t.src_port += 5;
			t.dst_port += 2;
			if (v6)
				t.src_ip6.s6_addr[15] += 3;
			else
				((uint8_t *)&t.src_ip4.s_addr)[3] += 3;
			assert_int_equal(xl_pkt_build(&t, want, sizeof(want)), 150);
			xl_pkt_layout(&t, &lo);
			assert_memory_equal(&f.src_port, want + lo.l4_off, 2);
			assert_memory_equal(&f.dst_port, want + lo.l4_off + 2, 2);
			assert_memory_equal(&f.saddr_lo, want + lo.l3_off + (v6 ? 22 : 14), 2);
			assert_memory_equal(&f.l4_csum, want + lo.l4_csum_off, 2);
			if (!v6)
				assert_memory_equal(&f.ip_csum, want + lo.l3_off + 10, 2);
			else
				assert_int_equal(f.ip_csum, 0);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_shape_minimums),
		cmocka_unit_test(test_ipv6_ext),
		cmocka_unit_test(test_ipv6_ext_parse),
		cmocka_unit_test(test_flow_make),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
