// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_bpf_ops.c - the packet operations of the real benchmark program
 * (bpf/bench.bpf.c) and the BPF side of the one network-layer parser, run
 * with BPF_PROG_RUN on every frame of a set of vectors (and of the test
 * captures when present), against the user-space parser xl_pkt_parse()
 * (issue 11 item 11):
 * - parse-ip: the test program tests/unit/parse_probe.bpf.c leaves the
 *   offset and protocol of L4 that BPF found; they must be xl_pkt_parse()'s
 *   for every frame it parses (a Hop-by-Hop then Fragment header: L4 at 78,
 *   UDP; the old BPF walk, which sized a header by the type of the next
 *   one, said 118 and protocol 30), and bench's parse-ip counts an error
 *   exactly when the user-space parser says "not IP" or "malformed" at the
 *   network layer;
 * - read-data: no error, the frame untouched;
 * - swap-macs: the output frame is the input with the MACs swapped, byte
 *   for byte; no-touch: untouched;
 * - the same three by bpf_xdp_load_bytes/store_bytes (--load-mode
 *   load-bytes): the same output byte for byte, no error.
 *
 * BPF_PROG_RUN needs CAP_BPF/CAP_SYS_ADMIN (root): `make check` runs as
 * root; without it the tests are skipped with that reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdplab/abi/bench.h"
#include "xdplab/abi/parse.h"
#include "bench.skel.h"
#include "parse_probe.skel.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"

#include "bpf_run.h"

#define MAX_FRAME 2048

struct vec {
	const char *name;
	uint8_t b[MAX_FRAME];
	uint32_t len;
	int want_l4_off; /* -1: the user-space parser must reject it */
	uint8_t want_proto;
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* Ethernet (+ VLAN tags) header; returns the L3 offset. */
static uint32_t eth(uint8_t *b, uint16_t proto, int tags)
{
	static const uint8_t dst[6] = { 0x02, 0x58, 0x4c, 0, 0, 2 }, src[6] = { 0x02, 0x58, 0x4c, 0, 0, 1 };
	uint32_t off = 12;
	int i;

	memcpy(b, dst, 6);
	memcpy(b + 6, src, 6);
	for (i = 0; i < tags; i++) {
		put16(b + off, i == 0 && tags == 2 ? 0x88a8 : 0x8100);
		put16(b + off + 2, 100 + i);
		off += 4;
	}
	put16(b + off, proto);
	return off + 2;
}

/* IPv6 header at @o with @nh and @plen bytes of payload. */
static void ip6(uint8_t *b, uint32_t o, uint8_t nh, uint16_t plen)
{
	memset(b + o, 0, 40);
	b[o] = 0x60;
	put16(b + o + 4, plen);
	b[o + 6] = nh;
	b[o + 7] = 64;
	b[o + 8] = 0x20; /* 2001:2::1 -> 2001:2::2 */
	b[o + 9] = 0x01;
	b[o + 11] = 0x02;
	b[o + 23] = 1;
	memcpy(b + o + 24, b + o + 8, 16);
	b[o + 39] = 2;
}

/* A UDP header of @len bytes (checksum 0: not computed, the test looks at offsets). */
static void udp(uint8_t *b, uint32_t o, uint16_t len)
{
	memset(b + o, 0, len);
	put16(b + o, 1024);
	put16(b + o + 2, 9);
	put16(b + o + 4, len);
}

static int build_vectors(struct vec *v)
{
	int n = 0;
	uint32_t o;

	/* Hop-by-Hop (16 bytes) then Fragment (8, first fragment, M=0) then UDP. */
	v[n].name = "ipv6 hop-by-hop 16 + fragment + udp";
	o = eth(v[n].b, 0x86dd, 0);
	ip6(v[n].b, o, 0, 16 + 8 + 16);
	memset(v[n].b + o + 40, 0, 16);
	v[n].b[o + 40] = 44;
	v[n].b[o + 41] = 1; /* (1 + 1) * 8 = 16 bytes */
	v[n].b[o + 40 + 16] = 17;
	udp(v[n].b, o + 40 + 24, 16);
	v[n].len = o + 40 + 24 + 16;
	v[n].want_l4_off = 78;
	v[n].want_proto = 17;
	n++;

	/* Routing (24 bytes, segments left 0) then Destination Options (8) then UDP, QinQ. */
	v[n].name = "qinq ipv6 routing 24 + dstopts + udp";
	o = eth(v[n].b, 0x86dd, 2);
	ip6(v[n].b, o, 43, 24 + 8 + 8);
	memset(v[n].b + o + 40, 0, 32);
	v[n].b[o + 40] = 60;
	v[n].b[o + 41] = 2;
	v[n].b[o + 40 + 24] = 17;
	udp(v[n].b, o + 40 + 32, 8);
	v[n].len = o + 40 + 40;
	v[n].want_l4_off = o + 40 + 32;
	v[n].want_proto = 17;
	n++;

	/* A non-first fragment: no L4 header, not an error. */
	v[n].name = "ipv6 non-first fragment";
	o = eth(v[n].b, 0x86dd, 0);
	ip6(v[n].b, o, 44, 8 + 16);
	memset(v[n].b + o + 40, 0, 24);
	v[n].b[o + 40] = 17;
	put16(v[n].b + o + 42, 185 << 3);
	v[n].len = o + 40 + 24;
	v[n].want_l4_off = 0;
	v[n].want_proto = 17;
	n++;

	/* IPv4 with 8 bytes of options, VLAN. */
	v[n].name = "vlan ipv4 ihl 7 + udp";
	o = eth(v[n].b, 0x0800, 1);
	memset(v[n].b + o, 0, 28);
	v[n].b[o] = 0x47;
	put16(v[n].b + o + 2, 28 + 8);
	v[n].b[o + 8] = 64;
	v[n].b[o + 9] = 17;
	udp(v[n].b, o + 28, 8);
	v[n].len = o + 36 + 10; /* 10 bytes of Ethernet padding */
	v[n].want_l4_off = o + 28;
	v[n].want_proto = 17;
	n++;

	/* Hop-by-Hop after another extension header: malformed. */
	v[n].name = "ipv6 dstopts then hop-by-hop";
	o = eth(v[n].b, 0x86dd, 0);
	ip6(v[n].b, o, 60, 16 + 8);
	memset(v[n].b + o + 40, 0, 16);
	v[n].b[o + 40] = 0;
	v[n].b[o + 48] = 17;
	udp(v[n].b, o + 56, 8);
	v[n].len = o + 64;
	v[n].want_l4_off = -1;
	n++;

	/* An extension header past the payload length: malformed. */
	v[n].name = "ipv6 extension header beyond the payload length";
	o = eth(v[n].b, 0x86dd, 0);
	ip6(v[n].b, o, 0, 8);
	memset(v[n].b + o + 40, 0, 24);
	v[n].b[o + 40] = 17;
	v[n].b[o + 41] = 2; /* 24 bytes, payload says 8 */
	v[n].len = o + 40 + 24;
	v[n].want_l4_off = -1;
	n++;

	/* Nine extension headers: more than XL_IP6_MAX_EXT. */
	v[n].name = "ipv6 nine destination options headers";
	o = eth(v[n].b, 0x86dd, 0);
	ip6(v[n].b, o, 60, 9 * 8 + 8);
	{
		int i;

		for (i = 0; i < 9; i++) {
			memset(v[n].b + o + 40 + i * 8, 0, 8);
			v[n].b[o + 40 + i * 8] = i < 8 ? 60 : 17;
		}
	}
	udp(v[n].b, o + 40 + 72, 8);
	v[n].len = o + 40 + 80;
	v[n].want_l4_off = -1;
	n++;

	/* ARP: well formed, not IP. */
	v[n].name = "arp";
	o = eth(v[n].b, 0x0806, 0);
	memset(v[n].b + o, 0, 28);
	v[n].len = 60;
	v[n].want_l4_off = -1;
	n++;

	/* IPv6 truncated inside its header. */
	v[n].name = "ipv6 truncated";
	o = eth(v[n].b, 0x86dd, 0);
	ip6(v[n].b, o, 17, 8);
	v[n].len = o + 30;
	v[n].want_l4_off = -1;
	n++;
	return n;
}

TEST_HAVE_BPF(parse_probe)

/* The BPF parser against the user-space one on frame @b of @len bytes. */
static void compare_parse(struct parse_probe *s, const char *name, const uint8_t *b, uint32_t len,
			  int want_l4_off, uint8_t want_proto, bool check_want)
{
	struct xl_pkt_info info;
	uint8_t out[MAX_FRAME + 256];
	uint32_t out_len = sizeof(out);
	int ur, r, bpf_ok;

	ur = xl_pkt_parse(b, len, &info);
	r = prog_run(bpf_program__fd(s->progs.xdp_parse_probe), b, len, out, &out_len);
	assert_int_equal(r, XDP_PASS);
	bpf_ok = s->bss->ret_l3 == XL_PARSE_OK;
	if (check_want) {
		if (want_l4_off < 0) {
			if (ur == 0 || bpf_ok)
				print_error("%s: user %d, bpf %d: both must reject\n", name, ur,
					    s->bss->ret_l3);
			assert_true(ur < 0);
			assert_false(bpf_ok);
		} else {
			if (ur || !bpf_ok || info.l4_off != want_l4_off ||
			    s->bss->l3.l4_off != want_l4_off || s->bss->l3.l4_proto != want_proto)
				print_error("%s: user %d l4 %u/%u, bpf %d l4 %u/%u, want %d/%u\n", name,
					    ur, info.l4_off, info.l4_proto, s->bss->ret_l3,
					    s->bss->l3.l4_off, s->bss->l3.l4_proto, want_l4_off,
					    want_proto);
			assert_int_equal(ur, 0);
			assert_true(bpf_ok);
			assert_int_equal(info.l4_off, want_l4_off);
			assert_int_equal(info.l4_proto, want_proto);
		}
	}
	/* Whatever the frame: the same network-layer verdict on both sides. */
	if (ur == -EPROTONOSUPPORT)
		assert_int_equal(s->bss->ret_l3, XL_PARSE_NOT_IP);
	if (ur == 0 || bpf_ok) {
		/* User space may still reject a bad L4 header (length); L3 agrees. */
		assert_true(bpf_ok);
		assert_int_equal(s->bss->l3.l4_off, info.l4_off);
		assert_int_equal(s->bss->l3.l4_proto, info.l4_proto);
		assert_int_equal(s->bss->l3.l3_off, info.l3_off);
		assert_int_equal(s->bss->l3.vlans, info.vlans);
		/* parse-ip's xl_parse_l4 is the same walk. */
		assert_int_equal(s->bss->ret_l4, info.l4_off);
		assert_int_equal(s->bss->l4_proto_l4, info.l4_proto);
	} else {
		assert_int_equal(s->bss->ret_l4, -1);
	}
}

/* Captures made by scripts/make-test-pcaps.py (build/test-pcaps) and the corpus, when present. */
static void for_each_capture(void (*fn)(const uint8_t *b, uint32_t len, void *ctx), void *ctx,
			     size_t *frames)
{
	static const char *const dirs[] = { "build/test-pcaps", "../shared/corpus/tcpdump" };
	size_t d, i;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		struct dirent *e;
		DIR *dir = opendir(dirs[d]);

		if (!dir)
			continue;
		while ((e = readdir(dir))) {
			struct xl_pcap_frames f;
			char path[512];

			if (!strstr(e->d_name, ".pcap"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], e->d_name);
			if (xl_frames_load_pcap(path, MAX_FRAME, &f))
				continue;
			for (i = 0; i < f.n; i++) {
				fn(f.data + f.off[i], f.len[i], ctx);
				(*frames)++;
			}
			xl_frames_free(&f);
		}
		closedir(dir);
	}
}

static void capture_parse(const uint8_t *b, uint32_t len, void *ctx)
{
	if (len >= 14)
		compare_parse(ctx, "capture frame", b, len, 0, 0, false);
}

static void test_parse_ip(void **state)
{
	static struct vec v[16];
	struct parse_probe *s;
	size_t frames = 0;
	int i, n;

	need_bpf();
	s = parse_probe__open_and_load();
	assert_non_null(s);
	n = build_vectors(v);
	for (i = 0; i < n; i++)
		compare_parse(s, v[i].name, v[i].b, v[i].len, v[i].want_l4_off, v[i].want_proto,
			      true);
	for_each_capture(capture_parse, s, &frames);
	print_message("parse-ip: %d vectors and %zu capture frames agree\n", n, frames);
	parse_probe__destroy(s);
}

/* The real benchmark program with packet operation @op, action XDP_PASS. */
/* @lb: --load-mode load-bytes (bpf_xdp_load_bytes/store_bytes). */
static struct bench *bench_load(int op, bool lb)
{
	struct bench *b = bench__open();

	assert_non_null(b);
	b->rodata->action = XDP_PASS;
	b->rodata->pkt_op = op;
	b->rodata->load_bytes = lb;
	assert_int_equal(bench__load(b), 0);
	return b;
}

static uint64_t bench_errors(struct bench *b)
{
	int n = libbpf_num_possible_cpus(), i;
	struct xl_bench_rec *recs = calloc(n, sizeof(*recs));
	uint64_t e = 0;
	__u32 key = 0;

	assert_non_null(recs);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(b->maps.bench_stats), &key, recs), 0);
	for (i = 0; i < n; i++)
		e += recs[i].errors;
	free(recs);
	return e;
}

/* b[0..3]: the operations by direct packet access; b[4 + op]: by
 * bpf_xdp_load_bytes (no-touch, read-data, swap-macs; b[6] unused). */
struct op_ctx {
	struct bench *b[8];
	uint64_t want_errors[8];
};

static void op_frame(const uint8_t *in, uint32_t len, void *vctx)
{
	struct op_ctx *c = vctx;
	uint8_t out[MAX_FRAME + 256], want[MAX_FRAME];
	struct xl_l3_info l3;
	uint32_t out_len;
	int op;

	if (len < 14 || len > MAX_FRAME)
		return;
	for (op = 0; op < 8; op++) {
		if (!c->b[op])
			continue;
		out_len = sizeof(out);
		assert_int_equal(prog_run(bpf_program__fd(c->b[op]->progs.xdp_bench_action), in,
					  len, out, &out_len),
				 XDP_PASS);
		assert_int_equal(out_len, len);
		memcpy(want, in, len);
		if (op % 4 == XL_OP_SWAP_MACS) {
			memcpy(want, in + 6, 6);
			memcpy(want + 6, in, 6);
		}
		assert_memory_equal(out, want, len);
		/* parse-ip fails exactly where the network layer does. */
		if (op == XL_OP_PARSE_IP && xl_parse_l3(in, in + len, &l3) != XL_PARSE_OK)
			c->want_errors[op]++;
	}
}

static void test_ops(void **state)
{
	static struct vec v[16];
	struct op_ctx c = { 0 };
	size_t frames = 0;
	int i, n, op;

	need_bpf();
	for (op = 0; op < 4; op++) {
		c.b[op] = bench_load(op, false);
		c.b[4 + op] = op == XL_OP_PARSE_IP ? NULL : bench_load(op, true);
	}
	n = build_vectors(v);
	for (i = 0; i < n; i++)
		op_frame(v[i].b, v[i].len, &c);
	for_each_capture(op_frame, &c, &frames);
	for (op = 0; op < 8; op++) {
		if (!c.b[op])
			continue;
		assert_int_equal(bench_errors(c.b[op]), c.want_errors[op]);
		bench__destroy(c.b[op]);
	}
	/* The vectors alone: 5 rejected at the network layer (ARP, truncated, ...). */
	assert_true(c.want_errors[XL_OP_PARSE_IP] >= 5);
	print_message("no-touch, read-data, parse-ip (%llu errors, as the user-space parser), swap-macs, and no-touch, read-data, swap-macs by bpf_xdp_load_bytes (byte-exact the same): %d vectors and %zu capture frames\n",
		      (unsigned long long)c.want_errors[XL_OP_PARSE_IP], n, frames);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ip),
		cmocka_unit_test(test_ops),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
